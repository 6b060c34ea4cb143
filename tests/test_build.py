"""The profile-guided build (build_support/pgo.py): when it applies, that the
installed extension got it, and that its training workload still runs: if the
training broke, the build would fall back to the plain one without a word."""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from types import SimpleNamespace

import pytest
from setuptools import Distribution

import fastparse as fp
from fastparse import _core

ROOT = Path(__file__).resolve().parents[1]
# the build scripts' own folder only: the work tree's fastparse must not shadow the installed one
sys.path.insert(0, str(ROOT / "build_support"))
import pgo


def _command(compiler_type="unix", cc="gcc"):
    cmd = pgo.ProfileGuidedBuildExt(Distribution())
    cmd.compiler = SimpleNamespace(compiler_type=compiler_type, compiler_so=[cc, "-fPIC"])
    return cmd


@pytest.mark.skipif(not shutil.which("gcc"), reason="no gcc here")
def test_gcc_is_told_from_clang():
    assert pgo._gcc_major(["gcc"]) >= 4
    if shutil.which("clang"):
        assert pgo._gcc_major(["clang"]) is None   # clang defines __GNUC__ too
    assert pgo._gcc_major(["no-such-compiler-here"]) is None


@pytest.mark.parametrize("env, expected", [
    ({"FASTPARSE_PGO": "0"}, "FASTPARSE_PGO=0"),
    ({"CFLAGS": "-O1 -fsanitize=address,undefined"}, "CFLAGS instrument the build"),
    ({"CFLAGS": "-O0 --coverage"}, "CFLAGS instrument the build"),
])
def test_the_plain_build_is_chosen_when_asked_or_instrumented(monkeypatch, env, expected):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert _command()._why_no_profile() == expected


def test_other_compilers_get_the_plain_build(monkeypatch):
    monkeypatch.delenv("FASTPARSE_PGO", raising=False)
    monkeypatch.delenv("CFLAGS", raising=False)
    assert _command("msvc")._why_no_profile() == "msvc compiler"
    assert _command(cc="no-such-compiler-here")._why_no_profile() == "the compiler is not GCC"


def _build_compiler() -> str:
    return shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")[0]


@pytest.mark.skipif(os.environ.get("FASTPARSE_SANITIZER_RUN") == "1",
                    reason="the sanitized build is plain on purpose")
@pytest.mark.skipif(os.environ.get("FASTPARSE_PGO") == "0", reason="FASTPARSE_PGO=0")
def test_the_installed_extension_is_profile_guided_with_gcc():
    major = pgo._gcc_major([_build_compiler()])
    if major is None or major < 10:
        assert _core.BUILD == "plain"
    else:
        assert _core.BUILD == "profile-guided, lto", "the profile-guided build fell back: see the build log"


def test_the_training_workload_runs():
    site = Path(fp.__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, str(ROOT / "build_support" / "pgo_train.py"), str(site)],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr


def test_the_portal_page_is_parsed_as_written():
    from pgo_train import portal_page

    doc = fp.parse(portal_page(cards=3))
    assert len(doc.select("div.card")) == 3
    assert doc.select_one("div.card svg path").namespace == "svg"
    assert doc.select_one("form option[selected]").text == "one"
