"""The one C extension; all metadata lives in pyproject.toml."""
import glob
import os
import platform
import sys

from setuptools import Extension, setup

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_support.pgo import ProfileGuidedBuildExt  # (with GCC: a profile-guided build)

# C11 for stdint/stdbool; optimisation level comes from the environment (CFLAGS),
# so sanitizer and debug builds need no edit here. A call without a declaration
# fails here as it does on GCC 14 and Clang 16, whatever the compiler at hand.
# Python's own CFLAGS carry -fwrapv (CPython relies on signed overflow wrapping);
# this C does not, and UBSan checks it does not (tools/sanitizer_tests.sh, which
# -fwrapv blinded): without it the css task took 0.8% less time.
extra = ["-std=c11", "-fvisibility=hidden", "-Werror=implicit-function-declaration", "-fno-wrapv"]
if platform.system() == "Windows":
    extra = []

setup(
    ext_modules=[
        Extension(
            "fastparse._core",
            # x86_64_v3/: the engine again, for CPUs with AVX2 and BMI (fastparse/_core/cpu.h)
            sources=sorted(glob.glob("fastparse/_core/*.c") + glob.glob("fastparse/_core/x86_64_v3/*.c")),
            depends=sorted(glob.glob("fastparse/_core/*.h") + glob.glob("fastparse/_core/x86_64_v3/*.h")),
            include_dirs=["fastparse/_core"],
            extra_compile_args=extra,
        )
    ],
    cmdclass={"build_ext": ProfileGuidedBuildExt},
)
