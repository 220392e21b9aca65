#!/usr/bin/env python3
"""Labelled pages for --split-wide and --crop-borders (SPEC §3b), made from
real pictures (plasma-workspace-wallpapers) and drawn manga-like pages.

    scripts/make-split-set.py OUT [--seed N] [--wide N] [--crop N] [--pairs N]

writes three books and their labels:

- OUT/wide/   wide pages. Scans: two pages of different widths joined at a
  fold up to ±5 % off the middle, with a gutter shadow of random width and
  depth (sometimes none), paper tones that may differ left and right, a
  butt join between two separately scanned pages, a slight rotation about
  the fold's middle row, noise and JPEG. Digital spreads: one picture drawn
  across the fold, whose fold is the exact middle.
- OUT/crop/   single pages. Bordered scans: a picture or drawn page inside a
  white, black or grey border 0-9 % wide on each side (each side its own),
  with noise, dust specks and a slow gradient, as JPEG. Edge pages: the art
  touches every edge (nothing may be cropped). Pale pages: one edge of the
  art fades to the border's colour (cropped no more than the limit).
- OUT/pairs/  two-page artworks cut in two, each half scanned with its own
  borders; read with --cover paired, pages 2k-1 and 2k share a spread.

- OUT/joined/ wide pages of two pages scanned apart and joined side by side
  (the families of real books that fell short): no fold shadow; the seam is
  two paper tones a few levels apart, two margins, each page with its own
  brightness, noise and a few rows' shift, and in some a picture running
  across the seam, broken there by the two scans.
- OUT/stroke/ bordered pages whose art is dark with light strokes (lines,
  hatching, speed lines) that run to the art's edge, inside a border of the
  strokes' own colour.

OUT/labels.json holds the truth: each wide page's fold, each page's content
box, and each pair's art rows. scripts/bench-split measures Mihiraki against it.
The joined and stroke families come from a generator of their own seed
stream, so the other books of a seed are what they were before them.
"""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from split_set_pages import *  # noqa: F401,F403


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wide", type=int, default=60)
    parser.add_argument("--crop", type=int, default=60)
    parser.add_argument("--pairs", type=int, default=8)
    parser.add_argument("--joined", type=int, default=24)
    parser.add_argument("--stroke", type=int, default=24)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    pictures = Pictures(rng)
    labels = {"seed": args.seed, "wide": [], "crop": [], "pairs": [], "joined": [], "stroke": []}
    for folder in ("wide", "crop", "pairs", "joined", "stroke"):
        os.makedirs(os.path.join(args.out, folder), exist_ok=True)

    def save(image, quality, folder, name):
        path = os.path.join(args.out, folder, name + (".jpg" if quality else ".png"))
        if quality:
            image.save(path, quality=quality)
        else:
            image.save(path)
        return os.path.basename(path)

    for i in range(args.wide):
        image, quality, label = wide_digital(rng, pictures) if i % 4 == 3 else wide_scan(rng, pictures)
        label["file"] = save(image, quality, "wide", f"w{i + 1:03d}")
        labels["wide"].append(label)
    kinds = ["bordered"] * 3 + ["edge", "pale"]
    for i in range(args.crop):
        image, quality, label = crop_page(rng, pictures, kinds[i % len(kinds)])
        label["file"] = save(image, quality, "crop", f"c{i + 1:03d}")
        labels["crop"].append(label)
    for i in range(args.pairs):
        h = int(rng.integers(900, 1300))
        half = int(h * rng.uniform(0.66, 0.74))
        art = pictures.crop(2 * half, h)
        pair = {"files": [], "art_top": [], "art_height": h}
        for side, content in enumerate((art[:, :half], art[:, half:])):
            sides = [int(round(rng.uniform(0, 0.09) * (half if k % 2 == 0 else h))) for k in range(4)]
            # The spine side has no border: the two halves meet there.
            sides[2 if side == 0 else 0] = 0
            value = rng.uniform(235, 255)
            page, box = bordered(rng, content, None, sides, value)
            image, quality = finish(page, rng, (85, 96))
            pair["files"].append(save(image, quality, "pairs", f"p{2 * i + 1 + side:03d}"))
            pair["art_top"].append(box[1])
            pair["box"] = pair.get("box", []) + [box]
        labels["pairs"].append(pair)
    more = np.random.default_rng([args.seed, 2])
    pictures.rng = more
    for i in range(args.joined):
        image, quality, label = joined_scan(more, pictures)
        label["file"] = save(image, quality, "joined", f"j{i + 1:03d}")
        labels["joined"].append(label)
    for i in range(args.stroke):
        image, quality, label = stroke_page(more, pictures)
        label["file"] = save(image, quality, "stroke", f"s{i + 1:03d}")
        labels["stroke"].append(label)
    with open(os.path.join(args.out, "labels.json"), "w") as f:
        json.dump(labels, f, indent=1)


if __name__ == "__main__":
    main()
