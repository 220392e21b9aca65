#!/usr/bin/env python3
"""The same spread job done with the tools users would otherwise script.

Every tool renders exactly the spreads and rectangles of Mihiraki's plan
(`mihiraki plan BOOK --json`), so the work and the geometry are identical:
pages resized to their snapped rectangles with a Lanczos-class filter, blanks
white, canvas black, two workers. The manifest's file names choose the
format: PNG at zlib level 6; JPEG and WebP at QUALITY (environment, default
85), JPEG with optimised Huffman tables, WebP at effort 4, as Mihiraki writes them.

  peers.py vips   MANIFEST BOOKDIR OUTDIR   # pyvips: thumbnail (shrink-on-load) + insert + pngsave
  peers.py pillow MANIFEST BOOKDIR OUTDIR   # Pillow: draft + resize(LANCZOS, reducing_gap=2) + paste
  peers.py magick MANIFEST BOOKDIR OUTDIR   # ImageMagick convert, -filter Lanczos, one process per spread
  peers.py psnr   MANIFEST BOOKDIR OUTDIR   # PSNR of OUTDIR's spreads against Pillow LANCZOS (no draft,
                                            # no reducing_gap) at the same rectangles, over page pixels
"""
import json
import os
import subprocess
import sys
from multiprocessing import Pool

WORKERS = 2
QUALITY = int(os.environ.get("QUALITY", "85"))


def load(manifest_path):
    with open(manifest_path) as f:
        return json.load(f)


def mode_of(book_dir, manifest):
    from PIL import Image
    first = manifest["spreads"][0]["slots"]
    source = next(s["source"] for s in first if s.get("source"))
    return "L" if Image.open(os.path.join(book_dir, source)).mode == "L" else "RGB"


# MARK: libvips

def vips_spread(job):
    import pyvips
    spread, book_dir, out_dir, width, height, bands = job
    canvas = pyvips.Image.black(width, height, bands=bands)
    for slot in spread["slots"]:
        x, y, w, h = slot["rect"]
        if w <= 0 or h <= 0:
            continue
        if slot.get("blank"):
            tile = (pyvips.Image.black(w, h, bands=bands) + 255).cast("uchar")
        else:
            tile = pyvips.Image.thumbnail(os.path.join(book_dir, slot["source"]), w, height=h, size="force")
            if tile.bands != bands:
                tile = tile.colourspace("b-w" if bands == 1 else "srgb")
        canvas = canvas.insert(tile, x, y)
    path = os.path.join(out_dir, spread["file"])
    canvas = canvas.cast("uchar")
    if path.endswith(".png"):
        canvas.pngsave(path, compression=6)
    elif path.endswith(".jpg"):
        canvas.jpegsave(path, Q=QUALITY, optimize_coding=True, strip=True)
    else:
        canvas.webpsave(path, Q=QUALITY, effort=4, strip=True)


# MARK: Pillow

def pillow_spread(job):
    from PIL import Image
    spread, book_dir, out_dir, width, height, mode = job
    canvas = Image.new(mode, (width, height), 0)
    for slot in spread["slots"]:
        x, y, w, h = slot["rect"]
        if slot.get("blank"):
            canvas.paste(255 if mode == "L" else (255, 255, 255), (x, y, x + w, y + h))
            continue
        page = Image.open(os.path.join(book_dir, slot["source"]))
        page.draft(mode, (w, h))
        page = page.convert(mode).resize((w, h), Image.LANCZOS, reducing_gap=2.0)
        canvas.paste(page, (x, y))
    path = os.path.join(out_dir, spread["file"])
    if path.endswith(".png"):
        canvas.save(path, compress_level=6)
    elif path.endswith(".jpg"):
        canvas.save(path, quality=QUALITY, optimize=True)
    else:
        canvas.save(path, quality=QUALITY, method=4)


# MARK: ImageMagick

MAGICK = "/usr/bin/convert"


def magick_spread(job):
    spread, book_dir, out_dir, width, height, mode = job
    args = [MAGICK, "-size", f"{width}x{height}", "xc:black"]
    for slot in spread["slots"]:
        x, y, w, h = slot["rect"]
        if slot.get("blank"):
            args += ["-fill", "white", "-draw", f"rectangle {x},{y} {x + w - 1},{y + h - 1}"]
        else:
            args += ["(", os.path.join(book_dir, slot["source"]), "-filter", "Lanczos", "-resize", f"{w}x{h}!", ")",
                     "-geometry", f"+{x}+{y}", "-composite"]
    args += ["-depth", "8", "-define", "png:compression-level=6", os.path.join(out_dir, spread["file"])]
    subprocess.run(args, check=True, env=dict(os.environ, MAGICK_THREAD_LIMIT="1"))


# MARK: PSNR against the high-precision reference

def psnr_spread(job):
    import numpy as np
    from PIL import Image
    spread, book_dir, out_dir, width, height, mode = job
    produced = Image.open(os.path.join(out_dir, spread["file"])).convert(mode)
    squared, count = 0.0, 0
    for slot in spread["slots"]:
        if slot.get("blank"):
            continue
        x, y, w, h = slot["rect"]
        page = Image.open(os.path.join(book_dir, slot["source"])).convert(mode)
        reference = np.asarray(page.resize((w, h), Image.LANCZOS), dtype=np.float64)
        actual = np.asarray(produced.crop((x, y, x + w, y + h)), dtype=np.float64)
        squared += float(((reference - actual) ** 2).sum())
        count += reference.size
    return squared, count


def main():
    tool, manifest_path, book_dir, out_dir = sys.argv[1:5]
    manifest = load(manifest_path)
    width, height = manifest["canvas"]["width"], manifest["canvas"]["height"]
    mode = mode_of(book_dir, manifest)
    os.makedirs(out_dir, exist_ok=True)
    extra = (1 if mode == "L" else 3) if tool == "vips" else mode
    jobs = [(s, book_dir, out_dir, width, height, extra) for s in manifest["spreads"]]
    if tool == "vips":
        os.environ["VIPS_CONCURRENCY"] = "1"
    worker = {"vips": vips_spread, "pillow": pillow_spread, "magick": magick_spread, "psnr": psnr_spread}[tool]
    with Pool(WORKERS) as pool:
        results = pool.map(worker, jobs, chunksize=1)
    if tool == "psnr":
        import math
        squared = sum(r[0] for r in results)
        count = sum(r[1] for r in results)
        mse = squared / max(count, 1)
        print("inf" if mse == 0 else f"{10 * math.log10(255 * 255 / mse):.2f}")


if __name__ == "__main__":
    main()
