"""scripts/bench-pairing's measures: a family's seams planned, recall and false splits at a threshold, the thresholds that meet the goal."""
import collections
import json
import os
import subprocess
import sys


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAMILIES = ["drawn", "photo", "tone"]
# The goal (docs/pairing.md): every family at this recall with no false
# split, at the threshold chosen on the others together.
GOAL_RECALL = 0.93


def plan(binary, book, direction, pairing):
    run = subprocess.run([binary, "plan", book, "--json", "--direction", direction, "--pairing", pairing],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"bench-pairing: plan {book}: {run.stderr.strip()}")
    return json.loads(run.stdout)


def taken(seams, threshold):
    """The splits a threshold takes from a book's seams, as the detector takes them."""
    chosen, used = set(), set()
    for seam in sorted(seams, key=lambda s: (-s["score"], s["pages"][0])):
        a, b = seam["pages"]
        if seam["score"] >= threshold and a not in used and b not in used:
            used |= {a, b}
            chosen.add(a)
    return chosen


def measure(family, threshold):
    """(true splits found, false splits, total splits, hard negatives taken,
    hard negatives). A pair labelled continuing is counted neither way."""
    found = false = total = negatives_taken = negatives = 0
    for book in family["books"]:
        detected = taken(book["seams"], threshold) - {a for a, _ in book["continuing"]}
        truth = {a for a, _ in book["splits"]}
        found += len(detected & truth)
        false += len(detected - truth)
        total += len(truth)
        negatives += len(book["negatives"])
        negatives_taken += sum(a in detected for a, _ in book["negatives"])
    return found, false, total, negatives_taken, negatives


def unjudged(family):
    """Splits the detector does not judge (no seam in the manifest): too
    little drawn at the seam on either page, so no threshold finds them."""
    return sum(len({a for a, _ in book["splits"]} - {s["pages"][0] for s in book["seams"]}) for book in family["books"])


def lowest_clean_threshold(family):
    """The lowest threshold (in steps of 0.001) at which the family has no false split."""
    candidates = sorted({0.0} | {round(s["score"] + 0.001, 3) for b in family["books"] for s in b["seams"]})
    for threshold in candidates:
        if measure(family, threshold)[1] == 0:
            return threshold
    return 1.001


def highest_reaching(family):
    """The highest threshold (a confidence, to 0.001) at which the family reaches the goal's recall."""
    for threshold in sorted({0.0} | {round(s["score"], 3) for b in family["books"] for s in b["seams"]}, reverse=True):
        found, _, total, _, _ = measure(family, threshold)
        if found / max(total, 1) >= GOAL_RECALL:
            return threshold
    return 0.0


def middle_threshold(others):
    """(threshold, low, high): the thresholds at which every family of
    `others` meets the goal run from `low` (the lowest with no false split
    on them together) to `high` (the highest at which each still reaches the
    goal's recall); the threshold is their middle, or `low` where there are
    none."""
    low = lowest_clean_threshold({"books": [book for family in others for book in family["books"]]})
    high = min(highest_reaching(family) for family in others)
    return (round((low + high) / 2, 3) if high >= low else low), low, high


def load(binary, folder, name, seed, books, show, scale):
    labels_path = os.path.join(folder, "labels.json")
    labels = json.load(open(labels_path)) if os.path.exists(labels_path) else None
    # A set whose labels have no `continuing` was made by an older generator:
    # made again (its pages come out the same; its labels gain that).
    if labels is None or any("continuing" not in b for b in labels["books"]):
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/make-pairing-set.py"), folder, "--family", name,
                        "--seed", str(seed), "--books", str(books), "--scale", str(scale)], check=True)
        labels = json.load(open(labels_path))
    found, total = collections.Counter(), collections.Counter()
    changed, no_split = 0, 0
    for book in labels["books"]:
        path = os.path.join(folder, book["name"])
        auto = plan(binary, path, book["direction"], "auto")
        book["seams"] = auto.get("seams", [])
        detected = {tuple(s) for s in auto.get("splits", [])}
        for a, b in book["splits"]:
            kind = book["kinds"][str(a)]
            total[kind] += 1
            found[kind] += (a, b) in detected
            if show and (a, b) not in detected:
                print(f"  miss: {name} {book['name']} pages {a}+{b} ({kind})")
        for a, b in sorted(detected - {tuple(s) for s in book["splits"]}):
            if show:
                print(f"  {'continuing' if [a, b] in book['continuing'] else 'false split'}: {name} {book['name']} pages {a}+{b}")
        if not book["splits"]:
            no_split += 1
            changed += plan(binary, path, book["direction"], "static")["spreads"] != auto["spreads"]
    labels["per_kind"] = (found, total)
    labels["unjudged"] = unjudged(labels)
    labels["unchanged"] = (no_split - changed, no_split)
    return labels
