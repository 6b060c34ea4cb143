/* py_twin.c — the UTF-8 twin of a legacy-encoded document: its source decoded
 * once and parsed again, made on the first query that needs it. A UTF-8
 * document parsed from bytes that are not all UTF-8 has one too, for a query
 * with a U+FFFD: its values and names read (decoded) with one where the bytes
 * hold an invalid sequence, which the bytes compared would never match.
 *
 * A legacy document's attribute values and text are its own bytes, with a
 * character reference's code point as 0x00 + UTF-8 unless it is ASCII (fp_text
 * in fp.h). Compared as bytes with a query put in the document's encoding,
 * "Caf&eacute;" misses "Café", a character the encoding writes two ways misses
 * its other spelling (Shift_JIS writes 396 characters so), and the second byte
 * of a Shift_JIS, Big5 or GBK character can pass for an ASCII letter inside a
 * value (not at its start, nor after whitespace: a whole value, a prefix or a
 * class token compares right). So a query with non-ASCII text, or one looking
 * for ASCII inside values or text ($=, *=, :contains) in those encodings,
 * takes the twin, where both sides are Unicode as UTF-8, as in any UTF-8
 * document. Making it costs the decoding (Python's codec) and a second parse:
 * 2 to 10 parses of the document, once.
 * The twin's elements are the document's, index for index: the tokenizer and
 * the tree builder read only ASCII bytes, which every such encoding keeps.
 * That is checked; where it does not hold (one character spelt two ways in
 * tag names) no twin is made, and the document's own bytes are compared. */
#include "py_types.h"

#include <string.h>

/* the twin's index says what d's says: the same elements, nested alike */
static int
same_elements(const fp_doc *a, const fp_doc *b)
{
    if (a->n != b->n)
        return 0;
    for (uint32_t i = 0; i < a->n; i++) {
        const fp_elem *x = &a->elems[i], *y = &b->elems[i];
        if (x->tag != y->tag || x->parent != y->parent || x->last != y->last || x->depth != y->depth ||
            x->closed != y->closed || x->flags != y->flags)
            return 0;
    }
    return 1;
}

/* d's twin, or NULL with no exception when it cannot stand for d (its UTF-8
 * past the engine's 32-bit offsets, a limit hit, other elements); NULL with
 * an exception when out of memory or the codec failed. */
static DocumentObject *
make_twin(DocumentObject *d)
{
    if (!d->codec && fp_utf8_check(d->doc.buf, d->doc.len) != 0)
        return NULL;   /* valid UTF-8: its values are its bytes */
    PyObject *text = fp_doc_decode_bytes(d, d->doc.buf, d->doc.len);
    if (!text)
        return NULL;
    PyObject *utf8 = PyUnicode_AsUTF8String(text);
    Py_DECREF(text);
    if (!utf8)
        return NULL;
    size_t len = (size_t)PyBytes_GET_SIZE(utf8);
    if (len > UINT32_MAX - 1) {
        Py_DECREF(utf8);
        return NULL;
    }
    DocumentObject *t = fp_new_document(d->st, utf8, 0, 0, 0);
    Py_DECREF(utf8);   /* the twin holds it */
    if (!t)
        return NULL;
    t->encoding = Py_NewRef(d->st->utf_8);
    fp_options opts = d->doc.opts;
    opts.legacy = opts.dbcs = 0;
    opts.max_size = len;   /* d was within its limit; UTF-8 may take up to 3 bytes a character */
    fp_status status;
    Py_BEGIN_ALLOW_THREADS
    status = fp_parse(&t->doc, (const uint8_t *)PyBytes_AS_STRING(t->source), len, &opts);
    Py_END_ALLOW_THREADS
    if (status == FP_ENOMEM) {
        Py_DECREF(t);
        return (DocumentObject *)PyErr_NoMemory();
    }
    if (status != FP_OK || !same_elements(&d->doc, &t->doc))
        Py_CLEAR(t);
    return t;
}

/* an encoding whose double-byte characters may end in an ASCII byte */
static int
ascii_second_bytes(PyObject *encoding)
{
    static const char *const names[] = {"shift_jis", "big5", "gbk", "gb18030"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (PyUnicode_CompareWithASCIIString(encoding, names[k]) == 0)
            return 1;
    return 0;
}

DocumentObject *
fp_twin_for(DocumentObject *d, int substring, int non_ascii, int replacement)
{
    if (d->codec ? !(non_ascii || (substring && ascii_second_bytes(d->encoding))) : !replacement || d->is_str)
        return d;
    if (!d->twin) {
        /* made with the GIL released for the parse: another thread may have
         * stored one meanwhile, and then this one is dropped */
        DocumentObject *t = make_twin(d);
        if (!t && PyErr_Occurred())
            return NULL;
        if (d->twin)
            Py_XDECREF(t);
        else
            d->twin = t ? (PyObject *)t : Py_NewRef(Py_None);
    }
    return d->twin == Py_None ? d : (DocumentObject *)d->twin;
}
