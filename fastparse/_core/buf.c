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
    size_t n;
    if (cp < 0x80) {
        s[0] = (uint8_t)cp;
        n = 1;
    } else if (cp < 0x800) {
        s[0] = (uint8_t)(0xC0 | (cp >> 6));
        s[1] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        s[0] = (uint8_t)(0xE0 | (cp >> 12));
        s[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        s[2] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        s[0] = (uint8_t)(0xF0 | (cp >> 18));
        s[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
        s[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        s[3] = (uint8_t)(0x80 | (cp & 0x3F));
        n = 4;
    }
    return fp_buf_append(b, s, n);
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
