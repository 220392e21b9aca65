"""Mihiraki from Python: the pages of a book as two-page spreads.

    import mihiraki
    book = mihiraki.open("vol01.cbz")
    array = book.spread(0, size="x300", direction="rtl")   # numpy, H x W x C, uint8
    image = book.spread_image(0, size="x300")                # PIL.Image
    mihiraki.render(["vol01.cbz"], "out", size="x300")

Keyword options are the option table's names (`mihiraki render --help`)
with `_` for `-`: ``size``, ``direction``, ``pairing``, ``split_wide``,
``crop_borders``, ... A flag takes ``True``; a list (``solo``,
``blank_before``) takes a list of page numbers. The pixels are those of the
command line's PNGs, value for value. Calls release the GIL: threads on
different books (or the same one) run in parallel.
"""
from __future__ import annotations

import ctypes
import difflib
import json
import os
import weakref
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

__all__ = ["open", "render", "compare", "options", "Book", "Error", "BookError", "UsageError", "__version__"]


class Error(Exception):
    """Anything Mihiraki refuses or cannot do; the message is its one line."""


class UsageError(Error, ValueError):
    """A bad option, value or argument."""


class BookError(Error):
    """A book or page that cannot be read, or a file that cannot be written."""


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
        "mihiraki_book_plan_json": ([ctypes.c_void_p, char_pp, char_pp, ctypes.c_size_t, error_p], ctypes.c_void_p),
        "mihiraki_book_spread": ([ctypes.c_void_p, char_pp, char_pp, ctypes.c_size_t, ctypes.c_size_t,
                                  ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int),
                                  ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int), error_p], ctypes.c_int),
        "mihiraki_render": ([char_pp, ctypes.c_size_t, ctypes.c_char_p, char_pp, char_pp, ctypes.c_size_t,
                             ctypes.c_int, error_p], ctypes.c_int),
        "mihiraki_compare": ([ctypes.c_char_p, ctypes.c_char_p, ctypes.c_double, ctypes.c_char_p,
                              ctypes.POINTER(ctypes.c_void_p), error_p], ctypes.c_int),
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
            raise TypeError(f"unknown option {keyword!r}{hint}")
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
        names.append(name.encode())
        values.append(text.encode())
    array = ctypes.c_char_p * max(len(names), 1)
    return array(*names), array(*values), len(names)


class Book:
    """A book opened once: its pages are read as its spreads are drawn, and
    each set of options is planned once."""

    def __init__(self, path: Union[str, os.PathLike]):
        error = ctypes.c_void_p()
        self.path = os.fspath(path)
        handle = _lib.mihiraki_book_open(self.path.encode(), ctypes.byref(error))
        if not handle:
            _raise(error)
        self._handle = handle
        self._finalizer = weakref.finalize(self, _lib.mihiraki_book_free, handle)

    def close(self) -> None:
        """Frees the book now (it is also freed when no longer referenced)."""
        self._finalizer()

    def __enter__(self) -> "Book":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pages(self) -> List[str]:
        """The book's page files, in reading order (paths inside the book)."""
        return json.loads(_text(_lib.mihiraki_book_pages_json(self._handle)))

    def plan(self, **opts: Any) -> Dict[str, Any]:
        """The plan: what ``mihiraki plan --json`` prints, as a dict (its
        ``spreads`` list every file and where each page goes)."""
        names, values, count = _pairs(opts)
        error = ctypes.c_void_p()
        text = _lib.mihiraki_book_plan_json(self._handle, names, values, count, ctypes.byref(error))
        if not text:
            _raise(error)
        return json.loads(_text(text))

    def __len__(self) -> int:
        return len(self.plan()["spreads"])

    def spread(self, index: int, **opts: Any):
        """Spread ``index`` (0-based) as a numpy array, H x W x C uint8 (C: 1
        gray, 3 RGB, 4 RGBA), the pixels of the PNG ``render`` writes. The
        array holds the library's buffer without a copy."""
        import numpy

        names, values, count = _pairs(opts)
        pixels = ctypes.c_void_p()
        width, height, channels = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        error = ctypes.c_void_p()
        status = _lib.mihiraki_book_spread(self._handle, names, values, count, index, ctypes.byref(pixels),
                                           ctypes.byref(width), ctypes.byref(height), ctypes.byref(channels),
                                           ctypes.byref(error))
        if status != 0:
            _raise(error)
        size = width.value * height.value * channels.value
        buffer = (ctypes.c_uint8 * size).from_address(pixels.value)
        # The buffer is the library's: freed when the last array over it goes.
        weakref.finalize(buffer, _lib.mihiraki_buffer_free, pixels.value)
        return numpy.frombuffer(buffer, dtype=numpy.uint8).reshape(height.value, width.value, channels.value)

    def spread_image(self, index: int, **opts: Any):
        """Spread ``index`` as a PIL image (mode L, RGB or RGBA)."""
        from PIL import Image

        array = self.spread(index, **opts)
        mode = {1: "L", 3: "RGB", 4: "RGBA"}[array.shape[2]]
        return Image.fromarray(array[:, :, 0] if mode == "L" else array, mode)


def open(path: Union[str, os.PathLike]) -> Book:  # noqa: A001 - the name pyvips and PIL use
    """Opens a book: a folder of page images, a comic archive, an EPUB or a PDF.

    Raises BookError naming the file when it cannot be read."""
    return Book(path)


def render(books: Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]], output: Union[str, os.PathLike],
           jobs: int = 0, **opts: Any) -> None:
    """Renders books to ``output/<book>/spread-NNN.png`` and ``manifest.json``,
    as ``mihiraki render`` does (``jobs``: workers, 0 for all cores).

    Raises BookError, naming every book that failed, after the others are written."""
    paths = [books] if isinstance(books, (str, os.PathLike)) else list(books)
    encoded = [os.fspath(path).encode() for path in paths]
    array = (ctypes.c_char_p * max(len(encoded), 1))(*encoded)
    names, values, count = _pairs(opts)
    error = ctypes.c_void_p()
    failed = _lib.mihiraki_render(array, len(encoded), os.fspath(output).encode(), names, values, count, jobs,
                                  ctypes.byref(error))
    if failed != 0 or error.value:
        _raise(error)


def compare(expected: Union[str, os.PathLike], actual: Union[str, os.PathLike], threshold: float = 0.1,
            report: Optional[Union[str, os.PathLike]] = None) -> List[Dict[str, Any]]:
    """Compares two images, or two folders of images, as ``mihiraki compare``
    does: one dict per file (``name``, ``status`` ok/diff/missing/extra/error,
    ``differing_pixels``, ``total_pixels``). With ``report``, writes the
    report page there."""
    result = ctypes.c_void_p()
    error = ctypes.c_void_p()
    status = _lib.mihiraki_compare(os.fspath(expected).encode(), os.fspath(actual).encode(), threshold,
                                   os.fspath(report).encode() if report is not None else None,
                                   ctypes.byref(result), ctypes.byref(error))
    if status < 0:
        _raise(error)
    return json.loads(_text(result.value))
