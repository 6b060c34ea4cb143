/* buf.c — the growable byte buffer text and attribute decoding write into. */
#include <stdlib.h>
#include <string.h>

#include "fp.h"

int
fp_buf_reserve(fp_buf *b, size_t extra)
{
    if (b->len + extra <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra)
        cap *= 2;
    uint8_t *data = realloc(b->borrowed ? NULL : b->data, cap);
    if (!data)
        return -1;
    if (b->borrowed && b->len)
        memcpy(data, b->data, b->len);
    b->borrowed = 0;
    b->data = data;
    b->cap = cap;
    return 0;
}

int
fp_buf_append_utf8(fp_buf *b, uint32_t cp)
{
    uint8_t s[4];
    return fp_buf_append(b, s, fp_utf8_write(s, cp));
}

void
fp_buf_free(fp_buf *b)
{
    if (!b->borrowed)
        free(b->data);
    b->data = NULL;
    b->borrowed = 0;
    b->len = b->cap = 0;
}
