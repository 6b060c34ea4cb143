"""The tree builder's recovery rules (issue 3), one test per rule, and the
recovery="none" path (nesting exactly as written).

Each html5 expectation is what the HTML Standard builds (13.2.6), restricted to
elements with a start tag in the source: fastparse never inserts an element
(no implied tbody/tr) and never clones one (adoption agency, reconstruction of
active formatting elements). The two elements an end tag makes, <br> from </br>
and the empty <p> of a stray </p>, are indexed where that end tag stands. Where the index differs from the spec's tree by
design, the test says so.

Foster parenting: a fostered element keeps its source position in the index,
inside the table's range (descendants stay contiguous); the engine marks it
FP_EF_FOSTERED and fp_dom_parent() gives the spec's parent (the table's
parent), which is what tag.parent reports; tag.children lists it in tree order,
before its table, as the spec inserts it.
"""

import os
import time

import pytest

import fastparse as fp


def outline(doc) -> str:
    """Compact nesting by parent links, in document order: 'a(b,c),d'."""
    children: dict[int, list] = {}
    roots = []
    for t in doc:
        (children.setdefault(t.parent.index, []) if t.parent else roots).append(t)

    def show(t) -> str:
        kids = children.get(t.index)
        return t.name + ("(" + ",".join(show(k) for k in kids) + ")" if kids else "")

    return ",".join(show(t) for t in roots)


def tree(src: str, **kw) -> str:
    return outline(fp.parse(src, **kw))


def frag(src: str, context: str) -> str:
    return outline(fp.parse_fragment(src, context=context))


# ---- tables ----

def test_table_start_tag_in_a_table_closes_it():
    # "in table", start tag table: close the open table, then start a new one
    assert tree("<table><table>") == "table,table"
    assert tree("<table><tr><td><table></table></td></tr></table>") == "table(tr(td(table)))"


def test_table_start_tag_from_a_fostered_element_still_closes_the_table():
    d = fp.parse("<table><div><table>")
    assert [t.name for t in d] == ["table", "div", "table"]
    assert d[2].parent is fp.MISSING


def test_form_in_a_table_is_an_empty_element():
    d = fp.parse("<table><form id=f><tr><td>x</td></tr></table>")
    form = d.find("form")
    assert form.closed_by == "implied" and form.descendants == []
    assert d.find("tr").parent.name == "table"


def test_second_form_after_a_table_form_is_ignored():
    # the form element pointer stays set: the later <form> is not an element
    assert [t.name for t in fp.parse("<table><form></table><form>")] == ["table", "form"]


def test_table_parts_outside_a_table_are_ignored():
    assert tree("<div><tr><td>x</td></tr></div>") == "div"


def test_rows_and_cells_nest_in_sections():
    assert tree("<table><tbody><tr><td>a<td>b<tr><td>c</table>") == "table(tbody(tr(td,td),tr(td)))"


@pytest.mark.parametrize("src, expected", [
    ("<table><colgroup><html><col>", "table(colgroup(col))"),
    ("<template><col><html><col></template>", "template(col,col)"),
])
def test_an_html_tag_in_a_column_group_ends_nothing(src, expected):
    # "in column group": <html> takes the in-body rules, which only merge its attributes
    assert tree(src) == expected


@pytest.mark.parametrize("src, closed", [
    ("<table><td><svg><td><desc><span></td>X</table>", "td"),
    ("<table><tr><td><svg><tr><desc><span></tr>X</table>", "tr"),
    ("<table><caption><svg><caption><desc><span></caption>X</table>", "caption"),
])
def test_a_table_end_tag_closes_the_html_element_past_an_svg_one_of_its_name(src, closed):
    # the rules ask for an HTML element of the name in table scope: the svg one above it
    # neither stops the search nor is closed; X then goes before the table (lexbor agrees)
    d = fp.parse(src)
    html_el = d.find(closed)
    assert html_el.closed_by == "end-tag" and d.find("span").text == ""
    assert d.select_one("svg " + closed).closed_by == "parent-end"


def test_column_group_ends_at_anything_but_col():
    # "in column group", anything else: pop the colgroup and reprocess in table
    d = fp.parse("<table><colgroup><col><tr><td>x</table>")
    assert outline(d) == "table(colgroup(col),tr(td))"
    assert d.find("colgroup").closed_by == "implied"


def test_caption_is_closed_by_a_row():
    assert tree("<table><caption>c<tr><td>x</table>") == "table(caption,tr(td))"


@pytest.mark.parametrize("src", ["<table><tr><div id=x>", "<table><input id=x>", "<table><li id=x>"])
def test_fostered_element_keeps_its_source_position_inside_the_table_range(src):
    d = fp.parse(src)
    x = d.find(id="x")
    table = d.find("table")
    assert table.index < x.index <= table.index + len(table.descendants)


@pytest.mark.parametrize("src", ["<div id=p><table><tr><div id=x>", "<div id=p><table><input id=x>",
                                 "<div id=p><table><b id=x>"])
def test_fostered_element_reports_the_tables_parent(src):
    assert fp.parse(src).find(id="x").parent.id == "p"


def test_children_put_fostered_elements_before_their_table():
    d = fp.parse("<body><i>a</i><table><tr><div>x</div><td><table><b>n</b></table>"
                 "</td><span>y</span></tr></table><u>z</u>")
    body = d.find("body")
    assert [c.name for c in body.children] == ["i", "div", "span", "table", "u"]
    assert [t.name for t in d] == ["body", "i", "table", "tr", "div", "td", "table", "b",
                                   "span", "u"]   # document order stays source order
    assert [c.name for c in d.find("td").children] == ["b", "table"]
    assert d.find("div").next_sibling().name == "span"
    assert d.find("span").next_sibling().name == "table"
    assert d.find("table").prev_sibling().name == "span"
    assert [c.name for c in fp.parse("<table><p>x").children] == ["p", "table"]


def test_a_form_fragment_ignores_a_form_in_it():
    # the fragment algorithm points the form element pointer at a form context,
    # so a <form> in it is ignored as in a form; </form> clears the pointer
    assert frag("<form><p>x", "form") == "p"
    assert frag("<div><form><select><p>y</div>", "form") == "div(select(p))"
    assert frag("<table><form><tr>", "form") == "table(tr)"
    assert frag("</form><form><p>x", "form") == "form(p)"
    assert frag("<template><form>x</form></template>", "form") == "template(form)"
    assert frag("<form><p>x", "div") == "form(p)"


def test_hidden_input_is_not_fostered():
    # input type=hidden stays in the table (and the second one does not clear anything)
    d = fp.parse("<table><input type=HIDDEN id=x><tr><td>")
    assert d.find(id="x").parent.name == "table"


def test_hidden_input_in_a_table_goes_in_a_fostered_select():
    # "in table" inserts a hidden input at the current node; only "in body"'s input closes
    # a select (since the 2025 select parsing there is no "in select in table" mode)
    assert tree("<table><select><input type=hidden>") == "table,select(input)"   # select fostered
    assert tree("<table><tr><select><option><input type=hidden>") == "table(tr),select(option(input))"
    assert [t.parent.name for t in fp.parse("<table><select><input type=hidden>").find_all("input")] == ["select"]
    # a select fragment ignores an input only under the in-body rules
    assert frag("<table><input type=hidden>", "select") == "table(input)"
    assert frag("<select><input type=hidden>", "tr") == "select(input)"
    # the in-body rule itself is unchanged
    assert tree("<select><input type=hidden>") == "select,input"


# ---- quirks mode ----

def test_table_does_not_close_p_in_quirks_mode():
    assert tree("<p><table></table>") == "p(table)"
    assert tree('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 3.2//EN"><p><table>') == "p(table)"
    assert tree('<!DOCTYPE html SYSTEM "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd">'
                "<p><table>") == "p(table)"


def test_table_closes_p_in_no_quirks_mode():
    assert tree("<!DOCTYPE html><p><table></table>") == "p,table"
    assert tree('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" '
                '"http://www.w3.org/TR/html4/strict.dtd"><p><table>') == "p,table"


@pytest.mark.parametrize("doctype, quirks", [
    ('PUBLIC "+//Silmaril//dtd html Pro v0r11 19970101//EN"', True),           # the list's first
    ('PUBLIC "-//WebTechs//DTD Mozilla HTML//EN"', True),                       # and its last
    ('PUBLIC "-//SoftQuad Software//DTD HoTMetaL PRO 6.0::19990601::extensions to HTML 4.0//EN"', True),
    ('PUBLIC "-//W3C//DTD HTML 4.0 TRANSITIONAL//EN" "x"', True),
    ('PUBLIC "-//W3C//DTD HTML 3.2"', False),                # a listed prefix, cut short
    ('PUBLIC "-//W3C//DTD HTML 3.2//EN' + "x" * 300 + '"', True),   # longer than the copy compared
    ('PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"', True),     # quirky without a system id
    ('PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "x"', False),
    ('PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" ""', True),    # empty as missing (2026-01)
    ("PUBLIC '-//W3C//DTD HTML 4.01 Frameset//EN' ''", True),
    ('PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "x"', False),   # limited quirks
    ('PUBLIC "html"', True),                                  # the exact matches
    ('PUBLIC "-/W3C/DTD HTML 4.0 Transitional/EN"', True),
    ('PUBLIC "-/W3C/DTD HTML 4.0 Transitional/EN/"', False),
    ('PUBLIC ""', False),
    ("PUBLIC -//W3C//DTD HTML 4.01//EN", True),               # a missing quote forces quirks
])
def test_public_identifiers_decide_quirks_mode(doctype, quirks):
    assert fp.parse(f"<!DOCTYPE html {doctype}><p>").quirks is quirks


@pytest.mark.parametrize("doctype, quirks", [
    ("<!DOCTYPE html foo>", True),        # anything but PUBLIC or SYSTEM after the name
    ("<!DOCTYPE html PUBLIC>", True),     # an identifier missing
    ("<!DOCTYPE html SYSTEM 'x>", True),  # ... or cut by '>'
    ('<!DOCTYPE html PUBLIC "" junk>', True),
    ('<!DOCTYPE html PUBLIC ""\'\'>', False),   # no space between the two: an error, no more
    ("<!DOCTYPE html SYSTEM 'about:legacy-compat' junk>", False),   # a bogus tail only
    ("<!DOCTYPEhtml>", False),
    ("<!DOCTYPE html", True),             # the end of the input inside it
    ("<!DOCTYPE html SYSTEM 'x'", True),
])
def test_the_doctype_tokens_force_quirks_flag(doctype, quirks):
    source = doctype + "<p>" if doctype.endswith(">") else doctype   # else it ends the input
    assert fp.parse(source).quirks is quirks


@pytest.mark.parametrize("before", ["</x>", "</p>", "</em>", "</head>", "</ul>", "</template>", "</br>"])
def test_an_end_tag_before_the_doctype_ends_the_initial_mode(before):
    # "initial", anything else: quirks mode, and the doctype after it is ignored
    d = fp.parse(before + "<!DOCTYPE html><p><table>")
    assert d.quirks and d.doctype is None and d.find("table").parent.name == "p"


def test_fragments_are_not_in_quirks_mode():
    assert frag("<p><table>", "div") == "p,table"


# ---- select (2025 rules) ----

def test_input_closes_a_select():
    assert tree("<select><input>") == "select,input"
    assert tree("<select><div><input>") == "select(div),input"


def test_keygen_and_textarea_stay_in_a_select():
    # the relaxed select parser kept only <input> of the old "in select" rules (lexbor agrees)
    assert tree("<select><keygen>") == "select(keygen)"
    assert tree("<select><textarea></textarea>") == "select(textarea)"


@pytest.mark.parametrize("src, expected", [
    ("<p><select><div>x", "p(select(div))"),          # select is a scope boundary: the p stays open
    ("<p><select><article></article></select><div>", "p(select(article)),div"),
    ("<pre><select><nav></pre><main>", "pre(select(nav(main)))"),
    ("<b><select><option>a</b></select>", "b(select(option))"),
    ("<ul><li><select><li>", "ul(li(select(li)))"),   # li stops at special elements (select)
    ("<select><svg><desc><select>", "select(svg(desc(select)))"),   # the outer one is not in scope
    ("<select><div><select>x", "select(div)"),       # in scope: acts as </select>
])
def test_select_is_a_scope_boundary(src, expected):
    # 2025 select parsing added select to the "has an element in scope" list
    assert tree(src) == expected


def test_select_end_tag_does_not_reach_past_a_template():
    # </select> needs a select in scope: the template opened inside it is a boundary
    assert tree("<select><template></select><p>") == "select(template(p))"
    assert tree("<select><div></select><p>") == "select(div),p"


@pytest.mark.parametrize("src, expected", [
    # the rules that ask for "a template element on the stack" mean an HTML one (13.2.6.4.7):
    # an SVG or MathML <template> opened above an integration point does not count
    ("<form><svg><template><foreignObject><form><input>", "form(svg(template(foreignObject(input))))"),
    ("<form><math><template><mi><form>x", "form(math(template(mi)))"),
    ("<p><svg><template><foreignObject><table><form><input></form></table>",
     "p(svg(template(foreignObject(table(form),input))))"),   # the input fostered out of the table
    ("<svg><template><foreignObject><frameset>", "frameset"),
    # an HTML one does, under any number of foreign ones
    ("<form><template><svg><template><foreignObject><form><input>",
     "form(template(svg(template(foreignObject(form(input))))))"),
])
def test_only_an_html_template_counts_as_a_template_on_the_stack(src, expected):
    assert tree(src) == expected


@pytest.mark.parametrize("src, expected", [
    ("<math><svg><title><p>x", "math(svg(title)),p"),       # a MathML svg: its title is no integration point
    ("<math><mrow><svg><desc><p>", "math(mrow(svg(desc))),p"),
    ("<math><mi><svg><title><p>x", "math(mi(svg(title(p))))"),   # mi: HTML rules, an SVG svg
    ("<math><annotation-xml><svg><title><p>x", "math(annotation-xml(svg(title(p))))"),
])
def test_svg_inside_mathml_takes_the_adjusted_current_nodes_namespace(src, expected):
    assert tree(src) == expected


@pytest.mark.parametrize("src", ["<template><td>a<caption>b", "<template><td>a<tr>b",
                                 "<template><th>a<tbody>b"])
def test_an_ignored_table_part_still_ends_the_open_cell(src):
    # "in cell": close the cell, then reprocess, where the part is ignored (lexbor agrees)
    cell = next(t for t in fp.parse(src) if t.name in ("td", "th"))
    assert cell.text == "a" and cell.closed_by == "implied"


@pytest.mark.parametrize("src, expected", [
    ("<template><tr><h3>x<col><p>y</template>", "template(tr,h3,p)"),   # found by random_tree_diff
    ("<template><tr><td>a</td></tr><col></template>", "template(tr(td))"),
    ("<template><tr><td>a<col>b", "template(tr(td))"),
    ("<template><col><col>", "template(col,col)"),        # column-group content: kept
    ("<table><tr><col></table>", "table(tr,col)"),       # a table: the DOM's implied colgroup holds it
])
def test_a_col_after_rows_of_a_template_is_ignored(src, expected):
    # "in row" ends the row, then "in table body" finds no tbody, thead or tfoot in
    # table scope and ignores the <col> (lexbor and html5lib agree)
    assert tree(src) == expected


@pytest.mark.parametrize("src, closed, stays_open", [
    ("<template><tr><div></table><td>x", "tr", []),            # found by random_tree_diff --tables
    ("<template><tr><math></table><td>x", "tr", []),           # through foreign content
    ("<template><tbody><tr><td>x</td></table><td>", "tbody", []),
    ("<template><caption>x</table>y", "caption", []),
    ("<template><tr><td>x</table>y", None, ["td", "tr"]),      # "in cell": ignored
])
def test_a_table_end_tag_without_a_table_ends_the_templates_row_group_or_caption(src, closed, stays_open):
    # "in row", "in table body" and "in caption" end their element and pass the tag on
    # until "in table" ignores it (lexbor and html5lib agree)
    doc = fp.parse(src)
    if closed:
        assert [t.closed_by for t in doc if t.name == closed] == ["implied"]
        assert doc[-1].parent.name == "template"   # what follows is no longer inside it
    for name in stays_open:
        assert [t.closed_by for t in doc if t.name == name] == ["eof"]


@pytest.mark.parametrize("src", ["<template><tbody></tbody><td>x</tr>y", "<template><tbody><td>x</tr>y",
                                 "<template><caption></caption><td>x</tbody>y",
                                 "<template><colgroup><th>x</tbody>y"])
def test_an_implied_row_or_section_end_tag_closes_the_cell_of_a_table_like_template(src):
    # a template whose first tag is a caption, colgroup or section takes its content
    # "in table": a cell straight in it or in its section is in an implied row (and
    # tbody), which the end tag closes (random_tree_diff --tables; lexbor agrees)
    cell = next(t for t in fp.parse(src) if t.name in ("td", "th"))
    assert cell.text == "x" and cell.closed_by == "parent-end"


@pytest.mark.parametrize("src", ["<template><tr><td>x</tbody>y", "<template><th>x</tr>y"])
def test_a_row_or_cell_template_implies_no_section_or_row(src):
    # its first tag a row or cell: "in table body" or "in row", with no implied parts
    cell = next(t for t in fp.parse(src) if t.name in ("td", "th"))
    assert cell.text == "xy" and cell.closed_by == "eof"


def test_a_table_end_tag_ends_the_row_of_a_tbody_fragment():
    doc = fp.parse_fragment("<tr><math><input></table><tfoot>", context="tbody")
    assert [(t.name, t.closed_by) for t in doc] == [("tr", "implied"), ("math", "parent-end"),
                                                    ("input", "parent-end")]   # the tfoot is ignored


def test_a_col_after_rows_of_a_tbody_fragment_is_ignored():
    doc = fp.parse_fragment("<tr><td>a<col>b", context="tbody")
    assert [t.name for t in doc] == ["tr", "td"] and doc.text == "ab"


@pytest.mark.parametrize("src, closer", [
    ("<table><td>a</tr>b</table>", "td"),         # the DOM's implied tbody > tr holds the cell
    ("<table><td>a</tbody>b</table>", "td"),
    ("<table><tbody><th>a</tr>b</table>", "th"),  # an implied tr in an explicit tbody
    ("<table><tr><td>a</tbody>b</table>", "tr"),  # an implied tbody around an explicit row
    ("<table><tr><td><table><td>a</tr>b</table></table>", "td"),   # the inner table's own row
])
def test_an_implied_row_or_section_end_tag_closes_the_cell(src, closer):
    # "in cell": the end tag's element is in table scope in the DOM (implied), so the
    # cell closes and "b" is foster-parented out of the table (lexbor and html5lib agree)
    doc = fp.parse(src)
    cell = [t for t in doc if t.name in ("td", "th")][-1]
    assert cell.text == "a"
    assert [t.closed_by for t in doc if t.name == closer][-1] == "parent-end"


@pytest.mark.parametrize("src, text", [
    ("<table><td>o</td><div>n</tr>z", "n"),            # the row, implied, outlives its cell
    ("<table><td>o</td><div>n</tbody>z", "n"),         # ... and so does the tbody around it
    ("<table><tbody><td>o</td><div>n</tr>z", "n"),     # an implied row in an explicit tbody
    ("<table><td>o</td></tr><div>n</tr>z", "nz"),      # the row ended: "in table body" ignores </tr>
    ("<table><td></tbody><div>n</tr>z", "nz"),          # </tbody> ended the row with the cell
    ("<table><thead><td>o</td><div>n</tbody>z", "nz"),  # no tbody: </tbody> is ignored
])
def test_an_implied_row_end_closes_what_was_fostered_after_its_cell(src, text):
    # "in row" clears the stack back to the row for </tr>: the <div> fostered while the
    # row was open ends there, and "z" goes after it (html5lib and lexbor agree; until
    # 2026-12-07 only an open cell ended)
    assert fp.parse(src).find("div").text == text


@pytest.mark.parametrize("src", ["<table><thead><td>a</tbody>b", "<table><td>a</thead>b",
                                 "<table><tfoot><tr><td>a</thead>b", "<template><td>a</tr>b"])
def test_an_end_tag_no_dom_has_open_leaves_the_cell_open(src):
    # only a tbody is ever implied, and a template holds no implied row
    cell = next(t for t in fp.parse(src) if t.name == "td")
    assert cell.text == "ab" and cell.closed_by == "eof"


@pytest.mark.parametrize("src, context, expected", [
    ("<td>a</tr>b", "table", "td"),           # "b" is not the cell's: implied tbody > tr closed
    ("<td>a</tr>b", "tbody", "td"),
    ("<td>a</tr>b", "tr", "td"),              # the context row is not on the stack: ignored
    ("<tr><td>a<tbody>b", "tbody", "tr(td)"),  # the row closes; the tbody is then ignored
    ("<tr><div><caption>b", "tbody", "tr,div"),
])
def test_implied_row_rules_in_table_fragments(src, context, expected):
    doc = fp.parse_fragment(src, context=context)
    assert outline(doc) == expected
    cell_text = {"table": "a", "tbody": "a", "tr": "ab"}
    if src.startswith("<td>"):
        assert doc.select_one("td").text == cell_text[context]
    else:   # the row and what is open in it close at the ignored part (before the fix: "b" in it)
        assert doc.select_one("tr").closed_by == "implied"
        assert [t.text for t in doc if t.name != "tr"] == (["a"] if "<td>" in src else [""])


@pytest.mark.parametrize("src", ["<table><colgroup></div><col>", "<table><colgroup></span><col>",
                                 "<table><colgroup>x<col>", "<table><colgroup>\0<col>",
                                 "<table><colgroup><!--c-->y<col>"])
def test_a_stray_end_tag_or_text_ends_a_column_group(src):
    # "in column group", anything else: pop the colgroup and reprocess "in table", where
    # <col> implies a new column group (lexbor and html5lib agree)
    assert tree(src) == "table(colgroup,col)"
    assert fp.parse(src).select_one("colgroup").closed_by == "implied"


@pytest.mark.parametrize("src", ["<table><colgroup> \n<col></colgroup>", "<table><colgroup></col><col>",
                                 "<table><colgroup><template></template><col>"])
def test_whitespace_and_col_or_template_end_tags_keep_a_column_group(src):
    assert tree(src).startswith("table(colgroup(") and tree(src).endswith("col))")


def test_end_tag_br_is_a_br_start_tag_under_every_rule():
    # "</br>" acts as "<br>": foster-parented in a table, and it ends the head
    doc = fp.parse("<table></br>x</table>")
    assert not doc.select_one("br").parent and tree("<table></br></table>") == "table,br"   # source order
    assert tree("<head></br><title>") == "head,br,title"


def test_noscript_in_a_template_is_never_head_noscript():
    # with scripting off a <noscript> in the head ends at body content; one in a
    # template (even a template in the head) holds it, as body content does
    assert tree("<template><noscript/><pre>x") == "template(noscript(pre))"
    assert tree("<noscript><pre>") == "noscript,pre"


def test_noscript_in_a_template_switches_it_to_body_content():
    # "in template": noscript is "any other start tag" (not a head tag there), so table
    # parts after it are ignored and do not close it (lexbor and html5lib agree)
    assert tree("<template><noscript><tfoot><th>x") == "template(noscript)"
    assert frag("<noscript><tr><td>x", "template") == "noscript"


@pytest.mark.parametrize("src, expected", [
    ("<select><option><hr>", "select(option,hr)"),
    ("<select><optgroup><hr>", "select(optgroup,hr)"),
    ("<select><optgroup><option><hr>", "select(optgroup(option),hr)"),
    ("<select><option><optgroup><hr>", "select(option,optgroup,hr)"),
])
def test_hr_closes_option_and_optgroup_in_a_select(src, expected):
    assert tree(src) == expected


def test_option_keeps_an_open_optgroup():
    assert tree("<select><optgroup><option><option>") == "select(optgroup(option,option))"


def test_formatting_end_tag_does_not_reach_through_a_select():
    assert tree("<font><select><option>a</option></font></select>") == "font(select(option))"


# ---- frameset ----

def test_frameset_keeps_only_frameset_content():
    assert tree("<frameset><div><frame><span></frameset>") == "frameset(frame)"
    assert tree("<frameset></frameset><div><noframes></noframes>") == "frameset,noframes"


def test_frame_outside_a_frameset_is_ignored():
    assert tree("<body><frame>A") == "body"


@pytest.mark.parametrize("src", ["<p>a<frameset>", "<img><frameset>", "<body><frameset>",
                                 "<input type=text><frameset>",
                                 "<<p><frameset>", "<p>< <frameset>"])   # a '<' that opens no tag is text
def test_frameset_after_body_content_is_ignored(src):
    assert "frameset" not in [t.name for t in fp.parse(src)]


@pytest.mark.parametrize("src, expected", [
    ("<title>t</title> < <meta>", "title,meta"),          # the text ends the head: <meta> is the body's
    ("<head><title>t</title><<meta></head>", "head(title),meta"),
    ("<noscript> <<meta></noscript>", "noscript,meta"),
    ("<head><", "head"),
    ("<head></", "head"),
])
def test_a_lone_lt_is_text_to_the_tree_builder(src, expected):
    d = fp.parse(src)
    assert outline(d) == expected
    head = d.find("head") or d.find("noscript")
    assert not head or head.closed_by == "implied"   # closed at the '<', not at the end of input


@pytest.mark.parametrize("src", ["\x00&#10;<frameset>", "<div>&#32;&Tab;\x00</div><frameset>"])
def test_whitespace_references_and_nul_keep_frameset_ok(src):
    # a reference to whitespace makes a whitespace character; a NUL is dropped
    assert "frameset" in [t.name for t in fp.parse(src)]


@pytest.mark.parametrize("src, expected", [
    ("<p><template></template><frameset>", "p(template)"),   # "in head" rules clear frameset-ok
    ("<head><template></template></head><frameset>", "head(template),frameset"),   # before the body
])
def test_a_template_start_tag_clears_frameset_ok(src, expected):
    assert tree(src) == expected


@pytest.mark.parametrize("src, expected", [
    ("<template></body></template>x<noscript><p>y</noscript>", "template,noscript(p)"),
    ("<template></body></template>x<frameset><frame>", "template"),
    ("<template></html></template>x<head><p>y", "template,p"),
])
def test_text_after_a_template_still_begins_the_body(src, expected):
    # the template cleared frameset-ok before the body began: the text after it begins
    # the body all the same (a head <noscript>, <frameset> and <head> are then body rules)
    assert tree(src) == expected
    assert frag(src, "html") == expected


def test_frameset_replaces_a_body_with_no_content_yet():
    # the spec removes the (implied) body and what it held; so does the index, with
    # a parse error at the <frameset>
    d = fp.parse("<!doctype html><!--a--><div><!--b--><p><svg><path/></svg></p></div> <frameset><frame>")
    assert outline(d) == "frameset(frame)"
    assert [c.text for c in d.comments] == ["a"]
    assert ("unexpected-start-tag", 68) in [(e.code, e.offset) for e in d.errors]


@pytest.mark.parametrize("src, text", [
    ("<html><head></head>\n<div> </div>\n<frameset> </frameset>", "\n "),   # after head: the html's
    ("<td>\t</td><frameset>", ""),            # an ignored tag began the body
    ("\x00&#10;<form> <frameset>", ""),       # so did a NUL, and the line feed was the body's
    ("<div> </div><frameset>&#13;", "\r"),   # what follows in the frameset stays
])
def test_text_of_the_body_a_frameset_removes_goes_with_it(src, text):
    d = fp.parse(src)
    assert "frameset" in [t.name for t in d] and d.text == text


def test_frameset_keeps_the_head():
    d = fp.parse("<html><head><title>t</title></head><div></div><frameset><frame>")
    assert outline(d) == "html(head(title),frameset(frame))"
    d = fp.parse("<title>t</title><link><div></div><frameset>")
    assert outline(d) == "title,link,frameset"


@pytest.mark.parametrize("src, expected", [
    ("</body><meta charset=utf-8><frameset>", "frameset"),        # the </body> began the body
    ("<frame><title>t</title><style>s</style><frameset>", "frameset"),   # so did the ignored <frame>
    ("<title>t</title><frame><link><frameset>", "title,frameset"),
    ("<noframes>n</noframes><head></head><head><noframes>n</noframes><frameset>",
     "noframes,head(noframes),frameset"),   # an ignored <head> keeps "after head"
])
def test_frameset_removes_head_tags_the_body_already_held(src, expected):
    # head tags after the body began are body content, and go with it (html5lib and
    # lexbor agree)
    assert tree(src) == expected


def test_hidden_input_keeps_frameset_ok():
    assert "frameset" in [t.name for t in fp.parse("<input type=hidden><frameset>")]


# ---- template ----

@pytest.mark.parametrize("src, expected", [
    ("<template><tr><td>x</td></tr></template>", "template(tr(td))"),
    ("<template><td></td></tr><td></td></template>", "template(td,td)"),
    ("<template><td></td><tbody><td></td></template>", "template(td,td)"),
    ("<template><thead></thead><caption></caption><tbody></tbody></template>",
     "template(thead,caption,tbody)"),
    ("<template><col><colgroup>", "template(col)"),
    ("<template><div><td></div></template>", "template(div)"),
    ("<template><template><tr></tr></template><td></td></template>", "template(template(tr),td)"),
])
def test_template_contents_follow_the_first_tag(src, expected):
    assert tree(src) == expected


def test_template_in_head_keeps_its_content():
    assert tree("<head><template><div></div></template></head>") == "head(template(div))"


def test_template_end_tag_closes_what_is_open_inside():
    d = fp.parse("<template><table><tr><td>x</template><p>")
    assert outline(d) == "template(table(tr(td))),p"
    assert d.find("template").closed_by == "end-tag"


def test_frameset_in_template_is_ignored():
    assert tree("<template><div><frameset><span></span></div></template>") == "template(div(span))"


# ---- fragments: the context element decides the mode ----

@pytest.mark.parametrize("src, context, expected", [
    ("<tr><a>", "td", "a"),
    ("<caption><a>", "td", "a"),
    ("<td>", "tr", "td"),
    ("<tbody><td>", "tr", "td"),
    ("<tr><td>", "tbody", "tr(td)"),
    ("<caption><col><colgroup><tbody><tfoot><thead><tr>", "tbody", "tr"),
    ("<a><col>", "colgroup", "col"),
    ("<span><td><span>", "caption", "span(span)"),
    ("<table></table><tbody>", "caption", "table"),
    ("<table><tr>", "table", "tr"),     # no table in table scope: <table> is ignored
    ("<tr>", "table", "tr"),
    ("<body><span>", "body", "span"),
    ("<noscript><span>", "html", "noscript,span"),   # head noscript, as in a document
    ("<frameset><span>", "html", "frameset"),
    # an html context starts "before head" as a document does: a stray </p> there is ignored,
    # and a fragment stays "in frameset" when its last frameset closes
    ("<noframes>n</noframes></p><div>", "html", "noframes,div"),
    ("<head></head></p><noscript><p>", "html", "head,noscript(p)"),
    ("<frameset></frameset><frameset><frame>", "html", "frameset,frameset(frame)"),
    ("</frameset><frame>", "frameset", "frame"),
    ("<input><option>", "select", "option"),
    ("<tr><td>x", "template", "tr(td)"),
    ("<td>a<td>b", "template", "td,td"),
])
def test_fragment_context_rules(src, context, expected):
    assert frag(src, context) == expected


# ---- head ----

def test_noscript_in_head_ends_at_text():
    # "in head noscript", anything else: pop the noscript (then the head)
    d = fp.parse("<noscript id=a>x<noscript id=b><i id=c>")
    assert [(t.id, t.parent.id if t.parent else None) for t in d] == [
        ("a", None), ("b", None), ("c", "b")]


def test_noscript_after_head_is_an_ordinary_element():
    assert tree("<head></head><noscript><img>") == "head,noscript(img)"


@pytest.mark.parametrize("src, expected", [
    ("<th><noscript><p>x", "noscript(p)"),          # <th> is ignored in body, but implied it
    ("<frame><noscript><p>x", "noscript(p)"),
    ("<td><meta><noscript><p>x", "meta,noscript(p)"),
    ("<html><caption><noscript><p>", "html(noscript(p))"),
    ("<html><head></head><th><meta><p>", "html(head,meta,p)"),   # not back into the head
    ("<head><th><noscript><p>x", "head,noscript(p)"),
    ("<frameset><th><noscript><p>", "frameset"),
])
def test_an_ignored_start_tag_before_the_body_still_implies_it(src, expected):
    # "anything else" in the before-head, in-head and after-head modes opens the body
    # before the tag is ignored there: what follows is body content (html5lib agrees)
    assert tree(src) == expected


@pytest.mark.parametrize("src, expected", [
    ("<body><noscript><ul><li>x</noscript><p>", "body(noscript(ul(li(p))))"),
    ("<body><noscript><p>x</noscript><div>y", "body(noscript(p,div))"),
    ("<body><noscript><b>x</noscript><p>", "body(noscript(b),p)"),       # b is not special
    ("<body><noscript><svg></noscript><p>", "body(noscript(svg),p)"),
    ("<head><noscript><link></noscript><p>", "head(noscript(link)),p"),   # in head noscript
])
def test_noscript_end_tag_in_body_is_stopped_by_a_special_element(src, expected):
    # "any other end tag" in body: a special element open above <noscript> (itself
    # special) makes the parser ignore </noscript> (html5lib and lexbor agree)
    assert tree(src) == expected


@pytest.mark.parametrize("src, expected", [
    ("<head><meta></head><link>", "head(meta,link)"),
    ("<head></head><!-- x --> <style></style><script></script><p>", "head(style,script),p"),
    ("<html><head></head><template><div></div></template><p>", "html(head(template(div)),p)"),
    ("<head></head>text<link>", "head,link"),      # text began the body
    ("<head></head><p><link>", "head,p(link)"),
    # a void one ends the head it went into: what follows is body content (it went into
    # the head when the void element took a shortcut past the stack)
    ("<html><head></head><meta charset=utf-8>\n<div><p>x</div>", "html(head(meta),div(p))"),
    ("<head></head><link><base><br><div>x", "head(link,base),br,div"),
    ("<head></head><meta><x-a> <frameset><frame>", "head(meta),frameset(frame)"),   # x-a was body
    # "</html>" and "</body>" after the head imply the body: a <meta> then is body content
    ("<head></head></html><link><p>x", "head,link,p"),
    ("<html><head></head></html><meta><x-a> <frameset><frame>", "html(head,frameset(frame))"),
])
def test_head_tags_after_head_end_go_back_into_the_head(src, expected):
    assert tree(src) == expected


def test_reopened_head_ends_with_what_went_into_it():
    d = fp.parse("<head></head><title>T</title><p>x")
    head = d.find("head")
    assert head.html == "<head></head><title>T</title>"
    assert head.find("title").text == "T" and head.closed_by == "end-tag"
    assert d.find("p").parent.name != "head"


# ---- a <body> tag after body content ----

@pytest.mark.parametrize("src, expected", [
    ("<div><body class=a><p>y</div>z", "div(body,p)"),
    ("<head><noscript><p>x</noscript></head><body class=a><div>", "head(noscript),p(body),div"),
    ("<ruby><body><a>x", "ruby(body,a)"),
    ("<table><td><body><p>x", "table(td(body,p))"),
])
def test_body_tag_inside_open_content_is_an_empty_element(src, expected):
    # the spec implied the body at the first content and ignores this tag but for
    # its attributes: indexed empty (its attributes stay readable), what follows
    # keeps the parents the spec gives it (html5lib and lexbor agree)
    doc = fp.parse(src)
    assert tree(src) == expected
    body = doc.find("body")
    assert body.closed_by == "implied" and body.inner_html == "" and not body.children


def test_body_tag_after_closed_content_still_holds_what_follows():
    # nothing but html open: the body element starts here and holds the rest (the
    # spec's implied body also holds the <img> before it, which the index cannot)
    assert tree("<html><img><body class=a><p>x</body></html>") == "html(img,body(p))"
    assert fp.parse("<img><body class=a><p>x").find("body").get("class") == "a"


@pytest.mark.parametrize("src", ["<!DOCTYPE html><p>x</body>", "<!DOCTYPE html><p>x</body></html>",
                                 "<div>x</div></html>", "<html><p>x</body></html>",
                                 "<div><body><p>x</div></body>"])
def test_end_body_with_an_implied_body_in_scope_is_no_error(src):
    assert not fp.parse(src).errors


@pytest.mark.parametrize("src, expected", [
    # no <head> written: the </head> ends the implied one, so the noscript is body content
    ("<!DOCTYPE html><meta charset=utf-8></head><noscript><img src=x></noscript><p>",
     "meta,noscript(img),p"),
    ("<html><title>T</title></head><noscript><iframe src=a></iframe></noscript><body>",
     "html(title,noscript(iframe),body)"),
    # a </body> or </html> before any content implies the body first
    ("</body><noscript><p>x</noscript>", "noscript(p)"),
    ("<head></html><noscript><p>x", "head,noscript(p)"),
])
def test_end_head_body_html_without_their_elements_still_move_the_modes_on(src, expected):
    # html5lib and lexbor build these trees (less the implied elements)
    assert tree(src) == expected
    assert not [e for e in fp.parse(src).errors if e.code == "unexpected-end-tag"
                and src[e.offset:e.offset + 3] in ("</h", "</b")]


def test_head_tag_in_a_template_is_ignored():
    # "in template": <head> goes by the "in body" rules, which ignore it
    assert tree("<template><head><title>t</title><noscript><p>x") == "template(title,noscript(p))"


@pytest.mark.parametrize("src, expected", [
    ("<head><template><style>s</style><head></html><body><img>", "head(template(style,img))"),
    ("<template></br><td>", "template(td)"),                  # "in template" ignores end tags
    ("<template><div></br><td>", "template(div(br))"),         # in body there, </br> is a <br>
    ("<template><noscript><td></template><noscript><noscript><style>s</style><table>",
     "template(noscript),noscript(style),table"),   # template content does not begin the body
])
def test_template_content_keeps_its_own_rules(src, expected):
    # html5lib (older template rules) differs; lexbor builds these trees
    assert tree(src) == expected


@pytest.mark.parametrize("src, expected", [
    ("<noscript></div><noscript><meta></noscript><noscript><br>", "noscript(meta),noscript,br"),
    ("<noscript></html></noscript><noscript> <noscript>", "noscript,noscript"),
])
def test_head_noscript_ignores_end_tags_and_nested_noscript(src, expected):
    # "in head noscript": any end tag but </noscript> and </br>, and a <noscript>, are ignored
    assert tree(src) == expected


def test_frameset_before_the_body_needs_no_frameset_ok():
    # "after head" inserts a frameset whatever template content did to frameset-ok
    src = "<!DOCTYPE html><template><td><div><select><br><table><title>t</title></template><base><frameset>"
    assert tree(src) == "template(td(div(select(br,table,title)))),base,frameset"   # title: fostered


def test_noscript_in_the_implied_head_still_ends_at_body_content():
    # the <img> ends noscript and head and begins the body: the </head> after it is stray
    src = "<meta charset=utf-8><noscript><img src=x></noscript></head><p>"
    assert tree(src) == "meta,noscript,img,p"
    assert [src[e.offset:e.offset + 7] for e in fp.parse(src).errors] == ["</noscr", "</head>"]


def test_end_body_through_a_table_is_still_an_error():
    # the implied body is out of scope behind the table (a scope boundary)
    assert [e.code for e in fp.parse("<table><td>x</body>").errors] == ["unexpected-end-tag",
                                                                       "expected-closing-tag-but-got-eof"]


# ---- the adoption agency, without clones ----

def test_furthest_block_moves_out_of_the_formatting_element():
    d = fp.parse("<b>one<p>two</b>three</p>four")
    b, p = d.find("b"), d.find("p")
    assert outline(d) == "b,p"
    assert (b.closed_by, b.text, p.text) == ("end-tag", "one", "twothree")
    assert p.depth == 0 and p.parent is fp.MISSING


def test_nested_a_moves_the_block_out_and_nests_the_new_a():
    d = fp.parse("<a id=1>x<div>y<a id=2>z")
    assert [(t.name, t.parent.name if t.parent else None, t.depth) for t in d] == [
        ("a", None, 0), ("div", None, 0), ("a", "div", 1)]
    assert d.find(id="1").text == "x"


@pytest.mark.parametrize("src, expected, texts", [
    # the spec's next round, for the clone of <b> inside the block: what was
    # open in the block ends with the clone, and the text after it is the block's
    ("<b><p><span>x</b>y</p>", "b,p(span)", {"span": "x", "p": "xy"}),
    ("<b><div><span><p>x</b>y", "b,div(span,p)", {"span": "", "p": "xy"}),   # a block inside moves up
    ("<b><div><div><div>x</b>y", "b,div(div(div))", {"div": "xy"}),
    # a formatting element in the block ends with the clone as well; the text
    # that follows goes into the clone of it that the spec reopens, on the block
    ("<b><p><i><span>x</b>y", "b,p(i(span))", {"i": "x", "span": "x", "p": "xy"}),
    ("<a href=1><div><em>x</a>y</div>", "a,div(em)", {"em": "x", "div": "xy"}),
    ("<b><div><i>x</b>y<span>z", "b,div(i,span)", {"i": "x", "span": "z"}),
    # a block inside formatting elements moves up out of them, wrapped in their clones
    ("<b><div><i><div>x</b>y", "b,div(i,div)", {"i": "", "div": "xy"}),
    ("<em><blockquote><small><button>x</em>y", "em,blockquote(small,button)", {"small": "", "button": "xy"}),
    # a start tag run through the agency (<a> in an <a>) does the same
    ("<a id=1><p><span>x<a id=2>y", "a,p(span,a)", {"span": "x"}),
])
def test_adoption_agency_later_rounds_close_what_the_block_holds(src, expected, texts):
    d = fp.parse(src)
    assert outline(d) == expected
    for name, text in texts.items():
        assert d.find(name).text == text


@pytest.mark.parametrize("src, expected", [
    # </s> runs the agency for the clone of <s> the second <a> reopened; the clone of <u>
    # in it is between it and the <dl>, so it wraps the <dl> in a clone of its own: </u>
    # then closes the <font> the <dl> holds, and the script goes into the <dl>
    ("<a><s><u><a><dl></s><font></u><script></script>x", "a(s(u)),a,dl(font,script)"),
    # </i> runs it for the inner <i>'s clone, which is on the clone of the outer <i> (the
    # second round of <a> put both on the form): the block moves into that clone, and the
    # index holds what is in a clone in the element it is on, the form, which </form> took
    # off the stack
    ("<a><form><i><i><div><a></form></i>x", "a,form(i(i),div(a))"),
])
def test_adoption_agency_for_a_clone_counts_the_clones_inside_it(src, expected):
    # found by tools/clone_tree_diff.py (seeds 10134 and 10424, 40 tokens); html5lib and
    # lexbor agree
    assert outline(fp.parse(src)) == expected


@pytest.mark.parametrize("src, expected", [
    # </td> pops the marquee, whose marker the clear then takes: the cell's stays, so the
    # <em> the cell's end closed is still in the list, and the fostered <small> goes into
    # its clone, which </em> closes: the <nav> is fostered next to them, not in the small
    ("<table><td><em><marquee></td><small></em><nav>", "table(td(em(marquee))),small,nav"),
    # </table> pops a fostered object and leaves its marker: the <nobr> before it is no
    # longer the list's, so </nobr> is "any other end tag", which the <h1> stops
    ("<nobr><table><object></table><h1></nobr>", "nobr(table,object,h1)"),
])
def test_a_marker_whose_element_another_end_popped_stays_in_the_list(src, expected):
    # html5lib and lexbor agree (tools/clone_tree_diff.py, 40 and 60 tokens)
    assert outline(fp.parse(src)) == expected


def test_the_entries_after_a_stale_marker_stay_in_the_list():
    # <tr> pops the fostered object and the <tt> in it; the object's marker stays, and the
    # tt after it: the fostered <u> goes into the tt's clone, which </tt> closes, and "w"
    # goes into a clone of the u, not into the u (html5lib and lexbor agree)
    d = fp.parse("<table><object><tt><tr><u></tt>w")
    assert outline(d) == "table(tr),object(tt),u"
    assert d.find("u").text == ""


def test_the_adoption_agency_stops_after_eight_rounds_with_the_clone_open():
    # the eight rounds move the eight blocks up one by one; the clone of <strike> the last
    # round put into the last <ul> stays open, so the second </strike> runs the agency for
    # it, and the <div> after it goes into that <ul> (html5lib and lexbor agree)
    d = fp.parse("<strike><h1><blockquote><center><ul><h2><ul><h1><ul></strike><a></strike><div>")
    assert d.find("div").parent.index == d.find_all("ul")[-1].index


def test_a_clone_on_an_element_fostered_out_of_a_table_holds_what_the_table_would():
    # the clone of <big> is on the fostered <div>, not on the table: the form goes into it
    d = fp.parse("<table><div><strong><big></strong>t<form>")
    assert outline(d) == "table,div(strong(big),form)"


@pytest.mark.parametrize("src, expected", [
    ("<form><a>x</form><div>y<a>z</a></div>", "form(a),div(a)"),
    ("<div><form><b>x</form><p>y</b>z</div>", "div(form(b),p)"),
])
def test_adoption_agency_moves_the_block_below_a_form_its_end_tag_took_off_the_stack(src, expected):
    # </form> leaves the <a> or <b> open inside the form; the block opened after it moves
    # to the spec's common ancestor, the element below the formatting element on the
    # stack, not into the form (tools/mutated_pages_diff.py, seed 400925; lexbor agrees)
    d = fp.parse(src)
    assert outline(d) == expected
    form = d.find("form")
    assert form.closed_by == "end-tag" and form.html.endswith("</form>")


def test_adoption_agency_moves_a_block_of_any_size():
    # the spec moves the furthest block however much it holds (mechanize's GeneralSearch.html:
    # an unclosed <a><p>, a long table, then another <a>); a budget of twice the input's bytes
    # in rewritten depths keeps pathological nestings linear (test_pathological.py)
    d = fp.parse("<b>one<p>" + "<i></i>" * 200 + "two</b>three</p>")
    (p,) = d.find_all("p")
    assert p.parent is fp.MISSING and p.text == "twothree" and p.closed_by == "end-tag"
    src = ("<div id=wrap><font><div id=content>" + "<p>x</p>" * 500 +
           "</font></div><div id=footer>f</div></div>")
    assert [t.id for t in fp.parse(src).select("#wrap > div")] == ["content", "footer"]


@pytest.mark.parametrize("src, expected, fostered", [
    ("<table><b>1<p>2</b>3</p></table>", "table,b,p", "23"),
    ("<div><table><em>a<h1>b</em>c</h1>d</table></div>", "div(table,em,h1)", "bc"),
])
def test_adoption_agency_fosters_the_block_of_a_fostered_formatting_element(src, expected, fostered):
    # the common ancestor is the table: the block goes where foster parenting puts it,
    # before the table, a sibling of the formatting element (lexbor and html5lib agree)
    d = fp.parse(src)
    assert outline(d) == expected
    fe, block = d.find_all(["b", "em"])[0], d.find_all(["p", "h1"])[0]
    assert block.parent == fe.parent and block.text == fostered and block.depth == fe.depth
    assert block.prev_sibling() == fe and block.next_sibling().name == "table"


def test_adoption_agency_in_foreign_content_leaves_it():
    # </i> inside <math> reaches the agency through the HTML rules: its second
    # round pops the math elements, so <style> after it is HTML raw text
    d = fp.parse("<i><mi><ul><math><title>x</i><style><b></style>")
    assert outline(d) == "i(mi),ul(math(title),style)"
    assert d.find("style").text == "<b>" and d.find("math").closed_by == "parent-end"


def test_formatting_end_tag_without_a_block_closes_what_it_contains():
    d = fp.parse("<p><b><i>x</b>y</i>")
    assert outline(d) == "p(b(i))"
    assert d.find("i").closed_by == "parent-end"


@pytest.mark.parametrize("src, expected, name, text", [
    # html5lib-tests tests1.dat #54: </p> closed the inner <b>, which stays in the list of
    # active formatting elements; </b> finds it there, not open, and only removes it
    ("<b id=a><p><b id=b></p></b>TEST", "b(p(b))", "b", "TEST"),
    ("<b><i><b></i></b><p>y", "b(i(b),p)", "b", "y"),
    ("<b><p><b><p></b>x", "b(p(b),p)", "b", "x"),
    ("<b><li><b><li></b>x", "b(li(b),li)", "b", "x"),
    # the legacy pattern: the inner <font>'s end tag is the one </b> left in the list
    ("<font size=2><b><font color=red>t</b></font> more</font> after", "font(b(font))", "font", "t more"),
    ("<i>1<b>2<i>3</b>4</i>5</i>6", "i(b(i))", "i", "12345"),
    # </form> leaves font and b open; </b> closes the second <font>, which </font> finds
    ("<form><font><b></form><font></b></font>)", "form(font(b(font)))", "form", ")"),
    # <nobr> reconstructs first: the adoption agency then closes the clone, not the first
    ("<nobr><math><mi><p><nobr></p></mi></math><nobr>x", "nobr(math(mi(p(nobr))),nobr)", "nobr", "x"),
])
def test_an_end_tag_whose_formatting_element_another_end_closed_is_ignored(src, expected, name, text):
    doc = fp.parse(src)
    assert outline(doc) == expected
    assert doc.find(name).text == text


@pytest.mark.parametrize("src, expected, text", [
    # a cell's end clears the list to its marker: the <b> closed in it is gone, and
    # </b> closes the outer one
    ("<b><table><td><b>x</td></table></b>y", "b(table(td(b)))", "x"),
    # a marker opened after the closed <b> hides it from the </b> in the cell (ignored
    # there), not from the one after the table
    ("<b><div><b></div><table><td></b>z</td></table>w</b>v", "b(div(b),table(td))", "zwv"),
    # the open <b> is newer than the closed one: the first </b> closes it, the second
    # finds the closed one
    ("<b><div><b></div><b>q</b>r</b>s", "b(div(b),b)", "qrs"),
])
def test_a_formatting_element_closed_by_another_end_leaves_the_list_as_the_spec_says(src, expected, text):
    doc = fp.parse(src)
    assert outline(doc) == expected
    assert doc.find("b").text == text


@pytest.mark.parametrize("src, name, texts", [
    # text and most start tags reconstruct the closed <b> as a clone (not indexed); what
    # opens after that is inside the clone, and </b> ends it (html5lib and lexbor agree)
    ("<span><b></span><span></b>e", "span", ["", ""]),
    ("<p><b>x</p><span>y</b>z</span>w", "span", ["y"]),
    ("<p><b><i>x</p><span>y</b>z</span>w", "span", ["y"]),   # the <i> clone inside ends too
    ("<p><font>x</p><div><span>y</font>z</div>w", "div", ["yz"]),   # a block moves out of it
    ("<p><font>x</p><div><span>y</font>z</div>w", "span", ["y"]),
    ("<p><b>x</p><button>y</b>z</button>w", "button", ["yz"]),
    ("<p><b>x</p><svg><text>y</b>z</svg>q", "svg", ["y"]),
    # an <a> start tag closes the clone of the list's <a>, and what opened in it; behind a
    # table only removes it, and a later </a> finds none
    ("<p><a href=1>x</p><span>y<a href=2>z</a>w", "span", ["y"]),
    ("<p><a>x</p>y<table><a>z</a></table><i>q</a>w</i>", "i", ["qw"]),
    ("<p><nobr>x</p><span>y<nobr>z", "span", ["y"]),
    # text a table fosters reconstructs it before the table; whitespace there does not
    ("<p><b>x</p><table>y<span>q</b>r</table>", "span", ["q"]),
    ("<p><b>x</p><table> <tr><td><span>q</b>r</td></tr></table>", "span", ["qr"]),
    # in a cell as anywhere; a cell opened after the <b> is a marker that hides it: no
    # clone in the cell, its </b> ignored there, and after the table a clone again
    ("<table><tr><td><p><b>x</p>y<span>z</b>w</td></tr></table>", "span", ["z"]),
    ("<p><b>x</p><table><tr><td>y<span>z</b>w</td></tr></table>v<i>u</b>t</i>", "span", ["zw"]),
    ("<p><b>x</p><table><tr><td>y<span>z</b>w</td></tr></table>v<i>u</b>t</i>", "i", ["u"]),
    # the clone's parent ended: the next text makes another one, which </b> ends
    ("<p><b>x</p><p>y</p><em>z</b>w</em>", "em", ["z"]),
])
def test_the_clone_of_a_formatting_element_an_enclosing_end_closed_ends_at_its_end_tag(src, name, texts):
    assert [t.text for t in fp.parse(src).find_all(name)] == texts


@pytest.mark.parametrize("src, name, texts", [
    # the adoption agency wraps the block it moves in clones of the formatting elements
    # between: </i> then ends the <i> clone around the <div>, and the <span> in it
    ("<b><i><div>x</b>y<span>z</i>w</span>q", "span", ["z"]),
    ("<b><i><div>x</b>y<span>z</i>w</span>q", "div", ["xyzwq"]),
    # a <nobr> start tag moves the <button> out of the <nobr> clone: the <i> around it
    # stays open as a clone, and </i> moves the <h1> out of that (html5lib-tests tests26)
    ("<h1><nobr></h1><i><button><nobr></button><h1><svg></b><a></i>yx", "svg", [""]),
])
def test_the_adoption_agency_leaves_clones_of_the_formatting_elements_around_a_block(src, name, texts):
    assert [t.text for t in fp.parse(src).find_all(name)] == texts


def test_a_clone_open_in_a_form_keeps_the_form_open_past_its_end_tag():
    # </form> removes the form from the stack; the <b> clone in it stays open, and what
    # follows is the form's until the clone ends (a page template: four unclosed <a>
    # closed by </div>, then the scripts after </form> were the form's in the DOM)
    d = fp.parse("<div><form><p><b>x</p>y</form><span>z</span></b>w</div>v")
    assert d.find("form").text == "xyz" and d.find("span").parent.name == "form"
    assert d.find("div").text == "xyzw"
    assert fp.parse("<form><p><b>x</p></form>y").find("form").text == "x"   # no clone yet
    # the clone's end closes what opened in it, and the removed form ends with it; a block
    # opened after </form> moves out to the element below the form
    d = fp.parse("<div><form><p><b>x</p>y<span>z</form></b>w</div>v")
    assert (d.find("form").text, d.find("div").text) == ("xyz", "xyzw")
    d = fp.parse("<div><form><p><b>x</p>y<span>z</form><li>q</b>w</div>v")
    assert d.find("form").text == "xyz" and d.find("li").parent.name == "div" and d.find("li").text == "qw"
    # the adoption agency for an element opened inside such a clone: the block it moves
    # goes where the clone is, into the form, not below it
    d = fp.parse("<a><form><strong><a></form><button></a>x</button>y")
    assert d.find("button").parent.name == "form" and d.find("form").text == "xy"


def test_a_clone_fostered_before_a_table_takes_what_the_table_would_hold():
    # text in the table reconstructs the <b> before it; a script, a hidden input or a form
    # then go into the clone, before the table, until a row ends it
    d = fp.parse("<p><b>x</p><table>y<script>s</script><input type=hidden><form><tr><td>c</td></tr>"
                 "<script>t</script></table>")
    assert d.find("table").text == "ct"
    script, hidden, form = d.find("script"), d.find("input"), d.find("form")
    assert script.parent is fp.MISSING and hidden.parent is fp.MISSING and form.parent is fp.MISSING
    assert d.find_all("script")[1].parent.name == "table"   # after the row: the table's


def test_a_clone_is_the_current_node_a_heading_or_an_option_tag_looks_at():
    # "<h2>" closes an open heading only when it is the current node: the clone is
    d = fp.parse("<p><b>x</p><h1>y<h2>z</h2>w")
    assert d.find("h2").parent.name == "h1" and d.find("h1").text == "yzw"
    d = fp.parse("<option><p><b>x</p>y<option>z")
    assert d.find_all("option")[1].parent.name == "option"
    assert fp.parse("<h1>y<h2>z").find("h2").parent is fp.MISSING   # no clone: closed


@pytest.mark.parametrize("src", ["<body><svg></body><html>", "<body><math></body></html><html>x"])
def test_an_html_tag_in_foreign_content_after_body_end_is_content(src):
    # </body> in an svg switches to "after body" and closes nothing; an <html> tag there
    # is a foreign element (not one whose attributes merge), so the elements stay open
    # to the end of input instead of ending at </body>, before it (found by the fuzzer)
    d = fp.parse(src)
    html = d.find("html")
    assert html.parent.name in ("svg", "math") and html.closed_by == "eof"
    assert all(t.span[0] <= t.span[1] == len(src) for t in d)


def test_whitespace_in_a_table_goes_into_the_clone_fostered_on_it():
    # "in table text" keeps whitespace in the table, unless the current node is a clone
    # fostered there: the DOM's clone holds it, before the table (tricky01.dat #6)
    d = fp.parse("<table><center> <font>a</center> <img> <tr><td> </td> </tr> </table>")
    assert d.find("table").text == "    " and d.text == " a     "
    d = fp.parse("<p><b>x</p><table>y<br> <!--c--> <tr><td>c</td></tr> </table>")
    assert d.find("table").text == "c " and d.text == "xy  c "


def test_a_late_html_tag_is_not_indexed_while_a_clone_is_open():
    # the clone holds what follows, so the <html> tag only adds its attributes
    d = fp.parse("<p><a>x</p>y<html lang=en><span>z")
    assert d.find("html") is fp.MISSING and d.find("span").text == "z"
    assert fp.parse("<p><a>x</p><html lang=en><span>z").find("html").get("lang") == "en"   # none yet


@pytest.mark.parametrize("src, text", [
    # Noah's Ark (13.2.4.3): the list keeps three alike after its last marker, the earliest
    # going first: the outer <b>, then the first ghosts; three </b> find ghosts, the
    # fourth closes the outer one (html5lib and lexbor agree)
    ("<b>O<p><b>1</p><p><b>2</p><p><b>3</p><p><b>4</p><p><b>5</p></b></b></b></b>y", "O12345"),
    ("<font face=a>" + "".join(f"<p><font face=a>{k}</p>" for k in range(1, 5)) + "</font>" * 4 + "tail", "1234"),
    # attributes that differ make no three alike: each </b> finds its ghost
    ("<b>O<p><b id=1>1</p><p><b id=2>2</p><p><b id=3>3</p><p><b id=4>4</p></b></b></b></b>y", "O1234y"),
])
def test_the_list_keeps_three_formatting_elements_alike(src, text):
    assert fp.parse(src).find_all()[0].text == text


def test_a_behind_a_boundary_leaves_the_stack_and_keeps_what_is_open_inside():
    # a second <a> runs the adoption agency for the first, which does nothing when a table
    # or an integration point puts it out of scope; the first <a> still leaves the stack
    # (13.2.6.4.7, "a start tag whose tag name is a"), its open content stays in it
    d = fp.parse("<a><table><a></table><p>x")
    assert outline(d) == "a(table,a),p"   # index order: the fostered <a> where its tag is
    first, table = d.find("a"), d.find("table")
    assert first.closed_by == "implied" and first.span == (0, table.span[1]) and d.find("p").parent is fp.MISSING
    d = fp.parse("<svg><desc><a><table><a></table></svg><div>")
    assert outline(d) == "svg(desc(a(table,a))),div"   # </svg> closes the svg: no <a> holds it open


# ---- tokenizer details that change the index ----

@pytest.mark.parametrize("src, text", [
    ("<script></SCRIPT ", ""),
    ("<script><!--</script ", "<!--"),
    ("<xmp>foo</xmp ", "foo"),
    ("<textarea>a</textarea ", "a"),
    ("<xmp>a</xmp", "a</xmp"),          # no delimiter yet: not an end tag, so text
])
def test_raw_text_stops_before_an_end_tag_cut_by_eof(src, text):
    d = fp.parse(src)
    assert d[0].text == text and d.text == text


def test_tag_cut_by_eof_is_not_text():
    d = fp.parse("<div>x<span")
    assert [t.name for t in d] == ["div"] and d.text == "x"


def test_nul_in_a_tag_name_is_a_replacement_character():
    d = fp.parse("<di\x00v>x</di\x00v><p>")
    assert [(t.name, t.closed_by) for t in d] == [("di\ufffdv", "end-tag"), ("p", "eof")]


def test_image_is_img_only_in_html():
    assert [t.name for t in fp.parse("<p><image>")] == ["p", "img"]
    assert [t.name for t in fp.parse("<svg><image/></svg>")] == ["svg", "image"]


# ---- recovery="none": nesting exactly as written ----

@pytest.mark.parametrize("src, expected", [
    ("<table><div></div><table></table></table>", "table(div,table)"),
    ("<p><table></table></p>", "p(table)"),
    ("<frameset><div></div></frameset>", "frameset(div)"),
    ("<select><input><option><hr></option></select>", "select(input,option(hr))"),
    ("<template><td></td></template>", "template(td)"),
    ("<b><p></b></p>", "b(p)"),
    ("<td><tr></tr></td>", "td(tr)"),
])
def test_recovery_none_nests_as_written(src, expected):
    assert tree(src, recovery="none") == expected


# ---- linear time for the new rules (4x the size at most 5x the time; quadratic: 16x) ----
# Inputs repeat a bounded-depth unit, so the ratio measures the rules, not the
# cache footprint of a 40,000-deep stack (deep nesting: test_pathological.py).

def _time(src: str, loops: int) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(loops):
            fp.parse(src, max_depth=65535)
        best = min(best, time.perf_counter() - t)
    return best


@pytest.mark.parametrize("make", [
    lambda n: ("<section>" + "<b><div>" * 64 + "</b>" * 64 + "</section>") * (n // 64),  # adoption
    lambda n: "<table><tr>" + "<div><a>" * n + "</table>",       # fostered content
    lambda n: "<svg>" + "<tr>" * n + "<title>" + "<td>" * n,     # svg rows above HTML cells
    lambda n: ("<template>" * 64 + "<tr><td>" * 64 + "</template>" * 64) * (n // 64),  # templates
    lambda n: "<select>" + "<optgroup><option><hr>" * n,         # select implied ends
    lambda n: ("<section>" + "<form><div>" * 64 + "</form>" * 64 + "</section>") * (n // 64),
], ids=["adoption", "foster", "svg-rows", "templates", "select-hr", "form-end"])
def test_new_rules_parse_in_linear_time(make):
    # 4x the input, not 2x: linear work takes 4x the time, quadratic 16x, so the bound
    # (5x) leaves a busy machine room where 2.3x against 2x did not (2.31x, flat 1.93x, in
    # a CI run); a quadratic part of a fifth of the time at the small size still fails it
    n = 2048   # both sizes' index fits in L2: the ratio measures the rules, not cache misses
    small, big = make(n), make(4 * n)
    if os.environ.get("FASTPARSE_SANITIZER_RUN") == "1":
        # a sanitized build's checks and allocator set the times: parse both sizes (memory
        # errors), assert nothing about speed (tools/sanitizer_tests.sh; clang UBSan: 6.11x)
        fp.parse(small, max_depth=65535)
        fp.parse(big, max_depth=65535)
        return
    loops = 1
    while _time(small, loops) < 0.02 and loops < 256:   # measure at least ~20 ms
        loops *= 2
    # a cache level can end between the two sizes (seen here: 2048 -> 4096 costs 2.5x on
    # any input); then the bound is relative to flat markup with the same element count.
    # The four inputs are timed in turn and each keeps its best time: a busy spell of the
    # machine slows one round of all four, not one input against the others
    inputs = {"small": small, "big": big, "flat_small": _flat_like(small), "flat_big": _flat_like(big)}
    best = dict.fromkeys(inputs, float("inf"))
    for _ in range(5):
        for key, src in inputs.items():
            best[key] = min(best[key], _time(src, loops))
        ratio = best["big"] / best["small"]
        flat = best["flat_big"] / best["flat_small"]
        if ratio <= 5.0 or ratio <= 1.3 * flat:
            break
    else:
        pytest.fail(f"4x the input costs {ratio:.2f}x the time (flat markup: {flat:.2f}x)")


def _flat_like(src: str) -> str:
    """Sibling elements, no nesting rules at play, as many tags as src has."""
    return "<i></i>" * (src.count("<") // 2)


@pytest.mark.parametrize("src, text", [
    ("<math><mi><![CDATA[x]]></mi></math>", "x"),      # the adjusted current node is MathML
    ("<svg><foreignObject><![CDATA[x]]></foreignObject></svg>", "x"),
    ("<svg><foreignObject><b><![CDATA[x]]></b></foreignObject></svg>", ""),   # an HTML <b>: a comment
    ("<math><mi><![CDATA[a\x00b]]></mi></math>", "ab"),  # HTML rules at a text integration point
    ("<svg><![CDATA[a\x00b]]></svg>", "a\ufffdb"),
])
def test_cdata_opens_in_every_foreign_element_integration_points_included(src, text):
    doc = fp.parse(src)
    assert doc.text == text
    assert bool(doc.comments) == (text == "")


@pytest.mark.parametrize("context, text", [
    ("svg svg", "\ufffdax\ufffdb"), ("math math", "\ufffdax\ufffdb"),
    ("math mi", "axb"), ("svg foreignObject", "axb"), ("div", "ab"),
])
def test_top_level_text_of_a_fragment_follows_its_context(context, text):
    # a foreign context makes the top level foreign content: NUL is U+FFFD, CDATA is text
    assert fp.parse_fragment("\x00a<![CDATA[x]]><g>\x00b</g>", context=context).text == text


def test_a_select_fragment_holds_no_select():
    # fragment case: <select> with a select context is ignored, as <input> is
    assert frag("<option>a<select><option>b", "select") == "option,option"


# ---- a stray </p>: the empty <p> the spec inserts (13.2.6.4.7, end tag "p"), each a tree lexbor builds

@pytest.mark.parametrize("src, expected", [
    ("<div>a</p>b</div>", "div(p)"),
    ("<p>a</p></p>b", "p,p"),
    ("<p>a<div>b</div></p>", "p,div,p"),                            # the div closed the p
    ("<button><p>a</button></p>", "button(p),p"),                   # button scope
    ("<table><tr><td>x</td></tr></p></table>", "table(tr(td)),p"),  # fostered: the table's sibling
    ("<select><option>a</p>b</select>", "select(option(p))"),       # 2025 select parsing: in body rules
    ("<svg><g></p></g></svg>x", "svg(g),p"),                        # out of foreign content first
    ("<template><div></p></div></template>", "template(div(p))"),  # the template's content is in body
    ("<body></p>", "body(p)"),
    ("</body></p>", "p"),                                           # "after body" goes back in body
])
def test_stray_end_p_makes_an_empty_p(src, expected):
    assert tree(src) == expected
    p = [t for t in fp.parse(src) if t.name == "p"][-1]
    assert p.html == "</p>" and p.text == "" and p.closed_by == "end-tag"


@pytest.mark.parametrize("src, expected", [
    ("</p>x", ""),                                  # "before html"
    ("<html></p>x", "html"),                        # "before head"
    ("<head></p><title>t</title></head>", "head(title)"),   # "in head"
    ("<meta></head></p>x", "meta"),                 # "after head" (of the implied head)
    ("<template></p></template>", "template"),      # "in template", before its content
    ("&#32;&Tab;</p>x", ""),                        # whitespace references are whitespace
    ("<p>x</p>", "p"),
])
def test_stray_end_p_is_ignored_where_the_spec_ignores_it(src, expected):
    assert tree(src) == expected


@pytest.mark.parametrize("src, expected", [
    ("</p>x", []),
    ("</p><th><thead/><table/><col><a>", ["th", "a"]),   # the <th> still decides the mode
    ("<div></p>", ["div", "p"]),                         # "in body" by then
])
def test_stray_end_p_in_a_template_fragment_before_its_content_is_ignored(src, expected):
    # the context's "in template" mode ignores it, and the first start tag then decides
    # how the content nests (random_tree_diff --tables --context template; lexbor agrees)
    assert [t.name for t in fp.parse_fragment(src, context="template")] == expected


@pytest.mark.parametrize("src, expected", [
    ("<template>a</template></p>x", ["template"]),       # still "in head": </p> ignored
    ("<template>&amp;<select></div>x</template></p>", ["template", "select"]),
    ("<head></head><template>x</template><meta>", ["head", "template", "meta"]),   # "after head"
])
def test_text_in_a_template_before_the_body_does_not_begin_the_body(src, expected):
    # the template's text is its content (random_tree_diff, select pool; lexbor agrees)
    doc = fp.parse(src)
    assert [t.name for t in doc] == expected
    if "<head>" in src:
        assert doc.find("meta").parent.name == "head"


def test_recovery_none_indexes_no_element_for_a_stray_end_p():
    assert tree("<div>a</p>b</div>", recovery="none") == "div"


def test_whitespace_references_before_content_do_not_begin_the_body():
    # "&#32;" is a space to the tree builder: a <frameset> after it still replaces the body
    assert tree("&#32;&#x0A;&NewLine;<frameset>") == "frameset"
    assert tree("&#33;<frameset>") == ""            # "!" is content: the frameset is ignored
    assert tree("<svg><![CDATA[&#32;]]></svg><frameset>") == "svg"   # CDATA decodes no reference


# "in body": a later <html> or <body> start tag adds the attributes the element lacks
def test_a_later_html_or_body_tag_adds_its_attributes():
    d = fp.parse('<html lang=en><body class=a><div><body id=b class=ignored href=x><html data-x="1" lang=fr>'
                 '<p>text</p><body title="t">')
    html, body = d.find("html"), d.find("body")
    assert html.attrs == {"lang": "en", "data-x": "1"}
    assert body.attrs == {"class": "a", "id": "b", "href": "x", "title": "t"}
    assert body.get("title") == "t" and "href" in body and body.id == "b" and body.classes == ["a"]
    assert d.select("body#b[href=x][title^=t].a") == [body] and d.select('html[data-x="1"]:lang(en)') == [html]
    assert d.find_all(id="b") == [body] and body.matches("[title]") and not body.matches(".ignored")
    assert body.html.startswith("<body class=a>")   # the source as written
    assert [e.code for e in d.errors].count("unexpected-start-tag") == 3


def test_a_later_tag_in_a_template_or_without_an_indexed_element_adds_nothing():
    d = fp.parse("<html><body class=a><template><body id=t><html id=u></template>")
    assert d.find("body").attrs == {"class": "a"} and d.find("html").attrs == {}
    assert fp.parse("<p>x<body id=b>").find("body").attrs == {"id": "b"}   # the first <body> indexed
    assert fp.parse("<p>x<html id=h>").find("html") is fp.MISSING            # implied: not indexed
    assert fp.parse_fragment("<body id=b><html id=h><p>", "div").select("[id]") == []


def test_an_html_tag_after_closed_top_level_elements_is_the_root():
    # a server's warning printed before the doctype, a <meta> or <script> before <html>: the
    # spec merges the tag's attributes into the html element it implied; indexed where it
    # stands, it holds what follows and its attributes reach find(), :lang() and :dir()
    src = ('<br />\n<b>Warning</b>: x in <b>/a.php</b><br />\n<!DOCTYPE html>\n<html lang="en" dir="rtl">\n'
           '<head><meta charset="utf-8"><title>T</title></head>\n<body class=k><p>hi</p></body></html>')
    doc = fp.parse(src)
    html = doc.find("html")
    assert html.attrs == {"lang": "en", "dir": "rtl"} and doc.root == html and html.parent is fp.MISSING
    assert [t.name for t in html.children] == ["meta", "title", "body"]   # the <head> tag: ignored
    assert doc.find("body").get("class") == "k" and doc.find("body").parent == html
    assert [t.name for t in doc.select("p:lang(en):dir(rtl)")] == ["p"]
    assert doc.select(":root > body") == [doc.find("body")]
    assert doc.find("title").text == "T" and "Warning: x in /a.php" in doc.text
    assert tree("<meta charset=utf-8><html lang=en><p>x") == "meta,html(p)"
    assert tree("<script>s</script><html><body><p>x") == "script,html(body(p))"
