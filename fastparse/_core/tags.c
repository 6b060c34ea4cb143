/* tags.c — tag name to id: the generated table for known names (see the NOTE
 * on 5-bit packing in tools/gen_tags.py) and per-document interning for the
 * rest. Names are ASCII-lower-cased, as the tokenizer does. */
#include <stdlib.h>
#include <string.h>

#include "dbcs_gen.h"
#include "internal.h"

const uint32_t *const fp_tag_flags_table = fp_tag_flags_gen;

static int
lookup_long(const uint8_t *raw, size_t len)
{
    for (int k = 0; k < FP_TAG_LONG_COUNT; k++) {
        int id = fp_tag_long_ids[k];
        if (fp_tag_name_lens_gen[id] != len)
            continue;
        size_t i = 0;
        while (i < len && fp_lower(raw[i]) == (uint8_t)fp_tag_names_gen[id][i])
            i++;
        if (i == len)
            return id;
    }
    return 0;
}

/* 5-bit code of each byte: a-z/A-Z -> 6..31, 1-6 -> 0..5, others 0x80 (unpackable) */
const uint8_t *const fp_pack_code = fp_pack_code_gen;

int
fp_tag_known(const uint8_t *raw, size_t len)
{
    if (len == 0)
        return 0;
    uint64_t key = 0;
    /* a leading '1' packs to code 0 and would add nothing to the key ("1p" is
     * "p"): the tokenizer's names start with a letter, but a caller's need not */
    unsigned bad = len > 12 || fp_pack_code_gen[raw[0]] < 6 ? 0x80 : 0;
    for (size_t i = 0; i < len && !(bad & 0x80); i++) {
        bad |= fp_pack_code_gen[raw[i]];
        key = (key << 5) | (fp_pack_code_gen[raw[i]] & 31);
    }
    return bad & 0x80 ? lookup_long(raw, len) : fp_tag_by_key(key);
}

static uint32_t
name_hash(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;   /* FNV-1a over the lower-cased bytes */
    for (size_t i = 0; i < n; i++)
        h = (h ^ fp_lower(p[i])) * 16777619u;
    return h;
}

static int
names_grow_slots(fp_names *t)
{
    uint32_t nslots = t->nslots ? t->nslots * 2 : 64;
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return -1;
    for (uint32_t k = 0; k < t->count; k++) {
        const uint8_t *s = t->chars + t->offsets[k];
        uint32_t h = name_hash(s, t->offsets[k + 1] - t->offsets[k]) & (nslots - 1);
        while (slots[h])
            h = (h + 1) & (nslots - 1);
        slots[h] = k + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return 0;
}

/* Probes for the name (compared lower-cased, or as it is when folded by
 * fp_name_fold): its id when interned, else -1 with *slot the empty slot where
 * it would go. The hash lower-cases either way, so both find the same slots. */
static int
names_probe(const fp_names *t, const uint8_t *raw, size_t len, int folded, uint32_t *slot)
{
    uint32_t h = name_hash(raw, len) & (t->nslots - 1);
    for (; t->slots[h]; h = (h + 1) & (t->nslots - 1)) {
        uint32_t k = t->slots[h] - 1;
        const uint8_t *s = t->chars + t->offsets[k];
        if (t->offsets[k + 1] - t->offsets[k] != len)
            continue;
        size_t i = 0;
        while (i < len && s[i] == (folded ? raw[i] : fp_lower(raw[i])))
            i++;
        if (i == len)
            return FP_TAG__COUNT + (int)k;
    }
    *slot = h;
    return -1;
}

/* Looks the name up among this document's interned names; adds it if absent. */
int
fp_tag_intern(fp_names *t, const uint8_t *raw, size_t len, int folded)
{
    if ((t->count + 1) * 2 > t->nslots && names_grow_slots(t) < 0)
        return -1;
    uint32_t h;
    int id = names_probe(t, raw, len, folded, &h);
    if (id >= 0)
        return id;
    if (FP_TAG__COUNT + t->count >= 0xFFFF)
        return -2;  /* tag ids are 16-bit: more distinct names than that is a limit */
    if (t->count + 2 > t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 16;
        uint32_t *offsets = realloc(t->offsets, cap * sizeof *offsets);
        if (!offsets)
            return -1;
        t->offsets = offsets;
        t->cap = cap;
        if (t->count == 0)
            t->offsets[0] = 0;
    }
    if (t->chars_len + len > t->chars_cap) {
        uint32_t cap = t->chars_cap ? t->chars_cap : 256;
        while (cap < t->chars_len + len)
            cap *= 2;
        uint8_t *chars = realloc(t->chars, cap);
        if (!chars)
            return -1;
        t->chars = chars;
        t->chars_cap = cap;
    }
    for (size_t i = 0; i < len; i++)
        t->chars[t->chars_len + i] = folded ? raw[i] : fp_lower(raw[i]);
    t->chars_len += (uint32_t)len;
    t->offsets[t->count + 1] = t->chars_len;
    t->slots[h] = ++t->count;
    return FP_TAG__COUNT + (int)t->count - 1;
}

void
fp_names_free(fp_names *t)
{
    free(t->chars);
    free(t->offsets);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

const uint8_t *
fp_tag_name(const fp_doc *doc, uint16_t tag, size_t *len)
{
    return fp_tag_name_inline(doc, tag, len);
}

int
fp_tag_name_marked(const fp_doc *doc, uint16_t tag, fp_buf *out)
{
    size_t len;
    const uint8_t *s = fp_tag_name_inline(doc, tag, &len);
    size_t at = 0;
    while (at + 2 < len && !(s[at] == 0xEF && s[at + 1] == 0xBF && s[at + 2] == 0xBD))
        at++;
    if (tag < FP_TAG__COUNT || at + 2 >= len)
        return 0;
    uint32_t i = 0;
    while (i < doc->n && doc->elems[i].tag != tag)
        i++;
    if (i == doc->n)
        return 0;   /* no element has it */
    const uint8_t *p = doc->buf + doc->elems[i].start + 1, *q = p, *end = doc->buf + doc->len;
    while (q < end && !(fp_cc[*q] & FP_CC_TAG_STOP))
        q++;
    return fp_name_folded(doc->opts.dbcs, p, (size_t)(q - p), 1, out) < 0 ? -1 : 1;
}

int
fp_tag_interned(const fp_doc *doc, const uint8_t *name, size_t len)
{
    uint32_t slot;
    return doc->names.nslots ? names_probe(&doc->names, name, len, 0, &slot) : -1;
}

int
fp_tag_interned_folded(const fp_doc *doc, const uint8_t *name, size_t len)
{
    uint32_t slot;
    return doc->names.nslots ? names_probe(&doc->names, name, len, 1, &slot) : -1;
}

/* whether byte c makes one character with the next in encodings of kind
 * dbcs (the Encoding Standard's decoders: a lead byte takes a second byte that
 * is not ASCII, and an ASCII one when the two make a character, else the ASCII
 * byte is read again as itself). Only letters matter: other ASCII bytes have
 * no case, and the byte after them starts afresh either way. */
int
fp_dbcs_lead(int dbcs, uint8_t c)
{
    return dbcs == FP_DBCS_SJIS ? (c >= 0x81 && c <= 0x9F) || (c >= 0xE0 && c <= 0xFC)
                                : dbcs != FP_DBCS_NONE && c >= 0x81 && c <= 0xFE;
}

int
fp_dbcs_takes_bracket(int dbcs, uint8_t lead)
{
    unsigned k = (unsigned)(lead - 0x81);
    return fp_dbcs_lead(dbcs, lead) && (fp_dbcs_bracket_pairs[dbcs - 1][k / 8] >> (k % 8)) & 1;
}

int
fp_name_pairs(int dbcs, uint8_t c, uint8_t next)
{
    if (!fp_dbcs_lead(dbcs, c))
        return 0;
    uint8_t low = next | 0x20;
    if (low < 'a' || low > 'z')
        return 1;
    unsigned k = (unsigned)(low - 'a') + (next >= 'a' ? 26 : 0);
    return (fp_dbcs_letter_pairs[dbcs - 1][c - 0x81][k / 8] >> (k % 8)) & 1;
}

void
fp_name_fold(int dbcs, const uint8_t *raw, size_t len, uint8_t *out)
{
    for (size_t i = 0; i < len; i++) {
        out[i] = fp_lower(raw[i]);
        if (i + 1 < len && fp_name_pairs(dbcs, raw[i], raw[i + 1])) {
            i++;
            out[i] = raw[i];   /* the second byte of a character: no letter */
        }
    }
}

int
fp_name_folded(int dbcs, const uint8_t *raw, size_t len, int marked, fp_buf *out)
{
    size_t nuls = 0;
    for (size_t k = 0; k < len; k++)
        nuls += raw[k] == 0;
    size_t grown = marked ? 4 : 3, total = len + nuls * (grown - 1);
    if (fp_buf_reserve(out, total) < 0)
        return -1;
    uint8_t *o = out->data + out->len;
    fp_name_fold(dbcs, raw, len, o);
    const uint8_t *fffd = (const uint8_t *)"\x00\xEF\xBF\xBD" + 4 - grown;
    for (size_t k = len, w = total; k-- > 0;) {   /* from the end: a NUL grows in place */
        if (o[k]) {
            o[--w] = o[k];
        } else {
            w -= grown;
            memcpy(o + w, fffd, grown);
        }
    }
    out->len += total;
    return 0;
}

int
fp_tag_lookup(const fp_doc *doc, const uint8_t *name, size_t len)
{
    int id = fp_tag_known(name, len);
    return id ? id : fp_tag_interned(doc, name, len);
}
