#!/usr/bin/env python3
"""Writes TestImages/jpeg/: tiny JPEGs of every kind Mihiraki reads, used as
fuzzing seeds (small inputs fuzz fast). Needs Pillow."""
import os
from PIL import Image, ImageDraw

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "TestImages", "jpeg")
os.makedirs(out, exist_ok=True)
img = Image.new("RGB", (40, 24), (200, 40, 40))
d = ImageDraw.Draw(img)
d.rectangle((20, 0, 39, 11), fill=(30, 200, 60))
d.rectangle((0, 12, 19, 23), fill=(40, 50, 220))
img.save(os.path.join(out, "baseline.jpg"), quality=90)
img.save(os.path.join(out, "progressive.jpg"), quality=90, progressive=True)
img.convert("L").save(os.path.join(out, "gray.jpg"), quality=90)
img.convert("CMYK").save(os.path.join(out, "cmyk-adobe.jpg"), quality=90)
exif = Image.Exif()
exif[0x0112] = 6
img.save(os.path.join(out, "exif-orientation-6.jpg"), quality=90, exif=exif.tobytes())
img.save(os.path.join(out, "subsampled-444.jpg"), quality=90, subsampling=0)
