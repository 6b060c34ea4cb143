/* guess.c — the byte work of the encoding guess (fastparse/_encoding_guess.py,
 * whose docstring says what it reads and why): the sample of a page's text it
 * tests, and the counts its tests are made of (bytes, runs of letters, Thai's
 * stray marks, UTF-8 sequences, Big5 pairs, classes of decoded characters). In
 * Python these took most of the guess's time: a regular expression reads 100
 * MB/s, and each count was a pass of its own. tests/guess_sample_reference.py
 * is the sampler as it was written in Python, and the tests check each count
 * against the regular expression or decoder it replaces. */
#include <string.h>

#include "fp.h"

/* The runs of text in head[lo, hi) that "(?:>|\A)([^<>\x80-\xff]*[\x80-\xff][^<]*)"
 * finds there: after a '>' (or at the page's start), bytes that are neither
 * markup nor non-ASCII up to a non-ASCII byte, and on to the next '<'. Each
 * run's core (its first non-ASCII byte to the byte after its last, at most
 * FP_GUESS_PART bytes) goes to out, a line each, until *size reaches
 * FP_GUESS_SAMPLE. */
static void
sample_runs(const uint8_t *head, size_t lo, size_t hi, uint8_t *out, size_t *size)
{
    size_t pos = lo;
    int at_start = lo == 0;   /* \A matches at the page's start only */
    while (pos < hi && *size < FP_GUESS_SAMPLE) {
        size_t start = pos;
        if (!at_start || head[pos] == '>') {
            const uint8_t *gt = memchr(head + pos, '>', hi - pos);
            if (!gt)
                return;
            start = (size_t)(gt - head) + 1;
        }
        at_start = 0;
        size_t q = start;
        while (q < hi && head[q] < 0x80 && head[q] != '<' && head[q] != '>')
            q++;
        if (q >= hi)
            return;
        if (head[q] < 0x80) {   /* markup before any non-ASCII byte: the next '>' may start a run */
            pos = q;
            continue;
        }
        const uint8_t *lt = memchr(head + q, '<', hi - q);
        size_t end = lt ? (size_t)(lt - head) : hi, last = end;
        while (head[last - 1] < 0x80)   /* head[q] stops it */
            last--;
        size_t n = (last < end ? last + 1 : end) - q;
        if (n > FP_GUESS_PART)
            n = FP_GUESS_PART;
        memcpy(out + *size, head + q, n);
        out[*size + n] = '\n';
        *size += n + 1;
        pos = end;
    }
}

size_t
fp_guess_sample(const uint8_t *data, size_t len, uint8_t *out)
{
    size_t n = len < FP_GUESS_SCAN ? len : FP_GUESS_SCAN, size = 0, done = 0;
    for (size_t at = 0; at < n && size < FP_GUESS_SAMPLE; at += FP_GUESS_BLOCK) {
        size_t block_end = n - at < FP_GUESS_BLOCK ? n : at + FP_GUESS_BLOCK;
        if (block_end <= done || fp_skip_ascii(data + at, data + block_end) == data + block_end)
            continue;
        /* from the last '>' at or before the block (a run may start before it), but not
         * back into what the last block's runs read */
        size_t lo = at + 1 < n ? at + 1 : n;
        while (lo > done && data[lo - 1] != '>')
            lo--;
        lo = lo > done ? lo - 1 : done;
        size_t hi = n;
        if (block_end < n) {   /* on to the end of the text the block ends in */
            const uint8_t *lt = memchr(data + block_end, '<', n - block_end);
            hi = lt ? (size_t)(lt - data) : n;
        }
        sample_runs(data, lo, hi, out, &size);
        done = hi;
    }
    if (size)
        size--;   /* the lines are joined: no '\n' after the last */
    return size < FP_GUESS_SAMPLE ? size : FP_GUESS_SAMPLE;
}

void
fp_byte_counts(const uint8_t *p, size_t n, size_t counts[256])
{
    /* four tables, so that a run of one byte does not wait on its own count */
    size_t c[4][256] = {{0}};
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        c[0][p[i]]++;
        c[1][p[i + 1]]++;
        c[2][p[i + 2]]++;
        c[3][p[i + 3]]++;
    }
    for (; i < n; i++)
        c[0][p[i]]++;
    for (int b = 0; b < 256; b++)
        counts[b] = c[0][b] + c[1][b] + c[2][b] + c[3][b];
}

size_t
fp_bytes_in_runs(const uint8_t *p, size_t n, const uint8_t member[256], size_t min_run)
{
    size_t total = 0, run = 0;
    for (size_t i = 0; i < n; i++) {
        if (member[p[i]]) {
            run++;
            continue;
        }
        if (run >= min_run)
            total += run;
        run = 0;
    }
    return run >= min_run ? total + run : total;
}

/* Where the ranges meet each 256-code-point block of the BMP: the ranges that
 * hold all of it, and those that hold part of it, one bit each. Most
 * characters are in a block no range cuts, and are counted by block. */
typedef struct {
    uint32_t whole[256], part[256];
    uint32_t beyond;      /* past the BMP: every range, each tested */
} blocks;

static void
ranges_by_block(const fp_char_range *ranges, size_t nranges, blocks *b)
{
    memset(b, 0, sizeof *b);
    b->beyond = nranges >= 32 ? ~0u : (1u << nranges) - 1;
    for (size_t r = 0; r < nranges; r++)
        for (uint32_t k = ranges[r].lo >> 8; k <= ranges[r].hi >> 8 && k < 256; k++) {
            int whole = ranges[r].lo <= k << 8 && ranges[r].hi >= (k << 8 | 0xFF);
            (whole ? b->whole : b->part)[k] |= 1u << r;
        }
}

/* The ranges c must be tested against: those that hold part of its block */
static uint32_t
ranges_to_test(const blocks *b, uint32_t c)
{
    return c < 0x10000 ? b->part[c >> 8] : b->beyond;
}

/* Whether c is in range r of m's bits, the first of them at ranges[0] */
#define EACH_RANGE_OF(m, r, ranges) \
    for (const fp_char_range *r = (ranges); (m); (m) >>= 1, r++) \
        if (((m) & 1) && r->lo <= c && c <= r->hi)

/* The code points of a str's storage, kind bytes each, one loop per kind */
#define EACH_CHAR(chars, kind, n, body) \
    do { \
        if ((kind) == 1) { const uint8_t *s_ = (chars); for (size_t i_ = 0; i_ < (n); i_++) { uint32_t c = s_[i_]; body } } \
        else if ((kind) == 2) { const uint16_t *s_ = (chars); for (size_t i_ = 0; i_ < (n); i_++) { uint32_t c = s_[i_]; body } } \
        else { const uint32_t *s_ = (chars); for (size_t i_ = 0; i_ < (n); i_++) { uint32_t c = s_[i_]; body } } \
    } while (0)

void
fp_char_counts(const void *chars, int kind, size_t n, const fp_char_range *ranges, size_t nranges,
               size_t *counts)
{
    blocks b;
    ranges_by_block(ranges, nranges, &b);
    size_t in_block[256] = {0};
    EACH_CHAR(chars, kind, n, {
        if (c < 0x80)
            continue;   /* the classes are of non-ASCII characters: text is mostly ASCII */
        if (c < 0x10000)
            in_block[c >> 8]++;
        uint32_t m = ranges_to_test(&b, c);
        EACH_RANGE_OF(m, r, ranges)
            counts[r->counter]++;
    });
    for (int k = 0; k < 256; k++) {
        uint32_t m = b.whole[k];
        for (const fp_char_range *r = ranges; m; m >>= 1, r++)
            if (m & 1)
                counts[r->counter] += in_block[k];
    }
}

size_t
fp_chars_in(const void *chars, int kind, size_t n, const fp_char_range *ranges, size_t nranges,
            uint32_t *out)
{
    blocks b;
    ranges_by_block(ranges, nranges, &b);
    size_t k = 0;
    EACH_CHAR(chars, kind, n, {
        if (c < 0x10000 && b.whole[c >> 8]) {
            out[k++] = c;
            continue;
        }
        uint32_t m = ranges_to_test(&b, c);
        EACH_RANGE_OF(m, r, ranges) {
            out[k++] = c;
            break;
        }
    });
    return k;
}

void
fp_utf8_counts(const uint8_t *p, size_t n, size_t counts[3])
{
    size_t chars = 0, errors = 0, replacements = 0;
    for (size_t i = 0; i < n;) {
        uint8_t c = p[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        /* the bytes a lead byte takes after it, and the range of the first one
         * (the Encoding Standard's UTF-8 decoder: no overlong form, surrogate
         * or code point past U+10FFFF) */
        size_t need;
        uint8_t lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF)
            need = 1;
        else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            lo = c == 0xE0 ? 0xA0 : 0x80;
            hi = c == 0xED ? 0x9F : 0xBF;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            lo = c == 0xF0 ? 0x90 : 0x80;
            hi = c == 0xF4 ? 0x8F : 0xBF;
        } else {
            errors++;
            i++;
            continue;
        }
        size_t j = i + 1, k = 0;
        for (; k < need && j < n && p[j] >= lo && p[j] <= hi; k++, j++)
            lo = 0x80, hi = 0xBF;
        if (k < need) {
            errors++;   /* what it took so far is one U+FFFD; the byte that stopped it starts anew */
        } else {
            chars++;
            replacements += c == 0xEF && p[i + 1] == 0xBF && p[i + 2] == 0xBD;
        }
        i = j;
    }
    counts[0] = chars;
    counts[1] = errors;
    counts[2] = replacements;
}

void
fp_big5_pairs(const uint8_t *p, size_t n, size_t counts[3])
{
    size_t pairs = 0, common = 0, low_trail = 0;
    for (size_t i = 0; i + 1 < n;) {
        uint8_t lead = p[i], trail = p[i + 1];
        if (lead >= 0xA1 && lead <= 0xF9 &&
            ((trail >= 0x40 && trail <= 0x7E) || (trail >= 0xA1 && trail <= 0xFE))) {
            pairs++;
            common += lead >= 0xA4 && lead <= 0xC6;
            low_trail += trail < 0x80;
            i += 2;
        } else {
            i++;
        }
    }
    counts[0] = pairs;
    counts[1] = common;
    counts[2] = low_trail;
}

size_t
fp_unpaired_bytes(const uint8_t *p, size_t n, const uint8_t member[256], const uint8_t neighbour[256],
                  int after)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (!member[p[i]])
            continue;
        if (after ? i + 1 == n || !neighbour[p[i + 1]] : i == 0 || !neighbour[p[i - 1]])
            count++;
    }
    return count;
}
