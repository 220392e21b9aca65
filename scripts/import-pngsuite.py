#!/usr/bin/env python3
"""Copies PngSuite into TestImages/pngsuite/ for the decoder tests.

The PNG files are copied as they are. Each expected-values JSON (an RGBA array
per pixel) becomes a raw file beside it: NAME.rgba (8-bit samples) or
NAME.rgba16 (16-bit samples, little-endian) when any value exceeds 255. That
keeps the fixtures small and readable without a JSON parser in the tests.

    python3 scripts/import-pngsuite.py PATH/TO/pngsuite   # a PngSuite folder: png/ and json/
"""
import json
import os
import shutil
import struct
import sys

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join("..", "shared", "testdata", "pngsuite")
dst = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "TestImages", "pngsuite")
os.makedirs(dst, exist_ok=True)
for name in sorted(os.listdir(os.path.join(src, "png"))):
    shutil.copy(os.path.join(src, "png", name), os.path.join(dst, name))
for name in sorted(os.listdir(os.path.join(src, "json"))):
    if not name.endswith(".json") or name.endswith("_to8.json"):
        continue
    values = json.load(open(os.path.join(src, "json", name)))
    base = os.path.join(dst, name[:-5])
    if max(values) > 255:
        open(base + ".rgba16", "wb").write(struct.pack("<%dH" % len(values), *values))
    else:
        open(base + ".rgba", "wb").write(bytes(values))
shutil.copy(os.path.join(src, "LICENSE"), os.path.join(dst, "LICENSE"))
print("imported PngSuite into", dst)
