/* select_prefilter.c — a cheap necessary condition for each top-level complex
 * selector, taken from its rightmost compound and checked before any
 * attribute is parsed: the tag id, the attribute names' bits in the element's
 * Bloom filter (fp_attr_bit), and strings that must occur in the start tag's
 * bytes (id, class and attribute values, exactly, but for ASCII case of id
 * and class in quirks mode; unless the tag holds a '&', since a character
 * reference could spell the value). Most candidates fail on the tag or the
 * bits, without reading the source; the rest on one pass over the start tag.
 * When the filter decides the whole compound (`a`, `a[href]`: href's bit is
 * exact), a candidate that passes goes on to the combinator at once; one
 * [a=v], [a^=v] or [a|=v] beside the tag is decided here too (fp_sel_value_test). */
#include "select_internal.h"

/* words taken by the test at t (T_CONTAINS, T_CONTAINS_OWN, T_LANG: 2 + their count) */
static int32_t test_words(const int32_t *t)
{
    switch (t[0]) {
    case FP_SEL_T_CONTAINS: case FP_SEL_T_CONTAINS_OWN: case FP_SEL_T_LANG:
        return 2 + t[1];
    case FP_SEL_T_TAG: case FP_SEL_T_ID: case FP_SEL_T_CLASS: case FP_SEL_T_NOT: case FP_SEL_T_IS:
    case FP_SEL_T_NAMESPACE:
        return 2;
    case FP_SEL_T_ATTR:
        return 5;
    case FP_SEL_T_HAS:
        return 4;
    case FP_SEL_T_NTH:
        return 6;
    case FP_SEL_T_DIR:
        return 3;
    default:
        return 1;
    }
}

/* A U+FFFD in the selector may come from a NUL in the source, a line feed
 * from a CR: no byte test for them, no bit for the U+FFFD. */
static void add_needle(fp_sel_prefilter *f, const uint8_t *s, size_t len, int icase, int is_name)
{
    if (f->n < NEEDLES_MAX && len > 0 && !fp_has_replacement_char(s, len) && !memchr(s, '\n', len)) {
        f->needle[f->n].s = s;
        f->needle[f->n].len = len;
        f->needle[f->n].icase = icase;
        f->needle[f->n].is_name = is_name;
        f->n++;
    }
}

static void add_name(fp_sel_prefilter *f, const uint8_t *s, size_t len)
{
    if (len > 0 && !fp_has_replacement_char(s, len))
        f->bits |= fp_attr_bit(s, len);
}

/* A compound that names a tag absent from the document (a name it never
 * uses, or with the tag index, a known name with no element outside
 * templates), or is false, matches nothing. */
static int compound_never(const fp_sel_ctx *c, int32_t at, const uint32_t *index)
{
    const int32_t *w = c->w, *t = w + at + 2;
    for (int32_t k = 0; k < w[at + 1]; k++) {
        if (t[0] == FP_SEL_T_FALSE)
            return 1;
        int tag = t[0] == FP_SEL_T_TAG ? c->tag_ids[t[1]] : 0;
        if (tag < 0 || (index && tag > 0 && !fp_select_index_count(index, (uint32_t)tag)))
            return 1;
        t += test_words(t);
    }
    return 0;
}

/* raw_compare_word finds the first byte that differs from a word's low end */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LITTLE_ENDIAN_WORDS 1
#else
#define LITTLE_ENDIAN_WORDS 0
#endif

/* f's pattern v[0, n) as words for raw_compare_word, when it is short and
 * holds no byte that ends a raw value or decodes to something else */
static void word_init(fp_sel_prefilter *f, const uint8_t *v, size_t n)
{
    if (!LITTLE_ENDIAN_WORDS || n == 0 || n > 8)
        return;
    for (size_t k = 0; k < n; k++)
        if (fp_sel_value_mark[v[k]])
            return;
    fp_word8(v, n, &f->vt_word, &f->vt_fold, &f->vt_keep);
    f->vt_word_ok = 1;
}

/* index: the tag index when it covers the run (scope outside templates), else NULL */
void fp_sel_prefilter_build(const fp_sel_ctx *c, const int32_t *cx, fp_sel_prefilter *f, const uint32_t *index)
{
    f->tag = -1;   /* no memset: needle[] is read only below n */
    f->never = 0;
    f->bits = 0;
    f->n = 0;
    f->exact = 1;
    f->vt = NULL;
    f->vt_word_ok = 0;
    const int32_t *w = c->w;
    /* `nav a` on a page without <nav>: every compound of the chain must match */
    for (int32_t k = 0; k < cx[1]; k++)
        f->never |= compound_never(c, cx[2 + 2 * k], index);
    int32_t at = cx[2];
    const int32_t *t = w + at + 2;
    struct { const uint8_t *s; size_t len; } name[NEEDLES_MAX];   /* of [name] tests */
    int names = 0, others = 0, href;   /* others: tests other than the tag's */
    for (int32_t k = 0; k < w[at + 1]; k++) {
        size_t len, vlen;
        const uint8_t *s, *v;
        others += t[0] != FP_SEL_T_TAG;
        switch (t[0]) {
        case FP_SEL_T_TAG:
            /* two different names (a program the compiler does not emit): nothing is both */
            f->never |= c->tag_ids[t[1]] < 0 || (f->tag >= 0 && f->tag != c->tag_ids[t[1]]);
            f->tag = c->tag_ids[t[1]];
            break;
        case FP_SEL_T_FALSE:
            f->never = 1;
            break;
        case FP_SEL_T_ID:
        case FP_SEL_T_CLASS:
            f->exact = 0;
            if (t[0] == FP_SEL_T_ID)
                add_name(f, (const uint8_t *)"id", 2);
            else
                add_name(f, (const uint8_t *)"class", 5);
            s = fp_sel_str(c, t[1], &len);
            add_needle(f, s, len, c->doc->quirks, 0);
            break;
        case FP_SEL_T_ATTR:
            s = fp_sel_str(c, t[3], &len);
            add_name(f, s, len);
            href = fp_attr_is_href(s, len);
            f->exact &= t[1] == FP_SEL_A_EXISTS && href;
            if (t[1] == FP_SEL_A_EXISTS && !href && names < NEEDLES_MAX) {
                name[names].s = s;
                name[names++].len = len;
            }
            /* [href^=v], [href=v], [href|=v]: an href its exact bit says is
             * there is found, and its first bytes compared, in less than a
             * needle's search through the whole tag costs (a[href^=http]: -12%);
             * a value searched (*=, $=, ~=) keeps the needle, which rejects most
             * tags sooner than finding the value does (without it a[href$='.html']
             * took 14% longer) */
            v = fp_sel_str(c, t[4], &vlen);
            if (t[1] != FP_SEL_A_EXISTS && t[2] == 0 && !(raw_comparable(t[1]) && href))
                add_needle(f, v, vlen, 0, 0);
            /* [a] but [href] (its exact bit decides it), [a op v] with a value;
             * a U+FFFD may stand for a raw NUL, whose bit differs: none was set for it */
            if ((t[1] == FP_SEL_A_EXISTS ? !href : vlen > 0) && len && !fp_has_replacement_char(s, len)) {
                f->vt = t;   /* kept if it is the compound's one test besides the tag */
                f->vt_want = v;
                f->vt_tlen = vlen;
                fp_attr_key_init(&f->vt_key, (const char *)s, len);
                word_init(f, v, vlen);
            }
            break;
        default:
            f->exact = 0;
            break;
        }
        t += test_words(t);
    }
    /* `[itemprop]` without a tag: most elements that pass its bit carry a
     * name sharing it (data-*, loading), and a search for the name rejects
     * their tags faster than reading their attributes. With a tag (`img[src]`)
     * most candidates have the name: the search would only add to their cost */
    for (int k = 0; k < names && f->tag < 0; k++)
        add_needle(f, name[k].s, name[k].len, 1, 1);
    if (others == 1 && f->vt)
        f->exact = 1;
    else
        f->vt = NULL;
}

/* raw_compare for f's pattern (fp_sel_prefilter.vt_word_ok), its bytes compared
 * at once: the first that differs, if any, decides, as in the byte loop.
 * v has 8 bytes to read before the end of the document. */
static inline int raw_compare_word(const fp_sel_prefilter *f, const uint8_t *v, uint8_t quote, int32_t op,
                                   int icase)
{
    uint64_t w;
    memcpy(&w, v, 8);
    uint64_t fold = icase ? f->vt_fold : 0;
    uint64_t diff = ((w | fold) ^ (f->vt_word | fold)) & f->vt_keep;
    if (diff) {
        uint8_t b = v[__builtin_ctzll(diff) >> 3];   /* little-endian: byte k is bits 8k.. */
        return b == '&' || b == 0 || b == '\r' ? -1 : 0;
    }
    /* the pattern's bytes end no value and no tag: the value goes on past them */
    return raw_after(v[f->vt_tlen], quote, op);
}

/* f's [a] or [a op v] on a candidate whose attribute bits passed: found
 * without testing its bit again, a value compared on its raw first bytes
 * (=, ^=, |=: -1 for one that must be decoded, which the compound's own test
 * then does), or read whole, decoded if it must be, and searched (*=, $=, ~=) */
__attribute__((noinline)) int fp_sel_value_test(fp_sel_ctx *c, const fp_sel_prefilter *f, uint32_t e)
{
    const int32_t *t = f->vt;
    const uint8_t *v;
    if (t[1] == FP_SEL_A_EXISTS || raw_comparable(t[1])) {
        uint8_t quote;
        if (!fp_attr_value_at_key(c->doc, e, &f->vt_key, &v, &quote))
            return 0;
        if (t[1] == FP_SEL_A_EXISTS)
            return 1;
        if (f->vt_word_ok && v && c->doc->buf + c->doc->len - v >= 8)
            return raw_compare_word(f, v, quote, t[1], attr_icase(c, t, e));
        return fp_sel_raw_compare(v, quote, c->doc->buf + c->el[e].inner_start, f->vt_want, f->vt_tlen, t[1],
                           attr_icase(c, t, e));
    }
    size_t n;
    return fp_sel_attr_value(c, e, (const uint8_t *)f->vt_key.name, f->vt_key.len, &v, &n) &&
           fp_sel_value_matches(v, n, f->vt_want, f->vt_tlen, t[1], attr_icase(c, t, e));
}

int fp_sel_needles_pass(const fp_sel_ctx *c, const fp_sel_prefilter *f, uint32_t e)
{
    if (c->doc->nmerged && fp_attr_merged(c->doc, e))
        return 1;   /* attributes in a later <html> or <body> tag too: the match decides */
    const uint8_t *p = c->doc->buf + c->el[e].start;
    size_t len = c->el[e].inner_start - c->el[e].start;
    int amp = -1;
    for (int k = 0; k < f->n; k++) {
        const uint8_t *s = f->needle[k].s;
        size_t n = f->needle[k].len;
        if (fp_sel_bytes_find_in(p, len, s, n, f->needle[k].icase, c->doc->buf + c->doc->len))
            continue;
        if (f->needle[k].is_name)
            return 0;
        if (amp < 0)
            amp = memchr(p, '&', len) != NULL;
        if (!amp)
            return 0;
    }
    return 1;
}
