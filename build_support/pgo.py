"""A profile-guided build of fastparse._core, for GCC.

The parse is branchy code over bytes: which of a dozen tokenizer and
tree-builder paths a tag takes decides its cost. GCC lays those paths out
well only when it knows which are hot. So with GCC 10 or newer the extension
is built twice with a run in between: compiled with instrumentation, run over
a training workload (build_support/pgo_train.py: the project's generated pages
and a page it writes, never the benchmark's real ones), and compiled again from
the profile it wrote, with link-time optimisation across the engine's files. On the real
pages this parses about 10% faster than the plain build (README, "How the
extension is built").

-fprofile-partial-training keeps code the training did not run optimised as
in a plain build instead of for size, so inputs unlike the training pages
(other encodings, foreign content, broken tables) lose nothing.

The plain build is used instead when FASTPARSE_PGO=0, when CFLAGS ask for
instrumentation of their own (sanitizers, coverage), when the compiler is not
GCC 10+, or when any step of the profiled build fails (say, a cross-build whose
module cannot run here). A failure of the plain build fails the install.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_PACKAGE = os.path.join(os.path.dirname(HERE), "fastparse")
TRAIN = os.path.join(HERE, "pgo_train.py")
TRAIN_TIMEOUT_S = 600

# what fastparse._core.BUILD says
PLAIN, PROFILED = "plain", "profile-guided, lto"

# CFLAGS that instrument the build themselves: a profile would clash with them
OWN_INSTRUMENTATION = ("-fsanitize", "--coverage", "-fprofile-", "-pg")


def _log(message: str) -> None:
    print(f"fastparse build: {message}", file=sys.stderr, flush=True)


class ProfileGuidedBuildExt(build_ext):
    def build_extension(self, ext):
        why_not = self._why_no_profile()
        if why_not:
            _log(f"plain build ({why_not})")
            return self._build(ext, [], [], PLAIN)
        try:
            return self._build_with_profile(ext)
        except Exception as exc:   # noqa: BLE001  (whatever failed, the plain build may not)
            _log(f"profile-guided build failed ({type(exc).__name__}: {exc}); plain build instead")
            return self._build(ext, [], [], PLAIN)

    def _build_with_profile(self, ext) -> None:
        profile = tempfile.mkdtemp(prefix="fastparse-pgo-")
        try:
            # both stages compile alike but for the profile flags: GCC matches the
            # profile to each function by its control flow. -flto: the link-time
            # optimisation level is the compile flags' one.
            lto = ["-flto=auto"]
            generate = lto + [f"-fprofile-generate={profile}",
                              "-fprofile-update=single"]   # the training runs one thread
            self._build(ext, generate, generate)
            _log("training the profile (build_support/pgo_train.py)")
            self._train(ext)
            use = lto + [f"-fprofile-use={profile}", "-fprofile-partial-training",
                         "-fprofile-correction", "-Wno-missing-profile"]
            self._build(ext, use, use)
        finally:
            shutil.rmtree(profile, ignore_errors=True)

    def _build(self, ext, compile_args: list[str], link_args: list[str], flavour: str = PROFILED) -> None:
        """One build of `ext` with extra flags; the Extension is left as it was."""
        saved = ext.extra_compile_args, ext.extra_link_args, ext.define_macros
        ext.extra_compile_args = list(saved[0]) + compile_args
        ext.extra_link_args = list(saved[1]) + link_args
        ext.define_macros = list(saved[2]) + [("FP_BUILD", f'"{flavour}"')]
        force = self.force
        self.force = True   # every stage compiles every file: the objects of the last one are stale
        try:
            super().build_extension(ext)
        finally:
            ext.extra_compile_args, ext.extra_link_args, ext.define_macros = saved
            self.force = force

    def _train(self, ext) -> None:
        """Run the training workload against the instrumented module, in a
        copy of the package, so neither the source tree nor build_lib sees it."""
        module = self.get_ext_fullpath(ext.name)
        with tempfile.TemporaryDirectory(prefix="fastparse-train-") as site:
            package = os.path.join(site, "fastparse")
            shutil.copytree(SOURCE_PACKAGE, package,
                            ignore=shutil.ignore_patterns("_core", "*.so", "*.pyd", "__pycache__"))
            shutil.copy2(module, os.path.join(package, os.path.basename(module)))
            # once for each copy of the engine (fastparse/_core/cpu.h): the one
            # this CPU would not choose gets a profile too
            for cpu in ("", "generic"):
                subprocess.run([sys.executable, TRAIN, site], check=True, timeout=TRAIN_TIMEOUT_S,
                               stdout=subprocess.DEVNULL, env=dict(os.environ, FASTPARSE_CPU=cpu))

    def _why_no_profile(self) -> str | None:
        if os.environ.get("FASTPARSE_PGO", "1") == "0":
            return "FASTPARSE_PGO=0"
        if self.compiler.compiler_type != "unix":
            return f"{self.compiler.compiler_type} compiler"
        cflags = os.environ.get("CFLAGS", "") + " " + os.environ.get("CPPFLAGS", "")
        if any(flag in cflags for flag in OWN_INSTRUMENTATION):
            return "CFLAGS instrument the build"
        version = _gcc_major(self.compiler.compiler_so)
        if version is None:
            return "the compiler is not GCC"
        if version < 10:
            return f"GCC {version} has no -fprofile-partial-training"
        return None


def _gcc_major(compiler_so: list[str]) -> int | None:
    """GCC's major version, or None for another compiler (clang defines __GNUC__ too)."""
    try:
        out = subprocess.run([compiler_so[0], "-dM", "-E", "-x", "c", os.devnull],
                             capture_output=True, text=True, timeout=60, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    macros = dict(line.split(" ", 2)[1:] for line in out.splitlines() if line.count(" ") >= 2)
    if "__clang__" in macros or "__GNUC__" not in macros:
        return None
    return int(macros["__GNUC__"])
