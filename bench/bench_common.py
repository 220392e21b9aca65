"""What every part of bench/run.py shares: where things are, timing a command, one book through every tool."""
import os
import shutil
import statistics
import subprocess
import sys
import time


HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORK = os.environ.get("BENCH_DIR", os.path.join(ROOT, "bench-out"))
MIHIRAKI = sys.argv[1]
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
PEERS = os.path.join(HERE, "peers.py")


def measure(args, env=None):
    """Wall seconds and peak RSS (MiB, largest single process) of a command."""
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M"] + args, capture_output=True, text=True,
                            env=dict(os.environ, **(env or {})))
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"benchmark command failed: {' '.join(args)}\n{result.stderr}")
    rss_kb = int(result.stderr.strip().splitlines()[-1])
    return wall, rss_kb / 1024


def tool_command(tool, book, manifest, out, flags=()):
    if tool == "mihiraki":
        return [MIHIRAKI, "render", book, "-o", out, "--jobs", "2", "--quiet"] + list(flags)
    return [sys.executable, PEERS, tool, manifest, book, os.path.join(out, os.path.basename(book))]


def output_bytes(folder):
    return sum(os.path.getsize(os.path.join(folder, f)) for f in os.listdir(folder)
               if f.endswith((".png", ".jpg", ".webp", ".avif")))


def psnr(manifest, book, folder):
    out = subprocess.run([sys.executable, PEERS, "psnr", manifest, book, folder], capture_output=True, text=True,
                         check=True)
    return out.stdout.strip()


def bench_book(name, tools, flags=(), title=""):
    """One book through every tool; `flags` (size, format, quality) go to
    `mihiraki plan` for the shared manifest and to `mihiraki render`."""
    book = os.path.join(WORK, "corpus", name)
    tag = name + "".join(flags).replace("-", "_")
    manifest = os.path.join(WORK, f"{tag}.json")
    with open(manifest, "w") as f:
        subprocess.run([MIHIRAKI, "plan", book, "--json"] + list(flags), stdout=f, check=True)
    times = {t: [] for t in tools}
    rss = {t: 0.0 for t in tools}
    for _ in range(RUNS):
        for tool in tools:
            out = os.path.join(WORK, "out", tool, tag)
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out, exist_ok=True)
            wall, peak = measure(tool_command(tool, book, manifest, out, flags))
            times[tool].append(wall)
            rss[tool] = max(rss[tool], peak)
    base = statistics.median(times["vips"])
    vips_bytes = output_bytes(os.path.join(WORK, "out", "vips", tag, name))
    pages = len([f for f in os.listdir(book) if f.endswith((".jpg", ".webp"))])
    spreads = open(manifest).read().count('"file"')
    print(f"\n{name}{title}: {pages} pages, {spreads} spreads, median of {RUNS} alternating runs, 2 workers each")
    print(f"| tool | time (s) | vs libvips | peak RSS (MiB) | output (MB) | bytes vs libvips | PSNR (dB) |")
    print(f"|---|---|---|---|---|---|---|")
    for tool in tools:
        folder = os.path.join(WORK, "out", tool, tag, name)
        t = statistics.median(times[tool])
        size = output_bytes(folder)
        print(f"| {tool} | {t:.2f} | {base / t:.2f}x faster | {rss[tool]:.0f} | {size / 1e6:.1f} | "
              f"{size / vips_bytes:.3f} | {psnr(manifest, book, folder)} |")
