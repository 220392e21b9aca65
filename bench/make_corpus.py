#!/usr/bin/env python3
"""Generates the benchmark corpus: realistic comic pages, deterministically.

  manga/   40 gray pages, 1500x2134 JPEG (q90): panels, screentone, line art,
           speech bubbles with text, scan noise; pages 12 and 27 are wide
           (3000x2134) double-page spreads.
  comic/   12 colour pages, 1988x3056 JPEG (q90, 4:2:0): flat colours with
           gradients, line art, text, noise.

Usage: make_corpus.py OUTDIR [--pages N]   (N = manga page count, default 40)
Needs numpy and Pillow.
"""
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont


def screentone(h, w, period, angle, level, rng):
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    c, s = np.cos(angle), np.sin(angle)
    u = (xx * c + yy * s) / period
    v = (-xx * s + yy * c) / period
    d = np.hypot(u - np.round(u), v - np.round(v))
    radius = np.sqrt(level / np.pi)
    return (d > radius).astype(np.uint8) * 255


def speech(draw, box, rng, font, ink=0, paper=255):
    x0, y0, x1, y1 = box
    draw.ellipse(box, fill=paper, outline=ink, width=4)
    words = ["WHAT", "IS", "THIS", "PLACE", "WE", "HAVE", "TO", "GO", "NOW", "...", "REALLY?", "WAIT!"]
    lines = [" ".join(rng.choice(words, size=rng.integers(1, 4))) for _ in range(rng.integers(2, 4))]
    ty = y0 + (y1 - y0) // 2 - 18 * len(lines) // 2
    for line in lines:
        draw.text(((x0 + x1) // 2, ty), line, fill=ink, font=font, anchor="mm")
        ty += 36


def panels(w, h, rng, margin=70, gutter=28):
    rows = rng.integers(3, 5)
    cuts = [(r + 1) / rows + rng.uniform(-0.06, 0.06) for r in range(rows - 1)]
    ys = [margin] + [int(margin + c * (h - 2 * margin)) for c in cuts] + [h - margin]
    boxes = []
    for r in range(len(ys) - 1):
        cols = rng.integers(1, 4) if w < 2500 else rng.integers(2, 5)
        xs = np.linspace(margin, w - margin, cols + 1).astype(int)
        for c in range(cols):
            boxes.append((xs[c] + gutter // 2, ys[r] + gutter // 2, xs[c + 1] - gutter // 2, ys[r + 1] - gutter // 2))
    return boxes


def manga_page(w, h, seed):
    rng = np.random.default_rng(seed)
    font = ImageFont.load_default(size=30)
    page = np.full((h, w), 250, np.uint8)
    img = Image.fromarray(page)
    for box in panels(w, h, rng):
        x0, y0, x1, y1 = box
        tone = screentone(y1 - y0, x1 - x0, rng.uniform(5, 9), rng.uniform(0, np.pi / 4), rng.uniform(0.1, 0.5), rng)
        region = Image.fromarray(tone)
        img.paste(region, (x0, y0))
        d = ImageDraw.Draw(img)
        for _ in range(rng.integers(6, 16)):
            cx, cy = rng.integers(x0, x1), rng.integers(y0, y1)
            r = rng.integers(20, 160)
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=0, width=int(rng.integers(2, 6)),
                      fill=int(rng.choice([250, 30, 250])))
        for _ in range(rng.integers(10, 40)):
            pts = [(int(rng.integers(x0, x1)), int(rng.integers(y0, y1))) for _ in range(3)]
            d.line(pts, fill=0, width=int(rng.integers(1, 5)), joint="curve")
        if rng.random() < 0.7 and x1 - x0 > 320 and y1 - y0 > 220:
            bx, by = rng.integers(x0, x1 - 300), rng.integers(y0, y1 - 200)
            speech(d, (bx, by, bx + 300, by + 200), rng, font)
        d.rectangle(box, outline=0, width=6)
    arr = np.asarray(img).astype(np.float32)
    arr += rng.normal(0, 5, arr.shape).astype(np.float32)       # scan noise
    arr = np.clip(arr, 0, 255).astype(np.uint8)
    return Image.fromarray(arr).filter(ImageFilter.GaussianBlur(0.6))


def comic_page(w, h, seed):
    rng = np.random.default_rng(seed)
    font = ImageFont.load_default(size=40)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    base = np.stack([240 + 0 * xx, 236 + 0 * xx, 226 + 0 * xx], axis=-1)
    img = Image.fromarray(base.astype(np.uint8), "RGB")
    d = ImageDraw.Draw(img)
    for box in panels(w, h, rng, margin=90, gutter=36):
        x0, y0, x1, y1 = box
        c0, c1 = rng.integers(40, 230, 3), rng.integers(40, 230, 3)
        t = np.linspace(0, 1, y1 - y0)[:, None, None]
        grad = (c0 * (1 - t) + c1 * t).astype(np.uint8) * np.ones((1, x1 - x0, 1), np.uint8)
        img.paste(Image.fromarray(grad, "RGB"), (x0, y0))
        d = ImageDraw.Draw(img)
        for _ in range(rng.integers(5, 12)):
            cx, cy = rng.integers(x0, x1), rng.integers(y0, y1)
            r = rng.integers(30, 220)
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=tuple(int(v) for v in rng.integers(0, 255, 3)),
                      outline=(20, 20, 30), width=int(rng.integers(3, 8)))
        for _ in range(rng.integers(10, 30)):
            pts = [(int(rng.integers(x0, x1)), int(rng.integers(y0, y1))) for _ in range(3)]
            d.line(pts, fill=(15, 15, 25), width=int(rng.integers(2, 6)), joint="curve")
        if x1 - x0 > 420 and y1 - y0 > 280:
            bx, by = rng.integers(x0, x1 - 400), rng.integers(y0, y1 - 260)
            speech(d, (bx, by, bx + 400, by + 260), rng, font, ink=(10, 10, 10), paper=(255, 255, 250))
        d.rectangle(box, outline=(10, 10, 10), width=8)
    arr = np.asarray(img).astype(np.float32)
    arr += rng.normal(0, 3, arr.shape).astype(np.float32)
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8), "RGB")


def main():
    out = sys.argv[1]
    pages = int(sys.argv[sys.argv.index("--pages") + 1]) if "--pages" in sys.argv else 40
    manga, comic = os.path.join(out, "manga"), os.path.join(out, "comic")
    os.makedirs(manga, exist_ok=True)
    os.makedirs(comic, exist_ok=True)
    for n in range(1, pages + 1):
        path = os.path.join(manga, f"p{n:03d}.jpg")
        if os.path.exists(path):
            continue
        wide = n in (12, 27)
        manga_page(3000 if wide else 1500, 2134, seed=n).save(path, quality=90)
    for n in range(1, 13):
        path = os.path.join(comic, f"p{n:03d}.jpg")
        if not os.path.exists(path):
            comic_page(1988, 3056, seed=1000 + n).save(path, quality=90, subsampling=2)
    print(f"corpus in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
