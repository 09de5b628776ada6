"""Count scikit-learn's estimator checks each ``classic`` estimator passes (run on demand).

``python tests/benchmarks/count_estimator_checks.py`` runs ``check_estimator`` (legacy checks
included, no expected failures) on each estimator and prints passed / run, then the name of
each failing check with the first line of its error. ``tests/test_estimator_checks.py`` runs
the same checks with the table of expected failures.

Issue 24, scikit-learn 1.9.1 (passed / run; a check run on several inputs counts once per input).
The four of the issue: 139/216 before, 208/215 after:

    estimator         before   after   expected failures (tests/test_estimator_checks.py)
    KNNClassifier     41/54    50/54   NotFittedError class; the tie rule (check_classifiers_train ×3)
    ID3               30/54    52/53   NotFittedError class (NaN is a missing value: allow_nan tag)
    PrunedID3         29/54    52/53   NotFittedError class
    Perceptron        26/54    53/54   NotFittedError class
    DualPerceptron    26/54    53/54   NotFittedError class
    DigitClassifier   16/54    53/54   NotFittedError class
"""

import os
import sys
import warnings
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sklearn.utils.estimator_checks import check_estimator  # noqa: E402

from classic._validation import DataConversionWarning  # noqa: E402
from classic.digits import DigitClassifier  # noqa: E402
from classic.id3 import ID3, PrunedID3  # noqa: E402
from classic.knn import KNNClassifier  # noqa: E402
from classic.perceptron import DualPerceptron, Perceptron  # noqa: E402

ESTIMATORS = [
    KNNClassifier(),
    ID3(),
    PrunedID3(random_state=0),
    Perceptron(),
    DualPerceptron(),
    DigitClassifier(),
]


def count(estimator) -> tuple[int, int, list[tuple[str, str]]]:
    """(passed, run, [(check, first line of its error), ...]) for one estimator."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # but the one check_supervised_y_2d looks for:
        warnings.simplefilter("always", DataConversionWarning)
        results = check_estimator(estimator, on_fail=None, on_skip=None)
    run = [r for r in results if r["status"] != "skipped"]
    failed = [
        (
            r["check_name"],
            (str(r["exception"]).strip().splitlines() or [type(r["exception"]).__name__])[0][:150],
        )
        for r in run
        if r["status"] == "failed"
    ]
    return sum(r["status"] == "passed" for r in run), len(run), failed


def main() -> None:
    total_passed = total_run = 0
    details = []
    for estimator in ESTIMATORS:
        passed, run, failed = count(estimator)
        total_passed, total_run = total_passed + passed, total_run + run
        print(f"{type(estimator).__name__:16} {passed:3d} / {run:3d}", flush=True)
        details.append((type(estimator).__name__, failed))
    print(f"{'total':16} {total_passed:3d} / {total_run:3d}")
    for name, failed in details:
        for check, message in failed:
            print(f"  {name}: {check}: {message}")


if __name__ == "__main__":
    main()
