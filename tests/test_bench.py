"""The benchmark workbench end to end: a --quick run on the generated corpus
with every installed peer, rendering, and output validation catching a
deliberately wrong adapter. No timing assertions: only that the figures exist,
are positive, and come from validated outputs."""
from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import textwrap
from datetime import datetime
from pathlib import Path

import pytest

from fastparse import _core
from fastparse.bench import adapters, render, validate
from fastparse.corpora import Page

ROOT = Path(__file__).resolve().parents[1]


def _bench(*args: str, env: dict | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fastparse.bench", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, **(env or {})}, check=False)


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    raw = tmp_path_factory.mktemp("bench") / "raw"
    proc = _bench("run", "--quick", "--corpus", "generated", "--out", str(raw))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return raw


def test_quick_run_measures_every_installed_peer(quick_run):
    run = json.loads((quick_run / "run.json").read_text())
    installed, skipped = adapters.available()
    assert run["status"] == "ok"
    assert set(run["parsers"]) == set(installed)
    assert set(run["skipped_parsers"]) == set(skipped)       # missing peers are named, not hidden
    assert not [f for f in run["findings"] if not f["known"]]
    assert run["parsers"]["fastparse"]["build"] == {"extension": _core.BUILD, "scan": _core.SCAN_IMPL, "cpu": _core.CPU}
    import pyperf
    for name in installed:
        suite = pyperf.BenchmarkSuite.load(str(quick_run / "parse" / f"{name}.json"))
        benches = suite.get_benchmarks()
        assert {b.get_name() for b in benches} == {p["id"] for p in run["pages"]}
        assert all(b.median() > 0 for b in benches)
        md = benches[0].get_metadata()
        assert md["parser"] == name and md["parser_version"]
        assert (quick_run / "memory" / f"{name}.json").exists()


def test_each_page_goes_to_every_parser_in_turn(quick_run):
    # the values compared for a page are seconds apart, not a whole worker's run apart
    import pyperf
    when: dict[str, list[float]] = {}
    for f in (quick_run / "parse").glob("*.json"):
        for b in pyperf.BenchmarkSuite.load(str(f)).get_benchmarks():
            for r in b.get_runs():
                when.setdefault(b.get_name(), []).append(
                    datetime.fromisoformat(r.get_metadata()["date"]).timestamp())
    installed, _ = adapters.available()
    assert len(when) > 5 and all(len(ts) == len(installed) for ts in when.values())
    spans = sorted((min(ts), max(ts), page) for page, ts in when.items())
    for (_, end, page), (start, _, after) in itertools.pairwise(spans):
        assert end <= start, f"{after} was timed before every parser had done {page}"


def test_render_writes_tables_and_plots(quick_run, tmp_path):
    out = render.render(quick_run, tmp_path / "rendered")
    tables, plots = out / "tables", out / "plots"
    for name in ("headline", "parse", "parse_pages", "extract", "links", "memory", "scaling", "linear"):
        assert (tables / f"{name}.md").read_text().count("|") > 10, name
        assert (tables / f"{name}.csv").exists(), name
    for name in ("parse_by_kind", "scaling_time", "scaling_memory", "memory"):
        for ext in ("png", "svg"):
            assert (plots / f"{name}.{ext}").stat().st_size > 1000, (name, ext)
    headline = (tables / "headline.md").read_text()
    assert "fastparse" in headline and "1.00×" in headline


def test_pooled_runs_take_each_pages_median_over_runs(quick_run):
    one = render.load(quick_run)
    key = next(iter(one["times"]["parse"]))

    def scaled(factor, name):
        d = {**one, "name": name, "times": {t: {k: v * factor for k, v in ts.items()}
                                            for t, ts in one["times"].items()}}
        d["mem"] = {f: {k: {**m, "retained": m["retained"] * factor} for k, m in ms.items()}
                    for f, ms in one["mem"].items()}
        return d

    pooled = render.pool([scaled(1, "a"), scaled(3, "b"), scaled(2, "c")])
    assert pooled["times"]["parse"][key] == one["times"]["parse"][key] * 2   # the middle run
    mkey = next(iter(one["mem"]["memory"]))
    assert pooled["mem"]["memory"][mkey]["retained"] == one["mem"]["memory"][mkey]["retained"] * 2
    assert pooled["pooled"] == ["a", "b", "c"]
    other = {**scaled(1, "d"), "run": {**one["run"], "git_sha": "0" * 10}}
    with pytest.raises(SystemExit, match="same code"):
        render.pool([one, other])


WRONG = textwrap.dedent('''
    from fastparse.bench.adapters.selectolax_lexbor import SelectolaxAdapter

    class DropsOneRecord(SelectolaxAdapter):
        name = label = "wrong"

        def records(self, doc, kind):
            return super().records(doc, kind)[:-1]
''')


def test_a_wrong_adapter_fails_the_run(tmp_path):
    (tmp_path / "wrong_adapter.py").write_text(WRONG)
    env = {"FASTPARSE_BENCH_ADAPTERS": "wrong=wrong_adapter:DropsOneRecord",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = _bench("run", "--quick", "--tasks", "extract", "--parsers", "selectolax,wrong",
                  "--out", str(tmp_path / "raw"), env=env)
    assert proc.returncode == 3, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "WRONG OUTPUT" in proc.stdout and "BENCHMARK FAILED" in proc.stderr
    run = json.loads((tmp_path / "raw" / "run.json").read_text())
    assert run["status"] == "failed validation"
    assert {f["parser"] for f in run["findings"] if not f["known"]} == {"wrong"}
    assert not (tmp_path / "raw" / "extract").exists()        # nothing timed is reported


def test_raw_results_are_written_once(quick_run):
    proc = _bench("run", "--quick", "--tasks", "parse", "--parsers", "selectolax", "--out", str(quick_run))
    assert proc.returncode != 0 and "written once" in proc.stderr


# ---- units ------------------------------------------------------------------------
def test_fit_slope_reads_growth_exponents():
    assert render.fit_slope([(1e4, 1.0), (1e5, 10.0), (1e6, 100.0)]) == pytest.approx(1.0)
    assert render.fit_slope([(1e4, 1.0), (1e5, 100.0)]) == pytest.approx(2.0)


def test_validation_scores_links_on_real_pages_and_fails_generated_ones():
    real = Page("site/page.html", "article", "real", 10, "x", None)
    gen = Page("generated/books", "catalog", "generated", 10, "x", "books")
    want = [["/a", "A"], ["/b", "B"]]
    findings, agree = validate.check("links", real, {"fastparse": want, "lxml": want[:1]}, None)
    assert not findings and agree["lxml"] == pytest.approx(0.5) and agree["fastparse"] == 1.0
    findings, _ = validate.check("links", gen, {"fastparse": want, "lxml": want[:1]}, None)
    assert [f.parser for f in findings] == ["lxml"] and "differs from fastparse" in findings[0].message


def test_extract_is_checked_against_ground_truth_first():
    gen = Page("generated/books", "catalog", "generated", 10, "x", "books")
    truth = [{"title": "t"}]
    findings, _ = validate.check("extract", gen, {"fastparse": [{"title": "wrong"}], "lxml": truth}, truth)
    assert [f.parser for f in findings] == ["fastparse"]


def test_css_task_runs_twenty_selectors_on_real_pages_and_scores_counts():
    from fastparse.bench import tasks
    assert len(tasks.CSS_SELECTORS) == 20 and len(set(tasks.CSS_SELECTORS)) == 20
    real = Page(id="r", kind="article", origin="real", nbytes=1, sha256="", extractor=None)
    gen = Page(id="g", kind="catalog", origin="generated", nbytes=1, sha256="", extractor=None)
    assert tasks.pages_for("css", [real, gen]) == [real]
    fp_adapter = adapters.load("fastparse")
    counts = tasks.timed_call("css", fp_adapter, {"extractor": None})(b"<title>t</title><p>a<p>b<a href=x>")
    assert counts[tasks.CSS_SELECTORS.index("title")] == 1 and counts[tasks.CSS_SELECTORS.index("p")] == 2
    findings, agreement = validate.check("css", real, {"fastparse": [1, 2, 3, 4], "other": [1, 2, 0, 4]}, None)
    assert findings == [] and agreement == {"fastparse": 1.0, "other": 0.75}


def test_css_alone_parses_once_untimed_then_times_the_selectors():
    from fastparse.bench import tasks
    real = Page(id="r", kind="article", origin="real", nbytes=1, sha256="", extractor=None)
    assert tasks.pages_for("css-alone", [real]) == [real]
    parsed = []

    class Counting:
        def parse(self, data):
            parsed.append(data)
            return "doc"

        def select_counts(self, doc, selectors):
            assert doc == "doc" and selectors == tasks.CSS_SELECTORS
            return [1] * len(selectors)

    fn = tasks.timed_call("css-alone", Counting(), {"extractor": None}, b"<p>")
    assert parsed == [b"<p>"]
    assert fn(b"<p>") == fn(b"<p>") == [1] * 20
    assert parsed == [b"<p>"]   # the timed calls never parse
    findings, agreement = validate.check("css-alone", real, {"fastparse": [1, 2], "other": [1, 3]}, None)
    assert findings == [] and agreement == {"fastparse": 1.0, "other": 0.5}


def test_each_adapters_select_counts_loop_counts_what_its_select_returns():
    # the adapters write the css tasks' loop in their library's own calls (no adapter
    # method per selector): it must count the same elements as select() returns
    from fastparse.bench import tasks
    from fastparse.bench.adapters.base import Adapter
    page = (b"<html><head><title>t</title><meta name=description content=d>"
            b"<meta property='og:title' content=x></head><body><nav><a href='http://a'>a</a></nav>"
            b"<ul><li><a href=/b>b</a><li>c</ul><div class=x><p>p</div><div><span>s</span></div>"
            b"<table><tr><td>1<td>2</table><img src=i alt=''><form><input name=q></form></body></html>")
    found, _ = adapters.available()
    checked = []
    for name, adapter in found.items():
        if "css" not in adapter.supports:
            continue
        doc = adapter.parse(page)
        counts = adapter.select_counts(doc, tasks.CSS_SELECTORS)
        assert counts == Adapter.select_counts(adapter, doc, tasks.CSS_SELECTORS), name
        assert type(adapter).select_counts is not Adapter.select_counts, f"{name} times an adapter call per select"
        checked.append(name)
    assert "fastparse" in checked
