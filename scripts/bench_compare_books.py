"""scripts/bench-compare's books and verdicts: pictures cut into pages, renders, comparisons in every output."""
import json
import os
import shutil
import subprocess
import numpy as np
from PIL import Image
from pairing_families import plasma_pictures  # noqa: E402


W, H = 240, 360
FLAGS = ["--page-aspect", f"{W}x{H}", "--size", f"x{H}", "--quiet"]


def pictures(rng, count):
    sources = plasma_pictures()
    if not sources:
        raise SystemExit("bench-compare: needs plasma-workspace-wallpapers (MIHIRAKI_BOOTSTRAP_PAIRING=1 scripts/bootstrap)")
    out = []
    for _ in range(count):
        image = Image.open(rng.choice(sources)).convert("RGB")
        scale = rng.uniform(0.15, 0.4)
        small = image.resize((max(W + 8, int(image.width * scale)), max(H + 8, int(image.height * scale))), Image.LANCZOS)
        x, y = rng.randrange(0, small.width - W - 6), rng.randrange(0, small.height - H - 6)
        out.append((small, x, y))
    return out


def page(source, dx=0, dy=0):
    small, x, y = source
    # The content moved right and down by (dx, dy): the crop's window moves the other way.
    picture = small.crop((x + 3 - dx, y + 3 - dy, x + 3 - dx + W, y + 3 - dy + H))
    # Levels up to 253, so `tone` lifts every level by 2 (a near-white 254 clipped
    # to 255 while its other channels rise would change its hue, by up to 1.6 ΔE00).
    return Image.fromarray(np.minimum(np.asarray(picture), 253).astype(np.uint8))


def write_book(folder, images):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for i, image in enumerate(images, 1):
        image.save(os.path.join(folder, f"p{i:02d}.png"))


def render(binary, book, out, *flags):
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([binary, "render", book, "-o", out, *FLAGS, *flags], check=True)
    return os.path.join(out, os.path.basename(book))


METRICS = ["pixelmatch", "ciede2000", "ssim"]


def compare(binary, a, b, metric="pixelmatch"):
    run = subprocess.run([binary, "compare", a, b, "--json", "--shift-tolerance", "3", "--metric", metric],
                         capture_output=True, text=True)
    if run.returncode not in (0, 1):
        raise SystemExit(f"bench-compare: compare failed: {run.stderr.strip()}")
    return json.loads(run.stdout)


def slots(document):
    return {(s["page"], s["side"]) if s["page"] is None else s["page"]: dict(s, file=f["file"])
            for f in document["files"] for s in f["slots"]}


def near_black(folder, slot):
    """Whether every region of a changed slot holds near-black pixels on the
    expected side: a tenth of them under luma 40 (SSIM flags a dark line's
    edge, in a box that also holds what it runs through)."""
    image = np.asarray(Image.open(os.path.join(folder, slot["file"])).convert("L")).astype(float)
    return all(np.percentile(image[y:y + h, x:x + w], 10) < 40 for x, y, w, h in (r["canvasBox"] for r in slot["regions"]))


NOT_HELD = {("ciede2000", "canvas")}

try:  # run with the python of a venv holding the wheel, Python's verdicts are held too
    import mihiraki
except ImportError:
    mihiraki = None


def other_outputs(binary, expected, actual, document, folder):
    """The same verdicts in JUnit (a failing case for each slot that does not
    pass, and for the plan when it changed) and in the report (the plan's
    lines on top, each slot's line that is not the same on its spread)."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    junit, report = os.path.join(folder, "junit.xml"), os.path.join(folder, "report")
    subprocess.run([binary, "compare", expected, actual, "--shift-tolerance", "3", "--junit", junit, "--report", report],
                   capture_output=True)
    import xml.etree.ElementTree as ET
    failing = {f"{case.get('classname')}/{case.get('name')}" for case in ET.parse(junit).iter("testcase")
               if case.find("failure") is not None}
    book = os.path.basename(expected)
    want = {f"{book}/{f['file'].rsplit('.', 1)[0]}/" + (f"page-{s['page']}" if s["page"] else "background")
            for f in document["files"] for s in f["slots"] if s["verdict"] not in ("same", "moved")}
    if document["plan"]:
        want.add(f"{book}/plan")
    wrong = [] if failing == want else [f"JUnit fails {sorted(failing)}, verdicts {sorted(want)}"]
    html = open(os.path.join(report, "index.html"), encoding="utf-8").read()
    text = subprocess.run([binary, "compare", expected, actual, "--shift-tolerance", "3"], capture_output=True,
                          text=True).stdout.splitlines()
    import html as escaping
    missing = [line for line in text if not line.startswith("ok:") and f"<li>{escaping.escape(line, quote=False)}</li>" not in html]
    wrong += [f"not in the report: {missing}"] if missing else []
    if mihiraki is not None:
        result = mihiraki.compare(expected, actual, shift_tolerance=3)
        verdicts = sorted((s["file"], s["page"] or 0, s["side"], s["verdict"]) for s in result.slots)
        want = sorted((f["file"], s["page"] or 0, s["side"], s["verdict"]) for f in document["files"] for s in f["slots"])
        if verdicts != want or result.plan != document["plan"] or bool(result) != document["ok"]:
            wrong.append("Python's compare gives other verdicts")
    return wrong


def iou(a, b):
    w = max(0, min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]))
    h = max(0, min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]))
    return w * h / (a[2] * a[3] + b[2] * b[3] - w * h)
