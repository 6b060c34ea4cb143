/* select_lang.c — :lang() (Selectors 4, 14.2; HTML Standard 3.2.6.2): an
 * element's language is its nearest lang attribute (lang_attribute), else
 * the document's default from <meta http-equiv="content-language">, else
 * unknown (""). Ranges match by RFC 4647 extended filtering, ASCII
 * case-insensitively, with an implicit wildcard: :lang(de) matches "de",
 * "de-CH" and "de-Latn-CH"; :lang(de-CH) matches "de-Latn-CH". */
#include "select_internal.h"
#include "tags_gen.h"   /* FP_TAG_META */

/* the next '-'-separated subtag of [*p, end): returns its length, moves *p past it,
 * to NULL after the last one (a final '-' leaves an empty subtag to come: "en-") */
static size_t subtag(const uint8_t **p, const uint8_t *end, const uint8_t **start)
{
    *start = *p;
    const uint8_t *dash = memchr(*p, '-', (size_t)(end - *p));
    const uint8_t *stop = dash ? dash : end;
    *p = dash ? dash + 1 : NULL;
    return (size_t)(stop - *start);
}

/* RFC 4647, 3.3.2 extended filtering */
static int range_matches(const uint8_t *r, size_t rn, const uint8_t *v, size_t vn)
{
    if (rn == 0)
        return vn == 0;   /* :lang("") is the element whose language is unknown */
    if (vn == 0)
        return 0;
    const uint8_t *rp = r, *re = r + rn, *vp = v, *ve = v + vn, *rs, *vs;
    size_t rl = subtag(&rp, re, &rs), vl = subtag(&vp, ve, &vs);
    if (!(rl == 1 && rs[0] == '*') && !(rl == vl && bytes_eq(rs, vs, rl, 1)))
        return 0;
    while (rp) {
        rl = subtag(&rp, re, &rs);
        if (rl == 1 && rs[0] == '*')
            continue;
        for (;;) {
            if (!vp)
                return 0;
            vl = subtag(&vp, ve, &vs);
            if (vl == rl && bytes_eq(rs, vs, rl, 1))
                break;
            if (vl == 1)
                return 0;   /* a singleton (x-, u-...) ends what a later subtag may skip */
        }
    }
    return 1;
}

/* the parent an element inherits its language from: none inside a template's contents */
static int32_t inherits_from(const fp_sel_ctx *c, int32_t x)
{
    int32_t p = c->el[x].parent;
    return p >= 0 && is_template(c, (uint32_t)p) ? -1 : p;
}

/* The attribute that gives element x's language, or NULL: xml:lang on SVG and
 * MathML elements (the tree builder puts it in the XML namespace there), then
 * lang, which HTML and SVG define and MathML does not. */
static const char *lang_attribute(const fp_sel_ctx *c, uint32_t x)
{
    fp_attr a;
    uint32_t flags = c->el[x].flags;
    if ((flags & (FP_EF_SVG | FP_EF_MATHML)) && fp_attr_find(c->doc, x, "xml:lang", 8, &a))
        return "xml:lang";
    if (!(flags & FP_EF_MATHML) && fp_attr_find(c->doc, x, "lang", 4, &a))
        return "lang";
    return NULL;
}

/* the element whose attribute gives e's language: e or an ancestor (not
 * across a <template>), -1 for none; memoised per element (0 unknown, else k + 2,
 * 1 none), so asking every element of a deep page stays linear */
static int32_t lang_source(fp_sel_ctx *c, uint32_t e)
{
    int32_t found = -1, x = (int32_t)e;
    while (x >= 0) {
        uint32_t known = fp_sel_memo_u32(c->lang_from, (uint32_t)x);
        if (known) {
            found = (int32_t)known - 2;
            break;
        }
        if (lang_attribute(c, (uint32_t)x)) {
            found = x;
            break;
        }
        x = inherits_from(c, x);
    }
    /* every element on the way up has the same answer */
    for (int32_t y = (int32_t)e; y >= 0 && y != x; y = inherits_from(c, y))
        fp_sel_memo_set_u32(c, &c->lang_from, (uint32_t)y, (uint32_t)(found + 2));
    if (x >= 0)
        fp_sel_memo_set_u32(c, &c->lang_from, (uint32_t)x, (uint32_t)(found + 2));
    return found;
}

/* <meta> element i sets the default language: http-equiv=content-language and
 * a content without a comma */
static int is_language_pragma(fp_sel_ctx *c, uint32_t i)
{
    const uint8_t *he, *content;
    size_t hn, cn;
    return !(c->el[i].flags & (FP_EF_SVG | FP_EF_MATHML)) &&
           fp_sel_attr_value(c, i, (const uint8_t *)"http-equiv", 10, &he, &hn) && hn == 16 &&
           bytes_eq(he, (const uint8_t *)"content-language", 16, 1) &&
           fp_sel_attr_value(c, i, (const uint8_t *)"content", 7, &content, &cn) && !memchr(content, ',', cn);
}

/* the pragma-set default language: the first <meta http-equiv=content-language>
 * whose content holds no comma, leading and trailing whitespace removed. The
 * <meta> elements come from the tag index when the document has one: a scan
 * of every element on each run made a scoped :lang() (card.select_one in a
 * loop) cost the whole document. Template contents, which the index leaves
 * out, are not in the document and set nothing. */
static int default_lang(fp_sel_ctx *c, const uint8_t **v, size_t *vlen)
{
    if (c->meta_lang == -2) {
        c->meta_lang = -1;
        if (c->index) {
            const uint32_t *meta = fp_select_index_list(c->index, FP_TAG_META);
            for (uint32_t k = 0, n = fp_select_index_count(c->index, FP_TAG_META); k < n && c->meta_lang < 0; k++)
                if (is_language_pragma(c, meta[k]))
                    c->meta_lang = (int32_t)meta[k];
        } else {
            for (uint32_t i = 0; i < c->n && c->meta_lang < 0; i++) {
                if (c->el[i].tag == FP_TAG_META && is_language_pragma(c, i))
                    c->meta_lang = (int32_t)i;
                else if (is_template(c, i))
                    i = c->el[i].last;   /* its contents */
            }
        }
    }
    if (c->meta_lang < 0 ||
        !fp_sel_attr_value(c, (uint32_t)c->meta_lang, (const uint8_t *)"content", 7, v, vlen))
        return 0;
    while (*vlen && is_ws(**v))
        (*v)++, (*vlen)--;
    while (*vlen && is_ws((*v)[*vlen - 1]))
        (*vlen)--;
    return 1;
}

int fp_sel_lang(fp_sel_ctx *c, const int32_t *t, uint32_t e)
{
    const uint8_t *v;
    size_t vlen;
    int32_t src = lang_source(c, e);
    if (c->oom)
        return 0;
    if (src >= 0) {
        const char *name = lang_attribute(c, (uint32_t)src);
        if (!name || !fp_sel_attr_value(c, (uint32_t)src, (const uint8_t *)name, strlen(name), &v, &vlen))
            return 0;
    } else if (!default_lang(c, &v, &vlen)) {
        v = (const uint8_t *)"";   /* no language information: unknown, the empty tag */
        vlen = 0;
    }
    for (int32_t k = 0; k < t[1]; k++) {
        size_t rn;
        const uint8_t *r = fp_sel_str(c, t[2 + k], &rn);
        if (range_matches(r, rn, v, vlen))
            return 1;
    }
    return 0;
}
