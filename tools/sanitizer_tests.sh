#!/usr/bin/env bash
# sanitizer_tests.sh — the whole pytest suite against an ASan+UBSan build of the extension.
#
#   tools/sanitizer_tests.sh [pytest args...]   e.g. -x -q, or tests/test_api.py
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
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${FUZZ_OUT:-${XDG_CACHE_HOME:-$HOME/.cache}/fastparse-fuzz}
PYTHON=${PYTHON:-$ROOT/.venv/bin/python}
[ -x "$PYTHON" ] || PYTHON=$(command -v python3)

PYTHON="$PYTHON" "$ROOT/tests/fuzz/build.sh" ext

venv="$OUT/asan-venv"
if [ ! -x "$venv/bin/python" ]; then
    base=$("$PYTHON" -c 'import sys; print(sys._base_executable)')
    "$base" -m venv --without-pip "$venv"
fi
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
deps=$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
printf '%s\n%s\n' "$OUT/asan-site" "$deps" > "$site/fastparse-asan.pth"

CC_FOR_RUNTIME=${SAN_CC:-gcc}
export LD_PRELOAD="$($CC_FOR_RUNTIME -print-file-name=libasan.so) $($CC_FOR_RUNTIME -print-file-name=libubsan.so)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:abort_on_error=1:halt_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export PYTHONMALLOC=malloc
export FASTPARSE_SANITIZER_RUN=1   # tests/test_pathological.py: run the inputs, assert no timing

cd "$ROOT"
where=$("$venv/bin/python" -P -c 'import fastparse._core as c; print(c.__file__)')
case "$where" in
    "$OUT/asan-site/"*) echo "sanitized extension: $where" ;;
    *) echo "sanitizer_tests.sh: imported $where, not the ASan build" >&2; exit 2 ;;
esac
# no path given: pytest's testpaths (tests/) apply
exec "$venv/bin/python" -P -m pytest -p no:cacheprovider "${@:--q}"
