/* fp.h — the engine's public face: the flat element index, parse options,
 * status codes and every function the Python binding (py_*.c) may call.
 * Engine files include only this header and the C library: no Python.h.
 * Offsets are byte offsets into the parsed buffer (UTF-8 or an
 * ASCII-compatible legacy encoding); the binding maps them for str input. */
#ifndef FP_H
#define FP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- status codes: the engine never raises, it returns one of these ---- */
typedef enum {
    FP_OK = 0,
    FP_ENOMEM,      /* an allocation failed */
    FP_ETOOBIG,     /* input larger than max_size (offset = max_size) */
    FP_ETOODEEP,    /* more than max_depth open elements (offset = the tag) */
    FP_ETOOMANYNAMES, /* more than 65,000 distinct tag names (offset = the tag) */
} fp_status;

/* ---- how an element was closed (fp_elem.closed) ---- */
enum {
    FP_CLOSED_END_TAG = 1,  /* its own end tag */
    FP_CLOSED_IMPLIED,      /* a sibling's start tag implied the end (<li><li>, <p><div>) */
    FP_CLOSED_PARENT_END,   /* an ancestor's end (or implied end) closed it */
    FP_CLOSED_VOID,         /* void element (<br>, <img>) */
    FP_CLOSED_SELF_CLOSING, /* <x/> in foreign content (svg, math) */
    FP_CLOSED_EOF,          /* still open at end of input */
};

/* ---- per-element flags (fp_elem.flags) ---- */
enum {
    FP_EF_SVG = 1,          /* element is in the SVG namespace */
    FP_EF_MATHML = 2,       /* element is in the MathML namespace */
    FP_EF_RAWTEXT = 4,      /* content was taken as raw text / RCDATA / plaintext */
    FP_EF_RCDATA = 8,       /* ... and that content decodes character references */
    FP_EF_SOLIDUS = 16,     /* start tag written with a trailing "/>" */
    FP_EF_HTML_IP = 32,     /* HTML integration point (svg foreignObject/desc/title, ...) */
    FP_EF_TEXT_IP = 64,     /* MathML text integration point (mi mo mn ms mtext) */
    FP_EF_FOSTERED = 128,   /* foster-parented out of a table: the spec's parent is the nearest
                             * ancestor table's parent (or the nearest template, whichever is
                             * closer); the index keeps it inside the table's range */
};

/* One element of the flat index, in document (start tag) order.
 * The descendants of element i are exactly the elements i+1 .. last. */
typedef struct {
    uint32_t start;       /* offset of the start tag's '<' */
    uint32_t inner_start; /* offset just after the start tag's '>' */
    uint32_t inner_end;   /* offset of the end tag's '<', or where it was closed */
    uint32_t end;         /* offset just after the end tag's '>', or == inner_end */
    int32_t parent;       /* index of the parent element, -1 at top level */
    uint32_t last;        /* index of the last descendant (own index if none) */
    uint16_t tag;         /* tag id: < FP_TAG__COUNT known, else interned per document */
    uint16_t depth;       /* 0 at top level */
    uint8_t closed;       /* FP_CLOSED_* */
    uint8_t flags;        /* FP_EF_* */
    uint16_t attr_bits;   /* its start tag's attribute names, one bit each (fp_attr_bit): a
                           * name whose bit is clear is not there; 0 without attributes */
} fp_elem;

/* e is an SVG or MathML element */
static inline int
fp_foreign(const fp_elem *e)
{
    return (e->flags & (FP_EF_SVG | FP_EF_MATHML)) != 0;
}

/* e is the HTML element of tag id `tag`: an SVG <title> or a MathML <template>
 * shares the name and none of the rules */
static inline int
fp_html_is(const fp_elem *e, int tag)
{
    return e->tag == tag && !fp_foreign(e);
}

/* A parse error the tokenizer or tree builder reported (doc.errors). */
typedef struct {
    uint32_t offset;
    uint16_t code;        /* index into fp_error_names */
} fp_error;

extern const char *const fp_error_names[];

/* A comment (doc.comments): "<!--data-->", or a bogus comment ("<!x>",
 * "<?1>", "</ x>") whose data is what the tokenizer puts in it; or a
 * processing instruction (doc.processing_instructions: "<?target data?>"),
 * which the tree builder inserts where it inserts comments. */
typedef struct {
    uint32_t start;       /* the '<' */
    uint32_t data, data_end;
    uint32_t target, target_end;  /* a processing instruction's target; target_end 0 for a comment */
} fp_comment;

/* Growable byte buffer; owned by whoever declared it, freed with fp_buf_free.
 * It may start in the caller's storage ({small, 0, sizeof small, 1}): the
 * first growth moves it to the heap. */
typedef struct {
    uint8_t *data;
    size_t len, cap;
    int borrowed;         /* data is the caller's storage, not to be freed */
} fp_buf;

int fp_buf_reserve(fp_buf *b, size_t extra); /* 0 on success, -1 on ENOMEM */
/* inline: text decoding and selector results append a few bytes at a time */
static inline int
fp_buf_append(fp_buf *b, const void *p, size_t n)
{
    if (b->len + n > b->cap && fp_buf_reserve(b, n) < 0)
        return -1;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    return 0;
}
/* cp as UTF-8 at o, which has room for 4 bytes: the number of bytes written */
static inline size_t
fp_utf8_write(uint8_t *o, uint32_t cp)
{
    if (cp < 0x80) {
        o[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (uint8_t)(0xC0 | (cp >> 6));
        o[1] = (uint8_t)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (uint8_t)(0xE0 | (cp >> 12));
        o[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (uint8_t)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (uint8_t)(0xF0 | (cp >> 18));
    o[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (uint8_t)(0x80 | (cp & 0x3F));
    return 4;
}
int fp_buf_append_utf8(fp_buf *b, uint32_t cp);
void fp_buf_free(fp_buf *b);

/* Names of tags unknown to the generated table, interned once per document. */
typedef struct {
    uint8_t *chars;       /* lower-cased names (fp_name_fold's), back to back */
    uint32_t *offsets;    /* name k is chars[offsets[k] .. offsets[k+1]) */
    uint32_t count, cap, chars_len, chars_cap;
    uint32_t *slots;      /* open-addressing table of k+1 (0 = empty) */
    uint32_t nslots;
} fp_names;

enum { FP_RECOVERY_HTML5 = 0, FP_RECOVERY_NONE = 1 };

/* fp_options.context: a tag id, with a namespace bit for "svg desc" / "math mi" contexts */
#define FP_CTX_SVG 0x4000u
#define FP_CTX_MATHML 0x8000u
#define FP_CTX_TAG_MASK 0x3FFFu

typedef struct {
    size_t max_size;      /* bytes */
    uint32_t max_depth;   /* open elements */
    uint8_t recovery;     /* FP_RECOVERY_* */
    uint8_t scripting;    /* 1: <noscript> content is raw text, as in a browser with JS on */
    uint8_t legacy;       /* 1: bytes are an ASCII-compatible legacy encoding, not UTF-8 */
    uint8_t dbcs;         /* FP_DBCS_*: a legacy encoding whose second bytes may be ASCII letters */
    uint16_t context;     /* parse_fragment context tag id, 0 for a whole document */
} fp_options;

/* fp_options.dbcs: a legacy encoding with double-byte characters whose second
 * byte may be an ASCII letter, which folding a name's case must leave alone
 * ("\x81\x41" and "\x81\x61" are two Shift_JIS characters, 、 and ∥) */
enum {
    FP_DBCS_NONE = 0,   /* UTF-8, single-byte encodings, EUC-JP (second bytes 0xA1 and up) */
    FP_DBCS_SJIS,       /* Shift_JIS: lead bytes 0x81-0x9F and 0xE0-0xFC */
    FP_DBCS_BIG5,       /* the rest: lead bytes 0x81-0xFE */
    FP_DBCS_GB,         /* GBK and gb18030 */
    FP_DBCS_KR,         /* EUC-KR */
};
/* The FP_DBCS_* of a WHATWG encoding name. */
int fp_dbcs_of(const char *name);
/* A tag or attribute name's bytes with ASCII upper case folded, but for the
 * second bytes of double-byte characters (fp_options.dbcs); out holds len bytes. */
void fp_name_fold(int dbcs, const uint8_t *raw, size_t len, uint8_t *out);

/* A later <html> or <body> start tag whose attributes the tree builder adds to
 * the element's (13.2.6.4.7, "in body": those it does not have yet). The
 * attribute functions read them after the element's own, in document order;
 * consumers keep the first of a name, which makes the spec's merge. */
typedef struct {
    uint32_t elem;        /* the html or body element */
    uint32_t attrs, end;  /* the tag's bytes after its name, up to just past its '>' */
} fp_merged_tag;

/* A change of the form element pointer (fp_doc.form_ptr). */
typedef struct {
    uint32_t from;        /* the first element created after it */
    int32_t form;         /* the form it names, -1: none */
} fp_form_change;

typedef struct {
    const uint8_t *buf;   /* not owned: the binding keeps the source object alive */
    size_t len;
    fp_elem *elems;       /* owned */
    uint32_t n;
    fp_names names;       /* owned */
    fp_error *errors;     /* owned */
    uint32_t nerrors, errors_cap;
    fp_comment *comments; /* owned, in document order */
    uint32_t ncomments, comments_cap;
    fp_merged_tag *merged;  /* owned, by element, then in document order: later <html>/<body>
                             * tags' attributes */
    uint32_t nmerged, merged_cap;
    fp_form_change *form_ptr;  /* owned: the parser's form element pointer as it changed, in
                                * element order; a form-associated element belongs to the form it
                                * names when created (13.2.6.1), outside that form too:
                                * <div><form></div><input> */
    uint32_t nform_ptr, form_ptr_cap;
    uint32_t doctype_name, doctype_name_end;  /* the name of the doctype the tree builder took */
    uint8_t has_doctype;
    uint8_t quirks;       /* quirks mode (13.2.6.4.1): class and id selectors ignore ASCII case */
    uint8_t html_after_text;  /* the <html> indexed came after text that began the body
                               * ("x<html> y") or after elements ("<meta><html> y"):
                               * whitespace after its tag is text */
    uint32_t root;        /* the root element (:root, doc.root): 0, or a <html> indexed after
                           * top-level elements ("<meta><html lang=en>") */
    uint32_t frameset_from;  /* after the start tag of the frameset that replaced the body: text
                              * from there on is in the frameset modes (whitespace only); 0: none */
    uint32_t removed_from;   /* with frameset_from: where the body that frameset removed began;
                              * its elements are not indexed, its text up to the frameset is none */
    uint32_t head_end;       /* after the </head> of a head "after head" put elements back into
                              * (</head>\n<script>): text past it in the head's range is the
                              * html element's, after the head; 0: none */
    uint32_t tail_from;      /* the </body> or </html> the open elements ended at, when only
                              * whitespace, comments and end tags followed it: its text is
                              * the innermost of them's, as the DOM inserts it; 0: none */
    uint32_t tail_elem;      /* with tail_from: that innermost element */
    uint32_t *clone_ws;      /* owned: where each run of whitespace directly in a table part
                              * starts that went into a formatting element's clone fostered
                              * before the table (the spec's current node then), in order */
    uint32_t nclone_ws, clone_ws_cap;
    fp_options opts;
    size_t fail_offset;   /* where a limit was hit (FP_ETOOBIG / FP_ETOODEEP) */
    int fosters;          /* text.c's cache: whether foster parenting moved anything out of
                           * a table (0: not asked yet, 1: no, 2: yes); atomic, any thread */
} fp_doc;

/* ---- parse.c ---- */
/* Fills doc (which the caller zeroed). On failure everything is freed and the
 * status says why. Safe without the GIL: its only global state is the pool of
 * working arrays (scratch.c), taken and given back atomically. */
fp_status fp_parse(fp_doc *doc, const uint8_t *buf, size_t len, const fp_options *opts);
void fp_doc_free(fp_doc *doc);

/* ---- errors_scan.c ---- */
/* Every parse error of doc: the parse's own (doc->errors) and the tokenizer's
 * it does not look for, found by a scan of the source, sorted by offset. *out
 * is the caller's to free; -1 when out of memory. */
int fp_doc_all_errors(const fp_doc *doc, fp_error **out, uint32_t *count);

/* ---- scratch.c ---- */
/* Frees the working arrays kept between parses (at module teardown). */
void fp_scratch_release(void);

/* ---- simulator.c ---- */
/* The spec's parent of element i: elems[i].parent, except for a foster-parented
 * element (FP_EF_FOSTERED), whose parent is the enclosing table's parent (or
 * the nearest template). -1 at top level. The index keeps a fostered element
 * at its source position inside the table's range, so descendants stay
 * contiguous; elems[i].depth is already the spec tree's depth. */
int32_t fp_dom_parent(const fp_doc *doc, uint32_t i);

/* ---- tags.c ---- */
/* Tag id of a lower- or mixed-case name for this document, or -1 when the
 * document has no element of that name (known ids are always returned). */
int fp_tag_lookup(const fp_doc *doc, const uint8_t *name, size_t len);
/* The id of a name (any case) in the generated tag table, the same in every
 * document, or 0 when the table does not know it. */
int fp_tag_known(const uint8_t *name, size_t len);
/* The id a document interned for a name the table does not know, or -1. */
int fp_tag_interned(const fp_doc *doc, const uint8_t *name, size_t len);
/* The lower-case name of a tag id (not NUL-terminated). */
const uint8_t *fp_tag_name(const fp_doc *doc, uint16_t tag, size_t *len);
/* For a legacy document: a tag name that holds U+FFFD's UTF-8 may hold it
 * for a NUL (13.2.5.8) among source bytes the codec decodes. Then the name is
 * read again from the start tag of an element that has it, appended to out as
 * text buffers are written (fp_text: each NUL as 0x00 + U+FFFD's UTF-8), and 1 is
 * returned; 0: fp_tag_name's bytes are the name's; -1: no memory. (Interning
 * the marked form instead would make the parse loop's end tag check look for
 * the mark.) */
int fp_tag_name_marked(const fp_doc *doc, uint16_t tag, fp_buf *out);

/* ---- tokenizer_tag.c: attributes, re-scanned lazily from the start tag ---- */
typedef struct {
    uint32_t name_start, name_len;   /* raw bytes; compare ASCII-case-insensitively */
    uint32_t value_start, value_len; /* raw bytes, entities not decoded */
    uint8_t has_value;               /* 0 for <x a>, 1 for <x a=""> */
} fp_attr;
/* Next attribute of element i's start tag, in source order, duplicates
 * included (consumers keep the first). *cursor starts at 0. Returns 1 and
 * fills *out, or 0 when there are no more. */
int fp_attr_next(const fp_doc *doc, uint32_t i, uint32_t *cursor, fp_attr *out);
/* First attribute named `name` (lower-case ASCII) of element i: 1 found, 0 not.
 * `name` holds no NUL (the tokenizer made each one in a name U+FFFD): callers
 * with a name from the user answer "absent" for one themselves (py_tag.c,
 * py_find.c), so a compare of names as long needs no test for it. */
int fp_attr_find(const fp_doc *doc, uint32_t i, const char *name, size_t len, fp_attr *out);
/* fp_attr_find without reading the value to its end: *value is its first
 * byte (past the opening quote; NULL for <x a>) and *quote the byte that
 * closes it ('"' or '\'', 0 for an unquoted value, which whitespace or the
 * tag's '>' ends). A selector comparing a prefix need not find the end of a
 * long URL. */
int fp_attr_value_at(const fp_doc *doc, uint32_t i, const char *name, size_t len, const uint8_t **value,
                     uint8_t *quote);
/* s[0, n), n <= 8, as 8 bytes compared at once: *word its bytes (zero after
 * them), *fold 0x20 where it has an ASCII letter, *keep 0xFF for its n bytes.
 * OR-ing fold into a word folds an upper-case letter there onto its lower
 * case, and no other byte onto a letter. */
static inline void
fp_word8(const uint8_t *s, size_t n, uint64_t *word, uint64_t *fold, uint64_t *keep)
{
    uint8_t w[8] = {0}, f[8] = {0}, k[8] = {0};
    for (size_t j = 0; j < n && j < 8; j++) {
        uint8_t b = s[j];
        w[j] = b;
        f[j] = (uint8_t)(b | 0x20) >= 'a' && (uint8_t)(b | 0x20) <= 'z' ? 0x20 : 0;
        k[j] = 0xFF;
    }
    memcpy(word, w, 8);
    memcpy(fold, f, 8);
    memcpy(keep, k, 8);
}

/* An attribute name prepared once for a lookup in many elements (a selector's
 * prefilter): a name of up to 8 bytes, none of them upper case or one that
 * ends a name, is compared with the first attribute in one 8-byte load. */
typedef struct {
    const char *name;
    size_t len;
    uint64_t want, fold, keep;   /* the name's bytes; 0x20 where a letter; the len bytes' mask */
    int wide;                    /* the 8-byte compare applies */
} fp_attr_key;
void fp_attr_key_init(fp_attr_key *k, const char *name, size_t len);
/* fp_attr_value_at for a caller that has seen the name's Bloom bit set in
 * element i's attr_bits (a selector's prefilter): the bit is not tested again. */
int fp_attr_value_at_key(const fp_doc *doc, uint32_t i, const fp_attr_key *k, const uint8_t **value,
                         uint8_t *quote);
/* The form the parser's form element pointer named when element i was created
 * (fp_doc.form_ptr), or -1. The caller checks that i is form-associated and
 * not in a template's contents, where the pointer is not used. */
int32_t fp_parser_form(const fp_doc *doc, uint32_t i);
/* Whether element i takes attributes from a later <html> or <body> tag too (fp_merged_tag). */
int fp_attr_merged(const fp_doc *doc, uint32_t i);
/* Whether element i's start tag has the attribute `name` (lower-case ASCII):
 * from the Bloom bits alone when they can tell, else by fp_attr_find. */
int fp_attr_present(const fp_doc *doc, uint32_t i, const char *name, size_t len);

/* NOTE: the attribute Bloom filter. Each element keeps one bit per attribute
 * name of its start tag (fp_elem.attr_bits), chosen by the name's first byte
 * (ASCII case folded) and its length: set while the tokenizer steps over the
 * names anyway, for a few instructions a name. A query for an attribute whose
 * bit is clear skips the element without reading its tag: `[itemprop]` over a
 * page reads 1 start tag in 13 instead of all of them (16 bits: ~6% of the
 * elements without a name pass on real pages). A raw name is compared byte
 * for byte but for ASCII case, so equal names have equal bits; the exception
 * is a raw NUL, which names spell as the 3 bytes of U+FFFD (fp_attr_find does
 * not filter such names).
 *
 * One bit is exact: href owns bit 4, and any other name that falls on it
 * moves to bit 5. That bit set means the attribute is there, so `a[href]` or
 * `href=True` answer without parsing the start tag (fp_attr_present): on the
 * links of real pages, half the selector's work. One more compare per name
 * falling on bit 4; each further exact name cost the parse about 1%. */
enum { FP_ATTR_HREF_BIT = 4 };

static inline unsigned
fp_attr_hash(const uint8_t *name, size_t len)
{
    return ((name[0] | 0x20u) + (unsigned)len * 3u) & 15;
}

/* name, in any ASCII case, is "href" (OR 0x20 folds only letters onto these) */
static inline int
fp_attr_is_href(const uint8_t *name, size_t len)
{
    uint32_t w;
    if (len != 4)
        return 0;
    memcpy(&w, name, 4);
    w |= 0x20202020u;
    return memcmp(&w, "href", 4) == 0;
}

static inline uint16_t
fp_attr_bit(const uint8_t *name, size_t len)
{
    unsigned h = fp_attr_hash(name, len);
    if (h == FP_ATTR_HREF_BIT && !fp_attr_is_href(name, len))
        h++;
    return (uint16_t)(1u << h);
}

/* s[0..n) holds U+FFFD (UTF-8 EF BF BD), which may stand for a raw NUL */
static inline int
fp_has_replacement_char(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i + 2 < n; i++)
        if (s[i] == 0xEF && s[i + 1] == 0xBF && s[i + 2] == 0xBD)
            return 1;
    return 0;
}

/* ---- entities.c ---- */
/* Decode the character reference at p[0] == '&' (p < end). On success returns
 * the number of bytes consumed and stores 1 or 2 code points in cp[] and their
 * count in *ncp; returns 0 when p does not start a reference (emit '&' as is).
 * in_attribute applies the spec's historical rule for names without ';'. */
size_t fp_entity_decode(const uint8_t *p, const uint8_t *end, int in_attribute,
                        uint32_t cp[2], int *ncp);
/* The digits of the numeric reference at p ("&#", p + 2 <= end): where they end,
 * where they start (*digits; the same place when there are none) and their
 * value (*value, which stops growing past 0x10FFFF). */
const uint8_t *fp_entity_digits(const uint8_t *p, const uint8_t *end, const uint8_t **digits, uint32_t *value);

/* ---- text.c: decoded text, written as UTF-8 to a buffer ----
 * For legacy documents every code point that did not come from the source
 * bytes (references, U+FFFD) is written as a 0x00 byte followed by its UTF-8
 * encoding, but for an ASCII one after an ASCII byte (or at the start), which
 * is written as itself; literal runs stay in the source encoding; the binding
 * decodes. FP_TEXT_BREAK (0x00 0xFF, no code point's UTF-8) ends a literal
 * run that must be decoded apart from the next (text.c, append). */
#define FP_TEXT_BREAK "\x00\xFF"
typedef struct {
    const uint8_t *sep; size_t sep_len;  /* inserted between text nodes */
    int strip;                           /* strip ASCII whitespace per node, drop empty nodes */
    const uint16_t *skip; size_t nskip;  /* tag ids whose subtrees are left out */
    int skip_html_only;                  /* ... when the element is an HTML one (not SVG or MathML) */
    int own;                             /* only the element's own text nodes, no child's */
    int skip_directed;                   /* leave out HTML elements with dir=ltr|rtl|auto (dir=auto) */
    size_t stop_after;                   /* > 0: stop at the first element boundary once the text
                                          * holds this many bytes (a prefix of it: without strip
                                          * and sep) */
} fp_text_opts;
int fp_text(const fp_doc *doc, uint32_t i, const fp_text_opts *o, fp_buf *out);
/* fp_text of element i (-1: the document) that also records, for i and every element j
 * whose text it walks, where j's own fp_text lies in out: [start[k], end[k]) with k = j - i
 * (k = j for the document), so the arrays need only i's subtree's room. The other entries
 * (skipped subtrees) are left as they were. */
int fp_text_ranges(const fp_doc *doc, int32_t i, const fp_text_opts *o, fp_buf *out, uint32_t *start,
                   uint32_t *end);
/* 1 when element i's text (without strip) is its source bytes [*start, *end)
 * as they are: an element without child elements, not raw text, whose content
 * holds no '<', '&', CR or NUL. Most link labels; the caller decodes them
 * straight from the source; *ascii says whether those bytes are all ASCII.
 * 0: fp_text must build the text. */
int fp_text_is_source(const fp_doc *doc, uint32_t i, uint32_t *start, uint32_t *end, int *ascii);
/* Whether foster parenting moves content out of element i's range, as text
 * reads it: i is a table part. Its runs of text holding more than whitespace
 * and its FP_EF_FOSTERED children are then not its content: text reads them
 * before the table when i is an HTML table or a row group or row in one, else
 * (in a template or a fragment with no table) after the outermost row group
 * or row (text.c). */
enum { FP_TEXT_STAYS, FP_TEXT_MOVES_BEFORE, FP_TEXT_MOVES_AFTER };
int fp_text_moves(const fp_doc *doc, int32_t i);
/* Text of the whole document (i = -1 semantics): every top-level element and text. */
int fp_doc_text(const fp_doc *doc, const fp_text_opts *o, fp_buf *out);
/* Source bytes [start, end) as characters, no references decoded: newlines
 * normalised, NUL -> U+FFFD (comment data, doctype names). */
int fp_literal_text(const fp_doc *doc, uint32_t start, uint32_t end, fp_buf *out);
/* Attribute value with references decoded (attribute rules), NUL -> U+FFFD. */
int fp_attr_value(const fp_doc *doc, const fp_attr *a, fp_buf *out);
/* Collapses whitespace in UTF-8 text: each run of what str.isspace() calls
 * whitespace (ASCII and Unicode spaces) becomes one U+0020, none is left at
 * either end, as ' '.join(text.split()). Writes to out (room for n bytes;
 * out == s is allowed: it never writes ahead of what it read). Returns the
 * length written. */
size_t fp_collapse_ws(const uint8_t *s, size_t n, uint8_t *out);

/* ---- query.c: find / find_all ---- */
typedef struct {
    const char *name; size_t name_len;   /* lower-case attribute name */
    const uint8_t *value; size_t value_len; /* NULL: attribute must only be present */
} fp_attr_query;

typedef struct {
    int tag;                              /* -1: any name, or one of tags[] when ntags */
    const uint16_t *tags; size_t ntags;   /* find_all(["h1", "h2"]): the ids of those names */
    const uint8_t *id; size_t id_len;     /* NULL: any */
    const uint8_t *cls; size_t cls_len;   /* class tokens, all of them; NULL: any */
    const fp_attr_query *attrs; size_t nattrs;
} fp_query;

int fp_match(const fp_doc *doc, uint32_t i, const fp_query *q);
/* Whether the whitespace-separated list v[0 .. n) holds the token t[0 .. tn) (select_value.c),
 * ASCII case ignored with icase (a class, cls=, a selector's ~=). */
int fp_has_token(const uint8_t *v, size_t n, const uint8_t *t, size_t tn, int icase);
/* Elements in [first, last] (inclusive) matching q, in document order, at most
 * `limit` of them, written to out (capacity >= limit). Returns the count. */
uint32_t fp_find(const fp_doc *doc, uint32_t first, uint32_t last, const fp_query *q,
                 uint32_t *out, uint32_t limit);

/* ---- scan.c ---- */
/* First '<' in [p, end), or end. SIMD where the build allows it. */
const uint8_t *fp_scan_lt(const uint8_t *p, const uint8_t *end);
/* First a or b in [p, end), or end. */
const uint8_t *fp_scan_either(const uint8_t *p, const uint8_t *end, uint8_t a, uint8_t b);
size_t fp_count_byte(const uint8_t *p, size_t n, uint8_t c);
/* First byte in [p, end) that decoding text changes: CR, NUL, '&' with
 * FP_STOP_AMP (references), '<' with FP_STOP_LT (markup); or end. Bytes up to
 * limit (>= end) may be read. At end, *ascii (unless NULL) says whether all
 * the bytes were ASCII (which then need no decoding at all). */
enum { FP_STOP_AMP = 1, FP_STOP_LT = 2 };
const uint8_t *fp_scan_special(const uint8_t *p, const uint8_t *end, const uint8_t *limit, int stops, int *ascii);
/* Whether an attribute value's bytes [raw, raw + len) of d read as they
 * decode (no reference, CR or NUL): selectors and find compare them as they are */
static inline int
fp_value_is_raw(const fp_doc *d, const uint8_t *raw, size_t len)
{
    return fp_scan_special(raw, raw + len, d->buf + d->len, FP_STOP_AMP, NULL) == raw + len;
}
const char *fp_scan_impl(void);  /* "sse2", "neon" or "portable" */

/* utf8.c: 0 not UTF-8, 1 pure ASCII, 2 valid UTF-8 with non-ASCII bytes (no
 * overlongs, surrogates or code points above U+10FFFF). The portable variant
 * never takes the SIMD path (tests compare the two). */
int fp_utf8_check(const uint8_t *p, size_t n);
/* The first byte >= 0x80 in [p, end), or end. */
const uint8_t *fp_skip_ascii(const uint8_t *p, const uint8_t *end);
/* The UTF-8 sequence at p (p < end), as fp_utf8_check reads it: its length,
 * with its code point in *cp, or 0 when it is not valid UTF-8. */
size_t fp_utf8_decode(const uint8_t *p, const uint8_t *end, uint32_t *cp);
int fp_utf8_check_portable(const uint8_t *p, size_t n);

/* utf16.c: p[0 .. n) (UTF-16LE, or BE with big_endian, no BOM) as UTF-8 in
 * out, which has room for FP_UTF16_TO_UTF8_CAP(n) bytes; returns the length.
 * Errors become U+FFFD as Python's "replace" error handler makes them. */
#define FP_UTF16_TO_UTF8_CAP(n) ((n) / 2 * 3 + 3)
size_t fp_utf16_to_utf8(const uint8_t *p, size_t n, int big_endian, uint8_t *out);

/* iso2022jp.c: p[0 .. n) (ISO-2022-JP) as UTF-8, appended to out; *errors is
 * the number of U+FFFD written for malformed bytes. 0, or -1 on ENOMEM. */
int fp_iso2022jp_to_utf8(const uint8_t *p, size_t n, fp_buf *out, size_t *errors);

/* guess.c: the encoding guess's sample (fastparse/_encoding_guess.py): the runs
 * of text between tags that hold non-ASCII bytes, found in the first
 * FP_GUESS_SCAN bytes, each from its first non-ASCII byte to the byte after its
 * last (at most FP_GUESS_PART bytes), a line each, at most FP_GUESS_SAMPLE
 * bytes. out has room for FP_GUESS_SAMPLE + FP_GUESS_PART bytes; returns the
 * sample's length. */
#define FP_GUESS_SAMPLE (1u << 15)
#define FP_GUESS_PART (1u << 11)
#define FP_GUESS_SCAN (1u << 20)
#define FP_GUESS_BLOCK (1u << 12)  /* the sample is searched around blocks that are not ASCII */
size_t fp_guess_sample(const uint8_t *data, size_t len, uint8_t *out);
/* counts[b]: how many of p[0 .. n) are b */
void fp_byte_counts(const uint8_t *p, size_t n, size_t counts[256]);
/* p[0 .. n) read as UTF-8 with each maximal ill-formed subpart one U+FFFD (the
 * Encoding Standard's decoder, and Python's "replace"): counts[0] its non-ASCII
 * characters, counts[1] the U+FFFD it writes for bad bytes, counts[2] the U+FFFD
 * it reads as such (EF BF BD), which counts[0] includes */
void fp_utf8_counts(const uint8_t *p, size_t n, size_t counts[3]);
/* The Big5 test's pairs: a lead byte A1-F9 and a trail byte 40-7E or A1-FE, taken
 * left to right without overlap. counts[0] the pairs, counts[1] those of Big5's
 * common characters (lead A4-C6), counts[2] those whose trail byte is ASCII */
void fp_big5_pairs(const uint8_t *p, size_t n, size_t counts[3]);
/* How many of p[0 .. n) stand in runs of at least min_run bytes that are all members */
size_t fp_bytes_in_runs(const uint8_t *p, size_t n, const uint8_t member[256], size_t min_run);
/* How many of p[0 .. n)'s member bytes have no neighbour byte just before them
 * (or, with after, just after them): Thai's marks without a consonant or mark
 * to stand on, its vowels written before a consonant without one after */
size_t fp_unpaired_bytes(const uint8_t *p, size_t n, const uint8_t member[256], const uint8_t neighbour[256],
                         int after);
/* counts[r.counter] grows by one for each of the n characters (a Python str's
 * storage, kind bytes a character) in each range r of ranges, all of them at or
 * above U+0080 (at most 32 ranges); a counter may take several ranges, which
 * must not overlap */
typedef struct {
    uint32_t lo, hi;      /* code points, both included */
    uint32_t counter;
} fp_char_range;
void fp_char_counts(const void *chars, int kind, size_t n, const fp_char_range *ranges, size_t nranges,
                    size_t *counts);
/* The n characters' code points (stored as fp_char_counts reads them) that fall
 * in one of the ranges (their counters unread), in order, to out, which has room
 * for n; returns how many */
size_t fp_chars_in(const void *chars, int kind, size_t n, const fp_char_range *ranges, size_t nranges,
                   uint32_t *out);

#endif
