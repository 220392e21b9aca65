"""What the pairing families share: how far apart and how alike two windows are, scanning a half page, the wallpapers."""
import glob
import os
import re
import numpy as np
from PIL import Image, ImageFilter


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
