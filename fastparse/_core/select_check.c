/* select_check.c — validates a compiled selector program before the matcher
 * trusts it: every code known, every offset and index in range, children
 * before parents (so no cycles). Programs come from Python, as bytes. */
#include "select.h"

typedef struct {
    const int32_t *w;
    int32_t code_len, ntags, nstr, nhas, nnth;
} check_t;

enum { CHECK_MAX_DEPTH = 1024 };

static int check_list(const check_t *k, int32_t at, int32_t parent, int depth);

/* a node offset must point inside the code, before its parent (no cycles) */
static int node_ok(const check_t *k, int32_t at, int32_t parent, int32_t min_words, int32_t op)
{
    return at >= FP_SEL_HEADER_WORDS && at < parent && min_words <= k->code_len - at &&
           k->w[at] == op;
}

static int check_compound(const check_t *k, int32_t at, int32_t parent, int depth)
{
    const int32_t *w = k->w;
    if (depth > CHECK_MAX_DEPTH || !node_ok(k, at, parent, 2, FP_SEL_OP_COMPOUND) || w[at + 1] < 0)
        return -1;
    int32_t pc = at + 2, end = k->code_len;
    for (int32_t t = 0; t < w[at + 1]; t++) {
        if (pc >= end)
            return -1;
        int32_t op = w[pc], need;
        switch (op) {
        case FP_SEL_T_TAG: need = 2; break;
        case FP_SEL_T_ID: case FP_SEL_T_CLASS: case FP_SEL_T_NOT: case FP_SEL_T_IS: need = 2; break;
        case FP_SEL_T_ATTR: need = 5; break;
        case FP_SEL_T_HAS: need = 4; break;
        case FP_SEL_T_DIR: need = 3; break;
        case FP_SEL_T_NAMESPACE: need = 2; break;
        case FP_SEL_T_NTH: need = 6; break;
        case FP_SEL_T_ROOT: case FP_SEL_T_SCOPE: case FP_SEL_T_EMPTY: case FP_SEL_T_DEFINED:
        case FP_SEL_T_FALSE: case FP_SEL_T_OPTION_SELECTED: case FP_SEL_T_RADIO_KEPT:
        case FP_SEL_T_DEFAULT_BUTTON: case FP_SEL_T_RADIO_UNCHECKED:
        case FP_SEL_T_IN_RANGE: case FP_SEL_T_OUT_OF_RANGE: case FP_SEL_T_VALUE_EMPTY:
        case FP_SEL_T_VALID: case FP_SEL_T_INVALID: need = 1; break;
        case FP_SEL_T_CONTAINS: case FP_SEL_T_CONTAINS_OWN: case FP_SEL_T_LANG:
            if (end - pc < 2 || w[pc + 1] < 0 || w[pc + 1] > end - pc - 2)
                return -1;
            need = 2 + w[pc + 1];
            break;
        default:
            return -1;
        }
        if (need > end - pc)
            return -1;
        const int32_t *a = w + pc;
        int bad = 0;
        switch (op) {
        case FP_SEL_T_TAG:
            bad = a[1] < 0 || a[1] >= k->ntags;
            break;
        case FP_SEL_T_ID: case FP_SEL_T_CLASS:
            bad = a[1] < 0 || a[1] >= k->nstr;
            break;
        case FP_SEL_T_ATTR:
            bad = a[1] < FP_SEL_A_EXISTS || a[1] > FP_SEL_A_SUBSTRING || a[3] < 0 ||
                  a[3] >= k->nstr || a[4] < 0 || a[4] >= k->nstr;
            break;
        case FP_SEL_T_NOT: case FP_SEL_T_IS:
            bad = check_list(k, a[1], at, depth + 1) != 0;
            break;
        case FP_SEL_T_HAS:
            bad = a[1] < FP_SEL_COMB_DESCENDANT || a[1] > FP_SEL_COMB_LATER || a[3] < 0 ||
                  a[3] >= k->nhas || check_compound(k, a[2], at, depth + 1) != 0;
            break;
        case FP_SEL_T_NTH:
            bad = (a[4] >= 0 && (a[5] < 0 || a[5] >= k->nnth || check_list(k, a[4], at, depth + 1) != 0)) ||
                  (a[4] < 0 && a[4] != -1);
            break;
        case FP_SEL_T_NAMESPACE:
            bad = a[1] < 1 || a[1] > (FP_SEL_NS_HTML | FP_SEL_NS_SVG | FP_SEL_NS_MATHML);
            break;
        case FP_SEL_T_DIR:
            bad = (a[1] != FP_SEL_DIR_LTR && a[1] != FP_SEL_DIR_RTL) || a[2] < 0 || a[2] >= k->nstr;
            break;
        case FP_SEL_T_CONTAINS: case FP_SEL_T_CONTAINS_OWN: case FP_SEL_T_LANG:
            for (int32_t s = 0; s < a[1]; s++)
                bad |= a[2 + s] < 0 || a[2 + s] >= k->nstr;
            break;
        default:
            break;
        }
        if (bad)
            return -1;
        pc += need;
    }
    return 0;
}

static int check_complex(const check_t *k, int32_t at, int32_t parent, int depth)
{
    const int32_t *w = k->w;
    if (depth > CHECK_MAX_DEPTH || !node_ok(k, at, parent, 3, FP_SEL_OP_COMPLEX))
        return -1;
    int32_t ncomp = w[at + 1];
    if (ncomp < 1 || ncomp > (k->code_len - at - 1) / 2)
        return -1;
    for (int32_t c = 0; c < ncomp; c++) {
        if (c > 0 && (w[at + 1 + 2 * c] < FP_SEL_COMB_DESCENDANT || w[at + 1 + 2 * c] > FP_SEL_COMB_LATER))
            return -1;
        if (check_compound(k, w[at + 2 + 2 * c], at, depth + 1) != 0)
            return -1;
    }
    return 0;
}

static int check_list(const check_t *k, int32_t at, int32_t parent, int depth)
{
    const int32_t *w = k->w;
    if (depth > CHECK_MAX_DEPTH || !node_ok(k, at, parent, 2, FP_SEL_OP_LIST))
        return -1;
    int32_t count = w[at + 1];
    if (count < 1 || count > k->code_len - at - 2)
        return -1;
    for (int32_t c = 0; c < count; c++)
        if (check_complex(k, w[at + 2 + c], at, depth + 1) != 0)
            return -1;
    return 0;
}

int fp_select_check(const uint8_t *prog, size_t len)
{
    if (len < 4 * FP_SEL_HEADER_WORDS || ((uintptr_t)prog & 3) != 0)
        return -1;
    const int32_t *w = (const int32_t *)prog;
    check_t k = {w, w[FP_SEL_H_CODE_LEN], w[FP_SEL_H_NTAGS], w[FP_SEL_H_NSTR], w[FP_SEL_H_NHAS],
                 w[FP_SEL_H_NNTHOF]};
    if (w[FP_SEL_H_MAGIC] != FP_SEL_MAGIC || k.code_len < FP_SEL_HEADER_WORDS ||
        (size_t)k.code_len > len / 4 || k.ntags < 0 || k.nstr < 0 || k.nhas < 0 || k.nnth < 0 ||
        k.nhas > k.code_len || k.nnth > k.code_len)
        return -1;
    size_t pool_len = len - 4 * (size_t)k.code_len;
    int32_t tags = w[FP_SEL_H_TAGS], strs = w[FP_SEL_H_STRS];
    if (tags < 0 || tags > k.code_len || k.ntags > (k.code_len - tags) / 2 || strs < 0 ||
        strs > k.code_len || k.nstr > (k.code_len - strs) / 2)
        return -1;
    for (int32_t s = 0; s < k.nstr; s++) {
        int32_t off = w[strs + 2 * s], n = w[strs + 2 * s + 1];
        if (off < 0 || n < 0 || (size_t)off > pool_len || (size_t)n > pool_len - (size_t)off)
            return -1;
    }
    /* each tag slot's known id is the one the table gives its name: the run trusts it */
    for (int32_t t = 0; t < k.ntags; t++) {
        int32_t s = w[tags + 2 * t];
        if (s < 0 || s >= k.nstr ||
            w[tags + 2 * t + 1] != fp_tag_known(prog + 4 * (size_t)k.code_len + w[strs + 2 * s],
                                                (size_t)w[strs + 2 * s + 1]))
            return -1;
    }
    return check_list(&k, w[FP_SEL_H_ROOT], k.code_len, 0);
}
