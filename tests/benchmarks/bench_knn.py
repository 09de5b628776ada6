"""Benchmark: classic's brute-force k-NN against scikit-learn's, side by side in one run.

Run on demand: ``python tests/benchmarks/bench_knn.py``. Prints median wall times of the two
run alternately, their ratio (ours / scikit-learn's; below 1 means faster) and the goal of
issue 12. One BLAS/OpenMP thread for both. Uses CLASSIC_DATA_HOME or ../shared/data.

Then the timings behind the fast paths the k-NN page keeps (issue 23: speed only where someone
waits): the k player's neighbour table at n = 1000 by query tiles against brute force, sorting
packed keys in pieces against a partition, and the accuracy curves (k = 1…100) a new data set
waits for.
"""

import os
import sys
import time
from pathlib import Path

os.environ["OMP_WAIT_POLICY"] = "passive"  # sklearn's OpenMP can stall after a numpy matmul
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("CLASSIC_DATA_HOME", str(ROOT.parent / "shared" / "data"))

import numpy as np  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402

from classic import _search, _tiles, datasets, evaluation  # noqa: E402
from classic.knn import KNNClassifier, neighbour_table  # noqa: E402
from classic.viz import knn as view  # noqa: E402


def median_time(function, repeat: int = 7) -> float:
    """Median wall time of a function (after one warm-up call)."""
    function()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def side_by_side(ours, theirs, repeat: int = 15) -> tuple[float, float]:
    """Median wall times of two functions run alternately, so both see the same machine noise."""
    ours(), theirs()  # warm up
    times = np.empty((repeat, 2))
    for i in range(repeat):
        for j, function in enumerate((ours, theirs)):
            start = time.perf_counter()
            function()
            times[i, j] = time.perf_counter() - start
    return tuple(np.median(times, axis=0))


def report(name: str, ours: float, theirs: float, goal: float) -> None:
    ratio = ours / theirs
    verdict = "meets" if ratio <= goal else "misses"
    print(
        f"{name:<48} ours {ours * 1e3:8.1f} ms   sklearn {theirs * 1e3:8.1f} ms   "
        f"ratio {ratio:5.2f}   goal ≤ {goal} ({verdict})",
        flush=True,
    )


def main() -> None:
    X, y = datasets.load_semeion()
    X_train, X_test, y_train, y_test = evaluation.train_test_split(X, y, test_size=793, random_state=0)
    for k, goal in ((1, 0.2), (15, 0.3)):
        ours = KNNClassifier(k=k).fit(X_train, y_train)
        theirs = KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(X_train, y_train)
        assert ours.score(X_test, y_test) > 0.8
        report(
            f"Semeion 793 test × 800 train, k={k}, predict",
            *side_by_side(lambda: ours.predict(X_test), lambda: theirs.predict(X_test), repeat=41),
            goal,
        )
    rng = np.random.default_rng(0)
    X_big = (rng.random((16_000, 256)) < 0.3).astype(np.uint8)
    y_big = rng.integers(0, 10, size=16_000)
    Q = (rng.random((2_000, 256)) < 0.3).astype(np.uint8)
    ours = KNNClassifier(k=15, algorithm="brute").fit(X_big, y_big)
    theirs = KNeighborsClassifier(n_neighbors=15, algorithm="brute").fit(X_big, y_big)
    np.testing.assert_array_equal(ours.kneighbors(Q[:50])[0], theirs.kneighbors(Q[:50])[0])
    report(
        "brute, 2000 queries × 16 000 × 256 binary, k=15",
        *side_by_side(lambda: ours.predict(Q), lambda: theirs.predict(Q), repeat=5),
        0.5,
    )

    page_paths()


def page_paths() -> None:
    """What the k-NN page waits for, each fast path beside the plain one it replaces."""
    X, y = datasets.moons(1000, noise=0.3, random_state=0)
    _, _, grid = view.view_grid(X)
    K = view.player_size(len(X), False)
    prepared = _search.TrainingSet.prepare(X)
    tiles, brute = side_by_side(
        lambda: _tiles.tile_neighbors(grid, prepared, K),
        lambda: _search.brute_neighbors(grid, prepared, K),
        repeat=5,
    )
    print(
        f"{'k player table, n = 1000, K = ' + str(K) + ', ' + str(len(grid)) + ' cells':<48} "
        f"tiles {tiles * 1e3:8.1f} ms   brute force {brute * 1e3:8.1f} ms",
        flush=True,
    )
    print(
        f"{'  neighbour_table (what the page calls)':<48} {median_time(lambda: neighbour_table(grid, X, K)) * 1e3:8.1f} ms"
    )
    keys = np.random.default_rng(0).integers(0, 2**31, size=(4096, 1024), dtype=np.uint32)
    pieces, partition = side_by_side(
        lambda: _search.sorted_pieces(keys.copy(), 15),
        lambda: np.sort(np.partition(keys, 14, axis=1)[:, :15], axis=1),
    )
    print(
        f"{'15 smallest of 4096 rows × 1024 uint32 keys':<48} pieces {pieces * 1e3:7.1f} ms   partition {partition * 1e3:7.1f} ms"
    )
    for weights in ("uniform", "distance"):
        seconds = median_time(lambda: view.accuracy_view(X, y, 0, "euclidean", 2, weights, 1.0), repeat=5)
        print(f"{'accuracy curves k = 1…100, n = 1000, ' + weights:<48} {seconds * 1e3:8.1f} ms", flush=True)


if __name__ == "__main__":
    main()
