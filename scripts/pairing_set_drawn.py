"""The drawn family of the labelled pairing set: manga-like art, colour art, ordinary pages and the damage a scan does at the seam."""
import glob
import math
import os
import re
import sys
import numpy as np
from PIL import Image, ImageDraw


PAGE_W, PAGE_H = 800, 1200
DAMAGES = ["clean", "seam-loss", "shift", "scale", "shadow", "noise", "gamma", "jpeg", "all"]


def screentone(rng, w, h):
    """A dot screen: 0 (ink) or 255, random pitch and angle."""
    pitch = rng.uniform(4.0, 9.0)
    angle = rng.uniform(0, math.pi / 2)
    level = rng.uniform(-0.6, 0.6)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    u = (x * math.cos(angle) + y * math.sin(angle)) * 2 * math.pi / pitch
    v = (-x * math.sin(angle) + y * math.cos(angle)) * 2 * math.pi / pitch
    return np.where(np.sin(u) + np.sin(v) > level * 2, 255, 0).astype(np.uint8)


def random_polygon(rng, w, h, size):
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    points = []
    for k in range(rng.integers(5, 10)):
        a = 2 * math.pi * k / 8 + rng.uniform(-0.3, 0.3)
        r = size * rng.uniform(0.5, 1.2)
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return points


def manga_art(rng, w, h, band=False):
    """A gray two-page artwork, w × h, drawn across the spine."""
    canvas = Image.new("L", (w, h), 255)
    draw = ImageDraw.Draw(canvas)
    top, bottom = 0, h
    if band:
        # Only a band of art crosses the spine; the rest is white gutter with
        # panels kept away from the middle.
        top = int(rng.uniform(0.2, 0.6) * h)
        bottom = top + int(rng.uniform(0.12, 0.25) * h)
    art = Image.new("L", (w, bottom - top), 255)
    ad = ImageDraw.Draw(art)
    aw, ah = art.size
    # Screentone regions.
    for _ in range(rng.integers(3, 7)):
        mask = Image.new("L", (aw, ah), 0)
        ImageDraw.Draw(mask).polygon(random_polygon(rng, aw, ah, rng.uniform(0.1, 0.4) * w), fill=255)
        tone = Image.fromarray(screentone(rng, aw, ah))
        art.paste(tone, (0, 0), mask)
    # Speed lines from a focus point.
    fx, fy = rng.uniform(0, aw), rng.uniform(0, ah)
    for _ in range(rng.integers(20, 60)):
        a = rng.uniform(0, 2 * math.pi)
        r0, r1 = rng.uniform(0.1, 0.3) * w, rng.uniform(0.5, 1.2) * w
        ad.line([(fx + r0 * math.cos(a), fy + r0 * math.sin(a)), (fx + r1 * math.cos(a), fy + r1 * math.sin(a))],
                fill=0, width=int(rng.integers(1, 4)))
    # Figures: outlined blobs with hatching.
    for _ in range(rng.integers(2, 5)):
        poly = random_polygon(rng, aw, ah, rng.uniform(0.08, 0.2) * w)
        ad.polygon(poly, fill=int(rng.integers(120, 250)), outline=0, width=int(rng.integers(2, 5)))
        x0, y0 = min(p[0] for p in poly), min(p[1] for p in poly)
        for k in range(int(rng.integers(3, 10))):
            ad.line([(x0 + 12 * k, y0), (x0 + 12 * k + 40, y0 + 60)], fill=0, width=1)
    # Balloons with lines of "text".
    for _ in range(rng.integers(1, 4)):
        bx, by = rng.uniform(0, aw), rng.uniform(0, ah)
        rx, ry = rng.uniform(50, 120), rng.uniform(60, 140)
        ad.ellipse([bx - rx, by - ry, bx + rx, by + ry], fill=255, outline=0, width=3)
        for k in range(int(ry // 25)):
            ad.line([(bx - rx * 0.5, by - ry * 0.6 + 25 * k), (bx + rx * 0.4, by - ry * 0.6 + 25 * k)], fill=60, width=6)
    canvas.paste(art, (0, top))
    if band:
        # Small panels on each page, away from the spine.
        for page_x in (0, w // 2):
            for y0, y1 in ((40, top - 40), (bottom + 40, h - 40)):
                if y1 - y0 > 120:
                    x0 = page_x + 60 if page_x == 0 else page_x + 140
                    x1 = x0 + w // 2 - 200
                    sub = Image.fromarray(screentone(rng, x1 - x0, y1 - y0))
                    canvas.paste(sub, (x0, y0))
                    draw.rectangle([x0, y0, x1, y1], outline=0, width=4)
        draw.line([(0, top), (w, top)], fill=0, width=4)
        draw.line([(0, bottom), (w, bottom)], fill=0, width=4)
    else:
        # Panel borders crossing the spine.
        for _ in range(rng.integers(1, 3)):
            y = rng.uniform(0.15, 0.85) * h
            draw.line([(0, y), (w, y + rng.uniform(-80, 80))], fill=0, width=int(rng.integers(3, 7)))
    return canvas.convert("RGB")


def wallpapers():
    """GNOME's backgrounds: the photo family (pairing_families.py) cuts its
    pages from plasma's wallpapers, so the two families share no picture."""
    return sorted(glob.glob("/usr/share/backgrounds/gnome/*.webp") + glob.glob("/usr/share/backgrounds/gnome/*.jpg"))


def picture(path):
    """Which picture a background file shows: GNOME ships some as light and
    dark variants of one drawing (`adwaita-l`, `adwaita-d`)."""
    return re.sub(r"-[dl]$", "", os.path.splitext(os.path.basename(path))[0])


def colour_art(rng, w, h, sources, avoid=None):
    """A crop of a wallpaper with something drawn where the spine falls: a
    crop whose middle is one flat colour is no split anyone could see (it is
    two blank pages), so such crops are drawn again. Returns the crop and
    its picture (`picture`); `avoid` is a picture not to use."""
    if avoid is not None and all(picture(source) == avoid for source in sources):
        sys.exit(f"make-pairing-set.py: a colour hard negative needs two pictures, and the {len(sources)} "
                 f"background file(s) found all show {avoid}")
    for attempt in range(20):
        index = int(rng.integers(len(sources)))
        while picture(sources[index]) == avoid:
            index = int(rng.integers(len(sources)))
        source = Image.open(sources[index]).convert("RGB")
        scale = max(w / source.width, h / source.height) * rng.uniform(1.0, 1.6)
        source = source.resize((math.ceil(source.width * scale), math.ceil(source.height * scale)), Image.LANCZOS)
        x = int(rng.integers(0, source.width - w + 1))
        y = int(rng.integers(0, source.height - h + 1))
        art = source.crop((x, y, x + w, y + h))
        spine = np.asarray(art.convert("L"), dtype=np.float32)[:, w // 2 - 8:w // 2 + 8]
        if spine.mean(axis=1).std() >= 12:
            break
    return art, picture(sources[index])


def ordinary_page(rng):
    """A page with white margins and panels inside them."""
    art = manga_art(rng, PAGE_W - 120, PAGE_H - 140)
    page = Image.new("RGB", (PAGE_W, PAGE_H), (255, 255, 255))
    page.paste(art, (60, 70))
    ImageDraw.Draw(page).rectangle([60, 70, PAGE_W - 61, PAGE_H - 71], outline=(0, 0, 0), width=4)
    return page


def damage(rng, half, seam_side, kinds):
    """One half of a split, as its own scan: seam_side is 'right' or 'left'."""
    a = np.asarray(half).astype(np.float32)
    h, w = a.shape[:2]
    if "scale" in kinds:
        f = 1 + rng.choice([-1, 1]) * rng.uniform(0.003, 0.009)
        # Scanned at another scale: the page file is a little larger or smaller.
        img = Image.fromarray(a.clip(0, 255).astype(np.uint8)).resize((round(w * f), round(h * f)), Image.BICUBIC)
        a = np.asarray(img).astype(np.float32)
        h, w = a.shape[:2]
    if "shift" in kinds:
        s = int(rng.integers(1, 5)) * int(rng.choice([-1, 1]))
        a = np.roll(a, s, axis=0)
        if s > 0:
            a[:s] = 255
        else:
            a[s:] = 255
    if "seam-loss" in kinds:
        lost = int(rng.integers(1, 7))
        a = a[:, :w - lost] if seam_side == "right" else a[:, lost:]
        w = a.shape[1]
    if "shadow" in kinds:
        width = rng.uniform(0.04, 0.10) * w
        depth = rng.uniform(0.15, 0.45)
        x = np.arange(w, dtype=np.float32)
        d = (w - 1 - x) if seam_side == "right" else x
        ramp = 1 - depth * np.clip(1 - d / width, 0, 1) ** 2
        a = a * ramp[None, :, None]
    if "gamma" in kinds:
        g = rng.uniform(0.8, 1.25)
        a = 255 * (np.clip(a, 0, 255) / 255) ** g
    if "noise" in kinds:
        a = a + rng.normal(0, rng.uniform(2, 6), a.shape)
    img = Image.fromarray(np.clip(a, 0, 255).round().astype(np.uint8))
    quality = int(rng.integers(55, 92)) if "jpeg" in kinds else 95
    return img, quality


def save(img, path, quality, gray, scale=1.0):
    img = img.convert("L") if gray else img
    if scale != 1.0:
        img = img.resize((round(img.width * scale), round(img.height * scale)), Image.LANCZOS)
    img.save(path, quality=quality)


class Drawn:
    """This file's family: art drawn with Pillow, and gnome-backgrounds (when
    installed) for every fourth book, in colour."""
    name = "drawn"

    def __init__(self):
        self.sources = wallpapers()

    def make_book(self, rng, index, direction, with_splits):
        sources = self.sources
        colour = bool(sources) and index % 4 == 3
        pages = []  # (img, quality, gray)
        splits, kinds, negatives = [], {}, []
        pages.append((ordinary_page(rng), 90, True))  # cover
        for k in range(int(rng.integers(5, 9))):
            r = rng.uniform()
            if with_splits and r < 0.45:
                kind = DAMAGES[int(rng.integers(len(DAMAGES)))]
                art_kind = "colour" if colour else ("band" if rng.uniform() < 0.25 else "manga")
                art = colour_art(rng, 2 * PAGE_W, PAGE_H, sources)[0] if art_kind == "colour" else \
                    manga_art(rng, 2 * PAGE_W, PAGE_H, band=art_kind == "band")
                left, right = art.crop((0, 0, PAGE_W, PAGE_H)), art.crop((PAGE_W, 0, 2 * PAGE_W, PAGE_H))
                damages = DAMAGES[1:-1] if kind == "all" else [kind]
                left_img, lq = damage(rng, left, "right", damages)
                right_img, rq = damage(rng, right, "left", damages)
                # Reading order: LTR reads left then right; RTL reads the right half first.
                first, second = ((left_img, lq), (right_img, rq)) if direction == "ltr" else ((right_img, rq), (left_img, lq))
                a = len(pages) + 1
                pages.append((first[0], first[1], art_kind != "colour"))
                pages.append((second[0], second[1], art_kind != "colour"))
                splits.append([a, a + 1])
                kinds[str(a)] = f"{art_kind}/{kind}"
            elif r < 0.65:
                # A hard negative: halves of two different artworks side by
                # side (in colour, of two pictures: two crops of one at one
                # height would be one artwork continuing).
                if colour:
                    x, first = colour_art(rng, 2 * PAGE_W, PAGE_H, sources)
                    y, _ = colour_art(rng, 2 * PAGE_W, PAGE_H, sources, avoid=first)
                else:
                    x, y = manga_art(rng, 2 * PAGE_W, PAGE_H), manga_art(rng, 2 * PAGE_W, PAGE_H)
                one = x.crop((0, 0, PAGE_W, PAGE_H)) if direction == "ltr" else x.crop((PAGE_W, 0, 2 * PAGE_W, PAGE_H))
                two = y.crop((PAGE_W, 0, 2 * PAGE_W, PAGE_H)) if direction == "ltr" else y.crop((0, 0, PAGE_W, PAGE_H))
                a = len(pages) + 1
                pages.append((one, 90, not colour))
                pages.append((two, 90, not colour))
                negatives.append([a, a + 1])
            else:
                pages.append((ordinary_page(rng), 90, True))
        return pages, splits, kinds, negatives
