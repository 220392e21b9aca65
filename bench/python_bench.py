#!/usr/bin/env python3
"""Mihiraki from Python against a Pillow script and pyvips doing the same
composition (SPEC §8): every spread of a book at x300 as numpy arrays.

    python3 bench/python_bench.py BOOK [RUNS]

Run with the python whose `mihiraki` is the wheel (scripts/bench builds
it and makes a venv). Pillow uses draft mode (JPEG DCT scaling), as a
careful script would; every tool draws the rectangles of Mihiraki's own
plan, so the work is the same. Prints seconds (median of RUNS) and ratios.
"""
import statistics
import sys
import threading
import time

import numpy
import pyvips
from PIL import Image

import mihiraki


def with_mihiraki(book, plan, threads=1):
    count = len(plan["spreads"])
    out = [None] * count

    def work(indices):
        for i in indices:
            out[i] = book.spread(i + 1, size="x300")
    groups = [range(k, count, threads) for k in range(threads)]
    workers = [threading.Thread(target=work, args=(g,)) for g in groups]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return out


def page_path(root, slot):
    return root + "/" + slot["source"]


def with_pillow(root, plan):
    width, height = plan["canvas"]["width"], plan["canvas"]["height"]
    out = []
    for spread in plan["spreads"]:
        canvas = Image.new("RGB", (width, height), (0, 0, 0))
        for slot in spread["slots"]:
            x, y, w, h = slot["rect"]
            if slot["page"] is None:
                canvas.paste((255, 255, 255), (x, y, x + w, y + h))
                continue
            page = Image.open(page_path(root, slot))
            page.draft("RGB", (2 * w, 2 * h))
            canvas.paste(page.convert("RGB").resize((w, h), Image.LANCZOS), (x, y))
        out.append(numpy.asarray(canvas))
    return out


def with_pyvips(root, plan):
    width, height = plan["canvas"]["width"], plan["canvas"]["height"]
    out = []
    for spread in plan["spreads"]:
        canvas = pyvips.Image.black(width, height, bands=3)
        for slot in spread["slots"]:
            x, y, w, h = slot["rect"]
            if slot["page"] is None:
                canvas = canvas.draw_rect([255, 255, 255], x, y, w, h, fill=True)
                continue
            page = pyvips.Image.thumbnail(page_path(root, slot), w, height=h, size="force")
            if page.bands == 1:
                page = page.colourspace("srgb")
            canvas = canvas.insert(page, x, y)
        out.append(canvas.numpy())
    return out


def timed(function, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    root = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    book = mihiraki.open(root)
    plan = book.plan(size="x300")
    one = timed(lambda: with_mihiraki(mihiraki.open(root), plan, 1), runs)
    two = timed(lambda: with_mihiraki(mihiraki.open(root), plan, 2), runs)
    pillow = timed(lambda: with_pillow(root, plan), runs)
    vips = timed(lambda: with_pyvips(root, plan), runs)
    n = len(plan["spreads"])
    print(f"\nPython: {n} spreads at x300 as numpy arrays, {root}, median of {runs}")
    print("| tool | seconds | against Mihiraki (1 thread) |")
    print("|---|---|---|")
    print(f"| mihiraki, 1 thread | {one:.2f} | 1.00x |")
    print(f"| mihiraki, 2 threads | {two:.2f} | {one / two:.2f}x faster |")
    print(f"| Pillow (draft) | {pillow:.2f} | Mihiraki {pillow / one:.2f}x faster |")
    print(f"| pyvips | {vips:.2f} | Mihiraki {vips / one:.2f}x faster |")


if __name__ == "__main__":
    main()
