#!/usr/bin/env bash
# Which lines of the C engine the test suite never runs (gcov line coverage).
#
#   bash tools/c_coverage.sh [--slow] [FILE ...]    e.g. bash tools/c_coverage.sh select_match.c
#
# Copies the working tree (tracked files) to a temporary folder beside a link to
# ../shared, builds the extension there with --coverage (a plain build: the
# profile-guided one refuses instrumented CFLAGS), runs the suite (--slow: the slow
# tests too) and prints each source file's share of lines run, worst first, then
# the lines never run in each FILE named. Most of those are allocation failures.
# Needs gcc and gcov; a few minutes (--slow: about ten).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-$root/.venv/bin/python}
marks="not slow"
if [[ ${1:-} == --slow ]]; then marks=""; shift; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/repo"
(cd "$root" && git ls-files -z | xargs -0 cp --parents -t "$work/repo")
[[ -d $root/../shared ]] && ln -s "$(cd "$root/../shared" && pwd)" "$work/shared"
cd "$work/repo"
CFLAGS="--coverage -O1" LDFLAGS="--coverage" FASTPARSE_PGO=0 \
    "$python" setup.py -q build_ext --inplace > build.log 2>&1 || { cat build.log; exit 1; }
# the suite's own verdict does not matter here (test_build expects a profile-guided build)
"$python" -m pytest -q -p no:cacheprovider -m "$marks" tests | tail -1 || true
objs=$(dirname "$(find build -name parse.gcno | head -1)")
for gcno in "$objs"/*.gcno; do
    src=fastparse/_core/$(basename "$gcno" .gcno).c
    gcov -n -o "$objs" "$src" 2>/dev/null |
        awk -v f="$src" '$0 == "File \x27" f "\x27" { getline; sub("Lines executed:", ""); print $1, $3, f }'
done | sort -n | awk '{ printf "%8s of %5s lines  %s\n", $1, $2, $3 }'
for name in "$@"; do
    gcov -o "$objs" "fastparse/_core/$name" > /dev/null 2>&1
    echo "== $name: lines never run"
    grep -E '^ +#####:' "$name.gcov" | sed -E 's/^ +#####: +([0-9]+):/\1:/' || true
done
