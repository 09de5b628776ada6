"""Benchmark: decision regions cold, ours against scikit-learn's k-d tree, side by side in one run.

Run on demand: ``python tests/benchmarks/bench_regions.py``. The work of a new region map:
``KNNClassifier(k=15).fit(X, y).predict(grid)`` on a 300 × 300 grid with the default algorithm,
against ``KNeighborsClassifier(15, algorithm="kd_tree")`` fit + predict; medians of wall times
run alternately, one BLAS/OpenMP thread. Also the k player's table (``neighbour_table`` for the
largest k) and a re-vote for a new k, and the table as the k-NN page builds it for new points
(120 × 120 cells, K from the payload budget). Prints ours / sklearn / ratio and the goal of issue 12.
"""

import os
import sys
from pathlib import Path

os.environ["OMP_WAIT_POLICY"] = "passive"
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402

from classic import datasets  # noqa: E402
from classic.knn import KNNClassifier, neighbour_table, region_grid  # noqa: E402
from classic.viz import knn as view  # noqa: E402
from tests.benchmarks.bench_knn import median_time, report, side_by_side  # noqa: E402


def main() -> None:
    for n in (1000, 10_000):
        X, y = datasets.gaussian_clusters(n // 2, random_state=0)
        grid = region_grid(X, resolution=300)[2]
        ours = KNNClassifier(k=15).fit(X, y).predict(grid)
        theirs = KNeighborsClassifier(n_neighbors=15, algorithm="kd_tree").fit(X, y).predict(grid)
        agree = np.mean(ours == theirs)  # they differ only where the vote ties (none with 2 classes, odd k)
        assert agree == 1.0, agree
        report(
            f"regions 300×300, n={n}, k=15, cold fit+predict",
            *side_by_side(
                lambda: KNNClassifier(k=15).fit(X, y).predict(grid),
                lambda: KNeighborsClassifier(n_neighbors=15, algorithm="kd_tree").fit(X, y).predict(grid),
                repeat=9,
            ),
            1.0,
        )
    X, y = datasets.gaussian_clusters(500, random_state=1)
    grid = region_grid(X, resolution=160)[2]
    build = median_time(lambda: neighbour_table(grid, X, 64), repeat=5)
    table = neighbour_table(grid, X, 64)
    revote = median_time(lambda: table.vote(y, 9))
    size = (table.indices.nbytes + table.distances.nbytes) / 2**20
    print(
        f"k player table 160×160 grid, n=1000, k_max=64: build {build * 1e3:.1f} ms, "
        f"{size:.1f} MiB; re-vote for a new k {revote * 1e3:.1f} ms"
    )
    for n in (200, 1000):
        X, y = datasets.gaussian_clusters(n // 2, random_state=2)
        scale, offset = X.std(axis=0), X.mean(axis=0)
        for weighted in (False, True):
            page = median_time(lambda: view.neighbour_table(X, y, scale, offset, "euclidean", 2, weighted, X))
            print(
                f"the page's table, n={n}, K={view.player_size(n, weighted)}"
                f"{' with distances' if weighted else ''}: {page * 1e3:.1f} ms"
            )


if __name__ == "__main__":
    main()
