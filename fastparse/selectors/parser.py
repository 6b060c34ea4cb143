"""Selector text -> AST (Selectors Level 4 grammar, section 18 of the spec).

A recursive-descent parser over the tokenizer's tokens. It knows the grammar
and the pseudo-class vocabulary; it does not know how anything is matched.
Pseudo-classes that HTML defines in terms of other selectors (:checked,
:disabled, :link, ...) are expanded here from selector text, as the HTML
Standard (section 4.16.3, "Pseudo-classes") describes them.
"""

from __future__ import annotations

from typing import NoReturn

from .._foreign_names import MATHML_ATTRIBUTE_NAMES, SVG_ATTRIBUTE_NAMES, SVG_TAG_NAMES
from ..errors import SelectorError
from . import nodes as n
from . import opcodes as op
from .anb import parse_anb
from .diagnostics import fail
from .tokenizer import Token, ascii_lower, nest, tokenize

MAX_NESTING = 32

# CSS 2's pseudo-elements, which CSS still accepts with one colon (`p:first-line`):
# the error says that is what they are
LEGACY_PSEUDO_ELEMENTS = frozenset({"before", "after", "first-line", "first-letter"})
# What scrapers write from other libraries' dialects, and what it is here: the
# error says so instead of only "unknown".
SCRAPY_PSEUDO_ELEMENTS = {
    "text": "Scrapy's '::text' is not CSS: select the element, then read .text or get_text()",
    "attr": "Scrapy's '::attr()' is not CSS: select the element, then read .get(name)",
}
JQUERY_PSEUDO = {
    "first": "select_one() gives the first match",
    "last": "select(...)[-1] gives the last match",
    "eq": "index the list select() returns",
    "gt": "slice the list select() returns",
    "lt": "slice the list select() returns",
    "even": "select(...)[::2] keeps the same matches (jQuery counts from 0)",
    "odd": "select(...)[1::2] keeps the same matches (jQuery counts from 0)",
    "nth": "index the list select() returns",
    # jQuery's element-kind filters, and the CSS that says the same
    "header": "write :is(h1, h2, h3, h4, h5, h6) (or :heading)",
    "input": "write :is(input, select, textarea, button)",
    "button": "write :is(button, input[type=button])",
    "selected": "write option:checked",
    "parent": "write :not(:empty) (which also ignores white space)",
    "text": "write input:is([type=text i], :not([type]))",
    "checkbox": "write [type=checkbox]", "radio": "write [type=radio]", "file": "write [type=file]",
    "password": "write [type=password]", "image": "write [type=image]", "submit": "write [type=submit]",
    "reset": "write [type=reset]",
    "visible": "a parsed document has no layout", "hidden": "a parsed document has no layout",
    "animated": "a parsed document has no animations",
}
# jsoup's text and regular-expression pseudo-classes (its :contains() is soupsieve's)
_JSOUP_REGEX = "filter select()'s results with re on .text or get_text()"
JSOUP_PSEUDO = {
    "containsown": "write :-soup-contains-own('text') (case-sensitive here)",
    "containswholetext": "filter select()'s results on .text",
    "containswholeowntext": "filter select()'s results on .text",
    "containsdata": "read the script's or style's .text",
    "matchesown": _JSOUP_REGEX, "matcheswholetext": _JSOUP_REGEX,
    "matcheswholeowntext": _JSOUP_REGEX, "matchtext": "select the element and read its text",
}
# Pseudo-classes about user interaction or navigation state: valid selectors
# that a static document never matches (soupsieve makes the same choice). A
# parsed <dialog open> is shown, not modal: only showModal() makes one :modal.
NEVER_MATCH = {
    "active", "autofill", "buffering", "current", "focus", "focus-visible", "focus-within",
    "fullscreen", "future", "host", "hover", "local-link", "modal", "past", "paused",
    "picture-in-picture", "playing", "popover-open", "seeking", "stalled", "target",
    "target-within", "user-invalid", "user-valid", "visited", "volume-locked",
}
# ... and their functional forms, by what they take: a selector list (time-dimensional
# states), a compound selector (the shadow host: a parsed document has no shadow tree),
# an identifier (a custom element's states, which only its script sets)
NEVER_MATCH_FUNCTIONS = {"current": "list", "host": "compound", "host-context": "compound", "state": "ident"}

# input types in the Text state: no type, or one the HTML Standard does not know
_TEXT_STATE = (":not([type=hidden i], [type=search i], [type=tel i], [type=url i], [type=email i],"
               " [type=password i], [type=date i], [type=month i], [type=week i], [type=time i],"
               " [type=datetime-local i], [type=number i], [type=range i], [type=color i],"
               " [type=checkbox i], [type=radio i], [type=file i], [type=submit i], [type=image i],"
               " [type=reset i], [type=button i])")
_REQUIRED_NOT_APPLIES = ("[type=hidden i], [type=range i], [type=color i], [type=submit i],"
                         " [type=image i], [type=reset i], [type=button i]")
# candidates for constraint validation with range limitations (min/max; range has defaults)
_RANGE_INPUT = ("input:is(:is([type=date i], [type=month i], [type=week i], [type=time i],"
                " [type=datetime-local i], [type=number i]):is([min], [max]), [type=range i])"
                ":not(:disabled, [readonly], datalist *)")
# contenteditable is an HTML attribute: on an SVG or MathML element it is ignored, and the
# element takes its parent's state through it (its own is neither :read-write nor :read-only)
_EDITABLE = (":not(:-fp-foreign):is([contenteditable=''], [contenteditable=true i],"
             " [contenteditable=plaintext-only i])")
_NOT_EDITABLE = ":not(:-fp-foreign)[contenteditable=false i]"

# HTML Standard 4.16.3: these pseudo-classes are defined by element names and attributes.
MACROS = {
    "link": "a[href]:-fp-html, area[href]:-fp-html, a[*|href]:-fp-svg",
    "any-link": "a[href]:-fp-html, area[href]:-fp-html, a[*|href]:-fp-svg",
    "checked": """
        input[type=checkbox i][checked],
        input[type=radio i][checked]:-fp-radio-kept,
        option:-fp-option-selected
    """,
    "disabled": """
        :is(input, button, select, textarea, fieldset, optgroup, option)[disabled],
        optgroup[disabled] > option,
        fieldset[disabled] > :is(input, button, select, textarea, fieldset),
        fieldset[disabled] > :not(legend:nth-of-type(1)) :is(input, button, select, textarea, fieldset),
        :is(select[disabled], fieldset[disabled] > select,
            fieldset[disabled] > :not(legend:nth-of-type(1)) select) :is(optgroup, option)
    """,
    "enabled": ":is(input, button, select, textarea, fieldset, optgroup, option):not(:disabled)",
    "required": f"input:not({_REQUIRED_NOT_APPLIES})[required], :is(select, textarea)[required]",
    "optional": f":is(input, select, textarea):not([required]), input:is({_REQUIRED_NOT_APPLIES})",
    # mutable text controls (readonly applies to them), and editing hosts with what they hold
    # but controls: the nearest contenteditable decides (exact up to two nested hosts)
    "read-write": f"""
        :is(textarea, input:is({_TEXT_STATE}, [type=search i], [type=url i], [type=tel i],
            [type=email i], [type=password i], [type=date i], [type=month i], [type=week i],
            [type=time i], [type=datetime-local i], [type=number i])
        ):not([readonly], :disabled, :-fp-foreign),
        :is({_EDITABLE}, :is({_EDITABLE}) *):not(input, textarea, {_NOT_EDITABLE}, :-fp-foreign,
            :is({_EDITABLE}) {_NOT_EDITABLE} *:not({_EDITABLE}, {_NOT_EDITABLE} :is({_EDITABLE}) *))
    """,
    # "all other HTML elements": SVG and MathML elements are neither (soupsieve agrees)
    "read-only": ":not(:read-write, :-fp-foreign)",
    # checked by default: by its attributes, and a form's default button (the first submit button
    # it owns; :-fp-default-button checks the button is a submit button)
    "default": """
        :is(input[type=checkbox i], input[type=radio i])[checked],
        option[selected],
        :is(button, input):-fp-default-button
    """,
    # neither checked nor unchecked: the `indeterminate` IDL state has no attribute, so (as in
    # soupsieve) the attribute of that name stands for it on checkboxes
    "indeterminate": """
        input[type=checkbox i][indeterminate],
        input[type=radio i]:is(:not([name]), [name='']):not([checked]),
        progress:not([value]),
        input[type=radio i][name]:not([name='']):not([checked]):-fp-radio-unchecked
    """,
    # candidates for constraint validation by their constraints; forms by the controls they own,
    # fieldsets by those inside them (select_validity.c, which also tells those elements apart)
    "valid": ":-fp-valid",
    "invalid": ":-fp-invalid",
    "in-range": f"{_RANGE_INPUT}:-fp-in-range",
    "out-of-range": f"{_RANGE_INPUT}:-fp-out-of-range",
    "open": ":is(details, dialog)[open]",
    # Selectors 5: the heading elements, whatever their level (:heading(N), whose level the
    # headingoffset attributes of ancestors move, is not supported)
    "heading": "h1, h2, h3, h4, h5, h6",
    "muted": ":is(video, audio)[muted]",
    # a placeholder is shown while the control's value, as its type sanitizes it, is empty
    # (one compound: whitespace between its parts would be a descendant combinator)
    "placeholder-shown": (
        "input[placeholder]:not([placeholder='']):-fp-value-empty"
        f":is({_TEXT_STATE}, [type=search i], [type=url i], [type=tel i], [type=email i],"
        " [type=password i], [type=number i]),"
        " textarea[placeholder]:not([placeholder='']):-fp-value-empty"
    ),
}

# The form and media states are those of HTML elements: a MathML <input> or an SVG <video>
# is no control (soupsieve agrees). :link and :any-link keep SVG's <a href> or <a xlink:href>, a
# hyperlink too (an SVG <a> falls back on xlink:href, as browsers read it); MathML has no links.
HTML_ONLY_MACROS = frozenset({"checked", "disabled", "enabled", "required", "optional", "default",
                              "indeterminate", "in-range", "out-of-range", "placeholder-shown", "open",
                              "muted", "heading", "valid", "invalid"})
_HTML_ONLY = n.Namespace(op.NS_HTML)
_FOREIGN = n.Namespace(op.NS_SVG | op.NS_MATHML)
_MACRO_NAMESPACES = {"-fp-foreign": _FOREIGN, "-fp-html": _HTML_ONLY, "-fp-svg": n.Namespace(op.NS_SVG)}

# local name -> the attribute name as written, of the attributes that the tree builder puts in
# a namespace on SVG and MathML elements ("adjust foreign attributes")
FOREIGN_ATTRIBUTES = {"actuate": "xlink:actuate", "arcrole": "xlink:arcrole", "href": "xlink:href",
                      "role": "xlink:role", "show": "xlink:show", "title": "xlink:title", "type": "xlink:type",
                      "lang": "xml:lang", "space": "xml:space", "xlink": "xmlns:xlink"}

# one test each in the compiled program (compiler.PSEUDO_CODES)
INTERNAL_PSEUDO = {"root", "scope", "empty", "defined", "-fp-radio-kept", "-fp-option-selected",
                   "-fp-default-button", "-fp-radio-unchecked", "-fp-in-range", "-fp-out-of-range",
                   "-fp-value-empty", "-fp-valid", "-fp-invalid"}

def namespaces_named(written: str, svg: dict[str, str], mathml: dict[str, str]) -> int:
    """The namespaces (opcodes.NS_* bits) of the elements a type or attribute name, as
    written, can name. On HTML elements the name matches ASCII-case-insensitively; on SVG
    and MathML elements only as written, compared with the name the tree builder gives
    them: the lower-cased one, or its camel case from `svg` / `mathml` (HTML Standard
    4.16.2). So `clipPath` names HTML and SVG elements, `clippath` HTML and MathML ones,
    `DIV` HTML ones, `div` all."""
    lower = ascii_lower(written)
    mask = op.NS_HTML
    if written == svg.get(lower, lower):
        mask |= op.NS_SVG
    if written == mathml.get(lower, lower):
        mask |= op.NS_MATHML
    return mask


def in_namespaces(mask: int) -> tuple[n.Simple, ...]:
    """The test that keeps a name to the namespaces it can name: none when it names all."""
    return () if mask == op.NS_ALL else (n.Namespace(mask),)

CHILD_SUGAR = {
    "first-child": (n.Nth(0, 1),),
    "last-child": (n.Nth(0, 1, last=True),),
    "only-child": (n.Nth(0, 1), n.Nth(0, 1, last=True)),
    "first-of-type": (n.Nth(0, 1, of_type=True),),
    "last-of-type": (n.Nth(0, 1, last=True, of_type=True),),
    "only-of-type": (n.Nth(0, 1, of_type=True), n.Nth(0, 1, last=True, of_type=True)),
}

NTH_FUNCTIONS = {
    "nth-child": (False, False),
    "nth-last-child": (True, False),
    "nth-of-type": (False, True),
    "nth-last-of-type": (True, True),
}


COMBINATORS = {">", "+", "~"}


class Parser:
    def __init__(self, css: str):
        self.css = css
        self.tokens = tokenize(css)
        self.i = 0
        self.depth = 0
        self.in_has = False
        self.too_deep = False
        self.unmatched = False
        self.dropped: list[str] = []   # the items forgiving lists left out, as written

    # ---- token helpers ----
    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self) -> Token:
        """The token after the current one (eof at the end)."""
        return self.tokens[min(self.i + 1, len(self.tokens) - 1)]

    def advance(self) -> Token:
        t = self.tokens[self.i]
        if t.kind != "eof":
            self.i += 1
        return t

    def skip_ws(self) -> bool:
        had = False
        while self.tok.kind == "ws":
            self.advance()
            had = True
        return had

    def is_delim(self, c: str) -> bool:
        return self.tok.kind == "delim" and self.tok.value == c

    def error(self, message: str, tok: Token | None = None) -> NoReturn:
        fail(self.css, (tok or self.tok).pos, message)

    def describe(self, t: Token) -> str:
        return "end of selector" if t.kind == "eof" else repr(self.css[t.pos:t.end])

    # ---- lists and complex selectors ----
    def selector_list(self, closing: str = "", scope_relative: bool = False) -> n.SelectorList:
        """Comma-separated complex selectors up to `closing` (')' or end)."""
        items = []
        while True:
            self.skip_ws()
            items.append(self.complex(scope_relative))
            self.skip_ws()
            if self.is_delim(","):
                comma = self.advance()
                self.skip_ws()
                if self.tok.kind == "eof" or self.is_delim(")"):
                    self.error("expected a selector after ','", comma)
                continue
            break
        self.expect_end(closing)
        return n.SelectorList(tuple(items))

    def forgiving_list(self) -> n.SelectorList:
        """The argument of :is() and :where(), up to ')': a <forgiving-selector-list>
        (Selectors 4, 4.3.5), whose items that do not parse are dropped, not errors, so
        `:is(p, !)` is `:is(p)` and `:is(!)` matches nothing. Nesting past the limit stays an error."""
        items = []
        while True:
            self.skip_ws()
            start = self.i
            try:
                item = self.complex()
                self.skip_ws()
                if not (self.is_delim(",") or self.is_delim(")")):
                    self.error(f"unexpected {self.describe(self.tok)}")
                items.append(item)
            except SelectorError:
                if self.too_deep or self.unmatched:
                    raise
                self.i = start
                self.skip_item()
                self.dropped.append(self.css[self.tokens[start].pos:self.tok.pos].strip())
            if not self.is_delim(","):
                break
            self.advance()
        self.expect_end(")")
        return n.SelectorList(tuple(items))

    def skip_item(self) -> None:
        """Past one item of a list: to the next ',' or ')' outside any block, or the end.
        Blocks nest as in CSS Syntax: a '(' or function ends at ')', a '[' at ']', a '{'
        at '}'. A closer that ends no open block is not <any-value> (CSS Syntax 8.2), which
        even a forgiving list must hold: the whole selector is invalid (`:is(p, a])`)."""
        closers: list[str] = []
        while self.tok.kind != "eof":
            t = self.tok
            if not closers and t.kind == "delim" and t.value in (",", ")"):
                return
            if not nest(closers, t) and t.kind == "delim" and t.value in ")]}":
                self.unmatched = True   # not a syntax error an outer forgiving list may drop
                self.error(f"unmatched '{t.value}'")
            self.advance()

    def expect_end(self, closing: str) -> None:
        if closing:
            if not self.is_delim(closing):
                self.error(f"expected '{closing}', found {self.describe(self.tok)}")
            self.advance()
        elif self.tok.kind != "eof":
            self.error(f"unexpected {self.describe(self.tok)}")

    def leading_combinator(self) -> str:
        if self.tok.kind == "delim" and self.tok.value in COMBINATORS:
            c = self.advance().value
            self.skip_ws()
            return c
        return ""

    def complex(self, scope_relative: bool = False) -> n.Complex:
        compounds: list[n.Compound] = []
        combinators: list[str] = []
        lead = self.leading_combinator() if scope_relative else ""
        if lead:
            # `> p` in tag.select(): relative to the scoping element (like :scope > p).
            compounds.append(n.Compound((n.Pseudo("scope"),)))
            combinators.append(lead)
        elif self.tok.kind == "delim" and self.tok.value in COMBINATORS:
            self.error(f"selector cannot start with '{self.tok.value}'")
        compounds.append(self.compound())
        while True:
            had_ws = self.skip_ws()
            if self.tok.kind == "delim" and self.tok.value in COMBINATORS:
                comb = self.advance()
                self.skip_ws()
                if not self.starts_compound():
                    self.error(f"expected a selector after '{comb.value}'", comb)
                combinators.append(comb.value)
            elif had_ws and self.starts_compound():
                combinators.append(" ")
            else:
                break
            compounds.append(self.compound())
        return n.Complex(tuple(compounds), tuple(combinators))

    def relative(self) -> n.Relative:
        self.skip_ws()
        comb = self.leading_combinator() or " "
        return n.Relative(comb, self.complex())

    def starts_compound(self) -> bool:
        t = self.tok
        return t.kind in ("ident", "hash", "function") or (
            t.kind == "delim" and t.value in "*.[:|&"
        )

    # ---- compound selectors ----
    def compound(self) -> n.Compound:
        parts: list[n.Simple] = []
        universal = False
        if self.tok.kind == "ident" or self.is_delim("*") or self.is_delim("|"):
            name = self.type_selector()
            if name is None:
                parts.append(n.Never("no namespace"))
            elif name == "*":
                universal = True
            else:
                parts.append(n.Tag(ascii_lower(name)))
                parts.extend(in_namespaces(namespaces_named(name, SVG_TAG_NAMES, {})))
        while True:
            t = self.tok
            if t.kind == "hash":
                if not t.id_hash:
                    self.error(f"'#{t.value}' is not a valid id selector (write [id=\"{t.value}\"])")
                self.advance()
                parts.append(n.Id(t.value))
            elif self.is_delim("."):
                self.advance()
                cls = self.tok
                if cls.kind != "ident":
                    self.error("expected a class name after '.'")
                self.advance()
                parts.append(n.Class(cls.value))
            elif self.is_delim("["):
                parts.extend(self.attribute())
            elif self.is_delim("&"):
                # the nesting selector; outside a style rule it stands for :scope (CSS Nesting 1)
                self.advance()
                parts.append(n.Pseudo("scope"))
            elif self.is_delim(":"):
                parts.extend(self.pseudo())
            elif t.kind == "ident" or self.is_delim("*"):
                self.error("a type selector must come first in a compound selector")
            else:
                break
        if not parts and not universal:
            self.error(f"expected a selector, found {self.describe(self.tok)}")
        return n.Compound(tuple(parts))

    def type_selector(self) -> str | None:
        """[ns|]name or [ns|]*: the name as written, '*', or None for `|E`.

        An HTML document puts every element in a namespace (HTML, SVG or MathML):
        `*|E` is E, `|E` (no namespace) matches nothing, and a named prefix is
        an error, since a selector cannot declare one (the spec makes an
        undeclared prefix invalid)."""
        prefix = None
        if not self.is_delim("|"):
            t = self.advance()
            if not self.is_delim("|"):
                return "*" if t.kind == "delim" else t.value
            prefix = t
        bar = self.advance()
        name = self.tok
        if not (name.kind == "ident" or self.is_delim("*")):
            self.error("expected a type selector or '*' after '|'", bar)
        if prefix is not None and prefix.kind == "ident":
            self.error(f"namespace prefix '{prefix.value}' is not declared (write *|{name.value} for"
                       " any namespace)", prefix)
        self.advance()
        if prefix is None:
            return None
        return "*" if name.kind == "delim" else name.value

    def attribute(self) -> tuple[n.Simple, ...]:
        open_ = self.advance()
        self.skip_ws()
        prefix = self.attribute_namespace()
        name = self.tok
        if name.kind != "ident":
            self.error("expected an attribute name")
        self.advance()
        if self.is_delim("|") and self.peek().kind == "ident":   # (`[a|=b]` is dash-match)
            self.error(f"namespace prefix '{name.value}' is not declared (write [*|attr] for any namespace)",
                       name)
        self.skip_ws()
        if self.is_delim("]"):
            self.advance()
            return self.named_attribute(name.value, "", "", "", prefix)
        op = ""
        if self.is_delim("="):
            op = "="
        elif self.tok.kind == "delim" and self.tok.value in "~|^$*!":
            first = self.advance()
            if not self.is_delim("="):
                self.error(f"expected '=' after '{first.value}'")
            op = first.value + "="
        else:
            self.error("expected an attribute operator or ']'")
        self.advance()
        self.skip_ws()
        value = self.tok
        if value.kind not in ("ident", "string"):
            if value.kind == "number":
                self.error(f'quote the attribute value: "{value.value}"')
            self.error("expected an attribute value (an identifier or a quoted string)")
        self.advance()
        self.skip_ws()
        case = ""
        if self.tok.kind == "ident":
            case = ascii_lower(self.tok.value)
            if case not in ("i", "s"):
                self.error("expected ']' or the flag 'i' or 's'")
            self.advance()
            self.skip_ws()
        if not self.is_delim("]"):
            self.error(f"expected ']' to close the '[' at position {open_.pos}")
        self.advance()
        if op == "!=":
            # soupsieve's extension, which BeautifulSoup code uses: :not([a=v])
            equal = self.named_attribute(name.value, "=", value.value, case, prefix)
            return (n.Logical("not", n.SelectorList((n.Complex((n.Compound(equal),), ()),))),)
        return self.named_attribute(name.value, op, value.value, case, prefix)

    def attribute_namespace(self) -> str | None:
        """`*|` (any namespace) or `|` (none) before an attribute name: '*', '' or None."""
        after = self.peek()
        if self.is_delim("*") and after.kind == "delim" and after.value == "|":
            self.advance()
            self.advance()
            return "*"
        if self.is_delim("|") and after.kind == "ident":
            self.advance()
            return ""
        if self.is_delim("*") or self.is_delim("|"):
            self.error("expected an attribute name")
        return None

    @staticmethod
    def named_attribute(written: str, op_: str, value: str, case: str, prefix: str | None) -> tuple[n.Simple, ...]:
        """[a op v], kept to the elements whose attributes a, as written, can name
        (namespaces_named); with the prefix `*|`, also the attribute that SVG and MathML
        elements put in the XLink, XML or XMLNS namespace with local name a (`xlink:href`,
        `xml:lang`; HTML Standard 13.2.6.1)."""
        mask = namespaces_named(written, SVG_ATTRIBUTE_NAMES, MATHML_ATTRIBUTE_NAMES)
        plain = in_namespaces(mask) + (n.Attr(ascii_lower(written), op_, value, case),)
        adjusted = FOREIGN_ATTRIBUTES.get(written) if prefix == "*" else None
        if adjusted is None:
            return plain   # no prefix, or `|a`: HTML attributes are in no namespace
        foreign = n.Compound((_FOREIGN, n.Attr(adjusted, op_, value, case)))
        either = n.SelectorList((n.Complex((n.Compound(plain),), ()), n.Complex((foreign,), ())))
        return (n.Logical("is", either),)

    # ---- pseudo-classes ----
    def pseudo(self) -> tuple[n.Simple, ...]:
        colon = self.advance()
        if self.is_delim(":"):
            after = self.peek()
            dialect = SCRAPY_PSEUDO_ELEMENTS.get(ascii_lower(after.value)) if after.kind in ("ident", "function") else None
            self.error(f"{dialect}; pseudo-elements never match elements" if dialect
                       else "pseudo-elements never match elements", colon)
        t = self.advance()
        name = ascii_lower(t.value)   # \u212a (KELVIN SIGN) is no 'k' to CSS
        if t.kind == "ident":
            if name in INTERNAL_PSEUDO:
                return (n.Pseudo(name),)
            if name in _MACRO_NAMESPACES:   # the macros' way to name an element's namespace
                return (_MACRO_NAMESPACES[name],)
            if name in CHILD_SUGAR:
                return CHILD_SUGAR[name]
            if name in MACROS:
                found = (n.Logical("is", self.macro(name)),)
                return found + (_HTML_ONLY,) if name in HTML_ONLY_MACROS else found
            if name in NEVER_MATCH:
                return (n.Never(f":{name}"),)
            if name in LEGACY_PSEUDO_ELEMENTS:
                self.error(f"':{t.value}' is a pseudo-element (CSS 2's one-colon spelling); "
                           "pseudo-elements never match elements", colon)
            self.unknown(t, colon)
        if t.kind != "function":
            self.error("expected a pseudo-class name after ':'", colon)
        self.enter(colon)
        try:
            if name in ("not", "is", "where", "matches", "any", "-webkit-any"):
                kind = name if name in ("not", "where") else "is"
                if kind == "not":
                    return (n.Logical(kind, self.selector_list(")")),)
                dropped = len(self.dropped)
                items = self.forgiving_list()
                if name == "matches" and not items.selectors and len(self.dropped) > dropped:
                    # :is()'s old name, but what a port from jsoup means is its regular expression
                    self.error(f"':matches()' (the old name of ':is()') holds no valid selector; if this is "
                               f"jsoup's ':matches(regex)', that is not CSS: {_JSOUP_REGEX}", colon)
                return (n.Logical(kind, items) if items.selectors else n.Never(f":{name}()"),)
            if name == "has":
                if self.in_has:
                    self.error(":has() cannot be nested inside :has() (Selectors 4, 4.5)", colon)
                self.in_has = True
                try:
                    return (self.has(),)
                finally:
                    self.in_has = False
            if name in NTH_FUNCTIONS:
                return (self.nth(t, *NTH_FUNCTIONS[name]),)
            if name in ("contains", "-soup-contains", "-soup-contains-own"):
                return (self.contains(own=name == "-soup-contains-own"),)
            if name == "lang":
                return (n.Lang(self.strings("a language range")),)
            if name == "dir":
                return (self.direction(),)
            if name in NEVER_MATCH_FUNCTIONS:
                self.never_match_argument(NEVER_MATCH_FUNCTIONS[name])
                return (n.Never(f":{name}()"),)
            self.unknown(t, colon)
        finally:
            self.depth -= 1

    def never_match_argument(self, kind: str) -> None:
        """Check the argument of a pseudo-class that never matches, up to its ')'."""
        if kind == "list":
            self.selector_list(")")
            return
        self.skip_ws()
        if kind == "compound":
            self.compound()
        elif self.tok.kind == "ident":
            self.advance()
        else:
            self.error("expected an identifier")
        self.skip_ws()
        self.expect_end(")")

    def unknown(self, t: Token, colon: Token) -> NoReturn:
        """An unknown pseudo-class (t its name); jQuery's own say what to use instead."""
        function = t.kind == "function"
        spelt = f":{t.value}()" if function else f":{t.value}"
        hint = JQUERY_PSEUDO.get(ascii_lower(t.value))
        if hint:
            self.error(f"jQuery's '{spelt}' is not CSS: {hint}", colon)
        hint = JSOUP_PSEUDO.get(ascii_lower(t.value)) if function else None
        self.error(f"jsoup's '{spelt}' is not CSS: {hint}" if hint
                   else f"unknown {'functional ' if function else ''}pseudo-class '{spelt}'", colon)

    def enter(self, at: Token) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            self.too_deep = True   # a limit, not a syntax error a forgiving list may drop
            self.error(f"selector nested deeper than {MAX_NESTING} levels", at)

    def macro(self, name: str) -> n.SelectorList:
        return _macro_ast(name)

    def direction(self) -> n.Simple:
        """:dir(ltr) or :dir(rtl); any other identifier is valid and matches nothing."""
        self.skip_ws()
        t = self.tok
        if t.kind != "ident":
            self.error("expected ltr or rtl")
        self.advance()
        self.skip_ws()
        self.expect_end(")")
        value = ascii_lower(t.value)
        return n.Dir(value) if value in ("ltr", "rtl") else n.Never(f":dir({t.value})")

    def has(self) -> n.Has:
        items = [self.relative()]
        self.skip_ws()
        while self.is_delim(","):
            self.advance()
            items.append(self.relative())
            self.skip_ws()
        self.expect_end(")")
        return n.Has(tuple(items))

    def contains(self, own: bool = False) -> n.Contains:
        return n.Contains(self.strings("a quoted string"), own)

    def strings(self, what: str) -> tuple[str, ...]:
        """A comma-separated list of strings or identifiers, up to the closing ')'."""
        texts = []
        while True:
            self.skip_ws()
            t = self.tok
            if t.kind not in ("string", "ident"):
                self.error(f"expected {what}")
            self.advance()
            texts.append(t.value)
            self.skip_ws()
            if self.is_delim(","):
                self.advance()
                continue
            break
        self.expect_end(")")
        return tuple(texts)

    def nth(self, fn: Token, last: bool, of_type: bool) -> n.Nth:
        # An+B is read from its own tokens (anb.py): dimensions and signed numbers, which
        # the selector tokens do not keep apart.
        start = self.tok.pos
        depth = 0
        while True:
            t = self.tok
            if t.kind == "eof":
                self.error("expected ')'")
            if t.kind == "ident" and ascii_lower(t.value) == "of" and depth == 0:
                break
            if self.is_delim(")") and depth == 0:
                break
            if t.kind == "function" or self.is_delim("("):
                depth += 1
            elif self.is_delim(")"):
                depth -= 1
            self.advance()
        written = self.css[start:self.tok.pos]
        try:  # exact integers; Python refuses to read one of more than 4300 digits
            anb = parse_anb(written)
        except ValueError:
            fail(self.css, start, f"An+B number too long ({len(written.strip())} characters)")
        if anb is None:
            fail(self.css, start, f"invalid An+B expression {written.strip()!r} (examples: 2n+1, odd, -n+3, 5)")
        a, b = anb
        of = None
        if self.tok.kind == "ident":  # 'of S'
            if of_type:
                self.error("'of S' is only allowed in :nth-child() and :nth-last-child()")
            self.advance()
            of = self.selector_list(")")
        else:
            self.advance()
        return n.Nth(a, b, last, of_type, of)


_MACRO_CACHE: dict[str, n.SelectorList] = {}


def _macro_ast(name: str) -> n.SelectorList:
    if name not in _MACRO_CACHE:
        _MACRO_CACHE[name] = Parser(MACROS[name]).selector_list()
    return _MACRO_CACHE[name]


def parse(css: str) -> n.SelectorList:
    """Parse a selector list; a leading combinator (`> p`) is relative to :scope."""
    return _parser(css).selector_list(scope_relative=True)


def dropped(css: str) -> list[str]:
    """The items of css's :is() and :where() lists that do not parse, which matching leaves out."""
    p = _parser(css)
    p.selector_list(scope_relative=True)
    return p.dropped


def _parser(css: str) -> Parser:
    """A parser at the first token of css (a str that is not blank)."""
    if not isinstance(css, str):
        raise TypeError(f"selector must be str, not {type(css).__name__}")
    p = Parser(css)
    p.skip_ws()
    if p.tok.kind == "eof":
        fail(css, 0, "empty selector")
    return p
