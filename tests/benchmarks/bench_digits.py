"""Benchmark: one drawing classified against the 1593 Semeion digits (run on demand).

``python tests/benchmarks/bench_digits.py``: canvas → grid and verdict, and the query for each
rung of the ladder, timed apart, with scikit-learn's brute-force Euclidean k-NN on the same
features beside ours (it has no shift or tangent distance: the comparison shows their cost).
Then the Evaluation tab's search for every setting a user can pick, uncached, beside the 2 s goal.
"""

import os
import sys
import time
from pathlib import Path

os.environ["OMP_WAIT_POLICY"] = "passive"
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as app.py keeps BLAS: one thread per process
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
    f"canvas 280×280 → verdict and grid     {median_time(lambda: digits.read_drawing(image)) * 1e3:6.3f} ms"
)
for name, params in digits.RUNGS:
    model = digits.DigitClassifier(**params).fit(X, y)
    features = digits.blur(X, params.get("blur", 0.0))
    oracle = KNeighborsClassifier(n_neighbors=params.get("k", 1), algorithm="brute").fit(features, y)
    ours = median_time(lambda: model.vote(grid.reshape(1, -1)))  # noqa: B023
    theirs = median_time(lambda: oracle.predict(digits.blur(grid, params.get("blur", 0.0))))  # noqa: B023
    print(
        f"one drawing, {name:<17} ours {ours * 1e3:6.3f} ms   sklearn Euclidean k-NN {theirs * 1e3:6.3f} ms"
        f"   goal ≤ 150 ms a stroke"
    )

# The Evaluation tab: the post's protocol (5 splits × 793 test digits, their 50 nearest) for every
# search a user can pick on /digits (the weights only re-vote), as when nothing is cached yet. One
# thread: the CPU time is about the wall time on an idle machine; a loaded one takes longer.
print("\nEvaluation, uncached: the 5 × 793 test digits' 50 nearest and their votes for k = 1…50")
for metric, blur, shear, invariance in digits.evaluation_searches():
    start, cpu = time.perf_counter(), time.process_time()
    test, distances, indices = digits.protocol_neighbours(
        X, y, 50, range(5), metric=metric, blur=blur, shear=shear, invariance=invariance
    )
    digits.protocol_votes(y, distances, indices, range(1, 51), "distance")
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    setting = f"{metric}, blur {blur:g}, shear {shear:g}, {invariance}"
    print(f"{setting:<42} ours {wall:6.2f} s (CPU {cpu:6.2f} s)   goal ≤ 2 s")
