/* select_index.c — the per-document tag index (select.h): for each tag id,
 * its elements in document order, template contents left out. Built once per
 * document by the binding; lets `div.x` visit only the <div> elements. */
#include <string.h>

#include "select.h"

size_t fp_select_index_size(const fp_doc *doc)
{
    uint32_t ntags = 0;
    for (uint32_t e = 0; e < doc->n; e++)
        if (doc->elems[e].tag >= ntags)
            ntags = doc->elems[e].tag + 1u;
    return sizeof(uint32_t) * (2 + (size_t)ntags + doc->n);
}

void fp_select_index_build(const fp_doc *doc, uint32_t *out)
{
    const fp_elem *el = doc->elems;
    uint32_t ntags = (uint32_t)(fp_select_index_size(doc) / sizeof(uint32_t)) - 2 - doc->n;
    int tmpl = fp_tag_lookup(doc, (const uint8_t *)"template", 8);
    uint32_t *off = out + 1, *list = out + 2 + ntags;
    memset(out, 0, sizeof(uint32_t) * (2 + (size_t)ntags));
    out[0] = ntags;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t e = 0; e < doc->n; e++) {
            if (pass == 0)
                off[el[e].tag + 1]++;
            else
                list[off[el[e].tag]++] = e;
            if (el[e].tag == tmpl)
                e = el[e].last; /* its contents are never candidates from outside */
        }
        if (pass == 0)
            for (uint32_t t = 0; t < ntags; t++)
                off[t + 1] += off[t];
    }
    /* the second pass advanced each offset to the next tag's start: shift back */
    for (uint32_t t = ntags; t > 0; t--)
        off[t] = off[t - 1];
    off[0] = 0;
}

