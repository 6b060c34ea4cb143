/* select.h — compiled CSS selector programs: the word codes the Python compiler
 * (fastparse/selectors/compiler.py, opcodes.py) emits, the matcher that runs
 * them over an fp_doc (select_run.c and the select_*.c beside it, engine code:
 * fp.h only) and the two functions the binding (py_select.c) exports to the
 * module's method table.
 * Selectors Level 4; the program layout is described in opcodes.py. */
#ifndef FP_SELECT_H
#define FP_SELECT_H

#include "fp.h"

/* ---- program layout: keep in step with fastparse/selectors/opcodes.py ---- */
enum { FP_SEL_MAGIC = 0x31535046, FP_SEL_HEADER_WORDS = 11 };
enum {
    FP_SEL_H_MAGIC, FP_SEL_H_CODE_LEN, FP_SEL_H_ROOT, FP_SEL_H_FLAGS, FP_SEL_H_NHAS,
    FP_SEL_H_NNTHOF, FP_SEL_H_NTAGS, FP_SEL_H_TAGS, FP_SEL_H_NSTR, FP_SEL_H_STRS,
    FP_SEL_H_NONASCII,
};
enum { FP_SEL_F_SIBLINGS = 1, FP_SEL_F_OF_TYPE = 2, FP_SEL_F_FORMS = 4, FP_SEL_F_FORM_TABLES = 8,
       FP_SEL_F_SUBSTRING = 16 };
enum { FP_SEL_NONASCII_ANY = 1, FP_SEL_NONASCII_REPLACEMENT = 2 };   /* FP_SEL_H_NONASCII's bits */
enum { FP_SEL_OP_LIST = 1, FP_SEL_OP_COMPLEX = 2, FP_SEL_OP_COMPOUND = 3 };
enum {
    FP_SEL_T_TAG = 10, FP_SEL_T_ID = 11, FP_SEL_T_CLASS = 12, FP_SEL_T_ATTR = 13,
    FP_SEL_T_NOT = 14, FP_SEL_T_IS = 15, FP_SEL_T_HAS = 16, FP_SEL_T_NTH = 17,
    FP_SEL_T_ROOT = 18, FP_SEL_T_SCOPE = 19, FP_SEL_T_EMPTY = 20, FP_SEL_T_DEFINED = 21,
    FP_SEL_T_CONTAINS = 22, FP_SEL_T_FALSE = 23, FP_SEL_T_OPTION_SELECTED = 24,
    FP_SEL_T_RADIO_KEPT = 25, FP_SEL_T_CONTAINS_OWN = 26,
    FP_SEL_T_LANG = 27, FP_SEL_T_DEFAULT_BUTTON = 28, FP_SEL_T_RADIO_UNCHECKED = 29,
    FP_SEL_T_IN_RANGE = 30, FP_SEL_T_OUT_OF_RANGE = 31, FP_SEL_T_DIR = 32,
    FP_SEL_T_NAMESPACE = 33, FP_SEL_T_VALUE_EMPTY = 34, FP_SEL_T_VALID = 35, FP_SEL_T_INVALID = 36,
};
enum { FP_SEL_DIR_LTR = 1, FP_SEL_DIR_RTL = 2 };
/* T_NAMESPACE's mask: bit 1 << (element flags & (FP_EF_SVG | FP_EF_MATHML)) */
enum { FP_SEL_NS_HTML = 1, FP_SEL_NS_SVG = 2, FP_SEL_NS_MATHML = 4 };
_Static_assert(FP_EF_SVG == 1 && FP_EF_MATHML == 2, "T_NAMESPACE's mask bits follow the namespace flags");
enum {
    FP_SEL_COMB_DESCENDANT = 1, FP_SEL_COMB_CHILD = 2, FP_SEL_COMB_NEXT = 3,
    FP_SEL_COMB_LATER = 4,
};
enum {
    FP_SEL_A_EXISTS = 0, FP_SEL_A_EQUALS = 1, FP_SEL_A_INCLUDES = 2, FP_SEL_A_DASH = 3,
    FP_SEL_A_PREFIX = 4, FP_SEL_A_SUFFIX = 5, FP_SEL_A_SUBSTRING = 6,
};
enum { FP_SEL_AF_ICASE = 1, FP_SEL_AF_ICASE_HTML = 2 };
enum { FP_SEL_NTH_LAST = 1, FP_SEL_NTH_OF_TYPE = 2 };

/* ---- the matcher (select_check.c, select_index.c, select_run.c) ---- */
/* 0 when prog is a well-formed program (every offset, index and code in
 * range, children before parents), -1 otherwise. The matcher trusts a
 * checked program; prog must be 4-byte aligned. */
int fp_select_check(const uint8_t *prog, size_t len);

/* NOTE: an optional per-document tag index (built once, kept by the binding):
 * for each tag id the elements of that tag in document order, leaving out
 * the contents of <template> elements. With it, a selector whose rightmost
 * compound names a tag visits only those elements. Layout, uint32_t words:
 * ntags, offsets[ntags + 1], elements[offsets[ntags]]. */
size_t fp_select_index_size(const fp_doc *doc);          /* bytes */
void fp_select_index_build(const fp_doc *doc, uint32_t *out); /* out has index_size bytes */

/* How many elements of tag id `tag` the index lists (0 past its tag ids). */
static inline uint32_t fp_select_index_count(const uint32_t *index, uint32_t tag)
{
    return tag < index[0] ? index[2 + tag] - index[1 + tag] : 0;
}

/* the elements of tag `tag` in the index, in document order (fp_select_index_count of them) */
static inline const uint32_t *fp_select_index_list(const uint32_t *index, uint32_t tag)
{
    return index + 2 + index[0] + (tag < index[0] ? index[1 + tag] : 0);
}

/* NOTE: an optional per-document sibling table (built once, kept by the
 * binding): for each element its previous sibling and its 1-based position
 * among its siblings from the start and from the end, overall and among those
 * of its tag. Without it a run fills these per parent as it goes, in tables
 * the size of the document: fine for one select over the document, but a
 * select_one(":first-of-type") on each of a thousand cards would allocate and
 * zero them a thousand times. Layout, 5 * n words: int32_t prev[n], then
 * uint32_t pos[n], rpos[n], tpos[n], trpos[n]. */
size_t fp_select_siblings_size(const fp_doc *doc);       /* bytes */
int fp_select_siblings_build(const fp_doc *doc, uint32_t *out); /* -1: out of memory (scratch) */

/* NOTE: optional per-document form tables (built once, kept by the binding):
 * the form owner of every input and button, each form's default button and
 * each radio group's checked radio, which :default, :checked on radios and
 * :indeterminate ask of the whole document. Without them a run builds its
 * own, a pass over the document on every card.select_one(":default").
 * Read-only once built: runs on many threads may share them. */
struct fp_sel_forms;
fp_status fp_select_forms_build(const fp_doc *doc, struct fp_sel_forms **out);
void fp_select_forms_free(struct fp_sel_forms *forms);

/* The per-document tables a run may borrow: each NULL, or built for this document. */
typedef struct {
    const uint32_t *index;            /* fp_select_index_build */
    const uint32_t *siblings;         /* fp_select_siblings_build */
    const struct fp_sel_forms *forms; /* fp_select_forms_build */
} fp_select_tables;

/* Appends to out (as uint32_t) the elements in scope matching the program,
 * in document order, at most `limit`. scope = -1: the whole document (and
 * :scope is :root); scope = i: the descendants of i, excluding i (and :scope
 * is i). Combinators may still reach outside the scope, as in soupsieve's
 * tag.select. tables: what the run may borrow (NULL: none).
 * Touches no global state: safe without the GIL. */
fp_status fp_select_run(const fp_doc *doc, int32_t scope, const uint8_t *prog, size_t len,
                        uint32_t limit, const fp_select_tables *tables, fp_buf *out);

/* Whether element i matches (:scope is i): 1 yes, 0 no, -1 out of memory.
 * tables as for fp_select_run. */
int fp_select_test(const fp_doc *doc, uint32_t i, const uint8_t *prog, size_t len, const fp_select_tables *tables);

/* Element i or its nearest ancestor matching the program (:scope is i, as in
 * DOM closest()), not above a template's contents: its index, -1 for none,
 * -2 out of memory. tables as for fp_select_run. */
int32_t fp_select_closest(const fp_doc *doc, uint32_t i, const uint8_t *prog, size_t len,
                          const fp_select_tables *tables);

/* ---- py_select.c (only where Python.h is included) ---- */
#ifdef Py_PYTHON_H
/* _select_run(node, program, limit[, index_cache]) -> list[Tag]; node is a
 * Document or a Tag (scope = its descendants); limit <= 0 means no limit;
 * index_cache: fastparse.selectors.cache.doc_indexes (enables the tag index). */
PyObject *fp_py_select_run(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* _select_test(tag, program) -> bool */
PyObject *fp_py_select_test(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* _select_closest(tag, program) -> Tag | MISSING */
PyObject *fp_py_select_closest(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
#endif

#endif
