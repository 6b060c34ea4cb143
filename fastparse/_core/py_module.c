/* py_module.c — the fastparse._core module: _parse (which releases the GIL
 * around the engine), the small byte utilities the Python layer needs
 * (utf8_check from utf8.c, floor_scan, _decode_refs; the encoding guess's
 * in py_guess.c), and module state. */
#include "cpu.h"
#include "prescan.h"
#include "py_types.h"
#include "tags_gen.h"

#include <string.h>

#if defined(__has_include)
#if __has_include("select.h")
#include "select.h"
#define FP_HAVE_SELECT 1
#endif
#endif

/* parse()'s defaults and the prescan window, exported to the Python layer
 * (fastparse/_parse.py, fastparse/encoding.py) so both sides use the same */
#define FP_DEFAULT_MAX_SIZE ((Py_ssize_t)256 * 1024 * 1024)
enum { FP_DEFAULT_MAX_DEPTH = 4096 };
/* how setup.py built the module (build_support/pgo.py defines it) */
#ifndef FP_BUILD
#define FP_BUILD "plain"
#endif

fp_state *
fp_state_of_type(PyTypeObject *type)
{
    return (fp_state *)PyType_GetModuleState(type);
}

/* The parse behind _parse, with arguments already unboxed. */
static PyObject *
parse_document(PyObject *module, PyObject *source, PyObject *encoding, PyObject *codec, Py_ssize_t base,
               Py_ssize_t max_size, Py_ssize_t max_depth, int recovery, int scripting, PyObject *context);

/* _parse(source, encoding, codec, base, max_size, max_depth, recovery,
 *        scripting, context) -> Document, all positional (this runs once per
 * page, so no keyword parsing). source is a str or bytes; the Python layer
 * (fastparse/_parse.py) has already checked the arguments and chosen the
 * encoding. */
static PyObject *
mod_parse(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 9) {
        PyErr_Format(PyExc_TypeError, "_parse() takes 9 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t base = PyLong_AsSsize_t(args[3]);
    Py_ssize_t max_size = PyLong_AsSsize_t(args[4]);
    Py_ssize_t max_depth = PyLong_AsSsize_t(args[5]);
    int recovery = (int)PyLong_AsLong(args[6]);
    int scripting = PyObject_IsTrue(args[7]);
    if (PyErr_Occurred())
        return NULL;
    return parse_document(module, args[0], args[1], args[2], base, max_size, max_depth, recovery, scripting,
                          args[8]);
}

/* A Document of source, before the engine runs. Its encoding is set by the
 * caller (_parse_bytes decides it without the GIL, so after this); codec
 * NULL means UTF-8. */
DocumentObject *
fp_new_document(fp_state *st, PyObject *source, int is_str, int ascii, Py_ssize_t base)
{
    DocumentObject *d = PyObject_GC_New(DocumentObject, st->Document_type);
    if (!d)
        return NULL;
    memset(&d->doc, 0, sizeof *d - offsetof(DocumentObject, doc));
    d->st = st;
    d->source = Py_NewRef(source);
    d->base = is_str ? 0 : base;
    d->is_str = is_str;
    d->str_ascii = ascii;
    d->fostered = -1;
    d->ndefault_skip = -1;
    PyObject_GC_Track(d);
    return d;
}

/* Where the input passed max_size: the first byte past it, or for a str the
 * index of the character that holds that byte (offsets index doc.source) */
static Py_ssize_t
size_limit_offset(const DocumentObject *d)
{
    size_t off = d->doc.fail_offset;
    if (!d->is_str)
        return (Py_ssize_t)off + d->base;   /* a BOM is part of the source */
    if (d->str_ascii || off >= d->doc.len)
        return (Py_ssize_t)off;
    const uint8_t *b = d->doc.buf;
    while (off > 0 && (b[off] & 0xC0) == 0x80)
        off--;
    Py_ssize_t chars = 0;
    for (size_t i = 0; i < off; i++)
        chars += (b[i] & 0xC0) != 0x80;
    return chars;
}

/* d once the engine has run with `status`: d itself, or NULL with
 * ParseLimitError (which names the limit and the offset) or MemoryError.
 * Takes the caller's reference to d. */
static PyObject *
parsed_document(fp_state *st, DocumentObject *d, fp_status status, Py_ssize_t len, Py_ssize_t max_size,
                Py_ssize_t max_depth)
{
    if (status == FP_OK)
        return (PyObject *)d;
    if (status == FP_ENOMEM) {
        PyErr_NoMemory();
    } else {
        /* ParseLimitError(limit, message, value, offset) */
        Py_ssize_t off = status == FP_ETOOBIG ? size_limit_offset(d)
                                              : fp_doc_offset(d, (uint32_t)d->doc.fail_offset);
        const char *limit = status == FP_ETOOBIG ? "max_size" : status == FP_ETOODEEP ? "max_depth"
                                                                                    : "distinct_tag_names";
        Py_ssize_t value = status == FP_ETOOBIG ? max_size : status == FP_ETOODEEP ? max_depth
                                                                  : 0xFFFF - FP_TAG__COUNT;   /* tags.c */
        PyObject *msg =
            status == FP_ETOOBIG ? PyUnicode_FromFormat("input of %zd bytes exceeds max_size=%zd", len, max_size)
            : status == FP_ETOODEEP
                ? PyUnicode_FromFormat("more than %zd open elements (max_depth) at offset %zd", max_depth, off)
                : PyUnicode_FromFormat("more than %zd distinct tag names at offset %zd", value, off);
        PyObject *exc = msg ? PyObject_CallFunction(st->ParseLimitError, "sNnn", limit, msg, value, off) : NULL;
        if (exc) {
            PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
            Py_DECREF(exc);
        }
    }
    Py_DECREF(d);
    return NULL;
}

static PyObject *
parse_document(PyObject *module, PyObject *source, PyObject *encoding, PyObject *codec, Py_ssize_t base,
               Py_ssize_t max_size, Py_ssize_t max_depth, int recovery, int scripting, PyObject *context)
{
    if (!PyUnicode_Check(encoding) || (codec != Py_None && !PyUnicode_Check(codec))) {
        PyErr_SetString(PyExc_TypeError, "_parse(): encoding and codec must be str");
        return NULL;
    }
    fp_state *st = PyModule_GetState(module);

    const uint8_t *buf;
    Py_ssize_t len;
    int is_str = 0, ascii = 0;
    if (PyUnicode_Check(source)) {
        is_str = 1;
        if (PyUnicode_IS_ASCII(source)) {
            ascii = 1;
            buf = PyUnicode_DATA(source);
            len = PyUnicode_GET_LENGTH(source);
        } else {
            buf = (const uint8_t *)PyUnicode_AsUTF8AndSize(source, &len);  /* cached by the str */
            if (!buf)
                return NULL;
        }
    } else if (PyBytes_Check(source)) {
        buf = (const uint8_t *)PyBytes_AS_STRING(source);
        len = PyBytes_GET_SIZE(source);
        if (base < 0 || base > len) {
            PyErr_SetString(PyExc_ValueError, "base outside the source");
            return NULL;
        }
        buf += base;
        len -= base;
    } else {
        PyErr_Format(PyExc_TypeError, "_parse() needs str or bytes, not %.100s", Py_TYPE(source)->tp_name);
        return NULL;
    }
    if (max_size < 0 || max_depth < 1 || max_depth > 0xFFFF) {
        PyErr_SetString(PyExc_ValueError, "max_size must be >= 0 and max_depth in 1..65535");
        return NULL;
    }

    fp_options opts = {0};
    opts.max_size = (size_t)max_size;
    opts.max_depth = (uint32_t)max_depth;
    opts.recovery = (uint8_t)recovery;
    opts.scripting = (uint8_t)scripting;
    opts.legacy = codec != Py_None;
    if (opts.legacy) {
        const char *name = PyUnicode_AsUTF8(encoding);
        if (!name)
            return NULL;
        opts.dbcs = (uint8_t)fp_dbcs_of(name);
    }
    if (context != Py_None) {
        Py_ssize_t clen;
        if (!PyUnicode_Check(context)) {
            PyErr_SetString(PyExc_TypeError, "context must be a tag name (str)");
            return NULL;
        }
        const char *c = fp_utf8_of(context, &clen);
        if (!c) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "context must be a tag name (str), not one with a lone surrogate");
            return NULL;
        }
        fp_doc tmp = {0};
        uint16_t ns = 0;
        if (clen > 4 && !memcmp(c, "svg ", 4)) { ns = FP_CTX_SVG; c += 4; clen -= 4; }
        else if (clen > 5 && !memcmp(c, "math ", 5)) { ns = FP_CTX_MATHML; c += 5; clen -= 5; }
        int id = fp_tag_lookup(&tmp, (const uint8_t *)c, (size_t)clen);
        opts.context = (uint16_t)((id > 0 ? id : FP_TAG_DIV) | ns);  /* unknown names behave like <div> */
    }

    DocumentObject *d = fp_new_document(st, source, is_str, ascii, base);
    if (!d)
        return NULL;
    d->encoding = Py_NewRef(encoding);
    d->codec = codec == Py_None ? NULL : Py_NewRef(codec);

    fp_status status;
    Py_BEGIN_ALLOW_THREADS
    status = fp_parse(&d->doc, buf, (size_t)len, &opts);
    Py_END_ALLOW_THREADS

    return parsed_document(st, d, status, len, max_size, max_depth);
}

static PyObject *
utf8_check_with(PyObject *arg, int (*check)(const uint8_t *, size_t))
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = check(view.buf, (size_t)view.len);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    return PyLong_FromLong(r);
}

static PyObject *
mod_utf8_check(PyObject *module, PyObject *arg)
{
    return utf8_check_with(arg, fp_utf8_check);
}

static PyObject *
mod_utf8_check_portable(PyObject *module, PyObject *arg)
{
    return utf8_check_with(arg, fp_utf8_check_portable);
}

/* _known_tag(name: bytes) -> int: the tag table's id of a name, 0 when unknown
 * (the selector compiler writes it into programs: a run then looks up only
 * the names the table does not know, among the document's own) */
static PyObject *
mod_known_tag(PyObject *module, PyObject *arg)
{
    if (!PyBytes_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "expected bytes, not %.100s", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    return PyLong_FromLong(fp_tag_known((const uint8_t *)PyBytes_AS_STRING(arg), (size_t)PyBytes_GET_SIZE(arg)));
}

/* parse()'s options when the caller changed none */
static fp_options
default_options(void)
{
    fp_options opts = {0};
    opts.max_size = (size_t)FP_DEFAULT_MAX_SIZE;
    opts.max_depth = FP_DEFAULT_MAX_DEPTH;
    opts.recovery = FP_RECOVERY_HTML5;
    return opts;
}

/* A UTF-16 page (name "utf-16le" or "utf-16be"), its bytes from p[skip]
 * (past a BOM): transcoded to UTF-8, which becomes doc.source as on the
 * Python path (fastparse.encoding.to_utf8), then parsed. Both steps run
 * without the GIL. None for a page over max_size: _parse raises the error
 * with the page's own length. */
static PyObject *
parse_utf16(fp_state *st, PyObject *source, size_t skip, const char *name)
{
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(source) + skip;
    size_t n = (size_t)PyBytes_GET_SIZE(source) - skip;
    if (PyBytes_GET_SIZE(source) > FP_DEFAULT_MAX_SIZE)
        Py_RETURN_NONE;
    PyObject *utf8 = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)FP_UTF16_TO_UTF8_CAP(n));
    if (!utf8)
        return NULL;
    size_t len;
    int big_endian = strcmp(name, "utf-16be") == 0;
    Py_BEGIN_ALLOW_THREADS
    len = fp_utf16_to_utf8(p, n, big_endian, (uint8_t *)PyBytes_AS_STRING(utf8));
    Py_END_ALLOW_THREADS
    if (_PyBytes_Resize(&utf8, (Py_ssize_t)len) < 0)
        return NULL;
    DocumentObject *d = fp_new_document(st, utf8, 0, 0, 0);
    Py_DECREF(utf8);   /* the document holds it */
    if (!d)
        return NULL;
    if (!(d->encoding = PyUnicode_FromString(name))) {
        Py_DECREF(d);
        return NULL;
    }
    fp_options opts = default_options();
    if (len > opts.max_size)
        opts.max_size = len;   /* the limit is the input's, which is within it */
    fp_status status;
    Py_BEGIN_ALLOW_THREADS
    status = fp_parse(&d->doc, (const uint8_t *)PyBytes_AS_STRING(d->source), len, &opts);
    Py_END_ALLOW_THREADS
    return parsed_document(st, d, status, (Py_ssize_t)len, FP_DEFAULT_MAX_SIZE, FP_DEFAULT_MAX_DEPTH);
}

/* parse() of bytes with every default but the transport-layer encoding
 * `hint` (a WHATWG name; NULL: none), its encoding decided as
 * fastparse.encoding.detect() decides it, in C and in the same GIL-free
 * stretch as the parse, so that threads parsing pages overlap in both. A BOM
 * decides at once, then the hint; UTF-16 is transcoded here (parse_utf16).
 * Bytes that are not UTF-8 and declare nothing (fp_detect_encoding's NULL) go
 * to the guess detect() makes (fastparse._encoding_guess.guess, given by
 * fastparse.encoding), with the GIL, between the detection and the parse.
 * None (the Python path decides) for an encoding the engine cannot scan as is
 * and this file does not transcode (ISO-2022-JP, replacement), or before
 * fastparse.encoding has given the legacy codecs and the guess.
 * tests/test_encoding.py checks the decisions agree. */
static PyObject *
parse_bytes(fp_state *st, PyObject *source, const char *hint)
{
    if (!PyBytes_CheckExact(source) || !st->legacy_codecs)
        Py_RETURN_NONE;
    const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(source);
    size_t n = (size_t)PyBytes_GET_SIZE(source);
    if (n > (size_t)FP_DEFAULT_MAX_SIZE)
        Py_RETURN_NONE;   /* _parse raises ParseLimitError with the input's length, a BOM included */
    if (n >= 2 && p[0] == 0xFE && p[1] == 0xFF)
        return parse_utf16(st, source, 2, "utf-16be");
    if (n >= 2 && p[0] == 0xFF && p[1] == 0xFE)
        return parse_utf16(st, source, 2, "utf-16le");
    size_t bom = n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3 : 0;
    DocumentObject *d = fp_new_document(st, source, 0, 0, (Py_ssize_t)bom);
    if (!d)
        return NULL;
    fp_options opts = default_options();
    const char *name;
    int as_is;
    fp_status status = FP_OK;
    Py_BEGIN_ALLOW_THREADS
    /* a UTF-8 BOM is part of the source (offsets count it) but not of the parse */
    name = bom ? "utf-8" : hint ? hint : fp_detect_encoding(p, n);
    as_is = name && !fp_encoding_transcoded(name);
    if (as_is) {
        opts.legacy = strcmp(name, "utf-8") != 0;
        opts.dbcs = (uint8_t)fp_dbcs_of(name);
        status = fp_parse(&d->doc, p + bom, n - bom, &opts);
    }
    Py_END_ALLOW_THREADS
    PyObject *guessed = NULL;
    if (!name && st->guess) {
        /* not UTF-8 and declaring nothing: the guess (Python, with the GIL) names the
         * encoding, else windows-1252, as detect() decides; then the parse */
        if (!(guessed = PyObject_CallOneArg(st->guess, source))) {
            Py_DECREF(d);
            return NULL;
        }
        name = guessed == Py_None ? "windows-1252" : PyUnicode_Check(guessed) ? PyUnicode_AsUTF8(guessed) : NULL;
        as_is = name && !fp_encoding_transcoded(name);
        if (as_is) {
            opts.legacy = strcmp(name, "utf-8") != 0;
            opts.dbcs = (uint8_t)fp_dbcs_of(name);
            Py_BEGIN_ALLOW_THREADS
            status = fp_parse(&d->doc, p, n, &opts);
            Py_END_ALLOW_THREADS
        }
        PyErr_Clear();   /* a name that is not a str, or has no UTF-8: the Python path says so */
    }
    PyObject *entry = as_is && opts.legacy ? PyDict_GetItemString(st->legacy_codecs, name) : NULL;
    if (!as_is || (opts.legacy && !entry)) {
        Py_DECREF(d);
        if (name && strncmp(name, "utf-16", 6) == 0) {   /* the UTF-16 XML declaration, "<\0?\0x\0" */
            Py_XDECREF(guessed);
            return parse_utf16(st, source, 0, name);
        }
        Py_XDECREF(guessed);
        Py_RETURN_NONE;   /* the Python path decides (and parses again) */
    }
    Py_XDECREF(guessed);   /* name is no longer read: entry's strings are the dict's */
    d->encoding = Py_NewRef(entry ? PyTuple_GET_ITEM(entry, 0) : st->utf_8);
    d->codec = entry ? Py_NewRef(PyTuple_GET_ITEM(entry, 1)) : NULL;
    return parsed_document(st, d, status, (Py_ssize_t)(n - bom), FP_DEFAULT_MAX_SIZE, FP_DEFAULT_MAX_DEPTH);
}

/* _parse_bytes(source: bytes) -> Document | None: parse() with every default */
static PyObject *
mod_parse_bytes(PyObject *module, PyObject *source)
{
    return parse_bytes(PyModule_GetState(module), source, NULL);
}

/* The WHATWG name for parse()'s encoding= argument, when the call passes bytes
 * and that one keyword (a scraper passing the HTTP header's charset); NULL
 * for any other call and for a label that is not one (the Python path then
 * raises its LookupError). */
static const char *
encoding_keyword_only(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs != 1 || PyTuple_GET_SIZE(kwnames) != 1 || !PyBytes_CheckExact(args[0]) ||
        !PyUnicode_CheckExact(args[1]) ||
        PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "encoding") != 0)
        return NULL;
    Py_ssize_t n;
    const char *label = PyUnicode_AsUTF8AndSize(args[1], &n);
    if (!label) {
        PyErr_Clear();   /* lone surrogates: not a label, as the Python path will say */
        return NULL;
    }
    return fp_encoding_for_label((const uint8_t *)label, (size_t)n);
}

/* A _set_...() call: fn, which must be callable, into the module state's slot */
static PyObject *
set_callable(PyObject *fn, const char *setter, PyObject **slot)
{
    if (!PyCallable_Check(fn)) {
        PyErr_Format(PyExc_TypeError, "%s() needs a callable, not %s", setter, Py_TYPE(fn)->tp_name);
        return NULL;
    }
    Py_XSETREF(*slot, Py_NewRef(fn));
    Py_RETURN_NONE;
}

/* _set_guess(function): fastparse._encoding_guess.guess, which parse_bytes
 * calls for bytes that are not UTF-8 and declare nothing (fastparse.encoding,
 * at import) */
static PyObject *
mod_set_guess(PyObject *module, PyObject *fn)
{
    return set_callable(fn, "_set_guess", &((fp_state *)PyModule_GetState(module))->guess);
}

/* _set_legacy_codecs({WHATWG name: (name, Python codec)}): the encodings
 * _parse_bytes parses as is, given by fastparse.encoding at import. Checked
 * here, once, so that the parse reads its entries as they are. */
static PyObject *
mod_set_legacy_codecs(PyObject *module, PyObject *codecs)
{
    if (!PyDict_Check(codecs)) {
        PyErr_Format(PyExc_TypeError, "_set_legacy_codecs() needs a dict, not %s", Py_TYPE(codecs)->tp_name);
        return NULL;
    }
    Py_ssize_t pos = 0;
    PyObject *key, *entry;
    while (PyDict_Next(codecs, &pos, &key, &entry))
        if (!PyUnicode_Check(key) || !PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 2 ||
            !PyUnicode_Check(PyTuple_GET_ITEM(entry, 0)) || !PyUnicode_Check(PyTuple_GET_ITEM(entry, 1))) {
            PyErr_SetString(PyExc_TypeError, "_set_legacy_codecs() needs {name: (name, codec)}, all str");
            return NULL;
        }
    fp_state *st = PyModule_GetState(module);
    Py_XSETREF(st->legacy_codecs, Py_NewRef(codecs));
    Py_RETURN_NONE;
}

/* iso2022jp_escapes(data) -> bool: whether 7-bit data holds a run of JIS X
 * 0208 between escapes, which makes it ISO-2022-JP (detect.c). */
static PyObject *
mod_iso2022jp_escapes(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    int found = fp_iso2022jp_escapes(view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    return PyBool_FromLong(found);
}

/* iso2022jp_to_utf8(data) -> (bytes, errors): ISO-2022-JP data as UTF-8, as
 * the Encoding Standard's decoder reads it (iso2022jp.c), and how many of its
 * characters are U+FFFD for malformed bytes. */
static PyObject *
mod_iso2022jp_to_utf8(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    fp_buf out = {0};
    size_t errors;
    int r;
    Py_BEGIN_ALLOW_THREADS
    r = fp_iso2022jp_to_utf8(view.buf, (size_t)view.len, &out, &errors);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    PyObject *result = NULL;
    if (r < 0)
        PyErr_NoMemory();
    else
        result = Py_BuildValue("(y#n)", (const char *)out.data, (Py_ssize_t)out.len, (Py_ssize_t)errors);
    fp_buf_free(&out);
    return result;
}

/* late_meta(data) -> str | None: the encoding a <meta> past the first 1024
 * bytes declares in the document's head (detect.c), as a WHATWG name */
static PyObject *
mod_late_meta(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const char *name;
    Py_BEGIN_ALLOW_THREADS
    name = fp_late_meta(view.buf, (size_t)view.len);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (!name)
        Py_RETURN_NONE;
    return PyUnicode_InternFromString(name);
}

/* utf16_pattern(data) -> "utf-16le" | "utf-16be" | None: whether data looks
 * like an HTML document in UTF-16 without a BOM (detect.c). */
static PyObject *
mod_utf16_pattern(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const char *name = fp_utf16_pattern(view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    if (!name)
        Py_RETURN_NONE;
    return PyUnicode_InternFromString(name);
}

/* prescan(data, limit=None) -> str | None: the encoding a document declares
 * in data[:limit] (<meta> prescan, then an XML declaration), as a WHATWG name. */
static PyObject *
mod_prescan(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 2) {
        PyErr_Format(PyExc_TypeError, "prescan() takes 1 or 2 arguments (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t limit = (Py_ssize_t)(((size_t)-1) >> 1);
    if (nargs == 2 && args[1] != Py_None) {
        limit = PyNumber_AsSsize_t(args[1], PyExc_OverflowError);
        if (limit == -1 && PyErr_Occurred())
            return NULL;
        if (limit < 0) {
            PyErr_SetString(PyExc_ValueError, "limit must be >= 0");
            return NULL;
        }
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0)
        return NULL;
    const char *name = fp_prescan(view.buf, (size_t)(view.len < limit ? view.len : limit));
    PyBuffer_Release(&view);
    if (!name)
        Py_RETURN_NONE;
    return PyUnicode_InternFromString(name);
}

/* The benchmark floor: find every '<' and the '>' after it, nothing more. */
static PyObject *
mod_floor_scan(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    size_t count = 0;
    Py_BEGIN_ALLOW_THREADS
    const uint8_t *p = view.buf, *end = p + view.len;
    while ((p = memchr(p, '<', (size_t)(end - p))) != NULL) {
        const uint8_t *gt = memchr(p, '>', (size_t)(end - p));
        if (!gt)
            break;
        count++;
        p = gt + 1;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    return PyLong_FromSize_t(count);
}

/* _decode_refs(data, in_attribute) -> str: every character reference
 * decoded by the engine's fp_entity_decode; for testing the table. */
static PyObject *
mod_decode_refs(PyObject *module, PyObject *args)
{
    Py_buffer view;
    int in_attr;
    if (!PyArg_ParseTuple(args, "y*p:_decode_refs", &view, &in_attr))
        return NULL;
    fp_buf b = {0};
    const uint8_t *p = view.buf, *end = p + view.len;
    int fail = 0;
    while (p < end && !fail) {
        const uint8_t *amp = memchr(p, '&', (size_t)(end - p));
        const uint8_t *stop = amp ? amp : end;
        fail |= fp_buf_append(&b, p, (size_t)(stop - p));
        p = stop;
        if (!amp)
            break;
        uint32_t cp[2];
        int ncp = 0;
        size_t used = fp_entity_decode(p, end, in_attr, cp, &ncp);
        if (!used) {
            fail |= fp_buf_append(&b, p, 1);
            p++;
            continue;
        }
        for (int k = 0; k < ncp; k++)
            fail |= fp_buf_append_utf8(&b, cp[k]);
        p += used;
    }
    PyBuffer_Release(&view);
    PyObject *s = fail ? PyErr_NoMemory()
                       : PyUnicode_DecodeUTF8(b.data ? (const char *)b.data : "", (Py_ssize_t)b.len,
                                              "surrogatepass");
    fp_buf_free(&b);
    return s;
}

/* parse(source, *, ...): fastparse.parse itself. bytes with no keyword
 * argument or with encoding= alone (what a scraping loop passes) go to
 * parse_bytes with no Python frame in between, which cost a small page 3% of
 * its parse (the encoding= call took 1.3 us more than the plain one); everything
 * else, and what parse_bytes leaves to Python, to the Python parse() in
 * fastparse/_parse.py (_parse_general there). */
static PyObject *
mod_parse_public(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    fp_state *st = PyModule_GetState(module);
    const char *hint = NULL;
    if ((nargs == 1 && kwnames == NULL && PyBytes_CheckExact(args[0])) ||
        (kwnames && (hint = encoding_keyword_only(args, nargs, kwnames)))) {
        PyObject *doc = parse_bytes(st, args[0], hint);
        if (doc != Py_None)
            return doc;   /* a Document, or NULL with the error */
        Py_DECREF(doc);
    }
    if (!st->parse_general) {
        PyErr_SetString(PyExc_RuntimeError, "fastparse._core.parse: import fastparse first");
        return NULL;
    }
    return PyObject_Vectorcall(st->parse_general, args, (size_t)nargs, kwnames);
}

/* _set_parse_general(function): parse()'s path for everything but plain bytes
 * (fastparse._parse, at import). */
static PyObject *
mod_set_parse_general(PyObject *module, PyObject *fn)
{
    return set_callable(fn, "_set_parse_general", &((fp_state *)PyModule_GetState(module))->parse_general);
}

PyDoc_STRVAR(parse_doc,
"parse($module, source, *, encoding=None, max_size=268435456, max_depth=4096,\n"
"      recovery='html5', scripting=False)\n"
"--\n"
"\n"
"Parse an HTML document into a flat, document-ordered index of its elements.\n"
"\n"
"source: str, bytes, bytearray or memoryview. Bytes are decoded lazily: the\n"
"encoding comes from a BOM, then ``encoding=`` (a transport-layer label),\n"
"then ``<meta charset>`` in the first 1024 bytes, then UTF-8 if the bytes\n"
"are valid UTF-8, else a guess from the text, as browsers make, else\n"
"windows-1252 (see fastparse.encoding). A str is\n"
"text already: its ``encoding=`` label is checked (LookupError) and not used.\n"
"max_size: the input's bytes, a BOM included, before any transcoding (a\n"
"str's in UTF-8; ParseLimitError beyond); max_depth: open elements\n"
"(ParseLimitError beyond). recovery: \"html5\" (browser nesting rules) or\n"
"\"none\" (nesting exactly as the tags are written). scripting: parse\n"
"``<noscript>`` content as text, as a browser with scripts enabled does.");

static PyMethodDef module_methods[] = {
    {"_parse", (PyCFunction)(void (*)(void))mod_parse, METH_FASTCALL,
     "Engine entry point; use fastparse.parse()."},
    {"iso2022jp_escapes", mod_iso2022jp_escapes, METH_O,
     "iso2022jp_escapes(data) -> bool: whether 7-bit data holds a run of JIS X 0208 between escapes (ISO-2022-JP)."},
    {"iso2022jp_to_utf8", mod_iso2022jp_to_utf8, METH_O,
     "iso2022jp_to_utf8(data) -> (bytes, errors): ISO-2022-JP as UTF-8, with the count of U+FFFD for malformed bytes."},
    {"guess_sample", fp_py_guess_sample, METH_O,
     "guess_sample(data) -> bytes: the runs of non-ASCII text the encoding guess reads (fastparse._encoding_guess)."},
    {"byte_counts", fp_py_byte_counts, METH_O,
     "byte_counts(data) -> tuple of 256 ints: how many of data's bytes are each byte value."},
    {"utf8_counts", fp_py_utf8_counts, METH_O,
     "utf8_counts(data) -> (chars, errors, replacements): non-ASCII characters, U+FFFD for bad bytes, U+FFFD read."},
    {"big5_pairs", fp_py_big5_pairs, METH_O,
     "big5_pairs(data) -> (pairs, common, low_trail): Big5 byte pairs, those with a common lead, an ASCII trail."},
    {"bytes_in_runs", fp_py_bytes_in_runs, METH_VARARGS,
     "bytes_in_runs(data, members, min_run) -> int: data's bytes in runs of min_run or more member bytes."},
    {"unpaired_bytes", fp_py_unpaired_bytes, METH_VARARGS,
     "unpaired_bytes(data, members, neighbours, after) -> int: member bytes without a neighbour before (after) them."},
    {"chars_in", fp_py_chars_in, METH_VARARGS,
     "chars_in(text, ranges) -> str: text's characters in the (lo, hi, counter) ranges, in order."},
    {"char_counts", fp_py_char_counts, METH_VARARGS,
     "char_counts(text, ranges) -> tuple of ints: text's characters in each counter's (lo, hi, counter) ranges."},
    {"late_meta", mod_late_meta, METH_O,
     "late_meta(data) -> str | None: the encoding a <meta> past the first 1024 bytes declares in the head."},
    {"utf16_pattern", mod_utf16_pattern, METH_O,
     "utf16_pattern(data) -> 'utf-16le', 'utf-16be' or None: an HTML document in UTF-16 without a BOM."},
    {"utf8_check", mod_utf8_check, METH_O,
     "utf8_check(data) -> 0 (not UTF-8), 1 (pure ASCII) or 2 (valid UTF-8 with non-ASCII)."},
    {"_known_tag", mod_known_tag, METH_O,
     "_known_tag(name: bytes) -> int: the id of a tag name the engine knows, 0 for others."},
    {"_utf8_check_portable", mod_utf8_check_portable, METH_O,
     "utf8_check without the SIMD path (testing aid)."},
    {"parse", (PyCFunction)(void (*)(void))mod_parse_public, METH_FASTCALL | METH_KEYWORDS, parse_doc},
    {"_set_parse_general", mod_set_parse_general, METH_O,
     "_set_parse_general(function): parse()'s path for all but plain bytes (fastparse._parse)."},
    {"_parse_bytes", mod_parse_bytes, METH_O,
     "_parse_bytes(source: bytes) -> Document | None: parse() with the defaults, the encoding decided in C."},
    {"_set_guess", mod_set_guess, METH_O,
     "_set_guess(function): the guess at undeclared bytes that are not UTF-8 (fastparse.encoding)."},
    {"_set_legacy_codecs", mod_set_legacy_codecs, METH_O,
     "_set_legacy_codecs({name: (name, codec)}): the legacy encodings _parse_bytes parses (fastparse.encoding)."},
    {"prescan", (PyCFunction)(void (*)(void))mod_prescan, METH_FASTCALL,
     "prescan(data, limit=None) -> str | None: the encoding declared in data[:limit] (WHATWG name)."},
    {"floor_scan", mod_floor_scan, METH_O,
     "floor_scan(data) -> int: count of '<'...'>' pairs found with memchr (the benchmark floor)."},
    {"_decode_refs", mod_decode_refs, METH_VARARGS,
     "_decode_refs(data: bytes, in_attribute: bool) -> str (testing aid)."},
#ifdef FP_HAVE_SELECT
    {"_select_run", (PyCFunction)(void (*)(void))fp_py_select_run, METH_FASTCALL,
     "_select_run(node, program, limit, indexed=True) -> list[Tag] (used by fastparse.selectors)."},
    {"_select_test", (PyCFunction)(void (*)(void))fp_py_select_test, METH_FASTCALL,
     "_select_test(tag, program) -> bool (used by fastparse.selectors)."},
    {"_select_closest", (PyCFunction)(void (*)(void))fp_py_select_closest, METH_FASTCALL,
     "_select_closest(tag, program) -> Tag | MISSING (used by fastparse.selectors)."},
#endif
    {NULL},
};

static PyObject *
import_attr(const char *module, const char *name)
{
    PyObject *mod = PyImport_ImportModule(module);
    if (!mod)
        return NULL;
    PyObject *attr = PyObject_GetAttrString(mod, name);
    Py_DECREF(mod);
    return attr;
}

static int
module_exec(PyObject *m)
{
    fp_state *st = PyModule_GetState(m);
    st->Document_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &fp_document_spec, NULL);
    st->Tag_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &fp_tag_spec, NULL);
    if (!st->Document_type || !st->Tag_type)
        return -1;
    if (PyModule_AddObjectRef(m, "Document", (PyObject *)st->Document_type) < 0 ||
        PyModule_AddObjectRef(m, "Tag", (PyObject *)st->Tag_type) < 0)
        return -1;
    st->MISSING = import_attr("fastparse._missing", "MISSING");
    st->ParseLimitError = import_attr("fastparse.errors", "ParseLimitError");
    st->ParseError = import_attr("fastparse.errors", "ParseError");
    st->Comment = import_attr("fastparse.comment", "Comment");
    st->ProcessingInstruction = import_attr("fastparse.comment", "ProcessingInstruction");
    st->svg_tag_names = import_attr("fastparse._foreign_names", "SVG_TAG_NAMES");
    st->svg_attr_names = import_attr("fastparse._foreign_names", "SVG_ATTRIBUTE_NAMES");
    st->mathml_attr_names = import_attr("fastparse._foreign_names", "MATHML_ATTRIBUTE_NAMES");
    if (!st->MISSING || !st->ParseLimitError || !st->ParseError || !st->Comment ||
        !st->ProcessingInstruction || !st->svg_tag_names || !st->svg_attr_names || !st->mathml_attr_names)
        return -1;
    if (!PyDict_CheckExact(st->svg_tag_names) || !PyDict_CheckExact(st->svg_attr_names) ||
        !PyDict_CheckExact(st->mathml_attr_names)) {
        PyErr_SetString(PyExc_TypeError, "fastparse._foreign_names: the name tables must be dicts");
        return -1;
    }
    for (int k = 0; k < FP_TEXT_KW__COUNT; k++)
        if (!(st->text_kw[k] = PyUnicode_InternFromString(fp_text_kw_names[k])))
            return -1;
    for (int k = 0; k < FP_FIND_KW__COUNT; k++)
        if (!(st->find_kw[k] = PyUnicode_InternFromString(fp_find_kw_names[k])))
            return -1;
    if (!(st->utf_8 = PyUnicode_InternFromString("utf-8")) ||
        !(st->whatwg_errors = PyUnicode_InternFromString("fastparse-whatwg-run")) ||
        !(st->whatwg_end_errors = PyUnicode_InternFromString("fastparse-whatwg")))
        return -1;
    PyObject *max_size = PyLong_FromSsize_t(FP_DEFAULT_MAX_SIZE);
    int added = max_size ? PyModule_AddObjectRef(m, "DEFAULT_MAX_SIZE", max_size) : -1;
    Py_XDECREF(max_size);
    if (added < 0 || PyModule_AddStringConstant(m, "SCAN_IMPL", fp_scan_impl()) < 0 ||
        PyModule_AddStringConstant(m, "CPU", fp_cpu_choose()) < 0 ||
        PyModule_AddStringConstant(m, "BUILD", FP_BUILD) < 0 ||
        PyModule_AddIntConstant(m, "DEFAULT_MAX_DEPTH", FP_DEFAULT_MAX_DEPTH) < 0 ||
        PyModule_AddIntConstant(m, "PRESCAN_BYTES", FP_PRESCAN_BYTES) < 0 ||
        PyModule_AddIntConstant(m, "LATE_META_BYTES", FP_LATE_META_BYTES) < 0)
        return -1;
    return 0;
}

static int
module_traverse(PyObject *m, visitproc visit, void *arg)
{
    fp_state *st = PyModule_GetState(m);
    Py_VISIT(st->Document_type);
    Py_VISIT(st->Tag_type);
    Py_VISIT(st->MISSING);
    Py_VISIT(st->ParseLimitError);
    Py_VISIT(st->ParseError);
    Py_VISIT(st->Comment);
    Py_VISIT(st->ProcessingInstruction);
    for (int k = 0; k < FP_SELECT_FN__COUNT; k++)
        Py_VISIT(st->select_fns[k]);
    Py_VISIT(st->select_programs);
    for (int k = 0; k < FP_TEXT_KW__COUNT; k++)
        Py_VISIT(st->text_kw[k]);
    for (int k = 0; k < FP_FIND_KW__COUNT; k++)
        Py_VISIT(st->find_kw[k]);
    Py_VISIT(st->utf_8);
    Py_VISIT(st->whatwg_errors);
    Py_VISIT(st->whatwg_end_errors);
    Py_VISIT(st->legacy_codecs);
    Py_VISIT(st->parse_general);
    Py_VISIT(st->guess);
    Py_VISIT(st->svg_tag_names);
    Py_VISIT(st->svg_attr_names);
    Py_VISIT(st->mathml_attr_names);
    for (int k = 0; k < FP_CHECKED_PROGRAMS; k++)
        Py_VISIT(st->checked[k]);
    for (int k = 0; k < FP_RECENT_SELECTORS; k++) {
        Py_VISIT(st->recent[k].css);
        Py_VISIT(st->recent[k].prog);
    }
    return 0;
}

static int
module_clear(PyObject *m)
{
    fp_state *st = PyModule_GetState(m);
    Py_CLEAR(st->Document_type);
    Py_CLEAR(st->Tag_type);
    Py_CLEAR(st->MISSING);
    Py_CLEAR(st->ParseLimitError);
    Py_CLEAR(st->ParseError);
    Py_CLEAR(st->Comment);
    Py_CLEAR(st->ProcessingInstruction);
    for (int k = 0; k < FP_SELECT_FN__COUNT; k++)
        Py_CLEAR(st->select_fns[k]);
    Py_CLEAR(st->select_programs);
    for (int k = 0; k < FP_TEXT_KW__COUNT; k++)
        Py_CLEAR(st->text_kw[k]);
    for (int k = 0; k < FP_FIND_KW__COUNT; k++)
        Py_CLEAR(st->find_kw[k]);
    Py_CLEAR(st->utf_8);
    Py_CLEAR(st->whatwg_errors);
    Py_CLEAR(st->whatwg_end_errors);
    Py_CLEAR(st->legacy_codecs);
    Py_CLEAR(st->parse_general);
    Py_CLEAR(st->guess);
    Py_CLEAR(st->svg_tag_names);
    Py_CLEAR(st->svg_attr_names);
    Py_CLEAR(st->mathml_attr_names);
    for (int k = 0; k < FP_CHECKED_PROGRAMS; k++)
        Py_CLEAR(st->checked[k]);
    for (int k = 0; k < FP_RECENT_SELECTORS; k++) {
        Py_CLEAR(st->recent[k].css);
        Py_CLEAR(st->recent[k].prog);
    }
    st->nchecked = 0;
    while (st->free_tags) {
        fp_free_tag *f = st->free_tags;
        st->free_tags = f->next;
        PyObject_Free(f);
    }
    st->free_tags_n = 0;
    return 0;
}

static void
module_free(void *m)
{
    module_clear((PyObject *)m);
    fp_scratch_release();
}

static PyModuleDef_Slot module_slots[] = {
    {Py_mod_exec, module_exec},
    {0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "fastparse._core",
    .m_doc = "The C engine of fastparse: a flat element index over the source bytes.",
    .m_size = sizeof(fp_state),
    .m_methods = module_methods,
    .m_slots = module_slots,
    .m_traverse = module_traverse,
    .m_clear = module_clear,
    .m_free = module_free,
};

PyMODINIT_FUNC
PyInit__core(void)
{
    return PyModuleDef_Init(&module_def);
}
