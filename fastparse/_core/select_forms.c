/* select_forms.c — the form state behind :checked, :default and
 * :indeterminate (HTML Standard 4.16.3): an option's selectedness (4.10.7),
 * which checked radio button of a group stays checked (4.10.5.1.16), a form's
 * default button (4.10.22.2), with form owners (4.10.17.3). Reads attributes
 * only: there is no script, so no state changes after parsing. */
#include "select_internal.h"

static int has_attr(const fp_sel_ctx *c, uint32_t e, const char *name, size_t len)
{
    fp_attr a;
    return fp_attr_find(c->doc, e, name, len, &a);
}

static int attr_equals(fp_sel_ctx *c, uint32_t e, const char *name, const char *want, int icase)
{
    const uint8_t *v;
    size_t vlen, wlen = strlen(want);
    return fp_sel_attr_value(c, e, (const uint8_t *)name, strlen(name), &v, &vlen) && vlen == wlen &&
           bytes_eq(v, (const uint8_t *)want, wlen, icase);
}

static int32_t ancestor_tagged(const fp_sel_ctx *c, uint32_t e, int tag, int32_t stop)
{
    for (int32_t a = c->el[e].parent; a >= 0 && a != stop; a = c->el[a].parent)
        if (c->el[a].tag == tag)
            return a;
    return -1;
}

/* The <select>'s selected option when it has no `multiple` (HTML Standard
 * 4.10.7, "selectedness setting algorithm"): the last option with `selected`,
 * else, when it shows one row, the first option that is not disabled. The list
 * of options ends at a nested <select>; <hr> and <datalist> hide theirs. */
static int32_t chosen_option(fp_sel_ctx *c, uint32_t s)
{
    const fp_elem *el = c->el;
    int32_t marked = -1, first = -1;
    for (uint32_t d = s + 1; d <= el[s].last;) {
        int tag = el[d].tag;
        if (tag == c->t_select)
            break;
        if (tag == c->t_hr || tag == c->t_datalist) {
            d = el[d].last + 1;
            continue;
        }
        if (tag == c->t_option) {
            if (has_attr(c, d, "selected", 8))
                marked = (int32_t)d;
            int32_t group = ancestor_tagged(c, d, c->t_optgroup, (int32_t)s);
            if (first < 0 && !has_attr(c, d, "disabled", 8) &&
                !(group >= 0 && has_attr(c, (uint32_t)group, "disabled", 8)))
                first = (int32_t)d;
        }
        d++;
    }
    if (marked >= 0)
        return marked;
    const uint8_t *v;
    size_t n;
    if (fp_sel_attr_value(c, s, (const uint8_t *)"size", 4, &v, &n)) {
        /* a valid size above 1 shows a list box, where nothing is selected by default */
        size_t i = 0;
        while (i < n && is_ws(v[i]))
            i++;
        if (i < n && v[i] == '+')
            i++;
        size_t digits = i;
        while (i < n && v[i] == '0')
            i++;
        size_t nz = i;
        while (i < n && v[i] >= '0' && v[i] <= '9')
            i++;
        int valid = i > digits;
        if (valid && !(i == nz || (i - nz == 1 && v[nz] == '1')))
            return -1;
    }
    return first;
}

/* option:checked — its selectedness (soupsieve and the HTML Standard agree). */
static int option_selected(fp_sel_ctx *c, uint32_t e)
{
    int32_t s = ancestor_tagged(c, e, c->t_select, -1);
    if (s < 0 || has_attr(c, (uint32_t)s, "multiple", 8))
        return has_attr(c, e, "selected", 8);
    if (!c->chosen_option) {
        c->chosen_option = fp_sel_zalloc(c, c->n, sizeof(int32_t));
        if (!c->chosen_option)
            return 0;
    }
    if (c->chosen_option[s] == 0) {
        int32_t o = chosen_option(c, (uint32_t)s);
        c->chosen_option[s] = o < 0 ? -1 : o + 1;
    }
    return c->chosen_option[s] == (int32_t)e + 1;
}

/* The tree e is in: a <template>'s contents are a tree of their own, which a
 * form outside cannot own and a `form` attribute does not reach (they are not
 * connected). Returns the template, or -1 for the document. */
static int32_t tree_of(const fp_sel_ctx *c, uint32_t e)
{
    return ancestor_tagged(c, e, c->t_template, -1);
}

/* Form owner of a control (HTML Standard 4.10.17.3): the form its `form`
 * attribute names, else its nearest form ancestor. A <form> nested in a form
 * (which an HTML5 tree builder drops) is treated as soupsieve does: controls
 * inside it belong to the outer form, controls after it to none. In a
 * template nothing is connected: the nearest form ancestor inside it. */
static int32_t form_owner(fp_sel_ctx *c, uint32_t e)
{
    int32_t tree = tree_of(c, e);
    if (tree >= 0)
        return ancestor_tagged(c, e, c->t_form, tree);
    const uint8_t *v;
    size_t n;
    if (fp_sel_attr_value(c, e, (const uint8_t *)"form", 4, &v, &n)) {
        uint8_t want[256];
        if (n > sizeof want)
            return -1;
        memcpy(want, v, n); /* v may live in c->val, which the scan below reuses */
        for (uint32_t x = 0; x < c->n; x++) {
            const uint8_t *id;
            size_t idn;
            if (fp_sel_attr_value(c, x, (const uint8_t *)"id", 2, &id, &idn) && idn == n && idn &&
                memcmp(id, want, n) == 0)
                return c->el[x].tag == c->t_form ? (int32_t)x : -1;
            if (c->el[x].tag == c->t_template)
                x = c->el[x].last;   /* ids in template contents are not in the document */
        }
        return -1;
    }
    int32_t outer = -1;
    for (int32_t a = c->el[e].parent; a >= 0; a = c->el[a].parent)
        if (c->el[a].tag == c->t_form)
            outer = a;
    if (outer < 0)
        return -1;
    for (uint32_t f = (uint32_t)outer + 1; f < e; f++)
        if (c->el[f].tag == c->t_form && c->el[f].last < e)
            return -1;
    return outer;
}

static int is_named_checked_radio(fp_sel_ctx *c, uint32_t x, const uint8_t *name, size_t n)
{
    const uint8_t *v;
    size_t vn;
    return c->el[x].tag == c->t_input && has_attr(c, x, "checked", 7) &&
           attr_equals(c, x, "type", "radio", 1) &&
           fp_sel_attr_value(c, x, (const uint8_t *)"name", 4, &v, &vn) && vn == n && memcmp(v, name, n) == 0;
}

/* input[type=radio][checked]:checked — checking a radio unchecks the others of
 * its group (same form owner, same name), so only the last stays checked;
 * inside a <template> nothing is connected and all stay checked. */
static int radio_kept(fp_sel_ctx *c, uint32_t e)
{
    const uint8_t *v;
    size_t n;
    if (!fp_sel_attr_value(c, e, (const uint8_t *)"name", 4, &v, &n) || n == 0)
        return 1;
    if (ancestor_tagged(c, e, c->t_template, -1) >= 0)
        return 1;
    uint8_t name[256];
    if (n > sizeof name)
        return 1;
    memcpy(name, v, n);
    int32_t owner = form_owner(c, e);
    for (uint32_t x = e + 1; x < c->n; x++)
        if (is_named_checked_radio(c, x, name, n) && ancestor_tagged(c, x, c->t_template, -1) < 0 &&
            form_owner(c, x) == owner)
            return 0;
    return 1;
}


/* Next element of the tree `tree` (a template, or -1: the document) after x,
 * stepping over the contents of templates inside it; c->n past its end. */
static uint32_t tree_next(const fp_sel_ctx *c, int32_t tree, uint32_t x)
{
    if ((int32_t)x != tree && c->el[x].tag == c->t_template)
        x = c->el[x].last;
    x++;
    return tree >= 0 && x > c->el[tree].last ? c->n : x;
}

/* input[type=radio][name]:not([checked]):indeterminate — no radio of its
 * group (same tree, form owner and name) has `checked`. */
static int radio_unchecked(fp_sel_ctx *c, uint32_t e)
{
    const uint8_t *v;
    size_t n;
    if (!fp_sel_attr_value(c, e, (const uint8_t *)"name", 4, &v, &n) || n == 0)
        return 0;
    uint8_t name[256];
    if (n > sizeof name)
        return 0;
    memcpy(name, v, n);
    int32_t tree = tree_of(c, e), owner = form_owner(c, e);
    uint32_t first = tree >= 0 ? (uint32_t)tree + 1 : 0;
    for (uint32_t x = first; x < c->n; x = tree_next(c, tree, x))
        if (x != e && is_named_checked_radio(c, x, name, n) && form_owner(c, x) == owner)
            return 0;
    return 1;
}

/* A submit button (HTML Standard 4.10.6 for <button>): input type submit or
 * image; a button whose type is submit, missing or invalid, unless it
 * invokes a command or is a child of a <select>. */
static int is_submit_button(fp_sel_ctx *c, uint32_t e)
{
    int tag = c->el[e].tag;
    if (tag == c->t_input)
        return attr_equals(c, e, "type", "submit", 1) || attr_equals(c, e, "type", "image", 1);
    if (tag != c->t_button)
        return 0;
    if (attr_equals(c, e, "type", "submit", 1))
        return 1;
    int32_t parent = c->el[e].parent;
    return !attr_equals(c, e, "type", "button", 1) && !attr_equals(c, e, "type", "reset", 1) &&
           !has_attr(c, e, "command", 7) && !has_attr(c, e, "commandfor", 10) &&
           !(parent >= 0 && c->el[parent].tag == c->t_select);
}

/* :default on a button — the form owner's default button: the first submit
 * button in tree order whose form owner it is (4.10.22.2). */
static int default_button(fp_sel_ctx *c, uint32_t e)
{
    if (!is_submit_button(c, e))
        return 0;
    int32_t owner = form_owner(c, e);
    if (owner < 0)
        return 0;
    if (!c->default_button) {
        c->default_button = fp_sel_zalloc(c, c->n, sizeof(int32_t));
        if (!c->default_button)
            return 0;
    }
    if (c->default_button[owner] == 0) {
        int32_t tree = tree_of(c, (uint32_t)owner), found = -1;
        uint32_t first = tree >= 0 ? (uint32_t)tree + 1 : 0;
        for (uint32_t x = first; x < c->n && found < 0; x = tree_next(c, tree, x))
            if ((c->el[x].tag == c->t_input || c->el[x].tag == c->t_button) && is_submit_button(c, x) &&
                form_owner(c, x) == owner)
                found = (int32_t)x;
        c->default_button[owner] = found < 0 ? -1 : found + 1;
    }
    return c->default_button[owner] == (int32_t)e + 1;
}

/* The form state tests (FP_SEL_T_OPTION_SELECTED ... FP_SEL_T_OUT_OF_RANGE) at e. */
int fp_sel_form_state(fp_sel_ctx *c, int32_t test, uint32_t e)
{
    switch (test) {
    case FP_SEL_T_OPTION_SELECTED: return option_selected(c, e);
    case FP_SEL_T_RADIO_KEPT: return radio_kept(c, e);
    case FP_SEL_T_RADIO_UNCHECKED: return radio_unchecked(c, e);
    case FP_SEL_T_DEFAULT_BUTTON: return default_button(c, e);
    case FP_SEL_T_IN_RANGE: return fp_sel_range(c, e) == FP_SEL_IN_RANGE;
    case FP_SEL_T_OUT_OF_RANGE: return fp_sel_range(c, e) == FP_SEL_OUT_OF_RANGE;
    default: return 0;
    }
}
