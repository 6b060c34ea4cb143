/* quirks.c — the "initial" insertion mode's one decision that changes
 * nesting: whether the doctype puts the document in quirks mode (HTML
 * Standard 13.2.6.4.1); in quirks mode <table> does not close an open <p>.
 * The public-identifier lists are the spec's, verbatim. */
#include "simulator.h"

/* the public identifiers that start like these are quirky; each with its
 * length, and a lower-case copy of the identifier is compared to them */
#define P(text) {text, sizeof text - 1}
static const struct {
    const char *text;
    uint8_t len;
} quirky_public_prefixes[] = {
    P("+//silmaril//dtd html pro v0r11 19970101//"), P("-//as//dtd html 3.0 aswedit + extensions//"),
    P("-//advasoft ltd//dtd html 3.0 aswedit + extensions//"), P("-//ietf//dtd html 2.0 level 1//"),
    P("-//ietf//dtd html 2.0 level 2//"), P("-//ietf//dtd html 2.0 strict level 1//"),
    P("-//ietf//dtd html 2.0 strict level 2//"), P("-//ietf//dtd html 2.0 strict//"),
    P("-//ietf//dtd html 2.0//"), P("-//ietf//dtd html 2.1e//"), P("-//ietf//dtd html 3.0//"),
    P("-//ietf//dtd html 3.2 final//"), P("-//ietf//dtd html 3.2//"), P("-//ietf//dtd html 3//"),
    P("-//ietf//dtd html level 0//"), P("-//ietf//dtd html level 1//"), P("-//ietf//dtd html level 2//"),
    P("-//ietf//dtd html level 3//"), P("-//ietf//dtd html strict level 0//"),
    P("-//ietf//dtd html strict level 1//"), P("-//ietf//dtd html strict level 2//"),
    P("-//ietf//dtd html strict level 3//"), P("-//ietf//dtd html strict//"), P("-//ietf//dtd html//"),
    P("-//metrius//dtd metrius presentational//"), P("-//microsoft//dtd internet explorer 2.0 html strict//"),
    P("-//microsoft//dtd internet explorer 2.0 html//"), P("-//microsoft//dtd internet explorer 2.0 tables//"),
    P("-//microsoft//dtd internet explorer 3.0 html strict//"),
    P("-//microsoft//dtd internet explorer 3.0 html//"), P("-//microsoft//dtd internet explorer 3.0 tables//"),
    P("-//netscape comm. corp.//dtd html//"), P("-//netscape comm. corp.//dtd strict html//"),
    P("-//o'reilly and associates//dtd html 2.0//"), P("-//o'reilly and associates//dtd html extended 1.0//"),
    P("-//o'reilly and associates//dtd html extended relaxed 1.0//"),
    P("-//sq//dtd html 2.0 hotmetal + extensions//"),
    P("-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//"),
    P("-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//"),
    P("-//spyglass//dtd html 2.0 extended//"), P("-//sun microsystems corp.//dtd hotjava html//"),
    P("-//sun microsystems corp.//dtd hotjava strict html//"), P("-//w3c//dtd html 3 1995-03-24//"),
    P("-//w3c//dtd html 3.2 draft//"), P("-//w3c//dtd html 3.2 final//"), P("-//w3c//dtd html 3.2//"),
    P("-//w3c//dtd html 3.2s draft//"), P("-//w3c//dtd html 4.0 frameset//"),
    P("-//w3c//dtd html 4.0 transitional//"), P("-//w3c//dtd html experimental 19960712//"),
    P("-//w3c//dtd html experimental 970421//"), P("-//w3c//dtd w3 html//"), P("-//w3o//dtd w3 html 3.0//"),
    P("-//webtechs//dtd mozilla html 2.0//"), P("-//webtechs//dtd mozilla html//"),
};
#undef P
enum { QUIRKY_PREFIX_COUNT = sizeof quirky_public_prefixes / sizeof *quirky_public_prefixes };

static const uint8_t *skip_ws(const uint8_t *p, const uint8_t *q)
{
    while (p < q && fp_is_ws(*p))
        p++;
    return p;
}

/* a quoted identifier after a keyword; sets *found */
static const uint8_t *
doctype_id(const uint8_t *p, const uint8_t *q, const uint8_t **start, const uint8_t **stop, int *found)
{
    p = skip_ws(p, q);
    *found = 0;
    if (p < q && (*p == '"' || *p == '\'')) {
        uint8_t quote = *p++;
        *start = p;
        while (p < q && *p != quote)
            p++;
        *stop = p;
        *found = p < q;   /* a '>' or the end of the input before the closing quote: abrupt */
        if (p < q)
            p++;
    }
    return p;
}

/* the public and system identifiers of a doctype, where it has them */
typedef struct {
    const uint8_t *pub, *pub_end, *sys, *sys_end;
    int has_pub, has_sys;
} doctype_ids;

/* Reads the identifiers after the name, [p, q), which a '>' ends (or the input,
 * eof), into *ids; returns the token's force-quirks flag. The DOCTYPE states
 * 13.2.5.56-67 set it for anything but PUBLIC or SYSTEM there, an identifier
 * missing, unquoted or cut by '>', anything after the public identifier but a
 * system one, and the end of the input; what follows the system identifier
 * is only a bogus doctype. */
static int
read_ids(const uint8_t *p, const uint8_t *q, int eof, doctype_ids *ids)
{
    memset(ids, 0, sizeof *ids);
    p = skip_ws(p, q);
    if (p == q)
        return eof;
    if (fp_starts_with_ci(p, (size_t)(q - p), "public")) {
        p = doctype_id(p + 6, q, &ids->pub, &ids->pub_end, &ids->has_pub);
        if (!ids->has_pub)
            return 1;
        p = skip_ws(p, q);
        if (p == q)
            return eof;   /* no system identifier: it is optional after a public one */
    } else if (fp_starts_with_ci(p, (size_t)(q - p), "system")) {
        p += 6;
    } else {
        return 1;
    }
    p = doctype_id(p, q, &ids->sys, &ids->sys_end, &ids->has_sys);
    if (!ids->has_sys)
        return 1;
    return skip_ws(p, q) == q && eof;
}

static void decide_quirks(fp_sim *s, const uint8_t *name, const uint8_t *name_end, const doctype_ids *ids);

/* The doctype's data [p, q) (after "<!DOCTYPE", before '>'); its name is the
 * first run of non-whitespace, which doc.doctype reports. */
int
fp_sim_doctype(fp_sim *s, const uint8_t *p, const uint8_t *q)
{
    /* only in the "initial" insertion mode: nothing but whitespace and comments before */
    if (s->doctype_seen || s->doc->n || s->ctx || s->body_seen)
        return 0;
    s->doctype_seen = 1;
    p = skip_ws(p, q);
    const uint8_t *name = p;
    while (p < q && !fp_is_ws(*p))
        p++;
    s->doc->has_doctype = 1;
    s->doc->doctype_name = (uint32_t)(name - s->doc->buf);
    s->doc->doctype_name_end = (uint32_t)(p - s->doc->buf);
    doctype_ids ids;
    int eof = q == s->doc->buf + s->doc->len;   /* no '>' closes it */
    if (read_ids(p, q, eof, &ids))
        s->quirks = 1;
    else
        decide_quirks(s, name, p, &ids);
    return 1;
}

/* 13.2.6.4.1: a doctype other than <!DOCTYPE html>, or with a quirky identifier */
static void
decide_quirks(fp_sim *s, const uint8_t *name, const uint8_t *name_end, const doctype_ids *ids)
{
    if (!fp_equals_ci(name, (size_t)(name_end - name), "html")) {
        s->quirks = 1;
        return;
    }
    const uint8_t *pub = ids->pub, *sys = ids->sys;
    int has_pub = ids->has_pub, has_sys = ids->has_sys;
    s->quirks = 0;
    size_t npub = (size_t)(ids->pub_end - pub), nsys = (size_t)(ids->sys_end - sys);
    if (has_pub) {
        if (fp_equals_ci(pub, npub, "-//w3o//dtd w3 html strict 3.0//en//") ||
            fp_equals_ci(pub, npub, "-/w3c/dtd html 4.0 transitional/en") || fp_equals_ci(pub, npub, "html"))
            s->quirks = 1;
        /* lower-cased once, as far as the longest prefix (78 bytes) reaches;
         * the fourth byte ("-//w") sets most of the list aside for one compare */
        uint8_t low[96];
        size_t nlow = npub < sizeof low ? npub : sizeof low;
        for (size_t i = 0; i < nlow; i++)
            low[i] = fp_lower(pub[i]);
        for (size_t k = 0; k < QUIRKY_PREFIX_COUNT && !s->quirks; k++) {
            size_t len = quirky_public_prefixes[k].len;
            const char *text = quirky_public_prefixes[k].text;
            if (len <= nlow && low[3] == (uint8_t)text[3] && memcmp(low, text, len) == 0)
                s->quirks = 1;
        }
        /* a system identifier missing or empty (whatwg/html#12084, 2026-01: "" was limited quirks) */
        if ((!has_sys || nsys == 0) && (fp_starts_with_ci(pub, npub, "-//w3c//dtd html 4.01 frameset//") ||
                         fp_starts_with_ci(pub, npub, "-//w3c//dtd html 4.01 transitional//")))
            s->quirks = 1;
    }
    if (has_sys && fp_equals_ci(sys, nsys, "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd"))
        s->quirks = 1;
}
