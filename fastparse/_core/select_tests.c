/* select_tests.c — the pseudo-classes of structure and text: :nth-child()
 * and its kin (Selectors 4, 14.4) from sibling positions computed a parent at
 * a time, :empty (14.2), :defined (HTML Standard 4.16.3), :contains() and
 * :-soup-contains-own() over an element's text, and :has() (4.5), memoised
 * per element so that asking every element of a page stays linear. */
#include <stdlib.h>

#include "select_internal.h"

/* NOTE: positions among siblings are computed for all children of a parent
 * at once, the first time any of them is asked about, so :nth-child and the
 * sibling combinators cost O(children) per parent instead of per element:
 * linear even on a list of 10,000 <li>. */
int fp_sel_siblings_ready(fp_sel_ctx *c, int32_t p)
{
    if (c->sib == SIB_BORROWED)
        return 1;
    if (c->sib == SIB_NONE) {
        size_t n = c->n;
        c->sib = SIB_OWNED;
        c->sib_done = fp_sel_zalloc(c, n + 1, 1);
        c->prev = fp_sel_zalloc(c, n, sizeof(int32_t));
        c->pos = fp_sel_zalloc(c, n, sizeof(uint32_t));
        c->rpos = fp_sel_zalloc(c, n, sizeof(uint32_t));
        if (c->flags & FP_SEL_F_OF_TYPE) {
            c->tpos = fp_sel_zalloc(c, n, sizeof(uint32_t));
            c->trpos = fp_sel_zalloc(c, n, sizeof(uint32_t));
            c->tag_count = fp_sel_zalloc(c, TAG_ID_SPACE, sizeof(uint32_t));
        }
    }
    if (c->oom)
        return 0;
    if (c->sib_done[p + 1])
        return 1;
    fp_sel_fill_siblings(c->el, c->n, p, c->prev, c->pos, c->rpos, c->tpos, c->trpos, c->tag_count);
    c->sib_done[p + 1] = 1;
    return 1;
}

static int anb(int64_t a, int64_t b, int64_t pos)
{
    if (a == 0)
        return pos == b;
    int64_t d = pos - b;
    return d % a == 0 && d / a >= 0;
}

/* :nth-child(An+B of S): position of e among its siblings matching S. */
static int nth_of_position(fp_sel_ctx *c, int32_t slot, int32_t list, uint32_t e, int last, uint32_t *out)
{
    int32_t p = c->el[e].parent;
    uint32_t count = fp_sel_memo_u32(c->nth_count[slot], (uint32_t)(p + 1));
    if (!count) {
        uint32_t k = 0, end = child_end(c, p);
        for (uint32_t x = first_child(p); x < end; x = c->el[x].last + 1)
            fp_sel_memo_set_u32(c, &c->nth_pos[slot], x, fp_sel_match_list(c, list, x) ? ++k : 0);
        count = k + 1;
        fp_sel_memo_set_u32(c, &c->nth_count[slot], (uint32_t)(p + 1), count);
        if (c->oom)
            return 0;
    }
    uint32_t pos = fp_sel_memo_u32(c->nth_pos[slot], e);
    *out = pos && last ? count - pos : pos;   /* from the end: (count - 1) - pos + 1 */
    return *out != 0;
}

int fp_sel_test_nth(fp_sel_ctx *c, const int32_t *t, uint32_t e)
{
    int32_t flags = t[1], list = t[4];
    int last = (flags & FP_SEL_NTH_LAST) != 0;
    uint32_t pos;
    if (list >= 0) {
        if (!nth_of_position(c, t[5], list, e, last, &pos))
            return 0;
    } else if (!(flags & (FP_SEL_NTH_LAST | FP_SEL_NTH_OF_TYPE)) && t[2] == 0 && t[3] == 1) {
        /* :first-child: the element right after its parent in the index is
         * the first one the sibling walk visits; no positions needed */
        return e == first_child(c->el[e].parent);
    } else {
        if (!fp_sel_siblings_ready(c, c->el[e].parent))
            return 0;
        /* a program whose header did not ask for sibling positions (only a
         * hand-made one: the compiler always sets it) matches nothing */
        if (!(flags & FP_SEL_NTH_OF_TYPE ? c->tpos && c->trpos : c->pos && c->rpos))
            return 0;
        if (flags & FP_SEL_NTH_OF_TYPE)
            pos = last ? c->trpos[e] : c->tpos[e];
        else
            pos = last ? c->rpos[e] : c->pos[e];
    }
    return anb(t[2], t[3], pos);
}

int fp_sel_text(fp_sel_ctx *c, uint32_t e, const fp_text_opts *o)
{
    fp_text_opts plain;
    if (!o) {
        memset(&plain, 0, sizeof plain);
        o = &plain;
    }
    c->text.len = 0;
    if (fp_text(c->doc, e, o, &c->text) != 0) {
        c->oom = 1;
        return 0;
    }
    return 1;
}

/* whether element e's text, built as .text builds it, is document white
 * space only: `&#32;` or `&Tab;` is white space, a NUL the HTML rules drop
 * is nothing (legacy documents mark other references with a NUL byte) */
static int text_is_white(fp_sel_ctx *c, uint32_t e)
{
    if (!fp_sel_text(c, e, NULL))
        return 0;
    for (size_t k = 0; k < c->text.len; k++)
        if (!is_ws(c->text.data[k]))
            return 0;
    return 1;
}

/* :empty (Selectors 4, 14.2): no element children and no text other than
 * document white space; comments and stray end tags are not content. */
int fp_sel_test_empty(fp_sel_ctx *c, uint32_t e)
{
    const fp_elem *x = &c->el[e];
    if (is_template(c, e))
        return 1;
    if (fp_text_moves(c->doc, (int32_t)e) != FP_TEXT_STAYS) {
        /* a table part's own text is white space (the rest was moved before the
         * table, or into a template's contents), and so are the elements
         * flagged: its children are the others */
        for (uint32_t j = e + 1; j <= x->last; j = c->el[j].last + 1)
            if (!(c->el[j].flags & FP_EF_FOSTERED))
                return 0;
        return 1;
    }
    if (x->last != e)
        return 0;
    if (fp_html_is(x, FP_TAG_FRAMESET))
        return 1;   /* "in frameset" keeps whitespace only, and ignores every tag but its own three */
    const uint8_t *p = c->doc->buf + x->inner_start, *end = c->doc->buf + x->inner_end;
    int raw = (x->flags & FP_EF_RAWTEXT) != 0;
    while (p < end) {
        if (is_ws(*p)) {
            p++;
            continue;
        }
        /* a reference may decode to white space; a NUL is dropped in HTML
         * content and is U+FFFD in foreign content, RCDATA and raw text */
        if ((*p == '&' && (!raw || (x->flags & FP_EF_RCDATA))) || (*p == 0 && !raw))
            return text_is_white(c, e);
        if (raw || *p != '<' || p + 1 >= end)
            return 0;
        /* in svg and math a CDATA section is text, which may be more than white space */
        if ((x->flags & (FP_EF_SVG | FP_EF_MATHML)) && end - p >= 9 && memcmp(p, "<![CDATA[", 9) == 0)
            return text_is_white(c, e);
        const uint8_t *q;
        if (end - p >= 4 && memcmp(p, "<!--", 4) == 0) {
            const uint8_t *s = p + 4;
            if (s < end && *s == '>') {
                q = s; /* "<!-->": abrupt closing of an empty comment */
            } else if (end - s >= 2 && s[0] == '-' && s[1] == '>') {
                q = s + 1; /* "<!--->" */
            } else {
                q = end - 1; /* EOF in comment */
                for (const uint8_t *r = s; r + 3 <= end; r++)
                    if (r[0] == '-' && r[1] == '-' && r[2] == '>') {
                        q = r + 2;
                        break;
                    }
            }
        } else if (p[1] == '!' || p[1] == '?' || p[1] == '/') {
            /* bogus comments, doctype, end tags: up to U+003E GREATER-THAN SIGN */
            q = memchr(p, '>', (size_t)(end - p));
            if (!q)
                q = end;
        } else {
            return 0; /* a literal '<' in text */
        }
        p = q + 1;
    }
    return 1;
}

/* HTML Standard 4.13.2: hyphenated names that SVG and MathML took first are
 * not valid custom element names */
static int is_reserved_custom_name(const uint8_t *name, size_t len)
{
    static const char *const reserved[] = {
        "annotation-xml", "color-profile", "font-face", "font-face-src",
        "font-face-uri", "font-face-format", "font-face-name", "missing-glyph",
    };
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
        if (strlen(reserved[i]) == len && memcmp(reserved[i], name, len) == 0)
            return 1;
    return 0;
}

int fp_sel_test_defined(const fp_sel_ctx *c, uint32_t e)
{
    if (c->el[e].flags & (FP_EF_SVG | FP_EF_MATHML))
        return 1;
    size_t len;
    const uint8_t *name = fp_tag_name(c->doc, c->el[e].tag, &len);
    fp_attr a;
    /* custom elements (a valid custom element name) and customized built-ins
     * (is="...") are undefined: no script ever registers them here */
    int custom = memchr(name, '-', len) && !is_reserved_custom_name(name, len);
    return !custom && !fp_attr_find(c->doc, e, "is", 2, &a);
}

/* :contains() over the element's text; :-soup-contains-own() over each of
 * its own text nodes (its children) apart, as soupsieve reads it: the nodes
 * are joined by a separator no string of a selector holds (a NUL; 0xFE is no
 * UTF-8 byte, so no legacy document's reference mark either), and "" needs a node */
static const uint8_t OWN_NODE_SEP[] = {0x00, 0xFE};

int fp_sel_test_contains(fp_sel_ctx *c, const int32_t *t, uint32_t e)
{
    if (t[0] == FP_SEL_T_CONTAINS && c->up_ok) {   /* a run: maybe many candidates */
        int r = fp_sel_contains_indexed(c, t, e);
        if (r >= 0)
            return r;
    }
    fp_text_opts o;
    memset(&o, 0, sizeof o);
    o.own = t[0] == FP_SEL_T_CONTAINS_OWN;
    if (o.own) {
        o.sep = OWN_NODE_SEP;
        o.sep_len = sizeof OWN_NODE_SEP;
    }
    uint16_t skip = FP_TAG_TEMPLATE;
    o.skip = &skip;
    o.nskip = 1;
    o.skip_html_only = 1;
    c->text.len = 0;   /* a template's contents are not its text */
    if (!is_template(c, e) && !fp_sel_text(c, e, &o))
        return 0;
    for (int32_t k = 0; k < t[1]; k++) {
        size_t len;
        const uint8_t *s = fp_sel_str(c, t[2 + k], &len);
        if (o.own && len == 0 ? c->text.len > 0 : fp_sel_bytes_find(c->text.data, c->text.len, s, len, 0))
            return 1;
    }
    return 0;
}

/* NOTE: :has(K C) with one combinator and one compound (the compiler rewrites
 * longer relative selectors into nested one-step :has). Descendant and later-
 * sibling answers are memoised per element, so asking every element of a page
 * costs O(elements) rather than O(elements x subtree). */
int fp_sel_test_has(fp_sel_ctx *c, const int32_t *t, uint32_t e)
{
    int32_t comb = t[1], target = t[2];
    const fp_elem *el = c->el;
    if ((comb == FP_SEL_COMB_CHILD || comb == FP_SEL_COMB_DESCENDANT) && is_template(c, e))
        return 0;
    if (comb == FP_SEL_COMB_CHILD) {
        for (uint32_t x = e + 1; x <= el[e].last; x = el[x].last + 1)
            if (fp_sel_match_compound(c, target, x))
                return 1;
        return 0;
    }
    if (comb == FP_SEL_COMB_NEXT) {
        int32_t s = next_sibling(c, e);
        return s >= 0 && fp_sel_match_compound(c, target, (uint32_t)s);
    }
    void **m = &c->has_memo[t[3]];
    uint8_t known = fp_sel_memo_byte(*m, e);
    if (known)
        return known == 1;
    if (comb == FP_SEL_COMB_LATER) {
        uint32_t end = child_end(c, el[e].parent), s = el[e].last + 1;
        uint8_t r = 2;
        for (; s < end; s = el[s].last + 1) {
            if (fp_sel_match_compound(c, target, s)) {
                r = 1;
                break;
            }
            if ((known = fp_sel_memo_byte(*m, s)) != 0) {
                r = known;
                break;
            }
        }
        for (uint32_t x = e; x < s; x = el[x].last + 1)
            fp_sel_memo_set_byte(c, m, x, r);
        return r == 1;
    }
    /* descendant: scan the subtree, skipping subtrees already known not to have one */
    for (uint32_t d = e + 1; d <= el[e].last;) {
        if (fp_sel_match_compound(c, target, d) || fp_sel_memo_byte(*m, d) == 1) {
            for (int32_t a = el[d].parent; a >= 0 && (uint32_t)a != e; a = el[a].parent)
                fp_sel_memo_set_byte(c, m, (uint32_t)a, 1); /* were provisionally "no" */
            fp_sel_memo_set_byte(c, m, e, 1);
            return 1;
        }
        /* a subtree known not to have one is skipped; otherwise "no" is provisional:
         * corrected above if a match turns up inside */
        int skip = fp_sel_memo_byte(*m, d) == 2 || is_template(c, d);
        fp_sel_memo_set_byte(c, m, d, 2);
        d = skip ? el[d].last + 1 : d + 1;
    }
    fp_sel_memo_set_byte(c, m, e, 2);
    return 0;
}
