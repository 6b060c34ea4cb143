/* select_forms.c — the form state behind :checked, :default and
 * :indeterminate (HTML Standard 4.16.3): an option's selectedness (4.10.7),
 * which checked radio button of a group stays checked (4.10.5.1.16), a form's
 * default button (4.10.22.2), with form owners (4.10.17.3). Reads attributes
 * only: there is no script, so no state changes after parsing. */
#include <stdlib.h>

#include "select_internal.h"
#include "tags_gen.h"   /* FP_TAG_* of the form-associated elements */

static int has_attr(const fp_sel_ctx *c, uint32_t e, const char *name, size_t len)
{
    fp_attr a;
    return fp_attr_find(c->doc, e, name, len, &a);
}

/* e is a form-associated element (4.10.2): one the parser's form element pointer owns */
static int is_form_associated(const fp_sel_ctx *c, uint32_t e)
{
    switch (html_tag(c, e)) {
    case FP_TAG_BUTTON: case FP_TAG_FIELDSET: case FP_TAG_INPUT: case FP_TAG_OBJECT:
    case FP_TAG_OUTPUT: case FP_TAG_SELECT: case FP_TAG_TEXTAREA: case FP_TAG_IMG:
        return 1;
    default:
        return 0;
    }
}

/* e's nearest ancestor with that HTML tag below `stop`, as the DOM has them:
 * none past a <template>, whose contents are a fragment of their own */
static int32_t ancestor_tagged(const fp_sel_ctx *c, uint32_t e, int tag, int32_t stop)
{
    for (int32_t a = parent_of(c, e); a >= 0 && a != stop; a = parent_of(c, (uint32_t)a))
        if (html_tag(c, (uint32_t)a) == tag)
            return a;
    return -1;
}

/* A <select> whose valid size attribute is above 1: a list box, not one row */
static int list_box(fp_sel_ctx *c, uint32_t s)
{
    const uint8_t *v;
    size_t n;
    if (!fp_sel_attr_value(c, s, (const uint8_t *)"size", 4, &v, &n))
        return 0;
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
    return i > digits && !(i == nz || (i - nz == 1 && v[nz] == '1'));
}

/* The first option at or after d in select s's list of options (HTML Standard
 * 4.10.7), or s's end: the list ends at a nested <select>; <hr>, <datalist>
 * and <template> hide theirs. */
static uint32_t next_option(const fp_sel_ctx *c, uint32_t s, uint32_t d)
{
    for (; d <= c->el[s].last; d++) {
        int tag = html_tag(c, d);
        if (tag == c->t_select)
            break;
        if (tag == c->t_hr || tag == c->t_datalist || is_template(c, d))
            d = c->el[d].last;   /* a template's contents are a fragment of their own */
        else if (tag == c->t_option)
            return d;
    }
    return c->el[s].last + 1;
}

/* The <select>'s selected option when it has no `multiple` (HTML Standard
 * 4.10.7, "selectedness setting algorithm"): the last option with `selected`,
 * else, when it shows one row, the first option that is not disabled. */
static int32_t chosen_option(fp_sel_ctx *c, uint32_t s)
{
    int32_t marked = -1, first = -1;
    for (uint32_t d = next_option(c, s, s + 1); d <= c->el[s].last; d = next_option(c, s, d + 1)) {
        if (has_attr(c, d, "selected", 8))
            marked = (int32_t)d;
        int32_t group = ancestor_tagged(c, d, c->t_optgroup, (int32_t)s);
        if (first < 0 && !has_attr(c, d, "disabled", 8) &&
            !(group >= 0 && has_attr(c, (uint32_t)group, "disabled", 8)))
            first = (int32_t)d;
    }
    if (marked >= 0)
        return marked;
    return list_box(c, s) ? -1 : first;   /* a list box selects nothing by default */
}

static const uint8_t *shared_chosen(const fp_sel_ctx *c);

/* option:checked — its selectedness (soupsieve and the HTML Standard agree). */
static int option_selected(fp_sel_ctx *c, uint32_t e)
{
    int32_t s = ancestor_tagged(c, e, c->t_select, -1);   /* the select whose list holds e */
    if (s < 0 || has_attr(c, (uint32_t)s, "multiple", 8))
        return has_attr(c, e, "selected", 8);
    const uint8_t *shared = shared_chosen(c);
    if (shared)
        return shared[e];
    uint32_t chosen = fp_sel_memo_u32(c->chosen_option, (uint32_t)s);
    if (chosen == 0) {
        int32_t o = chosen_option(c, (uint32_t)s);
        chosen = o < 0 ? 1 : (uint32_t)o + 2;
        fp_sel_memo_set_u32(c, &c->chosen_option, (uint32_t)s, chosen);
    }
    return chosen == e + 2;
}

/* ---- tables: every control's form owner, ids, radio groups, default buttons ----
 * Built on a run's first use and freed with it, so :checked, :default and
 * :indeterminate over a page with thousands of controls (a form per table row,
 * `form=` attributes) stay linear; or built once for the document
 * (fp_select_forms_build) and shared, so a scoped run, which would build them
 * for a few controls, costs the scope and not the document. */

enum { VALUE_MAX = 256 };   /* longer ids and names compare unequal to everything */

/* An open-addressing set of elements keyed by a string attribute value (an
 * id; a radio's name with its form owner), compared by re-reading it. */
typedef struct {
    uint32_t *elem;   /* element + 1; 0 empty */
    uint32_t *hash;
    uint32_t mask;
} elem_set;

/* What the controls of one tree make of each other. */
struct fp_sel_form_tree {
    int32_t tree;           /* whose: -2 none yet, -1 the document, else a template */
    int32_t *default_of;    /* per form (its place in fp_sel_forms.forms): default button + 1 */
    elem_set radios;        /* (owner, name) -> last checked radio of the group in that tree */
    elem_set required;      /* (owner, name) -> a radio of the group with `required` */
};

struct fp_sel_forms {
    int32_t *owner;         /* per element: 0 not known yet, 1 no form owner, else owner + 2 */
    int32_t *top_form;      /* per element: the outermost <form> at or above it, or -1 */
    int32_t *template_at;   /* per element: the nearest <template> at or above it, or -1 */
    uint32_t *forms;        /* every <form>, in document order */
    uint32_t nforms;
    elem_set ids;           /* id -> first element of the document with it (for form=) */
    struct fp_sel_form_tree doc;   /* the document's controls */
    /* built by fp_select_forms_build for runs to share: read-only, with the
     * owner of every input, button, select and textarea (the only elements asked) and the
     * document's tree tables filled in */
    int shared;
    /* per element, 1 a form owning an invalid control or a fieldset holding one
     * (select_validity.c, invalid_marks): filled in by the first run that asks
     * (fp_sel_forms_keep_invalid), published atomically */
    uint8_t *invalid_forms;
    /* shared tables: per element, 1 the option its <select> (no `multiple`) chose, so
     * that each option.matches(":checked") does not look through all the options */
    uint8_t *chosen;
};

static const uint8_t *shared_chosen(const fp_sel_ctx *c)
{
    return c->forms && c->forms->shared ? c->forms->chosen : NULL;
}

static uint32_t hash_value(const uint8_t *p, size_t n, int32_t owner)
{
    uint32_t h = 2166136261u ^ (uint32_t)owner * 0x9E3779B9u;   /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* e's attribute `name` copied into buf (VALUE_MAX bytes): its length, or -1
 * when absent or longer */
static long value_of(fp_sel_ctx *c, uint32_t e, const char *name, uint8_t *buf)
{
    const uint8_t *v;
    size_t n;
    if (!fp_sel_attr_value(c, e, (const uint8_t *)name, strlen(name), &v, &n) || n > VALUE_MAX)
        return -1;
    memcpy(buf, v, n);   /* v may live in c->val, which the next read reuses */
    return (long)n;
}

static int set_init(fp_sel_ctx *c, elem_set *t, uint32_t count)
{
    uint32_t cap = 16;
    while (cap < 2 * (uint64_t)count + 2)
        cap *= 2;
    free(t->elem);
    free(t->hash);
    t->elem = fp_sel_zalloc(c, cap, sizeof *t->elem);
    t->hash = fp_sel_zalloc(c, cap, sizeof *t->hash);
    t->mask = cap - 1;
    if (t->elem && t->hash)
        return 0;
    free(t->elem);   /* out of memory: c->oom fails the run; the set stays unbuilt */
    free(t->hash);
    t->elem = t->hash = NULL;
    return -1;
}

enum { ANY_OWNER = INT32_MIN };
static int32_t form_owner(fp_sel_ctx *c, uint32_t e);

/* The slot of the element whose attribute `attr` is key[0, n) (and whose form owner is
 * `owner`, unless ANY_OWNER): where it is, or the empty slot where it would go. */
static uint32_t set_slot(fp_sel_ctx *c, const elem_set *t, const char *attr, const uint8_t *key, size_t n,
                         int32_t owner, uint32_t *hash)
{
    uint8_t buf[VALUE_MAX];
    uint32_t h = *hash = hash_value(key, n, owner), k = h & t->mask;
    for (; t->elem[k]; k = (k + 1) & t->mask) {
        uint32_t y = t->elem[k] - 1;
        if (t->hash[k] == h && (owner == ANY_OWNER || form_owner(c, y) == owner) &&
            value_of(c, y, attr, buf) == (long)n && memcmp(buf, key, n) == 0)
            break;
    }
    return k;
}

static void set_put(elem_set *t, uint32_t k, uint32_t e, uint32_t hash)
{
    t->elem[k] = e + 1;
    t->hash[k] = hash;
}

static void set_free(elem_set *t)
{
    free(t->elem);
    free(t->hash);
}

static struct fp_sel_forms *forms_of(fp_sel_ctx *c);

/* The tree e is in: a <template>'s contents are a tree of their own, which a
 * form outside cannot own and a `form` attribute does not reach (they are not
 * connected). Returns the template, or -1 for the document. */
static int32_t tree_of(fp_sel_ctx *c, uint32_t e)
{
    struct fp_sel_forms *f = forms_of(c);
    int32_t p = c->el[e].parent;
    return f && p >= 0 ? f->template_at[p] : -1;
}

/* Next element of the tree `tree` (a template, or -1: the document) after x,
 * stepping over the contents of templates inside it; c->n past its end. */
static uint32_t tree_next(const fp_sel_ctx *c, int32_t tree, uint32_t x)
{
    if ((int32_t)x != tree && is_template(c, x))
        x = c->el[x].last;
    x++;
    return tree >= 0 && x > c->el[tree].last ? c->n : x;
}

/* The run's form tables, with what every control asks of its ancestors worked
 * out in one pass (parents come before children), so deep pages stay linear. */
static struct fp_sel_forms *forms_of(fp_sel_ctx *c)
{
    if (c->forms)
        return c->forms->forms ? c->forms : NULL;
    struct fp_sel_forms *f = fp_sel_zalloc(c, 1, sizeof *f);
    if (!f)
        return NULL;
    c->forms = f;
    f->doc.tree = -2;
    for (uint32_t x = 0; x < c->n; x++)
        f->nforms += html_tag(c, x) == c->t_form;
    f->owner = fp_sel_zalloc(c, c->n, sizeof *f->owner);
    f->top_form = fp_sel_zalloc(c, c->n, sizeof *f->top_form);
    f->template_at = fp_sel_zalloc(c, c->n, sizeof *f->template_at);
    uint32_t *forms = fp_sel_zalloc(c, f->nforms + 1, sizeof *forms);
    if (!f->owner || !f->top_form || !f->template_at || !forms) {
        free(forms);
        return NULL;   /* f->forms stays NULL: out of memory, and c->oom fails the run */
    }
    for (uint32_t x = 0, k = 0; x < c->n; x++) {
        int tag = html_tag(c, x);
        int32_t p = c->el[x].parent;
        f->top_form[x] = p >= 0 && f->top_form[p] >= 0 ? f->top_form[p] : tag == c->t_form ? (int32_t)x : -1;
        f->template_at[x] = is_template(c, x) ? (int32_t)x : p >= 0 ? f->template_at[p] : -1;
        if (tag == c->t_form)
            forms[k++] = x;
    }
    f->forms = forms;
    return f;
}

static void tree_free(struct fp_sel_form_tree *t)
{
    free(t->default_of);
    set_free(&t->radios);
    set_free(&t->required);
}

static void forms_free(struct fp_sel_forms *f)
{
    free(f->owner);
    free(f->top_form);
    free(f->template_at);
    free(f->forms);
    set_free(&f->ids);
    tree_free(&f->doc);
    free(f->invalid_forms);
    free(f->chosen);
    free(f);
}

/* The document's forms that own an invalid control, when shared tables have
 * them; else NULL */
const uint8_t *fp_sel_forms_invalid(const fp_sel_ctx *c)
{
    return c->forms && c->forms->shared ? __atomic_load_n(&c->forms->invalid_forms, __ATOMIC_ACQUIRE) : NULL;
}

/* Hands the run's finished list of invalid forms to the shared tables, for
 * later runs: each form.matches(":invalid") would otherwise check every control
 * of the document again. Another thread may have got there first; the tables
 * keep one. */
void fp_sel_forms_keep_invalid(fp_sel_ctx *c)
{
    if (!c->forms || !c->forms->shared || !c->invalid_forms || c->oom)
        return;
    uint8_t *none = NULL;
    if (__atomic_compare_exchange_n(&c->forms->invalid_forms, &none, c->invalid_forms, 0, __ATOMIC_RELEASE,
                                    __ATOMIC_RELAXED))
        c->invalid_forms = NULL;   /* the tables own it now */
}

void fp_sel_forms_free(fp_sel_ctx *c)
{
    if (c->forms && !c->forms->shared)
        forms_free(c->forms);
    c->forms = NULL;
    if (c->template_forms) {
        tree_free(c->template_forms);
        free(c->template_forms);
        c->template_forms = NULL;
    }
}

/* The first element of the document (template contents left out) whose id is
 * want[0, n), or -1. */
static int32_t element_by_id(fp_sel_ctx *c, struct fp_sel_forms *f, const uint8_t *want, size_t n)
{
    uint8_t buf[VALUE_MAX];
    uint32_t h, k;
    if (!f->ids.elem) {
        if (set_init(c, &f->ids, c->n) < 0)
            return -1;
        for (uint32_t x = 0; x < c->n; x = tree_next(c, -1, x)) {
            long len = value_of(c, x, "id", buf);
            if (len > 0 && !f->ids.elem[k = set_slot(c, &f->ids, "id", buf, (size_t)len, ANY_OWNER, &h)])
                set_put(&f->ids, k, x, h);   /* the first element with an id keeps it */
        }
    }
    k = set_slot(c, &f->ids, "id", want, n, ANY_OWNER, &h);
    return (int32_t)f->ids.elem[k] - 1;
}

/* The place in f->forms (document order) of `form`, or of the first form after it */
static uint32_t form_place(const struct fp_sel_forms *f, uint32_t form)
{
    return fp_sel_lower_bound(f->forms, 0, f->nforms, form);
}

/* Form owner of a control (HTML Standard 4.10.17.3): the form its `form`
 * attribute names, else its nearest form ancestor. A <form> nested in a form
 * (which an HTML5 tree builder drops) is treated as soupsieve does: controls
 * inside it belong to the outer form, controls after it to none. In a
 * template nothing is connected: the nearest form ancestor inside it. */
static int32_t form_owner(fp_sel_ctx *c, uint32_t e)
{
    struct fp_sel_forms *f = forms_of(c);
    if (!f)
        return -1;
    if (f->owner[e])
        return f->owner[e] - 2;
    if (f->shared)
        return -1;   /* shared tables know every control's: e is none */
    int32_t owner = -1, tree = tree_of(c, e);
    uint8_t want[VALUE_MAX];
    long n;
    if (tree >= 0) {
        owner = ancestor_tagged(c, e, c->t_form, tree);
    } else if ((n = value_of(c, e, "form", want)) >= 0 || has_attr(c, e, "form", 4)) {
        int32_t x = n > 0 ? element_by_id(c, f, want, (size_t)n) : -1;
        owner = x >= 0 && html_tag(c, (uint32_t)x) == c->t_form ? x : -1;
    } else if (is_form_associated(c, e) && (owner = fp_parser_form(c->doc, e)) >= 0) {
        /* the parser's form element pointer: its form, even when e is outside it */
    } else {
        int32_t p = c->el[e].parent;
        owner = p >= 0 ? f->top_form[p] : -1;   /* the outermost form ancestor */
        /* a form inside it that ended before e closes it for e */
        for (uint32_t k = form_place(f, (uint32_t)owner + 1); owner >= 0 && k < f->nforms && f->forms[k] < e; k++)
            if (c->el[f->forms[k]].last < e)
                owner = -1;
    }
    f->owner[e] = owner + 2;
    return owner;
}

/* A submit button (HTML Standard 4.10.6 for <button>): input type submit or
 * image; a button whose type is submit, missing or invalid, unless it
 * invokes a command or is a child of a <select>. */
static int is_submit_button(fp_sel_ctx *c, uint32_t e)
{
    static const char *const types[] = {"submit", "image", "button", "reset"};
    int tag = html_tag(c, e), type = fp_sel_attr_keyword(c, e, "type", types, 4);
    if (tag == c->t_input)
        return type == 0 || type == 1;
    if (tag != c->t_button || type == 2 || type == 3)
        return 0;
    if (type == 0)
        return 1;
    int32_t parent = c->el[e].parent;
    return !has_attr(c, e, "command", 7) && !has_attr(c, e, "commandfor", 10) &&
           !(parent >= 0 && html_tag(c, (uint32_t)parent) == c->t_select);
}

/* The checked radio of group (owner, name) that the radio set holds (the last
 * in tree order), or -1. */
static int32_t group_radio(fp_sel_ctx *c, const struct fp_sel_form_tree *t, int32_t owner, const uint8_t *name,
                           size_t n)
{
    uint32_t h, k = set_slot(c, &t->radios, "name", name, n, owner, &h);
    return (int32_t)t->radios.elem[k] - 1;
}

/* The tables of `tree`'s controls, from one pass over them in tree order (as
 * soupsieve's): each form's first submit button, each radio group's last
 * checked radio. A template's are the run's own, even beside shared tables. */
static const struct fp_sel_form_tree *tree_tables(fp_sel_ctx *c, int32_t tree)
{
    struct fp_sel_forms *f = forms_of(c);
    if (!f)
        return NULL;
    struct fp_sel_form_tree *t = &f->doc;
    if (tree >= 0) {
        if (!c->template_forms) {
            if (!(c->template_forms = fp_sel_zalloc(c, 1, sizeof *c->template_forms)))
                return NULL;
            c->template_forms->tree = -2;
        }
        t = c->template_forms;
    }
    if (t->tree == tree)
        return t;   /* shared tables come with the document's built: only a template's are */
    uint32_t first = tree >= 0 ? (uint32_t)tree + 1 : 0, ncontrols = 0;
    for (uint32_t x = first; x < c->n; x = tree_next(c, tree, x))
        ncontrols += html_tag(c, x) == c->t_input;
    if (t->default_of)
        memset(t->default_of, 0, f->nforms * sizeof *t->default_of);
    else if (!(t->default_of = fp_sel_zalloc(c, f->nforms + 1, sizeof *t->default_of)))
        return NULL;
    t->tree = -2;   /* until built */
    if (set_init(c, &t->radios, ncontrols) < 0 || set_init(c, &t->required, ncontrols) < 0)
        return NULL;
    uint8_t name[VALUE_MAX];
    for (uint32_t x = first; x < c->n; x = tree_next(c, tree, x)) {
        int tag = html_tag(c, x);
        if (tag != c->t_input && tag != c->t_button)
            continue;
        int32_t owner = form_owner(c, x);
        long n;
        if (owner >= 0 && is_submit_button(c, x)) {
            int32_t *slot = &t->default_of[form_place(f, (uint32_t)owner)];
            if (!*slot)
                *slot = (int32_t)x + 1;
        } else if (tag == c->t_input && fp_sel_attr_is(c, x, "type", "radio") &&
                   (n = value_of(c, x, "name", name)) > 0) {
            uint32_t h, k;
            if (has_attr(c, x, "checked", 7)) {
                k = set_slot(c, &t->radios, "name", name, (size_t)n, owner, &h);
                set_put(&t->radios, k, x, h);   /* a later one unchecks the earlier */
            }
            if (has_attr(c, x, "required", 8) && !t->required.elem[k = set_slot(c, &t->required, "name", name,
                                                                                  (size_t)n, owner, &h)])
                set_put(&t->required, k, x, h);
        }
    }
    t->tree = tree;
    return t;
}

/* input[type=radio][checked]:checked — checking a radio unchecks the others of
 * its group (same form owner, same name), so only the last stays checked;
 * inside a <template> nothing is connected and all stay checked. */
static int radio_kept(fp_sel_ctx *c, uint32_t e)
{
    uint8_t name[VALUE_MAX];
    long n;
    if (html_tag(c, e) != c->t_input || (n = value_of(c, e, "name", name)) <= 0 || tree_of(c, e) >= 0)
        return 1;   /* no group; or in a template, where nothing is connected */
    const struct fp_sel_form_tree *t = tree_tables(c, -1);
    return !t || group_radio(c, t, form_owner(c, e), name, (size_t)n) == (int32_t)e;
}

/* input[type=radio][name]:not([checked]):indeterminate — no radio of its
 * group (same tree, form owner and name) has `checked`. */
static int radio_unchecked(fp_sel_ctx *c, uint32_t e)
{
    uint8_t name[VALUE_MAX];
    long n;
    if (html_tag(c, e) != c->t_input || (n = value_of(c, e, "name", name)) <= 0)
        return 0;
    const struct fp_sel_form_tree *t = tree_tables(c, tree_of(c, e));
    return t && group_radio(c, t, form_owner(c, e), name, (size_t)n) < 0;
}

/* A radio suffering from being missing (4.10.5.1.16): a radio of its named
 * group is required and none is checked. One without a name is never missing,
 * as in browsers and web-platform-tests (the Standard's group would be itself). */
int fp_sel_radio_value_missing(fp_sel_ctx *c, uint32_t e)
{
    uint8_t name[VALUE_MAX];
    long n = value_of(c, e, "name", name);
    if (n <= 0)
        return 0;
    const struct fp_sel_form_tree *t = tree_tables(c, tree_of(c, e));
    if (!t)
        return 0;
    int32_t owner = form_owner(c, e);
    uint32_t h, k = set_slot(c, &t->required, "name", name, (size_t)n, owner, &h);
    return t->required.elem[k] && group_radio(c, t, owner, name, (size_t)n) < 0;
}

/* A required <select> suffering from being missing (4.10.7): no option
 * selected, or only its placeholder label option (one row, no `multiple`: the
 * first option of its list when that is the select's child with an empty value). */
int fp_sel_select_value_missing(fp_sel_ctx *c, uint32_t s)
{
    uint32_t first = next_option(c, s, s + 1);
    if (has_attr(c, s, "multiple", 8)) {
        for (uint32_t d = first; d <= c->el[s].last; d = next_option(c, s, d + 1))
            if (has_attr(c, d, "selected", 8))
                return 0;
        return 1;
    }
    int32_t chosen = chosen_option(c, s);
    if (chosen < 0)
        return 1;   /* no option, or none chosen in a list box */
    if ((uint32_t)chosen != first || c->el[first].parent != (int32_t)s || list_box(c, s))
        return 0;   /* a placeholder label option is the first option of a one-row select */
    const uint8_t *v;
    size_t n;
    if (fp_sel_attr_value(c, first, (const uint8_t *)"value", 5, &v, &n))
        return n == 0;
    if (!fp_sel_text(c, first, NULL))
        return 0;
    for (size_t i = 0; i < c->text.len; i++)
        if (!is_ws(c->text.data[i]))
            return 0;
    return 1;   /* its value is its text, stripped: empty */
}

int32_t fp_sel_form_owner(fp_sel_ctx *c, uint32_t e)
{
    return form_owner(c, e);
}

int fp_sel_is_submit_button(fp_sel_ctx *c, uint32_t e)
{
    return is_submit_button(c, e);
}

/* :default on a button — the form owner's default button: the first submit
 * button in tree order whose form owner it is (4.10.22.2). */
static int default_button(fp_sel_ctx *c, uint32_t e)
{
    int32_t owner = is_submit_button(c, e) ? form_owner(c, e) : -1;
    if (owner < 0)
        return 0;
    const struct fp_sel_form_tree *t = tree_tables(c, tree_of(c, e));
    return t && t->default_of[form_place(forms_of(c), (uint32_t)owner)] == (int32_t)e + 1;
}

/* Shared tables: a context of their own builds them as a run would, then the
 * owner of every input, button, select and textarea, template contents included. */
fp_status fp_select_forms_build(const fp_doc *doc, struct fp_sel_forms **out)
{
    fp_sel_ctx c;
    fp_sel_ctx_bare(&c, doc);
    *out = NULL;
    if (tree_tables(&c, -1)) {
        for (uint32_t x = 0; x < c.n; x++) {
            int tag = html_tag(&c, x);
            if (tag == c.t_input || tag == c.t_button || tag == FP_TAG_SELECT || tag == FP_TAG_TEXTAREA)
                form_owner(&c, x);
        }
        c.forms->chosen = fp_sel_zalloc(&c, c.n, 1);
        for (uint32_t x = 0; c.forms->chosen && x < c.n; x++) {
            int32_t o = html_tag(&c, x) == c.t_select && !has_attr(&c, x, "multiple", 8) ? chosen_option(&c, x) : -1;
            if (o >= 0)
                c.forms->chosen[o] = 1;
        }
        if (!c.oom) {
            *out = c.forms;
            c.forms->shared = 1;   /* from here on fp_sel_forms_free leaves it */
        }
    }
    fp_sel_ctx_free(&c);
    return *out ? FP_OK : FP_ENOMEM;
}

void fp_select_forms_free(struct fp_sel_forms *forms)
{
    if (forms)
        forms_free(forms);
}

/* The form state tests (FP_SEL_T_OPTION_SELECTED ... FP_SEL_T_OUT_OF_RANGE, FP_SEL_T_VALUE_EMPTY,
 * FP_SEL_T_VALID, FP_SEL_T_INVALID) at e. */
int fp_sel_form_state(fp_sel_ctx *c, int32_t test, uint32_t e)
{
    switch (test) {
    case FP_SEL_T_OPTION_SELECTED: return option_selected(c, e);
    case FP_SEL_T_RADIO_KEPT: return radio_kept(c, e);
    case FP_SEL_T_RADIO_UNCHECKED: return radio_unchecked(c, e);
    case FP_SEL_T_DEFAULT_BUTTON: return default_button(c, e);
    case FP_SEL_T_IN_RANGE: return fp_sel_range(c, e) == FP_SEL_IN_RANGE;
    case FP_SEL_T_OUT_OF_RANGE: return fp_sel_range(c, e) == FP_SEL_OUT_OF_RANGE;
    case FP_SEL_T_VALUE_EMPTY: return fp_sel_value_empty(c, e);
    case FP_SEL_T_VALID: case FP_SEL_T_INVALID: return fp_sel_validity(c, test, e);
    default: return 0;
    }
}
