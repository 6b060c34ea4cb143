/* select_range.c — :in-range and :out-of-range (HTML Standard 4.16.3): an
 * input with range limitations (a valid min or max; range always has 0 and
 * 100) whose value underflows or overflows them. Values, minimums and
 * maximums are read with the strict syntax browsers apply to all three
 * (valid date, month, week, time, local date and time, floating-point number
 * strings), as soupsieve 4.1 does. The selector text (the :in-range macro)
 * has already checked the element is such an input, enabled, not readonly and
 * not in a <datalist>. */
#include <math.h>
#include <stdlib.h>

#include "select_internal.h"

enum { T_DATE, T_MONTH, T_WEEK, T_TIME, T_DATETIME, T_NUMBER, T_RANGE, T__NONE };
static const char *const TYPE_NAMES[] = {"date", "month", "week", "time", "datetime-local", "number", "range"};

/* A parsed value, compared major first: the calendar part as an integer
 * (yyyymmdd, yyyymm, yyyyww) and the time of day in seconds or the number. */
typedef struct {
    int64_t major;
    double minor;
} value_t;

static int cmp(value_t a, value_t b)
{
    if (a.major != b.major)
        return a.major < b.major ? -1 : 1;
    return a.minor < b.minor ? -1 : a.minor > b.minor;
}

/* Browsers keep these values as JavaScript times, which end at
 * 275760-09-13T00:00:00Z: a later date, month or week is invalid. */
enum { MAX_YEAR = 275760 };
#define MAX_DATE ((int64_t)MAX_YEAR * 10000 + 913)

typedef struct {
    const uint8_t *p, *end;
} cursor;

/* exactly n ASCII digits */
static int digits(cursor *s, int n, int64_t *out)
{
    if (s->end - s->p < n)
        return 0;
    int64_t v = 0;
    for (int i = 0; i < n; i++, s->p++) {
        if (*s->p < '0' || *s->p > '9')
            return 0;
        v = v * 10 + (*s->p - '0');
    }
    *out = v;
    return 1;
}

/* four or more digits, a year from 1 on (a longer one is past MAX_YEAR anyway) */
static int year(cursor *s, int64_t *out)
{
    const uint8_t *start = s->p;
    int64_t v = 0;
    while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
        if (v <= MAX_YEAR)
            v = v * 10 + (*s->p - '0');
        s->p++;
    }
    *out = v;
    return s->p - start >= 4 && v >= 1;
}

static int byte(cursor *s, uint8_t b)
{
    if (s->p < s->end && *s->p == b) {
        s->p++;
        return 1;
    }
    return 0;
}

static int leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int days_in_month(int64_t y, int64_t m)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : days[m - 1];
}

/* ISO 8601 weeks in year y: 53 when it starts on a Thursday, or on a
 * Wednesday in a leap year. The calendar repeats every 400 years. */
static int weeks_in_year(int64_t y)
{
    int64_t z = y % 400 + 2000 - 1;   /* weekday of 1 January: Zeller-like count from year 1 */
    int jan1 = (int)((1 + 5 * (z % 4) + 4 * (z % 100) + 6 * (z % 400)) % 7);  /* 0 Sunday .. 6 Saturday */
    return jan1 == 4 || (jan1 == 3 && leap(y % 400 + 2000)) ? 53 : 52;
}

static int date_part(cursor *s, int64_t *y, int64_t *m, int64_t *d)
{
    return year(s, y) && byte(s, '-') && digits(s, 2, m) && *m >= 1 && *m <= 12 && byte(s, '-') &&
           digits(s, 2, d) && *d >= 1 && *d <= days_in_month(*y, *m);
}

/* hh:mm[:ss[.f{1,3}]] -> seconds of the day */
static int time_part(cursor *s, double *secs)
{
    int64_t h, m, sec = 0, frac = 0, scale = 1;
    if (!digits(s, 2, &h) || h > 23 || !byte(s, ':') || !digits(s, 2, &m) || m > 59)
        return 0;
    if (byte(s, ':')) {
        if (!digits(s, 2, &sec) || sec > 59)
            return 0;
        if (byte(s, '.')) {
            int n = 0;
            while (n < 3 && s->p < s->end && *s->p >= '0' && *s->p <= '9') {
                frac = frac * 10 + (*s->p++ - '0');
                scale *= 10;
                n++;
            }
            if (n == 0)
                return 0;
        }
    }
    *secs = (double)(h * 3600 + m * 60 + sec) + (double)frac / (double)scale;
    return 1;
}

/* -?(digits(.digits)?|.digits)([eE][+-]?digits)?, finite */
int fp_sel_number(const uint8_t *p, size_t n, double *out)
{
    size_t i = 0, int_digits = 0, frac_digits = 0;
    if (i < n && p[i] == '-')
        i++;
    while (i < n && p[i] >= '0' && p[i] <= '9')
        i++, int_digits++;
    if (i < n && p[i] == '.') {
        i++;
        while (i < n && p[i] >= '0' && p[i] <= '9')
            i++, frac_digits++;
        if (frac_digits == 0)
            return 0;
    }
    if (int_digits + frac_digits == 0)
        return 0;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-'))
            i++;
        size_t exp_digits = 0;
        while (i < n && p[i] >= '0' && p[i] <= '9')
            i++, exp_digits++;
        if (exp_digits == 0)
            return 0;
    }
    if (i != n)
        return 0;
    char buf[512];
    if (n >= sizeof buf)
        return 0;   /* a valid number this long is not one a page writes */
    memcpy(buf, p, n);
    buf[n] = 0;
    *out = strtod(buf, NULL);
    return isfinite(*out);
}

/* Parses the attribute `name` of e as a value of type `type`: 1 when valid. */
static int parse_value(fp_sel_ctx *c, uint32_t e, const char *name, int type, value_t *out)
{
    const uint8_t *v;
    size_t n;
    if (!fp_sel_attr_value(c, e, (const uint8_t *)name, strlen(name), &v, &n))
        return 0;
    cursor s = {v, v + n};
    int64_t y, m, d;
    double secs = 0;
    out->minor = 0;
    switch (type) {
    case T_NUMBER: case T_RANGE:
        out->major = 0;
        return fp_sel_number(v, n, &out->minor);
    case T_DATE:
        if (!date_part(&s, &y, &m, &d) || s.p != s.end)
            return 0;
        out->major = y * 10000 + m * 100 + d;
        return out->major <= MAX_DATE;
    case T_MONTH:
        if (!year(&s, &y) || !byte(&s, '-') || !digits(&s, 2, &m) || m < 1 || m > 12 || s.p != s.end)
            return 0;
        out->major = y * 100 + m;
        return out->major <= (int64_t)MAX_YEAR * 100 + 9;
    case T_WEEK:
        if (!year(&s, &y) || !byte(&s, '-') || !byte(&s, 'W') || !digits(&s, 2, &d) || d < 1 ||
            d > weeks_in_year(y) || s.p != s.end)
            return 0;
        out->major = y * 100 + d;
        return out->major <= (int64_t)MAX_YEAR * 100 + 37;
    case T_TIME:
        if (!time_part(&s, &secs) || s.p != s.end)
            return 0;
        out->major = 0;
        out->minor = secs;
        return 1;
    case T_DATETIME:
        if (!date_part(&s, &y, &m, &d) || !(byte(&s, 'T') || byte(&s, ' ')) || !time_part(&s, &secs) ||
            s.p != s.end)
            return 0;
        out->major = y * 10000 + m * 100 + d;
        out->minor = secs;
        return out->major < MAX_DATE || (out->major == MAX_DATE && secs == 0);
    default:
        return 0;
    }
}

static int input_type(fp_sel_ctx *c, uint32_t e)
{
    int k = fp_sel_attr_keyword(c, e, "type", TYPE_NAMES, T__NONE);
    return k < 0 ? T__NONE : k;
}

/* FP_SEL_IN_RANGE, FP_SEL_OUT_OF_RANGE, or FP_SEL_NO_RANGE when e has no range limitations. */
int fp_sel_range(fp_sel_ctx *c, uint32_t e)
{
    int type = input_type(c, e);
    if (type == T__NONE)
        return FP_SEL_NO_RANGE;
    value_t lo, hi, v;
    int has_lo = parse_value(c, e, "min", type, &lo), has_hi = parse_value(c, e, "max", type, &hi);
    if (type == T_RANGE) {
        /* the value is clamped into [min, max] (0 and 100 by default): out of
         * range only when max < min, where it is raised to min above max */
        value_t dlo = {0, 0.0}, dhi = {0, 100.0};
        return cmp(has_hi ? hi : dhi, has_lo ? lo : dlo) < 0 ? FP_SEL_OUT_OF_RANGE : FP_SEL_IN_RANGE;
    }
    if (!has_lo && !has_hi)
        return FP_SEL_NO_RANGE;
    if (!parse_value(c, e, "value", type, &v))
        return FP_SEL_IN_RANGE;   /* an empty or invalid value is sanitized to "": no underflow */
    int out;
    if (type == T_TIME && has_lo && has_hi && cmp(lo, hi) > 0)
        out = cmp(v, lo) < 0 && cmp(v, hi) > 0;   /* a reversed range, across midnight */
    else
        out = (has_lo && cmp(v, lo) < 0) || (has_hi && cmp(v, hi) > 0);
    return out ? FP_SEL_OUT_OF_RANGE : FP_SEL_IN_RANGE;
}

/* days from 1970-01-01 to y-m-d, proleptic Gregorian (H. Hinnant's days_from_civil) */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400, yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

/* v on the type's line, in the unit its step attribute counts in times the
 * step scale factor (4.10.5.4): milliseconds for date, week, time and
 * datetime-local, months for month, the number itself for number */
static double linear(int type, value_t v)
{
    int64_t y = v.major / 10000, m = v.major / 100 % 100, d = v.major % 100;
    switch (type) {
    case T_DATE: return (double)days_from_civil(y, m, d) * 86400000.0;
    case T_MONTH: return (double)((v.major / 100 - 1970) * 12 + v.major % 100 - 1);
    case T_WEEK: {
        /* the Monday of week 1 is the Monday on or before 4 January */
        int64_t wy = v.major / 100, jan4 = days_from_civil(wy, 1, 4);
        int64_t monday = jan4 - ((jan4 % 7 + 7 + 3) % 7);   /* 1970-01-01 was a Thursday */
        return (double)(monday + (v.major % 100 - 1) * 7) * 86400000.0;
    }
    case T_TIME: return v.minor * 1000.0;
    case T_DATETIME: return (double)days_from_civil(y, m, d) * 86400000.0 + v.minor * 1000.0;
    default: return v.minor;
    }
}

/* A number in decimal: (neg ? -1 : 1) * m * 10^e, parsed from a valid
 * floating-point number string with at most 18 significant digits (else 0:
 * the caller counts in doubles) */
typedef struct { int neg; uint64_t m; int e; } decimal_t;

static int decimal_parse(const uint8_t *p, size_t n, decimal_t *out)
{
    size_t i = 0;
    int digits = 0, frac = 0, seen_dot = 0;
    *out = (decimal_t){0, 0, 0};
    if (i < n && p[i] == '-')
        out->neg = 1, i++;
    for (; i < n && ((p[i] >= '0' && p[i] <= '9') || (p[i] == '.' && !seen_dot)); i++) {
        if (p[i] == '.') {
            seen_dot = 1;
            continue;
        }
        if (out->m == 0 && p[i] == '0') {
            frac += seen_dot;   /* leading zeros: only their place counts */
            continue;
        }
        if (++digits > 18)
            return 0;
        out->m = out->m * 10 + (uint64_t)(p[i] - '0');
        frac += seen_dot;
    }
    long ex = 0;
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        int neg = ++i < n && p[i] == '-';
        if (i < n && (p[i] == '-' || p[i] == '+'))
            i++;
        for (; i < n && p[i] >= '0' && p[i] <= '9'; i++)
            if ((ex = ex * 10 + (p[i] - '0')) > 400)
                return 0;
        ex = neg ? -ex : ex;
    }
    out->e = (int)ex - frac;
    return i == n;
}

/* d * 10^k into *out when below 10^30 */
static int scaled(decimal_t d, int k, __int128 *out)
{
    __int128 v = d.m;
    for (; k > 0; k--)
        if ((v *= 10) >= (__int128)1000000000000000LL * 1000000000000000LL)
            return 0;
    *out = d.neg ? -v : v;
    return 1;
}

/* A number input's step mismatch counted exactly, as Chrome counts it in
 * decimals: 1 or 0, or -1 when the numbers are too long for it. */
static int number_step_exact(fp_sel_ctx *c, uint32_t e, const uint8_t *step, size_t step_len)
{
    const uint8_t *p;
    size_t n;
    decimal_t v, b, s = {0, 1, 0};
    if (!fp_sel_attr_value(c, e, (const uint8_t *)"value", 5, &p, &n) || !decimal_parse(p, n, &v) ||
        !fp_sel_attr_value(c, e, (const uint8_t *)"min", 3, &p, &n) || !decimal_parse(p, n, &b) ||
        (step && !decimal_parse(step, step_len, &s)))
        return -1;
    int low = v.e < b.e ? v.e : b.e;
    low = s.e < low ? s.e : low;
    __int128 vv, bb, ss;
    if (!scaled(v, v.e - low, &vv) || !scaled(b, b.e - low, &bb) || !scaled(s, s.e - low, &ss) || ss <= 0)
        return -1;
    __int128 d = vv > bb ? vv - bb : bb - vv;
    if (d / ss > ((__int128)1 << 53))
        return 0;   /* past step x 2^53 no remainder is known */
    __int128 rem = d % ss;
    return rem * 16777216 > ss && (ss - rem) * 16777216 > ss;   /* beyond step / 2^24 of a multiple */
}

/* A step mismatch (4.10.5.3.8): the value is not the step base (min) plus a
 * whole number of steps. Without a valid min the base is the value attribute,
 * which the value of a parsed page is: no mismatch. The step is the attribute
 * when valid and above 0 ("any": no step), whole days, months or weeks for those
 * types and whole milliseconds for times, as browsers round it. */
static int step_mismatch(fp_sel_ctx *c, uint32_t e, int type, value_t v)
{
    static const double scale[] = {86400000.0, 1.0, 604800000.0, 1000.0, 1000.0, 1.0, 1.0};
    static const double default_step[] = {1, 1, 1, 60, 60, 1, 1};
    value_t base;
    if (!parse_value(c, e, "min", type, &base))
        return 0;
    double step = default_step[type];
    const uint8_t *s;
    size_t n;
    uint8_t step_text[64];
    size_t step_len = 0;   /* the step attribute's text when it gives the step */
    int exact = type == T_NUMBER;
    if (fp_sel_attr_value(c, e, (const uint8_t *)"step", 4, &s, &n)) {
        double given;
        if (n == 3 && fp_sel_attr_is(c, e, "step", "any"))
            return 0;
        if (fp_sel_number(s, n, &given) && given > 0) {
            if (n <= sizeof step_text)   /* s may live in c->val, which the next read reuses */
                memcpy(step_text, s, step_len = n);
            else
                exact = 0;
            step = given;
            if (type == T_DATE || type == T_MONTH || type == T_WEEK)
                step = fmax(round(step), 1.0);
            else if (type == T_TIME || type == T_DATETIME)
                step = fmax(round(step * 1000.0), 1.0) / 1000.0;
        }
    }
    int mismatch = exact ? number_step_exact(c, e, step_len ? step_text : NULL, step_len) : -1;
    if (mismatch >= 0)
        return mismatch;
    /* as Chrome decides (StepRange::StepMismatch): past step x 2^53 no remainder is
     * known; a remainder within step / 2^24 of a multiple is none for numbers (whose
     * steps are reals), within rounding error for dates and times (whole units) */
    double units = step * scale[type], d = fabs(linear(type, v) - linear(type, base));
    if (d / 9007199254740992.0 > units)
        return 0;
    double rem = fabs(d - units * round(d / units));
    double err = type == T_NUMBER ? units / 16777216.0 : 1e-6;
    return err < rem && rem < units - err;
}

int fp_sel_typed_invalid(fp_sel_ctx *c, uint32_t e, int required)
{
    int type = input_type(c, e);
    value_t v;
    if (type >= T_RANGE || !parse_value(c, e, "value", type, &v))
        return required;   /* an invalid value is sanitized to "" */
    return fp_sel_range(c, e) == FP_SEL_OUT_OF_RANGE || step_mismatch(c, e, type, v);
}
