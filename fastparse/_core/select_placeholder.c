/* select_placeholder.c — whether a control's value is empty, for :placeholder-shown
 * (HTML Standard 4.16.3): an input's value attribute as its type's value
 * sanitization algorithm leaves it (4.10.5.1), a textarea's raw value (its
 * text, less the newline the parser drops after the start tag). The
 * :placeholder-shown macro has already checked the element is a textarea or
 * an input of a type that shows a placeholder. */
#include "select_internal.h"
#include "tags_gen.h"   /* FP_TAG_TEXTAREA */

enum { TYPE_URL, TYPE_EMAIL, TYPE_NUMBER };
static const char *const TYPE_NAMES[] = {"url", "email", "number"};

static int is_line_break(uint8_t b) { return b == '\n' || b == '\r'; }

static int is_ascii_white(uint8_t b) { return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'; }

int fp_sel_value_empty(fp_sel_ctx *c, uint32_t e)
{
    if (c->el[e].tag == FP_TAG_TEXTAREA)
        return fp_sel_text(c, e, NULL) && c->text.len == 0;
    /* the type first: a decoded value lives in c->val, which reading the type may reuse */
    int type = fp_sel_attr_keyword(c, e, "type", TYPE_NAMES, 3);
    const uint8_t *v;
    size_t n;
    if (!fp_sel_attr_value(c, e, (const uint8_t *)"value", 5, &v, &n))
        return 1;
    double number;
    if (type == TYPE_NUMBER)
        return !fp_sel_number(v, n, &number);   /* not a valid number: "" */
    /* text, search, tel, password lose their line breaks; url and email
     * then lose the white space at either end too */
    for (size_t i = 0; i < n; i++)
        if (!(type < 0 ? is_line_break(v[i]) : is_ascii_white(v[i])))
            return 0;
    return 1;
}
