"""The second and third families of Mihiraki's labelled pairing set, made
differently from the first (the drawn family in make-pairing-set.py), so a
detector tuned on one family can be measured on books it was not tuned on:

  photo: real photographs and illustrations (Debian's
         plasma-workspace-wallpapers, which the drawn family does not use)
         cut into pages and scanned: exposure and colour cast, scanner blur,
         a skew of up to 0.3°, shift, seam loss, gutter shadow, scale error,
         noise and 4:2:0 JPEG, all at once with random strengths. Seams are
         not filtered for detail: smooth skies and skin cross the spine.
         Hard negatives: two crops of one picture side by side (one palette,
         no continuation), and two pictures of the same mean tone.
  tone:  manga pages printed and rescanned: the art is drawn as gray levels,
         printed as binary screentone (dot and line tones at several pitches
         and angles), speed lines and panel borders, then scanned: blur,
         resampling (moiré), paper tone, JPEG q60-90, shift ±4 px, seam loss
         0-6 px, gutter shadow, 0.5 % scale error. Hard negatives share
         panel borders at the same heights, or one tone along both facing
         edges, without continuing one artwork.

Each family's `make_book(rng, index, direction, with_splits)` returns the pages in
reading order as (image, jpeg quality, gray) and the labels. The photo family
also keeps, in `spine_ratios`, each two-crop negative's `continuation_ratio`
(keyed by its first page), which make-pairing-set.py writes into labels.json.
"""
import math

import numpy as np
from pairing_scans import *  # noqa: F401,F403
from pairing_family_tone import *  # noqa: F401,F403


class Photo:
    name = "photo"

    def __init__(self):
        self.sources = plasma_pictures()
        if not self.sources:
            raise SystemExit("make-pairing-set: the photo family needs plasma-workspace-wallpapers "
                             "(scripts/bench-pairing installs it)")
        self.cache = {}

    def picture(self, index):
        if index not in self.cache:
            self.cache[index] = Image.open(self.sources[index]).convert("RGB")
        return self.cache[index]

    def window(self, rng, index, w, h):
        """A random window of picture `index` with the aspect w:h, at 1 to
        1.5 times the least scale that fills it: (x0, y0, x1, y1) in the
        picture's pixels."""
        source = self.picture(index)
        scale = max(w / source.width, h / source.height) * rng.uniform(1.0, 1.5)
        size = (math.ceil(source.width * scale), math.ceil(source.height * scale))
        x = int(rng.integers(0, size[0] - w + 1))
        y = int(rng.integers(0, size[1] - h + 1))
        return (x / scale, y / scale, min(source.width, (x + w) / scale), min(source.height, (y + h) / scale))

    def cut(self, index, box, w, h):
        return np.asarray(self.picture(index).resize((w, h), Image.LANCZOS, box=box)).astype(np.float32)

    def crop(self, rng, index, w, h):
        return self.cut(index, self.window(rng, index, w, h), w, h)

    def apart(self, rng, index, w, h):
        """Two windows of one picture that show it at the spine at heights
        SPINES_APART of a page apart (the most apart of 100 tries if none
        is): two crops at one height, or adjacent halves at one scale, would
        be one artwork."""
        first = self.window(rng, index, w, h)
        best = None
        for _ in range(100):
            second = self.window(rng, index, w, h)
            distance = spine_distance(first, second)
            if best is None or distance > best[0]:
                best = (distance, second)
            if distance >= SPINES_APART:
                break
        return self.cut(index, first, w, h), self.cut(index, best[1], w, h)

    def scanned(self, rng, half, seam_side):
        gain = rng.uniform(0.92, 1.05) * (1 + rng.uniform(-0.04, 0.04, 3))
        half = half * gain[None, None, :] + rng.uniform(-6, 6)
        return scan(rng, half, seam_side, skew=rng.uniform(-0.3, 0.3), blur=rng.uniform(0.2, 1.0))

    def make_book(self, rng, index, direction, with_splits):
        pages, splits, kinds, negatives = [], [], {}, []
        self.spine_ratios = {}
        pages.append(self.ordinary(rng))
        for _ in range(int(rng.integers(5, 9))):
            r = rng.uniform()
            if with_splits and r < 0.45:
                index = int(rng.integers(len(self.sources)))
                for _ in range(10):
                    art = self.crop(rng, index, 2 * PHOTO_W, PHOTO_H)
                    spine = art[:, PHOTO_W - 8:PHOTO_W + 8].mean(axis=(1, 2))
                    if spine.std() >= 2:  # two blank halves are no split anyone could see
                        break
                left = self.scanned(rng, art[:, :PHOTO_W], "right")
                right = self.scanned(rng, art[:, PHOTO_W:], "left")
                first, second = (left, right) if direction == "ltr" else (right, left)
                a = len(pages) + 1
                pages += [(to_image(first, False), int(rng.integers(60, 91)), False),
                          (to_image(second, False), int(rng.integers(60, 91)), False)]
                splits.append([a, a + 1])
                detail = "smooth" if spine.std() < 12 else "detailed"
                kinds[str(a)] = f"photo/{detail}"
            elif r < 0.65:
                index = int(rng.integers(len(self.sources)))
                if rng.uniform() < 0.5:
                    # Two crops of one picture: one palette, no continuation.
                    x, y = self.apart(rng, index, 2 * PHOTO_W, PHOTO_H)
                    self.spine_ratios[str(len(pages) + 1)] = round(continuation_ratio(x, y, direction), 3)
                else:
                    other = (index + 1 + int(rng.integers(len(self.sources) - 1))) % len(self.sources)
                    x, y = self.crop(rng, index, 2 * PHOTO_W, PHOTO_H), self.crop(rng, other, 2 * PHOTO_W, PHOTO_H)
                    y = y * (x.mean() / max(y.mean(), 1))  # the same mean tone
                one = x[:, :PHOTO_W] if direction == "ltr" else x[:, PHOTO_W:]
                two = y[:, PHOTO_W:] if direction == "ltr" else y[:, :PHOTO_W]
                one = self.scanned(rng, one, "right" if direction == "ltr" else "left")
                two = self.scanned(rng, two, "left" if direction == "ltr" else "right")
                a = len(pages) + 1
                pages += [(to_image(one, False), 85, False), (to_image(two, False), 85, False)]
                negatives.append([a, a + 1])
            else:
                pages.append(self.ordinary(rng))
        return pages, splits, kinds, negatives

    def ordinary(self, rng):
        """A photo book's page: a picture inside white margins and a caption."""
        page = np.full((PHOTO_H, PHOTO_W, 3), 250, np.float32)
        mx, my = int(rng.integers(50, 90)), int(rng.integers(60, 110))
        ph = int(rng.integers(400, PHOTO_H - 2 * my - 80))
        page[my:my + ph, mx:PHOTO_W - mx] = self.crop(rng, int(rng.integers(len(self.sources))), PHOTO_W - 2 * mx, ph)
        for k in range(int(rng.integers(2, 6))):
            y = my + ph + 30 + 22 * k
            if y + 8 < PHOTO_H - 20:
                page[y:y + 8, mx:mx + int(rng.integers(200, PHOTO_W - 2 * mx))] = 70
        return to_image(self.scanned(rng, page, "right"), False), 85, False


FAMILIES = {"photo": Photo, "tone": Tone}
