/* prescan.h — the HTML Standard's "prescan a byte stream to determine its
 * encoding" (13.2.3.2) and the Encoding Standard's label table, in C, for
 * detect() in fastparse/encoding.py. Engine code: no Python.h. */
#ifndef FP_PRESCAN_H
#define FP_PRESCAN_H

#include <stddef.h>
#include <stdint.h>

/* The prescan over exactly p[0 .. n), then, when it finds nothing, "get an
 * XML encoding". The caller chooses the window: the spec's first 1024 bytes,
 * or a document's head for the late-meta rule; running out of bytes is the
 * spec's end condition.
 * Returns the WHATWG name of the declared encoding, as fastparse/encoding.py
 * spells it ("utf-8", "windows-1251", "shift_jis", ...; a static string), or
 * NULL when there is no usable declaration. The spec's substitutions are
 * already made: UTF-16 named in a <meta> or an XML declaration gives
 * "utf-8", x-user-defined in a <meta> "windows-1252"; only the UTF-16 XML
 * declaration bytes "<\0?\0x\0" / "\0<\0?\0x" give "utf-16le" / "utf-16be".
 * Reads nothing outside p[0 .. n), allocates nothing, no global state:
 * safe without the GIL. */
const char *fp_prescan(const uint8_t *p, size_t n);

/* The Encoding Standard's "get an encoding": the WHATWG name for a label
 * (ASCII whitespace around it ignored, ASCII case-insensitive), or NULL. */
const char *fp_encoding_for_label(const uint8_t *label, size_t n);

#endif
