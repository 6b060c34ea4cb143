/* text_foster.c — text that foster parenting moved (13.2.6.1, 13.2.6.4.9
 * "in table text"), read before its table.
 *
 * The index keeps what the tree builder moved out of a table where the source
 * has it: inside the table's range. An element so moved is flagged
 * FP_EF_FOSTERED; a run of characters directly in a table, row group or row
 * is moved when it holds a character other than whitespace (a run: the
 * characters between two tokens, as the "in table text" mode collects them).
 * The DOM puts both before the table, in source order, so text reads them
 * there: an ancestor of the table gets them before the table's own text, and
 * the table and its parts do not get them at all. Consecutive moved runs join
 * one Text node, as does the text right before the table. */
#include "text_internal.h"

static int
is_html_table(const fp_elem *e)
{
    return fp_html_is(e, FP_TAG_TABLE);
}

/* fp_text_moves: what table part i moves goes before an HTML table when i is
 * one, or a row group or row in one; in a template or a fragment without a
 * table, the tree builder appends it to the template's contents or the
 * fragment, right after the outermost part open then (nothing else is
 * appended while a part is open), and text reads it there. */
int
fp_text_moves(const fp_doc *d, int32_t i)
{
    const fp_elem *e = d->elems;
    if (i < 0 || !fp_text_is_table_part(&e[i]))
        return FP_TEXT_STAYS;
    for (int k = 0; k < 4 && i >= 0 && fp_text_is_table_part(&e[i]); k++, i = e[i].parent)
        if (is_html_table(&e[i]))
            return FP_TEXT_MOVES_BEFORE;
    return FP_TEXT_MOVES_AFTER;
}

/* The first run of characters in [p, q): *run_end is where the token after
 * it begins (q: none), *comment whether that token is a comment (a node of
 * its own); returns where the token ends. "</>" is no token (and makes no
 * characters); a '<' that starts no markup is a character. */
static const uint8_t *
next_run(const fp_doc *d, const uint8_t *p, const uint8_t *q, const uint8_t **run_end, int *comment)
{
    const uint8_t *end = d->buf + d->len;
    *comment = 0;
    for (;;) {
        const uint8_t *lt = fp_scan_lt(p, q);
        *run_end = lt;
        if (lt >= q || lt + 1 >= end) {
            *run_end = q;
            return q;
        }
        int kind;
        fp_tag_token t;
        const uint8_t *cs, *ce;
        const uint8_t *next = fp_text_token_at(d, lt, 0, &kind, &t, &cs, &ce);
        if (!next)
            return q;   /* EOF inside a tag: the rest is no text */
        if (kind == LT_CHAR || kind == LT_NO_TOKEN) {
            p = next;
            continue;
        }
        *comment = kind == LT_COMMENT;   /* CDATA is a bogus comment in HTML content */
        return next < q ? next : q;
    }
}

/* Whether the character reference at p decodes to whitespace only */
static int
ref_is_white(const uint8_t *p, const uint8_t *q, size_t *used)
{
    uint32_t cp[2];
    int ncp = 0;
    *used = fp_entity_decode(p, q, 0, cp, &ncp);
    if (!*used)
        return 0;
    for (int k = 0; k < ncp; k++)
        if (cp[k] > 0x20 || !fp_is_ws((uint8_t)cp[k]))
            return 0;
    return 1;
}

/* Whether the run [p, q) is whitespace only, as the tree builder reads it:
 * references decoded, NUL ignored ("in table text"), "</>" no character. */
static int
run_is_white(const uint8_t *p, const uint8_t *q)
{
    while (p < q) {
        uint8_t b = *p;
        if (fp_is_ws(b) || b == 0) {
            p++;
        } else if (b == '<' && q - p >= 3 && p[1] == '/' && p[2] == '>') {
            p += 3;
        } else if (b == '&') {
            size_t used;
            if (!ref_is_white(p, q, &used))
                return 0;
            p += used;
        } else {
            return 0;
        }
    }
    return 1;
}

/* Whether a formatting element's clone fostered before the table took the
 * whitespace run at p (fp_doc.clone_ws, in order) */
static int
clone_took(const fp_doc *d, const uint8_t *p)
{
    uint32_t at = (uint32_t)(p - d->buf), lo = 0, hi = d->nclone_ws;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->clone_ws[mid] < at)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->nclone_ws && d->clone_ws[lo] == at;
}

/* Whether run [p, q), directly in a table part, stays there ("in table
 * text"): whitespace only, and not taken by a clone fostered on the table */
static int
run_stays(const fp_doc *d, const uint8_t *p, const uint8_t *q)
{
    return run_is_white(p, q) && !(d->nclone_ws && clone_took(d, p));
}

/* Whether [p, q), text directly in a table part of a table, holds a run
 * that foster parenting moved */
static int
moves_a_run(const fp_doc *d, const uint8_t *p, const uint8_t *q)
{
    if (!d->nclone_ws)
        while (p < q && fp_is_ws(*p))
            p++;   /* leading whitespace changes no run's whiteness; most gaps are only that */
    while (p < q) {
        const uint8_t *run_end;
        int comment;
        const uint8_t *next = next_run(d, p, q, &run_end, &comment);
        if (run_end > p && !run_stays(d, p, run_end))
            return 1;
        p = next;
    }
    return 0;
}

/* Whether a run directly in table part s, between its children, moved */
static int
moves_own_run(const fp_doc *d, int32_t s)
{
    const fp_elem *e = d->elems;
    uint32_t pos = e[s].inner_start, j = (uint32_t)s + 1;
    for (;; j = e[j].last + 1) {
        uint32_t stop = j <= e[s].last ? e[j].start : e[s].inner_end;
        if (stop > pos && moves_a_run(d, d->buf + pos, d->buf + stop))
            return 1;
        if (j > e[s].last)
            return 0;
        pos = e[j].end > pos ? e[j].end : pos;
    }
}

/* Whether foster parenting moved anything out of a table of d: asked once a
 * document, when a text first meets a table (most documents move nothing,
 * and their tables read as written, without the walks below). */
int
fp_text_doc_fosters(const fp_doc *d)
{
    int *cache = (int *)&d->fosters;   /* the answer depends on d alone: threads agree */
    int known = __atomic_load_n(cache, __ATOMIC_RELAXED);
    if (known)
        return known == 2;
    int yes = 0;
    for (uint32_t i = 0; i < d->n && !yes; i++) {
        const fp_elem *e = &d->elems[i];
        yes = ((e->flags & FP_EF_FOSTERED) && fp_text_moves(d, e->parent) == FP_TEXT_MOVES_BEFORE) ||
              (fp_text_moves(d, (int32_t)i) == FP_TEXT_MOVES_BEFORE && moves_own_run(d, (int32_t)i));
    }
    __atomic_store_n(cache, yes ? 2 : 1, __ATOMIC_RELAXED);
    return yes;
}

/* Where "in column group" ends in [p, q), text directly in a table right
 * after a <col> there (its <colgroup> implied, so the index has none):
 * whitespace, comments and the tags that mode ignores (</col>, <html>,
 * </template> with none open) go into that colgroup, and stay; the first
 * other character pops it, and from there the run is the table's "in table
 * text", moved whole when not white; any other tag pops it too. */
static const uint8_t *
colgroup_end(const fp_doc *d, const uint8_t *p, const uint8_t *q)
{
    while (p < q) {
        size_t used;
        if (fp_is_ws(*p)) {
            p++;
        } else if (*p == '&' && ref_is_white(p, q, &used)) {
            p += used;
        } else if (*p == '<' && p + 1 < d->buf + d->len) {   /* a '<' that ends the input is text */
            int kind;
            fp_tag_token t;
            const uint8_t *cs, *ce;
            const uint8_t *next = fp_text_token_at(d, p, 0, &kind, &t, &cs, &ce);
            int stays = kind == LT_COMMENT || kind == LT_DOCTYPE || kind == LT_NO_TOKEN ||
                        (kind == LT_TAG && (p[1] == '/' ? t.tag == FP_TAG_COL || t.tag == FP_TAG_TEMPLATE
                                                        : t.tag == FP_TAG_HTML));
            if (!next || !stays)
                return p;
            p = next < q ? next : q;
        } else {
            return p;
        }
    }
    return q;
}

/* The runs of [p, q), text directly in table part i, that foster parenting
 * moved (moved = 1) or left in place (moved = 0). Moved runs join one node;
 * runs left in place are split by comments. after_col: the text follows a
 * <col> directly in table i (colgroup_end). */
void
fp_text_put_table_runs(text_ctx *c, const uint8_t *p, const uint8_t *q, int32_t i, int moved, int after_col)
{
    const uint8_t *w = p;
    while (w < q && fp_is_ws(*w))
        w++;
    if (w == q) {   /* most gaps between rows and cells: one run, white */
        if (moved == !run_stays(c->d, p, q))
            fp_text_put_data_nodes(c, p, q, i);
        return;
    }
    if (after_col) {   /* the colgroup's part stays, a node of its own */
        const uint8_t *r = colgroup_end(c->d, p, q);
        if (r > p && !moved) {
            fp_text_put_table_runs(c, p, r, i, 0, 0);
            fp_text_end_node(c);
        }
        p = r;
    }
    while (p < q) {
        const uint8_t *run_end;
        int comment;
        const uint8_t *next = next_run(c->d, p, q, &run_end, &comment);
        if (run_end > p && run_stays(c->d, p, run_end) != moved)
            fp_text_put_data_nodes(c, p, run_end, i);
        if (comment && !moved)
            fp_text_end_node(c);   /* a node of the table's between the runs */
        p = next;
    }
}

/* Whether text directly in element i after its child prev (-1: none) is in
 * "in column group": prev a <col> of HTML table i, in a colgroup implied */
int
fp_text_after_col(const fp_doc *d, int32_t i, int32_t prev)
{
    return prev >= 0 && fp_html_is(&d->elems[prev], FP_TAG_COL) && i >= 0 && is_html_table(&d->elems[i]);
}

/* What foster parenting moved out of table part s, in source order: its runs
 * and elements, and those of its row groups and rows. The caller ends the
 * node after. own: runs only (an element's own text). */
void
fp_text_put_fostered(text_ctx *c, int32_t s, int own)
{
    const fp_doc *d = c->d;
    const fp_elem *e = d->elems;
    uint32_t pos = e[s].inner_start, j = (uint32_t)s + 1;
    int32_t prev = -1;
    for (;;) {
        uint32_t stop = j <= e[s].last ? e[j].start : e[s].inner_end;
        if (stop > pos)
            fp_text_put_table_runs(c, d->buf + pos, d->buf + stop, s, 1, fp_text_after_col(d, s, prev));
        if (j > e[s].last)
            return;
        if ((e[j].flags & FP_EF_FOSTERED) && !own && !fp_text_skipped(c, j)) {
            fp_text_end_node(c);
            c->fostering++;
            fp_text_walk(c, (int32_t)j);
            c->fostering--;
            fp_text_end_node(c);
        } else if (fp_text_is_table_part(&e[j]) && !is_html_table(&e[j])) {
            fp_text_put_fostered(c, (int32_t)j, own);   /* a row group or row: at most two levels */
        }
        pos = e[j].end > pos ? e[j].end : pos;
        prev = (int32_t)j;
        j = e[j].last + 1;
    }
}
