/* simulator.c — the HTML Standard's tree construction (13.2.6), reduced to
 * what decides nesting: which element is open when a tag arrives, which
 * start tags imply ends, which end tags are ignored. No DOM is built and no
 * element without a start tag is invented; fp_elem.closed records how each
 * element ended. The open-element stack is linked through fp_elem.parent;
 * per-tag chains (open_head/prev_same) and boundary stacks answer "is there
 * an X in scope" in O(1), so no input makes closing quadratic.
 *
 * Where the index cannot follow the spec's tree (it keeps source order and
 * contiguous subtrees, and never clones):
 * - foster parenting: a misplaced element in a table stays at its source
 *   position inside the table's range, flagged FP_EF_FOSTERED; its tree
 *   parent is fp_dom_parent() (the table's parent) and fp_elem.depth is the
 *   tree depth. e[i].parent stays the index parent (the table part).
 * - adoption agency: the furthest block moves out of the formatting element
 *   (adopt), the clones the spec makes are not indexed.
 * - <frameset> replacing a body: the spec removes the body and what it
 *   held; the index drops those elements too (they are the last ones).
 * - a head tag after </head> goes back into the head, which then ends
 *   with it (its range covers the </head> it had before).
 * The insertion mode comes from the topmost FP_SC_MODE element (table parts,
 * template) or a fragment's context; fast paths in fp_sim_start keep the
 * common case (in body, in a cell, a row or cell in a table) cheap. */
#include <stdlib.h>
#include <string.h>

#include "simulator.h"

/* ---- effective flags: some names are special/scope only in one namespace ---- */

static uint32_t
elem_flags(const fp_elem *el)
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

static int
is_foreign(const fp_elem *el)
{
    return (el->flags & (FP_EF_SVG | FP_EF_MATHML)) != 0;
}

/* ---- stacks ---- */

static int
istack_grow(fp_sim *s, int k)
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

static int
grow_open_head(fp_sim *s, int tag)
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
static int
grow_index(fp_sim *s)
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

/* ---- push and pop ---- */

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
static uint16_t
boundaries(int tag, uint8_t ns_flags, uint32_t f)
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
    if (d->n == s->cap && grow_index(s) < 0)
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

static inline __attribute__((always_inline)) int32_t
push_inline(fp_sim *s, int tag, uint8_t ns_flags, uint32_t lt, uint32_t gt)
{
    if ((uint32_t)tag >= s->open_head_cap && grow_open_head(s, tag) < 0)
        return -1;
    int32_t i = append_element(s, tag, ns_flags, FP_CLOSED_EOF, lt, gt);
    if (i < 0)
        return -1;
    fp_elem *el = &s->e[i];
    s->prev_same[i] = s->open_head[tag];
    s->open_head[tag] = i;
    if (ns_flags & (FP_EF_SVG | FP_EF_MATHML)) {
        /* end_foreign() asks these of foreign elements only */
        s->open_foreign++;
        s->open_depth[i] = s->depth;
        s->foreign_below[i] = s->open_foreign;
    }
    s->top = i;
    s->depth++;

    /* an HTML element's boundary bits depend on its tag alone: computed once a parse */
    uint16_t sc;
    if (ns_flags & (FP_EF_SVG | FP_EF_MATHML))
        sc = boundaries(tag, ns_flags, elem_flags(el));
    else if ((unsigned)tag >= FP_TAG__COUNT)
        sc = 0;   /* an unknown name is no boundary */
    else if ((sc = s->html_sc[tag]) == 0xFFFF)
        sc = s->html_sc[tag] = boundaries(tag, ns_flags, elem_flags(el));
    s->open_bits[i] = sc;
    for (unsigned bits = sc & ((1u << FP_SC__COUNT) - 1); bits; bits &= bits - 1) {
        fp_istack *st = &s->sc[__builtin_ctz(bits)];
        if (st->n == st->cap && istack_grow(s, __builtin_ctz(bits)) < 0)
            return -1;
        st->items[st->n++] = i;
    }
    return i;
}

/* The push every rare path takes; start_html, which most elements go
 * through, has its own copy inlined (a call there cost 1.4% of the parse). */
static int32_t
push(fp_sim *s, int tag, uint8_t ns_flags, uint32_t lt, uint32_t gt)
{
    return push_inline(s, tag, ns_flags, lt, gt);
}

/* An element removed from the middle of the stack (</form>) stays the
 * parent of what was open inside it; it ends when the last of those does. */
#define FP_REMOVED (1u << 11)

static void
pop_removed(fp_sim *s, uint32_t end)
{
    while (s->top >= 0 && (s->open_bits[s->top] & FP_REMOVED)) {
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
    if (is_foreign(el))
        s->open_foreign--;
    s->top = el->parent;
    s->depth--;
    if (s->removed_open)
        pop_removed(s, end);
    if (i == s->head)
        s->head_open = 0;
    if (i == s->head_noscript)
        s->head_noscript = -1;
}

/* The pop of the rare paths; the end tag that closes the current node, most
 * end tags, has its own copy inlined (fp_sim_end_current). */
static void
pop(fp_sim *s, uint8_t closed, uint32_t inner_end, uint32_t end)
{
    pop_inline(s, closed, inner_end, end);
}

/* Pops up to and including t: t ends as `closed`, what was open inside it
 * ends with it (parent-end). */
static void
close_until(fp_sim *s, int32_t t, uint8_t closed, uint32_t lt, uint32_t gt)
{
    while (s->top != t)
        pop(s, FP_CLOSED_PARENT_END, lt, lt);
    pop(s, closed, lt, closed == FP_CLOSED_END_TAG ? gt : lt);
}

/* Pops everything above c (c stays open): the child of c was implicitly
 * closed by the tag at `at`, its descendants with it. */
static void
close_above(fp_sim *s, int32_t c, uint32_t at)
{
    while (s->top != c && s->top >= 0)
        pop(s, s->e[s->top].parent == c ? FP_CLOSED_IMPLIED : FP_CLOSED_PARENT_END, at, at);
}

/* ---- the adoption agency (13.2.6.4.7), without clones ----
 * For a formatting element fe with a "furthest block" fb (the first special
 * element opened inside it), the spec moves fb out of fe to fe's parent and
 * clones the formatting elements into it. The flat index moves fb the same
 * way, without clones: fe and the elements between it and fb end where fb
 * starts (fe.last = fb - 1), fb's parent becomes fe's parent, and fb's
 * subtree moves up. fb's subtree is the tail of the index (fb is open), so
 * ranges stay contiguous. Only done when that subtree is small (its depths
 * are rewritten) and nothing in between is a boundary or foreign: otherwise
 * fe closes what it contains, as before.
 * The spec then runs again (its outer loop, 8 rounds at most) for the clone
 * of fe it put into fb, which holds what was open inside fb: with no special
 * element among that, the round pops it all; a special one moves up into fb
 * as fb did out of fe's parent. */
#define FP_ADOPT_MAX_MOVE 64
#define FP_ADOPT_ROUNDS 8

/* The first special element opened after x and still open; -1 when there is
 * none, -2 when it is not among the last FP_ADOPT_MAX_MOVE elements (too
 * much to move). Scans the special stack from the top: at most that many entries. */
static int32_t
special_after(const fp_sim *s, int32_t x)
{
    const fp_istack *st = &s->sc[FP_SC_SPECIAL];
    int64_t low = (int64_t)s->doc->n - FP_ADOPT_MAX_MOVE;
    uint32_t k = st->n;
    while (k > 0 && st->items[k - 1] > x && st->items[k - 1] >= low)
        k--;
    if (k > 0 && st->items[k - 1] > x)
        return -2;
    return k < st->n ? st->items[k] : -1;
}

/* removes x from its tag's chain of open elements */
static void
unlink_same(fp_sim *s, int32_t x)
{
    int tag = s->e[x].tag;
    if (s->open_head[tag] == x) {
        s->open_head[tag] = s->prev_same[x];
        return;
    }
    for (int32_t y = s->open_head[tag]; y >= 0; y = s->prev_same[y])
        if (s->prev_same[y] == x) {
            s->prev_same[y] = s->prev_same[x];
            return;
        }
}

/* 13.2.6.4.7 end tag "form": the form leaves the stack of open elements but
 * what is open inside it stays open (and stays its descendants). */
static void
remove_from_stack(fp_sim *s, int32_t x, uint32_t lt, uint32_t gt)
{
    fp_elem *el = &s->e[x];
    for (unsigned bits = s->open_bits[x] & ((1u << FP_SC__COUNT) - 1); bits; bits &= bits - 1) {
        fp_istack *st = &s->sc[__builtin_ctz(bits)];
        uint32_t k = st->n;
        while (k > 0 && st->items[k - 1] != x)
            k--;
        if (k > 0) {
            memmove(st->items + k - 1, st->items + k, (st->n - k) * sizeof *st->items);
            st->n--;
        }
    }
    unlink_same(s, x);
    s->open_bits[x] = FP_REMOVED;
    el->closed = FP_CLOSED_END_TAG;
    el->inner_end = lt;
    el->end = gt;
    s->removed_open++;
}

/* an HTML formatting element (b, i, a, font...): the spec reopens a clone of it */
static int
is_formatting(const fp_elem *el)
{
    return !is_foreign(el) && (fp_tag_flags(el->tag) & FP_TF_FORMATTING);
}

/* Moves the open element b up to be a child of its open ancestor anc (-1:
 * top level): the elements between them end where b starts, the one that was
 * anc's child as `closed`, the rest as parent-end. 0, with nothing changed,
 * when one of them is a boundary, removed from the stack, foreign or
 * fostered (b's subtree is the tail of the index: the caller keeps it short). */
static int
lift(fp_sim *s, int32_t anc, int32_t b, uint8_t closed)
{
    const uint16_t boundary = (1u << FP_SC__COUNT) - 1;
    int32_t child = b;   /* anc's child on the way up: b's place */
    for (int32_t x = s->e[b].parent; x != anc; x = s->e[x].parent) {
        if (x < 0 || (s->open_bits[x] & (boundary | FP_REMOVED)) || is_foreign(&s->e[x]) ||
            (s->e[x].flags & FP_EF_FOSTERED))
            return 0;
        child = x;
    }
    uint32_t at = s->e[b].start;
    uint16_t delta = (uint16_t)(s->e[b].depth - s->e[child].depth);
    for (int32_t x = s->e[b].parent; x != anc; x = s->e[x].parent) {  /* top down: each unlink is O(1) */
        fp_elem *el = &s->e[x];
        el->closed = el->parent == anc ? closed : FP_CLOSED_PARENT_END;
        el->inner_end = el->end = at;
        el->last = (uint32_t)b - 1;
        unlink_same(s, x);
    }
    s->e[b].parent = anc;
    for (uint32_t k = (uint32_t)b; delta && k < s->doc->n; k++)
        s->e[k].depth = (uint16_t)(s->e[k].depth - delta);
    s->depth -= delta;
    return 1;
}

/* The adoption agency for formatting element fe, which ends as `closed`, run
 * for a tag at offset `at`: 1 when it moved a furthest block out of fe; 0
 * (nothing done) when fe has none or it cannot be moved, and the caller
 * closes fe with what it contains. */
static int
adopt(fp_sim *s, int32_t fe, uint8_t closed, uint32_t at)
{
    if (istack_top(s, FP_SC_SPECIAL) < fe)
        return 0;   /* no special element inside: the common case, no block to move */
    int32_t fb = special_after(s, fe);
    if (fb < 0 || !lift(s, s->e[fe].parent, fb, closed))
        return 0;
    /* the next rounds, for fe's clone inside fb: it is not in scope behind a
     * boundary (all of them are special) */
    for (int round = 1; round < FP_ADOPT_ROUNDS && istack_top(s, FP_SC_DEFAULT) < fb; round++) {
        int32_t next = special_after(s, fb);
        if (next == -1) {
            /* no block: what is open above fb ends with the clone. The
             * formatting elements next to fb stay open, as the clones the
             * spec reopens for what follows would be: the first other
             * element ends, with everything above it */
            int32_t cut = -1;
            for (int32_t x = s->top; x != fb; x = s->e[x].parent)
                if (!is_formatting(&s->e[x]))
                    cut = x;
            if (cut >= 0)
                while (s->top != s->e[cut].parent)
                    pop(s, FP_CLOSED_PARENT_END, at, at);
            break;
        }
        if (next < 0)
            break;   /* too far to move: left open, as before */
        /* a block moves up into fb out of what is not formatting; inside
         * formatting elements only, it stays (the spec wraps it in their clones) */
        int formatting_only = 1;
        for (int32_t x = s->e[next].parent; x != fb && formatting_only; x = s->e[x].parent)
            formatting_only = is_formatting(&s->e[x]);
        if (!formatting_only && !lift(s, fb, next, FP_CLOSED_PARENT_END))
            break;   /* not movable: left open, as before */
        fb = next;
    }
    return 1;
}

static void
close_p_if_in_button_scope(fp_sim *s, uint32_t at)
{
    int32_t p = open_of(s, FP_TAG_P);
    if (in_scope(s, p, FP_SC_BUTTON) && !is_foreign(&s->e[p]))
        close_until(s, p, FP_CLOSED_IMPLIED, at, at);
}

/* ---- foreign content (13.2.6.5) ---- */

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
    return is_foreign(&s->e[s->top]);
}

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

static int32_t
insert_foreign(fp_sim *s, const fp_tag_token *t, int tag, uint8_t ns, uint32_t lt, uint32_t gt)
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
    int32_t i = push(s, tag, flags, lt, gt);
    if (i >= 0 && t->self_closing)
        pop(s, FP_CLOSED_SELF_CLOSING, gt, gt);
    return i;
}

/* ---- start tags (13.2.6.4.7 "in body", plus the table and head rules that decide nesting) ---- */

static int32_t
nearest(const fp_sim *s, int a, int b)
{
    int32_t x = open_of(s, a), y = open_of(s, b);
    return x > y ? x : y;
}

/* The topmost open HTML element with this tag, looking past at most a few
 * svg/math elements of the same name (bounded: never quadratic). */
static int32_t
open_html_of(const fp_sim *s, int tag)
{
    int32_t x = open_of(s, tag);
    for (int k = 0; x >= 0 && is_foreign(&s->e[x]) && k < 8; k++)
        x = s->prev_same[x];
    return x >= 0 && is_foreign(&s->e[x]) ? -1 : x;
}

static int32_t
table_section(const fp_sim *s)
{
    int32_t x = nearest(s, FP_TAG_TBODY, FP_TAG_THEAD);
    int32_t y = open_of(s, FP_TAG_TFOOT);
    return x > y ? x : y;
}

static int
is_section(int tag)
{
    return tag == FP_TAG_TBODY || tag == FP_TAG_THEAD || tag == FP_TAG_TFOOT;
}

/* The topmost open HTML td or th, -1 when none is */
static int32_t
open_cell(const fp_sim *s)
{
    int32_t td = open_html_of(s, FP_TAG_TD), th = open_html_of(s, FP_TAG_TH);
    return td > th ? td : th;
}

/* A </tr> or </tbody> with no such element open where a DOM has one: the
 * spec implied the row around a cell sitting straight in a table or section
 * (<table><td>), and the tbody around a row or cell straight in a table; the
 * end tag closes them and the cell ("in cell", then "in row"). The open
 * element the DOM's row or tbody holds, to close with what is inside it; -1
 * when there is none. b stands for the table: the nearest table-scope
 * element, or -1 in a fragment whose context is the table (or, for </tr>,
 * its section). */
static int32_t
implied_part_end(const fp_sim *s, int tag)
{
    int32_t b = istack_top(s, FP_SC_TABLE);
    if (b >= 0 ? s->e[b].tag != FP_TAG_TABLE
               : !(s->ctx == FP_TAG_TABLE || (tag == FP_TAG_TR && is_section(s->ctx))))
        return -1;
    int32_t cell = open_cell(s);
    if (tag == FP_TAG_TBODY) {
        int32_t row = open_html_of(s, FP_TAG_TR);
        if (row > b && s->e[row].parent == b)
            return row;
        return cell > b && s->e[cell].parent == b ? cell : -1;
    }
    if (cell <= b)
        return -1;
    int32_t p = s->e[cell].parent;
    if (p == b)
        return cell;
    return p > b && s->e[p].parent == b && is_section(s->e[p].tag) &&
           !is_foreign(&s->e[p]) ? cell : -1;
}

/* ---- insertion modes: the topmost FP_SC_MODE element decides ---- */

static int
tmpl_mode(const fp_sim *s, int32_t m)
{
    return (s->open_bits[m] >> FP_MODE_SHIFT) & 7;
}

static void
set_tmpl_mode(fp_sim *s, int32_t m, int mode)
{
    s->open_bits[m] = (uint16_t)((s->open_bits[m] & ((1u << FP_MODE_SHIFT) - 1)) | ((unsigned)mode << FP_MODE_SHIFT));
}

/* "in template": the first start tag decides how the template's content nests */
static int
template_mode_for(int tag)
{
    switch (tag) {
    case FP_TAG_CAPTION: case FP_TAG_COLGROUP: case FP_TAG_TBODY: case FP_TAG_TFOOT: case FP_TAG_THEAD:
        return FP_MODE_TABLE;
    case FP_TAG_COL:
        return FP_MODE_COLGROUP;
    case FP_TAG_TR:
        return FP_MODE_TBODY;
    case FP_TAG_TD: case FP_TAG_TH:
        return FP_MODE_ROW;
    default:
        return FP_MODE_BODY;
    }
}

/* the insertion mode the mode element m selects; with none open, the fragment
 * context's (ctx_mode stays FP_MODE_BODY for a whole document) */
static int
mode_at(const fp_sim *s, int32_t m)
{
    return m < 0 ? s->ctx_mode : tmpl_mode(s, m);
}

/* The element that plays the table for rows and cells: the open table in
 * table scope, a template whose content is table-like, -1 for a fragment
 * with a table-like context; -2 when there is none (table parts are then
 * ignored). *kind gets its FP_MODE_* (TABLE for a real table). */
static int32_t
table_root(fp_sim *s, int tag, int *kind)
{
    int32_t b = istack_top(s, FP_SC_TABLE);   /* html, table, template (HTML namespace) */
    if (b >= 0 && s->e[b].tag == FP_TAG_TABLE) {
        *kind = FP_MODE_TABLE;
        return b;
    }
    if (b >= 0 && s->e[b].tag == FP_TAG_TEMPLATE) {
        *kind = tmpl_mode(s, b);
        if (*kind == FP_MODE_TEMPLATE) {
            *kind = template_mode_for(tag);
            set_tmpl_mode(s, b, *kind);
        }
        return b;
    }
    if (b < 0 && s->ctx) {
        if (s->ctx_mode == FP_MODE_TEMPLATE)
            s->ctx_mode = (uint8_t)template_mode_for(tag);   /* a template context */
        *kind = s->ctx_mode;
        return -1;
    }
    *kind = FP_MODE_BODY;
    return -2;
}

/* "in cell" then "in row": a table part ends the open cell before anything
 * else, and any part but a cell the open row, even a part the rules then
 * ignore (<template><td>a<caption>b: the td ends at the caption, which is
 * dropped, and "b" follows the td; a <tbody> in a row of a tbody-context
 * fragment ends the row, and there is no section left for it to end). */
static void
close_cell_and_row_of_ignored_part(fp_sim *s, int tag, uint32_t lt)
{
    int32_t cell = open_cell(s), row = open_html_of(s, FP_TAG_TR), b = istack_top(s, FP_SC_TABLE);
    if (tag != FP_TAG_TD && tag != FP_TAG_TH && row > b)
        close_until(s, row, FP_CLOSED_IMPLIED, lt, lt);
    else if (cell > b)
        close_until(s, cell, FP_CLOSED_IMPLIED, lt, lt);
}

/* Where a table part goes: returns the element to close everything above
 * (the part becomes its child), or -2 when the tree builder ignores it. */
static int32_t
table_part_parent(fp_sim *s, int tag)
{
    /* fast path, the common case in real tables: a row or cell next to an open row or cell */
    int32_t m = istack_top(s, FP_SC_MODE);
    if (m >= 0 && (tag == FP_TAG_TD || tag == FP_TAG_TH || tag == FP_TAG_TR)) {
        int mt = s->e[m].tag;
        if (mt == FP_TAG_TD || mt == FP_TAG_TH) {
            m = s->e[m].parent;
            mt = m >= 0 ? s->e[m].tag : 0;
        }
        if (mt == FP_TAG_TR && m >= 0 && !is_foreign(&s->e[m])) {
            if (tag != FP_TAG_TR)
                return m;
            int32_t sec = s->e[m].parent;
            int st = sec >= 0 ? s->e[sec].tag : 0;
            if (st == FP_TAG_TBODY || st == FP_TAG_THEAD || st == FP_TAG_TFOOT || st == FP_TAG_TABLE)
                return sec;
        }
    }
    int kind;
    int32_t root = table_root(s, tag, &kind);
    if (root == -2)
        return -2;
    int32_t sec = table_section(s), tr = open_html_of(s, FP_TAG_TR), cg = open_html_of(s, FP_TAG_COLGROUP);
    if (sec >= 0 && is_foreign(&s->e[sec]))
        sec = -1;   /* an svg <tbody> is no table section */
    int has_sec = sec > root, has_tr = tr > root;
    int tableish = kind == FP_MODE_TABLE;
    switch (tag) {
    case FP_TAG_CAPTION: case FP_TAG_COLGROUP:
    case FP_TAG_TBODY: case FP_TAG_THEAD: case FP_TAG_TFOOT:
        return tableish || has_sec ? root : -2;
    case FP_TAG_TR:
        if (has_sec)
            return sec;
        return tableish || kind == FP_MODE_TBODY || has_tr ? root : -2;
    case FP_TAG_TD: case FP_TAG_TH:
        if (has_tr)
            return tr;
        if (has_sec)
            return sec;
        return tableish || kind == FP_MODE_TBODY || kind == FP_MODE_ROW ? root : -2;
    case FP_TAG_COL:
        if (cg > root && cg > sec && cg > tr)
            return cg;
        return tableish || kind == FP_MODE_COLGROUP || has_sec || has_tr ? root : -2;
    default:
        return -2;
    }
}

/* <input type=hidden> (any case): not foster-parented, does not clear frameset-ok */
static int
input_is_hidden(const fp_tag_token *t, const uint8_t *end)
{
    const uint8_t *p = t->name + t->name_len;
    fp_raw_attr a;
    int sc = 0;
    while (t->attr_bits && fp_tok_attr(&p, end, &a, &sc) == 1)
        if (fp_equals_ci(a.name, a.name_len, "type"))
            return fp_equals_ci(a.value, a.value_len, "hidden");
    return 0;
}

/* Whether an element inserted into x is foster-parented: x is an HTML table,
 * tbody, thead, tfoot or tr (13.2.6.1, "appropriate place for inserting a node"). */
static int
is_table_target(const fp_sim *s, int32_t x)
{
    if (x < 0 || is_foreign(&s->e[x]))
        return 0;
    switch (s->e[x].tag) {
    case FP_TAG_TABLE: case FP_TAG_TBODY: case FP_TAG_THEAD: case FP_TAG_TFOOT: case FP_TAG_TR:
        return 1;
    default:
        return 0;
    }
}

/* start tags that set the spec's frameset-ok flag to "not ok" */
static void
frameset_check(fp_sim *s, const fp_tag_token *t, int tag, uint32_t gt)
{
    switch (tag) {
    case FP_TAG_INPUT:
        if (input_is_hidden(t, s->doc->buf + gt))
            return;
        /* fall through */
    case FP_TAG_APPLET: case FP_TAG_MARQUEE: case FP_TAG_OBJECT: case FP_TAG_TABLE:
    case FP_TAG_AREA: case FP_TAG_BR: case FP_TAG_EMBED: case FP_TAG_IMG: case FP_TAG_KEYGEN:
    case FP_TAG_WBR: case FP_TAG_HR: case FP_TAG_PRE: case FP_TAG_LISTING: case FP_TAG_LI:
    case FP_TAG_DD: case FP_TAG_DT: case FP_TAG_BUTTON: case FP_TAG_TEXTAREA: case FP_TAG_XMP:
    case FP_TAG_IFRAME: case FP_TAG_SELECT: case FP_TAG_BODY:
        s->frameset_ok = 0;
        break;
    default:
        break;
    }
}

static int is_head_tag(int tag);
static int body_seen_before(fp_sim *s, uint32_t i);

/* The first element of the body: after the <html>, the head and what went
 * into it (an implied head holds the head tags before the first body tag). */
static uint32_t
body_start(const fp_sim *s)
{
    if (s->head >= 0)
        return s->e[s->head].last + 1;
    uint32_t i = s->html >= 0 ? (uint32_t)s->html + 1 : 0;
    while (i < s->doc->n && i < s->body_from && is_head_tag(s->e[i].tag))
        i++;
    return i;
}

/* <frameset> in body with frameset-ok: it replaces the body. The spec removes
 * the (implied) body and everything in it; frameset-ok means only elements
 * that do not matter to a frameset page were seen (div, p, span, svg...). They
 * are the last ones indexed, so the index is cut back to where the body began. */
static int32_t
start_frameset(fp_sim *s, int tag, uint32_t lt, uint32_t gt)
{
    /* before the body ("after head" and the modes before it) a frameset needs
     * no frameset-ok: template content may have cleared it, and there is no
     * body to remove */
    int before_body = s->body < 0 && !s->ctx && !body_seen_before(s, s->doc->n);
    if ((!s->frameset_ok && !before_body) || open_of(s, FP_TAG_TEMPLATE) >= 0 ||
        (s->ctx && s->ctx != FP_TAG_HTML))
        return -1;
    int32_t root = s->html >= 0 && open_of(s, FP_TAG_HTML) == s->html ? s->html : -1;
    if (root >= 0)
        close_above(s, root, lt);
    else
        while (s->top >= 0)
            pop(s, s->e[s->top].parent < 0 ? FP_CLOSED_IMPLIED : FP_CLOSED_PARENT_END, lt, lt);
    uint32_t cut = before_body ? s->doc->n : body_start(s);
    /* the body goes, and its text with it (text.c); before the body, nothing */
    uint32_t from = cut < s->doc->n ? s->e[cut].start : lt;
    s->doc->removed_from = !before_body && s->body_seen && s->body_at < from ? s->body_at : from;
    if (cut < s->doc->n) {
        fp_sim_error(s, FP_ERR_UNEXPECTED_START_TAG, lt);
        /* comments inside the removed elements go with them */
        while (s->doc->ncomments && s->doc->comments[s->doc->ncomments - 1].start > s->e[cut].start)
            s->doc->ncomments--;
        if (s->doc->n > s->cut_from)
            s->cut_from = s->doc->n;   /* the pages past the cut were touched (fp_sim_used) */
        s->doc->n = cut;
        for (uint32_t i = 0; i < cut; i++)   /* what stays is closed; none reaches past the cut */
            if (s->e[i].last >= cut)
                s->e[i].last = cut - 1;
        if (s->form_ptr >= (int32_t)cut)
            s->form_ptr = -1;
        if (s->seen_upto > cut)
            s->seen_upto = cut;
        if (s->tmpl_skip >= (int32_t)cut)
            s->tmpl_skip = -1;
    }
    s->in_frameset = 1;
    s->frameset_ok = 0;
    s->doc->frameset_from = gt;
    return push(s, tag, 0, lt, gt);
}

/* "after head": the head tags but <noscript> (base, link, meta, script,
 * style, template, title...) after </head> go into the head. The spec pushes
 * the head back, inserts, and removes the head again; here the head goes back
 * on the stack marked removed, so it ends when the element put into it does. */
static void
reopen_head(fp_sim *s)
{
    s->open_bits[s->head] = FP_REMOVED;
    s->removed_open++;
    s->top = s->head;
    s->depth++;
}

/* "in frameset" / "after frameset": only frameset, frame and noframes count */
static int32_t
start_in_frameset(fp_sim *s, int tag, uint32_t lt, uint32_t gt)
{
    int open = open_of(s, FP_TAG_FRAMESET) >= 0 || s->ctx == FP_TAG_FRAMESET;
    if (tag == FP_TAG_NOFRAMES) {
        int32_t i = push(s, tag, 0, lt, gt);
        if (i >= 0)
            s->e[i].flags |= FP_EF_RAWTEXT;
        return i;
    }
    if (!open || (tag != FP_TAG_FRAMESET && tag != FP_TAG_FRAME))
        return -1;
    int32_t i = push(s, tag, 0, lt, gt);
    if (i >= 0 && tag == FP_TAG_FRAME)
        pop(s, FP_CLOSED_VOID, gt, gt);
    return i;
}

/* <head>: in body (the body may be implied: content came first), in a
 * template or after the head it is ignored. Out of line, as the other rare
 * start tags: start_html's hot path keeps fewer registers. */
static __attribute__((noinline)) int32_t
start_head(fp_sim *s, uint32_t lt, uint32_t gt)
{
    if (s->head >= 0 || s->body >= 0 || (s->ctx && s->ctx != FP_TAG_HTML) ||
        open_of(s, FP_TAG_TEMPLATE) >= 0 || s->implied_head_ended ||
        body_seen_before(s, s->doc->n))
        return -1;
    int32_t c = push(s, FP_TAG_HEAD, 0, lt, gt);
    s->head = c;
    s->head_open = c >= 0;
    s->watch_text = 1;
    return c;
}

static __attribute__((noinline)) int32_t
start_body(fp_sim *s, uint32_t lt, uint32_t gt)
{
    if (s->body >= 0 || (s->ctx && s->ctx != FP_TAG_HTML) || open_of(s, FP_TAG_TEMPLATE) >= 0)
        return -1;  /* a second <body> only adds attributes; a template holds none */
    if (s->head_open)
        close_until(s, s->head, FP_CLOSED_IMPLIED, lt, lt);
    s->body_seen = 1;   /* as body_seen_before would find: <body> is body content */
    int32_t c = push(s, FP_TAG_BODY, 0, lt, gt);
    /* Content came first and is still open (<div><body>): the spec implied
     * the body before it and ignores this tag but for its attributes. The
     * tag stays indexed (its attributes, doc.find("body")) as an empty
     * element, so what follows keeps its parents. */
    if (c >= 0 && s->e[c].parent >= 0 && s->e[c].parent != s->html)
        pop(s, FP_CLOSED_IMPLIED, gt, gt);
    return s->body = c;
}

static int32_t
start_html(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt)
{
    int32_t c;
    if (s->frameset_ok)
        frameset_check(s, t, tag, gt);
    switch (tag) {
    case FP_TAG_HTML:
        /* only the first thing indexed: any element before it implied the html
         * element, into which the spec merges this tag's attributes */
        if (s->html >= 0 || s->top >= 0 || s->ctx || s->doc->n > 0)
            return -1;
        return s->html = push(s, tag, 0, lt, gt);
    case FP_TAG_HEAD:
        return start_head(s, lt, gt);
    case FP_TAG_BODY:
        return start_body(s, lt, gt);
    case FP_TAG_FRAMESET:
        return start_frameset(s, tag, lt, gt);
    case FP_TAG_FRAME:
        return -1;  /* ignored outside a frameset */
    case FP_TAG_LI:
        c = open_of(s, FP_TAG_LI);
        if (c >= 0 && istack_top(s, FP_SC_SPECIAL_LI) <= c)
            close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_DD:
    case FP_TAG_DT:
        c = nearest(s, FP_TAG_DD, FP_TAG_DT);
        if (c >= 0 && istack_top(s, FP_SC_SPECIAL_LI) <= c)
            close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_BUTTON:
        c = open_of(s, FP_TAG_BUTTON);
        if (in_scope(s, c, FP_SC_DEFAULT))
            close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_A:
        /* an <a> still in the active formatting list (no marker since) is
         * closed by the adoption agency, when it is in scope */
        c = open_of(s, FP_TAG_A);
        if (c >= 0 && istack_top(s, FP_SC_MARKER) < c && in_scope(s, c, FP_SC_DEFAULT) &&
            !adopt(s, c, FP_CLOSED_IMPLIED, lt))
            close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_NOBR:
        c = open_of(s, FP_TAG_NOBR);
        if (in_scope(s, c, FP_SC_DEFAULT) && !adopt(s, c, FP_CLOSED_IMPLIED, lt))
            close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_FORM:
        if (s->form_ptr >= 0 && open_of(s, FP_TAG_TEMPLATE) < 0)
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
        if ((c = table_part_parent(s, tag)) == -2) {
            close_cell_and_row_of_ignored_part(s, tag, lt);
            return -1;
        }
        close_above(s, c, lt);
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
            close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
            return -1;
        }
        break;
    case FP_TAG_INPUT:
        /* in a select it closes the select first; the 2025 select parsing
         * kept this one of the old "in select" rules (not for <textarea> or
         * <keygen>, which now nest like any element) */
        c = open_of(s, FP_TAG_SELECT);
        if (in_scope(s, c, FP_SC_DEFAULT))
            close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        else if (c < 0 && s->ctx == FP_TAG_SELECT)
            return -1;
        break;
    case FP_TAG_HR:
        /* <hr> in a select closes an open option / optgroup */
        if (in_scope(s, open_of(s, FP_TAG_SELECT), FP_SC_DEFAULT))
            while (s->top >= 0 && (elem_flags(&s->e[s->top]) & FP_TF_IMPLIED_END) &&
                   !is_foreign(&s->e[s->top]))
                pop(s, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_OPTION:
    case FP_TAG_OPTGROUP:
        /* in a select: implied end tags (an <option> keeps an open optgroup);
         * elsewhere only an open <option> is closed */
        if (in_scope(s, open_of(s, FP_TAG_SELECT), FP_SC_DEFAULT)) {
            while (s->top >= 0 && !is_foreign(&s->e[s->top]) &&
                   (elem_flags(&s->e[s->top]) & FP_TF_IMPLIED_END) &&
                   !(tag == FP_TAG_OPTION && s->e[s->top].tag == FP_TAG_OPTGROUP))
                pop(s, FP_CLOSED_IMPLIED, lt, lt);
        } else if (s->top >= 0 && s->e[s->top].tag == FP_TAG_OPTION) {
            pop(s, FP_CLOSED_IMPLIED, lt, lt);
        }
        break;
    case FP_TAG_RB:
    case FP_TAG_RTC:
    case FP_TAG_RP:
    case FP_TAG_RT:
        if (in_scope(s, open_of(s, FP_TAG_RUBY), FP_SC_DEFAULT)) {
            while (s->top >= 0 && (elem_flags(&s->e[s->top]) & FP_TF_IMPLIED_END) &&
                   !((tag == FP_TAG_RP || tag == FP_TAG_RT) && s->e[s->top].tag == FP_TAG_RTC))
                pop(s, FP_CLOSED_IMPLIED, lt, lt);
        }
        break;
    default:
        break;
    }

    uint32_t f = fp_tag_flags(tag);
    if ((f & FP_TF_CLOSES_P) && !(tag == FP_TAG_TABLE && s->quirks))
        close_p_if_in_button_scope(s, lt);
    if ((f & FP_TF_HEADING) && s->top >= 0 && !is_foreign(&s->e[s->top]) &&
        (elem_flags(&s->e[s->top]) & FP_TF_HEADING))
        pop(s, FP_CLOSED_IMPLIED, lt, lt);

    if (tag == FP_TAG_SVG)
        return insert_foreign(s, t, tag, FP_EF_SVG, lt, gt);
    if (tag == FP_TAG_MATH)
        return insert_foreign(s, t, tag, FP_EF_MATHML, lt, gt);

    if (f & FP_TF_VOID) {   /* what a push and a pop would leave, without the stack traffic */
        int32_t v = append_element(s, tag, t->self_closing ? FP_EF_SOLIDUS : 0, FP_CLOSED_VOID, lt, gt);
        if (v >= 0 && s->removed_open)
            pop_removed(s, gt);   /* as pop() does: a <meta> after </head> ends the head it went into */
        return v;
    }
    int32_t i = push_inline(s, tag, 0, lt, gt);
    if (i < 0)
        return -1;
    if (tag == FP_TAG_FORM && open_of(s, FP_TAG_TEMPLATE) < 0)
        s->form_ptr = i;
    if (t->self_closing) {
        s->e[i].flags |= FP_EF_SOLIDUS;
        fp_sim_error(s, FP_ERR_NON_VOID_HTML_ELEMENT_START_TAG_WITH_TRAILING_SOLIDUS, lt);
    }
    if ((f & FP_TF_RAWTEXT) || (tag == FP_TAG_NOSCRIPT && s->doc->opts.scripting)) {
        s->e[i].flags |= FP_EF_RAWTEXT | ((f & FP_TF_RCDATA) ? FP_EF_RCDATA : 0);
    }
    return i;
}

/* "in table", "in table body", "in row" (13.2.6.4.9-13.2.6.4.14): what is not
 * a table part is foster-parented when the current node is a table element.
 * *done says the tag was fully handled here (result returned). */
static int32_t
start_in_table(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt, int *done)
{
    int32_t c;
    *done = 1;
    switch (tag) {
    case FP_TAG_CAPTION: case FP_TAG_COLGROUP: case FP_TAG_TBODY: case FP_TAG_THEAD:
    case FP_TAG_TFOOT: case FP_TAG_TR: case FP_TAG_TD: case FP_TAG_TH: case FP_TAG_COL:
    case FP_TAG_STYLE: case FP_TAG_SCRIPT: case FP_TAG_TEMPLATE:
        *done = 0;
        return -1;
    case FP_TAG_TABLE:
        /* a table start tag closes the open table, then starts a new one */
        c = open_of(s, FP_TAG_TABLE);
        if (!in_scope(s, c, FP_SC_TABLE))
            return -1;
        close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        return fp_sim_start(s, t, tag, lt, gt);
    case FP_TAG_FORM:
        /* a form in a table is an empty element (its end tag is ignored) */
        if (s->form_ptr >= 0 || open_of(s, FP_TAG_TEMPLATE) >= 0)
            return -1;
        c = push(s, tag, 0, lt, gt);
        if (c >= 0) {
            s->form_ptr = c;
            pop(s, FP_CLOSED_IMPLIED, gt, gt);
        }
        return c;
    case FP_TAG_INPUT:
        if (input_is_hidden(t, s->doc->buf + gt)) {
            *done = 0;
            return -1;
        }
        break;
    default:
        break;
    }
    /* decided where it lands: the implied ends of start_html (a second <li>
     * closing the first) can leave a table part as the current node */
    c = start_html(s, t, tag, lt, gt);
    if (c >= 0 && is_table_target(s, s->e[c].parent)) {
        /* its tree parent is the table's parent: depth follows it (its
         * children, pushed later, follow its depth) */
        s->e[c].flags |= FP_EF_FOSTERED;
        int32_t dp = fp_dom_parent(s->doc, (uint32_t)c);
        s->e[c].depth = dp >= 0 ? (uint16_t)(s->e[dp].depth + 1) : 0;
    }
    return c;
}

static int body_seen_before(fp_sim *s, uint32_t i);
static int in_head_position(const fp_sim *s, uint32_t i);

/* The current node is an HTML colgroup ("in column group"): anything but
 * whitespace, <col> and a template ends it */
static int
in_column_group(const fp_sim *s)
{
    return s->top >= 0 && s->e[s->top].tag == FP_TAG_COLGROUP && !is_foreign(&s->e[s->top]);
}

static int
is_head_tag(int tag)
{
    return (fp_tag_flags(tag) & FP_TF_HEAD) != 0;
}

static void
update_watch(fp_sim *s)
{
    s->watch_text = s->head_open || s->body_end_pending || s->html_end_pending || s->frameset_ok ||
                    s->head_noscript >= 0 || s->after_head || in_column_group(s);
}

/* Everything but the common case: fragment contexts, frameset, foreign
 * content, head handling, the table / column group / template modes. */
static int32_t
start_slow(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt)
{
    if (s->in_frameset)
        return start_in_frameset(s, tag, lt, gt);

    /* foreign content: tags stay in the svg/math namespace unless they break out */
    int cur_tag = s->top >= 0 ? s->e[s->top].tag : s->ctx;   /* the adjusted current node */
    uint8_t cur_flags = s->top >= 0 ? s->e[s->top].flags : (uint8_t)(s->ctx_ns | s->ctx_ip);
    if (!html_rules_at(cur_tag, cur_flags, tag)) {
        uint32_t f = fp_tag_flags(tag);
        if ((f & FP_TF_BREAKOUT) ||
            (tag == FP_TAG_FONT && has_font_breakout_attr(t, s->doc->buf + gt))) {
            while (s->top >= 0 && is_foreign(&s->e[s->top]) &&
                   !(s->e[s->top].flags & (FP_EF_HTML_IP | FP_EF_TEXT_IP)))
                pop(s, FP_CLOSED_IMPLIED, lt, lt);
        } else {
            /* the adjusted current node's namespace, even for <svg>: in MathML
             * outside annotation-xml and the text integration points (which
             * html_rules_at sends to the HTML rules) it makes a MathML svg */
            return insert_foreign(s, t, tag, cur_flags & (FP_EF_SVG | FP_EF_MATHML), lt, gt);
        }
    }

    if (tag == FP_TAG_IMAGE)
        tag = FP_TAG_IMG;  /* "Don't ask." — the HTML Standard (in HTML content only) */

    /* "in head noscript": anything but a few head tags ends the noscript */
    if (s->head_noscript >= 0 && s->top == s->head_noscript) {
        if (tag == FP_TAG_NOSCRIPT || tag == FP_TAG_HEAD)
            return -1;
        if (tag != FP_TAG_BASEFONT && tag != FP_TAG_BGSOUND && tag != FP_TAG_LINK && tag != FP_TAG_META &&
            tag != FP_TAG_NOFRAMES && tag != FP_TAG_STYLE && tag != FP_TAG_HTML)
            pop(s, FP_CLOSED_IMPLIED, lt, lt);
    }

    if (s->head_open && !is_head_tag(tag) && tag != FP_TAG_HEAD && tag != FP_TAG_HTML &&
        open_of(s, FP_TAG_TEMPLATE) < s->head)
        close_until(s, s->head, FP_CLOSED_IMPLIED, lt, lt);

    int32_t i;
    int32_t m = istack_top(s, FP_SC_MODE);
    int mode = mode_at(s, m);
    /* "in template": head content keeps the mode, but for <noscript>, which is
     * "any other start tag" there */
    if (mode == FP_MODE_TEMPLATE && (!is_head_tag(tag) || tag == FP_TAG_NOSCRIPT)) {
        mode = template_mode_for(tag);
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
        i = start_in_table(s, t, tag, lt, gt, &done);
        break;
    case FP_MODE_COLGROUP:
        if (tag == FP_TAG_COL || tag == FP_TAG_TEMPLATE)
            break;
        done = 1;
        i = -1;
        if (m >= 0 && s->e[m].tag == FP_TAG_COLGROUP && s->top == m) {
            pop(s, FP_CLOSED_IMPLIED, lt, lt);   /* anything else ends the column group */
            i = fp_sim_start(s, t, tag, lt, gt);
        }
        break;
    default:
        break;
    }
    if (!done)
        i = start_html(s, t, tag, lt, gt);
    if (i >= 0 && tag == FP_TAG_NOSCRIPT && !s->doc->opts.scripting && s->body < 0 &&
        (!s->ctx || s->ctx == FP_TAG_HTML) &&   /* an html context starts before the head */
        in_head_position(s, (uint32_t)i) && !body_seen_before(s, (uint32_t)i)) {
        s->head_noscript = i;
        s->watch_text = 1;
    }
    return i;
}

/* Element i sits where head content goes: in the open head, or, before any
 * head, at the top level or in <html> (not in a template, whose content is
 * body content) */
static int
in_head_position(const fp_sim *s, uint32_t i)
{
    int32_t p = s->e[i].parent;
    if (s->head_open)
        return p == s->head;
    return s->head < 0 && (p < 0 || s->e[p].tag == FP_TAG_HTML);
}

/* Whether an element that belongs in body (not html, head, a head tag or
 * template content) starts before element i, or body text was seen. Scans
 * each element once; a template's content is stepped over as a range (all
 * that was indexed after it while it is still open). */
static int
body_seen_before(fp_sim *s, uint32_t i)
{
    while (!s->body_seen && s->seen_upto < i) {
        if (s->tmpl_skip >= 0) {
            int32_t t = s->tmpl_skip;
            uint32_t past = s->open_bits[t] ? i : s->e[t].last + 1;
            if (s->seen_upto < past)
                s->seen_upto = past;
            else
                s->tmpl_skip = -1;
            continue;
        }
        const fp_elem *e = &s->e[s->seen_upto];
        if (e->tag == FP_TAG_TEMPLATE && !is_foreign(e))
            s->tmpl_skip = (int32_t)s->seen_upto;
        else if (!is_head_tag(e->tag) && e->tag != FP_TAG_HTML && e->tag != FP_TAG_HEAD)
            s->body_seen = 1;
        s->seen_upto++;
    }
    return s->body_seen;
}

/* Text, an ignored start tag, a </body> or </html> at offset `at` began the
 * body: what comes next is body content, head tags included (a <frameset>
 * removes them with it), and "after head" is over. */
static void
begin_body(fp_sim *s, uint32_t at)
{
    if (!s->body_seen) {
        s->body_from = s->doc->n;
        s->body_at = at;
    }
    s->body_seen = 1;
    if (s->after_head) {
        s->after_head = 0;
        update_watch(s);
    }
}

/* <td>/<th>/<tr> when the topmost mode element m is a row or cell: the
 * table_part_parent fast path without the rest of start_html */
static int32_t
start_row_or_cell(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt, int32_t m)
{
    /* m is the topmost mode element, an HTML tr, td or th: a cell's row is its parent */
    int32_t c = -3, row = s->e[m].tag == FP_TAG_TR ? m : s->e[m].parent;
    if (row >= 0 && s->e[row].tag == FP_TAG_TR && !is_foreign(&s->e[row])) {
        if (tag != FP_TAG_TR) {
            c = row;
        } else {
            int32_t sec = s->e[row].parent;
            int st = sec >= 0 ? s->e[sec].tag : 0;
            if (st == FP_TAG_TBODY || st == FP_TAG_THEAD || st == FP_TAG_TFOOT || st == FP_TAG_TABLE)
                c = sec;
        }
    }
    if (c == -3 && (c = table_part_parent(s, tag)) == -2) {
        close_cell_and_row_of_ignored_part(s, tag, lt);
        return -1;
    }
    close_above(s, c, lt);
    int32_t i = push_inline(s, tag, 0, lt, gt);
    if (i >= 0 && t->self_closing) {
        s->e[i].flags |= FP_EF_SOLIDUS;
        fp_sim_error(s, FP_ERR_NON_VOID_HTML_ELEMENT_START_TAG_WITH_TRAILING_SOLIDUS, lt);
    }
    return i;
}

/* A start tag under the HTML5 rules (every recovery but FP_RECOVERY_NONE). */
static inline __attribute__((always_inline)) int32_t
start_recovered(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt)
{
    s->body_end_pending = s->html_end_pending = 0;
    if (s->after_head) {
        if (is_head_tag(tag) && tag != FP_TAG_NOSCRIPT && s->top == s->e[s->head].parent) {
            reopen_head(s);   /* still "after head" once that element is in */
        } else if (tag != FP_TAG_HEAD && tag != FP_TAG_HTML) {   /* those two are ignored there */
            s->after_head = 0;
            update_watch(s);
        }
    }

    /* the common cases: an HTML current node, in body or in a cell; a row or
     * cell next to an open row or cell */
    int32_t top = s->top, m = istack_top(s, FP_SC_MODE);
    if (top < 0 || is_foreign(&s->e[top]) || s->in_frameset || s->head_open || s->head_noscript >= 0 ||
        s->ctx || tag == FP_TAG_IMAGE || tag == FP_TAG_NOSCRIPT)
        return start_slow(s, t, tag, lt, gt);
    if (m < 0 || tmpl_mode(s, m) == FP_MODE_CELL) {
        if ((tag == FP_TAG_TD || tag == FP_TAG_TH || tag == FP_TAG_TR) && m >= 0)
            return start_row_or_cell(s, t, tag, lt, gt, m);
        return start_html(s, t, tag, lt, gt);
    }
    if ((tag == FP_TAG_TD || tag == FP_TAG_TH || tag == FP_TAG_TR) && s->e[m].tag == FP_TAG_TR)
        return start_row_or_cell(s, t, tag, lt, gt, m);
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
    int in_template = open_of(s, FP_TAG_TEMPLATE) >= 0;   /* its content is not the body's */
    if (s->implied_head_ended && !in_template && tag != FP_TAG_HTML && tag != FP_TAG_HEAD &&
        (tag == FP_TAG_NOSCRIPT || !is_head_tag(tag)))
        begin_body(s, lt);
    /* "in head noscript" ignores a <noscript> and stays where it is */
    int ignored_here = tag == FP_TAG_NOSCRIPT && s->head_noscript >= 0 && s->top == s->head_noscript;
    int32_t i = start_recovered(s, t, tag, lt, gt);
    if (i < 0 && !s->status && tag != FP_TAG_HTML && tag != FP_TAG_HEAD && !s->in_frameset &&
        !in_template && !ignored_here)
        begin_body(s, lt);
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
        int32_t i = push(s, tag, 0, lt, gt);
        if (i >= 0 && (fp_tag_flags(tag) & FP_TF_VOID))
            pop(s, FP_CLOSED_VOID, gt, gt);
        else if (i >= 0 && t->self_closing)
            pop(s, FP_CLOSED_SELF_CLOSING, gt, gt);
        else if (i >= 0 && (fp_tag_flags(tag) & FP_TF_RAWTEXT))
            s->e[i].flags |= FP_EF_RAWTEXT | ((fp_tag_flags(tag) & FP_TF_RCDATA) ? FP_EF_RCDATA : 0);
        return i;
    }

    if (!s->body_seen)
        return start_before_body(s, t, tag, lt, gt);
    return start_recovered(s, t, tag, lt, gt);
}

/* ---- end tags ---- */

/* In foreign content an end tag closes the nearest open element of that name
 * when only foreign elements lie above it (13.2.6.5, "any other end tag"). */
static int
end_foreign(fp_sim *s, int tag, uint32_t lt, uint32_t gt)
{
    int32_t t = open_of(s, tag);
    if (t < 0 || !is_foreign(&s->e[t]))
        return 0;
    uint32_t above = s->depth - s->open_depth[t] - 1;
    if (s->open_foreign - s->foreign_below[t] != above)
        return 0;
    close_until(s, t, FP_CLOSED_END_TAG, lt, gt);
    return 1;
}

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
 * boundary; an indexed one is the stack's first. */
static int
implied_body_in_scope(fp_sim *s)
{
    return open_of(s, FP_TAG_BODY) < 0 && !s->ctx && !s->in_frameset &&
           body_seen_before(s, s->doc->n) && istack_top(s, FP_SC_DEFAULT) <= s->html;
}

/* No <head> is indexed and no body content came yet: the spec's implied head
 * (or the "before head" mode, which implies it) is current. */
static int
implied_head_open(fp_sim *s)
{
    return s->head < 0 && !s->implied_head_ended && !s->ctx && !s->in_frameset &&
           !body_seen_before(s, s->doc->n);   /* a <body> tag counts as body content */
}

/* A "</p>" with no <p> in button scope: the modes before the body and
 * "in template" ignore it (13.2.6.4.3-6, .18). */
static int
ignores_end_p(fp_sim *s)
{
    if (open_html_of(s, FP_TAG_TEMPLATE) >= 0)   /* its content has modes of its own */
        return mode_at(s, istack_top(s, FP_SC_MODE)) == FP_MODE_TEMPLATE;
    /* in the head, after it, or no head indexed and no body content yet (before
     * html or head, in or after the implied head) */
    return (s->head_open && s->top == s->head) || s->after_head ||
           (s->head < 0 && !s->ctx && !body_seen_before(s, s->doc->n));
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

void
fp_sim_end(fp_sim *s, int tag, uint32_t lt, uint32_t gt)
{
    s->attr_bits = 0;   /* "</br>" makes a <br> without attributes */
    if (tag < 0) {
        fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        return;
    }
    int32_t t = open_of(s, tag);
    if (tag != FP_TAG_BODY && tag != FP_TAG_HTML)
        s->body_end_pending = s->html_end_pending = 0;  /* "after body": back to "in body" */

    if (s->doc->opts.recovery == FP_RECOVERY_NONE) {
        if (t >= 0)
            close_until(s, t, FP_CLOSED_END_TAG, lt, gt);
        else
            fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        return;
    }

    if (s->in_frameset) {
        /* "in frameset": only </frameset> closes something */
        if (tag == FP_TAG_FRAMESET && s->top >= 0 && s->e[s->top].tag == FP_TAG_FRAMESET)
            pop(s, FP_CLOSED_END_TAG, lt, gt);
        else if (tag == FP_TAG_HTML && t >= 0) {
            s->html_end_pending = 1;
            s->html_end_lt = lt;
            s->html_end_gt = gt;
        } else
            fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        update_watch(s);
        return;
    }

    if (s->top >= 0 && is_foreign(&s->e[s->top])) {
        if (tag == FP_TAG_BR || tag == FP_TAG_P) {
            while (s->top >= 0 && is_foreign(&s->e[s->top]) &&
                   !(s->e[s->top].flags & (FP_EF_HTML_IP | FP_EF_TEXT_IP)))
                pop(s, FP_CLOSED_IMPLIED, lt, lt);
        } else if (end_foreign(s, tag, lt, gt)) {
            /* an svg/math <body> or <html> closed after "</body>": the body goes
             * on to the end, not to that end tag (its children end later) */
            s->body_end_pending = s->html_end_pending = 0;
            update_watch(s);
            return;
        }
    }
    if (t >= 0 && is_foreign(&s->e[t]))
        t = -1;  /* an HTML end tag does not close an svg/math element of the same name */
    if (in_column_group(s) && tag != FP_TAG_COLGROUP && tag != FP_TAG_COL && tag != FP_TAG_TEMPLATE)
        pop(s, FP_CLOSED_IMPLIED, lt, lt);  /* "in column group", anything else: the colgroup
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
        if (!s->ctx && !s->in_frameset && s->body < 0 && open_of(s, FP_TAG_TEMPLATE) < 0)
            begin_body(s, lt);   /* "after head" acts as for anything else: a <meta> now is body content */
        int implied = implied_body_in_scope(s);
        if (tag == FP_TAG_BODY && (in_scope(s, open_of(s, FP_TAG_BODY), FP_SC_DEFAULT) || implied)) {
            /* a </body> after </html> goes back to "in body" (13.2.6.4.23): that
             * </html> ends nothing, or the html element would end before its body */
            s->html_end_pending = 0;
            s->body_end_pending = 1;
            s->body_end_lt = lt;
            s->body_end_gt = gt;
        } else if (tag == FP_TAG_HTML && open_of(s, FP_TAG_HTML) >= 0) {
            s->html_end_pending = 1;
            s->html_end_lt = lt;
            s->html_end_gt = gt;
        } else if (!implied) {
            fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        }
        if (s->head_open && s->top == s->head)
            close_until(s, s->head, FP_CLOSED_IMPLIED, lt, lt);
        update_watch(s);
        return;
    }
    case FP_TAG_HEAD:
        if (s->head_open && s->top == s->head) {
            pop(s, FP_CLOSED_END_TAG, lt, gt);
            s->after_head = !s->body_seen && s->body < 0 && !s->ctx;
        } else if (implied_head_open(s) && s->top == s->html) {
            s->implied_head_ended = 1;   /* "after head": a <noscript> now is body content */
        } else
            fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        update_watch(s);
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
                    pop(s, FP_CLOSED_END_TAG, gt, gt);
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
        if (open_of(s, FP_TAG_TEMPLATE) < 0) {
            /* the form element pointer, not the stack, says which form ends;
             * elements open inside it stay open */
            int32_t node = s->form_ptr;
            s->form_ptr = -1;
            if (node != t || !in_scope(s, t, FP_SC_DEFAULT)) {
                fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
                return;
            }
            while (s->top != t && !is_foreign(&s->e[s->top]) &&
                   (elem_flags(&s->e[s->top]) & FP_TF_IMPLIED_END))
                pop(s, FP_CLOSED_IMPLIED, lt, lt);
            if (s->top == t)
                pop(s, FP_CLOSED_END_TAG, lt, gt);
            else
                remove_from_stack(s, t, lt, gt);
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
            if (t < 0 && (tag == FP_TAG_TR || tag == FP_TAG_TBODY) && (t = implied_part_end(s, tag)) >= 0) {
                close_until(s, t, FP_CLOSED_PARENT_END, lt, lt);
                return;
            }
        } else if (f & FP_TF_SPECIAL) {
            if (!in_scope(s, t, FP_SC_DEFAULT))
                t = -1;
        } else if (f & FP_TF_FORMATTING) {
            /* adoption agency without clones (see adopt), else close the
             * formatting element and what it contains */
            if (!in_scope(s, t, FP_SC_DEFAULT))
                t = -1;   /* a select opened inside it is a scope boundary (2025 select parsing) */
            else if (istack_top(s, FP_SC_SPECIAL) > t && adopt(s, t, FP_CLOSED_END_TAG, lt)) {
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
    close_until(s, t, FP_CLOSED_END_TAG, lt, gt);
}

void
fp_sim_end_current(fp_sim *s, uint32_t lt, uint32_t gt)
{
    /* Nothing is open above the current node, so every scope check of
     * fp_sim_end passes: an HTML element whose end tag only closes it is
     * popped here; the rest take the long way. */
    fp_elem *el = &s->e[s->top];
    if (!is_foreign(el) && !s->in_frameset && closes_plainly(el->tag)) {
        s->body_end_pending = s->html_end_pending = 0;  /* "after body": back to "in body" */
        pop_inline(s, FP_CLOSED_END_TAG, lt, gt);
        return;
    }
    fp_sim_end(s, el->tag, lt, gt);
}

void
fp_sim_close_top(fp_sim *s, uint32_t lt, uint32_t gt)
{
    pop(s, FP_CLOSED_END_TAG, lt, gt);
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

/* Text matters to nesting in three places here: non-whitespace text in <head>
 * or a <colgroup> closes it, and text after </body> reopens the body.
 * refs: the text decodes character references (not CDATA). */
void
fp_sim_text(fp_sim *s, const uint8_t *p, const uint8_t *q, int refs)
{
    p = skip_space(p, q, refs, 0);
    if (p == q)
        return;
    uint32_t at = (uint32_t)(p - s->doc->buf);
    if (s->head_noscript >= 0 && s->top == s->head_noscript)
        pop(s, FP_CLOSED_IMPLIED, at, at);   /* "in head noscript": text ends it, and the head */
    if (s->head_open && s->top == s->head)
        close_until(s, s->head, FP_CLOSED_IMPLIED, at, at);
    if (in_column_group(s))
        pop(s, FP_CLOSED_IMPLIED, at, at);   /* anything else ends it */
    /* U+0000 NULL is dropped in body (U+FFFD in foreign content): neither clears frameset-ok */
    if (s->frameset_ok && skip_space(p, q, refs, 1) < q)
        s->frameset_ok = 0;
    begin_body(s, at);
    s->body_end_pending = s->html_end_pending = 0;
    update_watch(s);
}

/* text_end: where content stops — the end of input, or the '<' of a tag cut
 * off by the end of input (that tag belongs to no element). */
void
fp_sim_eof(fp_sim *s, uint32_t text_end)
{
    if (s->body_end_pending && open_of(s, FP_TAG_BODY) >= 0)
        close_until(s, open_of(s, FP_TAG_BODY), FP_CLOSED_END_TAG, s->body_end_lt, s->body_end_gt);
    if (s->html_end_pending && open_of(s, FP_TAG_HTML) >= 0)
        close_until(s, open_of(s, FP_TAG_HTML), FP_CLOSED_END_TAG, s->html_end_lt, s->html_end_gt);
    while (s->top >= 0)
        pop(s, FP_CLOSED_EOF, text_end, text_end);
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
    update_watch(s);
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
