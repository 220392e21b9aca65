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
scaling, compare, archive, server, workers, memory, canvas, catalog, pairing, cut, python, pdf, floor, baseline;
comma-separated) runs only those parts. The baseline part (not run by default) sets x300 renders' CPU time
against an earlier build, BENCH_BASELINE=BIN.
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
from bench_common import *  # noqa: F401,F403
from bench_speed import *  # noqa: F401,F403
from bench_peers import *  # noqa: F401,F403
from bench_features import *  # noqa: F401,F403
from bench_baseline import *  # noqa: F401,F403


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
    if "baseline" in parts:
        baseline_bench()


if __name__ == "__main__":
    main()
