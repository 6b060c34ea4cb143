/* simulator.h — the tree-builder simulator's state, shared by simulator*.c
 * (the nesting rules) and parse.c (the tokenizer loop that feeds it). */
#ifndef FP_SIMULATOR_H
#define FP_SIMULATOR_H

#include "internal.h"

/* Boundary stacks: for each kind, the open elements that stop a search.
 * An element opened later has a larger index, so "t is in scope" is simply
 * "no boundary of that kind has an index above t": O(1) per question. */
enum {
    FP_SC_DEFAULT,     /* has an element in scope */
    FP_SC_LIST,        /* ... in list item scope */
    FP_SC_BUTTON,      /* ... in button scope */
    FP_SC_TABLE,       /* ... in table scope */
    FP_SC_SPECIAL,     /* special elements: "any other end tag" stops at them */
    FP_SC_SPECIAL_LI,  /* special but address, div, p: <li>/<dd>/<dt> stop at them */
    FP_SC_MARKER,      /* td th caption applet object marquee template */
    FP_SC_MODE,        /* table tbody thead tfoot tr td th caption colgroup template: the
                        * topmost one decides the insertion mode (fostered elements do not) */
    FP_SC__COUNT
};

/* Insertion modes that change nesting, as decided by the topmost FP_SC_MODE
 * element (or by a fragment's context when none is open). */
enum {
    FP_MODE_BODY,      /* in body (also in cell) */
    FP_MODE_TABLE,     /* in table */
    FP_MODE_TBODY,     /* in table body */
    FP_MODE_ROW,       /* in row */
    FP_MODE_CELL,      /* in cell */
    FP_MODE_CAPTION,   /* in caption */
    FP_MODE_COLGROUP,  /* in column group */
    FP_MODE_TEMPLATE,  /* in template, before its first start tag decided the mode */
};
/* a mode element's FP_MODE_* lives in its open_bits above the boundary
 * bits (a template's changes once its first start tag decides) */
#define FP_MODE_SHIFT 12
/* fp_sim.form_ptr of a fragment parsed in a <form> (13.4, the fragment parsing algorithm) */
#define FP_FORM_PTR_CONTEXT (-2)

typedef struct {
    int32_t *items;
    uint32_t n, cap;
} fp_istack;

/* The working arrays of a parse (scratch.c keeps them between parses): per
 * element, and the boundary stacks and per-tag chain heads, whose mallocs
 * and frees cost a small page a few percent of its parse. */
typedef struct {
    fp_elem *elems;
    int32_t *prev_same;
    uint32_t *foreign_below;
    uint32_t *open_depth;
    uint16_t *open_bits;
    uint32_t cap;
    fp_istack sc[FP_SC__COUNT];   /* items and cap kept; n is the parse's */
    int32_t *open_head;           /* FP_OPEN_HEAD_CAP entries, or NULL */
} fp_scratch;

/* open_head's size for the known tags and the first unknown names; a document
 * with more names grows its own copy, which is not kept */
#define FP_OPEN_HEAD_CAP (FP_TAG__COUNT + 64)

fp_scratch *fp_scratch_take(uint32_t cap);  /* arrays of at least cap elements, NULL if out of memory */
void fp_scratch_give(fp_scratch *w, uint32_t used);   /* back for the next parse, or freed; used: elements indexed */
int fp_scratch_keeps(uint32_t cap, uint32_t used);   /* whether fp_scratch_give keeps a set */

/* implicitly closed formatting elements the list of active formatting elements may
 * still hold: past this many, the newest are forgotten (their end tags close an
 * open element of their name, as before 2026-12) */
#define FP_GHOSTS_MAX 64

/* markers whose element left the stack without clearing the list up to them
 * (simulator_ghosts.c): past this many, the oldest are forgotten */
#define FP_STALE_MARKERS_MAX 16

typedef struct {
    int32_t elem;     /* the formatting element */
    int32_t marker;   /* the list's last marker before it, open or stale, when it closed; -1: none */
    int32_t under;    /* the current node a reconstruction put its clone on (-1: none), or
                       * FP_GHOST_UNOPENED (simulator_ghosts.c) */
    uint32_t from;    /* ... and the first element opened inside that clone */
} fp_ghost;

typedef struct fp_eof_memo fp_eof_memo;   /* simulator_open_at_end.c's */

typedef struct {
    fp_doc *doc;
    fp_scratch *scratch;     /* owns e, prev_same, foreign_below, open_depth, open_bits */
    fp_elem *e;              /* doc->elems while parsing; parse.c gives the document its own */
    uint32_t cap;            /* capacity of e and the per-element arrays */
    uint32_t cut_from;       /* elements indexed before a <frameset> cut the index back, else 0 */
    int32_t top;             /* current node, -1 when nothing is open */
    uint32_t depth;          /* number of open elements */
    int32_t *prev_same;      /* per element: next lower open element with the same tag id */
    uint32_t *foreign_below; /* per foreign element: open foreign elements at push time, itself included */
    uint32_t *open_depth;    /* per foreign element: open elements below it at push time (fp_elem.depth
                              * is the tree depth, less for fostered subtrees) */
    uint16_t *open_bits;     /* per open element: the boundary stacks it is on (FP_SC_*), its
                              * insertion mode, FP_REMOVED */
    uint16_t attr_bits;      /* fp_elem.attr_bits of the start tag being inserted */
    uint32_t open_foreign;
    int32_t *open_head;      /* per tag id: topmost open element with that id, -1 */
    uint32_t open_head_cap;
    fp_istack sc[FP_SC__COUNT];
    uint16_t html_sc[FP_TAG__COUNT]; /* per known tag: its HTML element's boundary bits, 0xFFFF unknown yet */
    int32_t html, head, body;        /* the first <html>, <head>, <body> seen, -1 */
    uint8_t head_open;
    uint8_t after_head;              /* </head> seen, nothing of the body yet ("after head") */
    uint8_t implied_head_ended;      /* a </head> ended the head the spec implied (no <head> indexed) */
    uint8_t watch_text;              /* parse.c must report text runs (sim_text) */
    uint8_t ctx_table;               /* fragment parsed in a table context */
    uint8_t ctx_ns;                  /* fragment context namespace: 0, FP_EF_SVG, FP_EF_MATHML */
    uint8_t ctx_ip;                  /* fragment context is an integration point: FP_EF_HTML_IP, FP_EF_TEXT_IP */
    uint8_t ctx_mode;                /* FP_MODE_* of a fragment context with nothing open */
    uint16_t ctx;                    /* fragment context tag id, 0 for a document */
    uint8_t quirks;                  /* no doctype or a quirky one: <table> does not close <p> */
    uint8_t doctype_seen;            /* the "initial" mode is over: a doctype or an end tag came */
    uint8_t frameset_ok;             /* the spec's frameset-ok flag */
    uint8_t body_seen;               /* a start tag or text that belongs in body has been seen */
    uint32_t seen_upto;              /* elements below this index were checked for body_seen */
    int32_t tmpl_skip;               /* the template whose content that check is stepping over, -1 */
    int32_t implied_row_cell;        /* the last cell put straight in a table or section (the
                                      * DOM's implied row holds it; simulator_table.c), -1 */
    uint32_t body_from;              /* the index count when text, an ignored tag or a </body>
                                      * began the body; UINT32_MAX until one does */
    uint32_t body_at;                /* ... and its offset in the source */
    uint8_t html_merged;             /* an <html> tag came when none could be indexed: a later one is not */
    uint8_t in_frameset;             /* a <frameset> replaced the body: only frameset content counts */
    int32_t form_ptr;                /* the spec's form element pointer, -1 for none, or
                                      * FP_FORM_PTR_CONTEXT: a form fragment's context, which the
                                      * index does not hold (not recorded in fp_doc.form_ptr) */
    uint32_t removed_open;           /* elements removed from the stack with children still open */
    uint64_t adopt_budget;           /* depths the adoption agency may still rewrite (simulator_adopt.c) */
    uint32_t nghosts;                /* formatting elements closed by another element's end (simulator_ghosts.c) */
    uint64_t ghost_tags;             /* bit (tag id & 63) of each of their names; all while the
                                      * list holds a stale marker (simulator_ghosts.c) */
    uint32_t nstale;                 /* stale markers in the list (simulator_ghosts.c) */
    int32_t stale[FP_STALE_MARKERS_MAX];   /* ... their elements, ascending */
    int32_t head_noscript;           /* <noscript> open in head (scripting off), -1 */
    uint32_t body_end_lt, body_end_gt, html_end_lt, html_end_gt;
    uint8_t body_end_pending, html_end_pending;
    uint8_t body_ended;              /* a </body> or </html> ended "in body" (its errors reported), no content since */
    uint32_t eof_text_end;           /* where open elements' content stops at EOF (parse.c) */
    fp_eof_memo *eof_memo;           /* per element: the check at the body's end, as last made
                                      * (simulator_open_at_end.c); NULL until a long one */
    uint32_t eof_memo_cap;
    fp_status status;
    fp_ghost ghosts[FP_GHOSTS_MAX];  /* last: 1 KiB the common path never reads */
} fp_sim;

int fp_sim_init(fp_sim *s, fp_doc *doc, uint32_t cap);
void fp_sim_free(fp_sim *s);
int fp_sim_give_index(fp_sim *s);  /* the element array (doc->n elements) becomes the document's; -1 if out of memory */
uint32_t fp_sim_used(const fp_sim *s);   /* elements the parse indexed, counting any a <frameset> cut off */
/* A start tag [lt, gt); returns the new element's index, or -1 when the
 * tree builder ignores the tag (check s->status for errors). */
int32_t fp_sim_start(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt);
void fp_sim_end(fp_sim *s, int tag, uint32_t lt, uint32_t gt);
void fp_sim_end_current(fp_sim *s, uint32_t lt, uint32_t gt);  /* the end tag of s->top */
void fp_sim_close_top(fp_sim *s, uint32_t lt, uint32_t gt);  /* end tag of a raw text element */
void fp_sim_text(fp_sim *s, const uint8_t *p, const uint8_t *q, int refs);
/* End of input; text_end < len when the input ends inside a tag (the tokenizer
 * drops that tag: open elements' content stops before it). */
void fp_sim_eof(fp_sim *s, uint32_t text_end);
/* A doctype before the first element (quirks mode decision). */
int fp_sim_doctype(fp_sim *s, const uint8_t *p, const uint8_t *q);  /* 1: the document's doctype (recorded) */
/* Fragment parsing: the context element's tag, namespace flags and integration point flags. */
void fp_sim_context(fp_sim *s, uint16_t ctx, uint8_t ns, uint8_t ip);
int fp_sim_in_foreign(const fp_sim *s);   /* CDATA sections allowed here */
void fp_sim_error(fp_sim *s, int code, uint32_t offset);

#endif
