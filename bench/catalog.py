#!/usr/bin/env python3
"""The catalog row of scripts/bench: `mihiraki serve` over a library of
100,000 one-page books.

  catalog.py MIHIRAKI WORKDIR

Makes WORKDIR/library100k once: 1,000 series of 100 volumes, each volume a
folder holding one page, every page a hard link to one of two copies of a
bench page (ext4 allows 65,000 links to a file). Then measures:
- the first scan (the server answers nothing before it): `serve` started to
  its "serving" line, and the scan's own duration from /metrics;
- the first page of the list (`/api/books`, limit 1000) right after;
- rescans of the unchanged tree (`--refresh 1`, a request every 0.2 s keeps
  the list fresh): each rescan's duration, and the server's CPU share;
- one new volume: how long until it is listed.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request

MIHIRAKI, WORK = sys.argv[1], sys.argv[2]
ROOT = os.path.join(WORK, "library100k")


def make_library():
    marker = os.path.join(ROOT, ".complete")
    if os.path.exists(marker):
        return
    shutil.rmtree(ROOT, ignore_errors=True)
    source = os.path.join(WORK, "corpus", "manga", sorted(os.listdir(os.path.join(WORK, "corpus", "manga")))[0])
    copies = [os.path.join(ROOT, f".page{k}.jpg") for k in range(2)]
    os.makedirs(ROOT)
    for copy in copies:
        shutil.copy(source, copy)
    for series in range(1000):
        for volume in range(100):
            folder = os.path.join(ROOT, f"series{series:04d}", f"vol{volume:03d}")
            os.makedirs(folder)
            os.link(copies[series // 500], os.path.join(folder, "p001.jpg"))
    open(marker, "w").close()


def get(port, path):
    return urllib.request.urlopen(f"http://127.0.0.1:{port}{path}").read().decode()


def scan_seconds(port):
    return float(re.search(r"\nmihiraki_catalog_scan_duration_seconds (\S+)", get(port, "/metrics")).group(1))


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    make_library()
    start = time.perf_counter()
    server = subprocess.Popen([MIHIRAKI, "serve", ROOT, "--port", "0", "--quiet", "--refresh", "1"],
                              stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
        ready = time.perf_counter() - start
        first_scan = scan_seconds(port)
        t0 = time.perf_counter()
        listed = get(port, "/api/books?limit=1000")
        first_page = time.perf_counter() - t0
        total = int(re.search(r'"total": ?(\d+)', listed).group(1))
        rescans, cpu0, wall0 = set(), cpu_seconds(server.pid), time.perf_counter()
        while time.perf_counter() - wall0 < 12:
            get(port, "/api/books?limit=1")
            rescans.add(scan_seconds(port))
            time.sleep(0.2)
        share = (cpu_seconds(server.pid) - cpu0) / (time.perf_counter() - wall0)
        rescans.discard(first_scan)
        new = os.path.join(ROOT, "series0500", "vol100")
        shutil.rmtree(new, ignore_errors=True)
        os.makedirs(new)
        shutil.copy(os.path.join(ROOT, ".page1.jpg"), os.path.join(new, "p001.jpg"))
        t1 = time.perf_counter()
        while "series0500/vol100" not in get(port, "/api/books?offset=50000&limit=200"):
            time.sleep(0.05)
        noticed = time.perf_counter() - t1
        shutil.rmtree(new)
    finally:
        server.terminate()
        server.wait()
    print(f"\nmihiraki serve over {total:,} one-page books (hard links), --refresh 1")
    print("| measure | value |")
    print("|---|---|")
    print(f"| first scan (from /metrics) | {first_scan:.2f} s |")
    print(f"| serve started to answering | {ready:.2f} s |")
    print(f"| first page of 1,000 after the scan | {first_page * 1000:.0f} ms |")
    if rescans:
        print(f"| rescan of the unchanged tree, median of {len(rescans)} | {statistics.median(sorted(rescans)):.2f} s |")
    print(f"| CPU while rescanning every second under requests | {share * 100:.0f} % of a core |")
    print(f"| a new volume listed after | {noticed:.2f} s |")


if __name__ == "__main__":
    main()
