"""Legacy multi-byte text: fastparse's decoding against the Encoding Standard's decoders.

    python tools/whatwg_decode_diff.py --index-dir DIR [--seed 2] [--runs 3000] [--show 3]

DIR holds the standard's index files as https://encoding.spec.whatwg.org/ publishes them
(index-jis0208.txt, index-jis0212.txt, index-euc-kr.txt, index-big5.txt, index-gb18030.txt,
index-gb18030-ranges.txt); they are not in this repository. The decoders below are the
standard's Shift_JIS, EUC-JP, EUC-KR, Big5 and gb18030 decoders (its sections 10-13)
transcribed state by state over those indexes. Each run is a random mix of
valid characters, lone high bytes, pairs with any second byte, cut four-byte and three-byte
sequences and ASCII, put in a paragraph and in an attribute value of a page parsed with
encoding=; a run counts when the text or the value differs from the transcription's.
fastparse/_legacy_codecs.py says where the two still part (Big5's A241 and A242). Each run
is followed by markup in the page, so it is decoded as the standard decodes it there: not
as the end of the input.
"""
from __future__ import annotations

import argparse
import bisect
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import fastparse as fp

FFFD = "\ufffd"
ENCODINGS = ["shift_jis", "euc-jp", "euc-kr", "big5", "gbk"]


def read_index(path: Path) -> dict[int, int]:
    table = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            pointer, code_point = line.split("\t")[:2]
            table[int(pointer)] = int(code_point, 16)
    return table


class Indexes:
    def __init__(self, folder: Path) -> None:
        self.jis0208 = read_index(folder / "index-jis0208.txt")
        self.jis0212 = read_index(folder / "index-jis0212.txt")
        self.euc_kr = read_index(folder / "index-euc-kr.txt")
        self.big5 = read_index(folder / "index-big5.txt")
        self.gb18030 = read_index(folder / "index-gb18030.txt")
        self.ranges = sorted(read_index(folder / "index-gb18030-ranges.txt").items())
        self.range_pointers = [p for p, _ in self.ranges]

    def gb18030_range(self, pointer: int) -> int | None:
        if 39419 < pointer < 189000 or pointer > 1237575:
            return None
        if pointer == 7457:
            return 0xE7C7
        offset, code_point = self.ranges[bisect.bisect_right(self.range_pointers, pointer) - 1]
        return code_point + pointer - offset


# ---- the standard's decoders: each handler takes (state, byte or None, queue) and returns
# a string, None (continue) or "end"; bytes given back are pushed onto the queue ----

def two_byte(single, is_lead, pair):
    """The shape the Shift_JIS, EUC-KR and Big5 decoders share: single(b) reads a byte that
    starts no pair (a string: U+FFFD for an error), pair(ix, lead, b) a pair (a string, or
    None when the index has none: the second byte is given back when it is ASCII)."""
    def handler(ix: Indexes, st: dict, b: int | None, queue: list[int]):
        lead = st.pop("lead", 0)
        if b is None:
            return FFFD if lead else "end"
        if lead:
            return pair_or_error(pair(ix, lead, b), b, queue)
        if is_lead(b):
            st["lead"] = b
            return None
        return single(b)
    return handler


def pair_or_error(text: str | None, b: int, queue: list[int]) -> str:
    """A pair's text, else U+FFFD with the second byte b given back when it is ASCII."""
    if text is not None:
        return text
    if b < 0x80:
        queue.append(b)
    return FFFD


def character(code_point: int | None) -> str | None:
    return None if code_point is None else chr(code_point)


def ascii_or_error(b: int) -> str:
    return chr(b) if b < 0x80 else FFFD


def shift_jis_pair(ix: Indexes, lead: int, b: int) -> str | None:
    if not (0x40 <= b <= 0x7E or 0x80 <= b <= 0xFC):
        return None
    pointer = (lead - (0x81 if lead < 0xA0 else 0xC1)) * 188 + b - (0x40 if b < 0x7F else 0x41)
    if 8836 <= pointer <= 10715:
        return chr(0xE000 - 8836 + pointer)
    return character(ix.jis0208.get(pointer))


def shift_jis_single(b: int) -> str:
    if b <= 0x80:
        return chr(b)
    return chr(0xFF61 - 0xA1 + b) if 0xA1 <= b <= 0xDF else FFFD


def euc_kr_pair(ix: Indexes, lead: int, b: int) -> str | None:
    return character(ix.euc_kr.get((lead - 0x81) * 190 + b - 0x41)) if 0x41 <= b <= 0xFE else None


BIG5_TWO = {1133: "\u00ca\u0304", 1135: "\u00ca\u030c", 1164: "\u00ea\u0304", 1166: "\u00ea\u030c"}


def big5_pair(ix: Indexes, lead: int, b: int) -> str | None:
    if not (0x40 <= b <= 0x7E or 0xA1 <= b <= 0xFE):
        return None
    pointer = (lead - 0x81) * 157 + b - (0x40 if b < 0x7F else 0x62)
    return BIG5_TWO.get(pointer) or character(ix.big5.get(pointer))


shift_jis = two_byte(shift_jis_single, lambda b: 0x81 <= b <= 0x9F or 0xE0 <= b <= 0xFC, shift_jis_pair)
euc_kr = two_byte(ascii_or_error, lambda b: 0x81 <= b <= 0xFE, euc_kr_pair)
big5 = two_byte(ascii_or_error, lambda b: 0x81 <= b <= 0xFE, big5_pair)


def euc_jp(ix: Indexes, st: dict, b: int | None, queue: list[int]):
    lead = st.get("lead", 0)
    if b is None:
        st["lead"] = 0
        return FFFD if lead else "end"
    if lead == 0x8E and 0xA1 <= b <= 0xDF:
        st["lead"] = 0
        return chr(0xFF61 - 0xA1 + b)
    if lead == 0x8F and 0xA1 <= b <= 0xFE:
        st["jis0212"], st["lead"] = True, b
        return None
    if lead:
        st["lead"] = 0
        code_point = None
        if 0xA1 <= lead <= 0xFE and 0xA1 <= b <= 0xFE:
            table = ix.jis0212 if st.get("jis0212") else ix.jis0208
            code_point = table.get((lead - 0xA1) * 94 + b - 0xA1)
        st["jis0212"] = False
        return pair_or_error(character(code_point), b, queue)
    if b < 0x80:
        return chr(b)
    if b in (0x8E, 0x8F) or 0xA1 <= b <= 0xFE:
        st["lead"] = b
        return None
    return FFFD


def gb18030(ix: Indexes, st: dict, b: int | None, queue: list[int]):
    first, second, third = st.get("first", 0), st.get("second", 0), st.get("third", 0)
    if b is None:
        st.clear()
        return FFFD if first or second or third else "end"
    if third:
        st.clear()
        if not 0x30 <= b <= 0x39:
            queue.extend([b, third, second])
            return FFFD
        pointer = (first - 0x81) * 12600 + (second - 0x30) * 1260 + (third - 0x81) * 10 + b - 0x30
        code_point = ix.gb18030_range(pointer)
        return FFFD if code_point is None else chr(code_point)
    if second:
        if 0x81 <= b <= 0xFE:
            st["third"] = b
            return None
        st.clear()
        queue.extend([b, second])
        return FFFD
    if first:
        if 0x30 <= b <= 0x39:
            st["second"] = b
            return None
        st.clear()
        pointer = None
        if 0x40 <= b <= 0x7E or 0x80 <= b <= 0xFE:
            pointer = (first - 0x81) * 190 + b - (0x40 if b < 0x7F else 0x41)
        code_point = ix.gb18030.get(pointer) if pointer is not None else None
        return pair_or_error(character(code_point), b, queue)
    if b < 0x80:
        return chr(b)
    if b == 0x80:
        return "\u20ac"
    if 0x81 <= b <= 0xFE:
        st["first"] = b
        return None
    return FFFD


DECODERS = {"shift_jis": shift_jis, "euc-jp": euc_jp, "euc-kr": euc_kr, "big5": big5, "gbk": gb18030}


def decode(ix: Indexes, name: str, data: bytes) -> str:
    handler, out, state = DECODERS[name], [], {}
    queue = list(reversed(data))
    while True:
        result = handler(ix, state, queue.pop() if queue else None, queue)
        if result == "end":
            return "".join(out)
        if result is not None:
            out.append(result)


SAFE_ASCII = [b for b in range(0x20, 0x7F) if b not in b"<&>\"'=/"]


def random_run(rng: random.Random, name: str, valid: list[bytes]) -> bytes:
    parts = []
    for _ in range(rng.randint(1, 12)):
        k = rng.random()
        if k < 0.35:
            parts.append(rng.choice(valid))
        elif k < 0.55:
            parts.append(bytes([rng.randint(0x80, 0xFF)]))
        elif k < 0.75:
            parts.append(bytes([rng.randint(0x81, 0xFE), rng.randint(0x30, 0xFF)]))
        elif k < 0.85 and name == "gbk":
            parts.append(bytes([rng.randint(0x81, 0xFE), rng.randint(0x30, 0x39), rng.randint(0x80, 0xFF),
                                rng.randint(0x2F, 0x3A)]))
        elif k < 0.85 and name == "euc-jp":
            parts.append(bytes([0x8F, rng.randint(0xA0, 0xFF), rng.randint(0x40, 0xFF)]))
        else:
            parts.append(bytes([rng.choice(SAFE_ASCII)]))
    return b"".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--index-dir", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3000)
    ap.add_argument("--show", type=int, default=3)
    args = ap.parse_args()
    ix = Indexes(args.index_dir)
    rng = random.Random(args.seed)
    for name in ENCODINGS:
        valid = [bytes([lead, trail]) for lead in range(0x81, 0xFF) for trail in range(0x40, 0xFF)]
        valid = [pair for pair in valid if FFFD not in decode(ix, name, pair)]
        differ, shown = 0, 0
        for _ in range(args.runs):
            data = random_run(rng, name, valid)
            if any(b in data for b in b"<&>\"\r\0"):   # markup, or bytes the tree builder changes
                continue
            want = decode(ix, name, data + b"<")[:-1]   # markup follows the run: not the end of input
            p = fp.parse(b'<p title="' + data + b'">' + data + b"</p>", encoding=name).find("p")
            if (p.text, p["title"]) != (want, want):
                differ += 1
                if shown < args.show:
                    shown += 1
                    print(f"  {name} {data.hex()}: standard {want!r}, fastparse {p.text!r}")
        print(f"{name}: {differ} of {args.runs} runs differ")


if __name__ == "__main__":
    main()
