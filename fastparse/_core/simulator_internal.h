/* simulator_internal.h — what the simulator's files share: questions about
 * the open-element stack (O(1) each), the push and pop of the hot paths
 * (inlined where a start tag or an end tag is handled), and the rules each
 * file exports to the others. Not for the rest of the engine: parse.c and
 * quirks.c see simulator.h. */
#ifndef FP_SIMULATOR_INTERNAL_H
#define FP_SIMULATOR_INTERNAL_H

#include "simulator.h"

/* ---- the open-element stack (simulator.c) ---- */

static inline int32_t
istack_top(const fp_sim *s, int k)
{
    const fp_istack *st = &s->sc[k];
    return st->n ? st->items[st->n - 1] : -1;
}

/* t is open and no boundary of kind k was opened after it */
static inline int
in_scope(const fp_sim *s, int32_t t, int k)
{
    return t >= 0 && istack_top(s, k) <= t;
}

static inline int32_t
open_of(const fp_sim *s, int tag)
{
    return (uint32_t)tag < s->open_head_cap ? s->open_head[tag] : -1;
}

static inline int32_t
nearest(const fp_sim *s, int a, int b)
{
    int32_t x = open_of(s, a), y = open_of(s, b);
    return x > y ? x : y;
}

/* The topmost open HTML element with this tag, looking past at most a few
 * svg/math elements of the same name (bounded: never quadratic). */
static inline int32_t
open_html_of(const fp_sim *s, int tag)
{
    int32_t x = open_of(s, tag);
    for (int k = 0; x >= 0 && fp_foreign(&s->e[x]) && k < 8; k++)
        x = s->prev_same[x];
    return x >= 0 && fp_foreign(&s->e[x]) ? -1 : x;
}

/* FP_TF_* as the element's namespace has them (an svg <title> is a scope
 * boundary, an HTML one is not; an HTML <mi> is no special element) */
uint32_t fp_sim_elem_flags(const fp_elem *el);
uint16_t fp_sim_boundaries(int tag, uint8_t ns_flags, uint32_t f);   /* a pushed element's open_bits */
int fp_sim_istack_grow(fp_sim *s, int k);
int fp_sim_grow_open_head(fp_sim *s, int tag);
int fp_sim_grow_index(fp_sim *s);
void *fp_sim_with_room(fp_sim *s, void *items, uint32_t n, uint32_t *cap, size_t size, uint32_t first);
/* push and pop out of line, for the rare paths (the hot ones inline the
 * copies below); close_until pops up to and including t, close_above what
 * is above c */
int32_t fp_sim_push(fp_sim *s, int tag, uint8_t ns_flags, uint32_t lt, uint32_t gt);
void fp_sim_pop(fp_sim *s, uint8_t closed, uint32_t inner_end, uint32_t end);
void fp_sim_pop_removed(fp_sim *s, uint32_t end);
void fp_sim_close_until(fp_sim *s, int32_t t, uint8_t closed, uint32_t lt, uint32_t gt);
void fp_sim_close_above(fp_sim *s, int32_t c, uint8_t child_closed, uint32_t at);

/* ---- insertion modes: the topmost FP_SC_MODE element decides ---- */

static inline int
tmpl_mode(const fp_sim *s, int32_t m)
{
    return (s->open_bits[m] >> FP_MODE_SHIFT) & 7;
}

static inline void
set_tmpl_mode(fp_sim *s, int32_t m, int mode)
{
    s->open_bits[m] = (uint16_t)((s->open_bits[m] & ((1u << FP_MODE_SHIFT) - 1)) | ((unsigned)mode << FP_MODE_SHIFT));
}

/* the insertion mode the mode element m selects; with none open, the fragment
 * context's (ctx_mode stays FP_MODE_BODY for a whole document) */
static inline int
mode_at(const fp_sim *s, int32_t m)
{
    return m < 0 ? s->ctx_mode : tmpl_mode(s, m);
}

/* A document, or an html-context fragment: both start "before head" and
 * imply their head and body (a fragment's other contexts start in the body). */
static inline int
starts_before_head(const fp_sim *s)
{
    return !s->ctx || s->ctx == FP_TAG_HTML;
}

/* The current node is an HTML colgroup ("in column group"): anything but
 * whitespace, <col> and a template ends it */
static inline int
in_column_group(const fp_sim *s)
{
    return s->top >= 0 && s->e[s->top].tag == FP_TAG_COLGROUP && !fp_foreign(&s->e[s->top]);
}

static inline int
is_head_tag(int tag)
{
    return (fp_tag_flags(tag) & FP_TF_HEAD) != 0;
}

/* ---- push and pop, inlined where most tags are handled ---- */

/* An element removed from the middle of the stack (</form>) stays the
 * parent of what was open inside it; it ends when the last of those does. */
#define FP_REMOVED (1u << 11)

/* Sets the form element pointer to form (-1: null), recording the change for
 * the elements created after it (fp_doc.form_ptr). */
void fp_sim_set_form_ptr(fp_sim *s, int32_t form);

/* Appends an element of this tag to the index as a child of the current node
 * (the index grows as needed); -1 past max_depth or out of memory. */
static inline int32_t
append_element(fp_sim *s, int tag, uint8_t flags, uint8_t closed, uint32_t lt, uint32_t gt)
{
    fp_doc *d = s->doc;
    if (s->depth >= d->opts.max_depth) {
        s->status = FP_ETOODEEP;
        d->fail_offset = lt;
        return -1;
    }
    if (d->n == s->cap && fp_sim_grow_index(s) < 0)
        return -1;
    int32_t i = (int32_t)d->n++;
    fp_elem *el = &s->e[i];
    el->start = lt;
    el->inner_start = el->inner_end = el->end = gt;
    el->parent = s->top;
    el->last = (uint32_t)i;
    el->tag = (uint16_t)tag;
    /* the tree depth: one below the current node (a fostered element's is fixed after) */
    el->depth = s->top >= 0 ? (uint16_t)(s->e[s->top].depth + 1) : 0;
    el->closed = closed;
    el->flags = flags;
    el->attr_bits = s->attr_bits;
    s->open_bits[i] = 0;
    return i;
}

/* What came after </body> or </html>: a start tag, an end tag, or text */
enum { AFTER_BODY_START_TAG, AFTER_BODY_END_TAG, AFTER_BODY_TEXT };

/* A token after </body> ("after body") or </html> ("after after body") that is
 * not whitespace, a comment or <html> is a parse error (13.2.6.4.22-23), named
 * as html5lib names it; the tree builder then goes back to "in body". Out of
 * line and cold (simulator.c): the hot paths only test the two flags. */
void fp_sim_after_body_error(fp_sim *s, int what, uint32_t at);

static inline void
after_body_error(fp_sim *s, int what, uint32_t at)
{
    if (__builtin_expect(s->body_end_pending | s->html_end_pending, 0))
        fp_sim_after_body_error(s, what, at);
}

/* That token, which takes the document back to "in body": reported, and the
 * pending ends of </body> and </html> dropped (body_ended is set with them). */
static inline void
leave_after_body(fp_sim *s, int what, uint32_t at)
{
    if (__builtin_expect(s->body_end_pending | s->html_end_pending, 0)) {
        fp_sim_after_body_error(s, what, at);
        s->body_end_pending = s->html_end_pending = s->body_ended = 0;
    }
}

/* A void element at the current node: what a push and a pop would leave,
 * without the stack traffic. */
static inline int32_t
insert_void(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt)
{
    int32_t v = append_element(s, tag, t->self_closing ? FP_EF_SOLIDUS : 0, FP_CLOSED_VOID, lt, gt);
    if (v >= 0 && s->removed_open)
        fp_sim_pop_removed(s, gt);   /* as a pop does: a <meta> after </head> ends the head it went into */
    return v;
}

static inline __attribute__((always_inline)) int32_t
push_inline(fp_sim *s, int tag, uint8_t ns_flags, uint32_t lt, uint32_t gt)
{
    if ((uint32_t)tag >= s->open_head_cap && fp_sim_grow_open_head(s, tag) < 0)
        return -1;
    int32_t i = append_element(s, tag, ns_flags, FP_CLOSED_EOF, lt, gt);
    if (i < 0)
        return -1;
    fp_elem *el = &s->e[i];
    s->prev_same[i] = s->open_head[tag];
    s->open_head[tag] = i;
    if (ns_flags & (FP_EF_SVG | FP_EF_MATHML)) {
        /* fp_sim_end_foreign() asks these of foreign elements only */
        s->open_foreign++;
        s->open_depth[i] = s->depth;
        s->foreign_below[i] = s->open_foreign;
    }
    s->top = i;
    s->depth++;

    /* an HTML element's boundary bits depend on its tag alone: computed once a parse */
    uint16_t sc;
    if (ns_flags & (FP_EF_SVG | FP_EF_MATHML))
        sc = fp_sim_boundaries(tag, ns_flags, fp_sim_elem_flags(el));
    else if ((unsigned)tag >= FP_TAG__COUNT)
        sc = 0;   /* an unknown name is no boundary */
    else if ((sc = s->html_sc[tag]) == 0xFFFF)
        sc = s->html_sc[tag] = fp_sim_boundaries(tag, ns_flags, fp_sim_elem_flags(el));
    s->open_bits[i] = sc;
    for (unsigned bits = sc & ((1u << FP_SC__COUNT) - 1); bits; bits &= bits - 1) {
        fp_istack *st = &s->sc[__builtin_ctz(bits)];
        if (st->n == st->cap && fp_sim_istack_grow(s, __builtin_ctz(bits)) < 0)
            return -1;
        st->items[st->n++] = i;
    }
    return i;
}

/* simulator_ghosts.c: the marker of element m, which leaves the stack as
 * `closed`, may stay in the list of active formatting elements. fp_sim_pop
 * calls it; fp_sim_end_current's pop, of the current node by its own end tag,
 * needs not: that clears the list, which matters only with a stale marker,
 * and then every end tag takes the long way (fp_sim.ghost_tags). */
void fp_sim_marker_popped(fp_sim *s, int32_t m, uint8_t closed);
int32_t fp_sim_last_marker(const fp_sim *s);

static inline __attribute__((always_inline)) void
pop_inline(fp_sim *s, uint8_t closed, uint32_t inner_end, uint32_t end)
{
    int32_t i = s->top;
    fp_elem *el = &s->e[i];
    el->closed = closed;
    el->inner_end = inner_end;
    el->end = end;
    el->last = s->doc->n - 1;
    s->open_head[el->tag] = s->prev_same[i];
    for (unsigned bits = s->open_bits[i] & ((1u << FP_SC__COUNT) - 1); bits; bits &= bits - 1)
        s->sc[__builtin_ctz(bits)].n--;  /* a boundary is always its stack's top when popped */
    s->open_bits[i] = 0;
    if (fp_foreign(el))
        s->open_foreign--;
    s->top = el->parent;
    s->depth--;
    if (s->removed_open)
        fp_sim_pop_removed(s, end);
    if (i == s->head)
        s->head_open = 0;
    if (i == s->head_noscript)
        s->head_noscript = -1;
}

/* an HTML formatting element (b, i, a, font...): the list of active
 * formatting elements holds it, and the spec reopens clones of it */
static inline int
is_formatting(const fp_elem *el)
{
    return !fp_foreign(el) && (fp_tag_flags(el->tag) & FP_TF_FORMATTING);
}

/* simulator_ghosts.c: formatting elements closed by another element's end */
enum { FP_GHOST_IGNORED = 1, FP_GHOST_CLOSED };   /* what fp_sim_ghost_takes did */
void fp_sim_ghost_add(fp_sim *s, int32_t x);
void fp_sim_ghost_add_cloned(fp_sim *s, int32_t x, int32_t under, uint32_t from);
int fp_sim_ghost_takes(fp_sim *s, int tag, int32_t open, uint32_t at, int a_start);
void fp_sim_reconstruct(fp_sim *s);
void fp_sim_clones_closed_above(fp_sim *s, int32_t c);
int fp_sim_clone_on(const fp_sim *s, int32_t c);
int fp_sim_clone_holds(const fp_sim *s, int32_t c, int32_t x);
uint32_t fp_sim_clones_between(const fp_sim *s, int32_t lo, int32_t b, const fp_ghost *clone, uint8_t *out);
void fp_sim_clones_wrap(fp_sim *s, const uint8_t *between, const int *count, uint32_t n, int32_t anc, uint32_t b);

/* Whether the spec's current node is a clone (not indexed) on s->top */
static inline int
clone_on_top(const fp_sim *s)
{
    return s->nghosts && fp_sim_clone_on(s, s->top);
}

/* The bit of a ghost's name in fp_sim.ghost_tags, a filter that lets the end
 * tags of other names skip the look through the ghosts */
static inline uint64_t
ghost_tag_bit(int tag)
{
    return 1ull << (tag & 63);
}

/* Whether a formatting element of this name may be one of them */
static inline int
may_be_ghost(const fp_sim *s, int tag)
{
    return (s->ghost_tags & ghost_tag_bit(tag)) != 0;
}

/* Open element x is closed by the end of an element it is in: a formatting
 * element stays in the list of active formatting elements (simulator_ghosts.c) */
static inline void
note_ghost(fp_sim *s, int32_t x)
{
    if (__builtin_expect(fp_tag_flags(s->e[x].tag) & FP_TF_FORMATTING, 0))
        fp_sim_ghost_add(s, x);
}

/* ---- the rules, by the file that holds them ---- */

/* simulator.c: the parse error of elements left open when the body ends */
void fp_sim_check_open_at_end(fp_sim *s, uint32_t at);

/* simulator_adopt.c: elements leaving the stack out of order */
int fp_sim_adopt(fp_sim *s, int32_t fe, uint8_t closed, uint32_t at);
int fp_sim_adopt_after(fp_sim *s, int32_t after, int32_t anc, const fp_ghost *clone, uint8_t closed, uint32_t at);
void fp_sim_remove_from_stack(fp_sim *s, int32_t x, uint32_t lt, uint32_t gt);

/* simulator_foreign.c: svg and math */
int fp_sim_start_foreign(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt, int32_t *i);
int32_t fp_sim_insert_foreign(fp_sim *s, const fp_tag_token *t, int tag, uint8_t ns, uint32_t lt, uint32_t gt);
void fp_sim_break_out(fp_sim *s, uint32_t at);
int fp_sim_end_foreign(fp_sim *s, int tag, uint32_t lt, uint32_t gt);

/* simulator_table.c: tables, rows, cells, column groups */
int fp_sim_template_mode_for(int tag);
int32_t fp_sim_table_part_parent(fp_sim *s, int tag);
void fp_sim_ignore_table_part(fp_sim *s, int tag, uint32_t lt);
int32_t fp_sim_implied_part_end(fp_sim *s, int tag);
void fp_sim_note_table_part(fp_sim *s, int tag, int32_t parent);
int32_t fp_sim_table_end_without_table(const fp_sim *s);
int fp_sim_input_is_hidden(const fp_tag_token *t, const uint8_t *end);
int32_t fp_sim_start_in_table(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt, int *done);
int32_t fp_sim_start_row_or_cell(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt, int32_t m);

/* simulator_document.c: html, head, body and frameset */
int32_t fp_sim_start_head(fp_sim *s, uint32_t lt, uint32_t gt);
int32_t fp_sim_start_body(fp_sim *s, uint32_t lt, uint32_t gt);
/* A later <html> or <body> tag t at [lt, gt): its attributes join those of element
 * into (the indexed html or body element, -1: none), as "in body" adds them. */
void fp_sim_merge_attributes(fp_sim *s, int32_t into, const fp_tag_token *t, uint32_t lt, uint32_t gt);
int32_t fp_sim_start_frameset(fp_sim *s, int tag, uint32_t lt, uint32_t gt);
int32_t fp_sim_start_in_frameset(fp_sim *s, int tag, uint32_t lt, uint32_t gt);
void fp_sim_reopen_head(fp_sim *s);
int fp_sim_in_head_position(const fp_sim *s, uint32_t i);
int fp_sim_body_seen_before(fp_sim *s, uint32_t i);
void fp_sim_begin_body(fp_sim *s, uint32_t at);
void fp_sim_update_watch(fp_sim *s);

/* simulator_start.c: start tags */
int32_t fp_sim_start_html(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt);

#endif
