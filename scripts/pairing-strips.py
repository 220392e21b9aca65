#!/usr/bin/env python3
"""Measures of two facing edges that `--pairing auto` does not take yet, on
strips 24 columns deep, replayed against the detector on the labelled sets
(docs/pairing.md, "Strips 24 columns deep").

  scripts/pairing-strips.py [--seeds 1,2,4,5] [--design 1,2,4] [--sets DIR] [--binary PATH]

For every pair of consecutive pages the detector judges (`plan --explain`
of each book), three measures of the pages' facing strips (luma, 512 bands
from top to bottom, the 24 columns next to the edge at full resolution,
column 0 at the edge):

  paper against ink: the share of bands where one page is paper white
      across all 24 columns (within 14 levels of each column's own white,
      so a gutter shadow is not ink) while the other page is ink (40 levels
      under its columns' white) over its 12 columns next to the edge and
      over columns 6-11 alone, at every shift of up to 4 bands: a gutter or
      a white margin that meets a filled area at the spine;
  lines that continue: on each strip, the dark lines at 25 slopes (up to
      1.2 bands a column either way, the flat ones left out) that stand out
      from everything 4-10 bands above and below them (a line tone's
      parallel lines do not), then the share of either page's line
      strength that the other page has at the mirrored slope and the same
      height (within 3 bands and one slope step);
  tones apart: the share of bands where the two pages' darkness relative to
      their columns' white (6 columns at the edge, a box of 9 bands)
      differs by more than 0.2 at every shift of up to 4 bands.

Then the twelve cells of the goal (each family at the lowest threshold with
no false split on the other two of its seed, recall >= 0.93 and no false
split) for the detector's confidence as it is and adjusted by each measure,
as `scripts/bench-pairing` counts them. The adjustment is added to a seam's
confidence after its margin; the rivals a page is held against are not
rescored, so the figures are a replay, not a detector. Sets are made as
`scripts/bench-pairing --sets DIR` makes them.

The detector now adds the first two itself (MihirakiAnalysis/Pairing/StripScore.swift), so a
replay on top of today's build counts them twice: the table in
docs/pairing.md replays a build of the detector without them, whose
confidences are the strength less its shortfall alone.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys

import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAMILIES = ["drawn", "photo", "tone"]
BANDS, DEPTH = 512, 24
SLOPES = np.linspace(-1.2, 1.2, 25)
EXPLAIN = re.compile(r"# pages (\d+)\+\d+: .*?\(confidence ([-\d.]+): ")


def strips(path):
    """The page's left and right strips: BANDS × DEPTH luma band means, column 0 at the edge."""
    luma = np.asarray(Image.open(path).convert("L"), dtype=np.float64)
    bounds = np.linspace(0, luma.shape[0], BANDS + 1).astype(int)
    heights = np.diff(bounds)[:, None]
    left = np.add.reduceat(luma[:, :DEPTH], bounds[:-1], axis=0) / heights
    right = np.add.reduceat(luma[:, ::-1][:, :DEPTH], bounds[:-1], axis=0) / heights
    return left, right


def darkness(strip):
    """How far each band falls under its column's white (98th percentile), as a share of that white."""
    white = np.percentile(strip, 98, axis=0)[None, :]
    return 1 - strip / np.maximum(white, 1), white - strip


def held(mask, reach):
    """Bands where mask holds at every shift of up to `reach` bands."""
    out = mask.copy()
    for shift in range(1, reach + 1):
        out[shift:] &= mask[:-shift]
        out[:-shift] &= mask[shift:]
        out[:shift] = False
        out[-shift:] = False
    return out


def paper_against_ink(a, b, reach=4, white_tolerance=14, ink=40):
    count = 0
    for paper, other in ((a, b), (b, a)):
        _, below_paper = darkness(paper)
        _, below_other = darkness(other)
        white = below_paper.max(axis=1) <= white_tolerance
        inked = (below_other[:, :12].mean(axis=1) >= ink) & (below_other[:, 6:12].mean(axis=1) >= ink)
        count += np.sum(white & held(inked, reach))
    return count / (2 * BANDS)


def line_map(strip, floor=0.04, near=4, far=10):
    """Line strength by edge height and slope: the strip's darkness along each slope, less the
    strongest response near-far bands above or below (a repeating pattern answers there too)."""
    dark, _ = darkness(strip)
    rows = np.arange(BANDS)[:, None].astype(np.float64)
    columns = np.arange(DEPTH)[None, :]
    response = np.zeros((BANDS, len(SLOPES)))
    for i, slope in enumerate(SLOPES):
        y = np.clip(rows + slope * columns, 0, BANDS - 1)
        below = np.floor(y).astype(int)
        above = np.minimum(below + 1, BANDS - 1)
        t = y - below
        response[:, i] = ((1 - t) * dark[below, columns] + t * dark[above, columns]).mean(axis=1)
    padded = np.pad(response, ((far, far), (0, 0)), mode="edge")
    ring = np.full_like(response, -np.inf)
    for d in list(range(-far, -near + 1)) + list(range(near, far + 1)):
        ring = np.maximum(ring, padded[far + d:far + d + BANDS])
    return np.clip(response - ring - floor, 0, None)


def spread_max(m, dy, ds):
    out = m.copy()
    for y in range(-dy, dy + 1):
        for s in range(-ds, ds + 1):
            shifted = np.full_like(m, 0.0)
            ys = slice(max(0, y), BANDS + min(0, y)); yd = slice(max(0, -y), BANDS + min(0, -y))
            ss = slice(max(0, s), m.shape[1] + min(0, s)); sd = slice(max(0, -s), m.shape[1] + min(0, -s))
            shifted[yd, sd] = m[ys, ss]
            out = np.maximum(out, shifted)
    return out


def lines_continue(map_a, map_b, flat=0.15):
    """(share of line strength matched across the seam, total line strength)."""
    a = map_a[:, ::-1]  # a line leaving one page at slope m enters the other at -m along its strip
    keep = np.abs(SLOPES) >= flat
    a, b = a[:, keep], map_b[:, keep]
    total = a.sum() + b.sum()
    if total <= 1e-9:
        return 0.0, 0.0
    matched = np.minimum(a, spread_max(b, 3, 1)).sum() + np.minimum(b, spread_max(a, 3, 1)).sum()
    return matched / total, total


def tones_apart(a, b, reach=4, apart=0.2):
    def profile(strip):
        dark, _ = darkness(strip)
        v = dark[:, :6].mean(axis=1)
        return np.convolve(np.pad(v, 4, mode="edge"), np.ones(9) / 9, mode="valid")
    pa, pb = profile(a), profile(b)
    best = np.full(BANDS, np.inf)
    for shift in range(-reach, reach + 1):
        d = np.full(BANDS, np.inf)
        lo, hi = max(0, -shift), min(BANDS, BANDS - shift)
        d[lo:hi] = np.abs(pa[lo:hi] - pb[lo + shift:hi + shift])
        best = np.minimum(best, d)
    return float(np.mean(best > apart))


def seams_of(binary, folder, family, seed):
    labels = json.load(open(os.path.join(folder, "labels.json")))
    out = []
    for book in labels["books"]:
        path = os.path.join(folder, book["name"])
        run = subprocess.run([binary, "plan", path, "--pairing", "auto", "--explain", "--direction", book["direction"]],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"pairing-strips: plan {path}: {run.stderr.strip()}")
        files = sorted(f for f in os.listdir(path) if not f.startswith("."))
        cache, maps = {}, {}

        def edge(page, side):
            if page not in cache:
                cache[page] = strips(os.path.join(path, files[page - 1]))
            return cache[page][side]

        def line_map_of(page, side):
            if (page, side) not in maps:
                maps[(page, side)] = line_map(edge(page, side))
            return maps[(page, side)]

        splits = {a for a, _ in book["splits"]}
        for line in run.stdout.splitlines():
            m = EXPLAIN.match(line)
            if not m:
                continue
            first = int(m[1])
            # The facing edges: in LTR the first page's right and the second's left.
            sa, sb = (1, 0) if book["direction"] == "ltr" else (0, 1)
            a, b = edge(first, sa), edge(first + 1, sb)
            matched, strength = lines_continue(line_map_of(first, sa), line_map_of(first + 1, sb))
            out.append(dict(family=family, seed=seed, book=book["name"], first=first, confidence=float(m[2]),
                            split=first in splits, ink=paper_against_ink(a, b), lines=matched,
                            line_strength=strength, apart=tones_apart(a, b)))
    total = sum(len(book["splits"]) for book in labels["books"])
    return out, total


def taken(seams, threshold):
    chosen, used = set(), set()
    for s in sorted(seams, key=lambda s: (-s["c"], s["first"])):
        a = s["first"]
        if s["c"] >= threshold and a not in used and a + 1 not in used:
            used |= {a, a + 1}
            chosen.add(a)
    return chosen


def count(seams, threshold):
    books = collections.defaultdict(list)
    for s in seams:
        books[(s["family"], s["seed"], s["book"])].append(s)
    found = false = 0
    for book in books.values():
        detected, truth = taken(book, threshold), {s["first"] for s in book if s["split"]}
        found += len(detected & truth)
        false += len(detected - truth)
    return found, false


def lowest_clean(seams):
    for threshold in sorted({0.0} | {round(s["c"] + 0.001, 3) for s in seams}):
        if count(seams, threshold)[1] == 0:
            return threshold
    return 1.001


def cells(seams, totals, seeds):
    met, recalls, falses = 0, [], 0
    for seed in seeds:
        for family in FAMILIES:
            mine = [s for s in seams if s["seed"] == seed and s["family"] == family]
            others = [s for s in seams if s["seed"] == seed and s["family"] != family]
            found, false = count(mine, lowest_clean(others))
            recall = found / totals[(family, seed)]
            recalls.append(recall)
            falses += false
            met += recall >= 0.93 and false == 0
    return met, min(recalls), sum(recalls) / len(recalls), falses


VARIANTS = {
    "the detector as it is": lambda s: 0.0,
    "paper against ink, 2 × its share over 0.02": lambda s: -2 * max(0.0, s["ink"] - 0.02),
    "lines that continue, 0.3 × (share − 0.4) where lines are drawn": lambda s: 0.3 * (s["lines"] - 0.4) if s["line_strength"] > 20 else 0.0,
    "tones apart, 0.5 × its share over 0.05": lambda s: -0.5 * max(0.0, s["apart"] - 0.05),
    "paper against ink and lines that continue": lambda s: -2 * max(0.0, s["ink"] - 0.02) + (0.3 * (s["lines"] - 0.4) if s["line_strength"] > 20 else 0.0),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", default="1,2,4,5")
    parser.add_argument("--design", default="1,2,4", help="the seeds the measures were designed on; the rest are reported apart")
    parser.add_argument("--sets", default=os.path.join(ROOT, "bench-out/pairing-sets"))
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/mihiraki"))
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    design = [s for s in seeds if s in {int(x) for x in args.design.split(",")}]
    held_out = [s for s in seeds if s not in design]
    seams, totals = [], {}
    for seed in seeds:
        for family in FAMILIES:
            folder = os.path.join(args.sets, f"{family}-{seed}")
            if not os.path.exists(os.path.join(folder, "labels.json")):
                subprocess.run([sys.executable, os.path.join(ROOT, "scripts/make-pairing-set.py"), folder,
                                "--family", family, "--seed", str(seed)], check=True)
            found, totals[(family, seed)] = seams_of(args.binary, folder, family, seed)
            seams += found
    print(f"{len(seams)} seams judged on seeds {','.join(map(str, seeds))}")
    for kind in ("ink", "lines", "apart"):
        for split in (True, False):
            values = [s[kind] for s in seams if s["split"] == split]
            print(f"  {kind:6} {'splits' if split else 'others':6} quartiles "
                  + " ".join(f"{q:.3f}" for q in np.percentile(values, [25, 50, 75])))
    groups = [("design seeds " + ",".join(map(str, design)), design)] + \
             ([("held out " + ",".join(map(str, held_out)), held_out)] if held_out else [])
    print("\n| adjustment | " + " | ".join(f"{name}: cells met, least, mean recall, false splits" for name, _ in groups) + " |")
    print("|---|" + "---|" * len(groups))
    for name, adjust in VARIANTS.items():
        for s in seams:
            s["c"] = s["confidence"] + adjust(s)
        parts = []
        for _, group in groups:
            met, least, mean, falses = cells(seams, totals, group)
            parts.append(f"{met}/{3 * len(group)}, {least:.3f}, {mean:.3f}, {falses}")
        print(f"| {name} | " + " | ".join(parts) + " |")


if __name__ == "__main__":
    main()
