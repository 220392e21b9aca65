"""bench/run.py's speed parts: WebP pages, per-stage profiles, thumbnails against their decode floor, scaling."""
import os
import shutil
import statistics
import subprocess
import sys
from bench_common import *  # noqa: F401,F403


def webp_corpus():
    """The manga book as WebP pages (Pillow, quality 90), as downloaders save them."""
    from PIL import Image
    source = os.path.join(WORK, "corpus", "manga")
    book = os.path.join(WORK, "corpus", "manga-webp")
    os.makedirs(book, exist_ok=True)
    for name in sorted(os.listdir(source)):
        target = os.path.join(book, name.replace(".jpg", ".webp"))
        if name.endswith(".jpg") and not os.path.exists(target):
            Image.open(os.path.join(source, name)).save(target, quality=90, method=4)


def webp_against_jpeg():
    """The same 40 pages as WebP and as JPEG through Mihiraki alone, alternating:
    the WebP book's time and peak RSS against the JPEG book's (a WebP page
    is decoded whole, a JPEG page row by row)."""
    times = {"manga": [], "manga-webp": []}
    rss = {"manga": 0.0, "manga-webp": 0.0}
    for _ in range(RUNS):
        for name in times:
            out = os.path.join(WORK, "out", "webp-vs-jpeg", name)
            shutil.rmtree(out, ignore_errors=True)
            wall, peak = measure([MIHIRAKI, "render", os.path.join(WORK, "corpus", name), "-o", out, "--jobs", "2", "--quiet"])
            times[name].append(wall)
            rss[name] = max(rss[name], peak)
    jpeg, webp = statistics.median(times["manga"]), statistics.median(times["manga-webp"])
    print(f"\nThe manga book as WebP against the same pages as JPEG (Mihiraki, median of {RUNS} alternating runs)")
    print("| pages | time (s) | peak RSS (MiB) |")
    print("|---|---|---|")
    print(f"| JPEG | {jpeg:.2f} | {rss['manga']:.0f} |")
    print(f"| WebP | {webp:.2f} | {rss['manga-webp']:.0f} |")
    print(f"| WebP / JPEG | {webp / jpeg:.2f}x | {rss['manga-webp'] / rss['manga']:.2f}x |")


def profile_line(name, flags=()):
    """Mihiraki's per-stage profile line (one worker), as it prints it."""
    book = os.path.join(WORK, "corpus", name)
    out = os.path.join(WORK, "out", "profile")
    shutil.rmtree(out, ignore_errors=True)
    result = subprocess.run([MIHIRAKI, "render", book, "-o", out, "--jobs", "1"] + list(flags), capture_output=True,
                            text=True, env=dict(os.environ, MIHIRAKI_PROFILE="1"), check=True)
    line = next(l for l in result.stderr.splitlines() if l.startswith("profile:"))
    return line[len("profile: "):]


def profile(name, flags=()):
    print(f"- {name} {' '.join(flags)} (one worker): {profile_line(name, flags)}")


def profile_ms(name, flags=()):
    """The profile as {stage: ms per spread}, and the spread count."""
    line = profile_line(name, flags)
    stages = {part.split()[0]: float(part.split()[1]) for part in line.split(" per spread")[0].split(", ")}
    return stages, int(line.split("(")[1].split()[0])


def floor_bench():
    """x300 thumbnails against their decode floor (bench/floor.py): the same
    pages decoded at the same scales by libjpeg-turbo on two workers, nothing
    else. Alternating runs; the ratio is the target of the thumbnail work.
    Then the floor with what any tool writing these files pays on top:
    encoding the same spreads (Mihiraki's own encode time, split over two
    workers) and starting a process (`mihiraki --version`). libvips runs in
    the same rounds, so the last column is the most any tool could be ahead
    of it: libvips's time over that floor."""
    print(f"\nx300 against the decode floor (median of {RUNS} alternating runs, 2 workers each)")
    print("| book | format | Mihiraki (s) | decode floor (s) | Mihiraki / floor | + encode (s) | + start-up (s) "
          "| Mihiraki / that | libvips (s) | libvips / that |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for label, flags in (("png", []), ("webp", ["--format", "webp", "--quality", "85"])):
        for name in ("manga", "comic"):
            book = os.path.join(WORK, "corpus", name)
            sized = ["--size", "x300"] + flags
            manifest = os.path.join(WORK, f"{name}-{label}-floor.json")
            with open(manifest, "w") as f:
                subprocess.run([MIHIRAKI, "plan", book, "--json"] + sized, stdout=f, check=True)
            ours, floor, start, vips = [], [], [], []
            for _ in range(RUNS):
                for tool, times in (("mihiraki", ours), ("vips", vips)):
                    out = os.path.join(WORK, "out", "floor", tool, name)
                    shutil.rmtree(out, ignore_errors=True)
                    os.makedirs(out, exist_ok=True)
                    times.append(measure(tool_command(tool, book, manifest, out, sized))[0])
                floor.append(float(subprocess.run([sys.executable, os.path.join(HERE, "floor.py"), manifest, book, "1"],
                                                  capture_output=True, text=True, check=True).stdout))
                start.append(min(measure([MIHIRAKI, "--version"])[0] for _ in range(5)))
            stages, spreads = profile_ms(name, sized)
            encode = stages["encode"] * spreads / 2 / 1000
            mine, least, begin = statistics.median(ours), statistics.median(floor), statistics.median(start)
            theirs, bound = statistics.median(vips), least + encode + begin
            print(f"| {name} | {label} | {mine:.3f} | {least:.3f} | {mine / least:.2f}x | {encode:.3f} | {begin:.3f} | "
                  f"{mine / bound:.2f}x | {theirs:.3f} | {theirs / bound:.2f}x |")


THUMBNAILS = [("png", []), ("webp", ["--format", "webp", "--quality", "85"]),
              ("jpeg", ["--format", "jpeg", "--quality", "85"])]


def thumbnails(tools):
    """x300 spreads (386x300 for 771x1200 pages), as thumbnail pipelines ask
    for them: PNG for both books, WebP and JPEG at quality 85, each against
    libvips writing the same format."""
    tools = [t for t in tools if t in ("mihiraki", "vips", "pillow")]
    for name in ("manga", "comic"):
        for label, flags in THUMBNAILS:
            bench_book(name, tools, ["--size", "x300"] + flags, title=f" at x300, {label}")
    floor_bench()
    print("\nMihiraki per-stage profile at x300, ms per spread:")
    for name in ("manga", "comic"):
        profile(name, ["--size", "x300"])


def scaling():
    source = os.path.join(WORK, "corpus", "manga")
    big = os.path.join(WORK, "corpus", "manga400")
    if not os.path.isdir(big):
        os.makedirs(big)
        pages = sorted(f for f in os.listdir(source) if f.endswith(".jpg"))
        for i in range(400):
            os.symlink(os.path.join(source, pages[i % len(pages)]), os.path.join(big, f"p{i + 1:04d}.jpg"))
    rows = []
    for name in ("manga", "manga400"):
        out = os.path.join(WORK, "out", "scaling")
        shutil.rmtree(out, ignore_errors=True)
        wall, peak = measure([MIHIRAKI, "render", os.path.join(WORK, "corpus", name), "-o", out, "--jobs", "2",
                              "--quiet"])
        rows.append((name, wall, peak))
    print("\n| book | pages | time (s) | ms per page | peak RSS (MiB) |")
    print("|---|---|---|---|---|")
    for (name, wall, peak), pages in zip(rows, (40, 400)):
        print(f"| {name} | {pages} | {wall:.2f} | {wall / pages * 1000:.1f} | {peak:.0f} |")
    print(f"time x{rows[1][1] / rows[0][1]:.1f} for 10x pages; peak RSS x{rows[1][2] / rows[0][2]:.2f}")
