/* simulator_table.c — tables (13.2.6.4.9-13.2.6.4.15): where a row, cell,
 * section, caption or column lands, which parts the tree builder ignores,
 * foster parenting of what is not a table part, a template's table-like
 * content, and the rows and sections a DOM implies around cells (what a
 * </tr> or </tbody> then ends). */
#include "simulator_internal.h"

/* the topmost open tbody, thead or tfoot when it is an HTML one (an svg
 * <tbody> is no table section), else -1 */
static int32_t
table_section(const fp_sim *s)
{
    int32_t x = nearest(s, FP_TAG_TBODY, FP_TAG_THEAD);
    int32_t y = open_of(s, FP_TAG_TFOOT);
    int32_t sec = x > y ? x : y;
    return sec >= 0 && fp_foreign(&s->e[sec]) ? -1 : sec;
}

static int
is_section(int tag)
{
    return tag == FP_TAG_TBODY || tag == FP_TAG_THEAD || tag == FP_TAG_TFOOT;
}

/* The topmost open HTML td or th, -1 when none is */
static int32_t
open_cell(const fp_sim *s)
{
    int32_t td = open_html_of(s, FP_TAG_TD), th = open_html_of(s, FP_TAG_TH);
    return td > th ? td : th;
}

/* "in template": the first start tag decides how the template's content nests */
int
fp_sim_template_mode_for(int tag)
{
    switch (tag) {
    case FP_TAG_CAPTION: case FP_TAG_COLGROUP: case FP_TAG_TBODY: case FP_TAG_TFOOT: case FP_TAG_THEAD:
        return FP_MODE_TABLE;
    case FP_TAG_COL:
        return FP_MODE_COLGROUP;
    case FP_TAG_TR:
        return FP_MODE_TBODY;
    case FP_TAG_TD: case FP_TAG_TH:
        return FP_MODE_ROW;
    default:
        return FP_MODE_BODY;
    }
}

/* The element that plays the table for rows and cells: the open table in
 * table scope, a template whose content is table-like, -1 for a fragment
 * with a table-like context; -2 when there is none (table parts are then
 * ignored). *kind gets its FP_MODE_* (TABLE for a real table). */
static int32_t
table_root(fp_sim *s, int tag, int *kind)
{
    int32_t b = istack_top(s, FP_SC_TABLE);   /* html, table, template (HTML namespace) */
    if (b >= 0 && s->e[b].tag == FP_TAG_TABLE) {
        *kind = FP_MODE_TABLE;
        return b;
    }
    if (b >= 0 && s->e[b].tag == FP_TAG_TEMPLATE) {
        *kind = tmpl_mode(s, b);
        if (*kind == FP_MODE_TEMPLATE) {
            *kind = fp_sim_template_mode_for(tag);
            set_tmpl_mode(s, b, *kind);
        }
        return b;
    }
    if (b < 0 && s->ctx) {
        if (s->ctx_mode == FP_MODE_TEMPLATE)
            s->ctx_mode = (uint8_t)fp_sim_template_mode_for(tag);   /* a template context */
        *kind = s->ctx_mode;
        return -1;
    }
    *kind = FP_MODE_BODY;
    return -2;
}

/* "in cell" then "in row": a table part ends the open cell before anything
 * else, and any part but a cell the open row, even a part the rules then
 * ignore (<template><td>a<caption>b: the td ends at the caption, which is
 * dropped, and "b" follows the td; a <tbody> in a row of a tbody-context
 * fragment ends the row, and there is no section left for it to end). */
void
fp_sim_ignore_table_part(fp_sim *s, int tag, uint32_t lt)
{
    int32_t cell = open_cell(s), row = open_html_of(s, FP_TAG_TR), b = istack_top(s, FP_SC_TABLE);
    if (tag != FP_TAG_TD && tag != FP_TAG_TH && row > b)
        fp_sim_close_until(s, row, FP_CLOSED_IMPLIED, lt, lt);
    else if (cell > b)
        fp_sim_close_until(s, cell, FP_CLOSED_IMPLIED, lt, lt);
}

/* Where a table part goes: returns the element to close everything above
 * (the part becomes its child), or -2 when the tree builder ignores it. */
int32_t
fp_sim_table_part_parent(fp_sim *s, int tag)
{
    /* fast path, the common case in real tables: a row or cell next to an open row or cell */
    int32_t m = istack_top(s, FP_SC_MODE);
    if (m >= 0 && (tag == FP_TAG_TD || tag == FP_TAG_TH || tag == FP_TAG_TR)) {
        int mt = s->e[m].tag;
        if (mt == FP_TAG_TD || mt == FP_TAG_TH) {
            m = s->e[m].parent;
            mt = m >= 0 ? s->e[m].tag : 0;
        }
        if (mt == FP_TAG_TR && m >= 0 && !fp_foreign(&s->e[m])) {
            if (tag != FP_TAG_TR)
                return m;
            int32_t sec = s->e[m].parent;
            int st = sec >= 0 ? s->e[sec].tag : 0;
            if (st == FP_TAG_TBODY || st == FP_TAG_THEAD || st == FP_TAG_TFOOT || st == FP_TAG_TABLE)
                return sec;
        }
    }
    int kind;
    int32_t root = table_root(s, tag, &kind);
    if (root == -2)
        return -2;
    int32_t sec = table_section(s), tr = open_html_of(s, FP_TAG_TR), cg = open_html_of(s, FP_TAG_COLGROUP);
    int has_sec = sec > root, has_tr = tr > root;
    int tableish = kind == FP_MODE_TABLE;
    switch (tag) {
    case FP_TAG_CAPTION: case FP_TAG_COLGROUP:
    case FP_TAG_TBODY: case FP_TAG_THEAD: case FP_TAG_TFOOT:
        return tableish || has_sec ? root : -2;
    case FP_TAG_TR:
        if (has_sec)
            return sec;
        return tableish || kind == FP_MODE_TBODY || has_tr ? root : -2;
    case FP_TAG_TD: case FP_TAG_TH:
        if (has_tr)
            return tr;
        if (has_sec)
            return sec;
        return tableish || kind == FP_MODE_TBODY || kind == FP_MODE_ROW ? root : -2;
    case FP_TAG_COL:
        if (cg > root && cg > sec && cg > tr)
            return cg;
        /* in a template or fragment whose rows nest as in a table body, a
         * <col> ends the open row and then finds no section to end: ignored */
        return tableish || kind == FP_MODE_COLGROUP ? root : -2;
    default:
        return -2;
    }
}

/* <input type=hidden> (any case): not foster-parented, does not clear frameset-ok */
int
fp_sim_input_is_hidden(const fp_tag_token *t, const uint8_t *end)
{
    const uint8_t *p = t->name + t->name_len;
    fp_raw_attr a;
    int sc = 0;
    while (t->attr_bits && fp_tok_attr(&p, end, &a, &sc) == 1)
        if (fp_equals_ci(a.name, a.name_len, "type"))
            return fp_equals_ci(a.value, a.value_len, "hidden");
    return 0;
}

/* Whether an element inserted into x is foster-parented: x is an HTML table,
 * tbody, thead, tfoot or tr (13.2.6.1, "appropriate place for inserting a node"). */
static int
is_table_target(const fp_sim *s, int32_t x)
{
    if (x < 0 || fp_foreign(&s->e[x]))
        return 0;
    switch (s->e[x].tag) {
    case FP_TAG_TABLE: case FP_TAG_TBODY: case FP_TAG_THEAD: case FP_TAG_TFOOT: case FP_TAG_TR:
        return 1;
    default:
        return 0;
    }
}

/* Element c, inserted into a table element, goes before the table: its tree
 * parent is the table's parent, and its depth follows it (its children,
 * pushed later, follow its depth) */
static void
foster(fp_sim *s, int32_t c)
{
    s->e[c].flags |= FP_EF_FOSTERED;
    int32_t dp = fp_dom_parent(s->doc, (uint32_t)c);
    s->e[c].depth = dp >= 0 ? (uint16_t)(s->e[dp].depth + 1) : 0;
}

/* "in table", "in table body", "in row" (13.2.6.4.9-13.2.6.4.14): what is not
 * a table part is foster-parented when the current node is a table element.
 * When the current node is the clone of a formatting element (not indexed,
 * simulator_ghosts.c) fostered there, on the table element, what the table
 * would hold goes into the clone: it is fostered too. *done says the tag was
 * fully handled here (result returned). */
int32_t
fp_sim_start_in_table(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt, int *done)
{
    int32_t c;
    int into_clone = clone_on_top(s) && is_table_target(s, s->top);   /* a fostered clone */
    *done = 1;
    switch (tag) {
    case FP_TAG_STYLE: case FP_TAG_SCRIPT: case FP_TAG_TEMPLATE:
        if (into_clone)
            break;
        /* fall through */
    case FP_TAG_CAPTION: case FP_TAG_COLGROUP: case FP_TAG_TBODY: case FP_TAG_THEAD:
    case FP_TAG_TFOOT: case FP_TAG_TR: case FP_TAG_TD: case FP_TAG_TH: case FP_TAG_COL:
        *done = 0;
        return -1;
    case FP_TAG_TABLE:
        /* a table start tag closes the open table, then starts a new one */
        c = open_of(s, FP_TAG_TABLE);
        if (!in_scope(s, c, FP_SC_TABLE))
            return -1;
        fp_sim_close_until(s, c, FP_CLOSED_IMPLIED, lt, lt);
        return fp_sim_start(s, t, tag, lt, gt);
    case FP_TAG_FORM:
        /* a form in a table is an empty element (its end tag is ignored) */
        if (s->form_ptr != -1 || open_html_of(s, FP_TAG_TEMPLATE) >= 0)
            return -1;
        c = fp_sim_push(s, tag, 0, lt, gt);
        if (c >= 0) {
            if (into_clone)
                foster(s, c);
            fp_sim_set_form_ptr(s, c);
            fp_sim_pop(s, FP_CLOSED_IMPLIED, gt, gt);
        }
        return c;
    case FP_TAG_INPUT:
        /* a hidden input goes in the current node, not fostered: in a table
         * part, or in what was fostered (a select too, which "in body"'s input
         * would close first; a select fragment's input is ignored only there) */
        if (fp_sim_input_is_hidden(t, s->doc->buf + gt) && !into_clone)
            return insert_void(s, t, tag, lt, gt);
        break;
    default:
        break;
    }
    /* decided where it lands: the implied ends of start_html (a second <li>
     * closing the first) can leave a table part as the current node */
    c = fp_sim_start_html(s, t, tag, lt, gt);
    if (c >= 0 && is_table_target(s, s->e[c].parent))
        foster(s, c);
    return c;
}

/* <td>/<th>/<tr> when the topmost mode element m is a row or cell: the
 * table_part_parent fast path without the rest of start_html */
int32_t
fp_sim_start_row_or_cell(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt, int32_t m)
{
    /* m is the topmost mode element, an HTML tr, td or th: a cell's row is its parent */
    int32_t c = -3, row = s->e[m].tag == FP_TAG_TR ? m : s->e[m].parent;
    if (row >= 0 && s->e[row].tag == FP_TAG_TR && !fp_foreign(&s->e[row])) {
        if (tag != FP_TAG_TR) {
            c = row;
        } else {
            int32_t sec = s->e[row].parent;
            int st = sec >= 0 ? s->e[sec].tag : 0;
            if (st == FP_TAG_TBODY || st == FP_TAG_THEAD || st == FP_TAG_TFOOT || st == FP_TAG_TABLE)
                c = sec;
        }
    }
    if (c == -3) {
        if ((c = fp_sim_table_part_parent(s, tag)) == -2) {
            fp_sim_ignore_table_part(s, tag, lt);
            return -1;
        }
        fp_sim_note_table_part(s, tag, c);
    }
    fp_sim_close_above(s, c, FP_CLOSED_IMPLIED, lt);
    int32_t i = push_inline(s, tag, 0, lt, gt);
    if (i >= 0 && t->self_closing) {
        s->e[i].flags |= FP_EF_SOLIDUS;
        fp_sim_error(s, FP_ERR_NON_VOID_HTML_ELEMENT_START_TAG_WITH_TRAILING_SOLIDUS, lt);
    }
    return i;
}

/* ---- end tags ---- */

/* Whether rows and sections are implied around what b holds straight in it
 * (b: the nearest table-scope element, -1 in a fragment): b is a table, or a
 * template whose content "in table" took (its first tag a caption, colgroup
 * or section), or the fragment's context is such a table or template, or for
 * </tr>, a section. */
static int
implies_parts(const fp_sim *s, int32_t b, int tag)
{
    if (b >= 0)
        return s->e[b].tag == FP_TAG_TABLE ||
               (s->e[b].tag == FP_TAG_TEMPLATE && tmpl_mode(s, b) == FP_MODE_TABLE);
    return s->ctx == FP_TAG_TABLE || (s->ctx == FP_TAG_TEMPLATE && s->ctx_mode == FP_MODE_TABLE) ||
           (tag == FP_TAG_TR && is_section(s->ctx));
}

/* A table part about to go into parent (its index the next one): a cell
 * straight in a table or section is in a row the DOM implies, which stays
 * open after the cell ends, until a row, section, caption or column group
 * starts or an end tag ends it. (A row or cell put next to an open row or
 * cell, fp_sim_start_row_or_cell's fast path, changes nothing: a cell is open,
 * and the implied row ends with it as before.) */
void
fp_sim_note_table_part(fp_sim *s, int tag, int32_t parent)
{
    int cell = tag == FP_TAG_TD || tag == FP_TAG_TH;
    int in_row = parent >= 0 && s->e[parent].tag == FP_TAG_TR && !fp_foreign(&s->e[parent]);
    s->implied_row_cell = cell && !in_row ? (int32_t)s->doc->n : -1;
}

/* The open element above p on the stack that is p's child (what was
 * fostered out of table part p, or put in it), -1 when p is the current node */
static int32_t
child_on_stack(const fp_sim *s, int32_t p)
{
    int32_t x = s->top;
    while (x > p && s->e[x].parent != p)
        x = s->e[x].parent;
    return x > p ? x : -1;
}

/* When the implied row of cell c, the last cell put straight in table or
 * section b (or, for </tbody>, straight in table b), is still open, the cell
 * ended: the element open above b, which the row's end closes ("clear the
 * stack back to a table row context"); else -1. */
static int32_t
implied_row_end(const fp_sim *s, int32_t c, int32_t b, int tag)
{
    if (c <= b || (uint32_t)c >= s->doc->n || s->e[c].closed == FP_CLOSED_EOF || fp_foreign(&s->e[c]) ||
        (s->e[c].tag != FP_TAG_TD && s->e[c].tag != FP_TAG_TH))
        return -1;
    int32_t p = s->e[c].parent;   /* the table, or its section */
    if (p < 0 || s->e[p].closed != FP_CLOSED_EOF)
        return -1;
    if (p != b && (tag == FP_TAG_TBODY || !is_section(s->e[p].tag) || s->e[p].parent != b))
        return -1;
    return child_on_stack(s, p);
}

/* A </tr> or </tbody> with no such element open where a DOM has one: the
 * spec implied the row around a cell sitting straight in a table or section
 * (<table><td>), and the tbody around a row or cell straight in a table; the
 * end tag closes them and the cell ("in cell", then "in row"), or what was
 * fostered after the cell ended, which the DOM's row still held. The open
 * element the DOM's row or tbody holds, to close with what is inside it; -1
 * when there is none. b stands for the table: the nearest table-scope
 * element, or -1 in a fragment whose context is the table (or, for </tr>,
 * its section). */
int32_t
fp_sim_implied_part_end(fp_sim *s, int tag)
{
    int32_t b = istack_top(s, FP_SC_TABLE);
    if (!implies_parts(s, b, tag))
        return -1;
    int32_t cell = open_cell(s), implied = s->implied_row_cell;
    s->implied_row_cell = -1;   /* the row ends here, whatever it holds */
    if (cell <= b && b >= 0 && implied > b)
        return implied_row_end(s, implied, b, tag);
    if (tag == FP_TAG_TBODY) {
        int32_t row = open_html_of(s, FP_TAG_TR);
        if (row > b && s->e[row].parent == b)
            return row;
        return cell > b && s->e[cell].parent == b ? cell : -1;
    }
    if (cell <= b)
        return -1;
    int32_t p = s->e[cell].parent;
    if (p == b)
        return cell;
    return p > b && s->e[p].parent == b && is_section(s->e[p].tag) &&
           !fp_foreign(&s->e[p]) ? cell : -1;
}

/* A </table> with no table open in table scope, in a template or fragment
 * whose content nests as a table's: "in row" ends the row, "in table body"
 * the row group, "in caption" the caption, each then passing the tag on
 * until "in table" ignores it; "in cell" ignores it at once. The outermost
 * element it ends; -1 for none. */
int32_t
fp_sim_table_end_without_table(const fp_sim *s)
{
    int32_t b = istack_top(s, FP_SC_TABLE);   /* a template or html, or -1 in a fragment */
    int32_t sec = table_section(s);
    if (open_cell(s) > b)
        return -1;
    int32_t caption = open_html_of(s, FP_TAG_CAPTION);
    if (caption > b)
        return caption;
    if (sec > b)
        return sec;   /* with the row open in it */
    int32_t row = open_html_of(s, FP_TAG_TR);
    return row > b ? row : -1;
}
