/* query.c — find / find_all: a loop over a range of the index testing tag
 * id, id, class tokens and attributes. Attribute values are compared as
 * raw bytes, decoded first only when they hold a reference or CR/NUL. */
#include <string.h>

#include "internal.h"

/* value of attribute a equals v[0..n), references decoded */
static int
value_equals(const fp_doc *d, const fp_attr *a, const uint8_t *v, size_t n)
{
    const uint8_t *raw = d->buf + a->value_start;
    if (fp_value_is_raw(d, raw, a->value_len))
        return a->value_len == n && memcmp(raw, v, n) == 0;
    fp_buf b = {0};
    int eq = fp_attr_value(d, a, &b) == 0 && b.len == n && memcmp(b.data, v, n) == 0;
    fp_buf_free(&b);
    return eq;
}

/* cls= "a b": the list v[0 .. n) holds every token of want[0 .. wn), at least one */
static int
has_tokens(const uint8_t *v, size_t n, const uint8_t *want, size_t wn, int icase)
{
    int any = 0;
    for (size_t i = 0; i < wn;) {
        while (i < wn && fp_is_ws(want[i]))
            i++;
        size_t s = i;
        while (i < wn && !fp_is_ws(want[i]))
            i++;
        if (i > s && !(any = fp_has_token(v, n, want + s, i - s, icase)))   /* select_value.c */
            return 0;
    }
    return any;
}

static int
class_has(const fp_doc *d, const fp_attr *a, const uint8_t *want, size_t wn)
{
    const uint8_t *raw = d->buf + a->value_start;
    if (fp_value_is_raw(d, raw, a->value_len))   /* a NUL reads U+FFFD; a CR is whitespace either way */
        return has_tokens(raw, a->value_len, want, wn, d->quirks);
    fp_buf b = {0};
    int yes = fp_attr_value(d, a, &b) == 0 && has_tokens(b.data, b.len, want, wn, d->quirks);
    fp_buf_free(&b);
    return yes;
}

int
fp_match(const fp_doc *d, uint32_t i, const fp_query *q)
{
    if (q->tag >= 0 && d->elems[i].tag != q->tag)
        return 0;
    if (q->ntags) {
        size_t k = 0;
        while (k < q->ntags && q->tags[k] != d->elems[i].tag)
            k++;
        if (k == q->ntags)
            return 0;
    }
    fp_attr a;
    if (q->id && !(fp_attr_find(d, i, "id", 2, &a) && value_equals(d, &a, q->id, q->id_len)))
        return 0;
    if (q->cls && !(fp_attr_find(d, i, "class", 5, &a) && class_has(d, &a, q->cls, q->cls_len)))
        return 0;
    for (size_t k = 0; k < q->nattrs; k++) {
        const fp_attr_query *aq = &q->attrs[k];
        if (!aq->value) {
            if (!fp_attr_present(d, i, aq->name, aq->name_len))
                return 0;
        } else if (!fp_attr_find(d, i, aq->name, aq->name_len, &a) ||
                   !value_equals(d, &a, aq->value, aq->value_len)) {
            return 0;
        }
    }
    return 1;
}

uint32_t
fp_find(const fp_doc *d, uint32_t first, uint32_t last, const fp_query *q, uint32_t *out,
        uint32_t limit)
{
    uint32_t n = 0;
    if (!d->n)
        return 0;
    if (last >= d->n)
        last = d->n - 1;
    for (uint32_t i = first; i <= last && n < limit; i++) {
        if (q->tag >= 0) {   /* find_all("a"): most elements fail on the tag alone */
            while (i <= last && d->elems[i].tag != q->tag)
                i++;
            if (i > last)
                break;
        }
        if (fp_match(d, i, q))
            out[n++] = i;
    }
    return n;
}
