"""The one C extension; all metadata lives in pyproject.toml."""
import glob
import platform

from setuptools import Extension, setup

# C11 for stdint/stdbool; optimisation level comes from the environment (CFLAGS),
# so sanitizer and debug builds need no edit here. A call without a declaration
# fails here as it does on GCC 14 and Clang 16, whatever the compiler at hand.
extra = ["-std=c11", "-fvisibility=hidden", "-Werror=implicit-function-declaration"]
if platform.system() == "Windows":
    extra = []

setup(
    ext_modules=[
        Extension(
            "fastparse._core",
            sources=sorted(glob.glob("fastparse/_core/*.c")),
            depends=sorted(glob.glob("fastparse/_core/*.h")),   # an edited header rebuilds the extension
            include_dirs=["fastparse/_core"],
            extra_compile_args=extra,
        )
    ]
)
