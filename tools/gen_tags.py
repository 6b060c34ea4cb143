"""Generate fastparse/_core/tags_gen.h: tag ids, per-tag flags and the
5-bit packed-name hash table the scanner looks tag names up in.

Run: python tools/gen_tags.py   (rewrites the header; the output is deterministic)

NOTE: packing. A tag name of at most 12 characters drawn from a-z and 1-6 is
packed 5 bits a character into a uint64 (1-6 -> 0..5, a-z -> 6..31), first
character in the highest bits. Names start with a letter, so the first code is
non-zero and no two names share a key. The scanner packs while it lower-cases,
so known names cost one multiply-shift hash probe and no string compare.
Longer or other names (annotation-xml, foreignobject, custom elements) fall
back to a byte compare against the short FP_TAG_LONG list, then per-document
interning.
"""
# ruff: noqa: SIM905  (the element lists are written as the HTML Standard lists them, a word each)
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "fastparse" / "_core" / "tags_gen.h"

# flag bits (keep in sync with the FP_TF_* names written below)
FLAGS = [
    "VOID",          # no content, no end tag
    "RAWTEXT",       # content is raw text up to the matching end tag
    "RCDATA",        # ... with character references decoded
    "SCRIPT",        # script data states
    "PLAINTEXT",     # everything after it is text
    "SPECIAL",       # the HTML Standard's "special" category
    "SCOPE",         # boundary of "has an element in scope"
    "LIST_SCOPE",    # extra boundary for list item scope (ol, ul)
    "BUTTON_SCOPE",  # extra boundary for button scope
    "TABLE_SCOPE",   # boundary of table scope (html, table, template)
    "CLOSES_P",      # start tag closes an open <p> in button scope
    "IMPLIED_END",   # popped by "generate implied end tags"
    "FORMATTING",    # formatting element (adoption agency)
    "HEAD",          # may appear in <head>
    "BREAKOUT",      # start tag leaves foreign content
    "MARKER",        # pushes a marker on the active formatting list
    "HEADING",       # h1-h6
    "TABLE_PART",    # caption colgroup col tbody thead tfoot tr td th
]

BLOCKS_CLOSING_P = (
    "address article aside blockquote center details dialog dir div dl fieldset figcaption "
    "figure footer header hgroup main menu nav ol p search section summary ul "
    "h1 h2 h3 h4 h5 h6 pre listing form li dd dt plaintext table hr xmp"
).split()
SPECIAL = (
    "address applet area article aside base basefont bgsound blockquote body br button caption "
    "center col colgroup dd details dir div dl dt embed fieldset figcaption figure footer form "
    "frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input keygen li link "
    "listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext pre "
    "script search section select source style summary table tbody td template textarea tfoot th "
    "thead title tr track ul wbr xmp mi mo mn ms mtext annotation-xml foreignobject desc"
).split()
VOID = "area base basefont bgsound br col embed frame hr img input keygen link meta param source track wbr".split()
SCOPE = "applet caption html table td th marquee object select template mi mo mn ms mtext annotation-xml foreignobject desc title".split()
FORMATTING = "a b big code em font i nobr s small strike strong tt u".split()
IMPLIED_END = "dd dt li optgroup option p rb rp rt rtc".split()
HEAD = "base basefont bgsound link meta noframes script style template title noscript".split()
BREAKOUT = (
    "b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img "
    "li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var"
).split()
MARKER = "applet object marquee template td th caption".split()
TABLE_PART = "caption colgroup col tbody thead tfoot tr td th".split()

OTHER = (
    "html head body title abbr acronym audio bdi bdo canvas cite data datalist del dfn "
    "image ins kbd label legend map mark meter noscript optgroup option output picture "
    "progress q rb rp rt rtc ruby samp slot span sub sup time u var video frameset nobr "
    "select textarea script style iframe noembed noframes xmp math svg mglyph malignmark "
    "button font"
).split()

RAWTEXT = "style xmp iframe noembed noframes".split()
RCDATA = "title textarea".split()


def all_names():
    names = set()
    for group in (BLOCKS_CLOSING_P, SPECIAL, VOID, SCOPE, FORMATTING, IMPLIED_END, HEAD, BREAKOUT,
                  MARKER, TABLE_PART, OTHER, RAWTEXT, RCDATA):
        names.update(group)
    return sorted(names)


def flags_of(name):
    f = set()
    if name in VOID:
        f.add("VOID")
    if name in RAWTEXT:
        f.add("RAWTEXT")
    if name in RCDATA:
        f.update(("RAWTEXT", "RCDATA"))
    if name == "script":
        f.update(("RAWTEXT", "SCRIPT"))
    if name == "plaintext":
        f.update(("RAWTEXT", "PLAINTEXT"))
    if name in SPECIAL:
        f.add("SPECIAL")
    if name in SCOPE:
        f.add("SCOPE")
    if name in ("ol", "ul"):
        f.add("LIST_SCOPE")
    if name == "button":
        f.add("BUTTON_SCOPE")
    if name in ("html", "table", "template"):
        f.add("TABLE_SCOPE")
    if name in BLOCKS_CLOSING_P:
        f.add("CLOSES_P")
    if name in IMPLIED_END:
        f.add("IMPLIED_END")
    if name in FORMATTING:
        f.add("FORMATTING")
    if name in HEAD:
        f.add("HEAD")
    if name in BREAKOUT:
        f.add("BREAKOUT")
    if name in MARKER:
        f.add("MARKER")
    if name in ("h1", "h2", "h3", "h4", "h5", "h6"):
        f.add("HEADING")
    if name in TABLE_PART:
        f.add("TABLE_PART")
    return f


def pack(name):
    """The 5-bit key, or None when the name is not packable."""
    if len(name) > 12:
        return None
    key = 0
    for ch in name:
        if "a" <= ch <= "z":
            code = ord(ch) - ord("a") + 6
        elif "1" <= ch <= "6":
            code = ord(ch) - ord("1")
        else:
            return None
        key = (key << 5) | code
    return key


HASH_BITS = 10
MULT = 0x9E3779B97F4A7C15


def slot(key):
    return ((key * MULT) & 0xFFFFFFFFFFFFFFFF) >> (64 - HASH_BITS)


def cident(name):
    return name.upper().replace("-", "_")


def main():
    names = all_names()
    ids = {name: i + 1 for i, name in enumerate(names)}  # 0 = no tag
    table = [(0, 0)] * (1 << HASH_BITS)
    long_names = []
    for name in names:
        key = pack(name)
        if key is None:
            long_names.append(name)
            continue
        s = slot(key)
        while table[s][0]:
            s = (s + 1) & ((1 << HASH_BITS) - 1)
        table[s] = (key, ids[name])

    out = ["/* generated by tools/gen_tags.py — do not edit */",
           "#ifndef FP_TAGS_GEN_H", "#define FP_TAGS_GEN_H", "", "#include <stdint.h>", ""]
    out.append("enum {\n    FP_TAG_NONE = 0,")
    for name in names:
        out.append(f"    FP_TAG_{cident(name)} = {ids[name]},")
    out.append(f"    FP_TAG__COUNT = {len(names) + 1}\n}};\n")
    for bit, flag in enumerate(FLAGS):
        out.append(f"#define FP_TF_{flag} (1u << {bit})")
    out.append("")
    out.append(f"#define FP_TAG_HASH_BITS {HASH_BITS}")
    out.append(f"#define FP_TAG_HASH_MULT 0x{MULT:016X}ull")
    out.append("")
    out.append("static const char *const fp_tag_names_gen[FP_TAG__COUNT] = {\n    \"\",")
    for name in names:
        out.append(f"    \"{name}\",")
    out.append("};\n")
    out.append("static const uint8_t fp_tag_name_lens_gen[FP_TAG__COUNT] = {\n    0,")
    out.append("    " + ", ".join(str(len(n)) for n in names) + ",")
    out.append("};\n")
    out.append("static const uint32_t fp_tag_flags_gen[FP_TAG__COUNT] = {\n    0,")
    for name in names:
        fl = " | ".join(f"FP_TF_{f}" for f in FLAGS if f in flags_of(name)) or "0"
        out.append(f"    /* {name} */ {fl},")
    out.append("};\n")
    out.append("/* open-addressing table of (packed key, id); key 0 = empty slot */")
    out.append(f"static const uint64_t fp_tag_hash_keys[{1 << HASH_BITS}] = {{")
    for i in range(0, len(table), 4):
        out.append("    " + " ".join(f"0x{k:x}ull," for k, _ in table[i:i + 4]))
    out.append("};\n")
    out.append(f"static const uint16_t fp_tag_hash_ids[{1 << HASH_BITS}] = {{")
    for i in range(0, len(table), 16):
        out.append("    " + " ".join(f"{v}," for _, v in table[i:i + 16]))
    out.append("};\n")
    out.append("/* 5-bit code of each byte for packing; 0x80 = not packable */")
    codes = []
    for b in range(256):
        ch = chr(b).lower() if b < 128 else ""
        code = pack(ch) if ch and len(ch) == 1 and pack(ch) is not None else 0x80
        codes.append(code)
    out.append("static const uint8_t fp_pack_code_gen[256] = {")
    for i in range(0, 256, 16):
        out.append("    " + " ".join(f"0x{c:02x}," for c in codes[i:i + 16]))
    out.append("};\n")
    out.append("/* names the 5-bit key cannot hold */")
    out.append(f"#define FP_TAG_LONG_COUNT {len(long_names)}")
    out.append("static const uint16_t fp_tag_long_ids[FP_TAG_LONG_COUNT] = {"
               + ", ".join(f"FP_TAG_{cident(n)}" for n in long_names) + "};")
    out.append("")
    out.append("#endif")
    OUT.write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
