"""``mihiraki.open`` and the ``Book`` it returns: a book opened once, from a
path or from the bytes of a book file."""
from __future__ import annotations

import ctypes
import json
import os
import threading
import weakref
from typing import Any, Dict, Optional, Union

from . import BookError, UsageError, _jobs, _lib, _pairs, _path, _raise, _text


class Book:
    """A book opened once: its pages are read as its spreads are drawn, and
    each set of options is planned once."""

    def __init__(self, path: Union[str, bytes, os.PathLike, None] = None, *, data: Any = None,
                 name: Optional[str] = None):
        error = ctypes.c_void_p()
        # Set before the library is called: a failed open leaves a closed book to collect.
        self._handle: Optional[int] = None
        self._lock = threading.Lock()
        self._calls = 0
        self._data: Optional[bytes] = None
        if data is None:
            if path is None:
                raise UsageError("open needs a path or data=")
            raw = _path(path)
            self.path = os.fsdecode(raw)
            handle = _lib.mihiraki_book_open(raw, ctypes.byref(error))
        else:
            if path is not None:
                raise UsageError("open takes a path or data=, not both")
            self.path = name if name is not None else os.path.basename(str(getattr(data, "name", "") or "")) or "book"
            self._data = _bytes_of(data, self.path)
            handle = _lib.mihiraki_book_open_memory(self._data, len(self._data), _path(self.path), ctypes.byref(error))
        if not handle:
            _raise(error)
        self._handle = handle
        self._finalizer = weakref.finalize(self, _lib.mihiraki_book_free, handle)

    def __reduce__(self) -> Any:
        """A book pickles as what it was opened from, its path or its bytes,
        and opens again on the other side (a worker process, say)."""
        if self._data is not None:
            return (_book_from_data, (self._data, self.path))
        return (Book, (self.path,))

    def close(self) -> None:
        """Frees the book (it is also freed when no longer referenced). A
        call another thread is making finishes first; any call after this
        one raises ValueError, as a closed file does. Closing twice is
        harmless."""
        with self._lock:
            self._handle = None
            if self._calls == 0:
                self._finalizer()

    class _Call:
        """The book's handle for one call into the library: refused once the
        book is closed, and freed by close() only when no call holds it."""

        def __init__(self, book: "Book"):
            self.book = book

        def __enter__(self) -> int:
            book = self.book
            with book._lock:
                if book._handle is None:
                    raise ValueError(f"{book.path} is closed")
                book._calls += 1
                return book._handle

        def __exit__(self, *exc: object) -> None:
            book = self.book
            with book._lock:
                book._calls -= 1
                if book._handle is None and book._calls == 0:
                    book._finalizer()

    def __enter__(self) -> "Book":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def pages(self) -> int:
        """The number of pages, as plans number them (after ComicInfo's deletions)."""
        error = ctypes.c_void_p()
        with Book._Call(self) as handle:
            count = _lib.mihiraki_book_page_count(handle, ctypes.byref(error))
        if count < 0:
            _raise(error)
        return count

    def plan(self, jobs: int = 1, **opts: Any) -> Dict[str, Any]:
        """The plan: what ``mihiraki plan --json`` prints, as a dict (its
        ``spreads`` list every file and where each page goes). ``jobs``:
        pages read at once when the plan reads pixels (0: all cores); the
        plan does not depend on it."""
        names, values, count = _pairs(opts)
        error = ctypes.c_void_p()
        with Book._Call(self) as handle:
            text = _lib.mihiraki_book_plan_json(handle, names, values, count, _jobs(jobs), ctypes.byref(error))
        if not text:
            _raise(error)
        return json.loads(_text(text))

    def __len__(self) -> int:
        """The number of spreads with the default options."""
        error = ctypes.c_void_p()
        with Book._Call(self) as handle:
            spreads = _lib.mihiraki_book_spread_count(handle, None, None, 0, 1, ctypes.byref(error))
        if spreads < 0:
            _raise(error)
        return spreads

    def spread(self, number: int, jobs: int = 1, **opts: Any):
        """Spread ``number`` (from 1, as the files ``spread-001.png``, ... are)
        as a numpy uint8 array: H x W for gray, H x W x 3 for RGB, H x W x 4
        for RGBA, the values the CLI's PNG decodes to. The array holds the
        library's buffer without a copy. Out of range raises IndexError."""
        import numpy

        names, values, count = _pairs(opts)
        jobs = _jobs(jobs)
        error = ctypes.c_void_p()
        pixels = ctypes.c_void_p()
        width, height, channels = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        with Book._Call(self) as handle:
            spreads = _lib.mihiraki_book_spread_count(handle, names, values, count, jobs, ctypes.byref(error))
            if spreads < 0:
                _raise(error)
            if not isinstance(number, int) or not 1 <= number <= spreads:
                raise IndexError(f"{self.path} has spreads 1 to {spreads}, not {number!r}")
            status = _lib.mihiraki_book_spread(handle, names, values, count, jobs, number - 1, ctypes.byref(pixels),
                                               ctypes.byref(width), ctypes.byref(height), ctypes.byref(channels),
                                               ctypes.byref(error))
        if status != 0:
            _raise(error)
        size = width.value * height.value * channels.value
        buffer = (ctypes.c_uint8 * size).from_address(pixels.value)
        # The buffer is the library's: freed when the last array over it goes.
        weakref.finalize(buffer, _lib.mihiraki_buffer_free, pixels.value)
        array = numpy.frombuffer(buffer, dtype=numpy.uint8)
        if channels.value == 1:
            return array.reshape(height.value, width.value)
        return array.reshape(height.value, width.value, channels.value)

    def spread_image(self, number: int, jobs: int = 1, **opts: Any):
        """Spread ``number`` (from 1) as a PIL image (mode L, RGB or RGBA)."""
        from PIL import Image

        array = self.spread(number, jobs=jobs, **opts)
        return Image.fromarray(array, {2: "L"}.get(array.ndim) or {3: "RGB", 4: "RGBA"}[array.shape[2]])


def open(path: Union[str, bytes, os.PathLike, None] = None, *, data: Any = None,  # noqa: A001 - pyvips's and PIL's name
         name: Optional[str] = None) -> Book:
    """Opens a book: a folder of page images, a comic archive, an EPUB or a PDF.

    ``data`` instead of a path: the bytes of a book file (``bytes``,
    ``bytearray``, ``memoryview``) or a seekable binary file object (read
    from where it stands to its end), as object storage or an HTTP client
    gives them; ``name`` (default: the file object's name, else ``book``)
    is the book's name in plans and messages. Results and limits are a
    file's; the bytes are held in an unnamed scratch file the system frees
    with the book, so nothing is left behind.

    Raises BookError naming the file when it cannot be read, UsageError for
    data that is neither bytes nor a seekable binary file."""
    return Book(path, data=data, name=name)


def _book_from_data(data: bytes, name: str) -> Book:
    return Book(data=data, name=name)


def _bytes_of(data: Any, name: str) -> bytes:
    """The bytes of ``data``: a bytes-like object, or a seekable binary file."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    if not callable(getattr(data, "read", None)):
        raise UsageError(f"data must be bytes or a binary file object, not {type(data).__name__}")
    try:
        seekable = data.seekable()
    except Exception:  # a file object that cannot say
        seekable = False
    if not seekable:
        raise UsageError(f"{name}: data is a stream that cannot seek; read it into bytes first")
    try:
        read = data.read()
    except Exception as exc:
        raise BookError(f"{name}: cannot read data: {exc}") from None
    if not isinstance(read, (bytes, bytearray, memoryview)):
        raise UsageError(f"{name}: data must be a binary file object (its read() gave {type(read).__name__})")
    return bytes(read)
