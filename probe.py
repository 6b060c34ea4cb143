import sys

import html5lib
from selectolax.lexbor import LexborHTMLParser

import fastparse as fp


def fp_tree(s):
    d = fp.parse(s)
    out = []
    for t in d:
        out.append((t.name, t.parent.name if t.parent else None, t.text))
    return out
def lb_tree(s):
    t = LexborHTMLParser(s)
    out = []
    for n in t.root.traverse():
        if n.tag.startswith("-"): continue
        out.append((n.tag, n.parent.tag if n.parent else None, n.text(deep=True)))
    return out
def h5_tree(s):
    doc = html5lib.parse(s, namespaceHTMLElements=False)
    out = []
    def walk(e, parent):
        if isinstance(e.tag, str):
            out.append((e.tag.split('}')[-1], parent, "".join(e.itertext())))
            for c in e: walk(c, e.tag.split('}')[-1])
    walk(doc, None)
    return out
for s in sys.argv[1:]:
    print("SRC", repr(s))
    print(" fp ", fp_tree(s))
    print(" lb ", lb_tree(s))
    print(" h5 ", h5_tree(s))
