#!/usr/bin/env python3
"""Runs the spread benchmark: Mihiraki against libvips, Pillow and ImageMagick.

Called by scripts/bench. Every tool renders the same spreads (Mihiraki's plan
at 2048x1536, 771x1200 slots) with two workers; runs alternate between tools.
Prints, per book: median wall time, ratio to libvips, peak RSS, output bytes
and PSNR against Pillow LANCZOS (no draft, no reducing_gap) at the same
rectangles. Then Mihiraki's per-stage profile, its growth from 40 to 400 pages,
the comparison benchmark (mihiraki compare vs ImageMagick and pixelmatch), and
a library of 200 small books rendered in full, then again with --incremental
(nothing changed, then one book changed). The manga book is also benchmarked
as WebP pages, and the 400-page book as a CB7 against the same pages as a
folder. Thumbnail rows (x300: PNG, WebP and JPEG at quality 85) compare with
libvips writing the same format. The books are also written with
`--compression fast` (the fast part) against libvips's default. Last, `mihiraki serve` under wrk
(bench/server.py). BENCH_ONLY=library (or books, fast, thumbs, webp, profile,
scaling, compare, archive, server, workers, memory, canvas, catalog, pairing, cut, python, pdf, floor; comma-separated) runs only those parts.
The workers part (also run with server) sets rendering workers against in-process renders and the
access log against --quiet (bench/server_workers.py); BENCH_EARLIER=PATH adds another build's --quiet.
The floor part (also printed with thumbs) sets x300 PNG and WebP against their decode floor (bench/floor.py),
with libvips in the same rounds.
The memory part measures the server's peak RSS under new renders of 40 Mpx pages at
the largest canvas (bench/memory.py); the canvas part, one render's peak RSS at each output format's
largest canvas against the 1 GiB a render may use (bench/canvas_memory.py). The catalog part serves 100,000 one-page books (bench/catalog.py). The
pdf part renders picture PDFs (img2pdf of the manga pages, 40 and 400) against their folders.
"""
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORK = os.environ.get("BENCH_DIR", os.path.join(ROOT, "bench-out"))
MIHIRAKI = sys.argv[1]
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
PEERS = os.path.join(HERE, "peers.py")


def measure(args, env=None):
    """Wall seconds and peak RSS (MiB, largest single process) of a command."""
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + args, capture_output=True, text=True,
                            env=dict(os.environ, **(env or {})))
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"benchmark command failed: {' '.join(args)}\n{result.stderr}")
    rss_kb = int(result.stderr.strip().splitlines()[-1])
    return wall, rss_kb / 1024


def tool_command(tool, book, manifest, out, flags=()):
    if tool == "mihiraki":
        return [MIHIRAKI, "render", book, "-o", out, "--jobs", "2", "--quiet"] + list(flags)
    return [sys.executable, PEERS, tool, manifest, book, os.path.join(out, os.path.basename(book))]


def output_bytes(folder):
    return sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)
               if f.endswith((".png", ".jpg", ".webp", ".avif")))


def psnr(manifest, book, folder):
    out = subprocess.run([sys.executable, PEERS, "psnr", manifest, book, folder], capture_output=True, text=True,
                         check=True)
    return out.stdout.strip()


def bench_book(name, tools, flags=(), title=""):
    """One book through every tool; `flags` (size, format, quality) go to
    `mihiraki plan` for the shared manifest and to `mihiraki render`."""
    book = os.path.join(WORK, "corpus", name)
    tag = name + "".join(flags).replace("-", "_")
    manifest = os.path.join(WORK, f"{tag}.json")
    with open(manifest, "w") as f:
        subprocess.run([MIHIRAKI, "plan", book, "--json"] + list(flags), stdout=f, check=True)
    times = {t: [] for t in tools}
    rss = {t: 0.0 for t in tools}
    for _ in range(RUNS):
        for tool in tools:
            out = os.path.join(WORK, "out", tool, tag)
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out, exist_ok=True)
            wall, peak = measure(tool_command(tool, book, manifest, out, flags))
            times[tool].append(wall)
            rss[tool] = max(rss[tool], peak)
    base = statistics.median(times["vips"])
    vips_bytes = output_bytes(os.path.join(WORK, "out", "vips", tag, name))
    pages = len([f for f in os.listdir(book) if f.endswith((".jpg", ".webp"))])
    spreads = open(manifest).read().count('"file"')
    print(f"\n{name}{title}: {pages} pages, {spreads} spreads, median of {RUNS} alternating runs, 2 workers each")
    print(f"| tool | time (s) | vs libvips | peak RSS (MiB) | output (MB) | bytes vs libvips | PSNR (dB) |")
    print(f"|---|---|---|---|---|---|---|")
    for tool in tools:
        folder = os.path.join(WORK, "out", tool, tag, name)
        t = statistics.median(times[tool])
        size = output_bytes(folder)
        print(f"| {tool} | {t:.2f} | {base / t:.2f}x faster | {rss[tool]:.0f} | {size / 1e6:.1f} | "
              f"{size / vips_bytes:.3f} | {psnr(manifest, book, folder)} |")


def webp_corpus():
    """The manga book as WebP pages (Pillow, quality 90), as downloaders save them."""
    from PIL import Image
    source = os.path.join(WORK, "corpus", "manga")
    book = os.path.join(WORK, "corpus", "manga-webp")
    os.makedirs(book, exist_ok=True)
    for name in sorted(os.listdir(source)):
        target = os.path.join(book, name.replace(".jpg", ".webp"))
        if name.endswith(".jpg") and not os.path.exists(target):
            Image.open(os.path.join(source, name)).save(target, quality=90, method=4)


def webp_against_jpeg():
    """The same 40 pages as WebP and as JPEG through Mihiraki alone, alternating:
    the WebP book's time and peak RSS against the JPEG book's (a WebP page
    is decoded whole, a JPEG page row by row)."""
    times = {"manga": [], "manga-webp": []}
    rss = {"manga": 0.0, "manga-webp": 0.0}
    for _ in range(RUNS):
        for name in times:
            out = os.path.join(WORK, "out", "webp-vs-jpeg", name)
            shutil.rmtree(out, ignore_errors=True)
            wall, peak = measure([MIHIRAKI, "render", os.path.join(WORK, "corpus", name), "-o", out, "--jobs", "2", "--quiet"])
            times[name].append(wall)
            rss[name] = max(rss[name], peak)
    jpeg, webp = statistics.median(times["manga"]), statistics.median(times["manga-webp"])
    print(f"\nThe manga book as WebP against the same pages as JPEG (Mihiraki, median of {RUNS} alternating runs)")
    print("| pages | time (s) | peak RSS (MiB) |")
    print("|---|---|---|")
    print(f"| JPEG | {jpeg:.2f} | {rss['manga']:.0f} |")
    print(f"| WebP | {webp:.2f} | {rss['manga-webp']:.0f} |")
    print(f"| WebP / JPEG | {webp / jpeg:.2f}x | {rss['manga-webp'] / rss['manga']:.2f}x |")


def profile_line(name, flags=()):
    """Mihiraki's per-stage profile line (one worker), as it prints it."""
    book = os.path.join(WORK, "corpus", name)
    out = os.path.join(WORK, "out", "profile")
    shutil.rmtree(out, ignore_errors=True)
    result = subprocess.run([MIHIRAKI, "render", book, "-o", out, "--jobs", "1"] + list(flags), capture_output=True,
                            text=True, env=dict(os.environ, MIHIRAKI_PROFILE="1"), check=True)
    line = next(l for l in result.stderr.splitlines() if l.startswith("profile:"))
    return line[len("profile: "):]


def profile(name, flags=()):
    print(f"- {name} {' '.join(flags)} (one worker): {profile_line(name, flags)}")


def profile_ms(name, flags=()):
    """The profile as {stage: ms per spread}, and the spread count."""
    line = profile_line(name, flags)
    stages = {part.split()[0]: float(part.split()[1]) for part in line.split(" per spread")[0].split(", ")}
    return stages, int(line.split("(")[1].split()[0])


def floor_bench():
    """x300 thumbnails against their decode floor (bench/floor.py): the same
    pages decoded at the same scales by libjpeg-turbo on two workers, nothing
    else. Alternating runs; the ratio is the target of the thumbnail work.
    Then the floor with what any tool writing these files pays on top:
    encoding the same spreads (Mihiraki's own encode time, split over two
    workers) and starting a process (`mihiraki --version`). libvips runs in
    the same rounds, so the last column is the most any tool could be ahead
    of it: libvips's time over that floor."""
    print(f"\nx300 against the decode floor (median of {RUNS} alternating runs, 2 workers each)")
    print("| book | format | Mihiraki (s) | decode floor (s) | Mihiraki / floor | + encode (s) | + start-up (s) "
          "| Mihiraki / that | libvips (s) | libvips / that |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for label, flags in (("png", []), ("webp", ["--format", "webp", "--quality", "85"])):
        for name in ("manga", "comic"):
            book = os.path.join(WORK, "corpus", name)
            sized = ["--size", "x300"] + flags
            manifest = os.path.join(WORK, f"{name}-{label}-floor.json")
            with open(manifest, "w") as f:
                subprocess.run([MIHIRAKI, "plan", book, "--json"] + sized, stdout=f, check=True)
            ours, floor, start, vips = [], [], [], []
            for _ in range(RUNS):
                for tool, times in (("mihiraki", ours), ("vips", vips)):
                    out = os.path.join(WORK, "out", "floor", tool, name)
                    shutil.rmtree(out, ignore_errors=True)
                    os.makedirs(out, exist_ok=True)
                    times.append(measure(tool_command(tool, book, manifest, out, sized))[0])
                floor.append(float(subprocess.run([sys.executable, os.path.join(HERE, "floor.py"), manifest, book, "1"],
                                                  capture_output=True, text=True, check=True).stdout))
                start.append(min(measure([MIHIRAKI, "--version"])[0] for _ in range(5)))
            stages, spreads = profile_ms(name, sized)
            encode = stages["encode"] * spreads / 2 / 1000
            mine, least, begin = statistics.median(ours), statistics.median(floor), statistics.median(start)
            theirs, bound = statistics.median(vips), least + encode + begin
            print(f"| {name} | {label} | {mine:.3f} | {least:.3f} | {mine / least:.2f}x | {encode:.3f} | {begin:.3f} | "
                  f"{mine / bound:.2f}x | {theirs:.3f} | {theirs / bound:.2f}x |")


THUMBNAILS = [("png", []), ("webp", ["--format", "webp", "--quality", "85"]),
              ("jpeg", ["--format", "jpeg", "--quality", "85"])]


def thumbnails(tools):
    """x300 spreads (386x300 for 771x1200 pages), as thumbnail pipelines ask
    for them: PNG for both books, WebP and JPEG at quality 85, each against
    libvips writing the same format."""
    tools = [t for t in tools if t in ("mihiraki", "vips", "pillow")]
    for name in ("manga", "comic"):
        for label, flags in THUMBNAILS:
            bench_book(name, tools, ["--size", "x300"] + flags, title=f" at x300, {label}")
    floor_bench()
    print("\nMihiraki per-stage profile at x300, ms per spread:")
    for name in ("manga", "comic"):
        profile(name, ["--size", "x300"])


def scaling():
    source = os.path.join(WORK, "corpus", "manga")
    big = os.path.join(WORK, "corpus", "manga400")
    if not os.path.isdir(big):
        os.makedirs(big)
        pages = sorted(f for f in os.listdir(source) if f.endswith(".jpg"))
        for i in range(400):
            os.symlink(os.path.join(source, pages[i % len(pages)]), os.path.join(big, f"p{i + 1:04d}.jpg"))
    rows = []
    for name in ("manga", "manga400"):
        out = os.path.join(WORK, "out", "scaling")
        shutil.rmtree(out, ignore_errors=True)
        wall, peak = measure([MIHIRAKI, "render", os.path.join(WORK, "corpus", name), "-o", out, "--jobs", "2",
                              "--quiet"])
        rows.append((name, wall, peak))
    print("\n| book | pages | time (s) | ms per page | peak RSS (MiB) |")
    print("|---|---|---|---|---|")
    for (name, wall, peak), pages in zip(rows, (40, 400)):
        print(f"| {name} | {pages} | {wall:.2f} | {wall / pages * 1000:.1f} | {peak:.0f} |")
    print(f"time x{rows[1][1] / rows[0][1]:.1f} for 10x pages; peak RSS x{rows[1][2] / rows[0][2]:.2f}")


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


def pairing_bench():
    """What --pairing auto costs: render with and without it, alternating, at
    thumbnail size and at full size; then its precision and recall on the
    labelled families (scripts/bench-pairing, seed 4: neither the seed the
    measures were designed on nor the one they were first checked on)."""
    print(f"\n--pairing auto against static, median of {RUNS} alternating runs, 2 workers each")
    print("| book | size | static (s) | auto (s) | auto / static |")
    print("|---|---|---|---|---|")
    for name in ("manga", "comic"):
        book = os.path.join(WORK, "corpus", name)
        for size in (["--size", "x300"], []):
            times = {"static": [], "auto": []}
            for _ in range(RUNS):
                for mode in ("static", "auto"):
                    out = os.path.join(WORK, "out", "pairing", mode)
                    shutil.rmtree(out, ignore_errors=True)
                    wall, _ = measure([MIHIRAKI, "render", book, "-o", out, "--jobs", "2", "--quiet",
                                       "--pairing", mode] + size)
                    times[mode].append(wall)
            static, auto = statistics.median(times["static"]), statistics.median(times["auto"])
            print(f"| {name} | {size[1] if size else 'full'} | {static:.2f} | {auto:.2f} | {auto / static:.2f}x |")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench-pairing"), "--seed", "4",
                    "--sets", os.path.join(WORK, "pairing-sets"),
                    "--binary", MIHIRAKI], check=True)


def cut_bench():
    """What --crop-borders and --split-wide cost (SPEC §3b: at most 1.15x the
    same render without them): render with and without, alternating, at
    thumbnail size and at full size; then the finders against labelled pages
    (scripts/bench-split, seed 3: neither seed the finders were tuned on)."""
    print(f"\n--crop-borders and --split-wide against neither, median of {RUNS} alternating runs, 2 workers each")
    print("| book | size | neither (s) | crop (s) | crop / neither | split + crop (s) | split + crop / neither |")
    print("|---|---|---|---|---|---|---|")
    modes = {"neither": [], "crop": ["--crop-borders"], "both": ["--split-wide", "auto", "--crop-borders"]}
    for name in ("manga", "comic"):
        book = os.path.join(WORK, "corpus", name)
        for size in (["--size", "x300"], []):
            times = {mode: [] for mode in modes}
            for _ in range(RUNS):
                for mode, flags in modes.items():
                    out = os.path.join(WORK, "out", "cut", mode)
                    shutil.rmtree(out, ignore_errors=True)
                    wall, _ = measure([MIHIRAKI, "render", book, "-o", out, "--jobs", "2", "--quiet"] + flags + size)
                    times[mode].append(wall)
            base, crop, both = (statistics.median(times[mode]) for mode in modes)
            print(f"| {name} | {size[1] if size else 'full'} | {base:.2f} | {crop:.2f} | {crop / base:.2f}x | "
                  f"{both:.2f} | {both / base:.2f}x |")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench-split"), "--seed", "3",
                    "--sets", os.path.join(WORK, "split-sets"), "--bin", MIHIRAKI])


def python_bench():
    """SPEC §8: the manga book's spreads at x300 as numpy arrays from the
    wheel (built here, installed in a fresh venv) against a Pillow script
    and pyvips drawing the same rectangles; one and two threads."""
    wheel = subprocess.run([os.path.join(ROOT, "scripts", "python-wheel")], check=True, capture_output=True,
                           text=True).stdout.strip().splitlines()[-1]
    venv = os.path.join(WORK, "venv")
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet", "--no-deps", wheel], check=True)
    subprocess.run([os.path.join(venv, "bin", "python"), os.path.join(ROOT, "bench", "python_bench.py"),
                    os.path.join(WORK, "corpus", "manga"), str(RUNS)], check=True, cwd=venv)


def pdf_bench():
    """PDF books of pictures against the folders they were made from (img2pdf
    keeps the JPEGs as they are): time and peak RSS, 40 and 400 pages, full
    size and x300; the spreads must be the same bytes. Then a page of text
    and shapes drawn by Mihiraki (poppler at the drawn size) against pdftoppm
    at the same size, in dB PSNR."""
    import img2pdf
    scaling_source = os.path.join(WORK, "corpus", "manga")
    pages = sorted(f for f in os.listdir(scaling_source) if f.endswith(".jpg"))
    books = []
    for name, count in (("manga", 40), ("manga400", 400)):
        folder = os.path.join(WORK, "corpus", f"pdf-{name}")
        pdf = os.path.join(WORK, "corpus", f"{name}.pdf")
        if not os.path.isdir(folder):
            os.makedirs(folder)
            for i in range(count):
                os.symlink(os.path.join(scaling_source, pages[i % len(pages)]), os.path.join(folder, f"p{i + 1:04d}.jpg"))
        if not os.path.exists(pdf):
            with open(pdf, "wb") as f:
                f.write(img2pdf.convert([os.path.join(folder, n) for n in sorted(os.listdir(folder))], nodate=True))
        books.append((name, count, folder, pdf))
    print(f"\n| picture PDF against its folder, median of {RUNS} alternating runs, 2 workers | folder (s) | PDF (s) | PDF / folder | folder RSS (MiB) | PDF RSS (MiB) | RSS ratio | same bytes |")
    print("|---|---|---|---|---|---|---|---|")
    for name, count, folder, pdf in books:
        for size in ([], ["--size", "x300"]):
            times = {"folder": [], "pdf": []}
            peaks = {"folder": [], "pdf": []}
            for _ in range(RUNS):
                for kind, book in (("folder", folder), ("pdf", pdf)):
                    out = os.path.join(WORK, "out", "pdf", kind)
                    shutil.rmtree(out, ignore_errors=True)
                    wall, peak = measure([MIHIRAKI, "render", book, "-o", out, "--jobs", "2", "--quiet"] + size)
                    times[kind].append(wall)
                    peaks[kind].append(peak)
            a = os.path.join(WORK, "out", "pdf", "folder", f"pdf-{name}")
            b = os.path.join(WORK, "out", "pdf", "pdf", name)
            same = all(open(os.path.join(a, f), "rb").read() == open(os.path.join(b, f), "rb").read()
                       for f in os.listdir(a) if f.endswith(".png"))
            tf, tp = statistics.median(times["folder"]), statistics.median(times["pdf"])
            rf, rp = max(peaks["folder"]), max(peaks["pdf"])
            label = f"{name} ({count} pages), {size[1] if size else 'full'}"
            print(f"| {label} | {tf:.2f} | {tp:.2f} | {tp / tf:.2f}x | {rf:.0f} | {rp:.0f} | {rp / rf:.2f}x | {'yes' if same else 'NO'} |")
    vector = os.path.join(ROOT, "TestImages", "pdf", "vector.pdf")
    out = os.path.join(WORK, "out", "pdf", "vector")
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([MIHIRAKI, "render", vector, "-o", out, "--quiet"], check=True)
    import json
    import numpy
    from PIL import Image
    manifest = json.load(open(os.path.join(out, "vector", "manifest.json")))
    slot = [s for s in manifest["spreads"][0]["slots"] if s.get("page") == 1][0]
    x, y, w, h = slot["rect"]
    ours = numpy.asarray(Image.open(os.path.join(out, "vector", manifest["spreads"][0]["file"])).convert("RGB"),
                         dtype=numpy.float64)[y:y + h, x:x + w]
    subprocess.run(["pdftoppm", "-f", "1", "-l", "1", "-scale-to-x", str(w), "-scale-to-y", str(h), "-png",
                    "-singlefile", vector, os.path.join(out, "reference")], check=True)
    theirs = numpy.asarray(Image.open(os.path.join(out, "reference.png")).convert("RGB"), dtype=numpy.float64)
    mse = max(float(((ours - theirs) ** 2).mean()), 1e-9)
    line = f"vector page (text and shapes) at {w}x{h}: {10 * numpy.log10(255 * 255 / mse):.1f} dB PSNR against pdftoppm (poppler)"
    # MuPDF, another engine: its anti-aliasing differs, so this is the spread between engines.
    subprocess.run(["mutool", "draw", "-q", "-w", str(w), "-h", str(h), "-r", "1000", "-o",
                    os.path.join(out, "mupdf.png"), vector, "1"], check=True, capture_output=True)
    mupdf = Image.open(os.path.join(out, "mupdf.png")).convert("RGB")
    if mupdf.size == (w, h):
        mse = max(float(((ours - numpy.asarray(mupdf, dtype=numpy.float64)) ** 2).mean()), 1e-9)
        line += f", {10 * numpy.log10(255 * 255 / mse):.1f} dB against mutool (MuPDF)"
    else:
        line += f" (mutool drew {mupdf.size[0]}x{mupdf.size[1]}, not compared)"
    print(line)


def main():
    tools = ["mihiraki", "vips", "pillow", "magick"]
    if os.environ.get("BENCH_TOOLS"):
        tools = os.environ["BENCH_TOOLS"].split(",")
    parts = set((os.environ.get("BENCH_ONLY") or "books,thumbs,profile,scaling,compare,archive,library,server,memory,canvas,catalog,pairing,cut,python,pdf").split(","))
    print(f"machine: {os.cpu_count()} CPUs, {open('/proc/cpuinfo').read().split('model name')[1].split(':')[1].splitlines()[0].strip()}")
    if "books" in parts:
        for name in ("manga", "comic"):
            bench_book(name, tools)
    if "fast" in parts or "books" in parts:
        # The fast PNG writer against libvips at its default (compression 6), bytes included.
        for name in ("manga", "comic"):
            bench_book(name, ["mihiraki", "vips"], ["--compression", "fast"], title=" with --compression fast")
    if "webp" in parts or "books" in parts:
        webp_corpus()
        bench_book("manga-webp", tools)
        webp_against_jpeg()
    if "thumbs" in parts:
        thumbnails(tools)
    if "profile" in parts:
        print("\nMihiraki per-stage profile, ms per spread:")
        for name in ("manga", "comic"):
            profile(name)
    if "scaling" in parts:
        scaling()
    if "compare" in parts:
        compare_bench()
    if "archive" in parts:
        archive_bench()
    if "library" in parts:
        library_bench()
    if "server" in parts:
        server_bench()
    if "workers" in parts or "server" in parts:
        workers_bench()
    if "floor" in parts and "thumbs" not in parts:
        floor_bench()
    if "memory" in parts:
        memory_bench()
    if "canvas" in parts:
        canvas_memory_bench()
    if "catalog" in parts:
        catalog_bench()
    if "pairing" in parts:
        pairing_bench()
    if "cut" in parts:
        cut_bench()
    if "python" in parts:
        python_bench()
    if "pdf" in parts:
        pdf_bench()


if __name__ == "__main__":
    main()
