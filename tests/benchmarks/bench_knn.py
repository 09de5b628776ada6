"""Benchmark: classic's brute-force k-NN against scikit-learn's, side by side in one run.

Run on demand: ``python tests/benchmarks/bench_knn.py``. Prints median times and ratios
(ours / scikit-learn's; below 1 means faster). Uses CLASSIC_DATA_HOME or ../shared/data.
"""

import os
import sys
import time
from pathlib import Path

os.environ["OMP_WAIT_POLICY"] = "passive"  # sklearn's OpenMP can stall after a numpy matmul
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("CLASSIC_DATA_HOME", str(ROOT.parent / "shared" / "data"))

import numpy as np  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402

from classic import datasets, evaluation  # noqa: E402
from classic.knn import KNNClassifier, nearest_neighbors, region_grid, vote  # noqa: E402


def median_time(function, repeat: int = 15) -> float:
    function()  # warm up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def side_by_side(ours, theirs, repeat: int = 41) -> tuple[float, float]:
    """Median times of two functions run alternately, so both see the same machine noise."""
    ours(), theirs()  # warm up
    times = np.empty((repeat, 2))
    for i in range(repeat):
        for j, function in enumerate((ours, theirs)):
            start = time.perf_counter()
            function()
            times[i, j] = time.perf_counter() - start
    return tuple(np.median(times, axis=0))


def report(name: str, ours: float, theirs: float | None = None) -> None:
    line = f"{name:<52} ours {ours * 1e3:9.2f} ms"
    if theirs is not None:
        line += f"   sklearn {theirs * 1e3:9.2f} ms   ratio {ours / theirs:5.2f}"
    print(line)


def main() -> None:
    X, y = datasets.load_semeion()
    X_train, X_test, y_train, y_test = evaluation.train_test_split(X, y, test_size=793, random_state=0)
    for k in (1, 15):
        ours = KNNClassifier(k=k).fit(X_train, y_train)
        theirs = KNeighborsClassifier(k, algorithm="brute").fit(X_train, y_train)
        assert ours.score(X_test, y_test) > 0.8
        report(
            f"Semeion 793 test × 800 train, k={k}, predict",
            *side_by_side(lambda: ours.predict(X_test), lambda: theirs.predict(X_test)),
        )
    for n in (1000, 10_000):
        Xp, yp = datasets.gaussian_clusters(n // 2, random_state=0)
        grid = region_grid(Xp, resolution=300)[2]
        theirs = KNeighborsClassifier(15, algorithm="brute").fit(Xp, yp)
        report(
            f"regions 300×300 grid, n={n}, k=15, cold",
            *side_by_side(lambda: nearest_neighbors(grid, Xp, 15), lambda: theirs.predict(grid), repeat=3),
        )
        distances, indices = nearest_neighbors(grid, Xp, 15)
        labels = yp[indices]
        report(
            f"regions 300×300 grid, n={n}, k change (re-vote)",
            median_time(lambda: vote(labels[:, :9], distances[:, :9], 2)),
        )


if __name__ == "__main__":
    main()
