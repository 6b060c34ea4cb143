"""The encoding guess on translations: each language of a gettext catalog written in every
legacy encoding that can write it, undeclared, at four sizes.

    pip download --no-deps --no-binary :all: django==5.2.20 && tar xzf django-5.2.20.tar.gz
    python tools/guess_po_report.py django-5.2.20/django [--mixes 36000]

Every translated message (msgstr) of each language's .po files under DIR, in a <p> each, makes
pages of 300, 1,000, 4,000 and 20,000 bytes of text; a page is written in each encoding
below that writes nine in ten of the messages (those it cannot write left out). The guess
should name the encoding, or one that reads the page alike (KOI8-U a KOI8-R one; windows-1250
an ISO-8859-2 one without the letters they write apart), or nothing
(windows-1252, the fallback; "utf-8" for a copy whose text is ASCII): anything else is a
wrong guess, and each is printed. Django's catalogs have 100 languages, 15 scripts. With
--mixes N, also N pages of messages drawn from one to five Western languages at random, in
windows-1252, which should stay windows-1252.
"""
from __future__ import annotations

import argparse
import collections
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fastparse as fp
from fastparse.encoding import lookup

# the Python codec a copy is written with, and the name the guess should give
ENCODINGS = {
    "cp1250": "windows-1250", "iso8859_2": "iso-8859-2", "cp1251": "windows-1251", "koi8_r": "koi8-u",
    "koi8_u": "koi8-u", "mac_cyrillic": "x-mac-cyrillic", "cp866": "ibm866", "iso8859_5": "iso-8859-5",
    "cp1252": "windows-1252", "cp1253": "windows-1253", "iso8859_7": "windows-1253", "cp1254": "windows-1254",
    "cp1255": "windows-1255", "iso8859_8": "windows-1255", "cp1256": "windows-1256", "iso8859_6": "iso-8859-6",
    "cp1257": "windows-1257", "iso8859_4": "iso-8859-4", "iso8859_13": "iso-8859-13", "iso8859_15": "iso-8859-15",
    "iso8859_16": "iso-8859-16", "mac_roman": "macintosh", "cp874": "windows-874", "shift_jis": "shift_jis",
    "euc_jp": "euc-jp", "euc_kr": "euc-kr", "cp949": "euc-kr", "gbk": "gbk", "gb18030": "gbk", "big5": "big5",
}
SIZES = (300, 1_000, 4_000, 20_000)
WESTERN = ("de", "fr", "es", "it", "pt", "nl", "sv", "da", "nb", "nn", "is", "fi", "ca", "ga", "cy", "eu", "gl",
           "af", "sq", "en_GB", "et", "br", "lb", "ia", "io", "eo", "id", "ms", "sw", "fy", "ast")
FALLBACKS = ("windows-1252", "utf-8")
MSGSTR = re.compile(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', re.MULTILINE)


def messages(catalogs: list[Path]) -> list[str]:
    """The translated messages of the catalogs, the header left out"""
    found = []
    for po in catalogs:
        for m in MSGSTR.finditer(po.read_text("utf-8", "replace")):
            text = "".join(re.findall(r'"(.*)"', m.group(1))).replace("\\n", " ").replace('\\"', '"')
            if text.strip() and "Content-Type:" not in text:
                found.append(text)
    return found


def written_in(texts: list[str], codec: str) -> list[bytes]:
    """The texts the codec can write, written"""
    written = []
    for text in texts:
        try:
            written.append(text.encode(codec))
        except UnicodeEncodeError:
            pass
    return written


def western_mixes(by_language: dict[str, list[Path]], pages: int) -> None:
    """Pages of messages drawn from one to five Western languages at random, in
    windows-1252: each should stay windows-1252 (or read as UTF-8, all ASCII)"""
    written = {language: written_in(messages(by_language.get(language, [])), "cp1252") for language in WESTERN}
    rnd, wrong = random.Random(20261208), collections.Counter()
    for _ in range(pages):
        languages = rnd.sample([la for la in WESTERN if written[la]], rnd.choice([1, 2, 3, 5]))
        body = b"".join(b"<p>" + rnd.choice(written[rnd.choice(languages)]) + b"</p>"
                        for _ in range(rnd.choice([5, 20, 80, 300])))
        answer = fp.parse(b"<title>x</title>" + body).encoding
        if answer not in FALLBACKS:
            wrong[answer] += 1
    print(f"{pages} mixes of Western languages in windows-1252: {sum(wrong.values())} guessed otherwise"
          + "".join(f", {n} as {name}" for name, n in wrong.items()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", type=Path, help="a folder with locale/<language>/LC_MESSAGES/*.po files under it")
    ap.add_argument("--mixes", type=int, default=0, help="also this many pages of mixed Western languages")
    args = ap.parse_args()
    by_language = collections.defaultdict(list)
    for po in sorted(args.dir.rglob("locale/*/LC_MESSAGES/*.po")):
        by_language[po.parent.parent.name].append(po)
    if args.mixes:
        western_mixes(by_language, args.mixes)
    right, copies, wrong = collections.Counter(), collections.Counter(), []
    for language, catalogs in sorted(by_language.items()):
        texts = messages(catalogs)
        for codec, name in ENCODINGS.items():
            written = written_in(texts, codec)
            if not texts or len(written) * 10 < len(texts) * 9:
                continue
            for size in SIZES:
                body, length = [], 0
                for text in written:
                    body.append(b"<p>" + text + b"</p>\n")
                    length += len(text)
                    if length >= size:
                        break
                page = b"<!doctype html><html><head><title>x</title></head><body>\n" + b"".join(body)
                answer = fp.parse(page).encoding
                copies[codec] += 1
                # a guess that reads the page as its own encoding does is right too
                ok = answer == name or page.decode(lookup(answer)[1], "replace") == page.decode(codec, "replace")
                right[codec] += ok
                if not ok and answer not in FALLBACKS:
                    wrong.append(f"  {language} in {codec}, {size} bytes: guessed {answer}")
    for codec, name in ENCODINGS.items():
        if copies[codec]:
            print(f"{codec:13} {right[codec]:4} of {copies[codec]:4} copies read as {name} reads them")
    print(f"{len(wrong)} wrong guesses in {sum(copies.values())} copies")
    print("\n".join(wrong))
    return 0


if __name__ == "__main__":
    sys.exit(main())
