"""Visual regression tests of spreads with pytest.

    from mihiraki.testing import assert_spreads_match

    def test_volume_one():
        assert_spreads_match("books/vol01.cbz", "golden/vol01", size="x300")

    def test_volume_two(spread_snapshot):
        spread_snapshot("books/vol02.cbz", size="x300")

``spread_snapshot`` keeps its goldens in ``__snapshots__/<test name>``
beside the test file; ``pytest --snapshot-update`` writes them. A mismatch
fails naming the spreads that differ and writes the ``compare --report``
page beside the goldens (``<golden>-report/index.html``).
"""
from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any, Callable, Optional, Union

import pytest

import mihiraki

PathLike = Union[str, os.PathLike]


def _render(book: PathLike, into: str, **opts: Any) -> str:
    mihiraki.render([book], into, **opts)
    folders = [entry for entry in os.listdir(into) if os.path.isdir(os.path.join(into, entry))]
    if len(folders) != 1:
        raise mihiraki.BookError(f"{os.fspath(book)}: rendered into {folders}")
    return os.path.join(into, folders[0])


def assert_spreads_match(book: PathLike, golden_dir: PathLike, threshold: float = 0.1, **opts: Any) -> None:
    """Renders ``book`` with ``opts`` and requires every spread to match the
    PNGs in ``golden_dir`` (pixelmatch's ``threshold``); the plan must list
    the same files. On a mismatch, raises AssertionError naming the spreads
    and writes the report page to ``<golden_dir>-report``."""
    golden = os.fspath(golden_dir)
    with tempfile.TemporaryDirectory(prefix="mihiraki-") as scratch:
        rendered = _render(book, scratch, **opts)
        for extra in ("manifest.json",):
            if os.path.exists(os.path.join(rendered, extra)):
                os.remove(os.path.join(rendered, extra))
        report = golden.rstrip("/") + "-report"
        results = mihiraki.compare(golden, rendered, threshold=threshold)
        bad = [r for r in results if r["status"] != "ok"]
        if bad:
            shutil.rmtree(report, ignore_errors=True)
            mihiraki.compare(golden, rendered, threshold=threshold, report=report)
            names = ", ".join(f"{r['name']} ({r['status']}, {r['differing_pixels']} pixels)" for r in bad)
            raise AssertionError(f"{os.fspath(book)}: spreads differ from {golden}: {names}; "
                                 f"report: {os.path.join(report, 'index.html')}")
        shutil.rmtree(report, ignore_errors=True)


def update_golden(book: PathLike, golden_dir: PathLike, **opts: Any) -> None:
    """Writes ``book``'s spreads with ``opts`` into ``golden_dir`` (replacing it)."""
    golden = os.fspath(golden_dir)
    with tempfile.TemporaryDirectory(prefix="mihiraki-") as scratch:
        rendered = _render(book, scratch, **opts)
        shutil.rmtree(golden, ignore_errors=True)
        os.makedirs(os.path.dirname(os.path.abspath(golden)), exist_ok=True)
        shutil.copytree(rendered, golden, ignore=shutil.ignore_patterns("manifest.json"))


def pytest_addoption(parser: Any) -> None:
    parser.addoption("--snapshot-update", action="store_true", default=False,
                     help="mihiraki: write the spreads' goldens instead of comparing with them")


@pytest.fixture
def spread_snapshot(request: Any) -> Callable[..., None]:
    """A function ``(book, name=None, **opts)`` that checks ``book``'s spreads
    against ``__snapshots__/<test>[-<name>]`` beside the test file, or with
    ``--snapshot-update`` writes them there."""
    folder = os.path.join(os.path.dirname(str(request.node.fspath)), "__snapshots__")
    update = request.config.getoption("--snapshot-update")

    def check(book: PathLike, name: Optional[str] = None, **opts: Any) -> None:
        golden = os.path.join(folder, request.node.name + (f"-{name}" if name else ""))
        if update or not os.path.isdir(golden):
            if not update:
                pytest.fail(f"no golden spreads at {golden}; run pytest --snapshot-update to write them")
            update_golden(book, golden, **opts)
            return
        assert_spreads_match(book, golden, **opts)

    return check
