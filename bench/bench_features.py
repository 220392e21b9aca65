"""bench/run.py's parts for what features cost: automatic pairing, split and crop, the Python package, PDF books."""
import os
import shutil
import statistics
import subprocess
import sys
from bench_common import *  # noqa: F401,F403
from bench_speed import *  # noqa: F401,F403
from bench_peers import *  # noqa: F401,F403


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
