"""The source distribution builds the extension: every C header ships with the sources."""
from __future__ import annotations

import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_sdist_ships_every_c_source_and_header(tmp_path):
    # setuptools packs an Extension's .c sources but not its headers (MANIFEST.in adds them)
    subprocess.run([sys.executable, "setup.py", "-q", "sdist", "-d", str(tmp_path)], cwd=ROOT,
                   check=True, capture_output=True)
    (archive,) = tmp_path.glob("*.tar.gz")
    with tarfile.open(archive) as tar:
        shipped = {Path(name).name for name in tar.getnames() if "/fastparse/_core/" in name}
    needed = {p.name for p in (ROOT / "fastparse" / "_core").iterdir() if p.suffix in (".c", ".h")}
    assert needed <= shipped, sorted(needed - shipped)
