"""Benchmark: growing ID3 on all 435 rows of the 1984 votes, against scikit-learn, side by side.

Run: ``python tests/benchmarks/bench_id3.py``. Ours fits the raw table of strings (encoding
included); scikit-learn's ``DecisionTreeClassifier(criterion="entropy")`` fits the one-hot
matrix, timed without and with the ``OneHotEncoder`` it needs. Goal: ours ≤ 2× its fit.
"""

import os
import sys
import time
from pathlib import Path

os.environ["OMP_WAIT_POLICY"] = "passive"  # before sklearn: OpenMP can stall on 2 shared cores

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("CLASSIC_DATA_HOME", str(ROOT.parent / "shared" / "data"))

import numpy as np  # noqa: E402
from sklearn.preprocessing import OneHotEncoder  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

from classic.datasets import load_house_votes  # noqa: E402
from classic.id3 import ID3  # noqa: E402


def timed(run, repeats: int = 200) -> tuple[float, float]:
    """Best and median wall time of ``run()`` in milliseconds (after two warm-up calls)."""
    run(), run()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return 1e3 * min(times), 1e3 * float(np.median(times))


def main() -> None:
    X, y, names = load_house_votes()
    one_hot = OneHotEncoder().fit_transform(X).toarray()
    ours = timed(lambda: ID3().fit(X, y, names))
    theirs = timed(lambda: DecisionTreeClassifier(criterion="entropy", random_state=0).fit(one_hot, y))
    theirs_encoding = timed(
        lambda: DecisionTreeClassifier(criterion="entropy", random_state=0).fit(
            OneHotEncoder().fit_transform(X), y
        )
    )
    tree = ID3().fit(X, y, names)
    oracle = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(one_hot, y)
    print(f"1984 votes: {len(y)} rows × {X.shape[1]} features ({one_hot.shape[1]} one-hot columns)")
    print(
        f"  ours ID3 fit (strings in)        best {ours[0]:7.3f} ms   median {ours[1]:7.3f} ms   {tree.n_nodes_} nodes"
    )
    print(
        f"  sklearn fit (one-hot given)      best {theirs[0]:7.3f} ms   median {theirs[1]:7.3f} ms   {oracle.tree_.node_count} nodes"
    )
    print(
        f"  sklearn OneHotEncoder + fit      best {theirs_encoding[0]:7.3f} ms   median {theirs_encoding[1]:7.3f} ms"
    )
    print(
        f"  ratio ours / sklearn fit         best {ours[0] / theirs[0]:5.2f}×   median {ours[1] / theirs[1]:5.2f}×   (goal ≤ 2×)"
    )
    print(
        f"  ratio ours / sklearn encode+fit  best {ours[0] / theirs_encoding[0]:5.2f}×   median {ours[1] / theirs_encoding[1]:5.2f}×"
    )
    records = X.tolist()
    predict = timed(lambda: tree.predict(records), repeats=50)
    print(f"  ours predict 435 rows            best {predict[0]:7.3f} ms   median {predict[1]:7.3f} ms")


if __name__ == "__main__":
    main()
