/* simulator_end.c — end tags: which open element an end tag closes, or
 * that the tree builder ignores it (13.2.6.4.7 "in body", any other end
 * tag; the table, head, template and frameset rules for theirs; 13.2.6.5 in
 * foreign content). </br> and a stray </p> make the element the spec
 * inserts for them. fp_sim_end_current is the common case: the end tag of
 * the current node. */
#include "simulator_internal.h"

/* End tags that, when they name the current node, just close it. */
static inline int
closes_plainly(int tag)
{
    switch (tag) {
    case FP_TAG_BODY: case FP_TAG_HTML: case FP_TAG_HEAD: case FP_TAG_BR:
    case FP_TAG_FORM: case FP_TAG_TEMPLATE: case FP_TAG_NOSCRIPT:
        return 0;
    default:
        return 1;
    }
}

/* The body is implied (content came first, no <body> element is open) and in
 * scope: </body> and </html> are then no error. An implied html element is no
 * boundary; an indexed one is the stack's first. An html-context fragment
 * implies its body as a document does. */
static int
implied_body_in_scope(fp_sim *s)
{
    return open_of(s, FP_TAG_BODY) < 0 && starts_before_head(s) && !s->in_frameset &&
           fp_sim_body_seen_before(s, s->doc->n) && istack_top(s, FP_SC_DEFAULT) <= s->html;
}

/* No <head> is indexed and no body content came yet: the spec's implied head
 * (or the "before head" mode, which implies it) is current. */
static int
implied_head_open(fp_sim *s)
{
    return s->head < 0 && !s->implied_head_ended && starts_before_head(s) && !s->in_frameset &&
           !fp_sim_body_seen_before(s, s->doc->n);   /* a <body> tag counts as body content */
}

/* A "</p>" with no <p> in button scope: the modes before the body and
 * "in template" ignore it (13.2.6.4.3-6, .18), in a template or in a
 * template-context fragment before its first start tag. */
static int
ignores_end_p(fp_sim *s)
{
    if (open_html_of(s, FP_TAG_TEMPLATE) >= 0 || s->ctx == FP_TAG_TEMPLATE)   /* modes of its own */
        return mode_at(s, istack_top(s, FP_SC_MODE)) == FP_MODE_TEMPLATE;
    /* in the head, after it, or no head indexed and no body content yet (before
     * html or head, in or after the implied head) */
    return (s->head_open && s->top == s->head) || s->after_head ||
           (s->head < 0 && starts_before_head(s) && !fp_sim_body_seen_before(s, s->doc->n));
}

/* The element an end tag makes ("</br>", a stray "</p>"): indexed at that end
 * tag, under the rules of its start tag without attributes (in a table it is
 * foster-parented). */
static int32_t
start_at_end_tag(fp_sim *s, int tag, size_t name_len, uint32_t lt, uint32_t gt)
{
    fp_tag_token t = {0};
    t.name = s->doc->buf + lt + 2;
    t.name_len = name_len;
    return fp_sim_start(s, &t, tag, lt, gt);
}

/* Whether generating implied end tags pops e: dd, dt, li, optgroup, option, p
 * and the ruby parts; thoroughly (for </template>) the table parts too (a
 * <col> among them is void, never open) */
static int
implied_end(const fp_elem *e, int thoroughly)
{
    return !fp_foreign(e) && (fp_sim_elem_flags(e) & (FP_TF_IMPLIED_END | (thoroughly ? FP_TF_TABLE_PART : 0)));
}

/* The parse error of an end tag that closes t, and with it elements that its
 * implied end tags do not ("</div>" over an open <span>; "</h1>" closing an
 * <h2>): "if the current node is not ..., this is a parse error", which
 * html5lib calls end-tag-too-early */
static void
check_closed_early(fp_sim *s, int tag, int32_t t, uint32_t lt)
{
    if (s->e[t].tag != tag) {   /* a heading of another level */
        fp_sim_error(s, FP_ERR_END_TAG_TOO_EARLY, lt);
        return;
    }
    for (int32_t i = s->top; i != t && i >= 0; i = s->e[i].parent)
        if (!(s->open_bits[i] & FP_REMOVED) && !implied_end(&s->e[i], tag == FP_TAG_TEMPLATE)) {
            fp_sim_error(s, FP_ERR_END_TAG_TOO_EARLY, lt);
            return;
        }
}

/* Whether the rules for this end tag say nothing of what it closes with it:
 * the adoption agency's errors for formatting elements, which this does not
 * report; the table's, row groups' and rows' clearing of the stack; </select> */
static int
closes_without_check(int tag, uint32_t f)
{
    if (f & FP_TF_FORMATTING)
        return 1;
    if (tag == FP_TAG_TD || tag == FP_TAG_TH || tag == FP_TAG_CAPTION)
        return 0;
    return (f & FP_TF_TABLE_PART) || tag == FP_TAG_TABLE || tag == FP_TAG_SELECT;
}

void
fp_sim_end(fp_sim *s, int tag, uint32_t lt, uint32_t gt)
{
    s->attr_bits = 0;   /* "</br>" makes a <br> without attributes */
    if (tag < 0) {   /* a name no element has: ignored (the body still ends at its </body>) */
        after_body_error(s, AFTER_BODY_END_TAG, lt);
        fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        return;
    }
    int32_t t = open_of(s, tag);
    if (tag != FP_TAG_BODY && tag != FP_TAG_HTML)
        leave_after_body(s, AFTER_BODY_END_TAG, lt);
    else if (tag == FP_TAG_BODY || s->html_end_pending)
        after_body_error(s, AFTER_BODY_END_TAG, lt);   /* a second </body>, a </html> after </html>: their mode again */

    if (s->doc->opts.recovery == FP_RECOVERY_NONE) {
        if (t >= 0)
            fp_sim_close_until(s, t, FP_CLOSED_END_TAG, lt, gt);
        else
            fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        return;
    }

    if (s->in_frameset) {
        /* "in frameset": only </frameset> closes something */
        if (tag == FP_TAG_FRAMESET && s->top >= 0 && s->e[s->top].tag == FP_TAG_FRAMESET)
            fp_sim_pop(s, FP_CLOSED_END_TAG, lt, gt);
        else if (tag == FP_TAG_HTML && open_html_of(s, FP_TAG_FRAMESET) < 0 && !s->ctx) {
            s->html_end_pending = 1;   /* "after frameset" takes it; "in frameset" ignores it */
            s->body_ended = 1;
            s->html_end_lt = lt;
            s->html_end_gt = gt;
        } else
            fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        fp_sim_update_watch(s);
        return;
    }

    if (s->top >= 0 && fp_foreign(&s->e[s->top])) {
        if (tag == FP_TAG_BR || tag == FP_TAG_P) {
            fp_sim_break_out(s, lt);
        } else if (fp_sim_end_foreign(s, tag, lt, gt)) {
            /* an svg/math <body> or <html> closed after "</body>": the body goes
             * on to the end, not to that end tag (its children end later) */
            s->body_end_pending = s->html_end_pending = s->body_ended = 0;
            fp_sim_update_watch(s);
            return;
        }
    }
    if (t >= 0 && fp_foreign(&s->e[t]))
        t = open_html_of(s, tag);   /* an HTML end tag closes an HTML element of its name, not an
                                     * svg/math one; the rules below check the scope up to it */
    if (in_column_group(s) && tag != FP_TAG_COLGROUP && tag != FP_TAG_COL && tag != FP_TAG_TEMPLATE)
        fp_sim_pop(s, FP_CLOSED_IMPLIED, lt, lt);  /* "in column group", anything else: the colgroup
                                             * ends, the end tag goes on "in table" */
    if (s->head_noscript >= 0 && s->top == s->head_noscript && tag != FP_TAG_NOSCRIPT &&
        tag != FP_TAG_BR) {
        fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);   /* "in head noscript" ignores it */
        return;
    }

    uint32_t f = fp_tag_flags(tag);
    switch (tag) {
    case FP_TAG_MI: case FP_TAG_MO: case FP_TAG_MN: case FP_TAG_MS: case FP_TAG_MTEXT:
    case FP_TAG_ANNOTATION_XML: case FP_TAG_FOREIGNOBJECT: case FP_TAG_DESC:
        /* HTML elements named like svg/math special ones are not special */
        f &= ~(FP_TF_SCOPE | FP_TF_SPECIAL);
        goto any_other;
    case FP_TAG_BODY:
    case FP_TAG_HTML: {
        /* </body> and </html> switch modes but close nothing: later content
         * still lands in <body>. They close it at EOF if nothing follows. Before
         * the body they end the head and imply the body first. */
        if (starts_before_head(s) && !s->in_frameset && s->body < 0 && open_html_of(s, FP_TAG_TEMPLATE) < 0)
            fp_sim_begin_body(s, lt);   /* "after head" acts as for anything else: a <meta> now is body content */
        int implied = implied_body_in_scope(s);
        int ends_body = in_scope(s, open_of(s, FP_TAG_BODY), FP_SC_DEFAULT) || implied;
        if (!ends_body) {
            fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);   /* no body in scope: ignored (a cell, a template) */
        } else if (tag == FP_TAG_BODY) {
            if (!s->body_ended)
                fp_sim_check_open_at_end(s, lt);   /* "in body" ends here, as at the end of input */
            /* a </body> after </html> goes back to "in body" (13.2.6.4.23): that
             * </html> ends nothing, or the html element would end before its body */
            s->body_ended = 1;
            s->html_end_pending = 0;
            s->body_end_pending = 1;
            s->body_end_lt = lt;
            s->body_end_gt = gt;
        } else {
            if (!s->body_ended)
                fp_sim_check_open_at_end(s, lt);
            if (s->ctx == FP_TAG_HTML)
                fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);   /* "after body" in a fragment ignores it */
            s->body_ended = 1;
            s->html_end_pending = 1;   /* an implied html: nothing to close, but the body ended */
            s->html_end_lt = lt;
            s->html_end_gt = gt;
        }
        if (s->head_open && s->top == s->head)
            fp_sim_close_until(s, s->head, FP_CLOSED_IMPLIED, lt, lt);
        fp_sim_update_watch(s);
        return;
    }
    case FP_TAG_HEAD:
        if (s->head_open && s->top == s->head) {
            fp_sim_pop(s, FP_CLOSED_END_TAG, lt, gt);
            s->after_head = !s->body_seen && s->body < 0 && starts_before_head(s);
        } else if (implied_head_open(s) && s->top == s->html) {
            s->implied_head_ended = 1;   /* "after head": a <noscript> now is body content */
        } else
            fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        fp_sim_update_watch(s);
        return;
    case FP_TAG_BR: {
        /* "</br>" is treated as "<br>": index it as the br element it becomes,
         * under the same rules (in a table it is foster-parented) */
        if (mode_at(s, istack_top(s, FP_SC_MODE)) == FP_MODE_TEMPLATE) {
            fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);   /* "in template" ignores end tags */
            return;
        }
        start_at_end_tag(s, FP_TAG_BR, 2, lt, gt);
        return;
    }
    case FP_TAG_P:
        if (!in_scope(s, t, FP_SC_BUTTON)) {
            /* the spec inserts an empty <p> and closes it at once, where it does not ignore the tag */
            fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
            if (!ignores_end_p(s)) {
                int32_t i = start_at_end_tag(s, FP_TAG_P, 1, lt, gt);
                if (i >= 0 && s->top == i)
                    fp_sim_pop(s, FP_CLOSED_END_TAG, gt, gt);
            }
            return;
        }
        break;
    case FP_TAG_LI:
        if (!in_scope(s, t, FP_SC_LIST))
            t = -1;
        break;
    case FP_TAG_H1: case FP_TAG_H2: case FP_TAG_H3:
    case FP_TAG_H4: case FP_TAG_H5: case FP_TAG_H6: {
        /* any open heading closes, whatever its level */
        int32_t h = nearest(s, FP_TAG_H1, FP_TAG_H2);
        int32_t h2 = nearest(s, FP_TAG_H3, FP_TAG_H4);
        int32_t h3 = nearest(s, FP_TAG_H5, FP_TAG_H6);
        h = h > h2 ? h : h2;
        h = h > h3 ? h : h3;
        t = in_scope(s, h, FP_SC_DEFAULT) ? h : -1;
        break;
    }
    case FP_TAG_SELECT:
        if (!in_scope(s, t, FP_SC_DEFAULT))
            t = -1;   /* a template (or table cell) opened inside it keeps it open */
        break;
    case FP_TAG_DIALOG:
        if (!in_scope(s, t, FP_SC_DEFAULT))
            t = -1;   /* in the block end tag group though not special */
        break;
    case FP_TAG_TEMPLATE:
        t = open_html_of(s, FP_TAG_TEMPLATE);
        break;   /* closes the template and everything open in it */
    case FP_TAG_NOSCRIPT:
        if (s->head_noscript >= 0 && s->top == s->head_noscript)
            break;
        /* in body "any other end tag", and noscript is special: a special
         * element open inside it (<ul>, <div>) keeps it open */
        if (t >= 0 && istack_top(s, FP_SC_SPECIAL) > t)
            t = -1;
        break;
    case FP_TAG_FORM:
        if (open_html_of(s, FP_TAG_TEMPLATE) < 0) {
            /* the form element pointer, not the stack, says which form ends;
             * elements open inside it stay open */
            int32_t node = s->form_ptr;
            fp_sim_set_form_ptr(s, -1);
            if (node != t || !in_scope(s, t, FP_SC_DEFAULT)) {
                fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
                return;
            }
            while (s->top != t && implied_end(&s->e[s->top], 0))
                fp_sim_pop(s, FP_CLOSED_IMPLIED, lt, lt);
            if (s->top == t && !clone_on_top(s)) {
                fp_sim_pop(s, FP_CLOSED_END_TAG, lt, gt);
            } else {   /* a formatting element's clone open in it is open inside it too */
                fp_sim_error(s, FP_ERR_END_TAG_TOO_EARLY, lt);
                fp_sim_remove_from_stack(s, t, lt, gt);
            }
            return;
        } else if (!in_scope(s, t, FP_SC_DEFAULT)) {
            t = -1;
        }
        break;
    default:
    any_other:
        if (f & FP_TF_TABLE_PART || tag == FP_TAG_TABLE) {
            if (!in_scope(s, t, FP_SC_TABLE))
                t = -1;
            if (t < 0 && (tag == FP_TAG_TR || tag == FP_TAG_TBODY) && (t = fp_sim_implied_part_end(s, tag)) >= 0) {
                fp_sim_close_until(s, t, FP_CLOSED_PARENT_END, lt, lt);
                return;
            }
            if (t < 0 && tag == FP_TAG_TABLE && (t = fp_sim_table_end_without_table(s)) >= 0) {
                fp_sim_close_until(s, t, FP_CLOSED_IMPLIED, lt, lt);
                t = -1;   /* "in table" then ignores it: a parse error */
            }
        } else if (f & FP_TF_SPECIAL) {
            if (!in_scope(s, t, FP_SC_DEFAULT))
                t = -1;
        } else if (f & FP_TF_FORMATTING) {
            /* adoption agency without clones (see adopt), else close the
             * formatting element and what it contains; ignored when the list's
             * last element of that name is one no longer open */
            int ghost = may_be_ghost(s, tag) ? fp_sim_ghost_takes(s, tag, t, lt, 0) : 0;
            if (ghost) {
                if (ghost == FP_GHOST_IGNORED)
                    fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);   /* html5lib: adoption-agency-1.2 */
                return;
            }
            if (t >= 0 && s->nstale && fp_sim_last_marker(s) > t) {
                /* a stale marker hides it from the list: "any other end tag", which
                 * a special element in between stops, and it stays in the list */
                if (istack_top(s, FP_SC_SPECIAL) > t)
                    t = -1;
                else
                    fp_sim_ghost_add(s, t);
            } else if (!in_scope(s, t, FP_SC_DEFAULT))
                t = -1;   /* a select opened inside it is a scope boundary (2025 select parsing) */
            else if (istack_top(s, FP_SC_SPECIAL) > t && fp_sim_adopt(s, t, FP_CLOSED_END_TAG, lt)) {
                return;
            }
        } else if (t >= 0 && istack_top(s, FP_SC_SPECIAL) > t) {
            t = -1;  /* "any other end tag": a special element in between stops it */
        }
        break;
    }
    if (t < 0) {
        fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        return;
    }
    if (!closes_without_check(tag, f))
        check_closed_early(s, tag, t, lt);
    fp_sim_close_until(s, t, FP_CLOSED_END_TAG, lt, gt);
}

void
fp_sim_end_current(fp_sim *s, uint32_t lt, uint32_t gt)
{
    /* Nothing is open above the current node, so every scope check of
     * fp_sim_end passes: an HTML element whose end tag only closes it is
     * popped here; the rest take the long way. */
    fp_elem *el = &s->e[s->top];
    if (!fp_foreign(el) && !s->in_frameset && closes_plainly(el->tag) &&
        !may_be_ghost(s, el->tag)) {
        leave_after_body(s, AFTER_BODY_END_TAG, lt);
        pop_inline(s, FP_CLOSED_END_TAG, lt, gt);
        return;
    }
    fp_sim_end(s, el->tag, lt, gt);
}

void
fp_sim_close_top(fp_sim *s, uint32_t lt, uint32_t gt)
{
    fp_sim_pop(s, FP_CLOSED_END_TAG, lt, gt);
}
