"""The type stubs (fastparse/__init__.pyi, _core.pyi, _missing.pyi, py.typed):
mypy accepts typed usage of the whole API with precise types, rejects misuse,
and the stubs name every public member the runtime has."""
from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import fastparse as fp

PACKAGE = Path(fp.__file__).resolve().parent
REPO = PACKAGE.parent

GOOD = '''
from typing import Literal
import fastparse as fp

doc: fp.Document = fp.parse(b"<p class=a>x</p>", encoding="utf-8", max_size=1 << 20,
                            max_depth=64, recovery="none", scripting=True)
frag = fp.parse_fragment("<td>x", context="tr")
n: int = len(doc) + len(frag)
first: fp.Tag = doc[0]
some: list[fp.Tag] = doc[1:]
for t in doc:
    name: str = t.name
found = doc.find("p", id="x", cls="a", attrs={"href": True, "rel": "next"})
reveal_type(found)
if found:
    reveal_type(found)
    text: str = found.text
    span: tuple[int, int] = found.span
    kind: Literal["end-tag", "implied", "parent-end", "void", "self-closing", "eof"] = found.closed_by
    href: str | None = found.get("href")
    href2: str = found.get("href", "")
    value: str = found["class"]
    present: bool = "class" in found
    classes: list[str] = found.classes
    sib = found.next_sibling("p", cls="a")
    parent = found.parent
    got: str = found.get_text(" ", strip=True, skip=["script"])
reveal_type(doc.find("x").find("y").text)
reveal_type(fp.MISSING.get("a"))
tags: list[fp.Tag] = doc.find_all("a", limit=3) + doc.select("a") + doc[0].find_all()
one = doc.select_one("p")
errors = [(e.code, e.offset, e.line, e.col) for e in doc.errors]
encoding: str = doc.encoding
source: str | bytes = doc.source
kind2: str = fp.sniff(b"{}")
try:
    fp.parse("x", max_depth=1)
except fp.ParseLimitError as e:
    limit: str = e.limit
    where: int = e.offset
'''

BAD = '''
import fastparse as fp

doc = fp.parse(b"<p>")
doc.find("p").text.upper()
doc.find(1)
doc.find_all(limit="2")
fp.parse(b"<p>", recovery="lenient")
fp.parse(123)
doc[0].span + "x"
'''

mypy_api = pytest.importorskip("mypy.api", reason="mypy is not installed (dev extra)")


def run_mypy(code: str, tmp_path: Path) -> tuple[int, str]:
    src = tmp_path / "usage.py"
    src.write_text(textwrap.dedent(code))
    env = dict(os.environ, MYPYPATH=str(REPO))  # editable installs are invisible to mypy
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--no-error-summary",
         "--follow-imports=silent", "--cache-dir", str(tmp_path / ".mypy_cache"), str(src)],
        check=False, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout + proc.stderr


def test_py_typed_and_stubs_exist():
    assert (PACKAGE / "py.typed").is_file()
    assert (PACKAGE / "__init__.pyi").is_file()
    assert (PACKAGE / "_core.pyi").is_file()


def test_typed_usage_checks_with_precise_types(tmp_path):
    code, out = run_mypy(GOOD, tmp_path)
    revealed = [line.split("Revealed type is ")[1].strip('"') for line in out.splitlines()
                if "Revealed type is" in line]
    assert revealed == [
        "fastparse._core.Tag | fastparse._missing._Missing",
        "fastparse._core.Tag",
        "str | None",
        "None",
    ], out
    assert [line for line in out.splitlines() if ": error:" in line] == [], out
    assert code == 0, out


def test_misuse_is_rejected(tmp_path):
    code, out = run_mypy(BAD, tmp_path)
    error_lines = sorted({int(line.split(":")[1]) for line in out.splitlines() if ": error:" in line})
    assert error_lines == [5, 6, 7, 8, 9, 10], out
    assert code == 1


def _stub_members(stub: Path, cls: str) -> set[str]:
    tree = ast.parse(stub.read_text())
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            return {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    raise AssertionError(f"{cls} not in {stub}")


@pytest.mark.parametrize("cls", ["Document", "Tag"])
def test_stub_names_every_public_runtime_member(cls):
    everything = set(dir(getattr(fp, cls)))
    runtime = {n for n in everything if not n.startswith("__")}
    stubbed = _stub_members(PACKAGE / "_core.pyi", cls)
    assert runtime - stubbed == set()
    assert stubbed - everything == set()   # dunders too: Document.__iter__, __copy__


def _stub_parameters(stub: Path, cls: str) -> dict[str, list[tuple[str, str]]]:
    """Each method's parameters as (name, kind) after self, for the overload with most."""
    kinds = {}
    for node in ast.parse(stub.read_text()).body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            for f in node.body:
                if isinstance(f, ast.FunctionDef) and not f.name.startswith("_"):
                    a = f.args
                    params = ([(x.arg, "POSITIONAL_ONLY") for x in a.posonlyargs[1:]]
                              + [(x.arg, "POSITIONAL_OR_KEYWORD") for x in a.args[1:]]
                              + [(x.arg, "KEYWORD_ONLY") for x in a.kwonlyargs])
                    if len(params) >= len(kinds.get(f.name, [])):
                        kinds[f.name] = params
    return kinds


@pytest.mark.parametrize("cls", ["Document", "Tag"])
def test_c_methods_have_the_stubs_signatures(cls):
    # inspect.signature (help(), Jupyter's hints) reads the C methods' text signatures
    import inspect

    for name, params in _stub_parameters(PACKAGE / "_core.pyi", cls).items():
        member = getattr(getattr(fp, cls), name)
        if not callable(member) or isinstance(member, property):
            continue
        got = [(p.name, p.kind.name) for p in list(inspect.signature(member).parameters.values())[1:]]
        assert got == params, (cls, name)


def test_missing_stub_names_every_runtime_member():
    runtime = {n for n in vars(type(fp.MISSING)) if not n.startswith("__")} - {"_instance"}
    assert runtime - _stub_members(PACKAGE / "_missing.pyi", "_Missing") == set()


def test_package_stub_exports_all():
    tree = ast.parse((PACKAGE / "__init__.pyi").read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    assert set(fp.__all__) <= names


def _stub_top_level(stub: Path) -> set[str]:
    names = set()
    for node in ast.parse(stub.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_core_stub_names_every_module_member():
    """The engine's private entry points too: fastparse's own modules call them, and
    mypy checks those calls against the stub (a stub once gave _parse keywords it
    does not take)."""
    runtime = {n for n in dir(fp._core) if not n.startswith("__")}
    assert runtime - _stub_top_level(PACKAGE / "_core.pyi") == set()


def test_package_type_checks(tmp_path):
    """mypy over the package with the project's settings (pyproject.toml [tool.mypy]):
    the Python layer's calls into the engine, the selector compiler, the workbench.
    The checkout's sources, wherever the imported package was built (the sanitizer
    runs import a copy that has no pyproject.toml)."""
    checkout = Path(__file__).resolve().parent.parent
    if not (checkout / "pyproject.toml").is_file():
        pytest.skip(f"no pyproject.toml in {checkout}: not a checkout")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path / ".mypy_cache")],
        check=False, cwd=checkout, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_sources_pass_ruff():
    """ruff over the checkout with the project's settings (pyproject.toml [tool.ruff]):
    the package, the tests, the tools and the build support."""
    checkout = Path(__file__).resolve().parent.parent
    if not (checkout / "pyproject.toml").is_file():
        pytest.skip(f"no pyproject.toml in {checkout}: not a checkout")
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed (dev extra)")
    proc = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."],
                          check=False, cwd=checkout, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
