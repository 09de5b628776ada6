"""Benchmark: the digits ladder on the post's protocol, rung by rung, beside scikit-learn (on demand).

``python tests/benchmarks/bench_ladder.py``: each rung's mean accuracy over the five seeded
800/793 splits, its gain over the rung below and the time to compute it; then scikit-learn's
k-NN (same features, where it has the distance) and its SVC on the same splits, for scale.
Goal: the top rung ≥ 96% with k-NN alone (the best ordinary SVC: about 95.6%).
"""

import os
import sys
import time
from pathlib import Path

os.environ["OMP_WAIT_POLICY"] = "passive"
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("CLASSIC_DATA_HOME", str(ROOT.parent / "shared" / "data"))

import numpy as np  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.svm import SVC  # noqa: E402

from classic import datasets, digits  # noqa: E402

X, y = datasets.load_semeion()
splits = digits.protocol_splits(len(y), range(5))
print(f"{'rung':<18} {'mean':>7} {'gain':>7} {'min–max over seeds':>20} {'time':>7}   sklearn k-NN")
previous = None
for name, params in digits.RUNGS:
    k = params.get("k", 1)
    start = time.perf_counter()
    scores = digits.protocol_curve(X, y, [k], range(5), **params)[:, 0]
    elapsed = time.perf_counter() - start
    oracle = ""
    if params.get("invariance", "none") == "none":
        features = digits.blur(X, params.get("blur", 0.0))
        weights = params.get("weights", "uniform")
        theirs = [
            KNeighborsClassifier(n_neighbors=k, weights=weights, algorithm="brute")
            .fit(features[train], y[train])
            .score(features[test], y[test])
            for train, test in splits
        ]
        oracle = f"{np.mean(theirs):.2%}"
    gain = "" if previous is None else f"{100 * (scores.mean() - previous):+.2f}"
    spread = f"{scores.min():.2%} – {scores.max():.2%}"
    print(f"{name:<18} {scores.mean():7.2%} {gain:>7} {spread:>20} {elapsed:6.2f}s   {oracle}")
    previous = scores.mean()

start = time.perf_counter()
ladder = digits.ladder(X, y, range(5))
print(
    f"classic.digits.ladder(X, y, seeds=range(5)) in {time.perf_counter() - start:.2f} s: top {ladder[-1][1]:.2%}"
)
for name, features in (("pixels", X), ("blurred digits", digits.blur(X, 1.0))):
    for C in (3, 10):
        svc = [SVC(C=C).fit(features[a], y[a]).score(features[b], y[b]) for a, b in splits]
        print(f"sklearn SVC(C={C}) on the {name}, same splits: {np.mean(svc):.2%}")
print(f"the page quotes classic.digits.SVC_REFERENCE = {digits.SVC_REFERENCE:.2%}")
