"""The pages of the split-and-crop labelled set: wide scans and digital spreads, bordered and cropped pages, strokes to the edge."""
import math
import numpy as np
from PIL import Image, ImageDraw
from pairing_families import plasma_pictures  # noqa: E402


class Pictures:
    def __init__(self, rng):
        self.sources = plasma_pictures()
        if not self.sources:
            raise SystemExit("make-split-set: needs plasma-workspace-wallpapers (MIHIRAKI_BOOTSTRAP_PAIRING=1 scripts/bootstrap)")
        self.rng = rng
        self.cache = {}

    def crop(self, w, h, gray=False):
        index = int(self.rng.integers(0, len(self.sources)))
        if index not in self.cache:
            self.cache[index] = Image.open(self.sources[index]).convert("RGB")
        source = self.cache[index]
        scale = max(w / source.width, h / source.height) * self.rng.uniform(1.0, 1.4)
        x = self.rng.uniform(0, source.width - w / scale)
        y = self.rng.uniform(0, source.height - h / scale)
        image = source.resize((w, h), Image.LANCZOS, box=(x, y, x + w / scale, y + h / scale))
        a = np.asarray(image.convert("L") if gray else image).astype(np.float32)
        return a if not gray else np.repeat(a[:, :, None], 3, axis=2)


def drawn_page(rng, pictures, w, h, paper):
    """A manga-like page: panels with black frames on paper, holding gray pictures, hatching or speech lines."""
    image = Image.new("RGB", (w, h), (int(paper),) * 3)
    draw = ImageDraw.Draw(image)
    margin_x, margin_y = int(w * rng.uniform(0.05, 0.09)), int(h * rng.uniform(0.05, 0.08))
    rows = int(rng.integers(2, 5))
    y = margin_y
    row_h = (h - 2 * margin_y) // rows
    for r in range(rows):
        columns = int(rng.integers(1, 3))
        x = margin_x
        col_w = (w - 2 * margin_x) // columns
        for c in range(columns):
            box = (x + 4, y + 4, x + col_w - 4, y + row_h - 4)
            bw, bh = box[2] - box[0], box[3] - box[1]
            if bw > 20 and bh > 20:
                kind = rng.integers(0, 3)
                if kind == 0:
                    art = pictures.crop(bw, bh, gray=True).astype(np.uint8)
                    image.paste(Image.fromarray(art), box[:2])
                elif kind == 1:
                    step = int(rng.integers(4, 9))
                    hatching = Image.new("RGB", (bw, bh), (int(paper),) * 3)
                    lines = ImageDraw.Draw(hatching)
                    for k in range(-bh, bw, step):
                        lines.line((k, 0, k + bh, bh), fill=(90, 90, 90), width=1)
                    image.paste(hatching, box[:2])
                else:
                    for k in range(int(rng.integers(3, 8))):
                        ty = box[1] + 10 + k * 18
                        if ty < box[3] - 10:
                            draw.line((box[0] + 10, ty, box[0] + 10 + int(rng.uniform(0.3, 0.8) * bw), ty), fill=(30, 30, 30), width=4)
                draw.rectangle(box, outline=(0, 0, 0), width=int(rng.integers(2, 5)))
            x += col_w
        y += row_h
    return np.asarray(image).astype(np.float32)


def finish(a, rng, quality_range=(70, 95)):
    a = a + rng.normal(0, rng.uniform(1.0, 5.0), a.shape)
    return Image.fromarray(np.clip(a + 0.5, 0, 255).astype(np.uint8)), int(rng.integers(*quality_range))


def wide_scan(rng, pictures):
    h = int(rng.integers(1000, 1500))
    w = int(h * rng.uniform(1.35, 1.55))
    offset = rng.uniform(-0.05, 0.05)
    fold = int(round(w / 2 + offset * w))
    tones = [rng.uniform(215, 252)] * 2
    kind = rng.choice(["shadow", "shadow", "shadow", "tone", "join", "digital-scan"])
    if kind == "tone":
        tones[1] = tones[0] + rng.choice([-1, 1]) * rng.uniform(8, 25)
    tones = [min(t, 255) for t in tones]
    if kind == "digital-scan":
        page = pictures.crop(w, h)
    else:
        left = drawn_page(rng, pictures, fold, h, tones[0])
        right = drawn_page(rng, pictures, w - fold, h, tones[1])
        if kind == "join":
            # Two pages scanned apart and butted: the right one sits a few rows lower and darker.
            shift = int(rng.integers(2, 7))
            right = np.roll(right, shift, axis=0) * rng.uniform(0.9, 0.97)
        page = np.concatenate([left, right], axis=1)
    x = np.arange(w, dtype=np.float32)
    if kind in ("shadow", "digital-scan") or rng.random() < 0.3:
        depth = rng.uniform(0.08, 0.45)
        sl, sr = w * rng.uniform(0.004, 0.035), w * rng.uniform(0.004, 0.035)
        sigma = np.where(x < fold, sl, sr)
        shade = 1 - depth * np.exp(-((x - fold + 0.5) ** 2) / (2 * sigma ** 2))
        page = page * shade[None, :, None]
    image, quality = finish(page, rng)
    angle = rng.uniform(-0.4, 0.4) if rng.random() < 0.4 else 0.0
    if angle:
        image = image.rotate(angle, resample=Image.BICUBIC, center=(fold, h / 2), fillcolor=(int(tones[0]),) * 3)
    return image, quality, {"kind": "scan-" + kind, "x": fold, "width": w, "angle": round(angle, 3)}


def wide_digital(rng, pictures):
    h = int(rng.integers(900, 1400))
    w = int(h * rng.uniform(1.3, 1.6))
    page = pictures.crop(w, h)
    image = Image.fromarray(np.clip(page + 0.5, 0, 255).astype(np.uint8))
    return image, None, {"kind": "digital", "x": w // 2, "width": w, "angle": 0}


def bordered(rng, content, border, sides, colour, *, gradient=0.0, specks=True):
    """`content` (h×w×3) inside a border `sides` = (left, top, right, bottom) pixels of `colour`."""
    ch, cw = content.shape[:2]
    left, top, right, bottom = sides
    h, w = ch + top + bottom, cw + left + right
    page = np.empty((h, w, 3), np.float32)
    page[:] = colour
    if gradient:
        # A slow change of tone across the page, as a scanner lid lets light in along one side.
        ramp = np.linspace(-gradient, gradient, w, dtype=np.float32)
        page += ramp[None, :, None]
    if specks:
        for _ in range(int(rng.integers(0, 12))):
            sx, sy = int(rng.integers(0, w - 3)), int(rng.integers(0, h - 3))
            page[sy:sy + int(rng.integers(1, 4)), sx:sx + int(rng.integers(1, 4))] = 255 - colour
    page[top:top + ch, left:left + cw] = content
    return page, [left, top, cw, ch]


def crop_page(rng, pictures, kind):
    ch = int(rng.integers(900, 1300))
    cw = int(ch * rng.uniform(0.66, 0.74))
    content = pictures.crop(cw, ch, gray=rng.random() < 0.5) if rng.random() < 0.6 else None
    if content is None:
        content = drawn_page(rng, pictures, cw, ch, rng.uniform(225, 250))
        # A drawn page's own paper margin is art here: its frame of panels reaches the box's edges.
        ImageDraw.Draw(im := Image.fromarray(content.astype(np.uint8))).rectangle((0, 0, cw - 1, ch - 1), outline=(0, 0, 0), width=3)
        content = np.asarray(im).astype(np.float32)
    colour = rng.choice(["white", "black", "grey"])
    value = {"white": rng.uniform(235, 255), "black": rng.uniform(0, 25), "grey": rng.uniform(110, 170)}[colour]
    label = {"kind": kind, "colour": colour}
    if kind == "edge":
        page, box = content, [0, 0, cw, ch]
    else:
        sides = [int(round(rng.uniform(0, 0.09) * (cw if i % 2 == 0 else ch))) for i in range(4)]
        if kind == "pale":
            side = int(rng.integers(0, 4))
            label["pale_side"] = ["left", "top", "right", "bottom"][side]
            fade = int((cw if side % 2 == 0 else ch) * rng.uniform(0.15, 0.3))
            ramp = np.clip(np.arange(cw if side % 2 == 0 else ch, dtype=np.float32) / fade, 0, 1)
            if side >= 2:
                ramp = ramp[::-1]
            ramp = ramp[None, :, None] if side % 2 == 0 else ramp[:, None, None]
            content = value + (content - value) * ramp
        page, box = bordered(rng, content, None, sides, value, gradient=rng.uniform(0, 12) if rng.random() < 0.4 else 0.0)
    image, quality = finish(page, rng, (75, 96))
    label["box"] = box
    label["width"], label["height"] = image.width, image.height
    return image, quality, label


def joined_scan(rng, pictures):
    """Two pages scanned apart and joined at x = the left page's width."""
    h = int(rng.integers(1000, 1500))
    widths = [int(h * rng.uniform(0.66, 0.76)) for _ in range(2)]
    tone = rng.uniform(222, 250)
    tones = [tone, min(255.0, tone + rng.choice([-1, 1]) * rng.uniform(3, 12))]
    halves = [drawn_page(rng, pictures, widths[k], h, tones[k]) for k in range(2)]
    across = rng.random() < 0.4
    if across:
        # A picture printed across the two pages: each scan sees its half.
        band_h = int(h * rng.uniform(0.2, 0.45))
        top = int(rng.integers(int(h * 0.05), h - band_h - int(h * 0.05)))
        reach = [int(widths[0] * rng.uniform(0.3, 0.8)), int(widths[1] * rng.uniform(0.3, 0.8))]
        art = pictures.crop(sum(reach), band_h)
        halves[0][top:top + band_h, widths[0] - reach[0]:] = art[:, :reach[0]]
        halves[1][top:top + band_h, :reach[1]] = art[:, reach[0]:]
    # Each scan its own: exposure, a few rows' shift, noise.
    halves[1] = np.roll(halves[1], int(rng.integers(-6, 7)), axis=0) * rng.uniform(0.97, 1.03)
    for k in range(2):
        halves[k] = halves[k] + rng.normal(0, rng.uniform(1.0, 4.0), halves[k].shape)
    page = np.concatenate(halves, axis=1)
    image, quality = finish(page, rng, (70, 95))
    return image, quality, {"kind": "joined" + ("-across" if across else ""), "x": widths[0], "width": sum(widths),
                            "angle": 0.0}


def stroke_page(rng, pictures):
    """Art whose strokes run to its edges inside a border of the colour the
    strokes meet there: dark art with light strokes in a light frame, or
    art on paper of the frame's own colour whose dark strokes (speed lines,
    hatching) run out to the art's edge, the only mark of where it ends."""
    ch = int(rng.integers(900, 1300))
    cw = int(ch * rng.uniform(0.66, 0.74))
    light = rng.uniform(238, 255)
    on_paper = rng.random() < 0.5
    if on_paper:
        content = np.full((ch, cw, 3), light, np.float32)
        ph, pw = int(ch * rng.uniform(0.3, 0.6)), int(cw * rng.uniform(0.3, 0.6))
        top, left = int(rng.integers(ch // 8, ch - ph - ch // 8)), int(rng.integers(cw // 8, cw - pw - cw // 8))
        content[top:top + ph, left:left + pw] = pictures.crop(pw, ph)
    else:
        content = pictures.crop(cw, ch, gray=rng.random() < 0.5) * rng.uniform(0.2, 0.45)
    im = Image.fromarray(np.clip(content, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(im)
    stroke = (int(rng.uniform(0, 40)),) * 3 if on_paper else (int(light),) * 3
    style = rng.choice(["lines", "speed", "hatch"])
    for _ in range(int(rng.integers(6, 30))):
        width = int(rng.integers(1, 5))
        if style == "speed":
            cx, cy = cw * rng.uniform(0.3, 0.7), ch * rng.uniform(0.3, 0.7)
            angle = rng.uniform(0, 2 * math.pi)
            draw.line((cx, cy, cx + math.cos(angle) * 3 * cw, cy + math.sin(angle) * 3 * ch), fill=stroke, width=width)
        elif style == "hatch":
            x = rng.uniform(-ch, cw)
            draw.line((x, 0, x + ch, ch), fill=stroke, width=width)
        else:
            if rng.random() < 0.5:
                y = rng.uniform(0, ch)
                draw.line((0, y, cw, y + rng.uniform(-40, 40)), fill=stroke, width=width)
            else:
                x = rng.uniform(0, cw)
                draw.line((x, 0, x + rng.uniform(-40, 40), ch), fill=stroke, width=width)
    content = np.asarray(im).astype(np.float32)
    sides = [int(round(rng.uniform(0.02, 0.09) * (cw if i % 2 == 0 else ch))) for i in range(4)]
    page, box = bordered(rng, content, None, sides, light)
    image, quality = finish(page, rng, (75, 96))
    return image, quality, {"kind": "stroke-" + style + ("-on-paper" if on_paper else ""), "colour": "white", "box": box,
                            "width": image.width, "height": image.height}
