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
import threading
import weakref
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


class Outcome(NamedTuple):
    """One book of a ``render``: its path, the folder its spreads went to,
    the files written, and the error that stopped it (None when it did not)."""
    book: str
    folder: Optional[str]
    written: List[str]
    error: Optional[str]


class CompareResult:
    """What ``compare`` found: ``ok`` (also its truth value),
    ``differing_pixels``, ``total_pixels`` and, for folders, ``files`` (one
    result per file, with its ``name`` and ``status``). Between two book
    folders ``render`` wrote (each with ``manifest.json``), ``ok`` is the
    book's verdict and there is more, as ``compare --json`` gives it:
    ``plan`` (each change: ``{"page", "was", "now"}`` or ``{"change",
    "was", "now"}``), ``slots`` (each page slot and background, with its
    ``file``, ``page``, ``side``, ``verdict`` — same, moved, changed,
    added, removed — ``shift``, ``differingPixels`` and ``regions``) and
    ``lines``, the command's text."""

    plan: List[Dict[str, Any]] = []
    slots: List[Dict[str, Any]] = []
    lines: List[str] = []

    @classmethod
    def _of_book(cls, document: Dict[str, Any]) -> "CompareResult":
        rows = [{"name": f["file"], "status": f["status"], "differing_pixels": f["differingPixels"],
                 "total_pixels": f["totalPixels"], "detail": f.get("detail", "")} for f in document["files"]]
        result = cls(rows, folders=True)
        result.ok = document["ok"]
        result.plan = document["plan"]
        result.slots = [dict(slot, file=f["file"]) for f in document["files"] for slot in f.get("slots", [])]
        result.lines = document.get("lines", [])
        return result

    def __init__(self, rows: List[Dict[str, Any]], folders: bool):
        self.files = [_FileResult(row) for row in rows] if folders else []
        self.ok = all(row["status"] == "ok" for row in rows)
        self.differing_pixels = sum(row["differing_pixels"] for row in rows)
        self.total_pixels = sum(row["total_pixels"] for row in rows)
        self.detail = "; ".join(row["detail"] for row in rows if row.get("detail"))

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return (f"CompareResult(ok={self.ok}, differing_pixels={self.differing_pixels}, "
                f"total_pixels={self.total_pixels}, files={len(self.files)})")


class _FileResult(CompareResult):
    def __init__(self, row: Dict[str, Any]):
        super().__init__([row], folders=False)
        self.name = row["name"]
        self.status = row["status"]

    def __repr__(self) -> str:
        return f"FileResult(name={self.name!r}, status={self.status!r}, differing_pixels={self.differing_pixels})"


def _options_doc() -> str:
    """The keyword options, from the option table, for the docstrings."""
    lines = ["", "    Keyword options (the option table's, `mihiraki render --help`):", ""]
    for option in _OPTIONS:
        keyword = option["name"].replace("-", "_")
        value = {"flag": "True", "list": "[P, ...]"}.get(option["kind"], option["value"] or "VALUE")
        lines.append(f"    {keyword}={value}: {option['help']}")
    return "\n".join(lines) + "\n"


for _function in (Book.plan, Book.spread, Book.spread_image):
    _function.__doc__ = (_function.__doc__ or "") + _options_doc()


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


def _as_path(image: Any, folder: str, name: str) -> str:
    """A path as it is; a numpy array or a PIL image written as a PNG in `folder`."""
    if isinstance(image, (str, bytes, os.PathLike)):
        return os.fsdecode(_path(image))
    from PIL import Image

    picture = image if isinstance(image, Image.Image) else Image.fromarray(image)
    path = os.path.join(folder, name + ".png")
    picture.save(path)
    return path


render.__doc__ = (render.__doc__ or "") + _options_doc()


def compare(expected: Any, actual: Any, threshold: Optional[float] = None,
            report: Optional[Union[str, os.PathLike]] = None, metric: str = "pixelmatch",
            shift_tolerance: int = 2) -> CompareResult:
    """Compares two images or two folders of images, as ``mihiraki compare``
    does: ``metric`` is ``"pixelmatch"``, ``"ciede2000"`` or ``"ssim"``, and
    ``threshold`` is on its scale (None for its default: 0.1, 1.0 ΔE00,
    0.98). ``shift_tolerance`` is ``--shift-tolerance`` between two renders
    of a book. Each may be a path, a numpy array or a
    PIL image. With ``report``, writes the report page there. An image that
    cannot be read raises BookError naming it, where the command exits 2."""
    import tempfile

    if not isinstance(shift_tolerance, int) or not 0 <= shift_tolerance <= 16:
        raise UsageError(f"shift_tolerance must be a whole number from 0 to 16, not {shift_tolerance!r}")
    with tempfile.TemporaryDirectory(prefix="mihiraki-") as scratch:
        first, second = _as_path(expected, scratch, "expected"), _as_path(actual, scratch, "actual")
        result = ctypes.c_void_p()
        error = ctypes.c_void_p()
        status = _lib.mihiraki_compare_metric(_path(first), _path(second), metric.encode(),
                                              float("nan") if threshold is None else threshold, shift_tolerance,
                                       _path(report) if report is not None else None,
                                       ctypes.byref(result), ctypes.byref(error))
        if status < 0:
            _raise(error)
        document = json.loads(_text(result.value))
        if isinstance(document, dict):
            return CompareResult._of_book(document)
        rows = document
        unread = [row["detail"] or row["name"] for row in rows if row["status"] == "error"]
        if unread:
            raise BookError("; ".join(unread))
        return CompareResult(rows, folders=os.path.isdir(first))
