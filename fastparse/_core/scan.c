/* scan.c — the byte-search primitives the tokenizer's hot loop stands on:
 * find the next '<', count a byte. SSE2 on x86-64 (always present there),
 * NEON on arm64, a memchr fallback elsewhere; chosen at build time. */
#include <string.h>

#include "fp.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#define FP_SCAN_SSE2 1
#elif defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#define FP_SCAN_NEON 1
#endif

const char *
fp_scan_impl(void)
{
#if defined(FP_SCAN_SSE2)
    return "sse2";
#elif defined(FP_SCAN_NEON)
    return "neon";
#else
    return "portable";
#endif
}

const uint8_t *
fp_scan_lt(const uint8_t *p, const uint8_t *end)
{
    /* glibc's memchr is already vectorised; it wins on long text runs and
     * costs a call on short ones, which is the common case between tags. */
    while (p < end && end - p < 16) {
        if (*p == '<')
            return p;
        p++;
    }
    const uint8_t *hit = memchr(p, '<', (size_t)(end - p));
    return hit ? hit : end;
}

size_t
fp_count_byte(const uint8_t *p, size_t n, uint8_t c)
{
    size_t count = 0, i = 0;
#if defined(FP_SCAN_SSE2)
    const __m128i needle = _mm_set1_epi8((char)c);
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(p + i));
        count += (size_t)__builtin_popcount((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, needle)));
    }
#elif defined(FP_SCAN_NEON)
    const uint8x16_t needle = vdupq_n_u8(c);
    for (; i + 16 <= n; i += 16) {
        uint8x16_t eq = vceqq_u8(vld1q_u8(p + i), needle);
        count += vaddvq_u8(vshrq_n_u8(eq, 7));
    }
#endif
    for (; i < n; i++)
        count += p[i] == c;
    return count;
}
