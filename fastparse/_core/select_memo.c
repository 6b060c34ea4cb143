/* select_memo.c — a run's memory: zeroed allocations that set c->oom on
 * failure, the small arena a run's first tables come from, and the paged
 * per-element memos of a run (:has answers, :nth-child(An+B of S) positions,
 * :dir, :lang sources, selected options, walks up past 32 ancestors).
 * NOTE: the memos are paged: zero until written, a page of 256 entries
 * allocated on first write (pages of 1024 made a scoped :lang() or
 * :nth-child(2 of S) about 15% slower: calloc, memset, free). The first pages
 * are found by number in a small open-addressing table: a select_one scoped
 * to one card of a 100,000-element page touches a few (the card's, its
 * ancestors' near the start), where a table indexed by page number would
 * span the document between them and be allocated, zeroed and walked on
 * every call. Past MEMO_SPARSE_MAX pages the run covers enough of the
 * document to pay for that table, and indexing it is cheaper than probing:
 * *table then points to it (n / 256 + 1 pages: nth_count is keyed by
 * parent + 1), and before that to the small table, its address tagged with
 * bit 0. NULL until first written. */
#include <stddef.h>
#include <stdlib.h>

#include "select_internal.h"

void *fp_sel_zalloc(fp_sel_ctx *c, size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size);
    if (!p)
        c->oom = 1;
    return p;
}

enum { MEMO_PAGE_BITS = 8, MEMO_SPARSE_MAX = 16, MEMO_SLOTS = 2 * MEMO_SPARSE_MAX };

typedef struct {
    uint32_t used;                /* pages in the table */
    uint32_t on_heap;             /* of them, those past the run's arena: the ones to free */
    uint32_t key[MEMO_SLOTS];     /* page number + 1, 0 empty */
    uint8_t *page[MEMO_SLOTS];    /* read where key is set only: left unzeroed */
} memo_sparse;

static memo_sparse *sparse_of(const void *table)
{
    return (uintptr_t)table & 1 ? (memo_sparse *)((uintptr_t)table - 1) : NULL;
}

static uint32_t memo_home(uint32_t pg)
{
    return (pg * 0x9E3779B1u) >> 16 & (MEMO_SLOTS - 1);
}

static uint8_t *sparse_page(const memo_sparse *m, uint32_t pg)
{
    for (uint32_t h = memo_home(pg); m->key[h]; h = (h + 1) & (MEMO_SLOTS - 1))
        if (m->key[h] == pg + 1)
            return m->page[h];
    return NULL;
}

/* inlined where memos are read: a run over the whole document indexes its pages */
static inline __attribute__((always_inline)) uint8_t *memo_page(const void *table, uint32_t pg)
{
    if ((uintptr_t)table & 1)
        return sparse_page(sparse_of(table), pg);
    return table ? ((uint8_t *const *)table)[pg] : NULL;
}

/* size bytes, the first `zeroed` of them zero, from the run's arena while it
 * lasts, else from calloc */
static void *memo_alloc(fp_sel_ctx *c, size_t size, size_t zeroed)
{
    size = (size + 15) & ~(size_t)15;
    if (size <= FP_SEL_ARENA - c->arena_used) {
        void *p = c->arena + c->arena_used;
        c->arena_used += (uint32_t)size;
        return memset(p, 0, zeroed);
    }
    return fp_sel_zalloc(c, 1, size);
}

static int in_arena(const fp_sel_ctx *c, const void *p)
{
    /* below the arena the difference wraps around, past its size */
    return (uintptr_t)p - (uintptr_t)c->arena < FP_SEL_ARENA;
}

static void memo_release(const fp_sel_ctx *c, void *p)
{
    if (!in_arena(c, p))
        free(p);
}

/* a fresh zeroed page for page number pg (not in *table yet); NULL out of memory */
static uint8_t *memo_add_page(fp_sel_ctx *c, void **table, uint32_t pg, size_t width)
{
    memo_sparse *m = sparse_of(*table);
    if (!*table) {
        if (!(m = memo_alloc(c, sizeof *m, offsetof(memo_sparse, page))))
            return NULL;
        *table = (void *)((uintptr_t)m + 1);
    } else if (m && m->used == MEMO_SPARSE_MAX) {
        uint8_t **pages = fp_sel_zalloc(c, (c->n >> MEMO_PAGE_BITS) + 1, sizeof *pages);
        if (!pages)
            return NULL;
        for (uint32_t k = 0; k < MEMO_SLOTS; k++)
            if (m->key[k])
                pages[m->key[k] - 1] = m->page[k];
        memo_release(c, m);
        *table = pages;
        m = NULL;
    }
    size_t bytes = ((size_t)1 << MEMO_PAGE_BITS) * width;
    uint8_t *page = memo_alloc(c, bytes, bytes);
    if (!page)
        return NULL;
    if (!m) {
        ((uint8_t **)*table)[pg] = page;
        return page;
    }
    uint32_t h = memo_home(pg);
    while (m->key[h])
        h = (h + 1) & (MEMO_SLOTS - 1);
    m->key[h] = pg + 1;
    m->page[h] = page;
    m->used++;
    m->on_heap += !in_arena(c, page);
    return page;
}

uint8_t *fp_sel_memo_at(fp_sel_ctx *c, void **table, uint32_t i, size_t width)
{
    uint32_t pg = i >> MEMO_PAGE_BITS;
    uint8_t *page = memo_page(*table, pg);
    if (!page && !(page = memo_add_page(c, table, pg, width)))
        return NULL;
    return page + (size_t)(i & ((1u << MEMO_PAGE_BITS) - 1)) * width;
}

/* Entry i for reading, NULL where nothing was written (no page is allocated to say so). */
const uint8_t *fp_sel_memo_peek(const void *table, uint32_t i, size_t width)
{
    const uint8_t *page = memo_page(table, i >> MEMO_PAGE_BITS);
    return page ? page + (size_t)(i & ((1u << MEMO_PAGE_BITS) - 1)) * width : NULL;
}

uint8_t fp_sel_memo_byte(const void *table, uint32_t i)
{
    const uint8_t *p = fp_sel_memo_peek(table, i, 1);
    return p ? *p : 0;
}

uint32_t fp_sel_memo_u32(const void *table, uint32_t i)
{
    const uint8_t *p = fp_sel_memo_peek(table, i, sizeof(uint32_t));
    uint32_t v = 0;
    if (p)
        memcpy(&v, p, sizeof v);
    return v;
}

/* writes are dropped when out of memory: c->oom already fails the run */
static void memo_set(fp_sel_ctx *c, void **table, uint32_t i, const void *v, size_t width)
{
    uint8_t *p = fp_sel_memo_at(c, table, i, width);
    if (p)
        memcpy(p, v, width);
}

void fp_sel_memo_set_byte(fp_sel_ctx *c, void **table, uint32_t i, uint8_t v)
{
    memo_set(c, table, i, &v, 1);
}

void fp_sel_memo_set_u32(fp_sel_ctx *c, void **table, uint32_t i, uint32_t v)
{
    memo_set(c, table, i, &v, sizeof v);
}

void fp_sel_memo_free(fp_sel_ctx *c, void *table)
{
    memo_sparse *m = sparse_of(table);
    if (m) {
        for (uint32_t k = 0; m->on_heap && k < MEMO_SLOTS; k++)   /* most runs' pages are all in the arena */
            if (m->key[k])
                memo_release(c, m->page[k]);
        memo_release(c, m);
    } else if (table) {
        uint8_t **pages = table;
        for (uint32_t k = 0; k <= c->n >> MEMO_PAGE_BITS; k++)
            if (pages[k])
                memo_release(c, pages[k]);
        free(pages);
    }
}
