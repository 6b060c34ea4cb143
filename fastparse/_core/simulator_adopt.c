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

/* Moves the open element b up to be a child of its open ancestor anc (-1:
 * top level), in the place of anc's child it was under (fostered when that
 * one was): the elements between them end where b starts, the outermost
 * still on the stack as `closed`, the rest as parent-end; one a </form> took
 * off the stack (the spec's common ancestor is below it) keeps its end tag's
 * `closed`. The spec's inner loop counts what is between b and formatting
 * element fe (ghost `clone`'s clone when that is not NULL), up from b: the
 * formatting elements and open clones among the first three it counts it
 * clones into a wrapper of b; each element of them ends here, and stays in
 * the list with its clone open (simulator_ghosts.c); the clones further down
 * leave the list. 0, with nothing changed, when one of the elements is a
 * boundary or foreign, or the parse's budget of rewritten depths is spent
 * (b's subtree is the tail of the index). */
static int
lift(fp_sim *s, int32_t anc, int32_t b, uint8_t closed, int32_t fe, const fp_ghost *clone)
{
    const uint16_t boundary = (1u << FP_SC__COUNT) - 1;
    uint8_t between[FP_GHOSTS_MAX];   /* the clones between, innermost first */
    int32_t on[FP_GHOSTS_MAX];        /* ... the element each is on */
    int counted[FP_GHOSTS_MAX];       /* ... and its inner loop count */
    uint32_t nbetween = 0, j = 0;
    if (s->nghosts) {
        nbetween = fp_sim_clones_between(s, clone ? anc + 1 : fe, b, clone, between);
        for (uint32_t k = 0; k < nbetween; k++)
            on[k] = s->ghosts[between[k]].under;
    }
    int32_t child = b;   /* anc's child on the way up: b's place */
    int32_t outer = -1;  /* the outermost of them on the stack */
    int count = 0;
    uint64_t cost = s->doc->n - (uint32_t)b;
    for (int32_t x = s->e[b].parent; x != anc; x = s->e[x].parent) {
        if (x < 0 || (s->open_bits[x] & boundary) || fp_foreign(&s->e[x]))
            return 0;
        for (; j < nbetween && on[j] >= x; j++)
            counted[j] = ++count;   /* the clones on x are above it */
        child = x;
        cost++;
        if (!(s->open_bits[x] & FP_REMOVED)) {
            outer = x;
            count++;
        }
    }
    for (; j < nbetween; j++)
        counted[j] = ++count;   /* on anc, inside fe's clone */
    if (cost > s->adopt_budget)
        return 0;
    s->adopt_budget -= cost;
    if (nbetween)
        fp_sim_clones_wrap(s, between, counted, nbetween, anc, (uint32_t)b);
    uint32_t at = s->e[b].start;
    uint16_t delta = (uint16_t)(s->e[b].depth - s->e[child].depth);
    int above = 0;   /* the spec's inner loop counter */
    j = 0;
    for (int32_t x = s->e[b].parent; x != anc; x = s->e[x].parent) {  /* top down: each unlink is O(1) */
        fp_elem *el = &s->e[x];
        for (; j < nbetween && on[j] >= x; j++)
            above++;
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
        if (++above <= 3 && x != fe && is_formatting(el))
            fp_sim_ghost_add_cloned(s, x, anc, (uint32_t)b);
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
    /* the common ancestor: the element below fe on the stack, or the one a clone
     * there is on (a form that </form> took off the stack holds that clone) */
    int32_t anc = s->e[fe].parent;
    if (!fp_sim_clone_holds(s, anc, fe))
        while (anc >= 0 && (s->open_bits[anc] & FP_REMOVED))
            anc = s->e[anc].parent;
    return fp_sim_adopt_after(s, fe, anc, NULL, closed, at);
}

/* The same for a formatting element the index does not hold (ghost
 * `clone`'s clone, simulator_ghosts.c): what was opened after element `after`
 * is inside it, anc is below it on the stack, and the elements between it and
 * its furthest block end as `closed` (the outermost of them). clone is NULL
 * when `after` is the formatting element. */
int
fp_sim_adopt_after(fp_sim *s, int32_t after, int32_t anc, const fp_ghost *clone, uint8_t closed, uint32_t at)
{
    int32_t fb = special_after(s, after);
    if (fb < 0 || !lift(s, anc, fb, closed, after, clone))
        return 0;
    /* the next rounds, for fe's clone inside fb: it is not in scope behind a
     * boundary (all of them are special) */
    for (int round = 1;; round++) {
        if (round == FP_ADOPT_ROUNDS || istack_top(s, FP_SC_DEFAULT) >= fb) {
            /* the spec's outer loop stops (eight rounds, or the clone is out
             * of scope) with the clone open on fb, holding all that fb does,
             * and in the list */
            fp_sim_ghost_add_cloned(s, clone ? clone->elem : after, fb, (uint32_t)fb + 1);
            break;
        }
        int32_t next = special_after(s, fb);
        if (next == -1) {
            /* no block: what is open above fb ends with the clone. Its
             * formatting elements stay in the list, and what follows
             * reopens clones of them (simulator_ghosts.c) */
            fp_sim_close_above(s, fb, FP_CLOSED_PARENT_END, at);
            break;
        }
        /* a block moves up into fb; the formatting elements it leaves wrap
         * it in their clones, as fb's did (lift) */
        if (!lift(s, fb, next, FP_CLOSED_PARENT_END, fb, NULL))
            break;   /* not movable: left open, as before */
        fb = next;
    }
    return 1;
}
