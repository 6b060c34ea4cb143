/* scan.c — the byte-search primitives the tokenizer's hot loop stands on:
 * find the next '<' or either of two bytes, find the next byte text decoding
 * must change, count a byte. SSE2 on x86-64 (always present there), NEON on
 * arm64, a memchr or plain loop elsewhere; chosen at build time. */
#include <string.h>

#include "internal.h"

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
    const uint8_t *hit = fp_find_byte(p, end, '<');
    return hit ? hit : end;
}

const uint8_t *
fp_scan_either(const uint8_t *p, const uint8_t *end, uint8_t a, uint8_t b)
{
#if defined(FP_SCAN_SSE2)
    const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b);
    for (; end - p >= 16; p += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, va), _mm_cmpeq_epi8(v, vb)));
        if (m)
            return p + __builtin_ctz(m);
    }
#elif defined(FP_SCAN_NEON)
    const uint8x16_t va = vdupq_n_u8(a), vb = vdupq_n_u8(b);
    for (; end - p >= 16; p += 16) {
        uint8x16_t v = vld1q_u8(p);
        if (vmaxvq_u8(vorrq_u8(vceqq_u8(v, va), vceqq_u8(v, vb))))
            break;   /* the byte loop below finds which lane */
    }
#endif
    while (p < end && *p != a && *p != b)
        p++;
    return p;
}

const uint8_t *
fp_scan_special(const uint8_t *p, const uint8_t *end, const uint8_t *limit, int stops, int *ascii)
{
    int amp = stops & FP_STOP_AMP, lt = stops & FP_STOP_LT;
    unsigned high = 0;
#if defined(FP_SCAN_SSE2)
    const __m128i cr = _mm_set1_epi8('\r'), nul = _mm_setzero_si128();
    const __m128i amp_or_cr = _mm_set1_epi8(amp ? '&' : '\r'), lt_or_cr = _mm_set1_epi8(lt ? '<' : '\r');
    /* values and link labels are short: the last 16 bytes are read past end
     * (up to limit) and the lanes beyond it masked, rather than looped over */
    while (p < end && limit - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, nul)),
                                   _mm_or_si128(_mm_cmpeq_epi8(v, amp_or_cr), _mm_cmpeq_epi8(v, lt_or_cr)));
        unsigned m = (unsigned)_mm_movemask_epi8(hit), top = (unsigned)_mm_movemask_epi8(v);
        if (end - p < 16) {
            unsigned lanes = (1u << (end - p)) - 1;
            m &= lanes;
            top &= lanes;
        }
        if (m)
            return p + __builtin_ctz(m);
        high |= top;
        p = end - p < 16 ? end : p + 16;
    }
#endif
    while (p < end && *p != '\r' && *p != 0 && !(amp && *p == '&') && !(lt && *p == '<'))
        high |= *p++ & 0x80;
    if (p == end && ascii)
        *ascii = !high;
    return p;
}

#if defined(FP_SCAN_SSE2) && defined(__GNUC__) && !defined(__AVX2__)
#include <immintrin.h>
#define FP_SCAN_AVX2_DISPATCH 1
/* The same count 32 bytes at a time, for CPUs that have AVX2 (checked at run time). */
__attribute__((target("avx2"))) static size_t
count_byte_avx2(const uint8_t *p, size_t n, uint8_t c, size_t *done)
{
    const __m256i needle = _mm256_set1_epi8((char)c), zero = _mm256_setzero_si256();
    __m256i total = zero;
    size_t i = 0;
    while (i + 32 <= n) {
        __m256i lanes = zero;
        size_t stop = i + 32 * 255 < n ? i + 32 * 255 : n;
        for (; i + 32 <= stop; i += 32)
            lanes = _mm256_sub_epi8(lanes, _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(p + i)), needle));
        total = _mm256_add_epi64(total, _mm256_sad_epu8(lanes, zero));
    }
    *done = i;
    return (size_t)(_mm256_extract_epi64(total, 0) + _mm256_extract_epi64(total, 1) +
                    _mm256_extract_epi64(total, 2) + _mm256_extract_epi64(total, 3));
}
#endif

size_t
fp_count_byte(const uint8_t *p, size_t n, uint8_t c)
{
    size_t count = 0, i = 0;
#if defined(FP_SCAN_AVX2_DISPATCH)
    if (__builtin_cpu_supports("avx2")) {
        count = count_byte_avx2(p, n, c, &i);
        for (; i < n; i++)
            count += p[i] == c;
        return count;
    }
#endif
#if defined(FP_SCAN_SSE2)
    /* NOTE: each compare gives 0xFF (-1) per match; subtracting it counts in
     * 16 byte lanes, folded into 64-bit sums (SAD) before a lane can wrap. */
    const __m128i needle = _mm_set1_epi8((char)c), zero = _mm_setzero_si128();
    __m128i total = zero;
    while (i + 16 <= n) {
        __m128i lanes = zero;
        size_t stop = i + 16 * 255 < n ? i + 16 * 255 : n;
        for (; i + 16 <= stop; i += 16)
            lanes = _mm_sub_epi8(lanes, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), needle));
        total = _mm_add_epi64(total, _mm_sad_epu8(lanes, zero));
    }
    count += (size_t)_mm_cvtsi128_si64(total) + (size_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(total, total));
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
