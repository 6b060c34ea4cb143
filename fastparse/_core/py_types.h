/* py_types.h — what the binding files share: the Document and Tag objects,
 * module state, and the helpers that turn engine results into Python objects.
 * Only py_*.c include this; engine files include fp.h alone. */
#ifndef FP_PY_TYPES_H
#define FP_PY_TYPES_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include "fp.h"

typedef struct {
    PyObject_HEAD
    fp_doc doc;
    PyObject *source;       /* str or bytes, kept alive: doc.buf points into it */
    PyObject *encoding;     /* str: WHATWG name of the encoding used */
    PyObject *codec;        /* Python codec name for legacy documents, else NULL */
    PyObject *decoder;      /* lazy: the codec's decode function (legacy documents) */
    Py_ssize_t base;        /* bytes input: offset of buf in source (a skipped BOM) */
    int is_str;             /* offsets reported in str indexes */
    int str_ascii;          /* ... which equal byte offsets */
    uint32_t *char_checkpoints;   /* lazy, non-ASCII str: code points before each 64-byte block */
    uint32_t *line_starts;        /* lazy: byte offset of each line's first byte */
    uint32_t nlines;
    PyObject *names;        /* dict: tag id -> str, filled on demand */
    int fostered;           /* lazy: -1 unknown, 0/1 whether any element is foster-parented */
    int32_t *tree_links;    /* lazy, documents with a foster-parented element: tree order's
                             * child and sibling links (py_tree.c) */
    int ndefault_skip;      /* lazy: -1 unknown, else how many of default_skip are set */
    uint16_t default_skip[3];     /* tag ids of script, style, template present in this document */
    uint32_t *select_index;       /* lazy: the selector tag index (select.h), built on the first
                                   * select of a big document, under the GIL */
    uint32_t *select_siblings;    /* lazy: the sibling table (select.h), likewise, on the first
                                   * selector that asks for positions or siblings */
    struct fp_sel_forms *select_forms; /* lazy: the form tables (select.h), likewise, on the
                                   * first scoped selector that asks for them */
    fp_error *all_errors;         /* lazy: doc.errors, the parse's and the scan's (errors_scan.c), on
                                   * the first read */
    uint32_t nall_errors;
    PyObject *twin;               /* lazy, legacy documents: the UTF-8 twin the queries that bytes
                                   * would answer wrong run on (py_twin.c); Py_None when none can
                                   * stand for it */
    PyObject *weakreflist;
    struct fp_state *st;          /* the module's state: Tags are made and freed by the thousand,
                                   * and looking it up from the type costs more than the rest */
} DocumentObject;

typedef struct {
    PyObject_HEAD
    DocumentObject *doc;    /* strong reference: a Tag keeps its Document alive */
    uint32_t index;
} TagObject;

/* get_text's parameters, in order (py_text.c) */
enum { FP_TEXT_KW_SEPARATOR, FP_TEXT_KW_STRIP, FP_TEXT_KW_SKIP, FP_TEXT_KW_COLLAPSE, FP_TEXT_KW__COUNT };
extern const char *const fp_text_kw_names[FP_TEXT_KW__COUNT];

/* which of names[0, count) (interned[] the same, interned) keyword `key` is: its
 * place, or count for none (py_text.c) */
int fp_keyword_index(PyObject *const *interned, const char *const *names, int count, PyObject *key);

/* find/find_all/next_sibling/prev_sibling's parameters: name, then keyword-only (py_find.c) */
enum { FP_FIND_KW_NAME, FP_FIND_KW_ID, FP_FIND_KW_CLS, FP_FIND_KW_ATTRS, FP_FIND_KW_LIMIT, FP_FIND_KW__COUNT };
extern const char *const fp_find_kw_names[FP_FIND_KW__COUNT];

/* the fastparse.selectors functions the select methods delegate to */
enum { FP_SELECT_FN_SELECT, FP_SELECT_FN_SELECT_ONE, FP_SELECT_FN_MATCHES, FP_SELECT_FN_CLOSEST,
       FP_SELECT_FN__COUNT };

/* Dead Tags' memory kept for the next Tags (py_tag.c), except under
 * AddressSanitizer, which must see every Tag freed to catch a use after free. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FP_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(FP_ASAN)
enum { FP_FREE_TAGS = 0 };
#else
enum { FP_FREE_TAGS = 4096 };
#endif

/* slots for the selector programs the module has checked (a power of two;
 * py_select.c, check_program): scraping code runs tens of selectors over and over */
enum { FP_CHECKED_PROGRAMS = 256 };
/* slots for the selectors last run from C, by the address of their str (a
 * power of two; py_select.c, fp_select_cached) */
enum { FP_RECENT_SELECTORS = 64 };

typedef struct fp_state {
    PyTypeObject *Document_type;
    PyTypeObject *Tag_type;
    PyObject *MISSING;          /* fastparse.MISSING */
    PyObject *ParseLimitError;
    PyObject *ParseError;       /* the namedtuple class of doc.errors entries */
    PyObject *Comment;          /* the namedtuple class of doc.comments entries */
    PyObject *ProcessingInstruction;  /* ... and of doc.processing_instructions entries */
    PyObject *select_fns[FP_SELECT_FN__COUNT];    /* fastparse.selectors functions by FP_SELECT_FN_*, on first use */
    PyObject *select_programs;  /* fastparse.selectors.cache.programs (css -> program), with select_fns */
    PyObject *text_kw[FP_TEXT_KW__COUNT];         /* get_text's keyword names, interned */
    PyObject *find_kw[FP_FIND_KW__COUNT];         /* find's, likewise */
    PyObject *utf_8;            /* "utf-8", interned: doc.encoding of most documents */
    PyObject *whatwg_errors;    /* "fastparse-whatwg-run": legacy decoders' errors argument for a run (_legacy_codecs.py) */
    PyObject *whatwg_end_errors;   /* "fastparse-whatwg": for a run that ends the input */
    PyObject *legacy_codecs;    /* {WHATWG name: (name, codec)} for _parse_bytes, from fastparse.encoding */
    PyObject *parse_general;    /* fastparse._parse._parse_general: parse() for all but plain bytes */
    PyObject *guess;            /* fastparse._encoding_guess.guess, for _parse_bytes, from fastparse.encoding */
    /* fastparse._foreign_names: {lower-cased name: DOM name} of SVG elements, SVG attributes, MathML attributes */
    PyObject *svg_tag_names, *svg_attr_names, *mathml_attr_names;
    PyObject *checked[FP_CHECKED_PROGRAMS];   /* selector programs fp_select_check passed (bytes never change) */
    int nchecked;
    /* each holds a str and its program, found in select_programs: a loop that
     * passes the same str finds it by one compare instead of a dict lookup */
    struct fp_recent_selector { PyObject *css, *prog; } recent[FP_RECENT_SELECTORS];
    struct fp_free_tag *free_tags;  /* memory of dead Tags, for the next ones (not objects) */
    int free_tags_n;
} fp_state;

/* A dead Tag's memory while it waits in fp_state.free_tags. */
typedef struct fp_free_tag {
    struct fp_free_tag *next;
} fp_free_tag;

fp_state *fp_state_of_type(PyTypeObject *type);

/* py_module.c: a Document of source, before the engine runs; new reference */
DocumentObject *fp_new_document(struct fp_state *st, PyObject *source, int is_str, int ascii, Py_ssize_t base);

/* py_twin.c: the document a query runs on: d itself, or for a legacy-encoded d
 * and a query with non-ASCII text (or a substring search, in an encoding whose
 * characters may end in an ASCII byte), or for a UTF-8 d parsed from bytes that
 * are not all UTF-8 and a query with a U+FFFD (replacement), its UTF-8 twin,
 * when one stands for it; borrowed; NULL on error */
DocumentObject *fp_twin_for(DocumentObject *d, int substring, int non_ascii, int replacement);

/* py_tag.c */
PyObject *fp_tag_new(DocumentObject *doc, uint32_t index);          /* new reference */
PyObject *fp_tag_list(DocumentObject *doc, const uint32_t *idx, uint32_t n); /* new reference */
PyObject *fp_children_list(DocumentObject *doc, int32_t parent); /* -1: top level; tree order */
/* tree order in a document with foster-parented elements (py_tree.c): the children of
 * parent (-1: top level) in a new buffer (caller frees; NULL with an exception set), and
 * the nearest sibling of i after (forward) or before it that q matches (qd: the document
 * q was built for, doc's or its twin), -1 for none, -2 with an exception set */
uint32_t *fp_tree_children(DocumentObject *doc, int32_t parent, uint32_t *count);
int64_t fp_tree_sibling(DocumentObject *doc, const fp_doc *qd, uint32_t i, const fp_query *q, int forward);
extern PyType_Spec fp_tag_spec;

/* py_document.c */
extern PyType_Spec fp_document_spec;
/* calls fastparse.selectors.<which>(self, css) */
PyObject *fp_delegate_select(PyObject *self, int which, PyObject *const *args, Py_ssize_t nargs);

/* py_source.c */
PyObject *fp_doc_decode(DocumentObject *d, const fp_buf *b);        /* new reference: buffer -> str */
PyObject *fp_doc_tag_name(DocumentObject *d, uint16_t tag);         /* new reference */
Py_ssize_t fp_doc_offset(DocumentObject *d, uint32_t byte_offset);  /* byte -> source index */
void fp_doc_line_col(DocumentObject *d, uint32_t byte_offset, Py_ssize_t *line, Py_ssize_t *col);
PyObject *fp_doc_decode_bytes(DocumentObject *d, const uint8_t *p, size_t n); /* new reference */
/* bytes known to be ASCII as a str: one copy, no decoding (ASCII reads the same
 * in every encoding the engine parses as is) */
PyObject *fp_ascii_str(const uint8_t *p, size_t n);

/* py_find.c */
/* Parses the keyword filters shared by find/find_all/next_sibling. Fills q
 * (buffers in *keep are owned by the caller, freed with fp_query_release).
 * Returns 0, 1 when the filter can match nothing in this document, -1 on error. */
/* objs: per attrs filter its lowered key and, in a legacy encoding, the key and
 * value encoded; id and cls encoded. tags: the ids of a list of names. */
#define FP_QUERY_NAMES 64
typedef struct { PyObject *objs[3 * 32 + 2]; int n; fp_attr_query attrs[32]; uint16_t tags[FP_QUERY_NAMES]; } fp_query_keep;
/* The document a find() query runs on: d, or its twin (fp_twin_for) when any of
 * the query's str is non-ASCII; NULL on error */
DocumentObject *fp_query_doc(DocumentObject *d, PyObject *name, PyObject *id, PyObject *cls, PyObject *attrs);
int fp_query_build(DocumentObject *d, PyObject *name, PyObject *id, PyObject *cls,
                   PyObject *attrs, fp_query *q, fp_query_keep *keep);
void fp_query_release(fp_query_keep *keep);
/* fname(name=None, *, id=None, cls=None, attrs=None[, limit=None]) from vectorcall
 * arguments into out[FP_FIND_KW_*] (NULL when not given), `limit` only with
 * with_limit. 0, or -1 with TypeError. */
int fp_find_args(PyObject *self, const char *fname, int with_limit, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames, PyObject **out);
PyObject *fp_find_common(DocumentObject *d, uint32_t first, uint32_t last, PyObject *const *args,
                         Py_ssize_t nargs, PyObject *kwnames, int find_all);
/* py_text.c: text of element i, or of the whole document when i < 0 */
PyObject *fp_text_of(DocumentObject *d, int64_t i);   /* .text: every text node, as is */
PyObject *fp_get_text(DocumentObject *d, int64_t i, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames);             /* get_text(...), vectorcall arguments */
/* calls fastparse.selectors.<which>(self, css) */
PyObject *fp_delegate_select(PyObject *self, int which, PyObject *const *args, Py_ssize_t nargs);
/* py_guess.c: the encoding guess's counts (the module's guess_sample,
 * byte_counts, utf8_counts, big5_pairs, bytes_in_runs, unpaired_bytes, char_counts,
 * chars_in) */
PyObject *fp_py_guess_sample(PyObject *module, PyObject *arg);
PyObject *fp_py_byte_counts(PyObject *module, PyObject *arg);
PyObject *fp_py_utf8_counts(PyObject *module, PyObject *arg);
PyObject *fp_py_big5_pairs(PyObject *module, PyObject *arg);
PyObject *fp_py_bytes_in_runs(PyObject *module, PyObject *args);
PyObject *fp_py_unpaired_bytes(PyObject *module, PyObject *args);
PyObject *fp_py_char_counts(PyObject *module, PyObject *args);
PyObject *fp_py_chars_in(PyObject *module, PyObject *args);
/* py_select.c: select / select_one / matches with css's cached program, in C;
 * NULL without an exception when css has no program in the cache yet */
PyObject *fp_select_cached(fp_state *st, PyObject *node, int which, PyObject *css);

/* str s as UTF-8 (lives as long as s), *n bytes. NULL with an exception set,
 * or without one when s holds a lone surrogate: no parsed text does (a str's
 * parse reads them as U+FFFD), so no name or value asked for that way matches. */
static inline const char *
fp_utf8_of(PyObject *s, Py_ssize_t *n)
{
    const char *p = PyUnicode_AsUTF8AndSize(s, n);
    if (!p && PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
        PyErr_Clear();
    return p;
}

/* __copy__() and __deepcopy__(memo) of an immutable Document or Tag: itself */
static inline PyObject *
fp_itself(PyObject *self, PyObject *unused)
{
    (void)unused;
    return Py_NewRef(self);
}
#define FP_COPY_METHODS \
    {"__copy__", (PyCFunction)fp_itself, METH_NOARGS, "Itself: it is immutable."}, \
    {"__deepcopy__", (PyCFunction)fp_itself, METH_O, "Itself: it is immutable."},

#endif
