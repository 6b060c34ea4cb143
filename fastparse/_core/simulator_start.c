/* simulator_start.c — start tags: the HTML Standard's "in body" rules that
 * decide nesting, and the dispatch that sends a tag to the table, foreign,
 * head / body / frameset or template rules when the insertion mode or the
 * current node asks for them. fp_sim_start is the entry point; its common
 * cases (an HTML current node in body or in a cell, a row or cell next to an
 * open row or cell) take inlined fast paths. */
#include "simulator_internal.h"

static void
close_p_if_in_button_scope(fp_sim *s, uint32_t at)
{
    int32_t p = open_of(s, FP_TAG_P);
    if (in_scope(s, p, FP_SC_BUTTON) && !fp_foreign(&s->e[p]))
        fp_sim_close_until(s, p, FP_CLOSED_IMPLIED, at, at);
}

/* start tags that set the spec's frameset-ok flag to "not ok" */
static void
frameset_check(fp_sim *s, const fp_tag_token *t, int tag, uint32_t gt)
{
    switch (tag) {
    case FP_TAG_INPUT:
        if (fp_sim_input_is_hidden(t, s->doc->buf + gt))
            return;
        /* fall through */
    case FP_TAG_APPLET: case FP_TAG_MARQUEE: case FP_TAG_OBJECT: case FP_TAG_TABLE:
    case FP_TAG_AREA: case FP_TAG_BR: case FP_TAG_EMBED: case FP_TAG_IMG: case FP_TAG_KEYGEN:
    case FP_TAG_WBR: case FP_TAG_HR: case FP_TAG_PRE: case FP_TAG_LISTING: case FP_TAG_LI:
    case FP_TAG_DD: case FP_TAG_DT: case FP_TAG_BUTTON: case FP_TAG_TEXTAREA: case FP_TAG_XMP:
    case FP_TAG_IFRAME: case FP_TAG_SELECT: case FP_TAG_BODY:
    case FP_TAG_TEMPLATE:   /* "in head" rules, which set it too */
        s->frameset_ok = 0;
        break;
    default:
        break;
    }
}

/* Whether this start tag reconstructs the active formatting elements before
 * its element is inserted ("in body": the non-special elements but for the
 * ruby parts, and a few special ones) */
static int
reconstructs(const fp_sim *s, int tag)
{
    switch (tag) {
    case FP_TAG_APPLET: case FP_TAG_AREA: case FP_TAG_BR: case FP_TAG_BUTTON: case FP_TAG_EMBED:
    case FP_TAG_IMG: case FP_TAG_INPUT: case FP_TAG_KEYGEN: case FP_TAG_MARQUEE: case FP_TAG_OBJECT:
    case FP_TAG_SELECT: case FP_TAG_WBR: case FP_TAG_XMP:
    /* special only as MathML or SVG elements */
    case FP_TAG_MI: case FP_TAG_MO: case FP_TAG_MN: case FP_TAG_MS: case FP_TAG_MTEXT:
    case FP_TAG_ANNOTATION_XML: case FP_TAG_FOREIGNOBJECT: case FP_TAG_DESC:
        return 1;
    case FP_TAG_NOSCRIPT:
        return !s->doc->opts.scripting;   /* else raw text, by the "in head" rules */
    case FP_TAG_RB: case FP_TAG_RTC: case FP_TAG_RP: case FP_TAG_RT:
        return 0;
    default:
        return !(fp_tag_flags(tag) & FP_TF_SPECIAL);
    }
}

/* Whether an <html> tag that is not the first thing indexed is indexed all
 * the same (below): after top-level elements, all closed, in a document (not
 * a fragment or a frameset), unless a <frameset> may still replace the body
 * begun before it, a <head> element can still take head tags back ("after
 * head"), or an <html> tag whose attributes come first could not be indexed */
static int
late_html_indexed(fp_sim *s)
{
    if (s->html >= 0 || s->top >= 0 || s->ctx || s->in_frameset || s->doc->n == 0 || s->html_merged)
        return 0;
    if (s->nghosts && fp_sim_clone_on(s, -1))
        return 0;   /* a formatting element's clone is open (simulator_ghosts.c) */
    int body = fp_sim_body_seen_before(s, s->doc->n);
    return !(s->frameset_ok && body);
}

/* "in body" (13.2.6.4.7), the mode most start tags are handled in: the
 * implied ends a tag makes (li, dd/dt, p closed by blocks, option, ruby
 * parts, headings, table parts), then the element itself. */
int32_t
fp_sim_start_html(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt)
{
    int32_t c;
    if (s->frameset_ok)
        frameset_check(s, t, tag, gt);
    switch (tag) {
    case FP_TAG_HTML:
        if (late_html_indexed(s)) {
            /* after elements, all closed (a <meta>, a <script>, a server's
             * warning before the doctype): the spec implied the html element
             * before them and merges this tag's attributes into it. Indexed
             * here at the top level, it holds what follows, as a late <body>
             * does, so that its lang, dir and class reach find("html"), :lang()
             * and the rest; its whitespace is text, as in the head or body */
            fp_sim_error(s, FP_ERR_UNEXPECTED_START_TAG, lt);
            s->doc->html_after_text = 1;
            s->html = fp_sim_push(s, tag, 0, lt, gt);
            if (s->html >= 0)
                s->doc->root = (uint32_t)s->html;   /* the DOM's root, though not the first element */
            return s->html;
        }
        /* else only the first thing indexed: an element open before it implied
         * the html element, into which the spec merges this tag's attributes
         * (ours when indexed: fp_sim_merge_attributes) */
        if (s->html >= 0 || s->top >= 0 || s->ctx || s->doc->n > 0) {
            if (s->html < 0 && t->attr_bits && open_html_of(s, FP_TAG_TEMPLATE) < 0)
                s->html_merged = 1;   /* attributes the spec's html element has first */
            fp_sim_merge_attributes(s, s->ctx ? -1 : s->html, t, lt, gt);
            return -1;
        }
        s->doc->html_after_text = s->body_seen;   /* nothing indexed yet: text began the body */
        return s->html = fp_sim_push(s, tag, 0, lt, gt);
    case FP_TAG_HEAD:
        return fp_sim_start_head(s, lt, gt);
    case FP_TAG_BODY:
        c = fp_sim_start_body(s, lt, gt);
        if (c < 0)   /* a second <body>: its attributes join the first's */
            fp_sim_merge_attributes(s, starts_before_head(s) ? s->body : -1, t, lt, gt);
        return c;
    case FP_TAG_FRAMESET:
        return fp_sim_start_frameset(s, tag, lt, gt);
    case FP_TAG_FRAME:
        return -1;  /* ignored outside a frameset */
    case FP_TAG_LI:
        c = open_of(s, FP_TAG_LI);
        if (c >= 0 && istack_top(s, FP_SC_SPECIAL_LI) <= c)
            fp_sim_close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_DD:
    case FP_TAG_DT:
        c = nearest(s, FP_TAG_DD, FP_TAG_DT);
        if (c >= 0 && istack_top(s, FP_SC_SPECIAL_LI) <= c)
            fp_sim_close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_BUTTON:
        c = open_of(s, FP_TAG_BUTTON);
        if (in_scope(s, c, FP_SC_DEFAULT))
            fp_sim_close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_A:
        /* an <a> still in the active formatting list (no marker since) is
         * closed by the adoption agency when it is in scope; behind a table
         * or an integration point it only leaves the stack, and what is open
         * inside it stays its content ("<a><table><a></table><p>": the <p> is
         * the body's) */
        c = open_of(s, FP_TAG_A);
        if (may_be_ghost(s, FP_TAG_A) && fp_sim_ghost_takes(s, FP_TAG_A, c, lt, 1))
            break;   /* the list's <a> is one no longer open (or its clone): done with it */
        if (c < 0 || fp_sim_last_marker(s) > c)
            break;
        if (!in_scope(s, c, FP_SC_DEFAULT)) {
            fp_sim_remove_from_stack(s, c, lt, lt);
            s->e[c].closed = FP_CLOSED_IMPLIED;
        } else if (!fp_sim_adopt(s, c, FP_CLOSED_IMPLIED, lt)) {
            fp_sim_close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        }
        break;
    case FP_TAG_NOBR:
        /* reconstruction first: a ghost <nobr>'s clone is the one the adoption agency then closes */
        if (s->nghosts)
            fp_sim_reconstruct(s);
        c = open_of(s, FP_TAG_NOBR);
        if (may_be_ghost(s, FP_TAG_NOBR) && fp_sim_ghost_takes(s, FP_TAG_NOBR, c, lt, 0))
            break;
        if (in_scope(s, c, FP_SC_DEFAULT) && !fp_sim_adopt(s, c, FP_CLOSED_IMPLIED, lt))
            fp_sim_close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_FORM:
        if (s->form_ptr != -1 && open_html_of(s, FP_TAG_TEMPLATE) < 0)
            return -1;  /* a nested <form> is ignored: its children join the outer form */
        break;
    case FP_TAG_CAPTION:
    case FP_TAG_COLGROUP:
    case FP_TAG_TBODY:
    case FP_TAG_THEAD:
    case FP_TAG_TFOOT:
    case FP_TAG_TR:
    case FP_TAG_TD:
    case FP_TAG_TH:
    case FP_TAG_COL:
        if ((c = fp_sim_table_part_parent(s, tag)) == -2) {
            fp_sim_ignore_table_part(s, tag, lt);
            return -1;
        }
        fp_sim_note_table_part(s, tag, c);
        fp_sim_close_above(s, c, FP_CLOSED_IMPLIED, lt);
        if (tag == FP_TAG_COLGROUP)
            s->watch_text = 1;   /* text other than whitespace ends it (fp_sim_text) */
        break;
    case FP_TAG_SELECT:
        if (s->ctx == FP_TAG_SELECT)
            return -1;   /* a select's inner HTML holds no select (fragment case) */
        c = open_of(s, FP_TAG_SELECT);
        if (in_scope(s, c, FP_SC_DEFAULT)) {
            /* <select> in a select acts as </select>, but not through a scope
             * boundary (a table cell, an svg <desc>): there it nests */
            fp_sim_close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
            return -1;
        }
        break;
    case FP_TAG_INPUT:
        /* in a select it closes the select first; the 2025 select parsing
         * kept this one of the old "in select" rules (not for <textarea> or
         * <keygen>, which now nest like any element) */
        c = open_of(s, FP_TAG_SELECT);
        if (in_scope(s, c, FP_SC_DEFAULT))
            fp_sim_close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        else if (c < 0 && s->ctx == FP_TAG_SELECT)
            return -1;
        break;
    case FP_TAG_HR:
        /* <hr> in a select closes an open option / optgroup */
        if (in_scope(s, open_of(s, FP_TAG_SELECT), FP_SC_DEFAULT))
            while (s->top >= 0 && (fp_sim_elem_flags(&s->e[s->top]) & FP_TF_IMPLIED_END) &&
                   !fp_foreign(&s->e[s->top]))
                fp_sim_pop(s, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_OPTION:
    case FP_TAG_OPTGROUP:
        /* in a select: implied end tags (an <option> keeps an open optgroup);
         * elsewhere only an open <option> is closed */
        if (in_scope(s, open_of(s, FP_TAG_SELECT), FP_SC_DEFAULT)) {
            while (s->top >= 0 && !fp_foreign(&s->e[s->top]) &&
                   (fp_sim_elem_flags(&s->e[s->top]) & FP_TF_IMPLIED_END) &&
                   !(tag == FP_TAG_OPTION && s->e[s->top].tag == FP_TAG_OPTGROUP))
                fp_sim_pop(s, FP_CLOSED_IMPLIED, lt, lt);
        } else if (s->top >= 0 && s->e[s->top].tag == FP_TAG_OPTION && !clone_on_top(s)) {
            fp_sim_pop(s, FP_CLOSED_IMPLIED, lt, lt);
        }
        break;
    case FP_TAG_RB:
    case FP_TAG_RTC:
    case FP_TAG_RP:
    case FP_TAG_RT:
        if (in_scope(s, open_of(s, FP_TAG_RUBY), FP_SC_DEFAULT)) {
            while (s->top >= 0 && (fp_sim_elem_flags(&s->e[s->top]) & FP_TF_IMPLIED_END) &&
                   !((tag == FP_TAG_RP || tag == FP_TAG_RT) && s->e[s->top].tag == FP_TAG_RTC))
                fp_sim_pop(s, FP_CLOSED_IMPLIED, lt, lt);
        }
        break;
    default:
        break;
    }

    uint32_t f = fp_tag_flags(tag);
    if ((f & FP_TF_CLOSES_P) && !(tag == FP_TAG_TABLE && s->quirks))
        close_p_if_in_button_scope(s, lt);
    if ((f & FP_TF_HEADING) && s->top >= 0 && !fp_foreign(&s->e[s->top]) &&
        (fp_sim_elem_flags(&s->e[s->top]) & FP_TF_HEADING) && !clone_on_top(s))
        fp_sim_pop(s, FP_CLOSED_IMPLIED, lt, lt);

    if (__builtin_expect(s->nghosts != 0, 0) && reconstructs(s, tag))
        fp_sim_reconstruct(s);

    if (tag == FP_TAG_SVG)
        return fp_sim_insert_foreign(s, t, tag, FP_EF_SVG, lt, gt);
    if (tag == FP_TAG_MATH)
        return fp_sim_insert_foreign(s, t, tag, FP_EF_MATHML, lt, gt);

    if (f & FP_TF_VOID)
        return insert_void(s, t, tag, lt, gt);
    int32_t i = push_inline(s, tag, 0, lt, gt);
    if (i < 0)
        return -1;
    if (tag == FP_TAG_FORM && open_html_of(s, FP_TAG_TEMPLATE) < 0)
        fp_sim_set_form_ptr(s, i);
    if (t->self_closing) {
        s->e[i].flags |= FP_EF_SOLIDUS;
        fp_sim_error(s, FP_ERR_NON_VOID_HTML_ELEMENT_START_TAG_WITH_TRAILING_SOLIDUS, lt);
    }
    if ((f & FP_TF_RAWTEXT) || (tag == FP_TAG_NOSCRIPT && s->doc->opts.scripting)) {
        s->e[i].flags |= FP_EF_RAWTEXT | ((f & FP_TF_RCDATA) ? FP_EF_RCDATA : 0);
    }
    return i;
}

/* Everything but the common case: fragment contexts, frameset, foreign
 * content, head handling, the table / column group / template modes. */
static int32_t
start_slow(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt)
{
    if (s->in_frameset)
        return fp_sim_start_in_frameset(s, tag, lt, gt);

    /* foreign content: tags stay in the svg/math namespace unless they break out */
    int32_t i;
    if (fp_sim_start_foreign(s, t, tag, lt, gt, &i))
        return i;

    if (tag == FP_TAG_IMAGE)
        tag = FP_TAG_IMG;  /* "Don't ask." — the HTML Standard (in HTML content only) */

    /* "in head noscript": anything but a few head tags ends the noscript */
    if (s->head_noscript >= 0 && s->top == s->head_noscript) {
        if (tag == FP_TAG_NOSCRIPT || tag == FP_TAG_HEAD)
            return -1;
        if (tag != FP_TAG_BASEFONT && tag != FP_TAG_BGSOUND && tag != FP_TAG_LINK && tag != FP_TAG_META &&
            tag != FP_TAG_NOFRAMES && tag != FP_TAG_STYLE && tag != FP_TAG_HTML)
            fp_sim_pop(s, FP_CLOSED_IMPLIED, lt, lt);
    }

    if (s->head_open && !is_head_tag(tag) && tag != FP_TAG_HEAD && tag != FP_TAG_HTML &&
        open_html_of(s, FP_TAG_TEMPLATE) < s->head)
        fp_sim_close_until(s, s->head, FP_CLOSED_IMPLIED, lt, lt);

    int32_t m = istack_top(s, FP_SC_MODE);
    int mode = mode_at(s, m);
    /* "in template": head content keeps the mode, but for <noscript>, which is
     * "any other start tag" there */
    if (mode == FP_MODE_TEMPLATE && (!is_head_tag(tag) || tag == FP_TAG_NOSCRIPT)) {
        mode = fp_sim_template_mode_for(tag);
        if (m >= 0)
            set_tmpl_mode(s, m, mode);
        else
            s->ctx_mode = (uint8_t)mode;
    }
    int done = 0;
    switch (mode) {
    case FP_MODE_TABLE:
    case FP_MODE_TBODY:
    case FP_MODE_ROW:
        i = fp_sim_start_in_table(s, t, tag, lt, gt, &done);
        break;
    case FP_MODE_COLGROUP:
        if (tag == FP_TAG_COL || tag == FP_TAG_TEMPLATE || tag == FP_TAG_HTML)
            break;   /* an <html> takes the in-body rules: its attributes merge, nothing ends */
        done = 1;
        i = -1;
        if (m >= 0 && s->e[m].tag == FP_TAG_COLGROUP && s->top == m) {
            fp_sim_pop(s, FP_CLOSED_IMPLIED, lt, lt);   /* anything else ends the column group */
            i = fp_sim_start(s, t, tag, lt, gt);
        }
        break;
    default:
        break;
    }
    if (!done)
        i = fp_sim_start_html(s, t, tag, lt, gt);
    if (i >= 0 && tag == FP_TAG_NOSCRIPT && !s->doc->opts.scripting && s->body < 0 &&
        starts_before_head(s) &&
        fp_sim_in_head_position(s, (uint32_t)i) && !fp_sim_body_seen_before(s, (uint32_t)i)) {
        s->head_noscript = i;
        s->watch_text = 1;
    }
    return i;
}

/* A start tag under the HTML5 rules (every recovery but FP_RECOVERY_NONE). */
static inline __attribute__((always_inline)) int32_t
start_recovered(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt)
{
    /* the flags first: they are rarely set, and the hot path tests nothing else here */
    if (__builtin_expect(s->body_end_pending | s->html_end_pending, 0) && tag != FP_TAG_HTML)
        leave_after_body(s, AFTER_BODY_START_TAG, lt);   /* an <html> takes the in-body rules, keeps the mode */
    if (s->after_head) {
        if (is_head_tag(tag) && tag != FP_TAG_NOSCRIPT && s->top == s->e[s->head].parent) {
            fp_sim_reopen_head(s);   /* still "after head" once that element is in */
        } else if (tag != FP_TAG_HEAD && tag != FP_TAG_HTML) {   /* those two are ignored there */
            s->after_head = 0;
            fp_sim_update_watch(s);
        }
    }

    /* the common cases: an HTML current node, in body or in a cell; a row or
     * cell next to an open row or cell */
    int32_t top = s->top, m = istack_top(s, FP_SC_MODE);
    if (top < 0 || fp_foreign(&s->e[top]) || s->in_frameset || s->head_open || s->head_noscript >= 0 ||
        s->ctx || tag == FP_TAG_IMAGE || tag == FP_TAG_NOSCRIPT)
        return start_slow(s, t, tag, lt, gt);
    if (m < 0 || tmpl_mode(s, m) == FP_MODE_CELL) {
        if ((tag == FP_TAG_TD || tag == FP_TAG_TH || tag == FP_TAG_TR) && m >= 0)
            return fp_sim_start_row_or_cell(s, t, tag, lt, gt, m);
        return fp_sim_start_html(s, t, tag, lt, gt);
    }
    if ((tag == FP_TAG_TD || tag == FP_TAG_TH || tag == FP_TAG_TR) && s->e[m].tag == FP_TAG_TR)
        return fp_sim_start_row_or_cell(s, t, tag, lt, gt, m);
    return start_slow(s, t, tag, lt, gt);
}

/* Before the body, a start tag the tree builder ignores still moves it on:
 * anything but <html> or <head> implies the body first ("anything else" in
 * the before-head, in-head and after-head modes), so a later <noscript> or
 * <head> is body content or ignored, not head content. A function of its own
 * so that the path most start tags take stays a chain of tail calls. */
static __attribute__((noinline)) int32_t
start_before_body(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt)
{
    /* "after head" of an implied head: what does not go back into the head
     * (a <noscript> included) is the body's first element */
    int in_template = open_html_of(s, FP_TAG_TEMPLATE) >= 0;   /* its content is not the body's */
    if (s->implied_head_ended && !in_template && tag != FP_TAG_HTML && tag != FP_TAG_HEAD &&
        (tag == FP_TAG_NOSCRIPT || !is_head_tag(tag)))
        fp_sim_begin_body(s, lt);
    /* "in head noscript" ignores a <noscript> and stays where it is */
    int ignored_here = tag == FP_TAG_NOSCRIPT && s->head_noscript >= 0 && s->top == s->head_noscript;
    int32_t i = start_recovered(s, t, tag, lt, gt);
    if (i < 0 && !s->status && tag != FP_TAG_HTML && tag != FP_TAG_HEAD && !s->in_frameset &&
        !in_template && !ignored_here)
        fp_sim_begin_body(s, lt);
    return i;
}

int32_t
fp_sim_start(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt)
{
    s->attr_bits = t->attr_bits;
    if (s->doc->opts.recovery == FP_RECOVERY_NONE) {
        if (tag == FP_TAG_IMAGE)
            tag = FP_TAG_IMG;
        /* nesting exactly as written: only void and self-closed tags end by themselves */
        int32_t i = fp_sim_push(s, tag, 0, lt, gt);
        if (i >= 0 && (fp_tag_flags(tag) & FP_TF_VOID))
            fp_sim_pop(s, FP_CLOSED_VOID, gt, gt);
        else if (i >= 0 && t->self_closing)
            fp_sim_pop(s, FP_CLOSED_SELF_CLOSING, gt, gt);
        else if (i >= 0 && (fp_tag_flags(tag) & FP_TF_RAWTEXT))
            s->e[i].flags |= FP_EF_RAWTEXT | ((fp_tag_flags(tag) & FP_TF_RCDATA) ? FP_EF_RCDATA : 0);
        return i;
    }

    if (!s->body_seen)
        return start_before_body(s, t, tag, lt, gt);
    return start_recovered(s, t, tag, lt, gt);
}
