/* select_internal.h — what the selector matcher's files share (not the
 * binding's business): the per-call matching context, small byte helpers and
 * the element tree as selectors see it. select_run.c sets a run up and loops
 * over its candidates, select_prefilter.c rejects most of them cheaply,
 * select_match.c matches compounds and combinators, select_value.c compares
 * attribute values, select_tests.c the structural and text pseudo-classes,
 * select_memo.c keeps a run's per-element memos; select_forms.c and
 * select_range.c answer the form states, select_dir.c :dir(), select_lang.c
 * :lang(), select_contains.c :contains() over a whole run. */
#ifndef FP_SELECT_INTERNAL_H
#define FP_SELECT_INTERNAL_H

#include <string.h>

#include "select.h"
#include "tags_gen.h"   /* the fixed ids of known tag names */

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
    /* where prev..trpos come from: none yet; allocated by fp_sel_siblings_ready (ours to
     * free, some may be NULL: oom); the document's sibling table (all filled) */
    enum { SIB_NONE, SIB_OWNED, SIB_BORROWED } sib;
    void **block;              /* owns the per-slot tables below; small_block when they fit */
    /* per-slot memos, paged (select_memo.c): each slot holds a page table */
    void **has_memo;           /* per :has slot, per element: 0 unknown, 1 yes, 2 no */
    void **nth_count;          /* per nth-of slot, per parent + 1: 0 not yet, else matching children + 1 */
    void **nth_pos;            /* ... per element: position among the matching siblings (0: not one) */
    fp_buf text, val;          /* scratch: :contains text, decoded attribute values */
    void *chosen_option;       /* paged memo, per <select>: its selected option + 2 (0 unknown, 1 none) */
    struct fp_sel_forms *forms; /* form owners, radio groups, default buttons (select_forms.c):
                                 * the run's own, or the document's (shared: read-only) */
    struct fp_sel_form_tree *template_forms; /* the run's tables for the controls of a template */
    uint8_t *invalid_forms;    /* :valid/:invalid on forms and fieldsets (select_validity.c, invalid_marks) */
    void *dir_memo;            /* :dir(): per element, its directionality (paged; 0 unknown) */
    void *first_legend;        /* per fieldset, its first legend child + 2 (paged; 0 unknown, 1 none) */
    struct fp_sel_contains *contains; /* :contains() over the scope's text (select_contains.c) */
    uint64_t contains_spent;   /* bytes of subtrees :contains() decoded one element at a time */
    int t_select, t_option, t_optgroup, t_hr, t_datalist, t_input, t_button, t_form;
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
    /* the first memo pages and small tables of a run (select_memo.c, memo_alloc): a
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

/* ---- the element tree as selectors see it: a template's contents are apart (DOM 4.8) ---- */

int fp_sel_siblings_ready(fp_sel_ctx *c, int32_t p);   /* select_tests.c: c->prev..trpos for p's children */

static inline uint32_t first_child(int32_t p) { return p < 0 ? 0 : (uint32_t)p + 1; }
static inline uint32_t child_end(const fp_sel_ctx *c, int32_t p) { return p < 0 ? c->n : c->el[p].last + 1; }

/* e's tag id when it is an HTML element, else -2 (no tag id is): a form, control
 * or option is an HTML element, and an SVG or MathML one of that name is none */
static inline int html_tag(const fp_sel_ctx *c, uint32_t e)
{
    return fp_foreign(&c->el[e]) ? -2 : c->el[e].tag;
}

/* The value of an ASCII hex digit, -1 for any other code point */
static inline int hex_value(uint32_t b)
{
    return b >= '0' && b <= '9' ? (int)b - '0' : (b | 32) >= 'a' && (b | 32) <= 'f' ? (int)(b | 32) - 'a' + 10 : -1;
}

/* An HTML <template>, whose contents are apart. An SVG or MathML element of
 * that name is an ordinary element: its children are the document's. */
static inline int is_template(const fp_sel_ctx *c, uint32_t e)
{
    return fp_html_is(&c->el[e], FP_TAG_TEMPLATE);
}

/* The parent as the DOM sees it: none above a template's contents. */
static inline int32_t parent_in(const fp_elem *el, uint32_t e)
{
    int32_t p = el[e].parent;
    return (p >= 0 && fp_html_is(&el[p], FP_TAG_TEMPLATE)) ? -1 : p;
}

static inline int32_t parent_of(const fp_sel_ctx *c, uint32_t e)
{
    return parent_in(c->el, e);
}

static inline int32_t prev_sibling(fp_sel_ctx *c, uint32_t e)
{
    return fp_sel_siblings_ready(c, c->el[e].parent) ? c->prev[e] : -1;
}

static inline int32_t next_sibling(const fp_sel_ctx *c, uint32_t e)
{
    uint32_t s = c->el[e].last + 1;
    return (s < c->n && c->el[s].parent == c->el[e].parent) ? (int32_t)s : -1;
}

/* ---- attribute values on their raw bytes (select_value.c) ---- */

/* the bytes that may end a raw value (whitespace, '>', either quote) or
 * decode to something else ('&', NUL, CR) */
extern const uint8_t fp_sel_value_mark[256];

/* byte b closes an attribute value opened with quote (0: unquoted) */
static inline int value_ends_at(uint8_t b, uint8_t quote)
{
    return quote ? b == quote : is_ws(b) || b == '>';
}

/* the operators fp_sel_raw_compare answers from the raw value's first bytes */
static inline int raw_comparable(int32_t op)
{
    return op == FP_SEL_A_EQUALS || op == FP_SEL_A_PREFIX || op == FP_SEL_A_DASH;
}

/* what the byte b after a raw value's first bytes, which equal the pattern's,
 * says of op (fp_sel_raw_compare) */
static inline int raw_after(uint8_t b, uint8_t quote, int32_t op)
{
    if (op == FP_SEL_A_PREFIX || value_ends_at(b, quote))
        return 1;
    if (op == FP_SEL_A_EQUALS)
        return 0;   /* more follows, and a reference decodes to one character or more */
    return b == '-' ? 1 : b == '&' ? -1 : 0;   /* FP_SEL_A_DASH: "&#45;" is a '-' */
}

/* whether attribute test t compares values at element e ignoring ASCII case:
 * the `i` flag, or an attribute the HTML Standard lists, on an HTML element */
static inline int attr_icase(const fp_sel_ctx *c, const int32_t *t, uint32_t e)
{
    return (t[2] & FP_SEL_AF_ICASE) ||
           ((t[2] & FP_SEL_AF_ICASE_HTML) && !(c->el[e].flags & (FP_EF_SVG | FP_EF_MATHML)));
}

const uint8_t *fp_sel_str(const fp_sel_ctx *c, int32_t k, size_t *len);  /* the program's string k */
/* Element e's attribute `name`: raw bytes, or decoded into c->val when it holds a '&'. */
int fp_sel_attr_value(fp_sel_ctx *c, uint32_t e, const uint8_t *name, size_t nlen,
                      const uint8_t **v, size_t *vlen);
/* Which of words[0..nwords) attribute `name` of e is (ASCII case-insensitively), -1 for
 * none or absent; fp_sel_attr_is: whether it is `word`. */
int fp_sel_attr_keyword(fp_sel_ctx *c, uint32_t e, const char *name, const char *const *words, int nwords);
int fp_sel_attr_is(fp_sel_ctx *c, uint32_t e, const char *name, const char *word);
/* needle nd in h[0, hn) (ASCII case ignored with icase); _in may read h's bytes up to `readable` */
int fp_sel_bytes_find(const uint8_t *h, size_t hn, const uint8_t *nd, size_t nn, int icase);
int fp_sel_bytes_find_in(const uint8_t *h, size_t hn, const uint8_t *nd, size_t nn, int icase,
                         const uint8_t *readable);
/* [a=v], [a^=v], [a|=v] (op) on the raw value at v, closed by quote: 1 or 0 when
 * its first bytes settle it, -1 when it must be decoded first */
int fp_sel_raw_compare(const uint8_t *v, uint8_t quote, const uint8_t *end, const uint8_t *want, size_t tlen,
                       int32_t op, int icase);
/* a decoded value v[0, n) against want[0, tlen) by op (any operator but [a]) */
int fp_sel_value_matches(const uint8_t *v, size_t n, const uint8_t *want, size_t tlen, int32_t op, int icase);
int fp_sel_test_attr(fp_sel_ctx *c, const int32_t *t, uint32_t e);   /* an FP_SEL_T_ATTR test at e */

/* ---- a run's memory (select_memo.c) ---- */

void *fp_sel_zalloc(fp_sel_ctx *c, size_t count, size_t size); /* calloc; sets c->oom on failure */
/* a paged per-element byte memo (*table NULL until first written): read, write, free */
uint8_t fp_sel_memo_byte(const void *table, uint32_t i);
void fp_sel_memo_set_byte(fp_sel_ctx *c, void **table, uint32_t i, uint8_t v);
uint32_t fp_sel_memo_u32(const void *table, uint32_t i);   /* ... of 4-byte entries */
void fp_sel_memo_set_u32(fp_sel_ctx *c, void **table, uint32_t i, uint32_t v);
void fp_sel_memo_free(fp_sel_ctx *c, void *table);
/* entry i of width bytes: to write (its page made if needed; NULL out of memory),
 * to read (NULL where nothing was written) */
uint8_t *fp_sel_memo_at(fp_sel_ctx *c, void **table, uint32_t i, size_t width);
const uint8_t *fp_sel_memo_peek(const void *table, uint32_t i, size_t width);

/* ---- pseudo-classes of structure and text (select_tests.c): test t at e ---- */

int fp_sel_test_nth(fp_sel_ctx *c, const int32_t *t, uint32_t e);   /* :nth-child() and kin */
int fp_sel_test_empty(fp_sel_ctx *c, uint32_t e);
int fp_sel_test_defined(const fp_sel_ctx *c, uint32_t e);
int fp_sel_test_contains(fp_sel_ctx *c, const int32_t *t, uint32_t e);   /* :contains(), :-soup-contains-own() */
int fp_sel_test_has(fp_sel_ctx *c, const int32_t *t, uint32_t e);

/* ---- the candidate prefilter (select_prefilter.c) ---- */

/* what a candidate must have for one complex selector to match it (see the NOTE in
 * select_prefilter.c); a run builds one per selector of its list, PREFILTER_MAX at most */
enum { PREFILTER_MAX = 16, NEEDLES_MAX = 4 };

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
     * tag: decided here (fp_sel_value_test), so passing decides the compound */
    const int32_t *vt;   /* its test words, or NULL */
    fp_attr_key vt_key;  /* its attribute's name, prepared for each candidate's start tag */
    const uint8_t *vt_want;
    size_t vt_tlen;
    /* a pattern of 1-8 bytes, none of them a value_mark, as 8 bytes to compare
     * the raw value's with at once (raw_compare_word, fp_word8); else vt_word_ok = 0 */
    int vt_word_ok;
    uint64_t vt_word, vt_fold, vt_keep;
} fp_sel_prefilter;

void fp_sel_prefilter_build(const fp_sel_ctx *c, const int32_t *cx, fp_sel_prefilter *f, const uint32_t *index);
/* the start tag of e holds f's needles */
int fp_sel_needles_pass(const fp_sel_ctx *c, const fp_sel_prefilter *f, uint32_t e);
/* f's [a] or [a op v] at e: 1, 0, or -1 when the compound's own test must decide */
int fp_sel_value_test(fp_sel_ctx *c, const fp_sel_prefilter *f, uint32_t e);

/* ---- matching (select_match.c) ---- */

/* Results of matching a complex selector from one element (Servo's scheme):
 * besides yes/no, say how far an outer combinator loop must back off. */
enum { M_MATCH, M_NO_SIBLING, M_NO_DESCENDANT, M_NO_GLOBAL };

int fp_sel_match_compound(fp_sel_ctx *c, int32_t at, uint32_t e);  /* compound at (program offset) at e */
int fp_sel_required_tag(const fp_sel_ctx *c, int32_t at);           /* the tag id it names, -1 for none */
/* Compound k of complex selector cx (0 = rightmost) at element e, then the
 * rest leftwards (fp_sel_match_rest: what follows once compound k matched).
 * The M_NO_* results let a descendant or later-sibling loop stop early (see
 * Servo's matches_complex_selector_internal), which keeps `a b c d` from
 * retrying every ancestor combination. */
int fp_sel_match_from(fp_sel_ctx *c, const int32_t *cx, int32_t k, uint32_t e);
int fp_sel_match_rest(fp_sel_ctx *c, const int32_t *cx, int32_t k, uint32_t e);
int fp_sel_match_list(fp_sel_ctx *c, int32_t at, uint32_t e);   /* selector list at (:is, :not, nth-of) at e */

/* ---- contexts (select_run.c) ---- */

/* c set up for doc with no program, for the form tables' build; freed by fp_sel_ctx_free */
void fp_sel_ctx_bare(fp_sel_ctx *c, const fp_doc *doc);
void fp_sel_ctx_free(fp_sel_ctx *c);

/* select_forms.c: test `test` (one of the form state codes, FP_SEL_T_OPTION_SELECTED to
 * FP_SEL_T_OUT_OF_RANGE, and FP_SEL_T_VALUE_EMPTY) at e (HTML Standard 4.10: selectedness, radio button groups,
 * default buttons, range limitations) */
int fp_sel_form_state(fp_sel_ctx *c, int32_t test, uint32_t e);
void fp_sel_forms_free(fp_sel_ctx *c);

/* select_range.c: an input with range limitations (HTML Standard 4.16.3, :in-range) */
enum { FP_SEL_NO_RANGE, FP_SEL_IN_RANGE, FP_SEL_OUT_OF_RANGE };
int fp_sel_range(fp_sel_ctx *c, uint32_t e);
/* a valid floating-point number (HTML Standard 2.3.4.3) that a double holds: 1, and *out */
int fp_sel_number(const uint8_t *p, size_t n, double *out);

/* select_tests.c: e's text into c->text, as fp_text builds it with o (NULL: the options
 * of .text): 1, or 0 when out of memory (c->oom set) */
int fp_sel_text(fp_sel_ctx *c, uint32_t e, const fp_text_opts *o);

/* select_placeholder.c: the value of e, a text-like input or a textarea, is empty (:placeholder-shown) */
int fp_sel_value_empty(fp_sel_ctx *c, uint32_t e);

/* select_validity.c: test (FP_SEL_T_VALID or FP_SEL_T_INVALID) at e: a candidate control, form or fieldset */
int fp_sel_validity(fp_sel_ctx *c, int32_t test, uint32_t e);
/* select_forms.c, for it: e's form owner or -1; a radio's group, a required select missing a value */
int32_t fp_sel_form_owner(fp_sel_ctx *c, uint32_t e);
int fp_sel_is_submit_button(fp_sel_ctx *c, uint32_t e);
int fp_sel_radio_value_missing(fp_sel_ctx *c, uint32_t e);
int fp_sel_select_value_missing(fp_sel_ctx *c, uint32_t s);
/* ... and the forms that own an invalid control, kept with shared form tables */
const uint8_t *fp_sel_forms_invalid(const fp_sel_ctx *c);
void fp_sel_forms_keep_invalid(fp_sel_ctx *c);
/* select_range.c, for it: a date, month, week, time, datetime-local or number input whose value
 * is missing (when required), out of range, or off its step */
int fp_sel_typed_invalid(fp_sel_ctx *c, uint32_t e, int required);

/* select_pattern.c: value[0, vlen) against a pattern attribute (both UTF-8), the whole of it */
enum { FP_PATTERN_MATCHES = 1, FP_PATTERN_MISMATCH, FP_PATTERN_INVALID, FP_PATTERN_UNKNOWN, FP_PATTERN_NOMEM };
int fp_pattern_match(const uint8_t *pattern, size_t plen, const uint8_t *value, size_t vlen);

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
