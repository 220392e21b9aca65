"""compare and the pytest plugin from the wheel: two renders page by page,
the perceptual metrics, and snapshots that fail naming the page."""
import os
import re
import shutil
import subprocess
import sys

import pytest
from PIL import Image

import mihiraki

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "TestImages", "sample-book")


def test_the_snapshot_fixture_passes_then_fails_on_a_changed_page(tmp_path):
    shutil.copytree(SAMPLE, tmp_path / "book")
    (tmp_path / "test_book.py").write_text(
        "def test_book(spread_snapshot):\n"
        f"    spread_snapshot({str(tmp_path / 'book')!r}, size='x120')\n")
    def pytest_run(*arguments):
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *arguments],
                              cwd=tmp_path, capture_output=True, text=True)
    missing = pytest_run()
    assert missing.returncode != 0 and "--snapshot-update" in missing.stdout
    assert pytest_run("--snapshot-update").returncode == 0
    assert pytest_run().returncode == 0
    # One page changed: the page and its verdict are named, and the report is written in pytest's
    # temporary folder (never among the goldens), its title naming the render kept beside it.
    page = Image.open(tmp_path / "book" / "page3.jpg").convert("RGB")
    page.paste((255, 0, 0), (0, 0, page.width // 2, page.height // 2))
    page.save(tmp_path / "book" / "page3.jpg", quality=95)
    basetemp = tmp_path / "pytest-temp"
    changed = pytest_run("--basetemp", str(basetemp))
    assert changed.returncode != 0
    assert "page 3, spread-002.png right: changed" in changed.stdout, changed.stdout
    assert sorted(os.listdir(tmp_path / "__snapshots__" / "test_book")) == ["test_book"]
    [report] = basetemp.glob("test_book-test_book-report[0-9]*/index.html")
    assert str(report) in changed.stdout, changed.stdout
    title = re.search(r"<title>(.*?) against (.*?)</title>", report.read_text()).group(2)
    assert os.path.isfile(os.path.join(title, "manifest.json")), title
    summary = re.search(r'<p id="summary">(.*?)</p>', report.read_text()).group(1)
    assert summary == "8 compared · 1 failed · 1 differ · 7 passed", summary


def test_compare_of_two_renders_gives_the_plan_and_page_verdicts(tmp_path):
    """Two book folders render wrote are compared page by page: the same
    plan changes and verdicts the command prints, as objects."""
    mihiraki.render([SAMPLE], str(tmp_path / "ltr"), size="x120")
    mihiraki.render([SAMPLE], str(tmp_path / "rtl"), size="x120", direction="rtl")
    mihiraki.render([SAMPLE], str(tmp_path / "again"), size="x120")
    ltr, rtl = str(tmp_path / "ltr" / "sample-book"), str(tmp_path / "rtl" / "sample-book")
    flipped = mihiraki.compare(ltr, rtl)
    assert not flipped and flipped.plan == [{"change": "direction", "was": "ltr", "now": "rtl"}]
    assert flipped.lines == ["direction ltr → rtl"]
    assert {slot["verdict"] for slot in flipped.slots} == {"same"}
    assert {slot["page"] for slot in flipped.slots if slot["page"]} == set(range(1, 13))
    same = mihiraki.compare(ltr, str(tmp_path / "again" / "sample-book"))
    assert same and same.plan == [] and same.lines == []



def test_compare_takes_each_metric_and_refuses_one_it_does_not_know(tmp_path):
    """``metric=`` as ``compare --metric``: a +2-level tone shift passes all
    three at their defaults, a recoloured patch fails all three; a metric
    Mihiraki does not know, or a threshold off its scale, is a UsageError."""
    import numpy as np
    ramp = np.zeros((90, 120, 3), dtype=np.uint8)
    ramp[..., 0] = np.arange(120)[None, :] + 60
    ramp[..., 1] = np.arange(90)[:, None] + 80
    ramp[..., 2] = 150
    lighter = ramp + 2
    patched = ramp.copy()
    patched[30:70, 40:80, 1] += 40
    for metric in ("pixelmatch", "ciede2000", "ssim"):
        assert mihiraki.compare(ramp, lighter, metric=metric), metric
        result = mihiraki.compare(ramp, patched, metric=metric)
        assert not result and result.differing_pixels > 0, metric
    with pytest.raises(mihiraki.UsageError, match="unknown metric 'yiq'"):
        mihiraki.compare(ramp, ramp, metric="yiq")
    with pytest.raises(mihiraki.UsageError, match="--threshold for ssim must be from -1 to 1"):
        mihiraki.compare(ramp, ramp, metric="ssim", threshold=2)
    with pytest.raises(mihiraki.UsageError, match="shift_tolerance must be a whole number from 0 to 16"):
        mihiraki.compare(ramp, ramp, shift_tolerance=17)
