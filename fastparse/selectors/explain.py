"""explain(css): the compiled program of a selector, disassembled for humans.

It reads the bytes the C matcher runs (not the AST), so what it prints is
exactly what is executed. Used by the teaching notebook and when debugging.
"""

from __future__ import annotations

from array import array

from . import opcodes as op
from .compiler import read_header, strings_of

COMB_NAMES = {op.COMB_DESCENDANT: "descendant ( )", op.COMB_CHILD: "child (>)",
              op.COMB_NEXT: "next sibling (+)", op.COMB_LATER: "later sibling (~)"}
ATTR_NAMES = {v: k for k, v in op.ATTR_OPS.items()}
SIMPLE = {op.T_ROOT: ":root", op.T_SCOPE: ":scope", op.T_EMPTY: ":empty",
          op.T_DEFINED: ":defined", op.T_FALSE: "never matches",
          op.T_OPTION_SELECTED: "option selectedness (HTML)", op.T_RADIO_KEPT: "radio still checked in its group (HTML)",
          op.T_DEFAULT_BUTTON: "first submit button of its form (HTML)",
          op.T_RADIO_UNCHECKED: "radio group without a checked radio (HTML)",
          op.T_IN_RANGE: "value within min/max (HTML)", op.T_OUT_OF_RANGE: "value outside min/max (HTML)",
          op.T_VALUE_EMPTY: "empty value (HTML)", op.T_VALID: "satisfies its constraints (HTML)",
          op.T_INVALID: "fails a constraint (HTML)"}
NAMESPACE_NAMES = ((op.NS_HTML, "HTML"), (op.NS_SVG, "SVG"), (op.NS_MATHML, "MathML"))


class _Disassembler:
    def __init__(self, program: bytes):
        self.h = read_header(program)
        self.w = array("i", program[: self.h[op.H_CODE_LEN] * 4])
        self.s = [b.decode("utf-8", "replace") for b in strings_of(program)]
        self.lines: list[str] = []

    def out(self, depth: int, at: int, text: str) -> None:
        self.lines.append(f"{at:4d}  {'  ' * depth}{text}")

    def tag_name(self, slot: int) -> str:
        return self.s[self.w[self.h[op.H_TAGS] + 2 * slot]]

    def list_(self, at: int, depth: int, title: str) -> None:
        count = self.w[at + 1]
        self.out(depth, at, f"{title}: any of {count} selector{'s' if count != 1 else ''}")
        for k in range(count):
            self.complex(self.w[at + 2 + k], depth + 1)

    def complex(self, at: int, depth: int) -> None:
        w = self.w
        ncomp = w[at + 1]
        self.out(depth, at, f"COMPLEX {ncomp} compound{'s' if ncomp != 1 else ''}, right to left")
        self.compound(w[at + 2], depth + 1, "candidate")
        for k in range(1, ncomp):
            comb = COMB_NAMES[w[at + 1 + 2 * k]]
            self.compound(w[at + 2 + 2 * k], depth + 1, f"then via {comb}")

    def compound(self, at: int, depth: int, role: str) -> None:
        w = self.w
        ntests = w[at + 1]
        self.out(depth, at, f"COMPOUND ({role}): all of {ntests} test{'s' if ntests != 1 else ''}"
                 + ("  [matches any element]" if ntests == 0 else ""))
        pc = at + 2
        for _ in range(ntests):
            pc = self.test(pc, depth + 1)

    def test(self, pc: int, depth: int) -> int:
        w, s = self.w, self.s
        t = w[pc]
        if t == op.T_TAG:
            self.out(depth, pc, f"TAG {self.tag_name(w[pc + 1])}")
        elif t == op.T_ID:
            self.out(depth, pc, f"ID {s[w[pc + 1]]!r}")
        elif t == op.T_CLASS:
            self.out(depth, pc, f"CLASS {s[w[pc + 1]]!r}")
        elif t == op.T_ATTR:
            kind, flags, name, value = w[pc + 1], w[pc + 2], s[w[pc + 3]], s[w[pc + 4]]
            text = f"ATTR [{name}]" if kind == op.A_EXISTS else f"ATTR [{name}{ATTR_NAMES[kind]}{value!r}]"
            if flags & op.AF_ICASE:
                text += " case-insensitive"
            elif flags & op.AF_ICASE_HTML:
                text += " case-insensitive on HTML elements"
            self.out(depth, pc, text)
        elif t in (op.T_NOT, op.T_IS):
            self.list_(w[pc + 1], depth, "NOT" if t == op.T_NOT else "IS")
        elif t == op.T_HAS:
            comb = COMB_NAMES[w[pc + 1]]
            self.out(depth, pc, f"HAS a {comb.split(' (')[0]} matching (memo slot {w[pc + 3]}):")
            self.compound(w[pc + 2], depth + 1, "relative")
        elif t == op.T_NTH:
            flags, a, b, of, slot = w[pc + 1: pc + 6]
            which = "nth-last" if flags & op.NTH_LAST else "nth"
            which += "-of-type" if flags & op.NTH_OF_TYPE else "-child"
            self.out(depth, pc, f"NTH :{which}({a}n{b:+d})" + (f" of (memo slot {slot}):" if of >= 0 else ""))
            if of >= 0:
                self.list_(of, depth + 1, "OF")
        elif t == op.T_LANG:
            ranges = [s[w[pc + 2 + k]] for k in range(w[pc + 1])]
            self.out(depth, pc, "LANG any of " + ", ".join(map(repr, ranges)))
            return pc + 2 + w[pc + 1]
        elif t in (op.T_CONTAINS, op.T_CONTAINS_OWN):
            texts = [s[w[pc + 2 + k]] for k in range(w[pc + 1])]
            what = "CONTAINS" if t == op.T_CONTAINS else "CONTAINS (own text)"
            self.out(depth, pc, f"{what} any of " + ", ".join(map(repr, texts)))
            return pc + 2 + w[pc + 1]
        elif t == op.T_NAMESPACE:
            names = [name for bit, name in NAMESPACE_NAMES if w[pc + 1] & bit]
            self.out(depth, pc, f"NAMESPACE {' or '.join(names)} element")
        elif t == op.T_DIR:
            self.out(depth, pc, f"DIR :dir({'ltr' if w[pc + 1] == op.DIR_LTR else 'rtl'}) (HTML directionality)")
        elif t in SIMPLE:
            self.out(depth, pc, SIMPLE[t].upper() if t == op.T_FALSE else SIMPLE[t])
        else:
            raise ValueError(f"unknown test code {t} at word {pc}")
        return pc + op.TEST_WORDS[t]


def disassemble(program: bytes) -> str:
    d = _Disassembler(program)
    h = d.h
    d.lines.append(f"program: {len(program)} bytes, {h[op.H_CODE_LEN]} words, "
                   f"{h[op.H_NSTR]} strings, {h[op.H_NTAGS]} tag names, "
                   f"{h[op.H_NHAS]} :has memo slots, {h[op.H_NNTHOF]} nth-of memo slots")
    needs = [name for bit, name in ((op.F_SIBLINGS, "sibling positions"),
                                    (op.F_OF_TYPE, "per-type positions"),
                                    (op.F_FORMS, "form state"),
                                    (op.F_FORM_TABLES, "form tables"),
                                    (op.F_SUBSTRING, "substring search")) if h[op.H_FLAGS] & bit]
    if needs:
        d.lines.append("needs: " + ", ".join(needs))
    d.list_(h[op.H_ROOT], 0, "SELECT")
    return "\n".join(d.lines)
