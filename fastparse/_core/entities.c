/* entities.c — decodes one HTML character reference (named or numeric) to
 * one or two code points. HTML Standard §13.2.5.72-80, from the character
 * reference state to the numeric character reference end state. It neither
 * writes output nor reports parse errors: text.c does both around it.
 * The name table and its hash index are generated (entities_gen.h). */

#include "fp.h"
#include "entities_gen.h"

#define HASH_STEP(h, c) ((h) * 33 + (uint32_t)(c))

static inline int is_ascii_alnum(uint8_t c)
{
    return fp_entity_name_byte[c];
}

/* The entry whose name is exactly name[0 .. len), hashed to h, or NULL. */
static const fp_entity *entity_find(const uint8_t *name, size_t len, uint32_t h)
{
    const uint32_t mask = (1u << FP_ENTITY_HASH_BITS) - 1;
    uint32_t s = (h * FP_ENTITY_HASH_MULT) >> (32 - FP_ENTITY_HASH_BITS);
    uint16_t k;

    while ((k = fp_entity_slots[s]) != 0) {
        const fp_entity *e = &fp_entities[k - 1];
        if (e->len == len) {
            /* names are short: a byte loop beats a call to memcmp */
            const char *a = fp_entity_pool + e->name;
            size_t i = 0;
            while (i < len && (uint8_t)a[i] == name[i])
                i++;
            if (i == len)
                return e;
        }
        s = (s + 1) & mask;
    }
    return NULL;
}

static size_t entity_store(const fp_entity *e, size_t consumed, uint32_t cp[2], int *ncp)
{
    cp[0] = e->cp0;
    cp[1] = e->cp1;
    *ncp = e->cp1 ? 2 : 1;
    return consumed;
}

/*
 * 13.2.5.73 Named character reference state
 *
 * Every name is ASCII alphanumerics, then ';' unless it is one of the legacy
 * names. So the longest match is either the whole alphanumeric run plus its
 * ';', or a legacy name that is a prefix of the run: the run is hashed once,
 * keeping the hashes of its first FP_ENTITY_MAX_LEGACY prefixes.
 */
static size_t named_reference(const uint8_t *p, const uint8_t *end, int in_attribute,
                              uint32_t cp[2], int *ncp)
{
    const uint8_t *name = p + 1;
    const size_t avail = (size_t)(end - name);
    const size_t limit = avail < FP_ENTITY_MAX_NAME - 1 ? avail : FP_ENTITY_MAX_NAME - 1;
    const size_t legacy_limit = limit < FP_ENTITY_MAX_LEGACY ? limit : FP_ENTITY_MAX_LEGACY;
    uint32_t prefix_hash[FP_ENTITY_MAX_LEGACY + 1];
    uint32_t h = 0;
    const fp_entity *e;
    size_t n = 0, k;

    while (n < legacy_limit && is_ascii_alnum(name[n])) {
        h = HASH_STEP(h, name[n]);
        prefix_hash[++n] = h;
    }
    if (n == FP_ENTITY_MAX_LEGACY) {
        while (n < limit && is_ascii_alnum(name[n])) {
            h = HASH_STEP(h, name[n]);
            n++;
        }
    }

    /* U+003B SEMICOLON (;) ends the run: "name;" is the longest candidate. */
    if (n < avail && name[n] == ';') {
        e = entity_find(name, n + 1, HASH_STEP(h, ';'));
        if (e != NULL)
            return entity_store(e, n + 2, cp, ncp);
    }

    for (k = n < FP_ENTITY_MAX_LEGACY ? n : FP_ENTITY_MAX_LEGACY; k >= FP_ENTITY_MIN_LEGACY; k--) {
        e = entity_find(name, k, prefix_hash[k]);
        if (e == NULL)
            continue;
        /* In an attribute value a match without ';' followed by U+003D EQUALS
         * SIGN (=) or an ASCII alphanumeric is flushed as text, for historical
         * reasons; the longest match decides, shorter ones are not tried. */
        if (in_attribute && k < avail && (name[k] == '=' || is_ascii_alnum(name[k])))
            return 0;
        return entity_store(e, k + 1, cp, ncp);
    }
    /* No match: the ambiguous ampersand state emits everything as text. */
    return 0;
}

/* The value of an ASCII hex digit, 16 for any other byte. */
static inline uint32_t hex_digit(uint8_t c)
{
    uint32_t d = (uint32_t)c - '0';
    if (d < 10)
        return d;
    d = (uint32_t)(c | 0x20) - 'a';
    return d < 6 ? d + 10 : 16;
}

/* 13.2.5.80 Numeric character reference end state: the code point to emit. */
static uint32_t numeric_code_point(uint32_t v)
{
    /* 0x00 null, > 0x10FFFF out of range, 0xD800-0xDFFF surrogate: U+FFFD */
    if (v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0xFFFD;
    /* 0x80-0x9F: windows-1252's character for the byte (the same code point
     * for the five bytes it leaves undefined) */
    if (v - 0x80 < 0x20)
        return fp_entity_c1[v - 0x80];
    /* noncharacters and other controls are parse errors but kept as they are */
    return v;
}

/*
 * 13.2.5.75 Numeric character reference state, with the hexadecimal and
 * decimal start states (76, 77) and digit states (78, 79).
 *
 * p points at "&#". The value stops growing past 0x10FFFF (it is replaced by
 * U+FFFD anyway) while the remaining digits are still consumed.
 */
const uint8_t *fp_entity_digits(const uint8_t *p, const uint8_t *end, const uint8_t **digits, uint32_t *value)
{
    const uint8_t *q = p + 2;
    uint32_t v = 0, d;

    /* U+0078 LATIN SMALL LETTER X, U+0058 LATIN CAPITAL LETTER X */
    if (q < end && (*q | 0x20) == 'x') {
        *digits = ++q;
        for (; q < end && (d = hex_digit(*q)) < 16; q++)
            v = v > 0x10FFFF ? v : v * 16 + d;
    } else {
        *digits = q;
        for (; q < end && (d = (uint32_t)*q - '0') < 10; q++)
            v = v > 0x10FFFF ? v : v * 10 + d;
    }
    *value = v;
    return q;
}

static size_t numeric_reference(const uint8_t *p, const uint8_t *end, uint32_t cp[2], int *ncp)
{
    const uint8_t *digits;
    uint32_t v;
    const uint8_t *q = fp_entity_digits(p, end, &digits, &v);
    /* absence-of-digits: "&#" or "&#x" is emitted as text */
    if (q == digits)
        return 0;
    /* U+003B SEMICOLON (;) is consumed; anything else is missing-semicolon */
    if (q < end && *q == ';')
        q++;
    cp[0] = numeric_code_point(v);
    *ncp = 1;
    return (size_t)(q - p);
}

/* 13.2.5.72 Character reference state */
size_t fp_entity_decode(const uint8_t *p, const uint8_t *end, int in_attribute,
                        uint32_t cp[2], int *ncp)
{
    if (end - p < 2)
        return 0;
    /* U+0023 NUMBER SIGN (#) */
    if (p[1] == '#')
        return numeric_reference(p, end, cp, ncp);
    /* ASCII alphanumeric */
    if (is_ascii_alnum(p[1]))
        return named_reference(p, end, in_attribute, cp, ncp);
    /* anything else: not a reference, '&' is text */
    return 0;
}
