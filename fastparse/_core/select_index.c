/* select_index.c — what the binding builds once per document for the
 * selector matcher (select.h): the tag index (for each tag id, its elements
 * in document order, template contents left out), which lets `div.x` visit
 * only the <div> elements; and the sibling table, which spares a scoped
 * :nth-child or `+` the document-sized tables a run would fill. */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "select_internal.h"
#include "tags_gen.h"

/* the tag ids a document can have, the size of the tables indexed by tag:
 * the known ones and the names it interned (a pass over the elements for the
 * exact bound would cost a third of building the index) */
static uint32_t tag_space(const fp_doc *doc)
{
    return (uint32_t)FP_TAG__COUNT + doc->names.count;
}

size_t fp_select_index_size(const fp_doc *doc)
{
    return sizeof(uint32_t) * (2 + (size_t)tag_space(doc) + doc->n);
}

/* The counting sort of the index, stepping over template contents when
 * skip_templates (each pass then compares every tag with the template's).
 * Inlined into both calls, so the first, for a document without <template>,
 * has no such test: the build's instructions fall by two fifths. */
static inline __attribute__((always_inline)) void sort_by_tag(const fp_doc *doc, uint32_t *off, uint32_t *list, uint32_t ntags, int skip_templates)
{
    const fp_elem *el = doc->elems;
    uint32_t n = doc->n;
    memset(off, 0, sizeof(uint32_t) * (1 + (size_t)ntags));
    for (uint32_t e = 0; e < n; e++) {
        off[el[e].tag + 1]++;
        if (skip_templates && fp_html_is(&el[e], FP_TAG_TEMPLATE))
            e = el[e].last; /* its contents are never candidates from outside */
    }
    for (uint32_t t = 0; t < ntags; t++)
        off[t + 1] += off[t];
    for (uint32_t e = 0; e < n; e++) {
        list[off[el[e].tag]++] = e;
        if (skip_templates && fp_html_is(&el[e], FP_TAG_TEMPLATE))
            e = el[e].last;
    }
    /* the second pass advanced each offset to the next tag's start: shift back */
    for (uint32_t t = ntags; t > 0; t--)
        off[t] = off[t - 1];
    off[0] = 0;
}

void fp_select_index_build(const fp_doc *doc, uint32_t *out)
{
    FP_V3_DISPATCH_VOID(fp_select_index_build, doc, out);
    uint32_t ntags = tag_space(doc);
    out[0] = ntags;
    /* most documents have no <template>: their passes need not look for one */
    sort_by_tag(doc, out + 1, out + 2 + ntags, ntags, 0);
    if (fp_select_index_count(out, FP_TAG_TEMPLATE))
        sort_by_tag(doc, out + 1, out + 2 + ntags, ntags, 1);
}

void fp_sel_fill_siblings(const fp_elem *el, uint32_t n, int32_t p, int32_t *prev, uint32_t *pos, uint32_t *rpos,
                          uint32_t *tpos, uint32_t *trpos, uint32_t *tag_count)
{
    uint32_t k = 0, first = p < 0 ? 0 : (uint32_t)p + 1, end = p < 0 ? n : el[p].last + 1;
    int32_t before = -1;
    for (uint32_t x = first; x < end; x = el[x].last + 1) {
        prev[x] = before;
        before = (int32_t)x;
        pos[x] = ++k;
        if (tpos)
            tpos[x] = ++tag_count[el[x].tag];
    }
    for (uint32_t x = first; x < end; x = el[x].last + 1) {
        rpos[x] = k - pos[x] + 1;
        if (tpos)
            trpos[x] = tag_count[el[x].tag] - tpos[x] + 1;
    }
    if (tpos)
        for (uint32_t x = first; x < end; x = el[x].last + 1)
            tag_count[el[x].tag] = 0;
}

size_t fp_select_siblings_size(const fp_doc *doc)
{
    return FP_SIB__COUNT * sizeof(uint32_t) * (size_t)doc->n;
}

int fp_select_siblings_build(const fp_doc *doc, uint32_t *out)
{
    FP_V3_DISPATCH(fp_select_siblings_build, doc, out);
    uint32_t n = doc->n, ntags = tag_space(doc);
    uint32_t *tag_count = calloc(ntags ? ntags : 1, sizeof *tag_count);
    if (!tag_count)
        return -1;
    int32_t *prev = (int32_t *)(void *)fp_sib_column(out, n, FP_SIB_PREV);
    uint32_t *pos = fp_sib_column(out, n, FP_SIB_POS), *rpos = fp_sib_column(out, n, FP_SIB_RPOS);
    uint32_t *tpos = fp_sib_column(out, n, FP_SIB_TPOS), *trpos = fp_sib_column(out, n, FP_SIB_TRPOS);
    /* every element is the child of one parent: O(n) over all of them */
    fp_sel_fill_siblings(doc->elems, n, -1, prev, pos, rpos, tpos, trpos, tag_count);
    for (uint32_t p = 0; p < n; p++)
        if (doc->elems[p].last > p)
            fp_sel_fill_siblings(doc->elems, n, (int32_t)p, prev, pos, rpos, tpos, trpos, tag_count);
    free(tag_count);
    return 0;
}
