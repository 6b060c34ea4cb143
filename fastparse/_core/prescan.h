/* prescan.h — the HTML Standard's "prescan a byte stream to determine its
 * encoding" (13.2.3.2), the Encoding Standard's label table, and the whole
 * decision of detect() in fastparse/encoding.py for bytes without a BOM or
 * a hint (detect.c), in C. Engine code: no Python.h. */
#ifndef FP_PRESCAN_H
#define FP_PRESCAN_H

#include <stddef.h>
#include <stdint.h>

/* the spec's prescan window; and how far into a document that declares
 * nothing there the late <meta> is looked for (fastparse/encoding.py) */
enum { FP_PRESCAN_BYTES = 1024, FP_LATE_META_BYTES = 64 * 1024 };

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

/* "utf-16le" or "utf-16be" when p[0 .. n) looks like an HTML document in
 * UTF-16 without a BOM (its first FP_UTF16_PATTERN_UNITS code units: see
 * detect.c), else NULL. Reads p[0 .. n) only: safe without the GIL. */
enum { FP_UTF16_PATTERN_UNITS = 32 };
const char *fp_utf16_pattern(const uint8_t *p, size_t n);

/* Whether 7-bit p[0 .. n) is ISO-2022-JP: a run of JIS X 0208 between its
 * escapes in its first FP_ISO2022JP_SCAN_BYTES (detect.c). Reads p[0 .. n) only. */
enum { FP_ISO2022JP_SCAN_BYTES = 1 << 20 };
int fp_iso2022jp_escapes(const uint8_t *p, size_t n);

/* The late-meta step of detect(): the prescan again over the head of the
 * document, up to the first "<body" (ASCII case ignored) that starts past the
 * first FP_PRESCAN_BYTES, or over the first FP_LATE_META_BYTES; NULL when it
 * declares nothing there (or n <= FP_PRESCAN_BYTES: the first prescan read it all). */
const char *fp_late_meta(const uint8_t *p, size_t n);

/* What fastparse.encoding.detect() decides for bytes without a BOM and
 * without a transport hint: a WHATWG name (a static string), or NULL for bytes
 * that are not UTF-8 and declare nothing, whose encoding detect() guesses
 * from their text (fastparse/_encoding_guess.py; else windows-1252). Reads p[0 .. n)
 * only, allocates nothing: safe without the GIL. */
const char *fp_detect_encoding(const uint8_t *p, size_t n);

/* Whether the engine must have the bytes of this encoding transcoded first
 * ('<' may not be 0x3C, or ASCII bytes change meaning after an escape):
 * fastparse.encoding's _TRANSCODE. */
int fp_encoding_transcoded(const char *name);

#endif
