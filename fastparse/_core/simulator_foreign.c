/* simulator_foreign.c — foreign content (13.2.6.5): start tags under an svg
 * or math element stay in its namespace unless they break out to the HTML
 * rules; end tags close foreign elements by name. Also the integration
 * points (13.2.6.1: svg foreignObject/desc/title, MathML text elements and
 * annotation-xml as HTML) and whether a CDATA section may open. */
#include <string.h>

#include "simulator_internal.h"

/* Whether a start tag at a node of this tag and flags (namespace and
 * integration point bits: an element's, or a fragment context's) follows
 * the HTML rules rather than the foreign content ones. */
static int
html_rules_at(int cur_tag, uint8_t flags, int tag)
{
    if (!(flags & (FP_EF_SVG | FP_EF_MATHML)) || (flags & FP_EF_HTML_IP))
        return 1;
    if ((flags & FP_EF_TEXT_IP) && tag != FP_TAG_MGLYPH && tag != FP_TAG_MALIGNMARK)
        return 1;
    /* <svg> in a MathML annotation-xml follows the HTML rules: an SVG svg */
    return tag == FP_TAG_SVG && cur_tag == FP_TAG_ANNOTATION_XML && (flags & FP_EF_MATHML);
}

/* The tokenizer opens a CDATA section when the adjusted current node is
 * not an HTML element: any svg/math element, integration points included. */
int
fp_sim_in_foreign(const fp_sim *s)
{
    if (s->top < 0)
        return s->ctx_ns != 0;
    return fp_foreign(&s->e[s->top]);
}

/* <font> breaks out of foreign content only with a color, face or size attribute */
static int
has_font_breakout_attr(const fp_tag_token *t, const uint8_t *end)
{
    if (!t->attr_bits)
        return 0;
    const uint8_t *p = t->name + t->name_len;
    fp_raw_attr a;
    int sc = 0;
    while (fp_tok_attr(&p, end, &a, &sc) == 1) {
        if (a.name_len == 5 || a.name_len == 4) {
            char n[6] = {0};
            for (size_t k = 0; k < a.name_len; k++)
                n[k] = (char)fp_lower(a.name[k]);
            if (!strcmp(n, "color") || !strcmp(n, "face") || !strcmp(n, "size"))
                return 1;
        }
    }
    return 0;
}

/* annotation-xml with encoding text/html or application/xhtml+xml */
static int
annotation_is_html(const fp_tag_token *t, const uint8_t *end)
{
    const uint8_t *p = t->name + t->name_len;
    fp_raw_attr a;
    int sc = 0;
    while (t->attr_bits && fp_tok_attr(&p, end, &a, &sc) == 1) {
        if (a.name_len != 8)
            continue;
        char n[9] = {0};
        for (size_t k = 0; k < 8; k++)
            n[k] = (char)fp_lower(a.name[k]);
        if (strcmp(n, "encoding"))
            continue;
        char v[22] = {0};
        if (a.value_len != 9 && a.value_len != 21)
            return 0;
        for (size_t k = 0; k < a.value_len; k++)
            v[k] = (char)fp_lower(a.value[k]);
        return !strcmp(v, "text/html") || !strcmp(v, "application/xhtml+xml");
    }
    return 0;
}

/* Inserts an element in namespace ns (FP_EF_SVG or FP_EF_MATHML), marked as
 * the integration point it is; a self-closing one ends at once. */
int32_t
fp_sim_insert_foreign(fp_sim *s, const fp_tag_token *t, int tag, uint8_t ns, uint32_t lt, uint32_t gt)
{
    const uint8_t *end = s->doc->buf + gt;
    uint8_t flags = ns;
    if (ns == FP_EF_SVG && (tag == FP_TAG_FOREIGNOBJECT || tag == FP_TAG_DESC || tag == FP_TAG_TITLE))
        flags |= FP_EF_HTML_IP;
    if (ns == FP_EF_MATHML) {
        if (tag == FP_TAG_MI || tag == FP_TAG_MO || tag == FP_TAG_MN || tag == FP_TAG_MS ||
            tag == FP_TAG_MTEXT)
            flags |= FP_EF_TEXT_IP;
        else if (tag == FP_TAG_ANNOTATION_XML && annotation_is_html(t, end))
            flags |= FP_EF_HTML_IP;
    }
    if (t->self_closing)
        flags |= FP_EF_SOLIDUS;
    int32_t i = fp_sim_push(s, tag, flags, lt, gt);
    if (i >= 0 && t->self_closing)
        fp_sim_pop(s, FP_CLOSED_SELF_CLOSING, gt, gt);
    return i;
}

/* 13.2.6.5 for a start tag whose adjusted current node (the current node, or
 * a fragment's context) is foreign: 1 with *i the element it inserts in that
 * namespace; 0 when the HTML rules take the tag, after a tag that breaks out
 * has closed the foreign elements above the nearest integration point. */
int
fp_sim_start_foreign(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt, int32_t *i)
{
    int cur_tag = s->top >= 0 ? s->e[s->top].tag : s->ctx;
    uint8_t cur_flags = s->top >= 0 ? s->e[s->top].flags : (uint8_t)(s->ctx_ns | s->ctx_ip);
    if (html_rules_at(cur_tag, cur_flags, tag))
        return 0;
    if ((fp_tag_flags(tag) & FP_TF_BREAKOUT) ||
        (tag == FP_TAG_FONT && has_font_breakout_attr(t, s->doc->buf + gt))) {
        fp_sim_break_out(s, lt);
        return 0;
    }
    /* content after </body> or </html>, an <html> tag too (start_recovered
     * keeps the mode for it, as the HTML rules merge its attributes) */
    leave_after_body(s, AFTER_BODY_START_TAG, lt);
    /* the adjusted current node's namespace, even for <svg>: in MathML
     * outside annotation-xml and the text integration points (which
     * html_rules_at sends to the HTML rules) it makes a MathML svg */
    *i = fp_sim_insert_foreign(s, t, tag, cur_flags & (FP_EF_SVG | FP_EF_MATHML), lt, gt);
    return 1;
}

/* A start tag that breaks out, or a </br> or </p>, in foreign content: the
 * foreign elements above the nearest HTML element or integration point end
 * at `at`. */
void
fp_sim_break_out(fp_sim *s, uint32_t at)
{
    while (s->top >= 0 && fp_foreign(&s->e[s->top]) &&
           !(s->e[s->top].flags & (FP_EF_HTML_IP | FP_EF_TEXT_IP)))
        fp_sim_pop(s, FP_CLOSED_IMPLIED, at, at);
}

/* ---- end tags ---- */

/* In foreign content an end tag closes the nearest open element of that name
 * when only foreign elements lie above it (13.2.6.5, "any other end tag"). */
int
fp_sim_end_foreign(fp_sim *s, int tag, uint32_t lt, uint32_t gt)
{
    int32_t t = open_of(s, tag);
    if (t < 0 || !fp_foreign(&s->e[t]))
        return 0;
    uint32_t above = s->depth - s->open_depth[t] - 1;
    if (s->open_foreign - s->foreign_below[t] != above)
        return 0;
    fp_sim_close_until(s, t, FP_CLOSED_END_TAG, lt, gt);
    return 1;
}
