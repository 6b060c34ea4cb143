/* select_run.c — runs a compiled selector program (select.h) over the flat
 * index: sets up the matching context, then tries the candidates, taken
 * from the tag index when every selector of the list names a tag (a merge
 * of their lists in document order), else in one pass over the scope, each
 * through its prefilter first. Also select_one's test of one element and
 * closest()'s walk up. What each test means, and the spec section it
 * follows, is in the file that answers it (select_internal.h lists them). */
#include <stddef.h>
#include <stdlib.h>

#include "cpu.h"
#include "select_internal.h"

enum { PREFETCH_AHEAD = 8 };   /* candidates whose start tags are fetched ahead */

/* A candidate that passed filter f: the rest of complex selector cx. Inlined
 * in the candidate loops, fp_sel_value_test not: called out of line, `a[href]`
 * took 19% more instructions. */
static inline __attribute__((always_inline)) int match_passed(fp_sel_ctx *c, const fp_sel_prefilter *f,
                                                              const int32_t *cx, uint32_t e)
{
    int decided = 1;
    if (f->vt && (decided = fp_sel_value_test(c, f, e)) == 0)
        return 0;
    if (f->exact && decided > 0)   /* a one-compound selector (`a[href]`) is matched: no call */
        return cx[1] == 1 || fp_sel_match_rest(c, cx, 0, e) == M_MATCH;
    return fp_sel_match_from(c, cx, 0, e) == M_MATCH;
}

/* inlined in the candidate loops: most candidates are settled by the first line */
static inline int prefilter_pass(const fp_sel_ctx *c, const fp_sel_prefilter *f, uint32_t e)
{
    if (f->never || (f->tag >= 0 && c->el[e].tag != (uint16_t)f->tag) || (c->el[e].attr_bits & f->bits) != f->bits)
        return 0;
    return f->n == 0 || fp_sel_needles_pass(c, f, e);
}

/* ---- the context ---- */

/* Program w's string bytes: they follow its code words. */
static const uint8_t *program_pool(const int32_t *w)
{
    return (const uint8_t *)w + 4 * (size_t)w[FP_SEL_H_CODE_LEN];
}

/* The id in doc of program w's tag slot k, a (string, known id) pair: the
 * known id, else the document's interned one, else -1 (no such element). */
static int32_t slot_tag_id(const fp_doc *doc, const int32_t *w, int32_t k)
{
    const int32_t *slot = w + w[FP_SEL_H_TAGS] + 2 * k;
    if (slot[1])
        return slot[1];
    const int32_t *str = w + w[FP_SEL_H_STRS] + 2 * slot[0];   /* (offset, length), as fp_sel_str reads it */
    return fp_tag_interned(doc, program_pool(w) + str[0], (size_t)str[1]);
}

/* The fields every context starts with: the document, and the known tag ids
 * of the form states (a program without them keeps them -1: no test reads them). */
static void ctx_start(fp_sel_ctx *c, const fp_doc *doc, int forms)
{
    /* up[] and small_block are left out: a select_one in a loop would spend
     * more on zeroing them than on matching */
    memset(c, 0, offsetof(fp_sel_ctx, up));
    c->doc = doc;
    c->el = doc->elems;
    c->n = doc->n;
    c->scope = -1;
    c->meta_lang = -2;
    c->t_select = forms ? FP_TAG_SELECT : -1;
    c->t_option = forms ? FP_TAG_OPTION : -1;
    c->t_optgroup = forms ? FP_TAG_OPTGROUP : -1;
    c->t_hr = forms ? FP_TAG_HR : -1;
    c->t_datalist = forms ? FP_TAG_DATALIST : -1;
    c->t_input = forms ? FP_TAG_INPUT : -1;
    c->t_button = forms ? FP_TAG_BUTTON : -1;
    c->t_form = forms ? FP_TAG_FORM : -1;
}

void fp_sel_ctx_bare(fp_sel_ctx *c, const fp_doc *doc)
{
    ctx_start(c, doc, 1);
}

static int ctx_init(fp_sel_ctx *c, const fp_doc *doc, int32_t scope, const uint8_t *prog,
                    const fp_select_tables *tables)
{
    const int32_t flags = ((const int32_t *)prog)[FP_SEL_H_FLAGS];
    ctx_start(c, doc, (flags & FP_SEL_F_FORMS) != 0);
    c->w = (const int32_t *)prog;
    c->pool = program_pool(c->w);
    c->scope = scope;
    c->flags = flags;
    const uint32_t *siblings = tables ? tables->siblings : NULL;
    c->index = tables ? tables->index : NULL;
    /* built with the form tag ids, which a program without F_FORMS leaves -1 */
    const int32_t form_tables = FP_SEL_F_FORMS | FP_SEL_F_FORM_TABLES;
    if (tables && tables->forms && (flags & form_tables) == form_tables)
        c->forms = (struct fp_sel_forms *)tables->forms;   /* shared: select_forms.c writes none of it
                                                             * but its invalid forms, published once */
    if (siblings) {
        uint32_t n = doc->n;
        c->sib = SIB_BORROWED;
        c->prev = (int32_t *)(void *)fp_sib_column(siblings, n, FP_SIB_PREV);
        c->pos = fp_sib_column(siblings, n, FP_SIB_POS);
        c->rpos = fp_sib_column(siblings, n, FP_SIB_RPOS);
        if (c->flags & FP_SEL_F_OF_TYPE) {   /* as the run's own tables: none unless asked for */
            c->tpos = fp_sib_column(siblings, n, FP_SIB_TPOS);
            c->trpos = fp_sib_column(siblings, n, FP_SIB_TRPOS);
        }
    }
    int32_t ntags = c->w[FP_SEL_H_NTAGS], nhas = c->w[FP_SEL_H_NHAS], nnth = c->w[FP_SEL_H_NNTHOF];
    /* one block for the per-slot tables: most programs need a few words */
    size_t nptr = (size_t)nhas + 2 * (size_t)nnth;
    size_t nint = ((size_t)ntags * sizeof(int) + sizeof(void *) - 1) / sizeof(void *);
    /* a select_one in a scraping loop runs a few-word program: no calloc */
    void **block;
    if (nptr + nint <= 8)
        block = memset(c->small_block, 0, sizeof c->small_block);
    else if (!(block = fp_sel_zalloc(c, nptr + nint, sizeof(void *))))
        return -1;
    c->block = block;
    c->has_memo = block;
    c->nth_count = block + nhas;
    c->nth_pos = block + nhas + nnth;
    c->tag_ids = (int *)(void *)(block + nptr);
    for (int32_t k = 0; k < ntags; k++)
        c->tag_ids[k] = slot_tag_id(doc, c->w, k);
    return 0;
}

/* Most runs allocate nothing but what they found: the frees are skipped, not
 * made on NULL, since a select_one in a loop would spend a tenth of its time
 * calling free(). */
void fp_sel_ctx_free(fp_sel_ctx *c)
{
    for (int j = 0; j < c->nup; j++)
        fp_sel_memo_free(c, c->up[j].memo);
    for (int32_t k = 0; c->has_memo && k < c->w[FP_SEL_H_NHAS]; k++)
        fp_sel_memo_free(c, c->has_memo[k]);
    for (int32_t k = 0; c->nth_count && k < c->w[FP_SEL_H_NNTHOF]; k++) {
        fp_sel_memo_free(c, c->nth_count[k]);
        fp_sel_memo_free(c, c->nth_pos[k]);
    }
    if (c->block != c->small_block)
        free(c->block);
    if (c->sib == SIB_OWNED) {
        free(c->sib_done);
        free(c->prev);
        free(c->pos);
        free(c->rpos);
        free(c->tpos);
        free(c->trpos);
        free(c->tag_count);
    }
    if (c->chosen_option)
        fp_sel_memo_free(c, c->chosen_option);
    if (c->forms || c->template_forms)
        fp_sel_forms_free(c);
    free(c->invalid_forms);
    if (c->contains)
        fp_sel_contains_free(c);
    if (c->dir_memo)
        fp_sel_memo_free(c, c->dir_memo);
    if (c->first_legend)
        fp_sel_memo_free(c, c->first_legend);
    if (c->lang_from)
        fp_sel_memo_free(c, c->lang_from);
    if (c->text.data)
        fp_buf_free(&c->text);
    if (c->val.data)
        fp_buf_free(&c->val);
}

/* ---- the runs ---- */

/* Where tag's list in the index reaches `first`: the list is in document order. */
static uint32_t list_from(const uint32_t *index, uint32_t tag, uint32_t first)
{
    return fp_sel_lower_bound(index + 2 + index[0], index[1 + tag], index[2 + tag], first);
}

/* Appends the elements of tag in [first, end), at most limit: the answer of a
 * selector that is the tag alone. 0, or -1 out of memory. */
static int append_tag_range(const uint32_t *index, int32_t tag, uint32_t first, uint32_t end, uint32_t limit,
                            fp_buf *out)
{
    if (tag < 0 || (uint32_t)tag >= index[0])
        return 0;
    const uint32_t *list = index + 2 + index[0];
    uint32_t lo = list_from(index, (uint32_t)tag, first), hi = lo, stop = index[1 + tag + 1];
    while (hi < stop && list[hi] < end && hi - lo < limit)
        hi++;
    return hi > lo ? fp_buf_append(out, list + lo, (hi - lo) * sizeof *list) : 0;
}

/* The run over the tag index, when the rightmost compound of every complex
 * selector in the list names a tag: only the elements of those tags, taken
 * from their lists in document order (a merge: `h2, h3` visits h2s and h3s). */
static void run_indexed(fp_sel_ctx *c, const int32_t *root, const fp_sel_prefilter *pf, const uint32_t *index,
                        uint32_t first, uint32_t end, uint32_t limit, fp_buf *out)
{
    uint32_t ntags = index[0];
    const uint32_t *list = index + 2 + ntags, *off = index + 1;
    int32_t ncx = root[1];
    uint32_t at[PREFILTER_MAX], stop[PREFILTER_MAX];
    for (int32_t k = 0; k < ncx; k++) {
        uint32_t tag = (uint32_t)pf[k].tag;
        at[k] = stop[k] = 0;
        if (pf[k].never || tag >= ntags)
            continue;
        stop[k] = off[tag + 1];
        at[k] = list_from(index, tag, first);
    }
    const int32_t *cx = c->w + root[2];
    if (ncx == 1) {   /* one list: no merge */
        /* its elements have the filter's tag (a filter that never passes left it
         * empty), and those before `end` are found once: a candidate costs the
         * bits, the needles and the match */
        const fp_sel_prefilter *f = &pf[0];
        const uint16_t bits = f->bits;
        uint32_t hi = stop[0], found = 0;
        if (hi > at[0] && list[hi - 1] >= end)
            hi = fp_sel_lower_bound(list, at[0], hi, end);
        /* a value test or a needle reads the candidate's start tag, far apart
         * in a large page's source: fetched a few candidates ahead */
        const int reads_tag = f->vt != NULL || f->n > 0;
        for (uint32_t i = at[0]; i < hi && found < limit && !c->oom; i++) {
            uint32_t e = list[i];
            if (reads_tag && i + PREFETCH_AHEAD < hi)
                __builtin_prefetch(c->doc->buf + c->el[list[i + PREFETCH_AHEAD]].start);
            if ((c->el[e].attr_bits & bits) != bits || (f->n && !fp_sel_needles_pass(c, f, e)) ||
                !match_passed(c, f, cx, e))
                continue;
            if (fp_buf_append(out, &e, sizeof e) != 0)
                c->oom = 1;
            found++;
        }
        return;
    }
    for (uint32_t found = 0; found < limit && !c->oom;) {
        uint32_t e = end;   /* the next candidate: the smallest head of the lists */
        for (int32_t k = 0; k < ncx; k++)
            if (at[k] < stop[k] && list[at[k]] < e)
                e = list[at[k]];
        if (e >= end)
            break;
        int matched = 0;
        for (int32_t k = 0; k < ncx; k++) {
            if (at[k] >= stop[k] || list[at[k]] != e)
                continue;
            at[k]++;   /* several selectors may name the same tag: each list moves past e */
            if (!matched && prefilter_pass(c, &pf[k], e) && match_passed(c, &pf[k], c->w + root[2 + k], e))
                matched = 1;
        }
        if (matched) {
            if (fp_buf_append(out, &e, sizeof e) != 0)
                c->oom = 1;
            found++;
        }
    }
}

/* The run over elements first..end-1 in document order for one complex
 * selector cx whose filter is f: the loop most `select` calls without a tag
 * index make (a small document, `.price`, `[itemprop]`), with the filter's
 * fields in registers; template contents are stepped over. */
static void run_scan_one(fp_sel_ctx *c, const int32_t *cx, const fp_sel_prefilter *f, uint32_t first, uint32_t end,
                         uint32_t limit, fp_buf *out)
{
    if (f->never)
        return;
    const fp_elem *el = c->el;
    const int tag = f->tag;
    const uint16_t bits = f->bits;
    uint32_t found = 0;
    for (uint32_t e = first; e < end && found < limit; e++) {
        /* most elements fail the tag or the bits: stepped over in a tight
         * loop, which stops at templates to step over their contents */
        if (tag >= 0)
            while (e < end && el[e].tag != (uint16_t)tag && el[e].tag != FP_TAG_TEMPLATE)
                e++;
        else
            while (e < end && (el[e].attr_bits & bits) != bits && el[e].tag != FP_TAG_TEMPLATE)
                e++;
        if (e >= end)
            break;
        uint16_t t = el[e].tag;
        /* prefilter_pass with `never` settled above and the fields in
         * registers (calling it costs [itemprop] 3.5% more instructions) */
        if ((tag < 0 || t == (uint16_t)tag) && (el[e].attr_bits & bits) == bits &&
            (f->n == 0 || fp_sel_needles_pass(c, f, e)) && match_passed(c, f, cx, e)) {
            if (c->oom || fp_buf_append(out, &e, sizeof e) != 0) {
                c->oom = 1;
                return;
            }
            found++;
        }
        if (t == FP_TAG_TEMPLATE && fp_html_is(&el[e], FP_TAG_TEMPLATE))   /* t, el in registers: most stop at t */
            e = el[e].last; /* its contents are not candidates */
    }
}

/* index: the tag index, whose template list answers at once for most documents */
static int inside_template(const fp_elem *el, int32_t e, const uint32_t *index)
{
    if (!fp_select_index_count(index, FP_TAG_TEMPLATE))
        return 0;   /* the document has no <template> */
    for (; e >= 0; e = el[e].parent)
        if (fp_html_is(&el[e], FP_TAG_TEMPLATE))
            return 1;
    return 0;
}

/* The tag id in doc of a program that is one type selector (`p`, `title`), or
 * -1 when doc has no element of that name; -2 for any other program. */
static int32_t lone_tag(const fp_doc *doc, const int32_t *w)
{
    const int32_t *list = w + w[FP_SEL_H_ROOT], *cx = w + list[2], *compound = w + cx[2];
    if (list[1] != 1 || cx[1] != 1 || compound[1] != 1 || compound[2] != FP_SEL_T_TAG)
        return -2;
    return slot_tag_id(doc, w, compound[3]);
}

fp_status fp_select_run(const fp_doc *doc, int32_t scope, const uint8_t *prog, size_t len,
                        uint32_t limit, const fp_select_tables *tables, fp_buf *out)
{
    FP_V3_DISPATCH(fp_select_run, doc, scope, prog, len, limit, tables, out);
    (void)len;
    uint32_t first = scope < 0 ? 0 : (uint32_t)scope + 1;
    uint32_t end = scope < 0 ? doc->n : doc->elems[scope].last + 1;
    /* `p`, `title`: the tag's list is the answer, with no context to set up
     * (most of what such a select cost) */
    const uint32_t *index = tables ? tables->index : NULL;
    int32_t tag = index ? lone_tag(doc, (const int32_t *)prog) : -2;
    if (tag != -2 && !inside_template(doc->elems, scope, index))
        return append_tag_range(index, tag, first, end, limit, out) == 0 ? FP_OK : FP_ENOMEM;
    fp_sel_ctx c;
    if (ctx_init(&c, doc, scope, prog, tables) != 0) {
        fp_sel_ctx_free(&c);
        return FP_ENOMEM;
    }
    c.up_ok = 1;   /* many candidates share ancestors: worth a memo */
    const int32_t *root = c.w + c.w[FP_SEL_H_ROOT];
    int32_t ncx = root[1];
    fp_sel_prefilter pf[PREFILTER_MAX];
    int filtered = ncx <= PREFILTER_MAX;
    if (index && inside_template(doc->elems, scope, index))
        index = NULL;   /* it leaves template contents out */
    for (int32_t k = 0; filtered && k < ncx; k++)
        fp_sel_prefilter_build(&c, c.w + root[2 + k], &pf[k], index);
    int by_tag = index && filtered;
    for (int32_t k = 0; by_tag && k < ncx; k++)
        by_tag = pf[k].tag >= 0 || pf[k].never;
    if (by_tag) {
        if (!(ncx == 1 && fp_sel_join(&c, c.w + root[2], index, limit, out)))
            run_indexed(&c, root, pf, index, first, end, limit, out);
        end = first; /* done */
    } else if (filtered && ncx == 1) {
        run_scan_one(&c, c.w + root[2], &pf[0], first, end, limit, out);
        end = first; /* done */
    }
    uint32_t found = 0;
    for (uint32_t e = first; e < end && found < limit && !c.oom; e++) {
        for (int32_t k = 0; k < ncx; k++) {
            const int32_t *cx = c.w + root[2 + k];
            if (filtered ? prefilter_pass(&c, &pf[k], e) && match_passed(&c, &pf[k], cx, e)
                         : fp_sel_match_from(&c, cx, 0, e) == M_MATCH) {
                if (fp_buf_append(out, &e, sizeof e) != 0)
                    c.oom = 1;
                found++;
                break;
            }
        }
        if (is_template(&c, e))
            e = doc->elems[e].last; /* its contents are not candidates */
    }
    int oom = c.oom;
    fp_sel_ctx_free(&c);
    return oom ? FP_ENOMEM : FP_OK;
}

int fp_select_test(const fp_doc *doc, uint32_t i, const uint8_t *prog, size_t len, const fp_select_tables *tables)
{
    FP_V3_DISPATCH(fp_select_test, doc, i, prog, len, tables);
    (void)len;
    int32_t tag = lone_tag(doc, (const int32_t *)prog);
    if (tag != -2)   /* `div`: the element's own tag decides */
        return tag >= 0 && doc->elems[i].tag == (uint16_t)tag;
    fp_sel_ctx c;
    int r = -1;
    if (ctx_init(&c, doc, (int32_t)i, prog, tables) == 0) {
        r = fp_sel_match_list(&c, c.w[FP_SEL_H_ROOT], i);
        if (c.oom)
            r = -1;
    }
    fp_sel_ctx_free(&c);
    return r;
}

int32_t fp_select_closest(const fp_doc *doc, uint32_t i, const uint8_t *prog, size_t len,
                          const fp_select_tables *tables)
{
    FP_V3_DISPATCH(fp_select_closest, doc, i, prog, len, tables);
    (void)len;
    int32_t tag = lone_tag(doc, (const int32_t *)prog);
    if (tag != -2) {   /* `div`: the first of i and its ancestors of that tag */
        int32_t x = tag >= 0 ? (int32_t)i : -1;
        while (x >= 0 && doc->elems[x].tag != (uint16_t)tag)
            x = parent_in(doc->elems, (uint32_t)x);
        return x;
    }
    fp_sel_ctx c;
    int32_t found = -2;
    if (ctx_init(&c, doc, (int32_t)i, prog, tables) == 0) {
        /* one context for the whole walk: its memos (:has, :lang, :dir...) serve every ancestor */
        int32_t x = (int32_t)i;
        while (x >= 0 && !fp_sel_match_list(&c, c.w[FP_SEL_H_ROOT], (uint32_t)x))
            x = parent_of(&c, (uint32_t)x);   /* none above a template's contents (DOM 4.8) */
        found = c.oom ? -2 : x;
    }
    fp_sel_ctx_free(&c);
    return found;
}
