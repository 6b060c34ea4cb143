#!/usr/bin/env bash
# build.sh — builds the fuzzing and sanitizer artefacts outside the work tree.
#
#   tests/fuzz/build.sh [engine|coverage|ext|ubsan|atheris|all]     (default: all)
#
#   engine    $OUT/fuzz_engine      libFuzzer + ASan + UBSan harness over the C engine
#   coverage  $OUT/fuzz_engine_cov  the same harness with clang source-based coverage
#                                   (run it over a corpus with -runs=0, then llvm-cov)
#   ext       $OUT/asan-site/       the fastparse package with an ASan+UBSan _core
#                                   extension (gcc, libasan; see tools/sanitizer_tests.sh)
#   ubsan     $OUT/ubsan-site/      the package with a _core built by clang with UBSan alone
#                                   (tools/sanitizer_tests.sh --clang-ubsan): clang reports
#                                   undefined behaviour gcc's UBSan does not (NULL + 0)
#   atheris   $OUT/atheris-site/    the package with a _core built by clang with
#                                   -fsanitize=fuzzer-no-link and trapping UBSan, so the
#                                   atheris harness is guided by C coverage, and
#           $OUT/libfuzzer_no_main.so  to LD_PRELOAD with it (README.md). No ASan here: a
#                                   preloaded ASan runtime hijacks the coverage callbacks
#
# OUT is $FUZZ_OUT, else ${XDG_CACHE_HOME:-~/.cache}/fastparse-fuzz. Nothing is
# written into the repository. Needs clang (Debian: apt-get install clang) for
# engine/coverage, and gcc + the project's Python for ext.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${FUZZ_OUT:-${XDG_CACHE_HOME:-$HOME/.cache}/fastparse-fuzz}
CLANG=${CLANG:-clang}
PYTHON=${PYTHON:-python3}
what=${1:-all}
mkdir -p "$OUT"

# The engine is every fastparse/_core/*.c except the binding (py_*.c).
engine_sources() {
    find "$ROOT/fastparse/_core" -maxdepth 1 -name '*.c' ! -name 'py_*.c' | sort
}

build_engine() {
    command -v "$CLANG" >/dev/null || { echo "build.sh: $CLANG not found (apt-get install clang)" >&2; exit 2; }
    # -fno-sanitize-recover: a UBSan report is a crash the fuzzer keeps.
    "$CLANG" -g -O1 -std=c11 -fno-omit-frame-pointer -Wno-initializer-overrides \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
        -I "$ROOT/fastparse/_core" "$ROOT/tests/fuzz/fuzz_engine.c" $(engine_sources) \
        -o "$OUT/fuzz_engine"
    echo "built $OUT/fuzz_engine"
}

build_coverage() {
    command -v "$CLANG" >/dev/null || { echo "build.sh: $CLANG not found (apt-get install clang)" >&2; exit 2; }
    "$CLANG" -g -O1 -std=c11 -Wno-initializer-overrides -DFP_FUZZ_REPORT_ONLY \
        -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping \
        -I "$ROOT/fastparse/_core" "$ROOT/tests/fuzz/fuzz_engine.c" $(engine_sources) \
        -o "$OUT/fuzz_engine_cov"
    echo "built $OUT/fuzz_engine_cov"
}

# The package (Python files linked, extension compiled with the given flags)
# in $OUT/<name>, importable by putting that directory first on sys.path.
build_site() {
    local site="$OUT/$1" cc=$2 flags=$3
    rm -rf "$site" "$OUT/$1-tmp"
    mkdir -p "$site"
    # The Python files are symlinks into the work tree, so code that finds
    # ../shared/corpora from Path(__file__).resolve() still finds it; only
    # the extension is a real file here. The work tree's .so and caches are
    # unlinked first so the build cannot write through a link into it.
    cp -as "$ROOT/fastparse" "$site/"
    find "$site" -name '*.so' -type l -delete
    # ... except __init__.py, copied, so the package resolves to this directory
    # (tests/test_smoke.py checks that _core sits beside fastparse/__init__.py)
    rm "$site/fastparse/__init__.py" && cp "$ROOT/fastparse/__init__.py" "$site/fastparse/"
    find "$site" -name '__pycache__' -type d -prune -exec rm -rf {} +
    (cd "$ROOT" && CC=$cc CFLAGS="$flags" LDFLAGS="$flags" \
        "$PYTHON" setup.py -q build_ext --build-temp "$OUT/$1-tmp" --build-lib "$site" --force \
        2>&1 | grep -v -e 'warning' -e '^ *|' -e '^ *\^' -e 'note:' -e '^  *\[' || true)
    ls "$site"/fastparse/_core*.so >/dev/null
    echo "built $site/fastparse ($flags)"
}

build_ext() {
    build_site asan-site "${SAN_CC:-gcc}" \
        "-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -g -O1"
}

build_ubsan() {
    command -v "$CLANG" >/dev/null || { echo "build.sh: $CLANG not found (apt-get install clang)" >&2; exit 2; }
    # -shared-libsan: python is not instrumented, so the runtime is a shared library preloaded
    build_site ubsan-site "$CLANG" \
        "-fsanitize=undefined -fno-sanitize-recover=undefined -shared-libsan -fno-omit-frame-pointer -g -O1"
}

build_atheris() {
    command -v "$CLANG" >/dev/null || { echo "build.sh: $CLANG not found (apt-get install clang)" >&2; exit 2; }
    build_site atheris-site "$CLANG" \
        "-fsanitize=fuzzer-no-link,undefined -fsanitize-trap=undefined -fno-omit-frame-pointer -g -O1 -Wno-initializer-overrides"
    # libFuzzer as a plain shared library, to LD_PRELOAD: the extension needs
    # its coverage callbacks when it loads, before atheris has loaded its own
    # copy (and atheris then uses this one: "Using preloaded libfuzzer").
    "$CLANG" -shared -o "$OUT/libfuzzer_no_main.so" -Wl,--whole-archive \
        "$("$CLANG" -print-file-name=libclang_rt.fuzzer_no_main-x86_64.a)" -Wl,--no-whole-archive \
        -lstdc++ -lpthread
    echo "built $OUT/libfuzzer_no_main.so"
}

case "$what" in
    engine) build_engine ;;
    coverage) build_coverage ;;
    ext) build_ext ;;
    ubsan) build_ubsan ;;
    atheris) build_atheris ;;
    all) build_engine; build_coverage; build_ext; build_ubsan; build_atheris ;;
    *) echo "usage: $0 [engine|coverage|ext|ubsan|atheris|all]" >&2; exit 2 ;;
esac
