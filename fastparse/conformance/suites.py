"""Where the html5lib suites and the malformed snippets live (../shared/corpora, never copied
into the repository), and reading the tree-construction .dat files."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
CORPORA = REPO_ROOT.parent / "shared" / "corpora"
TREE_DIR = CORPORA / "html5lib-tests" / "tree-construction"
TOKENIZER_DIR = CORPORA / "html5lib-tests" / "tokenizer"
MALFORMED_CASES = CORPORA / "malformed" / "cases.json"

_ASCII_WS = re.compile(r"[ \t\n\f\r]+")


def collapse_ws(text: str) -> str:
    """ASCII whitespace runs to one space, stripped (NBSP is text, not whitespace)."""
    return _ASCII_WS.sub(" ", text).strip(" ")


# ---------------------------------------------------------------------------
# Reading .dat files
# ---------------------------------------------------------------------------

_HEADINGS = {"data", "errors", "new-errors", "document-fragment", "document",
             "script-on", "script-off"}


@dataclass
class TreeCase:
    file: str                      # "tests1.dat"
    number: int                    # 1-based position in the file
    data: str
    document: list[str]            # the "| ..." dump lines, continuation lines joined
    context: str | None = None     # "td", "svg path", ... for fragment cases
    scripting: bool | None = None  # True: #script-on, False: #script-off, None: either
    errors: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.file}:{self.number}"


def read_dat(path: Path) -> list[TreeCase]:
    """All cases of one tree-construction .dat file, in order."""
    cases: list[TreeCase] = []
    sections: dict[str, list[str]] = {}
    current: str | None = None

    def flush() -> None:
        if not sections:
            return
        doc = sections.get("document", [])
        while doc and doc[-1] == "":      # the blank line that separates tests
            doc.pop()
        joined: list[str] = []
        for line in doc:                  # text nodes may span lines
            if line.startswith("|") or not joined:
                joined.append(line)
            else:
                joined[-1] += "\n" + line
        frag = sections.get("document-fragment")
        scripting = True if "script-on" in sections else False if "script-off" in sections else None
        cases.append(TreeCase(
            file=path.name, number=len(cases) + 1,
            data="\n".join(sections.get("data", [])),
            document=joined,
            context=frag[0] if frag else None,
            scripting=scripting,
            errors=sections.get("errors", []) + sections.get("new-errors", []),
        ))

    with open(path, encoding="utf-8", newline="\n") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        if line.startswith("#") and line[1:] in _HEADINGS:
            if line == "#data":
                flush()
                sections = {}
            current = line[1:]
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
    flush()
    return cases


def read_tree_cases(directory: Path = TREE_DIR) -> list[TreeCase]:
    """Every case of every top-level .dat file (not scripted/), sorted by file name."""
    cases: list[TreeCase] = []
    for path in sorted(directory.glob("*.dat")):
        cases.extend(read_dat(path))
    return cases
