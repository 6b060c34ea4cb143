"""The selector AST: what the parser builds and the compiler consumes.

Frozen dataclasses, so equal selectors compare equal in tests. Names are
already unescaped; tag and attribute names already ASCII-lower-cased (HTML
elements match them ASCII-case-insensitively; where a name as written cannot
name an SVG or MathML element's, the parser adds a Namespace test).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tag:
    name: str                  # ASCII lower-case; '*' is Universal instead


@dataclass(frozen=True)
class Id:
    name: str


@dataclass(frozen=True)
class Class:
    name: str


@dataclass(frozen=True)
class Attr:
    name: str                  # ASCII lower-case
    op: str                    # '' (present), '=', '~=', '|=', '^=', '$=', '*='
    value: str = ""
    case: str = ""             # '' (document default), 'i' or 's'


@dataclass(frozen=True)
class Pseudo:
    name: str                  # root, scope, empty, defined; -fp-radio-kept, -fp-option-selected
                               # (the HTML Standard's checkedness, used by the :checked macro)


@dataclass(frozen=True)
class Nth:
    a: int
    b: int
    last: bool = False         # :nth-last-*
    of_type: bool = False      # :nth-*-of-type
    of: SelectorList | None = None  # :nth-child(An+B of S)


@dataclass(frozen=True)
class Logical:
    kind: str                  # 'is', 'where', 'not'
    selectors: SelectorList


@dataclass(frozen=True)
class Has:
    selectors: tuple[Relative, ...]


@dataclass(frozen=True)
class Contains:
    texts: tuple[str, ...]     # any of them
    own: bool = False          # :-soup-contains-own(): the element's own text nodes only


@dataclass(frozen=True)
class Lang:
    ranges: tuple[str, ...]    # :lang(): any of these language ranges ("de", "*-CH", "")


@dataclass(frozen=True)
class Dir:
    direction: str             # :dir(): 'ltr' or 'rtl'


@dataclass(frozen=True)
class Namespace:
    mask: int                  # the element is in one of these namespaces (opcodes.NS_* bits)


@dataclass(frozen=True)
class Never:
    reason: str                # e.g. a macro that cannot match in this environment


Simple = Tag | Id | Class | Attr | Pseudo | Nth | Logical | Has | Contains | Lang | Dir | Namespace | Never


@dataclass(frozen=True)
class Compound:
    parts: tuple[Simple, ...]  # all must match; () is the universal selector


@dataclass(frozen=True)
class Complex:
    """compounds[0] c[0] compounds[1] c[1] ... compounds[-1], written left to right.

    combinators[k] joins compounds[k] and compounds[k+1]: ' ', '>', '+', '~'.
    """
    compounds: tuple[Compound, ...]
    combinators: tuple[str, ...]


@dataclass(frozen=True)
class Relative:
    """A :has() argument: the anchor, then `combinator` then `selector`."""
    combinator: str
    selector: Complex


@dataclass(frozen=True)
class SelectorList:
    selectors: tuple[Complex, ...]
