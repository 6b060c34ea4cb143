/* iso2022jp.c — ISO-2022-JP to UTF-8, the Encoding Standard's decoder
 * (section 12.2.1) state by state. The page is 7-bit, but its text between
 * escapes is pairs of JIS X 0208 bytes that may be "<" or "=", so the engine
 * cannot scan it as it is: parse() has it transcoded first (encoding.to_utf8),
 * here, without the GIL. Errors become U+FFFD, as the decoder's replacement
 * mode makes them.
 * https://encoding.spec.whatwg.org/#iso-2022-jp-decoder */
#include "fp.h"
#include "jis0208_gen.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { ASCII, ROMAN, KATAKANA, LEAD_BYTE, TRAIL_BYTE, ESCAPE_START, ESCAPE };

#define NOTHING UINT32_MAX   /* a step that emits no code point */
#define ERROR 0xFFFDu

/* The end of the run from p that the ASCII state (roman: the Roman state)
 * reads as the same bytes: ASCII but SO, SI and ESC, and in Roman the two
 * bytes it reads as ¥ and ‾. */
static const uint8_t *
same_bytes_end(const uint8_t *p, const uint8_t *end, int roman)
{
#if defined(__SSE2__)
    /* 16 bytes at a time in the ASCII state: a high byte, SO or SI (0E, 0F), ESC */
    const __m128i not_low_bit = _mm_set1_epi8((char)0xFE), so_si = _mm_set1_epi8(0x0E), esc = _mm_set1_epi8(0x1B);
    for (; !roman && end - p >= 16; p += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        __m128i stop = _mm_or_si128(_mm_cmpeq_epi8(_mm_and_si128(v, not_low_bit), so_si), _mm_cmpeq_epi8(v, esc));
        unsigned m = (unsigned)(_mm_movemask_epi8(stop) | _mm_movemask_epi8(v));
        if (m)
            return p + __builtin_ctz(m);
    }
#endif
    while (p < end && *p < 0x80 && *p != 0x0E && *p != 0x0F && *p != 0x1B &&
           !(roman && (*p == 0x5C || *p == 0x7E)))
        p++;
    return p;
}

/* The end of the run from p of bytes 0x21-0x7E, those a JIS X 0208 pair is made of. */
static const uint8_t *
pair_bytes_end(const uint8_t *p, const uint8_t *end)
{
#if defined(__SSE2__)
    /* 16 bytes at a time: as signed bytes, 0x21-0x7E are those above 0x20 and below 0x7F */
    const __m128i low = _mm_set1_epi8(0x21), high = _mm_set1_epi8(0x7E);
    for (; end - p >= 16; p += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmplt_epi8(v, low), _mm_cmpgt_epi8(v, high)));
        if (m)
            return p + __builtin_ctz(m);
    }
#endif
    while (p < end && *p >= 0x21 && *p <= 0x7E)
        p++;
    return p;
}

/* A run of JIS X 0208 pairs in the lead byte state, at once: the bytes from p
 * while both of a pair are 0x21-0x7E, as the lead and trail byte states read
 * them (a pair the index lacks is an error). Returns the end of the run. */
static const uint8_t *
pairs(const uint8_t *p, const uint8_t *end, fp_buf *out, size_t *errors)
{
    const uint8_t *run = pair_bytes_end(p, end);
    run -= (run - p) % 2;   /* an odd byte out: a lead byte, read alone */
    if (fp_buf_reserve(out, (size_t)(run - p) / 2 * 3 + 1) < 0)   /* 3 bytes a pair, and room for fp_utf8_write's 4 */
        return NULL;
    uint8_t *o = out->data + out->len;
    for (; p < run; p += 2) {
        uint32_t cp = fp_jis0208[(p[0] - 0x21) * 94 + (p[1] - 0x21)];
        if (!cp) {
            cp = ERROR;
            ++*errors;
        }
        o += fp_utf8_write(o, cp);
    }
    out->len = (size_t)(o - out->data);
    return run;
}

/* The code point the ASCII, Roman, Katakana or lead byte state reads for a
 * byte other than ESC (NOTHING for a lead byte, kept in *lead). */
static uint32_t
single_byte(int *state, uint8_t *lead, int byte)
{
    switch (*state) {
    case LEAD_BYTE:
        if (byte < 0x21 || byte > 0x7E)
            return ERROR;
        *lead = (uint8_t)byte;
        *state = TRAIL_BYTE;
        return NOTHING;
    case KATAKANA:
        return byte >= 0x21 && byte <= 0x5F ? 0xFF61 - 0x21 + (uint32_t)byte : ERROR;
    case ROMAN:
        if (byte == 0x5C)
            return 0x00A5;
        if (byte == 0x7E)
            return 0x203E;
        break;
    }
    return byte < 0x80 && byte != 0x0E && byte != 0x0F ? (uint32_t)byte : ERROR;   /* as ASCII */
}

int
fp_iso2022jp_to_utf8(const uint8_t *p, size_t n, fp_buf *out, size_t *errors)
{
    const uint8_t *end = p + n;
    int state = ASCII, output_state = ASCII, output_flag = 0;
    uint8_t lead = 0;
    *errors = 0;
    if (fp_buf_reserve(out, n + n / 2 + 16) < 0)   /* kana and kanji: 3 bytes for 2 and escapes */
        return -1;
    for (;;) {
        if (state == ASCII || state == ROMAN) {   /* the markup, most of a page, at once */
            const uint8_t *run = same_bytes_end(p, end, state == ROMAN);
            if (run > p) {
                if (fp_buf_append(out, p, (size_t)(run - p)) < 0)
                    return -1;
                output_flag = 0;
                p = run;
            }
        }
        if (state == LEAD_BYTE && end - p >= 2) {   /* the text: pairs */
            const uint8_t *run = pairs(p, end, out, errors);
            if (!run)
                return -1;
            if (run > p) {
                output_flag = 0;
                p = run;
            }
        }
        int byte = p < end ? *p++ : -1;   /* -1: the end of the queue */
        uint32_t cp = NOTHING;
        switch (state) {
        case ESCAPE_START:
            if (byte == 0x24 || byte == 0x28) {
                lead = (uint8_t)byte;
                state = ESCAPE;
                break;
            }
            if (byte >= 0)
                p--;   /* prepended: read again in the output state */
            output_flag = 0;
            state = output_state;
            cp = ERROR;
            break;
        case ESCAPE: {
            int next = lead == 0x28 && byte == 0x42                       ? ASCII
                       : lead == 0x28 && byte == 0x4A                     ? ROMAN
                       : lead == 0x28 && byte == 0x49                     ? KATAKANA
                       : lead == 0x24 && (byte == 0x40 || byte == 0x42) ? LEAD_BYTE
                                                                          : -1;
            lead = 0;
            if (next >= 0) {
                state = output_state = next;
                if (output_flag)   /* two escape sequences in a row */
                    cp = ERROR;
                output_flag = 1;
                break;
            }
            p -= byte >= 0 ? 2 : 1;   /* the lead and the byte prepended (at the end, the lead) */
            output_flag = 0;
            state = output_state;
            cp = ERROR;
            break;
        }
        case TRAIL_BYTE: {
            uint32_t found = byte >= 0x21 && byte <= 0x7E ? fp_jis0208[(lead - 0x21) * 94 + (byte - 0x21)] : 0;
            /* at the end, the end is prepended: the lead byte state finishes */
            state = byte == 0x1B ? ESCAPE_START : LEAD_BYTE;
            cp = found ? found : ERROR;
            break;
        }
        default:   /* ASCII, Roman, Katakana, lead byte */
            if (byte < 0)
                return 0;
            if (byte == 0x1B) {
                state = ESCAPE_START;
                break;
            }
            output_flag = 0;
            cp = single_byte(&state, &lead, byte);
            break;
        }
        if (cp != NOTHING) {
            if (fp_buf_append_utf8(out, cp) < 0)
                return -1;
            *errors += cp == ERROR;
        }
    }
}
