/* tokenizer_markup.c — where comments, doctypes, bogus comments, CDATA
 * sections and processing instructions end (HTML Standard 13.2.5.41–13.2.5.76),
 * and where their data lies (doc.comments, doc.doctype,
 * doc.processing_instructions). They create no elements. */
#include <string.h>

#include "internal.h"

/* 13.2.5.43 Comment start state onwards; p is just after "<!--". Covers the
 * abrupt "<!-->" and "<!--->", "--!>" and unclosed comments (EOF). */
const uint8_t *
fp_tok_comment_end(const uint8_t *p, const uint8_t *end)
{
    if (p < end && *p == '>')                      /* <!--> */
        return p + 1;
    if (p + 1 < end && p[0] == '-' && p[1] == '>') /* <!---> */
        return p + 2;
    for (;;) {
        const uint8_t *dash = memchr(p, '-', (size_t)(end - p));
        if (!dash || dash + 1 >= end)
            return end;
        if (dash[1] != '-') {
            p = dash + 1;
            continue;
        }
        const uint8_t *q = dash + 2;               /* comment end state */
        while (q < end && *q == '-')
            q++;
        if (q < end && *q == '>')
            return q + 1;
        if (q + 1 < end && q[0] == '!' && q[1] == '>')  /* comment end bang state */
            return q + 2;
        p = q;
    }
}

/* Whether a comment whose content starts at c (after "<!--") and whose
 * construct ends at p was closed: "<!-->", "<!--->", "...-->" or "...--!>". */
int
fp_tok_comment_closed(const uint8_t *c, const uint8_t *p)
{
    size_t n = (size_t)(p - c);
    if (n == 0 || p[-1] != '>')
        return 0;
    if (n == 1 || (n == 2 && c[0] == '-'))
        return 1;
    if (n >= 3 && p[-2] == '-' && p[-3] == '-')
        return 1;
    return n >= 4 && p[-2] == '!' && p[-3] == '-' && p[-4] == '-';
}

/* Where a comment's data ends; c is just after "<!--", p just after the
 * comment. Closed: before "-->" or "--!>" ("<!-->" and "<!--->" are empty).
 * Cut by the end of input: the dashes (and "--!") the tokenizer held back
 * waiting for the '>' are not data (comment end dash / end / end bang states). */
static const uint8_t *
comment_data_end(const uint8_t *c, const uint8_t *p)
{
    size_t n = (size_t)(p - c);
    if (fp_tok_comment_closed(c, p))
        return n == 1 || (n == 2 && c[0] == '-') ? c : p - (p[-2] == '!' ? 4 : 3);
    if (n >= 3 && p[-1] == '!' && p[-2] == '-' && p[-3] == '-')
        return p - 3;
    if (n >= 2 && p[-1] == '-' && p[-2] == '-')
        return p - 2;
    return n >= 1 && p[-1] == '-' ? p - 1 : p;
}

/* Doctype and bogus comment states: the first U+003E (>) ends them. */
const uint8_t *
fp_tok_gt_end(const uint8_t *p, const uint8_t *end)
{
    const uint8_t *gt = memchr(p, '>', (size_t)(end - p));
    return gt ? gt + 1 : end;
}

/* Whether the "]" at b is the second byte of a double-byte character, as a
 * browser that decodes before it tokenizes reads it. *from is a character
 * boundary before b (the walk goes on from there) and is left at the next one. */
static int
bracket_is_second_byte(int dbcs, const uint8_t **from, const uint8_t *b)
{
    const uint8_t *q = *from;
    while (q < b)
        q += fp_dbcs_lead(dbcs, *q) ? 2 : 1;
    int second = q > b && fp_dbcs_takes_bracket(dbcs, b[-1]);
    *from = second ? b + 1 : b;
    return second;
}

/* 13.2.5.69 CDATA section state: ends at "]]>" (the byte after it; NULL when
 * the input ends first). In Shift_JIS and GBK a "]" may be the second byte of
 * a character, which is not there. */
const uint8_t *
fp_tok_cdata_end(const uint8_t *p, const uint8_t *end, int dbcs)
{
    const uint8_t *from = p;   /* "<![CDATA[" ends a character */
    while (p + 2 < end) {
        const uint8_t *b = memchr(p, ']', (size_t)(end - p - 2));
        if (!b)
            break;
        if (b[1] == ']' && b[2] == '>' && !(dbcs && bracket_is_second_byte(dbcs, &from, b)))
            return b + 3;
        p = b + 1;
    }
    return NULL;
}

/* 13.2.5.42 Markup declaration open state; p[0..1] == "<!". */
const uint8_t *
fp_tok_markup(const uint8_t *p, const uint8_t *end, int cdata_ok, int dbcs, int *kind,
              const uint8_t **content, const uint8_t **content_end)
{
    const uint8_t *q = p + 2, *stop;
    if (end - q >= 2 && q[0] == '-' && q[1] == '-') {
        *kind = FP_MARKUP_COMMENT;
        *content = q + 2;
        stop = fp_tok_comment_end(q + 2, end);
        *content_end = comment_data_end(*content, stop);
        return stop;
    }
    if (fp_starts_with_ci(q, (size_t)(end - q), "doctype")) {
        *kind = FP_MARKUP_DOCTYPE;
        *content = q + 7;
        stop = fp_tok_gt_end(q + 7, end);
        *content_end = stop > *content && stop[-1] == '>' ? stop - 1 : stop;
        return stop;
    }
    if (cdata_ok && fp_tok_cdata_open(p, end)) {
        *kind = FP_MARKUP_CDATA;
        *content = q + 7;
        stop = fp_tok_cdata_end(q + 7, end, dbcs);
        /* "]]>" ends it; at EOF without one, every byte read is content */
        *content_end = stop ? stop - 3 : end;
        return stop ? stop : end;
    }
    *kind = FP_MARKUP_BOGUS;  /* incorrectly-opened-comment */
    *content = q;
    stop = fp_tok_gt_end(q, end);
    *content_end = stop > q && stop[-1] == '>' ? stop - 1 : stop;
    return stop;
}

/* A processing instruction target's byte: ASCII alphanumeric, '-' or '_'. */
static inline int
pi_target_byte(uint8_t c)
{
    return fp_is_alpha(c) || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

const uint8_t *
fp_tok_pi(const uint8_t *lt, const uint8_t *end, int *kind, int *error, fp_pi_token *pi)
{
    const uint8_t *q = lt + 2;
    *error = -1;
    pi->error_at = q;
    if (q < end && !fp_is_alpha(*q) && *q != '_') {   /* open state: anything else */
        *kind = FP_PI_BOGUS;
        *error = FP_ERR_INVALID_FIRST_CHARACTER_OF_PROCESSING_INSTRUCTION_TARGET;
        return fp_tok_gt_end(q, end);
    }
    pi->target = q;
    while (q < end && pi_target_byte(*q))             /* target state */
        q++;
    pi->target_end = q;
    if (q < end && !fp_is_ws(*q) && *q != '?' && *q != '>') {
        *kind = FP_PI_BOGUS;   /* the target so far, '?' first, becomes a bogus comment's data */
        *error = FP_ERR_INVALID_PROCESSING_INSTRUCTION_TARGET;
        pi->error_at = q;
        return fp_tok_gt_end(q, end);
    }
    size_t n = (size_t)(q - pi->target);
    if (q < end && (fp_equals_ci(pi->target, n, "xml") || fp_equals_ci(pi->target, n, "xml-stylesheet"))) {
        *kind = FP_PI_BOGUS;   /* <?xml ...?> is no processing instruction in HTML */
        *error = FP_ERR_DISALLOWED_PROCESSING_INSTRUCTION_TARGET;
        pi->error_at = q;
        return fp_tok_gt_end(q, end);
    }
    while (q < end && fp_is_ws(*q))                   /* after target state */
        q++;
    pi->data = q;
    const uint8_t *gt = q < end ? memchr(q, '>', (size_t)(end - q)) : NULL;
    if (!gt) {                                        /* EOF in any state: no token */
        *kind = FP_PI_NOTHING;
        *error = FP_ERR_EOF_IN_PROCESSING_INSTRUCTION;
        pi->error_at = end;
        return end;
    }
    /* data state: a '?' right before the '>' closes the instruction (questionable state) */
    pi->data_end = gt > q && gt[-1] == '?' ? gt - 1 : gt;
    *kind = FP_PI_INSTRUCTION;
    return gt + 1;
}
