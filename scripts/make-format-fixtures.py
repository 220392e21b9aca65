#!/usr/bin/env python3
"""Makes TestImages/formats/: small WebP, GIF, AVIF and JPEG XL pages written
by real encoders, and what a reference decoder makes of each.

Needs cwebp, img2webp (Debian: webp), avifenc (libavif-bin), cjxl and djxl
(libjxl-tools), and Pillow with numpy. The committed files are what the tests
read; run this again only to change them.

For every fixture NAME.EXT it writes NAME.EXT.rgba: the reference decoder's
pixels as 8-bit straight RGBA, rows top to bottom (Pillow for WebP, GIF and
AVIF; djxl for JPEG XL), and sources/*.png, the pictures the encoders read.
The icc.* pages embed wide-gamut.icc (made here), icc-cmyk.jpg embeds
cmyk-test.icc (made here too); icc.*.srgb.rgba is what
lcms2, through Pillow's ImageCms, makes of them in sRGB (relative colorimetric).
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


def icc_profile(device_class, space, pcs, tags):
    """An ICC v2 profile: the 128-byte header (D50 illuminant), the tag table
    and the tags, each 4-byte aligned."""
    import struct

    def s15(v):
        return struct.pack(">i", round(v * 65536))
    offset = 128 + 4 + 12 * len(tags)
    table, data = b"", b""
    for sig, body in tags:
        while (offset + len(data)) % 4:
            data += b"\0"
        table += sig + struct.pack(">II", offset + len(data), len(body))
        data += body
    size = offset + len(data)
    header = (struct.pack(">I", size) + b"lcms" + bytes([2, 0x10, 0, 0]) + device_class + space + pcs
              + b"\0" * 12 + b"acsp" + b"\0" * 24 + b"\0" * 4 + s15(0.9642) + s15(1.0) + s15(0.8249) + b"\0" * 48)
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + table + data


def wide_gamut_profile():
    """An ICC v2 matrix/TRC RGB profile with Adobe RGB (1998) primaries and
    gamma 563/256, written field by field (primaries adapted to D50 with
    Bradford, as ICC requires): a wide-gamut page profile of our own."""
    import struct

    def s15(v):
        return struct.pack(">i", round(v * 65536))

    def xyz(x, y, z):
        return b"XYZ " + b"\0" * 4 + s15(x) + s15(y) + s15(z)

    def curve(gamma):
        return b"curv" + b"\0" * 4 + struct.pack(">I", 1) + struct.pack(">H", round(gamma * 256)) + b"\0\0"

    def text(t):
        return b"text" + b"\0" * 4 + t.encode() + b"\0"

    def desc(t):
        ascii_ = t.encode() + b"\0"
        return (b"desc" + b"\0" * 4 + struct.pack(">I", len(ascii_)) + ascii_ + b"\0" * 8 + b"\0" * 3 + b"\0" * 67)

    tags = [
        (b"desc", desc("Mihiraki test wide-gamut RGB")), (b"cprt", text("No copyright, test data")),
        (b"wtpt", xyz(0.9642, 1.0, 0.8249)),
        (b"rXYZ", xyz(0.60974, 0.31111, 0.01947)), (b"gXYZ", xyz(0.20528, 0.62567, 0.06087)),
        (b"bXYZ", xyz(0.14919, 0.06322, 0.74457)),
        (b"rTRC", curve(2.19921875)), (b"gTRC", curve(2.19921875)), (b"bTRC", curve(2.19921875)),
    ]
    return icc_profile(b"mntr", b"RGB ", b"XYZ ", tags)


def colour_fixtures(f, src):
    """Pages whose stored values are in the wide-gamut profile, in every format
    that embeds one, and what lcms2 (Pillow's ImageCms) makes of them in sRGB."""
    from PIL import ImageCms
    import io
    icc = wide_gamut_profile()
    open(f("wide-gamut.icc"), "wb").write(icc)
    picture = Image.open(os.path.join(src, "rgb.png")).convert("RGB")
    picture.save(f("icc.png"), icc_profile=icc)
    picture.save(f("icc.jpg"), quality=95, icc_profile=icc)
    picture.save(f("icc.webp"), lossless=True, icc_profile=icc)
    run("avifenc", "-j", "1", "--lossless", f("icc.png"), f("icc.avif"))
    run("cjxl", "--quiet", "-d", "0", f("icc.png"), f("icc.jxl"))
    to_srgb = ImageCms.buildTransform(ImageCms.ImageCmsProfile(io.BytesIO(icc)), ImageCms.createProfile("sRGB"),
                                      "RGB", "RGB", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
    for name in ("icc.png", "icc.jpg", "icc.webp", "icc.avif", "icc.jxl"):
        path = f(name)
        if name.endswith(".jxl"):
            path = os.path.join(src, "djxl-icc.png")
            run("djxl", f(name), path)
        with Image.open(path) as stored:
            stored = stored.convert("RGB")
        if name.endswith(".jxl"):
            os.remove(path)
        reference(name, stored)  # the stored values (--color-manage off)
        reference(name + ".srgb", ImageCms.applyTransform(stored, to_srgb))


def cmyk_profile():
    """An ICC v2 CMYK profile of our own: an A2B0 16-bit lookup table (9
    points per ink) from a simple ink model — each ink absorbs a little of
    the neighbouring primaries, black is 90 % dense — to Lab. The pages'
    colours then depend on the profile, not on the naive CMYK formula."""
    import struct
    g = 9

    def srgb_to_lab(r, g_, b):
        def lin(v):
            return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
        r, g_, b = lin(r), lin(g_), lin(b)
        # sRGB to XYZ (D50, Bradford-adapted), as the ICC PCS wants it.
        x = 0.4360747 * r + 0.3850649 * g_ + 0.1430804 * b
        y = 0.2225045 * r + 0.7168786 * g_ + 0.0606169 * b
        z = 0.0139322 * r + 0.0971045 * g_ + 0.7141733 * b
        def f(t):
            return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
        fx, fy, fz = f(x / 0.9642), f(y / 1.0), f(z / 0.8249)
        return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)

    clut = b""
    for c in range(g):
        for m in range(g):
            for y in range(g):
                for k in range(g):
                    C, M, Y, K = (v / (g - 1) for v in (c, m, y, k))
                    dark = 1 - 0.9 * K
                    r = (1 - C) * (1 - 0.12 * M) * dark
                    gg = (1 - M) * (1 - 0.08 * Y) * (1 - 0.15 * C) * dark
                    b = (1 - Y) * (1 - 0.1 * C) * dark
                    L, A, B = srgb_to_lab(r, gg, b)
                    clut += struct.pack(">HHH", round(max(0, min(100, L)) * 652.8),
                                        round(max(0, min(65535, (A + 128) * 256))),
                                        round(max(0, min(65535, (B + 128) * 256))))
    identity = b"".join(struct.pack(">i", v) for v in (65536, 0, 0, 0, 65536, 0, 0, 0, 65536))
    linear = struct.pack(">HH", 0, 65535)
    a2b0 = (b"mft2" + b"\0" * 4 + bytes([4, 3, g, 0]) + identity + struct.pack(">HH", 2, 2)
            + linear * 4 + clut + linear * 3)
    text = b"text" + b"\0" * 4 + b"No copyright, test data\0"
    name = b"Mihiraki test CMYK\0"
    desc = b"desc" + b"\0" * 4 + struct.pack(">I", len(name)) + name + b"\0" * 8 + b"\0" * 3 + b"\0" * 67
    def s15(v):
        return struct.pack(">i", round(v * 65536))
    wtpt = b"XYZ " + b"\0" * 4 + s15(0.9642) + s15(1.0) + s15(0.8249)
    tags = [(b"desc", desc), (b"cprt", text), (b"wtpt", wtpt), (b"A2B0", a2b0)]
    return icc_profile(b"prtr", b"CMYK", b"Lab ", tags)


def cmyk_fixtures(f, src):
    """A CMYK JPEG (Pillow writes Adobe-inverted CMYK) with cmyk-test.icc
    embedded, and what lcms2 (Pillow's ImageCms) makes of it in sRGB."""
    from PIL import ImageCms
    import io
    icc = cmyk_profile()
    open(f("cmyk-test.icc"), "wb").write(icc)
    rgb = Image.open(os.path.join(src, "rgb.png")).convert("RGB")
    cmyk = Image.merge("CMYK", [*Image.eval(rgb, lambda v: 255 - v).split(), Image.new("L", rgb.size, 24)])
    cmyk.save(f("icc-cmyk.jpg"), quality=95, icc_profile=icc)
    with Image.open(f("icc-cmyk.jpg")) as stored:
        stored.load()
        to_srgb = ImageCms.buildTransform(ImageCms.ImageCmsProfile(io.BytesIO(icc)), ImageCms.createProfile("sRGB"),
                                          "CMYK", "RGB", renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
        reference("icc-cmyk.jpg.srgb", ImageCms.applyTransform(stored, to_srgb))


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
    colour_fixtures(f, src)
    cmyk_fixtures(f, src)
    print(f"fixtures in {os.path.normpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
