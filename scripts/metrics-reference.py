"""scikit-image's ΔE00 and SSIM for the metric kernels' tests.

    scripts/metrics-reference.py ciede2000 PAIRS OUT   PAIRS: n·6 bytes (RGB, RGB); OUT: n float64
    scripts/metrics-reference.py ssim W H A B OUT      A, B: W·H float32 luma; OUT: W·H float64 SSIM map

SSIM is scikit-image's structural_similarity with the window Mihiraki uses
(Gaussian σ = 1.5, Wang et al.'s population covariance, data range 255).
"""
import sys

import numpy as np
from skimage.color import deltaE_ciede2000, rgb2lab
from skimage.metrics import structural_similarity

if sys.argv[1] == "ciede2000":
    pairs = np.fromfile(sys.argv[2], dtype=np.uint8).reshape(-1, 2, 3)
    first = rgb2lab(pairs[:, 0, :].reshape(1, -1, 3))
    second = rgb2lab(pairs[:, 1, :].reshape(1, -1, 3))
    deltaE_ciede2000(first, second).reshape(-1).astype(np.float64).tofile(sys.argv[3])
else:
    width, height = int(sys.argv[2]), int(sys.argv[3])
    a = np.fromfile(sys.argv[4], dtype=np.float32).reshape(height, width).astype(np.float64)
    b = np.fromfile(sys.argv[5], dtype=np.float32).reshape(height, width).astype(np.float64)
    _, full = structural_similarity(a, b, gaussian_weights=True, sigma=1.5, use_sample_covariance=False,
                                    data_range=255, full=True)
    full.astype(np.float64).tofile(sys.argv[6])
