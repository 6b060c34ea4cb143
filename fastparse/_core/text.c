/* text.c — decoded text of an element or of the whole document, and decoded
 * attribute values, written to a buffer on demand. Text between elements is
 * re-tokenized with the same scanners the parse used, so what was markup
 * there (comments, stray end tags, ignored tags) is markup here. Newlines are
 * normalised (CR LF and CR become LF) and references decoded. What foster
 * parenting moved out of a table is read before it (text_foster.c). */
#include <string.h>

#include "text_internal.h"

/* U+000A right after <pre>, <listing> or <textarea> is not content (13.2.6.4.7):
 * the tree builder drops the character token, which a reference ("&#10;",
 * "&NewLine;") makes as well as a line break does. */
static uint32_t
skip_leading_newline(const fp_doc *d, const fp_elem *el)
{
    uint32_t p = el->inner_start;
    if ((el->tag != FP_TAG_PRE && el->tag != FP_TAG_LISTING && el->tag != FP_TAG_TEXTAREA) ||
        (el->flags & (FP_EF_SVG | FP_EF_MATHML)) || p >= el->inner_end)
        return p;
    if (d->buf[p] == '\n')
        return p + 1;
    if (d->buf[p] == '\r')
        return p + 1 < el->inner_end && d->buf[p + 1] == '\n' ? p + 2 : p + 1;
    if (d->buf[p] == '&') {
        uint32_t cp[2];
        int ncp;
        size_t n = fp_entity_decode(d->buf + p, d->buf + el->inner_end, 0, cp, &ncp);
        if (n && ncp == 1 && cp[0] == '\n')
            return p + (uint32_t)n;
    }
    return p;
}

static void
mark(const text_ctx *c, uint32_t *at, int32_t j, size_t len)
{
    if (at)
        at[(uint32_t)j - c->base] = (uint32_t)len;
}

/* Appends n > 0 bytes. A legacy document's buffer may end in a byte that
 * leads a double-byte character where the source's decoder met markup, a
 * line break or a reference instead of its second byte, and read U+FFFD.
 * What comes next must not become that second byte ("\xE9<!---->r" is U+FFFD
 * then 'r', not one character): before a byte that could be one (0x30 and
 * up, in every such encoding) FP_TEXT_BREAK ends the run the binding decodes
 * (py_source.c). In gb18030 a lead byte and a digit may also be cut short
 * ("\x81" "0" then "\x81" "0" would read as one character). Runs meet only
 * where the source had markup, a line break or a reference, which no character
 * spans, so a break never splits one. */
static inline int
may_be_cut(const fp_doc *d, const fp_buf *b)
{
    uint8_t last = b->data[b->len - 1];
    return last >= 0x80 || (d->opts.dbcs == FP_DBCS_GB && last >= '0' && last <= '9' && b->len >= 2 &&
                            b->data[b->len - 2] >= 0x81);
}

/* Where a gb18030 run that ends the input is cut short: a lead byte and a digit
 * (and a lead), which the standard's decoder reads as one U+FFFD there, digit
 * and all; n when it is not. Runs start at a character boundary; a lead takes
 * the byte after it along (or gives back an ASCII one, a character itself). */
static size_t
gb_cut_at_end(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (p[i] < 0x81 || p[i] == 0xFF) {
            i++;
            continue;
        }
        size_t left = n - i;
        int digit = left >= 2 && p[i + 1] >= '0' && p[i + 1] <= '9';
        if (digit && (left == 2 || (left == 3 && p[i + 2] >= 0x81 && p[i + 2] != 0xFF)))
            return i;
        i += digit && left >= 4 && p[i + 2] >= 0x81 && p[i + 2] != 0xFF && p[i + 3] >= '0' && p[i + 3] <= '9'
                 ? 4 : 2;
    }
    return n;
}

static void
append(text_ctx *c, const uint8_t *p, size_t n)
{
    fp_buf *b = c->out;
    size_t keep = c->d->opts.dbcs == FP_DBCS_GB && p + n == c->d->buf + c->d->len ? gb_cut_at_end(p, n) : n;
    /* (a cut sequence alone is written as its marked U+FFFD, which needs no break) */
    if (c->d->opts.legacy && keep && b->len && p[0] >= 0x30 && may_be_cut(c->d, b) &&
        fp_buf_append(b, (const uint8_t *)FP_TEXT_BREAK, 2) < 0)
        c->fail = 1;
    if (keep && fp_buf_append(b, p, keep) < 0)
        c->fail = 1;
    if (keep < n && fp_buf_append(b, (const uint8_t *)"\x00\xEF\xBF\xBD", 4) < 0)
        c->fail = 1;   /* the copy would be read as a run that markup follows: the U+FFFD, marked */
}

static void
put(text_ctx *c, const uint8_t *p, size_t n)
{
    if (!n)
        return;
    if (!c->in_node) {
        c->in_node = 1;
        c->sep_at = c->out->len;
        if (c->any && c->o->sep_len)
            append(c, c->o->sep, c->o->sep_len);
        c->node_start = c->out->len;
    }
    append(c, p, n);
}

/* whether an ASCII code point may go among a legacy document's bytes as
 * itself: every such encoding reads it alike, unless it comes right after a
 * byte that may lead a double-byte character (then it would be read as that
 * character's second byte) */
static int
ascii_as_itself(const text_ctx *c)
{
    const fp_buf *b = c->out;
    return (b->len == 0 || b->data[b->len - 1] < 0x80) &&
           (c->o->sep_len == 0 || c->o->sep[c->o->sep_len - 1] < 0x80);   /* put() may add it first */
}

static void
put_cp(text_ctx *c, uint32_t cp)
{
    uint8_t s[5];
    fp_buf tmp = {s, 0, sizeof s, 1};
    /* In a legacy document a code point that did not come from the source is
     * marked: 0x00, then its UTF-8. An ASCII one goes as itself where it
     * can, so that the bytes of href="?a=1&amp;b=2" are those of a selector's
     * '?a=1&b=2' in any such encoding (py_twin.c says where bytes fall short). */
    if (c->d->opts.legacy && !(cp < 0x80 && ascii_as_itself(c)))
        s[tmp.len++] = 0;
    fp_buf_append_utf8(&tmp, cp);
    put(c, s, tmp.len);
}

/* Length of the whitespace character at p (str.isspace(): U+0009-000D,
 * U+001C-0020, U+0085, U+00A0, U+1680, U+2000-200A, U+2028, U+2029, U+202F,
 * U+205F, U+3000, as UTF-8), or 0. */
static size_t
space_len(const uint8_t *p, const uint8_t *end)
{
    uint8_t c = p[0];
    if (c < 0x80)
        return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
    if (c == 0xC2)
        return end - p >= 2 && (p[1] == 0x85 || p[1] == 0xA0) ? 2 : 0;
    if (end - p < 3 || c < 0xE1 || c > 0xE3)
        return 0;
    if (c == 0xE1)
        return p[1] == 0x9A && p[2] == 0x80 ? 3 : 0;
    if (c == 0xE3)
        return p[1] == 0x80 && p[2] == 0x80 ? 3 : 0;
    if (p[1] == 0x80)
        return (p[2] >= 0x80 && p[2] <= 0x8A) || p[2] == 0xA8 || p[2] == 0xA9 || p[2] == 0xAF ? 3 : 0;
    return p[1] == 0x81 && p[2] == 0x9F ? 3 : 0;
}

/* Whitespace strip=True removes: what str.strip() does (space_len), so
 * U+00A0 NO-BREAK SPACE and U+3000 IDEOGRAPHIC SPACE too. In a legacy
 * document's buffer a character not in the source bytes is 0x00 and its
 * UTF-8 (put_cp); the source bytes are the codec's, which the binding strips
 * after decoding (py_text.c): here only those escapes are read. */
static int
is_strip_ws(const uint8_t *p, const uint8_t *end, int legacy, size_t *n)
{
    if (legacy && p[0] == 0) {
        size_t k = end - p >= 2 ? space_len(p + 1, end) : 0;
        *n = k + 1;
        return k > 0;
    }
    *n = legacy && p[0] >= 0x80 ? 0 : space_len(p, end);
    return *n > 0;
}

/* is_strip_ws read backwards from e: the whitespace character of k bytes
 * that ends [b, e), with the marker before it in a legacy buffer (which an
 * ASCII one may go without) */
static int
ends_with_strip_ws(const uint8_t *b, const uint8_t *e, int legacy, size_t *n)
{
    for (size_t k = 1; k <= 3 && (size_t)(e - b) >= k; k++) {
        if (space_len(e - k, e) != k)
            continue;
        int marked = legacy && (size_t)(e - b) > k && e[-(ptrdiff_t)k - 1] == 0;
        if (k > 1 && legacy && !marked)
            return 0;   /* source bytes of the codec's, not a character of ours */
        *n = k + (size_t)marked;
        return 1;
    }
    return 0;
}

/* Drops the whitespace the current node starts with (the modes before the
 * body ignore it); returns the length left. */
static size_t
trim_leading_ws(text_ctx *c)
{
    uint8_t *b = c->out->data + c->node_start, *e = c->out->data + c->out->len, *x = b;
    int legacy = c->d->opts.legacy;   /* a decoded reference there is 0x00 and its UTF-8 (put_cp) */
    while (x < e && (fp_is_ws(*x) || (legacy && *x == 0 && x + 1 < e && fp_is_ws(x[1]))))
        x += *x == 0 ? 2 : 1;
    memmove(b, x, (size_t)(e - x));
    c->out->len -= (size_t)(x - b);
    return (size_t)(e - x);
}

/* Whether the current node holds a character other than whitespace */
static int
node_has_text(const text_ctx *c)
{
    if (!c->in_node)
        return 0;
    for (size_t k = c->node_start; k < c->out->len; k++)
        if (!fp_is_ws(c->out->data[k]))
            return 1;
    return 0;
}

/* Keeps the current node's whitespace bytes only (a legacy document's
 * reference marker is dropped: an ASCII space reads the same without it);
 * returns the length left. */
static size_t
keep_only_ws(text_ctx *c)
{
    uint8_t *b = c->out->data + c->node_start, *e = c->out->data + c->out->len, *w = b;
    for (const uint8_t *r = b; r < e; r++)
        if (fp_is_ws(*r))
            *w++ = *r;
    c->out->len = (size_t)(w - c->out->data);
    return (size_t)(w - b);
}

/* A text node ends at markup: strip it and drop it when empty, if asked. */
void
fp_text_end_node(text_ctx *c)
{
    if (!c->in_node)
        return;
    c->in_node = 0;
    if (c->ws_only && keep_only_ws(c) == 0) {
        c->out->len = c->sep_at;
        return;
    }
    if (c->drop_ws) {
        if (trim_leading_ws(c) == 0) {
            c->out->len = c->sep_at;   /* whitespace only: not text */
            return;
        }
        c->drop_ws = 0;   /* "x</span>\n<style>": x starts the body, the newline after it is text */
    }
    if (c->o->strip) {
        uint8_t *b = c->out->data + c->node_start, *e = c->out->data + c->out->len;
        size_t n;
        int legacy = c->d->opts.legacy;
        while (b < e && is_strip_ws(b, e, legacy, &n))
            b += n;
        while (e > b && ends_with_strip_ws(b, e, legacy, &n))
            e -= n;
        if (b == e) {
            c->out->len = c->sep_at;
            return;
        }
        size_t len = (size_t)(e - b);
        memmove(c->out->data + c->node_start, b, len);
        c->out->len = c->node_start + len;
    }
    c->any = 1;
}

/* Something other than whitespace ends the modes that drop it (a NUL, a tag):
 * the whitespace the current node began with goes, and the node with it when
 * that was all; a node with text goes on (the DOM's Text node does). */
static void
end_dropping_ws(text_ctx *c)
{
    if (c->in_node && trim_leading_ws(c) == 0) {
        c->out->len = c->sep_at;   /* the node starts again after it */
        c->in_node = 0;
    }
    c->drop_ws = 0;
}

/* Literal characters with newline normalisation; NUL is dropped in HTML
 * data ("in body" ignores it) and becomes U+FFFD elsewhere. */
static void
put_literal(text_ctx *c, const uint8_t *p, const uint8_t *q, int refs, int in_attr, int nul_to_fffd)
{
    while (p < q) {
        const uint8_t *run = p;
        if (*p != '\r' && *p != 0 && !(refs && *p == '&'))   /* no call for an empty run (&&&) */
            p = fp_scan_special(p + 1, q, c->d->buf + c->d->len, refs ? FP_STOP_AMP : 0, NULL);
        put(c, run, (size_t)(p - run));
        if (p >= q)
            return;
        if (*p == '\r') {                          /* U+000D CARRIAGE RETURN */
            put(c, (const uint8_t *)"\n", 1);
            p += (p + 1 < q && p[1] == '\n') ? 2 : 1;
        } else if (*p == 0) {                      /* U+0000 NULL */
            if (c->drop_ws)   /* not whitespace: it ends the modes that drop it, then is dropped */
                end_dropping_ws(c);
            if (nul_to_fffd)
                put_cp(c, 0xFFFD);
            p++;
        } else {                                   /* U+0026 AMPERSAND (&) */
            uint32_t cp[2];
            int ncp = 0;
            size_t used = fp_entity_decode(p, q, in_attr, cp, &ncp);
            if (!used) {
                put(c, p, 1);
                p++;
                continue;
            }
            for (int k = 0; k < ncp; k++)
                put_cp(c, cp[k]);
            p += used;
        }
    }
}

/* an HTML element whose dir attribute is ltr, rtl or auto: it sets its own
 * direction, so an ancestor's dir=auto does not look at its text */
static int
directed(const fp_doc *d, uint32_t i)
{
    fp_attr a;
    if ((d->elems[i].flags & (FP_EF_SVG | FP_EF_MATHML)) || !fp_attr_find(d, i, "dir", 3, &a))
        return 0;
    const uint8_t *v = d->buf + a.value_start;
    size_t n = a.value_len;
    fp_buf decoded = {0};
    if (memchr(v, '&', n)) {   /* dir="&#108;tr" */
        if (fp_attr_value(d, &a, &decoded) != 0)
            return 0;
        v = decoded.data;
        n = decoded.len;
    }
    int yes = 0;
    if (n == 3 || n == 4) {
        uint8_t w[4];
        for (size_t k = 0; k < n; k++)
            w[k] = fp_lower(v[k]);
        yes = n == 3 ? memcmp(w, "ltr", 3) == 0 || memcmp(w, "rtl", 3) == 0 : memcmp(w, "auto", 4) == 0;
    }
    fp_buf_free(&decoded);
    return yes;
}

int
fp_text_skipped(const text_ctx *c, uint32_t i)
{
    uint16_t tag = c->d->elems[i].tag;
    int listed = !c->o->skip_html_only || !fp_foreign(&c->d->elems[i]);
    for (size_t k = 0; listed && k < c->o->nskip; k++)
        if (c->o->skip[k] == tag)
            return 1;
    return c->o->skip_directed && directed(c->d, i);
}

/* How text inside element i (-1: at the top level, where a fragment's
 * context decides) reads: in foreign content a NUL is U+FFFD (the HTML rules
 * drop it); in any svg/math element, integration points included,
 * "<![CDATA[" opens a CDATA section (the tokenizer asks the adjusted current
 * node's namespace only). */
static void
content_kind(const fp_doc *d, int32_t i, int *nul_to_fffd, int *cdata_ok)
{
    uint8_t ns, ip;
    if (i < 0) {
        fp_context_ns(d->opts.context, &ns, &ip);
    } else {
        ns = d->elems[i].flags & (FP_EF_SVG | FP_EF_MATHML);
        ip = d->elems[i].flags & (FP_EF_HTML_IP | FP_EF_TEXT_IP);
    }
    *nul_to_fffd = ns && !ip;
    *cdata_ok = ns != 0;
}

/* Whether text at p inside element i (-1: the top level) is in the frameset
 * modes, which drop every character but whitespace: in an HTML <frameset>, in
 * a frameset-context fragment, or at the top level after the frameset that
 * replaced the body (the simulator indexes nothing else from there on). */
static int
in_frameset_modes(const fp_doc *d, const uint8_t *p, int32_t i)
{
    int after_frameset = d->frameset_from && (size_t)(p - d->buf) >= d->frameset_from;
    if (i < 0)
        return d->opts.context == FP_TAG_FRAMESET || after_frameset;
    const fp_elem *e = &d->elems[i];
    if (e->flags & (FP_EF_SVG | FP_EF_MATHML))
        return 0;
    return e->tag == FP_TAG_FRAMESET || (e->tag == FP_TAG_HTML && after_frameset);
}

/* The token the '<' at lt starts (lt + 1 < the end of input): *kind, and
 * where it ends (lt + 1 for a character; NULL for a tag the end of input cuts
 * off). *t is the tag; [*cs, *ce) a CDATA section's content. */
const uint8_t *
fp_text_token_at(const fp_doc *d, const uint8_t *lt, int cdata_ok, int *kind, fp_tag_token *t,
                 const uint8_t **cs, const uint8_t **ce)
{
    const uint8_t *end = d->buf + d->len;
    uint8_t ch = lt[1];
    if (fp_is_alpha(ch) || (ch == '/' && lt + 2 < end && fp_is_alpha(lt[2]))) {
        *kind = LT_TAG;
        return fp_tok_tag(lt + (ch == '/' ? 2 : 1), end, t);
    }
    if (ch == '/' && lt + 2 < end) {   /* "</" at the end of input is text */
        *kind = lt[2] == '>' ? LT_NO_TOKEN : LT_COMMENT;
        return lt[2] == '>' ? lt + 3 : fp_tok_gt_end(lt + 2, end);
    }
    if (ch == '!') {
        int markup;
        const uint8_t *next = fp_tok_markup(lt, end, cdata_ok, d->opts.dbcs, &markup, cs, ce);
        *kind = markup == FP_MARKUP_DOCTYPE ? LT_DOCTYPE : markup == FP_MARKUP_CDATA ? LT_CDATA : LT_COMMENT;
        return next;
    }
    if (ch == '?') {
        *kind = LT_COMMENT;
        return fp_tok_gt_end(lt + 2, end);
    }
    *kind = LT_CHAR;
    return lt + 1;
}

/* Whether template x (-1: the top) holds element t */
static int
holds(const fp_doc *d, int32_t x, int32_t t)
{
    return x < 0 || (x <= t && (uint32_t)t <= d->elems[x].last);
}

/* Whether template t (-1: a template-context fragment) went "in column
 * group": its first child the "in template" rules do not insert as "in head"
 * does is a <col>. Asked after each <col> child's text; the answers for t and
 * the templates that hold it are kept (a stack, popped to t's holders on
 * each call), so that each is found once in a walk, however its text and
 * nested templates' alternate. */
static int
template_went_column_group(text_ctx *c, int32_t t)
{
    const fp_doc *d = c->d;
    const fp_elem *e = d->elems;
    while (c->ncolumn_group > 0 && !holds(d, c->column_group_template[c->ncolumn_group - 1], t))
        c->ncolumn_group--;
    if (c->ncolumn_group > 0 && c->column_group_template[c->ncolumn_group - 1] == t)
        return c->column_group_answer[c->ncolumn_group - 1];
    uint32_t j = (uint32_t)(t + 1), last = t >= 0 ? e[t].last : d->n - 1;
    /* the simulator's test: head tags but <noscript> keep "in template" */
    while (j <= last && j < d->n && !fp_foreign(&e[j]) && (fp_tag_flags(e[j].tag) & FP_TF_HEAD) &&
           e[j].tag != FP_TAG_NOSCRIPT)
        j = e[j].last + 1;
    int yes = j <= last && j < d->n && fp_html_is(&e[j], FP_TAG_COL);
    if (c->ncolumn_group < COLUMN_GROUP_MEMO) {
        c->column_group_template[c->ncolumn_group] = t;
        c->column_group_answer[c->ncolumn_group++] = (uint8_t)yes;
    }
    return yes;
}

/* Whether text directly in element i (-1: the top level) after its child
 * prev (-1: none) is in "in column group" with no colgroup open, which drops
 * every character but whitespace: after a <col> in a template that went that
 * way, or in a colgroup-context fragment. After a template that follows such
 * a <col>, the mode goes on, and is not seen here. */
static int
in_column_group_alone(text_ctx *c, int32_t i, int32_t prev)
{
    const fp_doc *d = c->d;
    const fp_elem *e = d->elems;
    if (i < 0 && d->opts.context == FP_TAG_COLGROUP)
        return 1;
    int in_template = i < 0 ? d->opts.context == FP_TAG_TEMPLATE : fp_html_is(&e[i], FP_TAG_TEMPLATE);
    return in_template && prev >= 0 && fp_html_is(&e[prev], FP_TAG_COL) && template_went_column_group(c, i);
}

/* Data-state text in [p, q) inside element i: characters, with markup
 * between them skipped; its last node is ended here unless keep_open (text
 * that foster parenting moves out of the table after it joins that node).
 * ws_only: characters but whitespace are dropped. */
static void
put_data(text_ctx *c, const uint8_t *p, const uint8_t *q, int32_t i, int keep_open, int ws_only)
{
    const fp_doc *d = c->d;
    if (d->frameset_from && p < d->buf + d->frameset_from && q > d->buf + d->removed_from)
        q = p > d->buf + d->removed_from ? p : d->buf + d->removed_from;   /* the removed body's text went with it */
    c->ws_only = ws_only || in_frameset_modes(c->d, p, i);
    fp_text_put_data_nodes(c, p, q, i);
    if (!keep_open)
        fp_text_end_node(c);
    c->ws_only = 0;
}

void
fp_text_put_data_nodes(text_ctx *c, const uint8_t *p, const uint8_t *q, int32_t i)
{
    const uint8_t *end = c->d->buf + c->d->len;
    int foreign, cdata_ok;
    content_kind(c->d, i, &foreign, &cdata_ok);
    while (p < q) {
        const uint8_t *lt = fp_scan_lt(p, q);
        put_literal(c, p, lt, 1, 0, foreign);
        if (lt >= q || lt + 1 >= end) {
            if (lt < q)
                put(c, lt, 1);
            return;
        }
        /* Markup here is no element: a comment (bogus ones too) is a node that
         * ends the text node before it; a tag the tree builder ignored, "</>",
         * a DOCTYPE or a CDATA section's brackets make none, so the characters
         * around them are one text node, as the DOM's "insert a character"
         * appends to the Text node before it ("x</a> y" in a <p>) */
        int kind;
        fp_tag_token t;
        const uint8_t *cs, *ce;
        const uint8_t *next = fp_text_token_at(c->d, lt, cdata_ok, &kind, &t, &cs, &ce);
        if (!next)
            return;               /* EOF inside a tag: the rest is not text */
        if (kind == LT_CHAR) {
            put(c, lt, 1);
        } else if (kind == LT_TAG) {
            /* a start tag the tree builder ignores (<tbody>), and </head>, </body>,
             * </html>, end the modes before the body (a second <html> does not) */
            if (c->drop_ws && (lt[1] == '/' ? t.tag == FP_TAG_HEAD || t.tag == FP_TAG_BODY || t.tag == FP_TAG_HTML
                                            : t.tag != FP_TAG_HTML))
                end_dropping_ws(c);
        } else if (kind == LT_CDATA) {
            put_literal(c, cs, ce, 0, 0, foreign);
        } else if (kind == LT_COMMENT && !c->in_tail) {
            fp_text_end_node(c);
        }
        p = next;
    }
}

static void
put_raw(text_ctx *c, const fp_elem *el)
{
    const uint8_t *b = c->d->buf;
    fp_text_end_node(c);
    put_literal(c, b + skip_leading_newline(c->d, el), b + el->inner_end, (el->flags & FP_EF_RCDATA) != 0,
                0, 1);
    fp_text_end_node(c);
}

/* Text in [p, q) directly in element i after its child prev (-1: none), the runs foster parenting moved
 * left out when i is a table or a part of one (reorder: this walk reads them
 * before the table) or a part in a template (read after the part) */
static void
put_gap(text_ctx *c, const uint8_t *p, const uint8_t *q, int32_t i, int32_t prev, int reorder, int keep_open)
{
    int moves = fp_text_moves(c->d, i);
    if ((moves == FP_TEXT_MOVES_BEFORE && reorder && fp_text_doc_fosters(c->d)) || moves == FP_TEXT_MOVES_AFTER) {
        fp_text_put_table_runs(c, p, q, i, 0, fp_text_after_col(c->d, i, prev));
        if (!keep_open)
            fp_text_end_node(c);
    } else {
        put_data(c, p, q, i, keep_open, in_column_group_alone(c, i, prev));
    }
}

/* Whether whitespace before element j (or, with j past cur's children, before
 * cur's end) is dropped: the "initial", "before html" and "before head" modes
 * ignore it, before the first element of a document (or of an html-context
 * fragment) and in <html> before its first child, unless text before that
 * <html> tag began the body. A fragment in any other context starts in body,
 * where it is text. */
static int
drops_leading_ws(const fp_doc *d, int32_t cur, uint32_t j)
{
    const fp_elem *e = d->elems;
    if (cur < 0)
        return j == 0 && (!d->opts.context || d->opts.context == FP_TAG_HTML);
    return fp_html_is(&e[cur], FP_TAG_HTML) && j == (uint32_t)cur + 1 && !d->html_after_text;
}

/* A head "after head" put elements back into (</head>\n<script>): text in
 * its range past its </head> is whitespace "after head" inserted in <html>,
 * after the head in the DOM, not in it (put_after_head reads it there). */
static int
took_back(const fp_doc *d, int32_t i)
{
    return d->head_end && i >= 0 && fp_html_is(&d->elems[i], FP_TAG_HEAD);
}

/* A gap's text stops before the tail, which put_tail reads */
static uint32_t
before_tail(const fp_doc *d, uint32_t stop)
{
    return d->tail_from && stop > d->tail_from ? d->tail_from : stop;
}

/* How far element cur's own text runs in a gap that stops at `stop` */
static uint32_t
own_until(const fp_doc *d, int32_t cur, uint32_t stop)
{
    stop = before_tail(d, stop);
    return took_back(d, cur) && stop > d->head_end ? d->head_end : stop;
}

/* The whitespace after the </body> or </html> the open elements ended at
 * (fp_doc.tail_from): at the end of element i when it was the innermost, the
 * current node the DOM inserted it in, joining i's last text node */
static int
has_tail(const fp_doc *d, int32_t i)
{
    return d->tail_from && i == (int32_t)d->tail_elem;
}

static void
put_tail(text_ctx *c, int32_t i, int32_t prev, int reorder)
{
    const fp_doc *d = c->d;
    if (!has_tail(d, i))
        return;
    if (c->drop_ws)
        end_dropping_ws(c);   /* "<html>\n</html>\n": the first is "before head"'s, the second the body's */
    c->in_tail = 1;
    put_gap(c, d->buf + d->tail_from, d->buf + d->len, i, prev, reorder, 0);
    c->in_tail = 0;
}

/* That text of head h, where the DOM has it: in h's parent right after h,
 * the node left open for the text that follows to join */
static void
put_after_head(text_ctx *c, int32_t h)
{
    const fp_doc *d = c->d;
    const fp_elem *e = d->elems;
    uint32_t pos = d->head_end, j = (uint32_t)h + 1;
    for (;; j = e[j].last + 1) {
        uint32_t stop = j <= e[h].last ? e[j].start : e[h].inner_end;
        if (stop > pos)
            put_data(c, d->buf + pos, d->buf + stop, e[h].parent, 1, 0);
        if (j > e[h].last)
            return;
        pos = e[j].end > pos ? e[j].end : pos;
    }
}

/* What a row group or row in a template or a fragment moved (FP_TEXT_MOVES_AFTER),
 * read right after the outermost such part j, where the tree builder appended
 * it; own: its runs only. The last node stays open: text appended after it
 * (moved too, or after the part's end tag) joins it, as in the DOM. */
static void
put_appended(text_ctx *c, int32_t j, int own)
{
    const fp_elem *e = c->d->elems;
    int outermost = e[j].parent < 0 || !fp_text_is_table_part(&e[e[j].parent]);
    if (!outermost || fp_text_moves(c->d, j) != FP_TEXT_MOVES_AFTER)
        return;
    fp_text_put_fostered(c, j, own);
}

/* Walks root's subtree in document order without recursion: children of cur
 * are cur+1, then each child's last+1, while <= cur's last. root -1 is the
 * document: all elements, the whole buffer. */
void
fp_text_walk(text_ctx *c, int32_t root)
{
    const fp_doc *d = c->d;
    const fp_elem *e = d->elems;
    const uint8_t *b = d->buf;
    if (root >= 0 && (e[root].flags & FP_EF_RAWTEXT)) {
        mark(c, c->start, root, c->out->len);
        put_raw(c, &e[root]);
        mark(c, c->end, root, c->out->len);
        return;
    }
    if (root >= 0)
        mark(c, c->start, root, c->out->len);
    int32_t cur = root, prev = -1;   /* prev: cur's child before pos */
    uint32_t pos = root >= 0 ? skip_leading_newline(d, &e[root]) : 0;
    uint32_t j = (uint32_t)(root + 1);
    int reorder = c->fostering < FOSTER_NESTING_MAX;   /* else source order, here and below */
    while (!c->fail && !(c->o->stop_after && c->out->len >= c->o->stop_after)) {
        uint32_t last = cur >= 0 ? e[cur].last : d->n - 1;
        if (d->n && j <= last && j < d->n) {
            const fp_elem *ch = &e[j];
            int own_only = c->o->own && cur == root;
            /* what a table moved out goes before it, joining the text there; an
             * element it moved is no boundary between the table's own text nodes */
            int table = reorder && fp_html_is(ch, FP_TAG_TABLE) && fp_text_doc_fosters(d);
            int moves = (ch->flags & FP_EF_FOSTERED) ? fp_text_moves(d, cur) : FP_TEXT_STAYS;
            int moved = (moves == FP_TEXT_MOVES_BEFORE && reorder) || moves == FP_TEXT_MOVES_AFTER;   /* or after it */
            uint32_t gap_end = own_until(d, cur, ch->start);
            /* an <html> indexed after text that began the body: in the DOM that
             * text and what follows the tag are the body's, one node */
            int late_html = d->html_after_text && cur < 0 && fp_html_is(ch, FP_TAG_HTML), joins = 0;
            if (gap_end > pos) {
                c->drop_ws = drops_leading_ws(d, cur, j);
                put_gap(c, b + pos, b + gap_end, cur, prev, reorder, table || moved || late_html);
                joins = late_html && node_has_text(c);
                if (!table && !moved && !joins)
                    fp_text_end_node(c);
                else if (c->drop_ws)
                    end_dropping_ws(c);   /* the gap's leading whitespace only: the table ends those modes */
                c->drop_ws = 0;
            }
            if (moved) {   /* read before its table */
                pos = ch->end > pos ? ch->end : pos;
                prev = (int32_t)j;
                j = ch->last + 1;
                continue;
            }
            if (table)
                fp_text_put_fostered(c, (int32_t)j, own_only);
            if (!joins)
                fp_text_end_node(c);
            int skip = fp_text_skipped(c, j) || own_only;
            if (skip || (ch->flags & FP_EF_RAWTEXT) || ch->last == j) {
                if (!skip)
                    mark(c, c->start, (int32_t)j, c->out->len);
                if (!skip && (ch->flags & FP_EF_RAWTEXT))
                    put_raw(c, ch);
                else if (!skip && ch->inner_end > ch->inner_start) {
                    c->drop_ws = drops_leading_ws(d, (int32_t)j, j + 1);   /* an <html> with no child */
                    uint32_t from = skip_leading_newline(d, ch), to = before_tail(d, ch->inner_end);
                    if (to > from)
                        put_gap(c, b + from, b + to, (int32_t)j, -1, reorder, has_tail(d, (int32_t)j));
                }
                if (!skip)
                    put_tail(c, (int32_t)j, -1, reorder);
                fp_text_end_node(c);
                c->drop_ws = 0;
                if (!skip)
                    mark(c, c->end, (int32_t)j, c->out->len);
                put_appended(c, (int32_t)j, own_only);
                if (took_back(d, (int32_t)j))
                    put_after_head(c, (int32_t)j);   /* a skipped head's: cur's own */
                pos = ch->end > pos ? ch->end : pos;
                prev = (int32_t)j;
                j = ch->last + 1;
                continue;
            }
            cur = (int32_t)j;
            prev = -1;
            mark(c, c->start, cur, c->out->len);
            pos = skip_leading_newline(d, ch);
            j++;
            continue;
        }
        uint32_t stop = own_until(d, cur, cur >= 0 ? e[cur].inner_end : (uint32_t)d->len);
        c->drop_ws = drops_leading_ws(d, cur, j);   /* j is cur's first child's place when it has none */
        if (stop > pos)
            put_gap(c, b + pos, b + stop, cur, prev, reorder, has_tail(d, cur));
        put_tail(c, cur, prev, reorder);
        fp_text_end_node(c);
        c->drop_ws = 0;
        if (cur >= 0)
            mark(c, c->end, cur, c->out->len);
        if (cur == root)
            break;
        int32_t ended = cur;
        prev = cur;
        pos = e[cur].end;
        j = e[cur].last + 1;
        cur = e[cur].parent;
        put_appended(c, ended, c->o->own && cur == root);
        if (took_back(d, ended))
            put_after_head(c, ended);
    }
}

int
fp_text(const fp_doc *doc, uint32_t i, const fp_text_opts *o, fp_buf *out)
{
    text_ctx c = {.d = doc, .o = o, .out = out};
    fp_text_walk(&c, (int32_t)i);
    return c.fail ? -1 : 0;
}

int
fp_text_ranges(const fp_doc *doc, int32_t i, const fp_text_opts *o, fp_buf *out, uint32_t *start, uint32_t *end)
{
    text_ctx c = {.d = doc, .o = o, .out = out, .start = start, .end = end, .base = i < 0 ? 0 : (uint32_t)i};
    fp_text_walk(&c, i);
    return c.fail ? -1 : 0;
}

int
fp_text_is_source(const fp_doc *doc, uint32_t i, uint32_t *start, uint32_t *end, int *ascii)
{
    const fp_elem *e = &doc->elems[i];
    if (e->last != i || (e->flags & FP_EF_RAWTEXT) || drops_leading_ws(doc, (int32_t)i, i + 1))
        return 0;   /* <html> with no child: "before head" drops its leading whitespace */
    if (has_tail(doc, (int32_t)i))
        return 0;   /* the whitespace after its </body> is its too (put_tail) */
    if (fp_html_is(e, FP_TAG_FRAMESET))
        return 0;   /* its characters but whitespace are dropped */
    if (fp_text_is_table_part(e))
        return 0;   /* foster parenting moves its text but whitespace out */
    uint32_t from = skip_leading_newline(doc, e), to = e->inner_end > from ? e->inner_end : from;
    if (doc->frameset_from && from < doc->frameset_from && to > doc->removed_from)
        return 0;   /* the body a <frameset> replaced took this text with it (put_data) */
    const uint8_t *p = doc->buf + from, *q = doc->buf + to;
    if (fp_scan_special(p, q, doc->buf + doc->len, FP_STOP_AMP | FP_STOP_LT, ascii) != q)
        return 0;
    if (doc->opts.dbcs == FP_DBCS_GB && to == doc->len && gb_cut_at_end(p, to - from) != to - from)
        return 0;   /* append() writes the cut sequence's U+FFFD itself */
    *start = from;
    *end = to;
    return 1;
}

int
fp_doc_text(const fp_doc *doc, const fp_text_opts *o, fp_buf *out)
{
    text_ctx c = {.d = doc, .o = o, .out = out};
    if (fp_context_is_text(doc->opts.context, doc->opts.scripting)) {
        /* a raw-text fragment context: the whole input is that element's text */
        uint32_t f = fp_tag_flags(doc->opts.context & FP_CTX_TAG_MASK);
        put_literal(&c, doc->buf, doc->buf + doc->len, (f & FP_TF_RCDATA) != 0, 0, 1);
        fp_text_end_node(&c);
        return c.fail ? -1 : 0;
    }
    fp_text_walk(&c, -1);
    return c.fail ? -1 : 0;
}

int
fp_literal_text(const fp_doc *doc, uint32_t start, uint32_t end, fp_buf *out)
{
    static const fp_text_opts plain = {0};
    text_ctx c = {.d = doc, .o = &plain, .out = out};
    put_literal(&c, doc->buf + start, doc->buf + end, 0, 0, 1);
    return c.fail ? -1 : 0;
}

int
fp_attr_value(const fp_doc *doc, const fp_attr *a, fp_buf *out)
{
    static const fp_text_opts plain = {0};
    text_ctx c = {.d = doc, .o = &plain, .out = out};
    const uint8_t *p = doc->buf + a->value_start;
    put_literal(&c, p, p + a->value_len, 1, 1, 1);
    return c.fail ? -1 : 0;
}

/* Bytes that may begin whitespace: ASCII spaces and the lead bytes of the
 * UTF-8 spaces (U+0085, U+00A0 / U+1680 / U+2000.., U+3000) */
static const uint8_t may_be_space[256] = {
    [0x09] = 1, [0x0A] = 1, [0x0B] = 1, [0x0C] = 1, [0x0D] = 1,
    [0x1C] = 1, [0x1D] = 1, [0x1E] = 1, [0x1F] = 1, [0x20] = 1,
    [0xC2] = 1, [0xE1] = 1, [0xE2] = 1, [0xE3] = 1,
};

size_t
fp_collapse_ws(const uint8_t *s, size_t n, uint8_t *out)
{
    const uint8_t *p = s, *end = s + n;
    size_t len = 0, w;
    for (;;) {
        while (p < end && may_be_space[*p] && (w = space_len(p, end)))
            p += w;
        if (p >= end)
            return len;
        if (len)
            out[len++] = ' ';   /* between words only */
        do
            out[len++] = *p++;
        while (p < end && !(may_be_space[*p] && space_len(p, end)));
    }
}
