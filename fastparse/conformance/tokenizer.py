"""The html5lib tokenizer suite (issue 2) mapped to documents, and the check of what a
parser's document shows against each test's tokens."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .adapters import Skip
from .suites import TOKENIZER_DIR

#
# The tokenizer tests give the token stream of an input, before any tree builder. A flat
# index exposes what a tree shows instead, so each test is mapped to a document:
#
# * initialState "Data state": the input is the document.
# * "RCDATA" / "RAWTEXT" / "Script data" / "PLAINTEXT": the input is wrapped in a start tag
#   of that kind (lastStartTag when it names such an element, else textarea / xmp / script
#   / plaintext), which puts the tokenizer in that state, and the expected elements start
#   with the wrapper. When lastStartTag differs from the wrapper, the mapping is only sound
#   if the input contains neither "</lastStartTag" nor "</wrapper"; otherwise excluded.
# * "CDATA section state": the input follows "<svg><![CDATA[", when the expected tokens
#   are all characters (tags after the section would be in foreign content).
#
# Compared: start tags as elements in document order (name and attributes, first duplicate
# wins); character data as doc.text (NUL dropped as the tree builder does in body, or
# U+FFFD in foreign content; the newline right after <pre>/<listing>/<textarea> dropped;
# leading whitespace of the document not compared, on either side: the tree builder drops
# it before <html>); comments as doc.comments (their text) and the doctype name as
# doc.doctype (a peer's view may leave either NOT_EXPOSED: not compared).
# Excluded, each with its reason (tokenizer_exclusion): start tags the tree builder
# ignores, merges or renames by position, start tags that switch the tokenizer state when
# more input follows them (the test does not model the switch), foreign content, tables,
# select and nested forms when input follows, "</p>" and "</br>" (the tree makes elements
# of them), lone surrogates (no UTF-8 carries them), xmlViolation.test (it expects the
# XML-infoset coercion, not HTML), and "<?" with a letter after it, which the suite predates
# as a processing instruction (tests/test_api.py has those cases).

_IGNORED_IN_BODY = {"caption", "col", "colgroup", "frame", "tbody", "td", "tfoot", "th",
                    "thead", "tr"}
_POSITIONAL = {"html", "head", "body", "frameset"}
_SWITCHES_STATE = {"script", "style", "textarea", "title", "xmp", "iframe", "noembed",
                   "noframes", "plaintext", "noscript"}
_CONTEXT_CHANGING = {"svg", "math", "table", "select", "template"}
_NEWLINE_EATERS = {"pre", "listing", "textarea"}
_WRAPPERS = {
    "RCDATA state": ({"title", "textarea"}, "textarea"),
    "RAWTEXT state": ({"xmp", "style", "iframe", "noembed", "noframes"}, "xmp"),
    "Script data state": ({"script"}, "script"),
    "PLAINTEXT state": ({"plaintext"}, "plaintext"),
}

PI_OPEN = re.compile(r"<\?(?:[A-Za-z_]|\Z)")   # a processing instruction's start (see tokenizer_exclusion)
NOT_EXPOSED = object()   # the Document has no such attribute: that part is not checked


@dataclass
class TokenizerTest:
    file: str
    number: int            # 1-based position in the file
    description: str
    input: str
    output: list
    state: str
    last_start_tag: str | None
    errors: list

    @property
    def id(self) -> str:
        return f"{self.file}:{self.number} [{self.state}] {self.description}"


def _unescape_double(s: str) -> str:
    return re.sub(r"\\u([0-9A-Fa-f]{4})", lambda m: chr(int(m.group(1), 16)), s)


def _unescape_tokens(value):
    if isinstance(value, str):
        return _unescape_double(value)
    if isinstance(value, list):
        return [_unescape_tokens(v) for v in value]
    if isinstance(value, dict):
        return {_unescape_double(k): _unescape_tokens(v) for k, v in value.items()}
    return value


def read_tokenizer_tests(directory: Path = TOKENIZER_DIR) -> list[TokenizerTest]:
    """Every (test, initial state) pair of every .test file, xmlViolation.test included."""
    out: list[TokenizerTest] = []
    for path in sorted(directory.glob("*.test")):
        with open(path, encoding="utf-8") as f:
            raw = json.load(f)
        tests = raw.get("tests", raw.get("xmlViolationTests", []))
        for n, t in enumerate(tests, 1):
            text, output = t["input"], t["output"]
            if t.get("doubleEscaped"):
                text, output = _unescape_double(text), _unescape_tokens(output)
            for state in t.get("initialStates", ["Data state"]):
                out.append(TokenizerTest(path.name, n, t["description"], text, output, state,
                                         t.get("lastStartTag"), t.get("errors", [])))
    return out


@dataclass
class TokenView:
    """What a tree shows of a token stream: the part a flat index can expose."""
    elements: list[tuple[str, dict[str, str]]]
    text: str
    comments: list[str] | object = NOT_EXPOSED
    doctype: str | None | object = NOT_EXPOSED


def _contains_end_tag(text: str, name: str) -> bool:
    return ("</" + name) in text.lower()


def tokenizer_exclusion(test: TokenizerTest) -> str | None:
    """Why this test cannot be compared through a tree, or None when it can."""
    if test.file == "xmlViolation.test":
        return "expects the XML-infoset coercion of the DOM, not the HTML tree"
    if any(0xD800 <= ord(c) <= 0xDFFF for c in test.input):
        return "input holds a lone surrogate: no UTF-8 document carries it"
    if test.state == "Data state" and PI_OPEN.search(test.input):
        return ("written before the HTML Standard parsed processing instructions (whatwg/html "
                "320c05f, 2026-06-25): '<?' and a letter or '_' open one, no bogus comment (nor '<?' at the end)")
    if test.state in _WRAPPERS:
        allowed, default = _WRAPPERS[test.state]
        wrapper = test.last_start_tag if test.last_start_tag in allowed else default
        if test.last_start_tag != wrapper and test.state != "PLAINTEXT state":
            for name in filter(None, (test.last_start_tag, wrapper)):
                if _contains_end_tag(test.input, name):
                    return (f"lastStartTag {test.last_start_tag!r} cannot be a {test.state} "
                            f"element and the input holds '</{name}'")
    if test.state == "CDATA section state" and any(t[0] != "Character" for t in test.output):
        return "tokens after the CDATA section would be in SVG foreign content"
    tokens = test.output
    forms = 0
    for i, tok in enumerate(tokens):
        followed = i + 1 < len(tokens)
        if tok[0] == "EndTag" and tok[1] in ("p", "br"):
            return f"the tree builder makes an element of </{tok[1]}>"
        if tok[0] != "StartTag":
            continue
        name = tok[1]
        if name in _IGNORED_IN_BODY:
            return f"the tree builder ignores <{name}> outside a table"
        if name in _POSITIONAL:
            return f"the tree builder keeps, merges or ignores <{name}> by position"
        if name == "form":
            forms += 1
            if forms > 1:
                return "the tree builder ignores a <form> inside a <form>"
        if followed and name in _SWITCHES_STATE:
            return f"<{name}> switches the tokenizer state for the input after it"
        if followed and name in _CONTEXT_CHANGING:
            return f"<{name}> changes how the following tokens are built into the tree"
    return None


def tokenizer_document(test: TokenizerTest) -> tuple[str, TokenView]:
    """The document to parse and the view a conforming tree shows of it.

    Raises Skip (with the reason) for an excluded test."""
    reason = tokenizer_exclusion(test)
    if reason:
        raise Skip(reason)
    tokens = list(test.output)
    source = test.input
    if test.state in _WRAPPERS:
        allowed, default = _WRAPPERS[test.state]
        wrapper = test.last_start_tag if test.last_start_tag in allowed else default
        source = f"<{wrapper}>" + source
        tokens.insert(0, ["StartTag", wrapper, {}])
    elif test.state == "CDATA section state":
        source = "<svg><![CDATA[" + source
        tokens.insert(0, ["StartTag", "svg", {}])

    elements: list[tuple[str, dict[str, str]]] = []
    texts: list[str] = []
    comments: list[str] = []
    doctype: str | None = None
    started = False          # a start tag or non-whitespace character was seen
    eat_newline = False
    for tok in tokens:
        kind = tok[0]
        if kind == "StartTag":
            name = "img" if tok[1] == "image" else tok[1]
            elements.append((name, dict(tok[2])))
            started = True
            eat_newline = name in _NEWLINE_EATERS
            continue
        if kind == "Character":
            data = tok[1]
            if eat_newline and data.startswith("\n"):
                data = data[1:]
            data = data.replace("\0", "\ufffd" if test.state == "CDATA section state" else "")
            if not started and data.strip(" \t\n\f\r"):
                started = True
            texts.append(data)
        elif kind == "Comment":
            comments.append(tok[1])
        elif kind == "DOCTYPE" and not started and doctype is None and not elements:
            doctype = tok[1] if tok[1] is not None else ""
            started = True   # a later DOCTYPE is a parse error and ignored
        eat_newline = False
    text = "".join(texts)
    if test.state == "Data state":
        text = text.lstrip(" \t\n\f\r")
    return source, TokenView(elements, text, comments, doctype)


def fastparse_token_view(source: str) -> TokenView:
    import fastparse as fp
    doc = fp.parse(source)
    return TokenView([(t.name, dict(t.attrs)) for t in doc], doc.text or "",
                     [c.text for c in doc.comments], doc.doctype)


def turbohtml_token_view(source: str) -> TokenView:
    """A spec parser's tree seen the same way (validates the mapping, not turbohtml).

    Implied html/head/body are dropped (excluded tests are the only ones with those start
    tags); attribute names are lower-cased (SVG/MathML adjust their case)."""
    import turbohtml
    doc = turbohtml.parse(source, positions=False, allow_declarative_shadow_roots=False)
    elements, texts, comments = [], [], []
    doctype: str | None = None

    def walk(node) -> None:
        nonlocal doctype
        for child in node.children:
            kind = type(child).__name__
            if kind == "Element":
                if child.tag.lower() not in ("html", "head", "body"):
                    attrs = {k.lower().replace("xlink ", "xlink:").replace("xml ", "xml:"): v
                             for k, v in dict(child.attrs).items()}
                    elements.append((child.tag.lower(), attrs))
                walk(child)
            elif kind == "DocumentFragment":
                walk(child)
            elif kind in ("Text", "CData"):
                texts.append(child.text)
            elif kind == "Comment":
                comments.append(child.data if hasattr(child, "data") else child.text)
            elif kind == "Doctype":
                doctype = child.name or ""

    walk(doc)
    return TokenView(elements, "".join(texts), comments, doctype)


TOKEN_VIEWS: dict[str, Callable[[str], TokenView]] = {
    "fastparse": fastparse_token_view,
    "turbohtml": turbohtml_token_view,
}


def tokenizer_check(test: TokenizerTest, view: Callable[[str], TokenView]) -> list[str]:
    """Differences between what the parser shows and what the test expects ([] = pass).

    Raises Skip for an excluded test. Parts the parser does not expose are not checked."""
    source, expected = tokenizer_document(test)
    actual = view(source)
    problems = []
    if actual.elements != expected.elements:
        problems.append(f"elements {actual.elements!r} != {expected.elements!r}")
    text = actual.text.lstrip(" \t\n\f\r") if test.state == "Data state" else actual.text
    if text != expected.text:
        problems.append(f"text {text!r} != {expected.text!r}")
    if actual.comments is not NOT_EXPOSED and actual.comments != expected.comments:
        problems.append(f"comments {actual.comments!r} != {expected.comments!r}")
    if actual.doctype is not NOT_EXPOSED and actual.doctype != expected.doctype:
        problems.append(f"doctype {actual.doctype!r} != {expected.doctype!r}")
    return problems
