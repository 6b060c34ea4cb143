/* detect.c — fastparse.encoding.detect() for bytes without a BOM or a
 * transport hint, in C, so that parse() decides the encoding of most pages in
 * the same GIL-free stretch as the parse (py_module.c, _parse_bytes). The
 * steps and why each exists are in fastparse/encoding.py's docstring;
 * tests/test_encoding.py checks that both sides decide alike. */
#include <string.h>

#include "fp.h"
#include "internal.h"   /* fp_is_ws */
#include "prescan.h"

/* The late-meta step (prescan.h) */
const char *
fp_late_meta(const uint8_t *p, size_t n)
{
    if (n <= FP_PRESCAN_BYTES)
        return NULL;   /* the first prescan has read it all */
    size_t head = n < FP_LATE_META_BYTES ? n : FP_LATE_META_BYTES;
    const uint8_t *q = p + FP_PRESCAN_BYTES, *end = p + head;
    while (end - q >= 5 && (q = memchr(q, '<', (size_t)(end - q) - 4))) {
        /* | 0x20 folds ASCII case; no other byte folds onto these letters */
        if ((q[1] | 0x20) == 'b' && (q[2] | 0x20) == 'o' && (q[3] | 0x20) == 'd' && (q[4] | 0x20) == 'y') {
            head = (size_t)(q - p);
            break;
        }
        q++;
    }
    return fp_prescan(p, head);
}

static int markup_first(uint8_t b)
{
    return b == '<' || fp_is_ws(b);
}

/* BOM-less UTF-16, the autodetection step's other certain case beside the
 * UTF-8 check: an HTML document opens with markup (or whitespace), so its first
 * code unit has a zero high byte, as many of the next ones do (markup is
 * ASCII): at least four and a quarter of the first 32, with a zero low byte in
 * at most a quarter as many (U+4E00); no unit is NUL. An ASCII-compatible page
 * never has NULs at every other byte; as windows-1252 or UTF-8 such a page
 * reads "<\0h\0t\0m\0l\0". */
const char *
fp_utf16_pattern(const uint8_t *p, size_t n)
{
    size_t units = n / 2 < FP_UTF16_PATTERN_UNITS ? n / 2 : FP_UTF16_PATTERN_UNITS;
    if (units < 4 || (p[0] != 0 && p[1] != 0))
        return NULL;   /* the first unit decides the byte order, and has a zero byte */
    size_t zero_odd = 0, zero_even = 0;
    for (size_t i = 0; i < units; i++) {
        uint8_t even = p[2 * i], odd = p[2 * i + 1];
        if (even == 0 && odd == 0)
            return NULL;
        zero_odd += odd == 0;
        zero_even += even == 0;
    }
    /* a quarter: markup may be followed soon by text in another script */
    if (p[1] == 0 && markup_first(p[0]) && zero_odd >= 4 && 4 * zero_odd >= units && 4 * zero_even <= zero_odd)
        return "utf-16le";
    if (p[0] == 0 && markup_first(p[1]) && zero_even >= 4 && 4 * zero_even >= units && 4 * zero_odd <= zero_even)
        return "utf-16be";
    return NULL;
}

/* ISO-2022-JP without a declaration, which the UTF-8 check passes: its bytes
 * are 7-bit, and its Japanese text is a run that an escape switches to JIS
 * X 0208 (ESC $ B, or ESC $ @ of its 1978 edition): pairs of bytes 21-7E,
 * then an escape back to ASCII or JIS-Roman (ESC ( B, ESC ( J) before the line
 * ends, as RFC 1468 asks. ASCII pages hold no such run (a stray escape in a
 * script is not one); as UTF-8 such a page reads "\x1b$BF|K\\" and its "<sG>"
 * is a tag. Browsers' detectors (chardetng, CED) take these runs for ISO-2022-JP. */
int
fp_iso2022jp_escapes(const uint8_t *p, size_t n)
{
    const uint8_t *end = p + (n < FP_ISO2022JP_SCAN_BYTES ? n : FP_ISO2022JP_SCAN_BYTES);
    while (end - p >= 3 && (p = memchr(p, 0x1B, (size_t)(end - p) - 2))) {
        p++;
        if (p[0] != '$' || (p[1] != 'B' && p[1] != '@'))
            continue;
        const uint8_t *q = p + 2;
        while (q < end && *q >= 0x21 && *q <= 0x7E)
            q++;
        size_t run = (size_t)(q - (p + 2));
        if (run >= 2 && run % 2 == 0 && end - q >= 3 && q[0] == 0x1B && q[1] == '(' &&
            (q[2] == 'B' || q[2] == 'J'))
            return 1;
    }
    return 0;
}

const char *
fp_detect_encoding(const uint8_t *p, size_t n)
{
    const char *declared = fp_prescan(p, n < FP_PRESCAN_BYTES ? n : FP_PRESCAN_BYTES);
    if (declared && (strcmp(declared, "utf-8") == 0 || strncmp(declared, "utf-16", 6) == 0))
        return declared;   /* the bytes are not read; "<\0?\0x\0" is UTF-16 whatever follows */
    const char *wide = declared ? NULL : fp_utf16_pattern(p, n);
    if (wide)
        return wide;   /* before the UTF-8 check, which ASCII with NULs between passes */
    int state = fp_utf8_check(p, n);   /* 0 not UTF-8, 1 ASCII, 2 UTF-8 with non-ASCII */
    if (declared)   /* a page re-encoded to UTF-8 keeps its old <meta> */
        return state == 2 ? "utf-8" : declared;
    if (state)
        return state == 1 && fp_iso2022jp_escapes(p, n) ? "iso-2022-jp" : "utf-8";
    return fp_late_meta(p, n);   /* NULL: the guess (fastparse/_encoding_guess.py) decides */
}

int
fp_dbcs_of(const char *name)
{
    if (strcmp(name, "shift_jis") == 0)
        return FP_DBCS_SJIS;
    if (strcmp(name, "big5") == 0)
        return FP_DBCS_BIG5;
    if (strcmp(name, "gbk") == 0 || strcmp(name, "gb18030") == 0)
        return FP_DBCS_GB;
    return strcmp(name, "euc-kr") == 0 ? FP_DBCS_KR : FP_DBCS_NONE;
}

int
fp_encoding_transcoded(const char *name)
{
    return strcmp(name, "utf-16le") == 0 || strcmp(name, "utf-16be") == 0 ||
           strcmp(name, "iso-2022-jp") == 0 || strcmp(name, "replacement") == 0;
}
