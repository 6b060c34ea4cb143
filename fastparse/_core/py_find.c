/* py_find.c — find, find_all and the sibling filters, shared by Document and
 * Tag: their arguments checked (with what to write instead of
 * BeautifulSoup's spellings), and the filters built for the engine's query
 * (query.c), each value encoded as the document's bytes. */
#include "py_types.h"

#include <string.h>

/* ---- filters ---- */

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
        const char *p = fp_utf8_of(s, &n);   /* lives as long as s: the caller's argument */
        if (!p)
            return PyErr_Occurred() ? -1 : 0;   /* a lone surrogate occurs in no document */
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
    const char *s = fp_utf8_of(name, &len);
    if (!s)
        return PyErr_Occurred() ? -2 : -1;   /* a lone surrogate names no element */
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
            /* another mapping (a MappingProxyType, a Mapping of one's own) as a dict */
            if (!PyObject_HasAttrString(attrs, "keys") || PyUnicode_Check(attrs)) {
                PyErr_Format(PyExc_TypeError, "attrs must be a dict (or mapping), not %.100s",
                             Py_TYPE(attrs)->tp_name);
                return -1;
            }
            PyObject *copy = PyDict_New();
            if (!copy || keep(k, copy) < 0 || PyDict_Update(copy, attrs) < 0)
                return -1;
            attrs = copy;
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
            const uint8_t *attr;
            size_t attr_len;
            int r = encode_for_doc(d, lk, "attrs keys", k, &attr, &attr_len);
            if (r < 0)
                return -1;
            if (r == 0 || memchr(attr, 0, attr_len)) {
                /* a name the document's encoding cannot write; or with a NUL, which
                 * no name holds (the tokenizer made each U+FFFD) */
                nothing = 1;
                continue;
            }
            fp_attr_query *aq = &k->attrs[q->nattrs++];
            aq->name = (const char *)attr;
            aq->name_len = attr_len;
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

/* ---- arguments, and the search ---- */

const char *const fp_find_kw_names[FP_FIND_KW__COUNT] = {"name", "id", "cls", "attrs", "limit"};

/* BeautifulSoup's keywords, which a port of its code passes: what to write
 * here; NULL for any other name, which is one of its attribute filters
 * (href=True) or a misspelling. */
static const char *
soup_keyword_hint(PyObject *key, int with_limit)
{
    static const char *const hints[][2] = {
        {"class_", " (here cls=, which matches class tokens: cls=\"a b\" is .a.b)"},
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

/* a str holding U+FFFD (what a UTF-8 document's invalid bytes read as) */
static int
has_replacement(PyObject *o)
{
    return non_ascii_str(o) && PyUnicode_FindChar(o, 0xFFFD, 0, PyUnicode_GET_LENGTH(o), 1) >= 0;
}

/* a name, or a list of names, with a non-ASCII one (a custom element's), or
 * one test says (non_ascii_str, has_replacement) */
static int
name_with(PyObject *o, int (*test)(PyObject *))
{
    if (!o || !is_name_list(o))
        return test(o);
    PyObject *it = PyObject_GetIter(o), *item;
    int found = 0;
    while (it && !found && (item = PyIter_Next(it))) {
        found = test(item);
        Py_DECREF(item);
    }
    Py_XDECREF(it);
    PyErr_Clear();   /* fp_query_build reports what is wrong with the list */
    return found;
}

DocumentObject *
fp_query_doc(DocumentObject *d, PyObject *name, PyObject *id, PyObject *cls, PyObject *attrs)
{
    /* a legacy document asks for non-ASCII strings; a UTF-8 one for U+FFFD */
    int (*test)(PyObject *) = d->codec ? non_ascii_str : has_replacement;
    if (!d->codec && d->is_str)
        return d;
    int has_attrs = attrs && PyDict_Check(attrs);
    int found = name_with(name, test) || test(id) || test(cls);
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (has_attrs && !found && PyDict_Next(attrs, &pos, &key, &value))
        found = test(key) || test(value);
    /* equal values and tokens: an ASCII one compares right */
    return fp_twin_for(d, 0, found && d->codec, found && !d->codec);
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
        if (!PyIndex_Check(limit_obj) || PyBool_Check(limit_obj)) {
            PyErr_Format(PyExc_TypeError, "limit must be an int or None, not %.100s",
                         Py_TYPE(limit_obj)->tp_name);
            return NULL;
        }
        PyObject *as_int = PyNumber_Index(limit_obj);   /* numpy's integers too */
        if (!as_int)
            return NULL;
        int overflow;
        long long l = PyLong_AsLongLongAndOverflow(as_int, &overflow);
        Py_DECREF(as_int);
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
        res = Py_NewRef(d->st->MISSING);
    PyMem_Free(idx);
    return res;
}
