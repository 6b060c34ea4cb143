"""Worker processes: one parser each.

    python -m fastparse.bench.worker --serve JOB.json     timed tasks, page by page
    python -m fastparse.bench.worker JOB.json RESULT.json  memory (see memory.py)

A timed worker loads its parser, warms it up, prints {"ready": true} and then
waits on stdin for one page at a time ({"task": ..., "page": {...}}), answering
each with one JSON line; {"end": true} makes it print the machine's metadata
and exit. The runner keeps one such worker per parser parked and sends every
page to each of them in turn, so the values the parsers get for a page are
taken seconds apart. The page dicts come from the runner: files already written
and verified, and after the first round each page's calibrated loops.
A memory job runs in a worker of its own that has parsed nothing but a warm-up.
Answers go to the original stdout; anything a library prints goes to stderr."""
from __future__ import annotations

import json
import math
import os
import sys
import time
import traceback
from pathlib import Path

from .adapters import load
from .tasks import timed_call

perf_counter = time.perf_counter   # replaced by _loaded() from the job's clock setting
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


def time_job(s: dict, adapter, task: str, page: dict, want_output: bool) -> dict:
    """The result for one page of a timed task: values, or why there are none."""
    if page.get("skip"):
        return {"skipped": page["skip"]}
    try:
        data = Path(page["path"]).read_bytes()
        fn = timed_call(task, adapter, page, data)
        return {"at": time.time(), **time_page(fn, data, s, page, want_output, task)}
    except Exception as exc:  # noqa: BLE001 — one failing page must not end the worker
        return {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()}


def serve(job: dict) -> int:
    """Answer page requests on stdin until {"end": true} (see the module docstring)."""
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)            # a library's own prints (Python's or C's, fd 1) go to stderr, not the answers
    adapter = _loaded(job)

    def answer(obj: dict) -> None:
        answers.write(json.dumps(obj, ensure_ascii=False) + "\n")
        answers.flush()

    answer({"ready": True})
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("end"):
            break
        answer(time_job(job["settings"], adapter, msg["task"], msg["page"], job["want_output"]))
    import pyperf  # after the work: its import must not sit between warm-up and timing
    answer({"system": pyperf.Run([1.0], collect_metadata=True).get_metadata()})
    return 0


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


def _loaded(job: dict):
    global perf_counter
    perf_counter = CLOCKS[job["settings"]["clock"]]
    adapter = load(job["parser"])
    adapter.parse(b"<!doctype html><p class=x>warm<a href=y>up</a>")   # lazy imports, tables
    return adapter


def main(argv: list[str]) -> int:
    if argv[0] == "--serve":
        return serve(json.loads(Path(argv[1]).read_text()))
    job = json.loads(Path(argv[0]).read_text())
    adapter = _loaded(job)
    results = {task: run_memory(job, adapter, task, plan) for task, plan in job["tasks"].items()}
    import pyperf
    system = pyperf.Run([1.0], collect_metadata=True).get_metadata()
    result = {"parser": job["parser"], "versions": adapter.versions(), "system": system, "tasks": results}
    Path(argv[1]).write_text(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
