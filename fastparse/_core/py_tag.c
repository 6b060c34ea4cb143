/* py_tag.c — the Tag type: a (Document, index) pair. Everything it returns
 * is computed from the index and the source when asked: attributes are
 * re-scanned from the start tag, text is decoded from the source. */
#include "py_types.h"
#include "tags_gen.h"

#include <stdlib.h>
#include <string.h>

#define TAG_ELEM(t) (&(t)->doc->doc.elems[(t)->index])

/* What PyObject_Init does to recycled memory, without its two calls into the
 * interpreter, which took a fifth of a select returning hundreds of Tags: the
 * type, a reference to it, a count of one. Left out is tracemalloc's note of
 * where the object was made again (a recycled Tag stays charged to where its
 * memory was first allocated). Builds that keep more in an object's header
 * (debug, trace-refs, free-threaded) and versions after 3.12 (a reference
 * tracer hears of each new object) take PyObject_Init. */
#if defined(Py_REF_DEBUG) || defined(Py_TRACE_REFS) || defined(Py_GIL_DISABLED) || PY_VERSION_HEX >= 0x030D0000
#define FP_PLAIN_OBJECT_HEADER 0
#else
#define FP_PLAIN_OBJECT_HEADER 1
#endif

static inline void
reinit_object(PyObject *o, PyTypeObject *tp)
{
#if FP_PLAIN_OBJECT_HEADER
    Py_SET_TYPE(o, tp);
    Py_INCREF(tp);
    o->ob_refcnt = 1;   /* not Py_SET_REFCNT: 3.12's skips an "immortal" count, and the free list's link is in it */
#else
    PyObject_Init(o, tp);
#endif
}

PyObject *
fp_tag_new(DocumentObject *doc, uint32_t index)
{
    fp_state *st = doc->st;
    /* no GC tracking: a Tag refers only to its Document, which never refers
     * back to tags, so Tags cannot be part of a cycle */
    TagObject *t;
    if (st->free_tags) {   /* a select or find_all makes hundreds: reuse the last ones' memory */
        t = (TagObject *)st->free_tags;
        st->free_tags = st->free_tags->next;
        st->free_tags_n--;
        reinit_object((PyObject *)t, st->Tag_type);
    } else if (!(t = PyObject_New(TagObject, st->Tag_type))) {
        return NULL;
    }
    t->doc = (DocumentObject *)Py_NewRef(doc);
    t->index = index;
    return (PyObject *)t;
}

/* The first of the n Tags of a list made from the free list's memory, the
 * references they hold to their type and document counted once for all of
 * them, not once a Tag: the css task, whose selects return 750 Tags a page,
 * took 1% less time. Returns how many it made (0 where PyObject_Init is
 * needed: reinit_object). */
static uint32_t
recycled_tags(DocumentObject *doc, const uint32_t *idx, uint32_t n, PyObject *list)
{
#if FP_PLAIN_OBJECT_HEADER
    fp_state *st = doc->st;
    PyTypeObject *tp = st->Tag_type;
    fp_free_tag *f = st->free_tags;
    uint32_t k = 0;
    for (; k < n && f; k++) {
        TagObject *t = (TagObject *)f;
        f = f->next;
        Py_SET_TYPE(t, tp);
        t->ob_base.ob_refcnt = 1;
        t->doc = doc;
        t->index = idx[k];
        PyList_SET_ITEM(list, k, (PyObject *)t);
    }
    st->free_tags = f;
    st->free_tags_n -= (int)k;
    /* neither is immortal: a heap type, and a document */
    ((PyObject *)tp)->ob_refcnt += k;
    ((PyObject *)doc)->ob_refcnt += k;
    return k;
#else
    (void)doc, (void)idx, (void)n, (void)list;
    return 0;
#endif
}

PyObject *
fp_tag_list(DocumentObject *doc, const uint32_t *idx, uint32_t n)
{
    PyObject *list = PyList_New(n);
    if (!list)
        return NULL;
    for (uint32_t k = recycled_tags(doc, idx, n, list); k < n; k++) {
        PyObject *t = fp_tag_new(doc, idx[k]);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, t);
    }
    return list;
}

static PyObject *
missing(TagObject *t)
{
    return Py_NewRef(fp_state_of_type(Py_TYPE(t->doc))->MISSING);
}

static void
tag_dealloc(TagObject *t)
{
    PyTypeObject *tp = Py_TYPE(t);
    fp_state *st = t->doc->st;   /* outlives the document: the Tag type holds the module */
    Py_CLEAR(t->doc);
    if (st->free_tags_n < FP_FREE_TAGS) {
        fp_free_tag *f = (fp_free_tag *)t;
        f->next = st->free_tags;
        st->free_tags = f;
        st->free_tags_n++;
    } else {
        PyObject_Free(t);
    }
    Py_DECREF(tp);
}

/* ---- names and attributes ---- */

/* The DOM's name of an SVG or MathML element or attribute: the lower-cased name
 * (consumed), or the camel case the tree builder gives it, from one of the tables
 * of fastparse/_foreign_names.py. */
static PyObject *
dom_name(PyObject *lower, PyObject *table)
{
    PyObject *adjusted = PyDict_GetItemWithError(table, lower);   /* borrowed */
    if (!adjusted && PyErr_Occurred()) {
        Py_DECREF(lower);
        return NULL;
    }
    if (!adjusted)
        return lower;
    Py_DECREF(lower);
    return Py_NewRef(adjusted);
}

static PyObject *
tag_name(TagObject *t, void *closure)
{
    const fp_elem *el = TAG_ELEM(t);
    PyObject *name = fp_doc_tag_name(t->doc, el->tag);
    return name && (el->flags & FP_EF_SVG) ? dom_name(name, t->doc->st->svg_tag_names) : name;
}

/* ASCII-lower-cased attribute name as str (the second bytes of double-byte
 * characters left as they are: fp_name_fold) */
static PyObject *
attr_name(DocumentObject *d, const fp_attr *a)
{
    uint8_t small[64];
    uint8_t *s = a->name_len <= sizeof small ? small : PyMem_Malloc(a->name_len);
    if (!s)
        return PyErr_NoMemory();
    fp_name_fold(d->doc.opts.dbcs, d->doc.buf + a->name_start, a->name_len, s);
    PyObject *name = fp_doc_decode_bytes(d, s, a->name_len);
    if (name && memchr(s, 0, a->name_len)) {  /* U+0000 in a name becomes U+FFFD (13.2.5.33) */
        PyObject *nul = PyUnicode_FromOrdinal(0), *rep = PyUnicode_FromOrdinal(0xFFFD);
        PyObject *fixed = nul && rep ? PyUnicode_Replace(name, nul, rep, -1) : NULL;
        Py_XDECREF(nul);
        Py_XDECREF(rep);
        Py_SETREF(name, fixed);
    }
    if (s != small)
        PyMem_Free(s);
    return name;  /* not interned: the global intern table grows superlinearly on hostile tags */
}

static PyObject *
attr_value(DocumentObject *d, const fp_attr *a)
{
    const uint8_t *raw = d->doc.buf + a->value_start;
    int ascii;
    const uint8_t *stop = raw + a->value_len;
    if (fp_scan_special(raw, stop, d->doc.buf + d->doc.len, FP_STOP_AMP, &ascii) == stop)   /* most values */
        return ascii ? fp_ascii_str(raw, a->value_len) : fp_doc_decode_bytes(d, raw, a->value_len);
    uint8_t small[256];
    fp_buf b = {small, 0, sizeof small, 1};
    /* references rarely make a value longer: one allocation at most, usually */
    if (fp_buf_reserve(&b, a->value_len + 16) < 0 || fp_attr_value(&d->doc, a, &b) < 0) {
        fp_buf_free(&b);
        return PyErr_NoMemory();
    }
    PyObject *v = fp_doc_decode(d, &b);
    fp_buf_free(&b);
    return v;
}

static PyObject *
tag_attrs(TagObject *t, void *closure)
{
    PyObject *dict = PyDict_New();
    if (!dict)
        return NULL;
    uint8_t ns = TAG_ELEM(t)->flags & (FP_EF_SVG | FP_EF_MATHML);
    PyObject *foreign_names = ns & FP_EF_SVG ? t->doc->st->svg_attr_names
                              : ns ? t->doc->st->mathml_attr_names : NULL;
    fp_attr a;
    uint32_t cursor = 0;
    while (fp_attr_next(&t->doc->doc, t->index, &cursor, &a)) {
        PyObject *k = attr_name(t->doc, &a);
        if (k && foreign_names)
            k = dom_name(k, foreign_names);
        if (!k)
            goto error;
        int has = PyDict_Contains(dict, k);
        if (has) {  /* duplicate: the first one wins */
            Py_DECREF(k);
            if (has < 0)
                goto error;
            continue;
        }
        PyObject *v = attr_value(t->doc, &a);
        if (!v || PyDict_SetItem(dict, k, v) < 0) {
            Py_DECREF(k);
            Py_XDECREF(v);
            goto error;
        }
        Py_DECREF(k);
        Py_DECREF(v);
    }
    return dict;
error:
    Py_DECREF(dict);
    return NULL;
}

/* The slow lookup for names the document's encoding cannot write: every
 * attribute name decoded and compared (ASCII case-insensitively). */
static int
lookup_attr_decoded(TagObject *t, PyObject *name, PyObject **out)
{
    PyObject *want = PyObject_CallMethod(name, "lower", NULL);
    if (!want)
        return -1;
    fp_attr a;
    uint32_t cursor = 0;
    int found = 0;
    while (!found && fp_attr_next(&t->doc->doc, t->index, &cursor, &a)) {
        PyObject *have = attr_name(t->doc, &a);
        if (!have) {
            Py_DECREF(want);
            return -1;
        }
        PyObject *low = PyObject_CallMethod(have, "lower", NULL);
        Py_DECREF(have);
        found = low ? PyUnicode_Compare(low, want) == 0 : -1;
        Py_XDECREF(low);
        if (found < 0) {
            Py_DECREF(want);
            return -1;
        }
    }
    Py_DECREF(want);
    if (!found || !out)
        return found;
    *out = attr_value(t->doc, &a);
    return *out ? 1 : -1;
}

/* Looks up the attribute whose name is the bytes s[0..len) in the document's
 * encoding: 1 found (value in *out, new ref, unless out is NULL), 0 absent, -1 error. */
static int
lookup_attr_bytes(TagObject *t, const char *s, Py_ssize_t len, PyObject **out)
{
    if (memchr(s, 0, (size_t)len))
        return 0;   /* no name holds a NUL: the tokenizer made each U+FFFD (fp_attr_find) */
    Py_ssize_t upper = 0;
    while (upper < len && !(s[upper] >= 'A' && s[upper] <= 'Z'))
        upper++;
    char small[64], *low = NULL;
    if (upper < len) {   /* names are matched in lower case: copy this one */
        low = len <= (Py_ssize_t)sizeof small ? small : PyMem_Malloc((size_t)len);
        if (!low) {
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t k = 0; k < len; k++)
            low[k] = (char)(s[k] >= 'A' && s[k] <= 'Z' ? s[k] + 32 : s[k]);
        s = low;
    }
    fp_attr a;
    int found = out ? fp_attr_find(&t->doc->doc, t->index, s, (size_t)len, &a)
                    : fp_attr_present(&t->doc->doc, t->index, s, (size_t)len);
    if (low && low != small)
        PyMem_Free(low);
    if (!found || !out)
        return found;
    *out = attr_value(t->doc, &a);
    return *out ? 1 : -1;
}

/* attribute lookup: 1 found (value in *out, new ref; out NULL: presence only), 0 absent, -1 error */
static int
lookup_attr(TagObject *t, PyObject *name, PyObject **out)
{
    if (!PyUnicode_Check(name)) {
        PyErr_Format(PyExc_TypeError, "attribute name must be a str, not %.100s", Py_TYPE(name)->tp_name);
        return -1;
    }
    /* the common case: an ASCII name is the same bytes in every encoding the engine parses */
    if (PyUnicode_IS_ASCII(name))
        return lookup_attr_bytes(t, (const char *)PyUnicode_1BYTE_DATA(name), PyUnicode_GET_LENGTH(name), out);
    /* U+FFFD may stand for a NUL or for bytes that did not decode: only the
     * decoded names can be compared then */
    Py_ssize_t fffd = PyUnicode_FindChar(name, 0xFFFD, 0, PyUnicode_GET_LENGTH(name), 1);
    if (fffd == -2)
        return -1;
    if (fffd >= 0)
        return lookup_attr_decoded(t, name, out);
    if (!t->doc->codec) {
        Py_ssize_t len;
        const char *s = fp_utf8_of(name, &len);
        return s ? lookup_attr_bytes(t, s, len, out) : PyErr_Occurred() ? -1 : 0;   /* a lone surrogate: none */
    }
    /* a second byte that is a letter folds with the bytes' case-insensitive
     * compare ("\x81\x41" would find "\x81\x61"): decoded names are compared */
    if (t->doc->doc.opts.dbcs)
        return lookup_attr_decoded(t, name, out);
    /* names are compared with the source bytes, in the document's encoding */
    PyObject *encoded = PyUnicode_AsEncodedString(name, PyUnicode_AsUTF8(t->doc->codec), "strict");
    if (!encoded) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            return -1;
        PyErr_Clear();
        return lookup_attr_decoded(t, name, out);  /* e.g. U+FFFD: compare decoded names */
    }
    int r = lookup_attr_bytes(t, PyBytes_AS_STRING(encoded), PyBytes_GET_SIZE(encoded), out);
    Py_DECREF(encoded);
    /* one character may have several byte spellings (Shift_JIS writes 396 of
     * them two or three ways): a miss is settled on the decoded names */
    return r == 0 ? lookup_attr_decoded(t, name, out) : r;
}

static PyObject *
tag_get(TagObject *t, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2) {
        PyErr_Format(PyExc_TypeError, "get() takes 1 or 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *v;
    int r = lookup_attr(t, args[0], &v);
    if (r < 0)
        return NULL;
    if (r)
        return v;
    return Py_NewRef(nargs == 2 ? args[1] : Py_None);
}

static PyObject *
tag_subscript(TagObject *t, PyObject *key)
{
    PyObject *v;
    int r = lookup_attr(t, key, &v);
    if (r < 0)
        return NULL;
    if (!r) {
        PyErr_SetObject(PyExc_KeyError, key);
        return NULL;
    }
    return v;
}

static int
tag_contains(TagObject *t, PyObject *key)
{
    return lookup_attr(t, key, NULL);   /* no value decoded */
}

/* id and class are ASCII in lower case: the same bytes in every encoding
 * the engine parses, so no str key is made for them */
static PyObject *
tag_id(TagObject *t, void *closure)
{
    PyObject *v;
    int r = lookup_attr_bytes(t, "id", 2, &v);
    if (r < 0)
        return NULL;
    return r ? v : Py_NewRef(Py_None);
}

static PyObject *
tag_classes(TagObject *t, void *closure)
{
    PyObject *v;
    int r = lookup_attr_bytes(t, "class", 5, &v);
    if (r < 0)
        return NULL;
    if (!r)
        return PyList_New(0);
    /* split on ASCII whitespace only, as the DOM's classList does */
    PyObject *list = PyList_New(0);
    Py_ssize_t n = PyUnicode_GET_LENGTH(v), k = 0;
    int kind = PyUnicode_KIND(v);
    const void *data = PyUnicode_DATA(v);
#define IS_WS(c) ((c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\f' || (c) == '\r')
    while (list && k < n) {
        while (k < n && IS_WS(PyUnicode_READ(kind, data, k)))
            k++;
        Py_ssize_t w = k;
        while (k < n && !IS_WS(PyUnicode_READ(kind, data, k)))
            k++;
        if (k > w) {
            PyObject *tok = PyUnicode_Substring(v, w, k);
            if (!tok || PyList_Append(list, tok) < 0)
                Py_CLEAR(list);
            Py_XDECREF(tok);
        }
    }
#undef IS_WS
    Py_DECREF(v);
    return list;
}

/* ---- text and source ---- */

static PyObject *
tag_text(TagObject *t, void *closure)
{
    return fp_text_of(t->doc, t->index);
}

static PyObject *
tag_get_text(TagObject *t, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return fp_get_text(t->doc, t->index, args, nargs, kwnames);
}

static PyObject *
source_slice(DocumentObject *d, uint32_t a, uint32_t b)
{
    if (d->is_str)
        return PyUnicode_Substring(d->source, fp_doc_offset(d, a), fp_doc_offset(d, b));
    return fp_doc_decode_bytes(d, d->doc.buf + a, b - a);
}

static PyObject *
tag_html(TagObject *t, void *closure)
{
    const fp_elem *e = TAG_ELEM(t);
    return source_slice(t->doc, e->start, e->end);
}

static PyObject *
tag_inner_html(TagObject *t, void *closure)
{
    const fp_elem *e = TAG_ELEM(t);
    return source_slice(t->doc, e->inner_start, e->inner_end);
}

static PyObject *
span_of(TagObject *t, uint32_t a, uint32_t b)
{
    return Py_BuildValue("(nn)", fp_doc_offset(t->doc, a), fp_doc_offset(t->doc, b));
}

static PyObject *
tag_span(TagObject *t, void *closure)
{
    return span_of(t, TAG_ELEM(t)->start, TAG_ELEM(t)->end);
}

static PyObject *
tag_inner_span(TagObject *t, void *closure)
{
    return span_of(t, TAG_ELEM(t)->inner_start, TAG_ELEM(t)->inner_end);
}

static PyObject *
tag_line(TagObject *t, void *closure)
{
    Py_ssize_t line, col;
    fp_doc_line_col(t->doc, TAG_ELEM(t)->start, &line, &col);
    return PyLong_FromSsize_t(line);
}

static PyObject *
tag_col(TagObject *t, void *closure)
{
    Py_ssize_t line, col;
    fp_doc_line_col(t->doc, TAG_ELEM(t)->start, &line, &col);
    return PyLong_FromSsize_t(col);
}

static PyObject *
tag_depth(TagObject *t, void *closure)
{
    return PyLong_FromLong(TAG_ELEM(t)->depth);
}

static PyObject *
tag_index(TagObject *t, void *closure)
{
    return PyLong_FromUnsignedLong(t->index);
}

static const char *const closed_names[] = {
    "eof", "end-tag", "implied", "parent-end", "void", "self-closing", "eof",
};

static PyObject *
tag_closed_by(TagObject *t, void *closure)
{
    uint8_t c = TAG_ELEM(t)->closed;
    return PyUnicode_InternFromString(closed_names[c < 7 ? c : 0]);
}

static PyObject *
tag_document(TagObject *t, void *closure)
{
    return Py_NewRef(t->doc);
}

static PyObject *
tag_namespace(TagObject *t, void *closure)
{
    uint8_t f = TAG_ELEM(t)->flags;
    return PyUnicode_FromString(f & FP_EF_SVG ? "svg" : f & FP_EF_MATHML ? "math" : "html");
}

/* ---- navigation ---- */

static PyObject *
tag_parent(TagObject *t, void *closure)
{
    int32_t p = fp_dom_parent(&t->doc->doc, t->index);
    return p < 0 ? missing(t) : fp_tag_new(t->doc, (uint32_t)p);
}

static PyObject *
tag_next(TagObject *t, void *closure)
{
    return t->index + 1 < t->doc->doc.n ? fp_tag_new(t->doc, t->index + 1) : missing(t);
}

static PyObject *
tag_prev(TagObject *t, void *closure)
{
    return t->index ? fp_tag_new(t->doc, t->index - 1) : missing(t);
}

/* Whether tree navigation must follow fp_dom_parent: only documents with a
 * foster-parented element need the slow path; computed once. */
static int
has_fostered(DocumentObject *d)
{
    if (d->fostered < 0) {
        d->fostered = 0;
        for (uint32_t k = 0; k < d->doc.n && !d->fostered; k++)
            d->fostered = (d->doc.elems[k].flags & FP_EF_FOSTERED) != 0;
    }
    return d->fostered;
}

/* Children of p (-1: top-level elements), in tree order, into a new buffer
 * (caller frees). Tree order is document order but for foster parenting,
 * whose documents py_tree.c serves. */
static uint32_t *
children_of(DocumentObject *d, int32_t p, uint32_t *count)
{
    if (has_fostered(d))
        return fp_tree_children(d, p, count);
    const fp_elem *e = d->doc.elems;
    uint32_t first = (uint32_t)(p + 1), last = p >= 0 ? e[p].last : d->doc.n - 1;
    uint32_t cap = 16, n = 0;
    uint32_t *out = PyMem_Malloc(cap * sizeof *out);
    if (!out)
        return (uint32_t *)PyErr_NoMemory();
    for (uint32_t j = first; d->doc.n && j <= last; j = e[j].last + 1) {
        if (n == cap) {
            uint32_t *grown = PyMem_Realloc(out, (cap *= 2) * sizeof *out);
            if (!grown) {
                PyMem_Free(out);
                return (uint32_t *)PyErr_NoMemory();
            }
            out = grown;
        }
        out[n++] = j;
    }
    *count = n;
    return out;
}

PyObject *
fp_children_list(DocumentObject *d, int32_t p)
{
    uint32_t n;
    uint32_t *idx = children_of(d, p, &n);
    if (!idx)
        return NULL;
    PyObject *list = fp_tag_list(d, idx, n);
    PyMem_Free(idx);
    return list;
}

static PyObject *
tag_children(TagObject *t, void *closure)
{
    return fp_children_list(t->doc, (int32_t)t->index);
}

static PyObject *
tag_descendants(TagObject *t, void *closure)
{
    const fp_elem *e = TAG_ELEM(t);
    uint32_t n = e->last - t->index;
    PyObject *list = PyList_New(n);
    for (uint32_t k = 0; list && k < n; k++) {
        PyObject *c = fp_tag_new(t->doc, t->index + 1 + k);
        if (!c)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, k, c);
    }
    return list;
}

/* last index the siblings of element i can have */
static uint32_t
sibling_bound(const fp_doc *d, uint32_t i)
{
    int32_t p = d->elems[i].parent;
    return p < 0 ? d->n - 1 : d->elems[p].last;
}

static PyObject *
sibling(TagObject *t, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, int forward)
{
    PyObject *a[FP_FIND_KW__COUNT];
    if (fp_find_args((PyObject *)t, forward ? "next_sibling" : "prev_sibling", 0, args, nargs, kwnames, a) < 0)
        return NULL;
    /* the query's document: t's, or its UTF-8 twin, with the same elements */
    DocumentObject *qd = fp_query_doc(t->doc, a[FP_FIND_KW_NAME], a[FP_FIND_KW_ID], a[FP_FIND_KW_CLS],
                                      a[FP_FIND_KW_ATTRS]);
    if (!qd)
        return NULL;
    fp_query q;
    fp_query_keep k;
    int r = fp_query_build(qd, a[FP_FIND_KW_NAME], a[FP_FIND_KW_ID], a[FP_FIND_KW_CLS], a[FP_FIND_KW_ATTRS],
                           &q, &k);
    const fp_doc *d = &qd->doc;
    const fp_elem *e = d->elems;
    int64_t found = -1;
    if (r == 0 && has_fostered(t->doc)) {
        found = fp_tree_sibling(t->doc, d, t->index, &q, forward);
        if (found == -2)
            r = -1;
    } else if (r == 0 && forward) {
        uint32_t bound = sibling_bound(d, t->index);
        for (uint32_t j = e[t->index].last + 1; j <= bound && j < d->n; j = e[j].last + 1)
            if (fp_match(d, j, &q)) {
                found = j;
                break;
            }
    } else if (r == 0) {
        /* the previous sibling is the ancestor-or-self of i-1 whose parent is ours */
        int32_t parent = e[t->index].parent;
        int64_t j = (int64_t)t->index - 1;
        while (j >= 0 && j != parent) {
            while (j >= 0 && e[j].parent != parent)
                j = e[j].parent;
            if (j < 0 || j == parent)
                break;
            if (fp_match(d, (uint32_t)j, &q)) {
                found = j;
                break;
            }
            j--;
        }
    }
    fp_query_release(&k);
    if (r < 0)
        return NULL;
    return found < 0 ? missing(t) : fp_tag_new(t->doc, (uint32_t)found);
}

static PyObject *
tag_next_sibling(TagObject *t, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return sibling(t, args, nargs, kwnames, 1);
}

static PyObject *
tag_prev_sibling(TagObject *t, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return sibling(t, args, nargs, kwnames, 0);
}

static PyObject *
tag_find(TagObject *t, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return fp_find_common(t->doc, t->index + 1, TAG_ELEM(t)->last, args, nargs, kwnames, 0);
}

static PyObject *
tag_find_all(TagObject *t, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (TAG_ELEM(t)->last == t->index)   /* no descendants: still validate the arguments */
        return fp_find_common(t->doc, 1, 0, args, nargs, kwnames, 1);
    return fp_find_common(t->doc, t->index + 1, TAG_ELEM(t)->last, args, nargs, kwnames, 1);
}

static PyObject *
tag_select(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return fp_delegate_select(self, FP_SELECT_FN_SELECT, args, nargs);
}

static PyObject *
tag_select_one(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return fp_delegate_select(self, FP_SELECT_FN_SELECT_ONE, args, nargs);
}

static PyObject *
tag_matches(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return fp_delegate_select(self, FP_SELECT_FN_MATCHES, args, nargs);
}

static PyObject *
tag_closest(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return fp_delegate_select(self, FP_SELECT_FN_CLOSEST, args, nargs);
}

/* ---- protocol ---- */

/* an id that reads unambiguously after '#': not empty, no whitespace */
static int
id_reads_plain(PyObject *id)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(id);
    for (Py_ssize_t k = 0; k < n; k++)
        if (Py_UNICODE_ISSPACE(PyUnicode_READ_CHAR(id, k)))
            return 0;
    return n > 0;
}

/* s (a new reference to it), or its first characters and "…" when longer
 * than a repr shows: an id or a name may be a megabyte long */
static PyObject *
shortened(PyObject *s)
{
    enum { SHOWN = 60 };
    if (!s || !PyUnicode_Check(s) || PyUnicode_GET_LENGTH(s) <= SHOWN)
        return s;
    PyObject *head = PyUnicode_Substring(s, 0, SHOWN - 1);
    Py_DECREF(s);
    if (!head)
        return NULL;
    PyObject *ellipsis = PyUnicode_FromOrdinal(0x2026);
    PyObject *r = ellipsis ? PyUnicode_Concat(head, ellipsis) : NULL;
    Py_XDECREF(ellipsis);
    Py_DECREF(head);
    return r;
}

static PyObject *
tag_repr(TagObject *t)
{
    PyObject *name = shortened(tag_name(t, NULL));
    if (!name)
        return NULL;
    Py_ssize_t line, col;
    fp_doc_line_col(t->doc, TAG_ELEM(t)->start, &line, &col);
    PyObject *id = tag_id(t, NULL);
    int plain = id && id != Py_None && id_reads_plain(id);   /* the whole id, before it is cut */
    id = shortened(id);
    PyObject *r = NULL;
    if (id && id != Py_None && plain)
        r = PyUnicode_FromFormat("<Tag %U#%U #%u at %zd (line %zd, col %zd)>", name, id, t->index,
                                 fp_doc_offset(t->doc, TAG_ELEM(t)->start), line, col);
    else if (id && id != Py_None)   /* id="" or id="a b": quoted, not glued to the name */
        r = PyUnicode_FromFormat("<Tag %U id=%R #%u at %zd (line %zd, col %zd)>", name, id, t->index,
                                 fp_doc_offset(t->doc, TAG_ELEM(t)->start), line, col);
    else if (id)
        r = PyUnicode_FromFormat("<Tag %U #%u at %zd (line %zd, col %zd)>", name, t->index,
                                 fp_doc_offset(t->doc, TAG_ELEM(t)->start), line, col);
    Py_XDECREF(id);
    Py_DECREF(name);
    return r;
}

static PyObject *
tag_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || Py_TYPE(a) != Py_TYPE(b))
        Py_RETURN_NOTIMPLEMENTED;
    TagObject *x = (TagObject *)a, *y = (TagObject *)b;
    int eq = x->doc == y->doc && x->index == y->index;
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t
tag_hash(TagObject *t)
{
    Py_hash_t h = (Py_hash_t)((uintptr_t)t->doc >> 4) * 1000003 ^ (Py_hash_t)t->index;
    return h == -1 ? -2 : h;
}

static PyObject *
tag_repr_html(PyObject *self, PyObject *unused)
{
    PyObject *mod = PyImport_ImportModule("fastparse._repr");
    if (!mod)
        return NULL;
    PyObject *r = PyObject_CallMethod(mod, "tag_html", "O", self);
    Py_DECREF(mod);
    return r;
}

static PyMethodDef tag_methods[] = {
    {"get", (PyCFunction)(void (*)(void))tag_get, METH_FASTCALL,
     "get($self, name, default=None, /)\n--\n\n"
     "get(name, default=None): attribute value (entities decoded), or default."},
    {"get_text", (PyCFunction)(void (*)(void))tag_get_text, METH_FASTCALL | METH_KEYWORDS,
     "get_text($self, /, separator='', strip=False, skip=('script', 'style', 'template'), *, collapse=False)\n--\n\n"
     "get_text(separator='', strip=False, skip=('script', 'style', 'template'), *, collapse=False) -> str\n\n"
     "The DOM's text nodes joined by separator (a comment ends one, a tag the\n"
     "parser ignored does not); strip trims each as str.strip() does and drops\n"
     "empty ones; elements named in skip are left out with their content; collapse turns\n"
     "each run of whitespace into one space and trims the ends, as\n"
     "' '.join(text.split()) does."},
    {"find", (PyCFunction)(void (*)(void))tag_find, METH_FASTCALL | METH_KEYWORDS,
     "find($self, /, name=None, *, id=None, cls=None, attrs=None)\n--\n\n"
     "find(name=None, *, id=None, cls=None, attrs=None) -> Tag | MISSING (descendants only)"},
    {"find_all", (PyCFunction)(void (*)(void))tag_find_all, METH_FASTCALL | METH_KEYWORDS,
     "find_all($self, /, name=None, *, id=None, cls=None, attrs=None, limit=None)\n--\n\n"
     "find_all(name=None, *, id=None, cls=None, attrs=None, limit=None) -> list[Tag] (descendants only)"},
    {"next_sibling", (PyCFunction)(void (*)(void))tag_next_sibling, METH_FASTCALL | METH_KEYWORDS,
     "next_sibling($self, /, name=None, *, id=None, cls=None, attrs=None)\n--\n\n"
     "next_sibling(name=None, *, id=None, cls=None, attrs=None) -> Tag | MISSING"},
    {"prev_sibling", (PyCFunction)(void (*)(void))tag_prev_sibling, METH_FASTCALL | METH_KEYWORDS,
     "prev_sibling($self, /, name=None, *, id=None, cls=None, attrs=None)\n--\n\n"
     "prev_sibling(name=None, *, id=None, cls=None, attrs=None) -> Tag | MISSING"},
    {"select", (PyCFunction)(void (*)(void))tag_select, METH_FASTCALL,
     "select($self, css, /)\n--\n\n"
     "select(css) -> list[Tag]: descendants matching a CSS selector."},
    {"select_one", (PyCFunction)(void (*)(void))tag_select_one, METH_FASTCALL,
     "select_one($self, css, /)\n--\n\n"
     "select_one(css) -> Tag | MISSING"},
    {"matches", (PyCFunction)(void (*)(void))tag_matches, METH_FASTCALL,
     "matches($self, css, /)\n--\n\n"
     "matches(css) -> bool: whether this element matches the selector."},
    {"closest", (PyCFunction)(void (*)(void))tag_closest, METH_FASTCALL,
     "closest($self, css, /)\n--\n\n"
     "closest(css) -> Tag | MISSING: this element or its nearest ancestor matching the selector."},
    {"_repr_html_", (PyCFunction)tag_repr_html, METH_NOARGS, "Outline for Jupyter."},
    FP_COPY_METHODS
    {NULL},
};

static PyGetSetDef tag_getset[] = {
    {"name", (getter)tag_name, NULL, "Tag name: ASCII lower-case, but for the SVG names the DOM writes in camel case (clipPath).", NULL},
    {"attrs", (getter)tag_attrs, NULL, "dict of attributes: ASCII lower-case names (the DOM's camel case on SVG and MathML "
     "elements: viewBox, definitionURL), decoded values, first duplicate wins.", NULL},
    {"id", (getter)tag_id, NULL, "The id attribute, or None.", NULL},
    {"classes", (getter)tag_classes, NULL, "The class attribute split on whitespace.", NULL},
    {"text", (getter)tag_text, NULL, "All descendant text, references decoded, comments excluded (DOM textContent, except that a <template>'s contents count as its children: get_text() leaves them out).", NULL},
    {"html", (getter)tag_html, NULL, "The element's source, start tag to end tag.", NULL},
    {"inner_html", (getter)tag_inner_html, NULL, "The source between the start and end tags.", NULL},
    {"span", (getter)tag_span, NULL, "(start, end) of the element in doc.source.", NULL},
    {"inner_span", (getter)tag_inner_span, NULL, "(start, end) of the content in doc.source.", NULL},
    {"line", (getter)tag_line, NULL, "1-based line of the start tag.", NULL},
    {"col", (getter)tag_col, NULL, "1-based column of the start tag (code points for str input, bytes for bytes).", NULL},
    {"depth", (getter)tag_depth, NULL, "0 for top-level elements.", NULL},
    {"index", (getter)tag_index, NULL, "Position in document order (doc[tag.index] is this tag).", NULL},
    {"closed_by", (getter)tag_closed_by, NULL,
     "How the element ended: 'end-tag', 'implied', 'parent-end', 'void', 'self-closing' or 'eof'.", NULL},
    {"namespace", (getter)tag_namespace, NULL, "'html', 'svg' or 'math'.", NULL},
    {"document", (getter)tag_document, NULL, "The Document this tag belongs to.", NULL},
    {"parent", (getter)tag_parent, NULL, "The parent element, or MISSING.", NULL},
    {"children", (getter)tag_children, NULL,
     "list of child elements, in tree order (a foster-parented element comes before its table).", NULL},
    {"descendants", (getter)tag_descendants, NULL, "list of all descendant elements in document order.", NULL},
    {"next", (getter)tag_next, NULL, "The next element in document order, or MISSING.", NULL},
    {"prev", (getter)tag_prev, NULL, "The previous element in document order, or MISSING.", NULL},
    {NULL},
};

static PyType_Slot tag_slots[] = {
    {Py_tp_doc, "One element of a Document: cheap to create, computes everything from the index."},
    {Py_tp_dealloc, tag_dealloc},
    {Py_tp_repr, tag_repr},
    {Py_tp_richcompare, tag_richcompare},
    {Py_tp_hash, tag_hash},
    {Py_tp_methods, tag_methods},
    {Py_tp_getset, tag_getset},
    {Py_mp_subscript, tag_subscript},
    {Py_sq_contains, tag_contains},
    {0, NULL},
};

PyType_Spec fp_tag_spec = {
    .name = "fastparse.Tag",
    .basicsize = sizeof(TagObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = tag_slots,
};
