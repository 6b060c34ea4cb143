/* simulator.c — the HTML Standard's tree construction (13.2.6), reduced to
 * what decides nesting: which element is open when a tag arrives, which
 * start tags imply ends, which end tags are ignored. No DOM is built and no
 * element without a start tag is invented; fp_elem.closed records how each
 * element ended. The open-element stack is linked through fp_elem.parent;
 * per-tag chains (open_head/prev_same) and boundary stacks answer "is there
 * an X in scope" in O(1), so no input makes closing quadratic. */
#include <stdlib.h>
#include <string.h>

#include "simulator.h"

/* ---- effective flags: some names are special/scope only in one namespace ---- */

static uint32_t
elem_flags(const fp_elem *el)
{
    int tag = el->tag;
    if (el->flags & FP_EF_MATHML) {
        if (tag == FP_TAG_MI || tag == FP_TAG_MO || tag == FP_TAG_MN || tag == FP_TAG_MS ||
            tag == FP_TAG_MTEXT || tag == FP_TAG_ANNOTATION_XML)
            return FP_TF_SCOPE | FP_TF_SPECIAL;
        return 0;
    }
    if (el->flags & FP_EF_SVG) {
        if (tag == FP_TAG_FOREIGNOBJECT || tag == FP_TAG_DESC || tag == FP_TAG_TITLE)
            return FP_TF_SCOPE | FP_TF_SPECIAL;
        return 0;
    }
    uint32_t f = fp_tag_flags(tag);
    switch (tag) {
    case FP_TAG_MI: case FP_TAG_MO: case FP_TAG_MN: case FP_TAG_MS: case FP_TAG_MTEXT:
    case FP_TAG_ANNOTATION_XML: case FP_TAG_FOREIGNOBJECT: case FP_TAG_DESC:
        return f & ~(FP_TF_SCOPE | FP_TF_SPECIAL);
    case FP_TAG_TITLE:
        return f & ~FP_TF_SCOPE;
    default:
        return f;
    }
}

static int
is_foreign(const fp_elem *el)
{
    return (el->flags & (FP_EF_SVG | FP_EF_MATHML)) != 0;
}

/* ---- stacks ---- */

static int
istack_grow(fp_sim *s, int k)
{
    fp_istack *st = &s->sc[k];
    {
        uint32_t cap = st->cap ? st->cap * 2 : 32;
        int32_t *items = realloc(st->items, cap * sizeof *items);
        if (!items) {
            s->status = FP_ENOMEM;
            return -1;
        }
        st->items = items;
        st->cap = cap;
    }
    return 0;
}

/* pushes i on boundary stack k and remembers it in the element's scratch bits */
static inline int
istack_push(fp_sim *s, int k, int32_t i)
{
    fp_istack *st = &s->sc[k];
    if (st->n == st->cap && istack_grow(s, k) < 0)
        return -1;
    st->items[st->n++] = i;
    s->e[i]._reserved |= (uint16_t)(1u << k);
    return 0;
}

static inline int32_t
istack_top(const fp_sim *s, int k)
{
    const fp_istack *st = &s->sc[k];
    return st->n ? st->items[st->n - 1] : -1;
}

/* t is open and no boundary of kind k was opened after it */
static inline int
in_scope(const fp_sim *s, int32_t t, int k)
{
    return t >= 0 && istack_top(s, k) <= t;
}

static inline int32_t
open_of(const fp_sim *s, int tag)
{
    return (uint32_t)tag < s->open_head_cap ? s->open_head[tag] : -1;
}

void
fp_sim_error(fp_sim *s, int code, uint32_t offset)
{
    fp_doc *d = s->doc;
    if (d->nerrors == d->errors_cap) {
        uint32_t cap = d->errors_cap ? d->errors_cap * 2 : 16;
        fp_error *errors = realloc(d->errors, cap * sizeof *errors);
        if (!errors)
            return;  /* errors are advisory: losing one is better than failing the parse */
        d->errors = errors;
        d->errors_cap = cap;
    }
    d->errors[d->nerrors].offset = offset;
    d->errors[d->nerrors].code = (uint16_t)code;
    d->nerrors++;
}

int
fp_sim_init(fp_sim *s, fp_doc *doc, uint32_t cap)
{
    memset(s, 0, sizeof *s);
    s->doc = doc;
    s->e = doc->elems;
    s->cap = cap;
    s->top = -1;
    s->html = s->head = s->body = -1;
    s->prev_same = malloc(cap * sizeof *s->prev_same);
    s->foreign_below = malloc(cap * sizeof *s->foreign_below);
    s->open_head_cap = FP_TAG__COUNT + 64;
    s->open_head = malloc(s->open_head_cap * sizeof *s->open_head);
    if (!s->prev_same || !s->foreign_below || !s->open_head)
        return -1;
    memset(s->open_head, 0xFF, s->open_head_cap * sizeof *s->open_head);
    return 0;
}

void
fp_sim_free(fp_sim *s)
{
    free(s->prev_same);
    free(s->foreign_below);
    free(s->open_head);
    for (int k = 0; k < FP_SC__COUNT; k++)
        free(s->sc[k].items);
}

static int
grow_open_head(fp_sim *s, int tag)
{
    uint32_t cap = s->open_head_cap;
    while ((uint32_t)tag >= cap)
        cap *= 2;
    int32_t *h = realloc(s->open_head, cap * sizeof *h);
    if (!h) {
        s->status = FP_ENOMEM;
        return -1;
    }
    memset(h + s->open_head_cap, 0xFF, (cap - s->open_head_cap) * sizeof *h);
    s->open_head = h;
    s->open_head_cap = cap;
    return 0;
}

/* ---- push and pop ---- */

static int32_t
push(fp_sim *s, int tag, uint8_t ns_flags, uint32_t lt, uint32_t gt)
{
    fp_doc *d = s->doc;
    if (s->depth >= d->opts.max_depth) {
        s->status = FP_ETOODEEP;
        d->fail_offset = lt;
        return -1;
    }
    if ((uint32_t)tag >= s->open_head_cap && grow_open_head(s, tag) < 0)
        return -1;
    int32_t i = (int32_t)d->n++;
    fp_elem *el = &s->e[i];
    el->start = lt;
    el->inner_start = gt;
    el->inner_end = el->end = gt;
    el->parent = s->top;
    el->last = (uint32_t)i;
    el->tag = (uint16_t)tag;
    el->depth = (uint16_t)s->depth;
    el->closed = FP_CLOSED_EOF;
    el->flags = ns_flags;
    el->_reserved = 0;
    s->prev_same[i] = s->open_head[tag];
    s->open_head[tag] = i;
    if (ns_flags & (FP_EF_SVG | FP_EF_MATHML))
        s->open_foreign++;
    s->foreign_below[i] = s->open_foreign;
    s->top = i;
    s->depth++;

    uint32_t f = elem_flags(el);
    int ok = 0;
    if (f & FP_TF_SCOPE)
        ok |= istack_push(s, FP_SC_DEFAULT, i) | istack_push(s, FP_SC_LIST, i) |
              istack_push(s, FP_SC_BUTTON, i);
    else {
        if (f & FP_TF_LIST_SCOPE)
            ok |= istack_push(s, FP_SC_LIST, i);
        if (f & FP_TF_BUTTON_SCOPE)
            ok |= istack_push(s, FP_SC_BUTTON, i);
    }
    if ((f & FP_TF_TABLE_SCOPE) && !(ns_flags & (FP_EF_SVG | FP_EF_MATHML)))
        ok |= istack_push(s, FP_SC_TABLE, i);
    if (f & FP_TF_SPECIAL) {
        ok |= istack_push(s, FP_SC_SPECIAL, i);
        if (tag != FP_TAG_ADDRESS && tag != FP_TAG_DIV && tag != FP_TAG_P)
            ok |= istack_push(s, FP_SC_SPECIAL_LI, i);
    }
    if (f & FP_TF_MARKER)
        ok |= istack_push(s, FP_SC_MARKER, i);
    return ok ? -1 : i;
}

static void
pop(fp_sim *s, uint8_t closed, uint32_t inner_end, uint32_t end)
{
    int32_t i = s->top;
    fp_elem *el = &s->e[i];
    el->closed = closed;
    el->inner_end = inner_end;
    el->end = end;
    el->last = s->doc->n - 1;
    s->open_head[el->tag] = s->prev_same[i];
    for (unsigned bits = el->_reserved; bits; bits &= bits - 1)
        s->sc[__builtin_ctz(bits)].n--;  /* a boundary is always its stack's top when popped */
    el->_reserved = 0;
    if (is_foreign(el))
        s->open_foreign--;
    s->top = el->parent;
    s->depth--;
    if (i == s->head)
        s->head_open = 0;
}

/* Pops up to and including t: t ends as `closed`, what was open inside it
 * ends with it (parent-end). */
static void
close_until(fp_sim *s, int32_t t, uint8_t closed, uint32_t lt, uint32_t gt)
{
    while (s->top != t)
        pop(s, FP_CLOSED_PARENT_END, lt, lt);
    pop(s, closed, lt, closed == FP_CLOSED_END_TAG ? gt : lt);
}

/* Pops everything above c (c stays open): the child of c was implicitly
 * closed by the tag at `at`, its descendants with it. */
static void
close_above(fp_sim *s, int32_t c, uint32_t at)
{
    while (s->top != c && s->top >= 0)
        pop(s, s->e[s->top].parent == c ? FP_CLOSED_IMPLIED : FP_CLOSED_PARENT_END, at, at);
}

static void
close_p_if_in_button_scope(fp_sim *s, uint32_t at)
{
    int32_t p = open_of(s, FP_TAG_P);
    if (in_scope(s, p, FP_SC_BUTTON) && !is_foreign(&s->e[p]))
        close_until(s, p, FP_CLOSED_IMPLIED, at, at);
}

/* ---- foreign content (13.2.6.5) ---- */

static int
html_allowed_at(const fp_elem *cur, int tag)
{
    if (cur->flags & FP_EF_HTML_IP)
        return 1;
    if ((cur->flags & FP_EF_TEXT_IP) && tag != FP_TAG_MGLYPH && tag != FP_TAG_MALIGNMARK)
        return 1;
    return 0;
}

int
fp_sim_in_foreign(const fp_sim *s)
{
    if (s->top < 0)
        return s->ctx_ns != 0;
    const fp_elem *cur = &s->e[s->top];
    return is_foreign(cur) && !(cur->flags & (FP_EF_HTML_IP | FP_EF_TEXT_IP));
}

static int
has_font_breakout_attr(const fp_tag_token *t, const uint8_t *end)
{
    if (!t->has_attrs)
        return 0;
    const uint8_t *p = t->name + t->name_len;
    fp_raw_attr a;
    int sc = 0;
    while (fp_tok_attr(&p, end, &a, &sc) == 1) {
        if (a.name_len == 5 || a.name_len == 4) {
            char n[6] = {0};
            for (size_t k = 0; k < a.name_len; k++)
                n[k] = (char)fp_lower(a.name[k]);
            if (!strcmp(n, "color") || !strcmp(n, "face") || !strcmp(n, "size"))
                return 1;
        }
    }
    return 0;
}

/* annotation-xml with encoding text/html or application/xhtml+xml */
static int
annotation_is_html(const fp_tag_token *t, const uint8_t *end)
{
    const uint8_t *p = t->name + t->name_len;
    fp_raw_attr a;
    int sc = 0;
    while (t->has_attrs && fp_tok_attr(&p, end, &a, &sc) == 1) {
        if (a.name_len != 8)
            continue;
        char n[9] = {0};
        for (size_t k = 0; k < 8; k++)
            n[k] = (char)fp_lower(a.name[k]);
        if (strcmp(n, "encoding"))
            continue;
        char v[22] = {0};
        if (a.value_len != 9 && a.value_len != 21)
            return 0;
        for (size_t k = 0; k < a.value_len; k++)
            v[k] = (char)fp_lower(a.value[k]);
        return !strcmp(v, "text/html") || !strcmp(v, "application/xhtml+xml");
    }
    return 0;
}

static int32_t
insert_foreign(fp_sim *s, const fp_tag_token *t, int tag, uint8_t ns, uint32_t lt, uint32_t gt)
{
    const uint8_t *end = s->doc->buf + gt;
    uint8_t flags = ns;
    if (ns == FP_EF_SVG && (tag == FP_TAG_FOREIGNOBJECT || tag == FP_TAG_DESC || tag == FP_TAG_TITLE))
        flags |= FP_EF_HTML_IP;
    if (ns == FP_EF_MATHML) {
        if (tag == FP_TAG_MI || tag == FP_TAG_MO || tag == FP_TAG_MN || tag == FP_TAG_MS ||
            tag == FP_TAG_MTEXT)
            flags |= FP_EF_TEXT_IP;
        else if (tag == FP_TAG_ANNOTATION_XML && annotation_is_html(t, end))
            flags |= FP_EF_HTML_IP;
    }
    if (t->self_closing)
        flags |= FP_EF_SOLIDUS;
    int32_t i = push(s, tag, flags, lt, gt);
    if (i >= 0 && t->self_closing)
        pop(s, FP_CLOSED_SELF_CLOSING, gt, gt);
    return i;
}

/* ---- start tags (13.2.6.4.7 "in body", plus the table and head rules that decide nesting) ---- */

static int32_t
nearest(const fp_sim *s, int a, int b)
{
    int32_t x = open_of(s, a), y = open_of(s, b);
    return x > y ? x : y;
}

static int32_t
table_section(const fp_sim *s)
{
    int32_t x = nearest(s, FP_TAG_TBODY, FP_TAG_THEAD);
    int32_t y = open_of(s, FP_TAG_TFOOT);
    return x > y ? x : y;
}

/* The element table rows and cells go in: -2 when no table is in scope
 * (the tag is then ignored), -1 for a fragment's table context. */
static int32_t
table_context(const fp_sim *s)
{
    int32_t tbl = open_of(s, FP_TAG_TABLE);
    if (in_scope(s, tbl, FP_SC_TABLE))
        return tbl;
    if (tbl < 0 && s->ctx_table && istack_top(s, FP_SC_TABLE) < 0)
        return -1;
    return -2;
}

static int32_t
start_html(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt)
{
    int32_t c;
    switch (tag) {
    case FP_TAG_HTML:
        if (s->html >= 0 || s->top >= 0)
            return -1;  /* the spec merges its attributes into the first <html> */
        return s->html = push(s, tag, 0, lt, gt);
    case FP_TAG_HEAD:
        if (s->head >= 0 || s->body >= 0)
            return -1;
        c = push(s, tag, 0, lt, gt);
        s->head = c;
        s->head_open = c >= 0;
        return c;
    case FP_TAG_BODY:
        if (s->body >= 0)
            return -1;  /* a second <body> only adds attributes */
        if (s->head_open)
            close_until(s, s->head, FP_CLOSED_IMPLIED, lt, lt);
        return s->body = push(s, tag, 0, lt, gt);
    case FP_TAG_LI:
        c = open_of(s, FP_TAG_LI);
        if (c >= 0 && istack_top(s, FP_SC_SPECIAL_LI) <= c)
            close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_DD:
    case FP_TAG_DT:
        c = nearest(s, FP_TAG_DD, FP_TAG_DT);
        if (c >= 0 && istack_top(s, FP_SC_SPECIAL_LI) <= c)
            close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_BUTTON:
        c = open_of(s, FP_TAG_BUTTON);
        if (in_scope(s, c, FP_SC_DEFAULT))
            close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_A:
        /* an <a> still in the active formatting list (no marker since) is closed */
        c = open_of(s, FP_TAG_A);
        if (c >= 0 && istack_top(s, FP_SC_MARKER) < c)
            close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_NOBR:
        c = open_of(s, FP_TAG_NOBR);
        if (in_scope(s, c, FP_SC_DEFAULT))
            close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_FORM:
        if (open_of(s, FP_TAG_FORM) >= 0 && open_of(s, FP_TAG_TEMPLATE) < open_of(s, FP_TAG_FORM))
            return -1;  /* a nested <form> is ignored: its children join the outer form */
        break;
    case FP_TAG_CAPTION:
    case FP_TAG_COLGROUP:
    case FP_TAG_TBODY:
    case FP_TAG_THEAD:
    case FP_TAG_TFOOT:
        if ((c = table_context(s)) == -2)
            return -1;
        close_above(s, c, lt);
        break;
    case FP_TAG_TR:
        if ((c = table_context(s)) == -2)
            return -1;
        if (table_section(s) > c)
            c = table_section(s);
        close_above(s, c, lt);
        break;
    case FP_TAG_TD:
    case FP_TAG_TH:
        if ((c = table_context(s)) == -2)
            return -1;
        if (table_section(s) > c)
            c = table_section(s);
        if (open_of(s, FP_TAG_TR) > c)
            c = open_of(s, FP_TAG_TR);
        close_above(s, c, lt);
        break;
    case FP_TAG_COL:
        if ((c = table_context(s)) == -2)
            return -1;
        if (open_of(s, FP_TAG_COLGROUP) > c)
            c = open_of(s, FP_TAG_COLGROUP);
        close_above(s, c, lt);
        break;
    case FP_TAG_SELECT:
        c = open_of(s, FP_TAG_SELECT);
        if (c >= 0 && istack_top(s, FP_SC_MARKER) < c) {
            close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);  /* <select> in a select acts as </select> */
            return -1;
        }
        break;
    case FP_TAG_OPTION:
        if (s->top >= 0 && s->e[s->top].tag == FP_TAG_OPTION)
            pop(s, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_OPTGROUP:
        if (s->top >= 0 && s->e[s->top].tag == FP_TAG_OPTION)
            pop(s, FP_CLOSED_IMPLIED, lt, lt);
        if (s->top >= 0 && s->e[s->top].tag == FP_TAG_OPTGROUP)
            pop(s, FP_CLOSED_IMPLIED, lt, lt);
        break;
    case FP_TAG_RB:
    case FP_TAG_RTC:
    case FP_TAG_RP:
    case FP_TAG_RT:
        if (in_scope(s, open_of(s, FP_TAG_RUBY), FP_SC_DEFAULT)) {
            while (s->top >= 0 && (elem_flags(&s->e[s->top]) & FP_TF_IMPLIED_END) &&
                   !((tag == FP_TAG_RP || tag == FP_TAG_RT) && s->e[s->top].tag == FP_TAG_RTC))
                pop(s, FP_CLOSED_IMPLIED, lt, lt);
        }
        break;
    case FP_TAG_FRAMESET:
    case FP_TAG_FRAME:
        break;
    default:
        break;
    }

    uint32_t f = fp_tag_flags(tag);
    if (f & FP_TF_CLOSES_P)
        close_p_if_in_button_scope(s, lt);
    if ((f & FP_TF_HEADING) && s->top >= 0 && !is_foreign(&s->e[s->top]) &&
        (elem_flags(&s->e[s->top]) & FP_TF_HEADING))
        pop(s, FP_CLOSED_IMPLIED, lt, lt);

    if (tag == FP_TAG_SVG)
        return insert_foreign(s, t, tag, FP_EF_SVG, lt, gt);
    if (tag == FP_TAG_MATH)
        return insert_foreign(s, t, tag, FP_EF_MATHML, lt, gt);

    int32_t i = push(s, tag, 0, lt, gt);
    if (i < 0)
        return -1;
    if (t->self_closing) {
        s->e[i].flags |= FP_EF_SOLIDUS;
        if (!(f & FP_TF_VOID))
            fp_sim_error(s, FP_ERR_NON_VOID_HTML_ELEMENT_START_TAG_WITH_TRAILING_SOLIDUS, lt);
    }
    if (f & FP_TF_VOID) {
        pop(s, FP_CLOSED_VOID, gt, gt);
    } else if ((f & FP_TF_RAWTEXT) || (tag == FP_TAG_NOSCRIPT && s->doc->opts.scripting)) {
        s->e[i].flags |= FP_EF_RAWTEXT | ((f & FP_TF_RCDATA) ? FP_EF_RCDATA : 0);
    }
    return i;
}

int32_t
fp_sim_start(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt)
{
    if (tag == FP_TAG_IMAGE)
        tag = FP_TAG_IMG;  /* "Don't ask." — the HTML Standard */

    if (s->doc->opts.recovery == FP_RECOVERY_NONE) {
        /* nesting exactly as written: only void and self-closed tags end by themselves */
        int32_t i = push(s, tag, 0, lt, gt);
        if (i >= 0 && (fp_tag_flags(tag) & FP_TF_VOID))
            pop(s, FP_CLOSED_VOID, gt, gt);
        else if (i >= 0 && t->self_closing)
            pop(s, FP_CLOSED_SELF_CLOSING, gt, gt);
        else if (i >= 0 && (fp_tag_flags(tag) & FP_TF_RAWTEXT))
            s->e[i].flags |= FP_EF_RAWTEXT | ((fp_tag_flags(tag) & FP_TF_RCDATA) ? FP_EF_RCDATA : 0);
        return i;
    }

    s->body_end_pending = s->html_end_pending = 0;

    /* foreign content: tags stay in the svg/math namespace unless they break out */
    int foreign_here = s->top >= 0 ? is_foreign(&s->e[s->top]) && !html_allowed_at(&s->e[s->top], tag)
                                   : s->ctx_ns != 0;
    if (foreign_here) {
        uint32_t f = fp_tag_flags(tag);
        if ((f & FP_TF_BREAKOUT) ||
            (tag == FP_TAG_FONT && has_font_breakout_attr(t, s->doc->buf + gt))) {
            while (s->top >= 0 && is_foreign(&s->e[s->top]) &&
                   !(s->e[s->top].flags & (FP_EF_HTML_IP | FP_EF_TEXT_IP)))
                pop(s, FP_CLOSED_IMPLIED, lt, lt);
        } else {
            uint8_t ns = s->top >= 0 ? s->e[s->top].flags & (FP_EF_SVG | FP_EF_MATHML) : s->ctx_ns;
            if (tag == FP_TAG_SVG)
                ns = FP_EF_SVG;
            return insert_foreign(s, t, tag, ns, lt, gt);
        }
    }

    if (s->head_open && !(fp_tag_flags(tag) & FP_TF_HEAD) && tag != FP_TAG_HEAD && tag != FP_TAG_HTML)
        close_until(s, s->head, FP_CLOSED_IMPLIED, lt, lt);

    int32_t i = start_html(s, t, tag, lt, gt);
    s->watch_text = s->head_open;
    return i;
}

/* ---- end tags ---- */

/* In foreign content an end tag closes the nearest open element of that name
 * when only foreign elements lie above it (13.2.6.5, "any other end tag"). */
static int
end_foreign(fp_sim *s, int tag, uint32_t lt, uint32_t gt)
{
    int32_t t = open_of(s, tag);
    if (t < 0 || !is_foreign(&s->e[t]))
        return 0;
    uint32_t above = s->depth - s->e[t].depth - 1;
    if (s->open_foreign - s->foreign_below[t] != above)
        return 0;
    close_until(s, t, FP_CLOSED_END_TAG, lt, gt);
    return 1;
}

void
fp_sim_end(fp_sim *s, int tag, uint32_t lt, uint32_t gt)
{
    if (tag < 0) {
        fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        return;
    }
    int32_t t = open_of(s, tag);
    if (tag != FP_TAG_BODY && tag != FP_TAG_HTML)
        s->body_end_pending = s->html_end_pending = 0;  /* "after body": back to "in body" */

    if (s->doc->opts.recovery == FP_RECOVERY_NONE) {
        if (t >= 0)
            close_until(s, t, FP_CLOSED_END_TAG, lt, gt);
        else
            fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        return;
    }

    if (s->top >= 0 && is_foreign(&s->e[s->top])) {
        if (tag == FP_TAG_BR || tag == FP_TAG_P) {
            while (s->top >= 0 && is_foreign(&s->e[s->top]) &&
                   !(s->e[s->top].flags & (FP_EF_HTML_IP | FP_EF_TEXT_IP)))
                pop(s, FP_CLOSED_IMPLIED, lt, lt);
        } else if (end_foreign(s, tag, lt, gt)) {
            return;
        }
    }
    if (t >= 0 && is_foreign(&s->e[t]))
        t = -1;  /* an HTML end tag does not close an svg/math element of the same name */

    uint32_t f = fp_tag_flags(tag);
    switch (tag) {
    case FP_TAG_BODY:
    case FP_TAG_HTML:
        /* </body> and </html> switch modes but close nothing: later content
         * still lands in <body>. They close it at EOF if nothing follows. */
        if (tag == FP_TAG_BODY && in_scope(s, open_of(s, FP_TAG_BODY), FP_SC_DEFAULT)) {
            s->body_end_pending = 1;
            s->body_end_lt = lt;
            s->body_end_gt = gt;
        } else if (tag == FP_TAG_HTML && open_of(s, FP_TAG_HTML) >= 0) {
            s->html_end_pending = 1;
            s->html_end_lt = lt;
            s->html_end_gt = gt;
        } else {
            fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        }
        if (s->head_open && s->top == s->head)
            close_until(s, s->head, FP_CLOSED_IMPLIED, lt, lt);
        s->watch_text = 1;
        return;
    case FP_TAG_HEAD:
        if (s->head_open && s->top == s->head)
            pop(s, FP_CLOSED_END_TAG, lt, gt);
        else
            fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        s->watch_text = s->head_open;
        return;
    case FP_TAG_BR: {
        /* "</br>" is treated as "<br>": index it as the br element it becomes */
        fp_tag_token br = {0};
        br.name = s->doc->buf + lt + 2;
        br.name_len = 2;
        start_html(s, &br, FP_TAG_BR, lt, gt);
        return;
    }
    case FP_TAG_P:
        if (!in_scope(s, t, FP_SC_BUTTON))
            t = -1;  /* the spec inserts an empty <p> here; fastparse indexes none */
        break;
    case FP_TAG_LI:
        if (!in_scope(s, t, FP_SC_LIST))
            t = -1;
        break;
    case FP_TAG_H1: case FP_TAG_H2: case FP_TAG_H3:
    case FP_TAG_H4: case FP_TAG_H5: case FP_TAG_H6: {
        /* any open heading closes, whatever its level */
        int32_t h = nearest(s, FP_TAG_H1, FP_TAG_H2);
        int32_t h2 = nearest(s, FP_TAG_H3, FP_TAG_H4);
        int32_t h3 = nearest(s, FP_TAG_H5, FP_TAG_H6);
        h = h > h2 ? h : h2;
        h = h > h3 ? h : h3;
        t = in_scope(s, h, FP_SC_DEFAULT) ? h : -1;
        break;
    }
    case FP_TAG_OPTION:
        if (!(s->top >= 0 && s->top == t))
            t = -1;
        break;
    case FP_TAG_OPTGROUP:
        if (s->top >= 0 && s->e[s->top].tag == FP_TAG_OPTION && s->e[s->top].parent == t && t >= 0)
            pop(s, FP_CLOSED_PARENT_END, lt, lt);
        if (!(s->top >= 0 && s->top == t))
            t = -1;
        break;
    case FP_TAG_SELECT:
        break;
    default:
        if (f & FP_TF_TABLE_PART || tag == FP_TAG_TABLE) {
            if (!in_scope(s, t, FP_SC_TABLE))
                t = -1;
        } else if (f & FP_TF_SPECIAL) {
            if (!in_scope(s, t, FP_SC_DEFAULT))
                t = -1;
        } else if (f & FP_TF_FORMATTING) {
            /* adoption agency, reduced: close the formatting element and what it contains */
            if (!in_scope(s, t, FP_SC_DEFAULT))
                t = -1;
        } else if (t >= 0 && istack_top(s, FP_SC_SPECIAL) > t) {
            t = -1;  /* "any other end tag": a special element in between stops it */
        }
        break;
    }
    if (t < 0) {
        fp_sim_error(s, FP_ERR_UNEXPECTED_END_TAG, lt);
        return;
    }
    close_until(s, t, FP_CLOSED_END_TAG, lt, gt);
    s->watch_text = s->head_open || s->body_end_pending || s->html_end_pending;
}

void
fp_sim_close_top(fp_sim *s, uint32_t lt, uint32_t gt)
{
    pop(s, FP_CLOSED_END_TAG, lt, gt);
}

/* Text matters to nesting in two places here: non-whitespace text in <head>
 * closes it, and text after </body> reopens the body. */
void
fp_sim_text(fp_sim *s, const uint8_t *p, const uint8_t *q)
{
    while (p < q && fp_is_ws(*p))
        p++;
    if (p == q)
        return;
    uint32_t at = (uint32_t)(p - s->doc->buf);
    if (s->head_open && s->top == s->head)
        close_until(s, s->head, FP_CLOSED_IMPLIED, at, at);
    s->body_end_pending = s->html_end_pending = 0;
    s->watch_text = s->head_open;
}

void
fp_sim_eof(fp_sim *s, uint32_t len)
{
    if (s->body_end_pending && open_of(s, FP_TAG_BODY) >= 0)
        close_until(s, open_of(s, FP_TAG_BODY), FP_CLOSED_END_TAG, s->body_end_lt, s->body_end_gt);
    if (s->html_end_pending && open_of(s, FP_TAG_HTML) >= 0)
        close_until(s, open_of(s, FP_TAG_HTML), FP_CLOSED_END_TAG, s->html_end_lt, s->html_end_gt);
    while (s->top >= 0)
        pop(s, FP_CLOSED_EOF, len, len);
}
