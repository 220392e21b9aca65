#!/usr/bin/env python3
"""The memory row of scripts/bench: `mihiraki serve`'s peak RSS under a load
of new renders at the largest canvas, against the bound docs/serve.md gives.

  memory.py MIHIRAKI WORKDIR

Books of two 5000×8000 pages (a page of the corpus's comic, enlarged to 40 Mpx) as JPEG and PNG (decoded
row by row) and as WebP and JPEG XL (decoded whole). The server runs with
--jobs 2 --cache-mb 64 --max-pixels 40000000; wrk asks, on 4 connections
for 20 s, for 4096x4096 spreads in PNG, JPEG, WebP and AVIF, every request
a new render (the background colour changes). The bound is the idle
server's RSS + the cache + jobs × (300 MiB + 9 bytes × --max-pixels).
"""
import os
import re
import subprocess
import sys
import time

MIHIRAKI, WORK = sys.argv[1], sys.argv[2]
ROOT = os.path.join(WORK, "memory")
MAX_PIXELS, JOBS, CACHE_MB = 40_000_000, 2, 64
PER_WORKER = 300 * 2**20 + 9 * MAX_PIXELS

LUA = r"""
counter = 0
counts = {}
local books = {"jpeg", "png", "webp", "jxl"}
local formats = {"png", "jpg", "webp", "avif"}
function request()
  counter = counter + 1
  local book = books[counter % 4 + 1]
  local format = formats[math.floor(counter / 4) % 4 + 1]
  local colour = string.format("%06x", (counter * 7919) % 16777216)
  return wrk.format("GET", "/api/books/" .. book .. "/spreads/" .. (counter % 2 + 1) .. "." .. format
    .. "?size=4096x4096&background=%23" .. colour)
end
function response(status, headers, body) counts[status] = (counts[status] or 0) + 1 end
function done(summary, latency, requests)
  io.write("requests ", summary.requests, "\n")
end
"""


def corpus():
    if os.path.isdir(os.path.join(ROOT, "jxl")):
        return
    from PIL import Image
    # A colour page of the benchmark's comic, enlarged to 40 Mpx (bench/make_corpus.py made it).
    comic = os.path.join(WORK, "corpus", "comic")
    source = os.path.join(comic, sorted(f for f in os.listdir(comic) if f.endswith(".jpg"))[1])
    photo = Image.open(source).convert("RGB").resize((5000, 8000), Image.LANCZOS)
    for book, ext in (("jpeg", "jpg"), ("png", "png"), ("webp", "webp"), ("jxl", "png")):
        os.makedirs(os.path.join(ROOT, book), exist_ok=True)
    for i, page in enumerate((photo, photo.transpose(Image.FLIP_LEFT_RIGHT)), start=1):
        page.save(os.path.join(ROOT, "jpeg", f"p{i}.jpg"), quality=90)
        page.save(os.path.join(ROOT, "png", f"p{i}.png"))
        page.save(os.path.join(ROOT, "webp", f"p{i}.webp"), quality=85)
        subprocess.run(["cjxl", os.path.join(ROOT, "png", f"p{i}.png"), os.path.join(ROOT, "jxl", f"p{i}.jxl"), "-e", "3"],
                       check=True, capture_output=True)


def rss(pid, field):
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(rf"{field}:\s+(\d+)", f.read()).group(1)) / 1024


def main():
    corpus()
    script = os.path.join(WORK, "wrk-memory.lua")
    with open(script, "w") as f:
        f.write(LUA)
    server = subprocess.Popen([MIHIRAKI, "serve", ROOT, "--port", "0", "--jobs", str(JOBS), "--cache-mb", str(CACHE_MB),
                               "--max-pixels", str(MAX_PIXELS), "--refresh", "3600", "--quiet"],
                              stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
        time.sleep(0.5)
        idle = rss(server.pid, "VmRSS")
        out = subprocess.run(["wrk", "-t1", "-c4", "-d20s", "--timeout", "30s", "-s", script, f"http://127.0.0.1:{port}/"],
                             capture_output=True, text=True, check=True).stdout
        peak = rss(server.pid, "VmHWM")
        answered = int(re.search(r"requests (\d+)", out).group(1))
        non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    finally:
        server.terminate()
        server.wait()
    bound = idle + CACHE_MB + JOBS * PER_WORKER / 2**20
    print(f"\nmihiraki serve peak RSS under new 4096x4096 renders (40 Mpx JPEG, PNG, WebP and JPEG XL pages; "
          f"PNG, JPEG, WebP and AVIF out; --jobs {JOBS} --cache-mb {CACHE_MB} --max-pixels {MAX_PIXELS}; wrk 4 connections, 20 s)")
    print("| idle RSS | renders answered | not 2xx | peak RSS | documented bound | peak / bound |")
    print("|---|---|---|---|---|---|")
    print(f"| {idle:.0f} MiB | {answered} | {non2xx.group(1) if non2xx else 0} | {peak:.0f} MiB | {bound:.0f} MiB | "
          f"{peak / bound:.2f} |")


if __name__ == "__main__":
    main()
