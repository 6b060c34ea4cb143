"""The Encoding Standard's decoders for the multi-byte legacy encodings, over Python's codecs.

Python's cp932, cp949, big5hkscs and gb18030 decoders read valid text as the Encoding
Standard's Shift_JIS, EUC-KR, Big5 and gb18030 decoders do (but for what is listed below),
and part at malformed bytes: Python reports an error for a lead byte alone and reads the
byte after it again, where the standard takes a non-ASCII byte after a lead with it
(Shift_JIS "81 AD" is one U+FFFD, not U+FFFD and a half-width katakana) and gives back only
an ASCII one. The error handler "fastparse-whatwg" (registered at import) resumes where the
standard does; the binding decodes a legacy document's text with it, and the codecs
fastparse.encoding registers for these encodings ("whatwg-shift_jis", "whatwg-euc-jp",
"whatwg-euc-kr", "whatwg-big5", "whatwg-gb18030") read errors="replace" as it. cp932 also
reads the bytes A0 and FD-FF as private-use characters, which the standard reads as errors.

EUC-JP needs more: Python's euc_jp lacks NEC row 13 (① ... ⑳, Ⅰ ...) and the NEC-selected
IBM extensions, which the standard's index-jis0208 has as cp932 does, and reads six symbols
as JIS X 0208 maps them (〜 ‖ − ¢ £ ¬) where that index has Windows' (～ ∥ － ￠ ￡ ￢). The
handler reads a pair euc_jp rejects through cp932 (the same index row and cell), and the
codec "whatwg-euc-jp" translates the six; its encoder writes them, and those rows, back
(euc_jp_spellings: a selector's strings are compared with a legacy page's bytes).

ISO-2022-JP decodes with the standard's decoder itself, in C (iso_2022_jp_decode,
fastparse/_core/iso2022jp.c): Python's iso2022_jp reads escape sequences and errors its own
way (an escape it does not know, two escapes in a row, SO and SI) and lacks row 13 and the
six symbols, as euc_jp does. Its JIS X 0208 table is this module's EUC-JP decoder's
(tools/gen_jis0208.py writes it), so the two encodings read the same pairs alike.

gb18030's decoder reads the byte 80 as €, as the standard does, and the 20 codes its 2005
and 2022 editions moved out of the private use area as those editions do (GB18030_MOVED).
Big5 reads nine symbols of its first rows as cp950 and the index do (‧ ﹑ ¯ ～ ⊕ ⊙ ￥ ￠ ￡),
where big5hkscs has others.

Big5 reads the 192 pairs of the index that big5hkscs refuses (the characters HKSCS-2008
added, at lead byte 87 and others, the HKSCS compatibility points of unified ideographs, the
control pictures of row A3) from a table tools/gen_big5_pairs.py writes from the index.

Left as Python has them: EUC-JP's 8F A2 B7 (JIS X 0212's tilde), which euc_jp reads as "~"
where the index has ～ (a translation would change every ASCII tilde); ∕ and ﹨ of Big5's
A241 and A242, which big5hkscs reads as ／ and ＼ (as it reads A1FE and A240).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Mapping

from . import _core
from ._big5_pairs_gen import PAIRS as _BIG5_PAIRS

ERRORS = "fastparse-whatwg"
RUN_ERRORS = "fastparse-whatwg-run"
_FFFD = "\ufffd"

# cp932's private-use readings of single bytes that the standard's Shift_JIS has as errors
_SJIS_ERRORS = str.maketrans({"\uf8f0": _FFFD, "\uf8f1": _FFFD, "\uf8f2": _FFFD, "\uf8f3": _FFFD})
# euc_jp's JIS X 0208 readings -> index-jis0208's (Windows') code points
_EUC_JP_SYMBOLS = str.maketrans({"\u301c": "\uff5e", "\u2016": "\u2225", "\u2212": "\uff0d",
                                 "\u00a2": "\uffe0", "\u00a3": "\uffe1", "\u00ac": "\uffe2"})


def _two_byte(data: bytes, at: int, is_lead) -> tuple[str, int]:
    """A lead takes the byte after it along unless that byte is ASCII; the end of
    the input after a lead is one error."""
    if not is_lead(data[at]):
        return _FFFD, at + 1
    if at + 1 >= len(data):
        return _FFFD, len(data)
    return _FFFD, at + 2 if data[at + 1] >= 0x80 else at + 1


def _gb18030(data: bytes, at: int, *, run: bool = False) -> tuple[str, int]:
    """Four-byte sequences: a lead, a digit, a lead, a digit. A third or fourth byte that
    does not fit gives back all but the first; a sequence cut by the end of the input is
    one error, but cut by the end of a run (a markup byte follows, which never fits) it
    gives them back. The byte 80 alone is the euro sign, as in GBK (Python's gb18030 has
    it as an error)."""
    if data[at] == 0x80:
        return "\u20ac", at + 1
    if 0x81 <= data[at] <= 0xFE and at + 1 < len(data) and 0x30 <= data[at + 1] <= 0x39:
        rest = data[at + 2:at + 4]
        if len(rest) < 2 and all(0x81 <= b <= 0xFE for b in rest[:1]):
            return _FFFD, at + 1 if run else len(data)
        if not 0x81 <= rest[0] <= 0xFE or not 0x30 <= rest[1] <= 0x39:
            return _FFFD, at + 1
        return _FFFD, at + 4   # a pointer outside the ranges
    return _two_byte(data, at, lambda b: 0x81 <= b <= 0xFE)


def _big5(data: bytes, at: int) -> tuple[str, int]:
    """The pairs of the standard's index that big5hkscs refuses (_big5_pairs_gen.py),
    then the standard's errors."""
    found = _BIG5_PAIRS.get(int.from_bytes(data[at:at + 2], "big")) if at + 1 < len(data) else None
    if found is not None:
        return found, at + 2
    return _two_byte(data, at, lambda b: 0x81 <= b <= 0xFE)


def _jis0208_via_cp932(pointer: int) -> str:
    """index-jis0208 at pointer (row x 94 + cell), read from the Shift_JIS bytes cp932 has
    there: its NEC and IBM rows are the index's. U+FFFD where it has no character."""
    row, cell = divmod(pointer, 188)
    sjis = bytes([row + (0x81 if row < 0x1F else 0xC1), cell + (0x40 if cell < 0x3F else 0x41)])
    return sjis.decode("cp932", "replace").translate(_SJIS_ERRORS)[:1]


def _euc_jp(data: bytes, at: int) -> tuple[str, int]:
    lead = data[at]
    if not (lead in (0x8E, 0x8F) or 0xA1 <= lead <= 0xFE):
        return _FFFD, at + 1
    if at + 1 >= len(data):
        return _FFFD, len(data)
    nxt = data[at + 1]
    if lead == 0x8F and 0xA1 <= nxt <= 0xFE:   # JIS X 0212: three bytes
        if at + 2 >= len(data):
            return _FFFD, len(data)
        return _FFFD, at + 3 if data[at + 2] >= 0x80 else at + 2
    if 0xA1 <= lead <= 0xFE and 0xA1 <= nxt <= 0xFE:
        return _jis0208_via_cp932((lead - 0xA1) * 94 + nxt - 0xA1), at + 2
    return _FFFD, at + 2 if nxt >= 0x80 else at + 1


_RESUME = {
    "cp932": lambda data, at: _two_byte(data, at, lambda b: 0x81 <= b <= 0x9F or 0xE0 <= b <= 0xFC),
    "cp949": lambda data, at: _two_byte(data, at, lambda b: 0x81 <= b <= 0xFE),
    "big5hkscs": _big5,
    "gb18030": _gb18030,
    "euc_jp": _euc_jp,
}


def _whatwg_errors(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    resume = _RESUME.get(exc.encoding)
    if resume is None:   # a single-byte codec's unmapped byte
        return _FFFD, exc.end
    return resume(bytes(exc.object), exc.start)


codecs.register_error(ERRORS, _whatwg_errors)


def _whatwg_run_errors(exc: UnicodeError) -> tuple[str, int]:
    """ERRORS for a run of a document the binding decodes alone (text up to a tag or a
    reference, an attribute value, a name): the byte after it is a markup byte, ASCII,
    where the run's end is not the end of the input. Only a cut four-byte gb18030
    sequence reads otherwise there: a lead and a trail byte read the same at an ASCII
    byte as at the end (one error), as EUC-JP's 8F and a lead do."""
    if isinstance(exc, UnicodeDecodeError) and exc.encoding == "gb18030":
        return _gb18030(bytes(exc.object), exc.start, run=True)
    return _whatwg_errors(exc)


codecs.register_error(RUN_ERRORS, _whatwg_run_errors)


def _decoder(codec: str, translation: Mapping[int, int | str]):
    """`codec`'s decoder, "replace" read as ERRORS, and the characters `translation` maps
    replaced. The binding calls it for each run of text it decodes (with RUN_ERRORS): one
    search for those characters, in C, costs less than translating every character."""
    base = codecs.lookup(codec).decode
    if not translation:
        def decode(data, errors="strict"):
            return base(data, ERRORS if errors == "replace" else errors)
        return decode
    needs = re.compile("[" + "".join(re.escape(chr(c)) for c in translation) + "]").search

    def decode_translated(data, errors="strict"):
        text, used = base(data, ERRORS if errors == "replace" else errors)
        return (text.translate(translation) if needs(text) else text), used
    return decode_translated


def _big5_symbols() -> dict[bytes, tuple[str, str]]:
    """Big5's symbol rows (lead bytes A1 and A2) where big5hkscs and cp950 read a pair
    apart: {pair: (big5hkscs's reading, cp950's)}. The standard's index has cp950's (‧ for
    A145, not •; ～ for A1E3, not ∼). Left out: a big5hkscs reading that is cp950's reading
    of another pair in these rows (／ of A241 is A1FE's), which a translation would change."""
    trails = [*range(0x40, 0x7F), *range(0xA1, 0xFF)]
    pairs = [bytes([lead, trail]) for lead in (0xA1, 0xA2) for trail in trails]
    read = {pair: (pair.decode("big5hkscs", "replace"), pair.decode("cp950", "replace")) for pair in pairs}
    cp950_readings = {cp950 for _, cp950 in read.values()}
    return {pair: (hkscs, cp950) for pair, (hkscs, cp950) in read.items()
            if hkscs != cp950 and _FFFD not in hkscs + cp950 and hkscs not in cp950_readings}


BIG5_SYMBOLS = _big5_symbols()

# Two-byte codes that GB 18030-2005 (A8BC: ḿ) and GB 18030-2022 (ten vertical forms, eight
# CJK ideographs) moved out of the private use area, where Python's gb18030 (the 2000
# edition) still reads them; the Encoding Standard reads them as the later editions do, and
# A3A0 as U+3000. Python's readings of the four-byte codes of those characters are already the
# standard's, but for ḿ, whose four-byte code the standard reads as U+E7C7: a swap.
GB18030_MOVED = {0xE5E5: 0x3000, 0xE78D: 0xFE10, 0xE78E: 0xFE12, 0xE78F: 0xFE11,
                 **{0xE790 + k: 0xFE13 + k for k in range(7)}, 0xE7C7: 0x1E3F, 0x1E3F: 0xE7C7,
                 0xE81E: 0x9FB4, 0xE826: 0x9FB5, 0xE82B: 0x9FB6, 0xE82C: 0x9FB7,
                 0xE832: 0x9FB8, 0xE843: 0x9FB9, 0xE854: 0x9FBA, 0xE864: 0x9FBB}


def gb18030_spellings() -> dict[str, bytes]:
    """The bytes the standard's encoder writes for the characters GB18030_MOVED reads: the
    two-byte codes (U+3000 keeps A1A1)."""
    return {chr(new): chr(old).encode("gb18030") for old, new in GB18030_MOVED.items() if new != 0x3000}


shift_jis_decode = _decoder("cp932", _SJIS_ERRORS)
euc_jp_decode = _decoder("euc_jp", _EUC_JP_SYMBOLS)
big5_decode = _decoder("big5hkscs", {ord(hkscs): cp950 for hkscs, cp950 in BIG5_SYMBOLS.values()})
euc_kr_decode = _decoder("cp949", {})
gb18030_decode = _decoder("gb18030", GB18030_MOVED)

def euc_jp_spellings() -> dict[str, bytes]:
    """The bytes EUC-JP writes for what its decoder reads and euc_jp cannot write: Windows'
    six symbols, and the characters of the JIS X 0208 pairs euc_jp rejects (NEC row 13, IBM
    rows) that it has nowhere else (≒ of row 13 stays A2E2)."""
    out = {windows: chr(jis).encode("euc_jp") for jis, windows in _EUC_JP_SYMBOLS.items()}
    for pointer in range(94 * 94):
        pair = bytes([0xA1 + pointer // 94, 0xA1 + pointer % 94])
        if _FFFD in pair.decode("euc_jp", "replace"):
            ch = _jis0208_via_cp932(pointer)
            if ch != _FFFD and not _euc_jp_writes(ch):
                out.setdefault(ch, pair)
    return out


def _euc_jp_writes(ch: str) -> bool:
    try:
        ch.encode("euc_jp")
    except UnicodeEncodeError:
        return False
    return True


# ---- ISO-2022-JP: the Encoding Standard's decoder (section 12.2.1), in C ----

def iso_2022_jp_decode(data, errors="strict") -> tuple[str, int]:
    """The Encoding Standard's ISO-2022-JP decoder, state by state
    (fastparse/_core/iso2022jp.c; tests/iso2022jp_reference.py is the same in Python)."""
    data = data if isinstance(data, bytes) else bytes(data)
    utf8, malformed = _core.iso2022jp_to_utf8(data)
    if malformed and errors == "strict":
        raise UnicodeDecodeError("iso-2022-jp", data, 0, len(data), "invalid ISO-2022-JP")
    return utf8.decode("utf-8"), len(data)
