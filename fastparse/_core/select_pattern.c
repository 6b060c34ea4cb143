/* select_pattern.c — an input's pattern attribute (HTML Standard 4.10.5.3.6)
 * for :valid and :invalid: the value must match the whole of the pattern, a
 * JavaScript regular expression compiled with the `v` flag. This reads that
 * syntax (ECMAScript 22.2.1 with UnicodeSetsMode: nested classes, `--` and `&&`
 * in classes, escapes only of syntax characters) into a program for a Pike
 * VM: every thread advances one code point at a time, so the time is the
 * value's length times the program's, whatever the pattern (no backtracking).
 * Patterns this does not read — property escapes (\p{L}), class strings
 * (\q{..}), back references, modifiers, a group name used twice (allowed
 * in other alternatives since ES2025) — and programs too large or too slow
 * (lookarounds run at each position, MAX_STEPS)
 * answer FP_PATTERN_UNKNOWN, as an invalid pattern answers FP_PATTERN_INVALID:
 * neither sets a constraint. */
#include <stdlib.h>
#include <string.h>

#include "select_internal.h"

enum { MAX_PROGRAM = 16384, MAX_CLASSES = 1024, MAX_ITEMS = 4096, MAX_NEST = 64, MAX_ALTERNATIVES = 1024 };
/* thread steps one value may take: lookarounds run a VM of their own at each
 * position (a lookbehind from each earlier one), which nesting multiplies */
#define MAX_STEPS 2000000u

/* class items: a range of code points, an escape (\d \s \w and negations), a nested class */
enum { I_RANGE, I_ESCAPE, I_CLASS };
typedef struct { uint8_t kind; uint32_t lo, hi; } item;
/* a class: its items [first, first + n) joined by one operator, maybe negated */
enum { C_UNION, C_INTERSECT, C_SUBTRACT };
typedef struct { uint16_t first, n; uint8_t op, negated; } klass;

enum { OP_CHAR, OP_ANY, OP_CLASS, OP_SPLIT, OP_JMP, OP_MATCH, OP_BOL, OP_EOL, OP_WORDB, OP_NWORDB,
       OP_LOOK, OP_NLOOK, OP_BEHIND, OP_NBEHIND };
/* OP_LOOK .. OP_NBEHIND: x is the start of the assertion's program, y just past it */
typedef struct { uint8_t op; uint32_t x, y; } inst;

typedef struct {
    const uint32_t *p, *end;   /* the pattern, as code points */
    inst prog[MAX_PROGRAM];
    int n;
    klass classes[MAX_CLASSES];
    int nclasses;
    item items[MAX_ITEMS];
    int nitems;
    int status;   /* 0, or FP_PATTERN_INVALID / FP_PATTERN_UNKNOWN */
    int depth;
    const uint32_t *names[32];   /* the group names seen: where each starts, and its length */
    size_t name_len[32];
    int nnames;
} compiler;

static int fail(compiler *k, int status)
{
    if (!k->status)
        k->status = status;
    return -1;
}

static int emit(compiler *k, int op, uint32_t x, uint32_t y)
{
    if (k->n >= MAX_PROGRAM)
        return fail(k, FP_PATTERN_UNKNOWN);
    k->prog[k->n] = (inst){(uint8_t)op, x, y};
    return k->n++;
}

static int peek(const compiler *k, uint32_t c) { return k->p < k->end && *k->p == c; }

static int is_syntax(uint32_t c) { return c < 128 && strchr("^$\\.*+?()[]{}|", (int)c) && c; }

/* n hex digits into *out */
static int hex_digits(compiler *k, int n, uint32_t *out)
{
    uint32_t v = 0;
    for (int i = 0; i < n; i++, k->p++) {
        if (k->p >= k->end || hex_value(*k->p) < 0)
            return fail(k, FP_PATTERN_INVALID);
        v = v * 16 + (uint32_t)hex_value(*k->p);
    }
    *out = v;
    return 0;
}

/* After a backslash: a character escape (ControlEscape, \cX, \0, \xHH, \uHHHH,
 * \u{H..}, an escaped syntax character or '/'), or, in a class, an escaped
 * reserved punctuator or \b. The code point, or -1. */
static int64_t char_escape(compiler *k, int in_class)
{
    if (k->p >= k->end)
        return fail(k, FP_PATTERN_INVALID);
    uint32_t c = *k->p++, v;
    switch (c) {
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case 'v': return '\v';
    case 'c':
        if (k->p < k->end && ((*k->p | 32) >= 'a' && (*k->p | 32) <= 'z'))
            return *k->p++ % 32;
        return fail(k, FP_PATTERN_INVALID);
    case '0':
        if (k->p < k->end && *k->p >= '0' && *k->p <= '9')
            return fail(k, FP_PATTERN_INVALID);
        return 0;
    case 'x':
        return hex_digits(k, 2, &v) < 0 ? -1 : (int64_t)v;
    case 'u':
        if (peek(k, '{')) {
            k->p++;
            v = 0;
            int digits = 0;
            while (k->p < k->end && hex_value(*k->p) >= 0 && v <= 0x10FFFF)
                v = v * 16 + (uint32_t)hex_value(*k->p++), digits++;
            if (!digits || !peek(k, '}') || v > 0x10FFFF)
                return fail(k, FP_PATTERN_INVALID);
            k->p++;
            return v;
        }
        if (hex_digits(k, 4, &v) < 0)
            return -1;
        /* a surrogate pair written as two escapes is one code point */
        if (v >= 0xD800 && v <= 0xDBFF && k->end - k->p >= 6 && k->p[0] == '\\' && k->p[1] == 'u') {
            const uint32_t *save = k->p;
            uint32_t lo;
            k->p += 2;
            if (hex_digits(k, 4, &lo) == 0 && lo >= 0xDC00 && lo <= 0xDFFF)
                return 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
            k->p = save;
            k->status = 0;
        }
        return v;
    default:
        if (is_syntax(c) || c == '/')
            return c;
        if (in_class && c == 'b')
            return '\b';
        if (in_class && c < 128 && strchr("&-!#%,:;<=>@`~", (int)c))
            return c;   /* ClassSetReservedPunctuator */
        return fail(k, FP_PATTERN_INVALID);   /* no identity escapes in Unicode modes */
    }
}

/* \d \D \s \S \w \W as an escape item's code; 0 when c is none of them */
static uint32_t class_escape(uint32_t c)
{
    return c < 128 && strchr("dDsSwW", (int)c) && c ? c : 0;
}

static int add_item(compiler *k, int kind, uint32_t lo, uint32_t hi)
{
    if (k->nitems >= MAX_ITEMS)
        return fail(k, FP_PATTERN_UNKNOWN);
    k->items[k->nitems++] = (item){(uint8_t)kind, lo, hi};
    return 0;
}

static int parse_class(compiler *k);

/* One ClassSetOperand or the start of a range: its item appended; for a
 * single character, *single is set to it (else -1). */
static int class_operand(compiler *k, int64_t *single)
{
    *single = -1;
    uint32_t c = *k->p;
    if (c == '[') {
        int nested = parse_class(k);
        return nested < 0 ? -1 : add_item(k, I_CLASS, (uint32_t)nested, 0);
    }
    if (c == '\\') {
        k->p++;
        if (k->p < k->end && class_escape(*k->p))
            return add_item(k, I_ESCAPE, *k->p++, 0);
        if (k->p < k->end && (*k->p == 'p' || *k->p == 'P' || *k->p == 'q'))
            return fail(k, FP_PATTERN_UNKNOWN);   /* property escapes, class strings */
        int64_t v = char_escape(k, 1);
        if (v < 0)
            return -1;
        *single = v;
        return add_item(k, I_RANGE, (uint32_t)v, (uint32_t)v);
    }
    /* ClassSetSyntaxCharacter, and the reserved double punctuators */
    if (c < 128 && strchr("()[]{}/-|", (int)c))
        return fail(k, FP_PATTERN_INVALID);
    if (c < 128 && strchr("&!#$%*+,.:;<=>?@^`~", (int)c) && k->end - k->p >= 2 && k->p[1] == c)
        return fail(k, FP_PATTERN_INVALID);
    k->p++;
    *single = c;
    return add_item(k, I_RANGE, c, c);
}

/* A class from its '[': the index of its klass. Its items are made first (nested
 * classes included), so they follow in k->items only when none is nested: a
 * class records the range it owns by copying its top-level items to the end. */
static int parse_class(compiler *k)
{
    if (++k->depth > MAX_NEST)
        return fail(k, FP_PATTERN_UNKNOWN);
    k->p++;   /* '[' */
    int negated = peek(k, '^');
    if (negated)
        k->p++;
    item top[256];
    int ntop = 0, op = -1;
    while (k->p < k->end && *k->p != ']') {
        if (ntop > 0) {
            int here = k->end - k->p >= 2 && (k->p[0] == '-' || k->p[0] == '&') && k->p[1] == k->p[0]
                       ? (k->p[0] == '-' ? C_SUBTRACT : C_INTERSECT) : C_UNION;
            if (here != C_UNION) {
                if (op >= 0 && op != here)
                    return fail(k, FP_PATTERN_INVALID);   /* operators do not mix */
                op = here;
                k->p += 2;
                if (k->p >= k->end || *k->p == ']' || (here == C_INTERSECT && *k->p == '&'))
                    return fail(k, FP_PATTERN_INVALID);   /* "&&" is not followed by '&' */
            } else if (op > C_UNION) {
                return fail(k, FP_PATTERN_INVALID);       /* a union inside an intersection */
            }
        }
        int before = k->nitems;
        int64_t lo, hi;
        if (class_operand(k, &lo) < 0)
            return -1;
        if (lo >= 0 && peek(k, '-') && !(k->end - k->p >= 2 && k->p[1] == '-') && op <= C_UNION) {
            k->p++;   /* a range: both ends single characters */
            if (k->p >= k->end || class_operand(k, &hi) < 0)
                return fail(k, FP_PATTERN_INVALID);
            if (hi < 0 || hi < lo)
                return fail(k, FP_PATTERN_INVALID);
            k->nitems--;
            k->items[k->nitems - 1].hi = (uint32_t)hi;
            op = op < 0 ? C_UNION : op;
        }
        if (ntop >= (int)(sizeof top / sizeof *top))
            return fail(k, FP_PATTERN_UNKNOWN);
        top[ntop++] = k->items[k->nitems - 1];
        k->nitems = k->items[k->nitems - 1].kind == I_CLASS ? k->nitems - 1 : before;
        if (op < 0 && ntop > 1)
            op = C_UNION;
    }
    if (k->p >= k->end)
        return fail(k, FP_PATTERN_INVALID);
    k->p++;   /* ']' */
    if (k->nclasses >= MAX_CLASSES || k->nitems + ntop > MAX_ITEMS)
        return fail(k, FP_PATTERN_UNKNOWN);
    klass *cl = &k->classes[k->nclasses];
    *cl = (klass){(uint16_t)k->nitems, (uint16_t)ntop, (uint8_t)(op < 0 ? C_UNION : op), (uint8_t)negated};
    memcpy(&k->items[k->nitems], top, (size_t)ntop * sizeof *top);
    k->nitems += ntop;
    k->depth--;
    return k->nclasses++;
}

static int is_word(uint32_t c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* WhiteSpace and LineTerminator of ECMAScript (12.2, 12.3) */
static int is_space(uint32_t c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
           c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

static int escape_has(uint32_t esc, uint32_t c)
{
    switch (esc) {
    case 'd': return c >= '0' && c <= '9';
    case 'D': return !(c >= '0' && c <= '9');
    case 's': return is_space(c);
    case 'S': return !is_space(c);
    case 'w': return is_word(c);
    default: return !is_word(c);
    }
}

static int class_has(const compiler *k, int ci, uint32_t c)
{
    const klass *cl = &k->classes[ci];
    int in = cl->op == C_INTERSECT;
    for (int i = 0; i < cl->n; i++) {
        const item *it = &k->items[cl->first + i];
        int has = it->kind == I_RANGE ? c >= it->lo && c <= it->hi
                : it->kind == I_ESCAPE ? escape_has(it->lo, c) : class_has(k, (int)it->lo, c);
        if (cl->op == C_UNION && has) {
            in = 1;
            break;
        }
        if (cl->op == C_INTERSECT && !has) {
            in = 0;
            break;
        }
        if (cl->op == C_SUBTRACT)
            in = i == 0 ? has : in && !has;
    }
    return in != cl->negated;
}

static int disjunction(compiler *k);

static int has_targets(int op) { return op == OP_SPLIT || op == OP_JMP || op >= OP_LOOK; }

/* appends the atom `atom[0, len)`, compiled at `orig`, its jumps moved with it */
static int append_atom(compiler *k, const inst *atom, int len, int orig)
{
    int at = k->n;
    for (int i = 0; i < len; i++) {
        inst in = atom[i];
        if (has_targets(in.op)) {
            in.x = in.x - (uint32_t)orig + (uint32_t)at;
            if (in.op != OP_JMP)
                in.y = in.y - (uint32_t)orig + (uint32_t)at;
        }
        if (emit(k, in.op, in.x, in.y) < 0)
            return -1;
    }
    return at;
}

/* {n}, {n,}, {n,m}: its bounds (m = -1 unbounded), or 0 when the '{' starts none */
static int braces(compiler *k, long *lo, long *hi)
{
    const uint32_t *p = k->p + 1;
    long a = 0, b;
    int digits = 0;
    for (; p < k->end && *p >= '0' && *p <= '9'; p++, digits++)
        a = a < 100000 ? a * 10 + (long)(*p - '0') : a;
    if (!digits)
        return 0;
    b = a;
    if (p < k->end && *p == ',') {
        p++;
        b = -1;
        if (p < k->end && *p >= '0' && *p <= '9')
            for (b = 0; p < k->end && *p >= '0' && *p <= '9'; p++)
                b = b < 100000 ? b * 10 + (long)(*p - '0') : b;
    }
    if (p >= k->end || *p != '}')
        return 0;
    k->p = p + 1;
    *lo = a;
    *hi = b;
    return 1;
}

/* The quantifier after the atom at program [start, k->n), if any: the atom
 * is taken out and written again lo times, then hi - lo times behind a split
 * that skips the rest (x{2,4}: x x (x (x)?)?), or in a loop when hi is unbounded. */
static int quantify(compiler *k, int start)
{
    long lo, hi;
    if (k->p >= k->end)
        return 0;
    uint32_t q = *k->p;
    if (q == '*' || q == '+' || q == '?') {
        k->p++;
        lo = q == '+';
        hi = q == '?' ? 1 : -1;
    } else if (q == '{') {
        if (!braces(k, &lo, &hi) || (hi >= 0 && hi < lo))
            return fail(k, FP_PATTERN_INVALID);   /* a lone '{' is an error in Unicode modes */
    } else {
        return 0;
    }
    if (peek(k, '?'))
        k->p++;   /* lazy: the same values match the whole pattern */
    if (lo > MAX_PROGRAM || hi > MAX_PROGRAM)
        return fail(k, FP_PATTERN_UNKNOWN);   /* copies past the program's size */
    int len = k->n - start, rc = 0, last = start;
    inst *atom = malloc((size_t)(len ? len : 1) * sizeof *atom);
    if (!atom)
        return fail(k, FP_PATTERN_NOMEM);
    memcpy(atom, &k->prog[start], (size_t)len * sizeof *atom);
    k->n = start;
    for (long i = 0; i < lo && rc >= 0; i++)
        rc = last = append_atom(k, atom, len, start);
    if (rc >= 0 && hi < 0 && lo > 0) {        /* x+: the last copy again */
        rc = emit(k, OP_SPLIT, (uint32_t)last, (uint32_t)k->n + 1);
    } else if (rc >= 0 && hi < 0) {           /* x*: a split over a loop */
        int split = emit(k, OP_SPLIT, 0, 0);
        if (split >= 0 && append_atom(k, atom, len, start) >= 0 && emit(k, OP_JMP, (uint32_t)split, 0) >= 0)
            k->prog[split] = (inst){OP_SPLIT, (uint32_t)split + 1, (uint32_t)k->n};
        else
            rc = -1;
    } else if (rc >= 0) {                     /* optional copies, each skipping the rest */
        int first = k->n;
        for (long i = lo; i < hi && rc >= 0; i++)
            if ((rc = emit(k, OP_SPLIT, 0, 0)) >= 0)
                rc = append_atom(k, atom, len, start);
        for (int at = first; rc >= 0 && at < k->n; at += len + 1)
            k->prog[at] = (inst){OP_SPLIT, (uint32_t)at + 1, (uint32_t)k->n};
    }
    free(atom);
    return rc < 0 ? -1 : 0;
}

/* One term: an assertion or an atom with its quantifier. 0, or -1. */
static int term(compiler *k)
{
    uint32_t c = *k->p;
    int start = k->n;
    switch (c) {
    case '^': k->p++; return emit(k, OP_BOL, 0, 0) < 0 ? -1 : 0;
    case '$': k->p++; return emit(k, OP_EOL, 0, 0) < 0 ? -1 : 0;
    case '.': k->p++; return emit(k, OP_ANY, 0, 0) < 0 ? -1 : quantify(k, start);
    case '[': {
        int cl = parse_class(k);
        return cl < 0 || emit(k, OP_CLASS, (uint32_t)cl, 0) < 0 ? -1 : quantify(k, start);
    }
    case '(': {
        k->p++;
        int look = -1;
        if (peek(k, '?')) {
            k->p++;
            if (peek(k, ':')) {
                k->p++;
            } else if (peek(k, '=') || peek(k, '!')) {
                look = *k->p++ == '=' ? OP_LOOK : OP_NLOOK;
            } else if (peek(k, '<') && k->end - k->p >= 2 && (k->p[1] == '=' || k->p[1] == '!')) {
                look = k->p[1] == '=' ? OP_BEHIND : OP_NBEHIND;
                k->p += 2;
            } else if (peek(k, '<')) {
                const uint32_t *name = ++k->p;
                for (; k->p < k->end && *k->p != '>'; k->p++)   /* a named group's name */
                    if (!(is_word(*k->p) || *k->p == '$' || *k->p >= 128))
                        return fail(k, FP_PATTERN_INVALID);
                if (k->p >= k->end || k->p == name || (*name >= '0' && *name <= '9'))
                    return fail(k, FP_PATTERN_INVALID);
                size_t len = (size_t)(k->p - name);
                for (int i = 0; i < k->nnames; i++)
                    if (k->name_len[i] == len && !memcmp(k->names[i], name, len * sizeof *name))
                        return fail(k, FP_PATTERN_UNKNOWN);   /* a duplicate: an error before ES2025 */
                if (k->nnames == 32)
                    return fail(k, FP_PATTERN_UNKNOWN);
                k->names[k->nnames] = name;
                k->name_len[k->nnames++] = len;
                k->p++;
            } else {
                return fail(k, FP_PATTERN_UNKNOWN);   /* modifiers: (?i:..) */
            }
        }
        int at = look >= 0 ? emit(k, look, 0, 0) : 0;
        if (at < 0 || ++k->depth > MAX_NEST)
            return fail(k, FP_PATTERN_UNKNOWN);
        if (disjunction(k) < 0)
            return -1;
        k->depth--;
        if (!peek(k, ')'))
            return fail(k, FP_PATTERN_INVALID);
        k->p++;
        if (look >= 0) {   /* its own program, ended by a match, which the main one steps over */
            if (emit(k, OP_MATCH, 0, 0) < 0)
                return -1;
            k->prog[at].x = (uint32_t)at + 1;
            k->prog[at].y = (uint32_t)k->n;
            if (k->p < k->end && (*k->p == '*' || *k->p == '+' || *k->p == '?' || *k->p == '{'))
                return fail(k, FP_PATTERN_INVALID);   /* no quantified assertion in Unicode modes */
            return 0;
        }
        return quantify(k, start);
    }
    case '\\': {
        k->p++;
        if (k->p >= k->end)
            return fail(k, FP_PATTERN_INVALID);
        uint32_t e = *k->p;
        if (e == 'b' || e == 'B') {
            k->p++;
            return emit(k, e == 'b' ? OP_WORDB : OP_NWORDB, 0, 0) < 0 ? -1 : 0;
        }
        if (class_escape(e)) {   /* as a class of one escape item */
            k->p++;
            if (k->nclasses >= MAX_CLASSES || add_item(k, I_ESCAPE, e, 0) < 0)
                return fail(k, FP_PATTERN_UNKNOWN);
            k->classes[k->nclasses] = (klass){(uint16_t)(k->nitems - 1), 1, C_UNION, 0};
            return emit(k, OP_CLASS, (uint32_t)k->nclasses++, 0) < 0 ? -1 : quantify(k, start);
        }
        if ((e >= '1' && e <= '9') || e == 'k' || e == 'p' || e == 'P')
            return fail(k, FP_PATTERN_UNKNOWN);   /* back references, property escapes */
        int64_t v = char_escape(k, 0);
        return v < 0 || emit(k, OP_CHAR, (uint32_t)v, 0) < 0 ? -1 : quantify(k, start);
    }
    case ')': case ']': case '{': case '}': case '*': case '+': case '?':
        return fail(k, FP_PATTERN_INVALID);
    default:
        k->p++;
        return emit(k, OP_CHAR, c, 0) < 0 ? -1 : quantify(k, start);
    }
}

/* Alternative ('|' Alternative)*: each alternative after a split, ending in a
 * jump past the last. */
static int disjunction(compiler *k)
{
    int jumps[MAX_ALTERNATIVES], njumps = 0;
    for (;;) {
        int split = emit(k, OP_SPLIT, 0, 0);
        if (split < 0)
            return -1;
        k->prog[split].x = (uint32_t)split + 1;
        while (k->p < k->end && *k->p != '|' && *k->p != ')')
            if (term(k) < 0)
                return -1;
        if (!peek(k, '|')) {
            k->prog[split] = (inst){OP_JMP, (uint32_t)split + 1, 0};   /* the last: no split */
            break;
        }
        k->p++;
        if (njumps == MAX_ALTERNATIVES || (jumps[njumps++] = emit(k, OP_JMP, 0, 0)) < 0)
            return fail(k, FP_PATTERN_UNKNOWN);
        k->prog[split].y = (uint32_t)k->n;
    }
    for (int i = 0; i < njumps; i++)
        k->prog[jumps[i]].x = (uint32_t)k->n;
    return 0;
}

/* ---- the Pike VM ---- */

/* what the VMs of one value share: the steps taken, and why they stopped */
typedef struct {
    uint64_t steps;
    int status;        /* 0, FP_PATTERN_UNKNOWN (over MAX_STEPS) or FP_PATTERN_NOMEM */
} run_t;

typedef struct {
    const compiler *k;
    const uint32_t *s;
    size_t len;        /* the value's length: where $ matches */
    size_t stop;       /* no code point at or past it is read (a lookbehind's end) */
    int *list[2];      /* the threads (program counters) at this position and the next */
    int count[2];
    uint32_t *seen;    /* per pc: the step + 1 it was last added at */
    uint32_t step;
    int *stack;
    run_t *run;
} vm;

static int matches_at(const compiler *k, int start, int end_pc, const uint32_t *s, size_t len, size_t at,
                      size_t stop, int anchored, run_t *run);

/* adds pc and what it reaches without consuming a code point at position i */
static void add_thread(vm *m, int which, int pc, size_t i, int end_pc)
{
    int sp = 0;
    m->stack[sp++] = pc;
    while (sp > 0 && !m->run->status) {
        pc = m->stack[--sp];
        if (pc >= end_pc || m->seen[pc] == m->step + 1)
            continue;
        if (++m->run->steps > MAX_STEPS) {
            m->run->status = FP_PATTERN_UNKNOWN;
            break;
        }
        m->seen[pc] = m->step + 1;
        const inst *in = &m->k->prog[pc];
        uint32_t before = i > 0 ? m->s[i - 1] : 0, after = i < m->len ? m->s[i] : 0;
        int wb = (i > 0 && is_word(before)) != (i < m->len && is_word(after));
        switch (in->op) {
        case OP_JMP: m->stack[sp++] = (int)in->x; break;
        case OP_SPLIT: m->stack[sp++] = (int)in->y; m->stack[sp++] = (int)in->x; break;
        case OP_BOL: if (i == 0) m->stack[sp++] = pc + 1; break;
        case OP_EOL: if (i == m->len) m->stack[sp++] = pc + 1; break;
        case OP_WORDB: if (wb) m->stack[sp++] = pc + 1; break;
        case OP_NWORDB: if (!wb) m->stack[sp++] = pc + 1; break;
        case OP_LOOK: case OP_NLOOK: {
            int found = matches_at(m->k, (int)in->x, (int)in->y, m->s, m->len, i, m->len, 0, m->run);
            if (found == (in->op == OP_LOOK))
                m->stack[sp++] = (int)in->y;
            break;
        }
        case OP_BEHIND: case OP_NBEHIND: {   /* some start j <= i from which it matches up to i */
            int found = 0;
            for (size_t j = i + 1; j-- > 0 && !found && !m->run->status;)
                found = matches_at(m->k, (int)in->x, (int)in->y, m->s, m->len, j, i, 1, m->run);
            if (found == (in->op == OP_BEHIND))
                m->stack[sp++] = (int)in->y;
            break;
        }
        default:
            m->list[which][m->count[which]++] = pc;
        }
    }
}

/* Whether program [start, end_pc) matches s[0, len) from `at`: ending at `stop`
 * when anchored (the whole value; a lookbehind), else anywhere (a lookahead). */
static int matches_at(const compiler *k, int start, int end_pc, const uint32_t *s, size_t len, size_t at,
                      size_t stop, int anchored, run_t *run)
{
    vm m = {k, s, len, stop, {NULL, NULL}, {0, 0}, NULL, 0, NULL, run};
    size_t n = (size_t)k->n;
    if ((run->steps += n) > MAX_STEPS) {   /* its tables cost the program's size */
        run->status = FP_PATTERN_UNKNOWN;
        return 0;
    }
    m.list[0] = malloc(n * sizeof(int));
    m.list[1] = malloc(n * sizeof(int));
    m.seen = calloc(n, sizeof *m.seen);
    m.stack = malloc(2 * n * sizeof(int) + 2 * sizeof(int));
    int found = 0;
    if (!m.list[0] || !m.list[1] || !m.seen || !m.stack) {
        run->status = FP_PATTERN_NOMEM;
        goto done;
    }
    int cur = 0;
    add_thread(&m, cur, start, at, end_pc);
    for (size_t i = at;; i++) {
        int next = 1 - cur;
        m.count[next] = 0;
        m.step++;
        for (int t = 0; t < m.count[cur]; t++) {
            const inst *in = &k->prog[m.list[cur][t]];
            if (in->op == OP_MATCH) {
                if (!anchored || i == stop) {
                    found = 1;
                    goto done;
                }
                continue;
            }
            if (i >= stop)
                continue;
            uint32_t c = s[i];
            int ok = in->op == OP_CHAR ? c == in->x
                   : in->op == OP_ANY ? !(c == '\n' || c == '\r' || c == 0x2028 || c == 0x2029)
                   : class_has(k, (int)in->x, c);
            if (ok)
                add_thread(&m, next, m.list[cur][t] + 1, i + 1, end_pc);
        }
        if (i >= stop || m.count[next] == 0 || run->status)
            break;
        cur = next;
    }
done:
    free(m.list[0]);
    free(m.list[1]);
    free(m.seen);
    free(m.stack);
    return found;
}

/* UTF-8 to code points (an invalid byte is U+FFFD): malloc'd, *n set */
static uint32_t *code_points(const uint8_t *s, size_t len, size_t *n)
{
    uint32_t *out = malloc((len + 1) * sizeof *out);
    if (!out)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < len;) {
        uint8_t b = s[i];
        int need = b < 0x80 ? 0 : b >= 0xF0 && b < 0xF5 ? 3 : b >= 0xE0 ? 2 : b >= 0xC2 && b < 0xE0 ? 1 : -1;
        uint32_t c = need == 0 ? b : need == 1 ? b & 0x1F : need == 2 ? b & 0x0F : (uint32_t)(b & 0x07);
        int ok = need >= 0 && i + (size_t)need < len;
        for (int j = 1; ok && j <= need; j++) {
            if ((s[i + (size_t)j] & 0xC0) != 0x80)
                ok = 0;
            else
                c = (c << 6) | (s[i + (size_t)j] & 0x3F);
        }
        if (ok && ((need == 2 && (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))) || (need == 3 && (c < 0x10000 || c > 0x10FFFF))))
            ok = 0;
        out[k++] = ok ? c : 0xFFFD;
        i += ok ? (size_t)need + 1 : 1;
    }
    *n = k;
    return out;
}

int fp_pattern_match(const uint8_t *pattern, size_t plen, const uint8_t *value, size_t vlen)
{
    size_t np, nv;
    uint32_t *p = code_points(pattern, plen, &np), *v = code_points(value, vlen, &nv);
    compiler *k = malloc(sizeof *k);
    int result = FP_PATTERN_NOMEM;
    if (!p || !v || !k)
        goto done;
    k->p = p;
    k->end = p + np;
    k->n = k->nclasses = k->nitems = k->status = k->depth = k->nnames = 0;
    disjunction(k);
    if (!k->status && k->p < k->end)
        fail(k, FP_PATTERN_INVALID);   /* an unmatched ')' */
    if (!k->status)
        emit(k, OP_MATCH, 0, 0);
    if (k->status) {
        result = k->status;
    } else {
        run_t run = {0, 0};
        int found = matches_at(k, 0, k->n, v, nv, 0, nv, 1, &run);
        result = run.status ? run.status : found ? FP_PATTERN_MATCHES : FP_PATTERN_MISMATCH;
    }
done:
    free(p);
    free(v);
    free(k);
    return result;
}
