/* utf16.c — UTF-16 to UTF-8. '<' in UTF-16 is two bytes, so the engine
 * cannot scan such a page as it is: parse() has it transcoded first, here,
 * without the GIL, instead of through a str (decode, then encode). Errors
 * become U+FFFD as Python's "replace" handler and the Encoding Standard's
 * decoder make them: a lone surrogate, and a trailing odd byte (with a lead
 * surrogate before it, one U+FFFD for both). */
#include "fp.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static inline uint32_t
unit_at(const uint8_t *p, int big_endian)
{
    return big_endian ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
}

size_t
fp_utf16_to_utf8(const uint8_t *p, size_t n, int big_endian, uint8_t *out)
{
    /* out has room for the worst case, so appending never grows the buffer */
    fp_buf b = {out, 0, FP_UTF16_TO_UTF8_CAP(n), 1};
    const uint8_t *end = p + n;
    while (end - p >= 2) {
#if defined(__SSE2__)
        /* markup is ASCII: 8 units whose high bytes are 0 and low bytes < 0x80
         * are packed to 8 bytes at once */
        while (end - p >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)p);
            if (big_endian)
                v = _mm_or_si128(_mm_srli_epi16(v, 8), _mm_slli_epi16(v, 8));
            if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(v, _mm_set1_epi16((short)0xFF80)),
                                                  _mm_setzero_si128())) != 0xFFFF)
                break;
            _mm_storel_epi64((__m128i *)(b.data + b.len), _mm_packus_epi16(v, v));
            b.len += 8;
            p += 16;
        }
        if (end - p < 2)
            break;
#endif
        uint32_t u = unit_at(p, big_endian);
        p += 2;
        if (u < 0xD800 || u > 0xDFFF) {
            fp_buf_append_utf8(&b, u);
        } else if (u <= 0xDBFF && end - p >= 2 && unit_at(p, big_endian) - 0xDC00u < 0x400) {
            fp_buf_append_utf8(&b, 0x10000 + ((u - 0xD800) << 10) + (unit_at(p, big_endian) - 0xDC00));
            p += 2;
        } else {
            fp_buf_append_utf8(&b, 0xFFFD);
            if (u <= 0xDBFF && end - p < 2)
                p = end;   /* a lead surrogate and an odd byte at the end: one U+FFFD */
        }
    }
    if (p < end)
        fp_buf_append_utf8(&b, 0xFFFD);   /* an odd byte at the end */
    return b.len;
}
