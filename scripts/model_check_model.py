"""The model check's independent model of SPEC §2-§4: imposition, geometry and pixels, with Pillow."""
import math
from fractions import Fraction
import numpy as np
from model_check_pages import *  # noqa: F401,F403


def imposition(wide, opts, split=()):
    """SPEC §2: the spreads in reading order, each a list of slots
    (side, page or None for a blank), listed left to right. A page in
    `split` (SPEC §3b) is its two halves, (p, "a") and (p, "b"): one spread
    of two slots, or in single layout two images."""
    n = len(wide)
    if opts["layout"] == "single":
        spreads = []
        for p in range(1, n + 1):
            if p in split:
                spreads += [[("single", (p, "a"))], [("single", (p, "b"))]]
            else:
                spreads.append([("wide" if wide[p - 1] else "single", p)])
        return mirrored(spreads, opts)
    stream = []          # ("page", p) or ("blank",), with solo/back-cover marks
    if opts["cover"] == "alone":
        stream.append(("blank",))
    for p in range(1, n + 1):
        if p in opts["blank-before"]:
            stream.append(("blank",))
        stream.append(("page", p))
    spreads, pending = [], None

    def emit(left, right):
        if left is None and right is None:
            return
        spreads.append([("left", left), ("right", right)])

    def flush():
        nonlocal pending
        if pending is not None:
            emit(pending[1] if pending[0] == "page" else None, None)
            pending = None
    for item in stream:
        if item[0] == "page":
            p = item[1]
            if wide[p - 1]:
                flush()
                spreads.append([("left", (p, "a")), ("right", (p, "b"))] if p in split else [("wide", p)])
                continue
            back = opts["back-cover"] == "alone" and p == n and n > 1
            if back:
                flush()
                emit(p, None)
                continue
            if p in opts["solo"]:
                if pending is None:
                    emit(p, None)
                else:
                    flush()
                    emit(None, p)
                continue
        if pending is None:
            pending = item
        else:
            left = pending[1] if pending[0] == "page" else None
            right = item[1] if item[0] == "page" else None
            emit(left, right)
            pending = None
    flush()
    return mirrored(spreads, opts)


def mirrored(spreads, opts):
    """Right to left: each spread mirrored; --strip lists them in visual order."""
    if opts["direction"] != "rtl":
        return spreads
    spreads = [[(mirror_side(s), p) for s, p in reversed(spread)] for spread in spreads]
    return spreads[::-1] if opts["strip"] else spreads


def mirror_side(side):
    return {"left": "right", "right": "left"}.get(side, side)


def exact(value):
    """A number as an exact fraction (options are decimal text)."""
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def canvas_sizes(opts):
    """The canvas, and a second one where a derived side is exactly half a
    pixel (see Edge)."""
    a, b = (exact(v) for v in opts["page-aspect"])
    g = exact(opts["gap"])
    w, h = opts["size"]
    single = opts["layout"] == "single"
    if w is None:
        side = Edge(a * h / b if single else 2 * a * h / b + g)
        return [(max(v, 1), h) for v in ([side.snapped] + ([side.snapped - 1] if side.tie else []))]
    if h is None:
        side = Edge(b * w / a if single else b * (w - g) / (2 * a))
        return [(w, max(v, 1)) for v in ([side.snapped] + ([side.snapped - 1] if side.tie else []))]
    return [(w, h)]


def snap(v):
    return math.floor(v + Fraction(1, 2))


class Edge:
    """A rectangle edge in exact arithmetic. SPEC §3 snaps each edge with
    floor(v + 0.5) of a value computed in Double: where v is exactly a half,
    the Double can fall on either side of it, so either neighbour is right."""

    def __init__(self, value):
        self.value = value
        self.snapped = snap(value)
        self.tie = value - math.floor(value) == Fraction(1, 2)

    def allows(self, pixel):
        return pixel == self.snapped or (self.tie and pixel == self.snapped - 1)


def rect_of(x0, y0, x1, y1):
    return [Edge(x0), Edge(y0), Edge(x1), Edge(y1)]


def rect_pixels(edges):
    x0, y0, x1, y1 = (e.snapped for e in edges)
    return [x0, y0, x1 - x0, y1 - y0]


def rect_allows(edges, rect):
    x, y, w, h = rect
    return all(e.allows(v) for e, v in zip(edges, (x, y, x + w, y + h)))


def slots_geometry(W, H, opts):
    """SPEC §3: (left slot, right slot, wide slot) in real numbers, (x, y, w, h)."""
    a, b = (exact(v) for v in opts["page-aspect"])
    g = exact(opts["gap"])
    W, H = Fraction(W), Fraction(H)
    if opts["layout"] == "single":
        s = min(W / a, H / b)
        sw, sh = a * s, b * s
        one = ((W - sw) / 2, (H - sh) / 2, sw, sh)
        return one, one, (Fraction(0), Fraction(0), W, H)
    if (W - g) / H >= 2 * a / b:
        sh, sw, y = H, a * H / b, Fraction(0)
        left = (W / 2 - g / 2 - sw, y, sw, sh)
    else:
        sw = (W - g) / 2
        sh = b * sw / a
        y = (H - sh) / 2
        left = (Fraction(0), y, sw, sh)
    right = (W / 2 + g / 2, y, sw, sh)
    wide = (left[0], y, right[0] + sw - left[0], sh)
    return left, right, wide


def page_rect(slot, pw, ph, side, opts, scale=None):
    x, y, sw, sh = slot
    if opts["fit"] == "stretch":
        return (x, y, x + sw, y + sh)
    s = min(sw / pw, sh / ph) if scale is None else scale
    w, h = pw * s, ph * s
    top = y + (sh - h) / 2
    if side in ("wide", "single") or opts["align"] == "center":
        left = x + (sw - w) / 2
    elif side == "left":
        left = x + sw - w
    else:
        left = x
    return (left, top, left + w, top + h)


def model_manifest(sizes, wide, opts, canvas, boxes=None, split=()):
    """The plan and every rectangle. `boxes` maps (page, half or None) to
    the box drawn of it (SPEC §3b), where that is not the whole page."""
    W, H = canvas
    boxes = boxes or {}
    left, right, wide_slot = slots_geometry(W, H, opts)

    def size(p):
        key = p if isinstance(p, tuple) else (p, None)
        box = boxes.get(key)
        return (box[2], box[3]) if box else sizes[key[0] - 1]
    out = []
    for spread in imposition(wide, opts, split):
        real = {}
        placed = [(side, p) for side, p in spread if p is not None]
        scale = None
        halves = len(placed) == 2 and all(isinstance(p, tuple) for _, p in placed)
        if len(placed) == 2 and (opts.get("crop-borders") or halves):
            # One scale for the pair: the smaller of their fits.
            scale = min(min(slot[2] / Fraction(size(p)[0]), slot[3] / Fraction(size(p)[1]))
                        for slot, p in ((left if side == "left" else right, p) for side, p in placed))
        for side, p in placed:
            slot = {"left": left, "right": right, "wide": wide_slot, "single": left}[side]
            real[side] = page_rect(slot, *size(p), side, opts, scale)
        slots = []
        for side, p in spread:
            if isinstance(p, tuple):
                slots.append({"side": side, "page": p[0], "half": p[1], "rect": rect_of(*real[side])})
            elif p is not None:
                slots.append({"side": side, "page": p, "rect": rect_of(*real[side])})
            else:
                other = real["right" if side == "left" else "left"]
                x0, y0, x1, y1 = other
                slots.append({"side": side, "page": None, "rect": rect_of(W - x1, y0, W - x0, y1)})
        out.append(slots)
    return out


def over(top, bottom):
    """Straight-alpha colour `top` over `bottom`, both 0-255 RGBA tuples; a
    fully transparent side leaves the other exactly as given."""
    ta, ba = top[3] / 255, bottom[3] / 255
    if ta == 0:
        return tuple(float(c) for c in bottom)
    oa = ta + ba * (1 - ta)
    rgb = [(top[k] * ta + bottom[k] * ba * (1 - ta)) / oa for k in range(3)]
    return (*rgb, oa * 255)


def model_pixels(canvas, spreads, pages, opts, boxes=None):
    """Each spread as straight RGBA floats, and the regions to compare."""
    W, H = canvas
    background = parse_color(opts["background"])
    blank = over(parse_color(opts["blank"]), background)
    images = []
    for slots in spreads:
        image = np.zeros((H, W, 4))
        image[...] = background
        for slot in slots:
            x, y, w, h = slot["rect"]
            if w <= 0 or h <= 0:
                continue
            if slot["page"] is None:
                clip_fill(image, x, y, w, h, blank)
                continue
            page = pages[slot["page"] - 1]
            box = (boxes or {}).get((slot["page"], slot.get("half")))
            if box:
                bx, by, bw, bh = box
                page = page[by:by + bh, bx:bx + bw]
            drawn = resample_over(page, w, h, background)
            paste(image, drawn, x, y)
        images.append(image)
    return images


def resample_over(page, w, h, background):
    """The page composited over the background (premultiplied), resampled
    with Pillow's Lanczos to w×h; straight RGBA floats."""
    alpha = page[..., 3:4] / 255
    bg = np.array(background, dtype=np.float64)
    bga = bg[3] / 255
    premul = np.concatenate([page[..., :3] * alpha + bg[:3] * bga * (1 - alpha),
                             255 * (alpha + bga * (1 - alpha))], axis=-1)
    channels = [Image.fromarray(premul[..., k].astype(np.float32), "F").resize((w, h), Image.LANCZOS)
                for k in range(4)]
    out = np.stack([np.asarray(c, dtype=np.float64) for c in channels], axis=-1)
    out = np.clip(out, 0, 255)
    a = out[..., 3:4]
    rgb = np.where(a > 0, out[..., :3] * 255 / np.maximum(a, 1e-9), 0)
    return np.concatenate([np.clip(rgb, 0, 255), a], axis=-1)


def clip_fill(image, x, y, w, h, color):
    H, W = image.shape[:2]
    image[max(y, 0):min(y + h, H), max(x, 0):min(x + w, W)] = color


def paste(image, drawn, x, y):
    H, W = image.shape[:2]
    h, w = drawn.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
    if x0 < x1 and y0 < y1:
        image[y0:y1, x0:x1] = drawn[y0 - y:y1 - y, x0 - x:x1 - x]


def expected_mode(image):
    opaque = np.all(image[..., 3] >= 254.5)
    if not opaque:
        return "RGBA"
    rgb = np.rint(image[..., :3])
    return "L" if np.all(rgb[..., 0] == rgb[..., 1]) and np.all(rgb[..., 1] == rgb[..., 2]) else "RGB"


def psnr(a, b):
    mse = float(np.mean((a - b) ** 2))
    return 99.0 if mse < 1e-10 else 10 * math.log10(255 * 255 / mse)


def premul(image):
    return np.concatenate([image[..., :3] * image[..., 3:4] / 255, image[..., 3:4]], axis=-1)
