"""The model check's books: random pages in every format the specification lists, and reading them back."""
import os
import random
import shutil
import subprocess
import numpy as np
from PIL import Image, features


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HAVE_AVIF = features.check("avif")
HAVE_CJXL = shutil.which("cjxl") is not None
PSNR_FLOOR = {"png": 30.0, "webp": 20.0, "jpeg": 20.0, "avif": 20.0}


# ---------------------------------------------------------------- the book

def draw_page(rng, width, height, mode):
    """Smooth content (gradients and a few flat blocks): what a page holds,
    and what two Lanczos-class resamplers agree on closely."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    fx, fy = x / max(width - 1, 1), y / max(height - 1, 1)
    a, b, c = (rng.uniform(0.2, 1.0) for _ in range(3))
    planes = [np.clip(255 * (a * fx + (1 - a) * fy), 0, 255),
              np.clip(255 * (b * (1 - fx) * fy + (1 - b) * 0.5), 0, 255),
              np.clip(255 * (0.5 + 0.5 * np.sin(c * 6 * fx + 3 * fy)), 0, 255)]
    rgb = np.stack(planes, axis=-1)
    for _ in range(rng.randint(0, 3)):
        bx, by = rng.randrange(width), rng.randrange(height)
        bw, bh = rng.randint(1, max(1, width // 2)), rng.randint(1, max(1, height // 2))
        rgb[by:by + bh, bx:bx + bw] = [rng.randrange(256) for _ in range(3)]
    gray = rgb.mean(axis=-1)
    alpha = np.clip(255 * (0.3 + 0.7 * fx * (1 - 0.5 * fy)), 0, 255)
    if rng.random() < 0.3:
        alpha[: max(1, height // 4)] = 0
    if mode == "L":
        return Image.fromarray(gray.astype(np.uint8), "L")
    if mode == "LA":
        return Image.fromarray(np.stack([gray, alpha], -1).astype(np.uint8), "LA")
    if mode == "RGB":
        return Image.fromarray(rgb.astype(np.uint8), "RGB")
    return Image.fromarray(np.dstack([rgb, alpha]).astype(np.uint8), "RGBA")


FORMATS = ["png", "png16", "png-interlaced", "png-palette", "apng", "jpeg", "jpeg-progressive",
           "webp-lossy", "webp-lossless", "webp-animated", "gif", "gif-animated"] \
    + (["avif"] if HAVE_AVIF else []) + (["jxl"] if HAVE_CJXL else [])


def random_page(rng):
    kind = rng.random()
    if kind < 0.12:
        width, height = rng.randint(1, 4), rng.randint(1, 4)          # tiny
    elif kind < 0.3:
        width, height = rng.randint(60, 160), rng.randint(30, 90)     # wide
    else:
        width, height = rng.randint(20, 120), rng.randint(40, 170)    # portrait
    fmt = rng.choice(FORMATS)
    mode = rng.choice(["L", "RGB", "LA", "RGBA"])
    if fmt.startswith("jpeg"):
        mode = rng.choice(["L", "RGB"])
    return {"width": width, "height": height, "format": fmt, "mode": mode, "seed": rng.randrange(1 << 30)}


def write_page(page, path_stem):
    """Writes the page with a real encoder; returns (file name, the pixels a
    reader of that file sees, as RGBA or L/LA/RGB)."""
    rng = random.Random(page["seed"])
    image = draw_page(rng, page["width"], page["height"], page["mode"])
    fmt = page["format"]
    if fmt in ("png", "png-interlaced"):
        path = path_stem + ".png"
        if fmt == "png-interlaced":
            write_png_adam7(path, image)
        else:
            image.save(path)
    elif fmt == "png16":
        path = path_stem + ".png"
        array = np.asarray(image.convert("L" if image.mode in ("L", "LA") else "RGB")).astype(np.uint16) * 257
        if array.ndim == 2:
            Image.fromarray(array.astype(np.uint16)).save(path)   # 16-bit gray (I;16)
        else:
            write_png16_rgb(path, array)
    elif fmt == "png-palette":
        path = path_stem + ".png"
        image.convert("RGBA").quantize(64).save(path)
    elif fmt == "apng":
        path = path_stem + ".png"
        other = Image.new(image.mode, image.size)
        image.save(path, save_all=True, append_images=[other], duration=100)
    elif fmt.startswith("jpeg"):
        path = path_stem + ".jpg"
        image.save(path, quality=92, progressive=fmt == "jpeg-progressive")
    elif fmt == "webp-lossy":
        path = path_stem + ".webp"
        image.convert("RGBA" if "A" in image.mode else "RGB").save(path, quality=90)
    elif fmt == "webp-lossless":
        path = path_stem + ".webp"
        image.convert("RGBA" if "A" in image.mode else "RGB").save(path, lossless=True)
    elif fmt == "webp-animated":
        path = path_stem + ".webp"
        first = image.convert("RGBA" if "A" in image.mode else "RGB")
        first.save(path, save_all=True, append_images=[Image.new(first.mode, first.size)], lossless=True, duration=100)
    elif fmt in ("gif", "gif-animated"):
        path = path_stem + ".gif"
        rgba = image.convert("RGBA")
        paletted = rgba.convert("RGB").quantize(255)
        mask = np.asarray(rgba)[..., 3] < 128
        data = np.asarray(paletted).copy()
        data[mask] = 255
        paletted = Image.fromarray(data, "P")
        paletted.putpalette(rgba.convert("RGB").quantize(255).getpalette()[:765] + [0, 0, 0])
        extra = {"transparency": 255} if mask.any() else {}
        if fmt == "gif-animated":
            paletted.save(path, save_all=True, append_images=[Image.new("P", paletted.size)], duration=100, **extra)
        else:
            paletted.save(path, **extra)
    elif fmt == "avif":
        path = path_stem + ".avif"
        image.convert("RGBA" if "A" in image.mode else "RGB").save(path, quality=90)
    elif fmt == "jxl":
        path = path_stem + ".jxl"
        src = path_stem + ".src.png"
        image.save(src)
        subprocess.run(["cjxl", "-q", "95", src, path], check=True, capture_output=True)
        # The reference is libjxl's own decoder (djxl), as Pillow reads no JPEG XL.
        subprocess.run(["djxl", path, src], check=True, capture_output=True)
        pixels = read_reference(src)
        os.remove(src)
        return os.path.basename(path), pixels
    else:
        raise ValueError(fmt)
    return os.path.basename(path), read_reference(path)


def write_page_kinds(directory, seed):
    """One small page of every format and colour mode the generator makes,
    named FORMAT-MODE.EXT: what scripts/fuzz seeds its image targets with."""
    rng = random.Random(seed)
    os.makedirs(directory, exist_ok=True)
    for fmt in FORMATS:
        for mode in (["L", "RGB"] if fmt.startswith("jpeg") else ["L", "RGB", "LA", "RGBA"]):
            page = {"width": rng.randint(8, 48), "height": rng.randint(8, 48), "format": fmt, "mode": mode,
                    "seed": rng.randrange(1 << 30)}
            write_page(page, os.path.join(directory, f"{fmt}-{mode}"))


def png_chunk(kind, data):
    import struct
    import zlib
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def write_png_adam7(path, image):
    """An interlaced 8-bit PNG (Pillow's writer does not interlace)."""
    import struct
    import zlib
    color_type, c = {"L": (0, 1), "LA": (4, 2), "RGB": (2, 3), "RGBA": (6, 4)}[image.mode]
    w, h = image.size
    data = np.asarray(image).reshape(h, w, c)
    raw = bytearray()
    for x0, y0, dx, dy in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]:
        sub = data[y0::dy, x0::dx]
        if sub.size == 0:
            continue
        for row in sub:
            raw += b"\0" + row.tobytes()
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, color_type, 0, 0, 1))
                + png_chunk(b"IDAT", zlib.compress(bytes(raw))) + png_chunk(b"IEND", b""))


def write_png16_rgb(path, array):
    import struct
    import zlib
    h, w, _ = array.shape
    raw = b"".join(b"\0" + array[y].astype(">u2").tobytes() for y in range(h))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0))
                + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b""))


def read_reference(path):
    """The page as Pillow reads it (first frame), as straight RGBA floats."""
    with Image.open(path) as im:
        im.seek(0)
        if im.mode == "I;16" or im.mode.startswith("I"):
            array = np.asarray(im).astype(np.float64) / 257.0
            return np.dstack([array, array, array, np.full(array.shape, 255.0)])
        return to_rgba(im)


def to_rgba(im):
    return np.asarray(im.convert("RGBA")).astype(np.float64)


# ---------------------------------------------------------------- the model

def parse_color(text):
    if text == "transparent":
        return (0, 0, 0, 0)
    named = {"black": (0, 0, 0, 255), "white": (255, 255, 255, 255), "gray": (128, 128, 128, 255),
             "red": (255, 0, 0, 255), "navy": (0, 0, 128, 255)}
    if text in named:
        return named[text]
    h = text.lstrip("#")
    values = tuple(int(h[i:i + 2], 16) for i in range(0, len(h), 2))
    return values if len(values) == 4 else values + (255,)
