"""The source distribution builds the extension: every C header ships with the
sources, and so does the profile-guided build that setup.py imports."""
from __future__ import annotations

import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_sdist_ships_what_the_build_needs(tmp_path):
    # setuptools packs an Extension's .c sources but not its headers (MANIFEST.in adds them)
    subprocess.run([sys.executable, "setup.py", "-q", "sdist", "-d", str(tmp_path)], cwd=ROOT,
                   check=True, capture_output=True)
    (archive,) = tmp_path.glob("*.tar.gz")
    with tarfile.open(archive) as tar:
        names = tar.getnames()
    shipped = {name.split("/fastparse/_core/", 1)[1] for name in names if "/fastparse/_core/" in name}
    core = ROOT / "fastparse" / "_core"   # and its x86-64-v3 copy, x86_64_v3/
    needed = {p.relative_to(core).as_posix() for p in core.rglob("*") if p.suffix in (".c", ".h")}
    assert needed <= shipped, sorted(needed - shipped)
    build = {Path(name).name for name in names if "/build_support/" in name}
    assert {"pgo.py", "pgo_train.py"} <= build, sorted(build)
