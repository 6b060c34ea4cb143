"""Selector cases where HTML's own rules decide the answer: custom element names,
value sanitization, contenteditable and lang on foreign elements, the bidi class
of unassigned code points, own text nodes, NUL in a selector.

Found by running soupsieve 4.1.4's test suite (its HTML cases) through fastparse;
each expectation here follows the HTML Standard, written from it, not copied."""
import pytest

import fastparse as fp


def ids(html, css):
    return sorted(t.id for t in fp.parse(html).select(css))


# ---------------------------------------------------------------- :defined

def test_names_svg_and_mathml_reserved_are_no_custom_element_names():
    html = "".join(f"<{name} id={k}></{name}>" for k, name in enumerate(
        ["annotation-xml", "color-profile", "font-face", "font-face-src", "font-face-uri",
         "font-face-format", "font-face-name", "missing-glyph", "FONT-FACE"]))
    html += "<x-font-face id=custom></x-font-face><font-face id=is is=x-a></font-face><p id=p>"
    assert ids("<body>" + html, "body :defined") == sorted([*map(str, range(9)), "p"])
    assert ids("<body>" + html, "body :not(:defined)") == ["custom", "is"]


# ---------------------------------------------------------------- :placeholder-shown

@pytest.mark.parametrize("control, shown", [
    ('<input placeholder=p value="&#10;">', True),              # text: line breaks dropped
    ('<input type=password placeholder=p value="&#13;&#10;">', True),
    ('<input placeholder=p value=" ">', False),                 # ... but not spaces
    ('<input type=url placeholder=p value=" ">', True),          # url, email: trimmed too
    ('<input type=email placeholder=p value="&#9;&#10;">', True),
    ('<input type=email placeholder=p value=" a@b ">', False),
    ('<input type=number placeholder=p value=abc>', True),       # no valid number: ""
    ('<input type=number placeholder=p value=" 7 ">', True),
    ('<input type=number placeholder=p value="+1">', True),
    ('<input type=number placeholder=p value="1.">', True),
    ('<input type=number placeholder=p value=1e9999>', True),    # overflows a double
    ('<input type=number placeholder=p value="-.5e2">', False),
    ('<input type=number placeholder=p value=1e308>', False),
    ('<input placeholder=p value="">', True),
    ('<input placeholder=p>', True),
    ('<input placeholder="" >', False),
    ("<textarea placeholder=p>\n</textarea>", True),            # the parser drops that newline
    ("<textarea placeholder=p>\n\n</textarea>", False),         # one is left
    ("<textarea placeholder=p> </textarea>", False),
    ("<textarea placeholder=p></textarea>", True),
    ('<input type="n&#117;mber" placeholder=p value="&#32;7">', True),   # references in both
    ('<input type="&#117;rl" placeholder=p value="&#32;x">', False),
])
def test_placeholder_shown_reads_the_sanitized_value(control, shown):
    assert bool(fp.parse(control).select(":placeholder-shown")) is shown


# ---------------------------------------------------------------- :read-write on SVG and MathML

def test_contenteditable_on_svg_and_mathml_is_ignored():
    html = """<body>
    <svg id=s1 contenteditable><foreignObject id=f1 contenteditable=true><p id=p1>t</p>
    </foreignObject></svg>
    <div id=d1 contenteditable><svg id=s2><foreignObject id=f2 contenteditable=false><p id=p2>t</p>
    </foreignObject></svg></div>
    <div id=d2 contenteditable><p id=p3 contenteditable=false><b id=b1 contenteditable></b>
    <i id=i1></i></p></div>
    <math id=m1 contenteditable><mtext id=t1 contenteditable><b id=b2>t</b></mtext></math>"""
    assert ids(html, "body :read-write") == ["b1", "d1", "d2", "p2"]
    assert ids(html, "body :read-only") == ["b2", "i1", "p1", "p3"]   # SVG and MathML: neither


# ---------------------------------------------------------------- :lang

def test_mathml_elements_have_no_lang_attribute_of_their_own():
    html = """<div lang=fr><svg id=s lang=en><g id=g></g></svg>
    <math id=m lang=en><mi id=mi></mi></math><math id=x xml:lang=de><mi id=xi></mi></math></div>"""
    assert ids(html, ":lang(en)") == ["g", "s"]
    assert ids(html, "[id]:lang(fr)") == ["m", "mi"]
    assert ids(html, ":lang(de)") == ["x", "xi"]     # xml:lang is MathML's


# ---------------------------------------------------------------- :dir

@pytest.mark.parametrize("first, direction", [
    ("\u0378", "ltr"),      # unassigned: L
    ("\u0590", "rtl"),      # unassigned in Hebrew: R
    ("\U0001EEFF", "rtl"),  # unassigned in Arabic Mathematical Alphabetic Symbols: AL
    ("\uFDD0", "rtl"),      # a noncharacter is BN: skipped, the next letter decides
    ("\u2065", "rtl"),      # an unassigned default ignorable: BN
    ("\u20CF", "rtl"),      # unassigned in Currency Symbols: ET, no strong direction
    ("\U0010FFFD", "ltr"),  # private use: L
])
def test_dir_auto_reads_unassigned_code_points_by_their_default_class(first, direction):
    html = f"<div id=a dir=auto>{first}\u05D0</div><input id=b dir=auto value='{first}\u05D0'>"
    assert ids(html, f":dir({direction})") == ["a", "b"]


def test_a_template_with_dir_auto_has_no_text_of_its_own():
    html = "<div dir=rtl><template id=t dir=auto>\u05E2\u05D1</template></div>"
    assert ids(html, "template:dir(ltr)") == ["t"]


# ---------------------------------------------------------------- :-soup-contains-own

def test_contains_own_looks_at_each_own_text_node_apart():
    html = ("<div id=a>alpha<span>beta</span>gamma</div><div id=b>own</div><div id=c></div>"
            "<div id=d><span>child</span></div>")
    assert ids(html, "div:-soup-contains-own('alphagamma')") == []
    assert ids(html, "div:-soup-contains-own('gamma')") == ["a"]
    assert ids(html, "div:-soup-contains-own('')") == ["a", "b"]      # "" needs a text node
    assert ids(html, "div:-soup-contains('')") == ["a", "b", "c", "d"]


# ---------------------------------------------------------------- the selector's own text

def test_a_nul_in_a_selector_reads_as_u_fffd():
    html = '<p id="\x00pre">x</p><p id="\ufffdq">y</p>'
    assert [t.text for t in fp.parse(html).select('[id="\x00pre"]')] == ["x"]
    assert [t.text for t in fp.parse(html).select("#\x00q")] == ["y"]


def test_a_carriage_return_in_a_string_ends_it_as_a_line_feed_does():
    with pytest.raises(fp.SelectorError, match="unterminated string"):
        fp.parse("<p>").select('[a="x\ry"]')


@pytest.mark.parametrize("css, found", [
    (":nth-child(2n /* c */ + 1)", ["1", "3"]),
    (":nth-child(2n/**/+1)", ["1", "3"]),           # two tokens: 2n and +1
    (":nth-child(/* x */odd/* y */)", ["1", "3"]),
    (":nth-child(2n+1 /* c */ of p)", ["1", "3"]),
])
def test_comments_inside_an_nth_argument(css, found):
    assert [t.text for t in fp.parse("<p>1<p>2<p>3<p>4").select(css)] == found


def test_a_comment_does_not_join_an_nth_argument():
    with pytest.raises(fp.SelectorError, match="invalid An\\+B expression '2/\\*\\*/n'"):
        fp.parse("<p>").select(":nth-child(2/**/n)")


# ---------------------------------------------------------------- the parser's form owner

@pytest.mark.parametrize("html, default, checked", [
    # a form closed by another element's end tag keeps the parser's form element pointer:
    # what follows belongs to it (13.2.6.1), outside it (found by WPT's form pointer tests)
    ("<div><form id=f></div><input type=submit id=s><input type=submit id=t></form>", ["s"], []),
    # a form in a table is empty; the rows' controls are its own
    ("<table><form><tr><td><input type=radio name=r id=a checked><td><input type=radio name=r id=b checked>",
     ["a", "b"], ["b"]),
    # </form> clears the pointer: a control after it belongs to the form around it, if any
    ("<form><input type=radio name=r id=c checked></form><form><div></form><input type=radio name=r id=d checked>",
     ["c", "d"], ["c", "d"]),
    # nor in a template, where the pointer is not used
    ("<div><form></div><template><input type=submit id=u></template><input type=submit id=v>", ["v"], []),
])
def test_controls_belong_to_the_form_the_parser_pointed_at(html, default, checked):
    assert ids(html, ":default") == default and ids(html, ":checked") == checked
