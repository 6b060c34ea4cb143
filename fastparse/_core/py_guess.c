/* py_guess.c — the binding of guess.c: the byte and character counts the
 * encoding guess (fastparse/_encoding_guess.py) makes of a page's text, each
 * one pass in C where Python took a regular expression or a pass per class. */
#include <string.h>

#include "py_types.h"

/* guess_sample(data) -> bytes: the text the encoding guess reads (guess.c) */
PyObject *
fp_py_guess_sample(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *sample = PyBytes_FromStringAndSize(NULL, FP_GUESS_SAMPLE + FP_GUESS_PART);
    if (!sample) {
        PyBuffer_Release(&view);
        return NULL;
    }
    size_t n;
    Py_BEGIN_ALLOW_THREADS
    n = fp_guess_sample(view.buf, (size_t)view.len, (uint8_t *)PyBytes_AS_STRING(sample));
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (_PyBytes_Resize(&sample, (Py_ssize_t)n) < 0)
        return NULL;
    return sample;
}

/* counts[0 .. n) as a tuple of ints */
static PyObject *
counts_tuple(const size_t *counts, size_t n)
{
    PyObject *t = PyTuple_New((Py_ssize_t)n);
    for (size_t k = 0; t && k < n; k++) {
        PyObject *c = PyLong_FromSize_t(counts[k]);
        if (!c) {
            Py_CLEAR(t);
            break;
        }
        PyTuple_SET_ITEM(t, (Py_ssize_t)k, c);
    }
    return t;
}

/* The n counts `count` makes of a bytes-like object's bytes, made without the GIL */
static PyObject *
counts_of_bytes(PyObject *arg, void (*count)(const uint8_t *, size_t, size_t *), size_t n)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    size_t counts[256];
    Py_BEGIN_ALLOW_THREADS
    count(view.buf, (size_t)view.len, counts);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    return counts_tuple(counts, n);
}

/* byte_counts(data) -> tuple of 256 ints: how many of data's bytes are each byte */
PyObject *
fp_py_byte_counts(PyObject *module, PyObject *arg)
{
    return counts_of_bytes(arg, fp_byte_counts, 256);
}

/* utf8_counts(data) -> (chars, errors, replacements): data read as UTF-8 with
 * "replace", its non-ASCII characters, the U+FFFD written for bad bytes and the
 * U+FFFD read as such */
PyObject *
fp_py_utf8_counts(PyObject *module, PyObject *arg)
{
    return counts_of_bytes(arg, fp_utf8_counts, 3);
}

/* big5_pairs(data) -> (pairs, common, low_trail): the Big5 test's counts */
PyObject *
fp_py_big5_pairs(PyObject *module, PyObject *arg)
{
    return counts_of_bytes(arg, fp_big5_pairs, 3);
}

/* set[b]: 1 for each byte b of bytes[0 .. n), else 0 */
static void
byte_set(const char *bytes, Py_ssize_t n, uint8_t set[256])
{
    memset(set, 0, 256);
    for (Py_ssize_t i = 0; i < n; i++)
        set[(uint8_t)bytes[i]] = 1;
}

/* bytes_in_runs(data, members, min_run) -> int: how many of data's bytes stand
 * in runs of at least min_run bytes that are all among members (guess.c: the
 * one-byte scripts' words) */
PyObject *
fp_py_bytes_in_runs(PyObject *module, PyObject *args)
{
    Py_buffer view;
    const char *members;
    Py_ssize_t nmembers, min_run;
    if (!PyArg_ParseTuple(args, "y*y#n:bytes_in_runs", &view, &members, &nmembers, &min_run))
        return NULL;
    uint8_t member[256];
    byte_set(members, nmembers, member);
    size_t n;
    Py_BEGIN_ALLOW_THREADS
    n = fp_bytes_in_runs(view.buf, (size_t)view.len, member, min_run > 0 ? (size_t)min_run : 0);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    return PyLong_FromSize_t(n);
}

/* unpaired_bytes(data, members, neighbours, after) -> int: how many of data's
 * member bytes have no neighbour byte just before them (after: just after) */
PyObject *
fp_py_unpaired_bytes(PyObject *module, PyObject *args)
{
    Py_buffer view;
    const char *members, *neighbours;
    Py_ssize_t nmembers, nneighbours;
    int after;
    if (!PyArg_ParseTuple(args, "y*y#y#p:unpaired_bytes", &view, &members, &nmembers, &neighbours, &nneighbours,
                          &after))
        return NULL;
    uint8_t member[256], neighbour[256];
    byte_set(members, nmembers, member);
    byte_set(neighbours, nneighbours, neighbour);
    size_t n;
    Py_BEGIN_ALLOW_THREADS
    n = fp_unpaired_bytes(view.buf, (size_t)view.len, member, neighbour, after);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    return PyLong_FromSize_t(n);
}

#define CHAR_RANGES_MAX 32

/* The (text, ranges) arguments of char_counts and chars_in: ranges is a tuple
 * of (lo, hi, counter) with 0x80 <= lo <= hi */
typedef struct {
    PyObject *text;
    fp_char_range r[CHAR_RANGES_MAX];
    size_t nranges;
    uint32_t ncounters;   /* the highest counter + 1 */
} text_and_ranges;

/* a's arguments as format (which names fname) parses them; -1 with an exception */
static int
parse_text_and_ranges(PyObject *args, const char *format, const char *fname, text_and_ranges *a)
{
    PyObject *ranges;
    if (!PyArg_ParseTuple(args, format, &a->text, &PyTuple_Type, &ranges))
        return -1;
    Py_ssize_t nranges = PyTuple_GET_SIZE(ranges);
    a->ncounters = 0;
    if (nranges > CHAR_RANGES_MAX) {
        PyErr_Format(PyExc_ValueError, "%s() takes at most %d ranges, not %zd", fname, CHAR_RANGES_MAX, nranges);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nranges; i++) {
        unsigned int lo, hi, k;
        PyObject *item = PyTuple_GET_ITEM(ranges, i);
        if (!PyTuple_Check(item) || !PyArg_ParseTuple(item, "III", &lo, &hi, &k) || lo < 0x80 || lo > hi ||
            k >= CHAR_RANGES_MAX) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s(): range %zd is not (lo, hi, counter) with 0x80 <= lo <= hi "
                         "and counter < %d", fname, i, CHAR_RANGES_MAX);
            return -1;
        }
        a->r[i] = (fp_char_range){lo, hi, k};
        if (k + 1 > a->ncounters)
            a->ncounters = k + 1;
    }
    a->nranges = (size_t)nranges;
    return 0;
}

/* char_counts(text, ranges) -> tuple of ints: for each counter k, how many of
 * text's characters fall in the (lo, hi, k) ranges of ranges, code points of
 * U+0080 or more (guess.c: the CJK tests' classes of characters) */
PyObject *
fp_py_char_counts(PyObject *module, PyObject *args)
{
    text_and_ranges a;
    if (parse_text_and_ranges(args, "UO!:char_counts", "char_counts", &a) < 0)
        return NULL;
    size_t counts[CHAR_RANGES_MAX] = {0};
    fp_char_counts(PyUnicode_DATA(a.text), PyUnicode_KIND(a.text), (size_t)PyUnicode_GET_LENGTH(a.text), a.r,
                   a.nranges, counts);
    return counts_tuple(counts, a.ncounters);
}

/* chars_in(text, ranges) -> str: text's characters that fall in one of the
 * (lo, hi, counter) ranges, in order (guess.c: the Han characters the GBK
 * test encodes) */
PyObject *
fp_py_chars_in(PyObject *module, PyObject *args)
{
    text_and_ranges a;
    if (parse_text_and_ranges(args, "UO!:chars_in", "chars_in", &a) < 0)
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(a.text);
    uint32_t *out = PyMem_Malloc(n ? (size_t)n * sizeof *out : 1);
    if (!out)
        return PyErr_NoMemory();
    size_t k = fp_chars_in(PyUnicode_DATA(a.text), PyUnicode_KIND(a.text), (size_t)n, a.r, a.nranges, out);
    PyObject *found = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, out, (Py_ssize_t)k);
    PyMem_Free(out);
    return found;
}
