"""``mihiraki.compare`` and what it returns: images, folders, or two renders
of a book page by page, as ``mihiraki compare`` compares them."""
from __future__ import annotations

import ctypes
import json
import os
from typing import Any, Dict, List, Optional, Union

from . import BookError, UsageError, _lib, _path, _raise, _text


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


def _as_path(image: Any, folder: str, name: str) -> str:
    """A path as it is; a numpy array or a PIL image written as a PNG in `folder`."""
    if isinstance(image, (str, bytes, os.PathLike)):
        return os.fsdecode(_path(image))
    from PIL import Image

    picture = image if isinstance(image, Image.Image) else Image.fromarray(image)
    path = os.path.join(folder, name + ".png")
    picture.save(path)
    return path


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
