/* fuzz_engine.c — libFuzzer harness over the C engine alone (no Python):
 * fp_parse, then every read path a binding would take: the index invariants,
 * fp_attr_next / fp_attr_find / fp_attr_value_at / fp_attr_value on every
 * element, fp_text and fp_doc_text with varied options, fp_find with
 * queries taken from the document itself.
 *
 * Also fp_prescan / fp_encoding_for_label / fp_detect_encoding / fp_utf8_check /
 * fp_utf16_to_utf8 / fp_iso2022jp_to_utf8 on the same bytes, and, when bit 7
 * of byte 0 is set, a selector program (fp_select_check, then fp_select_run
 * with and without the tag index, fp_select_test and fp_select_closest, when the checker
 * accepts it).
 *
 * Input layout: byte 0 picks the options (recovery, scripting, legacy,
 * fragment context, a small max_depth, a selector program), byte 1 the
 * fragment context tag (or, with a program, its length in 4-byte words),
 * the rest is the HTML, after the program when there is one. seeds.py
 * writes programs compiled from real selectors. Invariant violations abort, so libFuzzer keeps them
 * as crashes just like ASan/UBSan reports.
 * Build and run: tests/fuzz/build.sh, tests/fuzz/README.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fp.h"
#include "internal.h"   /* FP_ERR__COUNT */
#include "prescan.h"
#include "select.h"
#include "tags_gen.h"

/* -DFP_FUZZ_REPORT_ONLY (the coverage build): print, do not abort, so a
 * known bug does not stop a -runs=0 pass over the corpus. */
#ifdef FP_FUZZ_REPORT_ONLY
#define FP_FUZZ_FAIL() ((void)0)
#else
#define FP_FUZZ_FAIL() abort()
#endif
#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "invariant failed: %s (%s:%d)\n", #cond, __FILE__,   \
                    __LINE__);                                                   \
            FP_FUZZ_FAIL();                                                      \
        }                                                                        \
    } while (0)

/* FP_FUZZ_SKIP (comma-separated, read once): known, reported bugs the checks
 * step around so a run can find new ones. "select": no selector programs.
 * Empty by default. */
static int skip_select;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *skip = getenv("FP_FUZZ_SKIP");
    skip_select = skip && strstr(skip, "select") != NULL;
    return 0;
}

/* The index must describe a forest laid over the buffer in document order. */
static void
check_index(const fp_doc *d)
{
    for (uint32_t i = 0; i < d->n; i++) {
        const fp_elem *e = &d->elems[i];
        CHECK(e->start < e->inner_start);
        CHECK(e->inner_start <= e->inner_end);
        CHECK(e->inner_end <= e->end);
        CHECK(e->end <= d->len);
        CHECK(e->last >= i && e->last < d->n);
        CHECK(e->closed >= FP_CLOSED_END_TAG && e->closed <= FP_CLOSED_EOF);
        if (i > 0)
            CHECK(d->elems[i - 1].start < e->start);
        if (e->parent < 0) {
            CHECK(e->depth == 0);
        } else {
            const fp_elem *p = &d->elems[e->parent];
            CHECK((uint32_t)e->parent < i);
            /* depth is the spec tree's: a fostered element's parent there is
             * fp_dom_parent (the table's parent), not its index parent */
            int32_t dp = fp_dom_parent(d, i);
            CHECK(e->depth == (dp < 0 ? 0 : d->elems[dp].depth + 1));
            CHECK(p->last >= e->last);
            CHECK(p->inner_start <= e->start);
            CHECK(e->end <= p->inner_end);  /* and so inside the parent's span */
        }
        size_t len;
        const uint8_t *name = fp_tag_name(d, e->tag, &len);
        CHECK(name != NULL && len > 0);
        /* a name folded for a double-byte encoding is found as it is stored */
        CHECK((d->opts.dbcs && e->tag >= FP_TAG__COUNT ? fp_tag_interned_folded(d, name, len)
                                                       : fp_tag_lookup(d, name, len)) == e->tag);
    }
    for (uint32_t k = 0; k < d->nerrors; k++)
        CHECK(d->errors[k].offset <= d->len);
    /* doc.errors: the parse's and the scan's, in source order, every one with a name */
    fp_error *all;
    uint32_t nall;
    if (fp_doc_all_errors(d, &all, &nall) == 0) {
        CHECK(nall >= d->nerrors);
        for (uint32_t k = 0; k < nall; k++) {
            CHECK(all[k].offset <= d->len);
            CHECK(all[k].code < FP_ERR__COUNT && fp_error_names[all[k].code] != NULL);
            CHECK(k == 0 || all[k - 1].offset <= all[k].offset);
        }
        free(all);
    }
    /* comments: in document order, data inside the source after their '<' */
    for (uint32_t k = 0; k < d->ncomments; k++) {
        const fp_comment *c = &d->comments[k];
        CHECK(c->start < c->data && c->data <= c->data_end && c->data_end <= d->len);
        CHECK(d->buf[c->start] == '<');
        if (c->target_end)   /* a processing instruction: "<?", its target, then its data */
            CHECK(c->target == c->start + 2 && c->target < c->target_end && c->target_end <= c->data &&
                  d->buf[c->start + 1] == '?');
        if (k > 0)
            CHECK(d->comments[k - 1].data_end <= c->start);
    }
    if (d->has_doctype)
        CHECK(d->doctype_name <= d->doctype_name_end && d->doctype_name_end <= d->len);
    /* the form element pointer's changes: in element order, each to a form before them */
    for (uint32_t k = 0; k < d->nform_ptr; k++) {
        uint32_t from = d->form_ptr[k].from;
        int32_t form = d->form_ptr[k].form;
        CHECK(from <= d->n && (k == 0 || d->form_ptr[k - 1].from <= from));
        CHECK(form == -1 || (form >= 0 && (uint32_t)form < from && d->elems[form].tag == FP_TAG_FORM));
        if (from < d->n && (k + 1 == d->nform_ptr || d->form_ptr[k + 1].from > from))
            CHECK(fp_parser_form(d, from) == form);
    }
}

/* The name an attribute's raw name [at, at + n) spells, as tag.attrs reports
 * it: ASCII lower-cased, a NUL written as U+FFFD. Its length (out holds 3n). */
static size_t
spelled_name(const fp_doc *d, uint32_t at, uint32_t n, char *out)
{
    size_t len = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint8_t c = d->buf[at + k];
        if (c == 0) {
            memcpy(out + len, "\xEF\xBF\xBD", 3);
            len += 3;
        } else {
            out[len++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
        }
    }
    return len;
}

/* The end of the start tag of element i, or of a later <html>/<body> tag merged
 * into it, that holds [at, at + len); 0 when none does. */
static uint32_t
tag_holding(const fp_doc *d, uint32_t i, uint32_t at, uint32_t len)
{
    const fp_elem *e = &d->elems[i];
    if (at > e->start && at + len <= e->inner_start)
        return e->inner_start;
    for (uint32_t k = 0; k < d->nmerged; k++) {
        const fp_merged_tag *m = &d->merged[k];
        if (m->elem == i && at >= m->attrs && at + len <= m->end)
            return m->end;
    }
    return 0;
}

/* Attributes lie inside the start tag (or a later <html>/<body> merged into the
 * element, html and body only, sorted by element, then in document order);
 * values decode without failing. */
static void
check_attrs(const fp_doc *d, uint32_t i, fp_buf *scratch)
{
    const fp_elem *e = &d->elems[i];
    uint32_t cursor = 0, n = 0, bytes = e->inner_start - e->start;
    int merged = 0;
    for (uint32_t k = 0; k < d->nmerged; k++) {
        const fp_merged_tag *m = &d->merged[k], *prev = k ? m - 1 : NULL;
        CHECK(m->elem < d->n && m->attrs > d->elems[m->elem].start && m->attrs <= m->end && m->end <= d->len);
        CHECK(d->elems[m->elem].tag == FP_TAG_HTML || d->elems[m->elem].tag == FP_TAG_BODY);
        CHECK(!prev || prev->elem < m->elem || (prev->elem == m->elem && prev->end <= m->attrs));
        if (m->elem == i) {
            bytes += m->end - m->attrs;
            merged = 1;
        }
    }
    CHECK(fp_attr_merged(d, i) == merged);
    fp_attr a;
    uint32_t last = 0;
    while (fp_attr_next(d, i, &cursor, &a)) {
        CHECK(a.name_len > 0);
        uint32_t end = tag_holding(d, i, a.name_start, a.name_len);
        CHECK(end != 0 && a.name_start >= last);
        last = a.name_start;
        if (a.has_value)
            CHECK(a.value_start >= a.name_start + a.name_len && a.value_start + a.value_len <= end);
        scratch->len = 0;
        CHECK(fp_attr_value(d, &a, scratch) == 0);
        CHECK(++n <= bytes);
        /* the Bloom filter has the name's bit: queries skip elements without it */
        CHECK(e->attr_bits & fp_attr_bit(d->buf + a.name_start, a.name_len));
        /* found again by its lower-cased name, a NUL written as U+FFFD (as
         * tag.attrs reports it) */
        fp_attr first;
        char lname[3 * 64], fname[3 * 3 * 64];   /* the first's raw name is no longer than lname */
        if (a.name_len < 64) {
            size_t len = spelled_name(d, a.name_start, a.name_len, lname);
            CHECK(fp_attr_find(d, i, lname, len, &first) == 1);
            /* the first attribute of that name (first wins): no later one, and
             * one spelling the same name; its raw name may differ in length
             * (a NUL and the 3 bytes of U+FFFD both spell U+FFFD) */
            CHECK(first.name_start <= a.name_start);
            CHECK(first.name_start < a.name_start || first.name_len == a.name_len);
            CHECK(first.name_len <= 3 * 64 && spelled_name(d, first.name_start, first.name_len, fname) == len &&
                  memcmp(fname, lname, len) == 0);
            CHECK(fp_attr_present(d, i, lname, len) == 1);
            /* the same attribute's value, not read to its end: where it starts,
             * and the byte that closes it (a quote, else whitespace or '>') */
            const uint8_t *v;
            uint8_t quote;
            CHECK(fp_attr_value_at(d, i, lname, len, &v, &quote) == 1);
            CHECK((v != NULL) == first.has_value);
            if (v) {
                const uint8_t *close = d->buf + first.value_start + first.value_len;
                CHECK(v == d->buf + first.value_start);
                CHECK(quote ? *close == quote && v[-1] == quote
                            : *close == '>' || *close == ' ' || *close == '\t' || *close == '\n' ||
                                  *close == '\f' || *close == '\r');
            }
        }
    }
    /* href's bit is exact: set exactly when an attribute is named href */
    fp_attr h;
    CHECK(fp_attr_present(d, i, "href", 4) == fp_attr_find(d, i, "href", 4, &h));
}

static const uint16_t skip_default[] = {FP_TAG_SCRIPT, FP_TAG_STYLE, FP_TAG_TEMPLATE};

/* fp_text_ranges, which :contains() reads, gives each element it walks the
 * text fp_text gives that element: its slice of the document's text (what a
 * table moved out is read before the table in both). Up to 16 elements. Not
 * in a legacy document, where a decoded ASCII character is marked or not by
 * the byte before it, which may be outside the element. */
static void
check_ranges(const fp_doc *d, uint32_t first)
{
    uint32_t n = d->n;
    if (n == 0 || n > 4096 || d->opts.legacy)
        return;
    uint32_t *start = malloc(n * sizeof *start), *end = malloc(n * sizeof *end);
    CHECK(start && end);
    memset(start, 0xFF, n * sizeof *start);
    memset(end, 0xFF, n * sizeof *end);
    uint16_t skip = FP_TAG_TEMPLATE;
    fp_text_opts o = {0};
    o.skip = &skip;
    o.nskip = 1;
    fp_buf all = {0}, one = {0};
    CHECK(fp_text_ranges(d, -1, &o, &all, start, end) == 0);
    uint32_t step = n > 16 ? n / 16 : 1;
    for (uint32_t i = first % step; i < n; i += step) {
        if (start[i] == UINT32_MAX)
            continue;   /* in a skipped template */
        CHECK(start[i] <= end[i] && end[i] <= all.len);
        one.len = 0;
        CHECK(fp_text(d, i, &o, &one) == 0);
        CHECK(one.len == end[i] - start[i] && (!one.len || memcmp(one.data, all.data + start[i], one.len) == 0));
    }
    fp_buf_free(&all);
    fp_buf_free(&one);
    free(start);
    free(end);
}

static void
check_text(const fp_doc *d, uint32_t i, int variant, fp_buf *out)
{
    fp_text_opts o = {0};
    if (variant & 1) {
        o.sep = (const uint8_t *)" | ";
        o.sep_len = 3;
    }
    o.strip = (variant >> 1) & 1;
    if (variant & 4) {
        o.skip = skip_default;
        o.nskip = 3;
    }
    out->len = 0;
    if (i == UINT32_MAX) {
        CHECK(fp_doc_text(d, &o, out) == 0);
        return;
    }
    CHECK(fp_text(d, i, &o, out) == 0);
    /* the binding reads a text that is its source bytes straight from them */
    uint32_t from, to;
    int ascii;
    if (!o.strip && fp_text_is_source(d, i, &from, &to, &ascii)) {
        CHECK(out->len == to - from && (!out->len || memcmp(out->data, d->buf + from, out->len) == 0));
        int high = 0;
        for (uint32_t k = from; k < to; k++)
            high |= d->buf[k] & 0x80;
        CHECK(ascii == !high);
    }
    /* a run break (FP_TEXT_BREAK) comes before a byte that may follow a lead
     * byte (written after one; strip may take the white space between them) */
    if (d->opts.legacy) {
        for (size_t k = 0; k + 1 < out->len; k++)
            if (out->data[k] == 0 && out->data[k + 1] == 0xFF)
                CHECK(k + 2 < out->len && out->data[k + 2] >= 0x30);
        return;
    }
    /* collapse: no space at either end, none doubled, and nothing left to do a second time */
    if (!out->len)
        return;
    uint8_t *once = malloc(out->len), *twice = malloc(out->len);
    CHECK(once && twice);
    size_t n1 = fp_collapse_ws(out->data, out->len, once);
    CHECK(n1 <= out->len && (!n1 || (once[0] != ' ' && once[n1 - 1] != ' ')));
    for (size_t k = 1; k < n1; k++)
        CHECK(!(once[k] == ' ' && once[k - 1] == ' '));
    size_t n2 = fp_collapse_ws(once, n1, twice);
    CHECK(n2 == n1 && (!n1 || memcmp(once, twice, n1) == 0));
    free(once);
    free(twice);
}

/* Queries built from what the document holds: its tag names, and the first
 * id / class / other attribute values it has. Results must be in range,
 * increasing, and match fp_match. */
static void
check_find(const fp_doc *d, const uint8_t *ctl, size_t nctl)
{
    if (!d->n)
        return;
    uint32_t *out = malloc(d->n * sizeof *out);
    CHECK(out != NULL);
    for (size_t k = 0; k < nctl && k < 4; k++) {
        uint32_t i = ctl[k] % d->n;
        const fp_elem *e = &d->elems[i];
        fp_query q = {.tag = (ctl[k] & 1) ? e->tag : -1};
        fp_attr a;
        fp_attr_query aq = {0};
        if (fp_attr_find(d, i, "id", 2, &a) && (ctl[k] & 2)) {
            q.id = d->buf + a.value_start;
            q.id_len = a.value_len;
        }
        if (fp_attr_find(d, i, "class", 5, &a) && (ctl[k] & 4)) {
            q.cls = d->buf + a.value_start;   /* the whole value as one token */
            q.cls_len = a.value_len;
        }
        uint32_t cur = 0;
        char lname[64];
        if ((ctl[k] & 8) && fp_attr_next(d, i, &cur, &a) && a.name_len < sizeof lname) {
            for (uint32_t m = 0; m < a.name_len; m++) {
                uint8_t c = d->buf[a.name_start + m];
                lname[m] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
            }
            aq.name = lname;
            aq.name_len = a.name_len;
            if (ctl[k] & 16) {
                aq.value = d->buf + a.value_start;
                aq.value_len = a.value_len;
            }
            q.attrs = &aq;
            q.nattrs = 1;
        }
        uint32_t first = (ctl[k] & 32) ? i : 0;
        uint32_t last = (ctl[k] & 32) ? e->last : d->n - 1;
        uint32_t limit = (ctl[k] & 64) ? 1 : d->n;
        uint32_t got = fp_find(d, first, last, &q, out, limit);
        CHECK(got <= limit);
        for (uint32_t m = 0; m < got; m++) {
            CHECK(out[m] >= first && out[m] <= last);
            CHECK(m == 0 || out[m] > out[m - 1]);
            CHECK(fp_match(d, out[m], &q));
        }
        /* a plain tag query must find the element it was built from */
        if (q.tag >= 0 && !q.id && !q.cls && !q.nattrs && limit == d->n)
            CHECK(got >= 1);
    }
    free(out);
}

/* The encoding prescan reads only its window and names a known encoding, as
 * the whole detection does; the UTF-8 check's SIMD path (when this CPU has
 * it) agrees with the byte loop. */
static void
check_prescan(const uint8_t *buf, size_t len)
{
    CHECK(fp_utf8_check(buf, len) == fp_utf8_check_portable(buf, len));
    const char *name = fp_prescan(buf, len < 1024 ? len : 1024);
    if (name)
        CHECK(fp_encoding_for_label((const uint8_t *)name, strlen(name)) != NULL);
    name = fp_prescan(buf, len);
    if (name)
        CHECK(fp_encoding_for_label((const uint8_t *)name, strlen(name)) != NULL);
    fp_encoding_for_label(buf, len < 40 ? len : 40);
    name = fp_detect_encoding(buf, len);   /* NULL: the Python guess decides */
    if (name)
        CHECK(fp_encoding_for_label((const uint8_t *)name, strlen(name)) != NULL);
}

/* UTF-16 read either way round transcodes to valid UTF-8 within the room
 * FP_UTF16_TO_UTF8_CAP promises (ASan sees a write past it). */
static void
check_utf16(const uint8_t *buf, size_t len)
{
    uint8_t *out = malloc(FP_UTF16_TO_UTF8_CAP(len));
    CHECK(out != NULL);
    for (int big_endian = 0; big_endian < 2; big_endian++) {
        size_t n = fp_utf16_to_utf8(buf, len, big_endian, out);
        CHECK(n <= FP_UTF16_TO_UTF8_CAP(len));
        CHECK(fp_utf8_check(out, n) != 0);
    }
    free(out);
}

/* ISO-2022-JP transcodes to valid UTF-8, each U+FFFD in it an error counted. */
static void
check_iso2022jp(const uint8_t *buf, size_t len)
{
    fp_buf out = {0};
    size_t errors, fffd = 0;
    CHECK(fp_iso2022jp_to_utf8(buf, len, &out, &errors) == 0);
    CHECK(fp_utf8_check(out.data, out.len) != 0);
    for (size_t i = 0; i + 2 < out.len; i++)
        fffd += out.data[i] == 0xEF && out.data[i + 1] == 0xBF && out.data[i + 2] == 0xBD;
    CHECK(fffd == errors);
    fp_buf_free(&out);
}

/* The encoding guess's sample stays in its bounds and starts with a non-ASCII
 * byte, as each of its runs does; the counts stay within the bytes counted. */
static void
check_guess(const uint8_t *buf, size_t len)
{
    uint8_t *sample = malloc(FP_GUESS_SAMPLE + FP_GUESS_PART);
    CHECK(sample != NULL);
    size_t n = fp_guess_sample(buf, len, sample);
    CHECK(n <= FP_GUESS_SAMPLE && n <= 2 * len);   /* disjoint runs of the page, a line each */
    CHECK(n == 0 || sample[0] >= 0x80);
    size_t counts[256], total = 0, utf8[3], big5[3];
    fp_byte_counts(sample, n, counts);
    for (int b = 0; b < 256; b++)
        total += counts[b];
    CHECK(total == n);
    fp_utf8_counts(buf, len, utf8);
    CHECK(utf8[0] + utf8[1] <= len && utf8[2] <= utf8[0]);
    fp_big5_pairs(buf, len, big5);
    CHECK(2 * big5[0] <= len && big5[1] <= big5[0] && big5[2] <= big5[0]);
    uint8_t high[256] = {0}, letters[256] = {0};
    memset(high + 0x80, 1, 0x80);
    memset(letters + 'a', 1, 26);
    CHECK(fp_bytes_in_runs(buf, len, high, 3) <= len);
    CHECK(fp_unpaired_bytes(buf, len, high, letters, 0) + fp_unpaired_bytes(buf, len, letters, high, 1) <= len);
    free(sample);
}

/* Whether the list at w[at] (of a program fp_select_check accepted) uses
 * :scope anywhere, :not(), :is(), :has() and :nth-child(of S) included. A
 * select over the document takes :scope for its first element, a test of
 * element i for i itself: the two answer differently for such programs. */
static int list_uses_scope(const int32_t *w, int32_t at);

static int
compound_uses_scope(const int32_t *w, int32_t at)
{
    int32_t pc = at + 2;
    for (int32_t t = 0; t < w[at + 1]; t++) {
        const int32_t *a = w + pc;
        switch (a[0]) {
        case FP_SEL_T_SCOPE: return 1;
        case FP_SEL_T_NOT: case FP_SEL_T_IS:
            if (list_uses_scope(w, a[1]))
                return 1;
            pc += 2;
            break;
        case FP_SEL_T_HAS:
            if (compound_uses_scope(w, a[2]))
                return 1;
            pc += 4;
            break;
        case FP_SEL_T_NTH:
            if (a[4] >= 0 && list_uses_scope(w, a[4]))
                return 1;
            pc += 6;
            break;
        case FP_SEL_T_TAG: case FP_SEL_T_ID: case FP_SEL_T_CLASS: pc += 2; break;
        case FP_SEL_T_ATTR: pc += 5; break;
        case FP_SEL_T_DIR: pc += 3; break;
        case FP_SEL_T_CONTAINS: case FP_SEL_T_CONTAINS_OWN: case FP_SEL_T_LANG: pc += 2 + a[1]; break;
        default: pc += 1; break;
        }
    }
    return 0;
}

static int
list_uses_scope(const int32_t *w, int32_t at)
{
    for (int32_t c = 0; c < w[at + 1]; c++) {
        int32_t cx = w[at + 2 + c];
        for (int32_t k = 0; k < w[cx + 1]; k++)
            if (compound_uses_scope(w, w[cx + 2 + 2 * k]))
                return 1;
    }
    return 0;
}

/* A program the checker accepts must run without faults, in order, in range,
 * and give the same elements with and without the per-document tag index,
 * sibling table and form tables; fp_select_test must agree with and without
 * the tables. */
static void
check_select(const fp_doc *d, const uint8_t *raw, size_t nbytes)
{
    uint32_t *prog = malloc(nbytes ? nbytes : 4);  /* aligned copy */
    CHECK(prog != NULL);
    memcpy(prog, raw, nbytes);
    if (fp_select_check((const uint8_t *)prog, nbytes) == 0) {
        size_t isize = fp_select_index_size(d);
        uint32_t *index = malloc(isize ? isize : 4);
        CHECK(index != NULL);
        fp_select_index_build(d, index);
        size_t ssize = fp_select_siblings_size(d);
        uint32_t *siblings = malloc(ssize ? ssize : 4);
        CHECK(siblings != NULL && fp_select_siblings_build(d, siblings) == 0);
        struct fp_sel_forms *forms;
        CHECK(fp_select_forms_build(d, &forms) == FP_OK);
        const fp_select_tables tables = {index, siblings, forms};
        fp_buf plain = {0}, indexed = {0};
        /* the document, its first element, and one in the middle: combinators and
         * :contains() reach elements outside a scope that starts past 0 */
        int32_t scopes[3] = {-1, d->n ? 0 : -1, d->n ? (int32_t)(d->n / 2) : -1};
        const int32_t *w = (const int32_t *)prog;
        int scoped = list_uses_scope(w, w[FP_SEL_H_ROOT]);
        for (int k = 0; k < 3; k++) {
            plain.len = indexed.len = 0;
            CHECK(fp_select_run(d, scopes[k], (const uint8_t *)prog, nbytes, UINT32_MAX, NULL, &plain) == FP_OK);
            CHECK(fp_select_run(d, scopes[k], (const uint8_t *)prog, nbytes, UINT32_MAX, &tables, &indexed) ==
                  FP_OK);
            CHECK(plain.len == indexed.len &&
                  (plain.len == 0 || memcmp(plain.data, indexed.data, plain.len) == 0));
            const uint32_t *hit = (const uint32_t *)plain.data;
            for (size_t m = 0; m < plain.len / 4; m++) {
                CHECK(hit[m] < d->n);
                CHECK(m == 0 || hit[m] > hit[m - 1]);
                CHECK(fp_select_test(d, hit[m], (const uint8_t *)prog, nbytes, NULL) == 1 ||
                      scopes[k] >= 0 || scoped);  /* :scope differs between the two calls */
            }
        }
        for (uint32_t i = 0; i < d->n && i < 64; i++) {
            int r = fp_select_test(d, i, (const uint8_t *)prog, nbytes, NULL);
            CHECK(r >= 0 && fp_select_test(d, i, (const uint8_t *)prog, nbytes, &tables) == r);
            /* closest: the first of i and its ancestors (not above an HTML
             * template's contents) that matches, when :scope, the one thing that
             * differs between its walk and separate tests, is not used */
            int32_t near = fp_select_closest(d, i, (const uint8_t *)prog, nbytes, NULL);
            CHECK(near >= -1 && fp_select_closest(d, i, (const uint8_t *)prog, nbytes, &tables) == near);
            if (scoped)
                continue;
            int32_t x = (int32_t)i;
            while (x >= 0 && fp_select_test(d, (uint32_t)x, (const uint8_t *)prog, nbytes, NULL) != 1) {
                int32_t p = d->elems[x].parent;
                x = p >= 0 && fp_html_is(&d->elems[p], FP_TAG_TEMPLATE) ? -1 : p;
            }
            CHECK(near == x);
        }
        fp_buf_free(&plain);
        fp_buf_free(&indexed);
        free(index);
        free(siblings);
        fp_select_forms_free(forms);
    }
    free(prog);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    uint8_t mode = data[0], ctx = data[1];
    const uint8_t *buf = data + 2;
    size_t len = size - 2;
    const uint8_t *prog = NULL;
    size_t prog_len = 0;
    if (mode & 0x80) {
        prog_len = (size_t)ctx * 4;
        if (prog_len > len)
            prog_len = len & ~(size_t)3;
        prog = buf;
        buf += prog_len;
        len -= prog_len;
        ctx = 0;
    }
    check_prescan(buf, len);
    check_utf16(buf, len);
    check_iso2022jp(buf, len);
    check_guess(buf, len);
    /* a private copy, so ASan catches any read past the document's end */
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy)
        return 0;
    memcpy(copy, buf, len);

    fp_options opts = {
        .max_size = 256u << 20,
        .max_depth = (mode & 0x40) ? 1 + (ctx & 15) : 4096,
        .recovery = (mode & 1) ? FP_RECOVERY_NONE : FP_RECOVERY_HTML5,
        .scripting = (mode >> 1) & 1,
        .legacy = (mode >> 2) & 1,
        .dbcs = (mode >> 2) & 1 ? (uint8_t)((ctx >> 4) % (FP_DBCS_KR + 1)) : FP_DBCS_NONE,
        .context = (mode & 8) ? (uint16_t)(1 + ctx % (FP_TAG__COUNT - 1)) : 0,
    };
    fp_doc d;
    memset(&d, 0, sizeof d);
    fp_status st = fp_parse(&d, copy, len, &opts);
    if (st == FP_OK) {
        check_index(&d);
        fp_buf scratch = {0};
        /* bound the work on big inputs: attributes of up to 256 elements,
         * the text of up to 16 (a text walks the whole subtree) */
        uint32_t step = d.n > 256 ? d.n / 256 : 1;
        for (uint32_t i = 0; i < d.n; i += step)
            check_attrs(&d, i, &scratch);
        step = d.n > 16 ? d.n / 16 : 1;
        for (uint32_t i = (mode >> 3) % step; i < d.n; i += step)
            check_text(&d, i, (mode >> 4) & 7, &scratch);
        check_text(&d, UINT32_MAX, mode & 7, &scratch);
        check_ranges(&d, ctx);
        for (uint32_t k = 0; k < d.ncomments && k < 64; k++) {
            scratch.len = 0;
            CHECK(fp_literal_text(&d, d.comments[k].data, d.comments[k].data_end, &scratch) == 0);
        }
        check_find(&d, buf, len);
        for (uint32_t k = 0; k < d.names.count; k++) {   /* a name holding U+FFFD's UTF-8, read again */
            scratch.len = 0;
            int marked = fp_tag_name_marked(&d, (uint16_t)(FP_TAG__COUNT + k), &scratch);
            CHECK(marked == 0 || (marked == 1 && scratch.len > 0));
        }
        if (prog && !skip_select)
            check_select(&d, prog, prog_len);
        fp_buf_free(&scratch);
        fp_doc_free(&d);
    } else {
        CHECK(st == FP_ETOODEEP);  /* no size limit is hit here and malloc works */
        CHECK(d.fail_offset <= len);
        CHECK(d.elems == NULL);
    }
    free(copy);
    return 0;
}
