"""The model check's cases: random options, running Mihiraki, and checking what it wrote against the model."""
import json
import os
import shutil
import subprocess
import numpy as np
from model_check_pages import *  # noqa: F401,F403
from model_check_model import *  # noqa: F401,F403


# ---------------------------------------------------------------- options

def random_options(rng, n):
    pages = list(range(1, n + 2))
    opts = {
        "layout": rng.choice(["spread"] * 4 + ["single"]),
        "direction": rng.choice(["ltr", "rtl"]),
        "cover": rng.choice(["alone", "alone", "paired"]),
        "back-cover": rng.choice(["paired", "paired", "alone"]),
        "solo": sorted(set(rng.sample(pages, rng.choice([0, 0, 0, 1, 2])))),
        "blank-before": sorted(set(rng.sample(pages, rng.choice([0, 0, 0, 1, 2])))),
        "gap": rng.choice([0, 0, 0, 1, 4, 9]),
        "fit": rng.choice(["contain"] * 4 + ["stretch"]),
        "align": rng.choice(["spine"] * 3 + ["center"]),
        "background": rng.choice(["#000000", "#000000", "#ffffff", "#336699", "#808080", "transparent", "#10203080"]),
        "blank": rng.choice(["#ffffff", "#ffffff", "#000000", "#808080", "#ff8000", "#ffffff80"]),
        "page-aspect": rng.choice([(771, 1200)] * 3 + [(1, 1.414), (3, 2)]),
        "wide-threshold": rng.choice([1.0, 1.0, 1.0, 1.5, 0.8]),
        "strip": rng.random() < 0.15,
        "format": rng.choice(["png"] * 5 + ["webp", "jpeg"] + (["avif"] if HAVE_AVIF else [])),
        "jobs": rng.choice([1, 2]),
    }
    form = rng.random()
    side = rng.randint(24, 220)
    if form < 0.4:
        opts["size"] = (None, side)
    elif form < 0.6:
        opts["size"] = (side, None)
    else:
        opts["size"] = (rng.randint(24, 260), rng.randint(24, 220))
    # SPEC §3b, drawn last so the options above are what they were before it.
    opts["split-wide"] = rng.choice([None] * 6 + ["auto", "center"])
    opts["crop-borders"] = rng.random() < 0.2
    opts["crop-limit"] = rng.choice([10, 10, 0, 3, 25])
    # Any colour with a partial alpha (SPEC §4: a flat area holds it
    # exactly), drawn after §3b for the same reason.
    def partial():
        return "#%02x%02x%02x%02x" % (rng.randrange(256), rng.randrange(256), rng.randrange(256),
                                      rng.choice([0, 1, 2, 64, 127, 128, 254, rng.randrange(256)]))
    for name in ("background", "blank"):
        if rng.random() < 0.15:
            opts[name] = partial()
    return opts


DEFAULTS = {"layout": "spread", "direction": "ltr", "cover": "alone", "back-cover": "paired", "solo": [],
            "blank-before": [], "gap": 0, "fit": "contain", "align": "spine", "background": "#000000",
            "blank": "#ffffff", "page-aspect": (771, 1200), "wide-threshold": 1.0, "strip": False,
            "format": "png", "jobs": 1, "size": (None, 120), "split-wide": None, "crop-borders": False, "crop-limit": 10}


def flags(opts):
    w, h = opts["size"]
    size = f"{'' if w is None else w}x{'' if h is None else h}"
    args = ["--size", size, "--layout", opts["layout"], "--direction", opts["direction"],
            "--cover", opts["cover"], "--back-cover", opts["back-cover"], "--gap", str(opts["gap"]),
            "--fit", opts["fit"], "--align", opts["align"], "--background", opts["background"],
            "--blank", opts["blank"], "--page-aspect", "%gx%g" % opts["page-aspect"],
            "--wide-threshold", repr(float(opts["wide-threshold"])), "--format", opts["format"],
            "--jobs", str(opts["jobs"])]
    for p in opts["solo"]:
        args += ["--solo", str(p)]
    for p in opts["blank-before"]:
        args += ["--blank-before", str(p)]
    if opts["strip"]:
        args.append("--strip")
    if opts.get("split-wide"):
        args += ["--split-wide", opts["split-wide"]]
    if opts.get("crop-borders"):
        args += ["--crop-borders", "--crop-limit", str(opts.get("crop-limit", 10))]
    return args


# ---------------------------------------------------------------- one case

def run_case(binary, book, opts, workdir):
    """Renders `book` (a list of page dicts) with Mihiraki and the model;
    returns a list of divergences (strings), empty when they agree."""
    return run_books(binary, [book], opts, workdir)[0]


def run_books(binary, books, opts, workdir):
    """Renders several books under one set of options in one `mihiraki
    render` (as a user renders a library), and checks each against the
    model; returns one list of divergences per book."""
    if os.path.exists(workdir):
        shutil.rmtree(workdir)
    drawn = []
    for number, book in enumerate(books):
        folder = os.path.join(workdir, "b%d" % number)
        os.makedirs(folder)
        pages = [write_page(page, os.path.join(folder, "p%02d" % (index + 1)))[1] for index, page in enumerate(book)]
        drawn.append((folder, pages))
    out = os.path.join(workdir, "out")
    args = [binary, "render"] + [folder for folder, _ in drawn] + ["-o", out, "--quiet"] + flags(opts)
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 or proc.stderr:
        signal = f" (signal {-proc.returncode})" if proc.returncode < 0 else ""
        return [[f"exit {proc.returncode}{signal}: {proc.stderr.strip()[:300]}"]] * len(books)
    return [check_book(os.path.join(out, os.path.basename(folder)), pages, opts, [page["format"] for page in book])
            for (folder, pages), book in zip(drawn, books)]


LOSSY_PAGES = {"jpeg", "jpeg-progressive", "webp-lossy", "avif", "jxl"}


def check_book(written, pages, opts, book_formats):
    """One rendered book against the model: plan, rectangles, colour type,
    colours and pixels."""
    sizes = [(pixels.shape[1], pixels.shape[0]) for pixels in pages]
    wide = [w / h > opts["wide-threshold"] for w, h in sizes]
    with open(os.path.join(written, "manifest.json")) as f:
        manifest = json.load(f)
    canvas = (manifest["canvas"]["width"], manifest["canvas"]["height"])
    if canvas not in canvas_sizes(opts):
        return [f"canvas {canvas} != model {canvas_sizes(opts)[0]}"]
    split = {p for p in range(1, len(sizes) + 1)
             if opts.get("split-wide") and wide[p - 1] and sizes[p - 1][0] >= 32 and sizes[p - 1][1] >= 16}
    boxes, problems = cuts(manifest, sizes, split, opts)
    if problems:
        return problems
    expected = model_manifest(sizes, wide, opts, canvas, boxes, split)
    got = [[{"side": s["side"], "page": s.get("page"), "half": s.get("half"), "rect": s["rect"]} for s in spread["slots"]]
           for spread in manifest["spreads"]]
    key = lambda spreads: [[(s["side"], s["page"], s.get("half")) for s in sp] for sp in spreads]
    if key(got) != key(expected):
        return [f"plan {plan_text(got)} != model {plan_text(expected)}"]
    for k, (a, b) in enumerate(zip(got, expected)):
        if not all(rect_allows(m["rect"], g["rect"]) for g, m in zip(a, b)):
            return [f"spread {k + 1} rects {[s['rect'] for s in a]} != model {[rect_pixels(s['rect']) for s in b]}"]
    # The rectangles agree (to the tie rule): the pixels are drawn into Mihiraki's.
    expected = got
    problems = []
    images = model_pixels(canvas, expected, pages, opts, boxes)
    background = parse_color(opts["background"])
    blank = over(parse_color(opts["blank"]), background)
    for k, (spread, model) in enumerate(zip(manifest["spreads"], images)):
        path = os.path.join(written, spread["file"])
        with Image.open(path) as im:
            mode = im.mode
            actual = to_rgba(im)
        if opts["format"] == "jpeg":
            model = flatten(model, parse_color(opts["blank"]))
        if actual.shape[:2] != model.shape[:2]:
            problems.append(f"spread {k + 1}: size {actual.shape[1]}x{actual.shape[0]}")
            continue
        if opts["format"] == "png":
            # The file's type is the smallest that holds its own pixels exactly ...
            own = expected_mode(actual)
            if mode != own:
                problems.append(f"spread {k + 1}: colour type {mode} for pixels that fit {own}")
            # ... and the model's, but where a lossy page is decoded: two libwebp or
            # libavif versions need not agree on whether a gray picture comes out exactly gray.
            want = expected_mode(model)
            lossy = any(slot["page"] is not None and book_formats[slot["page"] - 1] in LOSSY_PAGES for slot in expected[k])
            if mode != want and not lossy and not (mode == "L" and want == "RGB" and near_gray(model)):
                problems.append(f"spread {k + 1}: colour type {mode}, model {want}")
            problems += exact_colours(k, actual, model, expected[k], background, blank, canvas)
        for slot in expected[k]:
            x, y, w, h = slot["rect"]
            # Lossy encoders subsample chroma: a page a few pixels wide is theirs, not the resampler's.
            smallest = 3 if opts["format"] == "png" else 16
            if slot["page"] is None or w < smallest or h < smallest:
                continue
            x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, canvas[0]), min(y + h, canvas[1])
            if opts["format"] != "png" and x1 - x0 >= 16 and y1 - y0 >= 16:
                # A lossy encoder's 2×2 chroma and its DCT ringing bleed a page's
                # edge into a background of another colour (seed 303, case 1371:
                # the halves of a split page, 16×28 on a yellow background, 19.5 dB over the whole
                # rectangle): the page is judged two pixels inside its edges.
                x0, y0, x1, y1 = x0 + 2, y0 + 2, x1 - 2, y1 - 2
            if x1 - x0 < 3 or y1 - y0 < 3:
                continue
            score = psnr(premul(actual[y0:y1, x0:x1]), premul(model[y0:y1, x0:x1]))
            floor = PSNR_FLOOR[opts["format"]]
            # A JPEG page drawn a few pixels a side is read by libjpeg's DCT
            # scaling (shrink-on-load, 1/8 at most), which Pillow's full decode
            # does not model: over a few dozen pixels that alone reaches
            # 26-28 dB (seed 29, cases 2156 and 2666), so the lossy floor holds there.
            if book_formats[slot["page"] - 1].startswith("jpeg") and min(w, h) < 16:
                floor = min(floor, PSNR_FLOOR["jpeg"])
            if score < floor:
                problems.append(f"spread {k + 1} page {slot['page']}: PSNR {score:.1f} dB < {floor}")
    return problems


def cuts(manifest, sizes, split, opts):
    """The boxes Mihiraki drew of each page and half (SPEC §3b), from its
    manifest, checked against what the model can say without measuring:
    `center` cuts at floor(width / 2) and `auto` within the middle fifth;
    halves are the wide page's columns either side of the cut; no side loses
    more than --crop-limit. Returns (boxes, problems)."""
    boxes, problems = {}, []
    limit = opts.get("crop-limit", 10) if opts.get("crop-borders") else 0
    for spread in manifest["spreads"]:
        for slot in spread["slots"]:
            p = slot.get("page")
            if p is None:
                continue
            w, h = sizes[p - 1]
            half = slot.get("half")
            if (half is not None) != (p in split):
                return {}, [f"page {p}: half {half!r}, model {'split' if p in split else 'whole'}"]
            part = (0, 0, w, h)
            if half is not None:
                x = slot["split"]["x"]
                if opts["split-wide"] == "center" and x != w // 2:
                    problems.append(f"page {p}: split at {x}, not {w // 2}")
                if not (2 * w <= 5 * x <= 3 * w):
                    problems.append(f"page {p}: split at {x}, outside the middle fifth of {w}")
                first = half == ("a" if manifest["direction"] == "ltr" else "b")
                part = (0, 0, x, h) if first else (x, 0, w - x, h)
            box = slot.get("crop")
            if bool(opts.get("crop-borders")) != (box is not None):
                return {}, [f"page {p}: crop {box}, model {'cropped' if opts.get('crop-borders') else 'whole'}"]
            if box is None:
                box = list(part)
            else:
                px, py, pw, ph = part
                small = pw < 16 or ph < 16
                taken = [box[0] - px, box[1] - py, px + pw - box[0] - box[2], py + ph - box[1] - box[3]]
                most = [pw * limit // 100, ph * limit // 100] * 2
                if min(taken) < 0 or any(t > m for t, m in zip(taken, most)) or (small and any(taken)):
                    problems.append(f"page {p}{half or ''}: crop {box} of {list(part)} beyond --crop-limit {limit}")
            if list(box) != [0, 0, w, h]:
                boxes[(p, half)] = tuple(box)
    return boxes, problems


def near_gray(model):
    rgb = model[..., :3]
    return float(np.max(np.abs(rgb - rgb.mean(axis=-1, keepdims=True)))) < 1.0


def flatten(image, paper):
    return np.concatenate([image[..., :3] * image[..., 3:4] / 255 + np.array(paper[:3]) * (1 - image[..., 3:4] / 255),
                           np.full(image.shape[:2] + (1,), 255.0)], axis=-1)


def exact_colours(k, actual, model, slots, background, blank, canvas):
    """The background outside every rectangle and the blank inside its own,
    two pixels away from any edge, exactly: every sample, alpha included,
    whatever the alpha (SPEC §4: `#27611540` is stored as (39, 97, 21, 64)).
    `blank` is the blank colour over the background, rounded as in real
    numbers."""
    W, H = canvas
    covered = np.zeros((H, W), bool)
    for slot in slots:
        x, y, w, h = slot["rect"]
        covered[max(y - 2, 0):max(y + h + 2, 0), max(x - 2, 0):max(x + w + 2, 0)] = True
    problems = []

    def check(mask, color, what):
        if not mask.any():
            return
        want = np.array([int(np.rint(c)) for c in color])
        diff = np.abs(actual[mask] - want).max(axis=-1)
        if float(diff.max()) > 0:
            where = np.argwhere(mask)[int(np.argmax(diff))]
            problems.append(f"spread {k + 1}: {what} at {where[1]},{where[0]} is "
                            f"{actual[where[0], where[1]].astype(int).tolist()}, model {want.tolist()}")
    check(~covered, background, "background")
    for slot in slots:
        if slot["page"] is None:
            x, y, w, h = slot["rect"]
            inner = np.zeros((H, W), bool)
            inner[max(y + 2, 0):max(y + h - 2, 0), max(x + 2, 0):max(x + w - 2, 0)] = True
            check(inner, blank, "blank")
    return problems


def plan_text(spreads):
    def leaf(s):
        return "x" if s["page"] is None else f"{s['page']}{s.get('half') or ''}"

    def one(slots):
        if len(slots) == 1:
            s = slots[0]
            return f"[{leaf(s)}{'W' if s['side'] == 'wide' else ''}]"
        return "[" + "|".join(leaf(s) for s in slots) + "]"
    return " ".join(one(s) for s in spreads)
