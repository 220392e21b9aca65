#!/usr/bin/env python3
"""Writes TestImages/pdf/: PDF books made by the tools people make them with,
and the page folders they were made from.

  pages/               the pictures: p1.jpg (colour), p2.jpg (gray),
                       p3.png (RGB), p4.png (gray), p5.png (palette),
                       p6.png (1-bit), p7.png (16-bit gray)
  img2pdf.pdf          img2pdf of pages/: JPEGs kept as DCT streams, PNGs as
                       Flate with PNG predictors, the palette as Indexed
  declared.pdf         img2pdf of p1-p4, then pikepdf: /ViewerPreferences
                       /Direction /R2L and /PageLayout /TwoPageLeft
  owner-only.pdf       img2pdf of p1-p4, encrypted by pikepdf with an owner
                       password only: reads as any PDF
  user-password.pdf    the same with a user password: refused, "encrypted"
  vector.pdf           reportlab: a page of text and shapes, then a picture page
  damaged.pdf          the first 700 bytes of img2pdf.pdf
  jpx.pdf              img2pdf of jpx/p1.jp2 (RGB) and jpx/p2.jp2 (gray), lossless
                       JPEG 2000 written by Pillow: kept as JPXDecode streams;
                       jpx/p1.png and jpx/p2.png are Pillow's decodes of them
  soft-mask.pdf        alpha/p1.png (RGBA) and alpha/p2.png (gray and alpha) as
                       pictures with a soft mask (/SMask), written with pikepdf
  inflates-past.pdf    a 10×10 gray picture whose Flate stream inflates to 1 MB
  ends-early.pdf       a 10×10 gray picture whose stream holds 5 rows
  page-tree-loop.pdf   written by hand: the root page-tree node lists itself
                       among its kids
  messages/            written by hand: a page of a shape (drawn by poppler)
                       that makes poppler warn while drawing it, as real
                       files do. Drawn as every reader draws them:
                       bad-dest.pdf ("Bad annotation destination"),
                       restore.pdf ("Restoring state when no valid states
                       to pop"), field.pdf ("SubType on non-terminal field,
                       invalid document?"), j2k.pdf (a JPXDecode picture
                       that is a bare codestream: "Malformed JP2 file
                       format: first box must be JPEG 2000 signature box").
                       Refused, their picture damaged: bad-flate.pdf,
                       bad-lzw.pdf, bad-jbig2.pdf, bad-j2k.pdf, bad-dct.pdf
                       (its DCT picture's entropy data overwritten, whose
                       damage poppler's libjpeg only warns of);
                       bad-pages.pdf is bad-flate.pdf's page four times

Deterministic: fixed pixels, no dates, fixed document ids."""
import io, pathlib, zlib
import img2pdf, pikepdf
import numpy as np
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas
from reportlab import rl_config

rl_config.invariant = 1
out = pathlib.Path(__file__).resolve().parent.parent / "TestImages" / "pdf"
pages = out / "pages"
pages.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(19)


def picture(w, h, seed):
    y, x = np.mgrid[0:h, 0:w]
    r = (x * 255 // max(w - 1, 1)).astype(np.uint8)
    g = (y * 255 // max(h - 1, 1)).astype(np.uint8)
    b = ((x + y + seed * 40) % 256).astype(np.uint8)
    a = np.dstack([r, g, b])
    a[h // 3:h // 2, w // 4:3 * w // 4] = [seed * 50 % 256, 30, 200]
    return Image.fromarray(a, "RGB")


picture(120, 180, 1).save(pages / "p1.jpg", quality=90)
picture(120, 180, 2).convert("L").save(pages / "p2.jpg", quality=90)
picture(120, 180, 3).save(pages / "p3.png")
picture(120, 180, 4).convert("L").save(pages / "p4.png")
picture(120, 180, 5).quantize(16).save(pages / "p5.png")
picture(120, 180, 6).convert("L").point(lambda v: 255 if v > 120 else 0).convert("1").save(pages / "p6.png")
Image.fromarray((np.asarray(picture(120, 180, 7).convert("L"), dtype=np.uint16) * 257 + 3).astype(np.uint16)).save(pages / "p7.png")

names = [str(pages / f"p{i}.{'jpg' if i < 3 else 'png'}") for i in range(1, 8)]
(out / "img2pdf.pdf").write_bytes(img2pdf.convert(names, nodate=True))
four = img2pdf.convert(names[:4], nodate=True)


def with_pikepdf(name, change=None, **save):
    pdf = pikepdf.open(io.BytesIO(four))
    if change:
        change(pdf)
    pdf.save(out / name, static_id=True, **save)


def declare(pdf):
    pdf.Root.ViewerPreferences = pikepdf.Dictionary(Direction=pikepdf.Name.R2L)
    pdf.Root.PageLayout = pikepdf.Name.TwoPageLeft


with_pikepdf("declared.pdf", declare)
with_pikepdf("owner-only.pdf", encryption=pikepdf.Encryption(owner="owner", user="", R=6))
with_pikepdf("user-password.pdf", encryption=pikepdf.Encryption(owner="owner", user="reader", R=6))

buffer = io.BytesIO()
c = canvas.Canvas(buffer, pagesize=(360, 540), invariant=1)
c.setFont("Helvetica", 24)
c.drawString(40, 460, "Chapter One")
c.setFillColorRGB(0.8, 0.2, 0.2)
c.rect(40, 100, 280, 300, fill=1)
c.showPage()
c.drawImage(ImageReader(str(pages / "p3.png")), 0, 0, width=360, height=540)
c.showPage()
c.save()
(out / "vector.pdf").write_bytes(buffer.getvalue())
(out / "damaged.pdf").write_bytes((out / "img2pdf.pdf").read_bytes()[:700])


def one_picture(name, samples):
    pdf = pikepdf.new()
    image = pikepdf.Stream(pdf, zlib.compress(samples))
    image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    image.Width, image.Height, image.BitsPerComponent = 10, 10, 8
    image.ColorSpace, image.Filter = pikepdf.Name.DeviceGray, pikepdf.Name.FlateDecode
    page = pdf.add_blank_page(page_size=(10, 10))
    page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image))
    page.Contents = pikepdf.Stream(pdf, b"q 10 0 0 10 0 0 cm /Im0 Do Q")
    pdf.save(out / name, static_id=True)


jpx = out / "jpx"
jpx.mkdir(exist_ok=True)
picture(120, 180, 8).save(jpx / "p1.jp2", irreversible=False)
picture(120, 180, 9).convert("L").save(jpx / "p2.jp2", irreversible=False)
for name in ("p1", "p2"):
    Image.open(jpx / f"{name}.jp2").save(jpx / f"{name}.png")
(out / "jpx.pdf").write_bytes(img2pdf.convert([str(jpx / "p1.jp2"), str(jpx / "p2.jp2")], nodate=True))

alpha = out / "alpha"
alpha.mkdir(exist_ok=True)
rgba = picture(120, 180, 10).convert("RGBA")
rgba.putalpha(Image.fromarray(np.tile(np.arange(120, dtype=np.uint8) * 2, (180, 1))))
rgba.save(alpha / "p1.png")
la = picture(120, 180, 11).convert("LA")
la.putalpha(Image.fromarray(np.tile((np.arange(180, dtype=np.uint8) * 1.4).astype(np.uint8)[:, None], (1, 120))))
la.save(alpha / "p2.png")
masked = pikepdf.new()
for path in (alpha / "p1.png", alpha / "p2.png"):
    picture_ = Image.open(path)
    colour, a = (picture_.convert("RGB"), picture_.getchannel("A")) if picture_.mode == "RGBA" else (picture_.convert("L"), picture_.getchannel("A"))
    mask = pikepdf.Stream(masked, zlib.compress(a.tobytes()))
    mask.Type, mask.Subtype, mask.Width, mask.Height = pikepdf.Name.XObject, pikepdf.Name.Image, 120, 180
    mask.BitsPerComponent, mask.ColorSpace, mask.Filter = 8, pikepdf.Name.DeviceGray, pikepdf.Name.FlateDecode
    image = pikepdf.Stream(masked, zlib.compress(colour.tobytes()))
    image.Type, image.Subtype, image.Width, image.Height = pikepdf.Name.XObject, pikepdf.Name.Image, 120, 180
    image.BitsPerComponent, image.Filter, image.SMask = 8, pikepdf.Name.FlateDecode, mask
    image.ColorSpace = pikepdf.Name.DeviceRGB if colour.mode == "RGB" else pikepdf.Name.DeviceGray
    page = masked.add_blank_page(page_size=(90, 135))
    page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image))
    page.Contents = pikepdf.Stream(masked, b"q 90 0 0 135 0 0 cm /Im0 Do Q")
masked.save(out / "soft-mask.pdf", static_id=True)

one_picture("inflates-past.pdf", bytes(1 << 20))
one_picture("ends-early.pdf", bytes(50))


def by_hand(objects, version=b"1.7"):
    """A PDF file of `objects` (bodies of objects 1, 2, …), with its xref."""
    data, offsets = bytearray(b"%PDF-" + version + b"\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(data))
        data += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(data)
    data += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    data += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    data += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(data)


def page_tree_loop():
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] >>"]
    (out / "page-tree-loop.pdf").write_bytes(by_hand(objects, b"1.4"))


page_tree_loop()


def poppler_messages():
    folder = out / "messages"
    folder.mkdir(exist_ok=True)

    def stream(keys, body):
        return b"<< " + keys + b" /Length %d >>\nstream\n" % len(body) + body + b"\nendstream"

    def write(name, content, resources=b"", page_keys=b"", catalog_keys=b"", more=()):
        objects = [b"<< /Type /Catalog /Pages 2 0 R " + catalog_keys + b" >>",
                   b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                   b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 300] /Contents 4 0 R /Resources << "
                   + resources + b" >> " + page_keys + b" >>",
                   stream(b"", b"0 0 1 rg 10 10 80 80 re f " + content)]
        (folder / name).write_bytes(by_hand(objects + list(more)))

    def with_picture(name, keys, data):
        write(name, b"q 40 0 0 60 100 100 cm /Im0 Do Q", resources=b"/XObject << /Im0 5 0 R >>",
              more=[stream(b"/Type /XObject /Subtype /Image /Width 40 /Height 60 " + keys, data)])

    gray = Image.fromarray((np.mgrid[0:60, 0:40][1] * 6).astype(np.uint8), "L")
    buffer = io.BytesIO()
    gray.save(buffer, "JPEG2000", no_jp2=True)
    j2k = buffer.getvalue()
    buffer = io.BytesIO()
    gray.save(buffer, "JPEG", quality=90)
    jpeg = buffer.getvalue()
    flate = zlib.compress(bytes(range(240)) * 10)
    eight, one = b"/ColorSpace /DeviceGray /BitsPerComponent 8", b"/ColorSpace /DeviceGray /BitsPerComponent 1"
    write("bad-dest.pdf", b"", page_keys=b"/Annots [5 0 R]",
          more=[b"<< /Type /Annot /Subtype /Link /Rect [0 0 50 50] /Border [0 0 0] /Dest [/Nope /XYZ 0 0 0] >>"])
    write("restore.pdf", b"Q Q 1 0 0 rg 100 100 50 50 re f")
    write("field.pdf", b"", page_keys=b"/Annots [5 0 R]", catalog_keys=b"/AcroForm 6 0 R",
          more=[b"<< /Type /Annot /Subtype /Widget /Rect [0 0 50 50] /T (a) >>", b"<< /Fields [5 0 R] >>"])
    with_picture("j2k.pdf", eight + b" /Filter /JPXDecode", j2k)
    with_picture("bad-flate.pdf", eight + b" /Filter /FlateDecode", flate[:2] + b"\xff" * 20 + flate[22:])
    with_picture("bad-lzw.pdf", eight + b" /Filter /LZWDecode", b"\xff\xfe\xfd" * 30)
    with_picture("bad-jbig2.pdf", one + b" /Filter /JBIG2Decode", b"\x00\x01garbage" * 20)
    with_picture("bad-j2k.pdf", eight + b" /Filter /JPXDecode", j2k[:len(j2k) // 3])
    with_picture("bad-dct.pdf", eight + b" /Filter /DCTDecode", jpeg[:-200] + b"\x13" * 190 + b"\xff\xd9")


poppler_messages()
with pikepdf.open(out / "messages" / "bad-flate.pdf") as damaged:
    for _ in range(3):
        damaged.pages.append(damaged.pages[0])
    damaged.save(out / "messages" / "bad-pages.pdf", static_id=True)
