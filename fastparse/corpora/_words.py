"""Deterministic filler text for the generated pages.

Every generator draws from a `random.Random(seed)`, so a page is the same bytes
on every machine and Python version (only `random()`, `choice` and `randrange`
are used; their algorithms are stable across CPython releases)."""
from __future__ import annotations

import random

WORDS = ["the", "of", "and", "to", "in", "is", "that", "for", "it", "as", "was", "with", "be", "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have", "an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has", "there", "been", "if", "more", "when", "will", "would", "who", "so", "no", "parser", "index", "element", "attribute", "scanner", "token", "stack", "memory", "benchmark", "corpus", "page", "document", "market", "river", "garden", "window", "signal", "harbour", "lantern", "meadow", "copper", "violet", "summit", "orchard", "canyon", "ember", "quiet", "rapid", "golden", "silent", "hidden", "gentle", "distant", "modern", "ancient", "bright", "narrow", "hollow"]

NAMES = (
    "Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov",
    "Donald Knuth", "Margaret Hamilton", "Ken Thompson", "Frances Allen", "John Backus",
    "Katherine Johnson", "Dennis Ritchie", "Radia Perlman", "Niklaus Wirth", "Hedy Lamarr",
)

ACCENTED = ("café", "naïve", "façade", "Zürich", "São Paulo", "smörgåsbord", "Ελλάδα", "東京", "Kraków")


def rng(seed: int) -> random.Random:
    return random.Random(seed)


def words(r: random.Random, n: int) -> str:
    return " ".join(r.choice(WORDS) for _ in range(n))


def sentence(r: random.Random, lo: int = 6, hi: int = 18) -> str:
    s = words(r, lo + r.randrange(hi - lo + 1))
    if r.random() < 0.15:
        s += " " + r.choice(ACCENTED)
    return s[0].upper() + s[1:] + "."


def title(r: random.Random, lo: int = 2, hi: int = 6) -> str:
    return " ".join(w.capitalize() for w in words(r, lo + r.randrange(hi - lo + 1)).split())


def slug(text: str) -> str:
    return "-".join(text.lower().split())[:60]


def js_blob(r: random.Random, size: int) -> str:
    """Inline-script filler that exercises script data: '<' comparisons, markup
    in strings (with the usual '<\\/' escape), JSON, and comment-like text."""
    parts, n = [], 0
    while n < size:
        k = r.randrange(6)
        if k == 0:
            s = f"if (a{r.randrange(99)} < b && c > {r.randrange(999)}) {{ count += {r.randrange(9)}; }}\n"
        elif k == 1:
            s = f"var tpl{r.randrange(999)} = '<div class=\"w\"><span>{words(r, 3)}</span><\\/div>';\n"
        elif k == 2:
            items = ",".join(f'"{w}":{r.randrange(1000)}' for w in words(r, 6).split())
            s = f"window.__state = {{{items}, \"html\": \"<p>{words(r, 4)}<\\/p>\"}};\n"
        elif k == 3:
            s = f"for (var i = 0; i < n; i++) {{ out.push(list[i] << 1); }} // {words(r, 5)}\n"
        elif k == 4:
            s = f"document.write('<!-- ' + \"{words(r, 3)}\" + ' -->');\n"
        else:
            s = f"function f{r.randrange(9999)}(x) {{ return x.replace(/&amp;/g, '&').split('<'); }}\n"
        parts.append(s)
        n += len(s)
    return "".join(parts)
