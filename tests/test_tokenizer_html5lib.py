"""html5lib-tests tokenizer suite through what fastparse's index exposes (issue 2).

Each test's token stream is mapped to a document and to what a tree shows of it (start tags
with attributes, text, comments, doctype): see the tokenizer section of
fastparse/conformance/tokenizer.py for the mapping and tokenizer_exclusion() for every rule that
excludes a test, with its reason (printed per test with -s; skipped items name it).
Comments and the doctype are checked only when the Document exposes `comments` / `doctype`.
"""

import pytest

from fastparse import conformance as C

if not C.TOKENIZER_DIR.exists():
    pytest.skip(f"html5lib-tests not found at {C.TOKENIZER_DIR}", allow_module_level=True)

TESTS = C.read_tokenizer_tests()
FILES = sorted({t.file for t in TESTS})


@pytest.mark.parametrize("file", FILES)
def test_tokenizer_file(file):
    """Every applicable test of one .test file (one pytest item per file keeps the run
    fast; tools/conformance_report.py --tokenizer lists tests one by one)."""
    failures, excluded, passed = [], {}, 0
    for test in (t for t in TESTS if t.file == file):
        try:
            problems = C.tokenizer_check(test, C.fastparse_token_view)
        except C.Skip as exc:
            excluded[test.id] = str(exc)
            continue
        if problems:
            failures.append(f"{test.id}: input {test.input!r}: " + "; ".join(problems))
        else:
            passed += 1
    for test_id, reason in excluded.items():
        print(f"excluded {test_id}: {reason}")
    if not passed and not failures:
        pytest.skip(f"every test of {file} is excluded: {sorted(set(excluded.values()))}")
    assert not failures, f"{len(failures)} of {len(failures) + passed} failed:\n" + \
        "\n".join(failures[:30])


def test_exclusions_stay_few():
    """A rule that silently excluded whole files would make the suite pass vacuously."""
    excluded = [t for t in TESTS if C.tokenizer_exclusion(t)]
    assert len(TESTS) > 7000
    assert len(excluded) <= 45, sorted({C.tokenizer_exclusion(t) for t in excluded})


def test_comments_and_doctype_are_checked():
    """The view compares comments and the doctype name: a wrong one is a failure."""
    view = C.fastparse_token_view("<!DOCTYPE html><!--c-->")
    assert view.comments == ["c"] and view.doctype == "html"
    test = next(t for t in TESTS if any(tok[0] == "Comment" for tok in t.output)
                and not C.tokenizer_exclusion(t))
    wrong = lambda source: C.TokenView(view.elements, view.text, ["not it"], "not it")
    assert C.tokenizer_check(test, wrong)


def test_mapping_agrees_with_a_spec_parser():
    """turbohtml's tree, seen the same way, passes: the mapping itself is sound.

    turbohtml builds a ProcessingInstruction for '<?...>' (the spec: a bogus comment), so
    those tests are left out of this check."""
    pytest.importorskip("turbohtml", reason="turbohtml validates the mapping")
    failures = []
    for test in TESTS:
        if test.input.startswith("<?"):
            continue
        try:
            problems = C.tokenizer_check(test, C.turbohtml_token_view)
        except C.Skip:
            continue
        if problems:
            failures.append((test.id, problems))
    assert not failures, failures[:5]
