"""One worker process: one parser, one round, every task's pages.

    python -m fastparse.bench.worker JOB.json RESULT.json

The job names each task's pages (files already written and verified by the
runner), the settings and, after the first round, each page's calibrated
loops. The worker prints "task<TAB>page" per finished page (the runner's
progress bars) and writes the result file once at the end. A memory job runs
in a worker of its own that has parsed nothing but a warm-up (see memory.py)."""
from __future__ import annotations

import json
import math
import sys
import time
import traceback
from pathlib import Path

from .adapters import load
from .tasks import timed_call

perf_counter = time.perf_counter   # replaced by main() from the job's clock setting
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def _time(fn, data: bytes, loops: int) -> float:
    clock = perf_counter
    t0 = clock()
    for _ in range(loops):
        fn(data)
    return (clock() - t0) / loops


def _jsonable(out):
    # Records and links are compared as JSON (tuples become lists).
    return json.loads(json.dumps(out, ensure_ascii=False)) if out is not None else None


def time_page(fn, data: bytes, s: dict, page: dict, want_output: bool, task: str) -> dict:
    """Warm-ups and values for one page. Round 1 (no loops yet) keeps the
    output of the first call and calibrates loops; later rounds skip the
    warm-up of slow pages (a call of 50 ms or more is its own warm-up), and a
    first call longer than long_call is round 1's value."""
    loops, warmups, res = page.get("loops"), [], {}
    if loops is None or not page.get("slow"):
        t0 = perf_counter()
        out = fn(data)
        warmups.append([1, perf_counter() - t0])
        if want_output and task not in ("parse", "scaling"):
            res["output"] = _jsonable(out)
        del out
        if loops is None and warmups[0][1] >= s["long_call"]:
            # A call this long is its own warm-up: a second one would only double the cost.
            res.update(warmups=[], loops=1, values=[warmups[0][1]])
            return res
        if loops is None:
            one = warmups[0][1]
            if one < s["min_time"]:
                one = _time(fn, data, 1)
                warmups.append([1, one])
            loops = max(1, min(10**6, math.ceil(s["min_time"] / max(one, 1e-9))))
        if loops > 1:
            warmups.append([loops, _time(fn, data, loops)])
    per_value = (warmups[-1][1] if warmups else page["per_call"]) * loops
    n = max(1, min(s["values"], int(s["page_budget"] / max(per_value, 1e-9))))
    res.update(warmups=warmups, loops=loops, values=[_time(fn, data, loops) for _ in range(n)])
    return res


def run_timing(job: dict, adapter, task: str, plan: list) -> dict:
    s, pages = job["settings"], {}
    for page in plan:
        try:
            if task == "scaling" and page.get("skip"):
                pages[page["id"]] = {"skipped": page["skip"]}
            else:
                data = Path(page["path"]).read_bytes()
                fn = timed_call(task, adapter, page, data)
                pages[page["id"]] = time_page(fn, data, s, page, job["want_output"], task)
        except Exception as exc:  # noqa: BLE001 — one failing page must not end the worker
            pages[page["id"]] = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()}
        print(task, page["id"], sep="\t", flush=True)
        if task == "scaling" and job["round"] == 0:
            _cap_next_size(plan, page, pages[page["id"]], s["scaling_cap"])
    return pages


def _cap_next_size(plan: list, page: dict, res: dict, cap: float) -> None:
    """Scaling sweep: skip the remaining sizes once the next would take over cap seconds."""
    if "values" not in res:
        return
    per_byte = min(res["values"]) / max(page["nbytes"], 1)
    later = [p for p in plan if p["nbytes"] > page["nbytes"]]
    for p in later:
        if per_byte * p["nbytes"] > cap and not p.get("skip"):
            p["skip"] = f"estimated {per_byte * p['nbytes']:.1f} s > {cap} s cap"


def run_memory(job: dict, adapter, task: str, plan: list) -> dict:
    from .memory import measure_in_fork
    s, pages = job["settings"], {}
    for page in plan:
        if page.get("skip"):
            pages[page["id"]] = {"skipped": page["skip"]}
        else:
            pages[page["id"]] = measure_in_fork(adapter.parse, page["path"], s["memory_copies"],
                                                s["memory_budget"], s["memory_ceiling"])
        print(task, page["id"], sep="\t", flush=True)
    return pages


def main(argv: list[str]) -> int:
    global perf_counter
    job = json.loads(Path(argv[0]).read_text())
    perf_counter = CLOCKS[job["settings"]["clock"]]
    adapter = load(job["parser"])
    adapter.parse(b"<!doctype html><p class=x>warm<a href=y>up</a>")   # lazy imports, tables
    results = {}
    for task, plan in job["tasks"].items():
        run = run_memory if job["memory"] else run_timing
        results[task] = run(job, adapter, task, plan)
    import pyperf  # after the work: its import must not sit between warm-up and timing
    system = pyperf.Run([1.0], collect_metadata=True).get_metadata()
    result = {"parser": job["parser"], "round": job["round"], "versions": adapter.versions(),
              "system": system, "tasks": results}
    Path(argv[1]).write_text(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
