/* simulator.c — the HTML Standard's tree construction (13.2.6), reduced to
 * what decides nesting: which element is open when a tag arrives, which
 * start tags imply ends, which end tags are ignored. No DOM is built and no
 * element without a start tag is invented; fp_elem.closed records how each
 * element ended. The open-element stack is linked through fp_elem.parent;
 * per-tag chains (open_head/prev_same) and boundary stacks answer "is there
 * an X in scope" in O(1), so no input makes closing quadratic.
 *
 * This file holds the simulator's state and that stack (push, pop, the
 * boundary bits), and the text, end-of-input and fragment-context entry
 * points. The rules are in simulator_start.c and simulator_end.c, with
 * simulator_table.c, simulator_foreign.c, simulator_document.c (html, head,
 * body, frameset), simulator_adopt.c (misnested formatting),
 * simulator_ghosts.c (formatting elements closed by another's end) and
 * simulator_open_at_end.c (the error of what is left open) beside them.
 *
 * Where the index cannot follow the spec's tree (it keeps source order and
 * contiguous subtrees, and never clones):
 * - foster parenting: a misplaced element in a table stays at its source
 *   position inside the table's range, flagged FP_EF_FOSTERED; its tree
 *   parent is fp_dom_parent() (the table's parent) and fp_elem.depth is the
 *   tree depth. e[i].parent stays the index parent (the table part).
 * - adoption agency: the furthest block moves out of the formatting element
 *   (fp_sim_adopt), the clones the spec makes are not indexed.
 * - <frameset> replacing a body: the spec removes the body and what it
 *   held; the index drops those elements too (they are the last ones).
 * - a head tag after </head> goes back into the head, which then ends
 *   with it (its range covers the </head> it had before).
 * The insertion mode comes from the topmost FP_SC_MODE element (table parts,
 * template) or a fragment's context; fast paths in fp_sim_start keep the
 * common case (in body, in a cell, a row or cell in a table) cheap. */
#include <stdlib.h>
#include <string.h>

#include "simulator_internal.h"

/* ---- effective flags: some names are special/scope only in one namespace ---- */

uint32_t
fp_sim_elem_flags(const fp_elem *el)
{
    int tag = el->tag;
    if (el->flags & FP_EF_MATHML) {
        if (tag == FP_TAG_MI || tag == FP_TAG_MO || tag == FP_TAG_MN || tag == FP_TAG_MS ||
            tag == FP_TAG_MTEXT || tag == FP_TAG_ANNOTATION_XML)
            return FP_TF_SCOPE | FP_TF_SPECIAL;
        return 0;
    }
    if (el->flags & FP_EF_SVG) {
        if (tag == FP_TAG_FOREIGNOBJECT || tag == FP_TAG_DESC || tag == FP_TAG_TITLE)
            return FP_TF_SCOPE | FP_TF_SPECIAL;
        return 0;
    }
    uint32_t f = fp_tag_flags(tag);
    switch (tag) {
    case FP_TAG_MI: case FP_TAG_MO: case FP_TAG_MN: case FP_TAG_MS: case FP_TAG_MTEXT:
    case FP_TAG_ANNOTATION_XML: case FP_TAG_FOREIGNOBJECT: case FP_TAG_DESC:
        return f & ~(FP_TF_SCOPE | FP_TF_SPECIAL);
    case FP_TAG_TITLE:
        return f & ~FP_TF_SCOPE;
    default:
        return f;
    }
}

/* ---- stacks ---- */

int
fp_sim_istack_grow(fp_sim *s, int k)
{
    fp_istack *st = &s->sc[k];
    {
        uint32_t cap = st->cap ? st->cap * 2 : 32;
        int32_t *items = realloc(st->items, cap * sizeof *items);
        if (!items) {
            s->status = FP_ENOMEM;
            return -1;
        }
        st->items = items;
        st->cap = cap;
    }
    return 0;
}

void
fp_sim_error(fp_sim *s, int code, uint32_t offset)
{
    fp_doc *d = s->doc;
    if (d->nerrors == d->errors_cap) {
        uint32_t cap = d->errors_cap ? d->errors_cap * 2 : 16;
        fp_error *errors = realloc(d->errors, cap * sizeof *errors);
        if (!errors)
            return;  /* errors are advisory: losing one is better than failing the parse */
        d->errors = errors;
        d->errors_cap = cap;
    }
    d->errors[d->nerrors].offset = offset;
    d->errors[d->nerrors].code = (uint16_t)code;
    d->nerrors++;
}

int
fp_sim_init(fp_sim *s, fp_doc *doc, uint32_t cap)
{
    memset(s, 0, sizeof *s);
    s->doc = doc;
    s->scratch = fp_scratch_take(cap);
    if (!s->scratch)
        return -1;
    s->e = doc->elems = s->scratch->elems;
    s->prev_same = s->scratch->prev_same;
    s->foreign_below = s->scratch->foreign_below;
    s->open_depth = s->scratch->open_depth;
    s->open_bits = s->scratch->open_bits;
    s->cap = s->scratch->cap;
    s->top = -1;
    s->html = s->head = s->body = -1;
    s->form_ptr = s->head_noscript = -1;
    s->body_from = s->body_at = UINT32_MAX;
    s->tmpl_skip = -1;
    s->implied_row_cell = -1;
    s->adopt_budget = 2 * (uint64_t)doc->len + 65536;   /* depths lifts may rewrite: linear */
    s->quirks = 1;        /* until a doctype says otherwise */
    s->frameset_ok = 1;
    s->watch_text = 1;    /* text clears frameset-ok */
    for (int k = 0; k < FP_SC__COUNT; k++) {
        s->sc[k] = s->scratch->sc[k];
        s->sc[k].n = 0;
    }
    s->open_head_cap = FP_OPEN_HEAD_CAP;
    s->open_head = s->scratch->open_head;
    if (!s->open_head && !(s->open_head = malloc(FP_OPEN_HEAD_CAP * sizeof *s->open_head)))
        return -1;
    memset(s->open_head, 0xFF, FP_OPEN_HEAD_CAP * sizeof *s->open_head);
    memset(s->html_sc, 0xFF, sizeof s->html_sc);
    return 0;
}

int
fp_sim_give_index(fp_sim *s)
{
    fp_elem *e = realloc(s->e, s->doc->n * sizeof *e);
    s->doc->elems = e;   /* on failure NULL: the scratch set still owns s->e */
    if (!e)
        return -1;
    s->e = NULL;
    return 0;
}

uint32_t
fp_sim_used(const fp_sim *s)
{
    return s->doc->n > s->cut_from ? (uint32_t)s->doc->n : s->cut_from;
}

void
fp_sim_free(fp_sim *s)
{
    free(s->eof_memo);   /* the parse's own, never kept */
    s->eof_memo = NULL;
    s->eof_memo_cap = 0;
    if (s->scratch) {
        /* grow_index may have moved the arrays; fp_sim_give_index may have taken e */
        s->scratch->elems = s->e;
        s->scratch->prev_same = s->prev_same;
        s->scratch->foreign_below = s->foreign_below;
        s->scratch->open_depth = s->open_depth;
        s->scratch->open_bits = s->open_bits;
        s->scratch->cap = s->cap;
        for (int k = 0; k < FP_SC__COUNT; k++)
            s->scratch->sc[k] = s->sc[k];
        /* one grown for a page of many names would cost every later parse its memset */
        s->scratch->open_head = s->open_head_cap == FP_OPEN_HEAD_CAP ? s->open_head : NULL;
        if (s->open_head_cap != FP_OPEN_HEAD_CAP)
            free(s->open_head);
        fp_scratch_give(s->scratch, fp_sim_used(s));
        s->scratch = NULL;
        return;
    }
    free(s->open_head);
    for (int k = 0; k < FP_SC__COUNT; k++)
        free(s->sc[k].items);
}

int
fp_sim_grow_open_head(fp_sim *s, int tag)
{
    uint32_t cap = s->open_head_cap;
    while ((uint32_t)tag >= cap)
        cap *= 2;
    int32_t *h = realloc(s->open_head, cap * sizeof *h);
    if (!h) {
        s->status = FP_ENOMEM;
        return -1;
    }
    memset(h + s->open_head_cap, 0xFF, (cap - s->open_head_cap) * sizeof *h);
    s->open_head = h;
    s->open_head_cap = cap;
    return 0;
}

/* The index and the per-element arrays double when full (the first guess
 * comes from the input size). Nothing keeps an fp_elem pointer across a push. */
int
fp_sim_grow_index(fp_sim *s)
{
    uint32_t cap = s->cap * 2;
    fp_elem *e = realloc(s->doc->elems, cap * sizeof *e);
    if (e)
        s->doc->elems = s->e = e;
    int32_t *prev_same = e ? realloc(s->prev_same, cap * sizeof *prev_same) : NULL;
    if (prev_same)
        s->prev_same = prev_same;
    uint32_t *below = prev_same ? realloc(s->foreign_below, cap * sizeof *below) : NULL;
    if (below)
        s->foreign_below = below;
    uint32_t *depth = below ? realloc(s->open_depth, cap * sizeof *depth) : NULL;
    if (depth)
        s->open_depth = depth;
    uint16_t *open_bits = depth ? realloc(s->open_bits, cap * sizeof *open_bits) : NULL;
    if (!open_bits) {
        s->status = FP_ENOMEM;
        return -1;
    }
    s->open_bits = open_bits;
    s->cap = cap;
    return 0;
}

/* ---- what a pushed element is: its insertion mode and boundary stacks ---- */

static const uint8_t mode_table[FP_TAG__COUNT] = {
    [FP_TAG_TABLE] = FP_MODE_TABLE,
    [FP_TAG_TBODY] = FP_MODE_TBODY, [FP_TAG_THEAD] = FP_MODE_TBODY, [FP_TAG_TFOOT] = FP_MODE_TBODY,
    [FP_TAG_TR] = FP_MODE_ROW,
    [FP_TAG_TD] = FP_MODE_CELL, [FP_TAG_TH] = FP_MODE_CELL,
    [FP_TAG_CAPTION] = FP_MODE_CAPTION,
    [FP_TAG_COLGROUP] = FP_MODE_COLGROUP,
    [FP_TAG_TEMPLATE] = FP_MODE_TEMPLATE,
};

/* the insertion mode an open element of this tag selects; BODY (0) for the rest */
static inline int
mode_of_tag(int tag)
{
    return (unsigned)tag < FP_TAG__COUNT ? mode_table[tag] : FP_MODE_BODY;
}

/* The open_bits an element of this tag and namespace starts with: one
 * bit per boundary stack it goes on (FP_SC_*), its insertion mode above them. */
uint16_t
fp_sim_boundaries(int tag, uint8_t ns_flags, uint32_t f)
{
    unsigned sc = 0;
    int foreign = (ns_flags & (FP_EF_SVG | FP_EF_MATHML)) != 0;
    if (f & FP_TF_SCOPE)
        sc |= 1u << FP_SC_DEFAULT | 1u << FP_SC_LIST | 1u << FP_SC_BUTTON;
    if (f & FP_TF_LIST_SCOPE)
        sc |= 1u << FP_SC_LIST;
    if (f & FP_TF_BUTTON_SCOPE)
        sc |= 1u << FP_SC_BUTTON;
    if ((f & FP_TF_TABLE_SCOPE) && !foreign)
        sc |= 1u << FP_SC_TABLE;
    if (f & FP_TF_SPECIAL) {
        sc |= 1u << FP_SC_SPECIAL;
        if (tag != FP_TAG_ADDRESS && tag != FP_TAG_DIV && tag != FP_TAG_P)
            sc |= 1u << FP_SC_SPECIAL_LI;
    }
    if (f & FP_TF_MARKER)
        sc |= 1u << FP_SC_MARKER;
    if (mode_of_tag(tag) && !foreign)
        sc |= 1u << FP_SC_MODE | (unsigned)mode_of_tag(tag) << FP_MODE_SHIFT;
    return (uint16_t)sc;
}

/* ---- push and pop ---- */

/* The push every rare path takes; fp_sim_start_html, which most elements go
 * through, has its own copy inlined (a call there cost 1.4% of the parse). */
int32_t
fp_sim_push(fp_sim *s, int tag, uint8_t ns_flags, uint32_t lt, uint32_t gt)
{
    return push_inline(s, tag, ns_flags, lt, gt);
}

/* Pops the removed elements (FP_REMOVED) that have become the current node:
 * each ends where its last open child did, or with the formatting element's
 * clone open on it (simulator_ghosts.c). */
void
fp_sim_pop_removed(fp_sim *s, uint32_t end)
{
    while (s->top >= 0 && (s->open_bits[s->top] & FP_REMOVED) && !clone_on_top(s)) {
        fp_elem *r = &s->e[s->top];
        r->last = s->doc->n - 1;
        /* its content reaches as far as its last child's (past its own end tag) */
        if (r->inner_end < end)
            r->inner_end = end;
        if (r->end < end)
            r->end = end;
        s->open_bits[s->top] = 0;
        s->top = r->parent;
        s->depth--;
        s->removed_open--;
    }
}

/* The pop of the rare paths; the end tag that closes the current node, most
 * end tags, has its own copy inlined (fp_sim_end_current). */
void
fp_sim_pop(fp_sim *s, uint8_t closed, uint32_t inner_end, uint32_t end)
{
    if (__builtin_expect(s->open_bits[s->top] & (1u << FP_SC_MARKER), 0) && !fp_foreign(&s->e[s->top]))
        fp_sim_marker_popped(s, s->top, closed);
    pop_inline(s, closed, inner_end, end);
}

/* Pops up to and including t: t ends as `closed`, what was open inside it
 * ends with it (parent-end). */
void
fp_sim_close_until(fp_sim *s, int32_t t, uint8_t closed, uint32_t lt, uint32_t gt)
{
    while (s->top != t) {
        note_ghost(s, s->top);
        fp_sim_pop(s, FP_CLOSED_PARENT_END, lt, lt);
    }
    fp_sim_pop(s, closed, lt, closed == FP_CLOSED_END_TAG ? gt : lt);
}

/* Pops everything above c (c stays open) at `at`: the child of c ends as
 * child_closed (the tag implied its end, or the end of a clone between them
 * ended it), its descendants with it. */
void
fp_sim_close_above(fp_sim *s, int32_t c, uint8_t child_closed, uint32_t at)
{
    while (s->top != c && s->top >= 0) {
        note_ghost(s, s->top);
        fp_sim_pop(s, s->e[s->top].parent == c ? child_closed : FP_CLOSED_PARENT_END, at, at);
    }
    if (s->nghosts)
        fp_sim_clones_closed_above(s, c);
}

/* The end of a character reference at p that decodes to whitespace (&#32;,
 * &#x9;, &Tab;, &NewLine;), or NULL: the tree builder sees that whitespace. */
static const uint8_t *
ws_reference_end(const uint8_t *p, const uint8_t *q)
{
    uint32_t cp[2];
    int ncp;
    size_t n = fp_entity_decode(p, q, 0, cp, &ncp);
    return n && ncp == 1 && cp[0] < 0x80 && fp_is_ws((uint8_t)cp[0]) ? p + n : NULL;
}

/* The first byte in [p, q) that is not whitespace to the tree builder: a
 * whitespace byte, with refs a reference to one ("&#10;"), with nul a NUL. */
static const uint8_t *
skip_space(const uint8_t *p, const uint8_t *q, int refs, int nul)
{
    for (const uint8_t *r; p < q;) {
        if (fp_is_ws(*p) || (nul && *p == 0))
            p++;
        else if (refs && *p == '&' && (r = ws_reference_end(p, q)))
            p = r;
        else
            break;
    }
    return p;
}

/* after_body_error's report (simulator_internal.h). Not when an svg or math
 * element is the current node (a </body> in it): foreign content's rules take
 * the token, not the mode (an integration point's are not reported). */
__attribute__((cold, noinline)) void
fp_sim_after_body_error(fp_sim *s, int what, uint32_t at)
{
    if (s->top >= 0 && fp_foreign(&s->e[s->top]))
        return;
    if (s->html_end_pending)
        fp_sim_error(s, FP_ERR_EXPECTED_EOF_BUT_GOT_START_TAG + what, at);
    else if (s->body_end_pending)
        fp_sim_error(s, FP_ERR_UNEXPECTED_START_TAG_AFTER_BODY + what, at);
}

/* Whether text (only whitespace unless `solid`) reconstructs the active
 * formatting elements: in body, in a cell or caption, text a table fosters
 * (not whitespace), at an integration point, not in foreign content */
static int
text_reconstructs(const fp_sim *s, int solid)
{
    if (s->top < 0)
        return 1;
    const fp_elem *el = &s->e[s->top];
    if (fp_foreign(el))
        return (el->flags & (FP_EF_HTML_IP | FP_EF_TEXT_IP)) != 0;
    switch (el->tag) {
    case FP_TAG_TABLE: case FP_TAG_TBODY: case FP_TAG_THEAD: case FP_TAG_TFOOT: case FP_TAG_TR:
    case FP_TAG_COLGROUP:
        return solid;   /* "in table text": whitespace stays in the table */
    default:
        return 1;
    }
}

/* A run of whitespace at `at`, directly in a table part whose text would keep
 * it, goes into the clone fostered on it (fp_doc.clone_ws, for text.c) */
static void
clone_takes_white_run(fp_sim *s, uint32_t at)
{
    fp_doc *d = s->doc;
    uint32_t *runs = fp_sim_with_room(s, d->clone_ws, d->nclone_ws, &d->clone_ws_cap, sizeof *runs, 4);
    if (!runs)
        return;
    d->clone_ws = runs;
    runs[d->nclone_ws++] = at;
}

/* Text matters to nesting in four places here: non-whitespace text in <head>
 * or a <colgroup> closes it, text after </body> reopens the body, and text
 * in body reconstructs the formatting elements an enclosing element's end
 * closed. refs: the text decodes character references (not CDATA). */
void
fp_sim_text(fp_sim *s, const uint8_t *p, const uint8_t *q, int refs)
{
    const uint8_t *run = p;
    p = skip_space(p, q, refs, 0);
    if (p == q) {
        if (s->nghosts && text_reconstructs(s, 0))
            fp_sim_reconstruct(s);
        else if (clone_on_top(s))
            clone_takes_white_run(s, (uint32_t)(run - s->doc->buf));
        return;
    }
    uint32_t at = (uint32_t)(p - s->doc->buf);
    if (s->head_noscript >= 0 && s->top == s->head_noscript)
        fp_sim_pop(s, FP_CLOSED_IMPLIED, at, at);   /* "in head noscript": text ends it, and the head */
    if (s->head_open && s->top == s->head)
        fp_sim_close_until(s, s->head, FP_CLOSED_IMPLIED, at, at);
    if (in_column_group(s))
        fp_sim_pop(s, FP_CLOSED_IMPLIED, at, at);   /* anything else ends it */
    /* U+0000 NULL is dropped in body (U+FFFD in foreign content): neither clears frameset-ok */
    if (s->frameset_ok && skip_space(p, q, refs, 1) < q)
        s->frameset_ok = 0;
    if (open_html_of(s, FP_TAG_TEMPLATE) < 0)
        fp_sim_begin_body(s, at);   /* a template's text is its content, not the body's */
    leave_after_body(s, AFTER_BODY_TEXT, at);
    if (s->nghosts && text_reconstructs(s, 1))
        fp_sim_reconstruct(s);
    fp_sim_update_watch(s);
}

/* The elements still open end at the </body> or </html> at `from`, and only
 * whitespace, comments and end tags follow it ("after body", "after after
 * body"): that whitespace is the current node's in the DOM (13.2.6.4.22-23
 * insert it by the "in body" rules), which text.c reads at its end. Not when an
 * element was indexed after it (an <html> tag, which keeps the mode). */
static void
keep_tail(fp_sim *s, uint32_t from)
{
    fp_doc *d = s->doc;
    if (s->top < 0 || (d->n && s->e[d->n - 1].start >= from))
        return;
    d->tail_from = from;
    d->tail_elem = (uint32_t)s->top;
}

/* text_end: where content stops — the end of input, or the '<' of a tag cut
 * off by the end of input (that tag belongs to no element). */
void
fp_sim_eof(fp_sim *s, uint32_t text_end)
{
    /* after </body> or </html> that end tag was the error; a template-context
     * fragment with no template open stops "in template", without one */
    if (!s->body_ended && !(s->ctx == FP_TAG_TEMPLATE && open_html_of(s, FP_TAG_TEMPLATE) < 0))
        fp_sim_check_open_at_end(s, (uint32_t)s->doc->len);
    /* each closes at its pending end tag, unless its start tag came after that one (an
     * <html> indexed after </body> or </html>, which keeps the mode: 13.2.6.4.22-23) */
    int32_t b = open_of(s, FP_TAG_BODY), h = open_of(s, FP_TAG_HTML);
    int body_ends = s->body_end_pending && b >= 0 && s->e[b].start < s->body_end_lt;
    int html_ends = s->html_end_pending && h >= 0 && s->e[h].start < s->html_end_lt;
    if (body_ends || html_ends)
        keep_tail(s, body_ends ? s->body_end_lt : s->html_end_lt);
    if (body_ends)
        fp_sim_close_until(s, b, FP_CLOSED_END_TAG, s->body_end_lt, s->body_end_gt);
    if (html_ends)
        fp_sim_close_until(s, h, FP_CLOSED_END_TAG, s->html_end_lt, s->html_end_gt);
    while (s->top >= 0)
        fp_sim_pop(s, FP_CLOSED_EOF, text_end, text_end);
}

void
fp_sim_context(fp_sim *s, uint16_t ctx, uint8_t ns, uint8_t ip)
{
    s->ctx = ctx;
    s->ctx_ns = ns;
    s->ctx_ip = ip;
    s->ctx_mode = ns ? FP_MODE_BODY : (uint8_t)mode_of_tag(ctx);
    s->quirks = 0;
    s->frameset_ok = ctx == FP_TAG_HTML;
    s->body_seen = ctx != FP_TAG_HTML;
    s->in_frameset = ctx == FP_TAG_FRAMESET;
    if (ctx == FP_TAG_FORM && !ns)
        s->form_ptr = FP_FORM_PTR_CONTEXT;   /* the context is a form: a <form> in it is ignored */
    fp_sim_update_watch(s);
}

/* The parent the HTML Standard gives element i: its index parent, except for
 * a foster-parented element (FP_EF_FOSTERED), which the index keeps inside
 * the table's range: its parent is then the nearest enclosing table's parent,
 * or the nearest template when that is closer (13.2.6.1, "appropriate place
 * for inserting a node"). O(1) in practice: a fostered element's index
 * parent is a table, tbody/thead/tfoot or tr. */
int32_t
fp_dom_parent(const fp_doc *doc, uint32_t i)
{
    const fp_elem *e = doc->elems;
    int32_t p = e[i].parent;
    if (!(e[i].flags & FP_EF_FOSTERED))
        return p;
    for (; p >= 0; p = e[p].parent) {
        if (e[p].flags & (FP_EF_SVG | FP_EF_MATHML))
            continue;
        if (e[p].tag == FP_TAG_TEMPLATE)
            return p;
        if (e[p].tag == FP_TAG_TABLE)
            return e[p].parent;
    }
    return -1;
}
