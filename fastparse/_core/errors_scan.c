/* errors_scan.c — the tokenizer's parse errors that the parse does not look
 * for (HTML Standard 13.2.2 and 13.2.5): the input stream's control characters
 * and noncharacters, NULs, attribute syntax, character references, nested and
 * badly closed comments, and the doctype's states. Finding them costs a scan
 * of every byte and of every tag's attributes, which a parse that never
 * decodes an attribute or a reference should not pay: they are found when
 * doc.errors is read, by walking the source again in the tokenizer states the
 * parse recorded (the content of a raw text element where the index says one
 * began, a CDATA section where the parse did not make "<![CDATA[" a comment). */
#include <stdlib.h>
#include <string.h>

#include "fp.h"
#include "tokenizer_tag.h"   /* skip_ws; internal.h, and emmintrin.h where SSE2 is there */

typedef struct {
    const fp_doc *doc;
    const uint8_t *buf, *end;
    fp_error *out;
    uint32_t n, cap;
    int failed;
    uint32_t el, com;                  /* cursors: the next element, the next comment */
    struct { uint32_t from, to; } *cdata;   /* CDATA sections: a NUL there is no error */
    uint32_t ncdata, cdata_cap;
    struct { uint32_t hash, len, slot; const uint8_t *name; } *names;   /* one tag's attributes */
    uint32_t nnames, names_cap;
    uint32_t *slots, nslots;   /* a hash table of names (k + 1), for a tag with many */
} scan;

/* items (*cap of size bytes) with room for twice as many (first, for none):
 * the new array, or NULL with s->failed set (items stays the caller's) */
static void *grown(scan *s, void *items, uint32_t *cap, size_t size, uint32_t first)
{
    uint32_t want = *cap ? *cap * 2 : first;
    void *more = realloc(items, (size_t)want * size);
    if (!more) {
        s->failed = 1;
        return NULL;
    }
    *cap = want;
    return more;
}

static void report(scan *s, int code, const uint8_t *at)
{
    if (s->n == s->cap) {
        fp_error *more = grown(s, s->out, &s->cap, sizeof *more, 16);
        if (!more)
            return;
        s->out = more;
    }
    s->out[s->n].offset = (uint32_t)(at - s->buf);
    s->out[s->n].code = (uint16_t)code;
    s->n++;
}

static int is_alnum(uint8_t c)
{
    return (c >= '0' && c <= '9') || fp_is_alpha(c);
}

static int is_noncharacter(uint32_t v)
{
    return (v >= 0xFDD0 && v <= 0xFDEF) || (v & 0xFFFE) == 0xFFFE;
}

/* C0 controls, DEL and C1 controls, but ASCII whitespace and NUL */
static int is_control(uint32_t v)
{
    if (v < 0x20)
        return v != 0 && v != '\t' && v != '\n' && v != '\f' && v != '\r';
    return v >= 0x7F && v <= 0x9F;
}

/* ---------------------------------------------------------------- character references */

/* 13.2.5.72-80: the errors of the reference at p ('&'); in_attribute: the
 * historical rule that leaves "&not=" and "&notx" in a value as they are */
static void reference_errors(scan *s, const uint8_t *p, const uint8_t *end, int in_attribute)
{
    const uint8_t *q = p + 1;
    if (q >= end)
        return;
    if (*q == '#') {
        const uint8_t *digits;
        uint32_t v;
        q = fp_entity_digits(p, end, &digits, &v);
        if (q == digits) {
            report(s, FP_ERR_ABSENCE_OF_DIGITS_IN_NUMERIC_CHARACTER_REFERENCE, p);
            return;
        }
        if (q >= end || *q != ';')
            report(s, FP_ERR_MISSING_SEMICOLON_AFTER_CHARACTER_REFERENCE, p);
        if (v == 0)
            report(s, FP_ERR_NULL_CHARACTER_REFERENCE, p);
        else if (v > 0x10FFFF)
            report(s, FP_ERR_CHARACTER_REFERENCE_OUTSIDE_UNICODE_RANGE, p);
        else if (v >= 0xD800 && v <= 0xDFFF)
            report(s, FP_ERR_SURROGATE_CHARACTER_REFERENCE, p);
        else if (is_noncharacter(v))
            report(s, FP_ERR_NONCHARACTER_CHARACTER_REFERENCE, p);
        else if (v == '\r' || is_control(v))
            report(s, FP_ERR_CONTROL_CHARACTER_REFERENCE, p);
        return;
    }
    if (!is_alnum(*q))
        return;   /* '&' is text */
    uint32_t cp[2];
    int ncp;
    size_t used = fp_entity_decode(p, end, 0, cp, &ncp);
    if (used) {
        if (p[used - 1] == ';')
            return;
        if (in_attribute && p + used < end && (p[used] == '=' || is_alnum(p[used])))
            return;   /* flushed as text, no error */
        report(s, FP_ERR_MISSING_SEMICOLON_AFTER_CHARACTER_REFERENCE, p);
        return;
    }
    /* ambiguous ampersand state: alphanumerics, then ';' makes the error */
    while (q < end && is_alnum(*q))
        q++;
    if (q < end && *q == ';')
        report(s, FP_ERR_UNKNOWN_NAMED_CHARACTER_REFERENCE, p);
}

static void references_in(scan *s, const uint8_t *p, const uint8_t *end, int in_attribute)
{
    while (p < end && (p = memchr(p, '&', (size_t)(end - p))) != NULL)
        reference_errors(s, p++, end, in_attribute);
}

/* ---------------------------------------------------------------- tags */

static uint32_t name_hash(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t k = 0; k < n; k++)
        h = (h ^ fp_lower(p[k])) * 16777619u;
    return h;
}

/* attribute names compare as the tokenizer makes them: ASCII lower-cased, but
 * for the second bytes of double-byte characters (fp_name_fold) */
static int same_name(int dbcs, const uint8_t *a, const uint8_t *b, size_t n)
{
    int second_a = 0, second_b = 0;
    for (size_t k = 0; k < n; k++) {
        if ((second_a ? a[k] : fp_lower(a[k])) != (second_b ? b[k] : fp_lower(b[k])))
            return 0;
        second_a = dbcs && !second_a && k + 1 < n && fp_name_pairs(dbcs, a[k], a[k + 1]);
        second_b = dbcs && !second_b && k + 1 < n && fp_name_pairs(dbcs, b[k], b[k + 1]);
    }
    return 1;
}

#define FEW_NAMES 16

static int is_name_k(const scan *s, uint32_t k, uint32_t h, const uint8_t *name, size_t len)
{
    return s->names[k].hash == h && s->names[k].len == len &&
           same_name(s->doc->opts.dbcs, s->names[k].name, name, len);
}

/* Puts name k in the table (which has room), or finds an equal one there: 1. */
static int slot_put(scan *s, uint32_t k)
{
    uint32_t mask = s->nslots - 1;
    for (uint32_t i = s->names[k].hash & mask;; i = (i + 1) & mask) {
        if (!s->slots[i]) {
            s->slots[i] = k + 1;
            s->names[k].slot = i;
            return 0;
        }
        if (is_name_k(s, s->slots[i] - 1, s->names[k].hash, s->names[k].name, s->names[k].len))
            return 1;
    }
}

/* Names 0 .. nnames - 1 into an empty table of n slots (the one there, if
 * it has n: a tag that passes FEW_NAMES reuses the last such tag's, cleared
 * by forget_names); -1 when out of memory. */
static int fill_slots(scan *s, uint32_t n)
{
    if (n != s->nslots) {
        uint32_t *slots = calloc(n, sizeof *slots);
        if (!slots)
            return -1;
        free(s->slots);
        s->slots = slots;
        s->nslots = n;
    }
    for (uint32_t k = 0; k < s->nnames; k++)
        slot_put(s, k);
    return 0;
}

/* "When the user agent leaves the attribute name state": a name the tag
 * already has is a duplicate-attribute error. A few names are compared one by
 * one; a tag with more is searched through a hash table, so that a tag of
 * 100,000 attributes is not a quadratic search. */
static void attribute_name(scan *s, const uint8_t *name, size_t len)
{
    uint32_t h = name_hash(name, len);
    if (s->nnames <= FEW_NAMES) {
        for (uint32_t k = 0; k < s->nnames; k++)
            if (is_name_k(s, k, h, name, len)) {
                report(s, FP_ERR_DUPLICATE_ATTRIBUTE, name);
                return;
            }
    }
    if (s->nnames == s->names_cap) {
        void *more = grown(s, s->names, &s->names_cap, sizeof *s->names, 16);
        if (!more)
            return;
        s->names = more;
    }
    s->names[s->nnames].hash = h;
    s->names[s->nnames].name = name;
    s->names[s->nnames].len = (uint32_t)len;
    if (s->nnames < FEW_NAMES) {
        s->nnames++;
        return;
    }
    /* a table at least four times FEW_NAMES, kept under half full */
    if ((s->nnames == FEW_NAMES && fill_slots(s, s->nslots ? s->nslots : 4 * FEW_NAMES) < 0) ||
        (2 * s->nnames >= s->nslots && fill_slots(s, 2 * s->nslots) < 0)) {
        s->failed = 1;
        return;
    }
    if (slot_put(s, s->nnames))
        report(s, FP_ERR_DUPLICATE_ATTRIBUTE, name);
    else
        s->nnames++;
}

/* a new tag: no names, and an empty table if the last one used it (its
 * slots cleared one by one: the table may be a much larger tag's) */
static void forget_names(scan *s)
{
    if (s->nnames > FEW_NAMES)
        for (uint32_t k = 0; k < s->nnames; k++)
            s->slots[s->names[k].slot] = 0;
    s->nnames = 0;
}

/* 13.2.5.8 tag name state through 13.2.5.40 self-closing start tag state, from
 * the tag's name (p) to its '>' (stop: where the parse's tokenizer ended it,
 * past the '>', or the end of input) */
static void tag_errors(scan *s, const uint8_t *p, const uint8_t *stop)
{
    forget_names(s);
    while (p < stop && !(fp_cc[*p] & FP_CC_TAG_STOP))
        p++;
    for (;;) {
        /* before attribute name state */
        p = skip_ws(p, stop);
        if (p >= stop || *p == '>')
            return;
        if (*p == '/') {   /* self-closing start tag state */
            p++;
            if (p < stop && *p != '>')
                report(s, FP_ERR_UNEXPECTED_SOLIDUS_IN_TAG, p - 1);
            continue;
        }
        /* attribute name state; a leading '=' is part of the name */
        const uint8_t *name = p;
        if (*p == '=')
            report(s, FP_ERR_UNEXPECTED_EQUALS_SIGN_BEFORE_ATTRIBUTE_NAME, p);
        for (; p < stop && (p == name || !(fp_cc[*p] & FP_CC_NAME_STOP)); p++)
            if (*p == '"' || *p == '\'' || *p == '<')
                report(s, FP_ERR_UNEXPECTED_CHARACTER_IN_ATTRIBUTE_NAME, p);
        attribute_name(s, name, (size_t)(p - name));
        /* after attribute name state */
        p = skip_ws(p, stop);
        if (p >= stop || *p != '=')
            continue;   /* '/', '>' or the next name */
        /* before attribute value state */
        p++;
        p = skip_ws(p, stop);
        if (p >= stop)
            return;
        if (*p == '>') {
            report(s, FP_ERR_MISSING_ATTRIBUTE_VALUE, p);
            return;
        }
        if (*p == '"' || *p == '\'') {
            const uint8_t *close = memchr(p + 1, *p, (size_t)(stop - p - 1));
            references_in(s, p + 1, close ? close : stop, 1);
            if (!close)
                return;   /* eof-in-tag: the parse reported it */
            p = close + 1;
            /* after attribute value (quoted) state */
            if (p < stop && !fp_is_ws(*p) && *p != '/' && *p != '>')
                report(s, FP_ERR_MISSING_WHITESPACE_BETWEEN_ATTRIBUTES, p);
            continue;
        }
        const uint8_t *value = p;   /* unquoted */
        while (p < stop && !(fp_cc[*p] & FP_CC_UNQ_STOP)) {
            if (*p == '"' || *p == '\'' || *p == '<' || *p == '=' || *p == '`')
                report(s, FP_ERR_UNEXPECTED_CHARACTER_IN_UNQUOTED_ATTRIBUTE_VALUE, p);
            p++;
        }
        references_in(s, value, p, 1);
    }
}

/* ---------------------------------------------------------------- comments and doctypes */

/* 13.2.5.43-52 from the comment's data (c, after "<!--") to stop (past its
 * '>' or the end of input): nested-comment, incorrectly-closed-comment. The
 * abrupt and unclosed ones the parse reports. */
static void comment_errors(scan *s, const uint8_t *c, const uint8_t *stop)
{
    const uint8_t *p = c;
    if (p < stop && *p == '>')
        return;   /* <!--> */
    if (p + 1 < stop && p[0] == '-' && p[1] == '>')
        return;   /* <!---> */
    for (; p < stop; p++) {
        if (p[0] == '<' && stop - p >= 4 && p[1] == '!' && p[2] == '-' && p[3] == '-') {
            /* comment less-than sign bang dash dash state: not followed by '>' or EOF */
            if (stop - p > 4 && p[4] != '>')
                report(s, FP_ERR_NESTED_COMMENT, p);
            continue;
        }
        if (p[0] == '-' && stop - p >= 4 && p[1] == '-' && p[2] == '!' && p[3] == '>') {
            report(s, FP_ERR_INCORRECTLY_CLOSED_COMMENT, p);
            return;
        }
    }
}

static int starts_ci(const uint8_t *p, const uint8_t *stop, const char *word)
{
    return fp_starts_with_ci(p, (size_t)(stop - p), word);
}

/* A quoted identifier from p (at its quote): past the closing quote, or NULL
 * after reporting what ended it ('>', the end of input) */
static const uint8_t *identifier(scan *s, const uint8_t *p, const uint8_t *stop, int abrupt)
{
    uint8_t q = *p++;
    for (; p < stop; p++) {
        if (*p == q)
            return p + 1;
        if (*p == '>') {
            report(s, abrupt, p);
            return NULL;
        }
    }
    report(s, FP_ERR_EOF_IN_DOCTYPE, stop);
    return NULL;
}

/* 13.2.5.53-68 from just after "<!DOCTYPE" to stop (past the '>' that ends
 * every doctype, or the end of input). The end of input is an error in every
 * state but the bogus doctype state. */
static void doctype_errors(scan *s, const uint8_t *p, const uint8_t *stop)
{
    const uint8_t *end = stop > p && stop[-1] == '>' ? stop - 1 : stop;   /* the '>' */
    int closed = end < stop;
#define EOF_HERE() do { if (!closed) report(s, FP_ERR_EOF_IN_DOCTYPE, end); return; } while (0)
    if (p >= end) {
        if (closed)
            report(s, FP_ERR_MISSING_DOCTYPE_NAME, end);
        EOF_HERE();
    }
    if (!fp_is_ws(*p))
        report(s, FP_ERR_MISSING_WHITESPACE_BEFORE_DOCTYPE_NAME, p);
    p = skip_ws(p, end);
    if (p >= end) {
        if (closed)
            report(s, FP_ERR_MISSING_DOCTYPE_NAME, end);
        EOF_HERE();
    }
    while (p < end && !fp_is_ws(*p))   /* DOCTYPE name state */
        p++;
    p = skip_ws(p, end);            /* after DOCTYPE name state */
    if (p >= end)
        EOF_HERE();
    int public = starts_ci(p, end, "public");
    if (!public && !starts_ci(p, end, "system")) {
        report(s, FP_ERR_INVALID_CHARACTER_SEQUENCE_AFTER_DOCTYPE_NAME, p);
        return;   /* bogus DOCTYPE state */
    }
    p += 6;
    for (int id = public ? 0 : 1; id < 2; id++) {   /* 0: public identifier, 1: system */
        int keyword = id == 0 || !public;   /* right after PUBLIC or SYSTEM */
        const uint8_t *at = p;
        p = skip_ws(p, end);
        if (p >= end) {
            if (closed && keyword)
                report(s, id ? FP_ERR_MISSING_DOCTYPE_SYSTEM_IDENTIFIER
                             : FP_ERR_MISSING_DOCTYPE_PUBLIC_IDENTIFIER, end);
            EOF_HERE();
        }
        if (*p != '"' && *p != '\'') {
            report(s, id ? FP_ERR_MISSING_QUOTE_BEFORE_DOCTYPE_SYSTEM_IDENTIFIER
                         : FP_ERR_MISSING_QUOTE_BEFORE_DOCTYPE_PUBLIC_IDENTIFIER, p);
            return;   /* bogus */
        }
        if (p == at)
            report(s, !keyword ? FP_ERR_MISSING_WHITESPACE_BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDENTIFIERS
                      : id ? FP_ERR_MISSING_WHITESPACE_AFTER_DOCTYPE_SYSTEM_KEYWORD
                           : FP_ERR_MISSING_WHITESPACE_AFTER_DOCTYPE_PUBLIC_KEYWORD, p);
        /* stop, not end: the '>' ends an identifier abruptly */
        p = identifier(s, p, stop, id ? FP_ERR_ABRUPT_DOCTYPE_SYSTEM_IDENTIFIER
                                      : FP_ERR_ABRUPT_DOCTYPE_PUBLIC_IDENTIFIER);
        if (!p)
            return;
        if (id == 0) {   /* after the public identifier: '>' or a system identifier */
            if (skip_ws(p, end) >= end)
                EOF_HERE();
        }
    }
    p = skip_ws(p, end);   /* after DOCTYPE system identifier state */
    if (p < end)
        report(s, FP_ERR_UNEXPECTED_CHARACTER_AFTER_DOCTYPE_SYSTEM_IDENTIFIER, p);
    else
        EOF_HERE();
#undef EOF_HERE
}

/* ---------------------------------------------------------------- the walk */

/* Whether the parse made "<![CDATA[" at lt a bogus comment (HTML content)
 * rather than a CDATA section (foreign content): it recorded a comment there. */
static int comment_at(scan *s, const uint8_t *lt)
{
    uint32_t at = (uint32_t)(lt - s->buf);
    while (s->com < s->doc->ncomments && s->doc->comments[s->com].start < at)
        s->com++;
    return s->com < s->doc->ncomments && s->doc->comments[s->com].start == at;
}

/* The element the start tag [lt, gt) made, if its content is raw text: the
 * parse's tokenizer went to that element's state after the tag. */
static const fp_elem *raw_text_element(scan *s, const uint8_t *lt, const uint8_t *gt)
{
    uint32_t at = (uint32_t)(lt - s->buf);
    const fp_doc *d = s->doc;
    while (s->el < d->n && d->elems[s->el].start < at)
        s->el++;
    if (s->el < d->n && d->elems[s->el].start == at && (d->elems[s->el].flags & FP_EF_RAWTEXT) &&
        d->elems[s->el].inner_start == (uint32_t)(gt - s->buf))
        return &d->elems[s->el];
    return NULL;
}

static void add_cdata(scan *s, const uint8_t *from, const uint8_t *to)
{
    if (s->ncdata == s->cdata_cap) {
        void *more = grown(s, s->cdata, &s->cdata_cap, sizeof *s->cdata, 4);
        if (!more)
            return;
        s->cdata = more;
    }
    s->cdata[s->ncdata].from = (uint32_t)(from - s->buf);
    s->cdata[s->ncdata].to = (uint32_t)(to - s->buf);
    s->ncdata++;
}

static void walk(scan *s)
{
    const uint8_t *p = s->buf, *end = s->end;
    const fp_options *o = &s->doc->opts;
    if (o->context && fp_context_is_text(o->context, o->scripting)) {
        if (fp_tag_flags(o->context & FP_CTX_TAG_MASK) & FP_TF_RCDATA)
            references_in(s, p, end, 0);
        return;
    }
    while (p < end && !s->failed) {
        const uint8_t *lt = memchr(p, '<', (size_t)(end - p));
        references_in(s, p, lt ? lt : end, 0);
        if (!lt || lt + 1 >= end)
            return;
        uint8_t c = lt[1];
        if (fp_is_alpha(c)) {
            fp_tag_token t;
            const uint8_t *gt = fp_tok_tag(lt + 1, end, &t);
            tag_errors(s, lt + 1, gt ? gt : end);
            if (!gt)
                return;
            const fp_elem *raw = raw_text_element(s, lt, gt);
            p = gt;
            if (raw) {
                const uint8_t *close = s->buf + raw->inner_end;
                if (raw->flags & FP_EF_RCDATA)
                    references_in(s, gt, close, 0);
                p = close > gt ? close : gt;
            }
        } else if (c == '/') {
            if (lt + 2 >= end)
                return;
            if (fp_is_alpha(lt[2])) {
                fp_tag_token t;
                const uint8_t *gt = fp_tok_tag(lt + 2, end, &t);
                tag_errors(s, lt + 2, gt ? gt : end);
                p = gt ? gt : end;
            } else {
                p = lt[2] == '>' ? lt + 3 : fp_tok_gt_end(lt + 2, end);
            }
        } else if (c == '!') {
            int kind;
            const uint8_t *content, *content_end;
            int cdata_ok = fp_tok_cdata_open(lt, end) && !comment_at(s, lt);
            p = fp_tok_markup(lt, end, cdata_ok, s->doc->opts.dbcs, &kind, &content, &content_end);
            if (kind == FP_MARKUP_COMMENT)
                comment_errors(s, content, p);
            else if (kind == FP_MARKUP_DOCTYPE)
                doctype_errors(s, content, p);
            else if (kind == FP_MARKUP_CDATA)
                add_cdata(s, content, p);
        } else if (c == '?') {
            p = fp_tok_gt_end(lt + 2, end);
        } else {
            p = lt + 1;
        }
    }
}

/* 13.2.3.5: what the input stream holds, in every state: NULs (but in a CDATA
 * section), control characters, noncharacters. A legacy document's bytes are
 * read as ASCII: its encoding's other characters are not looked at. */
static void stream_errors(scan *s, int utf8)
{
    const uint8_t *p = s->buf, *end = s->end;
    uint32_t k = 0;   /* the next CDATA section */
    for (; p < end; p++) {
#if defined(__SSE2__)
        /* printable ASCII, most of a page, 16 bytes at a time (as signed bytes,
         * 0x80 and above are below 0x20) */
        while (end - p >= 16) {
            __m128i v = _mm_loadu_si128((const __m128i *)p);
            __m128i odd = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                                       _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
            unsigned m = (unsigned)_mm_movemask_epi8(odd);
            if (m) {
                p += __builtin_ctz(m);
                break;
            }
            p += 16;
        }
        if (p >= end)
            break;
#endif
        uint8_t b = *p;
        if (b >= 0x20 && b < 0x7F)
            continue;
        if (b == 0) {
            uint32_t at = (uint32_t)(p - s->buf);
            while (k < s->ncdata && s->cdata[k].to <= at)
                k++;
            if (!(k < s->ncdata && s->cdata[k].from <= at))
                report(s, FP_ERR_UNEXPECTED_NULL_CHARACTER, p);
            continue;
        }
        if (b < 0x80) {
            if (is_control(b))
                report(s, FP_ERR_CONTROL_CHARACTER_IN_INPUT_STREAM, p);
            continue;
        }
        /* a valid sequence's code point; an invalid byte is a decoding error, not a parse error */
        uint32_t v;
        size_t n = utf8 ? fp_utf8_decode(p, end, &v) : 0;
        if (!n)
            continue;
        if (is_control(v))
            report(s, FP_ERR_CONTROL_CHARACTER_IN_INPUT_STREAM, p);
        else if (is_noncharacter(v))
            report(s, FP_ERR_NONCHARACTER_IN_INPUT_STREAM, p);
        p += n - 1;
    }
}

/* A stable merge sort by offset (tmp: room for n): errors at one offset keep
 * the order they were found in, the parse's before the scan's. */
static void sort_by_offset(fp_error *e, fp_error *tmp, uint32_t n)
{
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid || j < hi)
                tmp[k++] = j >= hi || (i < mid && e[i].offset <= e[j].offset) ? e[i++] : e[j++];
        }
        memcpy(e, tmp, n * sizeof *e);
    }
}

int fp_doc_all_errors(const fp_doc *doc, fp_error **out, uint32_t *count)
{
    scan s = {0};
    s.doc = doc;
    s.buf = doc->buf;
    s.end = doc->buf + doc->len;
    walk(&s);
    stream_errors(&s, !doc->opts.legacy);
    free(s.cdata);
    free(s.names);
    free(s.slots);
    uint32_t n = doc->nerrors + s.n;
    fp_error *all = malloc(((size_t)n + 1) * sizeof *all), *tmp = malloc(((size_t)n + 1) * sizeof *tmp);
    if (!all || !tmp || s.failed) {
        free(all);
        free(tmp);
        free(s.out);
        return -1;
    }
    if (doc->nerrors)
        memcpy(all, doc->errors, doc->nerrors * sizeof *all);
    if (s.n)
        memcpy(all + doc->nerrors, s.out, s.n * sizeof *all);
    sort_by_offset(all, tmp, n);
    free(tmp);
    free(s.out);
    *out = all;
    *count = n;
    return 0;
}
