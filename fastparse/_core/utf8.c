/* utf8.c — is this byte string UTF-8? The encoding sniffer asks it of every
 * page that declares no encoding in its first 1024 bytes, so the whole page
 * is read: 32 bytes a step with AVX2 when the CPU has it (checked at run
 * time), else a byte loop behind an ASCII skip. Both follow Unicode 3.2's
 * definition: no overlong forms, no surrogates, nothing above U+10FFFF. */
#include <string.h>

#include "fp.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

const uint8_t *
fp_skip_ascii(const uint8_t *p, const uint8_t *end)
{
#if defined(__SSE2__)
    for (; end - p >= 16; p += 16) {
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i *)p));
        if (m)
            return p + __builtin_ctz(m);
    }
#else
    for (; end - p >= 8; p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        if (w & 0x8080808080808080ull)
            break;
    }
#endif
    while (p < end && *p < 0x80)
        p++;
    return p;
}

size_t
fp_utf8_decode(const uint8_t *p, const uint8_t *end, uint32_t *cp)
{
    uint8_t c = *p;
    size_t need;
    uint32_t min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
        min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        min = 0x10000;
    } else {
        return 0;
    }
    if ((size_t)(end - p) <= need)
        return 0;
    uint32_t v = c & (0x3F >> need);
    for (size_t k = 1; k <= need; k++) {
        if ((p[k] & 0xC0) != 0x80)
            return 0;
        v = (v << 6) | (p[k] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return need + 1;
}

/* The byte loop: decodes each sequence. */
static int
check_scalar(const uint8_t *p, size_t n)
{
    const uint8_t *end = p + n;
    int ascii = 1;
    while ((p = fp_skip_ascii(p, end)) < end) {
        uint32_t cp;
        size_t len = fp_utf8_decode(p, end, &cp);
        if (!len)
            return 0;
        ascii = 0;
        p += len;
    }
    return ascii ? 1 : 2;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define FP_UTF8_AVX2 1

/* NOTE: the lookup algorithm of Keiser and Lemire, "Validating UTF-8 In Less
 * Than One Instruction Per Byte" (2021). Every error shows in the first 12
 * bits of a pair of bytes (the high and low nibble of one, the high nibble of
 * the next); three 16-entry tables give, for each nibble, the set of errors it
 * is compatible with, and a pair is bad when all three agree on one. The two
 * errors a pair cannot see (a third or fourth byte missing or extra) come from
 * comparing the bytes two and three back with the 3- and 4-byte leads. */
enum {
    TOO_SHORT = 1 << 0,    /* 11______ 0_______ or 11______ 11______ */
    TOO_LONG = 1 << 1,     /* 0_______ 10______ */
    OVERLONG_3 = 1 << 2,   /* 11100000 100_____ */
    TOO_LARGE = 1 << 3,    /* 11110100 1001____ and above */
    SURROGATE = 1 << 4,    /* 11101101 101_____ */
    OVERLONG_2 = 1 << 5,   /* 1100000_ 10______ */
    TOO_LARGE_1000 = 1 << 6, /* 11110101 1000____ and above */
    OVERLONG_4 = 1 << 6,   /* 11110000 1000____ */
    TWO_CONTS = 1 << 7,    /* 10______ 10______ */
    CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS,
};

/* a 16-entry table in both lanes, its entries written as bytes (TWO_CONTS is
 * 0x80: as a char argument of _mm256_setr_epi8 it would change sign) */
#define TABLE16(...) \
    _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const uint8_t[16]){__VA_ARGS__}))

__attribute__((target("avx2"))) static inline __m256i
prev_bytes(__m256i in, __m256i prev_in, int k)
{
    /* the 32 bytes that end k bytes before the end of `in` */
    __m256i joined = _mm256_permute2x128_si256(prev_in, in, 0x21);
    switch (k) {
    case 1:
        return _mm256_alignr_epi8(in, joined, 15);
    case 2:
        return _mm256_alignr_epi8(in, joined, 14);
    default:
        return _mm256_alignr_epi8(in, joined, 13);
    }
}

/* the errors of one 32-byte block given the block before it (0 when none) */
__attribute__((target("avx2"))) static inline __m256i
block_errors(__m256i in, __m256i prev_in)
{
    const __m256i low_nibble = _mm256_set1_epi8(0x0F);
    const __m256i byte_1_high_table = TABLE16(
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG,
        TWO_CONTS, TWO_CONTS, TWO_CONTS, TWO_CONTS,
        TOO_SHORT | OVERLONG_2, TOO_SHORT, TOO_SHORT | OVERLONG_3 | SURROGATE,
        TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4);
    const __m256i byte_1_low_table = TABLE16(
        CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4, CARRY | OVERLONG_2, CARRY, CARRY,
        CARRY | TOO_LARGE, CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE, CARRY | TOO_LARGE | TOO_LARGE_1000,
        CARRY | TOO_LARGE | TOO_LARGE_1000);
    const __m256i byte_2_high_table = TABLE16(
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
        TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT);
    __m256i prev1 = prev_bytes(in, prev_in, 1);
    __m256i b1h = _mm256_shuffle_epi8(byte_1_high_table, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), low_nibble));
    __m256i b1l = _mm256_shuffle_epi8(byte_1_low_table, _mm256_and_si256(prev1, low_nibble));
    __m256i b2h = _mm256_shuffle_epi8(byte_2_high_table, _mm256_and_si256(_mm256_srli_epi16(in, 4), low_nibble));
    __m256i special = _mm256_and_si256(_mm256_and_si256(b1h, b1l), b2h);
    /* a third byte is due after 111_____, a fourth after 1111____ */
    __m256i third = _mm256_subs_epu8(prev_bytes(in, prev_in, 2), _mm256_set1_epi8((char)(0xE0 - 0x80)));
    __m256i fourth = _mm256_subs_epu8(prev_bytes(in, prev_in, 3), _mm256_set1_epi8((char)(0xF0 - 0x80)));
    __m256i due = _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8((char)0x80));
    return _mm256_xor_si256(due, special);
}

/* nonzero when the block ends inside a sequence (a lead among its last 3 bytes needs more) */
__attribute__((target("avx2"))) static inline __m256i
block_incomplete(__m256i in)
{
    const __m256i max = _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                         -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                         (char)(0xF0 - 1), (char)(0xE0 - 1), (char)(0xC0 - 1));
    return _mm256_subs_epu8(in, max);
}

__attribute__((target("avx2"))) static int
check_avx2(const uint8_t *p, size_t n)
{
    __m256i err = _mm256_setzero_si256(), prev = err, incomplete = err;
    int ascii = 1, last_ascii = 0;
    unsigned mixed = 0;   /* blocks with a non-ASCII byte */
    size_t i = 0;
    for (;; i += 32) {
        /* after an ASCII block, 128 bytes at a time with one movemask (most of
         * a page is ASCII); text in other scripts goes block by block */
        while (last_ascii && i + 128 <= n) {
            const __m256i *q = (const __m256i *)(p + i);
            __m256i any = _mm256_or_si256(_mm256_or_si256(_mm256_loadu_si256(q), _mm256_loadu_si256(q + 1)),
                                          _mm256_or_si256(_mm256_loadu_si256(q + 2), _mm256_loadu_si256(q + 3)));
            if (_mm256_movemask_epi8(any))
                break;
            i += 128;
        }
        __m256i in;
        if (i + 32 <= n) {
            in = _mm256_loadu_si256((const __m256i *)(p + i));
        } else if (i < n) {
            uint8_t last[32] = {0};   /* the tail, padded with ASCII */
            memcpy(last, p + i, n - i);
            in = _mm256_loadu_si256((const __m256i *)last);
        } else {
            break;
        }
        last_ascii = _mm256_movemask_epi8(in) == 0;
        if (last_ascii) {
            err = _mm256_or_si256(err, incomplete);   /* ASCII right after an unfinished sequence */
        } else {
            ascii = 0;
            err = _mm256_or_si256(err, block_errors(in, prev));
            incomplete = block_incomplete(in);
            prev = in;
            /* a page in a legacy encoding fails early: the rest is not read */
            if (++mixed % 16 == 0 && !_mm256_testz_si256(err, err))
                return 0;
        }
    }
    err = _mm256_or_si256(err, incomplete);
    if (!_mm256_testz_si256(err, err))
        return 0;
    return ascii ? 1 : 2;
}
#endif

int
fp_utf8_check(const uint8_t *p, size_t n)
{
#if defined(FP_UTF8_AVX2) && defined(__AVX2__)
    return check_avx2(p, n);   /* built for AVX2 machines: no question to ask */
#elif defined(FP_UTF8_AVX2)
    if (__builtin_cpu_supports("avx2"))
        return check_avx2(p, n);
#endif
    return check_scalar(p, n);
}

int
fp_utf8_check_portable(const uint8_t *p, size_t n)
{
    return check_scalar(p, n);
}
