/* quirks.c — the "initial" insertion mode's one decision that changes
 * nesting: whether the doctype puts the document in quirks mode (HTML
 * Standard 13.2.6.4.1); in quirks mode <table> does not close an open <p>.
 * The public-identifier lists are the spec's, verbatim. */
#include "simulator.h"

static const char *const quirky_public_prefixes[] = {
    "+//silmaril//dtd html pro v0r11 19970101//", "-//as//dtd html 3.0 aswedit + extensions//",
    "-//advasoft ltd//dtd html 3.0 aswedit + extensions//", "-//ietf//dtd html 2.0 level 1//",
    "-//ietf//dtd html 2.0 level 2//", "-//ietf//dtd html 2.0 strict level 1//",
    "-//ietf//dtd html 2.0 strict level 2//", "-//ietf//dtd html 2.0 strict//", "-//ietf//dtd html 2.0//",
    "-//ietf//dtd html 2.1e//", "-//ietf//dtd html 3.0//", "-//ietf//dtd html 3.2 final//",
    "-//ietf//dtd html 3.2//", "-//ietf//dtd html 3//", "-//ietf//dtd html level 0//",
    "-//ietf//dtd html level 1//", "-//ietf//dtd html level 2//", "-//ietf//dtd html level 3//",
    "-//ietf//dtd html strict level 0//", "-//ietf//dtd html strict level 1//",
    "-//ietf//dtd html strict level 2//", "-//ietf//dtd html strict level 3//",
    "-//ietf//dtd html strict//", "-//ietf//dtd html//", "-//metrius//dtd metrius presentational//",
    "-//microsoft//dtd internet explorer 2.0 html strict//", "-//microsoft//dtd internet explorer 2.0 html//",
    "-//microsoft//dtd internet explorer 2.0 tables//", "-//microsoft//dtd internet explorer 3.0 html strict//",
    "-//microsoft//dtd internet explorer 3.0 html//", "-//microsoft//dtd internet explorer 3.0 tables//",
    "-//netscape comm. corp.//dtd html//", "-//netscape comm. corp.//dtd strict html//",
    "-//o'reilly and associates//dtd html 2.0//", "-//o'reilly and associates//dtd html extended 1.0//",
    "-//o'reilly and associates//dtd html extended relaxed 1.0//",
    "-//sq//dtd html 2.0 hotmetal + extensions//",
    "-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
    "-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//",
    "-//spyglass//dtd html 2.0 extended//", "-//sun microsystems corp.//dtd hotjava html//",
    "-//sun microsystems corp.//dtd hotjava strict html//", "-//w3c//dtd html 3 1995-03-24//",
    "-//w3c//dtd html 3.2 draft//", "-//w3c//dtd html 3.2 final//", "-//w3c//dtd html 3.2//",
    "-//w3c//dtd html 3.2s draft//", "-//w3c//dtd html 4.0 frameset//", "-//w3c//dtd html 4.0 transitional//",
    "-//w3c//dtd html experimental 19960712//", "-//w3c//dtd html experimental 970421//",
    "-//w3c//dtd w3 html//", "-//w3o//dtd w3 html 3.0//", "-//webtechs//dtd mozilla html 2.0//",
    "-//webtechs//dtd mozilla html//",
};

/* a quoted identifier after a keyword; sets *found */
static const uint8_t *
doctype_id(const uint8_t *p, const uint8_t *q, const uint8_t **start, const uint8_t **stop, int *found)
{
    while (p < q && fp_is_ws(*p))
        p++;
    *found = 0;
    if (p < q && (*p == '"' || *p == '\'')) {
        uint8_t quote = *p++;
        *start = p;
        while (p < q && *p != quote)
            p++;
        *stop = p;
        *found = 1;
        if (p < q)
            p++;
    }
    return p;
}

static void decide_quirks(fp_sim *s, const uint8_t *name, const uint8_t *p, const uint8_t *q);

/* The doctype's data [p, q) (after "<!DOCTYPE", before '>'); its name is the
 * first run of non-whitespace, which doc.doctype reports. */
int
fp_sim_doctype(fp_sim *s, const uint8_t *p, const uint8_t *q)
{
    /* only in the "initial" insertion mode: nothing but whitespace and comments before */
    if (s->doctype_seen || s->doc->n || s->ctx || s->body_seen)
        return 0;
    s->doctype_seen = 1;
    while (p < q && fp_is_ws(*p))
        p++;
    const uint8_t *name = p;
    while (p < q && !fp_is_ws(*p))
        p++;
    s->doc->has_doctype = 1;
    s->doc->doctype_name = (uint32_t)(name - s->doc->buf);
    s->doc->doctype_name_end = (uint32_t)(p - s->doc->buf);
    decide_quirks(s, name, p, q);
    return 1;
}

/* 13.2.6.4.1: a doctype other than <!DOCTYPE html>, or with a quirky identifier */
static void
decide_quirks(fp_sim *s, const uint8_t *name, const uint8_t *p, const uint8_t *q)
{
    if (!fp_equals_ci(name, (size_t)(p - name), "html")) {
        s->quirks = 1;
        return;
    }
    while (p < q && fp_is_ws(*p))
        p++;
    const uint8_t *pub = NULL, *pub_end = NULL, *sys = NULL, *sys_end = NULL;
    int has_pub = 0, has_sys = 0;
    if (fp_starts_with_ci(p, (size_t)(q - p), "public")) {
        p = doctype_id(p + 6, q, &pub, &pub_end, &has_pub);
        p = doctype_id(p, q, &sys, &sys_end, &has_sys);
        if (!has_pub) {
            s->quirks = 1;   /* missing quote: force-quirks */
            return;
        }
    } else if (fp_starts_with_ci(p, (size_t)(q - p), "system")) {
        p = doctype_id(p + 6, q, &sys, &sys_end, &has_sys);
        if (!has_sys) {
            s->quirks = 1;
            return;
        }
    }
    s->quirks = 0;
    size_t npub = (size_t)(pub_end - pub), nsys = (size_t)(sys_end - sys);
    if (has_pub) {
        if (fp_equals_ci(pub, npub, "-//w3o//dtd w3 html strict 3.0//en//") ||
            fp_equals_ci(pub, npub, "-/w3c/dtd html 4.0 transitional/en") || fp_equals_ci(pub, npub, "html"))
            s->quirks = 1;
        for (size_t k = 0; k < sizeof quirky_public_prefixes / sizeof *quirky_public_prefixes; k++)
            if (fp_starts_with_ci(pub, npub, quirky_public_prefixes[k]))
                s->quirks = 1;
        if (!has_sys && (fp_starts_with_ci(pub, npub, "-//w3c//dtd html 4.01 frameset//") ||
                         fp_starts_with_ci(pub, npub, "-//w3c//dtd html 4.01 transitional//")))
            s->quirks = 1;
    }
    if (has_sys && fp_equals_ci(sys, nsys, "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd"))
        s->quirks = 1;
}
