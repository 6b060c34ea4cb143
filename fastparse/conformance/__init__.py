"""Conformance harness: fastparse and its peers against the HTML Standard's test suites.

Why it exists: issue 2 (tokenizer suite) and issue 3 (tree construction, malformed
snippets) ask for figures that are comparable across parsers, so every parser is reduced
to one *neutral tree* (element names, parent links, text) and scored the same way. The
test modules, the report script and the notebooks all import this module.

Tree construction (``html5lib-tests/tree-construction/*.dat``), per case:

* The expected ``#document`` dump is read into a neutral tree. Element names are
  lower-case local names without the namespace designator (``svg foreignObject`` ->
  ``foreignobject``). Template ``content`` is transparent: its children count as children
  of the ``<template>``, as they sit in the source and in fastparse's flat index.
* **Splice**: every element whose name has no start tag anywhere in ``#data`` is removed
  and its children lifted to its parent. "Has a start tag" is ``<name`` followed by a tag
  name terminator (whitespace, ``/``, ``>``) or the end, case-insensitive, anywhere in the
  data (comments and attribute values included: a conservative, simple rule). A bare
  substring check would keep an implied ``<head>`` whenever ``<header`` occurs.
  The same splice is applied to every parser's tree.
* **exact**: the pre-order list of (depth, name) after splicing is identical. For
  fastparse the order is document (source) order, so foster-parented elements count as
  a miss here; parent agreement is the metric that forgives order.
* **parent**: for the k-th element of each name in the expected tree, the parser's k-th
  element of that name exists and has a nearest kept ancestor of the same name (or both
  are top level). The fraction of expected elements that agree; 1.0 when the expected
  tree keeps no element; mean over cases. Extra elements do not lower it (exact catches
  them); scoring over the union of both trees instead lowers the non-spec parsers by
  about 3 points (lxml 87%, bs4 html.parser 85%) and moves them away from the issue's
  reference figures, which this definition reproduces within 2 points.
* **text**: the concatenated text nodes (comments, doctype, attributes excluded; template
  contents included), ASCII whitespace collapsed to one space and stripped, are equal.
  fastparse's side is ``doc.text``.
* Scripting: a case marked ``#script-on`` runs with the scripting flag on for parsers
  that have one (fastparse: ``parse(data, scripting=True)``); a parser without the flag
  skips those cases (listed as skipped with the reason). Unmarked cases run once, with
  scripting off (the spec says both modes; the 2 x run would only duplicate them).
* Fragment cases (``#document-fragment``) go through each parser's fragment API with the
  context element (namespace included where the API takes one). lxml and BeautifulSoup
  have no fragment parser: they parse the data as a document, and the splice removes the
  html/head/body they add. A fastparse context it rejects is a skipped case, not a miss.
* ``tree-construction/scripted/`` is not run: its cases need a script engine
  (document.write).

Measured on the 1792 cases (html5lib-tests 9329e64; selectolax 1.0.2, html5lib 1.1,
lxml 6.1.3, bs4 4.15.0, markupever 0.4.0, turbohtml 1.15.4), against the issue's reference:

    parser            cases  exact%  parent%  text%    issue says
    selectolax         1792   100.0   100.00  100.0    100 / 100
    turbohtml          1792   100.0   100.00  100.0    -
    markupever         1765    99.9    99.97   99.8    99 / 99.7   (27 script-off skipped)
    html5lib           1729    91.4    96.19   99.3    91 / 96     (63 svg/math contexts skipped)
    lxml               1784    72.8    90.35   94.6    71 / 89
    bs4 (lxml)         1784    72.5    90.55   95.3    74 / 92
    bs4 (html.parser)  1784    67.5    89.16   82.2    69 / 90

The remaining gaps (within 2 points) are consistent with other library versions or with
running the peers on script-on cases; the choices above were checked one by one: a
substring "has a start tag" test moves no figure by more than 0.2 points, the union
denominator for parent agreement lowers the non-spec parsers by about 3 points.
Known peer deviations the figures include: html5lib 1.1 predates the 2025 select and
template changes; markupever (html5ever) has no scripting-off mode and does not clone
<option> content into <selectedcontent>; turbohtml, like fastparse, reads "<?x>" as
the processing instruction the HTML Standard has parsed since 2026-06 (the suite's tokenizer
tests predate it: they are excluded), which only the tokenizer view sees.

Tokenizer (``html5lib-tests/tokenizer/*.test``): see :func:`tokenizer_check`.

Modules: ``suites`` (where the suites are, reading .dat files), ``trees`` (the neutral
tree, splice, score), ``adapters`` (one function per parser), ``results`` (running a
suite, figures, expected differences) and ``tokenizer`` (the tokenizer suite); every
public name is importable from the package, as from the single module it was before.
"""

from __future__ import annotations

from .adapters import (  # noqa: F401 (re-exported: the package's public names)
    TREE_ADAPTERS,
    Skip,
    bs4_htmlparser_tree,
    bs4_lxml_tree,
    fastparse_neutral,
    fastparse_tree,
    html5lib_tree,
    installed_tree_adapters,
    lxml_tree,
    markupever_tree,
    selectolax_tree,
    turbohtml_tree,
)
from .results import (  # noqa: F401 (re-exported: the package's public names)
    CaseResult,
    Figures,
    expected_difference,
    explained_miss,
    explained_text_miss,
    figures,
    format_table,
    per_file,
    run_tree_case,
    run_tree_suite,
)
from .suites import (  # noqa: F401 (re-exported: the package's public names)
    CORPORA,
    MALFORMED_CASES,
    REPO_ROOT,
    TOKENIZER_DIR,
    TREE_DIR,
    TreeCase,
    collapse_ws,
    read_dat,
    read_tree_cases,
)
from .tokenizer import (  # noqa: F401 (re-exported: the package's public names)
    NOT_EXPOSED,
    TOKEN_VIEWS,
    TokenizerTest,
    TokenView,
    fastparse_token_view,
    read_tokenizer_tests,
    tokenizer_check,
    tokenizer_document,
    tokenizer_exclusion,
    turbohtml_token_view,
)
from .trees import (  # noqa: F401 (re-exported: the package's public names)
    CaseScore,
    NeutralTree,
    Spliced,
    expected_tree,
    format_outline,
    has_start_tag,
    outline_of,
    score,
    splice,
    spliced_outline,
    tree_from_events,
)
