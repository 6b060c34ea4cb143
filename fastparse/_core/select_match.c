/* select_match.c — matches a compound selector at an element, then the
 * combinators to its left, right to left through parent indices and sibling
 * positions (Selectors 4, 16). Does not parse selectors (fastparse/selectors/
 * does) nor touch Python; select_run.c decides which elements are tried.
 * NOTE: a <template>'s contents are not in the document (DOM 4.8: they live in a
 * separate fragment), so matching never enters a template from outside and
 * never climbs out of one: its element is empty and has no descendants. */
#include "select_internal.h"

int fp_sel_match_compound(fp_sel_ctx *c, int32_t at, uint32_t e)
{
    const int32_t *w = c->w;
    int32_t ntests = w[at + 1];
    const int32_t *t = w + at + 2;
    for (int32_t k = 0; k < ntests; k++) {
        size_t len;
        const uint8_t *s, *v;
        size_t vlen;
        switch (t[0]) {
        case FP_SEL_T_TAG: {
            int id = c->tag_ids[t[1]];
            if (id < 0 || c->el[e].tag != (uint16_t)id)
                return 0;
            t += 2;
            break;
        }
        case FP_SEL_T_ID:   /* in quirks mode, ASCII case-insensitive (HTML 2.5.1, "case-sensitivity") */
            s = fp_sel_str(c, t[1], &len);
            if (!fp_sel_attr_value(c, e, (const uint8_t *)"id", 2, &v, &vlen) || vlen != len ||
                !bytes_eq(v, s, len, c->doc->quirks))
                return 0;
            t += 2;
            break;
        case FP_SEL_T_CLASS:
            s = fp_sel_str(c, t[1], &len);
            if (!fp_sel_attr_value(c, e, (const uint8_t *)"class", 5, &v, &vlen) ||
                !fp_has_token(v, vlen, s, len, c->doc->quirks))
                return 0;
            t += 2;
            break;
        case FP_SEL_T_ATTR:
            if (!fp_sel_test_attr(c, t, e))
                return 0;
            t += 5;
            break;
        case FP_SEL_T_NOT:
            if (fp_sel_match_list(c, t[1], e))
                return 0;
            t += 2;
            break;
        case FP_SEL_T_IS:
            if (!fp_sel_match_list(c, t[1], e))
                return 0;
            t += 2;
            break;
        case FP_SEL_T_HAS:
            if (!fp_sel_test_has(c, t, e))
                return 0;
            t += 4;
            break;
        case FP_SEL_T_NTH:
            if (!fp_sel_test_nth(c, t, e))
                return 0;
            t += 6;
            break;
        case FP_SEL_T_ROOT:
            if (e != c->doc->root)
                return 0;
            t += 1;
            break;
        case FP_SEL_T_SCOPE:
            if (e != (c->scope < 0 ? c->doc->root : (uint32_t)c->scope))
                return 0;
            t += 1;
            break;
        case FP_SEL_T_EMPTY:
            if (!fp_sel_test_empty(c, e))
                return 0;
            t += 1;
            break;
        case FP_SEL_T_DEFINED:
            if (!fp_sel_test_defined(c, e))
                return 0;
            t += 1;
            break;
        case FP_SEL_T_CONTAINS: case FP_SEL_T_CONTAINS_OWN:
            if (!fp_sel_test_contains(c, t, e))
                return 0;
            t += 2 + t[1];
            break;
        case FP_SEL_T_LANG:
            if (!fp_sel_lang(c, t, e))
                return 0;
            t += 2 + t[1];
            break;
        case FP_SEL_T_OPTION_SELECTED: case FP_SEL_T_RADIO_KEPT: case FP_SEL_T_DEFAULT_BUTTON:
        case FP_SEL_T_RADIO_UNCHECKED: case FP_SEL_T_IN_RANGE: case FP_SEL_T_OUT_OF_RANGE:
        case FP_SEL_T_VALUE_EMPTY: case FP_SEL_T_VALID: case FP_SEL_T_INVALID:
            if (!fp_sel_form_state(c, t[0], e))
                return 0;
            t += 1;
            break;
        case FP_SEL_T_NAMESPACE:
            if (!(t[1] & (1 << (c->el[e].flags & (FP_EF_SVG | FP_EF_MATHML)))))
                return 0;
            t += 2;
            break;
        case FP_SEL_T_DIR:
            if (!fp_sel_dir(c, t, e))
                return 0;
            t += 3;
            break;
        default: /* FP_SEL_T_FALSE */
            return 0;
        }
    }
    return 1;
}

/* the paged memo of the walks from compound k of cx (key: k up, ~k sideways),
 * NULL when there is none; with `make`, one is made if a slot is free */
static void **walk_memo(fp_sel_ctx *c, const int32_t *cx, int32_t key, int make)
{
    for (int j = 0; j < c->nup; j++)
        if (c->up[j].cx == cx && c->up[j].k == key)
            return &c->up[j].memo;
    if (!make || c->nup == (int)(sizeof c->up / sizeof c->up[0]))
        return NULL;
    c->up[c->nup].cx = cx;
    c->up[c->nup].k = key;
    c->up[c->nup].memo = NULL;   /* a page at a time, as the scope's walks reach it */
    return &c->up[c->nup++].memo;
}

/* The tag id compound `at` requires when its first test is a type selector,
 * else -1 (an absent name never reaches here: the prefilter said never). */
int fp_sel_required_tag(const fp_sel_ctx *c, int32_t at)
{
    const int32_t *w = c->w;
    return w[at + 1] > 0 && w[at + 2] == FP_SEL_T_TAG ? c->tag_ids[w[at + 3]] : -1;
}

static int32_t walk_step(fp_sel_ctx *c, int sideways, int32_t x)
{
    return sideways ? prev_sibling(c, (uint32_t)x) : parent_of(c, (uint32_t)x);
}

/* The left side of a descendant combinator (up: compound k and the rest tried
 * at x, then at each ancestor) or of a later-sibling one (sideways: at x, then
 * at each earlier sibling), until one matches or one says no element further
 * on can (up: M_NO_GLOBAL; sideways: M_NO_DESCENDANT too, as siblings share
 * their ancestors). A short walk is done as is; past 32 steps the answers are
 * memoised per element, since every element the walk passes has the answer of
 * the next one: `span div` over 50,000 nested divs and `div ~ div ~ p` over
 * 20,000 children are then linear, not O(n x depth) or O(n x children). */
static int match_walk(fp_sel_ctx *c, const int32_t *cx, int32_t k, int32_t x, int sideways)
{
    /* `ul li a`: an element of another tag fails compound k at once (M_NO_SIBLING,
     * go on), the tag compared here without a call per element */
    int need = fp_sel_required_tag(c, cx[2 + 2 * k]);
    int32_t key = sideways ? ~k : k;
    void **m = walk_memo(c, cx, key, 0);
    int r = sideways ? M_NO_DESCENDANT : M_NO_GLOBAL;   /* when the walk runs out */
    int32_t y = x;
    for (int steps = 0; y >= 0; steps++, y = walk_step(c, sideways, y)) {
        if (steps == 32 && !m && c->up_ok)
            m = walk_memo(c, cx, key, 1);
        const uint8_t *seen = m && *m ? fp_sel_memo_peek(*m, (uint32_t)y, 1) : NULL;
        if (seen && *seen) {
            r = *seen - 1;
            break;
        }
        if (need >= 0 && c->el[y].tag != (uint16_t)need)
            continue;
        int here = fp_sel_match_from(c, cx, k, (uint32_t)y);
        if (here == M_MATCH || here == M_NO_GLOBAL || (sideways && here == M_NO_DESCENDANT)) {
            r = here;
            break;
        }
    }
    /* once walks grow long, each one leaves its answer on the way it went */
    for (int32_t z = x; m && z >= 0; z = walk_step(c, sideways, z)) {
        uint8_t *slot = fp_sel_memo_at(c, m, (uint32_t)z, 1);
        if (slot)
            *slot = (uint8_t)(r + 1);   /* out of memory: c->oom fails the run */
        if (z == y)
            break;
    }
    return r;
}

int fp_sel_match_from(fp_sel_ctx *c, const int32_t *cx, int32_t k, uint32_t e)
{
    if (!fp_sel_match_compound(c, cx[2 + 2 * k], e))
        return M_NO_SIBLING;
    return fp_sel_match_rest(c, cx, k, e);
}

/* What fp_sel_match_from asks once compound k matched e: the combinator to its left
 * and the compounds beyond it. */
int fp_sel_match_rest(fp_sel_ctx *c, const int32_t *cx, int32_t k, uint32_t e)
{
    if (k + 1 == cx[1])
        return M_MATCH;
    int32_t comb = cx[3 + 2 * k];
    if (comb == FP_SEL_COMB_DESCENDANT)
        return match_walk(c, cx, k + 1, parent_of(c, e), 0);
    if (comb == FP_SEL_COMB_LATER)
        return match_walk(c, cx, k + 1, prev_sibling(c, e), 1);
    int32_t x = comb == FP_SEL_COMB_NEXT ? prev_sibling(c, e) : parent_of(c, e);
    if (x < 0)
        return comb == FP_SEL_COMB_NEXT ? M_NO_DESCENDANT : M_NO_GLOBAL;
    int r = fp_sel_match_from(c, cx, k + 1, (uint32_t)x);
    /* a child whose parent fails: its siblings have the same parent */
    return comb == FP_SEL_COMB_CHILD && r == M_NO_SIBLING ? M_NO_DESCENDANT : r;
}

int fp_sel_match_list(fp_sel_ctx *c, int32_t at, uint32_t e)
{
    const int32_t *w = c->w;
    for (int32_t k = 0; k < w[at + 1]; k++)
        if (fp_sel_match_from(c, w + w[at + 2 + k], 0, e) == M_MATCH)
            return 1;
    return 0;
}
