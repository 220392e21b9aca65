"""The Python package against the command line (SPEC §8): the same pixels,
the same plan, errors, threads, and the pytest fixture. Run by scripts/test
in a fresh venv with the wheel installed; MIHIRAKI_BIN names the CLI."""
import json
import os
import shutil
import subprocess
import sys
import threading

import numpy
import pytest
from PIL import Image

import mihiraki

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "TestImages", "sample-book")
CLI = os.environ.get("MIHIRAKI_BIN", os.path.join(ROOT, ".build", "debug", "mihiraki"))


def cli(*arguments):
    return subprocess.run([CLI, *arguments], check=True, capture_output=True, text=True).stdout


def test_installed_from_the_wheel_not_the_checkout():
    assert not mihiraki.__file__.startswith(os.path.join(ROOT, "python"))
    assert mihiraki.__version__ == cli("--version").strip()


@pytest.mark.parametrize("opts", [{"size": "x300"}, {"size": "640x480", "direction": "rtl", "background": "#336699"},
                                  {"size": "x200", "layout": "single", "blank": "transparent"},
                                  {"size": "x240", "crop_borders": True, "split_wide": "center", "solo": [3]}])
def test_pixels_equal_the_command_lines_pngs(tmp_path, opts):
    flags = []
    for key, value in opts.items():
        name = "--" + key.replace("_", "-")
        if value is True:
            flags.append(name)
        elif isinstance(value, list):
            for item in value:
                flags += [name, str(item)]
        else:
            flags += [name, str(value)]
    cli("render", SAMPLE, "-o", str(tmp_path), "--quiet", *flags)
    book = mihiraki.open(SAMPLE)
    manifest = json.load(open(tmp_path / "sample-book" / "manifest.json"))
    assert len(book.plan(**opts)["spreads"]) == len(manifest["spreads"]) > 0
    for index, spread in enumerate(manifest["spreads"]):
        expected = numpy.asarray(Image.open(tmp_path / "sample-book" / spread["file"]))
        actual = book.spread(index + 1, **opts)
        assert actual.dtype == numpy.uint8 and actual.shape == expected.shape, spread["file"]
        assert numpy.array_equal(actual, expected), spread["file"]


def test_plan_equals_plan_json():
    book = mihiraki.open(SAMPLE)
    for flags, opts in [([], {}), (["--size", "x300", "--direction", "rtl", "--cover", "paired"],
                                   {"size": "x300", "direction": "rtl", "cover": "paired"})]:
        assert book.plan(**opts) == json.loads(cli("plan", "--json", SAMPLE, *flags))
    assert book.pages == len(book.plan(layout="single")["spreads"]) == 12


def test_the_array_holds_the_librarys_buffer():
    array = mihiraki.open(SAMPLE).spread(2, size="x120")
    assert not array.flags.owndata and array.base is not None
    assert array.ndim == 2  # the sample's second spread is gray: H x W
    colour = mihiraki.open(SAMPLE).spread(1, size="x120", blank="#336699")
    assert colour.ndim == 3 and colour.shape[2] == 3
    image = mihiraki.open(SAMPLE).spread_image(2, size="x120")
    assert image.mode == "L" and image.size == (array.shape[1], array.shape[0])
    del array  # freed with the array; nothing else holds it


def test_errors():
    book = mihiraki.open(SAMPLE)
    with pytest.raises(TypeError, match="unknown option 'sise'; did you mean 'size'"):
        book.plan(sise="x300")
    with pytest.raises(mihiraki.UsageError, match="unknown option 'blank_befor'; did you mean 'blank_before'"):
        book.spread(1, blank_befor=[5])
    with pytest.raises(mihiraki.UsageError, match=r"^bad value for --size: wide"):
        book.spread(1, size="wide")
    with pytest.raises(IndexError):
        book.spread(99)
    with pytest.raises(IndexError):
        book.spread(0)
    with pytest.raises(mihiraki.BookError, match="nosuch"):
        mihiraki.open("/nonexistent/nosuch")
    assert issubclass(mihiraki.UsageError, mihiraki.Error) and issubclass(mihiraki.BookError, mihiraki.Error)


def test_a_closed_book_raises_value_error_and_never_reaches_freed_memory():
    # In a child interpreter: before, a closed book's handle was freed memory
    # the next call read, and the interpreter died of SIGSEGV.
    code = """
import mihiraki, sys
book = mihiraki.open(sys.argv[1])
book.close()
book.close()  # closing twice is harmless, as for a file
for call in (lambda: book.pages, lambda: len(book), lambda: book.plan(), lambda: book.spread(1), lambda: book.spread_image(1)):
    try:
        call()
        print("no error")
    except ValueError as error:
        print(error)
with mihiraki.open(sys.argv[1]) as other:
    pass
try:
    other.plan()
except ValueError as error:
    print(error)
# Closed by one thread while others draw from it: each call finishes or is refused.
import threading
shared = mihiraki.open(sys.argv[1])
outcomes = []
def draw():
    for number in range(1, 9):
        try:
            outcomes.append(shared.spread(number, size="x200").shape[0])
        except ValueError:
            outcomes.append("closed")
threads = [threading.Thread(target=draw) for _ in range(3)]
for thread in threads:
    thread.start()
shared.close()
for thread in threads:
    thread.join()
assert len(outcomes) == 24 and set(outcomes) <= {200, "closed"}, outcomes
"""
    done = subprocess.run([sys.executable, "-c", code, SAMPLE], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"{SAMPLE} is closed"] * 6


def test_paths_with_a_nul_byte_are_refused_and_bytes_paths_are_paths(tmp_path):
    # A NUL ended the C string early: "SAMPLE/\0x" opened the folder above.
    for call in (lambda: mihiraki.open(SAMPLE + "\0x"), lambda: mihiraki.render([SAMPLE + "\0x"], str(tmp_path)),
                 lambda: mihiraki.render([SAMPLE], str(tmp_path) + "\0x"),
                 lambda: mihiraki.compare(SAMPLE + "/page1.jpg\0x", SAMPLE + "/page1.jpg"),
                 lambda: mihiraki.open(SAMPLE).plan(size="x300\0x")):
        with pytest.raises(ValueError, match="null byte"):
            call()
    assert not os.listdir(tmp_path)
    assert mihiraki.open(os.fsencode(SAMPLE)).plan() == mihiraki.open(SAMPLE).plan()
    assert mihiraki.open(os.fsencode(SAMPLE)).path == SAMPLE


def test_jobs_below_zero_or_past_an_int_are_usage_errors(tmp_path):
    book = mihiraki.open(SAMPLE)
    for jobs in (-1, 2**31, 1.5, "2"):
        with pytest.raises(mihiraki.UsageError, match="jobs"):
            book.plan(jobs=jobs)
        with pytest.raises(mihiraki.UsageError, match="jobs"):
            mihiraki.render([SAMPLE], str(tmp_path), jobs=jobs)
    assert not os.listdir(tmp_path)
    assert book.plan(jobs=0) == book.plan(jobs=1)


def test_an_image_compare_cannot_read_is_a_book_error_as_the_cli_exits_2(tmp_path):
    missing = str(tmp_path / "missing.png")
    with pytest.raises(subprocess.CalledProcessError) as cli_error:
        cli("compare", missing, os.path.join(SAMPLE, "page2.png"))
    assert cli_error.value.returncode == 2
    with pytest.raises(mihiraki.BookError, match="missing.png: cannot open"):
        mihiraki.compare(missing, os.path.join(SAMPLE, "page2.png"))
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "p.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    shutil.copy(os.path.join(SAMPLE, "page2.png"), tmp_path / "b" / "p.png")
    with pytest.raises(mihiraki.BookError, match="p.png"):
        mihiraki.compare(tmp_path / "a", tmp_path / "b")


def test_a_damaged_page_is_a_book_error_naming_it(tmp_path):
    shutil.copytree(SAMPLE, tmp_path / "book")
    (tmp_path / "book" / "page2.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    book = mihiraki.open(tmp_path / "book")
    with pytest.raises(mihiraki.BookError, match="page2.png"):
        for number in range(1, len(book) + 1):
            book.spread(number, size="x100")


def test_threads_give_the_same_pixels_as_one():
    book = mihiraki.open(SAMPLE)
    count = len(book.plan(size="x200")["spreads"])
    alone = [book.spread(i, size="x200") for i in range(1, count + 1)]
    results = {}

    def work(name, path):
        other = mihiraki.open(path)
        results[name] = [other.spread(i, size="x200") for i in range(1, count + 1)]
    threads = [threading.Thread(target=work, args=(n, SAMPLE)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 4
    for arrays in results.values():
        assert all(numpy.array_equal(a, b) for a, b in zip(arrays, alone))


def test_render_and_compare(tmp_path, capfd):
    outcomes = mihiraki.render([SAMPLE, "/nonexistent/book"], tmp_path / "api", size="x150", format="webp", jobs=2)
    assert capfd.readouterr() == ("", "")  # nothing printed
    assert [o.book for o in outcomes] == [SAMPLE, "/nonexistent/book"]
    assert outcomes[0].error is None and len(outcomes[0].written) == 8
    assert "nonexistent" in outcomes[1].error and outcomes[1].written == []
    cli("render", SAMPLE, "-o", str(tmp_path / "cli"), "--quiet", "--size", "x150", "--format", "webp")
    for name in os.listdir(tmp_path / "cli" / "sample-book"):
        if name != "manifest.json":
            assert (tmp_path / "api" / "sample-book" / name).read_bytes() == (tmp_path / "cli" / "sample-book" / name).read_bytes()
    same = mihiraki.compare(tmp_path / "cli" / "sample-book", tmp_path / "api" / "sample-book")
    assert same and same.ok and len(same.files) == 8 and same.differing_pixels == 0
    book = mihiraki.open(SAMPLE)
    one = book.spread(2, size="x150")
    assert mihiraki.compare(one, one.copy()).ok
    cover = book.spread(1, size="x150")
    different = mihiraki.compare(cover, book.spread(1, size="x150", blank="#ff0000"))
    assert not different and different.differing_pixels > 0 and different.total_pixels == cover.shape[0] * cover.shape[1]
    with pytest.raises(mihiraki.UsageError):
        mihiraki.render([SAMPLE], tmp_path / "bad", quality=500)


def test_the_c_abi_from_c(tmp_path):
    """include/mihiraki.h as a C program sees it, linked to the wheel's library."""
    lib = os.path.join(os.path.dirname(mihiraki.__file__), "_lib")
    program = tmp_path / "abi_check"
    subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-I", lib, os.path.join(os.path.dirname(__file__), "abi_check.c"),
                    "-L", lib, "-lMihirakiC", "-Wl,-rpath," + lib, "-o", str(program)], check=True)
    run = subprocess.run([str(program), SAMPLE], capture_output=True, text=True)
    expected = mihiraki.open(SAMPLE).spread(2, size="x200", direction="rtl").shape  # index 1 in C
    channels = expected[2] if len(expected) == 3 else 1
    assert run.returncode == 0 and run.stdout.strip() == "ok %dx%dx%d" % (expected[1], expected[0], channels), run.stdout


def test_docstrings_and_options_come_from_the_option_table():
    table = mihiraki.options()
    assert {"size", "split-wide", "crop-borders", "pairing"} <= {o["name"] for o in table}
    for option in table:
        keyword = option["name"].replace("-", "_")
        assert f"{keyword}=" in mihiraki.Book.plan.__doc__ and f"{keyword}=" in mihiraki.render.__doc__


def test_a_path_that_is_not_utf8_opens_by_its_bytes(tmp_path):
    """Linux names are bytes: a book folder named b'd\\xff' opens from that
    path as bytes (and as the str os.fsdecode makes of it), and an error
    shows such a name escaped."""
    folder = os.fsencode(str(tmp_path)) + b"/d\xff"
    os.mkdir(folder)
    sample = os.path.join(os.path.dirname(__file__), "..", "..", "TestImages", "sample-book")
    for name in ("page1.jpg", "page3.jpg"):
        shutil.copy(os.path.join(sample, name), os.fsdecode(folder) + "/" + name)
    assert mihiraki.open(folder).pages == 2
    assert mihiraki.open(os.fsdecode(folder)).pages == 2
    with pytest.raises(mihiraki.BookError) as error:
        mihiraki.open(os.fsencode(str(tmp_path)) + b"/nope\xfe")
    assert str(error.value) == f"{tmp_path}/nope\\xFE: no such file or folder"
