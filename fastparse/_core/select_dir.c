/* select_dir.c — :dir(ltr) and :dir(rtl) (HTML Standard 4.16.3, and 3.2.6.4
 * "the dir attribute"): an HTML element's directionality is its own `dir`
 * (ltr, rtl), else its parent's (ltr at the top). `dir=auto`, and a <bdi>
 * without dir, take the first character with a strong direction in the
 * element's text, leaving out nested bdi, script, style, textarea and
 * elements that set their own dir; an auto text control looks at its value.
 * No strong character: ltr. Follows soupsieve 4.1 where the spec leaves room
 * (input type=tel is ltr). Answers are memoised per element: a selector over
 * a whole page reads each dir=auto subtree's text once. */
#include "bidi_gen.h"
#include "select_internal.h"
#include "tags_gen.h"   /* the fixed ids of known tag names */

enum { DIR_INHERIT = 0, DIR_LTR = FP_SEL_DIR_LTR, DIR_RTL = FP_SEL_DIR_RTL, DIR_AUTO = 3 };

static int cp_dir(uint32_t cp)
{
    uint32_t lo = 0, hi = FP_BIDI_RUNS;   /* the last run starting at or before cp */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (fp_bidi_start[mid] <= cp)
            lo = mid;
        else
            hi = mid;
    }
    return fp_bidi_dir[lo] == FP_BIDI_LTR ? DIR_LTR : fp_bidi_dir[lo] == FP_BIDI_RTL ? DIR_RTL : 0;
}

/* One UTF-8 sequence at p (n > 0 bytes left): its code point, and its length
 * in *len; a malformed byte is skipped as U+FFFD (neutral). */
static uint32_t utf8_next(const uint8_t *p, size_t n, size_t *len)
{
    uint8_t b = p[0];
    size_t need = b >= 0xF0 && b < 0xF8 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
    if (need == 1 || need > n) {
        *len = 1;
        return b < 0x80 ? b : 0xFFFD;
    }
    uint32_t cp = b & (0x7F >> need);
    for (size_t k = 1; k < need; k++) {
        if ((p[k] & 0xC0) != 0x80) {
            *len = 1;
            return 0xFFFD;
        }
        cp = (cp << 6) | (p[k] & 0x3F);
    }
    *len = need;
    return cp;
}

/* The first strong direction in text, 0 when none. `high` is the table of a
 * legacy document's encoding (the direction letter of bytes 0x80..0xFF, which
 * the selector compiler writes for the document's codec); its text holds
 * character references as a NUL byte and their UTF-8, and FP_TEXT_BREAK
 * (fp.h). NULL: the text is UTF-8. */
static int text_dir(const uint8_t *p, size_t n, const uint8_t *high)
{
    size_t i = 0;
    while (i < n) {
        uint8_t b = p[i];
        int d;
        if (b < 0x80 && b != 0) {
            d = ((b | 0x20) >= 'a' && (b | 0x20) <= 'z') ? DIR_LTR : 0;
            i++;
        } else if (high && b != 0) {
            d = high[b - 0x80] == 'L' ? DIR_LTR : high[b - 0x80] == 'R' ? DIR_RTL : 0;
            i++;
        } else {
            if (b == 0 && ++i >= n)
                break;
            if (b == 0 && high && p[i] == 0xFF) {   /* FP_TEXT_BREAK: no character */
                i++;
                continue;
            }
            size_t len;
            d = cp_dir(utf8_next(p + i, n - i, &len));
            i += len;
        }
        if (d)
            return d;
    }
    return 0;
}

static int dir_keyword(fp_sel_ctx *c, uint32_t e)
{
    static const char *const words[] = {"ltr", "rtl", "auto"};   /* DIR_LTR .. DIR_AUTO, less one */
    return fp_sel_attr_keyword(c, e, "dir", words, 3) + 1;
}

/* the direction of e's text (its subtree, or its own value for an input) */
static int content_dir(fp_sel_ctx *c, uint32_t e, const uint8_t *high, int skip_directed)
{
    static const uint16_t skip[] = {FP_TAG_BDI, FP_TAG_SCRIPT, FP_TAG_STYLE, FP_TAG_TEXTAREA, FP_TAG_TEMPLATE};
    fp_text_opts o;
    memset(&o, 0, sizeof o);
    if (skip_directed) {
        o.skip = skip;
        o.nskip = sizeof skip / sizeof skip[0];
        o.skip_html_only = 1;   /* the HTML Standard's elements: an SVG <script> or <style> is none of them */
        o.skip_directed = 1;
    }
    /* the first strong character is most often near the start: a prefix of
     * the text is read, four times longer each round it holds none, so that
     * matches() on each element under a large dir=auto one stays cheap */
    for (o.stop_after = 256;; o.stop_after *= 4) {
        if (!fp_sel_text(c, e, &o))
            return 0;
        int d = text_dir(c->text.data, c->text.len, high);
        if (d || c->text.len < o.stop_after)
            return d;
    }
}

/* input types whose value dir=auto does not read (soupsieve's list) */
static int value_not_text(fp_sel_ctx *c, uint32_t e)
{
    static const char *const types[] = {"date", "month", "week", "time", "datetime-local", "number",
                                        "range", "color", "checkbox", "radio", "file", "image"};
    return fp_sel_attr_keyword(c, e, "type", types, (int)(sizeof types / sizeof types[0])) >= 0;
}

/* What e decides by itself: DIR_LTR or DIR_RTL, or DIR_INHERIT (its parent's). */
static int own_dir(fp_sel_ctx *c, uint32_t e, const uint8_t *high)
{
    if (c->el[e].flags & (FP_EF_SVG | FP_EF_MATHML))
        return DIR_INHERIT;   /* dir is an HTML attribute */
    int kw = dir_keyword(c, e);
    if (kw == DIR_LTR || kw == DIR_RTL)
        return kw;
    int tag = c->el[e].tag;
    if (tag == FP_TAG_INPUT && kw == DIR_INHERIT)
        return fp_sel_attr_is(c, e, "type", "tel") ? DIR_LTR : DIR_INHERIT;   /* soupsieve: phone numbers read ltr */
    if (kw == DIR_AUTO && ((tag == FP_TAG_INPUT && !value_not_text(c, e)) || tag == FP_TAG_TEXTAREA)) {
        int d = 0;
        if (tag == FP_TAG_TEXTAREA) {
            d = content_dir(c, e, high, 0);
        } else {
            const uint8_t *v;
            size_t n;
            if (fp_sel_attr_value(c, e, (const uint8_t *)"value", 5, &v, &n))
                d = text_dir(v, n, high);
        }
        return d ? d : DIR_LTR;
    }
    if (kw == DIR_AUTO || (tag == FP_TAG_BDI && kw == DIR_INHERIT)) {
        /* a template's contents are not its children: no text of its own */
        int d = is_template(c, e) ? 0 : content_dir(c, e, high, 1);
        return d ? d : DIR_LTR;
    }
    return DIR_INHERIT;
}

/* t: FP_SEL_T_DIR, the direction asked for, the encoding's table (a string:
 * 128 bytes for a legacy document, else a placeholder) */
int fp_sel_dir(fp_sel_ctx *c, const int32_t *t, uint32_t e)
{
    size_t len;
    const uint8_t *table = fp_sel_str(c, t[2], &len);
    const uint8_t *high = c->doc->opts.legacy && len == 128 ? table : NULL;
    int d;
    uint32_t x = e;   /* walks up to the element that decides (or the top) */
    for (;;) {
        if ((d = fp_sel_memo_byte(c->dir_memo, x)) != 0 || (d = own_dir(c, x, high)) != 0)
            break;
        int32_t p = c->el[x].parent;
        if (p < 0 || is_template(c, (uint32_t)p))
            break;   /* the top, or a template's contents, which have no parent in the DOM */
        x = (uint32_t)p;
    }
    if (d == DIR_INHERIT)
        d = DIR_LTR;
    for (uint32_t y = e;; y = (uint32_t)c->el[y].parent) {
        fp_sel_memo_set_byte(c, &c->dir_memo, y, (uint8_t)d);
        if (y == x)
            break;
    }
    return d == t[1];
}
