"""Books from memory, books that pickle, and renders on a Dask cluster
(docs/python.md, "At scale")."""
import hashlib
import io
import os
import pickle
import subprocess
import sys

import pytest

import mihiraki

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "TestImages", "sample-book")
CLI = os.environ.get("MIHIRAKI_BIN", os.path.join(ROOT, ".build", "debug", "mihiraki"))


def cbz(folder, source=SAMPLE, name="sample.cbz"):
    """A CBZ made by bsdtar from a folder of pages."""
    path = os.path.join(folder, name)
    subprocess.run(["bsdtar", "--format", "zip", "-cf", path, "-C", source, "."], check=True)
    return path


@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """A TMPDIR of the test's own (the library reads it at each book), to
    see that a book from memory leaves nothing in it."""
    folder = tmp_path / "scratch"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    return folder


def test_a_book_from_bytes_or_a_file_object_is_the_book_from_its_file(tmp_path, scratch):
    path = cbz(str(tmp_path))
    data = open(path, "rb").read()
    from_file = mihiraki.open(path)
    for book in (mihiraki.open(data=data, name="sample.cbz"), mihiraki.open(data=memoryview(data), name="sample.cbz"),
                 mihiraki.open(data=open(path, "rb"))):
        assert book.path == "sample.cbz"
        assert book.plan(size="x200") == from_file.plan(size="x200")
        for number in (1, 4):
            assert (book.spread(number, size="x200") == from_file.spread(number, size="x200")).all()
        book.close()
    # The bytes were held in a file with no name, gone with the book.
    assert os.listdir(scratch) == []


def test_bad_data_is_one_line_naming_the_book_and_leaves_nothing(tmp_path, scratch):
    path = cbz(str(tmp_path))
    data = open(path, "rb").read()
    with pytest.raises(mihiraki.BookError) as error:
        mihiraki.open(data=b"no book at all", name="vol01.cbz")
    assert str(error.value).startswith("vol01.cbz: ") and "\n" not in str(error.value)
    assert "/proc/" not in str(error.value)
    with pytest.raises(mihiraki.BookError) as truncated:
        book = mihiraki.open(data=data[: len(data) // 2], name="cut.cbz")
        book.spread(len(book), size="x100")
    assert str(truncated.value).startswith("cut.cbz") and "/proc/" not in str(truncated.value), str(truncated.value)

    class Failing(io.RawIOBase):
        def readable(self):
            return True

        def seekable(self):
            return True

        def readinto(self, buffer):
            raise OSError("connection reset by peer")

    with pytest.raises(mihiraki.BookError, match="^s3.cbz: cannot read data: connection reset by peer$"):
        mihiraki.open(data=Failing(), name="s3.cbz")

    class Stream(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, buffer):
            return 0

    with pytest.raises(mihiraki.UsageError, match="cannot seek"):
        mihiraki.open(data=Stream(), name="pipe.cbz")
    with pytest.raises(mihiraki.UsageError, match="not str"):
        mihiraki.open(data="sample.cbz")
    with pytest.raises(mihiraki.UsageError, match="not both"):
        mihiraki.open(path, data=data)
    assert os.listdir(scratch) == []


def test_a_book_pickles_as_its_path_or_its_bytes(tmp_path):
    path = cbz(str(tmp_path))
    for book in (mihiraki.open(path), mihiraki.open(data=open(path, "rb").read(), name="sample.cbz")):
        again = pickle.loads(pickle.dumps(book))
        assert again.path == book.path and again.plan(direction="rtl") == book.plan(direction="rtl")
        assert (again.spread(2, size="x150") == book.spread(2, size="x150")).all()
    options = {"size": "x300", "direction": "rtl", "solo": [3]}
    assert pickle.loads(pickle.dumps(options)) == options and pickle.loads(pickle.dumps(mihiraki.options())) == mihiraki.options()


def make_books(folder, count):
    """`count` small books of generated pages, each a folder of PNGs."""
    from PIL import Image

    paths = []
    for n in range(count):
        book = os.path.join(folder, f"book{n:02d}")
        os.makedirs(book)
        for page in range(1, 3 + n % 4):
            picture = Image.new("RGB", (90, 140), ((n * 37) % 256, (page * 61) % 256, (n * page * 13) % 256))
            picture.paste((255 - (n * 5) % 256, 40, 90), (10 + page * 7, 20 + n % 50, 60, 100))
            picture.save(os.path.join(book, f"p{page}.png"))
        paths.append(book)
    return paths


def digests(folder):
    return {os.path.relpath(os.path.join(base, name), folder): hashlib.sha256(open(os.path.join(base, name), "rb").read()).hexdigest()
            for base, _, names in os.walk(folder) for name in names}


def render_one(arguments):
    import mihiraki as m

    book, output = arguments
    [outcome] = m.render([book], output, jobs=1, size="x140")
    return outcome.error


def test_fifty_books_on_a_dask_cluster_are_one_cli_run(tmp_path):
    """A LocalCluster of two worker processes renders 50 books through
    dask.bag, the same bytes as one run of the command line."""
    import cloudpickle
    import dask.bag
    import distributed

    # The workers cannot import this test file: its functions travel by value.
    cloudpickle.register_pickle_by_value(sys.modules[__name__])

    books = make_books(str(tmp_path / "books"), 50)
    subprocess.run([CLI, "render", *books, "-o", str(tmp_path / "cli"),
                    "--size", "x140", "--quiet"], check=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster):
        errors = dask.bag.from_sequence([(book, str(tmp_path / "dask")) for book in books], npartitions=10) \
            .map(render_one).compute()
    assert errors == [None] * 50
    assert digests(str(tmp_path / "dask")) == digests(str(tmp_path / "cli")) and len(digests(str(tmp_path / "cli"))) > 100


FORMATS = os.path.join(ROOT, "TestImages", "formats")


def test_every_page_format_and_book_kind_draws_as_the_command_line_does(tmp_path):
    """What the wheel loads on first use (libavif, libjxl, libarchive) and
    what it links (libwebp, giflib, lcms2, qpdf and openjp2) works from the
    package: scripts/test-wheel runs this with the system's copies hidden."""
    import numpy
    from PIL import Image

    folder = tmp_path / "formats"
    folder.mkdir()
    for name in ("10bit444.avif", "alpha.jxl", "alpha.webp", "interlaced.gif", "icc.png", "icc.jpg", "icc.avif", "gray.jxl"):
        (folder / name).write_bytes(open(os.path.join(FORMATS, name), "rb").read())
    out = tmp_path / "cli"
    subprocess.run([CLI, "render", str(folder), "-o", str(out), "--size", "x200", "--quiet"], check=True)
    book = mihiraki.open(str(folder))
    assert book.pages == 8
    for number in range(1, len(book) + 1):
        expected = numpy.asarray(Image.open(out / "formats" / f"spread-{number:03d}.png"))
        assert (book.spread(number, size="x200") == expected).all(), number
    # The same pages as a tar and a 7z book (libarchive), and a PDF of pictures (qpdf, openjp2).
    for fmt, name in (("ustar", "book.cbt"), ("7zip", "book.cb7")):
        archive = str(tmp_path / name)
        subprocess.run(["bsdtar", "--format", fmt, "-cf", archive, "-C", str(folder), "."], check=True)
        packed = mihiraki.open(archive)
        assert packed.plan(size="x200")["spreads"] == book.plan(size="x200")["spreads"]
        assert (packed.spread(2, size="x200") == book.spread(2, size="x200")).all()
    for pdf in ("img2pdf.pdf", "jpx.pdf"):
        document = mihiraki.open(os.path.join(ROOT, "TestImages", "pdf", pdf))
        assert len(document) >= 1 and document.spread(1, size="x200").size > 0
