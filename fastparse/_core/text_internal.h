/* text_internal.h — what text.c (the walk that writes an element's text) and
 * text_foster.c (the runs and elements foster parenting moved, read before
 * their table) share. */
#ifndef FP_TEXT_INTERNAL_H
#define FP_TEXT_INTERNAL_H

#include "internal.h"

/* templates nested this deep keep their "in column group" answers (text.c) */
enum { COLUMN_GROUP_MEMO = 16 };

typedef struct {
    const fp_doc *d;
    const fp_text_opts *o;
    fp_buf *out;
    size_t node_start;   /* where the current text node's bytes begin in out */
    size_t sep_at;       /* where its separator was written (rolled back if it ends empty) */
    int in_node;
    int drop_ws;         /* whitespace here is not text (before <html>, <head>) until a
                          * character that is not whitespace, which ends those modes */
    int ws_only;         /* "in frameset" and after it: characters but whitespace are dropped */
    int in_tail;         /* reading what followed </body> (put_tail): comments there went to
                          * <html> or the document, so they split no text node */
    int any;             /* a node was written */
    int fail;
    uint32_t *start, *end; /* fp_text_ranges: where each element's text begins and ends in out, */
    uint32_t base;         /* ... element j's at [j - base] */
    int fostering;         /* how many fp_text_put_fostered calls enclose this walk (bounds their
                            * recursion) */
    int ncolumn_group;               /* template_went_column_group's answers for the templates
                                      * that hold the last one asked (-1: a fragment's top) */
    int32_t column_group_template[COLUMN_GROUP_MEMO];
    uint8_t column_group_answer[COLUMN_GROUP_MEMO];
} text_ctx;

/* What the tokenizer makes of a '<' in the data state */
enum {
    LT_CHAR,      /* the '<' is a character */
    LT_TAG,       /* a start or end tag */
    LT_COMMENT,   /* a comment, bogus ones too: a node of its own */
    LT_DOCTYPE,   /* a DOCTYPE: a token that makes no node */
    LT_CDATA,     /* a CDATA section (foreign content): its content is text */
    LT_NO_TOKEN,  /* "</>": no token, no character */
};

/* a table, row group or row: the parts whose text foster parenting moves */
static inline int
fp_text_is_table_part(const fp_elem *e)
{
    return !(e->flags & (FP_EF_SVG | FP_EF_MATHML)) &&
           (e->tag == FP_TAG_TABLE || e->tag == FP_TAG_TBODY || e->tag == FP_TAG_THEAD ||
            e->tag == FP_TAG_TFOOT || e->tag == FP_TAG_TR);
}

/* fp_text_put_fostered's calls nest through the elements they move (a table
 * in a moved <div>, moving its own): past this many, text reads in source order */
enum { FOSTER_NESTING_MAX = 16 };

/* text.c */
const uint8_t *fp_text_token_at(const fp_doc *d, const uint8_t *lt, int cdata_ok, int *kind, fp_tag_token *t,
                                const uint8_t **cs, const uint8_t **ce);
void fp_text_put_data_nodes(text_ctx *c, const uint8_t *p, const uint8_t *q, int32_t i);
void fp_text_end_node(text_ctx *c);
int fp_text_skipped(const text_ctx *c, uint32_t i);
void fp_text_walk(text_ctx *c, int32_t root);

/* text_foster.c */
int fp_text_doc_fosters(const fp_doc *d);
void fp_text_put_table_runs(text_ctx *c, const uint8_t *p, const uint8_t *q, int32_t i, int moved, int after_col);
int fp_text_after_col(const fp_doc *d, int32_t i, int32_t prev);
void fp_text_put_fostered(text_ctx *c, int32_t s, int own);

#endif
