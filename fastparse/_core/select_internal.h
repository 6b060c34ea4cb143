/* select_internal.h — what the selector matcher's files share (not the
 * binding's business): the per-call matching context and small byte helpers.
 * select_match.c runs programs; select_forms.c and select_range.c answer the
 * form states, select_dir.c :dir(), select_lang.c :lang(), select_contains.c
 * :contains() over a whole run. */
#ifndef FP_SELECT_INTERNAL_H
#define FP_SELECT_INTERNAL_H

#include <string.h>

#include "select.h"

enum { FP_SEL_ARENA = 8192 };

/* Everything one run or test needs, allocated lazily and freed at its end. */
typedef struct {
    const fp_doc *doc;
    const fp_elem *el;
    uint32_t n;
    const int32_t *w;          /* the program's words */
    const uint8_t *pool;       /* its strings */
    int32_t scope;             /* :scope; -1 means :root */
    const uint32_t *index;     /* the document's tag index (select.h), or NULL */
    int32_t flags;
    int *tag_ids;              /* per tag slot: id in this document, or -1 */
    /* per-parent child positions, filled one parent at a time (lazily) */
    uint8_t *sib_done;         /* [parent + 1] */
    int32_t *prev;             /* previous sibling, -1 for a first child */
    uint32_t *pos, *rpos;      /* 1-based position from the start / from the end */
    uint32_t *tpos, *trpos;    /* ... among siblings of the same tag */
    uint32_t *tag_count;       /* scratch, indexed by tag id, zero between parents */
    /* where prev..trpos come from: none yet; allocated by siblings_ready (ours to
     * free, some may be NULL: oom); the document's sibling table (all filled) */
    enum { SIB_NONE, SIB_OWNED, SIB_BORROWED } sib;
    void **block;              /* owns the per-slot tables below; small_block when they fit */
    /* per-slot memos, paged (select_match.c, memo_at): each slot holds a page table */
    void **has_memo;           /* per :has slot, per element: 0 unknown, 1 yes, 2 no */
    void **nth_count;          /* per nth-of slot, per parent + 1: 0 not yet, else matching children + 1 */
    void **nth_pos;            /* ... per element: position among the matching siblings (0: not one) */
    fp_buf text, val;          /* scratch: :contains text, decoded attribute values */
    void *chosen_option;       /* paged memo, per <select>: its selected option + 2 (0 unknown, 1 none) */
    struct fp_sel_forms *forms; /* form owners, radio groups, default buttons (select_forms.c):
                                 * the run's own, or the document's (shared: read-only) */
    struct fp_sel_form_tree *template_forms; /* the run's tables for the controls of a template */
    void *dir_memo;            /* :dir(): per element, its directionality (paged; 0 unknown) */
    struct fp_sel_contains *contains; /* :contains() over the scope's text (select_contains.c) */
    uint64_t contains_spent;   /* bytes of subtrees :contains() decoded one element at a time */
    int t_select, t_option, t_optgroup, t_hr, t_datalist, t_input, t_button, t_form, t_template;
    void *lang_from;           /* :lang(): paged memo, per element, who gives its language (select_lang.c) */
    int32_t meta_lang;         /* <meta http-equiv=content-language>: -2 unknown, -1 none */
    int nup, up_ok;
    int oom;
    uint32_t arena_used;       /* bytes of arena[] handed out */
    /* ctx_init zeroes everything above; what follows is read only once written */
    /* descendant and later-sibling combinators: per (complex selector, compound,
     * direction), a paged byte memo per element of the answer of the walk from it
     * (0 unknown, else result + 1); made in runs only (select_match.c, match_walk) */
    struct { const int32_t *cx; int32_t k; void *memo; } up[16];   /* [0, nup) */
    void *small_block[8];      /* block, for programs with few slots (zeroed when used) */
    /* the first memo pages and small tables of a run (select_match.c, memo_alloc): a
     * scoped select_one spent a sixth of its time in calloc and free for a few of them */
    _Alignas(16) uint8_t arena[FP_SEL_ARENA];
} fp_sel_ctx;

enum { TAG_ID_SPACE = 65536 }; /* fp_elem.tag is a uint16_t */


static inline int is_ws(uint8_t b) { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f'; }
static inline uint8_t lower(uint8_t b) { return (b >= 'A' && b <= 'Z') ? (uint8_t)(b + 32) : b; }

/* The first place in a[lo, hi), sorted ascending, holding x or more (hi when none). */
static inline uint32_t fp_sel_lower_bound(const uint32_t *a, uint32_t lo, uint32_t hi, uint32_t x)
{
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (a[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static inline int bytes_eq(const uint8_t *a, const uint8_t *b, size_t n, int icase)
{
    if (!icase)
        return memcmp(a, b, n) == 0;
    /* most bytes are equal as they are (a quirks page's class names): fold only the others */
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i] && lower(a[i]) != lower(b[i]))
            return 0;
    return 1;
}

/* The sibling table's columns (select.h), n words each, in this order. */
enum { FP_SIB_PREV, FP_SIB_POS, FP_SIB_RPOS, FP_SIB_TPOS, FP_SIB_TRPOS, FP_SIB__COUNT };

static inline uint32_t *fp_sib_column(const uint32_t *table, uint32_t n, int k)
{
    return (uint32_t *)(table + (size_t)k * n);
}

/* select_index.c: positions among the children of p (-1: the top level),
 * into arrays indexed by element; tpos/trpos may be NULL, else tag_count is
 * zero scratch indexed by tag id and is left zero. */
void fp_sel_fill_siblings(const fp_elem *el, uint32_t n, int32_t p, int32_t *prev, uint32_t *pos, uint32_t *rpos,
                          uint32_t *tpos, uint32_t *trpos, uint32_t *tag_count);

/* select_match.c */
/* c set up for doc with no program, for the form tables' build; freed by fp_sel_ctx_free */
void fp_sel_ctx_bare(fp_sel_ctx *c, const fp_doc *doc);
void fp_sel_ctx_free(fp_sel_ctx *c);
int fp_sel_match_compound(fp_sel_ctx *c, int32_t at, uint32_t e);  /* compound at (program offset) at e */
int fp_sel_required_tag(const fp_sel_ctx *c, int32_t at);           /* the tag id it names, -1 for none */
void *fp_sel_zalloc(fp_sel_ctx *c, size_t count, size_t size); /* calloc; sets c->oom on failure */
/* a paged per-element byte memo (*table NULL until first written): read, write, free */
uint8_t fp_sel_memo_byte(const void *table, uint32_t i);
void fp_sel_memo_set_byte(fp_sel_ctx *c, void **table, uint32_t i, uint8_t v);
uint32_t fp_sel_memo_u32(const void *table, uint32_t i);   /* ... of 4-byte entries */
void fp_sel_memo_set_u32(fp_sel_ctx *c, void **table, uint32_t i, uint32_t v);
void fp_sel_memo_free(fp_sel_ctx *c, void *table);
const uint8_t *fp_sel_str(const fp_sel_ctx *c, int32_t k, size_t *len);  /* the program's string k */
/* Element e's attribute `name`: raw bytes, or decoded into c->val when it holds a '&'. */
int fp_sel_attr_value(fp_sel_ctx *c, uint32_t e, const uint8_t *name, size_t nlen,
                      const uint8_t **v, size_t *vlen);
/* Which of words[0..nwords) attribute `name` of e is (ASCII case-insensitively), -1 for
 * none or absent; fp_sel_attr_is: whether it is `word`. */
int fp_sel_attr_keyword(fp_sel_ctx *c, uint32_t e, const char *name, const char *const *words, int nwords);
int fp_sel_attr_is(fp_sel_ctx *c, uint32_t e, const char *name, const char *word);

/* select_forms.c: test `test` (one of the form state codes, FP_SEL_T_OPTION_SELECTED to
 * FP_SEL_T_OUT_OF_RANGE) at e (HTML Standard 4.10: selectedness, radio button groups,
 * default buttons, range limitations) */
int fp_sel_form_state(fp_sel_ctx *c, int32_t test, uint32_t e);
void fp_sel_forms_free(fp_sel_ctx *c);

/* select_range.c: an input with range limitations (HTML Standard 4.16.3, :in-range) */
enum { FP_SEL_NO_RANGE, FP_SEL_IN_RANGE, FP_SEL_OUT_OF_RANGE };
int fp_sel_range(fp_sel_ctx *c, uint32_t e);

/* select_contains.c: test t (FP_SEL_T_CONTAINS) at e from the run's indexed text: 1 or 0;
 * -1 when e's answer must be worked out on its own */
int fp_sel_contains_indexed(fp_sel_ctx *c, const int32_t *t, uint32_t e);
void fp_sel_contains_free(fp_sel_ctx *c);

/* select_dir.c: test t (FP_SEL_T_DIR direction table) at element e */
int fp_sel_dir(fp_sel_ctx *c, const int32_t *t, uint32_t e);

/* select_join.c: complex selector cx over the whole document from the tag index, when it
 * is a chain of descendant combinators cheaper to merge than to walk up: 1 answered (the
 * matches appended to out, c->oom on failure), 0 not taken */
int fp_sel_join(fp_sel_ctx *c, const int32_t *cx, const uint32_t *index, uint32_t limit, fp_buf *out);

/* select_lang.c: test t (FP_SEL_T_LANG count range...) at element e */
int fp_sel_lang(fp_sel_ctx *c, const int32_t *t, uint32_t e);

#endif
