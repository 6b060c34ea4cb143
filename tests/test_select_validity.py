""":valid and :invalid (HTML Standard 4.16.3 and 4.10.20): candidates for constraint
validation by the constraints a parsed page can fail, forms by the controls they own,
fieldsets by the controls inside them. These cases are this project's own; the README gives
the one-off check against web-platform-tests' constraint tests (1,721 cases as markup, none
differ) and tools/pattern_diff.py the patterns' against V8."""
import random
from concurrent.futures import ThreadPoolExecutor

import pytest

import fastparse as fp


def states(markup: str | bytes) -> dict[str, str]:
    """id -> 'valid', 'invalid' or '-' (neither) for every element with an id."""
    doc = fp.parse(markup)
    valid = {t.index for t in doc.select(":valid")}
    invalid = {t.index for t in doc.select(":invalid")}
    assert not valid & invalid
    return {t.id: "valid" if t.index in valid else "invalid" if t.index in invalid else "-"
            for t in doc if t.id}


def state(control: str) -> str:
    return states(control)["t"]


@pytest.mark.parametrize("control, expected", [
    ('<input id=t>', "valid"),
    ('<input id=t required>', "invalid"),
    ('<input id=t required value=" ">', "valid"),
    ('<input id=t required value="&#10;&#13;">', "invalid"),   # line breaks are sanitized away
    ('<input id=t type=bogus required>', "invalid"),           # an unknown type is text
    ('<input id=t type=hidden required>', "-"),
    ('<input id=t type=reset>', "-"),
    ('<input id=t type=BUTTON>', "-"),
    ('<input id=t type=submit>', "valid"),
    ('<input id=t type=image>', "valid"),
    ('<input id=t readonly required>', "-"),
    ('<input id=t type=checkbox readonly required>', "-"),     # readonly bars every type
    ('<input id=t disabled required>', "-"),
    ('<button id=t></button>', "valid"),
    ('<button id=t type=reset></button>', "-"),
    ('<button id=t type=button></button>', "-"),
    ('<button id=t type=nonsense></button>', "valid"),          # a submit button
    ('<button id=t commandfor=d command=show-modal></button>', "-"),   # a command's button submits nothing
    ('<textarea id=t required></textarea>', "invalid"),
    ('<textarea id=t required>\n</textarea>', "invalid"),       # the first newline is not the value
    ('<textarea id=t required>\n\n</textarea>', "valid"),
    ('<textarea id=t required readonly></textarea>', "-"),
    ('<input id=t type=checkbox required>', "invalid"),
    ('<input id=t type=checkbox required checked>', "valid"),
    ('<input id=t type=file>', "valid"),
    ('<input id=t type=file required>', "invalid"),             # a parsed page selects no file
    ('<input id=t type=color required>', "valid"),
    ('<input id=t required maxlength=1 value=abc>', "valid"),   # too long only after a user's edit
    ('<output id=t></output>', "-"),
    ('<object id=t></object>', "-"),
    ('<svg><input id=t required></svg>', "-"),                   # no control outside HTML
])
def test_candidates_and_what_bars_them(control, expected):
    assert state(control) == expected


def test_disabled_fieldsets_bar_all_but_their_first_legend():
    got = states("""<fieldset disabled>
        <legend><input id=in-legend required></legend>
        <legend><input id=in-second-legend required></legend>
        <input id=inside required>
        <fieldset><legend><input id=nested-legend required></legend></fieldset>
      </fieldset>
      <datalist><input id=in-datalist required></datalist>""")
    assert got == {"in-legend": "invalid", "in-second-legend": "-", "inside": "-", "nested-legend": "-",
                   "in-datalist": "-"}


@pytest.mark.parametrize("value, multiple, expected", [
    ("a@b", False, "valid"), ("first.last+tag@example.co.uk", False, "valid"), (" a@b ", False, "valid"),
    ("a@b@c", False, "invalid"), ("@b", False, "invalid"), ("a@", False, "invalid"), ("a@-b", False, "invalid"),
    ("a@b.", False, "invalid"), ("a b@c", False, "invalid"), ("a@münchen.de", False, "valid"),
    ("a@b, c@d", True, "valid"), ("a@b,", True, "invalid"), ("a@b, c@d", False, "invalid"),
])
def test_email(value, multiple, expected):
    assert state(f'<input id=t type=email value="{value}"{" multiple" if multiple else ""}>') == expected


@pytest.mark.parametrize("value, expected", [
    ("http://example.com/a?b#c", "valid"), ("https://user:pw@host:8080", "valid"), ("mailto:a@b", "valid"),
    ("http:host", "valid"), ("file:///tmp/x", "valid"), ("javascript:void(0)", "valid"),
    ("http://[::1]/", "valid"), ("  http://a  ", "valid"),
    ("example.com", "invalid"), ("/path", "invalid"), ("http://", "invalid"), ("http://a b/", "invalid"),
    ("http://a:99999/", "invalid"), ("http://a:8x/", "invalid"), ("1http://a", "invalid"), ("http://a^b", "invalid"),
    ("http://%41.com/", "valid"), ("http://a%20b/", "invalid"), ("http://a&#9;b/", "valid"),   # decoded; tabs dropped
    ("file://h:80/", "invalid"), ("file://u@h/", "invalid"), ("file://h/x", "valid"),
])
def test_url(value, expected):
    assert state(f'<input id=t type=url value="{value}">') == expected


@pytest.mark.parametrize("pattern, value, expected", [
    ("[0-9][A-Z]{3}", "0AAA", "valid"),
    ("[0-9][A-Z]{3}", "AAA", "invalid"),
    ("[0-9][A-Z]{3}", "0AAAA", "invalid"),          # the whole value
    ("a|b", "b", "valid"), ("a|bc", "ab", "invalid"),   # ^(?:a|bc)$, not ^a|bc$
    ("\\d{3}-\\d{4}", "555-1234", "valid"),
    ("\\d{3}\\-\\d{4}", "5551234", "valid"),        # \- outside a class: no pattern under the v flag
    ("[a-z-]+", "A", "valid"),                      # a '-' the v flag does not allow: no pattern
    ("[\\w--\\d]+", "ab", "valid"), ("[\\w--\\d]+", "a1", "invalid"),   # class subtraction
    ("[[a-z]&&[^aeiou]]+", "xyz", "valid"), ("[[a-z]&&[^aeiou]]+", "xa", "invalid"),
    (".+", "😀", "valid"), (".", "😀", "valid"), ("..", "😀", "invalid"),   # code points
    ("(?=.*\\d).{4,}", "abc1", "valid"), ("(?=.*\\d).{4,}", "abcd", "invalid"),
    ("(?<=a)b|ab", "ab", "valid"),
    ("\\p{L}+", "123", "valid"),                    # property escapes are not read: no constraint
    ("(", "x", "valid"), ("a{2,1}", "x", "valid"),   # not a pattern: no constraint
    ("", "x", "invalid"), ("", "", "valid"),
    ("[a&&&]", "b", "valid"),                       # '&' after "&&": not a pattern
    ("|".join(f"x{i}" for i in range(300)), "x299", "valid"), ("|".join(f"x{i}" for i in range(300)), "x300", "invalid"),
    ("\\d{1,1024}", "12", "valid"), ("\\d{1,1024}", "1a", "invalid"),
])
def test_pattern(pattern, value, expected):
    markup = f'<input id=t pattern="{pattern}" value="{value}">'
    assert state(markup) == expected


def test_pattern_applies_to_each_email_of_a_list_and_not_to_other_types():
    assert state('<input id=t type=email multiple pattern=".*@x" value="a@x, b@x">') == "valid"
    assert state('<input id=t type=email multiple pattern=".*@x" value="a@x, b@y">') == "invalid"
    assert state('<input id=t type=number pattern="x" value="5">') == "valid"


@pytest.mark.parametrize("control, expected", [
    ('type=number value=5 min=1 max=10', "valid"), ('type=number value=0 min=1', "invalid"),
    ('type=number value=11 max=10', "invalid"), ('type=number value=abc required', "invalid"),
    ('type=number value=abc min=1', "valid"),                     # sanitized to ""
    ('type=number value=1.5 min=1', "invalid"),                   # default step 1 from min
    ('type=number value=1.5', "valid"),                           # no min: the value is the base
    ('type=number value=0.3 min=0 step=0.1', "valid"), ('type=number value=7 min=0 step=5', "invalid"),
    ('type=number value=7 min=0 step=any', "valid"), ('type=number value=7 min=0 step=-1', "valid"),
    ('type=number value=17 min=0 step=3e-15', "invalid"),          # exact remainders, as Chrome's decimals
    ('type=number value=100000000000000.5 min=0', "invalid"), ('type=number value=1e300 min=0 step=3', "valid"),
    ('type=time value=09:00:30 min=09:00', "invalid"),            # default step 60 s
    ('type=time value=09:01 min=09:00', "valid"),
    ('type=date value=2024-03-04 min=2024-03-01 step=3', "valid"),
    ('type=date value=2024-03-05 min=2024-03-01 step=3', "invalid"),
    ('type=month value=2024-05 min=2024-01 step=2', "valid"), ('type=month value=2024-04 min=2024-01 step=2', "invalid"),
    ('type=week value=2025-W02 min=2024-W52 step=2', "valid"), ('type=week value=2025-W03 min=2024-W52 step=2', "invalid"),
    ('type=week value=2021-W01 min=2020-W52 step=2', "valid"),   # 2020 has a week 53
    ('type=datetime-local value=2024-01-01T00:00:01 min=2024-01-01T00:00 step=0.5', "valid"),
    ('type=date required', "invalid"), ('type=date value=2024-02-30 required', "invalid"),
    ('type=range min=10 max=5', "invalid"), ('type=range value=500', "valid"),   # clamped
])
def test_numbers_dates_and_times(control, expected):
    assert state(f"<input id=t {control}>") == expected


def test_radio_groups():
    got = states("""<form><input type=radio name=a id=a1 required><input type=radio name=a id=a2></form>
      <form><input type=radio name=a id=b1></form>
      <input type=radio name=c id=c1 required><input type=radio name=c id=c2 checked>
      <input type=radio id=unnamed required>""")
    # a group is the radios of one form owner and name; one without a name is never missing
    assert got == {"a1": "invalid", "a2": "invalid", "b1": "valid", "c1": "valid", "c2": "valid",
                   "unnamed": "valid"}


def test_selects():
    got = states("""
      <select id=placeholder required><option value="">Choose</option><option>x</option></select>
      <select id=chosen required><option value="">Choose</option><option selected>x</option></select>
      <select id=text-placeholder required><option> </option><option>x</option></select>
      <select id=not-placeholder required><option>x</option></select>
      <select id=in-optgroup required><optgroup><option value=""></option></optgroup></select>
      <select id=listbox required size=3><option>x</option></select>
      <select id=listbox-chosen required size=2><option value="" selected>x</option></select>
      <select id=multiple required multiple><option>x</option></select>
      <select id=multiple-chosen required multiple><option selected>x</option></select>
      <select id=empty required></select>
      <select id=optional><option value=""></option></select>""")
    assert got == {"placeholder": "invalid", "chosen": "valid", "text-placeholder": "invalid",
                   "not-placeholder": "valid", "in-optgroup": "valid", "listbox": "invalid", "listbox-chosen": "valid",
                   "multiple": "invalid", "multiple-chosen": "valid", "empty": "invalid", "optional": "valid"}


def test_forms_by_the_controls_they_own_and_fieldsets_by_those_inside():
    got = states("""
      <form id=empty></form>
      <form id=fine><input required value=x><button></button></form>
      <form id=owns-outside></form><input form=owns-outside required>
      <form id=inner-only><template><input required></template></form>
      <fieldset id=fs-fine><input value=x></fieldset>
      <fieldset id=fs-bad><div><input type=email value=nope></div></fieldset>
      <fieldset id=fs-disabled disabled><input required></fieldset>
      <fieldset id=fs-outer><fieldset id=fs-inner><input required></fieldset></fieldset>""")
    assert {k: v for k, v in got.items() if k.startswith(("empty", "fine", "owns", "inner", "fs"))} == {
        "empty": "valid", "fine": "valid", "owns-outside": "invalid", "inner-only": "valid",
        "fs-fine": "valid", "fs-bad": "invalid", "fs-disabled": "valid", "fs-outer": "invalid",
        "fs-inner": "invalid"}


def test_the_same_answers_through_every_entry_point():
    # a page big enough for the document's shared form tables, asked whole and element by element
    rows = "".join(f'<tr><td><form id=f{i}><input id=i{i} type=number min=0 value={i % 3 - 1}>'
                   f'<input type=radio name=r{i % 4} {"required" if i % 5 == 0 else ""}></form>'
                   for i in range(300))
    doc = fp.parse(f"<table>{rows}</table>")
    whole = [t.index for t in doc.select(":invalid")]
    assert whole and whole == [t.index for t in doc if t.matches(":invalid")]
    scoped = [t.index for cell in doc.select("td") for t in cell.select(":invalid")]
    assert scoped == whole   # every form and control is in a cell
    assert doc.select_one("input:invalid").closest("form:invalid")
    assert len(doc.select(":is(:valid, :invalid)")) == len(doc.select("form, input"))
    assert doc.select(":not(:valid):not(:invalid)") == doc.select(":not(form, input)")
    # the first form asked keeps the forms' answers with the shared tables: threads that
    # race to ask agree with the whole-document run (the race is benign, one list is kept)
    fresh = fp.parse(f"<table>{rows}</table>")
    with ThreadPoolExecutor(4) as pool:
        asked = list(pool.map(lambda f: f.matches(":invalid"), fresh.select("form")))
    assert [f.index for f, bad in zip(fresh.select("form"), asked) if bad] == [
        t.index for t in doc.select("form:invalid")]


def test_valid_and_invalid_are_html_only_and_nest():
    assert states('<svg><form id=f></form></svg>') == {"f": "-"}
    doc = fp.parse("<form><p><input required></p></form>")
    assert [t.name for t in doc.select(":has(> :invalid)")] == ["p"]
    assert [t.name for t in doc.select("form:invalid > p:not(:valid)")] == ["p"]


def test_patterns_this_does_not_run_set_no_constraint():
    # a program over 4,096 instructions, and lookbehinds that nest past the step budget
    # (V8 would call both mismatches): no constraint rather than a slow or unbounded select
    assert state('<input id=t pattern="(a{1000}){1000}" value="b">') == "valid"
    value = "a" * 3000 + "c"
    assert state(f'<input id=t pattern="a*(?<=(?<=(?<=b)a)a)c" value="{value}">') == "valid"
    assert state('<input id=t pattern="a*(?<=(?<=(?<=b)a)a)c" value="aac">') == "invalid"


def test_a_legacy_encoded_page_checks_ascii_patterns_only():
    page = '<meta charset=windows-1252><input id=a pattern="[a-z]+" value="ABC"><input id=b pattern="é+" value="x">'
    assert states(page.encode("cp1252")) == {"a": "invalid", "b": "valid"}
    assert states(page) == {"a": "invalid", "b": "invalid"}   # the same page as str: code points


def test_number_steps_against_a_decimal_model_of_chromes_rule():
    # StepRange::StepMismatch: no remainder is known past step x 2^53; within step / 2^24 of
    # a multiple counts as none. Python's Decimal is the exact arithmetic Chrome's Decimal is.
    from decimal import Decimal, localcontext

    r = random.Random(5)

    def number() -> str:
        k = r.random()
        return (str(r.randint(-1000, 1000)) if k < 0.3 else f"{r.uniform(-100, 100):.{r.randint(0, 6)}f}"
                if k < 0.6 else f"{r.randint(1, 999)}e{r.randint(-20, 5)}" if k < 0.8
                else f"{r.choice(['', '-'])}{r.randint(0, 99)}.{r.randint(0, 10**9):09d}")

    with localcontext() as ctx:
        ctx.prec = 200
        for _ in range(2000):
            value, low, step = number(), number(), number().lstrip("-")
            v, b, s = Decimal(value), Decimal(low), Decimal(step)
            s = s if s > 0 else Decimal(1)
            d = abs(v - b)
            mismatch = d / s <= 2 ** 53 and s / 2 ** 24 < d % s < s - s / 2 ** 24
            expected = "invalid" if v < b or mismatch else "valid"
            assert state(f'<input id=t type=number value="{value}" min="{low}" step="{step}">') == expected, \
                (value, low, step)
