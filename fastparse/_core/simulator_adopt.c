/* simulator_adopt.c — elements that leave the open-element stack out of
 * order: the adoption agency for misnested formatting elements (13.2.6.4.7,
 * "in body", any other end tag, and <a> / <nobr> start tags), without the
 * clones it makes, and </form>, which removes the form from the middle.
 *
 * For a formatting element fe with a "furthest block" fb (the first special
 * element opened inside it), the spec moves fb out of fe to fe's parent and
 * clones the formatting elements into it. The flat index moves fb the same
 * way, without clones: fe and the elements between it and fb end where fb
 * starts (fe.last = fb - 1), fb's parent becomes fe's parent, and fb's
 * subtree moves up. fb's subtree is the tail of the index (fb is open), so
 * ranges stay contiguous. Its depths are rewritten: a parse may rewrite as
 * many as twice its input's bytes (plus 64 Ki), which keeps it linear when a
 * page misnests one large block under many formatting elements; past that,
 * or when something in between is a boundary or foreign, fe closes what it
 * contains, as before. A fostered fe's fb is fostered as well (the spec
 * inserts it at the table's "appropriate place").
 * The spec then runs again (its outer loop, 8 rounds at most) for the clone
 * of fe it put into fb, which holds what was open inside fb: with no special
 * element among that, the round pops it all; a special one moves up into fb
 * as fb did out of fe's parent. */
#include <string.h>

#include "simulator_internal.h"

#define FP_ADOPT_ROUNDS 8

/* The first special element opened after x and still open, -1 when there is
 * none: a binary search of the special stack, which holds indices in order. */
static int32_t
special_after(const fp_sim *s, int32_t x)
{
    const fp_istack *st = &s->sc[FP_SC_SPECIAL];
    uint32_t lo = 0, hi = st->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (st->items[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo < st->n ? st->items[lo] : -1;
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
void
fp_sim_remove_from_stack(fp_sim *s, int32_t x, uint32_t lt, uint32_t gt)
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
    return !fp_foreign(el) && (fp_tag_flags(el->tag) & FP_TF_FORMATTING);
}

/* ---- formatting elements closed by another element's end ----
 * The list of active formatting elements keeps a formatting element that an
 * enclosing element's end closed ("<b><p><b></p>"): the adoption agency for a
 * later </b> takes the last <b> of the list, that one, and as it is not open,
 * only removes it and ignores the tag, so the outer <b> stays open (13.2.6.4.7,
 * step 4.4; html5lib-tests tests1.dat #54). The index keeps no list: these
 * "ghosts" are the entries that matter, those not open. The list is cleared
 * to its last marker when a cell, caption, template, applet, object or marquee
 * ends: a ghost is gone once the innermost of those open when it closed has
 * ended. The reconstruction that would clone a ghost into what follows makes
 * no element (clones are not indexed). */

static int
ghost_kept(const fp_sim *s, const fp_ghost *g)
{
    return g->marker < 0 || s->e[g->marker].closed == FP_CLOSED_EOF;   /* FP_CLOSED_EOF until popped */
}

static void
ghost_drop(fp_sim *s, uint32_t k)
{
    s->ghosts[k] = s->ghosts[--s->nghosts];
}

/* the names of those left, after drops */
static void
ghost_tags_again(fp_sim *s)
{
    s->ghost_tags = 0;
    for (uint32_t k = 0; k < s->nghosts; k++)
        s->ghost_tags |= ghost_tag_bit(s->e[s->ghosts[k].elem].tag);
}

/* Whether element a's start tag has attribute `at` of element b's, by name
 * (ASCII case folded) and value as written: the first of a name counts */
static int
has_same_attribute(const fp_doc *d, uint32_t a, const fp_attr *at)
{
    uint32_t cursor = 0;
    fp_attr x;
    while (fp_attr_next(d, a, &cursor, &x)) {
        if (x.name_len != at->name_len)
            continue;
        const uint8_t *p = d->buf + x.name_start, *q = d->buf + at->name_start;
        size_t i = 0;
        while (i < x.name_len && fp_lower(p[i]) == fp_lower(q[i]))
            i++;
        if (i == x.name_len)
            return x.value_len == at->value_len &&
                   memcmp(d->buf + x.value_start, d->buf + at->value_start, x.value_len) == 0;
    }
    return 0;
}

/* Noah's Ark's "same attributes" (13.2.4.3), as written in the source (a
 * reference and its character differ): each of a's is b's and each of b's a's */
static int
same_attributes(const fp_doc *d, uint32_t a, uint32_t b)
{
    uint32_t cursor = 0;
    fp_attr at;
    while (fp_attr_next(d, a, &cursor, &at))
        if (!has_same_attribute(d, b, &at))
            return 0;
    for (cursor = 0; fp_attr_next(d, b, &cursor, &at);)
        if (!has_same_attribute(d, a, &at))
            return 0;
    return 1;
}

/* Noah's Ark: pushing an element, the list keeps at most three alike (name,
 * namespace, attributes) after its last marker, the earliest going first. Of
 * ghosts x's kind, three stay: an open element alike, earlier than they are,
 * went first ("<b>0<p><b>1</p><p><b>2</p>..." x 5: three </b> find ghosts,
 * the fourth closes the first <b>). */
static void
ghost_keep_three(fp_sim *s, int32_t x)
{
    int32_t marker = istack_top(s, FP_SC_MARKER);
    uint32_t alike = 0, earliest = 0;
    for (uint32_t k = 0; k < s->nghosts; k++) {
        int32_t g = s->ghosts[k].elem;
        if (s->e[g].tag != s->e[x].tag || g < marker || !ghost_kept(s, &s->ghosts[k]))
            continue;
        if (++alike > 3)
            break;
    }
    if (alike <= 3)
        return;   /* fewer of the name: no attributes compared */
    alike = 0;
    for (uint32_t k = 0; k < s->nghosts; k++) {
        int32_t g = s->ghosts[k].elem;
        if (s->e[g].tag != s->e[x].tag || g < marker || !ghost_kept(s, &s->ghosts[k]) ||
            !same_attributes(s->doc, (uint32_t)g, (uint32_t)x))
            continue;
        if (alike++ == 0 || g < s->ghosts[earliest].elem)
            earliest = k;
    }
    if (alike > 3)
        ghost_drop(s, earliest);
}

/* x, the current node, is about to be closed by the end of an element it is in */
void
fp_sim_ghost_add(fp_sim *s, int32_t x)
{
    if (!is_formatting(&s->e[x]))
        return;
    if (s->nghosts == FP_GHOSTS_MAX) {
        for (uint32_t k = s->nghosts; k-- > 0;)
            if (!ghost_kept(s, &s->ghosts[k]))
                ghost_drop(s, k);
        ghost_tags_again(s);
    }
    if (s->nghosts < FP_GHOSTS_MAX) {
        s->ghosts[s->nghosts++] = (fp_ghost){x, istack_top(s, FP_SC_MARKER)};
        s->ghost_tags |= ghost_tag_bit(s->e[x].tag);
        ghost_keep_three(s, x);
    }
}

/* The end tag of a formatting element, or an <a> start tag, whose last entry
 * in the list after its last marker is a ghost, newer than `open` (the open
 * element of that name, -1): 1, with the ghost removed from the list, when
 * that is so and the tag is to do nothing more. */
int
fp_sim_ghost_takes(fp_sim *s, int tag, int32_t open)
{
    int32_t newest = -1;
    uint32_t before = s->nghosts;
    for (uint32_t k = s->nghosts; k-- > 0;) {
        const fp_ghost *g = &s->ghosts[k];
        if (!ghost_kept(s, g))
            ghost_drop(s, k);   /* all that are gone, while here; what moves into k was looked at */
        else if (s->e[g->elem].tag == tag && !fp_foreign(&s->e[g->elem]) && g->elem > newest)
            newest = g->elem;
    }
    int takes = newest >= 0 && newest > open && newest > istack_top(s, FP_SC_MARKER);
    for (uint32_t k = 0; takes && k < s->nghosts; k++)
        if (s->ghosts[k].elem == newest) {
            ghost_drop(s, k);
            break;
        }
    if (s->nghosts != before)
        ghost_tags_again(s);
    return takes;
}

/* Moves the open element b up to be a child of its open ancestor anc (-1:
 * top level), in the place of anc's child it was under (fostered when that
 * one was): the elements between them end where b starts, the outermost
 * still on the stack as `closed`, the rest as parent-end; one a </form> took
 * off the stack (the spec's common ancestor is below it) keeps its end tag's
 * `closed`. 0, with nothing changed, when one of them is a boundary or
 * foreign, or the parse's budget of rewritten depths is spent (b's subtree
 * is the tail of the index). */
static int
lift(fp_sim *s, int32_t anc, int32_t b, uint8_t closed)
{
    const uint16_t boundary = (1u << FP_SC__COUNT) - 1;
    int32_t child = b;   /* anc's child on the way up: b's place */
    int32_t outer = -1;  /* the outermost of them on the stack */
    uint64_t cost = s->doc->n - (uint32_t)b;
    for (int32_t x = s->e[b].parent; x != anc; x = s->e[x].parent) {
        if (x < 0 || (s->open_bits[x] & boundary) || fp_foreign(&s->e[x]))
            return 0;
        child = x;
        cost++;
        if (!(s->open_bits[x] & FP_REMOVED))
            outer = x;
    }
    if (cost > s->adopt_budget)
        return 0;
    s->adopt_budget -= cost;
    uint32_t at = s->e[b].start;
    uint16_t delta = (uint16_t)(s->e[b].depth - s->e[child].depth);
    for (int32_t x = s->e[b].parent; x != anc; x = s->e[x].parent) {  /* top down: each unlink is O(1) */
        fp_elem *el = &s->e[x];
        el->last = (uint32_t)b - 1;
        el->inner_end = el->end = at;   /* a removed one's content too: past its end tag, or
                                         * before it when b's subtree holds the end tag */
        if (s->open_bits[x] & FP_REMOVED) {
            s->open_bits[x] = 0;   /* as fp_sim_pop_removed ends it */
            s->removed_open--;
            continue;
        }
        el->closed = x == outer ? closed : FP_CLOSED_PARENT_END;
        unlink_same(s, x);
    }
    s->e[b].parent = anc;
    s->e[b].flags |= s->e[child].flags & FP_EF_FOSTERED;
    for (uint32_t k = (uint32_t)b; delta && k < s->doc->n; k++)
        s->e[k].depth = (uint16_t)(s->e[k].depth - delta);
    s->depth -= delta;
    return 1;
}

/* The adoption agency for formatting element fe, which ends as `closed`, run
 * for a tag at offset `at`: 1 when it moved a furthest block out of fe; 0
 * (nothing done) when fe has none or it cannot be moved, and the caller
 * closes fe with what it contains. */
int
fp_sim_adopt(fp_sim *s, int32_t fe, uint8_t closed, uint32_t at)
{
    if (istack_top(s, FP_SC_SPECIAL) < fe)
        return 0;   /* no special element inside: the common case, no block to move */
    int32_t fb = special_after(s, fe);
    int32_t anc = s->e[fe].parent;   /* the common ancestor: the element below fe on the stack */
    while (anc >= 0 && (s->open_bits[anc] & FP_REMOVED))
        anc = s->e[anc].parent;
    if (fb < 0 || !lift(s, anc, fb, closed))
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
                    fp_sim_pop(s, FP_CLOSED_PARENT_END, at, at);
            break;
        }
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
