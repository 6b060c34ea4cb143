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
  language's shape: Japanese is a tenth kana or more (running text, a third hiragana; the
  middle dot ・ is punctuation, Big5's quotes around English words read as it); Korean is
  Hangul syllables, nine in ten of them KS X 1001's 2,350 common ones (windows-949's others
  have trail bytes below A1, where it reads Shift_JIS's quotes and Mac Roman's õ before an
  ASCII letter); GBK stays inside GB2312, the 6,763 common simplified characters
  (traditional text read as GBK does not: a Big5 trail byte below 0x80 makes a GBK
  extension character), and when over a tenth of them are its second level's rare
  characters (Thai read as GBK: its vowels and tone marks lead there), the text must not
  read as Thai in windows-874; Big5 pairs make most of the text, mostly common characters
  (lead bytes A4-C6), with trail bytes below 0x80, which GB text never has, and above A0
  (ISO-8859-16's š before an ASCII letter makes a common character).
* windows-1251, KOI8-U, x-mac-cyrillic, IBM866 or ISO-8859-5, when the non-ASCII bytes read
  as Cyrillic words (70% of the letters in runs of three or more, where accented Latin
  letters stand alone or in pairs) with the Slavic languages' shape: at most 40% capitals
  and at least 1% (each encoding read as another gives mostly capitals, or symbols; Hebrew,
  which has no case, gives none; Greek capitals read as KOI8 are the lower-case letters of
  its phonetic layout, ΤΟ as "то"); half of the lower-case letters the most frequent in
  Russian, Bulgarian, Ukrainian, Serbian and Belarusian text (о е а и н т с р в л, and і:
  50-70% there), and 30% to 60% of them vowels (42-45% in prose, 33% in a list of
  adjectives, "-ский"). Greek and Hebrew read as windows-1251 give 39% and 42% of the ten,
  19% and 24% vowels. A capital after a lower-case letter is rare in text and common where
  another of these encodings is read (x-mac-cyrillic's я is windows-1251's Я): at most one
  letter in 100; of the encodings that pass, the one with the fewest wins, then the one
  that reads the fewest symbols right before a letter (each reads some of the other's
  capitals as symbols: x-mac-cyrillic's Ф is windows-1251's ”). KOI8-R pages
  are guessed as KOI8-U, which reads their letters alike and Ukrainian's where KOI8-R has
  box drawings.
* windows-1253, -1255, ISO-8859-6 or windows-1256 (Greek, Hebrew, Arabic) the same way,
  without the vowels: words of the script, 45% of its letters its ten most frequent, Greek's
  case as Cyrillic's; ISO-8859-7 pages read as windows-1253, which differs from it in Ά and
  a few symbols, ISO-8859-8 pages as windows-1255. In each of these one-byte encodings, at
  most one byte in 200 is one it has no character for (windows-1256's ف ق ك are unassigned
  in ISO-8859-6, which reads its other letters as other letters), and no letter makes a
  quarter of the letters (Big5's katakana, C7 and a byte, reads as ا and a letter).
* windows-874 (Thai), by its script's structure: a mark above or below stands on a
  consonant, a vowel written before its consonant has one after it, and no character makes
  a fifth of the text (Cyrillic written in GBK, A7 and a byte, reads as ง and a mark).
* windows-1250, ISO-8859-2, windows-1254 or windows-1257 (Central European, Turkish,
  Baltic), last, when windows-1252 reads the text as no Western language and one of these
  as one of its own (fastparse/_latin_guess.py): Polish "mały" reads "ma³y" in windows-1252.

The tests read up to 32 KiB of the text between tags (and before the first), found in the
page's first MiB: each run that holds non-ASCII bytes, from its first to its last (a '<' or
'>' is a character boundary in each of these encodings: no trail byte is below 0x40), at
most 2 KiB of it.
A run's ASCII ends are left out: a search page had 12 Cyrillic letters in the 64 KiB after
its title, and an inline script with one non-ASCII character filled the sample with ASCII.
A sample more than 5% C0 controls (binary data, a tenth) is no text: no guess (a soft line
break, U+000B, pasted from an office suite stays below that).

The byte work is C's (fastparse/_core/guess.c): the sample, the counts of its bytes that
the one-byte scripts' tests sum, its runs of letters, Thai's stray marks, its UTF-8 read,
its Big5 pairs, the classes of the characters a CJK codec reads. The CJK decoders are Python's; each stops at
the error that rules its encoding out, which text in another encoding reaches in its first
bytes. On the real pages re-encoded without their declaration (`python
tools/encoding_guess_report.py`) the guess takes 0.13 ms at the median copy and 1.4 ms at
most, where regular expressions and a pass per class took 1.2 to 1.7 ms and 17 to 28 ms;
such a page parses in 3 times the time it takes with its encoding given (23 times before).
"""
from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from functools import cache
from operator import itemgetter
from typing import NamedTuple

from . import _core
from ._latin_guess import latin

_MIN_CHARS = 16                 # fewer non-ASCII characters: not enough to go on
_MIN_LETTERS = 40               # an alphabet's letter frequencies need more text
_MIN_UTF8 = 4                   # UTF-8 sequences
_MIN_LATIN = 24                 # non-ASCII bytes of Latin-script text: letters' shares need more
_HIGH_BYTES = bytes(range(0x80, 0x100))
# C0 controls but whitespace and ESC: no encoding's text holds many (no lead or trail byte
# is one); binary data read as a page does, a tenth of its bytes
_CONTROL_BYTES = bytes(b for b in range(0x20) if b not in b"\t\n\x0c\r\x1b")
_ASCII_BYTES = bytes(range(0x80))

# The classes of characters the CJK tests count, as code point ranges
_WIDE = ((0x80, 0x10FFFF),)     # every character but ASCII
_KANA = ((0x3041, 0x30FA), (0x30FC, 0x30FF))   # but the middle dot ・, punctuation
_HALFWIDTH_KANA = ((0xFF61, 0xFF9F),)
_HANGUL = ((0xAC00, 0xD7A3),)
_HAN = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))
# CJK ideographs, CJK punctuation and fullwidth forms: what Chinese text is made of
_CJK = ((0x3000, 0x303F), *_HAN, (0xFF00, 0xFFEF))
_CLASSES = (_WIDE, _KANA, _HALFWIDTH_KANA, _HANGUL, _CJK, _HAN)
# each class's ranges with its counter: _core.char_counts counts them all in one pass
_CLASS_RANGES = tuple((lo, hi, k) for k, ranges in enumerate(_CLASSES) for lo, hi in ranges)
_HAN_RANGES = tuple((lo, hi, 0) for lo, hi in _HAN)
_GB2312_RARE_LEADS = bytes(range(0xD8, 0x100))   # its second level: D8-F7
_HANGUL_RANGES = tuple((lo, hi, 0) for lo, hi in _HANGUL)
_UHC_TRAIL_BYTES = bytes(range(0x41, 0xA1))      # windows-949's syllables beyond KS X 1001


class _Sample(NamedTuple):
    """The text the tests read (_core.guess_sample, guess.c: the runs of text between tags
    in the page's first MiB that hold non-ASCII bytes) and how many of its bytes are each
    byte value: the tests count classes of bytes, one sum each over these counts."""

    data: bytes
    counts: tuple[int, ...]

    def count(self, of: bytes) -> int:
        """How many of the sample's bytes are among `of`"""
        return sum(_counts_of(of)(self.counts)) if len(of) > 1 else sum(self.counts[b] for b in of)


@cache
def _counts_of(of: bytes) -> Callable[[tuple[int, ...]], tuple[int, ...]]:
    """A function that picks the byte values' counts out of a sample's (two or more): the
    classes are a few, and picking by itemgetter takes a fifth of a list comprehension's time"""
    return itemgetter(*of)


def _sample(data: bytes | bytearray | memoryview) -> _Sample:
    sample = _core.guess_sample(data)
    return _Sample(sample, _core.byte_counts(sample))


class _Alphabet(NamedTuple):
    """A script written one byte a letter: Cyrillic, Greek, Hebrew or Arabic."""

    name: str                   # WHATWG name
    codec: str
    letter: re.Pattern          # a letter of the script
    frequent: re.Pattern        # one of its ten most frequent letters (Greek's accented too)
    lower: re.Pattern | None    # a lower-case letter, when the script has case
    vowel: re.Pattern | None    # a lower-case vowel, when their share is tested
    share: int                  # % of the non-ASCII characters its letters make at least
    frequent_share: int         # % of the (lower-case) letters the frequent ones make at least


def _alphabet_of(name: str, codec: str, letters: str, frequent: str, lower: str | None,
                 vowel: str | None = None, share: int = 70, frequent_share: int = 45) -> _Alphabet:
    return _Alphabet(name, codec, re.compile(f"[{letters}]"), re.compile(f"[{frequent}]"),
                     re.compile(f"[{lower}]") if lower else None,
                     re.compile(f"[{vowel}]") if vowel else None, share, frequent_share)


_CYRILLIC = ("\u0400-\u045f\u0490\u0491", "оеаинтсрвлі", "\u0430-\u045f\u0491", "аеиоуыэюяёіїєъ")
_ARABIC = ("\u0621-\u064a", "\u0627\u0644\u064a\u0645\u0648\u0646\u0647\u0631\u062a\u0628", None)
# Each encoding of a script reads the others' text with its letters in the wrong case or as
# symbols, which the tests refuse: the order matters only where one reads another's letters
# as letters. ISO-8859-6 comes before windows-1256, which reads its letters from D8 on as
# other letters and Latin ones; windows-1256's ف ق ك (DD-DF) are unassigned in ISO-8859-6.
# KOI8-U is KOI8-R with Ukrainian letters where KOI8-R has box drawings: it reads both.
_ALPHABETS = (
    _alphabet_of("windows-1251", "cp1251", *_CYRILLIC, share=80, frequent_share=50),
    _alphabet_of("koi8-u", "koi8_u", *_CYRILLIC, share=80, frequent_share=50),
    _alphabet_of("x-mac-cyrillic", "mac_cyrillic", *_CYRILLIC, share=80, frequent_share=50),
    _alphabet_of("ibm866", "cp866", *_CYRILLIC, share=80, frequent_share=50),
    _alphabet_of("iso-8859-5", "iso8859_5", *_CYRILLIC, share=80, frequent_share=50),
    _alphabet_of("windows-1253", "cp1253", "\u0386\u0388-\u03ce", "αοιετσςνηυράέίόήύ", "\u03ac-\u03ce"),
    _alphabet_of("windows-1255", "cp1255", "\u05d0-\u05ea", "יוהלאמרתבש", None),
    _alphabet_of("iso-8859-6", "iso8859_6", *_ARABIC),
    _alphabet_of("windows-1256", "cp1256", *_ARABIC),
)
_THAI = re.compile("[\u0e01-\u0e5b]")
_THAI_CONSONANT = re.compile("[\u0e01-\u0e2e]")
_THAI_MARK = re.compile("[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]")    # above or below: a vowel or a tone
_THAI_LEADING_VOWEL = re.compile("[\u0e40-\u0e44]")                # written before its consonant
# a mark with no consonant or mark before it, and a leading vowel with no consonant after
# it: neither is Thai (the test counts them on bytes; the tests check it against this)
_THAI_STRAY = re.compile("(?<![\u0e01-\u0e2e\u0e31\u0e34-\u0e3a\u0e47-\u0e4e])[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]"
                         "|[\u0e40-\u0e44](?![\u0e01-\u0e2e])")


def _decoded(sample: bytes, codec: str, chars: int) -> str | None:
    """sample read by codec (a sequence cut at the end is left out), or None when it
    makes more errors than one in 200 of the `chars` non-ASCII characters. Read in steps
    that double from 512 bytes: text in another encoding passes that many errors early,
    and an incremental decoder reads in steps what it reads at once."""
    decoder, most = codecs.getincrementaldecoder(codec)("replace"), chars // 200
    parts, errors, at, step = [], 0, 0, 512
    while at < len(sample):
        parts.append(decoder.decode(sample[at:at + step], False))
        errors += parts[-1].count("\ufffd")
        if errors > most:
            return None
        at, step = at + step, step * 2
    return "".join(parts)


class _Text(NamedTuple):
    """The sample decoded by a CJK codec, and how many of its characters are in each class
    (_CLASSES: non-ASCII, kana, half-width kana, Hangul, CJK, Han)."""

    text: str
    wide: int
    kana: int
    halfwidth_kana: int
    hangul: int
    cjk: int
    han: int


def _counted(text: str) -> _Text:
    return _Text(text, *_core.char_counts(text, _CLASS_RANGES))


def _japanese(sample: _Sample, t: _Text) -> bool:
    return (t.kana + t.han >= t.wide // 2 and t.kana * 10 >= t.kana + t.han
            and t.halfwidth_kana * 5 <= t.wide)


def _korean(sample: _Sample, t: _Text) -> bool:
    if not (t.hangul * 10 >= t.wide * 6 and t.hangul * 10 >= (t.hangul + t.han) * 8):
        return False
    # Korean text keeps to KS X 1001's 2,350 common syllables (lead bytes B0-C8, trail bytes
    # A1-FE); windows-949 adds the 8,822 others with trail bytes below A1, where it reads
    # other encodings' symbols and letters before ASCII ("õn" in Mac Roman, Shift_JIS's
    # quotes 81 67, JIS X 0212's Latin letters in EUC-JP, 8F A9 and a byte)
    syllables = _core.chars_in(t.text, _HANGUL_RANGES).encode("cp949")
    return _count_in(syllables[1::2], _UHC_TRAIL_BYTES) * 10 <= len(syllables) // 2


def _chinese(t: _Text) -> bool:
    return t.cjk * 10 >= t.wide * 8 and t.kana * 20 <= t.wide


def _gbk(sample: _Sample, t: _Text) -> bool:
    if not _chinese(t):
        return False
    han = _core.chars_in(t.text, _HAN_RANGES)
    gb = han.encode("gb2312", "replace")
    outside = gb.count(b"?")
    if outside * 10 > len(han):
        return False
    # GB2312's second level (lead bytes D8-F7) holds its 3,008 rarer characters, a few in
    # a hundred of Chinese text (more where given names are: 琪 婷 倩); Thai read as GBK
    # makes a sixth of them or more (its vowels and tone marks, E0-EE), and reads as Thai
    rare = _count_in(gb[::2], _GB2312_RARE_LEADS) if not outside else 0
    return rare * 10 <= len(han) or not _thai(sample)


def _big5(sample: _Sample, t: _Text) -> bool:
    if not _chinese(t):
        return False
    # pairs of a lead byte A1-F9 and a trail byte, those of common characters (lead bytes
    # A4-C6) and those with a trail byte below 0x80
    pairs, common, low_trail = _core.big5_pairs(sample.data)
    # and they are most of its characters (big5hkscs reads more lead bytes: 9A and a letter
    # is a Han character to it), with trail bytes above A0 too (Big5 has 94 of them and 63
    # below 0x80; an ISO-8859-16 š, A8, and the ASCII letter after it, make a common character)
    return (common * 10 >= pairs * 7 and pairs * 10 >= t.wide * 7
            and low_trail * 5 <= pairs * 4 and low_trail * 10 >= pairs)


def _count_in(data: bytes, of: bytes) -> int:
    """How many of data's bytes are among `of`"""
    return len(data) - len(data.translate(None, of))


# In this order: Shift_JIS reads EUC-style bytes as half-width katakana, which its test
# refuses, while windows-949 would read Shift_JIS as Hangul; EUC-KR's compatibility jamo
# (ㅋㅋ) are kana to EUC-JP, while EUC-JP's kanji are half Hangul at most to windows-949.
_MULTI_BYTE = (("shift_jis", "cp932", _japanese), ("euc-kr", "cp949", _korean),
               ("euc-jp", "euc_jp", _japanese), ("gbk", "gb18030", _gbk), ("big5", "big5hkscs", _big5))


class _Bytes(NamedTuple):
    """An alphabet's classes as the bytes of its one-byte encoding that decode into them:
    counted from the sample's byte counts, a hundred times faster than a regular expression
    over the decoded text (a page of Cyrillic in an encoding no test takes went through them all)."""

    letter: bytes
    lower: bytes | None
    upper: bytes | None
    frequent: bytes
    vowel: bytes | None
    unassigned: bytes           # bytes the encoding has no character for
    other: bytes                # non-ASCII bytes it reads as no letter of the script


_UNASSIGNED = re.compile("\ufffd")


def _byte_class(codec: str, pattern: re.Pattern) -> bytes:
    """The bytes of a one-byte encoding that decode into a character of the pattern's class"""
    return bytes(b for b in range(0x80, 0x100) if pattern.fullmatch(bytes([b]).decode(codec, "replace")))


def _bytes_of(script: _Alphabet) -> _Bytes:
    def cls(pattern: re.Pattern | None) -> bytes | None:
        return _byte_class(script.codec, pattern) if pattern else None

    letter, lower = _byte_class(script.codec, script.letter), cls(script.lower)
    upper = bytes(b for b in letter if b not in lower) if lower is not None else None
    return _Bytes(letter, lower, upper, _byte_class(script.codec, script.frequent), cls(script.vowel),
                  _byte_class(script.codec, _UNASSIGNED), bytes(b for b in _HIGH_BYTES if b not in letter))


_ALPHABET_BYTES = {script.name: _bytes_of(script) for script in _ALPHABETS}


_THAI_BYTES = _byte_class("cp874", _THAI)
_THAI_MARK_BYTES = _byte_class("cp874", _THAI_MARK)
_THAI_CONSONANT_BYTES = _byte_class("cp874", _THAI_CONSONANT)
_THAI_LEADING_VOWEL_BYTES = _byte_class("cp874", _THAI_LEADING_VOWEL)


def _alphabet(sample: _Sample, high: int, script: _Alphabet) -> tuple[int, int] | None:
    """The sample (with `high` bytes of 0x80 or more) read in the script's encoding is words
    of the script, with its frequent letters (and its case, and its share of vowels, where
    the script has them tested): how many of its capitals follow a lower-case letter, and
    how many symbols come right before a (lower-case) letter, which rank the encodings that
    pass; None when it is not. A byte is a character there: each count of characters is one
    of bytes."""
    classes = _ALPHABET_BYTES[script.name]
    letters = sample.count(classes.letter)
    if letters < _MIN_LETTERS or letters * 100 < high * script.share:
        return None
    # words, not letters alone or in pairs (accented Latin letters): first, for most pages
    # that come here fail it
    if _core.bytes_in_runs(sample.data, classes.letter, 3) * 10 < letters * 7:   # ASCII and other bytes end a word
        return None
    # text in the encoding has none (one in 200 forgiven, as for the CJK ones): windows-1256's
    # ف ق ك are unassigned in ISO-8859-6, which reads its other letters as letters too
    if sample.count(classes.unassigned) * 200 > high:
        return None
    # no letter makes a quarter of them (the most frequent ones, Arabic's ا, a sixth at most):
    # Big5's kana, C7 and a byte, read as ا and a letter
    if max(_counts_of(classes.letter)(sample.counts)) * 4 > letters:
        return None
    base, inner = letters, 0
    if classes.lower is not None and classes.upper is not None:
        base = sample.count(classes.lower)
        upper = letters - base
        if not (upper * 10 <= letters * 4 and upper * 100 >= letters):
            return None
        # a capital after a lower-case letter: rare in text ("МегаФон", "ПриватБанк"), and
        # where another encoding of the script is read, 1 to 5% of the letters (x-mac-cyrillic's
        # я is windows-1251's Я; each one's capitals are the other's symbols and other letters);
        # the least of them ranks first
        inner = upper - _core.unpaired_bytes(sample.data, classes.upper, classes.lower, False)
        if inner * 100 > letters:
            return None
    if sample.count(classes.frequent) * 100 < base * script.frequent_share:
        return None
    if classes.vowel is not None:
        vowels = sample.count(classes.vowel)   # lower-case ones: the class is within lower
        if not (vowels * 10 >= base * 3 and vowels * 5 <= base * 3):
            return None
    # a symbol right before a (lower-case) letter: where a word begins with a capital that
    # this encoding reads as a symbol (x-mac-cyrillic's Ф, 94, is windows-1251's ”)
    after = classes.lower if classes.lower is not None else classes.letter
    stray = sample.count(classes.other) - _core.unpaired_bytes(sample.data, classes.other, after, True)
    return inner, stray


def _thai(sample: _Sample) -> bool:
    """sample read in windows-874 is Thai: marks on consonants, vowels before them, no
    character over a fifth of the text (Cyrillic in GBK, A7 and a byte, reads as ง and a
    mark). A byte is a character there: the counts are of bytes, the text decoded last."""
    letters = sample.count(_THAI_BYTES)
    if letters < _MIN_LETTERS or letters * 10 < sample.count(_HIGH_BYTES) * 8:
        return False
    if max(_counts_of(_THAI_BYTES)(sample.counts)) * 5 > letters or sample.count(_THAI_MARK_BYTES) * 10 < letters:
        return False
    # _THAI_STRAY's matches, counted on the bytes (one a character in windows-874): an
    # ASCII character is neither a consonant nor a mark
    strays = (_core.unpaired_bytes(sample.data, _THAI_MARK_BYTES, _THAI_CONSONANT_BYTES + _THAI_MARK_BYTES, False)
              + _core.unpaired_bytes(sample.data, _THAI_LEADING_VOWEL_BYTES, _THAI_CONSONANT_BYTES, True))
    return strays * 50 <= letters


def _mostly_utf8(sample: _Sample) -> bool:
    # the sample read as UTF-8 with "replace": its non-ASCII characters and U+FFFD, of
    # which those it writes for bad bytes are also non-ASCII characters
    chars, errors, replacements = _core.utf8_counts(sample.data)
    wide, bad = chars + errors, errors + replacements
    return wide - bad >= _MIN_UTF8 and bad * 4 <= wide


def guess(data: bytes | bytearray | memoryview) -> str | None:
    """The WHATWG name of the encoding an undeclared, non-UTF-8 page is written in,
    when its bytes leave little doubt; else None."""
    sample = _sample(data)
    controls = sample.count(_CONTROL_BYTES)
    if controls >= 16 and controls * 20 > len(sample.data):
        return None   # binary, not text: the tests below would take 20 ms to say so
    if _mostly_utf8(sample):
        return "utf-8"
    chars_max = sample.count(_HIGH_BYTES)
    if chars_max < _MIN_CHARS:
        return None
    for name, codec, test in _MULTI_BYTE:
        text = _decoded(sample.data, codec, chars_max // 2)
        if text is not None and (counted := _counted(text)).wide >= _MIN_CHARS and test(sample, counted):
            return name
    # the one whose capitals follow lower-case letters least (in a short sample of
    # x-mac-cyrillic, windows-1251 may read one я as Я), then the one with the fewest
    # symbols before a letter (each reads some of the other's capitals as symbols), the
    # first in _ALPHABETS if tied: one with neither is the answer
    best: tuple[tuple[int, int], str] | None = None
    for script in _ALPHABETS:
        rank = _alphabet(sample, chars_max, script)
        if rank == (0, 0):
            return script.name
        if rank is not None and (best is None or rank < best[0]):
            best = (rank, script.name)
    if best is not None:
        return best[1]
    if _thai(sample):
        return "windows-874"
    return latin(sample.data, sample.count, chars_max) if chars_max >= _MIN_LATIN else None
