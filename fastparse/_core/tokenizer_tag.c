/* tokenizer_tag.c — the tag open, tag name and attribute states of the HTML
 * Standard (13.2.5.6–13.2.5.40): where a tag ends, whether it self-closes, and
 * its attributes when asked. Quoted values are skipped as a block (memchr);
 * character references inside values are decoded later, on demand (text.c). */
#include <string.h>

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

/* First byte at or after p that ends an attribute name (whitespace, '/', '>',
 * '='). Names are short and their lengths vary, so one 16-byte compare
 * replaces a byte loop whose exit the branch predictor rarely guesses. */
static inline const uint8_t *
name_end(const uint8_t *p, const uint8_t *end)
{
#if defined(__SSE2__)
    if (end - p >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        /* bytes <= 0x20 stand for the whitespace; a control byte among them is
         * part of the name and the byte loop below steps over it */
        __m128i stop = _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x20)), v),
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

#define WS FP_CC_WS
#define NS FP_CC_NAME_STOP
#define UQ FP_CC_UNQ_STOP
#define TS FP_CC_TAG_STOP
#define AL FP_CC_ALPHA

const uint8_t fp_cc[256] = {
    ['\t'] = WS | NS | UQ | TS, ['\n'] = WS | NS | UQ | TS,
    ['\f'] = WS | NS | UQ | TS, ['\r'] = WS | NS | UQ | TS,
    [' '] = WS | NS | UQ | TS,
    ['/'] = NS | TS, ['>'] = NS | UQ | TS, ['='] = NS,
    ['A'] = AL, ['B'] = AL, ['C'] = AL, ['D'] = AL, ['E'] = AL, ['F'] = AL, ['G'] = AL,
    ['H'] = AL, ['I'] = AL, ['J'] = AL, ['K'] = AL, ['L'] = AL, ['M'] = AL, ['N'] = AL,
    ['O'] = AL, ['P'] = AL, ['Q'] = AL, ['R'] = AL, ['S'] = AL, ['T'] = AL, ['U'] = AL,
    ['V'] = AL, ['W'] = AL, ['X'] = AL, ['Y'] = AL, ['Z'] = AL,
    ['a'] = AL, ['b'] = AL, ['c'] = AL, ['d'] = AL, ['e'] = AL, ['f'] = AL, ['g'] = AL,
    ['h'] = AL, ['i'] = AL, ['j'] = AL, ['k'] = AL, ['l'] = AL, ['m'] = AL, ['n'] = AL,
    ['o'] = AL, ['p'] = AL, ['q'] = AL, ['r'] = AL, ['s'] = AL, ['t'] = AL, ['u'] = AL,
    ['v'] = AL, ['w'] = AL, ['x'] = AL, ['y'] = AL, ['z'] = AL,
};

/* 13.2.5.32 Before attribute name state through 13.2.5.40 Self-closing start
 * tag state, one attribute per call. Inlined into the parse loop's tag scan,
 * where the attribute itself is not kept (the compiler drops those stores). */
static inline __attribute__((always_inline)) int
tok_attr(const uint8_t **pp, const uint8_t *end, fp_raw_attr *a, int *self_closing)
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
    /* attribute name state; a leading '=' belongs to the name */
    a->name = p++;
    p = name_end(p, end);
    a->name_len = (size_t)(p - a->name);
    a->has_value = 0;
    a->value = p;
    a->value_len = 0;
    /* after attribute name state ('=' most often follows the name at once) */
    if (p < end && *p != '=')
        p = skip_ws(p, end);
    if (p < end && *p == '=') {
        p++;                             /* before attribute value state */
        if (p < end && fp_is_ws(*p))
            p = skip_ws(p, end);
        if (p >= end)
            return -1;
        a->has_value = 1;
        if (*p == '"' || *p == '\'') {   /* U+0022 QUOTATION MARK, U+0027 APOSTROPHE */
            const uint8_t *close = fp_find_byte(p + 1, end, *p);
            if (!close)
                return -1;
            a->value = p + 1;
            a->value_len = (size_t)(close - p - 1);
            p = close + 1;
        } else {                         /* unquoted; '>' here means an empty value */
            a->value = p;
            while (p < end && !(fp_cc[*p] & FP_CC_UNQ_STOP))
                p++;
            a->value_len = (size_t)(p - a->value);
        }
    }
    *pp = p;
    return 1;
}

int
fp_tok_attr(const uint8_t **pp, const uint8_t *end, fp_raw_attr *a, int *self_closing)
{
    return tok_attr(pp, end, a, self_closing);
}

/* 13.2.5.8 Tag name state, then the attribute states up to the '>'. The name
 * is packed 5 bits a character as it is scanned (see tools/gen_tags.py). */
const uint8_t *
fp_tok_tag(const uint8_t *p, const uint8_t *end, fp_tag_token *t)
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

/* Position just after the tag name of element i's start tag. */
static const uint8_t *
after_name(const fp_doc *doc, uint32_t i)
{
    const uint8_t *p = doc->buf + doc->elems[i].start + 1;
    const uint8_t *end = doc->buf + doc->elems[i].inner_start;
    if (p < end && *p == '/')  /* "</br>": the <br> it makes has no attributes */
        return end;
    while (p < end && !(fp_cc[*p] & FP_CC_TAG_STOP))
        p++;
    return p;
}

/* a tokenized attribute as offsets into the document */
static void
to_offsets(const fp_doc *doc, const fp_raw_attr *a, fp_attr *out)
{
    out->name_start = (uint32_t)(a->name - doc->buf);
    out->name_len = (uint32_t)a->name_len;
    out->value_start = (uint32_t)(a->value - doc->buf);
    out->value_len = (uint32_t)a->value_len;
    out->has_value = (uint8_t)a->has_value;
}

int
fp_attr_next(const fp_doc *doc, uint32_t i, uint32_t *cursor, fp_attr *out)
{
    const fp_elem *e = &doc->elems[i];
    const uint8_t *end = doc->buf + e->inner_start;
    const uint8_t *p = *cursor ? doc->buf + *cursor : after_name(doc, i);
    fp_raw_attr a;
    int self_closing = 0;
    if (p >= end || fp_tok_attr(&p, end, &a, &self_closing) != 1) {
        *cursor = (uint32_t)(end - doc->buf);
        return 0;
    }
    *cursor = (uint32_t)(p - doc->buf);
    to_offsets(doc, &a, out);
    return 1;
}

/* raw attribute name == lower-case name, a raw U+0000 standing for U+FFFD
 * (as the attribute name state makes it, and as tag.attrs reports it) */
static int
name_matches(const uint8_t *raw, size_t raw_len, const uint8_t *name, size_t len)
{
    size_t j = 0;
    for (size_t k = 0; k < raw_len; k++) {
        if (raw[k] == 0) {
            if (len - j < 3 || memcmp(name + j, "\xEF\xBF\xBD", 3) != 0)
                return 0;
            j += 3;
        } else if (j >= len || fp_lower(raw[k]) != name[j++]) {
            return 0;
        }
    }
    return j == len;
}

int
fp_attr_find(const fp_doc *doc, uint32_t i, const char *name, size_t len, fp_attr *out)
{
    /* fp_attr_next's loop with the attribute step inlined: selectors and
     * tag.get() call this once per candidate */
    if (len == 0)
        return 0;   /* every raw name has a byte */
    if (!(doc->elems[i].attr_bits & fp_attr_bit((const uint8_t *)name, len)) &&
        !fp_has_replacement_char((const uint8_t *)name, len))   /* a raw NUL's bit differs */
        return 0;
    const uint8_t *end = doc->buf + doc->elems[i].inner_start;
    const uint8_t *p = after_name(doc, i);
    fp_raw_attr a;
    int self_closing = 0;
    while (p < end && tok_attr(&p, end, &a, &self_closing) == 1) {
        /* a raw NUL stands for the 3 bytes of U+FFFD: a raw name is never longer */
        if (a.name_len > len || !name_matches(a.name, a.name_len, (const uint8_t *)name, len))
            continue;
        to_offsets(doc, &a, out);
        return 1;
    }
    return 0;
}

int
fp_attr_present(const fp_doc *doc, uint32_t i, const char *name, size_t len)
{
    if (fp_attr_is_href((const uint8_t *)name, len))
        return (doc->elems[i].attr_bits & (1u << FP_ATTR_HREF_BIT)) != 0;
    fp_attr a;
    return fp_attr_find(doc, i, name, len, &a);
}
