/* py_select.c — the binding of the selector matcher: _select_run and
 * _select_test, called by fastparse/selectors/__init__.py with a program
 * compiled (and cached) in Python. Checks the program, finds the document and
 * scope from the node's type, runs the matcher (select_run.c) without the GIL. */
#include "py_types.h"
#include "select.h"

/* Below this many candidates a run takes a few microseconds: releasing and
 * re-taking the GIL would cost more than it lets other threads do. */
enum { FP_SELECT_GIL_THRESHOLD = 2048 };
/* Documents smaller than this are scanned; larger ones get a tag index
 * (select.h), built on their first select and kept with the document. The
 * index costs about what one scan of a few dozen elements does: the 20
 * selectors of the css benchmark on pages of 57-215 elements took 40% fewer
 * instructions with it than scanning (callgrind; bench/tasks.py's CSS_SELECTORS). */
enum { FP_SELECT_INDEX_MIN = 32 };
/* Documents smaller than this answer positions from a run's own tables. */
enum { FP_SELECT_SIBLINGS_MIN = 256 };

/* d's tag index, built on first use; NULL for a small document. Built while
 * the GIL is held, so two threads never build it at once; read-only after. */
static const uint32_t *doc_index(DocumentObject *d, int *oom)
{
    if (d->doc.n < FP_SELECT_INDEX_MIN)
        return NULL;
    if (d->select_index == NULL) {
        uint32_t *idx = PyMem_Malloc(fp_select_index_size(&d->doc));
        if (idx == NULL) {
            *oom = 1;
            return NULL;
        }
        fp_select_index_build(&d->doc, idx);
        d->select_index = idx;
    }
    return d->select_index;
}

/* Whether a `scoped` run of prog on d builds the per-document table that the
 * program flag `flag` asks for: d is big enough for a run's own to cost. */
static int builds_table(const DocumentObject *d, const uint8_t *prog, int scoped, int32_t flag)
{
    return scoped && d->doc.n >= FP_SELECT_SIBLINGS_MIN && (((const int32_t *)prog)[FP_SEL_H_FLAGS] & flag);
}

/* d's sibling table when program prog asks for positions or siblings and d is
 * big enough for a run's own tables to cost (select.h); else NULL. Built on
 * the first `scoped` run (a Tag's select, select_one, matches), where a run
 * would allocate document-sized tables to answer for a few elements, again
 * on every call. A run over the whole document fills only the parents it
 * visits, which costs less than building the table: it uses one already
 * built but does not build it. */
static const uint32_t *doc_siblings(DocumentObject *d, const uint8_t *prog, int scoped, int *oom)
{
    if (d->select_siblings != NULL || !builds_table(d, prog, scoped, FP_SEL_F_SIBLINGS))
        return d->select_siblings;
    uint32_t *sib = PyMem_Malloc(fp_select_siblings_size(&d->doc));
    if (sib == NULL || fp_select_siblings_build(&d->doc, sib) != 0) {
        PyMem_Free(sib);
        *oom = 1;
        return NULL;
    }
    return d->select_siblings = sib;
}

/* d's form tables when program prog asks for them (:default, :checked on
 * radios, :indeterminate) and d is big enough for a run's own to cost; else
 * NULL. Built on the first `scoped` run, as the sibling table is: each
 * card.select_one(":default") would otherwise build them for the whole
 * document (118 us at 1,400 elements, 15 ms at 140,000). */
static const struct fp_sel_forms *doc_forms(DocumentObject *d, const uint8_t *prog, int scoped, int *oom)
{
    if (d->select_forms != NULL || !builds_table(d, prog, scoped, FP_SEL_F_FORM_TABLES))
        return d->select_forms;
    if (fp_select_forms_build(&d->doc, &d->select_forms) != FP_OK)
        *oom = 1;
    return d->select_forms;
}

/* The tables a run on d may borrow, built as prog and the scope ask; indexed = 0:
 * none (a testing aid, which compares the run's own tables with them). 0, or
 * -1 out of memory. */
static int doc_tables(DocumentObject *d, const uint8_t *prog, int scoped, int indexed, fp_select_tables *t)
{
    int oom = 0;
    t->index = indexed ? doc_index(d, &oom) : NULL;
    t->siblings = indexed && !oom ? doc_siblings(d, prog, scoped, &oom) : NULL;
    t->forms = indexed && !oom ? doc_forms(d, prog, scoped, &oom) : NULL;
    return oom ? -1 : 0;
}

/* Resolves node to its document and scope: -1 for a Document, the index for a Tag. */
static DocumentObject *node_scope(fp_state *st, PyObject *node, int32_t *scope)
{
    if (PyObject_TypeCheck(node, st->Document_type)) {
        *scope = -1;
        return (DocumentObject *)node;
    }
    if (PyObject_TypeCheck(node, st->Tag_type)) {
        *scope = (int32_t)((TagObject *)node)->index;
        return ((TagObject *)node)->doc;
    }
    PyErr_Format(PyExc_TypeError, "expected a Document or a Tag, not %.100s",
                 Py_TYPE(node)->tp_name);
    return NULL;
}

/* fp_select_check(prog), skipped for a program it passed before: bytes never
 * change, and a scraping loop runs the same selectors thousands of times,
 * where the check would be a tenth of a select_one. The programs passed are
 * kept in an open-addressing table by address (the reference keeps the
 * address from going to another bytes object), emptied when three quarters
 * full, as the program cache is: a lookup is a compare or two however many
 * selectors a loop cycles through (the css benchmark's 20 missed every time in
 * the 16-entry ring this replaces). -1 with ValueError for a bad program. */
static int check_program(fp_state *st, PyObject *prog)
{
    uintptr_t at = (uintptr_t)prog >> 4;   /* objects are 16-byte aligned */
    size_t mask = FP_CHECKED_PROGRAMS - 1, home = (size_t)(at ^ (at >> 8)) & mask, slot = home;
    for (; st->checked[slot]; slot = (slot + 1) & mask)
        if (st->checked[slot] == prog)
            return 0;
    if (fp_select_check((const uint8_t *)PyBytes_AS_STRING(prog), (size_t)PyBytes_GET_SIZE(prog)) != 0) {
        PyErr_SetString(PyExc_ValueError, "not a compiled selector program");
        return -1;
    }
    if (st->nchecked >= FP_CHECKED_PROGRAMS / 4 * 3) {
        for (size_t k = 0; k < FP_CHECKED_PROGRAMS; k++)
            Py_CLEAR(st->checked[k]);
        st->nchecked = 0;
        slot = home;
    }
    st->checked[slot] = Py_NewRef(prog);
    st->nchecked++;
    return 0;
}

/* The program to run on d: `prog` itself, or for a legacy-encoded document
 * whose selector has non-ASCII strings, a copy with them in its encoding.
 * Returns a new reference, or NULL with an exception set. */
static PyObject *program_for(fp_state *st, DocumentObject *d, PyObject *prog)
{
    if (!PyBytes_Check(prog)) {
        PyErr_Format(PyExc_TypeError, "program must be bytes, not %.100s", Py_TYPE(prog)->tp_name);
        return NULL;
    }
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(prog);
    if (check_program(st, prog) < 0)
        return NULL;
    if (d->codec == NULL || ((const int32_t *)p)[FP_SEL_H_NONASCII] == 0) {
        Py_INCREF(prog);
        return prog;
    }
    PyObject *mod = PyImport_ImportModule("fastparse.selectors.cache");
    if (mod == NULL)
        return NULL;
    PyObject *out = PyObject_CallMethod(mod, "transcoded", "OO", prog, d->codec);
    Py_DECREF(mod);
    if (out != NULL && !PyBytes_Check(out)) {
        Py_DECREF(out);
        PyErr_SetString(PyExc_TypeError, "transcoding produced no bytes");
        return NULL;
    }
    if (out != NULL && check_program(st, out) < 0)
        Py_CLEAR(out);
    return out;
}

/* The document a program runs on for d: d, or d's UTF-8 twin where the
 * program's strings compare wrong with d's bytes (py_twin.c): a legacy d's, or
 * a U+FFFD against a UTF-8 d's invalid bytes. Element indices are the same in
 * both. Borrowed; NULL on error. */
static DocumentObject *doc_to_run(DocumentObject *d, PyObject *prog)
{
    if (!PyBytes_Check(prog) || PyBytes_GET_SIZE(prog) < (Py_ssize_t)(FP_SEL_HEADER_WORDS * 4))
        return d;   /* program_for reports a bad program */
    const int32_t *h = (const int32_t *)PyBytes_AS_STRING(prog);
    int32_t non_ascii = h[FP_SEL_H_NONASCII];
    return fp_twin_for(d, (h[FP_SEL_H_FLAGS] & FP_SEL_F_SUBSTRING) != 0, non_ascii != 0,
                       (non_ascii & FP_SEL_NONASCII_REPLACEMENT) != 0);
}

/* The elements under node (a Document or a Tag) matching program prog, at most
 * limit (<= 0: all), as a list; with `first`, the first of them or MISSING
 * (select_one). indexed = 0 scans instead of using the tag index. */
static PyObject *run_program(fp_state *st, PyObject *node, PyObject *prog_arg, Py_ssize_t limit, int indexed,
                             int first)
{
    int32_t scope;
    DocumentObject *owner = node_scope(st, node, &scope);   /* the results' document */
    DocumentObject *d = owner ? doc_to_run(owner, prog_arg) : NULL;
    if (d == NULL)
        return NULL;
    PyObject *prog = program_for(st, d, prog_arg);
    if (prog == NULL)
        return NULL;
    uint32_t cap = (limit <= 0 || limit > (Py_ssize_t)UINT32_MAX) ? UINT32_MAX : (uint32_t)limit;
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(prog);
    size_t len = (size_t)PyBytes_GET_SIZE(prog);
    fp_select_tables tables;
    if (doc_tables(d, p, scope >= 0, indexed, &tables) < 0) {
        Py_DECREF(prog);
        return PyErr_NoMemory();
    }
    uint32_t small[64];   /* most selects find a few elements: no malloc for them */
    fp_buf out = {(uint8_t *)small, 0, sizeof small, 1};
    fp_status status;
    uint32_t span = scope < 0 ? d->doc.n : d->doc.elems[scope].last - (uint32_t)scope;
    if (span < FP_SELECT_GIL_THRESHOLD) {
        status = fp_select_run(&d->doc, scope, p, len, cap, &tables, &out);
    } else {
        Py_BEGIN_ALLOW_THREADS
        status = fp_select_run(&d->doc, scope, p, len, cap, &tables, &out);
        Py_END_ALLOW_THREADS
    }
    Py_DECREF(prog);
    PyObject *result = NULL;
    uint32_t n = (uint32_t)(out.len / sizeof(uint32_t));
    if (status != FP_OK)
        PyErr_NoMemory();
    else if (first)
        result = n ? fp_tag_new(owner, ((const uint32_t *)out.data)[0]) : Py_NewRef(st->MISSING);
    else
        result = fp_tag_list(owner, (const uint32_t *)out.data, n);
    fp_buf_free(&out);
    return result;
}

/* For node (a Tag) and program prog: with `closest`, node or its nearest
 * ancestor matching (a Tag, or MISSING), else whether node matches (a bool);
 * NULL with an exception. */
static PyObject *test_program(fp_state *st, PyObject *node, PyObject *prog_arg, int closest)
{
    if (!PyObject_TypeCheck(node, st->Tag_type)) {
        PyErr_Format(PyExc_TypeError, "expected a Tag, not %.100s", Py_TYPE(node)->tp_name);
        return NULL;
    }
    TagObject *tag = (TagObject *)node;
    DocumentObject *d = doc_to_run(tag->doc, prog_arg);
    if (d == NULL)
        return NULL;
    PyObject *prog = program_for(st, d, prog_arg);
    if (prog == NULL)
        return NULL;
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(prog);
    size_t len = (size_t)PyBytes_GET_SIZE(prog);
    const fp_doc *doc = &d->doc;
    fp_select_tables tables;
    int32_t r = -2;   /* out of memory */
    if (doc_tables(d, p, 1, 1, &tables) == 0) {
        r = closest ? fp_select_closest(doc, tag->index, p, len, &tables)
                    : fp_select_test(doc, tag->index, p, len, &tables);
        if (!closest && r < 0)
            r = -2;
    }
    Py_DECREF(prog);
    if (r == -2)
        return PyErr_NoMemory();
    if (!closest)
        return PyBool_FromLong(r);
    return r < 0 ? Py_NewRef(st->MISSING) : fp_tag_new(tag->doc, (uint32_t)r);
}

PyObject *fp_select_cached(fp_state *st, PyObject *node, int which, PyObject *css)
{
    if (!PyUnicode_CheckExact(css))
        return NULL;   /* the Python side checks the type, or converts a subclass */
    /* A slot holds its str, so no other object can have that address while it
     * is there; a program depends on the selector's text alone, so the slot
     * stays right when the cache dict is cleared. */
    uintptr_t at = (uintptr_t)css >> 4;   /* objects are 16-byte aligned */
    struct fp_recent_selector *slot = &st->recent[(at ^ (at >> 6)) & (FP_RECENT_SELECTORS - 1)];
    PyObject *prog;
    if (slot->css == css) {
        prog = Py_NewRef(slot->prog);
    } else {
        prog = PyDict_GetItemWithError(st->select_programs, css);   /* borrowed */
        if (prog == NULL)
            return NULL;
        Py_INCREF(prog);   /* the cache may be cleared while the run decodes */
        Py_XSETREF(slot->css, Py_NewRef(css));
        Py_XSETREF(slot->prog, Py_NewRef(prog));
    }
    PyObject *r;
    if (which == FP_SELECT_FN_MATCHES || which == FP_SELECT_FN_CLOSEST) {
        r = test_program(st, node, prog, which == FP_SELECT_FN_CLOSEST);
    } else {
        int one = which != FP_SELECT_FN_SELECT;
        r = run_program(st, node, prog, one, 1, one);
    }
    Py_DECREF(prog);
    return r;
}

PyObject *fp_py_select_run(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 && nargs != 4) {
        PyErr_Format(PyExc_TypeError, "_select_run expects 3 or 4 arguments, got %zd", nargs);
        return NULL;
    }
    int indexed = nargs == 3 ? 1 : PyObject_IsTrue(args[3]);   /* False: scan (a testing aid) */
    if (indexed < 0)
        return NULL;
    Py_ssize_t limit = PyLong_AsSsize_t(args[2]);
    if (limit == -1 && PyErr_Occurred())
        return NULL;
    return run_program((fp_state *)PyModule_GetState(module), args[0], args[1], limit, indexed, 0);
}

PyObject *fp_py_select_test(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "_select_test expects 2 arguments, got %zd", nargs);
        return NULL;
    }
    return test_program((fp_state *)PyModule_GetState(module), args[0], args[1], 0);
}

PyObject *fp_py_select_closest(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "_select_closest expects 2 arguments, got %zd", nargs);
        return NULL;
    }
    return test_program((fp_state *)PyModule_GetState(module), args[0], args[1], 1);
}
