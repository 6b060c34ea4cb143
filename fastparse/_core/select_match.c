/* select_match.c — runs a compiled selector program (select.h) over the
 * flat index: right to left from each candidate through parent indices.
 * Does not parse selectors (fastparse/selectors/ does) nor touch Python.
 * Selectors Level 4: 16 (combinators), 6 (attributes), 14 (tree-structural),
 * 4.5 (:has); HTML Standard 4.16.3 for :empty, :defined, :checked.
 * NOTE: a <template>'s contents are not in the document (DOM 4.8: they live in a
 * separate fragment), so matching never enters a template from outside and
 * never climbs out of one: its element is empty and has no descendants. */
#include <stddef.h>
#include <stdlib.h>
#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

#include "select_internal.h"
#include "tags_gen.h"   /* the fixed ids of known tag names */

/* Results of matching a complex selector from one element (Servo's scheme):
 * besides yes/no, say how far an outer combinator loop must back off. */
enum { M_MATCH, M_NO_SIBLING, M_NO_DESCENDANT, M_NO_GLOBAL };

static int match_list(fp_sel_ctx *c, int32_t at, uint32_t e);

/* words taken by the test at t (T_CONTAINS, T_CONTAINS_OWN, T_LANG: 2 + their count) */
static int32_t test_words(const int32_t *t)
{
    switch (t[0]) {
    case FP_SEL_T_CONTAINS: case FP_SEL_T_CONTAINS_OWN: case FP_SEL_T_LANG:
        return 2 + t[1];
    case FP_SEL_T_TAG: case FP_SEL_T_ID: case FP_SEL_T_CLASS: case FP_SEL_T_NOT: case FP_SEL_T_IS:
    case FP_SEL_T_NAMESPACE:
        return 2;
    case FP_SEL_T_ATTR:
        return 5;
    case FP_SEL_T_HAS:
        return 4;
    case FP_SEL_T_NTH:
        return 6;
    case FP_SEL_T_DIR:
        return 3;
    default:
        return 1;
    }
}

/* ---------------------------------------------------------------- strings */

/* NOTE: whether needle nd occurs in h (ASCII case ignored when icase). Start
 * tags are short (~100 bytes), so a library call per candidate costs more than
 * the bytes: where SSE2 exists, 16 start positions are tested at once against
 * the needle's first and last bytes (OR 0x20 folds ASCII case; the exact
 * comparison that follows rejects the few false candidates it lets through). */
static int bytes_find_in(const uint8_t *h, size_t hn, const uint8_t *nd, size_t nn, int icase,
                         const uint8_t *readable)
{
    if (nn == 0)
        return 1;
    if (hn < nn)
        return 0;
    uint8_t fold = icase ? 0x20 : 0, c0 = (uint8_t)(nd[0] | fold), cl = (uint8_t)(nd[nn - 1] | fold);
    const uint8_t *p = h, *end = h + hn - nn + 1; /* candidate starts */
#if defined(__SSE2__) && defined(__GNUC__)
    const __m128i first = _mm_set1_epi8((char)c0), last = _mm_set1_epi8((char)cl);
    const __m128i bits = _mm_set1_epi8((char)fold);
    /* a block may read past h + hn while it stays below `readable` (the bytes
     * of the rest of the document): candidates past `end` are masked out */
    for (; end - p >= 16 || (end > p && readable - (p + nn - 1) >= 16); p += 16) {
        __m128i a = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)p), bits);
        __m128i b = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(p + nn - 1)), bits);
        unsigned m = (unsigned)_mm_movemask_epi8(
            _mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, last)));
        if (end - p < 16)
            m &= (1u << (end - p)) - 1;
        for (; m; m &= m - 1)
            if (bytes_eq(p + __builtin_ctz(m), nd, nn, icase))
                return 1;
    }
#else
    (void)readable;
#endif
    for (; p < end; p++)
        if ((uint8_t)(*p | fold) == c0 && (uint8_t)(p[nn - 1] | fold) == cl && bytes_eq(p, nd, nn, icase))
            return 1;
    return 0;
}

static int bytes_find(const uint8_t *h, size_t hn, const uint8_t *nd, size_t nn, int icase)
{
    if (nn == 0)
        return 1;
    if (hn < nn)
        return 0;   /* before h + hn: an empty text buffer's h is NULL */
    return bytes_find_in(h, hn, nd, nn, icase, h + hn);
}

/* Whether the whitespace-separated list v contains the token t (Selectors 6.2 ~=, class). */
static int has_token(const uint8_t *v, size_t n, const uint8_t *t, size_t tn, int icase)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && is_ws(v[i]))
            i++;
        size_t s = i;
        while (i < n && !is_ws(v[i]))
            i++;
        if (i - s == tn && tn && bytes_eq(v + s, t, tn, icase))
            return 1;
    }
    return 0;
}

const uint8_t *fp_sel_str(const fp_sel_ctx *c, int32_t k, size_t *len)
{
    const int32_t *t = c->w + c->w[FP_SEL_H_STRS] + 2 * k;
    *len = (size_t)t[1];
    return c->pool + t[0];
}

/* Value of element e's attribute `name`; raw bytes unless decoding changes
 * them (a character reference, a CR, a NUL: then decoded into c->val, reused).
 * 0 when absent. */
int fp_sel_attr_value(fp_sel_ctx *c, uint32_t e, const uint8_t *name, size_t nlen,
                      const uint8_t **v, size_t *vlen)
{
    fp_attr a;
    if (!fp_attr_find(c->doc, e, (const char *)name, nlen, &a))
        return 0;
    const uint8_t *raw = c->doc->buf + a.value_start;
    size_t len = a.has_value ? a.value_len : 0;
    if (len && !fp_value_is_raw(c->doc, raw, len)) {
        c->val.len = 0;
        if (fp_attr_value(c->doc, &a, &c->val) != 0) {
            c->oom = 1;
            return 0;
        }
        raw = c->val.data;
        len = c->val.len;
    }
    *v = raw;
    *vlen = len;
    return 1;
}

int fp_sel_attr_keyword(fp_sel_ctx *c, uint32_t e, const char *name, const char *const *words, int nwords)
{
    const uint8_t *v;
    size_t n;
    if (!fp_sel_attr_value(c, e, (const uint8_t *)name, strlen(name), &v, &n))
        return -1;
    for (int k = 0; k < nwords; k++)
        if (strlen(words[k]) == n && bytes_eq(v, (const uint8_t *)words[k], n, 1))
            return k;
    return -1;
}

int fp_sel_attr_is(fp_sel_ctx *c, uint32_t e, const char *name, const char *word)
{
    return fp_sel_attr_keyword(c, e, name, &word, 1) == 0;
}

/* ---------------------------------------------------------------- tree */

static uint32_t first_child(int32_t p) { return p < 0 ? 0 : (uint32_t)p + 1; }
static uint32_t child_end(const fp_sel_ctx *c, int32_t p) { return p < 0 ? c->n : c->el[p].last + 1; }

static int is_template(const fp_sel_ctx *c, uint32_t e) { return c->el[e].tag == c->t_template; }

/* The parent as the DOM sees it: none above a template's contents. */
static int32_t parent_in(const fp_elem *el, uint32_t e)
{
    int32_t p = el[e].parent;
    return (p >= 0 && el[p].tag == FP_TAG_TEMPLATE) ? -1 : p;
}

static int32_t parent_of(const fp_sel_ctx *c, uint32_t e)
{
    return parent_in(c->el, e);
}

void *fp_sel_zalloc(fp_sel_ctx *c, size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size);
    if (!p)
        c->oom = 1;
    return p;
}

/* NOTE: positions among siblings are computed for all children of a parent
 * at once, the first time any of them is asked about, so :nth-child and the
 * sibling combinators cost O(children) per parent instead of per element:
 * linear even on a list of 10,000 <li>. */
static int siblings_ready(fp_sel_ctx *c, int32_t p)
{
    if (c->sib == SIB_BORROWED)
        return 1;
    if (c->sib == SIB_NONE) {
        size_t n = c->n;
        c->sib = SIB_OWNED;
        c->sib_done = fp_sel_zalloc(c, n + 1, 1);
        c->prev = fp_sel_zalloc(c, n, sizeof(int32_t));
        c->pos = fp_sel_zalloc(c, n, sizeof(uint32_t));
        c->rpos = fp_sel_zalloc(c, n, sizeof(uint32_t));
        if (c->flags & FP_SEL_F_OF_TYPE) {
            c->tpos = fp_sel_zalloc(c, n, sizeof(uint32_t));
            c->trpos = fp_sel_zalloc(c, n, sizeof(uint32_t));
            c->tag_count = fp_sel_zalloc(c, TAG_ID_SPACE, sizeof(uint32_t));
        }
    }
    if (c->oom)
        return 0;
    if (c->sib_done[p + 1])
        return 1;
    fp_sel_fill_siblings(c->el, c->n, p, c->prev, c->pos, c->rpos, c->tpos, c->trpos, c->tag_count);
    c->sib_done[p + 1] = 1;
    return 1;
}

static int32_t prev_sibling(fp_sel_ctx *c, uint32_t e)
{
    return siblings_ready(c, c->el[e].parent) ? c->prev[e] : -1;
}

static int32_t next_sibling(const fp_sel_ctx *c, uint32_t e)
{
    uint32_t s = c->el[e].last + 1;
    return (s < c->n && c->el[s].parent == c->el[e].parent) ? (int32_t)s : -1;
}

/* ---------------------------------------------------------------- tests */

static int anb(int64_t a, int64_t b, int64_t pos)
{
    if (a == 0)
        return pos == b;
    int64_t d = pos - b;
    return d % a == 0 && d / a >= 0;
}

/* NOTE: the per-element memos of a run (:has answers, :nth-child(An+B of S)
 * positions, :dir, :lang sources, selected options, walks up past 32
 * ancestors) are paged: zero until written, a page of 256 entries allocated
 * on first write (pages of 1024 made a scoped :lang() or :nth-child(2 of S)
 * about 15% slower: calloc, memset, free). The first pages
 * are found by number in a small open-addressing table: a select_one scoped
 * to one card of a 100,000-element page touches a few (the card's, its
 * ancestors' near the start), where a table indexed by page number would
 * span the document between them and be allocated, zeroed and walked on
 * every call. Past MEMO_SPARSE_MAX pages the run covers enough of the
 * document to pay for that table, and indexing it is cheaper than probing:
 * *table then points to it (n / 256 + 1 pages: nth_count is keyed by
 * parent + 1), and before that to the small table, its address tagged with
 * bit 0. NULL until first written. */
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

static uint8_t *memo_at(fp_sel_ctx *c, void **table, uint32_t i, size_t width)
{
    uint32_t pg = i >> MEMO_PAGE_BITS;
    uint8_t *page = memo_page(*table, pg);
    if (!page && !(page = memo_add_page(c, table, pg, width)))
        return NULL;
    return page + (size_t)(i & ((1u << MEMO_PAGE_BITS) - 1)) * width;
}

/* Entry i for reading, NULL where nothing was written (no page is allocated to say so). */
static const uint8_t *memo_peek(const void *table, uint32_t i, size_t width)
{
    const uint8_t *page = memo_page(table, i >> MEMO_PAGE_BITS);
    return page ? page + (size_t)(i & ((1u << MEMO_PAGE_BITS) - 1)) * width : NULL;
}

uint8_t fp_sel_memo_byte(const void *table, uint32_t i)
{
    const uint8_t *p = memo_peek(table, i, 1);
    return p ? *p : 0;
}

uint32_t fp_sel_memo_u32(const void *table, uint32_t i)
{
    const uint8_t *p = memo_peek(table, i, sizeof(uint32_t));
    uint32_t v = 0;
    if (p)
        memcpy(&v, p, sizeof v);
    return v;
}

/* writes are dropped when out of memory: c->oom already fails the run */
static void memo_set(fp_sel_ctx *c, void **table, uint32_t i, const void *v, size_t width)
{
    uint8_t *p = memo_at(c, table, i, width);
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

/* :nth-child(An+B of S): position of e among its siblings matching S. */
static int nth_of_position(fp_sel_ctx *c, int32_t slot, int32_t list, uint32_t e, int last, uint32_t *out)
{
    int32_t p = c->el[e].parent;
    uint32_t count = fp_sel_memo_u32(c->nth_count[slot], (uint32_t)(p + 1));
    if (!count) {
        uint32_t k = 0, end = child_end(c, p);
        for (uint32_t x = first_child(p); x < end; x = c->el[x].last + 1)
            fp_sel_memo_set_u32(c, &c->nth_pos[slot], x, match_list(c, list, x) ? ++k : 0);
        count = k + 1;
        fp_sel_memo_set_u32(c, &c->nth_count[slot], (uint32_t)(p + 1), count);
        if (c->oom)
            return 0;
    }
    uint32_t pos = fp_sel_memo_u32(c->nth_pos[slot], e);
    *out = pos && last ? count - pos : pos;   /* from the end: (count - 1) - pos + 1 */
    return *out != 0;
}

static int test_nth(fp_sel_ctx *c, const int32_t *t, uint32_t e)
{
    int32_t flags = t[1], list = t[4];
    int last = (flags & FP_SEL_NTH_LAST) != 0;
    uint32_t pos;
    if (list >= 0) {
        if (!nth_of_position(c, t[5], list, e, last, &pos))
            return 0;
    } else if (!(flags & (FP_SEL_NTH_LAST | FP_SEL_NTH_OF_TYPE)) && t[2] == 0 && t[3] == 1) {
        /* :first-child: the element right after its parent in the index is
         * the first one the sibling walk visits; no positions needed */
        return e == first_child(c->el[e].parent);
    } else {
        if (!siblings_ready(c, c->el[e].parent))
            return 0;
        /* a program whose header did not ask for sibling positions (only a
         * hand-made one: the compiler always sets it) matches nothing */
        if (!(flags & FP_SEL_NTH_OF_TYPE ? c->tpos && c->trpos : c->pos && c->rpos))
            return 0;
        if (flags & FP_SEL_NTH_OF_TYPE)
            pos = last ? c->trpos[e] : c->tpos[e];
        else
            pos = last ? c->rpos[e] : c->pos[e];
    }
    return anb(t[2], t[3], pos);
}

/* byte b closes an attribute value opened with quote (0: unquoted) */
static int value_ends_at(uint8_t b, uint8_t quote)
{
    return quote ? b == quote : is_ws(b) || b == '>';
}

/* the bytes that may end a raw value (whitespace, '>', either quote) or
 * decode to something else ('&', NUL, CR) */
static const uint8_t value_mark[256] = {
    ['\t'] = 1, ['\n'] = 1, ['\f'] = 1, ['\r'] = 1, [' '] = 1, ['>'] = 1,
    ['"'] = 1, ['\''] = 1, ['&'] = 1, [0] = 1,
};

/* the operators raw_compare answers from the raw value's first bytes */
static int raw_comparable(int32_t op)
{
    return op == FP_SEL_A_EQUALS || op == FP_SEL_A_PREFIX || op == FP_SEL_A_DASH;
}

/* what the byte b after a raw value's first bytes, which equal the pattern's,
 * says of op (raw_compare) */
static inline int raw_after(uint8_t b, uint8_t quote, int32_t op)
{
    if (op == FP_SEL_A_PREFIX || value_ends_at(b, quote))
        return 1;
    if (op == FP_SEL_A_EQUALS)
        return 0;   /* more follows, and a reference decodes to one character or more */
    return b == '-' ? 1 : b == '&' ? -1 : 0;   /* FP_SEL_A_DASH: "&#45;" is a '-' */
}

/* [a=v], [a^=v] and [a|=v] (op) on the raw value at v (NULL: none), closed
 * by quote (0: whitespace or '>'), read no further than the pattern: a long
 * URL is not scanned to its end. 1 or 0 when the raw bytes settle it, -1 when
 * the value must be decoded first: a '&', NUL or CR where the answer depends
 * on it (decoding changes nothing before the first of them). */
static int raw_compare(const uint8_t *v, uint8_t quote, const uint8_t *end, const uint8_t *want, size_t tlen,
                       int32_t op, int icase)
{
    if (!v)
        return 0;   /* <x a>: the value is empty and the pattern is not */
    /* most candidates differ at the first byte (a relative URL against
     * ^='http'): settled before the loop's set-up (v < end: a value starts
     * before its tag's '>') */
    uint8_t b0 = v[0];
    if (tlen && b0 != want[0] && !value_mark[b0] && (!icase || lower(b0) != lower(want[0])))
        return 0;
    /* a value ends (a quote, whitespace or '>') before its tag does: a shorter
     * value settles the answer within the tag's bytes */
    size_t room = (size_t)(end - v), n = tlen < room ? tlen : room;
    for (size_t k = 0; k < n; k++) {
        uint8_t b = v[k];
        if (value_mark[b]) {   /* one test for the bytes below */
            if (b == '&' || b == 0 || b == '\r')
                return -1;
            if (value_ends_at(b, quote))
                return 0;   /* the value is shorter than the pattern */
        }
        if (icase ? lower(b) != lower(want[k]) : b != want[k])
            return 0;
    }
    if (n == room)
        return -1;   /* not reached: every start tag ends with '>' */
    return raw_after(v[tlen], quote, op);
}

/* whether attribute test t compares values at element e ignoring ASCII case:
 * the `i` flag, or an attribute the HTML Standard lists, on an HTML element */
static int attr_icase(const fp_sel_ctx *c, const int32_t *t, uint32_t e)
{
    return (t[2] & FP_SEL_AF_ICASE) ||
           ((t[2] & FP_SEL_AF_ICASE_HTML) && !(c->el[e].flags & (FP_EF_SVG | FP_EF_MATHML)));
}

/* value v[0, n) against want[0, tlen) by operator op (any but [a]) */
static int value_matches(const uint8_t *v, size_t n, const uint8_t *want, size_t tlen, int32_t op, int icase)
{
    switch (op) {
    case FP_SEL_A_EQUALS:
        return n == tlen && bytes_eq(v, want, tlen, icase);
    case FP_SEL_A_INCLUDES:
        return has_token(v, n, want, tlen, icase);
    case FP_SEL_A_DASH:
        return (n == tlen || (n > tlen && v[tlen] == '-')) && bytes_eq(v, want, tlen, icase);
    case FP_SEL_A_PREFIX:
        return n >= tlen && bytes_eq(v, want, tlen, icase);
    case FP_SEL_A_SUFFIX:
        return n >= tlen && bytes_eq(v + n - tlen, want, tlen, icase);
    default: /* FP_SEL_A_SUBSTRING */
        return bytes_find(v, n, want, tlen, icase);
    }
}

static int test_attr(fp_sel_ctx *c, const int32_t *t, uint32_t e)
{
    size_t nlen, tlen, vlen;
    const uint8_t *name = fp_sel_str(c, t[3], &nlen), *want = fp_sel_str(c, t[4], &tlen), *v;
    if (t[1] == FP_SEL_A_EXISTS)
        return fp_attr_present(c->doc, e, (const char *)name, nlen);
    int icase = attr_icase(c, t, e);
    if (raw_comparable(t[1]) && tlen) {
        uint8_t quote;
        if (!fp_attr_value_at(c->doc, e, (const char *)name, nlen, &v, &quote))
            return 0;
        int r = raw_compare(v, quote, c->doc->buf + c->el[e].inner_start, want, tlen, t[1], icase);
        if (r >= 0)
            return r;
    }
    return fp_sel_attr_value(c, e, name, nlen, &v, &vlen) && value_matches(v, vlen, want, tlen, t[1], icase);
}

/* whether element e's text, built as .text builds it, is document white
 * space only: `&#32;` or `&Tab;` is white space, a NUL the HTML rules drop
 * is nothing (legacy documents mark other references with a NUL byte) */
static int text_is_white(fp_sel_ctx *c, uint32_t e)
{
    fp_text_opts o;
    memset(&o, 0, sizeof o);
    c->text.len = 0;
    if (fp_text(c->doc, e, &o, &c->text) != 0) {
        c->oom = 1;
        return 0;
    }
    for (size_t k = 0; k < c->text.len; k++)
        if (!is_ws(c->text.data[k]))
            return 0;
    return 1;
}

/* :empty (Selectors 4, 14.2): no element children and no text other than
 * document white space; comments and stray end tags are not content. */
static int test_empty(fp_sel_ctx *c, uint32_t e)
{
    const fp_elem *x = &c->el[e];
    if (is_template(c, e))
        return 1;
    if (fp_text_fosters(c->doc, (int32_t)e)) {
        /* a table part's own text is white space (the rest was moved before the
         * table), and so are the elements flagged: its children are the others */
        for (uint32_t j = e + 1; j <= x->last; j = c->el[j].last + 1)
            if (!(c->el[j].flags & FP_EF_FOSTERED))
                return 0;
        return 1;
    }
    if (x->last != e)
        return 0;
    if (x->tag == FP_TAG_FRAMESET && !(x->flags & (FP_EF_SVG | FP_EF_MATHML)))
        return 1;   /* "in frameset" keeps whitespace only, and ignores every tag but its own three */
    const uint8_t *p = c->doc->buf + x->inner_start, *end = c->doc->buf + x->inner_end;
    int raw = (x->flags & FP_EF_RAWTEXT) != 0;
    while (p < end) {
        if (is_ws(*p)) {
            p++;
            continue;
        }
        /* a reference may decode to white space; a NUL is dropped in HTML
         * content and is U+FFFD in foreign content, RCDATA and raw text */
        if ((*p == '&' && (!raw || (x->flags & FP_EF_RCDATA))) || (*p == 0 && !raw))
            return text_is_white(c, e);
        if (raw || *p != '<' || p + 1 >= end)
            return 0;
        /* in svg and math a CDATA section is text, which may be more than white space */
        if ((x->flags & (FP_EF_SVG | FP_EF_MATHML)) && end - p >= 9 && memcmp(p, "<![CDATA[", 9) == 0)
            return text_is_white(c, e);
        const uint8_t *q;
        if (end - p >= 4 && memcmp(p, "<!--", 4) == 0) {
            const uint8_t *s = p + 4;
            if (s < end && *s == '>') {
                q = s; /* "<!-->": abrupt closing of an empty comment */
            } else if (end - s >= 2 && s[0] == '-' && s[1] == '>') {
                q = s + 1; /* "<!--->" */
            } else {
                q = end - 1; /* EOF in comment */
                for (const uint8_t *r = s; r + 3 <= end; r++)
                    if (r[0] == '-' && r[1] == '-' && r[2] == '>') {
                        q = r + 2;
                        break;
                    }
            }
        } else if (p[1] == '!' || p[1] == '?' || p[1] == '/') {
            /* bogus comments, doctype, end tags: up to U+003E GREATER-THAN SIGN */
            q = memchr(p, '>', (size_t)(end - p));
            if (!q)
                q = end;
        } else {
            return 0; /* a literal '<' in text */
        }
        p = q + 1;
    }
    return 1;
}

static int test_defined(const fp_sel_ctx *c, uint32_t e)
{
    if (c->el[e].flags & (FP_EF_SVG | FP_EF_MATHML))
        return 1;
    size_t len;
    const uint8_t *name = fp_tag_name(c->doc, c->el[e].tag, &len);
    fp_attr a;
    /* custom elements (a '-' in the name) and customized built-ins (is="...")
     * are undefined: no script ever registers them here */
    return !memchr(name, '-', len) && !fp_attr_find(c->doc, e, "is", 2, &a);
}

/* :contains() over the element's text; :-soup-contains-own() over its own
 * text only (the text nodes that are its children) */
static int test_contains(fp_sel_ctx *c, const int32_t *t, uint32_t e)
{
    if (t[0] == FP_SEL_T_CONTAINS && c->up_ok) {   /* a run: maybe many candidates */
        int r = fp_sel_contains_indexed(c, t, e);
        if (r >= 0)
            return r;
    }
    fp_text_opts o;
    memset(&o, 0, sizeof o);
    o.own = t[0] == FP_SEL_T_CONTAINS_OWN;
    uint16_t skip = (uint16_t)c->t_template;
    if (c->t_template >= 0) {
        o.skip = &skip;
        o.nskip = 1;
    }
    c->text.len = 0;
    if (!is_template(c, e) && fp_text(c->doc, e, &o, &c->text) != 0) {
        c->oom = 1;
        return 0;
    }
    for (int32_t k = 0; k < t[1]; k++) {
        size_t len;
        const uint8_t *s = fp_sel_str(c, t[2 + k], &len);
        if (bytes_find(c->text.data, c->text.len, s, len, 0))
            return 1;
    }
    return 0;
}

/* NOTE: :has(K C) with one combinator and one compound (the compiler rewrites
 * longer relative selectors into nested one-step :has). Descendant and later-
 * sibling answers are memoised per element, so asking every element of a page
 * costs O(elements) rather than O(elements x subtree). */
static int test_has(fp_sel_ctx *c, const int32_t *t, uint32_t e)
{
    int32_t comb = t[1], target = t[2];
    const fp_elem *el = c->el;
    if ((comb == FP_SEL_COMB_CHILD || comb == FP_SEL_COMB_DESCENDANT) && is_template(c, e))
        return 0;
    if (comb == FP_SEL_COMB_CHILD) {
        for (uint32_t x = e + 1; x <= el[e].last; x = el[x].last + 1)
            if (fp_sel_match_compound(c, target, x))
                return 1;
        return 0;
    }
    if (comb == FP_SEL_COMB_NEXT) {
        int32_t s = next_sibling(c, e);
        return s >= 0 && fp_sel_match_compound(c, target, (uint32_t)s);
    }
    void **m = &c->has_memo[t[3]];
    uint8_t known = fp_sel_memo_byte(*m, e);
    if (known)
        return known == 1;
    if (comb == FP_SEL_COMB_LATER) {
        uint32_t end = child_end(c, el[e].parent), s = el[e].last + 1;
        uint8_t r = 2;
        for (; s < end; s = el[s].last + 1) {
            if (fp_sel_match_compound(c, target, s)) {
                r = 1;
                break;
            }
            if ((known = fp_sel_memo_byte(*m, s)) != 0) {
                r = known;
                break;
            }
        }
        for (uint32_t x = e; x < s; x = el[x].last + 1)
            fp_sel_memo_set_byte(c, m, x, r);
        return r == 1;
    }
    /* descendant: scan the subtree, skipping subtrees already known not to have one */
    for (uint32_t d = e + 1; d <= el[e].last;) {
        if (fp_sel_match_compound(c, target, d) || fp_sel_memo_byte(*m, d) == 1) {
            for (int32_t a = el[d].parent; a >= 0 && (uint32_t)a != e; a = el[a].parent)
                fp_sel_memo_set_byte(c, m, (uint32_t)a, 1); /* were provisionally "no" */
            fp_sel_memo_set_byte(c, m, e, 1);
            return 1;
        }
        /* a subtree known not to have one is skipped; otherwise "no" is provisional:
         * corrected above if a match turns up inside */
        int skip = fp_sel_memo_byte(*m, d) == 2 || is_template(c, d);
        fp_sel_memo_set_byte(c, m, d, 2);
        d = skip ? el[d].last + 1 : d + 1;
    }
    fp_sel_memo_set_byte(c, m, e, 2);
    return 0;
}

/* ---------------------------------------------------------------- matching */

int fp_sel_match_compound(fp_sel_ctx *c, int32_t at, uint32_t e)
{
    const int32_t *w = c->w;
    int32_t ntests = w[at + 1];
    const int32_t *t = w + at + 2;
    for (int32_t k = 0; k < ntests; k++) {
        size_t len;
        const uint8_t *s, *v;
        size_t vlen;
        switch (t[0]) {
        case FP_SEL_T_TAG: {
            int id = c->tag_ids[t[1]];
            if (id < 0 || c->el[e].tag != (uint16_t)id)
                return 0;
            t += 2;
            break;
        }
        case FP_SEL_T_ID:   /* in quirks mode, ASCII case-insensitive (HTML 2.5.1, "case-sensitivity") */
            s = fp_sel_str(c, t[1], &len);
            if (!fp_sel_attr_value(c, e, (const uint8_t *)"id", 2, &v, &vlen) || vlen != len ||
                !bytes_eq(v, s, len, c->doc->quirks))
                return 0;
            t += 2;
            break;
        case FP_SEL_T_CLASS:
            s = fp_sel_str(c, t[1], &len);
            if (!fp_sel_attr_value(c, e, (const uint8_t *)"class", 5, &v, &vlen) ||
                !has_token(v, vlen, s, len, c->doc->quirks))
                return 0;
            t += 2;
            break;
        case FP_SEL_T_ATTR:
            if (!test_attr(c, t, e))
                return 0;
            t += 5;
            break;
        case FP_SEL_T_NOT:
            if (match_list(c, t[1], e))
                return 0;
            t += 2;
            break;
        case FP_SEL_T_IS:
            if (!match_list(c, t[1], e))
                return 0;
            t += 2;
            break;
        case FP_SEL_T_HAS:
            if (!test_has(c, t, e))
                return 0;
            t += 4;
            break;
        case FP_SEL_T_NTH:
            if (!test_nth(c, t, e))
                return 0;
            t += 6;
            break;
        case FP_SEL_T_ROOT:
            if (e != 0)
                return 0;
            t += 1;
            break;
        case FP_SEL_T_SCOPE:
            if (e != (c->scope < 0 ? 0u : (uint32_t)c->scope))
                return 0;
            t += 1;
            break;
        case FP_SEL_T_EMPTY:
            if (!test_empty(c, e))
                return 0;
            t += 1;
            break;
        case FP_SEL_T_DEFINED:
            if (!test_defined(c, e))
                return 0;
            t += 1;
            break;
        case FP_SEL_T_CONTAINS: case FP_SEL_T_CONTAINS_OWN:
            if (!test_contains(c, t, e))
                return 0;
            t += 2 + t[1];
            break;
        case FP_SEL_T_LANG:
            if (!fp_sel_lang(c, t, e))
                return 0;
            t += 2 + t[1];
            break;
        case FP_SEL_T_OPTION_SELECTED: case FP_SEL_T_RADIO_KEPT: case FP_SEL_T_DEFAULT_BUTTON:
        case FP_SEL_T_RADIO_UNCHECKED: case FP_SEL_T_IN_RANGE: case FP_SEL_T_OUT_OF_RANGE:
            if (!fp_sel_form_state(c, t[0], e))
                return 0;
            t += 1;
            break;
        case FP_SEL_T_NAMESPACE:
            if (!(t[1] & (1 << (c->el[e].flags & (FP_EF_SVG | FP_EF_MATHML)))))
                return 0;
            t += 2;
            break;
        case FP_SEL_T_DIR:
            if (!fp_sel_dir(c, t, e))
                return 0;
            t += 3;
            break;
        default: /* FP_SEL_T_FALSE */
            return 0;
        }
    }
    return 1;
}

static int match_from(fp_sel_ctx *c, const int32_t *cx, int32_t k, uint32_t e);

/* the paged memo of the walks from compound k of cx (key: k up, ~k sideways),
 * NULL when there is none; with `make`, one is made if a slot is free */
static void **walk_memo(fp_sel_ctx *c, const int32_t *cx, int32_t key, int make)
{
    for (int j = 0; j < c->nup; j++)
        if (c->up[j].cx == cx && c->up[j].k == key)
            return &c->up[j].memo;
    if (!make || c->nup == (int)(sizeof c->up / sizeof c->up[0]))
        return NULL;
    c->up[c->nup].cx = cx;
    c->up[c->nup].k = key;
    c->up[c->nup].memo = NULL;   /* a page at a time, as the scope's walks reach it */
    return &c->up[c->nup++].memo;
}

/* The tag id compound `at` requires when its first test is a type selector,
 * else -1 (an absent name never reaches here: the prefilter said never). */
int fp_sel_required_tag(const fp_sel_ctx *c, int32_t at)
{
    const int32_t *w = c->w;
    return w[at + 1] > 0 && w[at + 2] == FP_SEL_T_TAG ? c->tag_ids[w[at + 3]] : -1;
}

static int32_t walk_step(fp_sel_ctx *c, int sideways, int32_t x)
{
    return sideways ? prev_sibling(c, (uint32_t)x) : parent_of(c, (uint32_t)x);
}

/* The left side of a descendant combinator (up: compound k and the rest tried
 * at x, then at each ancestor) or of a later-sibling one (sideways: at x, then
 * at each earlier sibling), until one matches or one says no element further
 * on can (up: M_NO_GLOBAL; sideways: M_NO_DESCENDANT too, as siblings share
 * their ancestors). A short walk is done as is; past 32 steps the answers are
 * memoised per element, since every element the walk passes has the answer of
 * the next one: `span div` over 50,000 nested divs and `div ~ div ~ p` over
 * 20,000 children are then linear, not O(n x depth) or O(n x children). */
static int match_walk(fp_sel_ctx *c, const int32_t *cx, int32_t k, int32_t x, int sideways)
{
    /* `ul li a`: an element of another tag fails compound k at once (M_NO_SIBLING,
     * go on), the tag compared here without a call per element */
    int need = fp_sel_required_tag(c, cx[2 + 2 * k]);
    int32_t key = sideways ? ~k : k;
    void **m = walk_memo(c, cx, key, 0);
    int r = sideways ? M_NO_DESCENDANT : M_NO_GLOBAL;   /* when the walk runs out */
    int32_t y = x;
    for (int steps = 0; y >= 0; steps++, y = walk_step(c, sideways, y)) {
        if (steps == 32 && !m && c->up_ok)
            m = walk_memo(c, cx, key, 1);
        const uint8_t *seen = m && *m ? memo_peek(*m, (uint32_t)y, 1) : NULL;
        if (seen && *seen) {
            r = *seen - 1;
            break;
        }
        if (need >= 0 && c->el[y].tag != (uint16_t)need)
            continue;
        int here = match_from(c, cx, k, (uint32_t)y);
        if (here == M_MATCH || here == M_NO_GLOBAL || (sideways && here == M_NO_DESCENDANT)) {
            r = here;
            break;
        }
    }
    /* once walks grow long, each one leaves its answer on the way it went */
    for (int32_t z = x; m && z >= 0; z = walk_step(c, sideways, z)) {
        uint8_t *slot = memo_at(c, m, (uint32_t)z, 1);
        if (slot)
            *slot = (uint8_t)(r + 1);   /* out of memory: c->oom fails the run */
        if (z == y)
            break;
    }
    return r;
}

/* Compound k of complex selector cx (0 = rightmost) at element e, then the
 * rest leftwards. The M_NO_* results let a descendant or later-sibling loop
 * stop early (see Servo's matches_complex_selector_internal), which keeps
 * `a b c d` from retrying every ancestor combination. */
static int match_rest(fp_sel_ctx *c, const int32_t *cx, int32_t k, uint32_t e);

static int match_from(fp_sel_ctx *c, const int32_t *cx, int32_t k, uint32_t e)
{
    if (!fp_sel_match_compound(c, cx[2 + 2 * k], e))
        return M_NO_SIBLING;
    return match_rest(c, cx, k, e);
}

/* What match_from asks once compound k matched e: the combinator to its left
 * and the compounds beyond it. */
static int match_rest(fp_sel_ctx *c, const int32_t *cx, int32_t k, uint32_t e)
{
    if (k + 1 == cx[1])
        return M_MATCH;
    int32_t comb = cx[3 + 2 * k];
    if (comb == FP_SEL_COMB_DESCENDANT)
        return match_walk(c, cx, k + 1, parent_of(c, e), 0);
    if (comb == FP_SEL_COMB_LATER)
        return match_walk(c, cx, k + 1, prev_sibling(c, e), 1);
    int32_t x = comb == FP_SEL_COMB_NEXT ? prev_sibling(c, e) : parent_of(c, e);
    if (x < 0)
        return comb == FP_SEL_COMB_NEXT ? M_NO_DESCENDANT : M_NO_GLOBAL;
    int r = match_from(c, cx, k + 1, (uint32_t)x);
    /* a child whose parent fails: its siblings have the same parent */
    return comb == FP_SEL_COMB_CHILD && r == M_NO_SIBLING ? M_NO_DESCENDANT : r;
}

static int match_list(fp_sel_ctx *c, int32_t at, uint32_t e)
{
    const int32_t *w = c->w;
    for (int32_t k = 0; k < w[at + 1]; k++)
        if (match_from(c, w + w[at + 2 + k], 0, e) == M_MATCH)
            return 1;
    return 0;
}

/* ---------------------------------------------------------------- prefilter */

/* NOTE: a cheap necessary condition for each top-level complex selector, taken
 * from its rightmost compound and checked before any attribute is parsed: the
 * tag id, the attribute names' bits in the element's Bloom filter (fp_attr_bit),
 * and strings that must occur in the start tag's bytes (id, class and
 * attribute values, exactly, but for ASCII case of id and class in quirks
 * mode; unless the tag holds a '&', since a character reference could spell
 * the value). Most candidates fail on the tag or the
 * bits, without reading the source; the rest on one pass over the start tag.
 * When the filter decides the whole compound (`a`, `a[href]`: href's bit is
 * exact), a candidate that passes goes on to the combinator at once. */
enum { PREFILTER_MAX = 16, NEEDLES_MAX = 4, PREFETCH_AHEAD = 8 };

typedef struct {
    int tag;                   /* -1 any; otherwise the id the candidate must have */
    int never;                 /* the compound names a tag absent from the document */
    int exact;                 /* passing decides the compound: `a`, `a[href]` (exact bit) */
    uint16_t bits;             /* fp_attr_bit of each attribute it names */
    int n;
    /* bytes the start tag must hold; a value's may also be spelt with a
     * character reference (then the tag holds a '&'), a name's may not */
    struct { const uint8_t *s; size_t len; int icase, is_name; } needle[NEEDLES_MAX];
    /* [a=v], [a^=v] or [a|=v] when it is the compound's one test besides the
     * tag: decided here (value_test), so passing decides the compound */
    const int32_t *vt;   /* its test words, or NULL */
    fp_attr_key vt_key;  /* its attribute's name, prepared for each candidate's start tag */
    const uint8_t *vt_want;
    size_t vt_tlen;
    /* a pattern of 1-8 bytes, none of them a value_mark, as 8 bytes to compare
     * the raw value's with at once (raw_compare_word, fp_word8); else vt_word_ok = 0 */
    int vt_word_ok;
    uint64_t vt_word, vt_fold, vt_keep;
} prefilter_t;

/* A U+FFFD in the selector may come from a NUL in the source, a line feed
 * from a CR: no byte test for them, no bit for the U+FFFD. */
static void add_needle(prefilter_t *f, const uint8_t *s, size_t len, int icase, int is_name)
{
    if (f->n < NEEDLES_MAX && len > 0 && !fp_has_replacement_char(s, len) && !memchr(s, '\n', len)) {
        f->needle[f->n].s = s;
        f->needle[f->n].len = len;
        f->needle[f->n].icase = icase;
        f->needle[f->n].is_name = is_name;
        f->n++;
    }
}

static void add_name(prefilter_t *f, const uint8_t *s, size_t len)
{
    if (len > 0 && !fp_has_replacement_char(s, len))
        f->bits |= fp_attr_bit(s, len);
}

/* A compound that names a tag absent from the document (a name it never
 * uses, or with the tag index, a known name with no element outside
 * templates), or is false, matches nothing. */
static int compound_never(const fp_sel_ctx *c, int32_t at, const uint32_t *index)
{
    const int32_t *w = c->w, *t = w + at + 2;
    for (int32_t k = 0; k < w[at + 1]; k++) {
        if (t[0] == FP_SEL_T_FALSE)
            return 1;
        int tag = t[0] == FP_SEL_T_TAG ? c->tag_ids[t[1]] : 0;
        if (tag < 0 || (index && tag > 0 && !fp_select_index_count(index, (uint32_t)tag)))
            return 1;
        t += test_words(t);
    }
    return 0;
}

/* raw_compare_word finds the first byte that differs from a word's low end */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LITTLE_ENDIAN_WORDS 1
#else
#define LITTLE_ENDIAN_WORDS 0
#endif

/* f's pattern v[0, n) as words for raw_compare_word, when it is short and
 * holds no byte that ends a raw value or decodes to something else */
static void word_init(prefilter_t *f, const uint8_t *v, size_t n)
{
    if (!LITTLE_ENDIAN_WORDS || n == 0 || n > 8)
        return;
    for (size_t k = 0; k < n; k++)
        if (value_mark[v[k]])
            return;
    fp_word8(v, n, &f->vt_word, &f->vt_fold, &f->vt_keep);
    f->vt_word_ok = 1;
}

/* index: the tag index when it covers the run (scope outside templates), else NULL */
static void prefilter_build(const fp_sel_ctx *c, const int32_t *cx, prefilter_t *f, const uint32_t *index)
{
    f->tag = -1;   /* no memset: needle[] is read only below n */
    f->never = 0;
    f->bits = 0;
    f->n = 0;
    f->exact = 1;
    f->vt = NULL;
    f->vt_word_ok = 0;
    const int32_t *w = c->w;
    /* `nav a` on a page without <nav>: every compound of the chain must match */
    for (int32_t k = 0; k < cx[1]; k++)
        f->never |= compound_never(c, cx[2 + 2 * k], index);
    int32_t at = cx[2];
    const int32_t *t = w + at + 2;
    struct { const uint8_t *s; size_t len; } name[NEEDLES_MAX];   /* of [name] tests */
    int names = 0, others = 0, href;   /* others: tests other than the tag's */
    for (int32_t k = 0; k < w[at + 1]; k++) {
        size_t len, vlen;
        const uint8_t *s, *v;
        others += t[0] != FP_SEL_T_TAG;
        switch (t[0]) {
        case FP_SEL_T_TAG:
            /* two different names (a program the compiler does not emit): nothing is both */
            f->never |= c->tag_ids[t[1]] < 0 || (f->tag >= 0 && f->tag != c->tag_ids[t[1]]);
            f->tag = c->tag_ids[t[1]];
            break;
        case FP_SEL_T_FALSE:
            f->never = 1;
            break;
        case FP_SEL_T_ID:
        case FP_SEL_T_CLASS:
            f->exact = 0;
            if (t[0] == FP_SEL_T_ID)
                add_name(f, (const uint8_t *)"id", 2);
            else
                add_name(f, (const uint8_t *)"class", 5);
            s = fp_sel_str(c, t[1], &len);
            add_needle(f, s, len, c->doc->quirks, 0);
            break;
        case FP_SEL_T_ATTR:
            s = fp_sel_str(c, t[3], &len);
            add_name(f, s, len);
            href = fp_attr_is_href(s, len);
            f->exact &= t[1] == FP_SEL_A_EXISTS && href;
            if (t[1] == FP_SEL_A_EXISTS && !href && names < NEEDLES_MAX) {
                name[names].s = s;
                name[names++].len = len;
            }
            /* [href^=v], [href=v], [href|=v]: an href its exact bit says is
             * there is found, and its first bytes compared, in less than a
             * needle's search through the whole tag costs (a[href^=http]: -12%);
             * a value searched (*=, $=, ~=) keeps the needle, which rejects most
             * tags sooner than finding the value does (without it a[href$='.html']
             * took 14% longer) */
            v = fp_sel_str(c, t[4], &vlen);
            if (t[1] != FP_SEL_A_EXISTS && t[2] == 0 && !(raw_comparable(t[1]) && href))
                add_needle(f, v, vlen, 0, 0);
            /* [a] but [href] (its exact bit decides it), [a op v] with a value;
             * a U+FFFD may stand for a raw NUL, whose bit differs: none was set for it */
            if ((t[1] == FP_SEL_A_EXISTS ? !href : vlen > 0) && len && !fp_has_replacement_char(s, len)) {
                f->vt = t;   /* kept if it is the compound's one test besides the tag */
                f->vt_want = v;
                f->vt_tlen = vlen;
                fp_attr_key_init(&f->vt_key, (const char *)s, len);
                word_init(f, v, vlen);
            }
            break;
        default:
            f->exact = 0;
            break;
        }
        t += test_words(t);
    }
    /* `[itemprop]` without a tag: most elements that pass its bit carry a
     * name sharing it (data-*, loading), and a search for the name rejects
     * their tags faster than reading their attributes. With a tag (`img[src]`)
     * most candidates have the name: the search would only add to their cost */
    for (int k = 0; k < names && f->tag < 0; k++)
        add_needle(f, name[k].s, name[k].len, 1, 1);
    if (others == 1 && f->vt)
        f->exact = 1;
    else
        f->vt = NULL;
}

/* raw_compare for f's pattern (prefilter_t.vt_word_ok), its bytes compared
 * at once: the first that differs, if any, decides, as in the byte loop.
 * v has 8 bytes to read before the end of the document. */
static inline int raw_compare_word(const prefilter_t *f, const uint8_t *v, uint8_t quote, int32_t op, int icase)
{
    uint64_t w;
    memcpy(&w, v, 8);
    uint64_t fold = icase ? f->vt_fold : 0;
    uint64_t diff = ((w | fold) ^ (f->vt_word | fold)) & f->vt_keep;
    if (diff) {
        uint8_t b = v[__builtin_ctzll(diff) >> 3];   /* little-endian: byte k is bits 8k.. */
        return b == '&' || b == 0 || b == '\r' ? -1 : 0;
    }
    /* the pattern's bytes end no value and no tag: the value goes on past them */
    return raw_after(v[f->vt_tlen], quote, op);
}

/* f's [a] or [a op v] on a candidate whose attribute bits passed: found
 * without testing its bit again, a value compared on its raw first bytes
 * (=, ^=, |=: -1 for one that must be decoded, which the compound's own test
 * then does), or read whole, decoded if it must be, and searched (*=, $=, ~=) */
static __attribute__((noinline)) int value_test(fp_sel_ctx *c, const prefilter_t *f, uint32_t e)
{
    const int32_t *t = f->vt;
    const uint8_t *v;
    if (t[1] == FP_SEL_A_EXISTS || raw_comparable(t[1])) {
        uint8_t quote;
        if (!fp_attr_value_at_key(c->doc, e, &f->vt_key, &v, &quote))
            return 0;
        if (t[1] == FP_SEL_A_EXISTS)
            return 1;
        if (f->vt_word_ok && v && c->doc->buf + c->doc->len - v >= 8)
            return raw_compare_word(f, v, quote, t[1], attr_icase(c, t, e));
        return raw_compare(v, quote, c->doc->buf + c->el[e].inner_start, f->vt_want, f->vt_tlen, t[1],
                           attr_icase(c, t, e));
    }
    size_t n;
    return fp_sel_attr_value(c, e, (const uint8_t *)f->vt_key.name, f->vt_key.len, &v, &n) &&
           value_matches(v, n, f->vt_want, f->vt_tlen, t[1], attr_icase(c, t, e));
}

/* A candidate that passed filter f: the rest of complex selector cx. Inlined
 * in the candidate loops, value_test not: called out of line, `a[href]`
 * took 19% more instructions. */
static inline __attribute__((always_inline)) int match_passed(fp_sel_ctx *c, const prefilter_t *f, const int32_t *cx, uint32_t e)
{
    int decided = 1;
    if (f->vt && (decided = value_test(c, f, e)) == 0)
        return 0;
    if (f->exact && decided > 0)   /* a one-compound selector (`a[href]`) is matched: no call */
        return cx[1] == 1 || match_rest(c, cx, 0, e) == M_MATCH;
    return match_from(c, cx, 0, e) == M_MATCH;
}

static int needles_pass(const fp_sel_ctx *c, const prefilter_t *f, uint32_t e)
{
    const uint8_t *p = c->doc->buf + c->el[e].start;
    size_t len = c->el[e].inner_start - c->el[e].start;
    int amp = -1;
    for (int k = 0; k < f->n; k++) {
        const uint8_t *s = f->needle[k].s;
        size_t n = f->needle[k].len;
        if (bytes_find_in(p, len, s, n, f->needle[k].icase, c->doc->buf + c->doc->len))
            continue;
        if (f->needle[k].is_name)
            return 0;
        if (amp < 0)
            amp = memchr(p, '&', len) != NULL;
        if (!amp)
            return 0;
    }
    return 1;
}

/* inlined in the candidate loops: most candidates are settled by the first line */
static inline int prefilter_pass(const fp_sel_ctx *c, const prefilter_t *f, uint32_t e)
{
    if (f->never || (f->tag >= 0 && c->el[e].tag != (uint16_t)f->tag) || (c->el[e].attr_bits & f->bits) != f->bits)
        return 0;
    return f->n == 0 || needles_pass(c, f, e);
}

/* ---------------------------------------------------------------- setup */

/* Program w's string bytes: they follow its code words. */
static const uint8_t *program_pool(const int32_t *w)
{
    return (const uint8_t *)w + 4 * (size_t)w[FP_SEL_H_CODE_LEN];
}

/* The id in doc of program w's tag slot k, a (string, known id) pair: the
 * known id, else the document's interned one, else -1 (no such element). */
static int32_t slot_tag_id(const fp_doc *doc, const int32_t *w, int32_t k)
{
    const int32_t *slot = w + w[FP_SEL_H_TAGS] + 2 * k;
    if (slot[1])
        return slot[1];
    const int32_t *str = w + w[FP_SEL_H_STRS] + 2 * slot[0];   /* (offset, length), as fp_sel_str reads it */
    return fp_tag_interned(doc, program_pool(w) + str[0], (size_t)str[1]);
}

/* The fields every context starts with: the document, and the known tag ids
 * of the form states (a program without them keeps them -1: no test reads them). */
static void ctx_start(fp_sel_ctx *c, const fp_doc *doc, int forms)
{
    /* up[] and small_block are left out: a select_one in a loop would spend
     * more on zeroing them than on matching */
    memset(c, 0, offsetof(fp_sel_ctx, up));
    c->doc = doc;
    c->el = doc->elems;
    c->n = doc->n;
    c->scope = -1;
    c->meta_lang = -2;
    c->t_select = forms ? FP_TAG_SELECT : -1;
    c->t_option = forms ? FP_TAG_OPTION : -1;
    c->t_optgroup = forms ? FP_TAG_OPTGROUP : -1;
    c->t_hr = forms ? FP_TAG_HR : -1;
    c->t_datalist = forms ? FP_TAG_DATALIST : -1;
    c->t_input = forms ? FP_TAG_INPUT : -1;
    c->t_button = forms ? FP_TAG_BUTTON : -1;
    c->t_form = forms ? FP_TAG_FORM : -1;
    c->t_template = FP_TAG_TEMPLATE;
}

void fp_sel_ctx_bare(fp_sel_ctx *c, const fp_doc *doc)
{
    ctx_start(c, doc, 1);
}

static int ctx_init(fp_sel_ctx *c, const fp_doc *doc, int32_t scope, const uint8_t *prog,
                    const fp_select_tables *tables)
{
    const int32_t flags = ((const int32_t *)prog)[FP_SEL_H_FLAGS];
    ctx_start(c, doc, (flags & FP_SEL_F_FORMS) != 0);
    c->w = (const int32_t *)prog;
    c->pool = program_pool(c->w);
    c->scope = scope;
    c->flags = flags;
    const uint32_t *siblings = tables ? tables->siblings : NULL;
    c->index = tables ? tables->index : NULL;
    /* built with the form tag ids, which a program without F_FORMS leaves -1 */
    const int32_t form_tables = FP_SEL_F_FORMS | FP_SEL_F_FORM_TABLES;
    if (tables && tables->forms && (flags & form_tables) == form_tables)
        c->forms = (struct fp_sel_forms *)tables->forms;   /* shared: select_forms.c writes none of it */
    if (siblings) {
        uint32_t n = doc->n;
        c->sib = SIB_BORROWED;
        c->prev = (int32_t *)(void *)fp_sib_column(siblings, n, FP_SIB_PREV);
        c->pos = fp_sib_column(siblings, n, FP_SIB_POS);
        c->rpos = fp_sib_column(siblings, n, FP_SIB_RPOS);
        if (c->flags & FP_SEL_F_OF_TYPE) {   /* as the run's own tables: none unless asked for */
            c->tpos = fp_sib_column(siblings, n, FP_SIB_TPOS);
            c->trpos = fp_sib_column(siblings, n, FP_SIB_TRPOS);
        }
    }
    int32_t ntags = c->w[FP_SEL_H_NTAGS], nhas = c->w[FP_SEL_H_NHAS], nnth = c->w[FP_SEL_H_NNTHOF];
    /* one block for the per-slot tables: most programs need a few words */
    size_t nptr = (size_t)nhas + 2 * (size_t)nnth;
    size_t nint = ((size_t)ntags * sizeof(int) + sizeof(void *) - 1) / sizeof(void *);
    /* a select_one in a scraping loop runs a few-word program: no calloc */
    void **block;
    if (nptr + nint <= 8)
        block = memset(c->small_block, 0, sizeof c->small_block);
    else if (!(block = fp_sel_zalloc(c, nptr + nint, sizeof(void *))))
        return -1;
    c->block = block;
    c->has_memo = block;
    c->nth_count = block + nhas;
    c->nth_pos = block + nhas + nnth;
    c->tag_ids = (int *)(void *)(block + nptr);
    for (int32_t k = 0; k < ntags; k++)
        c->tag_ids[k] = slot_tag_id(doc, c->w, k);
    return 0;
}

/* Most runs allocate nothing but what they found: the frees are skipped, not
 * made on NULL, since a select_one in a loop would spend a tenth of its time
 * calling free(). */
void fp_sel_ctx_free(fp_sel_ctx *c)
{
    for (int j = 0; j < c->nup; j++)
        fp_sel_memo_free(c, c->up[j].memo);
    for (int32_t k = 0; c->has_memo && k < c->w[FP_SEL_H_NHAS]; k++)
        fp_sel_memo_free(c, c->has_memo[k]);
    for (int32_t k = 0; c->nth_count && k < c->w[FP_SEL_H_NNTHOF]; k++) {
        fp_sel_memo_free(c, c->nth_count[k]);
        fp_sel_memo_free(c, c->nth_pos[k]);
    }
    if (c->block != c->small_block)
        free(c->block);
    if (c->sib == SIB_OWNED) {
        free(c->sib_done);
        free(c->prev);
        free(c->pos);
        free(c->rpos);
        free(c->tpos);
        free(c->trpos);
        free(c->tag_count);
    }
    if (c->chosen_option)
        fp_sel_memo_free(c, c->chosen_option);
    if (c->forms || c->template_forms)
        fp_sel_forms_free(c);
    if (c->contains)
        fp_sel_contains_free(c);
    if (c->dir_memo)
        fp_sel_memo_free(c, c->dir_memo);
    if (c->lang_from)
        fp_sel_memo_free(c, c->lang_from);
    if (c->text.data)
        fp_buf_free(&c->text);
    if (c->val.data)
        fp_buf_free(&c->val);
}

/* Where tag's list in the index reaches `first`: the list is in document order. */
static uint32_t list_from(const uint32_t *index, uint32_t tag, uint32_t first)
{
    return fp_sel_lower_bound(index + 2 + index[0], index[1 + tag], index[2 + tag], first);
}

/* Appends the elements of tag in [first, end), at most limit: the answer of a
 * selector that is the tag alone. 0, or -1 out of memory. */
static int append_tag_range(const uint32_t *index, int32_t tag, uint32_t first, uint32_t end, uint32_t limit,
                            fp_buf *out)
{
    if (tag < 0 || (uint32_t)tag >= index[0])
        return 0;
    const uint32_t *list = index + 2 + index[0];
    uint32_t lo = list_from(index, (uint32_t)tag, first), hi = lo, stop = index[1 + tag + 1];
    while (hi < stop && list[hi] < end && hi - lo < limit)
        hi++;
    return hi > lo ? fp_buf_append(out, list + lo, (hi - lo) * sizeof *list) : 0;
}

/* The run over the tag index, when the rightmost compound of every complex
 * selector in the list names a tag: only the elements of those tags, taken
 * from their lists in document order (a merge: `h2, h3` visits h2s and h3s). */
static void run_indexed(fp_sel_ctx *c, const int32_t *root, const prefilter_t *pf, const uint32_t *index,
                        uint32_t first, uint32_t end, uint32_t limit, fp_buf *out)
{
    uint32_t ntags = index[0];
    const uint32_t *list = index + 2 + ntags, *off = index + 1;
    int32_t ncx = root[1];
    uint32_t at[PREFILTER_MAX], stop[PREFILTER_MAX];
    for (int32_t k = 0; k < ncx; k++) {
        uint32_t tag = (uint32_t)pf[k].tag;
        at[k] = stop[k] = 0;
        if (pf[k].never || tag >= ntags)
            continue;
        stop[k] = off[tag + 1];
        at[k] = list_from(index, tag, first);
    }
    const int32_t *cx = c->w + root[2];
    if (ncx == 1) {   /* one list: no merge */
        /* its elements have the filter's tag (a filter that never passes left it
         * empty), and those before `end` are found once: a candidate costs the
         * bits, the needles and the match */
        const prefilter_t *f = &pf[0];
        const uint16_t bits = f->bits;
        uint32_t hi = stop[0], found = 0;
        if (hi > at[0] && list[hi - 1] >= end)
            hi = fp_sel_lower_bound(list, at[0], hi, end);
        /* a value test or a needle reads the candidate's start tag, far apart
         * in a large page's source: fetched a few candidates ahead */
        const int reads_tag = f->vt != NULL || f->n > 0;
        for (uint32_t i = at[0]; i < hi && found < limit && !c->oom; i++) {
            uint32_t e = list[i];
            if (reads_tag && i + PREFETCH_AHEAD < hi)
                __builtin_prefetch(c->doc->buf + c->el[list[i + PREFETCH_AHEAD]].start);
            if ((c->el[e].attr_bits & bits) != bits || (f->n && !needles_pass(c, f, e)) ||
                !match_passed(c, f, cx, e))
                continue;
            if (fp_buf_append(out, &e, sizeof e) != 0)
                c->oom = 1;
            found++;
        }
        return;
    }
    for (uint32_t found = 0; found < limit && !c->oom;) {
        uint32_t e = end;   /* the next candidate: the smallest head of the lists */
        for (int32_t k = 0; k < ncx; k++)
            if (at[k] < stop[k] && list[at[k]] < e)
                e = list[at[k]];
        if (e >= end)
            break;
        int matched = 0;
        for (int32_t k = 0; k < ncx; k++) {
            if (at[k] >= stop[k] || list[at[k]] != e)
                continue;
            at[k]++;   /* several selectors may name the same tag: each list moves past e */
            if (!matched && prefilter_pass(c, &pf[k], e) && match_passed(c, &pf[k], c->w + root[2 + k], e))
                matched = 1;
        }
        if (matched) {
            if (fp_buf_append(out, &e, sizeof e) != 0)
                c->oom = 1;
            found++;
        }
    }
}

/* The run over elements first..end-1 in document order for one complex
 * selector cx whose filter is f: the loop most `select` calls without a tag
 * index make (a small document, `.price`, `[itemprop]`), with the filter's
 * fields in registers; template contents are stepped over. */
static void run_scan_one(fp_sel_ctx *c, const int32_t *cx, const prefilter_t *f, uint32_t first, uint32_t end,
                         uint32_t limit, fp_buf *out)
{
    if (f->never)
        return;
    const fp_elem *el = c->el;
    const int tag = f->tag;
    const uint16_t bits = f->bits, t_template = (uint16_t)c->t_template;
    uint32_t found = 0;
    for (uint32_t e = first; e < end && found < limit; e++) {
        /* most elements fail the tag or the bits: stepped over in a tight
         * loop, which stops at templates to step over their contents */
        if (tag >= 0)
            while (e < end && el[e].tag != (uint16_t)tag && el[e].tag != t_template)
                e++;
        else
            while (e < end && (el[e].attr_bits & bits) != bits && el[e].tag != t_template)
                e++;
        if (e >= end)
            break;
        uint16_t t = el[e].tag;
        /* prefilter_pass with `never` settled above and the fields in
         * registers (calling it costs [itemprop] 3.5% more instructions) */
        if ((tag < 0 || t == (uint16_t)tag) && (el[e].attr_bits & bits) == bits &&
            (f->n == 0 || needles_pass(c, f, e)) && match_passed(c, f, cx, e)) {
            if (c->oom || fp_buf_append(out, &e, sizeof e) != 0) {
                c->oom = 1;
                return;
            }
            found++;
        }
        if (t == t_template)
            e = el[e].last; /* its contents are not candidates */
    }
}

/* index: the tag index, whose template list answers at once for most documents */
static int inside_template(const fp_elem *el, int32_t e, const uint32_t *index)
{
    if (!fp_select_index_count(index, FP_TAG_TEMPLATE))
        return 0;   /* the document has no <template> */
    for (; e >= 0; e = el[e].parent)
        if (el[e].tag == FP_TAG_TEMPLATE)
            return 1;
    return 0;
}

/* The tag id in doc of a program that is one type selector (`p`, `title`), or
 * -1 when doc has no element of that name; -2 for any other program. */
static int32_t lone_tag(const fp_doc *doc, const int32_t *w)
{
    const int32_t *list = w + w[FP_SEL_H_ROOT], *cx = w + list[2], *compound = w + cx[2];
    if (list[1] != 1 || cx[1] != 1 || compound[1] != 1 || compound[2] != FP_SEL_T_TAG)
        return -2;
    return slot_tag_id(doc, w, compound[3]);
}

fp_status fp_select_run(const fp_doc *doc, int32_t scope, const uint8_t *prog, size_t len,
                        uint32_t limit, const fp_select_tables *tables, fp_buf *out)
{
    (void)len;
    uint32_t first = scope < 0 ? 0 : (uint32_t)scope + 1;
    uint32_t end = scope < 0 ? doc->n : doc->elems[scope].last + 1;
    /* `p`, `title`: the tag's list is the answer, with no context to set up
     * (most of what such a select cost) */
    const uint32_t *index = tables ? tables->index : NULL;
    int32_t tag = index ? lone_tag(doc, (const int32_t *)prog) : -2;
    if (tag != -2 && !inside_template(doc->elems, scope, index))
        return append_tag_range(index, tag, first, end, limit, out) == 0 ? FP_OK : FP_ENOMEM;
    fp_sel_ctx c;
    if (ctx_init(&c, doc, scope, prog, tables) != 0) {
        fp_sel_ctx_free(&c);
        return FP_ENOMEM;
    }
    c.up_ok = 1;   /* many candidates share ancestors: worth a memo */
    const int32_t *root = c.w + c.w[FP_SEL_H_ROOT];
    int32_t ncx = root[1];
    prefilter_t pf[PREFILTER_MAX];
    int filtered = ncx <= PREFILTER_MAX;
    if (index && inside_template(doc->elems, scope, index))
        index = NULL;   /* it leaves template contents out */
    for (int32_t k = 0; filtered && k < ncx; k++)
        prefilter_build(&c, c.w + root[2 + k], &pf[k], index);
    int by_tag = index && filtered;
    for (int32_t k = 0; by_tag && k < ncx; k++)
        by_tag = pf[k].tag >= 0 || pf[k].never;
    if (by_tag) {
        if (!(ncx == 1 && fp_sel_join(&c, c.w + root[2], index, limit, out)))
            run_indexed(&c, root, pf, index, first, end, limit, out);
        end = first; /* done */
    } else if (filtered && ncx == 1) {
        run_scan_one(&c, c.w + root[2], &pf[0], first, end, limit, out);
        end = first; /* done */
    }
    uint32_t found = 0;
    for (uint32_t e = first; e < end && found < limit && !c.oom; e++) {
        for (int32_t k = 0; k < ncx; k++) {
            const int32_t *cx = c.w + root[2 + k];
            if (filtered ? prefilter_pass(&c, &pf[k], e) && match_passed(&c, &pf[k], cx, e)
                         : match_from(&c, cx, 0, e) == M_MATCH) {
                if (fp_buf_append(out, &e, sizeof e) != 0)
                    c.oom = 1;
                found++;
                break;
            }
        }
        if (is_template(&c, e))
            e = doc->elems[e].last; /* its contents are not candidates */
    }
    int oom = c.oom;
    fp_sel_ctx_free(&c);
    return oom ? FP_ENOMEM : FP_OK;
}

int fp_select_test(const fp_doc *doc, uint32_t i, const uint8_t *prog, size_t len, const fp_select_tables *tables)
{
    (void)len;
    int32_t tag = lone_tag(doc, (const int32_t *)prog);
    if (tag != -2)   /* `div`: the element's own tag decides */
        return tag >= 0 && doc->elems[i].tag == (uint16_t)tag;
    fp_sel_ctx c;
    int r = -1;
    if (ctx_init(&c, doc, (int32_t)i, prog, tables) == 0) {
        r = match_list(&c, c.w[FP_SEL_H_ROOT], i);
        if (c.oom)
            r = -1;
    }
    fp_sel_ctx_free(&c);
    return r;
}

int32_t fp_select_closest(const fp_doc *doc, uint32_t i, const uint8_t *prog, size_t len,
                          const fp_select_tables *tables)
{
    (void)len;
    int32_t tag = lone_tag(doc, (const int32_t *)prog);
    if (tag != -2) {   /* `div`: the first of i and its ancestors of that tag */
        int32_t x = tag >= 0 ? (int32_t)i : -1;
        while (x >= 0 && doc->elems[x].tag != (uint16_t)tag)
            x = parent_in(doc->elems, (uint32_t)x);
        return x;
    }
    fp_sel_ctx c;
    int32_t found = -2;
    if (ctx_init(&c, doc, (int32_t)i, prog, tables) == 0) {
        /* one context for the whole walk: its memos (:has, :lang, :dir...) serve every ancestor */
        int32_t x = (int32_t)i;
        while (x >= 0 && !match_list(&c, c.w[FP_SEL_H_ROOT], (uint32_t)x))
            x = parent_of(&c, (uint32_t)x);   /* none above a template's contents (DOM 4.8) */
        found = c.oom ? -2 : x;
    }
    fp_sel_ctx_free(&c);
    return found;
}
