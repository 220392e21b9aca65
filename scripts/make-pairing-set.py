#!/usr/bin/env python3
"""Writes Mihiraki's labelled set for automatic pairing (SPEC §2): books of
page files in which some two-page artworks are split into two pages, with
their labels in labels.json. Deterministic from the seed.

  scripts/make-pairing-set.py OUT [--seed N] [--books N] [--family drawn|photo|tone] [--scale S]

--scale resizes every page by S (Lanczos) before it is saved: the same books
as if scanned at another resolution, so the detector's answer can be checked
not to depend on the size a page is stored at.

This file draws the drawn family; the photo and tone families, made
differently so a detector can be measured on books it was not tuned on, are
in pairing_families.py.

What it draws:
  - gray manga spreads: screentone (dot patterns at several pitches and
    angles), speed lines, figures and balloons crossing the spine, panel
    borders; and "band" spreads where only a thin band of art crosses a white
    gutter;
  - colour spreads cut from Debian's gnome-backgrounds (when installed),
    drawn again where the spine would fall on one flat colour;
  - every kind of damage two scans of one artwork show, each applied to each
    half on its own: pixels lost at the seam, a vertical shift, a scale
    difference under 1 %, gutter shadow, noise, a gamma difference, separate
    JPEG compression; and all of them at once;
  - ordinary single pages (white margins), and hard negatives: halves of two
    different artworks side by side;
  - books with no split at all; left-to-right and right-to-left books.

labels.json: {"books": [{"name", "direction", "pages", "splits": [[a, a+1],
...], "kinds": {"a": kind}, "negatives": [[a, a+1], ...], "continuing":
[[a, a+1], ...]}]} with page numbers in reading order. `continuing` holds
the photo family's two crops of one picture that continue at the spine
(pairing_families.CONTINUES): one artwork to the eye though not cut as one,
so a measurement counts neither taking nor leaving them. The photo family's
books also keep `spine_ratios`, each two-crop pair's continuation_ratio.
"""
import argparse
import json
import os

import numpy as np

import pairing_families
from pairing_set_drawn import *  # noqa: F401,F403

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--books", type=int, default=24)
    parser.add_argument("--family", choices=["drawn"] + sorted(pairing_families.FAMILIES), default="drawn",
                        help="drawn (this file), or photo or tone (pairing_families.py)")
    parser.add_argument("--scale", type=float, default=1.0, help="resize every page by this factor")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    family = Drawn() if args.family == "drawn" else pairing_families.FAMILIES[args.family]()
    os.makedirs(args.out, exist_ok=True)
    books = []
    for b in range(args.books):
        direction = "rtl" if b % 3 == 2 else "ltr"
        name = f"book{b + 1:03d}-{direction}"
        folder = os.path.join(args.out, name)
        os.makedirs(folder, exist_ok=True)
        # Every sixth book has no split at all.
        pages, splits, kinds, negatives = family.make_book(rng, b, direction, with_splits=b % 6 != 5)
        for i, (img, quality, gray) in enumerate(pages):
            save(img, os.path.join(folder, f"p{i + 1:03d}.jpg"), quality, gray, args.scale)
        # Two crops of one picture that continue at the spine are one artwork
        # to the eye: labelled apart from the hard negatives, counted neither way.
        ratios = getattr(family, "spine_ratios", None)
        joined = pairing_families.continuing(ratios) if ratios is not None else []
        book = {"name": name, "direction": direction, "pages": len(pages), "splits": splits,
                "kinds": kinds, "negatives": [n for n in negatives if n[0] not in joined],
                "continuing": [[a, a + 1] for a in joined]}
        if ratios is not None:
            book["spine_ratios"] = ratios
        books.append(book)
    with open(os.path.join(args.out, "labels.json"), "w") as f:
        json.dump({"seed": args.seed, "family": family.name, "books": books}, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
