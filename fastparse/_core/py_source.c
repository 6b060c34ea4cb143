/* py_source.c — the binding's view of a document's source: byte offsets
 * mapped to the source's own units (code points of a str, with checkpoints
 * every 64 bytes; bytes of bytes), lines and columns, and the engine's
 * buffers and tag names decoded to str in the document's encoding (a legacy
 * encoding's text is decoded run by run). */
#include "py_types.h"

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
    /* markup follows a run, which a cut gb18030 sequence gives its bytes back to; at
     * the end of the input the standard drops them (text.c cuts runs it copies) */
    PyObject *errors = p + n == d->doc.buf + d->doc.len ? d->st->whatwg_end_errors : d->st->whatwg_errors;
    PyObject *args[2] = {PyBytes_FromStringAndSize((const char *)p, (Py_ssize_t)n), errors};
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
 * point the engine produced and 0x00 0xFF between runs decoded apart (see
 * fp_text in fp.h). */
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
        if (z + 1 < end && z[1] == 0xFF) {   /* FP_TEXT_BREAK: the run ends, no code point */
            p = z + 2;
            continue;
        }
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
    fp_buf b = {0};
    int marked = d->codec ? fp_tag_name_marked(&d->doc, tag, &b) : 0;   /* a NUL's U+FFFD in it */
    if (marked < 0)
        name = PyErr_NoMemory();
    else if (marked)
        name = decode_legacy(d, b.data, b.len);
    else
        name = fp_doc_decode_bytes(d, s, len);
    fp_buf_free(&b);
    if (name) {
        PyUnicode_InternInPlace(&name);
        if (PyDict_SetItem(d->names, key, name) < 0)
            Py_CLEAR(name);
    }
    Py_DECREF(key);
    return name;
}
