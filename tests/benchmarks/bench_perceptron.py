"""Benchmark: perceptron fit per pass against scikit-learn's, and the player's JSON (run on demand).

``python tests/benchmarks/bench_perceptron.py``. Time per pass is the fit's time divided by its
passes (our ``n_epochs_``, scikit-learn's ``n_iter_``); both run on the same data, alternately,
with one BLAS thread. Ours also records every update (the player's history) and checks for a
cycle at the end of each pass; scikit-learn's records nothing. The animation itself is drawn in the browser
(``assets/perceptron_player.html``); its frame rate is measured by the browser test.

Last, what the perceptron page waits for: a fit of 100 passes on its data sets that never
converge (every pass makes mistakes, so the loop runs once per update).
"""

import os
import sys
import time
from pathlib import Path

os.environ["OMP_WAIT_POLICY"] = "passive"
os.environ["OPENBLAS_NUM_THREADS"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402
from sklearn.linear_model import Perceptron as SkPerceptron  # noqa: E402

from classic import datasets  # noqa: E402
from classic.lessons import perceptron as lesson  # noqa: E402
from classic.perceptron import Perceptron, mistake_bound  # noqa: E402
from classic.viz import perceptron as viz  # noqa: E402


def per_pass(X, y, repeat=7, **params):
    """Median seconds per pass of ours and scikit-learn's, timed alternately."""
    ours, theirs = [], []
    mine = Perceptron(max_epochs=1000, **params).fit(X, y)
    sk = SkPerceptron(shuffle=False, max_iter=1000).fit(X, y)
    for _ in range(repeat):
        start = time.perf_counter()
        Perceptron(max_epochs=1000, **params).fit(X, y)
        ours.append((time.perf_counter() - start) / mine.n_epochs_)
        start = time.perf_counter()
        SkPerceptron(shuffle=False, max_iter=1000).fit(X, y)
        theirs.append((time.perf_counter() - start) / sk.n_iter_)
    return float(np.median(ours)), float(np.median(theirs)), mine, sk


print(f"{'per pass':38s} {'ours':>9s} {'sklearn':>9s} {'ratio':>6s}")
for label, (X, y) in {
    "10 000 points, separable (y = 1 − x)": datasets.linearly_separable(10_000, random_state=0),
    "10 000 points, Gaussian clusters": datasets.gaussian_clusters(
        5000, ((-1.5, -1.5), (1.5, 1.5)), 0.5, random_state=0
    ),
    "25 points (the post's set-up)": datasets.linearly_separable(25, random_state=0),
}.items():
    ours, theirs, mine, sk = per_pass(X, y)
    print(
        f"{label:38s} {ours * 1e3:7.3f}ms {theirs * 1e3:7.3f}ms {ours / theirs:6.2f}"
        f"   ({mine.n_updates_} updates in {mine.n_epochs_} passes; sklearn {sk.n_iter_} passes)"
    )

X, y = datasets.linearly_separable(25, random_state=0)
model = Perceptron().fit(X, y)
verdict = lesson.verdict(model, mistake_bound(X, y))
times = []
for _ in range(40):
    start = time.perf_counter()
    viz.player_data(X, y, model, ["class 0", "class 1"], verdict)
    times.append(time.perf_counter() - start)
print(f"player data ({model.n_updates_} updates)  {np.median(times) * 1e3:7.2f} ms")

for label, (X, y) in {
    "noisy XOR, 40 points": datasets.xor(40, 0.12, random_state=0),
    "overlapping clusters, 200 points": datasets.gaussian_clusters(
        100, ((-1, -1), (1, 1)), 1.5, random_state=0
    ),
}.items():
    for shuffle in (False, True):
        model = Perceptron(max_epochs=100, shuffle=shuffle, random_state=0).fit(X, y)
        times = []
        for _ in range(15):
            start = time.perf_counter()
            Perceptron(max_epochs=100, shuffle=shuffle, random_state=0).fit(X, y)
            times.append(time.perf_counter() - start)
        print(
            f"fit, {label}, shuffle={shuffle!s:5}: {np.median(times) * 1e3:7.2f} ms"
            f"  ({model.n_updates_} updates in {model.n_epochs_} passes)"
        )
