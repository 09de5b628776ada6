"""Benchmark: perceptron fit time, player data and frame time (run on demand).

``python tests/benchmarks/bench_perceptron.py``. scikit-learn's Perceptron is timed beside ours
on the same data (it does not record a history, so it is a lower bound for the fit).
The page's animation is drawn in the browser (``assets/perceptron_player.html``, its frame rate
is measured by the browser test); the server only builds the player's JSON once per fit. The
matplotlib frame is what the PNG download draws.
"""

import os
import sys
import time
from pathlib import Path

os.environ["OMP_WAIT_POLICY"] = "passive"
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402
from sklearn.linear_model import Perceptron as SkPerceptron  # noqa: E402

from classic import datasets, plots  # noqa: E402
from classic.perceptron import Perceptron  # noqa: E402


def median_time(function, repeat=20):
    function()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


X, y = datasets.linearly_separable(25, random_state=0)
ours = median_time(lambda: Perceptron().fit(X, y))
theirs = median_time(lambda: SkPerceptron(max_iter=100, tol=None, shuffle=False).fit(X, y))
print(
    f"fit, 25 points      ours {ours * 1e3:7.2f} ms   sklearn {theirs * 1e3:7.2f} ms   ratio {ours / theirs:5.2f}"
)
X, y = datasets.xor(40, 0.12, random_state=0)
print(f"fit, noisy XOR, 100 passes  ours {median_time(lambda: Perceptron().fit(X, y), 5) * 1e3:7.1f} ms")
model = Perceptron().fit(*datasets.linearly_separable(25, random_state=0))
animator = plots.PerceptronAnimator(*datasets.linearly_separable(25, random_state=0), ["0", "1"])
frames = iter(range(10**9))


def one_frame():
    u = model.history_[next(frames) % len(model.history_)]
    animator.frame(u.w, u.b, "update", u.index, u.w * 0.9)
    animator.png()


names = ["class 0", "class 1"]
X25, y25 = datasets.linearly_separable(25, random_state=0)
build = median_time(lambda: plots.perceptron_player_data(X25, y25, model.history_, names), 40)
print(f"player data ({len(model.history_)} updates)  {build * 1e3:7.2f} ms")
print(f"matplotlib frame (draw + PNG)  {median_time(one_frame, 40) * 1e3:7.1f} ms")
