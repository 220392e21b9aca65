"""bench/run.py's parts set against peers and at scale: compare, archives, a library of books, the server, memory, the catalog."""
import os
import shutil
import statistics
import subprocess
import sys
import time
from bench_common import *  # noqa: F401,F403
from bench_speed import *  # noqa: F401,F403


def compare_bench():
    """mihiraki compare vs ImageMagick compare -metric AE vs pixelmatch on 2048x1536 spreads.

    The near-identical pair is what a visual regression run sees: the comic
    rendered by Mihiraki, and rendered again after six 4x4 dots were painted
    on one page (so the two PNGs come from the same encoder)."""
    from PIL import Image, ImageDraw
    work = os.path.join(WORK, "compare")
    shutil.rmtree(work, ignore_errors=True)
    # Both renders made here, so this part needs no other part's output.
    subprocess.run([MIHIRAKI, "render", os.path.join(WORK, "corpus", "comic"), "-o", os.path.join(work, "expected"),
                    "--quiet"], check=True)
    expected = os.path.join(work, "expected", "comic", "spread-002.png")
    shutil.copytree(os.path.join(WORK, "corpus", "comic"), os.path.join(work, "comic"))
    page = os.path.join(work, "comic", "p003.jpg")
    img = Image.open(page)
    draw = ImageDraw.Draw(img)
    for k in range(6):
        draw.rectangle((300 + 200 * k, 500 + 150 * k, 303 + 200 * k, 503 + 150 * k), fill=(255, 0, 0))
    img.save(page, quality=95)
    subprocess.run([MIHIRAKI, "render", os.path.join(work, "comic"), "-o", os.path.join(work, "out"), "--quiet"],
                   check=True)
    near = os.path.join(work, "out", "comic", "spread-002.png")
    cases = [("identical", expected), ("one page changed", near)]
    print("\n| pair (2048x1536 RGB) | mihiraki compare | ImageMagick compare -metric AE | pixelmatch (pip) |")
    print("|---|---|---|---|")
    for (label, actual), status in zip(cases, (0, 1)):
        # A comparison that failed would be timed as fast as nothing: each must give its verdict.
        verdict = subprocess.run([MIHIRAKI, "compare", expected, actual], capture_output=True, text=True)
        if verdict.returncode != status:
            raise SystemExit(f"bench: compare of the {label} pair exited {verdict.returncode}: {verdict.stderr.strip()}")
        m = statistics.median([timed([MIHIRAKI, "compare", expected, actual]) for _ in range(5)])
        im = statistics.median([timed(["/usr/bin/compare", "-metric", "AE", expected, actual, "null:"])
                                for _ in range(3)])
        pm = timed([sys.executable, "-c",
                    "import sys; from PIL import Image; from pixelmatch.contrib.PIL import pixelmatch;"
                    "a=Image.open(sys.argv[1]).convert('RGBA'); b=Image.open(sys.argv[2]).convert('RGBA');"
                    "print(pixelmatch(a, b))", expected, actual])
        print(f"| {label} | {m * 1000:.0f} ms | {im * 1000:.0f} ms ({im / m:.1f}x slower) | "
              f"{pm * 1000:.0f} ms ({pm / m:.0f}x slower) |")


def archive_bench():
    """The 400-page manga as a CB7 (bsdtar, deflate) against the same pages as a
    folder: Mihiraki's time and peak RSS. (libvips, Pillow and ImageMagick do
    not open comic archives themselves; their scripts would unpack first.)"""
    folder = os.path.join(WORK, "corpus", "manga400")
    if not os.path.isdir(folder):
        scaling()
    archive = os.path.join(WORK, "corpus", "manga400.cb7")
    if not os.path.exists(archive):
        subprocess.run(["bsdtar", "--format", "7zip", "--options", "7zip:compression=deflate", "-cf", archive,
                        "-h", "-C", folder, "."], check=True)
    rows = []
    for label, book in (("folder", folder), ("CB7", archive)):
        out = os.path.join(WORK, "out", "archive")
        runs = []
        for _ in range(RUNS):
            shutil.rmtree(out, ignore_errors=True)
            runs.append(measure([MIHIRAKI, "render", book, "-o", out, "--jobs", "2", "--quiet"]))
        rows.append((label, statistics.median(r[0] for r in runs), max(r[1] for r in runs)))
    size = os.path.getsize(archive) / 1e6
    print(f"\n| manga400 (400 pages, 2 workers) | time (s) | peak RSS (MiB) |")
    print("|---|---|---|")
    for label, wall, peak in rows:
        print(f"| {label}{f' ({size:.0f} MB)' if label == 'CB7' else ''} | {wall:.2f} | {peak:.0f} |")
    print(f"CB7 peak RSS x{rows[1][2] / rows[0][2]:.2f} of the folder's")


def library_bench():
    """200 four-page books, half folders, half stored CBZ: a full render, then
    --incremental with nothing changed and with one page of one book changed."""
    import zipfile
    source = os.path.join(WORK, "corpus", "manga")
    pages = sorted(f for f in os.listdir(source) if f.endswith(".jpg") and f not in ("p012.jpg", "p027.jpg"))
    library = os.path.join(WORK, "library")
    shutil.rmtree(library, ignore_errors=True)
    os.makedirs(library)
    books = []
    for b in range(200):
        chosen = [pages[(b * 3 + k) % len(pages)] for k in range(4)]
        if b % 2 == 0:
            book = os.path.join(library, f"vol{b:03d}")
            os.makedirs(book)
            for k, name in enumerate(chosen):
                shutil.copy(os.path.join(source, name), os.path.join(book, f"p{k + 1}.jpg"))
        else:
            book = os.path.join(library, f"vol{b:03d}.cbz")
            with zipfile.ZipFile(book, "w", zipfile.ZIP_STORED) as z:
                for k, name in enumerate(chosen):
                    z.write(os.path.join(source, name), f"p{k + 1}.jpg")
        books.append(book)
    out = os.path.join(WORK, "out", "library")
    shutil.rmtree(out, ignore_errors=True)
    command = [MIHIRAKI, "render"] + books + ["-o", out, "--jobs", "2", "--quiet", "--incremental"]
    full, full_rss = measure(command)
    unchanged = statistics.median([measure(command)[0] for _ in range(RUNS)])
    shutil.copy(os.path.join(source, pages[-1]), os.path.join(books[0], "p1.jpg"))
    one, _ = measure(command)
    print("\n| library: 200 books, 800 pages, 2 workers | time (s) | vs full run |")
    print("|---|---|---|")
    print(f"| full run | {full:.2f} | 1x (peak RSS {full_rss:.0f} MiB) |")
    print(f"| --incremental, nothing changed (median of {RUNS}) | {unchanged:.3f} | {full / unchanged:.0f}x faster |")
    print(f"| --incremental, one book changed | {one:.3f} | {full / one:.0f}x faster |")


def server_bench():
    subprocess.run([sys.executable, os.path.join(HERE, "server.py"), MIHIRAKI, WORK, str(RUNS)], check=True)


def workers_bench():
    """Rendering workers against in-process renders, the access log against
    --quiet (and, with BENCH_EARLIER=PATH, against another build)."""
    earlier = [os.environ["BENCH_EARLIER"]] if os.environ.get("BENCH_EARLIER") else []
    subprocess.run([sys.executable, os.path.join(HERE, "server_workers.py"), MIHIRAKI, WORK, str(RUNS)] + earlier, check=True)


def canvas_memory_bench():
    subprocess.run([sys.executable, os.path.join(HERE, "canvas_memory.py"), MIHIRAKI, WORK], check=True)


def memory_bench():
    subprocess.run([sys.executable, os.path.join(HERE, "memory.py"), MIHIRAKI, WORK], check=True)


def catalog_bench():
    subprocess.run([sys.executable, os.path.join(HERE, "catalog.py"), MIHIRAKI, WORK], check=True)


def timed(args):
    start = time.perf_counter()
    subprocess.run(args, capture_output=True)
    return time.perf_counter() - start
