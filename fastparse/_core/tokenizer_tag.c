/* tokenizer_tag.c — the tag open, tag name and attribute states of the HTML
 * Standard (13.2.5.6–13.2.5.40): where a tag ends, whether it self-closes, and
 * its attributes when asked. Quoted values are skipped as a block (memchr);
 * character references inside values are decoded later, on demand (text.c). */
#include <string.h>

#include "tokenizer_tag.h"

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

/* the states of tokenizer_tag.h for the other files; the parse loop inlines
 * tok_tag where it scans a start tag (the call cost 2% of the parse) */
int
fp_tok_attr(const uint8_t **pp, const uint8_t *end, fp_raw_attr *a, int *self_closing)
{
    return tok_attr(pp, end, a, self_closing);
}

const uint8_t *
fp_tok_tag(const uint8_t *p, const uint8_t *end, fp_tag_token *t)
{
    return tok_tag(p, end, t);
}

/* Position just after the tag name of element i's start tag. (Inlined, as
 * is_first_name, in each attribute lookup: the profile-guided build left both
 * out of line in fp_attr_present once selectors also called another lookup.)
 * A known tag's name is found by its length in the table and the byte after
 * it: no element's source name is shorter than its tag's, and one longer
 * (the <img> of an <image>) fails the test and is scanned. */
static inline __attribute__((always_inline)) const uint8_t *
after_name(const fp_doc *doc, uint32_t i)
{
    const uint8_t *p = doc->buf + doc->elems[i].start + 1;
    const uint8_t *end = doc->buf + doc->elems[i].inner_start;
    uint16_t tag = doc->elems[i].tag;
    if (p < end && *p == '/')  /* "</br>": the <br> it makes has no attributes */
        return end;
    if (tag < FP_TAG__COUNT) {
        size_t n = fp_tag_name_lens_gen[tag];
        if ((size_t)(end - p) > n && (fp_cc[p[n]] & FP_CC_TAG_STOP))
            return p + n;
    }
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

/* The first of element i's entries in doc->merged (sorted by element), or
 * where they would be. */
static uint32_t
merged_first(const fp_doc *doc, uint32_t i)
{
    uint32_t lo = 0, hi = doc->nmerged;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (doc->merged[mid].elem < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The next start tag of a later <html> or <body> whose attributes element i
 * takes (fp_merged_tag): [*p, *end) its bytes after the name. *k is 0 before
 * the first, then just past the entry returned; 0 when there is none. Only
 * html and body elements can have one. */
static int
next_merged(const fp_doc *doc, uint32_t i, uint32_t *k, const uint8_t **p, const uint8_t **end)
{
    if (*k == 0)
        *k = merged_first(doc, i);
    if (*k >= doc->nmerged || doc->merged[*k].elem != i)
        return 0;
    const fp_merged_tag *m = &doc->merged[(*k)++];
    *p = doc->buf + m->attrs;
    *end = doc->buf + m->end;
    return 1;
}

/* The entry of element i's that holds offset `at` (past the element's own
 * tag): its bytes from `at` in [*p, *end), *k just past it. i's entries are
 * in document order, so the last that starts at or before `at`. */
static void
merged_holding(const fp_doc *doc, uint32_t i, uint32_t at, uint32_t *k, const uint8_t **p,
               const uint8_t **end)
{
    uint32_t lo = merged_first(doc, i), hi = merged_first(doc, i + 1);
    while (lo < hi) {   /* the first that starts past `at` */
        uint32_t mid = lo + (hi - lo) / 2;
        if (doc->merged[mid].attrs <= at)
            lo = mid + 1;
        else
            hi = mid;
    }
    *k = lo;
    *p = doc->buf + at;
    *end = doc->buf + doc->merged[lo - 1].end;
}

int
fp_attr_merged(const fp_doc *doc, uint32_t i)
{
    const uint8_t *p, *end;
    uint32_t k = 0;
    return next_merged(doc, i, &k, &p, &end);
}

int
fp_attr_next(const fp_doc *doc, uint32_t i, uint32_t *cursor, fp_attr *out)
{
    const fp_elem *e = &doc->elems[i];
    const uint8_t *p, *end = doc->buf + e->inner_start;
    uint32_t k = 0;
    if (*cursor == 0)
        p = after_name(doc, i);
    else if (*cursor > e->inner_start)   /* in a merged tag, which comes later */
        merged_holding(doc, i, *cursor, &k, &p, &end);
    else
        p = doc->buf + *cursor;
    fp_raw_attr a;
    int self_closing = 0;
    for (;;) {
        if (p < end && fp_tok_attr(&p, end, &a, &self_closing) == 1)
            break;
        if (!doc->nmerged || !next_merged(doc, i, &k, &p, &end)) {
            *cursor = (uint32_t)(end - doc->buf);
            return 0;
        }
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

/* raw[0 .. len) is the lower-case name `name`, and the attribute name state
 * ends there: no byte of it ends a name (one that did would end it sooner,
 * a leading '=' aside, which the general loop handles) and the next does. */
static inline __attribute__((always_inline)) int
is_first_name(const uint8_t *raw, const uint8_t *name, size_t len)
{
    for (size_t k = 0; k < len; k++)
        if ((fp_cc[raw[k]] & FP_CC_NAME_STOP) || fp_lower(raw[k]) != name[k])
            return 0;
    return (fp_cc[raw[len]] & FP_CC_NAME_STOP) != 0;
}

void
fp_attr_key_init(fp_attr_key *k, const char *name, size_t len)
{
    k->name = name;
    k->len = len;
    k->wide = len > 0 && len <= 8;
    for (size_t j = 0; j < len && k->wide; j++) {
        uint8_t b = (uint8_t)name[j];
        if ((fp_cc[b] & FP_CC_NAME_STOP) || (b >= 'A' && b <= 'Z'))
            k->wide = 0;   /* such a name is in no start tag: is_first_name says so */
    }
    fp_word8((const uint8_t *)name, len, &k->want, &k->fold, &k->keep);
}

/* is_first_name for a prepared name: OR 0x20 folds an upper-case letter onto
 * its lower case and no other byte onto a letter (no byte that ends a name
 * lands on one), so one compare of the masked 8 bytes at raw decides.
 * limit: the end of the document's bytes, which the load must not pass. */
static inline __attribute__((always_inline)) int
is_first_key(const uint8_t *raw, const uint8_t *limit, const fp_attr_key *k)
{
    if (!k->wide || limit - raw < 8)
        return is_first_name(raw, (const uint8_t *)k->name, k->len);
    uint64_t w;
    memcpy(&w, raw, 8);
    return ((w | k->fold) & k->keep) == k->want && (fp_cc[raw[k->len]] & FP_CC_NAME_STOP);
}

/* element i's Bloom bits rule out an attribute `name` (a name holding
 * U+FFFD may be spelt with a raw NUL, whose bit differs: never ruled out) */
static inline __attribute__((always_inline)) int
bits_rule_out(const fp_doc *doc, uint32_t i, const char *name, size_t len)
{
    return !(doc->elems[i].attr_bits & fp_attr_bit((const uint8_t *)name, len)) &&
           !fp_has_replacement_char((const uint8_t *)name, len);
}

/* fp_attr_next's loop with the attribute step inlined, up to the start of the
 * value of element i's first attribute `name`: 1 with *a its name and *pp at
 * its value (tok_attr_name), 0 when there is none. Selectors and tag.get()
 * call this once per candidate; a value not asked for is not read to its end.
 * key: the name prepared by a caller that has seen its Bloom bit set (a
 * selector's prefilter), else NULL and the bits are tested here. */
static inline __attribute__((always_inline)) int find_in_tag(const uint8_t *p, const uint8_t *end,
                                                             const uint8_t *want, size_t len, fp_raw_attr *a,
                                                             const uint8_t **pp);

static inline __attribute__((always_inline)) int
find_name(const fp_doc *doc, uint32_t i, const char *name, size_t len, fp_raw_attr *a, const uint8_t **pp,
          const fp_attr_key *key, const uint8_t **tag_end)
{
    if (len == 0)
        return 0;   /* every raw name has a byte */
    if (!key && bits_rule_out(doc, i, name, len))
        return 0;
    const uint8_t *end = doc->buf + doc->elems[i].inner_start;
    const uint8_t *p = after_name(doc, i);
    const uint8_t *want = (const uint8_t *)name;
    *tag_end = end;
    /* most href, src, rel and class attributes come first, after one space */
    if ((size_t)(end - p) > len + 1 && *p == ' ' &&
        (key ? is_first_key(p + 1, doc->buf + doc->len, key) : is_first_name(p + 1, want, len))) {
        a->name = p + 1;
        a->name_len = len;
        return tok_attr_value_start(pp, p + 1 + len, end, a) == 1;
    }
    if (find_in_tag(p, end, want, len, a, pp))
        return 1;
    for (uint32_t k = 0; doc->nmerged && next_merged(doc, i, &k, &p, &end);)
        if (find_in_tag(p, end, want, len, a, pp)) {
            *tag_end = end;
            return 1;
        }
    return 0;
}

/* find_name's search of one start tag's bytes [p, end) after its name */
static inline __attribute__((always_inline)) int
find_in_tag(const uint8_t *p, const uint8_t *end, const uint8_t *want, size_t len, fp_raw_attr *a,
            const uint8_t **pp)
{
    int self_closing = 0;
    while (p < end && tok_attr_name(&p, end, a, &self_closing) == 1) {
        /* a raw NUL stands for the 3 bytes of U+FFFD: a raw name is never
         * longer, and only one holding a NUL is shorter (one as long matches
         * `name`, which holds no NUL, only if it holds none: fp_lower_eq); most
         * shorter names differ at their first byte, which is tested here */
        if (a->name_len == len ? fp_lower_eq(a->name, want, len)
                               : a->name_len < len && (a->name[0] == 0 || fp_lower(a->name[0]) == want[0]) &&
                                     name_matches(a->name, a->name_len, want, len)) {
            *pp = p;
            return 1;
        }
        if (a->has_value && tok_attr_value(&p, end, a) != 1)
            return 0;
    }
    return 0;
}

int
fp_attr_find(const fp_doc *doc, uint32_t i, const char *name, size_t len, fp_attr *out)
{
    fp_raw_attr a;
    const uint8_t *p, *tag_end;
    if (!find_name(doc, i, name, len, &a, &p, NULL, &tag_end))
        return 0;
    if (a.has_value && tok_attr_value(&p, tag_end, &a) != 1)
        return 0;   /* not reached: the start tag's value closed before its '>' */
    to_offsets(doc, &a, out);
    return 1;
}

/* the value of the attribute find_name found, p at its first byte (a quote included) */
static inline __attribute__((always_inline)) void
value_start(const fp_raw_attr *a, const uint8_t *p, const uint8_t **value, uint8_t *quote)
{
    *quote = a->has_value && (*p == '"' || *p == '\'') ? *p : 0;
    *value = a->has_value ? p + (*quote != 0) : NULL;
}

int
fp_attr_value_at_key(const fp_doc *doc, uint32_t i, const fp_attr_key *k, const uint8_t **value, uint8_t *quote)
{
    fp_raw_attr a;
    const uint8_t *p, *tag_end;
    if (!find_name(doc, i, k->name, k->len, &a, &p, k, &tag_end))
        return 0;
    value_start(&a, p, value, quote);
    return 1;
}

int
fp_attr_value_at(const fp_doc *doc, uint32_t i, const char *name, size_t len, const uint8_t **value,
                 uint8_t *quote)
{
    fp_raw_attr a;
    const uint8_t *p, *tag_end;
    if (!find_name(doc, i, name, len, &a, &p, NULL, &tag_end))
        return 0;
    value_start(&a, p, value, quote);
    return 1;
}

int
fp_attr_present(const fp_doc *doc, uint32_t i, const char *name, size_t len)
{
    if (fp_attr_is_href((const uint8_t *)name, len))
        return (doc->elems[i].attr_bits & (1u << FP_ATTR_HREF_BIT)) != 0;
    fp_raw_attr a;
    const uint8_t *p, *tag_end;
    return find_name(doc, i, name, len, &a, &p, NULL, &tag_end);
}
