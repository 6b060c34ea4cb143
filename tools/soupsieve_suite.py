"""soupsieve's own selector tests, run through fastparse.

    python tools/soupsieve_suite.py SOUPSIEVE_SDIST_DIR [--show 20]

SOUPSIEVE_SDIST_DIR is an unpacked soupsieve source distribution (`pip download --no-binary
:all: --no-deps soupsieve`, then untar): its tests/ are not in this repository. Each of its
assert_selector(markup, selector, expected_ids) calls also parses the markup with fastparse
and compares `doc.select(selector)`'s ids with the expected ones; each assert_raises(pattern)
checks that fastparse raises SelectorError. Cases for XML or XHTML documents, custom
selectors, namespace maps and soupsieve's own options are counted as skipped; soupsieve's
own assertions still run (its result line is printed too).

The figures printed are per mode: soupsieve runs each case with html5lib (HTML5), with every
parser (HTML), or with html.parser or lxml alone (PYHTML, LXML_HTML), whose trees follow
rules other than the HTML Standard's; the HTML5 and HTML modes are the ones that apply.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLUGIN = '''
import json, os, textwrap
import fastparse as fp
from tests import util

_log = open(os.environ["FP_SUITE_LOG"], "a")
_raises = util.TestCase.assert_raises


def _record(**kw):
    _log.write(json.dumps(kw) + "\\n")
    _log.flush()


def assert_selector(self, markup, selectors, expected_ids, namespaces=None, custom=None, flags=0, options=0):
    mode = flags & 0x3F
    if mode in (util.XHTML, util.XML) or custom or namespaces or options:
        return _record(test=self.id(), kind="skip", css=selectors)
    doc = fp.parse(textwrap.dedent(markup.replace("\\r\\n", "\\n")))
    try:
        got = sorted(str(t.get("id")) for t in doc.select(selectors))
    except Exception as exc:
        return _record(test=self.id(), kind="error", css=selectors, mode=mode, error=repr(exc))
    _record(test=self.id(), kind="agree" if got == sorted(expected_ids) else "differ", css=selectors,
            mode=mode, expected=sorted(expected_ids), got=got)


def assert_raises(self, pattern, exception, namespace=None, custom=None):
    if not (custom or namespace):
        try:
            fp.parse("<p>").select(pattern)
            _record(test=self.id(), kind="accepted", css=pattern)
        except fp.SelectorError:
            _record(test=self.id(), kind="raised", css=pattern)
        except Exception as exc:
            _record(test=self.id(), kind="error", css=pattern, error=repr(exc))
    return _raises(self, pattern, exception, namespace, custom)


util.TestCase.assert_selector = assert_selector
util.TestCase.assert_raises = assert_raises
'''

MODES = {1: "HTML5", 2: "HTML", 16: "PYHTML", 32: "LXML_HTML"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("sdist", type=Path)
    ap.add_argument("--show", type=int, default=20)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "fp_suite_plugin.py").write_text(PLUGIN)
        log = Path(tmp) / "log.jsonl"
        env = {**os.environ, "FP_SUITE_LOG": str(log),
               "PYTHONPATH": os.pathsep.join([tmp, str(args.sdist), str(ROOT)])}
        run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "fp_suite_plugin", "-p", "no:cacheprovider",
                              "tests"], cwd=args.sdist, env=env, capture_output=True, text=True,
                             check=False)   # soupsieve's own failures are printed, not fatal
        print("soupsieve's own run:", (run.stdout.strip().splitlines() or ["(no output)"])[-1])
        records = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    counts = collections.Counter((r["kind"], MODES.get(r.get("mode"), "")) for r in records)
    for (kind, mode), n in sorted(counts.items()):
        print(f"{kind:>9} {mode:<9} {n}")
    shown = 0
    for r in records:
        if r["kind"] in ("differ", "error", "accepted") and r.get("mode") in (None, 1, 2) and shown < args.show:
            shown += 1
            detail = (r.get("error") or ("soupsieve raises, fastparse accepts it" if r["kind"] == "accepted"
                                         else f"expected {r['expected']}, fastparse {r['got']}"))
            print(textwrap.shorten(f"  {r['kind']} {r['test'].split('.', 2)[-1]} {r['css']!r}: {detail}", 160))


if __name__ == "__main__":
    main()
