/* py_document.c — the Document type: owns the engine's index and keeps the
 * parsed source alive. Offsets and decoding are py_source.c's, find and
 * find_all's arguments and filters py_find.c's, both shared with Tag. */
#include "py_types.h"
#include "select.h"

#include <string.h>

static int
doc_traverse(DocumentObject *d, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(d));
    Py_VISIT(d->source);
    Py_VISIT(d->names);
    Py_VISIT(d->decoder);
    Py_VISIT(d->twin);
    return 0;
}

static int
doc_clear(DocumentObject *d)
{
    Py_CLEAR(d->names);
    Py_CLEAR(d->decoder);
    Py_CLEAR(d->twin);
    return 0;
}

static void
doc_dealloc(DocumentObject *d)
{
    PyTypeObject *tp = Py_TYPE(d);
    PyObject_GC_UnTrack(d);
    if (d->weakreflist)
        PyObject_ClearWeakRefs((PyObject *)d);
    fp_doc_free(&d->doc);
    free(d->all_errors);
    PyMem_Free(d->char_checkpoints);
    PyMem_Free(d->line_starts);
    PyMem_Free(d->select_index);
    PyMem_Free(d->select_siblings);
    PyMem_Free(d->tree_links);
    fp_select_forms_free(d->select_forms);
    Py_CLEAR(d->source);
    Py_CLEAR(d->encoding);
    Py_CLEAR(d->codec);
    Py_CLEAR(d->names);
    Py_CLEAR(d->decoder);
    Py_CLEAR(d->twin);
    tp->tp_free((PyObject *)d);
    Py_DECREF(tp);
}

static Py_ssize_t
doc_len(DocumentObject *d)
{
    return (Py_ssize_t)d->doc.n;
}

static PyObject *
doc_item(DocumentObject *d, Py_ssize_t i)
{
    if (i < 0 || i >= (Py_ssize_t)d->doc.n) {
        PyErr_SetString(PyExc_IndexError, "element index out of range");
        return NULL;
    }
    return fp_tag_new(d, (uint32_t)i);
}

static PyObject *
doc_subscript(DocumentObject *d, PyObject *key)
{
    if (PyIndex_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred())
            return NULL;
        if (i < 0)
            i += d->doc.n;
        return doc_item(d, i);
    }
    if (PySlice_Check(key)) {
        Py_ssize_t start, stop, step, n;
        if (PySlice_Unpack(key, &start, &stop, &step) < 0)
            return NULL;
        n = PySlice_AdjustIndices(d->doc.n, &start, &stop, step);
        PyObject *list = PyList_New(n);
        if (!list)
            return NULL;
        for (Py_ssize_t k = 0, i = start; k < n; k++, i += step) {
            PyObject *t = fp_tag_new(d, (uint32_t)i);
            if (!t) {
                Py_DECREF(list);
                return NULL;
            }
            PyList_SET_ITEM(list, k, t);
        }
        return list;
    }
    PyErr_Format(PyExc_TypeError, "Document indices must be integers or slices, not %.100s",
                 Py_TYPE(key)->tp_name);
    return NULL;
}

static fp_state *
state_of(DocumentObject *d)
{
    return fp_state_of_type(Py_TYPE(d));
}


static PyObject *
doc_find(DocumentObject *d, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return fp_find_common(d, 0, d->doc.n ? d->doc.n - 1 : 0, args, nargs, kwnames, 0);
}

static PyObject *
doc_find_all(DocumentObject *d, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return fp_find_common(d, 0, d->doc.n ? d->doc.n - 1 : 0, args, nargs, kwnames, 1);
}

static PyObject *
doc_get_text(DocumentObject *d, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return fp_get_text(d, -1, args, nargs, kwnames);
}

static PyObject *
doc_text(DocumentObject *d, void *closure)
{
    return fp_text_of(d, -1);
}

static PyObject *
doc_root(DocumentObject *d, void *closure)
{
    if (d->doc.n == 0)
        return Py_NewRef(state_of(d)->MISSING);
    return fp_tag_new(d, d->doc.root);
}

static PyObject *
doc_children(DocumentObject *d, void *closure)
{
    return fp_children_list(d, -1);
}

static PyObject *
doc_source(DocumentObject *d, void *closure)
{
    return Py_NewRef(d->source);
}

static PyObject *
doc_encoding(DocumentObject *d, void *closure)
{
    return Py_NewRef(d->encoding);
}

static PyObject *
doc_errors(DocumentObject *d, void *closure)
{
    if (!d->all_errors) {
        fp_error *errors;
        uint32_t n;
        int failed;
        /* a scan of the whole source (errors_scan.c): without the GIL, as a parse */
        Py_BEGIN_ALLOW_THREADS
        failed = fp_doc_all_errors(&d->doc, &errors, &n) < 0;
        Py_END_ALLOW_THREADS
        if (failed)
            return PyErr_NoMemory();
        if (d->all_errors) {   /* another thread's scan finished first */
            free(errors);
        } else {
            d->all_errors = errors;
            d->nall_errors = n;
        }
    }
    uint32_t n = d->nall_errors;
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    PyObject *cls = state_of(d)->ParseError;
    for (uint32_t k = 0; k < n; k++) {
        const fp_error *e = &d->all_errors[k];
        Py_ssize_t line, col;
        fp_doc_line_col(d, e->offset, &line, &col);
        PyObject *t = PyObject_CallFunction(cls, "snnn", fp_error_names[e->code],
                                            fp_doc_offset(d, e->offset), line, col);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, t);
    }
    return list;
}

/* Source bytes [start, end) as str: newlines normalised, NUL -> U+FFFD,
 * no references decoded (the tokenizer's comment and doctype states). */
static PyObject *
literal(DocumentObject *d, uint32_t start, uint32_t end)
{
    fp_buf b = {0};
    if (fp_literal_text(&d->doc, start, end, &b) < 0) {
        fp_buf_free(&b);
        return PyErr_NoMemory();
    }
    PyObject *s = fp_doc_decode(d, &b);
    fp_buf_free(&b);
    return s;
}

/* doc.comments (instructions 0) or doc.processing_instructions (1): the records
 * of that kind, as the namedtuples fastparse.comment defines. */
static PyObject *
comment_records(DocumentObject *d, int instructions)
{
    PyObject *list = PyList_New(0);
    PyObject *cls = instructions ? state_of(d)->ProcessingInstruction : state_of(d)->Comment;
    for (uint32_t k = 0; list && k < d->doc.ncomments; k++) {
        const fp_comment *c = &d->doc.comments[k];
        if ((c->target_end != 0) != instructions)
            continue;
        Py_ssize_t line, col;
        fp_doc_line_col(d, c->start, &line, &col);
        PyObject *target = instructions ? literal(d, c->target, c->target_end) : NULL;
        PyObject *text = !instructions || target ? literal(d, c->data, c->data_end) : NULL;
        PyObject *t = !text ? NULL
                    : instructions ? PyObject_CallFunction(cls, "OOnnn", target, text, fp_doc_offset(d, c->start),
                                                           line, col)
                    : PyObject_CallFunction(cls, "Onnn", text, fp_doc_offset(d, c->start), line, col);
        Py_XDECREF(target);
        Py_XDECREF(text);
        if (!t || PyList_Append(list, t) < 0)
            Py_CLEAR(list);
        Py_XDECREF(t);
    }
    return list;
}

static PyObject *
doc_comments(DocumentObject *d, void *closure)
{
    return comment_records(d, 0);
}

static PyObject *
doc_processing_instructions(DocumentObject *d, void *closure)
{
    return comment_records(d, 1);
}

static PyObject *
doc_quirks(DocumentObject *d, void *closure)
{
    return PyBool_FromLong(d->doc.quirks);
}

/* The doctype's name as the tokenizer makes it: ASCII letters lower-cased,
 * "" when it has none; None without a doctype (or one the tree builder
 * ignored: after an element or text). */
static PyObject *
doc_doctype(DocumentObject *d, void *closure)
{
    if (!d->doc.has_doctype)
        Py_RETURN_NONE;
    PyObject *raw = literal(d, d->doc.doctype_name, d->doc.doctype_name_end);
    if (!raw)
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(raw);
    PyObject *out = PyUnicode_New(n, PyUnicode_MAX_CHAR_VALUE(raw));
    for (Py_ssize_t k = 0; out && k < n; k++) {
        Py_UCS4 ch = PyUnicode_READ_CHAR(raw, k);
        PyUnicode_WRITE(PyUnicode_KIND(out), PyUnicode_DATA(out), k, ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
    }
    Py_DECREF(raw);
    return out;
}

static const char *const select_fn_names[FP_SELECT_FN__COUNT] = {"select", "select_one", "matches",
                                                                  "closest"};

/* fastparse.selectors' functions and its program cache, into st */
static int
load_select_fns(fp_state *st)
{
    PyObject *mod = PyImport_ImportModule("fastparse.selectors");
    if (!mod)
        return -1;
    for (int k = 0; k < FP_SELECT_FN__COUNT; k++)
        if (!st->select_fns[k] && !(st->select_fns[k] = PyObject_GetAttrString(mod, select_fn_names[k]))) {
            Py_DECREF(mod);
            return -1;
        }
    Py_DECREF(mod);
    PyObject *programs = NULL;
    mod = PyImport_ImportModule("fastparse.selectors.cache");
    if (mod)
        programs = PyObject_GetAttrString(mod, "programs");
    Py_XDECREF(mod);
    if (!programs || !PyDict_CheckExact(programs)) {
        Py_XDECREF(programs);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "fastparse.selectors.cache.programs must be a dict");
        return -1;
    }
    Py_XSETREF(st->select_programs, programs);
    return 0;
}

/* fastparse.selectors.<which>(self, css); the functions are looked up once
 * (the selector package imports lazily: parsing alone never loads it). A
 * selector already compiled runs from C with its cached program: a Python
 * frame costs about as much as matching a small page. */
PyObject *
fp_delegate_select(PyObject *self, int which, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes exactly one argument (%zd given)", select_fn_names[which],
                     nargs);
        return NULL;
    }
    fp_state *st = fp_state_of_type(Py_TYPE(self));
    if (st->select_programs) {
        PyObject *r = fp_select_cached(st, self, which, args[0]);
        if (r || PyErr_Occurred())
            return r;
    }
    if (!st->select_fns[which] && load_select_fns(st) < 0)
        return NULL;
    PyObject *call_args[3] = {NULL, self, args[0]};
    return PyObject_Vectorcall(st->select_fns[which], call_args + 1, 2 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
}

static PyObject *
doc_select(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return fp_delegate_select(self, FP_SELECT_FN_SELECT, args, nargs);
}

static PyObject *
doc_select_one(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return fp_delegate_select(self, FP_SELECT_FN_SELECT_ONE, args, nargs);
}

static PyObject *
call_py(PyObject *self, const char *module, const char *fn)
{
    PyObject *mod = PyImport_ImportModule(module);
    if (!mod)
        return NULL;
    PyObject *r = PyObject_CallMethod(mod, fn, "O", self);
    Py_DECREF(mod);
    return r;
}

static PyObject *
doc_repr_html(PyObject *self, PyObject *unused)
{
    return call_py(self, "fastparse._repr", "document_html");
}

static PyObject *
doc_repr(DocumentObject *d)
{
    return PyUnicode_FromFormat("<Document %zd elements, %zd bytes, encoding=%U>",
                                (Py_ssize_t)d->doc.n, (Py_ssize_t)d->doc.len, d->encoding);
}

static PyObject *
doc_html(DocumentObject *d, void *closure)
{
    if (d->is_str)
        return Py_NewRef(d->source);
    return fp_doc_decode_bytes(d, d->doc.buf, d->doc.len);
}

static PyMethodDef doc_methods[] = {
    {"find", (PyCFunction)(void (*)(void))doc_find, METH_FASTCALL | METH_KEYWORDS,
     "find($self, /, name=None, *, id=None, cls=None, attrs=None)\n--\n\n"
     "find(name=None, *, id=None, cls=None, attrs=None) -> Tag | MISSING\n\n"
     "The first element in document order that matches every filter given.\n"
     "name: a tag name, or a list, tuple or set of them (any of those)."},
    {"find_all", (PyCFunction)(void (*)(void))doc_find_all, METH_FASTCALL | METH_KEYWORDS,
     "find_all($self, /, name=None, *, id=None, cls=None, attrs=None, limit=None)\n--\n\n"
     "find_all(name=None, *, id=None, cls=None, attrs=None, limit=None) -> list[Tag]\n\n"
     "Every matching element in document order (at most `limit`)."},
    {"select", (PyCFunction)(void (*)(void))doc_select, METH_FASTCALL,
     "select($self, css, /)\n--\n\n"
     "select(css) -> list[Tag]: elements matching a CSS selector, in document order."},
    {"select_one", (PyCFunction)(void (*)(void))doc_select_one, METH_FASTCALL,
     "select_one($self, css, /)\n--\n\n"
     "select_one(css) -> Tag | MISSING: the first element matching a CSS selector."},
    {"get_text", (PyCFunction)(void (*)(void))doc_get_text, METH_FASTCALL | METH_KEYWORDS,
     "get_text($self, /, separator='', strip=False, skip=('script', 'style', 'template'), *, collapse=False)\n--\n\n"
     "get_text(separator='', strip=False, skip=('script', 'style', 'template'), *, collapse=False) -> str"},
    {"_repr_html_", (PyCFunction)doc_repr_html, METH_NOARGS, "Outline for Jupyter."},
    FP_COPY_METHODS
    {NULL},
};

static PyGetSetDef doc_getset[] = {
    {"source", (getter)doc_source, NULL, "The object that was parsed (str or bytes), kept alive.", NULL},
    {"encoding", (getter)doc_encoding, NULL, "WHATWG name of the encoding used ('utf-8', ...).", NULL},
    {"root", (getter)doc_root, NULL,
     "The root element: the first top-level element, or a <html> that top-level elements "
     "came before (the DOM's root); MISSING when there is none.", NULL},
    {"children", (getter)doc_children, NULL,
     "The top-level elements, in tree order (usually just <html>).", NULL},
    {"text", (getter)doc_text, NULL, "All text of the document, references decoded, comments excluded.", NULL},
    {"errors", (getter)doc_errors, NULL,
     "Parse errors, in source order: list of ParseError(code, offset, line, col), codes as the HTML "
     "Standard names them. The tree builder's and the tokenizer's (attributes, character references, "
     "comments, the doctype, NULs and control characters); the tokenizer's are found when this is "
     "read (once), by a scan of the source that costs about two parses.", NULL},
    {"comments", (getter)doc_comments, NULL,
     "Comments in document order: list of Comment(text, offset, line, col).", NULL},
    {"processing_instructions", (getter)doc_processing_instructions, NULL,
     "Processing instructions (<?target data?>) in document order: list of "
     "ProcessingInstruction(target, data, offset, line, col).", NULL},
    {"doctype", (getter)doc_doctype, NULL,
     "The doctype's name, lower-cased ('html'); '' when it has none; None without a doctype.", NULL},
    {"quirks", (getter)doc_quirks, NULL,
     "Whether the document is in quirks mode: no doctype, or a legacy one (HTML 13.2.6.4.1). "
     "Its <table> does not close an open <p>, and its class and id selectors ignore ASCII case. "
     "False for a fragment.", NULL},
    {"html", (getter)doc_html, NULL, "The whole source as str.", NULL},
    {NULL},
};

static PyMemberDef doc_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(DocumentObject, weakreflist), READONLY},
    {NULL},
};

/* iter(doc): its elements in document order, as doc[i] gives them */
static PyObject *
doc_iter(PyObject *self)
{
    return PySeqIter_New(self);
}

static PyObject *
doc_new_forbidden(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyErr_SetString(PyExc_TypeError, "use fastparse.parse() to create a Document");
    return NULL;
}

static PyType_Slot doc_slots[] = {
    {Py_tp_doc, "A parsed HTML document: a flat, document-ordered index of its elements.\n\n"
                "Immutable; safe to read from several threads. Create with fastparse.parse()."},
    {Py_tp_new, doc_new_forbidden},
    {Py_tp_dealloc, doc_dealloc},
    {Py_tp_traverse, doc_traverse},
    {Py_tp_clear, doc_clear},
    {Py_tp_repr, doc_repr},
    {Py_tp_methods, doc_methods},
    {Py_tp_getset, doc_getset},
    {Py_tp_members, doc_members},
    {Py_sq_length, doc_len},
    {Py_sq_item, doc_item},
    {Py_tp_iter, doc_iter},
    {Py_mp_length, doc_len},
    {Py_mp_subscript, doc_subscript},
    {0, NULL},
};

PyType_Spec fp_document_spec = {
    .name = "fastparse.Document",
    .basicsize = sizeof(DocumentObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = doc_slots,
};
