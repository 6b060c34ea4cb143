"""Split a selector string into tokens, as CSS Syntax Level 3 (section 4) does.

Only the token kinds selectors use: idents, functions, hashes, strings,
numbers-with-units as raw text (anb.py reads An+B again, from its own tokens),
single-character delimiters and whitespace. Escapes are resolved here, so the
parser sees plain names.
Comments are dropped. Every token keeps its start offset for error carets.
Input that ends inside a string, a comment, a block or a function is closed
there, as CSS Syntax reads it (a string or comment to the end, then the
closing tokens, zero-width at the end).
"""

from __future__ import annotations

from dataclasses import dataclass

from .diagnostics import fail

WHITESPACE = " \t\n\r\f"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
HEX = "0123456789abcdefABCDEF"
DIGITS = "0123456789"


@dataclass(frozen=True)
class Token:
    kind: str      # ident function hash string delim ws eof
    value: str     # decoded name / string / the delimiter character
    pos: int       # offset of the token's first character
    end: int       # offset just after it
    id_hash: bool = False  # hash token whose name is a valid identifier (#id)


def ascii_lower(name: str) -> str:
    """CSS and HTML fold names ASCII only: `[É]` names the attribute the HTML tokenizer
    keeps as `É`, and U+212A KELVIN SIGN is no `k`."""
    return name.translate(_ASCII_LOWER)


def _is_replaced(c: str) -> bool:
    return c == "\0" or "\ud800" <= c <= "\udfff"


def _preprocess(css: str) -> str:
    """CSS Syntax 3.3: NUL and surrogates read as U+FFFD, one character for one so offsets hold."""
    if "\0" not in css and (css.isascii() or not any(map(_is_replaced, css))):
        return css
    return "".join("\ufffd" if _is_replaced(c) else c for c in css)


def _is_name_start(c: str) -> bool:
    return c.isascii() and (c.isalpha() or c == "_") or (not c.isascii() and c != "")


def _is_name(c: str) -> bool:
    return _is_name_start(c) or (c.isascii() and (c.isdigit() or c == "-"))


def _valid_escape(css: str, i: int) -> bool:
    return i < len(css) and css[i] == "\\" and (i + 1 >= len(css) or css[i + 1] not in "\n\r\f")


def starts_ident(css: str, i: int) -> bool:
    c = css[i] if i < len(css) else ""
    if c == "-":
        n = css[i + 1] if i + 1 < len(css) else ""
        return _is_name_start(n) or n == "-" or _valid_escape(css, i + 1)
    return _is_name_start(c) or _valid_escape(css, i)


def _escape(css: str, i: int) -> tuple[str, int]:
    """Consume the escape whose backslash is at css[i]; returns (char, next i)."""
    i += 1
    if i >= len(css):
        return "\ufffd", i  # backslash at end of input: U+FFFD (CSS Syntax 4.3.7)
    j = i
    while j < len(css) and j - i < 6 and css[j] in HEX:
        j += 1
    if j == i:
        return css[i], i + 1
    cp = int(css[i:j], 16)
    if j < len(css) and css[j] in WHITESPACE:
        j += 2 if css.startswith("\r\n", j) else 1
    if cp == 0 or 0xD800 <= cp <= 0xDFFF or cp > 0x10FFFF:
        return "\ufffd", j
    return chr(cp), j


def name_at(css: str, i: int) -> tuple[str, int]:
    out = []
    while i < len(css):
        c = css[i]
        if _is_name(c):
            out.append(c)
            i += 1
        elif _valid_escape(css, i):
            ch, i = _escape(css, i)
            out.append(ch)
        else:
            break
    return "".join(out), i


def _string(css: str, i: int) -> tuple[str, int]:
    quote = css[i]
    start = i
    i += 1
    out: list[str] = []
    while True:
        if i >= len(css):
            return "".join(out), i  # EOF closes a string (a parse error CSS forgives)
        c = css[i]
        if c == quote:
            return "".join(out), i + 1
        if c in "\n\r\f":
            fail(css, start, "unterminated string")
        if c == "\\":
            if i + 1 == len(css):   # a backslash that ends the input adds nothing to a string
                return "".join(out), i + 1
            if css[i + 1] in "\n\r\f":  # line continuation
                i += 3 if css.startswith("\r\n", i + 1) else 2
                continue
            ch, i = _escape(css, i)
            out.append(ch)
            continue
        out.append(c)
        i += 1


def tokenize(css: str) -> list[Token]:
    css = _preprocess(css)
    tokens: list[Token] = []
    i = 0
    n = len(css)
    while i < n:
        c = css[i]
        start = i
        if c in WHITESPACE:
            while i < n and css[i] in WHITESPACE:
                i += 1
            tokens.append(Token("ws", " ", start, i))
        elif css.startswith("/*", i):
            end = css.find("*/", i + 2)
            i = n if end < 0 else end + 2  # a comment the end of input closes (CSS Syntax 4.3.2)
        elif c in "\"'":
            value, i = _string(css, i)
            tokens.append(Token("string", value, start, i))
        elif c == "#" and i + 1 < n and (_is_name(css[i + 1]) or _valid_escape(css, i + 1)):
            is_id = starts_ident(css, i + 1)
            value, i = name_at(css, i + 1)
            tokens.append(Token("hash", value, start, i, id_hash=is_id))
        elif starts_ident(css, i):
            value, i = name_at(css, i)
            if i < n and css[i] == "(":
                tokens.append(Token("function", value, start, i + 1))
                i += 1
            else:
                tokens.append(Token("ident", value, start, i))
        elif c in DIGITS or (c in "+-." and i + 1 < n and css[i + 1] in DIGITS):
            # numbers only appear inside :nth-*(); the parser re-reads that raw text
            i += 1
            while i < n and (css[i] in DIGITS or (css[i].isascii() and css[i].isalpha()) or css[i] == "."):
                i += 1
            tokens.append(Token("number", css[start:i], start, i))
        elif c == "\\":
            fail(css, i, "invalid escape")
        else:
            tokens.append(Token("delim", c, start, i + 1))
            i += 1
    tokens.extend(Token("delim", closer, n, n) for closer in reversed(_open_blocks(tokens)))
    tokens.append(Token("eof", "", n, n))
    return tokens


OPENERS = {"(": ")", "[": "]", "{": "}"}


def nest(closers: list[str], t: Token) -> bool:
    """Keep closers, the closing characters of the open blocks and functions (innermost
    last), up to date with token t; False when t neither opens nor closes one."""
    if t.kind == "function":
        closers.append(")")
    elif t.kind == "delim" and t.value in OPENERS:
        closers.append(OPENERS[t.value])
    elif t.kind == "delim" and closers and t.value == closers[-1]:
        closers.pop()
    else:
        return False
    return True


def _open_blocks(tokens: list[Token]) -> list[str]:
    """The closers of the blocks and functions still open at the end of input. CSS Syntax
    (5.4.8, 5.4.9) ends them there as if closed, so browsers take `[href="x"` or `:is(p`
    as written with their ']' and ')'; the tokenizer adds them."""
    closers: list[str] = []
    for t in tokens:
        nest(closers, t)
    return closers
