/* select_join.c — `nav a`, `ul li a`, `table tr td` over a whole document:
 * a chain of descendant combinators answered from the tag index's lists.
 *
 * NOTE: matched right to left, `nav a` walks up from every <a> to the root
 * looking for a <nav>: O(links x depth). But the descendants of element x are
 * exactly the elements after x up to x's `last`, so "y has an ancestor in S"
 * is a merge of two sorted lists: sweep y and S in document order, keeping the
 * elements of S whose range is still open on a stack. Each compound, leftmost
 * first, keeps the elements of its tag that match it and lie inside one kept
 * by the compound to its left: O(sum of the lists). The ranges are the
 * subtrees the walk up sees (a foster-parented element is matched inside its
 * table either way); template contents are in no list. */
#include <stdlib.h>

#include "select_internal.h"

/* Walking up costs about this many steps a candidate (the up-memo included). */
enum { WALK_STEPS = 8 };

/* The elements of index list [lo, hi) that match compound `at` and, when
 * outer != NULL, lie inside one of outer[0..nouter) (sorted), into kept[]
 * (open[]: the stack, as long as outer); returns how many. */
static uint32_t keep_inside(fp_sel_ctx *c, int32_t at, const uint32_t *list, uint32_t lo, uint32_t hi,
                            const uint32_t *outer, uint32_t nouter, uint32_t *open, uint32_t *kept)
{
    const fp_elem *el = c->el;
    uint32_t nkept = 0, j = 0, depth = 0;
    int tag_only = c->w[at + 1] == 1;   /* `a` of `nav a`: its list is its matches */
    for (uint32_t k = lo; k < hi && !c->oom; k++) {
        uint32_t y = list[k];
        if (outer) {
            for (; j < nouter && outer[j] < y; j++) {
                while (depth && el[open[depth - 1]].last < outer[j])
                    depth--;   /* ended before it begins */
                open[depth++] = outer[j];
            }
            while (depth && el[open[depth - 1]].last < y)
                depth--;
            if (!depth)
                continue;   /* no kept element encloses y */
        }
        if (tag_only || fp_sel_match_compound(c, at, y))
            kept[nkept++] = y;
    }
    return nkept;
}

int fp_sel_join(fp_sel_ctx *c, const int32_t *cx, const uint32_t *index, uint32_t limit, fp_buf *out)
{
    int32_t m = cx[1];
    if (m < 2 || m > 16 || c->scope >= 0 || limit != UINT32_MAX)
        return 0;
    uint32_t ntags = index[0];
    const uint32_t *off = index + 1, *list = index + 2 + ntags;
    uint32_t lo[16], hi[16], widest = 0;
    uint64_t total = 0;
    for (int32_t k = 0; k < m; k++) {
        if (k + 1 < m && cx[3 + 2 * k] != FP_SEL_COMB_DESCENDANT)
            return 0;
        int tag = fp_sel_required_tag(c, cx[2 + 2 * k]);
        if (tag < 0)
            return 0;   /* a compound without a tag: no list to merge */
        lo[k] = (uint32_t)tag < ntags ? off[tag] : 0;
        hi[k] = (uint32_t)tag < ntags ? off[tag + 1] : 0;
        total += hi[k] - lo[k];
        if (hi[k] - lo[k] > widest)
            widest = hi[k] - lo[k];
    }
    if (total >= (uint64_t)(hi[0] - lo[0]) * WALK_STEPS)
        return 0;   /* `div a` with thousands of divs: walking up is cheaper */
    /* not zeroed: each array is written before it is read (calloc's memset
     * was 2% of the css benchmark's selector instructions) */
    uint32_t *buf = malloc((3 * (size_t)widest + 1) * sizeof *buf);
    if (!buf) {
        c->oom = 1;
        return 1;
    }
    uint32_t *outer = buf, *kept = buf + widest, *open = buf + 2 * widest, nouter = 0;
    for (int32_t k = m - 1; k >= 0 && !c->oom; k--) {
        uint32_t n = keep_inside(c, cx[2 + 2 * k], list, lo[k], hi[k], k == m - 1 ? NULL : outer, nouter, open,
                                 kept);
        uint32_t *t = outer;
        outer = kept;
        kept = t;
        nouter = n;
        if (!n)
            break;
    }
    if (!c->oom && nouter && fp_buf_append(out, outer, nouter * sizeof *outer) != 0)
        c->oom = 1;
    free(buf);
    return 1;
}
