/* py_document.c — the Document type: owns the engine's index and keeps the
 * parsed source alive; maps byte offsets to the source's own index space;
 * decodes buffers the engine fills; builds find/find_all filters. */
#include "py_types.h"
#include "select.h"
#include "tags_gen.h"

#include <string.h>

/* ---- offsets ---- */

/* Builds, once, the count of code points before each 64-byte block, so a
 * byte offset of a non-ASCII str maps to a str index in O(64). */
static int
ensure_checkpoints(DocumentObject *d)
{
    if (d->char_checkpoints)
        return 0;
    size_t nblocks = d->doc.len / 64 + 2;
    uint32_t *cp = PyMem_Malloc(nblocks * sizeof *cp);
    if (!cp) {
        PyErr_NoMemory();
        return -1;
    }
    uint32_t count = 0;
    const uint8_t *b = d->doc.buf;
    for (size_t k = 0; k < nblocks; k++) {
        cp[k] = count;
        size_t lo = k * 64, hi = lo + 64 < d->doc.len ? lo + 64 : d->doc.len;
        for (size_t i = lo; i < hi; i++)
            count += (b[i] & 0xC0) != 0x80;
    }
    d->char_checkpoints = cp;
    return 0;
}

Py_ssize_t
fp_doc_offset(DocumentObject *d, uint32_t off)
{
    if (!d->is_str)
        return (Py_ssize_t)off + d->base;
    if (d->str_ascii)
        return (Py_ssize_t)off;
    if (ensure_checkpoints(d) < 0) {
        PyErr_Clear();
        return (Py_ssize_t)off;
    }
    const uint8_t *b = d->doc.buf;
    Py_ssize_t n = d->char_checkpoints[off / 64];
    for (size_t i = (off / 64) * 64; i < off; i++)
        n += (b[i] & 0xC0) != 0x80;
    return n;
}

static int
ensure_lines(DocumentObject *d)
{
    if (d->line_starts)
        return 0;
    /* CR LF, lone LF and lone CR each end a line, as after the input stream's
     * newline normalisation */
    const uint8_t *b = d->doc.buf, *end = b + d->doc.len;
    size_t n = fp_count_byte(b, d->doc.len, '\n') + fp_count_byte(b, d->doc.len, '\r') + 1;
    uint32_t *ls = PyMem_Malloc(n * sizeof *ls);
    if (!ls) {
        PyErr_NoMemory();
        return -1;
    }
    size_t k = 0;
    ls[k++] = 0;
    for (const uint8_t *p = b; p < end; p++) {
        if (*p == '\n' || (*p == '\r' && (p + 1 >= end || p[1] != '\n')))
            ls[k++] = (uint32_t)(p + 1 - b);
    }
    d->line_starts = ls;
    d->nlines = (uint32_t)k;
    return 0;
}

/* 1-based line and column; the column counts in the source's own units
 * (code points for str input, bytes for bytes input). */
void
fp_doc_line_col(DocumentObject *d, uint32_t off, Py_ssize_t *line, Py_ssize_t *col)
{
    if (ensure_lines(d) < 0) {
        PyErr_Clear();
        *line = *col = 0;
        return;
    }
    uint32_t lo = 0, hi = d->nlines;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (d->line_starts[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    *line = lo + 1;
    if (lo == 0 && !d->is_str)
        *col = (Py_ssize_t)off + d->base + 1;  /* a skipped BOM is still part of doc.source */
    else if (d->is_str && !d->str_ascii)
        *col = fp_doc_offset(d, off) - fp_doc_offset(d, d->line_starts[lo]) + 1;
    else
        *col = (Py_ssize_t)(off - d->line_starts[lo]) + 1;
}

/* ---- decoding ---- */

PyObject *
fp_ascii_str(const uint8_t *p, size_t n)
{
    PyObject *s = PyUnicode_New((Py_ssize_t)n, 127);
    if (s && n)
        memcpy(PyUnicode_1BYTE_DATA(s), p, n);
    return s;
}

PyObject *
fp_doc_decode_bytes(DocumentObject *d, const uint8_t *p, size_t n)
{
    if (!d->codec)
        return PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)n, "replace");
    if (fp_skip_ascii(p, p + n) == p + n)
        return fp_ascii_str(p, n);   /* ASCII reads the same in every encoding parsed as is (test_encoding.py) */
    /* the decode function is looked up once a document: PyUnicode_Decode
     * searches the codec registry at every call, ~1 us, 4x the decoding of a
     * link label. The lookup may run Python code, where another thread can
     * store it first: the second one found is dropped. */
    if (!d->decoder) {
        const char *codec = PyUnicode_AsUTF8(d->codec);
        PyObject *fn = codec ? PyCodec_Decoder(codec) : NULL;
        if (!fn)
            return NULL;
        if (d->decoder)
            Py_DECREF(fn);
        else
            d->decoder = fn;
    }
    PyObject *args[2] = {PyBytes_FromStringAndSize((const char *)p, (Py_ssize_t)n), d->st->replace};
    if (!args[0])
        return NULL;
    PyObject *r = PyObject_Vectorcall(d->decoder, args, 2, NULL);
    Py_DECREF(args[0]);
    if (!r)
        return NULL;
    PyObject *s = PyTuple_Check(r) && PyTuple_GET_SIZE(r) == 2 ? PyTuple_GET_ITEM(r, 0) : NULL;
    if (!s || !PyUnicode_Check(s)) {
        Py_DECREF(r);
        PyErr_Format(PyExc_TypeError, "the %U codec's decoder did not return (str, int)", d->codec);
        return NULL;
    }
    Py_INCREF(s);
    Py_DECREF(r);
    return s;
}

/* Legacy documents: source-encoded runs, with 0x00 + UTF-8 for each code
 * point the engine produced (see fp_text in fp.h). */
static PyObject *
decode_legacy(DocumentObject *d, const uint8_t *p, size_t n)
{
    PyObject *parts = PyList_New(0), *sep = NULL, *out = NULL;
    if (!parts)
        return NULL;
    const uint8_t *end = p + n;
    while (p < end) {
        const uint8_t *z = memchr(p, 0, (size_t)(end - p));
        const uint8_t *stop = z ? z : end;
        PyObject *s;
        if (stop > p) {
            s = fp_doc_decode_bytes(d, p, (size_t)(stop - p));
            if (!s || PyList_Append(parts, s) < 0) {
                Py_XDECREF(s);
                goto error;
            }
            Py_DECREF(s);
        }
        if (!z)
            break;
        size_t len = z + 1 < end ? (z[1] < 0x80 ? 1 : z[1] < 0xE0 ? 2 : z[1] < 0xF0 ? 3 : 4) : 0;
        if (z + 1 + len > end)
            len = (size_t)(end - z - 1);
        s = PyUnicode_DecodeUTF8((const char *)z + 1, (Py_ssize_t)len, "replace");
        if (!s || PyList_Append(parts, s) < 0) {
            Py_XDECREF(s);
            goto error;
        }
        Py_DECREF(s);
        p = z + 1 + len;
    }
    sep = PyUnicode_FromStringAndSize("", 0);
    if (sep)
        out = PyUnicode_Join(sep, parts);
error:
    Py_XDECREF(sep);
    Py_DECREF(parts);
    return out;
}

PyObject *
fp_doc_decode(DocumentObject *d, const fp_buf *b)
{
    const uint8_t *p = b->data ? b->data : (const uint8_t *)"";
    if (d->codec)
        return decode_legacy(d, p, b->len);
    return PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)b->len, "replace");
}

PyObject *
fp_doc_tag_name(DocumentObject *d, uint16_t tag)
{
    if (!d->names) {
        d->names = PyDict_New();
        if (!d->names)
            return NULL;
    }
    PyObject *key = PyLong_FromLong(tag);
    if (!key)
        return NULL;
    PyObject *name = PyDict_GetItemWithError(d->names, key);
    if (name) {
        Py_DECREF(key);
        return Py_NewRef(name);
    }
    size_t len;
    const uint8_t *s = fp_tag_name(&d->doc, tag, &len);
    name = fp_doc_decode_bytes(d, s, len);
    if (name) {
        PyUnicode_InternInPlace(&name);
        if (PyDict_SetItem(d->names, key, name) < 0)
            Py_CLEAR(name);
    }
    Py_DECREF(key);
    return name;
}

/* ---- filters shared by find/find_all/next_sibling ---- */

static int
keep(fp_query_keep *k, PyObject *o)
{
    if (k->n == (int)(sizeof k->objs / sizeof k->objs[0])) {
        Py_DECREF(o);
        PyErr_SetString(PyExc_ValueError, "too many attribute filters (at most 32)");
        return -1;
    }
    k->objs[k->n++] = o;
    return 0;
}

/* str s as bytes in the document's encoding, in *out (*out_len bytes): the
 * str's own UTF-8 when that is what the document holds (ASCII reads the same
 * in every encoding parsed as is), else an encoded copy kept alive in k.
 * 1; 0 when s cannot occur in this document (unencodable); -1 on error. */
static int
encode_for_doc(DocumentObject *d, PyObject *s, const char *what, fp_query_keep *k, const uint8_t **out,
               size_t *out_len)
{
    if (!PyUnicode_Check(s)) {
        PyErr_Format(PyExc_TypeError, "%s must be a str, not %.100s", what, Py_TYPE(s)->tp_name);
        return -1;
    }
    if (!d->codec || PyUnicode_IS_ASCII(s)) {
        Py_ssize_t n;
        const char *p = PyUnicode_AsUTF8AndSize(s, &n);   /* lives as long as s: the caller's argument */
        if (!p)
            return -1;
        *out = (const uint8_t *)p;
        *out_len = (size_t)n;
        return 1;
    }
    PyObject *b = PyUnicode_AsEncodedString(s, PyUnicode_AsUTF8(d->codec), "strict");
    if (!b) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    if (keep(k, b) < 0)
        return -1;
    *out = (const uint8_t *)PyBytes_AS_STRING(b);
    *out_len = (size_t)PyBytes_GET_SIZE(b);
    return 1;
}

/* An id= or cls= filter as bytes in the document's encoding; *nothing set
 * when the text cannot occur in this document. */
static int
text_filter(DocumentObject *d, PyObject *value, const char *what, fp_query_keep *k,
            const uint8_t **out, size_t *out_len, int *nothing)
{
    if (!value || value == Py_None)
        return 0;
    int r = encode_for_doc(d, value, what, k, out, out_len);
    if (r == 0)
        *nothing = 1;
    return r < 0 ? -1 : 0;
}

/* attrs key as the tokenizer stores names: ASCII lowercase (a new reference) */
static PyObject *
lowered_key(PyObject *key)
{
    if (PyUnicode_IS_ASCII(key)) {
        const char *p = (const char *)PyUnicode_DATA(key);
        Py_ssize_t n = PyUnicode_GET_LENGTH(key), i = 0;
        while (i < n && !(p[i] >= 'A' && p[i] <= 'Z'))
            i++;
        if (i == n)
            return Py_NewRef(key);   /* already lower case: most calls */
    }
    return PyObject_CallMethod(key, "lower", NULL);
}

/* the tag id of the name str, -1 when no element has it, -2 on error */
static int
name_tag(DocumentObject *d, PyObject *name)
{
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(name, &len);
    if (!s)
        return -2;
    int tag = fp_tag_lookup(&d->doc, (const uint8_t *)s, (size_t)len);
    return tag < 0 ? -1 : tag;
}

static int
is_name_list(PyObject *o)
{
    return PyList_Check(o) || PyTuple_Check(o) || PyAnySet_Check(o);
}

/* find_all(["h1", "h2"]): any of the names (a list, tuple, set or frozenset
 * of str), as BeautifulSoup takes them; one name known here is a name */
static int
name_list(DocumentObject *d, PyObject *names, fp_query *q, fp_query_keep *k, int *nothing)
{
    if (!is_name_list(names)) {
        PyErr_Format(PyExc_TypeError, "name must be a str, a list, tuple or set of str, or None, not %.100s",
                     Py_TYPE(names)->tp_name);
        return -1;
    }
    PyObject *it = PyObject_GetIter(names), *item;
    if (!it)
        return -1;
    size_t n = 0;
    while ((item = PyIter_Next(it))) {
        int tag = PyUnicode_Check(item) ? name_tag(d, item) : -3;
        if (tag == -3)
            PyErr_Format(PyExc_TypeError, "name list items must be str, not %.100s", Py_TYPE(item)->tp_name);
        Py_DECREF(item);
        if (tag < -1)
            break;
        size_t j = 0;
        while (j < n && k->tags[j] != tag)
            j++;
        if (tag < 0 || j < n)
            continue;   /* no element has it, or named twice */
        if (n == FP_QUERY_NAMES) {
            PyErr_SetString(PyExc_ValueError, "too many names (at most 64 that occur in the document)");
            break;
        }
        k->tags[n++] = (uint16_t)tag;
    }
    Py_DECREF(it);
    if (PyErr_Occurred())
        return -1;
    if (n == 0)
        *nothing = 1;
    else if (n == 1)
        q->tag = k->tags[0];   /* find_all's fast path for one name */
    else {
        q->tags = k->tags;
        q->ntags = n;
    }
    return 0;
}

int
fp_query_build(DocumentObject *d, PyObject *name, PyObject *id, PyObject *cls, PyObject *attrs,
               fp_query *q, fp_query_keep *k)
{
    memset(q, 0, sizeof *q);
    q->tag = -1;
    k->n = 0;
    int nothing = 0;
    if (name && name != Py_None) {
        if (PyUnicode_Check(name)) {
            q->tag = name_tag(d, name);
            if (q->tag == -2)
                return -1;
            if (q->tag < 0)
                nothing = 1;
        } else if (name_list(d, name, q, k, &nothing) < 0) {
            return -1;
        }
    }
    if (text_filter(d, id, "id", k, &q->id, &q->id_len, &nothing) < 0 ||
        text_filter(d, cls, "cls", k, &q->cls, &q->cls_len, &nothing) < 0)
        return -1;
    if (attrs && attrs != Py_None) {
        if (!PyDict_Check(attrs)) {
            PyErr_Format(PyExc_TypeError, "attrs must be a dict, not %.100s", Py_TYPE(attrs)->tp_name);
            return -1;
        }
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(attrs, &pos, &key, &value)) {
            if (q->nattrs == sizeof k->attrs / sizeof k->attrs[0]) {
                PyErr_SetString(PyExc_ValueError, "too many attribute filters (at most 32)");
                return -1;
            }
            if (!PyUnicode_Check(key)) {
                PyErr_Format(PyExc_TypeError, "attrs keys must be str, not %.100s", Py_TYPE(key)->tp_name);
                return -1;
            }
            PyObject *lk = lowered_key(key);
            if (!lk || keep(k, lk) < 0)   /* the name's bytes may be lk's own */
                return -1;
            const uint8_t *name;
            size_t name_len;
            int r = encode_for_doc(d, lk, "attrs keys", k, &name, &name_len);
            if (r < 0)
                return -1;
            if (r == 0 || memchr(name, 0, name_len)) {
                /* a name the document's encoding cannot write; or with a NUL, which
                 * no name holds (the tokenizer made each U+FFFD) */
                nothing = 1;
                continue;
            }
            fp_attr_query *aq = &k->attrs[q->nattrs++];
            aq->name = (const char *)name;
            aq->name_len = name_len;
            aq->value = NULL;
            aq->value_len = 0;
            if (value == Py_True)
                continue;
            if (value == Py_False || value == Py_None) {
                PyErr_SetString(PyExc_ValueError,
                                "attrs values must be a str or True (absence is not supported)");
                return -1;
            }
            if ((r = encode_for_doc(d, value, "attrs values", k, &aq->value, &aq->value_len)) < 0)
                return -1;
            if (r == 0)
                nothing = 1;
        }
        q->attrs = k->attrs;
    }
    return nothing;
}

void
fp_query_release(fp_query_keep *k)
{
    for (int i = 0; i < k->n; i++)
        Py_DECREF(k->objs[i]);
    k->n = 0;
}

/* ---- the type ---- */

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

const char *const fp_find_kw_names[FP_FIND_KW__COUNT] = {"name", "id", "cls", "attrs", "limit"};

/* BeautifulSoup's keywords, which a port of its code passes: what to write
 * here; NULL for any other name, which is one of its attribute filters
 * (href=True) or a misspelling. */
static const char *
soup_keyword_hint(PyObject *key, int with_limit)
{
    static const char *const hints[][2] = {
        {"class_", " (here cls=, which matches one class token)"},
        {"string", " (no text filter here: test tag.text)"},
        {"text", " (no text filter here: test tag.text)"},
        {"recursive", " (direct children: tag.children)"},
    };
    for (size_t k = 0; k < sizeof hints / sizeof hints[0]; k++)
        if (PyUnicode_CompareWithASCIIString(key, hints[k][0]) == 0)
            return hints[k][1];
    if (!with_limit && PyUnicode_CompareWithASCIIString(key, "limit") == 0)
        return "";
    return NULL;
}

int
fp_find_args(PyObject *self, const char *fname, int with_limit, PyObject *const *args, Py_ssize_t nargs,
             PyObject *kwnames, PyObject **out)
{
    const fp_state *st = fp_state_of_type(Py_TYPE(self));
    int nkeys = with_limit ? FP_FIND_KW__COUNT : FP_FIND_KW_LIMIT;
    for (int k = 0; k < FP_FIND_KW__COUNT; k++)
        out[k] = NULL;
    if (nargs > 1) {
        /* BeautifulSoup's find(name, attrs): a dict of attributes, or a str for a class */
        const char *hint = PyDict_Check(args[1])      ? " (attributes go in attrs=, values matched exactly)"
                           : PyUnicode_Check(args[1]) ? " (a class goes in cls=)"
                                                      : "";
        PyErr_Format(PyExc_TypeError, "%s() takes at most 1 positional argument (%zd given)%s", fname, nargs, hint);
        return -1;
    }
    if (nargs)
        out[FP_FIND_KW_NAME] = args[0];
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t j = 0; j < nkw; j++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, j);
        int k = fp_keyword_index(st->find_kw, fp_find_kw_names, nkeys, key);
        if (k == nkeys) {
            const char *hint = soup_keyword_hint(key, with_limit);
            if (hint)
                PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'%s", fname, key, hint);
            else
                PyErr_Format(PyExc_TypeError,
                             "%s() got an unexpected keyword argument '%U' (an attribute? attrs={'%U': value or True})",
                             fname, key, key);
            return -1;
        }
        if (out[k]) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname, fp_find_kw_names[k]);
            return -1;
        }
        out[k] = args[nargs + j];
    }
    return 0;
}

static int
non_ascii_str(PyObject *o)
{
    return o && PyUnicode_Check(o) && !PyUnicode_IS_ASCII(o);
}

/* a name, or a list of names, with a non-ASCII one (a custom element's) */
static int
non_ascii_name(PyObject *o)
{
    if (!o || !is_name_list(o))
        return non_ascii_str(o);
    PyObject *it = PyObject_GetIter(o), *item;
    int found = 0;
    while (it && !found && (item = PyIter_Next(it))) {
        found = non_ascii_str(item);
        Py_DECREF(item);
    }
    Py_XDECREF(it);
    PyErr_Clear();   /* fp_query_build reports what is wrong with the list */
    return found;
}

DocumentObject *
fp_query_doc(DocumentObject *d, PyObject *name, PyObject *id, PyObject *cls, PyObject *attrs)
{
    if (!d->codec)
        return d;
    int has_attrs = attrs && PyDict_Check(attrs);
    int non_ascii = non_ascii_name(name) || non_ascii_str(id) || non_ascii_str(cls);
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (has_attrs && !non_ascii && PyDict_Next(attrs, &pos, &key, &value))
        non_ascii = non_ascii_str(key) || non_ascii_str(value);
    return fp_twin_for(d, 0, non_ascii);   /* equal values and tokens: an ASCII one compares right */
}

/* find / find_all over [first, last] of d; shared with Tag (py_tag.c) */
PyObject *
fp_find_common(DocumentObject *d, uint32_t first, uint32_t last, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames, int find_all)
{
    PyObject *a[FP_FIND_KW__COUNT];
    if (fp_find_args((PyObject *)d, find_all ? "find_all" : "find", find_all, args, nargs, kwnames, a) < 0)
        return NULL;
    PyObject *name = a[FP_FIND_KW_NAME], *id = a[FP_FIND_KW_ID], *cls = a[FP_FIND_KW_CLS];
    PyObject *attrs = a[FP_FIND_KW_ATTRS], *limit_obj = a[FP_FIND_KW_LIMIT] ? a[FP_FIND_KW_LIMIT] : Py_None;
    uint32_t limit = find_all ? UINT32_MAX : 1;
    if (find_all && limit_obj != Py_None) {
        if (!PyLong_Check(limit_obj) || PyBool_Check(limit_obj)) {
            PyErr_Format(PyExc_TypeError, "limit must be an int or None, not %.100s",
                         Py_TYPE(limit_obj)->tp_name);
            return NULL;
        }
        int overflow;
        long long l = PyLong_AsLongLongAndOverflow(limit_obj, &overflow);
        if (l == -1 && PyErr_Occurred())
            return NULL;
        if (overflow < 0 || (overflow == 0 && l < 0)) {   /* on overflow l is -1 */
            PyErr_SetString(PyExc_ValueError, "limit must be >= 0");
            return NULL;
        }
        limit = overflow > 0 || l > (long long)UINT32_MAX ? UINT32_MAX : (uint32_t)l;
    }
    DocumentObject *qd = fp_query_doc(d, name, id, cls, attrs);   /* same elements as d */
    if (!qd)
        return NULL;
    fp_query q;
    fp_query_keep k;
    int r = fp_query_build(qd, name, id, cls, attrs, &q, &k);
    if (r < 0) {
        fp_query_release(&k);
        return NULL;
    }
    uint32_t n = 0, *idx = NULL;
    uint32_t span = d->doc.n && last >= first ? last - first + 1 : 0;
    if (r == 0 && span && limit) {
        uint32_t cap = limit < span ? limit : span;
        idx = PyMem_Malloc((size_t)cap * sizeof *idx);
        if (!idx) {
            fp_query_release(&k);
            return PyErr_NoMemory();
        }
        n = fp_find(&qd->doc, first, last, &q, idx, cap);
    }
    fp_query_release(&k);
    PyObject *res;
    if (find_all)
        res = fp_tag_list(d, idx, n);
    else if (n)
        res = fp_tag_new(d, idx[0]);
    else
        res = Py_NewRef(state_of(d)->MISSING);
    PyMem_Free(idx);
    return res;
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
    return fp_tag_new(d, 0);
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

static PyObject *
doc_comments(DocumentObject *d, void *closure)
{
    PyObject *list = PyList_New(d->doc.ncomments);
    PyObject *cls = state_of(d)->Comment;
    for (uint32_t k = 0; list && k < d->doc.ncomments; k++) {
        const fp_comment *c = &d->doc.comments[k];
        Py_ssize_t line, col;
        fp_doc_line_col(d, c->start, &line, &col);
        PyObject *text = literal(d, c->data, c->data_end);
        PyObject *t = text ? PyObject_CallFunction(cls, "Onnn", text, fp_doc_offset(d, c->start), line, col)
                           : NULL;
        Py_XDECREF(text);
        if (!t)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, k, t);
    }
    return list;
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
     "find(name=None, *, id=None, cls=None, attrs=None) -> Tag | MISSING\n\n"
     "The first element in document order that matches every filter given.\n"
     "name: a tag name, or a list, tuple or set of them (any of those)."},
    {"find_all", (PyCFunction)(void (*)(void))doc_find_all, METH_FASTCALL | METH_KEYWORDS,
     "find_all(name=None, *, id=None, cls=None, attrs=None, limit=None) -> list[Tag]\n\n"
     "Every matching element in document order (at most `limit`)."},
    {"select", (PyCFunction)(void (*)(void))doc_select, METH_FASTCALL,
     "select(css) -> list[Tag]: elements matching a CSS selector, in document order."},
    {"select_one", (PyCFunction)(void (*)(void))doc_select_one, METH_FASTCALL,
     "select_one(css) -> Tag | MISSING: the first element matching a CSS selector."},
    {"get_text", (PyCFunction)(void (*)(void))doc_get_text, METH_FASTCALL | METH_KEYWORDS,
     "get_text(separator='', strip=False, skip=('script', 'style', 'template'), *, collapse=False) -> str"},
    {"_repr_html_", (PyCFunction)doc_repr_html, METH_NOARGS, "Outline for Jupyter."},
    {NULL},
};

static PyGetSetDef doc_getset[] = {
    {"source", (getter)doc_source, NULL, "The object that was parsed (str or bytes), kept alive.", NULL},
    {"encoding", (getter)doc_encoding, NULL, "WHATWG name of the encoding used ('utf-8', ...).", NULL},
    {"root", (getter)doc_root, NULL, "The first top-level element, or MISSING.", NULL},
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
