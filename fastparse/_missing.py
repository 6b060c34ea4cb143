"""MISSING: what a query returns when nothing matches, so chains stay safe.

``doc.find("div", cls="price").find("span").text`` is ``None`` when either step
matches nothing: every navigation or query on MISSING returns MISSING (or an
empty list), every value (text, attribute) is ``None``.
"""

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

    # queries and navigation stay MISSING (or empty); they take the arguments a Tag's
    # take, so a call a Tag would refuse (a filter passed by position) fails here too
    def find(self, name=None, *, id=None, cls=None, attrs=None):
        return self

    def find_all(self, name=None, *, id=None, cls=None, attrs=None, limit=None):
        return []

    # a selector is compiled (and cached) as a Tag would, so a typo raises on every page,
    # not only on those where the step before matched
    def select(self, css, /):
        _checked(css)
        return []

    def select_one(self, css, /):
        _checked(css)
        return self

    def closest(self, css, /):
        _checked(css)
        return self

    def matches(self, css, /) -> bool:
        _checked(css)
        return False

    def next_sibling(self, name=None, *, id=None, cls=None, attrs=None):
        return self

    def prev_sibling(self, name=None, *, id=None, cls=None, attrs=None):
        return self

    def get(self, name, default=None, /):
        return default

    def get_text(self, separator="", strip=False, skip=None, *, collapse=False):
        return None

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


def _checked(css) -> None:
    from .selectors.cache import program  # late: the selectors import this module's package

    program(css)


MISSING = _Missing()
