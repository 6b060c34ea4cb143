/* simulator_open_at_end.c — the parse error of an element left open when the
 * body ends (at end of input, or at a </body> or </html>: 13.2.6.4.7).
 *
 * The check walks the open-element stack down to the first element that may
 * not be open then. The elements that may (p, li, rt, optgroup, table parts...)
 * mostly close each other, but <rt>, <rp>, <rb>, <rtc> and <optgroup> outside
 * ruby and select nest without end: a </body> after each of thousands of them
 * would walk them all every time. So a long walk leaves its answer on every
 * element it passed, and a later walk stops at the first element that holds
 * one. An answer stays right while the element keeps its start (an index a
 * <frameset> freed goes to another element) and its depth (the adoption agency
 * moves a block up out of elements and rewrites its depths): the chain below
 * an element only ever loses elements, and the element found may since have
 * left the stack, which the walk then continues below. */
#include <stdlib.h>
#include <string.h>

#include "simulator_internal.h"

/* What a walk found below an element, valid while the element keeps its
 * start and depth */
struct fp_eof_memo {
    uint32_t start;   /* the element's: UINT32_MAX for none */
    int32_t found;    /* the first element at or below it that may not be open, -1: none */
    uint16_t depth;   /* the element's */
};

/* walks shorter than this leave nothing until one has: a real page's are a few elements */
#define MEMO_AFTER_STEPS 16

/* Whether e may be open at the end of input without a parse error ("in body",
 * end-of-file token: 13.2.6.4.7) */
static int
may_be_open_at_eof(const fp_elem *e)
{
    if (e->flags & (FP_EF_SVG | FP_EF_MATHML))
        return 0;
    switch (e->tag) {
    case FP_TAG_DD: case FP_TAG_DT: case FP_TAG_LI: case FP_TAG_OPTGROUP: case FP_TAG_OPTION:
    case FP_TAG_P: case FP_TAG_RB: case FP_TAG_RP: case FP_TAG_RT: case FP_TAG_RTC:
    case FP_TAG_TBODY: case FP_TAG_TD: case FP_TAG_TFOOT: case FP_TAG_TH: case FP_TAG_THEAD:
    case FP_TAG_TR: case FP_TAG_BODY: case FP_TAG_HTML:
    case FP_TAG_HEAD:   /* "in head" pops it first, then implies the body */
        return 1;
    default:
        return 0;
    }
}

static const fp_eof_memo *
memo_of(const fp_sim *s, int32_t i)
{
    if ((uint32_t)i >= s->eof_memo_cap)
        return NULL;
    const fp_eof_memo *m = &s->eof_memo[i];
    return m->start == s->e[i].start && m->depth == s->e[i].depth ? m : NULL;
}

/* room for element i's answer: 0 when out of memory (the walks stay right, only longer) */
static int
memo_room(fp_sim *s, int32_t i)
{
    if ((uint32_t)i < s->eof_memo_cap)
        return 1;
    uint32_t cap = s->eof_memo_cap ? s->eof_memo_cap : 64;
    while (cap <= (uint32_t)i)
        cap *= 2;
    fp_eof_memo *m = realloc(s->eof_memo, cap * sizeof *m);
    if (!m)
        return 0;
    memset(m + s->eof_memo_cap, 0xff, (cap - s->eof_memo_cap) * sizeof *m);   /* start UINT32_MAX: none */
    s->eof_memo = m;
    s->eof_memo_cap = cap;
    return 1;
}

/* The first element from `top` down the stack that is on it (not removed) and
 * may not be open when the body ends, or -1 */
static int32_t
first_not_open_at_eof(fp_sim *s, int32_t top)
{
    int32_t i = top, found = -1;
    uint32_t steps = 0;
    while (i >= 0) {
        const fp_eof_memo *m = memo_of(s, i);
        if (m) {
            found = m->found;
            if (found < 0 || !(s->open_bits[found] & FP_REMOVED))
                break;
            i = s->e[found].parent;   /* it left the stack since: what is below it decides */
            found = -1;
            continue;
        }
        if (!(s->open_bits[i] & FP_REMOVED) && !may_be_open_at_eof(&s->e[i])) {
            found = i;
            break;
        }
        i = s->e[i].parent;
        steps++;
    }
    if (steps >= MEMO_AFTER_STEPS || (s->eof_memo && steps))
        for (int32_t k = top; k != i && memo_room(s, k); k = s->e[k].parent)
            s->eof_memo[k] = (fp_eof_memo){ .start = s->e[k].start, .found = found, .depth = s->e[k].depth };
    return found;
}

/* The parse error of an element still open that may not be (may_be_open_at_eof)
 * when the body ends: at end of input, or at a </body> or </html> (13.2.6.4.7),
 * named as html5lib names them */
void
fp_sim_check_open_at_end(fp_sim *s, uint32_t at)
{
    int eof = at == (uint32_t)s->doc->len;
    if (first_not_open_at_eof(s, s->top) >= 0)
        fp_sim_error(s, eof ? FP_ERR_EXPECTED_CLOSING_TAG_BUT_GOT_EOF : FP_ERR_EXPECTED_ONE_END_TAG_BUT_GOT_ANOTHER,
                     at);
}
