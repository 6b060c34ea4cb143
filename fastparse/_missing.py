"""MISSING: what a query returns when nothing matches, so chains stay safe.

``doc.find("div", cls="price").find("span").text`` is ``None`` when either step
matches nothing: every navigation or query on MISSING returns MISSING (or an
empty list), every value (text, attribute) is ``None``.
"""

import functools

__all__ = ["MISSING"]


class _Missing:
    __slots__ = ()
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "MISSING"

    def __reduce__(self):
        return "MISSING"

    def __len__(self) -> int:
        return 0

    def __iter__(self):
        return iter(())

    def __contains__(self, name) -> bool:
        return False

    def __getitem__(self, name):
        return None

    # queries and navigation stay MISSING (or empty), after the arguments are checked as a
    # Tag checks them (on a Tag of its own: _probe): a call a Tag would refuse (a filter
    # passed by position, BeautifulSoup's class_=, a limit below 0) raises on every page,
    # not only on those where the step before matched; so does an invalid selector
    def find(self, *args, **kwargs):
        _probe().find(*args, **kwargs)
        return self

    def find_all(self, *args, **kwargs):
        _probe().find_all(*args, **kwargs)
        return []

    def select(self, *args):
        _probe().select(*args)
        return []

    def select_one(self, *args):
        _probe().select_one(*args)
        return self

    def closest(self, *args):
        _probe().closest(*args)
        return self

    def matches(self, *args) -> bool:
        _probe().matches(*args)
        return False

    def next_sibling(self, *args, **kwargs):
        _probe().next_sibling(*args, **kwargs)
        return self

    def prev_sibling(self, *args, **kwargs):
        _probe().prev_sibling(*args, **kwargs)
        return self

    def get(self, name, default=None, /):
        _probe().get(name)
        return default

    def get_text(self, *args, **kwargs) -> None:   # None, as text is
        _probe().get_text(*args, **kwargs)

    parent = property(lambda self: self)
    next = property(lambda self: self)
    prev = property(lambda self: self)
    children = property(lambda self: [])
    descendants = property(lambda self: [])
    name = property(lambda self: None)
    text = property(lambda self: None)
    html = property(lambda self: None)
    inner_html = property(lambda self: None)
    attrs = property(lambda self: {})
    id = property(lambda self: None)
    classes = property(lambda self: [])
    span = property(lambda self: None)
    inner_span = property(lambda self: None)
    line = property(lambda self: None)
    col = property(lambda self: None)
    depth = property(lambda self: None)
    index = property(lambda self: None)
    closed_by = property(lambda self: None)
    namespace = property(lambda self: None)
    document = property(lambda self: None)

    def _repr_html_(self) -> str:
        return "<code>MISSING</code>"


def _show_tag_signatures() -> None:
    """inspect.signature (help(), Jupyter) follows __wrapped__: MISSING's methods show the
    parameters of the Tag methods they check their arguments with."""
    from ._core import Tag

    for name in ("find", "find_all", "select", "select_one", "closest", "matches",
                 "next_sibling", "prev_sibling", "get", "get_text"):
        getattr(_Missing, name).__wrapped__ = getattr(Tag, name)


_show_tag_signatures()


@functools.cache
def _probe():
    """The one element of a document of its own, whose methods check MISSING's arguments."""
    from . import _parse  # late: the package imports this module first

    return _parse.parse("<p>").find("p")


MISSING = _Missing()
