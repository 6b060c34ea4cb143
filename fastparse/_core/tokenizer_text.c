/* tokenizer_text.c — where RAWTEXT, RCDATA and script data end (HTML Standard
 * 13.2.5.2–13.2.5.31). Only "an appropriate end tag" ends them: "</" + the
 * element's name (any case) + whitespace, '/' or '>'. Script data also has
 * the escaped and double-escaped states entered by "<!--" and "<script". */
#include <string.h>

#include "internal.h"

/* "name" (lower-case) at p, case-insensitively, followed by ws / or >. */
static int
name_then_delim(const uint8_t *p, const uint8_t *end, const uint8_t *name, size_t n)
{
    if ((size_t)(end - p) <= n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (fp_lower(p[i]) != name[i])
            return 0;
    return (fp_cc[p[n]] & FP_CC_TAG_STOP) != 0;
}

const uint8_t *
fp_tok_rawtext_end(const uint8_t *p, const uint8_t *end, const uint8_t *name, size_t n)
{
    while ((p = fp_scan_lt(p, end)) < end) {
        if (p + 1 < end && p[1] == '/' && name_then_delim(p + 2, end, name, n))
            return p;
        p++;
    }
    return end;
}

static const uint8_t SCRIPT[] = "script";

/* 13.2.5.4 Script data state and its escaped / double escaped sub-states. */
const uint8_t *
fp_tok_script_end(const uint8_t *p, const uint8_t *end, int *escaped)
{
    enum { DATA, ESCAPED, DOUBLE } state = DATA;
    *escaped = 0;
    for (;;) {
        if (state == DATA) {
            p = fp_scan_lt(p, end);
            if (p >= end)
                return end;
            if (p + 1 < end && p[1] == '/' && name_then_delim(p + 2, end, SCRIPT, 6))
                return p;
            /* script data escape start: "<!--" enters the escaped states; the
             * dashes also count towards a closing "-->" ("<!-->" ends at once) */
            if (end - p >= 4 && p[1] == '!' && p[2] == '-' && p[3] == '-') {
                p += 4;
                while (p < end && *p == '-')
                    p++;
                if (p < end && *p == '>')
                    p++;
                else
                    state = ESCAPED;
                continue;
            }
            p++;
            continue;
        }
        /* escaped / double escaped: look for '-' (a possible "-->") and '<';
         * a script inside "<!--" is often all of a page's inline code */
        p = fp_scan_either(p, end, '-', '<');
        if (p >= end) {
            *escaped = 1;   /* EOF in the escaped states: eof-in-script-html-comment-like-text */
            return end;
        }
        if (*p == '-') {
            if (p + 1 < end && p[1] == '-') {
                const uint8_t *q = p + 2;
                while (q < end && *q == '-')
                    q++;
                if (q < end && *q == '>') {     /* "-->": back to script data */
                    state = DATA;
                    p = q + 1;
                    continue;
                }
                p = q;
                continue;
            }
            p++;
            continue;
        }
        /* U+003C LESS-THAN SIGN (<) */
        if (state == ESCAPED) {
            if (p + 1 < end && p[1] == '/' && name_then_delim(p + 2, end, SCRIPT, 6))
                return p;
            if (name_then_delim(p + 1, end, SCRIPT, 6)) {
                state = DOUBLE;
                p += 7;
                continue;
            }
        } else if (p + 1 < end && p[1] == '/' && name_then_delim(p + 2, end, SCRIPT, 6)) {
            state = ESCAPED;               /* double escape end */
            p += 8;
            continue;
        }
        p++;
    }
}
