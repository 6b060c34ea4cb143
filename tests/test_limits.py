"""max_size and max_depth raise ParseLimitError naming the limit, its value
and the offset; wrong argument types raise TypeError; an unknown encoding
label raises LookupError."""
from __future__ import annotations

import pytest

import fastparse as fp

DEEP = "<div>" * 20


# ---- max_size ----

@pytest.mark.parametrize("source", [DEEP, DEEP.encode(), bytearray(DEEP.encode()),
                                    memoryview(DEEP.encode())])
def test_max_size_raises_with_limit_value_offset(source):
    with pytest.raises(fp.ParseLimitError) as info:
        fp.parse(source, max_size=10)
    e = info.value
    assert e.limit == "max_size"
    assert e.value == 10
    assert e.offset == 10  # the first byte beyond the limit
    assert "max_size" in str(e) and "10" in str(e)


def test_max_size_offset_indexes_the_source():
    # a str's offset is the index of the character holding the first byte past the
    # limit; a BOM is part of bytes' source, and the limit counts it
    with pytest.raises(fp.ParseLimitError) as info:
        fp.parse("é" * 10, max_size=15)   # byte 15 is the second of the 8th character's two
    assert info.value.offset == 7 and "20 bytes" in str(info.value)
    with pytest.raises(fp.ParseLimitError) as info:
        fp.parse(b"\xef\xbb\xbf" + b"a" * 20, max_size=15)
    assert info.value.offset == 15 and "23 bytes" in str(info.value)
    assert fp.parse(b"\xef\xbb\xbf<p>", max_size=6).find("p")
    with pytest.raises(fp.ParseLimitError):
        fp.parse(b"\xef\xbb\xbf", max_size=2)


def test_max_size_is_inclusive():
    data = b"<p>12345</p>"
    assert len(fp.parse(data, max_size=len(data))) == 1
    with pytest.raises(fp.ParseLimitError):
        fp.parse(data, max_size=len(data) - 1)


def test_max_size_zero_allows_only_the_empty_document():
    assert len(fp.parse(b"", max_size=0)) == 0
    with pytest.raises(fp.ParseLimitError):
        fp.parse("x", max_size=0)


def test_max_size_counts_utf8_bytes_of_a_str():
    src = "é" * 6  # 6 characters, 12 bytes of UTF-8
    with pytest.raises(fp.ParseLimitError):
        fp.parse(src, max_size=10)
    assert fp.parse(src, max_size=12).text == src


def test_max_size_applies_to_utf16_input():
    data = ("<p>" + "x" * 20).encode("utf-16")
    with pytest.raises(fp.ParseLimitError) as info:
        fp.parse(data, max_size=10)
    assert info.value.limit == "max_size"


@pytest.mark.parametrize("data, encoding", [
    (b"\xff\xfe" + "<p>\u3042\u3042\u3042".encode("utf-16le"), None),   # 11 bytes, 12 in UTF-8
    (b"\x1b$B\x30\x21\x30\x21\x1b(B<p>x", "iso-2022-jp"),               # 15 bytes, 14 in UTF-8
])
def test_max_size_counts_the_input_before_transcoding(data, encoding):
    assert fp.parse(data, encoding=encoding, max_size=len(data)).find("p")
    with pytest.raises(fp.ParseLimitError) as info:
        fp.parse(data, encoding=encoding, max_size=len(data) - 1)
    assert f"input of {len(data)} bytes" in str(info.value)


def test_parse_limit_error_is_a_value_error_and_a_fastparse_error():
    with pytest.raises(ValueError):
        fp.parse(DEEP, max_size=1)
    with pytest.raises(fp.FastparseError):
        fp.parse(DEEP, max_size=1)


def test_default_limits():
    assert fp.DEFAULT_MAX_SIZE == 256 * 1024 * 1024
    assert fp.DEFAULT_MAX_DEPTH == 4096


# ---- max_depth ----

@pytest.mark.parametrize("source", [DEEP, DEEP.encode()])
def test_max_depth_raises_at_the_tag_that_goes_too_deep(source):
    with pytest.raises(fp.ParseLimitError) as info:
        fp.parse(source, max_depth=3)
    e = info.value
    assert e.limit == "max_depth"
    assert e.value == 3
    assert e.offset == 15  # the fourth <div>
    assert "max_depth" in str(e) and "15" in str(e)


def test_max_depth_offset_indexes_a_non_ascii_str():
    src = "<p>é" + DEEP  # <div> closes the <p>: divs at 4, 9, 14, 19
    with pytest.raises(fp.ParseLimitError) as info:
        fp.parse(src, max_depth=3)
    assert info.value.offset == 19
    assert src[info.value.offset:].startswith("<div>")


def test_max_depth_offset_indexes_bytes_with_a_bom():
    data = b"\xef\xbb\xbf" + DEEP.encode()
    with pytest.raises(fp.ParseLimitError) as info:
        fp.parse(data, max_depth=2)
    assert info.value.offset == 3 + 10
    assert data[info.value.offset:].startswith(b"<div>")


def test_max_depth_is_inclusive_and_counts_open_elements_only():
    assert len(fp.parse("<div>" * 3, max_depth=3)) == 3
    assert len(fp.parse("<div><div></div></div>" * 5, max_depth=2)) == 10
    assert len(fp.parse("<br>" * 50, max_depth=1)) == 50
    assert len(fp.parse("<p>a" * 50, max_depth=1)) == 50  # each <p> closes the last
    assert len(fp.parse("<ul>" + "<li>x" * 50 + "</ul>", max_depth=2)) == 51


def test_max_depth_with_recovery_none_counts_as_written():
    with pytest.raises(fp.ParseLimitError):
        fp.parse("<p>a" * 50, max_depth=10, recovery="none")


def test_default_max_depth_allows_4096_and_stops_beyond():
    assert len(fp.parse("<div>" * 4096)) == 4096
    with pytest.raises(fp.ParseLimitError) as info:
        fp.parse("<div>" * 4097)
    assert info.value.offset == 4096 * 5


def test_max_depth_in_parse_fragment():
    with pytest.raises(fp.ParseLimitError):
        fp.parse_fragment(DEEP, max_depth=5)


# ---- argument types and values ----

@pytest.mark.parametrize("kwargs", [
    {"max_size": "1"}, {"max_size": 1.0}, {"max_size": None}, {"max_size": True},
    {"max_depth": "1"}, {"max_depth": 2.5}, {"max_depth": None}, {"max_depth": False},
    {"encoding": 5}, {"encoding": b"utf-8"},
])
@pytest.mark.parametrize("source", ["<p>", b"<p>"])
def test_wrong_types_raise_type_error(kwargs, source):
    with pytest.raises(TypeError):
        fp.parse(source, **kwargs)


@pytest.mark.parametrize("kwargs", [
    {"max_size": -1}, {"max_depth": 0}, {"max_depth": -5}, {"max_depth": 65536},
])
def test_out_of_range_limits_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        fp.parse("<p>", **kwargs)


@pytest.mark.parametrize("label", ["nope", "", "utf-7", "utf-32", "latin-1-x"])
@pytest.mark.parametrize("source", ["<p>", b"<p>"])
def test_unknown_encoding_label_raises_lookup_error(label, source):
    with pytest.raises(LookupError):
        fp.parse(source, encoding=label)


@pytest.mark.parametrize("label, name", [
    ("latin1", "windows-1252"), (" UTF8 ", "utf-8"), ("Shift_JIS", "shift_jis"),
    ("cp1251", "windows-1251"), ("gb2312", "gbk"),
])
def test_known_labels_are_mapped(label, name):
    assert fp.parse(b"<p>x", encoding=label).encoding == name


def test_encoding_label_is_checked_for_str_input_too():
    with pytest.raises(LookupError):
        fp.parse("<p>", encoding="nope")
    assert fp.parse("<p>", encoding="latin1").encoding == "utf-8"  # str needs no decoding


def test_distinct_tag_names_limit_names_its_value():
    # tag ids are 16-bit: the known names take the first ids, unknown names the rest
    def names(n):
        return b"".join(b"<t%d></t%d>" % (i, i) for i in range(n))

    assert len(fp.parse(names(65386))) == 65386   # 65,535 less the 149 known names
    with pytest.raises(fp.ParseLimitError) as e:
        fp.parse(names(65387))
    assert (e.value.limit, e.value.value) == ("distinct_tag_names", 65386)
    assert "more than 65386 distinct tag names" in str(e.value)
