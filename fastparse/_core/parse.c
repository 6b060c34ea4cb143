/* parse.c — the parse loop: find each '<' (scan.c), let the tokenizer say
 * what it opens (tokenizer_*.c), let the simulator decide nesting
 * (simulator.c), and jump over raw text. The index grows by doubling from a
 * guess made from the input size and is trimmed to its length at the end. */
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "simulator.h"
#include "tokenizer_tag.h"

/* Tag id of an unknown name: interned (start tags) or looked up (end tags).
 * U+0000 NULL in a tag name is U+FFFD REPLACEMENT CHARACTER (13.2.5.8). In an
 * encoding whose second bytes may be ASCII letters (fp_options.dbcs), the
 * name's case is folded but for those bytes. */
static int
name_id(fp_doc *doc, const uint8_t *name, size_t len, int intern)
{
    int dbcs = doc->opts.dbcs && fp_skip_ascii(name, name + len) != name + len ? doc->opts.dbcs : 0;
    if (!dbcs && !memchr(name, 0, len))
        return intern ? fp_tag_intern(&doc->names, name, len, 0) : fp_tag_lookup(doc, name, len);
    fp_buf b = {0};
    int id = -1;
    if (fp_name_folded(dbcs, name, len, 0, &b) == 0)   /* no known name holds U+FFFD or a byte >= 0x80 */
        id = intern ? fp_tag_intern(&doc->names, b.data, b.len, 1) : fp_tag_interned_folded(doc, b.data, b.len);
    fp_buf_free(&b);
    return id;
}

static int
resolve_tag(fp_doc *doc, const fp_tag_token *t)
{
    return t->tag ? t->tag : name_id(doc, t->name, t->name_len, 1);
}

/* An element whose content is raw text: find its end tag and close it there;
 * left open (closed at EOF) when there is none. Returns where to go on. */
static const uint8_t *
skip_raw_text(fp_sim *s, int32_t i, const uint8_t *from, const uint8_t *end)
{
    fp_doc *d = s->doc;
    const fp_elem *el = &d->elems[i];
    const uint8_t *close;
    size_t len;
    int escaped = 0;
    const uint8_t *name = fp_tag_name(d, el->tag, &len);
    if (el->tag == FP_TAG_SCRIPT)
        close = fp_tok_script_end(from, end, &escaped);
    else if (el->tag == FP_TAG_PLAINTEXT)
        close = end;
    else
        close = fp_tok_rawtext_end(from, end, name, len);
    if (close >= end) {
        if (escaped)
            fp_sim_error(s, FP_ERR_EOF_IN_SCRIPT_HTML_COMMENT_LIKE_TEXT, (uint32_t)d->len);
        return end;
    }
    fp_tag_token et;
    const uint8_t *gt = fp_tok_tag(close + 2, end, &et);
    if (!gt) {
        /* input ends inside the end tag: the tokenizer drops the partial tag,
         * so the raw text stops before it */
        fp_sim_error(s, FP_ERR_EOF_IN_TAG, (uint32_t)d->len);
        s->eof_text_end = (uint32_t)(close - d->buf);
        return end;
    }
    fp_sim_close_top(s, (uint32_t)(close - d->buf), (uint32_t)(gt - d->buf));
    return gt;
}

/* A comment for doc.comments: data [data, data_end) of the one starting at lt. */
static int
add_comment(fp_doc *d, const uint8_t *lt, const uint8_t *data, const uint8_t *data_end)
{
    if (d->ncomments == d->comments_cap) {
        uint32_t cap = d->comments_cap ? d->comments_cap * 2 : 8;
        fp_comment *grown = realloc(d->comments, cap * sizeof *grown);
        if (!grown)
            return -1;
        d->comments = grown;
        d->comments_cap = cap;
    }
    fp_comment *c = &d->comments[d->ncomments++];
    c->start = (uint32_t)(lt - d->buf);
    c->data = (uint32_t)(data - d->buf);
    c->data_end = (uint32_t)(data_end - d->buf);
    c->target = c->target_end = 0;
    return 0;
}

static int
cmp_merged(const void *a, const void *b)
{
    const fp_merged_tag *x = a, *y = b;
    if (x->elem != y->elem)
        return x->elem < y->elem ? -1 : 1;
    return (x->attrs > y->attrs) - (x->attrs < y->attrs);
}

int32_t
fp_parser_form(const fp_doc *d, uint32_t i)
{
    uint32_t lo = 0, hi = d->nform_ptr;
    while (lo < hi) {   /* the last change before element i was created */
        uint32_t mid = lo + (hi - lo) / 2;
        if (d->form_ptr[mid].from <= i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? d->form_ptr[lo - 1].form : -1;
}

/* A processing instruction for doc.processing_instructions, kept with the comments. */
static int
add_processing_instruction(fp_doc *d, const uint8_t *lt, const fp_pi_token *pi)
{
    if (add_comment(d, lt, pi->data, pi->data_end) < 0)
        return -1;
    fp_comment *c = &d->comments[d->ncomments - 1];
    c->target = (uint32_t)(pi->target - d->buf);
    c->target_end = (uint32_t)(pi->target_end - d->buf);
    return 0;
}

/* The data of a bogus comment that starts at data: up to the first '>' or the end. */
static int
add_bogus_comment(fp_doc *d, const uint8_t *lt, const uint8_t *data, const uint8_t *stop)
{
    return add_comment(d, lt, data, stop > data && stop[-1] == '>' ? stop - 1 : stop);
}

/* Just past the '>' when name (just after "</") is the current node's end tag
 * with nothing else in it ("</div>", any case), else NULL. Most end tags
 * close the current node: this spares them the name scan and table lookup. */
static const uint8_t *
current_end_tag(const fp_sim *s, const uint8_t *name, const uint8_t *end)
{
    if (s->top < 0)
        return NULL;
    uint16_t tag = s->doc->elems[s->top].tag;
    if (tag >= FP_TAG__COUNT && s->doc->opts.dbcs)
        return NULL;   /* a second byte's letter keeps its case there: name_id folds */
    size_t n;
    const uint8_t *want = fp_tag_name_inline(s->doc, tag, &n);
    if ((size_t)(end - name) <= n || name[n] != '>')
        return NULL;
    for (size_t k = 0; k < n; k++)
        if (fp_lower(name[k]) != want[k])
            return NULL;
    return name + n + 1;
}

/* "</": an end tag, "</>" (ignored), a bogus comment, or text at EOF. */
static const uint8_t *
end_tag_open(fp_sim *s, const uint8_t *lt, const uint8_t *end)
{
    fp_doc *d = s->doc;
    uint32_t at = (uint32_t)(lt - d->buf);
    if (lt + 2 >= end) {
        fp_sim_error(s, FP_ERR_EOF_BEFORE_TAG_NAME, at);
        if (s->watch_text)
            fp_sim_text(s, lt, end, 0);   /* "</" is text */
        return end;
    }
    if (fp_is_alpha(lt[2])) {
        const uint8_t *gt = current_end_tag(s, lt + 2, end);
        if (gt) {
            fp_sim_end_current(s, at, (uint32_t)(gt - d->buf));
            return gt;
        }
        fp_tag_token t;
        gt = fp_tok_tag(lt + 2, end, &t);
        if (!gt) {
            fp_sim_error(s, FP_ERR_EOF_IN_TAG, (uint32_t)d->len);
            return end;
        }
        if (t.attr_bits)
            fp_sim_error(s, FP_ERR_END_TAG_WITH_ATTRIBUTES, at);
        if (t.self_closing)
            fp_sim_error(s, FP_ERR_END_TAG_WITH_TRAILING_SOLIDUS, at);
        /* an end tag never interns: a name never opened closes nothing */
        int tag = t.tag ? t.tag : name_id(d, t.name, t.name_len, 0);
        s->doctype_seen = 1;   /* "initial", anything else: a doctype after it is ignored (quirks) */
        fp_sim_end(s, tag, at, (uint32_t)(gt - d->buf));
        return gt;
    }
    if (lt[2] == '>') {
        fp_sim_error(s, FP_ERR_MISSING_END_TAG_NAME, at);
        return lt + 3;
    }
    fp_sim_error(s, FP_ERR_INVALID_FIRST_CHARACTER_OF_TAG_NAME, at);
    const uint8_t *stop = fp_tok_gt_end(lt + 2, end);
    if (add_bogus_comment(d, lt, lt + 2, stop) < 0)
        s->status = FP_ENOMEM;
    return stop;
}

void
fp_context_ns(uint16_t context, uint8_t *ns, uint8_t *ip)
{
    uint16_t ctx = context & FP_CTX_TAG_MASK;
    *ns = (context & FP_CTX_SVG) || ctx == FP_TAG_SVG ? FP_EF_SVG
        : (context & FP_CTX_MATHML) || ctx == FP_TAG_MATH ? FP_EF_MATHML : 0;
    *ip = 0;
    if (*ns == FP_EF_SVG && (ctx == FP_TAG_FOREIGNOBJECT || ctx == FP_TAG_DESC || ctx == FP_TAG_TITLE))
        *ip = FP_EF_HTML_IP;
    if (*ns == FP_EF_MATHML && (ctx == FP_TAG_MI || ctx == FP_TAG_MO || ctx == FP_TAG_MN ||
                                ctx == FP_TAG_MS || ctx == FP_TAG_MTEXT))
        *ip = FP_EF_TEXT_IP;
}

int
fp_context_is_text(uint16_t context, int scripting)
{
    uint16_t ctx = context & FP_CTX_TAG_MASK;
    uint8_t ns, ip;
    fp_context_ns(context, &ns, &ip);
    return ctx && !ns && ((fp_tag_flags(ctx) & FP_TF_RAWTEXT) || (ctx == FP_TAG_NOSCRIPT && scripting));
}

/* Fragment parsing: the context element decides the first tokenizer state
 * and which table/foreign rules apply (13.4, "parsing HTML fragments"). */
static int
setup_context(fp_sim *s, uint16_t context)
{
    if (fp_context_is_text(context, s->doc->opts.scripting))
        return 1;  /* no appropriate end tag exists: the whole input is text */
    uint8_t ns, ip;
    fp_context_ns(context, &ns, &ip);
    fp_sim_context(s, context & FP_CTX_TAG_MASK, ns, ip);
    return 0;
}

/* The index leaves the simulator's scratch arrays for one of its own size:
 * copied out of a set scratch.c keeps for the next parse, else the set's own
 * array, shrunk (copying would fault in as many fresh pages again). */
static int
copy_index(fp_doc *d, fp_sim *s)
{
    fp_elem *scratch = d->elems;
    d->elems = NULL;
    if (d->n == 0)
        return 0;
    if (!fp_scratch_keeps(s->cap, fp_sim_used(s)))
        return fp_sim_give_index(s);
    d->elems = malloc(d->n * sizeof *d->elems);
    if (!d->elems)
        return -1;
    memcpy(d->elems, scratch, d->n * sizeof *d->elems);
    return 0;
}

fp_status
fp_parse(fp_doc *d, const uint8_t *buf, size_t len, const fp_options *opts)
{
    FP_V3_DISPATCH(fp_parse, d, buf, len, opts);
    d->buf = buf;
    d->len = len;
    d->opts = *opts;
    d->fosters = 0;
    d->html_after_text = 0;
    d->root = 0;
    d->head_end = 0;
    d->tail_from = 0;
    if (len > opts->max_size || len >= UINT32_MAX) {
        d->fail_offset = opts->max_size < len ? opts->max_size : UINT32_MAX - 1;
        return FP_ETOOBIG;
    }
    /* a first guess at the element count that real pages (one element per
     * 30 to 300 bytes) stay under: only markup as dense as "<b>x<b>x" makes the
     * index double. Untouched capacity costs address space, not memory, and
     * the document gets an index of its own size at the end. */
    fp_sim s;
    if (fp_sim_init(&s, d, (uint32_t)(len / 8 + 16)) < 0) {
        d->elems = NULL;   /* the simulator's, if anything */
        fp_sim_free(&s);
        fp_doc_free(d);
        return FP_ENOMEM;
    }

    const uint8_t *p = buf, *end = buf + len;
    s.eof_text_end = (uint32_t)len;
    if (opts->context && setup_context(&s, opts->context))
        p = end;
    while (!s.status) {
        const uint8_t *lt = fp_scan_lt(p, end);
        if (s.watch_text && lt > p)
            fp_sim_text(&s, p, lt, 1);
        if (lt + 1 >= end) {
            if (lt < end) {   /* a '<' as the last byte: text */
                fp_sim_error(&s, FP_ERR_EOF_BEFORE_TAG_NAME, (uint32_t)(lt - buf));
                if (s.watch_text)
                    fp_sim_text(&s, lt, end, 0);
            }
            break;
        }
        uint8_t c = lt[1];
        if (fp_is_alpha(c)) {                       /* 13.2.5.6 tag open state: ASCII alpha */
            fp_tag_token t;
            const uint8_t *gt = tok_tag(lt + 1, end, &t);
            if (!gt) {
                fp_sim_error(&s, FP_ERR_EOF_IN_TAG, (uint32_t)len);
                s.eof_text_end = (uint32_t)(lt - buf);  /* the dropped tag is not text either */
                break;
            }
            int tag = resolve_tag(d, &t);
            if (tag < 0) {
                s.status = tag == -2 ? FP_ETOOMANYNAMES : FP_ENOMEM;
                d->fail_offset = (size_t)(lt - buf);
                break;
            }
            int32_t i = fp_sim_start(&s, &t, tag, (uint32_t)(lt - buf), (uint32_t)(gt - buf));
            p = gt;
            if (i >= 0 && (d->elems[i].flags & FP_EF_RAWTEXT) && s.top == i)
                p = skip_raw_text(&s, i, gt, end);
        } else if (c == '/') {                      /* U+002F SOLIDUS (/) */
            p = end_tag_open(&s, lt, end);
        } else if (c == '!') {                      /* U+0021 EXCLAMATION MARK (!) */
            int kind;
            const uint8_t *content, *content_end;
            p = fp_tok_markup(lt, end, fp_sim_in_foreign(&s), d->opts.dbcs, &kind, &content, &content_end);
            if ((kind == FP_MARKUP_COMMENT && add_comment(d, lt, content, content_end) < 0) ||
                (kind == FP_MARKUP_BOGUS && add_bogus_comment(d, lt, content, p) < 0)) {
                s.status = FP_ENOMEM;
                break;
            }
            if (kind == FP_MARKUP_DOCTYPE)
                fp_sim_doctype(&s, content, content_end);
            else if (kind == FP_MARKUP_BOGUS) {
                fp_sim_error(&s, fp_tok_cdata_open(lt, end) ? FP_ERR_CDATA_IN_HTML_CONTENT
                                                            : FP_ERR_INCORRECTLY_OPENED_COMMENT,
                             (uint32_t)(lt - buf));
            } else if (kind == FP_MARKUP_COMMENT && p == end && !fp_tok_comment_closed(content, p))
                fp_sim_error(&s, FP_ERR_EOF_IN_COMMENT, (uint32_t)len);
            else if (kind == FP_MARKUP_COMMENT && (p - content == 1 || (p - content == 2 && *content == '-')) &&
                     p[-1] == '>')
                fp_sim_error(&s, FP_ERR_ABRUPT_CLOSING_OF_EMPTY_COMMENT, (uint32_t)(lt - buf));
            if (kind == FP_MARKUP_CDATA && content_end == p)
                fp_sim_error(&s, FP_ERR_EOF_IN_CDATA, (uint32_t)len);
            if (kind == FP_MARKUP_CDATA && s.watch_text)
                fp_sim_text(&s, content, content_end, 0);
        } else if (c == '?') {                      /* U+003F QUESTION MARK (?) */
            int kind, error;
            fp_pi_token pi;
            p = fp_tok_pi(lt, end, &kind, &error, &pi);
            if (error >= 0)
                fp_sim_error(&s, error, (uint32_t)(pi.error_at - buf));
            if ((kind == FP_PI_INSTRUCTION && add_processing_instruction(d, lt, &pi) < 0) ||
                (kind == FP_PI_BOGUS && add_bogus_comment(d, lt, lt + 1, p) < 0)) {  /* '?' is data */
                s.status = FP_ENOMEM;
                break;
            }
        } else {                                    /* anything else: '<' is text */
            fp_sim_error(&s, FP_ERR_INVALID_FIRST_CHARACTER_OF_TAG_NAME, (uint32_t)(lt - buf));
            if (s.watch_text)   /* the text after it starts past it: "a <b" in <head> ends the head */
                fp_sim_text(&s, lt, lt + 1, 0);
            p = lt + 1;
        }
    }
    fp_status status = s.status;
    if (!status)
        fp_sim_eof(&s, s.eof_text_end);
    d->quirks = s.quirks && !opts->context;   /* a fragment's has no document: no-quirks */
    if (d->nmerged > 1)   /* by element, then in document order: binary searches find an element's */
        qsort(d->merged, d->nmerged, sizeof *d->merged, cmp_merged);
    if (status)
        d->elems = NULL;   /* the simulator's scratch */
    else if (copy_index(d, &s) < 0)
        status = FP_ENOMEM;
    fp_sim_free(&s);
    if (status) {
        size_t fail = d->fail_offset;
        fp_doc_free(d);
        d->fail_offset = fail;
        return status;
    }
    return FP_OK;
}

void
fp_doc_free(fp_doc *d)
{
    free(d->elems);
    free(d->errors);
    free(d->comments);
    free(d->merged);
    free(d->form_ptr);
    free(d->clone_ws);
    fp_names_free(&d->names);
    d->elems = NULL;
    d->errors = NULL;
    d->comments = NULL;
    d->merged = NULL;
    d->form_ptr = NULL;
    d->clone_ws = NULL;
    d->nform_ptr = d->form_ptr_cap = 0;
    d->nclone_ws = d->clone_ws_cap = 0;
    d->n = d->nerrors = d->errors_cap = d->ncomments = d->comments_cap = 0;
    d->nmerged = d->merged_cap = 0;
    d->has_doctype = 0;
    d->quirks = 0;
    d->html_after_text = 0;
    d->root = 0;
    d->frameset_from = d->removed_from = d->head_end = 0;
    d->tail_from = 0;
}
