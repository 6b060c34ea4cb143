"""Find, verify and load corpus pages.

Real pages are looked up in this order: the folder the user names
(`--corpus-dir`), `../shared/corpora` next to a source checkout, then the local
cache that `python -m fastparse.corpora fetch` fills ($FASTPARSE_CACHE, else
~/.cache/fastparse/corpora). A page is used only when its sha256 matches the
manifest; a file with another hash is an error, never silently measured."""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from . import generated
from .manifest import Entry, read_manifest

CHECKOUT = Path(__file__).resolve().parents[2]


class CorpusError(RuntimeError):
    """A page is missing, or present with the wrong bytes."""


@dataclass(frozen=True)
class Page:
    id: str                  # "generated/books", or the manifest path of a real page
    kind: str
    origin: str              # "real" | "generated" | "scaling"
    nbytes: int
    sha256: str
    extractor: str | None    # records task for this page, if any
    path: Path | None = None  # where a real page was found

    def read(self) -> bytes:
        if self.origin == "real":
            if self.path is None:
                raise CorpusError(f"{self.id}: no copy of this real page was found")
            data = self.path.read_bytes()
            _check(self.path, data, self.sha256)
            return data
        if self.origin == "scaling":
            return generated.scaling_page(int(self.id.rsplit("/", 1)[1]))
        return generated.build(self.id.split("/", 1)[1])[0]


def cache_dir() -> Path:
    env = os.environ.get("FASTPARSE_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "fastparse" / "corpora"


def shared_dir() -> Path | None:
    """../shared/corpora next to a source checkout (not next to site-packages)."""
    if (CHECKOUT / "pyproject.toml").exists() or (CHECKOUT / "setup.py").exists():
        d = CHECKOUT.parent / "shared" / "corpora"
        return d if d.is_dir() else None
    return None


def search_dirs(corpus_dir: str | Path | None = None) -> list[Path]:
    dirs = [Path(corpus_dir)] if corpus_dir else []
    shared = shared_dir()
    return dirs + ([shared] if shared else []) + [cache_dir()]


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _check(path: Path, data: bytes, expected: str) -> None:
    got = sha256_of(data)
    if got != expected:
        raise CorpusError(f"{path}: sha256 {got} differs from the manifest's {expected}; "
                          "refusing to use it (delete it, or run `python -m fastparse.corpora fetch`)")


def locate(entry: Entry, dirs: list[Path]) -> Path | None:
    """First folder holding the page, verified; CorpusError if its hash is wrong."""
    for d in dirs:
        p = d / entry.id
        if p.is_file():
            _check(p, p.read_bytes(), entry.sha256)
            return p
    return None


def real_pages(corpus_dir: str | Path | None = None, *, required: bool = True) -> list[Page]:
    dirs = search_dirs(corpus_dir)
    pages, missing = [], []
    for e in read_manifest():
        p = locate(e, dirs)
        if p is None:
            missing.append(e.id)
            continue
        pages.append(Page(e.id, e.kind, "real", e.bytes, e.sha256, _real_extractor(e), p))
    if missing and required:
        raise CorpusError(
            f"{len(missing)} real page(s) not found (first: {missing[0]}); looked in "
            + ", ".join(str(d) for d in dirs)
            + ". Run `python -m fastparse.corpora fetch` or pass --corpus-dir."
        )
    return pages


def _real_extractor(e: Entry) -> str | None:
    # The Amazon listings share the generated search page's layout and records.
    return "search" if e.source_repo == "jenslaufer/amznscrp" else None


def generated_pages() -> list[Page]:
    out = []
    for name, spec in generated.SPECS.items():
        data, _ = generated.build(name)
        out.append(Page(f"generated/{name}", spec.kind, "generated", len(data), sha256_of(data), spec.extractor))
    return out


def scaling_pages(sizes: list[int]) -> list[Page]:
    """Pages of about each size (named by the size asked for, measured by the size built)."""
    out = []
    for s in sizes:
        data = generated.scaling_page(s)
        out.append(Page(f"scaling/{s}", "scaling", "scaling", len(data), sha256_of(data), None))
    return out


def pages(corpus: str = "generated", corpus_dir: str | Path | None = None) -> list[Page]:
    """The pages of a corpus: "generated", "real" or "all"."""
    if corpus not in ("generated", "real", "all"):
        raise ValueError(f"corpus must be generated, real or all, not {corpus!r}")
    out = generated_pages() if corpus in ("generated", "all") else []
    if corpus in ("real", "all"):
        out = real_pages(corpus_dir) + out
    return out


def truth(page: Page) -> list | None:
    """The records a generated page was built with (None for real pages)."""
    if page.origin != "generated":
        return None
    return generated.build(page.id.split("/", 1)[1])[1]
