/* parse.c — the parse loop: find each '<' (scan.c), let the tokenizer say
 * what it opens (tokenizer_*.c), let the simulator decide nesting
 * (simulator.c), and jump over raw text. The index is allocated once, sized
 * by the count of '<' (every element needs one), and trimmed at the end. */
#include <stdlib.h>
#include <string.h>

#include "simulator.h"

static int
resolve_tag(fp_doc *doc, const fp_tag_token *t)
{
    return t->tag ? t->tag : fp_tag_intern(&doc->names, t->name, t->name_len);
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
    const uint8_t *name = fp_tag_name(d, el->tag, &len);
    if (el->tag == FP_TAG_SCRIPT)
        close = fp_tok_script_end(from, end);
    else if (el->tag == FP_TAG_PLAINTEXT)
        close = end;
    else
        close = fp_tok_rawtext_end(from, end, name, len);
    if (close >= end) {
        if (el->tag == FP_TAG_SCRIPT)
            fp_sim_error(s, FP_ERR_EOF_IN_SCRIPT_HTML_COMMENT_LIKE_TEXT, (uint32_t)d->len);
        return end;
    }
    fp_tag_token et;
    const uint8_t *gt = fp_tok_tag(close + 2, end, &et);
    if (!gt) {
        fp_sim_error(s, FP_ERR_EOF_IN_TAG, (uint32_t)d->len);
        return end;
    }
    fp_sim_close_top(s, (uint32_t)(close - d->buf), (uint32_t)(gt - d->buf));
    return gt;
}

/* "</": an end tag, "</>" (ignored), a bogus comment, or text at EOF. */
static const uint8_t *
end_tag_open(fp_sim *s, const uint8_t *lt, const uint8_t *end)
{
    fp_doc *d = s->doc;
    uint32_t at = (uint32_t)(lt - d->buf);
    if (lt + 2 >= end) {
        fp_sim_error(s, FP_ERR_EOF_BEFORE_TAG_NAME, at);
        return end;
    }
    if (fp_is_alpha(lt[2])) {
        fp_tag_token t;
        const uint8_t *gt = fp_tok_tag(lt + 2, end, &t);
        if (!gt) {
            fp_sim_error(s, FP_ERR_EOF_IN_TAG, (uint32_t)d->len);
            return end;
        }
        if (t.has_attrs)
            fp_sim_error(s, FP_ERR_END_TAG_WITH_ATTRIBUTES, at);
        if (t.self_closing)
            fp_sim_error(s, FP_ERR_END_TAG_WITH_TRAILING_SOLIDUS, at);
        /* an end tag never interns: a name never opened closes nothing */
        int tag = t.tag ? t.tag : fp_tag_lookup(d, t.name, t.name_len);
        fp_sim_end(s, tag, at, (uint32_t)(gt - d->buf));
        return gt;
    }
    if (lt[2] == '>') {
        fp_sim_error(s, FP_ERR_MISSING_END_TAG_NAME, at);
        return lt + 3;
    }
    fp_sim_error(s, FP_ERR_INVALID_FIRST_CHARACTER_OF_TAG_NAME, at);
    return fp_tok_gt_end(lt + 2, end);
}

/* Fragment parsing: the context element decides the first tokenizer state
 * and which table/foreign rules apply (13.4, "parsing HTML fragments"). */
static int
setup_context(fp_sim *s, uint16_t ctx)
{
    uint32_t f = fp_tag_flags(ctx);
    if ((f & FP_TF_RAWTEXT) || (ctx == FP_TAG_NOSCRIPT && s->doc->opts.scripting))
        return 1;  /* no appropriate end tag exists: the whole input is text */
    s->ctx_table = (f & FP_TF_TABLE_PART) || ctx == FP_TAG_TABLE;
    s->ctx_ns = ctx == FP_TAG_SVG ? FP_EF_SVG : ctx == FP_TAG_MATH ? FP_EF_MATHML : 0;
    return 0;
}

static void
trim_index(fp_doc *d)
{
    if (d->n == 0) {
        free(d->elems);
        d->elems = NULL;
        return;
    }
    fp_elem *e = realloc(d->elems, d->n * sizeof *e);
    if (e)
        d->elems = e;
}

fp_status
fp_parse(fp_doc *d, const uint8_t *buf, size_t len, const fp_options *opts)
{
    d->buf = buf;
    d->len = len;
    d->opts = *opts;
    if (len > opts->max_size || len >= UINT32_MAX) {
        d->fail_offset = opts->max_size < len ? opts->max_size : UINT32_MAX - 1;
        return FP_ETOOBIG;
    }
    size_t cap = fp_count_byte(buf, len, '<') + 1;
    d->elems = malloc(cap * sizeof *d->elems);
    fp_sim s;
    if (!d->elems || fp_sim_init(&s, d, (uint32_t)cap) < 0) {
        if (d->elems)
            fp_sim_free(&s);
        fp_doc_free(d);
        return FP_ENOMEM;
    }

    const uint8_t *p = buf, *end = buf + len;
    if (opts->context && setup_context(&s, opts->context))
        p = end;
    while (!s.status) {
        const uint8_t *lt = fp_scan_lt(p, end);
        if (s.watch_text && lt > p)
            fp_sim_text(&s, p, lt);
        if (lt + 1 >= end)
            break;
        uint8_t c = lt[1];
        if (fp_is_alpha(c)) {                       /* 13.2.5.6 tag open state: ASCII alpha */
            fp_tag_token t;
            const uint8_t *gt = fp_tok_tag(lt + 1, end, &t);
            if (!gt) {
                fp_sim_error(&s, FP_ERR_EOF_IN_TAG, (uint32_t)len);
                break;
            }
            int tag = resolve_tag(d, &t);
            if (tag < 0) {
                s.status = FP_ENOMEM;
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
            p = fp_tok_markup(lt, end, fp_sim_in_foreign(&s), &kind, &content, &content_end);
            if (kind == FP_MARKUP_BOGUS)
                fp_sim_error(&s, FP_ERR_INCORRECTLY_OPENED_COMMENT, (uint32_t)(lt - buf));
            else if (kind == FP_MARKUP_COMMENT && p == end && (p[-1] != '>' || p - 3 < content))
                fp_sim_error(&s, FP_ERR_EOF_IN_COMMENT, (uint32_t)len);
            else if (kind == FP_MARKUP_CDATA && s.watch_text)
                fp_sim_text(&s, content, content_end);
        } else if (c == '?') {                      /* U+003F QUESTION MARK (?) */
            fp_sim_error(&s, FP_ERR_UNEXPECTED_QUESTION_MARK_INSTEAD_OF_TAG_NAME, (uint32_t)(lt - buf));
            p = fp_tok_gt_end(lt + 2, end);
        } else {                                    /* anything else: '<' is text */
            fp_sim_error(&s, FP_ERR_INVALID_FIRST_CHARACTER_OF_TAG_NAME, (uint32_t)(lt - buf));
            p = lt + 1;
        }
    }
    fp_status status = s.status;
    if (!status)
        fp_sim_eof(&s, (uint32_t)len);
    fp_sim_free(&s);
    if (status) {
        size_t fail = d->fail_offset;
        fp_doc_free(d);
        d->fail_offset = fail;
        return status;
    }
    trim_index(d);
    return FP_OK;
}

void
fp_doc_free(fp_doc *d)
{
    free(d->elems);
    free(d->errors);
    fp_names_free(&d->names);
    d->elems = NULL;
    d->errors = NULL;
    d->n = d->nerrors = d->errors_cap = 0;
}
