"""Download the real pages into the local cache, verifying each sha256.

A download whose bytes (gunzipped for `.gz` sources) do not hash to the
manifest's value is refused and reported; nothing is written for it."""
from __future__ import annotations

import gzip
import urllib.request
from collections.abc import Callable
from pathlib import Path

from .loader import cache_dir, sha256_of
from .manifest import Entry, read_manifest


def _download(url: str, opener: Callable) -> bytes:
    with opener(url, timeout=60) as r:
        return r.read()


def fetch(dest: Path | None = None, entries: list[Entry] | None = None,
          opener: Callable = urllib.request.urlopen, log: Callable[[str], None] = print) -> list[str]:
    """Fetch every page not already present and valid in `dest`. Returns the
    ids that failed (download error or wrong hash)."""
    dest = Path(dest) if dest else cache_dir()
    failed = []
    for e in entries if entries is not None else read_manifest():
        target = dest / e.id
        if target.is_file() and sha256_of(target.read_bytes()) == e.sha256:
            continue
        try:
            data = _download(e.url, opener)
            if e.gzipped:
                data = gzip.decompress(data)
        except Exception as exc:  # noqa: BLE001 — network, HTTP, gzip: report and go on
            log(f"FAILED {e.id}: {exc}")
            failed.append(e.id)
            continue
        got = sha256_of(data)
        if got != e.sha256:
            log(f"REFUSED {e.id}: sha256 {got} != manifest {e.sha256}; not saved")
            failed.append(e.id)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".part")
        tmp.write_bytes(data)
        tmp.replace(target)
        log(f"ok {e.id} ({len(data):,} bytes)")
    return failed
