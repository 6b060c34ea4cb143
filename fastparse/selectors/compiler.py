"""AST -> program: the flat int32 code the C matcher (fastparse/_core/select_*.c) runs.

Compounds are written right to left so the matcher starts at the candidate;
tests inside a compound are ordered cheapest and most selective first.
:has(> A B) is rewritten to the equivalent chain of one-step relations
:has(> A:has(B)), so the matcher only ever answers "does a child / descendant /
next sibling / later sibling match this compound", each memoised per element.
"""

from __future__ import annotations

import struct
import unicodedata
from array import array

from .. import _core
from . import nodes as n
from . import opcodes as op

# HTML Standard 4.16.2 (case-sensitivity of selectors): values of these attributes
# on HTML elements are matched ASCII-case-insensitively unless the `s` flag is given.
HTML_ICASE_ATTRIBUTES = frozenset(["accept", "accept-charset", "align", "alink", "axis", "bgcolor", "charset", "checked", "clear", "codetype", "color", "compact", "declare", "defer", "dir", "direction", "disabled", "enctype", "face", "frame", "hreflang", "http-equiv", "lang", "language", "link", "media", "method", "multiple", "nohref", "noresize", "noshade", "nowrap", "readonly", "rel", "rev", "rules", "scope", "scrolling", "selected", "shape", "target", "text", "type", "valign", "valuetype", "vlink"])

ASCII_WS = " \t\n\r\f"
REPLACEMENT = "\ufffd".encode()

PSEUDO_CODES = {"root": op.T_ROOT, "scope": op.T_SCOPE, "empty": op.T_EMPTY, "defined": op.T_DEFINED,
                "-fp-option-selected": op.T_OPTION_SELECTED, "-fp-radio-kept": op.T_RADIO_KEPT,
                "-fp-default-button": op.T_DEFAULT_BUTTON, "-fp-radio-unchecked": op.T_RADIO_UNCHECKED,
                "-fp-in-range": op.T_IN_RANGE, "-fp-out-of-range": op.T_OUT_OF_RANGE,
                "-fp-value-empty": op.T_VALUE_EMPTY, "-fp-valid": op.T_VALID, "-fp-invalid": op.T_INVALID}

# Cost rank of each test: cheap and selective first, text search last.
COST = {n.Tag: 0, n.Never: 0, n.Namespace: 1, n.Id: 2, n.Class: 3, n.Attr: 4, n.Nth: 5,
        n.Lang: 7, n.Dir: 7, n.Logical: 6, n.Has: 8, n.Contains: 9}
# the form states answered from tables of the whole document's controls
FORM_TABLE_PSEUDOS = {"-fp-radio-kept", "-fp-option-selected", "-fp-default-button", "-fp-radio-unchecked",
                      "-fp-valid", "-fp-invalid"}
PSEUDO_COST = {"root": 1, "scope": 1, "defined": 4, "empty": 5}


# Sibling positions run from 1 to fewer than 2**31: a document's offsets are
# 32-bit and an element takes at least three bytes ("<a>").
MAX_POSITION = 2**31 - 1


def anb_in_range(a: int, b: int) -> tuple[int, int]:
    """An+B rewritten to match the same positions in 1..MAX_POSITION with both
    numbers in the program's int32 words (the selector may say 99999999999n+1).
    (0, 0) matches nothing."""
    if a > 0 and b < 1:
        b += a * -(-(1 - b) // a)        # the first term >= 1
    elif a < 0 and b > MAX_POSITION:
        b += a * -(-(b - MAX_POSITION) // -a)   # the last term <= MAX_POSITION
    if not 1 <= b <= MAX_POSITION:
        return 0, 0
    if abs(a) > MAX_POSITION:
        return 0, b                      # the next term is out of range
    return a, b


def cost(p: n.Simple) -> int:
    if isinstance(p, n.Pseudo):
        return PSEUDO_COST.get(p.name, 7)  # the form state tests walk the tree
    return COST[type(p)]


class Compiler:
    def __init__(self) -> None:
        self.code = array("i", [0] * op.HEADER_WORDS)
        self.strings: list[bytes] = []
        self.string_index: dict[bytes, int] = {}
        self.tags: list[int] = []   # per tag slot: string index, known tag id (0: none)
        self.tag_slot: dict[str, int] = {}
        self.n_has = 0
        self.n_nthof = 0
        self.flags = 0
        self.needs_codec = False

    # ---- pools ----
    def string(self, s: str) -> int:
        return self.raw_string(s.encode("utf-8", "surrogatepass"))

    def raw_string(self, b: bytes) -> int:
        if b not in self.string_index:
            self.string_index[b] = len(self.strings)
            self.strings.append(b)
        return self.string_index[b]

    def tag(self, name: str) -> int:
        if name not in self.tag_slot:
            self.tag_slot[name] = len(self.tags) // 2
            self.tags += [self.string(name), _core._known_tag(name.encode("utf-8", "surrogatepass"))]
        return self.tag_slot[name]

    def emit(self, words: list[int]) -> int:
        at = len(self.code)
        self.code.extend(words)
        return at

    # ---- nodes (children first, so every offset is known when the parent is written) ----
    def selector_list(self, sl: n.SelectorList) -> int:
        offs = [self.complex(c) for c in sl.selectors]
        return self.emit([op.OP_LIST, len(offs), *offs])

    def complex(self, cx: n.Complex) -> int:
        comps = [self.compound(c) for c in cx.compounds]
        if any(comb in "+~" for comb in cx.combinators):
            self.flags |= op.F_SIBLINGS
        words = [op.OP_COMPLEX, len(comps), comps[-1]]
        for k in range(len(comps) - 2, -1, -1):
            words += [op.COMBINATOR_CODES[cx.combinators[k]], comps[k]]
        return self.emit(words)

    def compound(self, c: n.Compound, extra: tuple[list[int], ...] = ()) -> int:
        tests: list[list[int]] = []
        for part in sorted(c.parts, key=cost):
            tests.append(self.test(part))
        tests.extend(extra)
        if any(t[0] == op.T_FALSE for t in tests):
            tests = [[op.T_FALSE]]
        words = [op.OP_COMPOUND, len(tests)]
        for t in tests:
            words += t
        return self.emit(words)

    def test(self, p: n.Simple) -> list[int]:
        if isinstance(p, n.Tag):
            return [op.T_TAG, self.tag(p.name)]
        if isinstance(p, n.Id):
            return [op.T_ID, self.string(p.name)]
        if isinstance(p, n.Class):
            return [op.T_CLASS, self.string(p.name)]
        if isinstance(p, n.Attr):
            return self.attribute(p)
        if isinstance(p, n.Pseudo):
            if p.name.startswith("-fp-"):
                self.flags |= op.F_FORMS
                if p.name in FORM_TABLE_PSEUDOS:
                    self.flags |= op.F_FORM_TABLES
            return [PSEUDO_CODES[p.name]]
        if isinstance(p, n.Never):
            return [op.T_FALSE]
        if isinstance(p, n.Namespace):
            return [op.T_NAMESPACE, p.mask]
        if isinstance(p, n.Logical):
            code = op.T_NOT if p.kind == "not" else op.T_IS
            return [code, self.selector_list(p.selectors)]
        if isinstance(p, n.Nth):
            return self.nth(p)
        if isinstance(p, n.Has):
            return self.has(p)
        if isinstance(p, n.Lang):
            return [op.T_LANG, len(p.ranges), *(self.string(r) for r in p.ranges)]
        if isinstance(p, n.Dir):
            self.needs_codec = True   # a legacy document's bytes need its codec's table
            return [op.T_DIR, op.DIR_LTR if p.direction == "ltr" else op.DIR_RTL, self.raw_string(op.DIR_TABLE)]
        if isinstance(p, n.Contains):
            self.flags |= op.F_SUBSTRING
            code = op.T_CONTAINS_OWN if p.own else op.T_CONTAINS
            return [code, len(p.texts), *(self.string(t) for t in p.texts)]
        raise AssertionError(p)

    def attribute(self, a: n.Attr) -> list[int]:
        flags = 0
        if a.op == "":
            pass
        elif a.case == "i":
            flags = op.AF_ICASE
        elif a.case == "" and a.name in HTML_ICASE_ATTRIBUTES:
            flags = op.AF_ICASE_HTML
        v = a.value
        # Selectors 4 section 6.3/6.4: these can never match.
        if (a.op in ("^=", "$=", "*=") and v == "") or (
            a.op == "~=" and (v == "" or any(c in ASCII_WS for c in v))
        ):
            return [op.T_FALSE]
        if a.op in ("$=", "*="):
            self.flags |= op.F_SUBSTRING
        return [op.T_ATTR, op.ATTR_OPS[a.op], flags, self.string(a.name), self.string(v)]

    def nth(self, p: n.Nth) -> list[int]:
        self.flags |= op.F_SIBLINGS | (op.F_OF_TYPE if p.of_type else 0)
        flags = (op.NTH_LAST if p.last else 0) | (op.NTH_OF_TYPE if p.of_type else 0)
        of, slot = -1, -1
        if p.of is not None:
            of = self.selector_list(p.of)
            slot = self.n_nthof
            self.n_nthof += 1
        a, b = anb_in_range(p.a, p.b)
        return [op.T_NTH, flags, a, b, of, slot]

    def has(self, h: n.Has) -> list[int]:
        steps = [self.relative(r.combinator, r.selector) for r in h.selectors]
        if len(steps) == 1:
            return steps[0]
        # :has(A, B) == :is(:has(A), :has(B))
        alts = [self.emit([op.OP_COMPLEX, 1, self.emit([op.OP_COMPOUND, 1, *s])]) for s in steps]
        return [op.T_IS, self.emit([op.OP_LIST, len(alts), *alts])]

    def relative(self, comb: str, cx: n.Complex, k: int = 0) -> list[int]:
        """The one-step test `:has(comb compounds[k] ...)`, nesting the rest inside."""
        if comb in "+~":
            self.flags |= op.F_SIBLINGS
        extra: tuple[list[int], ...] = ()
        if k + 1 < len(cx.compounds):
            extra = (self.relative(cx.combinators[k], cx, k + 1),)
        target = self.compound(cx.compounds[k], extra)
        slot = self.n_has
        self.n_has += 1
        return [op.T_HAS, op.COMBINATOR_CODES[comb], target, slot]

    # ---- the whole program ----
    def finish(self, root: int) -> bytes:
        code = self.code
        tag_table = self.emit(self.tags)
        pool = bytearray()
        table = []
        for s in self.strings:
            table += [len(pool), len(s)]
            pool += s
        string_table = self.emit(table)
        non_ascii = op.NONASCII_ANY if self.needs_codec or any(b >= 0x80 for b in pool) else 0
        if any(REPLACEMENT in s for s in self.strings):
            non_ascii |= op.NONASCII_REPLACEMENT
        code[: op.HEADER_WORDS] = array("i", [
            op.MAGIC, len(code), root, self.flags, self.n_has, self.n_nthof,
            len(self.tags) // 2, tag_table, len(self.strings), string_table, non_ascii,
        ])
        return code.tobytes() + bytes(pool)


def compile_selector(sl: n.SelectorList) -> bytes:
    c = Compiler()
    root = c.selector_list(sl)
    return c.finish(root)


def read_header(program: bytes) -> list[int]:
    return list(struct.unpack_from(f"={op.HEADER_WORDS}i", program))


def strings_of(program: bytes) -> list[bytes]:
    h = read_header(program)
    words = array("i", program[: h[op.H_CODE_LEN] * 4])
    pool = program[h[op.H_CODE_LEN] * 4:]
    out = []
    for k in range(h[op.H_NSTR]):
        off, length = words[h[op.H_STRS] + 2 * k], words[h[op.H_STRS] + 2 * k + 1]
        out.append(pool[off:off + length])
    return out


def high_byte_directions(codec: str) -> bytes:
    """For :dir(): the strong direction ('L', 'R' or 'N') of each byte 0x80-0xFF in a legacy
    encoding. A byte that is no character alone leads a multi-byte one (Shift_JIS, GBK,
    EUC-KR, Big5...), whose scripts read left to right: 'L'."""
    out = bytearray()
    for b in range(0x80, 0x100):
        try:
            ch = bytes([b]).decode(codec)
        except UnicodeDecodeError:
            out += b"L"
            continue
        cls = unicodedata.bidirectional(ch[0]) if len(ch) == 1 else ""
        out += b"L" if cls == "L" else b"R" if cls in ("R", "AL") else b"N"
    return bytes(out)


def transcode(program: bytes, codec: str) -> bytes:
    """The same program with its strings in a legacy document's encoding.

    A string the codec cannot represent is replaced by one that contains a NUL
    byte, which never occurs in a decoded attribute value or text, so it cannot match.
    """
    h = read_header(program)
    words = array("i", program[: h[op.H_CODE_LEN] * 4])
    pool = bytearray()
    for k, s in enumerate(strings_of(program)):
        try:
            b = high_byte_directions(codec) if s == op.DIR_TABLE else s.decode("utf-8", "surrogatepass").encode(codec)
        except UnicodeError:
            b = b"\0" + s
        words[h[op.H_STRS] + 2 * k] = len(pool)
        words[h[op.H_STRS] + 2 * k + 1] = len(b)
        pool += b
    words[op.H_NONASCII] = 0  # already transcoded
    return words.tobytes() + bytes(pool)
