"""The engine's two copies (fastparse/_core/cpu.h): the x86-64-v3 one is generated
from the same files and must stay so, and both must give the same documents and
the same matches. The generic copy runs in a child process (FASTPARSE_CPU=generic);
this process runs whichever the CPU chose, and the two print a digest of the same
work: the project's generated pages and a few thousand random malformed documents,
each parsed (elements, errors, text) and queried with selectors."""
from __future__ import annotations

import hashlib
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import fastparse as fp
from fastparse import _core
from fastparse.corpora import loader

ROOT = Path(__file__).resolve().parents[1]

SELECTORS = ("a[href]", "a[href^='http']", "div.card > a", "li:first-child", "ul li:nth-child(2n+1)",
             "[itemprop]", "div:not([class]) > span", "table tr td", "p + p", "h2 ~ p",
             "section:has(h2)", ":is(nav, footer) a", "input:checked", "[data-id$='7']", "td:empty")
POOL = ("<div class=card>", "</div>", "<p>", "</p>", "<a href='http://x/{n}'>", "</a>", "<li>", "<ul>",
        "</ul>", "<table>", "<tr>", "<td>", "</table>", "<b>", "</b>", "<i>", "<svg><path/>", "</svg>",
        "<math><mi>", "<select><option>", "<template>", "</template>", "<script>a<b</script>",
        "<!-- c -->", "<h2>", "<section>", "&amp;", "&#x80;", "text {n}", "<input checked>",
        "<span data-id={n}>", "</span>", "<form>", "<caption>", "<frameset>", "<nobr>", "\x00", "<")


def random_documents(count: int = 2000, seed: int = 3) -> list[bytes]:
    r = random.Random(seed)
    return ["".join(r.choice(POOL).format(n=r.randrange(100)) for _ in range(r.randrange(1, 40))).encode()
            for _ in range(count)]


def digest() -> str:
    """What this process's engine makes of the inputs, hashed."""
    h = hashlib.sha256()
    inputs = [p.read() for p in loader.generated_pages()] + random_documents()
    for data in inputs:
        doc = fp.parse(data)
        for t in doc.find_all():
            h.update(repr((t.name, t.span, t.depth, t.index, t.parent.index if t.parent else -1,
                           t.closed_by)).encode())
        h.update(repr([(e.code, e.offset) for e in doc.errors]).encode())
        h.update(doc.text.encode("utf-8", "surrogatepass"))
        for css in SELECTORS:
            h.update(repr([t.index for t in doc.select(css)]).encode())
    return h.hexdigest()


def test_cpu_names_the_copy_in_use():
    assert _core.CPU in ("x86-64-v3", "generic")
    out = subprocess.run([sys.executable, "-c", "from fastparse import _core; print(_core.CPU)"],
                         env=dict(os.environ, FASTPARSE_CPU="generic"), capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "generic"


@pytest.mark.skipif(_core.CPU != "x86-64-v3", reason="one copy runs here: nothing to compare")
def test_both_copies_parse_and_select_alike():
    child = subprocess.run([sys.executable, __file__], env=dict(os.environ, FASTPARSE_CPU="generic"),
                           capture_output=True, text=True, check=True).stdout.strip()
    assert child == digest()


@pytest.mark.skipif(not (shutil.which("nm") and shutil.which(os.environ.get("CC", "cc").split()[0])),
                    reason="tools/gen_v3_copy.py needs a C compiler and nm")
def test_the_copy_is_generated_from_the_engine_files():
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_v3_copy.py"), "--check"],
                            check=False, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr + "\nrun: python tools/gen_v3_copy.py"


if __name__ == "__main__":
    print(digest())
