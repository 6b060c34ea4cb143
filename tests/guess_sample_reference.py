"""The encoding guess's sampler as it was written in Python before guess.c took it over
(fastparse/_encoding_guess.py says what the sample is and why): the runs of text between
tags that hold non-ASCII bytes, searched with a regular expression around the blocks that
are not ASCII. tests/test_encoding_guess.py checks that the C takes the same bytes."""
from __future__ import annotations

import re

SAMPLE = 1 << 15                # bytes of text read
PART = 1 << 11                  # of one run of text
SCAN = 1 << 20                  # bytes of the page searched for them
BLOCK = 1 << 12
_ASCII_BYTES = bytes(range(0x80))
# a run of text after a tag, or before any (\A); linear: no two tries read one byte
_TEXT_WITH_HIGH_BYTES = re.compile(rb"(?:>|\A)([^<>\x80-\xff]*[\x80-\xff][^<]*)")


def sample(data: bytes | bytearray | memoryview) -> bytes:
    head = bytes(data[:SCAN])
    parts: list[bytes] = []
    size = done = 0
    for at in range(0, len(head), BLOCK):
        if size >= SAMPLE:
            break
        if at + BLOCK <= done or head[at:at + BLOCK].isascii():
            continue
        lo = max(head.rfind(b">", done, at + 1), done)
        hi = head.find(b"<", at + BLOCK)
        hi = len(head) if hi < 0 else hi
        for m in _TEXT_WITH_HIGH_BYTES.finditer(head, lo, hi):
            parts.append(core(m.group(1)))
            size += len(parts[-1]) + 1
            if size >= SAMPLE:
                break
        done = hi
    return b"\n".join(parts)[:SAMPLE]


def core(run: bytes) -> bytes:
    """A run from its first non-ASCII byte to the byte after its last, at most PART bytes"""
    run = run.lstrip(_ASCII_BYTES)
    return run[:min(len(run.rstrip(_ASCII_BYTES)) + 1, PART)]
