"""The manifest of real pages (manifest.tsv, written by tools/gen_manifest.py)."""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

MANIFEST = Path(__file__).with_name("manifest.tsv")


@dataclass(frozen=True)
class Entry:
    id: str                # path relative to the corpus folder
    sha256: str            # of the page bytes (after gunzip for .gz sources)
    bytes: int
    kind: str
    declared_charset: str
    source_repo: str
    source_path: str
    source_commit: str
    license: str
    url: str               # raw file at the pinned commit

    @property
    def gzipped(self) -> bool:
        return self.source_path.endswith(".gz")


def read_manifest(path: Path = MANIFEST) -> list[Entry]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t")
        return [Entry(**{**row, "bytes": int(row["bytes"])}) for row in rows]  # type: ignore[arg-type]
