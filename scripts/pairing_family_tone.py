"""The tone family of the labelled pairing set: screentone and printed pages, their splits and hard negatives."""
import math
import numpy as np
from PIL import Image, ImageDraw, ImageFilter
from pairing_scans import *  # noqa: F401,F403


SCAN_W, SCAN_H = 880, 1280
PRINT = 1.5  # printed at 1.5 times the scan's resolution


_GRIDS = {}


def grid(w, h):
    if (w, h) not in _GRIDS:
        _GRIDS[(w, h)] = np.mgrid[0:h, 0:w].astype(np.float32)
    return _GRIDS[(w, h)]


def tone_pattern(rng, w, h, kind=None, pitch=None, angle=None):
    """A screen: for a gray level g (0 black … 1 white), ink where pattern < 1 − g."""
    kind = kind or ("dot" if rng.uniform() < 0.6 else "line")
    pitch = pitch or rng.uniform(4.5, 12.0)
    angle = angle if angle is not None else rng.choice([0, 15, 30, 45, 60, 75, 90]) * math.pi / 180
    y, x = grid(w, h)
    u = (x * math.cos(angle) + y * math.sin(angle)) / pitch
    v = (-x * math.sin(angle) + y * math.cos(angle)) / pitch
    if kind == "dot":
        return ((np.cos(2 * math.pi * u) + np.cos(2 * math.pi * v)) / 4 + 0.5), (kind, pitch, angle)
    return (np.abs((u % 1) - 0.5) * 2), (kind, pitch, angle)


def printed(levels, screens):
    """Binary print of gray levels: where a region has a screen, ink where the
    screen is below the level's darkness; elsewhere ink where darker than half."""
    ink = levels < 0.5
    for mask, pattern in screens:
        ink = np.where(mask, pattern < 1 - levels, ink)
    return np.where(ink, 0.0, 255.0).astype(np.float32)


class Tone:
    name = "tone"

    def layout(self, rng, w, h):
        """Panel rows (y0, y1) for a page h high: white gutters between them."""
        rows, y = [], int(rng.integers(40, 90))
        while y < h - 200:
            y1 = min(h - int(rng.integers(40, 90)), y + int(rng.integers(250, 700)))
            rows.append((y, y1))
            y = y1 + int(rng.integers(25, 60))
        return rows

    def art(self, rng, w, h, rows=None, edge_screen=None):
        """Gray levels and screens of an artwork w × h (print pixels)."""
        levels = np.ones((h, w), np.float32)
        screens = []
        img = Image.new("L", (w, h), 255)
        draw = ImageDraw.Draw(img)
        for _ in range(int(rng.integers(3, 7))):
            mask_img = Image.new("L", (w, h), 0)
            cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.1, 0.45) * h
            pts = [(cx + r * rng.uniform(0.5, 1.3) * math.cos(a), cy + r * rng.uniform(0.5, 1.3) * math.sin(a))
                   for a in np.linspace(0, 2 * math.pi, int(rng.integers(5, 10)), endpoint=False)]
            ImageDraw.Draw(mask_img).polygon(pts, fill=255)
            mask = np.asarray(mask_img) > 0
            pattern, _ = tone_pattern(rng, w, h)
            g = rng.uniform(0.25, 0.85)
            if rng.uniform() < 0.4:  # a gradient tone
                g = np.clip(g + (np.mgrid[0:h, 0:w][rng.integers(2)] / max(w, h) - 0.5) * rng.uniform(0.3, 0.9), 0.05, 0.95)
            levels = np.where(mask, g, levels)
            screens.append((mask, pattern))
        if edge_screen is not None:
            mask, pattern, level = edge_screen
            screens.append((mask, pattern))
            levels = np.where(mask, level, levels)
        # Speed lines from a focus point, or parallel ones.
        fx, fy = rng.uniform(0, w), rng.uniform(0, h)
        parallel = rng.uniform() < 0.4
        theta = rng.uniform(0, math.pi)
        for _ in range(int(rng.integers(30, 90))):
            if parallel:
                cx, cy, length = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.3, 1.5) * h
                p0 = (cx - length * math.cos(theta), cy - length * math.sin(theta))
                p1 = (cx + length * math.cos(theta), cy + length * math.sin(theta))
            else:
                a = rng.uniform(0, 2 * math.pi)
                r0, r1 = rng.uniform(0.05, 0.3) * h, rng.uniform(0.6, 1.6) * h
                p0 = (fx + r0 * math.cos(a), fy + r0 * math.sin(a))
                p1 = (fx + r1 * math.cos(a), fy + r1 * math.sin(a))
            draw.line([p0, p1], fill=0, width=int(rng.integers(1, 4)))
        for _ in range(int(rng.integers(2, 5))):  # figures
            cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.05, 0.15) * h
            pts = [(cx + r * rng.uniform(0.6, 1.2) * math.cos(a), cy + r * rng.uniform(0.6, 1.2) * math.sin(a))
                   for a in np.linspace(0, 2 * math.pi, 8, endpoint=False)]
            draw.polygon(pts, fill=255, outline=0, width=int(rng.integers(3, 7)))
        lines = np.asarray(img) < 128
        out = printed(levels, screens)
        out[lines] = 0
        if rows:
            gutter = np.ones(h, bool)
            for y0, y1 in rows:
                gutter[y0:y1] = False
            out[gutter] = 255
            for y0, y1 in rows:
                for y in (y0, y1 - 1):
                    out[max(0, y - 3):y + 3] = 0
        return out

    def rescan(self, rng, printed_half, seam_side, gray_paper):
        blur = rng.uniform(0.4, 1.2)
        img = Image.fromarray(printed_half.astype(np.uint8)).filter(ImageFilter.GaussianBlur(blur))
        method = [Image.NEAREST, Image.BILINEAR, Image.BOX, Image.LANCZOS][int(rng.integers(4))]
        img = img.resize((round(img.width / PRINT), round(img.height / PRINT)), method)
        a = np.asarray(img).astype(np.float32)[:, :, None]
        a = gray_paper / 255 * a + rng.uniform(0, 12) * (1 - a / 255)
        return scan(rng, a, seam_side, paper=gray_paper)

    def make_book(self, rng, index, direction, with_splits):
        w, h = round(SCAN_W * PRINT), round(SCAN_H * PRINT)
        pages, splits, kinds, negatives = [], [], {}, []
        paper = rng.uniform(228, 252)

        def add(half, side):
            pages.append((to_image(self.rescan(rng, half, side, paper), True), int(rng.integers(60, 91)), True))

        add(self.art(rng, w, h, rows=self.layout(rng, w, h)), "right")
        for _ in range(int(rng.integers(5, 9))):
            r = rng.uniform()
            side_one, side_two = ("right", "left") if direction == "ltr" else ("left", "right")
            if with_splits and r < 0.45:
                rows = self.layout(rng, 2 * w, h) if rng.uniform() < 0.4 else None
                art = self.art(rng, 2 * w, h, rows=rows)
                left, right = art[:, :w], art[:, w:]
                first, second = (left, right) if direction == "ltr" else (right, left)
                a = len(pages) + 1
                add(first, side_one)
                add(second, side_two)
                splits.append([a, a + 1])
                kinds[str(a)] = "tone/" + ("panels" if rows else "full")
            elif r < 0.65:
                # Two pages that share what any two pages of one book may
                # share at the gutter, without continuing one artwork: panel
                # borders at the same heights (within 3 px), or one tone
                # (kind, pitch, angle and level) along both facing edges.
                if rng.uniform() < 0.5:
                    rows = self.layout(rng, w, h)
                    one = self.art(rng, w, h, rows=rows)
                    two = self.art(rng, w, h, rows=[(y0 + int(rng.integers(-3, 4)), y1 + int(rng.integers(-3, 4)))
                                                    for y0, y1 in rows])
                else:
                    _, (kind, pitch, angle) = tone_pattern(rng, 8, 8)
                    level, band = rng.uniform(0.3, 0.8), int(rng.uniform(0.1, 0.3) * w)
                    masks = []
                    for near_right in ((direction == "ltr"), (direction != "ltr")):
                        mask = np.zeros((h, w), bool)
                        y0 = int(rng.integers(0, h // 3))
                        y1 = int(rng.integers(2 * h // 3, h + 1))
                        if near_right:
                            mask[y0:y1, w - band:] = True
                        else:
                            mask[y0:y1, :band] = True
                        masks.append(mask)
                    one = self.art(rng, w, h, rows=self.layout(rng, w, h),
                                   edge_screen=(masks[0], tone_pattern(rng, w, h, kind, pitch, angle)[0], level))
                    two = self.art(rng, w, h, rows=self.layout(rng, w, h),
                                   edge_screen=(masks[1], tone_pattern(rng, w, h, kind, pitch, angle)[0], level))
                a = len(pages) + 1
                add(one, side_one)
                add(two, side_two)
                negatives.append([a, a + 1])
            else:
                page = self.art(rng, w, h, rows=self.layout(rng, w, h))
                if rng.uniform() < 0.5:  # a page inside white margins
                    m = int(rng.integers(40, 90))
                    page[:, :m], page[:, w - m:] = 255, 255
                add(page, side_one)
        return pages, splits, kinds, negatives
