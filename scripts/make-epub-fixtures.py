#!/usr/bin/env python3
"""Writes TestImages/epub/: EPUBs made by the EPUB 3.3 and OCF rules with
Python's zipfile (mimetype first and stored, container.xml, a package
document, a spine), the kinds Mihiraki meets:

  fixed-rtl.epub   EPUB 3 pre-paginated, right to left, page-spread-* on some
                   pages, one page an SVG wrapper, picture names that sort
                   against the spine
  epub2-fixed.epub EPUB 2 with the old `fixed-layout` meta
  converter.epub   converter output with no layout declared: the cover in an
                   SVG wrapper, then XHTML pages whose pictures (0_0.png, …)
                   sort before cover.jpeg
  sides-ltr.epub   EPUB 3 pre-paginated, left to right: page 1 declared on the
                   left, page 4 centred (shown alone), page 6 on the left
  novel.epub       a reflowable book: a cover picture, then chapters of text
  drm.epub         a picture book whose META-INF/encryption.xml names a page

Each picture shows its spine position as a shade, so a test can tell the
order from the pixels. Deterministic: fixed time stamps, fixed pixels."""
import io, pathlib, zipfile
from PIL import Image

out = pathlib.Path(__file__).resolve().parent.parent / "TestImages" / "epub"
out.mkdir(parents=True, exist_ok=True)
STAMP = (2020, 1, 1, 0, 0, 0)

def picture(index, fmt="PNG", size=(60, 90)):
    image = Image.new("RGB", size, (20 * index % 256, 200 - 10 * index, 40 + 15 * index))
    buffer = io.BytesIO()
    image.save(buffer, fmt, quality=95) if fmt == "JPEG" else image.save(buffer, fmt)
    return buffer.getvalue()

def xhtml_img(src, alt="page"):
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>p</title></head>
<body><div><img src="{src}" alt="{alt}"/></div></body></html>'''.encode()

def xhtml_svg(href):
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:xlink="http://www.w3.org/1999/xlink"><head><title>c</title></head>
<body><svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="100%" height="100%" viewBox="0 0 60 90">
<image width="60" height="90" xlink:href="{href}"/></svg></body></html>'''.encode()

def write(name, opf_path, files):
    with zipfile.ZipFile(out / name, "w") as z:
        def add(path, data, method=zipfile.ZIP_DEFLATED):
            info = zipfile.ZipInfo(path, date_time=STAMP)
            info.compress_type = method
            z.writestr(info, data)
        add("mimetype", b"application/epub+zip", zipfile.ZIP_STORED)
        add("META-INF/container.xml", f'''<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="{opf_path}" media-type="application/oebps-package+xml"/></rootfiles></container>'''.encode())
        for path, data in files:
            add(path, data)

def opf(version, metadata, items, spine_attributes, itemrefs):
    return f'''<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="{version}" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier><dc:title>t</dc:title>{metadata}</metadata>
<manifest>{items}</manifest>
<spine{spine_attributes}>{itemrefs}</spine></package>'''.encode()

# fixed-rtl: pictures named z09 … z01 so their natural order is the reverse of the spine.
files, items, refs = [], "", ""
for i in range(1, 9):
    name = f"images/z{10 - i:02d} page.png"          # a space: hrefs are percent-encoded
    files.append(("OEBPS/" + name, picture(i)))
    href = name.replace(" ", "%20")
    if i == 3:
        files.append((f"OEBPS/pages/p{i}.xhtml", xhtml_svg("../" + href)))
    else:
        files.append((f"OEBPS/pages/p{i}.xhtml", xhtml_img("../" + href)))
    items += f'<item id="p{i}" href="pages/p{i}.xhtml" media-type="application/xhtml+xml"/><item id="i{i}" href="{href}" media-type="image/png"/>'
    side = {1: ' properties="rendition:page-spread-right"', 5: ' properties="page-spread-left"'}.get(i, "")
    refs += f'<itemref idref="p{i}"{side}/>'
files.append(("OEBPS/content.opf", opf("3.0", '<meta property="rendition:layout">pre-paginated</meta>', items,
                                       ' page-progression-direction="rtl"', refs)))
write("fixed-rtl.epub", "OEBPS/content.opf", files)

# epub2-fixed: the old meta, pictures as XHTML pages, left to right.
files, items, refs = [], "", ""
for i in range(1, 6):
    files.append((f"OPS/img/{i}.jpg", picture(i, "JPEG")))
    files.append((f"OPS/{i}.xhtml", xhtml_img(f"img/{i}.jpg")))
    items += f'<item id="x{i}" href="{i}.xhtml" media-type="application/xhtml+xml"/><item id="j{i}" href="img/{i}.jpg" media-type="image/jpeg"/>'
    refs += f'<itemref idref="x{i}"/>'
files.append(("OPS/book.opf", opf("2.0", '<meta name="fixed-layout" content="true"/>', items, ' toc="ncx"', refs)))
write("epub2-fixed.epub", "OPS/book.opf", files)

# converter: cover.jpeg in an SVG wrapper first; pages 0_0.png … sort before it by name.
files = [("OEBPS/Images/cover.jpeg", picture(1, "JPEG")), ("OEBPS/Text/cover.xhtml", xhtml_svg("../Images/cover.jpeg"))]
items = '<item id="cover" href="Text/cover.xhtml" media-type="application/xhtml+xml"/><item id="ci" href="Images/cover.jpeg" media-type="image/jpeg"/>'
refs = '<itemref idref="cover"/>'
for i in range(2, 7):
    files.append((f"OEBPS/Images/0_{i - 2}.png", picture(i)))
    files.append((f"OEBPS/Text/page{i}.xhtml", xhtml_img(f"../Images/0_{i - 2}.png")))
    items += f'<item id="t{i}" href="Text/page{i}.xhtml" media-type="application/xhtml+xml"/><item id="g{i}" href="Images/0_{i - 2}.png" media-type="image/png"/>'
    refs += f'<itemref idref="t{i}"/>'
items += '<item id="nav" href="Text/nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
files.append(("OEBPS/Text/nav.xhtml", b'<html xmlns="http://www.w3.org/1999/xhtml"><body><nav><ol><li>1</li></ol></nav></body></html>'))
refs += '<itemref idref="nav" linear="no"/>'
files.append(("OEBPS/content.opf", opf("3.0", "", items, "", refs)))
write("converter.epub", "OEBPS/content.opf", files)

# sides-ltr: page images straight in the spine; properties with and without the rendition: prefix.
files, items, refs = [], "", ""
for i in range(1, 9):
    files.append((f"OEBPS/{i}.png", picture(i)))
    items += f'<item id="i{i}" href="{i}.png" media-type="image/png"/>'
    side = {1: ' properties="page-spread-left"', 4: ' properties="rendition:page-spread-center"',
            6: ' properties="rendition:page-spread-left"'}.get(i, "")
    refs += f'<itemref idref="i{i}"{side}/>'
files.append(("OEBPS/content.opf", opf("3.0", '<meta property="rendition:layout">pre-paginated</meta>', items,
                                       ' page-progression-direction="ltr"', refs)))
write("sides-ltr.epub", "OEBPS/content.opf", files)

# novel: a cover picture page, then text.
files = [("EPUB/cover.png", picture(1)), ("EPUB/cover.xhtml", xhtml_img("cover.png", "cover")),
         ("EPUB/ch1.xhtml", b'<html xmlns="http://www.w3.org/1999/xhtml"><body><h1>One</h1><p>It was a dark night.</p></body></html>'),
         ("EPUB/ch2.xhtml", b'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>And then morning.</p></body></html>')]
items = ('<item id="c" href="cover.xhtml" media-type="application/xhtml+xml"/><item id="ci" href="cover.png" media-type="image/png"/>'
         '<item id="a" href="ch1.xhtml" media-type="application/xhtml+xml"/><item id="b" href="ch2.xhtml" media-type="application/xhtml+xml"/>')
files.append(("EPUB/package.opf", opf("3.0", "", items, "", '<itemref idref="c"/><itemref idref="a"/><itemref idref="b"/>')))
write("novel.epub", "EPUB/package.opf", files)

# drm: pictures, with encryption.xml naming page 2's picture.
files, items, refs = [], "", ""
for i in range(1, 4):
    files.append((f"OEBPS/{i}.png", picture(i)))
    items += f'<item id="i{i}" href="{i}.png" media-type="image/png"/>'
    refs += f'<itemref idref="i{i}"/>'
files.append(("OEBPS/content.opf", opf("3.0", '<meta property="rendition:layout">pre-paginated</meta>', items, "", refs)))
files.append(("META-INF/encryption.xml", b'''<?xml version="1.0"?>
<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
<enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/>
<enc:CipherData><enc:CipherReference URI="OEBPS/2.png"/></enc:CipherData></enc:EncryptedData></encryption>'''))
write("drm.epub", "OEBPS/content.opf", files)
