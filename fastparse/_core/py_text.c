/* py_text.c — tag.text, tag.get_text() and their Document twins: the
 * arguments, the engine's text buffer (text.c) decoded to str, and the two
 * steps legacy documents finish here (per-node strip, collapse), where the
 * codec says which bytes are whitespace. */
#include "py_types.h"

#include <string.h>

typedef struct {
    PyObject *sep;      /* str or NULL */
    int strip;
    PyObject *skip;     /* NULL: the default skip list */
    int collapse;
} text_args;

const char *const fp_text_kw_names[FP_TEXT_KW__COUNT] = {"separator", "strip", "skip", "collapse"};

int
fp_keyword_index(PyObject *const *interned, const char *const *names, int count, PyObject *key)
{
    for (int k = 0; k < count; k++)
        if (key == interned[k])   /* keywords in calls are interned: the usual hit */
            return k;
    int k = 0;
    while (k < count && PyUnicode_CompareWithASCIIString(key, names[k]) != 0)
        k++;
    return k;
}

static int
set_arg(text_args *a, int k, PyObject *v)
{
    switch (k) {
    case FP_TEXT_KW_SEPARATOR:
        if (!PyUnicode_Check(v)) {
            PyErr_Format(PyExc_TypeError, "get_text() separator must be a str, not %.100s", Py_TYPE(v)->tp_name);
            return -1;
        }
        a->sep = v;
        return 0;
    case FP_TEXT_KW_STRIP:
        return (a->strip = PyObject_IsTrue(v)) < 0 ? -1 : 0;
    case FP_TEXT_KW_SKIP:
        a->skip = v;
        return 0;
    default:
        return (a->collapse = PyObject_IsTrue(v)) < 0 ? -1 : 0;
    }
}

/* get_text(separator='', strip=False, skip=(...), *, collapse=False), parsed
 * from vectorcall arguments: a links loop calls it once per link. */
static int
parse_args(const fp_state *st, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, text_args *a)
{
    if (nargs > 3) {
        PyErr_Format(PyExc_TypeError, "get_text() takes at most 3 positional arguments (%zd given)", nargs);
        return -1;
    }
    unsigned seen = 0;
    for (Py_ssize_t k = 0; k < nargs; k++) {
        if (set_arg(a, (int)k, args[k]) < 0)
            return -1;
        seen |= 1u << k;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t k = 0; k < nkw; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        int which = fp_keyword_index(st->text_kw, fp_text_kw_names, FP_TEXT_KW__COUNT, name);
        if (which == FP_TEXT_KW__COUNT) {
            PyErr_Format(PyExc_TypeError, "get_text() got an unexpected keyword argument '%U'", name);
            return -1;
        }
        if (seen & (1u << which)) {
            PyErr_Format(PyExc_TypeError, "get_text() got multiple values for argument '%s'",
                         fp_text_kw_names[which]);
            return -1;
        }
        seen |= 1u << which;
        if (set_arg(a, which, args[nargs + k]) < 0)
            return -1;
    }
    return 0;
}

/* Resolves the skip names to tag ids (names absent from the document need no
 * skipping). Returns the count, or -1 with an error set. */
static int
skip_ids(DocumentObject *d, PyObject *skip, uint16_t *ids, int cap)
{
    if (skip == Py_None)
        return 0;
    if (PyUnicode_Check(skip)) {
        PyErr_SetString(PyExc_TypeError, "skip must be a collection of tag names, not a str");
        return -1;
    }
    PyObject *seq = PySequence_Fast(skip, "skip must be a collection of tag names");
    if (!seq)
        return -1;
    int n = 0;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq); k++) {
        PyObject *o = PySequence_Fast_GET_ITEM(seq, k);
        Py_ssize_t len;
        if (!PyUnicode_Check(o)) {
            PyErr_Format(PyExc_TypeError, "skip items must be str, not %.100s", Py_TYPE(o)->tp_name);
            Py_DECREF(seq);
            return -1;
        }
        const char *s = fp_utf8_of(o, &len);
        if (!s) {
            if (!PyErr_Occurred())
                continue;   /* a lone surrogate names no element */
            Py_DECREF(seq);
            return -1;
        }
        int id = fp_tag_lookup(&d->doc, (const uint8_t *)s, (size_t)len);
        if (id >= 0 && n < cap)
            ids[n++] = (uint16_t)id;
    }
    Py_DECREF(seq);
    return n;
}

/* get_text's default skip list, resolved once per document */
static int
default_skip_ids(DocumentObject *d, uint16_t *ids)
{
    static const char *const names[] = {"script", "style", "template"};
    if (d->ndefault_skip < 0) {
        int n = 0;
        for (int k = 0; k < 3; k++) {
            int id = fp_tag_lookup(&d->doc, (const uint8_t *)names[k], strlen(names[k]));
            if (id >= 0)
                d->default_skip[n++] = (uint16_t)id;
        }
        d->ndefault_skip = n;
    }
    memcpy(ids, d->default_skip, sizeof d->default_skip);
    return d->ndefault_skip;
}

/* The separator as the engine writes it: UTF-8, or for a legacy document
 * each code point as 0x00 + UTF-8 (the escape its text buffers use). */
static PyObject *
separator_bytes(DocumentObject *d, PyObject *sep)
{
    PyObject *utf8 = PyUnicode_AsUTF8String(sep);
    if (!utf8 && PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "get_text() separator holds a lone surrogate, which text cannot");
        return NULL;
    }
    if (!utf8 || !d->codec)
        return utf8;
    Py_ssize_t n = PyBytes_GET_SIZE(utf8);
    const uint8_t *s = (const uint8_t *)PyBytes_AS_STRING(utf8);
    PyObject *esc = PyBytes_FromStringAndSize(NULL, n + PyUnicode_GET_LENGTH(sep));
    if (esc) {
        uint8_t *o = (uint8_t *)PyBytes_AS_STRING(esc);
        for (Py_ssize_t k = 0; k < n; k++) {
            if ((s[k] & 0xC0) != 0x80)   /* a code point's first byte */
                *o++ = 0;
            *o++ = s[k];
        }
    }
    Py_DECREF(utf8);
    return esc;
}

/* ' '.join(s.split()) */
static PyObject *
collapse_str(PyObject *s)
{
    PyObject *parts = PyUnicode_Split(s, NULL, -1);
    PyObject *space = parts ? PyUnicode_FromStringAndSize(" ", 1) : NULL;
    PyObject *joined = space ? PyUnicode_Join(space, parts) : NULL;
    Py_XDECREF(space);
    Py_XDECREF(parts);
    return joined;
}

/* Legacy documents with strip: the engine separated the nodes with 0x00 0x00
 * (U+0000 U+0000 once decoded; text never holds U+0000), stripped here. */
static PyObject *
strip_nodes(PyObject *s, PyObject *sep)
{
    PyObject *nul = PyUnicode_FromOrdinal(0), *parts = nul ? PyUnicode_Split(s, nul, -1) : NULL;
    PyObject *kept = parts ? PyList_New(0) : NULL, *joined = NULL;
    for (Py_ssize_t k = 0; kept && k < PyList_GET_SIZE(parts); k++) {
        PyObject *t = PyObject_CallMethod(PyList_GET_ITEM(parts, k), "strip", NULL);   /* str.isspace() */
        if (!t || (PyUnicode_GET_LENGTH(t) && PyList_Append(kept, t) < 0))
            Py_CLEAR(kept);
        Py_XDECREF(t);
    }
    PyObject *joiner = sep ? Py_NewRef(sep) : PyUnicode_FromStringAndSize("", 0);
    if (kept && joiner)
        joined = PyUnicode_Join(joiner, kept);
    Py_XDECREF(joiner);
    Py_XDECREF(kept);
    Py_XDECREF(parts);
    Py_XDECREF(nul);
    return joined;
}

/* UTF-8 text with its whitespace collapsed, as a str */
static PyObject *
collapsed(const uint8_t *p, size_t n, int ascii)
{
    uint8_t small[256];
    uint8_t *out = n <= sizeof small ? small : PyMem_Malloc(n);
    if (!out)
        return PyErr_NoMemory();
    size_t len = fp_collapse_ws(p ? p : (const uint8_t *)"", n, out);
    PyObject *s = ascii ? fp_ascii_str(out, len) : PyUnicode_DecodeUTF8((const char *)out, (Py_ssize_t)len, "replace");
    if (out != small)
        PyMem_Free(out);
    return s;
}

/* ASCII text that collapsing leaves as it is: no whitespace but single spaces between words */
static int
ascii_collapsed(const uint8_t *p, size_t n)
{
    if (n && (p[0] == ' ' || p[n - 1] == ' '))
        return 0;
    for (size_t k = 0; k < n; k++)
        if (p[k] <= ' ' && (p[k] != ' ' || p[k + 1] == ' '))   /* a space is never last here */
            return 0;
    return 1;
}

/* An element's text that is its source bytes as they are (fp_text_is_source) */
static PyObject *
source_text(DocumentObject *d, const uint8_t *p, size_t n, int ascii, int collapse)
{
    if (ascii && (!collapse || ascii_collapsed(p, n)))
        return fp_ascii_str(p, n);   /* most link labels */
    if (!collapse)
        return fp_doc_decode_bytes(d, p, n);
    if (ascii || !d->codec)
        return collapsed(p, n, ascii);   /* ASCII: the same bytes, and spaces, in every encoding */
    PyObject *s = fp_doc_decode_bytes(d, p, n);
    if (s)
        Py_SETREF(s, collapse_str(s));
    return s;
}

static PyObject *
text_with(DocumentObject *d, int64_t i, fp_text_opts *o, PyObject *sep, int collapse)
{
    uint32_t from, to;   /* one text node (so no separator), maybe straight from the source */
    int ascii;
    if (i >= 0 && !o->strip && fp_text_is_source(&d->doc, (uint32_t)i, &from, &to, &ascii))
        return source_text(d, d->doc.buf + from, to - from, ascii, collapse);
    PyObject *sep_bytes = NULL;
    if (sep && PyUnicode_GET_LENGTH(sep)) {
        if (!(sep_bytes = separator_bytes(d, sep)))
            return NULL;
        o->sep = (const uint8_t *)PyBytes_AS_STRING(sep_bytes);
        o->sep_len = (size_t)PyBytes_GET_SIZE(sep_bytes);
    }
    int strip_here = d->codec && o->strip;
    if (strip_here) {
        o->strip = 0;
        o->sep = (const uint8_t *)"\0\0";
        o->sep_len = 2;
    }
    uint8_t small[256];
    fp_buf b = {small, 0, sizeof small, 1};   /* short texts (link labels) need no malloc */
    int r = i < 0 ? fp_doc_text(&d->doc, o, &b) : fp_text(&d->doc, (uint32_t)i, o, &b);
    Py_XDECREF(sep_bytes);
    if (r < 0) {
        fp_buf_free(&b);
        return PyErr_NoMemory();
    }
    PyObject *s = collapse && !d->codec ? collapsed(b.data, b.len, 0) : fp_doc_decode(d, &b);
    fp_buf_free(&b);
    if (s && strip_here)
        Py_SETREF(s, strip_nodes(s, sep));
    if (s && collapse && d->codec)
        Py_SETREF(s, collapse_str(s));
    return s;
}

PyObject *
fp_text_of(DocumentObject *d, int64_t i)
{
    fp_text_opts o = {0};
    return text_with(d, i, &o, NULL, 0);
}

PyObject *
fp_get_text(DocumentObject *d, int64_t i, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    text_args a = {0};
    if (parse_args(fp_state_of_type(Py_TYPE(d)), args, nargs, kwnames, &a) < 0)
        return NULL;
    fp_text_opts o = {0};
    uint16_t ids[64];
    int n = a.skip ? skip_ids(d, a.skip, ids, 64) : default_skip_ids(d, ids);
    if (n < 0)
        return NULL;
    o.skip = ids;
    o.nskip = (size_t)n;
    o.strip = a.strip;
    return text_with(d, i, &o, a.sep, a.collapse);
}
