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

static int
starts_with_ci(const uint8_t *p, const uint8_t *q, const char *lower)
{
    size_t n = strlen(lower);
    if ((size_t)(q - p) < n)
        return 0;
    for (size_t k = 0; k < n; k++)
        if (fp_lower(p[k]) != (uint8_t)lower[k])
            return 0;
    return 1;
}

static int
equals_ci(const uint8_t *p, const uint8_t *q, const char *lower)
{
    return (size_t)(q - p) == strlen(lower) && starts_with_ci(p, q, lower);
}

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

static void decide_quirks(fp_sim *s, const uint8_t *p, const uint8_t *q);

int
fp_sim_doctype(fp_sim *s, const uint8_t *p, const uint8_t *q)
{
    /* only in the "initial" insertion mode: nothing but whitespace and comments before */
    if (s->doctype_seen || s->doc->n || s->ctx || s->body_seen)
        return 0;
    s->doctype_seen = 1;
    decide_quirks(s, p, q);
    return 1;
}

static void
decide_quirks(fp_sim *s, const uint8_t *p, const uint8_t *q)
{
    while (p < q && fp_is_ws(*p))
        p++;
    const uint8_t *name = p;
    while (p < q && !fp_is_ws(*p))
        p++;
    if (!equals_ci(name, p, "html")) {
        s->quirks = 1;
        return;
    }
    while (p < q && fp_is_ws(*p))
        p++;
    const uint8_t *pub = NULL, *pub_end = NULL, *sys = NULL, *sys_end = NULL;
    int has_pub = 0, has_sys = 0;
    if (starts_with_ci(p, q, "public")) {
        p = doctype_id(p + 6, q, &pub, &pub_end, &has_pub);
        p = doctype_id(p, q, &sys, &sys_end, &has_sys);
        if (!has_pub) {
            s->quirks = 1;   /* missing quote: force-quirks */
            return;
        }
    } else if (starts_with_ci(p, q, "system")) {
        p = doctype_id(p + 6, q, &sys, &sys_end, &has_sys);
        if (!has_sys) {
            s->quirks = 1;
            return;
        }
    }
    s->quirks = 0;
    if (has_pub) {
        if (equals_ci(pub, pub_end, "-//w3o//dtd w3 html strict 3.0//en//") ||
            equals_ci(pub, pub_end, "-/w3c/dtd html 4.0 transitional/en") || equals_ci(pub, pub_end, "html"))
            s->quirks = 1;
        for (size_t k = 0; k < sizeof quirky_public_prefixes / sizeof *quirky_public_prefixes; k++)
            if (starts_with_ci(pub, pub_end, quirky_public_prefixes[k]))
                s->quirks = 1;
        if (!has_sys && (starts_with_ci(pub, pub_end, "-//w3c//dtd html 4.01 frameset//") ||
                         starts_with_ci(pub, pub_end, "-//w3c//dtd html 4.01 transitional//")))
            s->quirks = 1;
    }
    if (has_sys && equals_ci(sys, sys_end, "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd"))
        s->quirks = 1;
}
