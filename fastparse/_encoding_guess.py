"""The guess at an undeclared page that is not UTF-8: the autodetection step of encoding sniffing.

A page that declares nothing (no BOM, transport hint, <meta> or late <meta>) and is not
UTF-8 falls back to the locale's default, windows-1252, unless the user agent "has
information on the likely encoding" (HTML Standard, encoding sniffing algorithm, step 7).
Browsers guess there (Firefox's chardetng, Chrome's Compact Encoding Detector): an
undeclared Shift_JIS or windows-1251 page reads right in them and as mojibake in
windows-1252. This module guesses only where the bytes leave little doubt, and otherwise
answers None (windows-1252, as before):

* UTF-8, when the text is UTF-8 but for a stray byte or a cut sequence among three good
  ones or more (a CMS that cut an excerpt mid-character): legacy text makes a UTF-8
  sequence only by chance (a capital letter before a symbol, "Ã©"), among many bytes that
  are not. This comes first: windows-949 reads UTF-8's accented Latin letters (C3 A9) as
  Hangul, and would otherwise take such a French page for Korean.
* a CJK multi-byte encoding, when its decoder reads the sample (below) without an error
  (one in 200 characters forgiven, for a stray byte) and the text it gives has the
  language's shape: Japanese is a tenth kana or more (running text, a third hiragana);
  Korean is Hangul syllables; GBK stays inside GB2312, the 6,763 common simplified
  characters (traditional text read as GBK does not: a Big5 trail byte below 0x80 makes a
  GBK extension character), and when over a tenth of them are its second level's rare
  characters (Thai read as GBK: its vowels and tone marks lead there), the text must not
  read as Thai in windows-874; Big5 takes its common characters (lead bytes A4-C6) and trail
  bytes below 0x80 too, which GB text never has.
* windows-1251 or KOI8-R, when the non-ASCII bytes read as Cyrillic words (70% of the
  letters in runs of three or more, where accented Latin letters stand alone or in pairs)
  with the Slavic languages' shape: at most 40% capitals and at least 1% (each encoding
  read as the other gives mostly capitals; Hebrew, which has no case, gives none; Greek
  capitals read as KOI8-R are the lower-case letters of its phonetic layout, ΤΟ as "то");
  half of the lower-case letters the ten most frequent in Russian, Bulgarian, Ukrainian
  and Serbian text (о е а и н т с р в л: 55-70% there), and a third to three fifths of
  them vowels (43-45% there). Greek and Hebrew read as windows-1251 give 39% and 42% of
  the ten, 19% and 24% vowels.
* windows-1253, -1255 or -1256 (Greek, Hebrew, Arabic) the same way, without the vowels:
  words of the script, 45% of its letters its ten most frequent, Greek's case as Cyrillic's;
  ISO-8859-7 pages read as windows-1253, which differs from it in Ά and a few symbols.
* windows-874 (Thai), by its script's structure: a mark above or below stands on a
  consonant, a vowel written before its consonant has one after it, and no character makes
  a fifth of the text (Cyrillic written in GBK, A7 and a byte, reads as ง and a mark).

The tests read up to 32 KiB of the text between tags (and before the first), found in the
page's first MiB: each run that holds non-ASCII bytes, from its first to its last (a '<' or
'>' is a character boundary in each of these encodings: no trail byte is below 0x40), at
most 2 KiB of it.
Scripts and styles are left out: a search page had 12 Cyrillic letters in the 64 KiB after
its title, and an inline script with one non-ASCII character filled the sample with ASCII.
About 2 ms at the median real page and 28 ms at most (a 1 MB page), on the rare path
that reaches the fallback. A sample more than 5% C0 controls (binary data, a tenth) is no
text: no guess (a soft line break, U+000B, pasted from an office suite stays below that).
"""
from __future__ import annotations

import codecs
import re
from typing import NamedTuple

_SAMPLE = 1 << 15               # bytes of text read
_PART = 1 << 11                 # of one run of text
_SCAN = 1 << 20                 # bytes of the page searched for them
_BLOCK = 1 << 12
_MIN_CHARS = 16                 # fewer non-ASCII characters: not enough to go on
_MIN_LETTERS = 40               # an alphabet's letter frequencies need more text
_MIN_UTF8 = 4                   # UTF-8 sequences
_HIGH_BYTES = bytes(range(0x80, 0x100))
# C0 controls but whitespace and ESC: no encoding's text holds many (no lead or trail byte
# is one); binary data read as a page does, a tenth of its bytes
_CONTROL_BYTES = bytes(b for b in range(0x20) if b not in b"\t\n\x0c\r\x1b")
_ASCII_BYTES = bytes(range(0x80))
_ASCII_RUN = re.compile("[\x00-\x7f]+")
# a run of text after a tag, or before any (\A); linear: no two tries read one byte
_TEXT_WITH_HIGH_BYTES = re.compile(rb"(?:>|\A)([^<>\x80-\xff]*[\x80-\xff][^<]*)")

_KANA = re.compile("[\u3041-\u30ff]")
_HALFWIDTH_KANA = re.compile("[\uff61-\uff9f]")
_HANGUL = re.compile("[\uac00-\ud7a3]")
# CJK ideographs, CJK punctuation and fullwidth forms: what Chinese text is made of
_CJK = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_BIG5_PAIR = re.compile(rb"[\xa1-\xf9][\x40-\x7e\xa1-\xfe]")


class _Alphabet(NamedTuple):
    """A script written one byte a letter: Cyrillic, Greek, Hebrew or Arabic."""

    name: str                   # WHATWG name
    codec: str
    letter: re.Pattern          # a letter of the script
    word: re.Pattern            # three letters or more
    frequent: re.Pattern        # one of its ten most frequent letters (Greek's accented too)
    lower: re.Pattern | None    # a lower-case letter, when the script has case
    vowel: re.Pattern | None    # a lower-case vowel, when their share is tested
    share: int                  # % of the non-ASCII characters its letters make at least
    frequent_share: int         # % of the (lower-case) letters the frequent ones make at least


def _alphabet_of(name: str, codec: str, letters: str, frequent: str, lower: str | None,
                 vowel: str | None = None, share: int = 70, frequent_share: int = 45) -> _Alphabet:
    return _Alphabet(name, codec, re.compile(f"[{letters}]"), re.compile(f"[{letters}]{{3,}}"),
                     re.compile(f"[{frequent}]"), re.compile(f"[{lower}]") if lower else None,
                     re.compile(f"[{vowel}]") if vowel else None, share, frequent_share)


_CYRILLIC = ("\u0400-\u045f\u0490\u0491", "оеаинтсрвл", "\u0430-\u045f\u0491", "аеиоуыэюяёіїєъ")
_ALPHABETS = (
    _alphabet_of("windows-1251", "cp1251", *_CYRILLIC, share=80, frequent_share=50),
    _alphabet_of("koi8-r", "koi8-r", *_CYRILLIC, share=80, frequent_share=50),
    _alphabet_of("windows-1253", "cp1253", "\u0386\u0388-\u03ce", "αοιετσςνηυράέίόήύ", "\u03ac-\u03ce"),
    _alphabet_of("windows-1255", "cp1255", "\u05d0-\u05ea", "יוהלאמרתבש", None),
    _alphabet_of("windows-1256", "cp1256", "\u0621-\u064a",
                 "\u0627\u0644\u064a\u0645\u0648\u0646\u0647\u0631\u062a\u0628", None),
)
_THAI = re.compile("[\u0e01-\u0e5b]")
# a mark above or below (a vowel or a tone) with no consonant or mark before it, and a
# vowel written before its consonant with no consonant after it: neither is Thai
_THAI_STRAY = re.compile("(?<![\u0e01-\u0e2e\u0e31\u0e34-\u0e3a\u0e47-\u0e4e])[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]"
                         "|[\u0e40-\u0e44](?![\u0e01-\u0e2e])")
_THAI_MARK = re.compile("[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]")


def _decoded(sample: bytes, codec: str, chars: int) -> str | None:
    """sample read by codec (a sequence cut at the end is left out), or None when it
    makes more errors than one in 200 of the `chars` non-ASCII characters."""
    text = codecs.getincrementaldecoder(codec)("replace").decode(sample, False)
    return None if text.count("\ufffd") > chars // 200 else text


def _near_and_wide(text: str) -> tuple[str, str]:
    """text with each run of ASCII made one space (what the tests of words read), and its
    non-ASCII characters alone (what they count): 64 KiB of a page's text holds a few
    thousand, and the tests read them 20 times faster."""
    near = _ASCII_RUN.sub(" ", text)
    return near, near.replace(" ", "")


def _japanese(sample: bytes, wide: str) -> bool:
    kana, han = len(_KANA.findall(wide)), len(_HAN.findall(wide))
    return (kana + han >= len(wide) // 2 and kana * 10 >= kana + han
            and len(_HALFWIDTH_KANA.findall(wide)) * 5 <= len(wide))


def _korean(sample: bytes, wide: str) -> bool:
    hangul = len(_HANGUL.findall(wide))
    return hangul * 10 >= len(wide) * 6 and hangul * 10 >= (hangul + len(_HAN.findall(wide))) * 8


def _chinese(wide: str) -> bool:
    return len(_CJK.findall(wide)) * 10 >= len(wide) * 8 and len(_KANA.findall(wide)) * 20 <= len(wide)


def _gbk(sample: bytes, wide: str) -> bool:
    if not _chinese(wide):
        return False
    han = _HAN.findall(wide)
    gb = "".join(han).encode("gb2312", "replace")
    outside = gb.count(b"?")
    if outside * 10 > len(han):
        return False
    # GB2312's second level (lead bytes D8-F7) holds its 3,008 rarer characters, a few in
    # a hundred of Chinese text (more where given names are: 琪 婷 倩); Thai read as GBK
    # makes a sixth of them or more (its vowels and tone marks, E0-EE), and reads as Thai
    rare = sum(1 for lead in gb[::2] if lead >= 0xD8) if not outside else 0
    return rare * 10 <= len(han) or not _thai(sample)


def _big5(sample: bytes, wide: str) -> bool:
    if not _chinese(wide):
        return False
    pairs = _BIG5_PAIR.findall(sample)
    common = sum(1 for p in pairs if 0xA4 <= p[0] <= 0xC6)
    low_trail = sum(1 for p in pairs if p[1] < 0x80)
    return common * 10 >= len(pairs) * 7 and low_trail * 10 >= len(pairs)


# In this order: Shift_JIS reads EUC-style bytes as half-width katakana, which its test
# refuses, while windows-949 would read Shift_JIS as Hangul; EUC-KR's compatibility jamo
# (ㅋㅋ) are kana to EUC-JP, while EUC-JP's kanji are half Hangul at most to windows-949.
_MULTI_BYTE = (("shift_jis", "cp932", _japanese), ("euc-kr", "cp949", _korean),
               ("euc-jp", "euc_jp", _japanese), ("gbk", "gb18030", _gbk), ("big5", "big5hkscs", _big5))


class _Bytes(NamedTuple):
    """An alphabet's classes as the bytes of its one-byte encoding that decode into them:
    counted with bytes.translate, a hundred times faster than a regular expression over
    the decoded text (a page of Cyrillic in an encoding no test takes went through them all)."""

    letter: bytes
    lower: bytes | None
    frequent: bytes
    vowel: bytes | None
    word: re.Pattern[bytes]     # three letters or more


def _byte_class(codec: str, pattern: re.Pattern) -> bytes:
    """The bytes of a one-byte encoding that decode into a character of the pattern's class"""
    return bytes(b for b in range(0x80, 0x100) if pattern.fullmatch(bytes([b]).decode(codec, "replace")))


def _bytes_of(script: _Alphabet) -> _Bytes:
    def cls(pattern: re.Pattern | None) -> bytes | None:
        return _byte_class(script.codec, pattern) if pattern else None

    letter = _byte_class(script.codec, script.letter)
    word = re.compile(b"[" + b"".join(re.escape(bytes([b])) for b in letter) + b"]{3,}")
    return _Bytes(letter, cls(script.lower), _byte_class(script.codec, script.frequent), cls(script.vowel), word)


_ALPHABET_BYTES = {script.name: _bytes_of(script) for script in _ALPHABETS}


def _count(sample: bytes, of: bytes) -> int:
    """How many of sample's bytes are among `of`"""
    return len(sample) - len(sample.translate(None, of))


_THAI_BYTES = _byte_class("cp874", _THAI)
_THAI_BYTE_STRINGS = [bytes([b]) for b in _THAI_BYTES]
_THAI_MARK_BYTES = _byte_class("cp874", _THAI_MARK)


def _alphabet(sample: bytes, high: int, script: _Alphabet) -> bool:
    """The sample (with `high` bytes of 0x80 or more) read in the script's encoding is words
    of the script, with its frequent letters (and its case, and its share of vowels, where
    the script has them tested). A byte is a character there: each count of characters is
    one of bytes."""
    classes = _ALPHABET_BYTES[script.name]
    letters = _count(sample, classes.letter)
    if letters < _MIN_LETTERS or letters * 100 < high * script.share:
        return False
    base = _count(sample, classes.lower) if classes.lower is not None else letters
    upper = letters - base
    if classes.lower is not None and not (upper * 10 <= letters * 4 and upper * 100 >= letters):
        return False
    if _count(sample, classes.frequent) * 100 < base * script.frequent_share:
        return False
    if classes.vowel is not None:
        vowels = _count(sample, classes.vowel)   # lower-case ones: the class is within lower
        if not (base <= vowels * 3 and vowels * 5 <= base * 3):
            return False
    in_words = sum(map(len, classes.word.findall(sample)))   # ASCII and other bytes end a word
    return in_words * 10 >= letters * 7


def _thai(sample: bytes) -> bool:
    """sample read in windows-874 is Thai: marks on consonants, vowels before them, no
    character over a fifth of the text (Cyrillic in GBK, A7 and a byte, reads as ง and a
    mark). A byte is a character there: the counts are of bytes, the text decoded last."""
    letters = _count(sample, _THAI_BYTES)
    if letters < _MIN_LETTERS or letters * 10 < _count(sample, _HIGH_BYTES) * 8:
        return False
    if max(map(sample.count, _THAI_BYTE_STRINGS)) * 5 > letters or _count(sample, _THAI_MARK_BYTES) * 10 < letters:
        return False
    # an ASCII character is neither a consonant nor a mark: the text as it is, not its "near"
    return len(_THAI_STRAY.findall(sample.decode("cp874", "replace"))) * 50 <= letters


def _sample(data: bytes | bytearray | memoryview) -> bytes:
    """The runs of text between tags (and before the first) in the page's first _SCAN bytes
    that hold non-ASCII bytes (their _core), a line each, up to _SAMPLE bytes (the last one
    cut). The search runs only around the _BLOCK-byte blocks that are not ASCII: a regular
    expression reads 100 MB/s, bytes.isascii() 10 GB/s."""
    head = bytes(data[:_SCAN])
    parts: list[bytes] = []
    size = done = 0
    for at in range(0, len(head), _BLOCK):
        if size >= _SAMPLE:
            break
        if at + _BLOCK <= done or head[at:at + _BLOCK].isascii():
            continue
        lo = max(head.rfind(b">", done, at + 1), done)
        hi = head.find(b"<", at + _BLOCK)
        hi = len(head) if hi < 0 else hi
        for m in _TEXT_WITH_HIGH_BYTES.finditer(head, lo, hi):
            parts.append(_core(m.group(1)))
            size += len(parts[-1]) + 1
            if size >= _SAMPLE:
                break
        done = hi
    return b"\n".join(parts)[:_SAMPLE]


def _core(run: bytes) -> bytes:
    """A run of text from its first non-ASCII byte to the byte after its last (a Shift_JIS
    or Big5 trail byte may be ASCII), at most _PART bytes: an inline script with one
    non-ASCII character would fill the sample with ASCII (a search page's did)."""
    run = run.lstrip(_ASCII_BYTES)
    return run[:min(len(run.rstrip(_ASCII_BYTES)) + 1, _PART)]


def _mostly_utf8(sample: bytes) -> bool:
    text = sample.decode("utf-8", "replace")
    wide = len(text) - _count(sample, _ASCII_BYTES)   # an ASCII byte is its character, even after a cut sequence
    bad = text.count("\ufffd")
    return wide - bad >= _MIN_UTF8 and bad * 4 <= wide


def guess(data: bytes | bytearray | memoryview) -> str | None:
    """The WHATWG name of the encoding an undeclared, non-UTF-8 page is written in,
    when its bytes leave little doubt; else None."""
    sample = _sample(data)
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    if controls >= 16 and controls * 20 > len(sample):
        return None   # binary, not text: the tests below would take 20 ms to say so
    if _mostly_utf8(sample):
        return "utf-8"
    chars_max = len(sample) - len(sample.translate(None, _HIGH_BYTES))
    if chars_max < _MIN_CHARS:
        return None
    for name, codec, test in _MULTI_BYTE:
        text = _decoded(sample, codec, chars_max // 2)
        if text is not None and len(wide := _near_and_wide(text)[1]) >= _MIN_CHARS and test(sample, wide):
            return name
    for script in _ALPHABETS:
        if _alphabet(sample, chars_max, script):
            return script.name
    return "windows-874" if _thai(sample) else None
