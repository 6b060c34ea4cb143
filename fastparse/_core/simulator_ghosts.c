/* simulator_ghosts.c — formatting elements closed by another element's end
 * ("<p><b>x</p>"), which the list of active formatting elements keeps
 * (13.2.4.3): the index keeps no list, and these "ghosts" are the entries
 * that matter, those not open.
 *
 * - An end tag of the name, or an <a> / <nobr> start tag, takes the list's
 *   last entry of that name: when that is a ghost newer than any open element
 *   of the name, the adoption agency only removes it and ignores the tag, so
 *   the outer <b> of "<b><p><b></p></b>" stays open (13.2.6.4.7, step 4.4;
 *   html5lib-tests tests1.dat #54).
 * - Text and most start tags in body reconstruct the list: a clone of each
 *   ghost after the last open entry goes on the stack, and what follows opens
 *   inside it. Clones are not indexed: a ghost records the current node its
 *   clone went on (`under`) and the first element opened inside it (`from`).
 *   The clone is open while `under` is and nothing popped what was above it;
 *   then the ghost is one again. Its end tag runs the adoption agency for the
 *   clone, which ends what was opened inside it ("<p><b>x</p><span>y</b>z":
 *   z is not the span's) or moves its furthest block out.
 * - The list is cleared to its last marker when a cell, caption, template,
 *   applet, object or marquee ends: a ghost is gone once the marker before it
 *   has left the list (a marker can stay after its element: stale markers,
 *   below). */
#include <string.h>

#include "simulator_internal.h"

#define FP_GHOST_UNOPENED (-2)   /* fp_ghost.under of a ghost with no clone open */

_Static_assert(FP_GHOSTS_MAX <= 64, "fp_sim_clones_wrap marks ghosts in one 64-bit word");

/* ---- stale markers ----
 * A marker (td, th, caption, template, applet, object, marquee) leaves the
 * list when the list is cleared up to its last marker: when a cell or a
 * caption closes, a template ends, or an applet, object or marquee end tag
 * comes. An applet, object or marquee that a cell's end or a table's end tag
 * pops instead leaves its marker behind ("stale"), and the clear that follows
 * takes that one instead of its own: the cell's marker stays. A stale marker
 * hides the formatting elements before it, open or not, from later end tags
 * and reconstruction, as an open one does. */

static int
stale(const fp_sim *s, int32_t m)
{
    for (uint32_t k = 0; k < s->nstale; k++)
        if (s->stale[k] == m)
            return 1;
    return 0;
}

/* The list's last marker: the innermost open marker element, or a stale
 * marker after it (-1: none) */
int32_t
fp_sim_last_marker(const fp_sim *s)
{
    int32_t open = istack_top(s, FP_SC_MARKER);
    return s->nstale && s->stale[s->nstale - 1] > open ? s->stale[s->nstale - 1] : open;
}

/* the last marker before element x in the list */
static int32_t
marker_before(const fp_sim *s, int32_t x)
{
    int32_t m = istack_top(s, FP_SC_MARKER);
    if (m > x)
        m = -1;   /* not met: what opened before a marker is not closed while it is open */
    for (uint32_t k = s->nstale; k-- > 0;)
        if (s->stale[k] < x) {
            if (s->stale[k] > m)
                m = s->stale[k];
            break;
        }
    return m;
}

static void
stale_insert(fp_sim *s, int32_t m)
{
    if (s->nstale == FP_STALE_MARKERS_MAX) {
        memmove(s->stale, s->stale + 1, (FP_STALE_MARKERS_MAX - 1) * sizeof *s->stale);
        s->nstale--;
    }
    uint32_t at = s->nstale++;
    for (; at > 0 && s->stale[at - 1] > m; at--)
        s->stale[at] = s->stale[at - 1];
    s->stale[at] = m;
}

static void ghost_tags_again(fp_sim *s);

/* Marker element m (HTML) leaves the stack, closed as `closed` */
void
fp_sim_marker_popped(fp_sim *s, int32_t m, uint8_t closed)
{
    int tag = s->e[m].tag;
    int clears = tag == FP_TAG_TD || tag == FP_TAG_TH || tag == FP_TAG_CAPTION || tag == FP_TAG_TEMPLATE ||
                 closed == FP_CLOSED_END_TAG;
    if (!clears) {
        stale_insert(s, m);
    } else if (s->nstale && s->stale[s->nstale - 1] > m) {
        s->nstale--;           /* the clear ends at the stale marker, */
        stale_insert(s, m);    /* and m's own stays */
    } else {
        return;
    }
    ghost_tags_again(s);
}

static int
ghost_kept(const fp_sim *s, const fp_ghost *g)
{
    /* its marker is still in the list: open (FP_CLOSED_EOF until popped) or stale */
    return g->marker < 0 || s->e[g->marker].closed == FP_CLOSED_EOF || (s->nstale && stale(s, g->marker));
}

static void
ghost_drop(fp_sim *s, uint32_t k)
{
    s->ghosts[k] = s->ghosts[--s->nghosts];
}

/* the names of those left, after drops */
static void
ghost_tags_again(fp_sim *s)
{
    s->ghost_tags = s->nstale ? ~(uint64_t)0 : 0;   /* every end tag takes the long way (fp_sim_end_current) */
    for (uint32_t k = 0; k < s->nghosts; k++)
        s->ghost_tags |= ghost_tag_bit(s->e[s->ghosts[k].elem].tag);
}

/* Whether element a's start tag has attribute `at` of element b's, by name
 * (ASCII case folded) and value as written: the first of a name counts */
static int
has_same_attribute(const fp_doc *d, uint32_t a, const fp_attr *at)
{
    uint32_t cursor = 0;
    fp_attr x;
    while (fp_attr_next(d, a, &cursor, &x)) {
        if (x.name_len != at->name_len)
            continue;
        const uint8_t *p = d->buf + x.name_start, *q = d->buf + at->name_start;
        size_t i = 0;
        while (i < x.name_len && fp_lower(p[i]) == fp_lower(q[i]))
            i++;
        if (i == x.name_len)
            return x.value_len == at->value_len &&
                   memcmp(d->buf + x.value_start, d->buf + at->value_start, x.value_len) == 0;
    }
    return 0;
}

/* Noah's Ark's "same attributes" (13.2.4.3), as written in the source (a
 * reference and its character differ): each of a's is b's and each of b's a's */
static int
same_attributes(const fp_doc *d, uint32_t a, uint32_t b)
{
    uint32_t cursor = 0;
    fp_attr at;
    while (fp_attr_next(d, a, &cursor, &at))
        if (!has_same_attribute(d, b, &at))
            return 0;
    for (cursor = 0; fp_attr_next(d, b, &cursor, &at);)
        if (!has_same_attribute(d, a, &at))
            return 0;
    return 1;
}

/* Noah's Ark: pushing an element, the list keeps at most three alike (name,
 * namespace, attributes) after its last marker, the earliest going first. Of
 * ghosts x's kind, three stay: an open element alike, earlier than they are,
 * went first ("<b>0<p><b>1</p><p><b>2</p>..." x 5: three </b> find ghosts,
 * the fourth closes the first <b>). */
static void
ghost_keep_three(fp_sim *s, int32_t x)
{
    int32_t marker = fp_sim_last_marker(s);
    uint32_t alike = 0, earliest = 0;
    for (uint32_t k = 0; k < s->nghosts; k++) {
        int32_t g = s->ghosts[k].elem;
        if (s->e[g].tag != s->e[x].tag || g < marker || !ghost_kept(s, &s->ghosts[k]))
            continue;
        if (++alike > 3)
            break;
    }
    if (alike <= 3)
        return;   /* fewer of the name: no attributes compared */
    alike = 0;
    for (uint32_t k = 0; k < s->nghosts; k++) {
        int32_t g = s->ghosts[k].elem;
        if (s->e[g].tag != s->e[x].tag || g < marker || !ghost_kept(s, &s->ghosts[k]) ||
            !same_attributes(s->doc, (uint32_t)g, (uint32_t)x))
            continue;
        if (alike++ == 0 || g < s->ghosts[earliest].elem)
            earliest = k;
    }
    if (alike > 3)
        ghost_drop(s, earliest);
}

/* Whether g's clone is open: on the stack above `under`, which is still on
 * the stack (a form its end tag removed stays there while the clone is) */
static int
clone_open(const fp_sim *s, const fp_ghost *g)
{
    if (g->under == FP_GHOST_UNOPENED)
        return 0;
    return g->under < 0 || s->e[g->under].closed == FP_CLOSED_EOF || (s->open_bits[g->under] & FP_REMOVED);
}

static void
add(fp_sim *s, int32_t x, int32_t under, uint32_t from)
{
    if (s->nghosts == FP_GHOSTS_MAX) {
        for (uint32_t k = s->nghosts; k-- > 0;)
            if (!ghost_kept(s, &s->ghosts[k]))
                ghost_drop(s, k);
        ghost_tags_again(s);
    }
    if (s->nghosts < FP_GHOSTS_MAX) {
        s->ghosts[s->nghosts++] = (fp_ghost){x, marker_before(s, x), under, from};
        s->ghost_tags |= ghost_tag_bit(s->e[x].tag);
        s->watch_text = 1;   /* text reconstructs it (fp_sim_text) */
        ghost_keep_three(s, x);
    }
}

/* x, the current node, is about to be closed by the end of an element it is in */
void
fp_sim_ghost_add(fp_sim *s, int32_t x)
{
    if (is_formatting(&s->e[x]))
        add(s, x, FP_GHOST_UNOPENED, 0);
}

/* Formatting element x ends, and the adoption agency opens its clone on
 * element `under`, around element `from` and what follows */
void
fp_sim_ghost_add_cloned(fp_sim *s, int32_t x, int32_t under, uint32_t from)
{
    add(s, x, under, from);
}

/* The list's last entry that is open, or its last marker: the newest open
 * formatting element or open clone after the innermost open marker. Each
 * formatting name's topmost open element, not a walk of the stack, which
 * may be deep. */
static int32_t
last_open_entry(const fp_sim *s)
{
    int32_t last = fp_sim_last_marker(s);
    for (int tag = 1; tag < FP_TAG__COUNT; tag++) {
        if (!(fp_tag_flags(tag) & FP_TF_FORMATTING))
            continue;
        int32_t x = open_html_of(s, tag);
        if (x > last)
            last = x;
    }
    for (uint32_t k = 0; k < s->nghosts; k++)
        if (s->ghosts[k].elem > last && clone_open(s, &s->ghosts[k]))
            last = s->ghosts[k].elem;
    return last;
}

/* "Reconstruct the active formatting elements" (13.2.4.3), before text or a
 * start tag in body: each ghost after the list's last open entry gets a
 * clone on the current node */
void
fp_sim_reconstruct(fp_sim *s)
{
    int32_t marker = fp_sim_last_marker(s);
    uint32_t k = 0;
    while (k < s->nghosts && !(s->ghosts[k].elem > marker && ghost_kept(s, &s->ghosts[k]) &&
                               !clone_open(s, &s->ghosts[k])))
        k++;
    if (k == s->nghosts)
        return;   /* each clone already open (the usual case), or behind a marker */
    int32_t last = last_open_entry(s);
    for (; k < s->nghosts; k++) {
        fp_ghost *g = &s->ghosts[k];
        if (g->elem > last && ghost_kept(s, g) && !clone_open(s, g)) {
            g->under = s->top;
            g->from = s->doc->n;
        }
    }
}

/* Whether a clone is open on element c, the current node */
int
fp_sim_clone_on(const fp_sim *s, int32_t c)
{
    for (uint32_t k = 0; k < s->nghosts; k++)
        if (s->ghosts[k].under == c && clone_open(s, &s->ghosts[k]))
            return 1;
    return 0;
}

/* Whether x, a child of element c in the index, is inside a clone open on c:
 * the spec's stack has the clone between them */
int
fp_sim_clone_holds(const fp_sim *s, int32_t c, int32_t x)
{
    for (uint32_t k = 0; k < s->nghosts; k++)
        if (s->ghosts[k].under == c && s->ghosts[k].from <= (uint32_t)x && clone_open(s, &s->ghosts[k]))
            return 1;
    return 0;
}

/* Everything above element c was popped: the clones on it with it */
void
fp_sim_clones_closed_above(fp_sim *s, int32_t c)
{
    for (uint32_t k = 0; k < s->nghosts; k++)
        if (s->ghosts[k].under == c)
            s->ghosts[k].under = FP_GHOST_UNOPENED;
}

/* The adoption agency for ghost g's open clone, for a tag at `at`: what was
 * opened inside the clone ends with it, or its furthest block moves out */
static void
close_clone(fp_sim *s, fp_ghost g, uint32_t at)
{
    /* the common ancestor: the element below the clone on the stack, which is
     * an earlier clone on the same element (what is in it is that element's
     * in the index) or the element, unless a </form> took that off the stack */
    int32_t anc = g.under;
    int clone_below = 0;
    for (uint32_t k = 0; k < s->nghosts && !clone_below; k++)
        clone_below = s->ghosts[k].under == g.under && s->ghosts[k].elem < g.elem &&
                      ghost_kept(s, &s->ghosts[k]);
    while (!clone_below && anc >= 0 && (s->open_bits[anc] & FP_REMOVED))
        anc = s->e[anc].parent;
    if (istack_top(s, FP_SC_SPECIAL) >= (int32_t)g.from &&
        fp_sim_adopt_after(s, (int32_t)g.from - 1, anc, &g, FP_CLOSED_PARENT_END, at))
        return;   /* the clones reconstructed after it wrap the block that moved out, or left the list */
    /* the clones reconstructed after it are inside it: they close too */
    for (uint32_t k = 0; k < s->nghosts; k++)
        if (s->ghosts[k].under == g.under && s->ghosts[k].elem > g.elem)
            s->ghosts[k].under = FP_GHOST_UNOPENED;
    while (s->top >= (int32_t)g.from) {   /* what was opened after it: above it (a removed
                                           * form under it may end as a pop reaches it) */
        note_ghost(s, s->top);
        fp_sim_pop(s, FP_CLOSED_PARENT_END, at, at);
    }
    if (s->removed_open)
        fp_sim_pop_removed(s, at);   /* a removed form that held only the clone ends with it */
}

/* The clones open between a formatting element and the furthest block b the
 * adoption agency moves out of it: those on an element from `lo` up to b (on
 * the stack: an open element in that range is between them), and when the
 * formatting element is itself ghost `clone`'s clone, those put after it on
 * the element it is on. Their indices in s->ghosts go to `out`, innermost
 * first (the later of two on one element is inside the other). */
uint32_t
fp_sim_clones_between(const fp_sim *s, int32_t lo, int32_t b, const fp_ghost *clone, uint8_t *out)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < s->nghosts; k++) {
        const fp_ghost *g = &s->ghosts[k];
        if (!ghost_kept(s, g) || !clone_open(s, g) || g->under >= b)
            continue;
        int inside_clone = clone && g->under == clone->under;
        if (inside_clone ? g->elem < clone->elem : g->under < lo)
            continue;
        uint32_t at = n++;   /* insertion sort: under, then elem, descending */
        for (; at > 0; at--) {
            const fp_ghost *h = &s->ghosts[out[at - 1]];
            if (h->under > g->under || (h->under == g->under && h->elem > g->elem))
                break;
            out[at] = out[at - 1];
        }
        out[at] = (uint8_t)k;
    }
    return n;
}

/* The adoption agency's inner loop met the clones `between` (n of them,
 * innermost first), each counted: the first three it counts (count <= 3) are
 * cloned again around furthest block b, on anc; the others leave the list */
void
fp_sim_clones_wrap(fp_sim *s, const uint8_t *between, const int *count, uint32_t n, int32_t anc, uint32_t b)
{
    uint64_t leave = 0;
    for (uint32_t j = 0; j < n; j++) {
        if (count[j] <= 3) {
            s->ghosts[between[j]].under = anc;
            s->ghosts[between[j]].from = b;
        } else {
            leave |= 1ull << between[j];
        }
    }
    if (!leave)
        return;
    for (uint32_t k = s->nghosts; k-- > 0;)   /* from the end: a drop moves the last one into k */
        if (leave & (1ull << k))
            ghost_drop(s, k);
    ghost_tags_again(s);
}

/* The end tag of a formatting element, or an <a> / <nobr> start tag, at `at`,
 * whose last entry in the list after its last marker is a ghost newer than
 * `open` (the open element of that name, -1): FP_GHOST_IGNORED when the tag
 * does nothing more (the ghost had no clone open, or its clone is out of
 * scope), FP_GHOST_CLOSED when it closed the ghost's clone and what was
 * opened in it; either way the tag is done. 0 when the last entry is no
 * ghost. An <a> start tag (a_start) removes the clone from the list even out
 * of scope, and what is open inside it stays open. */
int
fp_sim_ghost_takes(fp_sim *s, int tag, int32_t open, uint32_t at, int a_start)
{
    int32_t newest = -1;
    uint32_t before = s->nghosts;
    for (uint32_t k = s->nghosts; k-- > 0;) {
        const fp_ghost *g = &s->ghosts[k];
        if (!ghost_kept(s, g))
            ghost_drop(s, k);   /* all that are gone, while here; what moves into k was looked at */
        else if (s->e[g->elem].tag == tag && !fp_foreign(&s->e[g->elem]) && g->elem > newest)
            newest = g->elem;
    }
    int takes = 0;
    if (newest >= 0 && newest > open && newest > fp_sim_last_marker(s)) {
        uint32_t k = 0;
        while (s->ghosts[k].elem != newest)
            k++;
        fp_ghost g = s->ghosts[k];
        if (!clone_open(s, &g)) {
            ghost_drop(s, k);
            takes = FP_GHOST_IGNORED;
        } else if (istack_top(s, FP_SC_DEFAULT) >= (int32_t)g.from) {
            if (a_start)
                ghost_drop(s, k);
            takes = FP_GHOST_IGNORED;   /* a boundary opened inside the clone: not in scope */
        } else {
            ghost_drop(s, k);
            close_clone(s, g, at);
            takes = FP_GHOST_CLOSED;
        }
    }
    if (s->nghosts != before)
        ghost_tags_again(s);
    return takes;
}
