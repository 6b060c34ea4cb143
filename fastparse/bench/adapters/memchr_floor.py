"""The floor: a memchr scan for every '<' and its '>' over the same bytes
(`fastparse._core.floor_scan`). No parser can do less work; every table shows
the distance to it. It has no tree, so it only takes part in parse tasks."""
from __future__ import annotations

from .base import Adapter


class FloorAdapter(Adapter):
    name = "floor"
    label = "floor (memchr)"
    distributions = ("fastparse",)
    supports = ("parse", "scaling", "memory")

    def __init__(self):
        super().__init__()
        from fastparse._core import floor_scan
        self.parse = floor_scan
