#!/usr/bin/env python3
"""Makes TestImages/formats/: small WebP, GIF, AVIF and JPEG XL pages written
by real encoders, and what a reference decoder makes of each.

Needs cwebp, img2webp (Debian: webp), avifenc (libavif-bin), cjxl and djxl
(libjxl-tools), and Pillow with numpy. The committed files are what the tests
read; run this again only to change them.

For every fixture NAME.EXT it writes NAME.EXT.rgba: the reference decoder's
pixels as 8-bit straight RGBA, rows top to bottom (Pillow for WebP, GIF and
AVIF; djxl for JPEG XL), and sources/*.png, the pictures the encoders read.
"""
import os
import subprocess
import sys

import numpy as np
from PIL import Image

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "TestImages", "formats")
W, H = 64, 48


def source(alpha=False):
    """An asymmetric picture (so turns and flips show): gradients, a disc, a bar, text-like ticks."""
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    r = 40 + 180 * x / W
    g = 30 + 200 * y / H
    b = 220 - 150 * ((x - 20) ** 2 + (y - 16) ** 2 < 100)
    rgb = np.stack([r, g, b], -1)
    rgb[36:42, 6:50] = [20, 20, 20]
    rgb[4:10, 52:60] = [250, 240, 30]
    for k in range(0, 40, 5):
        rgb[28:31, 8 + k] = [10, 60, 10]
    rgb = rgb.clip(0, 255).astype(np.uint8)
    if not alpha:
        return Image.fromarray(rgb, "RGB")
    a = (255 * (1 - x / (W * 1.2))).clip(0, 255).astype(np.uint8)
    a[0:8, 0:8] = 0
    return Image.fromarray(np.dstack([rgb, a]), "RGBA")


def run(*args):
    subprocess.run(args, check=True, capture_output=True)


def reference(name, decoded):
    decoded.convert("RGBA").save  # noqa: B018 (Pillow must be able to read it)
    with open(os.path.join(OUT, name + ".rgba"), "wb") as f:
        f.write(np.asarray(decoded.convert("RGBA")).tobytes())


def pillow_reference(name):
    with Image.open(os.path.join(OUT, name)) as im:
        im.seek(0)
        reference(name, im.convert("RGBA"))


def main():
    os.makedirs(os.path.join(OUT, "sources"), exist_ok=True)
    src = os.path.join(OUT, "sources")
    source().save(os.path.join(src, "rgb.png"))
    source(alpha=True).save(os.path.join(src, "rgba.png"))
    source().convert("L").save(os.path.join(src, "gray.png"))
    for k, frame in enumerate([source(), source().rotate(180), Image.eval(source(), lambda v: 255 - v)]):
        frame.save(os.path.join(src, f"frame{k}.png"))
    rgb, rgba, gray = (os.path.join(src, n) for n in ("rgb.png", "rgba.png", "gray.png"))

    # WebP (libwebp's own encoders).
    f = lambda n: os.path.join(OUT, n)  # noqa: E731
    run("cwebp", "-quiet", "-lossless", rgb, "-o", f("lossless.webp"))
    run("cwebp", "-quiet", "-q", "85", rgb, "-o", f("lossy.webp"))
    run("cwebp", "-quiet", "-lossless", "-exact", rgba, "-o", f("alpha.webp"))
    run("cwebp", "-quiet", "-q", "80", "-alpha_q", "100", rgba, "-o", f("lossy-alpha.webp"))
    run("img2webp", "-lossless", os.path.join(src, "frame0.png"), "-d", "100",
        os.path.join(src, "frame1.png"), os.path.join(src, "frame2.png"), "-o", f("animated.webp"))
    for n in ("lossless.webp", "lossy.webp", "alpha.webp", "lossy-alpha.webp", "animated.webp"):
        pillow_reference(n)

    # GIF (Pillow's encoder): one transparent index, interlaced, and a first
    # frame smaller than the logical screen.
    pal = source().quantize(colors=64, dither=Image.Dither.NONE)
    pal.save(f("static.gif"), interlace=False)
    pal.save(f("interlaced.gif"), interlace=True)
    transparent = pal.copy()
    transparent.paste(0, (0, 0, 16, 12))
    transparent.save(f("transparent.gif"), transparency=0, interlace=False)
    small = pal.crop((0, 0, 40, 30))
    small.save(f("offset.gif"), interlace=False)
    data = bytearray(open(f("offset.gif"), "rb").read())
    data[6:10] = (W).to_bytes(2, "little") + (H).to_bytes(2, "little")  # the logical screen grows
    at = data.index(b"\x2c")  # image descriptor: move the frame to (10, 8)
    data[at + 1:at + 5] = (10).to_bytes(2, "little") + (8).to_bytes(2, "little")
    open(f("offset.gif"), "wb").write(data)
    for n in ("static.gif", "interlaced.gif", "transparent.gif", "offset.gif"):
        pillow_reference(n)

    # AVIF (libavif's avifenc).
    run("avifenc", "-j", "1", "-y", "420", "--min", "20", "--max", "20", rgb, f("lossy420.avif"))
    run("avifenc", "-j", "1", "-d", "10", "-y", "444", "--min", "10", "--max", "10", rgb, f("10bit444.avif"))
    run("avifenc", "-j", "1", "-d", "12", "-y", "422", "--min", "10", "--max", "10", rgb, f("12bit422.avif"))
    run("avifenc", "-j", "1", "-y", "400", "--min", "10", "--max", "10", gray, f("mono.avif"))
    run("avifenc", "-j", "1", "--lossless", rgba, f("alpha-lossless.avif"))
    run("avifenc", "-j", "1", "--lossless", rgb, f("lossless.avif"))
    for angle in range(4):
        for mode in (None, 0, 1):
            name = f"irot{angle}" + ("" if mode is None else f"-imir{mode}") + ".avif"
            extra = [] if mode is None else ["--imir", str(mode)]
            run("avifenc", "-j", "1", "--lossless", "--irot", str(angle), *extra, rgb, f(name))
    for n in ("lossy420.avif", "10bit444.avif", "12bit422.avif", "mono.avif", "alpha-lossless.avif", "lossless.avif"):
        pillow_reference(n)

    # JPEG XL (libjxl's cjxl; djxl is the reference).
    run("cjxl", "--quiet", "-d", "0", rgb, f("lossless.jxl"))
    run("cjxl", "--quiet", "-d", "1", rgb, f("lossy.jxl"))
    run("cjxl", "--quiet", "-d", "0", rgba, f("alpha.jxl"))
    run("cjxl", "--quiet", "-d", "0", gray, f("gray.jxl"))
    for n in ("lossless.jxl", "lossy.jxl", "alpha.jxl", "gray.jxl"):
        decoded = os.path.join(OUT, "sources", "djxl-" + n + ".png")
        run("djxl", f(n), decoded)
        with Image.open(decoded) as im:
            reference(n, im)
        os.remove(decoded)
    print(f"fixtures in {os.path.normpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
