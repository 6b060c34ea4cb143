/* prescan.c — the HTML Standard's "prescan a byte stream to determine its
 * encoding" (13.2.3.2) with "get an attribute", "extracting a character
 * encoding from a meta element" and "get an XML encoding", step for step:
 * https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding
 * fastparse/encoding.py keeps the same algorithm in Python as
 * _prescan_reference; tests/test_encoding.py checks that the two agree.
 *
 * Names and values are never copied or lower-cased: the three attribute
 * names that matter and "content-type" are compared ASCII-case-insensitively
 * in place, and a label is lower-cased only into a small buffer for lookup. */
#include "prescan.h"

#include <string.h>

#include "internal.h"
#include "labels_gen.h"
#include "tokenizer_tag.h"

enum { NONE = -1, FAILURE = -2, END_OF_INPUT = -3 };

static int
cmp_label(const uint8_t *a, size_t na, const char *b, size_t nb)
{
    int r = memcmp(a, b, na < nb ? na : nb);
    return r ? r : (na > nb) - (na < nb);
}

/* "Get an encoding": an FP_ENC_* id, or NONE for an unknown label. */
static int
label_to_enc(const uint8_t *s, size_t n)
{
    while (n && fp_is_ws(*s)) {
        s++;
        n--;
    }
    while (n && fp_is_ws(s[n - 1]))
        n--;
    if (n == 0 || n > FP_LABEL_MAX)
        return NONE;
    uint8_t key[FP_LABEL_MAX];
    for (size_t i = 0; i < n; i++)
        key[i] = fp_lower(s[i]);
    size_t lo = 0, hi = FP_LABEL_COUNT;
    while (lo < hi) {  /* binary search of the sorted generated table */
        size_t mid = (lo + hi) / 2;
        int c = cmp_label(key, n, fp_labels[mid].label, fp_labels[mid].len);
        if (c == 0)
            return fp_labels[mid].enc;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NONE;
}

const char *
fp_encoding_for_label(const uint8_t *label, size_t n)
{
    int enc = label_to_enc(label, n);
    return enc < 0 ? NULL : fp_enc_names[enc];
}

typedef struct {
    const uint8_t *name, *value;
    size_t name_len, value_len;
} attr;

/* "Get an attribute" from *pp. Returns 1 with *a filled, 0 when there is no
 * attribute (*pp at the '>'), or END_OF_INPUT. Either way *pp is left where
 * the spec leaves its position. */
static int
get_attribute(const uint8_t **pp, const uint8_t *end, attr *a)
{
    const uint8_t *p = *pp;
    while (p < end && (fp_is_ws(*p) || *p == '/'))
        p++;
    if (p >= end)
        return END_OF_INPUT;
    if (*p == '>') {
        *pp = p;
        return 0;
    }
    /* The name: its first byte is taken whatever it is, even '='. */
    a->name = p++;
    p = name_end(p, end);   /* ws / = > */
    if (p >= end)
        return END_OF_INPUT;
    a->name_len = (size_t)(p - a->name);
    a->value = p;
    a->value_len = 0;
    if (*p == '/' || *p == '>')
        goto done;
    if (fp_is_ws(*p)) {  /* "spaces": only an '=' after them gives a value */
        while (p < end && fp_is_ws(*p))
            p++;
        if (p >= end)
            return END_OF_INPUT;
        if (*p != '=')
            goto done;
    }
    p++;  /* past '=' */
    while (p < end && fp_is_ws(*p))
        p++;
    if (p >= end)
        return END_OF_INPUT;
    if (*p == '"' || *p == '\'') {
        const uint8_t *close = fp_find_byte(p + 1, end, *p);
        if (!close)
            return END_OF_INPUT;
        a->value = p + 1;
        a->value_len = (size_t)(close - p - 1);
        p = close + 1;
        goto done;
    }
    a->value = p;
    if (*p == '>')
        goto done;
    p = unquoted_end(p, end);   /* ws > */
    if (p >= end)
        return END_OF_INPUT;
    a->value_len = (size_t)(p - a->value);
done:
    *pp = p;
    return 1;
}

/* "Extracting a character encoding from a meta element", on a content=
 * value: an FP_ENC_* id, or NONE ("nothing"). */
static int
charset_from_content(const uint8_t *s, size_t n)
{
    size_t i = 0;
    for (;;) {  /* "loop": find "charset" followed by optional spaces and '=' */
        while (i + 7 <= n && !fp_equals_ci(s + i, 7, "charset"))
            i++;
        if (i + 7 > n)
            return NONE;
        i += 7;
        while (i < n && fp_is_ws(s[i]))
            i++;
        if (i < n && s[i] == '=') {
            i++;
            break;
        }
    }
    while (i < n && fp_is_ws(s[i]))
        i++;
    if (i >= n)
        return NONE;
    if (s[i] == '"' || s[i] == '\'') {
        const uint8_t *close = memchr(s + i + 1, s[i], n - i - 1);
        return close ? label_to_enc(s + i + 1, (size_t)(close - (s + i + 1))) : NONE;
    }
    size_t j = i;
    while (j < n && !fp_is_ws(s[j]) && s[j] != ';')
        j++;
    return label_to_enc(s + i, j - i);
}

/* The <meta> branch, *pp just after "<meta". Returns the encoding to stop
 * with, NONE to go on scanning (*pp then at the tag's '>'), or END_OF_INPUT. */
static int
meta_charset(const uint8_t **pp, const uint8_t *end)
{
    enum { HTTP_EQUIV = 1, CONTENT = 2, CHARSET = 4 };
    unsigned seen = 0;        /* the attribute list, as far as it matters */
    int got_pragma = 0;
    int need_pragma = -1;     /* -1: null */
    int charset = NONE;       /* NONE: null; FAILURE: charset= named no encoding */
    attr a;
    int r;
    while ((r = get_attribute(pp, end, &a)) == 1) {
        unsigned which = fp_equals_ci(a.name, a.name_len, "http-equiv") ? HTTP_EQUIV
                         : fp_equals_ci(a.name, a.name_len, "content")  ? CONTENT
                         : fp_equals_ci(a.name, a.name_len, "charset")  ? CHARSET
                                                                  : 0;
        if (!which || (seen & which))  /* other names change nothing */
            continue;
        seen |= which;
        if (which == HTTP_EQUIV) {
            got_pragma |= fp_equals_ci(a.value, a.value_len, "content-type");
        } else if (which == CONTENT) {
            int found = charset_from_content(a.value, a.value_len);
            if (found >= 0 && charset == NONE) {
                charset = found;
                need_pragma = 1;
            }
        } else {
            int found = label_to_enc(a.value, a.value_len);
            charset = found >= 0 ? found : FAILURE;
            need_pragma = 0;
        }
    }
    if (r == END_OF_INPUT)
        return END_OF_INPUT;
    if (need_pragma < 0 || (need_pragma && !got_pragma) || charset == FAILURE)
        return NONE;
    if (charset == FP_ENC_UTF_16BE || charset == FP_ENC_UTF_16LE)
        return FP_ENC_UTF_8;
    if (charset == FP_ENC_X_USER_DEFINED)
        return FP_ENC_WINDOWS_1252;
    return charset;
}

/* The '>' of the first "-->" whose dashes start at or after p (they may be
 * those of "<!--"), or NULL. */
static const uint8_t *
comment_end(const uint8_t *p, const uint8_t *end)
{
    const uint8_t *gt = p + 2;
    while (gt < end && (gt = memchr(gt, '>', (size_t)(end - gt))) != NULL) {
        if (gt[-1] == '-' && gt[-2] == '-')
            return gt;
        gt++;
    }
    return NULL;
}

/* Steps "loop" to "next byte": an FP_ENC_* id, or NONE when the window ends. */
static int
prescan_loop(const uint8_t *p, const uint8_t *end)
{
    /* "Any other byte: do nothing", so jump from '<' to '<'. */
    while (p < end && (p = memchr(p, '<', (size_t)(end - p))) != NULL) {
        size_t left = (size_t)(end - p);
        if (left < 2)
            return NONE;
        uint8_t c = p[1];
        if (c == '!' && left >= 4 && p[2] == '-' && p[3] == '-') {
            p = comment_end(p + 2, end);
            if (!p)
                return NONE;
        } else if ((c | 0x20) == 'm' && left >= 6 && fp_equals_ci(p + 1, 4, "meta") &&
                   (fp_is_ws(p[5]) || p[5] == '/')) {
            p += 5;
            int enc = meta_charset(&p, end);
            if (enc == END_OF_INPUT)
                return NONE;
            if (enc >= 0)
                return enc;
        } else if (fp_is_alpha(c) || (c == '/' && left >= 3 && fp_is_alpha(p[2]))) {
            /* A tag: its name runs to whitespace or '>', then attributes. */
            p = unquoted_end(p + 2, end);   /* ws > */
            attr a;
            int r;
            while ((r = get_attribute(&p, end, &a)) == 1)
                ;
            if (r == END_OF_INPUT)
                return NONE;
        } else if (c == '!' || c == '/' || c == '?') {
            p = memchr(p + 1, '>', left - 1);
            if (!p)
                return NONE;
        }
        p++;  /* "next byte" */
    }
    return NONE;
}

/* "Get an XML encoding": <?xml ... encoding="label" at the very start. */
static int
xml_encoding(const uint8_t *p, size_t n)
{
    if (n < 5 || memcmp(p, "<?xml", 5) != 0)
        return NONE;
    const uint8_t *gt = memchr(p, '>', n);
    if (!gt)
        return NONE;
    size_t decl = (size_t)(gt - p), i = 5;
    while (i + 8 <= decl && memcmp(p + i, "encoding", 8) != 0)
        i++;
    if (i + 8 > decl)
        return NONE;
    i += 8;
    while (i < decl && p[i] <= 0x20)
        i++;
    if (i >= decl || p[i] != '=')
        return NONE;
    i++;
    while (i < decl && p[i] <= 0x20)
        i++;
    if (i >= decl || (p[i] != '"' && p[i] != '\''))
        return NONE;
    const uint8_t *label = p + i + 1;
    const uint8_t *close = memchr(label, p[i], decl - i - 1);
    if (!close)
        return NONE;
    for (const uint8_t *q = label; q < close; q++)
        if (*q <= 0x20)
            return NONE;
    int enc = label_to_enc(label, (size_t)(close - label));
    return enc == FP_ENC_UTF_16BE || enc == FP_ENC_UTF_16LE ? FP_ENC_UTF_8 : enc;
}

const char *
fp_prescan(const uint8_t *p, size_t n)
{
    if (n >= 6 && memcmp(p, "<\0?\0x\0", 6) == 0)
        return fp_enc_names[FP_ENC_UTF_16LE];
    if (n >= 6 && memcmp(p, "\0<\0?\0x", 6) == 0)
        return fp_enc_names[FP_ENC_UTF_16BE];
    int enc = prescan_loop(p, p + n);
    if (enc < 0)
        enc = xml_encoding(p, n);
    return enc < 0 ? NULL : fp_enc_names[enc];
}
