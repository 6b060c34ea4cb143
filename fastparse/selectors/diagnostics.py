"""Bad-selector errors: the message quotes the selector and puts a caret under the position."""

from __future__ import annotations

from typing import NoReturn

from ..errors import SelectorError

CONTEXT = 80  # characters of a long selector quoted around the error


def fail(css: str, pos: int, message: str) -> NoReturn:
    pos = max(0, min(pos, len(css)))
    # One line of context: newlines in the selector would break the caret's alignment.
    shown = css.replace("\n", " ").replace("\t", " ").replace("\r", " ").replace("\f", " ")
    caret = pos
    if len(shown) > 2 * CONTEXT:  # a long selector: the stretch around the position
        start = max(0, min(pos - CONTEXT // 2, len(shown) - CONTEXT))
        left = "..." if start else ""
        caret = pos - start + len(left)
        shown = left + shown[start:start + CONTEXT] + ("..." if start + CONTEXT < len(shown) else "")
    raise SelectorError(f"{message} at position {pos}:\n    {shown}\n    {' ' * caret}^", css, pos)
