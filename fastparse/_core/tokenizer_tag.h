/* tokenizer_tag.h — the tag name and attribute states as inline functions:
 * tokenizer_tag.c exports them (fp_tok_tag, fp_tok_attr), and the parse
 * loop inlines tok_tag for start tags, the call it makes most. */
#ifndef FP_TOKENIZER_TAG_H
#define FP_TOKENIZER_TAG_H

#include "internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* First non-whitespace byte at or after p. Long runs (indentation between
 * attributes) go 16 bytes at a time. */
static inline const uint8_t *
skip_ws(const uint8_t *p, const uint8_t *end)
{
    /* the common case first: one space between attributes */
    if (p + 1 < end && *p == ' ' && !fp_is_ws(p[1]))
        return p + 1;
    while (p < end && fp_is_ws(*p)) {
#if defined(__SSE2__)
        if (end - p >= 16 && (*p == ' ' || *p == '\n')) {
            __m128i v = _mm_loadu_si128((const __m128i *)p);
            __m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
                                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                                      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\t')),
                                                   _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));
            unsigned mask = (unsigned)_mm_movemask_epi8(ws) ^ 0xFFFFu;
            if (mask) {
                p += __builtin_ctz(mask);
                continue;   /* the byte there may still be U+000C FORM FEED */
            }
            p += 16;
            continue;
        }
#endif
        p++;
    }
    return p;
}

#if defined(__SSE2__)
/* The lanes of v holding a byte <= 0x20: the whitespace that ends names and
 * unquoted values, and control bytes, which do not (callers check fp_cc). */
static inline __m128i
at_most_space(__m128i v)
{
    return _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x20)), v);
}

/* The lanes of v holding ASCII whitespace exactly: ' ', or 0x09-0x0D but 0x0B. */
static inline __m128i
whitespace_lanes(__m128i v)
{
    __m128i from_tab = _mm_sub_epi8(v, _mm_set1_epi8('\t'));
    return _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
                        _mm_andnot_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\v')),
                                         _mm_cmpeq_epi8(_mm_min_epu8(from_tab, _mm_set1_epi8(4)), from_tab)));
}
#endif

/* First byte at or after p that ends an attribute name (whitespace, '/', '>',
 * '='). Names are short and their lengths vary, so one 16-byte compare
 * replaces a byte loop whose exit the branch predictor rarely guesses. */
static inline const uint8_t *
name_end(const uint8_t *p, const uint8_t *end)
{
#if defined(__SSE2__)
    if (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        /* a control byte is part of the name: the byte loop below steps over it */
        __m128i stop = _mm_or_si128(at_most_space(v),
                                    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('=')),
                                                 _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('>')),
                                                              _mm_cmpeq_epi8(v, _mm_set1_epi8('/')))));
        unsigned m = (unsigned)_mm_movemask_epi8(stop);
        if (m) {
            p += __builtin_ctz(m);
            if (fp_cc[*p] & FP_CC_NAME_STOP)
                return p;
        } else {
            p += 16;
        }
    }
#endif
    while (p < end && !(fp_cc[*p] & FP_CC_NAME_STOP))
        p++;
    return p;
}

/* First byte at or after p that ends an unquoted attribute value (whitespace
 * or '>'). Minified pages leave URLs and class lists unquoted, tens of bytes
 * long: 16 bytes are compared at once, as in name_end. */
static inline const uint8_t *
unquoted_end(const uint8_t *p, const uint8_t *end)
{
#if defined(__SSE2__)
    while (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        /* a control byte is part of the value and is stepped over */
        __m128i stop = _mm_or_si128(at_most_space(v), _mm_cmpeq_epi8(v, _mm_set1_epi8('>')));
        for (unsigned m = (unsigned)_mm_movemask_epi8(stop); m; m &= m - 1)
            if (fp_cc[p[__builtin_ctz(m)]] & FP_CC_UNQ_STOP)
                return p + __builtin_ctz(m);
        p += 16;
    }
#endif
    while (p < end && !(fp_cc[*p] & FP_CC_UNQ_STOP))
        p++;
    return p;
}

/* 13.2.5.34 After attribute name state and 13.2.5.35 Before attribute value
 * state, from p just past a name: tok_attr_name's results (1 or -1). */
static inline __attribute__((always_inline)) int
tok_attr_value_start(const uint8_t **pp, const uint8_t *p, const uint8_t *end, fp_raw_attr *a)
{
    a->has_value = 0;
    a->value = p;
    a->value_len = 0;
    /* '=' most often follows the name at once */
    if (p < end && *p != '=')
        p = skip_ws(p, end);
    if (p < end && *p == '=') {
        p++;
        if (p < end && fp_is_ws(*p))
            p = skip_ws(p, end);
        if (p >= end)
            return -1;
        a->has_value = 1;
    }
    *pp = p;
    return 1;
}

/* 13.2.5.32 Before attribute name state: whitespace, and '/' (the
 * self-closing start tag state) before a name. 1: *pp is at a name's first
 * byte; 0: the tag ended ('>' or "/>", *pp past it); -1: the input ended. */
static inline __attribute__((always_inline)) int
tok_before_name(const uint8_t **pp, const uint8_t *end, int *self_closing)
{
    const uint8_t *p = *pp;
    for (;;) {
        p = skip_ws(p, end);
        if (p >= end)
            return -1;
        if (*p == '>') {                 /* U+003E GREATER-THAN SIGN (>) */
            *pp = p + 1;
            return 0;
        }
        if (*p != '/')
            break;
        p++;                             /* U+002F SOLIDUS (/): self-closing start tag state */
        if (p < end && *p == '>') {
            *self_closing = 1;
            *pp = p + 1;
            return 0;
        }                                /* else unexpected-solidus-in-tag: reconsume */
    }
    *pp = p;
    return 1;
}

/* 13.2.5.33 Attribute name state through 13.2.5.36 Before attribute value
 * state, from a name's first byte at *pp: tok_attr_name's results. */
static inline __attribute__((always_inline)) int
tok_name_rest(const uint8_t **pp, const uint8_t *end, fp_raw_attr *a)
{
    const uint8_t *p = *pp;
    a->name = p++;                       /* a leading '=' belongs to the name */
    p = name_end(p, end);
    a->name_len = (size_t)(p - a->name);
    return tok_attr_value_start(pp, p, end, a);
}

/* 13.2.5.32 Before attribute name state through 13.2.5.36 Before attribute
 * value state: one attribute's name, and where its value starts. 1: a name
 * was read, and *pp is at its value's first byte when a->has_value (a quote
 * included), else just past the name; 0: the tag ended ('>' or "/>", *pp past
 * it); -1: the input ended. */
static inline __attribute__((always_inline)) int
tok_attr_name(const uint8_t **pp, const uint8_t *end, fp_raw_attr *a, int *self_closing)
{
    int r = tok_before_name(pp, end, self_closing);
    return r == 1 ? tok_name_rest(pp, end, a) : r;
}

/* 13.2.5.37-13.2.5.39 Attribute value states: the value starting at *pp (of
 * an attribute tok_attr_name read with a->has_value), *pp left past it. 1, or
 * -1 when the input ends inside its quotes. */
static inline __attribute__((always_inline)) int
tok_attr_value(const uint8_t **pp, const uint8_t *end, fp_raw_attr *a)
{
    const uint8_t *p = *pp;
    if (*p == '"' || *p == '\'') {      /* U+0022 QUOTATION MARK, U+0027 APOSTROPHE */
        const uint8_t *close = fp_find_byte(p + 1, end, *p);
        if (!close)
            return -1;
        a->value = p + 1;
        a->value_len = (size_t)(close - p - 1);
        p = close + 1;
    } else {                             /* unquoted; '>' here means an empty value */
        a->value = p;
        p = unquoted_end(p, end);
        a->value_len = (size_t)(p - a->value);
    }
    *pp = p;
    return 1;
}

/* The most common attribute, name="value", from the name's first byte at *pp,
 * read from one 16-byte load: where the name stops (exact whitespace, '=',
 * '>' or '/'), that '"' follows the '=' at once, and, for a value that ends
 * within those bytes, its closing quote; a longer one is searched from the
 * 17th byte. The byte-at-a-time states wait on a load at each of these steps
 * (the parse 0.954x the time at the median page, tools/ab_builds.py). 1: read,
 * *pp past the closing quote; -1: the input ends inside the value; 0: not of
 * that shape (or too near the end), nothing read. */
static inline __attribute__((always_inline)) int
tok_attr_quoted(const uint8_t **pp, const uint8_t *end, fp_raw_attr *a)
{
#if defined(__SSE2__)
    const uint8_t *name = *pp;
    if (end - name < 16)
        return 0;
    __m128i v = _mm_loadu_si128((const __m128i *)name);
    __m128i eq = _mm_cmpeq_epi8(v, _mm_set1_epi8('='));
    __m128i stop = _mm_or_si128(_mm_or_si128(whitespace_lanes(v), eq),
                                _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('>')),
                                             _mm_cmpeq_epi8(v, _mm_set1_epi8('/'))));
    unsigned stops = (unsigned)_mm_movemask_epi8(stop) & ~1u;   /* the first byte is the name's */
    unsigned eqs = (unsigned)_mm_movemask_epi8(eq);
    unsigned quotes = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    if (!stops)
        return 0;
    unsigned k = (unsigned)__builtin_ctz(stops);
    if (!((eqs >> k) & (quotes >> (k + 1)) & 1))
        return 0;
    a->name = name;
    a->name_len = k;
    a->has_value = 1;
    a->value = name + k + 2;
    unsigned rest = quotes >> (k + 2);
    const uint8_t *close = rest ? a->value + __builtin_ctz(rest) : fp_find_byte(name + 16, end, '"');
    if (!close)
        return -1;
    a->value_len = (size_t)(close - a->value);
    *pp = close + 1;
    return 1;
#else
    (void)pp, (void)end, (void)a;
    return 0;
#endif
}

/* One attribute, name and value: tok_attr_name's results, *pp past the value.
 * name="value" (three attributes in four on real pages) is read whole by
 * tok_attr_quoted; any other takes the states byte by byte. Inlined into the
 * parse loop's tag scan, where the attribute itself is not kept (the compiler
 * drops those stores). */
static inline __attribute__((always_inline)) int
tok_attr(const uint8_t **pp, const uint8_t *end, fp_raw_attr *a, int *self_closing)
{
    int r = tok_before_name(pp, end, self_closing);
    if (r != 1)
        return r;
    r = tok_attr_quoted(pp, end, a);
    if (r)
        return r;
    r = tok_name_rest(pp, end, a);
    if (r == 1 && a->has_value)
        r = tok_attr_value(pp, end, a);
    return r;
}

/* 13.2.5.8 Tag name state, then the attribute states up to the '>'. The name
 * is packed 5 bits a character as it is scanned (see tools/gen_tags.py). */
static inline __attribute__((always_inline)) const uint8_t *
tok_tag(const uint8_t *p, const uint8_t *end, fp_tag_token *t)
{
    const uint8_t *name = p;
    uint64_t key = 0;
    unsigned bad = 0;
    while (p < end && !(fp_cc[*p] & FP_CC_TAG_STOP)) {
        uint8_t code = fp_pack_code[*p++];
        bad |= code;
        key = (key << 5) | (code & 31);
    }
    if (p >= end)
        return NULL;
    t->name = name;
    t->name_len = (size_t)(p - name);
    t->tag = (bad & 0x80) || t->name_len > 12 ? fp_tag_known(name, t->name_len) : fp_tag_by_key(key);
    t->self_closing = 0;
    t->attr_bits = 0;
    if (*p == '>')
        return p + 1;
    fp_raw_attr a;
    int r;
    unsigned bits = 0;
    while ((r = tok_attr(&p, end, &a, &t->self_closing)) == 1)
        bits |= fp_attr_bit(a.name, a.name_len);
    t->attr_bits = (uint16_t)bits;
    return r == 0 ? p : NULL;
}

#endif
