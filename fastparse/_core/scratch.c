/* scratch.c — the parse's working arrays, kept for the next parse.
 *
 * The simulator writes the index into arrays sized for the worst case (one
 * element per 8 bytes of input) and the parse copies the result out at the
 * end. Allocated afresh for every parse, arrays that size come from mmap and
 * go back to the kernel when freed, so each parse paid page faults to zero the
 * pages the last one had just returned: a fifth of the parse time on the real
 * pages. Instead, up to FP_SCRATCH_SLOTS sets wait here between parses (one
 * per thread parsing at once). What a kept set holds resident is the pages its
 * parses touched, so the limit is on the elements a parse indexed, not on the
 * capacity: a 3 MB article has room for 376,000 elements and uses 33,000, and
 * freeing its set made every parse of it fault in 1 MB afresh (a third of its
 * time). A set too large to keep is freed, and its element array, which would
 * be freed too, becomes the document's index (fp_scratch_keeps, parse.c):
 * copying it out would fault in as many fresh pages again, twice the time per
 * element on documents past the limit.
 * A set also keeps the simulator's boundary stacks and per-tag chain heads:
 * nine small mallocs and frees a parse otherwise, a few percent of a small
 * page's time. */
#include <stdlib.h>

#include "simulator.h"

#if defined(_MSC_VER)
#include <windows.h>
typedef fp_scratch *volatile slot_t;
#define SLOT_TAKE(slot) ((fp_scratch *)InterlockedExchangePointer((PVOID volatile *)(slot), NULL))
#define SLOT_PUT(slot, w) (InterlockedCompareExchangePointer((PVOID volatile *)(slot), (w), NULL) == NULL)
#else
#include <stdatomic.h>
typedef fp_scratch *_Atomic slot_t;
static inline int
slot_put(slot_t *slot, fp_scratch *w)
{
    fp_scratch *empty = NULL;
    return atomic_compare_exchange_strong(slot, &empty, w);
}
#define SLOT_TAKE(slot) atomic_exchange((slot), NULL)
#define SLOT_PUT(slot, w) slot_put((slot), (w))
#endif

#define FP_SCRATCH_SLOTS 4
/* Keep sets whose parses indexed at most 2^18 elements (about 12 MB of
 * touched pages), and whose capacity (len / 8: address space, mostly never
 * touched) is at most 2^21, pages up to 16 MB. */
#define FP_SCRATCH_MAX_USED (1u << 18)
#define FP_SCRATCH_MAX_CAP (1u << 21)

static slot_t slots[FP_SCRATCH_SLOTS];

static void
free_stacks(fp_scratch *w)
{
    for (int k = 0; k < FP_SC__COUNT; k++) {
        free(w->sc[k].items);
        w->sc[k].items = NULL;
        w->sc[k].cap = 0;
    }
    free(w->open_head);
    w->open_head = NULL;
}

static void
free_arrays(fp_scratch *w)
{
    free(w->elems);
    free(w->prev_same);
    free(w->foreign_below);
    free(w->open_depth);
    free(w->open_bits);
    w->elems = NULL;
    w->prev_same = NULL;
    w->foreign_below = NULL;
    w->open_depth = NULL;
    w->open_bits = NULL;
    w->cap = 0;
}

fp_scratch *
fp_scratch_take(uint32_t cap)
{
    fp_scratch *w = NULL;
    for (int k = 0; k < FP_SCRATCH_SLOTS && !w; k++)
        w = SLOT_TAKE(&slots[k]);
    if (!w && !(w = calloc(1, sizeof *w)))
        return NULL;
    if (w->cap >= cap)
        return w;
    /* too small: nothing in it is worth copying */
    free_arrays(w);
    w->elems = malloc(cap * sizeof *w->elems);
    w->prev_same = malloc(cap * sizeof *w->prev_same);
    w->foreign_below = malloc(cap * sizeof *w->foreign_below);
    w->open_depth = malloc(cap * sizeof *w->open_depth);
    w->open_bits = malloc(cap * sizeof *w->open_bits);
    if (!w->elems || !w->prev_same || !w->foreign_below || !w->open_depth || !w->open_bits) {
        fp_scratch_give(w, 0);
        return NULL;
    }
    w->cap = cap;
    return w;
}

int
fp_scratch_keeps(uint32_t cap, uint32_t used)
{
    return cap <= FP_SCRATCH_MAX_CAP && used <= FP_SCRATCH_MAX_USED;
}

/* Every kept set's parses indexed at most FP_SCRATCH_MAX_USED elements, so
 * `used` of the parse just done bounds the pages the set holds resident. */
void
fp_scratch_give(fp_scratch *w, uint32_t used)
{
    if (!w)
        return;
    if (fp_scratch_keeps(w->cap, used) && w->elems && w->prev_same && w->foreign_below &&
        w->open_depth && w->open_bits)
        for (int k = 0; k < FP_SCRATCH_SLOTS; k++)
            if (SLOT_PUT(&slots[k], w))
                return;
    free_arrays(w);
    free_stacks(w);
    free(w);
}

void
fp_scratch_release(void)
{
    for (int k = 0; k < FP_SCRATCH_SLOTS; k++) {
        fp_scratch *w = SLOT_TAKE(&slots[k]);
        if (w) {
            free_arrays(w);
            free_stacks(w);
            free(w);
        }
    }
}
