/* select_forms.c — the form state behind :checked (HTML Standard 4.16.3):
 * an option's selectedness (4.10.7) and which checked radio button of a group
 * stays checked (4.10.5.1.16), with form owners (4.10.17.3). Reads attributes
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
int fp_sel_option_selected(fp_sel_ctx *c, uint32_t e)
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

/* Form owner of a control (HTML Standard 4.10.17.3): the form its `form`
 * attribute names, else its nearest form ancestor. A <form> nested in a form
 * (which an HTML5 tree builder drops) is treated as soupsieve does: controls
 * inside it belong to the outer form, controls after it to none. */
static int32_t form_owner(fp_sel_ctx *c, uint32_t e)
{
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
int fp_sel_radio_kept(fp_sel_ctx *c, uint32_t e)
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

