#!/usr/bin/env python3
"""Draws Mihiraki's bundled sample book, TestImages/sample-book/.

Twelve pages, page 7 a wide double-page spread; a mix of JPEG and PNG, gray and
colour, one PNG with transparent margins, one JPEG stored sideways with an EXIF
orientation tag, and file names that only sort right naturally (page2 <
page10). Needs Pillow (pip install pillow). The pages are committed, so
nobody needs to run this unless they want to change the book.
"""
import os
import random
import shutil
import sys

from PIL import Image, ImageDraw, ImageFont

W, H = 640, 996
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "TestImages", "sample-book")


def font(size):
    return ImageFont.load_default(size=size)


def draw_page(number, width, height, mode, seed):
    rnd = random.Random(seed)
    paper = 255 if mode == "L" else (250, 246, 236)
    ink = 0 if mode == "L" else (30, 30, 60)
    img = Image.new(mode, (width, height), paper)
    d = ImageDraw.Draw(img)
    margin = 40
    # Panels with screentone dots and hatching, like a comic page.
    rows = rnd.choice([2, 3, 3, 4])
    y = margin
    panel_h = (height - 2 * margin - 160 - (rows - 1) * 16) // rows
    for r in range(rows):
        cols = rnd.choice([1, 2, 2, 3]) if width < 1000 else rnd.choice([2, 3, 4])
        x = margin
        panel_w = (width - 2 * margin - (cols - 1) * 16) // cols
        for c in range(cols):
            box = (x, y, x + panel_w, y + panel_h)
            if mode == "L":
                tone = rnd.choice([200, 170, 230])
            else:
                tone = tuple(rnd.randint(90, 235) for _ in range(3))
            d.rectangle(box, fill=tone, outline=ink, width=4)
            step = rnd.choice([7, 9, 11])
            for yy in range(y + 8, y + panel_h - 8, step):
                for xx in range(x + 8 + (yy // step % 2) * step // 2, x + panel_w - 8, step):
                    d.ellipse((xx - 1, yy - 1, xx + 1, yy + 1), fill=ink)
            for k in range(rnd.randint(2, 5)):
                cx, cy = rnd.randint(x + 30, x + panel_w - 30), rnd.randint(y + 30, y + panel_h - 30)
                rad = rnd.randint(15, 60)
                d.ellipse((cx - rad, cy - rad, cx + rad, cy + rad), fill=paper, outline=ink, width=3)
            x += panel_w + 16
        y += panel_h + 16
    d.text((width // 2, height - 90), str(number), fill=ink, font=font(96), anchor="mm")
    d.text((margin, height - 40), "Mihiraki sample book", fill=ink, font=font(22), anchor="ls")
    return img


def main():
    if os.path.isdir(ROOT):
        shutil.rmtree(ROOT)
    os.makedirs(ROOT)
    for n in range(1, 13):
        wide = n == 7
        width = 2 * W if wide else W
        color = n in (1, 4, 7, 10, 12)
        img = draw_page(n, width, H, "RGB" if color else "L", seed=n)
        name = os.path.join(ROOT, f"page{n}")
        if n == 5:
            # Transparent margins: composited over the background by Mihiraki.
            rgba = img.convert("RGBA")
            px = rgba.load()
            for yy in range(H):
                for xx in range(W):
                    if xx < 24 or xx >= W - 24 or yy < 24 or yy >= H - 24:
                        px[xx, yy] = (255, 255, 255, 0)
            rgba.save(name + ".png", optimize=True)
        elif n == 9:
            # Stored sideways; EXIF orientation 6 says "turn 90° clockwise".
            stored = img.rotate(90, expand=True)
            exif = Image.Exif()
            exif[0x0112] = 6
            stored.save(name + ".jpg", quality=70, exif=exif.tobytes())
        elif n % 2 == 0 and not color:
            img.save(name + ".png", optimize=True)
        else:
            img.save(name + ".jpg", quality=70, progressive=(n == 3))
    with open(os.path.join(ROOT, "notes.txt"), "w") as f:
        f.write("Not a page: Mihiraki ignores files that are not images.\n")
    total = sum(os.path.getsize(os.path.join(ROOT, f)) for f in os.listdir(ROOT))
    print(f"wrote {ROOT} ({total / 1e6:.2f} MB)", file=sys.stderr)


if __name__ == "__main__":
    main()
