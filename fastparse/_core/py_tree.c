/* py_tree.c — tree order for navigation (children, next_sibling, prev_sibling)
 * in a document with foster-parented elements. Elsewhere tree order is index
 * order and a node's children are found by skipping subtrees; a fostered
 * element sits inside its table's index range but is a child of the table's
 * parent, placed before the table (or of the nearest template). Finding it
 * from the index alone costs a walk of the parent's whole subtree, which a
 * loop over siblings repeats at each step: the links below are built once,
 * on the first navigation of such a document. */
#include "py_types.h"
#include "tags_gen.h"

/* links: first child of each node (slot p + 1; slot 0 for the top level), then
 * each element's next sibling, then its previous one; -1 for none */
struct fp_tree_links {
    int32_t *first, *next, *prev;
};

static void
links_view(int32_t *mem, uint32_t n, struct fp_tree_links *l)
{
    l->first = mem;
    l->next = mem + n + 1;
    l->prev = mem + 2 * (size_t)n + 1;
}

/* The child of p that holds fostered element j when it is a table: the spec
 * inserts j right before it (13.2.6.1). -1 when j was appended in place (a
 * template's content, or a table that is not p's own child). */
static int32_t
anchor_table(const fp_doc *d, uint32_t j, int32_t p)
{
    const fp_elem *e = d->elems;
    int32_t a = (int32_t)j;
    while (e[a].parent != p && e[a].parent >= 0)
        a = e[a].parent;
    if (e[a].parent != p || e[a].tag != FP_TAG_TABLE || fp_dom_parent(d, (uint32_t)a) != p)
        return -1;
    return a;
}

static int32_t *
build(const fp_doc *d)
{
    uint32_t n = d->n;
    int32_t *mem = PyMem_Malloc((3 * (size_t)n + 1) * sizeof *mem);
    int32_t *last = PyMem_Malloc(((size_t)n + 1) * sizeof *last);   /* last child of each slot */
    if (!mem || !last) {
        PyMem_Free(mem);
        PyMem_Free(last);
        return (int32_t *)PyErr_NoMemory();
    }
    struct fp_tree_links l;
    links_view(mem, n, &l);
    for (uint32_t s = 0; s <= n; s++)
        l.first[s] = last[s] = -1;
    /* in index order: each element follows the children before it, but for a
     * fostered one, which goes before its table (after those fostered earlier) */
    for (uint32_t j = 0; j < n; j++) {
        int32_t p = fp_dom_parent(d, j);
        int32_t a = (d->elems[j].flags & FP_EF_FOSTERED) ? anchor_table(d, j, p) : -1;
        int32_t before = a >= 0 ? l.prev[a] : last[p + 1];
        l.prev[j] = before;
        l.next[j] = a;   /* -1 when appended */
        if (before >= 0)
            l.next[before] = (int32_t)j;
        else
            l.first[p + 1] = (int32_t)j;
        if (a >= 0)
            l.prev[a] = (int32_t)j;
        else
            last[p + 1] = (int32_t)j;
    }
    PyMem_Free(last);
    return mem;
}

/* The links of d, built on first use (under the GIL, as py_select.c's tables
 * are). -1 with an exception set. */
static int
links_of(DocumentObject *d, struct fp_tree_links *l)
{
    if (!d->tree_links && !(d->tree_links = build(&d->doc)))
        return -1;
    links_view(d->tree_links, d->doc.n, l);
    return 0;
}

uint32_t *
fp_tree_children(DocumentObject *d, int32_t p, uint32_t *count)
{
    struct fp_tree_links l;
    if (links_of(d, &l) < 0)
        return NULL;
    uint32_t n = 0;
    for (int32_t c = l.first[p + 1]; c >= 0; c = l.next[c])
        n++;
    uint32_t *out = PyMem_Malloc((n ? n : 1) * sizeof *out);
    if (!out)
        return (uint32_t *)PyErr_NoMemory();
    n = 0;
    for (int32_t c = l.first[p + 1]; c >= 0; c = l.next[c])
        out[n++] = (uint32_t)c;
    *count = n;
    return out;
}

int64_t
fp_tree_sibling(DocumentObject *d, const fp_doc *qd, uint32_t i, const fp_query *q, int forward)
{
    struct fp_tree_links l;
    if (links_of(d, &l) < 0)
        return -2;
    const int32_t *step = forward ? l.next : l.prev;
    for (int32_t j = step[i]; j >= 0; j = step[j])
        if (fp_match(qd, (uint32_t)j, q))
            return j;
    return -1;
}
