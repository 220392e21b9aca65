#!/usr/bin/env python3
"""The decode floor of a render: every page of a plan's slots decoded at the
scale Mihiraki's shrink-on-load picks for it, by libjpeg-turbo through
Pillow's draft mode, on two worker processes, and nothing else (no
resampling, composition, encoding or writing). A render cannot beat it.

  floor.py MANIFEST BOOKDIR RUNS

Prints the median wall time of RUNS runs, in seconds. The pool is started
and the pages' bytes are read once before the clock starts, so the floor
holds decoding alone; Mihiraki's time, measured as a whole command, also
holds its start-up and its reads.
"""
import io
import json
import os
import statistics
import sys
import time
from multiprocessing import Pool

from PIL import Image

PAGES = {}


def scale(full_width, full_height, min_width, min_height):
    """Mihiraki's rule (jpeg_read.c): the smallest of 1/8, 1/4, 1/2, 1 whose
    rounded-up size still covers twice the drawn rectangle. Returns the divisor."""
    m = 1
    while m < 8 and ((full_width * m + 7) // 8 < min_width or (full_height * m + 7) // 8 < min_height):
        m *= 2
    return 8 // m


def decode(job):
    source, width, height = job
    page = Image.open(io.BytesIO(PAGES[source]))
    divisor = scale(page.size[0], page.size[1], 2 * width, 2 * height)
    if divisor > 1:
        # Pillow's draft picks the largest reduction whose size is at least the one asked.
        page.draft(page.mode, (max(1, page.size[0] // divisor), max(1, page.size[1] // divisor)))
    page.load()
    return page.size


def main():
    manifest_path, book, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(manifest_path) as f:
        manifest = json.load(f)
    jobs = [(slot["source"], slot["rect"][2], slot["rect"][3])
            for spread in manifest["spreads"] for slot in spread["slots"] if not slot.get("blank")]
    for source, _, _ in jobs:
        with open(os.path.join(book, source), "rb") as f:
            PAGES[source] = f.read()
    times = []
    with Pool(2) as pool:
        pool.map(decode, jobs[:2])  # both workers up
        for _ in range(runs):
            start = time.perf_counter()
            pool.map(decode, jobs, chunksize=1)
            times.append(time.perf_counter() - start)
    print(f"{statistics.median(times):.4f}")


if __name__ == "__main__":
    main()
