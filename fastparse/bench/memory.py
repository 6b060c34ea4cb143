"""Memory per parsed document, measured so C allocations count.

For each page a fresh process (a fork of a worker that has imported the
library and parsed only a tiny warm-up document, so no freed heap is lying
around to be reused) reads the page, parses its first 4 KB (so the code pages
the parse runs are mapped before the baseline), then:
  peak      = high-water RSS during one parse - RSS before it
              (Linux: the high-water mark is reset through /proc/self/clear_refs;
              elsewhere ru_maxrss, which can only over-state the baseline)
  retained  = (RSS with N parsed copies alive - RSS before) / N, N = 10 unless
              the page is so slow or so large that 10 copies would not fit the
              time or memory budget (N is recorded).
RSS for `retained` is the anonymous part (RssAnon: heap and anonymous maps,
where documents live) on Linux, psutil's RSS elsewhere; a forked child maps
file-backed code pages lazily, which would add ~300 KB of noise to every
figure. Python's tracemalloc would miss the libraries' C heaps."""
from __future__ import annotations

import ctypes
import gc
import json
import os
import resource
import sys
import time
from pathlib import Path

import psutil

_PROC = Path("/proc/self")


def _trim() -> None:
    # Return freed malloc arenas to the OS, so RSS reflects live memory only.
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _reset_peak() -> bool:
    try:
        (_PROC / "clear_refs").write_text("5")
        return True
    except OSError:
        return False


def _peak_rss() -> int:
    try:
        for line in (_PROC / "status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def _status(field: str) -> int | None:
    try:
        for line in (_PROC / "status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def _anon_rss(proc) -> int:
    anon = _status("RssAnon")
    return proc.memory_info().rss if anon is None else anon


def measure_page(parse, path: str, copies: int, budget: float, ceiling: int) -> dict:
    """Runs in the fresh process: the figures for one page."""
    data = Path(path).read_bytes()
    proc = psutil.Process()
    parse(data[:4096])
    gc.collect()
    _trim()
    anon_before, file_before = _anon_rss(proc), _status("RssFile") or 0
    before = proc.memory_info().rss
    exact_peak = _reset_peak()
    t0 = time.perf_counter()
    docs = [parse(data)]
    took = time.perf_counter() - t0
    # Code pages first touched by this parse count in the high-water mark; take them out.
    peak = _peak_rss() - before - max(0, (_status("RssFile") or 0) - file_before)
    # Cap the copies by the time and memory budgets (one copy's peak bounds its size).
    n = max(1, min(copies, int(budget / max(took, 1e-9)), int(ceiling / max(peak, 1))))
    docs += [parse(data) for _ in range(n - 1)]
    gc.collect()
    _trim()
    after = _anon_rss(proc)
    del docs
    return {"bytes": len(data), "copies": n, "rss_before": before, "peak": peak,
            "retained": (after - anon_before) / n, "parse_seconds": took, "exact_peak": exact_peak}


def measure_in_fork(parse, path: str, copies: int, budget: float, ceiling: int) -> dict:
    """Fork, measure in the child, return its figures (or {'error': ...})."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: measure, report on the pipe, never return
        os.close(r)
        try:
            out = measure_page(parse, path, copies, budget, ceiling)
        except BaseException as exc:  # noqa: BLE001 — the child must report, then _exit
            out = {"error": f"{type(exc).__name__}: {exc}"}
        with os.fdopen(w, "w") as f:
            f.write(json.dumps(out))
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        text = f.read()
    _, status = os.waitpid(pid, 0)
    if not text:
        return {"error": f"measuring process died (wait status {status})"}
    return json.loads(text)
