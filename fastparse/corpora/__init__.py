"""Benchmark corpora: the manifest of real pages (never committed: fetched or
found next to the checkout, verified by sha256) and the generated pages the
project owns (rebuilt deterministically from seeds)."""
from .loader import CorpusError, Page, cache_dir, generated_pages, pages, real_pages, scaling_pages, truth
from .manifest import Entry, read_manifest

__all__ = ["CorpusError", "Entry", "Page", "cache_dir", "generated_pages", "pages", "read_manifest",
           "real_pages", "scaling_pages", "truth"]
