#!/usr/bin/env python3
"""The canvas row of scripts/bench: the peak RSS of one `mihiraki render` of
one spread at each output format's largest canvas, against the 1 GiB one
render may use (SPEC §6).

  canvas_memory.py MIHIRAKI WORKDIR

Each format's largest canvas is what `plan` still takes at a 4:3 canvas:
the command refuses one a pixel wider (probed here by bisection on the
width, so the row follows the declarations in the encoders' files). The
book is the sample book's colour page 1 alone ([x|1]); the background is
opaque, then see-through, then the format's lossless mode where it has one.
"""
import os
import shutil
import subprocess
import sys

MIHIRAKI, WORK = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = os.path.join(WORK, "canvas-memory", "book")
LIMIT = 1 << 30


def plans(width, flags):
    height = width * 3 // 4
    run = subprocess.run([MIHIRAKI, "plan", BOOK, "--size", f"{width}x{height}"] + flags,
                         capture_output=True, text=True)
    return run.returncode == 0


def largest_width(flags):
    low, high = 16, 65535
    while low < high:
        middle = (low + high + 1) // 2
        if plans(middle, flags):
            low = middle
        else:
            high = middle - 1
    return low


def peak(width, flags):
    out = os.path.join(WORK, "canvas-memory", "out")
    shutil.rmtree(out, ignore_errors=True)
    run = subprocess.run(["/usr/bin/time", "-f", "%M", MIHIRAKI, "render", BOOK, "-o", out, "--jobs", "1", "--quiet",
                          "--size", f"{width}x{width * 3 // 4}"] + flags, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"canvas memory: render failed: {run.stderr.strip()}")
    return int(run.stderr.strip().splitlines()[-1]) * 1024


def main():
    os.makedirs(BOOK, exist_ok=True)
    shutil.copy(os.path.join(HERE, "..", "TestImages", "sample-book", "page1.jpg"), os.path.join(BOOK, "page1.jpg"))
    print(f"\nPeak RSS of one render at each format's largest 4:3 canvas (limit {LIMIT >> 20} MiB):")
    print(f"{'format':<28} {'canvas':>13} {'Mpx':>6} {'peak MiB':>9} {'of limit':>9}")
    worst = 0.0
    for fmt, lossless in (("png", False), ("jpeg", False), ("webp", False), ("webp", True), ("avif", False), ("avif", True)):
        for background in ("#000000", "transparent"):
            if fmt == "jpeg" and background == "transparent" and lossless:
                continue
            flags = ["--format", fmt, "--background", background] + (["--lossless"] if lossless else [])
            width = largest_width(flags)
            rss = peak(width, flags)
            worst = max(worst, rss / LIMIT)
            name = f"{fmt}{' lossless' if lossless else ''}{', see-through' if background == 'transparent' else ''}"
            height = width * 3 // 4
            print(f"{name:<28} {f'{width}x{height}':>13} {width * height / 1e6:6.1f} {rss / 2**20:9.0f} {rss / LIMIT:9.2f}")
    print(f"worst: {worst:.2f} of the limit")


main()
