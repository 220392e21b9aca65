"""Mihiraki from Python: the pages of a book as two-page spreads.

    import mihiraki
    book = mihiraki.open("vol01.cbz")
    array = book.spread(1, size="x300", direction="rtl")   # numpy, H x W x C, uint8
    image = book.spread_image(1, size="x300")                # PIL.Image
    mihiraki.render(["vol01.cbz"], "out", size="x300")

Keyword options are the option table's names (`mihiraki render --help`)
with `_` for `-`: ``size``, ``direction``, ``pairing``, ``split_wide``,
``crop_borders``, ... A flag takes ``True``; a list (``solo``,
``blank_before``) takes a list of page numbers. The pixels are those of the
command line's PNGs, value for value. Calls release the GIL: threads on
different books (or the same one) run in parallel. Paths are ``str``,
``bytes`` or path-like; one holding a NUL byte raises UsageError, as
Python's own ``open`` refuses it.
"""
from __future__ import annotations

import ctypes
import difflib
import json
import os
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

__all__ = ["open", "render", "compare", "options", "Book", "Outcome", "CompareResult", "Error", "BookError", "UsageError",
           "UnknownOptionError", "__version__"]


class Error(Exception):
    """Anything Mihiraki refuses or cannot do; the message is its one line."""


class UsageError(Error, ValueError):
    """A bad option, value or argument."""


class BookError(Error):
    """A book or page that cannot be read, or a file that cannot be written."""


class UnknownOptionError(UsageError, TypeError):
    """A keyword that is not an option (also a TypeError, as Python's own
    unknown keywords are); the message names the nearest option."""


def _load() -> ctypes.CDLL:
    path = os.environ.get("MIHIRAKI_LIBRARY") or os.path.join(os.path.dirname(__file__), "_lib", "libMihirakiC.so")
    lib = ctypes.CDLL(path)
    char_pp = ctypes.POINTER(ctypes.c_char_p)
    error_p = ctypes.POINTER(ctypes.c_void_p)
    signatures = {
        "mihiraki_abi_version": ([], ctypes.c_int),
        "mihiraki_version": ([], ctypes.c_char_p),
        "mihiraki_error_message": ([ctypes.c_void_p], ctypes.c_char_p),
        "mihiraki_error_kind": ([ctypes.c_void_p], ctypes.c_int),
        "mihiraki_error_free": ([ctypes.c_void_p], None),
        "mihiraki_string_free": ([ctypes.c_void_p], None),
        "mihiraki_buffer_free": ([ctypes.c_void_p], None),
        "mihiraki_options_json": ([], ctypes.c_void_p),
        "mihiraki_book_open": ([ctypes.c_char_p, error_p], ctypes.c_void_p),
        "mihiraki_book_free": ([ctypes.c_void_p], None),
        "mihiraki_book_pages_json": ([ctypes.c_void_p], ctypes.c_void_p),
        "mihiraki_book_page_count": ([ctypes.c_void_p, error_p], ctypes.c_ssize_t),
        "mihiraki_book_plan_json": ([ctypes.c_void_p, char_pp, char_pp, ctypes.c_size_t, ctypes.c_int, error_p],
                                    ctypes.c_void_p),
        "mihiraki_book_spread_count": ([ctypes.c_void_p, char_pp, char_pp, ctypes.c_size_t, ctypes.c_int, error_p],
                                       ctypes.c_ssize_t),
        "mihiraki_book_spread": ([ctypes.c_void_p, char_pp, char_pp, ctypes.c_size_t, ctypes.c_int, ctypes.c_size_t,
                                  ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int),
                                  ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int), error_p], ctypes.c_int),
        "mihiraki_render": ([char_pp, ctypes.c_size_t, ctypes.c_char_p, char_pp, char_pp, ctypes.c_size_t,
                             ctypes.c_int, ctypes.POINTER(ctypes.c_void_p), error_p], ctypes.c_int),
        "mihiraki_book_open_memory": ([ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, error_p], ctypes.c_void_p),
        "mihiraki_compare_metric": ([ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_double, ctypes.c_int,
                                     ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), error_p], ctypes.c_int),
    }
    for name, (arguments, result) in signatures.items():
        function = getattr(lib, name)
        function.argtypes = arguments
        function.restype = result
    if lib.mihiraki_abi_version() != 1:
        raise ImportError(f"{path}: C ABI version {lib.mihiraki_abi_version()}, this package speaks 1")
    return lib


_lib = _load()
__version__: str = _lib.mihiraki_version().decode()


def _text(pointer: Optional[int]) -> str:
    """A string the library returned, copied and freed."""
    try:
        return ctypes.string_at(pointer).decode()
    finally:
        _lib.mihiraki_string_free(pointer)


def _raise(error: ctypes.c_void_p) -> None:
    message = _lib.mihiraki_error_message(error).decode()
    kind = _lib.mihiraki_error_kind(error)
    _lib.mihiraki_error_free(error)
    raise (UsageError if kind == 1 else BookError)(message)


_OPTIONS: List[Dict[str, str]] = json.loads(_text(_lib.mihiraki_options_json()))


def options() -> List[Dict[str, str]]:
    """The option table: each option's ``name`` (a keyword with ``_`` for
    ``-``), ``kind`` (``value``, ``list`` or ``flag``), ``value`` (its
    placeholder) and ``help``."""
    return [dict(option) for option in _OPTIONS]


def _path(path: Any) -> bytes:
    """A path as the C string the library reads: a NUL would end it early,
    and a shorter path is another file, so it is refused."""
    raw = os.fsencode(os.fspath(path))
    if b"\0" in raw:
        raise UsageError(f"embedded null byte in the path {os.fsdecode(raw)!r}")
    return raw


def _jobs(jobs: Any) -> int:
    """``jobs`` as the C int the library takes: 0 is all cores."""
    if not isinstance(jobs, int) or not 0 <= jobs <= 2**31 - 1:
        raise UsageError(f"jobs must be a whole number, 0 (all cores) or more, not {jobs!r}")
    return jobs


def _pairs(keywords: Dict[str, Any]) -> Tuple[Any, Any, int]:
    """Keyword options as the C arrays of names and values."""
    by_name = {option["name"]: option for option in _OPTIONS}
    names: List[bytes] = []
    values: List[bytes] = []
    for keyword, value in keywords.items():
        name = keyword.replace("_", "-")
        option = by_name.get(name)
        if option is None:
            keywords_known = [o["name"].replace("-", "_") for o in _OPTIONS]
            nearest = difflib.get_close_matches(keyword, keywords_known, n=1, cutoff=0.5)
            hint = f"; did you mean {nearest[0]!r}?" if nearest else ""
            raise UnknownOptionError(f"unknown option {keyword!r}{hint}")
        if value is None:
            continue
        if option["kind"] == "list":
            items = [value] if isinstance(value, (int, str)) else list(value)
            text = ",".join(str(item) for item in items)
            if not text:
                continue
        elif isinstance(value, bool):
            text = "true" if value else "false"
        else:
            text = str(value)
        if "\0" in text:
            raise UsageError(f"embedded null byte in the value of {keyword}")
        names.append(name.encode())
        values.append(text.encode())
    array = ctypes.c_char_p * max(len(names), 1)
    return array(*names), array(*values), len(names)


class Outcome(NamedTuple):
    """One book of a ``render``: its path, the folder its spreads went to,
    the files written, and the error that stopped it (None when it did not)."""
    book: str
    folder: Optional[str]
    written: List[str]
    error: Optional[str]


def _options_doc() -> str:
    """The keyword options, from the option table, for the docstrings."""
    lines = ["", "    Keyword options (the option table's, `mihiraki render --help`):", ""]
    for option in _OPTIONS:
        keyword = option["name"].replace("-", "_")
        value = {"flag": "True", "list": "[P, ...]"}.get(option["kind"], option["value"] or "VALUE")
        lines.append(f"    {keyword}={value}: {option['help']}")
    return "\n".join(lines) + "\n"


from ._book import Book, open  # noqa: E402  (after what it calls into)

for _function in (Book.plan, Book.spread, Book.spread_image):
    _function.__doc__ = (_function.__doc__ or "") + _options_doc()


def render(books: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]], output: Union[str, os.PathLike],
           jobs: int = 0, **opts: Any) -> List[Outcome]:
    """Renders books to ``output/<book>/spread-NNN.png`` and ``manifest.json``,
    as ``mihiraki render`` does, with ``jobs`` workers (0: all cores), and
    prints nothing. Returns one Outcome per book, in order; a failed book
    does not stop the others. A bad option raises UsageError."""
    paths = [books] if isinstance(books, (str, bytes, os.PathLike)) else list(books)
    encoded = [_path(path) for path in paths]
    array = (ctypes.c_char_p * max(len(encoded), 1))(*encoded)
    names, values, count = _pairs(opts)
    result = ctypes.c_void_p()
    error = ctypes.c_void_p()
    failed = _lib.mihiraki_render(array, len(encoded), _path(output), names, values, count, _jobs(jobs),
                                  ctypes.byref(result), ctypes.byref(error))
    if failed < 0:
        _raise(error)
    return [Outcome(row["book"], row.get("folder"), row["written"], row["error"]) for row in json.loads(_text(result.value))]


render.__doc__ = (render.__doc__ or "") + _options_doc()


# Comparison (`compare`, `CompareResult`) lives in _compare.py; imported
# last, as it calls into what is defined above.
from ._compare import CompareResult, compare  # noqa: E402
