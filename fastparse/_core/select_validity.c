/* select_validity.c — :valid and :invalid (HTML Standard 4.16.3) over a
 * parsed document: a submittable element that is a candidate for constraint
 * validation (4.10.20.1) and satisfies, or fails, its constraints; a <form>
 * by the controls it owns, a <fieldset> by those inside it. No script has run,
 * so each value is the one the markup sets: the dirty-value constraints
 * (maxlength, minlength) and those only script sets (setCustomValidity) never
 * apply, and values are read as their type's sanitization leaves them. */
#include <math.h>
#include <stdlib.h>

#include "select_internal.h"
#include "tags_gen.h"

static const char *const TYPES[] = {
    "hidden", "text", "search", "tel", "url", "email", "password", "date", "month", "week", "time",
    "datetime-local", "number", "range", "color", "checkbox", "radio", "file", "submit", "image",
    "reset", "button",
};
enum { T_HIDDEN, T_TEXT, T_SEARCH, T_TEL, T_URL, T_EMAIL, T_PASSWORD, T_DATE, T_MONTH, T_WEEK, T_TIME,
       T_DATETIME, T_NUMBER, T_RANGE, T_COLOR, T_CHECKBOX, T_RADIO, T_FILE, T_SUBMIT, T_IMAGE, T_RESET,
       T_BUTTON, T__COUNT };

static int has_attr(const fp_sel_ctx *c, uint32_t e, const char *name)
{
    fp_attr a;
    return fp_attr_find(c->doc, e, name, strlen(name), &a);
}

/* the first <legend> child of fieldset f, or -1; remembered for the run, as
 * each legend of a disabled fieldset asks */
static int32_t first_legend(fp_sel_ctx *c, uint32_t f)
{
    uint32_t known = fp_sel_memo_u32(c->first_legend, f);
    if (known)
        return (int32_t)known - 2;
    int32_t found = -1;
    for (uint32_t x = f + 1; x <= c->el[f].last && found < 0; x = c->el[x].last + 1)
        if (html_tag(c, x) == FP_TAG_LEGEND)
            found = (int32_t)x;
    fp_sel_memo_set_u32(c, &c->first_legend, f, (uint32_t)(found + 2));
    return found;
}

/* disabled (4.10.18.5: its own attribute, or a disabled fieldset it is in but
 * for that fieldset's first legend), or inside a <datalist>: barred */
static int barred_by_place(fp_sel_ctx *c, uint32_t e)
{
    if (has_attr(c, e, "disabled"))
        return 1;
    for (uint32_t x = e; c->el[x].parent >= 0; x = (uint32_t)c->el[x].parent) {
        uint32_t p = (uint32_t)c->el[x].parent;
        int tag = html_tag(c, p);
        if (tag == FP_TAG_DATALIST)
            return 1;
        /* only a legend can be the first legend: the others need no search for it */
        if (tag == FP_TAG_FIELDSET && has_attr(c, p, "disabled") &&
            (html_tag(c, x) != FP_TAG_LEGEND || first_legend(c, p) != (int32_t)x))
            return 1;
    }
    return 0;
}

/* e's input type (T_*), or -1 when e is not a candidate for constraint
 * validation: a submittable element (button, input, select, textarea) that
 * nothing bars (4.10.20.1; the states that bar an input, 4.10.5.1; a button
 * that is not a submit button, 4.10.6). A button, select or textarea answers
 * T__COUNT. */
static int candidate(fp_sel_ctx *c, uint32_t e)
{
    int type = T__COUNT;
    switch (html_tag(c, e)) {
    case FP_TAG_INPUT:
        type = fp_sel_attr_keyword(c, e, "type", TYPES, T__COUNT);
        if (type < 0)
            type = T_TEXT;   /* missing or unknown: the Text state */
        if (type == T_HIDDEN || type == T_RESET || type == T_BUTTON || has_attr(c, e, "readonly"))
            return -1;
        break;
    case FP_TAG_BUTTON:
        if (!fp_sel_is_submit_button(c, e))
            return -1;   /* reset and button buttons, a command's button */
        break;
    case FP_TAG_TEXTAREA:
        if (has_attr(c, e, "readonly"))
            return -1;
        break;
    case FP_TAG_SELECT:
        break;
    default:
        return -1;
    }
    return barred_by_place(c, e) ? -1 : type;
}

static int ascii_ws(uint8_t b) { return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'; }

static int alnum(uint8_t b) { return (b | 32) >= 'a' && (b | 32) <= 'z' ? 1 : b >= '0' && b <= '9'; }

/* A valid email address (4.10.5.1.5): the Standard's grammar, with bytes
 * outside ASCII allowed in the domain, which browsers convert to Punycode
 * first. */
static int valid_email(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] != '@') {
        if (!(alnum(s[i]) || (s[i] < 128 && strchr(".!#$%&'*+/=?^_`{|}~-", s[i]) && s[i])))
            return 0;
        i++;
    }
    if (i == 0 || i == n)
        return 0;
    for (i++;;) {   /* labels: letters and digits, '-' inside, at most 63 */
        size_t start = i;
        while (i < n && (alnum(s[i]) || s[i] >= 0x80 || s[i] == '-'))
            i++;
        if (i == start || i - start > 63 || s[start] == '-' || s[i - 1] == '-')
            return 0;
        if (i == n)
            return 1;
        if (s[i] != '.')
            return 0;
        i++;
    }
}

static int is_special(const uint8_t *s, size_t n)
{
    static const char *const schemes[] = {"http", "https", "ws", "wss", "ftp", "file"};
    for (int k = 0; k < 6; k++)
        if (strlen(schemes[k]) == n && bytes_eq(s, (const uint8_t *)schemes[k], n, 1))
            return k == 5 ? 2 : 1;
    return 0;
}

/* A value the URL parser takes as an absolute URL (browsers' reading of "valid
 * absolute URL", 4.10.5.1.4): a scheme; for http(s), ws(s) and ftp a host with
 * no forbidden code point once percent-decoded and a port up to 65535; for
 * file: a host alone. The host's IDNA and IPv4 or IPv6 syntax are not checked. */
static int valid_url(const uint8_t *s, size_t n)
{
    size_t i = 0;
    if (n == 0 || !((s[0] | 32) >= 'a' && (s[0] | 32) <= 'z'))
        return 0;
    while (i < n && (alnum(s[i]) || s[i] == '+' || s[i] == '-' || s[i] == '.'))
        i++;
    if (i == n || s[i] != ':')
        return 0;
    int special = is_special(s, i);
    size_t p = i + 1;
    if (!special) {
        if (!(n - p >= 2 && s[p] == '/' && s[p + 1] == '/'))
            return 1;   /* an opaque path */
        p += 2;
    } else {
        while (p < n && (s[p] == '/' || s[p] == '\\'))
            p++;
    }
    size_t end = p;
    while (end < n && s[end] != '/' && s[end] != '?' && s[end] != '#' && !(special && s[end] == '\\'))
        end++;
    size_t authority = p;
    for (size_t k = end; k > p; k--)
        if (s[k - 1] == '@') {   /* credentials */
            p = k;
            break;
        }
    size_t host_end = end;
    if (p < end && s[p] == '[') {   /* an IPv6 address */
        while (host_end > p && s[host_end - 1] != ']')
            host_end--;
        if (host_end == p)
            return 0;
    } else {
        for (size_t k = p; k < end; k++)
            if (s[k] == ':') {
                host_end = k;
                break;
            }
    }
    if (host_end < end) {   /* a port */
        if (s[host_end] != ':')
            return 0;
        unsigned long port = 0;
        for (size_t k = host_end + 1; k < end; k++) {
            if (s[k] < '0' || s[k] > '9' || (port = port * 10 + (s[k] - '0')) > 65535)
                return 0;
        }
    }
    if (host_end == p)
        return special == 2 || !special;   /* file: and non-special URLs may have no host */
    if (special == 2 && end > authority)
        return memchr(s + authority, '@', end - authority) == NULL && host_end == end;   /* file: no credentials, no port */
    for (size_t k = p; k < host_end; k++) {
        uint8_t b = s[k];
        if (b == '\t')
            continue;   /* the URL parser drops tabs */
        if (special && b == '%' && k + 2 < host_end && hex_value(s[k + 1]) >= 0 && hex_value(s[k + 2]) >= 0) {
            b = (uint8_t)(hex_value(s[k + 1]) * 16 + hex_value(s[k + 2]));   /* a domain is percent-decoded */
            k += 2;
        }
        if (b < 0x21 || b == 0x7F || (strchr(special ? "#%/:<>?@[\\]^|" : "#/:<>?@[\\]^|", b) && b))
            if (!(s[p] == '[' && (b == ':' || b == '[' || b == ']')))
                return 0;
    }
    return 1;
}

/* The value of a text-like input as its type sanitizes it (4.10.5.1): line
 * breaks removed; for url and email, white space at either end too. Into a
 * malloc'd *out; 0, or -1 out of memory. */
static int sanitized(fp_sel_ctx *c, uint32_t e, int type, uint8_t **out, size_t *len)
{
    const uint8_t *v;
    size_t n;
    *len = 0;
    if (!fp_sel_attr_value(c, e, (const uint8_t *)"value", 5, &v, &n))
        n = 0;
    if (!(*out = malloc(n + 1)))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (v[i] != '\n' && v[i] != '\r')
            (*out)[(*len)++] = v[i];
    if (type == T_URL || type == T_EMAIL) {
        size_t a = 0, b = *len;
        while (a < b && ascii_ws((*out)[a]))
            a++;
        while (b > a && ascii_ws((*out)[b - 1]))
            b--;
        memmove(*out, *out + a, b - a);
        *len = b - a;
    }
    return 0;
}

/* v[0, n) against a pattern attribute's value p[0, plen) (p NULL: none): 1 when
 * v does not match it all (a pattern mismatch), else 0 */
static int pattern_mismatch(fp_sel_ctx *c, const uint8_t *p, size_t plen, const uint8_t *v, size_t n)
{
    if (!p)
        return 0;
    if (c->doc->opts.legacy && (fp_skip_ascii(p, p + plen) != p + plen || fp_skip_ascii(v, v + n) != v + n))
        return 0;   /* code points this does not decode (a legacy encoding's bytes): no constraint */
    int r = fp_pattern_match(p, plen, v, n);
    if (r == FP_PATTERN_NOMEM)
        c->oom = 1;
    return r == FP_PATTERN_MISMATCH;
}

/* text, search, tel, url, email, password: missing, a type mismatch (email,
 * url), a pattern mismatch; an email list item by item */
static int text_invalid(fp_sel_ctx *c, uint32_t e, int type)
{
    uint8_t *v;
    size_t n;
    if (sanitized(c, e, type, &v, &n) < 0) {
        c->oom = 1;
        return 0;
    }
    /* looked up once: an email list tests each item against it (it may point into
     * c->val: no other attribute is read until it is done with) */
    const uint8_t *pattern = NULL;
    size_t plen = 0;
    if (n && !fp_sel_attr_value(c, e, (const uint8_t *)"pattern", 7, &pattern, &plen))
        pattern = NULL;
    int bad;
    if (n == 0) {
        bad = has_attr(c, e, "required");
    } else if (type == T_EMAIL && has_attr(c, e, "multiple")) {
        bad = 0;
        for (size_t i = 0; i <= n && !bad;) {   /* comma-separated, each trimmed */
            size_t j = i;
            while (j < n && v[j] != ',')
                j++;
            size_t a = i, b = j;
            while (a < b && ascii_ws(v[a]))
                a++;
            while (b > a && ascii_ws(v[b - 1]))
                b--;
            bad = !valid_email(v + a, b - a) || pattern_mismatch(c, pattern, plen, v + a, b - a);
            i = j + 1;
        }
    } else {   /* the pattern attribute applies to all six of these types */
        bad = (type == T_EMAIL && !valid_email(v, n)) || (type == T_URL && !valid_url(v, n)) ||
              pattern_mismatch(c, pattern, plen, v, n);
    }
    free(v);
    return bad;
}

/* A candidate of input type `type` (T__COUNT: a button, select or textarea)
 * that fails a constraint. */
static int suffers(fp_sel_ctx *c, uint32_t e, int type)
{
    switch (html_tag(c, e)) {
    case FP_TAG_BUTTON:
        return 0;
    case FP_TAG_SELECT:
        return has_attr(c, e, "required") && fp_sel_select_value_missing(c, e);
    case FP_TAG_TEXTAREA:
        return has_attr(c, e, "required") && fp_sel_value_empty(c, e);
    default:
        break;
    }
    switch (type) {
    case T_SUBMIT: case T_IMAGE: case T_COLOR:
        return 0;
    case T_RANGE:   /* its value is clamped and stepped: out of range only when max < min */
        return fp_sel_range(c, e) == FP_SEL_OUT_OF_RANGE;
    case T_CHECKBOX:
        return has_attr(c, e, "required") && !has_attr(c, e, "checked");
    case T_RADIO:
        return fp_sel_radio_value_missing(c, e);
    case T_FILE:
        return has_attr(c, e, "required");   /* no file is selected */
    case T_DATE: case T_MONTH: case T_WEEK: case T_TIME: case T_DATETIME: case T_NUMBER:
        return fp_sel_typed_invalid(c, e, has_attr(c, e, "required"));
    default:
        return text_invalid(c, e, type);
    }
}

/* a candidate that fails a constraint: 1; a candidate that satisfies them: 0; -1 not one */
static int control_state(fp_sel_ctx *c, uint32_t e)
{
    int type = candidate(c, e);
    return type < 0 ? -1 : suffers(c, e, type);
}

/* Per element, 1 for a form owning an invalid control or a fieldset holding one
 * (a template's contents are not its): from one pass over the document's
 * controls on the run's first question, each invalid one marking its owner and
 * its fieldsets up to a template; kept with shared form tables for the runs
 * after it (each fieldset.matches(":invalid") would otherwise check every
 * control inside it again). Bit 1 marks the ancestors a walk has passed, where
 * the next one stops: all above are marked. NULL out of memory. */
static const uint8_t *invalid_marks(fp_sel_ctx *c)
{
    const uint8_t *shared = fp_sel_forms_invalid(c);
    if (shared || c->invalid_forms)
        return shared ? shared : c->invalid_forms;
    uint8_t *marks = c->invalid_forms = fp_sel_zalloc(c, c->n, 1);
    for (uint32_t x = 0; marks && x < c->n && !c->oom; x++) {
        int tag = html_tag(c, x);
        if ((tag != FP_TAG_INPUT && tag != FP_TAG_BUTTON && tag != FP_TAG_SELECT && tag != FP_TAG_TEXTAREA) ||
            control_state(c, x) != 1)
            continue;
        int32_t owner = fp_sel_form_owner(c, x);
        if (owner >= 0)
            marks[owner] |= 1;
        for (int32_t p = c->el[x].parent; p >= 0 && !(marks[p] & 2) && !is_template(c, (uint32_t)p);
             p = c->el[p].parent)
            marks[p] |= html_tag(c, (uint32_t)p) == FP_TAG_FIELDSET ? 3 : 2;
    }
    fp_sel_forms_keep_invalid(c);
    const uint8_t *kept = fp_sel_forms_invalid(c);   /* ours, or another thread's */
    return kept ? kept : c->invalid_forms;
}

int fp_sel_validity(fp_sel_ctx *c, int32_t test, uint32_t e)
{
    int invalid;
    switch (html_tag(c, e)) {
    case FP_TAG_FORM:
    case FP_TAG_FIELDSET: {
        const uint8_t *marks = invalid_marks(c);
        invalid = marks ? marks[e] & 1 : 0;
        break;
    }
    default:
        invalid = control_state(c, e);
        if (invalid < 0)
            return 0;   /* neither :valid nor :invalid */
    }
    return test == FP_SEL_T_INVALID ? invalid : !invalid;
}
