"""The corpora: manifest of real pages (hashes, pinned URLs), loader order and
hash refusal, fetch's verification, and the generated pages (deterministic,
the shapes the benchmark issue asks for, ground truth an HTML5 parser agrees with)."""
from __future__ import annotations

import csv
import gzip
import hashlib
import re
from pathlib import Path

import pytest

from fastparse.corpora import CorpusError, generated, loader, read_manifest
from fastparse.corpora.fetch import fetch
from fastparse.corpora.manifest import Entry

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"
needs_shared = pytest.mark.skipif(not (SHARED / "MANIFEST.tsv").exists(),
                                  reason=f"shared corpus not present at {SHARED}")


# ---- manifest -------------------------------------------------------------------
def test_manifest_rows_are_complete_and_pinned():
    entries = read_manifest()
    assert len(entries) >= 70
    for e in entries:
        assert re.fullmatch(r"[0-9a-f]{64}", e.sha256), e.id
        assert re.fullmatch(r"[0-9a-f]{40}", e.source_commit), e.id
        assert e.url.startswith(f"https://raw.githubusercontent.com/{e.source_repo}/{e.source_commit}/"), e.id
        assert e.license and e.kind and e.bytes > 0, e.id
    assert len({e.id for e in entries}) == len(entries)


@needs_shared
def test_manifest_lists_every_shared_page_with_matching_hash():
    with open(SHARED / "MANIFEST.tsv", newline="", encoding="utf-8") as f:
        shared = {row["path"]: row for row in csv.DictReader(f, delimiter="\t")}
    ours = {e.id: e for e in read_manifest()}
    assert set(ours) == set(shared)
    for pid, e in ours.items():
        data = (SHARED / pid).read_bytes()
        assert hashlib.sha256(data).hexdigest() == e.sha256, pid
        assert len(data) == e.bytes == int(shared[pid]["bytes"]), pid
        assert e.kind == shared[pid]["kind"] and e.source_path == shared[pid]["source_path"], pid


# ---- loader -----------------------------------------------------------------------
def _entry(tmp_path: Path, data: bytes, *, sha: str | None = None, gz: bool = False) -> Entry:
    src = tmp_path / "remote" / ("page.html.gz" if gz else "page.html")
    src.parent.mkdir(parents=True, exist_ok=True)
    src.write_bytes(gzip.compress(data) if gz else data)
    return Entry(id="test/page.html", sha256=sha or hashlib.sha256(data).hexdigest(), bytes=len(data),
                 kind="article", declared_charset="utf-8", source_repo="o/r", source_path=src.name,
                 source_commit="0" * 40, license="MIT", url=src.as_uri())


def test_locate_prefers_the_named_folder_and_refuses_a_wrong_hash(tmp_path):
    good = b"<p>the real page</p>"
    e = _entry(tmp_path, good)
    first, second = tmp_path / "first", tmp_path / "second"
    (second / "test").mkdir(parents=True)
    (second / "test" / "page.html").write_bytes(good)
    assert loader.locate(e, [first, second]) == second / "test" / "page.html"
    (first / "test").mkdir(parents=True)
    (first / "test" / "page.html").write_bytes(b"<p>edited</p>")
    with pytest.raises(CorpusError, match="sha256"):
        loader.locate(e, [first, second])


def test_search_order_is_corpus_dir_then_shared_then_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("FASTPARSE_CACHE", str(tmp_path / "cache"))
    dirs = loader.search_dirs(tmp_path / "mine")
    assert dirs[0] == tmp_path / "mine" and dirs[-1] == tmp_path / "cache"
    if loader.shared_dir():
        assert dirs[1] == loader.shared_dir()


def test_missing_real_pages_name_the_fix(tmp_path, monkeypatch):
    monkeypatch.setenv("FASTPARSE_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.setattr(loader, "shared_dir", lambda: None)
    with pytest.raises(CorpusError, match="fastparse.corpora fetch"):
        loader.real_pages(tmp_path / "nothing-here")


# ---- fetch ------------------------------------------------------------------------
def test_fetch_refuses_a_page_with_a_wrong_hash(tmp_path):
    e = _entry(tmp_path, b"<p>served bytes</p>", sha="f" * 64)
    log = []
    failed = fetch(tmp_path / "cache", entries=[e], log=log.append)
    assert failed == [e.id]
    assert not (tmp_path / "cache" / e.id).exists()
    assert "REFUSED" in log[0]


def test_fetch_saves_a_verified_page_and_gunzips_gz_sources(tmp_path):
    data = b"<html><p>gzipped at the source</p></html>"
    e = _entry(tmp_path, data, gz=True)
    assert fetch(tmp_path / "cache", entries=[e], log=lambda _: None) == []
    assert (tmp_path / "cache" / e.id).read_bytes() == data


def test_fetch_uses_the_opener_it_is_given(tmp_path):
    data = b"<p>from a fake network</p>"
    e = _entry(tmp_path, data)

    class Response:
        def __init__(self, body):
            self.body = body

        def read(self):
            return self.body

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    seen = []

    def opener(url, timeout):
        seen.append(url)
        return Response(b"tampered" + data)

    assert fetch(tmp_path / "cache", entries=[e], opener=opener, log=lambda _: None) == [e.id]
    assert seen == [e.url]


# ---- generated pages ------------------------------------------------------------
def test_generated_pages_are_deterministic():
    for name, spec in generated.SPECS.items():
        if name.endswith(".x10"):
            continue
        a, b = spec.build(), spec.build()
        assert a == b, name


def _count_start_tags(data: bytes) -> int:
    from html.parser import HTMLParser  # the stdlib tokenizer skips script contents

    class Counter(HTMLParser):
        n = 0

        def handle_starttag(self, tag, attrs):
            self.n += 1

    c = Counter()
    c.feed(data.decode())
    return c.n


def test_generated_pages_have_the_asked_for_shapes():
    def build(name):
        return generated.build(name)

    books, truth = build("books")
    assert len(truth) == 20 and set(truth[0]) == {"title", "price", "rating", "availability"}
    assert len(build("quotes")[1]) == 10
    search, results = build("search")
    assert len(results) == 27 and set(results[0]) == {"id", "title", "price", "rating", "badge"}
    assert 900_000 <= len(search) <= 1_100_000
    assert search.count(b"<script") >= 100
    assert 3_500 <= _count_start_tags(search) <= 4_800
    assert b"</li>" not in build("books-no-end-li-p")[0] and b"</p>" not in build("books-no-end-li-p")[0]
    assert b"</td>" not in build("table-unclosed-td")[0] and b"<td>" in build("table-unclosed-td")[0]
    assert re.search(rb'<a href=catalogue/[^ >"]+ ', build("books-unquoted-attrs")[0])
    assert build("books.x10")[0] == books * 10 and len(build("books.x10")[1]) == 200


def test_scaling_pages_reach_their_sizes():
    for size in (10_000, 100_000, 1_000_000):
        data = generated.scaling_page(size)
        assert size <= len(data) <= size * 1.3 + 5_000


def test_ground_truth_matches_an_html5_parser():
    pytest.importorskip("selectolax")
    from fastparse.bench.adapters import load
    ad = load("selectolax")
    for name, spec in generated.SPECS.items():
        if spec.extractor and not name.endswith(".x10"):
            data, truth = generated.build(name)
            assert ad.records(ad.parse(data), spec.extractor) == truth, name
