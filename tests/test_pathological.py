"""Pathological inputs must parse in linear time (issue 7).

Each test builds its input at two sizes, n and 2n, times the work at both
(best of 3 rounds of several runs each, the garbage collector off) and asserts that doubling the input costs at most 2.3x the
time. Quadratic behaviour (4x) fails clearly. Where the two inputs straddle a
cache size, bytes cost more in the bigger one whatever reads them: a memchr
over the same input (str.find of a byte it lacks) is timed alongside, and when
its doubling costs more than 2x the bound grows by as much (1 and 2 MB of one
attribute value take 3.1x the memchr time and 3.6x the parse on a CPU with
2 MB of L2 a core). Quadratic work is compute-bound at these sizes and still
fails. Times are the
process's CPU time, so time other processes hold the core does not count, and
a pair whose ratio is over the bound is measured again (up to 5 times, the
lowest ratio counts) so a burst of load on a shared 2-core machine is not a
failure.

Run with ``-s`` to print the table: input, size, best time, ns per byte.
Under tools/sanitizer_tests.sh (FASTPARSE_SANITIZER_RUN=1) each input is
parsed once at both sizes for memory safety and no time is asserted: ASan
and PYTHONMALLOC=malloc slow allocation-heavy work far more than scanning.
Nesting tests pass ``max_depth=65535``: the default (4096) raises
ParseLimitError, as the API documents (see tests/test_limits.py).
"""
import gc
import os
import time

import pytest

import fastparse as fp

RATIO = 2.3
DEEP = 65535
SANITIZED = os.environ.get("FASTPARSE_SANITIZER_RUN") == "1"
clock = time.process_time


def best_of_3(fn, loops: int) -> float:
    """Best of 3 rounds; a round is the fastest of `loops` single runs. Single
    runs on this kind of shared VM vary by up to 10x for one input (page
    faults, neighbours), so the minimum is what measures the algorithm. A run
    the clock reads as 0 (seen once in CI, where a memchr ratio then divided
    by zero) does not count."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            for _ in range(loops):
                t0 = clock()
                fn()
                if (t := clock() - t0) > 0:   # a CPU-time clock that did not move is no reading
                    best = min(best, t)
    finally:
        gc.enable()
    return best if best < float("inf") else 1e-9


def loops_for(fn, target: float = 0.03) -> int:
    """Enough runs that one round lasts about `target` seconds (at least 3)."""
    t0 = clock()
    fn()
    once = max(clock() - t0, 1e-7)
    return max(3, min(200, int(target / once)))


def assert_linear(label: str, make, n: int, work=None) -> None:
    """make(n) -> input (or a parsed Document); work(input) defaults to fp.parse."""
    work = work or fp.parse
    small, big = make(n), make(2 * n)
    if SANITIZED:
        work(small)
        work(big)
        return
    loops = loops_for(lambda: work(small))
    excess = float("inf")
    for _ in range(5):
        t_small = best_of_3(lambda: work(small), loops)
        t_big = best_of_3(lambda: work(big), loops)
        limit = RATIO * max(1.0, memchr_doubling(small, big) / 2)
        if t_big / t_small / limit < excess:
            excess, ratio, bound, times = t_big / t_small / limit, t_big / t_small, limit, (t_small, t_big)
        if excess <= 1:
            break
    for inp, t in zip((small, big), times):
        size = len(inp.source) if isinstance(inp, fp.Document) else len(inp)
        print(f"\n| {label} | {size:,} | {t * 1e3:.2f} ms | {t * 1e9 / size:.2f} ns/B |", end="")
    assert ratio <= bound, f"{label}: doubling the input took {ratio:.2f}x the time (limit {bound:.2f})"


def memchr_doubling(small, big) -> float:
    """t(big) / t(small) of a memchr over each input: how much more the bigger
    one's bytes cost to read (2 when both sit in the same level of cache)."""
    if isinstance(small, fp.Document):
        small, big = small.source, big.source
    absent = "\x00" if isinstance(small, str) else b"\x00"
    if absent in small or absent in big:
        return 2.0
    loops = loops_for(lambda: small.find(absent))
    return best_of_3(lambda: big.find(absent), loops) / best_of_3(lambda: small.find(absent), loops)


def deep(**kw):
    return lambda s: fp.parse(s, max_depth=DEEP, **kw)


def test_unclosed_p():
    assert_linear("unclosed <p> (100,000)", lambda n: "<p>x" * n, 50_000)


def test_li_in_one_list():
    assert_linear("<li> in one <ul> (100,000)", lambda n: "<ul>" + "<li>x" * n + "</ul>", 50_000)


def test_nested_div():
    assert_linear("nested <div> (50,000)", lambda n: "<div>" * n, 25_000, deep())


def test_nested_template_content_then_end_body_tags():
    # </body> asks whether body content came yet: the template's content is stepped
    # over as one range, not element by element up its ancestors
    assert_linear("nested <div> in a <template>, then 1,000 </body> (50,000)",
                  lambda n: "<template>" + "<div>" * n + "</body>" * 1000, 25_000, deep())


def test_end_body_tags_over_nested_ruby_and_optgroup():
    # <rt> and <optgroup> outside ruby and select nest without end, and may be open when
    # the body ends: each </body> checks the stack for an element that may not, and a
    # walk leaves its answer on the elements it passed (simulator_open_at_end.c)
    assert_linear("<rt>x</body> (20,000)", lambda n: "<rt>x</body>" * n, 10_000, deep())
    assert_linear("<div>, <optgroup>x</body> (20,000)", lambda n: "<div>" + "<optgroup>x</body>" * n,
                  10_000, deep())
    # the stack's top going up and down: each </body> stops at the first answer below
    assert_linear("<rt>x</body></rt>x</body><rt> (20,000)",
                  lambda n: "<rt>x</body></rt>x</body><rt>" * n, 10_000, deep())
    assert_linear("<rt> x n, then x</body> x n (20,000)",
                  lambda n: "<rt>" * n + "x</body>" * n, 10_000, deep())


def nested_doc(n):
    return fp.parse("<div class=a>x" * n, max_depth=DEEP)


def test_text_of_nested_divs():
    assert_linear("text of 50,000 nested <div>", nested_doc, 25_000,
                  lambda doc: doc[0].text)


def test_find_all_in_nested_divs():
    assert_linear("find_all(cls=) over 50,000 nested <div>", nested_doc, 25_000,
                  lambda doc: doc.find_all("div", cls="b") or doc.find("p"))


def test_select_contains_in_nested_divs():
    # each div's text holds all the divs' below it: decoded per candidate, 8,000 nested divs
    # took 1.2 s; a run now decodes its scope's text once
    assert_linear("select('div:contains(\"zzz\")') over 50,000 nested <div>", nested_doc, 25_000,
                  lambda doc: doc.select("div:contains('zzz')"))


def test_select_child_in_nested_divs():
    assert_linear("select('span > div.a') over 50,000 nested <div>", nested_doc, 25_000,
                  lambda doc: doc.select("span > div.a"))


def list_after_a_fostered_element(n: int) -> str:
    # one foster-parented element anywhere puts the document on tree-order links
    return "<table><tr><td>1</td></tr><b>stray</b></table><ul>" + "<li>x<p>y</p>" * n


def walk_siblings(source: str) -> int:
    items = fp.parse(source).find_all("li")   # a new document: the links are built in the time
    steps, tag = 0, items[0]
    while tag:
        tag, steps = tag.next_sibling(), steps + 1
    tag = items[-1]
    while tag:
        tag, steps = tag.prev_sibling("li"), steps + 1
    return steps


def test_sibling_walk_with_a_fostered_element():
    # each step collected and sorted the parent's whole subtree: 16,000 items took 8 s
    assert_linear("next_sibling() and prev_sibling() over <li> after a fostered <b>", list_after_a_fostered_element, 5_000,
                  walk_siblings)


def test_children_of_every_element_with_a_fostered_element():
    # each .children walked the element's whole subtree (then sorted it)
    assert_linear(".children of every element, nested, after a fostered <b>",
                  lambda n: "<table><b>stray</b></table>" + "<div><p>x</p>" * n, 5_000,
                  lambda s: [tag.children for tag in fp.parse(s, max_depth=DEEP)])


def concatenated_pages(n: int) -> fp.Document:
    # each later <html> and <body> tag adds its attributes to the first html and body
    return fp.parse("".join(f"<html lang=en><body class=b{i}><div class=post><p title=x>a</p></div></body></html>"
                            for i in range(n)))


def test_attributes_of_concatenated_pages():
    # every element's attributes looked through all the later tags' (8,000 pages: 1 s)
    assert_linear("attrs of every element of concatenated pages", concatenated_pages, 2_000,
                  lambda doc: [tag.attrs for tag in doc])
    assert_linear("select('p[title=y]') over concatenated pages", concatenated_pages, 2_000,
                  lambda doc: doc.select("p[title=y]"))


def test_attributes_of_a_body_with_many_later_body_tags():
    # each attribute looked for its tag from the first later one
    assert_linear("body.attrs with later <body aN=1> tags",
                  lambda n: fp.parse("".join(f"<body a{i}=1>" for i in range(n))), 5_000,
                  lambda doc: doc[0].attrs)


def test_invalid_controls_of_a_disabled_fieldset():
    # each control looked for the fieldset's first <legend> among all its children
    assert_linear("select(':invalid') in a <fieldset disabled> without a legend",
                  lambda n: fp.parse("<form><fieldset disabled>" + "<input required>" * n), 5_000,
                  lambda doc: doc.select(":invalid"))


def test_invalid_of_each_fieldset_and_each_legend():
    # each fieldset.matches() looked through the fieldset's controls with a memo the size
    # of the document; each legend of a disabled fieldset searched for the first legend
    assert_linear("fieldset.matches(':invalid') for each of many fieldsets",
                  lambda n: fp.parse("<form>" + "<fieldset><input required><p>x</p></fieldset>" * n), 4_000,
                  lambda doc: [f.matches(":invalid") for f in doc.find_all("fieldset")])
    assert_linear("input.closest('fieldset:invalid') in one fieldset",
                  lambda n: fp.parse("<form><fieldset>" + "<input value=x>" * n), 2_000,
                  lambda doc: [t.closest("fieldset:invalid") for t in doc.find_all("input")])
    assert_linear("select(':invalid') over legends in a <fieldset disabled>",
                  lambda n: fp.parse("<form><fieldset disabled>" + "<i></i>" * n + "<legend><input required></legend>" * n),
                  4_000, lambda doc: doc.select(":invalid"))


def test_validity_of_a_long_email_list():
    # each address looked for the pattern attribute through the whole start tag
    assert_linear("input[type=email][multiple]:valid with many addresses",
                  lambda n: fp.parse("<input type=email multiple value='" + "a@b.c," * n + "a@b.c'>"), 20_000,
                  lambda doc: doc.select("input:valid"))


def test_checked_of_each_option_of_a_long_select():
    # each option looked through all the options for the one its select chose
    assert_linear("option.matches(':checked') for each option of one <select>",
                  lambda n: fp.parse("<select>" + "<option>x" * n + "</select>"), 4_000,
                  lambda doc: [t.matches(":checked") for t in doc.find_all("option")])


def test_text_of_a_column_group_template_with_nested_ones():
    # whether a template went "in column group" is found once: a one-answer memo made the
    # outer template's head tags be read again after each nested template
    assert_linear("text of a template: <meta>s, then <col> text and nested templates",
                  lambda n: fp.parse("<template>" + "<meta>" * n + "<col>"
                                     + "<template><col> y</template><col> z" * n + "</template>"), 4_000,
                  lambda doc: doc.text)


def test_dir_of_each_element_under_a_dir_auto_one():
    # dir=auto reads its text up to the first strong character; each call built all of it
    assert_linear("p.matches(':dir(ltr)') for each <p> under one dir=auto <div>",
                  lambda n: fp.parse("<div dir=auto>" + "<p>hello world</p>" * n), 4_000,
                  lambda doc: [t.matches(":dir(ltr)") for t in doc.find_all("p")])


def form_rows(n: int) -> fp.Document:
    """A table of n rows, each with its own form (form= attributes), radio group and buttons."""
    return fp.parse("".join(f"<form id=f{i}></form>" for i in range(n)) + "<table>" + "".join(
        f"<tr><td><input type=radio name=r form=f{i} checked><input type=radio name=s form=f{i}>"
        f"<button form=f{i}>b</button>" for i in range(n)))


@pytest.mark.parametrize("css", [":checked", ":default", ":indeterminate"])
def test_form_state_over_many_forms(css):
    # form owners, radio groups and default buttons are tables built once a run
    # (per control they took a scan of the page: 8 s for :checked over 1,000 forms)
    assert_linear(f"select({css!r}) over form rows", form_rows, 2_000, lambda doc: doc.select(css))


@pytest.mark.parametrize("css", [":indeterminate", ":default", ":dir(rtl)"])
def test_form_state_and_direction_in_nested_divs(css):
    # each control's form and template ancestors come from one pass, not a walk up
    assert_linear(f"select({css!r}) over nested controls",
                  lambda n: fp.parse("<form>" + "<div><input type=radio name=r><button>b</button>" * n,
                                     max_depth=DEEP), 10_000, lambda doc: doc.select(css))


@pytest.mark.skipif(SANITIZED, reason="a timing test only")
# (no matching selectors here: building thousands of result Tags would time the allocator;
# correctness with matches on deep nesting: test_select.py::test_descendant_combinator_on_deep_nesting)
@pytest.mark.parametrize("css", ["span .a", "p span .a", "section .a:not(.b) .a"])
def test_select_descendant_in_nested_divs(css):
    # quadrupled, not doubled, and measured once (no re-measuring): a quadratic
    # matcher is 16x here, a linear one 4x, and the verdict is drawn halfway, at
    # 8x: the bigger nest's walks miss the cache more (5.2x in one CI run, where
    # 2 * RATIO = 4.6 failed a linear matcher; 5.2x at 32,000 here).
    # (Before the walk up was memoised, "span div" over 25,000 nested <div> took 2.1 s.)
    # span, p and section are there, as siblings of the nest, so the tag index
    # cannot answer "none" at once; the rightmost compound names no tag, so no
    # merge of the index's lists answers either: every <div> walks up (with
    # "span div" over a nest without <span>, both times read 0.00 ms and the
    # ratio was noise)
    def doc(n):
        return fp.parse("<span></span><p></p><section></section>" + "<div class=a>x" * n, max_depth=DEEP)

    small, big = doc(2_000), doc(8_000)
    assert big.select(css) == []
    t_small = best_of_3(lambda: small.select(css), 10)
    t_big = best_of_3(lambda: big.select(css), 10)
    for doc, t in ((small, t_small), (big, t_big)):
        size = len(doc.source)
        print(f"\n| select({css!r}) over nested <div> | {size:,} | {t * 1e3:.2f} ms "
              f"| {t * 1e9 / size:.2f} ns/B |", end="")
    if not SANITIZED:
        assert t_big / t_small <= 8, f"4x the input took {t_big / t_small:.1f}x the time"


@pytest.mark.parametrize("tag", ["a", "b", "table"])
def test_nested_formatting_and_tables(tag):
    assert_linear(f"nested <{tag}> (10,000)", lambda n: f"<{tag}>x" * n, 10_000, deep())


def test_misnested_formatting():
    assert_linear("<b><i></b></i> misnesting", lambda n: "<b><i>x</b></i>" * n, 10_000, deep())


def test_formatting_elements_closed_by_other_ends_then_their_end_tags():
    # each </p> leaves its <b> in the list of active formatting elements; each </b>
    # looks through those kept (at most 64, simulator_adopt.c), never the index
    assert_linear("<p><b>x</p> x n, </b> x n", lambda n: "<p><b>x</p>" * n + "</b>" * n, 10_000, deep())
    assert_linear("<div> x n, <b></div> x n", lambda n: "<div>" * n + "<b></div>" * n + "</b>" * n, 10_000,
                  deep())


def test_formatting_elements_reconstructed_in_a_deep_stack():
    # each text run reconstructs the closed <b> again (the clone's parent ended): the
    # list's last open entry comes from each formatting name's open element, not a walk
    # down the stack; 64 closed ones (the most kept) are looked through at each run
    assert_linear("<div> x n, <p><b>x</p>, y</div> x n",
                  lambda n: "<div>" * n + "<p><b>x</p>" + "y</div>" * n, 10_000, deep())
    ghosts = "".join(f"<p><b id={k}>x</p>" for k in range(64))   # no three alike
    assert_linear("64 <p><b id=k>x</p>, then <span>y</span>z x n",
                  lambda n: ghosts + "<span>y</span>z" * n, 20_000, deep())


def test_misnested_formatting_around_one_large_block():
    # each </b> moves the <div> and all it holds out of one more <b>: n/20 moves of n
    # elements, quadratic but for the adoption agency's budget (twice the input's bytes in
    # rewritten depths), past which a </b> closes what it holds
    assert_linear("<b> x n/20, one <div> of n elements, </b> x n/20",
                  lambda n: "<b>" * (n // 20) + "<div>" + "<i></i>" * n + "</b>" * (n // 20), 40_000, deep())


def test_nested_table_cells():
    assert_linear("<table><tr><td> nesting", lambda n: "<table><tr><td>" * n, 10_000, deep())


# A single memchr over the value: the test most exposed to cache sizes (see memchr_doubling).
def test_huge_attribute_value():
    assert_linear("1 MB quoted attribute value",
                  lambda n: '<div a="' + "x" * n + '">t</div>', 1_000_000)
    doc = fp.parse('<div a="' + "x" * 10_000_000 + '">t</div>')
    assert len(doc.find("div")["a"]) == 10_000_000 and doc.find("div").text == "t"


def test_huge_unterminated_attribute_value():
    assert_linear("1 MB attribute value without its quote",
                  lambda n: "<div a='" + "x" * n, 1_000_000)
    assert len(fp.parse("<div a='" + "x" * 10_000_000)) == 0   # eof-in-tag: the tag is dropped


def test_many_attributes_then_attrs():
    # timed: the engine's scan of every attribute (a lookup that misses scans them all);
    # .attrs itself builds a 200,000-entry dict, whose cost on CPython's allocator grows
    # faster than linear by itself, so it is checked for correctness, not timed
    def work(s):
        return "missing" in fp.parse(s)[0]
    make = lambda n: "<div " + "".join(f"a{i}=v " for i in range(n)) + ">"
    assert_linear("one tag with 200,000 attributes, full attribute scan", make, 200_000, work)
    attrs = fp.parse(make(200_000))[0].attrs
    assert len(attrs) == 200_000 and attrs["a199999"] == "v"


def test_unclosed_comment():
    assert_linear("10 MB comment without an end", lambda n: "<!--" + "x-" * (n // 2), 10_000_000)


def test_unclosed_script():
    assert_linear("10 MB <script> without an end", lambda n: "<script>" + "x<" * (n // 2),
                  10_000_000)


def test_script_almost_end_tags():
    assert_linear("<script> full of '</scrip' and escapes",
                  lambda n: "<script><!--<script>" + "</scrip<!--" * (n // 11), 10_000_000)


def test_unclosed_rcdata():
    # 2 MB, not 10: a '<' every 9 bytes read at 10 and 20 MB took 2.3-2.5x the time
    # on this project's VMs (1.9-2.0x at 1, 2 and 4 MB; the same at 877d95a), a cost of
    # the memory past the caches that the memchr timing does not show. A rescan to
    # the end for each "</textare" is 4x at any size.
    assert_linear("2 MB <textarea> without an end", lambda n: "<textarea>" + "</textare" * (n // 9),
                  2_000_000)


def test_text_full_of_references():
    assert_linear("text of 2 MB of '&amp;' and '&notit'", lambda n: fp.parse("<p>" + "&amp;&notit" * n),
                  100_000, lambda doc: doc[0].text)


def test_attribute_full_of_ampersands():
    assert_linear("attrs of a 2 MB value of '&'", lambda n: fp.parse("<p a='" + "&" * n + "'>"),
                  1_000_000, lambda doc: doc[0].attrs)


def test_long_tag_names():
    assert_linear("2 MB start and end tag names",
                  lambda n: "<" + "a" * n + ">x</" + "a" * n + "><p>" + "q" * n, 500_000)


def test_million_lt():
    assert_linear("1,000,000 '<'", lambda n: "<" * n, 1_000_000)


def test_million_lt_bytes_text():
    assert_linear("1,000,000 '<' + text", lambda n: b"<" * n, 1_000_000, lambda b: fp.parse(b).text)


def test_stray_end_tags():
    assert_linear("100,000 stray </p></div>", lambda n: "<div>" + "</p></span>" * n, 50_000)


def test_nested_foreign_content():
    assert_linear("nested <svg><g> (40,000)", lambda n: "<svg>" + "<g>" * n, 20_000, deep())


def test_nested_integration_points():
    unit = "<svg><foreignObject><math><mi>"
    assert_linear("svg/foreignObject/math/mi nesting", lambda n: unit * n, 8_000, deep())
