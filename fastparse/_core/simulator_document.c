/* simulator_document.c — the document's frame: <html>, <head> and <body>
 * (the modes before the body, 13.2.6.4.1-13.2.6.4.6, and the body the spec
 * implies when content comes first), head tags after </head>, and a
 * <frameset> that replaces the body (13.2.6.4.20-13.2.6.4.22). */
#include "simulator_internal.h"

/* Whether parse.c must report text runs (fp_sim_text): while text can end
 * the head, a head <noscript> or a column group, begin the body, reopen it
 * after </body> or </html>, clear frameset-ok, or reconstruct a formatting
 * element an enclosing element's end closed (simulator_ghosts.c). A <template> clears
 * frameset-ok before the body may have begun: !body_seen still watches. */
void
fp_sim_update_watch(fp_sim *s)
{
    s->watch_text = s->head_open || s->body_end_pending || s->html_end_pending || s->frameset_ok ||
                    !s->body_seen || s->head_noscript >= 0 || s->after_head || in_column_group(s) ||
                    s->nghosts;
}

/* The first element of the body: after the <html>, the head and what went
 * into it (an implied head holds the head tags before the first body tag). */
static uint32_t
body_start(const fp_sim *s)
{
    if (s->head >= 0)
        return s->e[s->head].last + 1;
    uint32_t i = s->html >= 0 ? (uint32_t)s->html + 1 : 0;
    while (i < s->doc->n && i < s->body_from && is_head_tag(s->e[i].tag))
        i++;
    return i;
}

/* <frameset> in body with frameset-ok: it replaces the body. The spec removes
 * the (implied) body and everything in it; frameset-ok means only elements
 * that do not matter to a frameset page were seen (div, p, span, svg...). They
 * are the last ones indexed, so the index is cut back to where the body began. */
int32_t
fp_sim_start_frameset(fp_sim *s, int tag, uint32_t lt, uint32_t gt)
{
    if (!starts_before_head(s))
        return -1;   /* a fragment in the body */
    /* before the body ("after head" and the modes before it) a frameset needs
     * no frameset-ok: template content may have cleared it, and there is no
     * body to remove */
    int before_body = s->body < 0 && !fp_sim_body_seen_before(s, s->doc->n);
    if ((!s->frameset_ok && !before_body) || open_html_of(s, FP_TAG_TEMPLATE) >= 0)
        return -1;
    int32_t root = s->html >= 0 && open_of(s, FP_TAG_HTML) == s->html ? s->html : -1;
    if (root >= 0)
        fp_sim_close_above(s, root, FP_CLOSED_IMPLIED, lt);
    else
        while (s->top >= 0)
            fp_sim_pop(s, s->e[s->top].parent < 0 ? FP_CLOSED_IMPLIED : FP_CLOSED_PARENT_END, lt, lt);
    uint32_t cut = before_body ? s->doc->n : body_start(s);
    if (root >= 0 && cut <= (uint32_t)root)
        cut = (uint32_t)root + 1;   /* an open root stays (late_html_indexed keeps it after the body's start) */
    /* the body goes, and its text with it (text.c); before the body, nothing */
    uint32_t from = cut < s->doc->n ? s->e[cut].start : lt;
    s->doc->removed_from = !before_body && s->body_seen && s->body_at < from ? s->body_at : from;
    if (cut < s->doc->n) {
        fp_sim_error(s, FP_ERR_UNEXPECTED_START_TAG, lt);
        /* comments inside the removed elements go with them */
        while (s->doc->ncomments && s->doc->comments[s->doc->ncomments - 1].start > s->e[cut].start)
            s->doc->ncomments--;
        if (s->doc->n > s->cut_from)
            s->cut_from = s->doc->n;   /* the pages past the cut were touched (fp_sim_used) */
        s->doc->n = cut;
        for (uint32_t i = 0; i < cut; i++)   /* what stays is closed; none reaches past the cut */
            if (s->e[i].last >= cut)
                s->e[i].last = cut - 1;
        while (s->doc->nform_ptr && s->doc->form_ptr[s->doc->nform_ptr - 1].from > cut)
            s->doc->nform_ptr--;   /* changes made by the removed elements */
        if (s->form_ptr >= (int32_t)cut)
            fp_sim_set_form_ptr(s, -1);
        if (s->seen_upto > cut)
            s->seen_upto = cut;
        if (s->tmpl_skip >= (int32_t)cut)
            s->tmpl_skip = -1;
    }
    s->in_frameset = 1;
    s->frameset_ok = 0;
    s->nghosts = 0;   /* "in frameset" ignores their end tags; the indices may be cut */
    s->nstale = 0;
    s->ghost_tags = 0;
    s->doc->frameset_from = gt;
    return fp_sim_push(s, tag, 0, lt, gt);
}

/* "after head": the head tags but <noscript> (base, link, meta, script,
 * style, template, title...) after </head> go into the head. The spec pushes
 * the head back, inserts, and removes the head again; here the head goes back
 * on the stack marked removed, so it ends when the element put into it does. */
void
fp_sim_reopen_head(fp_sim *s)
{
    if (!s->doc->head_end)
        s->doc->head_end = s->e[s->head].end;   /* what "after head" inserts from here is not the head's */
    s->open_bits[s->head] = FP_REMOVED;
    s->removed_open++;
    s->top = s->head;
    s->depth++;
}

/* "in frameset" / "after frameset": only frameset, frame and noframes count.
 * A fragment stays "in frameset" when its last frameset closes. */
int32_t
fp_sim_start_in_frameset(fp_sim *s, int tag, uint32_t lt, uint32_t gt)
{
    int open = open_of(s, FP_TAG_FRAMESET) >= 0 || s->ctx;
    if (tag == FP_TAG_NOFRAMES) {
        int32_t i = fp_sim_push(s, tag, 0, lt, gt);
        if (i >= 0)
            s->e[i].flags |= FP_EF_RAWTEXT;
        return i;
    }
    if (!open || (tag != FP_TAG_FRAMESET && tag != FP_TAG_FRAME))
        return -1;
    int32_t i = fp_sim_push(s, tag, 0, lt, gt);
    if (i >= 0 && tag == FP_TAG_FRAME)
        fp_sim_pop(s, FP_CLOSED_VOID, gt, gt);
    return i;
}

/* <head>: in body (the body may be implied: content came first), in a
 * template or after the head it is ignored. Out of line, as the other rare
 * start tags: fp_sim_start_html's hot path keeps fewer registers. */
__attribute__((noinline)) int32_t
fp_sim_start_head(fp_sim *s, uint32_t lt, uint32_t gt)
{
    if (s->head >= 0 || s->body >= 0 || !starts_before_head(s) ||
        open_html_of(s, FP_TAG_TEMPLATE) >= 0 || s->implied_head_ended ||
        fp_sim_body_seen_before(s, s->doc->n))
        return -1;
    int32_t c = fp_sim_push(s, FP_TAG_HEAD, 0, lt, gt);
    s->head = c;
    s->head_open = c >= 0;
    s->watch_text = 1;
    return c;
}

/* <body>: the first one outside a template, where it is not a fragment's */
__attribute__((noinline)) int32_t
fp_sim_start_body(fp_sim *s, uint32_t lt, uint32_t gt)
{
    if (s->body >= 0 || !starts_before_head(s) || open_html_of(s, FP_TAG_TEMPLATE) >= 0)
        return -1;  /* a second <body> only adds attributes; a template holds none */
    if (s->head_open)
        fp_sim_close_until(s, s->head, FP_CLOSED_IMPLIED, lt, lt);
    s->body_seen = 1;   /* as body_seen_before would find: <body> is body content */
    int32_t c = fp_sim_push(s, FP_TAG_BODY, 0, lt, gt);
    /* Content came first and is still open (<div><body>): the spec implied
     * the body before it and ignores this tag but for its attributes. The
     * tag stays indexed (its attributes, doc.find("body")) as an empty
     * element, so what follows keeps its parents. */
    if (c >= 0 && s->e[c].parent >= 0 && s->e[c].parent != s->html)
        fp_sim_pop(s, FP_CLOSED_IMPLIED, gt, gt);
    return s->body = c;
}

/* items (n of size bytes, capacity *cap) with room for one more: the same or
 * grown (doubled, from first); NULL with the parse failed for memory. */
void *
fp_sim_with_room(fp_sim *s, void *items, uint32_t n, uint32_t *cap, size_t size, uint32_t first)
{
    if (n < *cap)
        return items;
    uint32_t want = *cap ? *cap * 2 : first;
    void *more = realloc(items, (size_t)want * size);
    if (!more) {
        s->status = FP_ENOMEM;
        return NULL;
    }
    *cap = want;
    return more;
}

void
fp_sim_set_form_ptr(fp_sim *s, int32_t form)
{
    fp_doc *d = s->doc;
    s->form_ptr = form;
    fp_form_change *changes = fp_sim_with_room(s, d->form_ptr, d->nform_ptr, &d->form_ptr_cap, sizeof *changes, 4);
    if (!changes)
        return;
    d->form_ptr = changes;
    changes[d->nform_ptr++] = (fp_form_change){d->n, form};
}

void
fp_sim_merge_attributes(fp_sim *s, int32_t into, const fp_tag_token *t, uint32_t lt, uint32_t gt)
{
    fp_sim_error(s, FP_ERR_UNEXPECTED_START_TAG, lt);
    if (into < 0 || !t->attr_bits || open_html_of(s, FP_TAG_TEMPLATE) >= 0)
        return;   /* a template on the stack: the spec ignores the tag */
    fp_doc *d = s->doc;
    fp_merged_tag *merged = fp_sim_with_room(s, d->merged, d->nmerged, &d->merged_cap, sizeof *merged, 2);
    if (!merged)
        return;
    d->merged = merged;
    /* "<html" and "<body" are as long: the attributes start 5 bytes in */
    merged[d->nmerged++] = (fp_merged_tag){(uint32_t)into, lt + 5, gt};
    s->e[into].attr_bits |= t->attr_bits;
}

/* Element i sits where head content goes: in the open head, or, before any
 * head, at the top level or in <html> (not in a template, whose content is
 * body content) */
int
fp_sim_in_head_position(const fp_sim *s, uint32_t i)
{
    int32_t p = s->e[i].parent;
    if (s->head_open)
        return p == s->head;
    return s->head < 0 && (p < 0 || s->e[p].tag == FP_TAG_HTML);
}

/* Whether an element that belongs in body (not html, head, a head tag or
 * template content) starts before element i, or body text was seen. Scans
 * each element once; a template's content is stepped over as a range (all
 * that was indexed after it while it is still open). */
int
fp_sim_body_seen_before(fp_sim *s, uint32_t i)
{
    while (!s->body_seen && s->seen_upto < i) {
        if (s->tmpl_skip >= 0) {
            int32_t t = s->tmpl_skip;
            uint32_t past = s->open_bits[t] ? i : s->e[t].last + 1;
            if (s->seen_upto < past)
                s->seen_upto = past;
            else
                s->tmpl_skip = -1;
            continue;
        }
        const fp_elem *e = &s->e[s->seen_upto];
        if (fp_html_is(e, FP_TAG_TEMPLATE))
            s->tmpl_skip = (int32_t)s->seen_upto;
        else if (!is_head_tag(e->tag) && e->tag != FP_TAG_HTML && e->tag != FP_TAG_HEAD)
            s->body_seen = 1;
        s->seen_upto++;
    }
    return s->body_seen;
}

/* Text, an ignored start tag, a </body> or </html> at offset `at` began the
 * body: what comes next is body content, head tags included (a <frameset>
 * removes them with it), and "after head" is over. */
void
fp_sim_begin_body(fp_sim *s, uint32_t at)
{
    if (!s->body_seen) {
        s->body_from = s->doc->n;
        s->body_at = at;
    }
    s->body_seen = 1;
    if (s->after_head) {
        s->after_head = 0;
        fp_sim_update_watch(s);
    }
}
