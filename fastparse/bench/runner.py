"""`run`: every task, every parser, every page; raw results written once.

Layout of a raw results folder (results/raw/<date>_<git-sha>_<host>/):
  run.json                 settings, command, machine, parsers and versions, skipped
                           parsers, pages with sha256, validation findings, timings
  <task>/<parser>.json     pyperf suites (parse, extract, links, select, scaling):
                           one benchmark per page, one pyperf run per worker process
  memory/<parser>.json     retained and peak memory per page
  scaling-memory/<parser>.json
Compare two parsers with pyperf itself: python -m pyperf compare_to parse/fastparse.json parse/lxml.json"""
from __future__ import annotations

import json
import platform
import shutil
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from .. import corpora
from . import adapters, validate
from .settings import FULL, QUICK, QUICK_PAGES
from .tasks import TASKS, pages_for

CHECKOUT = Path(__file__).resolve().parents[2]


def project_root() -> Path:
    """The source checkout when running from one, else the current folder."""
    return CHECKOUT if (CHECKOUT / "pyproject.toml").exists() else Path.cwd()


def git_sha(root: Path) -> str:
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=10", "HEAD"],
                             capture_output=True, text=True, timeout=10, check=False)
        return out.stdout.strip() or "nogit"
    except (OSError, subprocess.SubprocessError):
        return "nogit"


def default_out(root: Path) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    return root / "results" / "raw" / f"{stamp}_{git_sha(root)}_{socket.gethostname()}"


class Run:
    def __init__(self, *, quick: bool, tasks: list[str], parsers: list[str], corpus: str,
                 corpus_dir: str | None, out: Path | None, allow_mismatch: bool = False,
                 clock: str = "cpu", log=print):
        self.settings = (QUICK if quick else FULL).with_clock(clock)
        self.quick, self.tasks, self.corpus, self.log = quick, tasks, corpus, log
        self.allow_mismatch = allow_mismatch
        root = project_root()
        self.out = Path(out) if out else default_out(root)
        if self.out.exists() and any(self.out.iterdir()):
            raise SystemExit(f"{self.out} exists and is not empty: raw results are written once")
        ok, self.skipped = adapters.available(parsers)
        self.adapters = ok
        self.versions = {n: a.versions() for n, a in ok.items()}
        self.pages = corpora.pages(corpus, corpus_dir)
        if quick:
            keep = {f"generated/{n}" for n in QUICK_PAGES}
            self.pages = [p for p in self.pages if p.origin == "real" or p.id in keep]
        self.out.mkdir(parents=True, exist_ok=True)
        self.tmp = self.out / "tmp-work"
        self.tmp.mkdir()
        self.findings: list[validate.Finding] = []
        self.skipped_tasks: dict[str, str] = {}
        self.agreement: dict = {}
        self.errors: list[dict] = []
        self.durations: dict[str, float] = {}
        self.meta = {
            "command": sys.argv, "quick": quick, "tasks": tasks, "corpus": corpus,
            "settings": self.settings.as_dict(), "git_sha": git_sha(root),
            "host": socket.gethostname(), "platform": platform.platform(),
            "python": sys.version, "started": datetime.now(UTC).isoformat(timespec="seconds"),
        }

    # ---- pages on disk for the workers -----------------------------------------
    def _page_job(self, page: corpora.Page) -> dict:
        if page.path is None:
            path = self.tmp / "pages" / (page.id.replace("/", "__") + ".html")
            if not path.exists():
                path.parent.mkdir(exist_ok=True)
                path.write_bytes(page.read())
        else:
            path = page.path
        return {"id": page.id, "path": str(path), "kind": page.kind, "nbytes": page.nbytes,
                "extractor": page.extractor}

    # ---- worker processes ------------------------------------------------------------
    def _job_file(self, stem: str, job: dict) -> Path:
        jf = self.tmp / (stem + ".job.json")
        jf.write_text(json.dumps(job))
        return jf

    def _memory_worker(self, parser: str, tasks: dict[str, list[dict]], bars: dict) -> dict:
        jf = self._job_file(f"memory-{parser}", {"parser": parser, "settings": self.settings.as_dict(),
                                                 "tasks": tasks})
        rf, logf = self.tmp / f"memory-{parser}.result.json", self.tmp / f"memory-{parser}.log"
        with open(logf, "w") as err:
            proc = subprocess.Popen([sys.executable, "-m", "fastparse.bench.worker", str(jf), str(rf)],
                                    stdout=subprocess.PIPE, stderr=err, text=True)
            assert proc.stdout is not None   # stdout=PIPE
            for line in proc.stdout:
                bars[line.split("\t", 1)[0]].update(1)
            code = proc.wait()
        if code != 0 or not rf.exists():
            raise RuntimeError(f"memory worker {parser} failed (exit {code}):\n" + logf.read_text()[-3000:])
        return json.loads(rf.read_text())

    def _participants(self, task: str) -> list[str]:
        return [n for n, a in self.adapters.items() if task in a.supports]

    def _bars(self, totals: dict[str, int]) -> dict:
        from tqdm import tqdm
        return {t: tqdm(total=n, desc=f"{t:13}", unit="page", position=i, disable=None, leave=True)
                for i, (t, n) in enumerate(totals.items())}

    # ---- timed tasks: rounds of parked workers, fed page by page, parsers interleaved ----
    def timed(self, plan: dict[str, list[corpora.Page]]) -> dict:
        """plan: task -> pages. Returns task -> parser -> [round results]."""
        parsers = [n for n in self.adapters if any(n in self._participants(t) for t in plan)]
        jobs = {p: {t: [self._page_job(pg) for pg in pages] for t, pages in plan.items()
                    if p in self._participants(t)} for p in parsers}
        results: dict = {t: {p: [] for p in parsers if t in jobs[p]} for t in plan}
        rounds = self.settings.rounds
        bars = self._bars({t: sum(len(jobs[p].get(t, ())) for p in parsers) * rounds for t in plan})
        try:
            for rnd in range(rounds):
                if rnd == rounds - 1 and rnd > 0:
                    self._drop_long_calls(jobs, bars)
                for parser, (system, by_task) in self._timed_round(rnd, plan, jobs, bars).items():
                    for task, pages in by_task.items():
                        results[task][parser].append({"system": system, "pages": pages})
                if rnd == 0:
                    for task, pages in plan.items():
                        by_page = {pg.id: pg for pg in pages}
                        self._validate(task, by_page, results[task])
                        self._plan_next_rounds(task, {p: j[task] for p, j in jobs.items() if task in j},
                                               results[task], bars[task])
        finally:
            for b in bars.values():
                b.close()
        for task, pages in plan.items():
            self._write_pyperf(task, {pg.id: pg for pg in pages}, results[task])
        return results

    def _timed_round(self, rnd: int, plan: dict, jobs: dict, bars: dict) -> dict:
        """One round: a parked worker per parser, sent each page in turn (the
        first parser rotating), so the values the parsers get for a page are
        seconds apart. Load on a shared machine comes in phases of tens of
        seconds that slow everything by up to 2x: a worker per parser running
        all its pages would compare values taken minutes apart.
        Returns parser -> (machine metadata, task -> page id -> result)."""
        parsers = list(jobs)
        workers: dict[str, _Parked] = {}
        try:
            for parser in parsers:   # all loaded before any timing starts
                workers[parser] = _Parked(self, parser, rnd)
            for w in workers.values():
                w.wait_ready()
            wanted = {p: {t: {pg["id"]: pg for pg in pages} for t, pages in jobs[p].items()} for p in parsers}
            got: dict = {p: {t: {} for t in jobs[p]} for p in parsers}
            turn = rnd
            for task, pages in plan.items():
                for page in pages:
                    turn += 1
                    for parser in parsers[turn % len(parsers):] + parsers[:turn % len(parsers)]:
                        job = wanted[parser].get(task, {}).get(page.id)
                        if job is None:
                            continue
                        res = got[parser][task][page.id] = workers[parser].time(task, job)
                        bars[task].update(1)
                        if task == "scaling" and rnd == 0:
                            _cap_next_size(jobs[parser][task], job, res, self.settings.scaling_cap)
            return {p: (workers[p].finish(), got[p]) for p in parsers}
        finally:
            for w in workers.values():
                w.close()

    def _validate(self, task: str, by_page: dict, results: dict) -> None:
        for parser, rounds in results.items():      # a crash is a wrong answer too
            for pid, res in rounds[0]["pages"].items():
                if "error" in res:
                    self.findings.append(validate.Finding(task, pid, parser, "raised " + res["error"]))
        if task in ("parse", "scaling"):
            self._report(task)
            return
        for pid, page in by_page.items():
            outs = {p: r[0]["pages"].get(pid, {}).get("output") for p, r in results.items()}
            truth = corpora.truth(page) if task == "extract" else None
            found, agree = validate.check(task, page, outs, truth)
            self.findings += found
            if agree:
                self.agreement.setdefault(task, {})[pid] = agree
        self._report(task)

    def _report(self, task: str) -> None:
        bad = [f for f in self.findings if f.task == task and not f.known]
        for f in self.findings:
            if f.task == task:
                tag = f"known: {f.known}" if f.known else "WRONG OUTPUT"
                self.log(f"  [{tag}] {task} {f.parser} {f.page}: {f.message}")
        if bad and not self.allow_mismatch:
            self._write_meta(status="failed validation")
            raise validate.ValidationError(
                f"{len(bad)} wrong output(s) in task {task}; first: {bad[0].parser} on {bad[0].page}: "
                f"{bad[0].message}\n(raw results so far and run.json in {self.out})")

    def _plan_next_rounds(self, task: str, jobs: dict, results: dict, bar) -> None:
        """Keep round 1's loops; drop pages whose output was wrong or that failed."""
        wrong = {(f.parser, f.page) for f in self.findings if f.task == task}
        for parser, plan in jobs.items():
            first = results[parser][0]["pages"]
            kept = []
            for page in plan:
                res = first.get(page["id"], {})
                if "values" not in res or (parser, page["id"]) in wrong:
                    bar.total -= self.settings.rounds - 1
                    continue
                per_call = min(res["values"])
                kept.append({**page, "loops": res["loops"], "per_call": per_call,
                             "slow": per_call >= self.settings.warmup_below, "skip": None})
            plan[:] = kept
        bar.refresh()

    def _drop_long_calls(self, jobs: dict, bars: dict) -> None:
        """Calls longer than long_call skip the last round (budget; they have values already)."""
        for plan in jobs.values():
            for task, pages in plan.items():
                keep = [p for p in pages if p["per_call"] < self.settings.long_call]
                bars[task].total -= len(pages) - len(keep)
                pages[:] = keep

    def _write_pyperf(self, task: str, by_page: dict, results: dict) -> None:
        import pyperf
        folder = self.out / task
        folder.mkdir(exist_ok=True)
        wrong = {(f.parser, f.page) for f in self.findings if f.task == task}
        for parser, rounds in results.items():
            benches = []
            version = " ".join(f"{k}={v}" for k, v in self.versions[parser].items())
            for pid, page in by_page.items():
                if (parser, pid) in wrong:      # a wrong answer is never reported as a time
                    continue
                runs = []
                for r in rounds:
                    res = r["pages"].get(pid)
                    if not res or "values" not in res:
                        continue
                    md = {**r["system"], "name": pid, "loops": res["loops"], "task": task,
                          "parser": parser, "parser_version": version, "page_kind": page.kind,
                          "page_bytes": page.nbytes, "page_origin": page.origin,
                          "timer": "time.process_time" if self.settings.clock == "cpu" else "time.perf_counter"}
                    if page.sha256:
                        md["page_sha256"] = page.sha256
                    if "at" in res:     # when this page was timed (the system's date is the worker's end)
                        md["date"] = datetime.fromtimestamp(res["at"], UTC).isoformat(timespec="milliseconds")
                    warm = [tuple(w) for w in res["warmups"]] or None
                    runs.append(pyperf.Run(res["values"], warmups=warm, metadata=md, collect_metadata=False))
                if runs:
                    benches.append(pyperf.Benchmark(runs))
            if benches:
                pyperf.BenchmarkSuite(benches).dump(str(folder / f"{parser}.json"))

    # ---- memory: one clean worker per parser, a fork per page ------------------------
    def memory(self, plan: dict[str, list[corpora.Page]], skip: dict) -> None:
        """plan: task ("memory", "scaling") -> pages; skip: parser -> {page id: reason}
        (the scaling sizes a parser was too slow to time)."""
        parsers = self._participants("memory")
        folder = {"memory": "memory", "scaling": "scaling-memory"}
        base = {t: [self._page_job(pg) for pg in pages] for t, pages in plan.items()}
        bars = self._bars({("memory" if t == "memory" else "scaling-memory"): len(v) * len(parsers)
                           for t, v in base.items()})
        if "scaling-memory" in bars:   # the worker reports under the task's name
            bars["scaling"] = bars["scaling-memory"]
        try:
            for parser in parsers:
                why = skip.get(parser, {})
                tasks = {t: [{**p, "skip": why.get(p["id"])} for p in v] for t, v in base.items()}
                res = self._memory_worker(parser, tasks, bars)
                for task, pages in plan.items():
                    got = res["tasks"][task]
                    for pid, m in got.items():
                        if "error" in m:
                            self.errors.append({"task": task, "parser": parser, "page": pid, "error": m["error"]})
                            self.log(f"  [error] memory {parser} {pid}: {m['error']}")
                    doc = {"parser": parser, "versions": res["versions"], "task": task,
                           "system": {k: res["system"][k] for k in ("hostname", "cpu_model_name", "platform")
                                      if k in res["system"]},
                           "pages": {pg.id: {**got[pg.id], "kind": pg.kind, "origin": pg.origin} for pg in pages}}
                    (self.out / folder[task]).mkdir(exist_ok=True)
                    (self.out / folder[task] / f"{parser}.json").write_text(json.dumps(doc, indent=1))
        finally:
            for b in set(bars.values()):
                b.close()

    # ---- the whole run -----------------------------------------------------------
    def execute(self) -> Path:
        if self.skipped:
            self.log("skipped parsers: " + "; ".join(f"{k} ({v})" for k, v in self.skipped.items()))
        self.log(f"parsers: {', '.join(self.adapters)}; {len(self.pages)} pages ({self.corpus}); "
                 f"raw results: {self.out}")
        fp = self.adapters.get("fastparse")
        if "select" in self.tasks and fp is not None and "select" not in fp.supports:
            self.skipped_tasks["select"] = "fastparse has no select() yet"
            self.log("select: skipped (fastparse has no select() yet)")
        sizes = corpora.scaling_pages(list(self.settings.scaling_sizes))
        timed = {t: (sizes if t == "scaling" else pages_for(t, self.pages))
                 for t in TASKS if t in self.tasks and t != "memory" and t not in self.skipped_tasks}
        try:
            t0 = time.perf_counter()
            results = self.timed(timed) if timed else {}
            self.durations["timed"] = round(time.perf_counter() - t0, 1)
            mem_plan = {}
            if "memory" in self.tasks:
                mem_plan["memory"] = pages_for("memory", self.pages)
            if "scaling" in self.tasks:
                mem_plan["scaling"] = sizes
            too_slow = {p: {pid: r["skipped"] for pid, r in rounds[0]["pages"].items() if "skipped" in r}
                        for p, rounds in results.get("scaling", {}).items()}
            t0 = time.perf_counter()
            if mem_plan:
                self.memory(mem_plan, too_slow)
            self.durations["memory"] = round(time.perf_counter() - t0, 1)
            self._write_meta(status="ok")
        finally:
            shutil.rmtree(self.tmp, ignore_errors=True)
        return self.out

    def _write_meta(self, status: str) -> None:
        meta = {
            **self.meta, "status": status,
            "finished": datetime.now(UTC).isoformat(timespec="seconds"),
            "parsers": {n: {"label": a.label, "versions": self.versions[n], "build": a.build(),
                            "tasks": list(a.supports)}
                        for n, a in self.adapters.items()},
            "skipped_parsers": self.skipped,
            "skipped_tasks": self.skipped_tasks,
            "pages": [{"id": p.id, "kind": p.kind, "origin": p.origin, "bytes": p.nbytes, "sha256": p.sha256,
                       "extractor": p.extractor} for p in self.pages],
            "scaling_sizes": list(self.settings.scaling_sizes),
            "findings": [f.as_dict() for f in self.findings],
            "link_agreement": self.agreement,
            "errors": self.errors,
            "durations_s": self.durations,
        }
        (self.out / "run.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False))


class _Parked:
    """A timed worker process (worker.serve) holding one parser, timing the
    pages sent to it one at a time; idle (blocked on its stdin) in between."""

    def __init__(self, run: Run, parser: str, rnd: int):
        stem = f"timed-{parser}-{rnd}"
        jf = run._job_file(stem, {"parser": parser, "settings": run.settings.as_dict(),
                                  "want_output": rnd == 0})
        self.parser, self.logf = parser, run.tmp / (stem + ".log")
        self.err = open(self.logf, "w")  # noqa: SIM115 — lives as long as the process; close() closes it
        self.proc = subprocess.Popen([sys.executable, "-m", "fastparse.bench.worker", "--serve", str(jf)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
                                     text=True, encoding="utf-8")
        assert self.proc.stdin is not None and self.proc.stdout is not None   # both PIPE
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout

    def _receive(self) -> dict:
        line = self.stdout.readline()
        if not line:
            self.err.flush()
            raise RuntimeError(f"worker {self.parser} died (exit {self.proc.wait()}):\n"
                               + self.logf.read_text()[-3000:])
        return json.loads(line)

    def _send(self, msg: dict) -> None:
        self.stdin.write(json.dumps(msg) + "\n")
        self.stdin.flush()

    def wait_ready(self) -> None:
        self._receive()

    def time(self, task: str, page: dict) -> dict:
        self._send({"task": task, "page": page})
        return self._receive()

    def finish(self) -> dict:
        self._send({"end": True})
        system = self._receive()["system"]
        self.proc.wait()
        return system

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for f in (self.stdin, self.stdout, self.err):
            f.close()


def _cap_next_size(plan: list, page: dict, res: dict, cap: float) -> None:
    """Scaling sweep: skip the remaining sizes once the next would take over cap seconds."""
    if "values" not in res:
        return
    per_byte = min(res["values"]) / max(page["nbytes"], 1)
    for p in plan:
        if p["nbytes"] > page["nbytes"] and per_byte * p["nbytes"] > cap and not p.get("skip"):
            p["skip"] = f"estimated {per_byte * p['nbytes']:.1f} s > {cap} s cap"
