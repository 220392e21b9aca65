#!/usr/bin/env python3
"""Writes TestImages/lying-zips/: a valid 4-page CBZ and four copies whose
central directory lies in one way each (what a damaged or hostile archive
does). Mihiraki must refuse each in one line naming the archive, never render
fewer pages than the archive names. The same files seed the archive fuzzer.
Deterministic: no time stamps, fixed pixels."""
import struct, zipfile, zlib, io, pathlib

out = pathlib.Path(__file__).resolve().parent.parent / "TestImages" / "lying-zips"
out.mkdir(parents=True, exist_ok=True)

def png(gray, width=30, height=40):
    raw = b"".join(b"\0" + bytes([gray]) * width for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))

buffer = io.BytesIO()
with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as z:
    for page in range(1, 5):
        info = zipfile.ZipInfo(f"p{page}.png", date_time=(2020, 1, 1, 0, 0, 0))
        z.writestr(info, png(40 * page))
valid = buffer.getvalue()
(out / "valid.cbz").write_bytes(valid)

end = valid.rindex(b"PK\x05\x06")
directory = struct.unpack_from("<I", valid, end + 16)[0]
records = []
at = directory
while valid[at:at + 4] == b"PK\x01\x02":
    records.append(at)
    at += 46 + sum(struct.unpack_from("<HHH", valid, at + 28))

def patched(offset, fmt, value):
    data = bytearray(valid)
    struct.pack_into(fmt, data, offset, value)
    return bytes(data)

(out / "offset-off-the-end.cbz").write_bytes(patched(records[1] + 42, "<I", 0xFFFFF000))
count = bytearray(patched(end + 10, "<H", 2))
struct.pack_into("<H", count, end + 8, 2)
(out / "count-says-2.cbz").write_bytes(bytes(count))
(out / "broken-signature.cbz").write_bytes(patched(records[2], "<I", 0x0201DEAD))
(out / "name-length-400.cbz").write_bytes(patched(records[1] + 28, "<H", 400))
