/* internal.h — declarations shared by the engine's files and nobody else:
 * character classes, the tokenizer's scanning functions, tag lookup while
 * scanning, the error codes. The binding must use fp.h only. */
#ifndef FP_INTERNAL_H
#define FP_INTERNAL_H

#include "fp.h"
#include "tags_gen.h"

/* ---- character classes (tokenizer_tag.c) ---- */
enum {
    FP_CC_WS = 1,          /* U+0009 TAB, U+000A LF, U+000C FF, U+000D CR, U+0020 SPACE */
    FP_CC_NAME_STOP = 2,   /* ends an attribute name: ws / > = */
    FP_CC_UNQ_STOP = 4,    /* ends an unquoted attribute value: ws > */
    FP_CC_TAG_STOP = 8,    /* ends a tag name: ws / > */
    FP_CC_ALPHA = 16,      /* ASCII letter */
};
extern const uint8_t fp_cc[256];

static inline int fp_is_ws(uint8_t c) { return fp_cc[c] & FP_CC_WS; }
static inline int fp_is_alpha(uint8_t c) { return fp_cc[c] & FP_CC_ALPHA; }
static inline uint8_t fp_lower(uint8_t c) { return (uint8_t)(c >= 'A' && c <= 'Z' ? c + 32 : c); }

/* p[0 .. len) is lower[0 .. len), ASCII case ignored in p (lower is lower-case) */
static inline int
fp_lower_eq(const uint8_t *p, const uint8_t *lower, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (fp_lower(p[i]) != lower[i])
            return 0;
    return 1;
}

/* p[0 .. n) begins with / is the lower-case literal `lower`, ASCII case ignored */
static inline int
fp_starts_with_ci(const uint8_t *p, size_t n, const char *lower)
{
    size_t len = __builtin_strlen(lower);
    return n >= len && fp_lower_eq(p, (const uint8_t *)lower, len);
}

static inline int
fp_equals_ci(const uint8_t *p, size_t n, const char *lower)
{
    return n == __builtin_strlen(lower) && fp_starts_with_ci(p, n, lower);
}

/* First byte c in [p, end), or NULL. Most searches end within a few bytes
 * (a class value, the gap between tags), so two inline 16-byte probes come
 * before the call to the vectorised memchr: on real pages 75% of the text
 * between tags and 59% of quoted values end in the first 16 bytes, 10% and
 * 20% more in the next 16 (a third probe measured no better). */
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <string.h>
static inline const uint8_t *
fp_find_byte(const uint8_t *p, const uint8_t *end, uint8_t c)
{
#if defined(__SSE2__)
    for (int k = 0; k < 2 && end - p >= 16; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)p);
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8((char)c)));
        if (m)
            return p + __builtin_ctz(m);
        p += 16;
    }
#endif
    return memchr(p, c, (size_t)(end - p));
}

/* ---- parse.c ---- */
/* A fragment context's namespace (FP_EF_SVG, FP_EF_MATHML or 0) and whether
 * it is an integration point (FP_EF_HTML_IP, FP_EF_TEXT_IP or 0). */
void fp_context_ns(uint16_t context, uint8_t *ns, uint8_t *ip);
/* Whether a fragment context makes the whole input its text: an HTML raw-text
 * or RCDATA element (noscript when scripting), which no end tag can close.
 * An SVG <title> or <style> is not one: its content is markup. */
int fp_context_is_text(uint16_t context, int scripting);

/* ---- tokenizer_tag.c ---- */
typedef struct {
    const uint8_t *name;   /* raw name bytes (mixed case) */
    size_t name_len;
    int tag;               /* known id, or 0 when the name must be interned */
    int self_closing;      /* closed by "/>" */
    uint16_t attr_bits;    /* fp_attr_bit of each attribute name, OR-ed: 0 without attributes */
} fp_tag_token;

/* Scans a tag whose name starts at p (just after "<" or "</") through its
 * closing '>'. Returns the byte after '>', or NULL when input ends inside the
 * tag (the HTML tokenizer then drops the tag: eof-in-tag). */
const uint8_t *fp_tok_tag(const uint8_t *p, const uint8_t *end, fp_tag_token *t);

typedef struct {
    const uint8_t *name, *value;
    size_t name_len, value_len;
    int has_value;
} fp_raw_attr;
/* One step of the attribute states: 1 = an attribute, 0 = '>' reached
 * (*pp after it), -1 = end of input inside the tag. */
int fp_tok_attr(const uint8_t **pp, const uint8_t *end, fp_raw_attr *a, int *self_closing);

/* ---- tokenizer_markup.c: where markup declarations end (offset after them) ---- */
const uint8_t *fp_tok_comment_end(const uint8_t *p, const uint8_t *end);  /* p after "<!--" */
/* whether the comment whose data starts at c (after "<!--") and which ends at p was closed */
int fp_tok_comment_closed(const uint8_t *c, const uint8_t *p);
const uint8_t *fp_tok_gt_end(const uint8_t *p, const uint8_t *end);       /* doctype, bogus comment */
/* p after "<![CDATA["; after its "]]>", NULL at EOF; dbcs (fp_options.dbcs): a "]" that is
 * a character's second byte ends nothing */
const uint8_t *fp_tok_cdata_end(const uint8_t *p, const uint8_t *end, int dbcs);
/* "<![CDATA[" at lt: a CDATA section where the adjusted current node is
 * foreign, else a bogus comment with an error code of its own */
static inline int
fp_tok_cdata_open(const uint8_t *lt, const uint8_t *end)
{
    return end - lt >= 9 && memcmp(lt + 2, "[CDATA[", 7) == 0;
}
/* Classifies "<!..." at p (p[0] == '<', p[1] == '!') and returns the end of the
 * construct; *kind gets FP_MARKUP_*. cdata_ok: the adjusted current node is foreign;
 * dbcs: the document's fp_options.dbcs. */
enum { FP_MARKUP_COMMENT, FP_MARKUP_DOCTYPE, FP_MARKUP_BOGUS, FP_MARKUP_CDATA };
const uint8_t *fp_tok_markup(const uint8_t *p, const uint8_t *end, int cdata_ok, int dbcs, int *kind,
                             const uint8_t **content, const uint8_t **content_end);

/* Classifies "<?..." at lt (HTML Standard 13.2.5.72-76, processing instruction
 * states, since 2026-06) and returns the end of the construct, which is where a
 * bogus comment would end: the first '>' or the end of input. *kind gets FP_PI_*:
 * a processing instruction ([target, target_end) and [data, data_end)), a bogus
 * comment (its data is [lt + 1, before the '>')), or nothing: the input ended
 * inside a processing instruction. *error gets the parse error's code, or -1. */
enum { FP_PI_INSTRUCTION, FP_PI_BOGUS, FP_PI_NOTHING };
typedef struct {
    const uint8_t *target, *target_end, *data, *data_end;
    const uint8_t *error_at;
} fp_pi_token;
const uint8_t *fp_tok_pi(const uint8_t *lt, const uint8_t *end, int *kind, int *error, fp_pi_token *pi);

/* ---- tokenizer_text.c: where raw text ends ----
 * Returns the '<' of the appropriate end tag, or `end` when there is none. */
const uint8_t *fp_tok_rawtext_end(const uint8_t *p, const uint8_t *end,
                                  const uint8_t *name, size_t name_len);
/* script data; *escaped = 1 when the input ends in the script data escaped states */
const uint8_t *fp_tok_script_end(const uint8_t *p, const uint8_t *end, int *escaped);

/* ---- tags.c ---- */
/* id; -1 ENOMEM, -2 too many names. folded: the name is fp_name_fold's, compared as it is */
int fp_tag_intern(fp_names *names, const uint8_t *raw, size_t len, int folded);
/* fp_tag_interned (fp.h) for a name fp_name_fold folded */
int fp_tag_interned_folded(const fp_doc *doc, const uint8_t *name, size_t len);
/* whether byte c makes one character with the byte after it (fp_options.dbcs) */
int fp_name_pairs(int dbcs, uint8_t c, uint8_t next);
/* whether byte c leads a double-byte character: it and the byte after it are read
 * together (a second byte that is ASCII and makes no character with it is read
 * again alone, which steps over the same two bytes) */
int fp_dbcs_lead(int dbcs, uint8_t c);
/* whether lead byte c and a "]" after it make one character */
int fp_dbcs_takes_bracket(int dbcs, uint8_t lead);
/* A tag name as the document interns it, appended to out: fp_name_fold's bytes
 * with each NUL as U+FFFD's UTF-8 (13.2.5.8), after a 0x00 when marked (the mark
 * of text buffers, fp_text in fp.h). 0, or -1: no memory. */
int fp_name_folded(int dbcs, const uint8_t *raw, size_t len, int marked, fp_buf *out);
void fp_names_free(fp_names *names);
extern const uint8_t *const fp_pack_code;
/* known id of a packed name (tools/gen_tags.py), or 0; inline: the tag scan's hot path */
static inline int
fp_tag_by_key(uint64_t key)
{
    uint32_t mask = (1u << FP_TAG_HASH_BITS) - 1;
    uint32_t s = (uint32_t)((key * FP_TAG_HASH_MULT) >> (64 - FP_TAG_HASH_BITS));
    while (fp_tag_hash_keys[s]) {
        if (fp_tag_hash_keys[s] == key)
            return fp_tag_hash_ids[s];
        s = (s + 1) & mask;
    }
    return 0;
}
/* fp_tag_name (fp.h), inline: the parse loop compares each end tag with the current node's name */
static inline const uint8_t *
fp_tag_name_inline(const fp_doc *doc, uint16_t tag, size_t *len)
{
    if (tag < FP_TAG__COUNT) {
        *len = fp_tag_name_lens_gen[tag];
        return (const uint8_t *)fp_tag_names_gen[tag];
    }
    uint32_t k = tag - FP_TAG__COUNT;
    *len = doc->names.offsets[k + 1] - doc->names.offsets[k];
    return doc->names.chars + doc->names.offsets[k];
}
extern const uint32_t *const fp_tag_flags_table;   /* FP_TF_* per known id */
static inline uint32_t fp_tag_flags(int tag)
{
    return tag > 0 && tag < FP_TAG__COUNT ? fp_tag_flags_table[tag] : 0;
}


/* ---- errors.c: parse error codes, names as in the html5lib tests ---- */
enum {
    FP_ERR_EOF_IN_TAG,
    FP_ERR_EOF_BEFORE_TAG_NAME,
    FP_ERR_EOF_IN_COMMENT,
    FP_ERR_EOF_IN_DOCTYPE,
    FP_ERR_EOF_IN_CDATA,
    FP_ERR_EOF_IN_SCRIPT_HTML_COMMENT_LIKE_TEXT,
    FP_ERR_MISSING_END_TAG_NAME,
    FP_ERR_INVALID_FIRST_CHARACTER_OF_TAG_NAME,
    FP_ERR_EOF_IN_PROCESSING_INSTRUCTION,
    FP_ERR_INVALID_FIRST_CHARACTER_OF_PROCESSING_INSTRUCTION_TARGET,
    FP_ERR_INVALID_PROCESSING_INSTRUCTION_TARGET,
    FP_ERR_DISALLOWED_PROCESSING_INSTRUCTION_TARGET,
    FP_ERR_INCORRECTLY_OPENED_COMMENT,
    FP_ERR_ABRUPT_CLOSING_OF_EMPTY_COMMENT,
    FP_ERR_CDATA_IN_HTML_CONTENT,
    FP_ERR_END_TAG_WITH_ATTRIBUTES,
    FP_ERR_END_TAG_WITH_TRAILING_SOLIDUS,
    FP_ERR_NON_VOID_HTML_ELEMENT_START_TAG_WITH_TRAILING_SOLIDUS,
    FP_ERR_UNEXPECTED_END_TAG,
    FP_ERR_UNEXPECTED_START_TAG,
    FP_ERR_END_TAG_TOO_EARLY,
    FP_ERR_EXPECTED_CLOSING_TAG_BUT_GOT_EOF,
    FP_ERR_EXPECTED_ONE_END_TAG_BUT_GOT_ANOTHER,
    FP_ERR_UNEXPECTED_START_TAG_AFTER_BODY,   /* "after body" */
    FP_ERR_UNEXPECTED_END_TAG_AFTER_BODY,
    FP_ERR_UNEXPECTED_CHAR_AFTER_BODY,
    FP_ERR_EXPECTED_EOF_BUT_GOT_START_TAG,    /* "after after body": after </html> */
    FP_ERR_EXPECTED_EOF_BUT_GOT_END_TAG,
    FP_ERR_EXPECTED_EOF_BUT_GOT_CHAR,
    /* found when doc.errors is read (errors_scan.c) */
    FP_ERR_UNEXPECTED_NULL_CHARACTER,
    FP_ERR_CONTROL_CHARACTER_IN_INPUT_STREAM,
    FP_ERR_NONCHARACTER_IN_INPUT_STREAM,
    FP_ERR_DUPLICATE_ATTRIBUTE,
    FP_ERR_MISSING_WHITESPACE_BETWEEN_ATTRIBUTES,
    FP_ERR_UNEXPECTED_CHARACTER_IN_ATTRIBUTE_NAME,
    FP_ERR_UNEXPECTED_CHARACTER_IN_UNQUOTED_ATTRIBUTE_VALUE,
    FP_ERR_UNEXPECTED_EQUALS_SIGN_BEFORE_ATTRIBUTE_NAME,
    FP_ERR_MISSING_ATTRIBUTE_VALUE,
    FP_ERR_UNEXPECTED_SOLIDUS_IN_TAG,
    FP_ERR_MISSING_SEMICOLON_AFTER_CHARACTER_REFERENCE,
    FP_ERR_UNKNOWN_NAMED_CHARACTER_REFERENCE,
    FP_ERR_ABSENCE_OF_DIGITS_IN_NUMERIC_CHARACTER_REFERENCE,
    FP_ERR_NULL_CHARACTER_REFERENCE,
    FP_ERR_CHARACTER_REFERENCE_OUTSIDE_UNICODE_RANGE,
    FP_ERR_SURROGATE_CHARACTER_REFERENCE,
    FP_ERR_NONCHARACTER_CHARACTER_REFERENCE,
    FP_ERR_CONTROL_CHARACTER_REFERENCE,
    FP_ERR_NESTED_COMMENT,
    FP_ERR_INCORRECTLY_CLOSED_COMMENT,
    FP_ERR_MISSING_WHITESPACE_BEFORE_DOCTYPE_NAME,
    FP_ERR_MISSING_DOCTYPE_NAME,
    FP_ERR_INVALID_CHARACTER_SEQUENCE_AFTER_DOCTYPE_NAME,
    FP_ERR_MISSING_WHITESPACE_AFTER_DOCTYPE_PUBLIC_KEYWORD,
    FP_ERR_MISSING_WHITESPACE_AFTER_DOCTYPE_SYSTEM_KEYWORD,
    FP_ERR_MISSING_DOCTYPE_PUBLIC_IDENTIFIER,
    FP_ERR_MISSING_DOCTYPE_SYSTEM_IDENTIFIER,
    FP_ERR_MISSING_QUOTE_BEFORE_DOCTYPE_PUBLIC_IDENTIFIER,
    FP_ERR_MISSING_QUOTE_BEFORE_DOCTYPE_SYSTEM_IDENTIFIER,
    FP_ERR_ABRUPT_DOCTYPE_PUBLIC_IDENTIFIER,
    FP_ERR_ABRUPT_DOCTYPE_SYSTEM_IDENTIFIER,
    FP_ERR_MISSING_WHITESPACE_BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDENTIFIERS,
    FP_ERR_UNEXPECTED_CHARACTER_AFTER_DOCTYPE_SYSTEM_IDENTIFIER,
    FP_ERR__COUNT
};

#endif
