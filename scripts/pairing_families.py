"""The second and third families of Mihiraki's labelled pairing set, made
differently from the first (the drawn family in make-pairing-set.py), so a
detector tuned on one family can be measured on books it was not tuned on:

  photo: real photographs and illustrations (Debian's
         plasma-workspace-wallpapers, which the drawn family does not use)
         cut into pages and scanned: exposure and colour cast, scanner blur,
         a skew of up to 0.3°, shift, seam loss, gutter shadow, scale error,
         noise and 4:2:0 JPEG, all at once with random strengths. Seams are
         not filtered for detail: smooth skies and skin cross the spine.
         Hard negatives: two crops of one picture side by side (one palette,
         no continuation), and two pictures of the same mean tone.
  tone:  manga pages printed and rescanned: the art is drawn as gray levels,
         printed as binary screentone (dot and line tones at several pitches
         and angles), speed lines and panel borders, then scanned: blur,
         resampling (moiré), paper tone, JPEG q60-90, shift ±4 px, seam loss
         0-6 px, gutter shadow, 0.5 % scale error. Hard negatives share
         panel borders at the same heights, or one tone along both facing
         edges, without continuing one artwork.

Each family's `make_book(rng, index, direction, with_splits)` returns the pages in
reading order as (image, jpeg quality, gray) and the labels. The photo family
also keeps, in `spine_ratios`, each two-crop negative's `continuation_ratio`
(keyed by its first page), which make-pairing-set.py writes into labels.json.
"""
import glob
import io
import math
import os
import re

import numpy as np
from PIL import Image, ImageDraw, ImageFilter


# A negative made of two windows of one picture shows the picture on its two
# pages at heights at least this fraction of a page apart at the spine, so
# nothing that crosses the spine on one page meets it at the same height on
# the other: two windows at one height (a horizon, a band of colour) would
# read as one artwork continuing.
SPINES_APART = 0.15


def spine_distance(a, b):
    """How far apart windows a and b (x0, y0, x1, y1) of one picture show it
    at the spine: the mean over the page's height of the vertical distance
    between the picture's points at the same relative height, as a fraction
    of the windows' mean height."""
    total = 0.0
    for t in np.linspace(0.0, 1.0, 9):
        total += abs((a[1] + t * (a[3] - a[1])) - (b[1] + t * (b[3] - b[1])))
    return total / 9 / (((a[3] - a[1]) + (b[3] - b[1])) / 2)


# Under this continuation_ratio every two crops of one picture looked at read
# as one artwork to the eye, however far apart their windows are: 4 of the
# 925 two-crop negatives of seeds 1, 2 and 4-42, all stepped shores that meet
# at the spine. From here to 0.4 they are mixed (docs/pairing.md, "The
# labelled sets and the measurement"). Such a pair is labelled `continuing`,
# not a hard negative: neither taking it nor leaving it is counted.
CONTINUES = 0.32


def continuing(spine_ratios):
    """The first pages of the two-crop negatives that continue at the spine
    (`spine_ratios` as a family keeps them: first page -> ratio)."""
    return sorted(int(a) for a, ratio in spine_ratios.items() if ratio < CONTINUES)


def continuation_ratio(x, y, direction, width=16):
    """How unlike two crops of one picture are where they meet: x and y
    are double-width windows (H×2W×3), the first page cut from x and the
    second from y in reading order. A slanted boundary moved down looks the
    same as one moved sideways, so windows apart in height can still show,
    at the spine, what x's own other half shows there. The two strips
    `width` columns wide at the spine (y's, and x's other half's), each
    averaged across its columns row by row and smoothed over 9 rows: their
    mean difference over how far x's strip strays from its own mean down
    the spine. Near 0 for a crop that continues the other."""
    w = x.shape[1] // 2
    columns = slice(w, w + width) if direction == "ltr" else slice(w - width, w)
    kernel = np.ones(9) / 9

    def profile(a):
        p = a[:, columns].mean(axis=1)
        return np.stack([np.convolve(p[:, c], kernel, mode="same") for c in range(p.shape[1])], 1)

    own, shown = profile(x), profile(y)
    spread = float(np.abs(own - own.mean(axis=0)).mean())
    return float(np.abs(own - shown).mean()) / max(spread, 1.0)


# --- scanning -------------------------------------------------------------

def scan(rng, half, seam_side, *, skew=0.0, blur=0.0, paper=255.0):
    """One half of an artwork (float32 H×W×C, 0-255) as its own scan:
    seam_side is the side that met the other half."""
    a = half
    h, w = a.shape[:2]
    pixels = np.clip(a, 0, 255).round().astype(np.uint8)
    img = Image.fromarray(pixels[:, :, 0] if pixels.shape[2] == 1 else pixels)
    if skew:
        img = img.rotate(skew, resample=Image.BICUBIC, fillcolor=(255, 255, 255) if img.mode == "RGB" else 255)
    if blur:
        img = img.filter(ImageFilter.GaussianBlur(blur))
    f = 1 + rng.uniform(-0.005, 0.005)
    img = img.resize((round(w * f), round(h * f)), Image.BICUBIC)
    a = np.asarray(img).astype(np.float32)
    if a.ndim == 2:
        a = a[:, :, None]
    h, w = a.shape[:2]
    s = int(rng.integers(-4, 5))
    a = np.roll(a, s, axis=0)
    if s > 0:
        a[:s] = paper
    elif s < 0:
        a[s:] = paper
    lost = int(rng.integers(0, 7))
    if lost:
        a = a[:, :w - lost] if seam_side == "right" else a[:, lost:]
        w = a.shape[1]
    if rng.uniform() < 0.7:
        width = rng.uniform(0.03, 0.12) * w
        depth = rng.uniform(0.1, 0.5)
        x = np.arange(w, dtype=np.float32)
        d = (w - 1 - x) if seam_side == "right" else x
        a = a * (1 - depth * np.clip(1 - d / width, 0, 1) ** 2)[None, :, None]
    a = a + rng.normal(0, rng.uniform(0.5, 4), a.shape[:2])[:, :, None]
    return a


def to_image(a, gray):
    a = np.clip(a, 0, 255).round().astype(np.uint8)
    if a.shape[2] == 1:
        return Image.fromarray(a[:, :, 0], "L")
    img = Image.fromarray(a, "RGB")
    return img.convert("L") if gray else img


# --- photo ------------------------------------------------------------------

PHOTO_W, PHOTO_H = 760, 1100


def plasma_pictures():
    """The largest picture of each plasma wallpaper."""
    best = {}
    for path in glob.glob("/usr/share/wallpapers/*/contents/images*/*"):
        m = re.match(r"(\d+)x(\d+)\.(jpg|png)$", os.path.basename(path))
        if not m:
            continue
        w, h = int(m.group(1)), int(m.group(2))
        key = os.path.dirname(path)
        if w > h and (key not in best or w * h > best[key][0]):
            best[key] = (w * h, path)
    return sorted(p for _, p in best.values())


class Photo:
    name = "photo"

    def __init__(self):
        self.sources = plasma_pictures()
        if not self.sources:
            raise SystemExit("make-pairing-set: the photo family needs plasma-workspace-wallpapers "
                             "(scripts/bench-pairing installs it)")
        self.cache = {}

    def picture(self, index):
        if index not in self.cache:
            self.cache[index] = Image.open(self.sources[index]).convert("RGB")
        return self.cache[index]

    def window(self, rng, index, w, h):
        """A random window of picture `index` with the aspect w:h, at 1 to
        1.5 times the least scale that fills it: (x0, y0, x1, y1) in the
        picture's pixels."""
        source = self.picture(index)
        scale = max(w / source.width, h / source.height) * rng.uniform(1.0, 1.5)
        size = (math.ceil(source.width * scale), math.ceil(source.height * scale))
        x = int(rng.integers(0, size[0] - w + 1))
        y = int(rng.integers(0, size[1] - h + 1))
        return (x / scale, y / scale, min(source.width, (x + w) / scale), min(source.height, (y + h) / scale))

    def cut(self, index, box, w, h):
        return np.asarray(self.picture(index).resize((w, h), Image.LANCZOS, box=box)).astype(np.float32)

    def crop(self, rng, index, w, h):
        return self.cut(index, self.window(rng, index, w, h), w, h)

    def apart(self, rng, index, w, h):
        """Two windows of one picture that show it at the spine at heights
        SPINES_APART of a page apart (the most apart of 100 tries if none
        is): two crops at one height, or adjacent halves at one scale, would
        be one artwork."""
        first = self.window(rng, index, w, h)
        best = None
        for _ in range(100):
            second = self.window(rng, index, w, h)
            distance = spine_distance(first, second)
            if best is None or distance > best[0]:
                best = (distance, second)
            if distance >= SPINES_APART:
                break
        return self.cut(index, first, w, h), self.cut(index, best[1], w, h)

    def scanned(self, rng, half, seam_side):
        gain = rng.uniform(0.92, 1.05) * (1 + rng.uniform(-0.04, 0.04, 3))
        half = half * gain[None, None, :] + rng.uniform(-6, 6)
        return scan(rng, half, seam_side, skew=rng.uniform(-0.3, 0.3), blur=rng.uniform(0.2, 1.0))

    def make_book(self, rng, index, direction, with_splits):
        pages, splits, kinds, negatives = [], [], {}, []
        self.spine_ratios = {}
        pages.append(self.ordinary(rng))
        for _ in range(int(rng.integers(5, 9))):
            r = rng.uniform()
            if with_splits and r < 0.45:
                index = int(rng.integers(len(self.sources)))
                for _ in range(10):
                    art = self.crop(rng, index, 2 * PHOTO_W, PHOTO_H)
                    spine = art[:, PHOTO_W - 8:PHOTO_W + 8].mean(axis=(1, 2))
                    if spine.std() >= 2:  # two blank halves are no split anyone could see
                        break
                left = self.scanned(rng, art[:, :PHOTO_W], "right")
                right = self.scanned(rng, art[:, PHOTO_W:], "left")
                first, second = (left, right) if direction == "ltr" else (right, left)
                a = len(pages) + 1
                pages += [(to_image(first, False), int(rng.integers(60, 91)), False),
                          (to_image(second, False), int(rng.integers(60, 91)), False)]
                splits.append([a, a + 1])
                detail = "smooth" if spine.std() < 12 else "detailed"
                kinds[str(a)] = f"photo/{detail}"
            elif r < 0.65:
                index = int(rng.integers(len(self.sources)))
                if rng.uniform() < 0.5:
                    # Two crops of one picture: one palette, no continuation.
                    x, y = self.apart(rng, index, 2 * PHOTO_W, PHOTO_H)
                    self.spine_ratios[str(len(pages) + 1)] = round(continuation_ratio(x, y, direction), 3)
                else:
                    other = (index + 1 + int(rng.integers(len(self.sources) - 1))) % len(self.sources)
                    x, y = self.crop(rng, index, 2 * PHOTO_W, PHOTO_H), self.crop(rng, other, 2 * PHOTO_W, PHOTO_H)
                    y = y * (x.mean() / max(y.mean(), 1))  # the same mean tone
                one = x[:, :PHOTO_W] if direction == "ltr" else x[:, PHOTO_W:]
                two = y[:, PHOTO_W:] if direction == "ltr" else y[:, :PHOTO_W]
                one = self.scanned(rng, one, "right" if direction == "ltr" else "left")
                two = self.scanned(rng, two, "left" if direction == "ltr" else "right")
                a = len(pages) + 1
                pages += [(to_image(one, False), 85, False), (to_image(two, False), 85, False)]
                negatives.append([a, a + 1])
            else:
                pages.append(self.ordinary(rng))
        return pages, splits, kinds, negatives

    def ordinary(self, rng):
        """A photo book's page: a picture inside white margins and a caption."""
        page = np.full((PHOTO_H, PHOTO_W, 3), 250, np.float32)
        mx, my = int(rng.integers(50, 90)), int(rng.integers(60, 110))
        ph = int(rng.integers(400, PHOTO_H - 2 * my - 80))
        page[my:my + ph, mx:PHOTO_W - mx] = self.crop(rng, int(rng.integers(len(self.sources))), PHOTO_W - 2 * mx, ph)
        for k in range(int(rng.integers(2, 6))):
            y = my + ph + 30 + 22 * k
            if y + 8 < PHOTO_H - 20:
                page[y:y + 8, mx:mx + int(rng.integers(200, PHOTO_W - 2 * mx))] = 70
        return to_image(self.scanned(rng, page, "right"), False), 85, False


# --- tone -------------------------------------------------------------------

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


FAMILIES = {"photo": Photo, "tone": Tone}
