/* simulator.h — the tree-builder simulator's state, shared by simulator.c
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
    FP_SC__COUNT
};

typedef struct {
    int32_t *items;
    uint32_t n, cap;
} fp_istack;

typedef struct {
    fp_doc *doc;
    fp_elem *e;
    uint32_t cap;            /* capacity of doc->elems */
    int32_t top;             /* current node, -1 when nothing is open */
    uint32_t depth;          /* number of open elements */
    int32_t *prev_same;      /* per element: next lower open element with the same tag id */
    uint32_t *foreign_below; /* per element: open foreign elements at push time, itself included */
    uint32_t open_foreign;
    int32_t *open_head;      /* per tag id: topmost open element with that id, -1 */
    uint32_t open_head_cap;
    fp_istack sc[FP_SC__COUNT];
    int32_t html, head, body;        /* the first <html>, <head>, <body> seen, -1 */
    uint8_t head_open;
    uint8_t watch_text;              /* parse.c must report text runs (sim_text) */
    uint8_t ctx_table;               /* fragment parsed in a table context */
    uint8_t ctx_ns;                  /* fragment context namespace: 0, FP_EF_SVG, FP_EF_MATHML */
    uint32_t body_end_lt, body_end_gt, html_end_lt, html_end_gt;
    uint8_t body_end_pending, html_end_pending;
    fp_status status;
} fp_sim;

int fp_sim_init(fp_sim *s, fp_doc *doc, uint32_t cap);
void fp_sim_free(fp_sim *s);
/* A start tag [lt, gt); returns the new element's index, or -1 when the
 * tree builder ignores the tag (check s->status for errors). */
int32_t fp_sim_start(fp_sim *s, const fp_tag_token *t, int tag, uint32_t lt, uint32_t gt);
void fp_sim_end(fp_sim *s, int tag, uint32_t lt, uint32_t gt);
void fp_sim_close_top(fp_sim *s, uint32_t lt, uint32_t gt);  /* end tag of a raw text element */
void fp_sim_text(fp_sim *s, const uint8_t *p, const uint8_t *q);
void fp_sim_eof(fp_sim *s, uint32_t len);
int fp_sim_in_foreign(const fp_sim *s);   /* CDATA sections allowed here */
void fp_sim_error(fp_sim *s, int code, uint32_t offset);

#endif
