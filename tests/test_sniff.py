"""sniff(): what a body served as text/html really is."""

from __future__ import annotations

import csv
import gzip
import io
import json
import zipfile
from pathlib import Path

import pytest

from fastparse.sniff import sniff

CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


def _corpus_pages() -> list[str]:
    manifest = CORPORA / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    with manifest.open(newline="", encoding="utf-8") as f:
        return [row["path"] for row in csv.DictReader(f, delimiter="\t")]


PAGES = _corpus_pages()


@pytest.mark.skipif(not PAGES, reason=f"corpus not found at {CORPORA} (../shared/corpora from the repo root)")
@pytest.mark.parametrize("path", PAGES or ["none"])
def test_corpus_pages_are_html(path):
    assert sniff((CORPORA / path).read_bytes()) == "html"


@pytest.mark.parametrize("data", [
    b"<!DOCTYPE html><html><head><title>x</title>",
    b"\n\n  <!doctype HTML>\n<html>",
    b'<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN">',
    b"<html lang=en>",
    b"<HEAD><TITLE>old</TITLE>",
    b"<div class=a>fragment</div>",
    b"<p>text",
    b"<br>",
    b"<table><tr><td>1",
    b"<my-widget></my-widget>",           # a custom element
    b"<!-- generated --><div>",
    b"<!-- unclosed comment",
    b"</div>stray end tag",
    b"\xef\xbb\xbf<!DOCTYPE html>",
    b"\xef\xbb\xbf\xef\xbb\xbf\n<html>",     # templates concatenated with their BOMs
    (b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
     b'"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml">'),
    b'<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">',
    b"\xff\xfe" + "<html><p>é".encode("utf-16-le"),
    b"\xfe\xff" + "<!DOCTYPE html>".encode("utf-16-be"),
    "<html><p>naïve</p>".encode("cp1252"),
    b"<html>\x00 a stray NUL after the markup",
    "<p>x</p>".encode("utf-16-le"),   # UTF-16 without a BOM, which parse() reads: its NULs are not binary
    "\n<!DOCTYPE html><title>\u4e2d</title>".encode("utf-16-be"),
])
def test_html(data):
    assert sniff(data) == "html"


@pytest.mark.parametrize("data", [
    b'<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>t</title>',
    b'<rss version="2.0"><channel>',
    b'<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>x</title>',
    b'<feed xmlns="http://www.w3.org/2005/Atom">',
    b'<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    b'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    b'<svg xmlns="http://www.w3.org/2000/svg" width="10"><rect/></svg>',
    b'<?xml version="1.0"?><note><to>Tove</to></note>',
    b'<?xml version="1.0"?>\n<!-- a feed -->\n<?xml-stylesheet href="s.xsl"?>\n<rss>',
    b'<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "x"><plist version="1.0">',
    b'<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">',
    b'<?xml version="1.0" encoding="utf-8"?>',
])
def test_xml(data):
    assert sniff(data) == "xml"


@pytest.mark.parametrize("data", [
    b'{"a": 1, "b": [true, false, null], "c": {"d": "e\\u00e9\\n"}}',
    b'  \n[1, -2.5e-3, "x", {"k": []}]',
    b"[]",
    b"{}",
    json.dumps({"items": [{"id": i, "name": f"item {i}"} for i in range(500)]}).encode(),  # cut at the head
    b'{"html": "<div>not markup</div>"}',
    b'{"a": 1}\n{"a": 2}\n',                                     # JSON Lines
    b")]}'\n{\"a\": 1}",                                         # anti-XSSI prefix
    b'{"long": "' + b"x" * 10000 + b'"}',                         # a string cut by the head
    b"\xef\xbb\xbf{\"a\": 1}",
])
def test_json(data):
    assert sniff(data) == "json"


@pytest.mark.parametrize("data", [
    b"[1] Smith, J. (2020). A paper.",       # a citation, not JSON
    b"[link text](https://example.com)",      # Markdown
    b"{{ template }}",                        # a template
    b'{"a": 1} trailing words',
    b'{"a" 1}',
    b"{'single': 'quotes'}",
])
def test_braces_that_are_not_json_are_text(data):
    assert sniff(data) == "text"


def _png() -> bytes:
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"


def _zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("index.html", "<html></html>")
    return buf.getvalue()


@pytest.mark.parametrize("data", [
    _png(),
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00",
    b"\xff\xd8\xff\xe0\x00\x10JFIF\x00",
    b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj",
    _zip(),
    gzip.compress(b"<html><body>compressed twice</body></html>"),
    b"RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00",
    b"\x00\x00\x00\x20ftypisom\x00\x00\x02\x00",
    b"wOF2\x00\x01\x00\x00",
    b"\x7fELF\x02\x01\x01\x00",
    b"\x00\x01\x02\x03 random bytes",
    b"text then a control byte \x01 in the header",
    "x<p>".encode("utf-16-le"),   # NULs between letters, but not the shape of markup in UTF-16
    b"".join(n.to_bytes(2, "little") for n in range(10, 200)),   # 16-bit numbers of that shape
])
def test_binary(data):
    assert sniff(data) == "binary"


@pytest.mark.parametrize("data", [
    b"",
    b"   \n\t  \r\n",
    b"Hello, world.\nPlain text.",
    b"-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n",
    b"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n",
    b"< 5 is less than 6",
    b"BMW and MZ start like bitmaps and programs",
    b"\x1b$B escape-sequence text (ISO-2022-JP) is text",
    "Grüße aus Köln".encode(),
    "Grüße".encode("cp1252"),
    b"\xef\xbb\xbf",
])
def test_text(data):
    assert sniff(data) == "text"


@pytest.mark.parametrize(("data", "kind"), [
    ("", "text"),
    ("  \n ", "text"),
    ("\ufeff<!DOCTYPE html>", "html"),
    ("\ufeff\ufeff<p>", "html"),
    ("<rss version='2.0'>", "xml"),
    ('{"a": "é"}', "json"),
    ("\x00\x01 decoded text is never binary", "text"),
    ("\x89PNG\r\n\x1a\n", "text"),
    ("-----BEGIN PGP MESSAGE-----", "text"),
])
def test_str_input(data, kind):
    assert sniff(data) == kind


@pytest.mark.parametrize("data", [bytearray(b"<p>x"), memoryview(b"<p>x")])
def test_bytes_likes(data):
    assert sniff(data) == "html"


def test_memoryviews_of_any_shape_read_as_their_bytes():
    body = b"[  " + b"true," * 1000 + b"true]"
    body += b" " * (-len(body) % 4)
    # 4-byte items: the body is longer than the 4,096 bytes read, however its items count
    assert sniff(memoryview(body).cast("I")) == sniff(body) == "json"
    assert sniff(memoryview(b"<<hhttmmll>>")[::2]) == "html"   # strided, as parse() takes it


@pytest.mark.parametrize("data", [None, 42, ["<p>"], Path("x.html")])
def test_other_types_are_type_errors(data):
    with pytest.raises(TypeError):
        sniff(data)
