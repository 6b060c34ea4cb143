/* select_value.c — attribute values for selectors (Selectors 4, 6): the
 * value of an attribute, raw or decoded; [a=v] and its kin compared on a raw
 * value's first bytes where those settle the answer (a long URL is not read
 * to its end), else on the decoded value; token lists (class, ~=) and
 * substring search (*=, :contains) over short byte strings. */
#include <stdlib.h>
#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

#include "select_internal.h"

/* NOTE: whether needle nd occurs in h (ASCII case ignored when icase). Start
 * tags are short (~100 bytes), so a library call per candidate costs more than
 * the bytes: where SSE2 exists, 16 start positions are tested at once against
 * the needle's first and last bytes (OR 0x20 folds ASCII case; the exact
 * comparison that follows rejects the few false candidates it lets through). */
int fp_sel_bytes_find_in(const uint8_t *h, size_t hn, const uint8_t *nd, size_t nn, int icase,
                         const uint8_t *readable)
{
    if (nn == 0)
        return 1;
    if (hn < nn)
        return 0;
    uint8_t fold = icase ? 0x20 : 0, c0 = (uint8_t)(nd[0] | fold), cl = (uint8_t)(nd[nn - 1] | fold);
    const uint8_t *p = h, *end = h + hn - nn + 1; /* candidate starts */
#if defined(__SSE2__) && defined(__GNUC__)
    const __m128i first = _mm_set1_epi8((char)c0), last = _mm_set1_epi8((char)cl);
    const __m128i bits = _mm_set1_epi8((char)fold);
    /* a block may read past h + hn while it stays below `readable` (the bytes
     * of the rest of the document): candidates past `end` are masked out */
    for (; end - p >= 16 || (end > p && readable - (p + nn - 1) >= 16); p += 16) {
        __m128i a = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)p), bits);
        __m128i b = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(p + nn - 1)), bits);
        unsigned m = (unsigned)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last)));
        if (end - p < 16)
            m &= (1u << (end - p)) - 1;
        for (; m; m &= m - 1)
            if (bytes_eq(p + __builtin_ctz(m), nd, nn, icase))
                return 1;
    }
#else
    (void)readable;
#endif
    for (; p < end; p++)
        if ((uint8_t)(*p | fold) == c0 && (uint8_t)(p[nn - 1] | fold) == cl && bytes_eq(p, nd, nn, icase))
            return 1;
    return 0;
}

int fp_sel_bytes_find(const uint8_t *h, size_t hn, const uint8_t *nd, size_t nn, int icase)
{
    if (nn == 0)
        return 1;
    if (hn < nn)
        return 0;   /* before h + hn: an empty text buffer's h is NULL */
    return fp_sel_bytes_find_in(h, hn, nd, nn, icase, h + hn);
}

/* Whether the whitespace-separated list v contains the token t (Selectors 6.2 ~=,
 * class, and find's cls=: query.c); ASCII case ignored with icase (quirks mode). */
int fp_has_token(const uint8_t *v, size_t n, const uint8_t *t, size_t tn, int icase)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && is_ws(v[i]))
            i++;
        size_t s = i;
        while (i < n && !is_ws(v[i]))
            i++;
        if (i - s == tn && tn && bytes_eq(v + s, t, tn, icase))
            return 1;
    }
    return 0;
}

const uint8_t *fp_sel_str(const fp_sel_ctx *c, int32_t k, size_t *len)
{
    const int32_t *t = c->w + c->w[FP_SEL_H_STRS] + 2 * k;
    *len = (size_t)t[1];
    return c->pool + t[0];
}

/* Value of element e's attribute `name`; raw bytes unless decoding changes
 * them (a character reference, a CR, a NUL: then decoded into c->val, reused).
 * 0 when absent. */
int fp_sel_attr_value(fp_sel_ctx *c, uint32_t e, const uint8_t *name, size_t nlen,
                      const uint8_t **v, size_t *vlen)
{
    fp_attr a;
    if (!fp_attr_find(c->doc, e, (const char *)name, nlen, &a))
        return 0;
    const uint8_t *raw = c->doc->buf + a.value_start;
    size_t len = a.has_value ? a.value_len : 0;
    if (len && !fp_value_is_raw(c->doc, raw, len)) {
        c->val.len = 0;
        if (fp_attr_value(c->doc, &a, &c->val) != 0) {
            c->oom = 1;
            return 0;
        }
        raw = c->val.data;
        len = c->val.len;
    }
    *v = raw;
    *vlen = len;
    return 1;
}

int fp_sel_attr_keyword(fp_sel_ctx *c, uint32_t e, const char *name, const char *const *words, int nwords)
{
    const uint8_t *v;
    size_t n;
    if (!fp_sel_attr_value(c, e, (const uint8_t *)name, strlen(name), &v, &n))
        return -1;
    for (int k = 0; k < nwords; k++)
        if (strlen(words[k]) == n && bytes_eq(v, (const uint8_t *)words[k], n, 1))
            return k;
    return -1;
}

int fp_sel_attr_is(fp_sel_ctx *c, uint32_t e, const char *name, const char *word)
{
    return fp_sel_attr_keyword(c, e, name, &word, 1) == 0;
}

/* fp_sel_value_mark's bytes (select_internal.h) */
const uint8_t fp_sel_value_mark[256] = {
    ['\t'] = 1, ['\n'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1, ['>'] = 1,
    ['"'] = 1, ['\''] = 1, ['&'] = 1, [0] = 1,
};

/* [a=v], [a^=v] and [a|=v] (op) on the raw value at v (NULL: none), closed
 * by quote (0: whitespace or '>'), read no further than the pattern: a long
 * URL is not scanned to its end. 1 or 0 when the raw bytes settle it, -1 when
 * the value must be decoded first: a '&', NUL or CR where the answer depends
 * on it (decoding changes nothing before the first of them). */
int fp_sel_raw_compare(const uint8_t *v, uint8_t quote, const uint8_t *end, const uint8_t *want, size_t tlen,
                       int32_t op, int icase)
{
    if (!v)
        return 0;   /* <x a>: the value is empty and the pattern is not */
    /* most candidates differ at the first byte (a relative URL against
     * ^='http'): settled before the loop's set-up (v < end: a value starts
     * before its tag's '>') */
    uint8_t b0 = v[0];
    if (tlen && b0 != want[0] && !fp_sel_value_mark[b0] && (!icase || lower(b0) != lower(want[0])))
        return 0;
    /* a value ends (a quote, whitespace or '>') before its tag does: a shorter
     * value settles the answer within the tag's bytes */
    size_t room = (size_t)(end - v), n = tlen < room ? tlen : room;
    for (size_t k = 0; k < n; k++) {
        uint8_t b = v[k];
        if (fp_sel_value_mark[b]) {   /* one test for the bytes below */
            if (b == '&' || b == 0 || b == '\r')
                return -1;
            if (value_ends_at(b, quote))
                return 0;   /* the value is shorter than the pattern */
        }
        if (icase ? lower(b) != lower(want[k]) : b != want[k])
            return 0;
    }
    if (n == room)
        return -1;   /* not reached: every start tag ends with '>' */
    return raw_after(v[tlen], quote, op);
}

/* value v[0, n) against want[0, tlen) by operator op (any but [a]) */
int fp_sel_value_matches(const uint8_t *v, size_t n, const uint8_t *want, size_t tlen, int32_t op, int icase)
{
    switch (op) {
    case FP_SEL_A_EQUALS:
        return n == tlen && bytes_eq(v, want, tlen, icase);
    case FP_SEL_A_INCLUDES:
        return fp_has_token(v, n, want, tlen, icase);
    case FP_SEL_A_DASH:
        return (n == tlen || (n > tlen && v[tlen] == '-')) && bytes_eq(v, want, tlen, icase);
    case FP_SEL_A_PREFIX:
        return n >= tlen && bytes_eq(v, want, tlen, icase);
    case FP_SEL_A_SUFFIX:
        return n >= tlen && bytes_eq(v + n - tlen, want, tlen, icase);
    default: /* FP_SEL_A_SUBSTRING */
        return fp_sel_bytes_find(v, n, want, tlen, icase);
    }
}

int fp_sel_test_attr(fp_sel_ctx *c, const int32_t *t, uint32_t e)
{
    size_t nlen, tlen, vlen;
    const uint8_t *name = fp_sel_str(c, t[3], &nlen), *want = fp_sel_str(c, t[4], &tlen), *v;
    if (t[1] == FP_SEL_A_EXISTS)
        return fp_attr_present(c->doc, e, (const char *)name, nlen);
    int icase = attr_icase(c, t, e);
    if (raw_comparable(t[1]) && tlen) {
        uint8_t quote;
        if (!fp_attr_value_at(c->doc, e, (const char *)name, nlen, &v, &quote))
            return 0;
        int r = fp_sel_raw_compare(v, quote, c->doc->buf + c->el[e].inner_start, want, tlen, t[1], icase);
        if (r >= 0)
            return r;
    }
    return fp_sel_attr_value(c, e, name, nlen, &v, &vlen) &&
           fp_sel_value_matches(v, vlen, want, tlen, t[1], icase);
}
