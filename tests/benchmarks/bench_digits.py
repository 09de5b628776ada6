"""Benchmark: one drawing classified against the 1593 Semeion digits (run on demand).

``python tests/benchmarks/bench_digits.py``: canvas → grid, and the k-NN query, timed apart,
with scikit-learn's brute-force k-NN on the same features beside ours.
"""

import os
import sys
import time
from pathlib import Path

os.environ["OMP_WAIT_POLICY"] = "passive"
ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("CLASSIC_DATA_HOME", str(ROOT.parent / "shared" / "data"))

import numpy as np  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from strokes import drawings  # noqa: E402

from classic import datasets, digits  # noqa: E402


def median_time(function, repeat=200):
    for _ in range(10):
        function()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


X, y = datasets.load_semeion()
image = drawings(1, seed=0)[0][7]
grid = digits.canvas_to_grid(image)
print(
    f"canvas 280×280 → 16×16 grid           {median_time(lambda: digits.canvas_to_grid(image)) * 1e3:6.3f} ms"
)
for smooth in (False, True):
    model = digits.fit_classifier(X, y, k=5, smooth=smooth)
    oracle = KNeighborsClassifier(5, algorithm="brute").fit(digits.features(X, smooth), y)
    ours = median_time(lambda: digits.classify(model, grid, smooth))  # noqa: B023
    theirs = median_time(lambda: oracle.predict(digits.features(grid, smooth)))  # noqa: B023
    print(
        f"classify one grid, k=5, blur={smooth!s:<5}   ours {ours * 1e3:6.3f} ms   sklearn {theirs * 1e3:6.3f} ms   ratio {ours / theirs:4.2f}"
    )
