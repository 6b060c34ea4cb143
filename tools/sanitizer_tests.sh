#!/usr/bin/env bash
# sanitizer_tests.sh — the whole pytest suite against an ASan+UBSan build of the extension.
#
#   tools/sanitizer_tests.sh [pytest args...]   e.g. -x -q, or tests/test_api.py
#   tools/sanitizer_tests.sh --clang-ubsan [pytest args...]
#
# 1. tests/fuzz/build.sh ext compiles fastparse/_core with
#    CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer" (gcc) into
#    $OUT/asan-site (OUT = $FUZZ_OUT or ~/.cache/fastparse-fuzz); the work tree
#    and its editable install are left alone.
# 2. A separate venv ($OUT/asan-venv) sees $OUT/asan-site first and the project
#    venv's site-packages (pytest, hypothesis, peers) after it, through a .pth
#    file: the editable install's import hook is not run there, so `import
#    fastparse` is the sanitized copy (checked before the run).
# 3. python is not built with ASan, so the runtime is loaded first:
#    LD_PRELOAD="libasan.so libubsan.so" (gcc's, from gcc -print-file-name).
#    PYTHONMALLOC=malloc lets ASan see every Python object allocation too.
#    ASAN_OPTIONS: detect_leaks=0 (CPython frees little at exit; leaks are
#    tests/test_leak_threads.py's job), allocator_may_return_null=1 (a huge
#    malloc returns NULL, so the engine's out-of-memory path runs instead of
#    ASan aborting). UBSan halts on the first report.
# 4. pytest runs with python -P (no work tree on sys.path) from the repo root,
#    with FASTPARSE_SANITIZER_RUN=1: timing assertions are meaningless under
#    ASan, so tests/test_pathological.py runs its inputs without them.
# Exit status: pytest's; any ASan/UBSan report aborts the run with a stack trace.
#
# --clang-ubsan: the same run against clang's UBSan alone ($OUT/ubsan-site, build.sh ubsan;
# its runtime, libclang_rt.ubsan_standalone, preloaded; venv $OUT/ubsan-venv). clang
# reports undefined behaviour gcc does not, such as pointer arithmetic on NULL (NULL + 0
# for an empty buffer: tests/fuzz/crashes/engine-contains-empty-text).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${FUZZ_OUT:-${XDG_CACHE_HOME:-$HOME/.cache}/fastparse-fuzz}
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
[ -x "$PYTHON" ] || PYTHON=$(command -v python3)

mode=asan target=ext
if [ "${1:-}" = "--clang-ubsan" ]; then
    mode=ubsan target=ubsan
    shift
fi
PYTHON="$PYTHON" "$ROOT/tests/fuzz/build.sh" "$target"

venv="$OUT/$mode-venv"
if [ ! -x "$venv/bin/python" ]; then
    base=$("$PYTHON" -c 'import sys; print(sys._base_executable)')
    "$base" -m venv --without-pip "$venv"
fi
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
deps=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
printf '%s\n%s\n' "$OUT/$mode-site" "$deps" > "$site/fastparse-$mode.pth"

if [ $mode = asan ]; then
    CC_FOR_RUNTIME=${SAN_CC:-gcc}
    export LD_PRELOAD="$($CC_FOR_RUNTIME -print-file-name=libasan.so) $($CC_FOR_RUNTIME -print-file-name=libubsan.so)"
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:abort_on_error=1:halt_on_error=1}
    export PYTHONMALLOC=malloc
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
else
    export LD_PRELOAD="$(${CLANG:-clang} -print-file-name="libclang_rt.ubsan_standalone-$(uname -m).so")"
    [ -f "$LD_PRELOAD" ] || { echo "sanitizer_tests.sh: clang's UBSan runtime not found ($LD_PRELOAD)" >&2; exit 2; }
    # pytest's capture would swallow the report of the test that halts: it goes to a file
    rm -f "$OUT"/ubsan-report.*
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:log_path=$OUT/ubsan-report}
fi
export FASTPARSE_SANITIZER_RUN=1   # tests/test_pathological.py: run the inputs, assert no timing

cd "$ROOT"
where=$("$venv/bin/python" -P -c 'import fastparse._core as c; print(c.__file__)')
case "$where" in
    "$OUT/$mode-site/"*) echo "sanitized extension ($mode): $where" ;;
    *) echo "sanitizer_tests.sh: imported $where, not the $mode build" >&2; exit 2 ;;
esac
# no path given: pytest's testpaths (tests/) apply
if [ $mode = asan ]; then
    exec "$venv/bin/python" -P -m pytest -p no:cacheprovider "${@:--q}"
fi
status=0
"$venv/bin/python" -P -m pytest -p no:cacheprovider "${@:--q}" || status=$?
cat "$OUT"/ubsan-report.* 2>/dev/null || true
exit $status
