"""Visual regression tests of spreads with pytest (registered as a plugin).

    from mihiraki.testing import assert_spreads_match

    def test_volume_one():
        assert_spreads_match("books/vol01.cbz", "golden/vol01", size="x300")

    def test_volume_two(spread_snapshot):
        spread_snapshot("books/vol02.cbz", size="x300")

Goldens are what ``render`` writes for the book (``spread-001.png``, ...,
``manifest.json``). ``spread_snapshot`` keeps them in
``__snapshots__/<test module>/<test name>/`` beside the test file, and
``pytest --snapshot-update`` rewrites them (only the fixture's:
``assert_spreads_match``'s goldens are written by ``update_golden``); a
missing golden fails. A failure names each page and spread that differs
and the ``compare --report`` page written for it (the fixture's in
pytest's temporary folder, ``assert_spreads_match``'s in
``<golden>-report/`` unless given ``report_dir``).
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from typing import Any, Callable, Optional, Union

import pytest

import mihiraki

BookLike = Union[str, os.PathLike, "mihiraki.Book"]


def _render(book: BookLike, into: str, **opts: Any) -> str:
    """Renders `book` into `into`; returns the folder of its spreads."""
    path = book.path if isinstance(book, mihiraki.Book) else os.fspath(book)
    [outcome] = mihiraki.render([path], into, **opts)
    if outcome.error:
        raise mihiraki.BookError(outcome.error)
    return outcome.folder


def _plan(folder: str) -> Any:
    """A manifest without its fingerprint (which names the pages' bytes, not the plan)."""
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    manifest.pop("fingerprint", None)
    return manifest


def assert_spreads_match(book: BookLike, golden_dir: Union[str, os.PathLike], threshold: Optional[float] = None,
                         metric: str = "pixelmatch", report_dir: Optional[Union[str, os.PathLike]] = None,
                         **opts: Any) -> None:
    """Renders ``book`` (a Book or a path) with ``opts`` and requires the
    plan and every spread to match ``golden_dir`` (``metric`` and
    ``threshold`` as ``mihiraki.compare`` takes them; ``update_golden``
    writes the goldens). On a mismatch, raises AssertionError naming each
    page and spread that differs and the report page written to
    ``report_dir`` (default ``<golden_dir>-report``), beside the render it
    shows (``report_dir/rendered``)."""
    golden = os.fspath(golden_dir).rstrip("/")
    report = os.fspath(report_dir) if report_dir is not None else golden + "-report"
    if not os.path.isdir(golden):
        raise AssertionError(f"no golden spreads at {golden}")
    with tempfile.TemporaryDirectory(prefix="mihiraki-") as scratch:
        rendered = _render(book, scratch, **opts)
        result = mihiraki.compare(golden, rendered, threshold=threshold, metric=metric)
        if result.lines or result.plan or result.slots:
            # Goldens with their manifest: the plan's changes and each page that is not the same.
            problems = [] if result.ok else result.lines
        else:
            problems = [f"{f.name} ({f.status}, {f.differing_pixels} pixels differ)" for f in result.files if not f.ok]
            if os.path.exists(os.path.join(golden, "manifest.json")) and _plan(golden) != _plan(rendered):
                problems.insert(0, "manifest.json (the plan changed)")
        shutil.rmtree(report, ignore_errors=True)
        if problems:
            # The render the report shows is kept beside it, so the page names a folder that exists.
            kept = os.path.join(report, "rendered", os.path.basename(rendered))
            os.makedirs(os.path.dirname(kept))
            shutil.move(rendered, kept)
            mihiraki.compare(golden, kept, threshold=threshold, report=report, metric=metric)
            raise AssertionError(f"spreads differ from {golden}: {', '.join(problems)}; "
                                 f"report: {os.path.join(report, 'index.html')}")


def update_golden(book: BookLike, golden_dir: Union[str, os.PathLike], **opts: Any) -> None:
    """Writes what ``render`` writes for ``book`` with ``opts`` into ``golden_dir``, replacing it."""
    golden = os.fspath(golden_dir)
    with tempfile.TemporaryDirectory(prefix="mihiraki-") as scratch:
        rendered = _render(book, scratch, **opts)
        shutil.rmtree(golden, ignore_errors=True)
        os.makedirs(os.path.dirname(os.path.abspath(golden)), exist_ok=True)
        shutil.copytree(rendered, golden)


def pytest_addoption(parser: Any) -> None:
    parser.addoption("--snapshot-update", action="store_true", default=False,
                     help="mihiraki: write the spreads' goldens instead of comparing with them")


@pytest.fixture
def spread_snapshot(request: Any, tmp_path_factory: Any) -> Callable[..., None]:
    """``spread_snapshot(book, **opts)``: checks ``book``'s spreads against
    ``__snapshots__/<test module>/<test name>/`` beside the test file, or
    with ``--snapshot-update`` writes them there. A failure's report goes to
    pytest's temporary folder for the test, not among the goldens."""
    test_file = str(request.node.fspath)
    module = os.path.splitext(os.path.basename(test_file))[0]
    golden = os.path.join(os.path.dirname(test_file), "__snapshots__", module, request.node.name)
    update = request.config.getoption("--snapshot-update")

    def check(book: BookLike, **opts: Any) -> None:
        if update:
            update_golden(book, golden, **opts)
        elif not os.path.isdir(golden):
            pytest.fail(f"no golden spreads at {golden}; run pytest --snapshot-update to write them")
        else:
            report = tmp_path_factory.mktemp(f"{module}-{request.node.name}-report", numbered=True)
            assert_spreads_match(book, golden, report_dir=report, **opts)

    return check
