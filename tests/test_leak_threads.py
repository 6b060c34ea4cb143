"""Memory and threads: a parse/query loop keeps RSS and the gc object count
flat, Documents are read from many threads while others parse (the parse
releases the GIL) with results identical to a serial run, and a Tag keeps
its Document (and the source) alive."""
from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import fastparse as fp

psutil = pytest.importorskip("psutil", reason="psutil is not installed (dev extra)")


def make_page(seed: int, rows: int = 40) -> str:
    """A small catalog-like page; the seed changes names, text and nesting."""
    items = "".join(
        f"<li class='item k{(seed + i) % 7}' data-i={i}><a href='/p/{seed}/{i}?a=1&amp;b={i}'>"
        f"Item {i} &eacute; {seed}</a><span class=price>{i * seed % 97}.99</span>"
        f"<p>desc {i}<br>more <b>bold</b>{'<i>x' if i % 5 == 0 else ''}</li>"
        for i in range(rows))
    return (f"<!DOCTYPE html><html><head><title>Page {seed}</title>"
            f"<script>var s = '<div>{seed}</div>';</script></head>"
            f"<body><div id=main><ul>{items}</ul><table><tr><td>t{seed}<td>u</table>"
            f"<svg><circle/></svg></div></body></html>")


def digest(doc) -> tuple:
    """Everything a scraper reads, as plain values."""
    return (
        len(doc),
        tuple((t.name, t.depth, t.closed_by, t.span) for t in doc),
        tuple((a["href"], a.text) for a in doc.find_all("a", attrs={"href": True})),
        tuple(t.get_text(" ", strip=True) for t in doc.select("li.item")),
        doc.find("title").text,
        doc.find(id="main").find_all(cls="price", limit=5)[-1].text,
        doc.find("nope").find("x").text,
        doc.text,
        tuple(doc.errors),
    )


def cycle(page: bytes, encoding: str | None = None) -> None:
    doc = fp.parse(page, encoding=encoding)
    digest(doc)
    assert doc.find("li").next_sibling(cls="k3").attrs
    assert doc[-1].parent.children
    try:
        fp.parse(page, max_depth=3, encoding=encoding)
    except fp.ParseLimitError:
        pass


def rss() -> int:
    return psutil.Process().memory_info().rss


def test_parse_query_loop_does_not_leak():
    pages = [make_page(s, rows=8).encode() for s in range(4)]
    legacy = make_page(9, rows=8).encode("cp1252", "replace").replace(
        b"<head>", b"<head><meta charset=windows-1252>")
    # the utf-8 hint skips the encoding prescan (Python code, not what is
    # measured here) on most cycles; the legacy page goes through it
    for k in range(1000):  # warm up caches and the allocator
        cycle(pages[k % 4], "utf-8")
    cycle(legacy)
    gc.collect()
    objects_before, rss_before = len(gc.get_objects()), rss()
    gc.disable()  # the loop makes no cycles; full collections over a big heap only cost time
    try:
        for k in range(10_000):
            if k % 50:
                cycle(pages[k % 4], "utf-8")
            else:
                cycle(legacy)
    finally:
        gc.enable()
    gc.collect()
    objects_after, rss_after = len(gc.get_objects()), rss()
    assert objects_after - objects_before < 200, (objects_before, objects_after)
    if os.environ.get("FASTPARSE_SANITIZER_RUN") == "1":
        return   # ASan's quarantine holds freed memory (256 MB) until it fills: RSS grows regardless
    # a leak of one small object per cycle would be 10,000 x ~100 bytes ~ 1 MB;
    # a leaked Document (index + buffers) per cycle would be ~100 MB
    assert rss_after - rss_before < 4 * 1024 * 1024, (rss_before, rss_after)


def test_document_tables_do_not_leak():
    # a Document keeps what its first selects build (tag index, sibling table, form
    # tables); scoped selects, closest and find with filters make and free run memos
    cards = "".join(f"<div class=card><form><input type=radio name=r checked><button>b{k}</button></form>"
                    f"<p class=price lang=en>{k}.99</p></div>" for k in range(60))
    page = f"<body><main>{cards}</main></body>".encode()

    def cycle_tables():
        doc = fp.parse(page)
        card = doc.find_all(cls="card")[30]
        assert card.select_one("button:default").text == "b30"
        assert card.select(":contains('30.99')") and card.select_one(":nth-child(2 of .price)") is fp.MISSING
        assert card.find("button").closest(":has(> :scope)").name == "form"
        assert card.find(attrs={"Name": "r"}).matches("input:checked")

    for _ in range(300):
        cycle_tables()
    gc.collect()
    objects_before, rss_before = len(gc.get_objects()), rss()
    for _ in range(3000):
        cycle_tables()
    gc.collect()
    assert len(gc.get_objects()) - objects_before < 100
    if os.environ.get("FASTPARSE_SANITIZER_RUN") != "1":
        # a leaked Document, or form tables (16 bytes an element), per cycle: 3,000 x 10+ KB
        assert rss() - rss_before < 4 * 1024 * 1024, (rss_before, rss())


def test_run_memos_past_the_arena_are_freed():
    # a run's memo pages come from an 8 KB arena in its context, then from calloc; a
    # small page table (up to 16 pages) counts the latter, and the run frees them. A
    # scoped :nth-child(1 of S) over 3,200 elements fills 13 pages of 1 KB: half of
    # them past the arena (leaving those unfreed grows RSS by 56 MB here)
    cards = "".join(f"<div class=card><h3><a href=/{k}>{k}</a></h3><p class=price>{k}</p><span>s</span>"
                    f"<form><input><button>b</button></form></div>" for k in range(400))
    doc = fp.parse(f"<!DOCTYPE html><body><div id=grid>{cards}</div></body>".encode())
    grid = doc.find(id="grid")
    assert len(grid.select(":nth-child(1 of .price)")) == 400
    gc.collect()
    rss_before = rss()
    for _ in range(3000):
        grid.select(":nth-child(1 of .price)")
        grid.select(":nth-last-child(1 of p, span)")
    if os.environ.get("FASTPARSE_SANITIZER_RUN") != "1":
        assert rss() - rss_before < 4 * 1024 * 1024, (rss_before, rss())


def test_tags_do_not_leak_documents():
    page = make_page(1)
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(2000):
        doc = fp.parse(page)
        tags = doc.find_all("a")
        ref = weakref.ref(doc)
        del doc
        assert ref() is not None  # the tags keep it alive
        del tags
        assert ref() is None  # freed with its last tag, without a gc pass
    gc.collect()
    assert len(gc.get_objects()) - before < 100


def test_tags_made_from_reused_memory_belong_to_their_new_document():
    # dead Tags' memory is kept for the next ones (py_tag.c): a reused block must
    # carry its new document and index, and the old document must still be freed
    first, second = fp.parse(make_page(1)), fp.parse(make_page(2))
    old = first.find_all("a")
    ref = weakref.ref(first)
    names = [(a.index, a.text) for a in old]
    del old, first
    assert ref() is None
    new = second.find_all("a")
    assert [a.document for a in new] == [second] * len(new)
    assert [a.text for a in new] == [t.replace("é 1", "é 2") for _, t in names]
    again = second.find_all("a")
    assert [a.index for a in again] == [a.index for a in new] and all(x is not y for x, y in zip(again, new))
    assert sys.getrefcount(second) == 2 + 2 * len(new)   # the name, the call's argument, one per Tag
    # a reused block takes a reference to the Tag type, as a new object would
    # (py_tag.c, reinit_object): the type's count is back where it was when they die
    tag_type = type(new[0])
    del new, again
    before = sys.getrefcount(tag_type)
    for _ in range(3):
        made = second.find_all("a") + second.select("li")
        assert sys.getrefcount(tag_type) == before + len(made)
        del made
    assert sys.getrefcount(tag_type) == before


def test_tag_outlives_its_document():
    data = make_page(3).encode()
    tag = fp.parse(data).find_all("a", attrs={"href": True})[0]
    del data
    gc.collect()
    assert tag.text == "Item 0 é 3"
    assert tag["href"] == "/p/3/0?a=1&b=0"
    assert tag.html.startswith("<a href=")
    assert tag.parent.name == "li"
    assert tag.document.find("title").text == "Page 3"
    assert isinstance(tag.document.source, bytes)
    siblings = tag.parent.next_sibling().find("a")
    assert siblings.text == "Item 1 é 3"


def test_document_is_weak_referenceable_and_freed():
    doc = fp.parse("<p>x")
    ref = weakref.ref(doc)
    del doc
    assert ref() is None


def test_threads_give_the_same_results_as_a_serial_run():
    pages = [make_page(s, rows=60).encode() for s in range(16)]
    shared = fp.parse(make_page(99, rows=80))
    serial_shared = digest(shared)
    serial_pages = [digest(fp.parse(p)) for p in pages]

    barrier = threading.Barrier(8, timeout=60)

    def work(worker: int) -> list:
        barrier.wait()
        out = []
        for rep in range(6):
            k = (worker * 6 + rep) % len(pages)
            out.append(("shared", digest(shared)))
            out.append((k, digest(fp.parse(pages[k]))))
        return out

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(work, range(8)))
    for out in results:
        for key, got in out:
            expected = serial_shared if key == "shared" else serial_pages[key]
            assert got == expected


def test_a_parse_after_bigger_ones_gives_what_a_first_parse_gives():
    """The working arrays one parse leaves for the next (scratch.c) carry nothing over:
    a page parsed after dense, deep and foreign pages, in this process, equals its parse
    as the first one in a fresh process."""
    page = make_page(3, rows=30)
    script = ("import sys, fastparse as fp; sys.path.insert(0, sys.argv[1]); "
              "from test_leak_threads import digest; "
              "print(repr(digest(fp.parse(sys.stdin.buffer.read()))))")
    first = subprocess.run([sys.executable, "-c", script, str(Path(__file__).parent)],
                           input=page.encode(), capture_output=True, check=True).stdout.decode().strip()
    before = ["<b>x" * 4000, "<br>" * 30000, "<svg>" + "<g><math><mi>" * 1000, "<li><table><tr><td>" * 800,
              make_page(7, rows=2000)]
    for big in before:
        fp.parse(big)
        assert repr(digest(fp.parse(page))) == first


def test_a_document_past_the_working_set_limit_keeps_its_index():
    """Past the size scratch.c keeps between parses, the working element array becomes the
    document's index instead of being copied: the document must own it, so later parses
    (which take fresh arrays, or the pool's) leave it as it was read first."""
    dense = make_page(1, rows=1) + "<br>" * 300_000                # the index grows past the limit
    sparse = make_page(2, rows=3) + "<p>" + "y" * 17_000_000       # a capacity past it from the start
    docs = [fp.parse(dense), fp.parse(sparse)]
    expected = [digest(doc) for doc in docs]
    for other in (make_page(4, rows=50), dense, sparse, "<b>x" * 4000):
        fp.parse(other)
    assert [digest(doc) for doc in docs] == expected
    assert docs[0][-1].name == "br" and len(docs[0].find_all("br")) > 300_000
    assert len(docs[1][-1].text) == 17_000_000


@pytest.mark.skipif(os.environ.get("FASTPARSE_SANITIZER_RUN") == "1",
                    reason="ASan's allocator maps and quarantines memory its own way")
def test_a_large_page_with_few_elements_reuses_the_working_arrays():
    """A 3 MB page has room for 375,000 elements in its working arrays and indexes
    30,000: what the arrays hold resident is what the parse touched, so they are kept
    for the next parse, which then faults in no fresh pages (freeing them made every
    parse of such a page fault in its touched megabyte again)."""
    import resource

    page = ("<p>" + "w" * 97).encode() * 30_000
    for _ in range(3):
        assert len(fp.parse(page)) == 30_000
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(10):
        fp.parse(page)
    faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 10
    assert faults < 40, f"{faults} page faults per parse"


def test_many_threads_reading_one_tag():
    doc = fp.parse(make_page(5, rows=100))
    li = doc.find("ul")
    expected = (li.text, li.get_text("|", True), [t.index for t in li.descendants])

    def read(_: int) -> tuple:
        return (li.text, li.get_text("|", True), [t.index for t in li.descendants])

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(r == expected for r in pool.map(read, range(64)))


def test_many_threads_sharing_one_documents_form_tables():
    # the first scoped form-state select builds the document's form tables (under the
    # GIL); runs over 2,048+ elements then read them with the GIL released
    cards = "".join(f"<div class=card><form><input type=radio name=r value={k}{' checked' * (k % 2)}>"
                    f"<input type=radio name=r><button>b{k}</button></form></div>" for k in range(1500))
    page = f"<body><main>{cards}</main></body>"
    fresh = fp.parse(page)
    expected = [[t.index for t in fresh.select(css)] for css in (":default", ":indeterminate", "input:checked")]
    doc = fp.parse(page)
    main, card = doc.find("main"), doc.find_all(cls="card")[7]
    barrier = threading.Barrier(8, timeout=60)

    def read(worker: int) -> list:
        barrier.wait()
        if worker % 2:
            card.select_one(":default")   # scoped: builds the tables, or finds them built
        return [[t.index for t in main.select(css)] for css in (":default", ":indeterminate", "input:checked")]

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(r == expected for r in pool.map(read, range(16)))


def test_many_threads_decoding_one_legacy_document():
    # the codec's decoder is looked up on a document's first non-ASCII decode:
    # threads race to it here, and every one must read the same text
    data = ('<meta charset="windows-1251"><ul>' + "".join(
        f"<li title='Привет {k}'>мир {k}</li>" for k in range(300)) + "</ul>").encode("cp1251")
    expected = [(li.get("title"), li.text) for li in fp.parse(data).find_all("li")]
    doc = fp.parse(data)
    barrier = threading.Barrier(8, timeout=60)

    def read(_: int) -> list:
        barrier.wait()
        return [(li.get("title"), li.text) for li in doc.find_all("li")]

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(r == expected for r in pool.map(read, range(8)))
    assert expected[7] == ("Привет 7", "мир 7")


def _legacy_cards(encoding: str, n: int) -> bytes:
    return (f'<meta charset="{encoding}"><main>' + "".join(
        f"<div class=card title='価格 {k}'><p>テキスト &amp; {k}</p></div>" for k in range(n)) + "</main>").encode(encoding)


def test_legacy_document_twins_do_not_leak():
    # a non-ASCII select on a legacy document makes its UTF-8 twin (py_twin.c),
    # which the document keeps and frees with it
    page = _legacy_cards("shift_jis", 40)

    def cycle_twin():
        doc = fp.parse(page)
        assert len(doc.select("div[title^='価格']")) == 40
        assert doc.find_all(attrs={"title": "価格 7"})[0].find("p").text == "テキスト & 7"
        assert doc[5].closest("div:contains('テキスト & 1')").index == 4   # card 1's p, its div
        return weakref.ref(doc)

    for _ in range(100):
        cycle_twin()
    gc.collect()
    objects_before, rss_before = len(gc.get_objects()), rss()
    for _ in range(1500):
        ref = cycle_twin()
    gc.collect()
    assert ref() is None
    assert len(gc.get_objects()) - objects_before < 100
    if os.environ.get("FASTPARSE_SANITIZER_RUN") != "1":
        # a leaked twin per cycle: 1,500 x (its source + index), 5+ KB each
        assert rss() - rss_before < 4 * 1024 * 1024, (rss_before, rss())


def test_many_threads_making_one_legacy_documents_twin():
    # threads race to make the twin (its parse runs without the GIL): one is
    # kept, the others are dropped, and every thread reads the same matches
    page = _legacy_cards("shift_jis", 2000)
    expected = [t.index for t in fp.parse(page).select("div:contains('テキスト & 1')")]
    doc = fp.parse(page)
    barrier = threading.Barrier(8, timeout=60)

    def read(_: int) -> list:
        barrier.wait()
        return [t.index for t in doc.select("div:contains('テキスト & 1')")]

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(r == expected for r in pool.map(read, range(16)))
    assert len(expected) == 1 + 10 + 100 + 1000
