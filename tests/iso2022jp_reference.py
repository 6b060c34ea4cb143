"""The Encoding Standard's ISO-2022-JP decoder (12.2.1) in Python, byte by byte: the
reference that tests/test_encoding.py checks the C transcoder (fastparse/_core/iso2022jp.c,
which fastparse.encoding runs) against. A pair of JIS X 0208 bytes is read through the
EUC-JP codec fastparse registers ("whatwg-euc-jp"), whose bytes are the pair's with the
high bit set, not through the generated table the C reads. Not part of the package.

https://encoding.spec.whatwg.org/#iso-2022-jp-decoder
"""

from __future__ import annotations

from collections import deque

from fastparse import encoding

_ASCII, _ROMAN, _KATAKANA, _LEAD_BYTE, _TRAIL_BYTE, _ESCAPE_START, _ESCAPE = range(7)
_ESCAPES = {(0x28, 0x42): _ASCII, (0x28, 0x4A): _ROMAN, (0x28, 0x49): _KATAKANA,
            (0x24, 0x40): _LEAD_BYTE, (0x24, 0x42): _LEAD_BYTE}
_EUC_JP = encoding.lookup("euc-jp")[1]
_FFFD = "\ufffd"


def _jis0208(lead: int, byte: int) -> str:
    """index-jis0208's code point for the pair, or U+FFFD where the index has none."""
    text = bytes((lead | 0x80, byte | 0x80)).decode(_EUC_JP, "replace")
    return text if len(text) == 1 else _FFFD


def iso2022jp_reference(data: bytes) -> str:
    """The decoder run over data with the replacement error mode."""
    queue = deque(data)
    out: list[str] = []
    state = output_state = _ASCII
    lead = 0
    output_flag = False
    while True:
        byte = queue.popleft() if queue else None   # None: end-of-queue
        if state in (_ASCII, _ROMAN, _KATAKANA, _LEAD_BYTE):
            if byte is None:
                return "".join(out)
            if byte == 0x1B:
                state = _ESCAPE_START
                continue
            output_flag = False
            if state == _LEAD_BYTE and 0x21 <= byte <= 0x7E:
                lead, state = byte, _TRAIL_BYTE
            elif state == _KATAKANA and 0x21 <= byte <= 0x5F:
                out.append(chr(0xFF61 - 0x21 + byte))
            elif state == _ROMAN and byte in (0x5C, 0x7E):
                out.append("\u00a5" if byte == 0x5C else "\u203e")
            elif state in (_ASCII, _ROMAN) and byte <= 0x7F and byte not in (0x0E, 0x0F):
                out.append(chr(byte))
            else:
                out.append(_FFFD)
        elif state == _TRAIL_BYTE:
            if byte == 0x1B:
                state = _ESCAPE_START
                out.append(_FFFD)
                continue
            state = _LEAD_BYTE
            if byte is None:   # the end, prepended, which the lead byte state reads: finished
                out.append(_FFFD)
                return "".join(out)
            out.append(_jis0208(lead, byte) if 0x21 <= byte <= 0x7E else _FFFD)
        elif state == _ESCAPE_START:
            if byte in (0x24, 0x28):
                lead, state = byte, _ESCAPE
                continue
            if byte is not None:
                queue.appendleft(byte)
            output_flag, state = False, output_state
            out.append(_FFFD)
        else:   # _ESCAPE
            first, lead = lead, 0
            found = _ESCAPES.get((first, byte)) if byte is not None else None
            if found is not None:
                state = output_state = found
                if output_flag:
                    out.append(_FFFD)
                output_flag = True
                continue
            if byte is not None:
                queue.appendleft(byte)
            queue.appendleft(first)
            output_flag, state = False, output_state
            out.append(_FFFD)
