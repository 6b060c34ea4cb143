"""CSS selectors over the flat element index.

Selector text is parsed (parser.py) to an AST (nodes.py), compiled
(compiler.py) to a small program of int32 words, cached (cache.py), and run
by the C matcher (fastparse/_core/select_*.c) right to left through parent
indices. Document.select / Tag.select and friends call the functions below.
`explain(css)` prints the compiled program.

Semantics (Selectors Level 4 on the HTML Standard), and where they differ from
soupsieve / selectolax on purpose:

- The tree is fastparse's: no implied elements. `table > tr` matches when the
  source has no <tbody>; `body p` needs a <body> tag in the source.
- A foster-parented element (`<table><div>`) is matched at its source position: its
  parent for combinators and :nth-* is the table part around it, not `tag.parent`
  (the table's parent, the spec's tree).
- `:root` is the first top-level element (usually <html>; on a fragment-like page
  without <html>, whatever element comes first), or a top-level <html> that elements
  came before (`<meta charset=utf-8><html lang=en>`: the DOM's root, `doc.root`).
  soupsieve has no root when there are several top-level elements (e.g. tags after
  </html>).
- `tag.select(css)` returns descendants of the tag (not the tag itself); combinators
  may look above it (`main.select("body p")`), as in soupsieve. A leading combinator
  is relative to the tag (`tag.select("> li")` is `:scope > li`), an extension.
  In `matches()` and `closest()`, `:scope` is the element tested.
- `:empty` ignores whitespace and comments (Level 4); `&#32;` counts as content.
- Attribute values of the HTML Standard's list (type, rel, lang, hreflang,
  method, ...) compare ASCII-case-insensitively on HTML elements unless `s` is
  given; soupsieve does this for `type` only. Names always compare case-insensitively.
- `:checked` follows the HTML Standard's selectedness (first enabled option of a
  one-row <select> without `selected`, last of several) and radio groups (a later
  checked radio of the same name and form unchecks earlier ones), as soupsieve 4.1 does.
- `:contains(...)` / `:-soup-contains(...)` test DOM textContent (script and style
  text included), like soupsieve's; `:-soup-contains-own(...)` each of the element's
  own text nodes, one at a time (a string only their concatenation holds does not
  match). A select over many nested candidates (`div:contains(x)`) decodes its scope's
  text once and answers each element from its range in it: linear, not text x depth. `:has()` inside `:has()` is an error (Level 4).
- `:required`, `:optional`, `:read-write`, `:read-only`, `:placeholder-shown` expand to
  the HTML Standard's element and attribute conditions (as soupsieve's do); for
  contenteditable the nearest attribute decides, exactly up to two nested editing
  hosts. :placeholder-shown reads an input's value as its type sanitizes it (line
  breaks dropped; url and email trimmed; a number that is not a valid one is empty)
  and a <textarea>'s text less the newline after its start tag.
- `:default` (checked checkboxes and radios, `option[selected]`, each form's default
  button: the first submit button in tree order it owns, `form=` attributes included),
  `:indeterminate` (radios whose named group has no checked radio, `progress` without
  value, and, as in soupsieve, checkboxes with an `indeterminate` attribute),
  `:in-range`/`:out-of-range` (the strict value syntaxes browsers apply to value, min and
  max; a reversed time range wraps midnight; a range input is out of range only when
  max < min) follow soupsieve 4.1. Where a spec parser nests one <form> in another
  (`<form><div></form><form>`), the inner one is a form here; soupsieve ignores it.
- `:dir(ltr)`/`:dir(rtl)`: an HTML element's own `dir`, else its parent's (ltr at the top
  and for a template's contents); `dir=auto` and `<bdi>` take the first character whose
  Unicode bidi class is L, R or AL in their text (leaving out bdi, script, style, textarea
  and elements with their own `dir`), an auto text input its value; `type=tel` is ltr
  (soupsieve's rule). A legacy-encoded document's text is read in its twin (below).
  Any other keyword (`:dir(auto)`) is valid and matches nothing, as in soupsieve.
- `*|E` is E and `|E` matches nothing (every element of an HTML document has a namespace);
  `[*|a]` is `[a]` or, on SVG and MathML elements, the attribute the tree builder puts in
  the XLink/XML/XMLNS namespace with local name a (`[*|href]` finds `xlink:href`; soupsieve
  on html5lib's tree does not); `[|a]` is `[a]`. A named prefix (`svg|rect`, `[xlink|href]`)
  is an error, as the selector has no way to declare it.
- `&` (CSS Nesting) outside a style rule is `:scope`; `:is()` and `:where()` take forgiving
  lists (Selectors 4, 4.3.5): an item that does not parse is dropped (`:is(p, !)` is `:is(p)`;
  soupsieve raises), and an empty list matches nothing. `:not()` and `:has()` do not forgive.
- Interaction and media states (`:hover`, `:focus`, `:visited`, `:playing`, `:host()`, ...)
  are valid and never match.
- Legacy-encoded documents: values and text compare as Unicode whatever their spelling.
  An ASCII selector compares the document's bytes (a reference to an ASCII character is
  that character there); one with non-ASCII strings, or in Shift_JIS, Big5 and GBK one
  that looks for a string inside values or text ($=, *=, :contains), runs on the document's
  UTF-8 twin (fastparse/_core/py_twin.c: the source decoded once and parsed again, same
  elements). Where no twin can stand for the document (one character spelt two ways in tag
  names), the selector's strings are encoded to the document's codec and compare as bytes.
- `:lang()` follows the HTML Standard: the nearest `lang` (`xml:lang` first on SVG and
  MathML elements), else any `<meta http-equiv=content-language>` (soupsieve reads only
  html > head > meta), else unknown (`:lang("")`); ranges match by RFC 4647 extended
  filtering (`:lang(de)` matches "de-Latn-CH", `:lang("*-CH")` too).
- `:valid`/`:invalid`: the HTML Standard's constraint validation on the page as parsed
  (select_validity.c): controls that nothing bars, by `required`, email and URL syntax,
  `pattern` (a JavaScript `v`-flag expression, read by select_pattern.c; one that does not
  compile, or that it does not read, sets no constraint), min/max and step; forms by the
  controls they own, fieldsets by those inside. `maxlength`/`minlength` need an edit: never.
- Not supported (SelectorError): namespace prefixes (`svg|rect`, `[xlink|href]`),
  pseudo-elements.
"""

from __future__ import annotations

from .. import _core
from .cache import program
from .explain import disassemble
from .parser import dropped, parse

__all__ = ["closest", "explain", "matches", "parse", "program", "select", "select_one"]


def _missing():
    from .. import MISSING  # late: fastparse/__init__ may import this module

    return MISSING


def select(node, css: str) -> list:
    """Elements under `node` (a Document, or a Tag's descendants) matching `css`, in document order."""
    return _core._select_run(node, program(css), 0)


def select_one(node, css: str):
    """The first match of `css` under `node`, or fastparse.MISSING."""
    found = _core._select_run(node, program(css), 1)
    return found[0] if found else _missing()


def matches(tag, css: str) -> bool:
    """Whether `tag` itself matches `css`."""
    return _core._select_test(tag, program(css))


def closest(tag, css: str):
    """`tag` or its nearest ancestor matching `css`, or fastparse.MISSING. `:scope`
    is `tag` for every ancestor, as in the DOM's closest() and soupsieve; the walk
    stops at a template's contents, a separate fragment (DOM 4.8)."""
    if not tag:
        return _missing()
    return _core._select_closest(tag, program(css))


def explain(css: str) -> str:
    """The compiled program of `css`, disassembled (one line per word group), after the
    items a forgiving :is()/:where() list dropped, if any."""
    text = disassemble(program(css))
    lost = "".join(f"dropped (does not parse, :is()/:where() forgive it): {item!r}\n" for item in dropped(css))
    return f"selector: {css}\n{lost}{text}"
