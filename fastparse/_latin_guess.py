"""The guess's last step: a page in a Latin script that windows-1252 reads wrong.

Central European, Turkish and Baltic text written in windows-1250, ISO-8859-2, windows-1254
or windows-1257 reads in windows-1252, the fallback, with letters no Western language writes
together and symbols inside words: Polish "mały" as "ma³y", Czech "řeka" as "øeka", Turkish
"ışık" as "ýþýk". Each reading is scored by the language of its family whose letters (and the
punctuation any text has) make the largest share of the sample's non-ASCII bytes:

* a page windows-1252 reads as one Western language, nine bytes in ten or more, stays
  windows-1252 (the French page of tests/test_encoding_guess.py with a German sentence:
  0.96, as Welsh, whose accents are many; its Czech page 0.67, Turkish 0.65, Polish 0.35);
* otherwise the encoding whose reading is one language of its family, 95% of the bytes or
  more, and a fifth of them more than windows-1252's best, is the guess; windows-1250
  before ISO-8859-2, which reads its letters alike but for Š Ś Ť Ž Ź and their lower case,
  ą and Ą (each reads the other's as symbols, controls or other letters). Six in ten of
  that language's letters must be lower-case, as text's are.

Mixed text (a Western page quoting a Czech name, a list of names from everywhere) reads as
no single language in any encoding and stays windows-1252.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from . import _core

# punctuation and symbols of any text, which every language's share counts: a page's
# quotes and dashes read as such in windows-1252 and -1250 alike, as C1 controls in ISO-8859-2
_PUNCTUATION = "\u00a0\u00ad’‘“”„‚«»‹›–—…•·°©®™€£¥¢§´×"
# symbols that text writes by numbers and units ("¾ cup", "±5", "10 µm", "m³"), which count
# as punctuation too where they stand as symbols do: other encodings' letters read as them
# stand in words (Polish "mały" in windows-1250 reads "ma³y"; "¾ cup" in windows-1250 "ľ cup"):
# µ before a unit, not after a letter; a superscript after a letter or number, not before a
# letter; a fraction or ± by numbers, next to no letter
_AFTER_NO_LETTER = "µ"
_BEFORE_NO_LETTER = "¹²³"
_BY_NO_LETTER = "¼½¾±"

_WESTERN = {   # windows-1252's languages
    "de": "äöüßé", "fr": "àâæçéèêëîïôœùûüÿ", "es": "áéíñóúü¡¿ªº", "it": "àèéìíîòóùúªº",
    "pt": "áâãàçéêíóôõúüªº", "ca": "àçèéíïòóúü", "nl": "áéèëïóöüíú", "sv": "åäöé", "da": "æøåéö",
    "is": "áðéíóúýþæö", "fi": "äöåšž", "et": "äõöüšž", "ga": "áéíóú", "eu": "ñüáéíóú", "af": "êëéèïôûäöüáó",
    "sq": "çë", "cy": "âêîôûäëïöüáéíóúàèìòù",
}
# Slovak's ĺ and ŕ, a few in 10,000 letters, are left out: windows-1250 reads the Nordic å
# and the à of French, Catalan and Italian as them, and a Western page that mixes those
# with á é í ó ú would read as Slovak
_CENTRAL = {   # windows-1250's and ISO-8859-2's
    "cs": "áčďéěíňóřšťúůýž", "sk": "áäčďéíľňóôšťúýž", "pl": "ąćęłńóśźż", "hu": "áéíóöőúüű",
    "hr": "čćđšž", "ro": "ăâîşţșț", "de": "äöüßé",
}
_TURKISH = {"tr": "çğıöşüâîûİ"}
_BALTIC = {"lt": "ąčęėįšųūž", "lv": "āčēģīķļņšūž", "et": "äõöüšž"}


class _Language(NamedTuple):
    """The bytes an encoding reads as a language's letters, and as its lower-case ones"""

    letters: bytes
    lower: bytes


class _Reading(NamedTuple):
    """An encoding, the bytes it reads as punctuation, as symbols by numbers (µ, the
    superscripts, the fractions and ±) and as letters (ASCII ones too), and its languages"""

    name: str
    punctuation: bytes
    micro: bytes
    superscripts: bytes
    fractions: bytes
    word: bytes
    languages: tuple[_Language, ...]


def _reading(name: str, codec: str, languages: dict[str, str]) -> _Reading:
    def bytes_of(chars: str | set[str]) -> bytes:
        return bytes(b for b in range(0x80, 0x100) if bytes([b]).decode(codec, "replace") in chars)

    def language(lower: str) -> _Language:
        upper = {c.upper() for c in lower if len(c.upper()) == 1 and not c.upper().isascii()}
        return _Language(bytes_of(set(lower) | upper), bytes_of(set(lower) - upper))

    ascii_letters = bytes(range(0x41, 0x5B)) + bytes(range(0x61, 0x7B))
    word = ascii_letters + bytes(b for b in range(0x80, 0x100) if bytes([b]).decode(codec, "replace").isalpha())
    return _Reading(name, bytes_of(_PUNCTUATION), bytes_of(_AFTER_NO_LETTER), bytes_of(_BEFORE_NO_LETTER),
                    bytes_of(_BY_NO_LETTER), word, tuple(language(letters) for letters in languages.values()))


def _in_words(sample: bytes, count: Callable[[bytes], int], reading: _Reading) -> int:
    """How many of the reading's symbols by numbers stand in words: µ after a letter, a
    superscript before one, a fraction or ± next to one (at least on the side where more do)"""
    def next_to_letter(symbols: bytes, after: bool) -> int:
        found = count(symbols)   # mostly none: no pass over the sample then
        return found - _core.unpaired_bytes(sample, symbols, reading.word, after) if found else 0

    return (next_to_letter(reading.micro, False) + next_to_letter(reading.superscripts, True)
            + max(next_to_letter(reading.fractions, False), next_to_letter(reading.fractions, True)))


_WINDOWS_1252 = _reading("windows-1252", "cp1252", _WESTERN)
_OTHERS = (_reading("windows-1250", "cp1250", _CENTRAL), _reading("iso-8859-2", "iso8859_2", _CENTRAL),
           _reading("windows-1254", "cp1254", _TURKISH), _reading("windows-1257", "cp1257", _BALTIC))


def _best(sample: bytes, count: Callable[[bytes], int], reading: _Reading) -> tuple[int, int]:
    """How many of the sample's non-ASCII bytes the reading's best language takes (its
    letters, the punctuation, the symbols by numbers not inside a word), and its index"""
    by_numbers = count(reading.micro) + count(reading.superscripts) + count(reading.fractions)
    punctuation = count(reading.punctuation) + by_numbers - _in_words(sample, count, reading)
    letters, k = max((count(language.letters), k) for k, language in enumerate(reading.languages))
    return punctuation + letters, k


def latin(sample: bytes, count: Callable[[bytes], int], high: int) -> str | None:
    """The encoding of a sample with `high` non-ASCII bytes, counted by `count` (how many
    of them are among the given bytes), when windows-1252 reads it wrong and another
    Latin-script encoding right; else None."""
    # most pages that come here are Western, the first languages English-like (punctuation)
    punctuation = count(_WINDOWS_1252.punctuation)
    if any((punctuation + count(language.letters)) * 10 >= high * 9 for language in _WINDOWS_1252.languages):
        return None
    western, _ = _best(sample, count, _WINDOWS_1252)
    if western * 10 >= high * 9:
        return None
    scores = [(*_best(sample, count, reading), -k) for k, reading in enumerate(_OTHERS)]
    best, language, k = max(scores, key=lambda score: (score[0], score[2]))
    if best * 100 < high * 95 or (best - western) * 5 < high:
        return None
    # most of its letters lower-case, as text's are: other encodings' symbols read as
    # its letters are as often capitals (EUC-KR's quotes, A1 B0 and A1 B1, as "Ą°" "Ą±")
    reading = _OTHERS[-k]
    letters, lower = reading.languages[language]
    return reading.name if count(lower) * 10 >= count(letters) * 6 else None
