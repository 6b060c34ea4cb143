/* select_contains.c — :contains() for a run over many elements, in linear
 * time. An element's text (DOM textContent) is a contiguous part of its
 * ancestors' text, so instead of decoding each candidate's subtree (which
 * costs the page's text times its depth: 1.2 s for `div:contains(x)` over
 * 8,000 nested divs) a run decodes the text of its scope once, with each
 * element's range in it, finds every occurrence of each string once, and
 * answers an element by a binary search in its range. It switches to this
 * when the per-element way has decoded more than the scope holds, so a run
 * with few candidates (`h1:contains(x)`) never pays for the whole page. */
#include <stdlib.h>

#include "select_internal.h"
#include "tags_gen.h"   /* the fixed ids of known tag names */

enum { CONTAINS_TESTS = 8, NO_RANGE = UINT32_MAX };

struct fp_sel_contains {
    fp_buf text;                /* the scope's text */
    uint32_t base, count;       /* the elements it covers: the scope's subtree (the document: all) */
    uint32_t *start, *end;      /* per element e there, at [e - base]: its text in `text`, or NO_RANGE */
    int ntests;
    struct {
        const int32_t *t;       /* the test (its strings) */
        uint32_t *occ;          /* per string k: occurrence positions, ascending, from occ + at[k] */
        uint32_t at[64 + 1];
    } test[CONTAINS_TESTS];
};

void fp_sel_contains_free(fp_sel_ctx *c)
{
    struct fp_sel_contains *x = c->contains;
    if (!x)
        return;
    fp_buf_free(&x->text);
    free(x->start);
    free(x->end);
    for (int k = 0; k < x->ntests; k++)
        free(x->test[k].occ);
    free(x);
    c->contains = NULL;
}

static int build_text(fp_sel_ctx *c)
{
    struct fp_sel_contains *x = fp_sel_zalloc(c, 1, sizeof *x);
    if (!x)
        return -1;
    c->contains = x;
    /* the scope's subtree, not the document: a card.select(":contains(x)") in a
     * loop over a page's cards would fill document-sized arrays on every call */
    x->base = c->scope < 0 ? 0 : (uint32_t)c->scope;
    x->count = c->scope < 0 ? c->n : c->el[c->scope].last - x->base + 1;
    x->start = malloc((size_t)x->count * sizeof *x->start);
    x->end = malloc((size_t)x->count * sizeof *x->end);
    if (!x->start || !x->end) {
        c->oom = 1;
        return -1;
    }
    memset(x->start, 0xFF, (size_t)x->count * sizeof *x->start);   /* NO_RANGE */
    memset(x->end, 0xFF, (size_t)x->count * sizeof *x->end);
    fp_text_opts o;
    memset(&o, 0, sizeof o);
    uint16_t skip = FP_TAG_TEMPLATE;   /* a template's contents are no one's text */
    o.skip = &skip;
    o.nskip = 1;
    o.skip_html_only = 1;
    if (fp_text_ranges(c->doc, c->scope, &o, &x->text, x->start, x->end) != 0) {
        c->oom = 1;
        return -1;
    }
    return 0;
}

/* every start position of s (n > 0 bytes) in the text, overlapping ones too */
static int find_all(fp_sel_ctx *c, const fp_buf *text, const uint8_t *s, size_t n, fp_buf *out)
{
    if (text->len < n)
        return 0;   /* an empty text has no data at all: NULL + 0 is undefined */
    const uint8_t *h = text->data, *end = h + text->len;
    for (const uint8_t *p = h; end - p >= (ptrdiff_t)n; p++) {
        p = memchr(p, s[0], (size_t)(end - p) - n + 1);
        if (!p)
            break;
        if (memcmp(p, s, n) == 0) {
            uint32_t at = (uint32_t)(p - h);
            if (fp_buf_append(out, &at, sizeof at) != 0) {
                c->oom = 1;
                return -1;
            }
        }
    }
    return 0;
}

static int index_test(fp_sel_ctx *c, struct fp_sel_contains *x, const int32_t *t)
{
    if (x->ntests == CONTAINS_TESTS || t[1] > 64)
        return -1;
    fp_buf occ = {0};
    int k = x->ntests;
    for (int32_t s = 0; s < t[1]; s++) {
        x->test[k].at[s] = (uint32_t)(occ.len / sizeof(uint32_t));
        size_t len;
        const uint8_t *str = fp_sel_str(c, t[2 + s], &len);
        if (len && find_all(c, &x->text, str, len, &occ) != 0) {
            fp_buf_free(&occ);
            return -1;
        }
    }
    x->test[k].at[t[1]] = (uint32_t)(occ.len / sizeof(uint32_t));
    x->test[k].t = t;
    x->test[k].occ = (uint32_t *)(void *)occ.data;   /* ours now (NULL when none) */
    x->ntests++;
    return k;
}

/* Whether e's text contains one of test t's strings: 1 or 0; -1 when the run
 * has not indexed e's text (not yet worth it, e outside the scope, in a template). */
int fp_sel_contains_indexed(fp_sel_ctx *c, const int32_t *t, uint32_t e)
{
    struct fp_sel_contains *x = c->contains;
    if (!x) {
        uint32_t span = c->scope < 0 ? (uint32_t)c->doc->len : c->el[c->scope].end - c->el[c->scope].start;
        c->contains_spent += c->el[e].end - c->el[e].start;
        if (c->contains_spent <= (uint64_t)span || c->oom || build_text(c) != 0)
            return -1;
        x = c->contains;
    }
    if (e - x->base >= x->count || x->start[e - x->base] == NO_RANGE || is_template(c, e))
        return -1;   /* outside the scope; (a template's text is its caller's business: it has none) */
    int k = 0;
    while (k < x->ntests && x->test[k].t != t)
        k++;
    if (k == x->ntests && (k = index_test(c, x, t)) < 0)
        return -1;
    uint32_t from = x->start[e - x->base], to = x->end[e - x->base];
    for (int32_t s = 0; s < t[1]; s++) {
        size_t len;
        fp_sel_str(c, t[2 + s], &len);
        if (len == 0)
            return 1;   /* the empty string is in every text */
        const uint32_t *occ = x->test[k].occ;
        /* the first occurrence at or after the element's text */
        uint32_t lo = fp_sel_lower_bound(occ, x->test[k].at[s], x->test[k].at[s + 1], from);
        if (lo < x->test[k].at[s + 1] && occ[lo] + len <= to)
            return 1;
    }
    return 0;
}
