"""Bad-selector errors: the message quotes the selector and puts a caret under the position."""

from __future__ import annotations

from typing import NoReturn

from ..errors import SelectorError


def fail(css: str, pos: int, message: str) -> NoReturn:
    pos = max(0, min(pos, len(css)))
    # One line of context: newlines in the selector would break the caret's alignment.
    shown = css.replace("\n", " ").replace("\t", " ").replace("\r", " ").replace("\f", " ")
    raise SelectorError(f"{message} at position {pos}:\n    {shown}\n    {' ' * pos}^", css, pos)
