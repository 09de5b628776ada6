"""scikit-learn's own estimator test suite (``check_estimator``'s checks) on every estimator.

Each check is one test (``parametrize_with_checks``). The few a ``classic`` estimator fails on
purpose are listed in ``EXPECTED_FAILURES`` with the reason; they run as strict xfails, so the
reasons appear in pytest's summary (``-ra``) and a listed check that starts passing fails the
run. Before issue 24 KNNClassifier, ID3, Perceptron and DualPerceptron passed 139 of their 216
checks, 208 of 215 now; ``python tests/benchmarks/count_estimator_checks.py`` counts them.
"""

import warnings

import numpy as np
import pytest
from sklearn.utils.estimator_checks import check_estimator, parametrize_with_checks

from classic.digits import DigitClassifier
from classic.id3 import ID3, PrunedID3
from classic.knn import KNNClassifier
from classic.perceptron import DualPerceptron, Perceptron

# scikit-learn warns that classic's estimators do not inherit its BaseEstimator: by design.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Estimator .* does not inherit from `sklearn.base.BaseEstimator`"
)

ESTIMATORS = [
    KNNClassifier(),
    ID3(),
    PrunedID3(random_state=0),
    Perceptron(),
    DualPerceptron(),
    DigitClassifier(),
]

NOT_FITTED = (
    "classic raises its own NotFittedError (a ValueError and an AttributeError, as scikit-learn's "
    "is); the check asks for a subclass of sklearn.exceptions.NotFittedError, and classic does not "
    "import scikit-learn at run time (tests/test_numpy_only.py)"
)
EXPECTED_FAILURES = {
    "KNNClassifier": {
        "check_estimators_unfitted": NOT_FITTED,
        "check_classifiers_train": (
            "a tied vote goes to the class of the nearest neighbour among the tied classes "
            "(classic.knn.TIE_RULE, the lesson's rule); the check wants predict to equal the argmax "
            "of predict_proba, which takes the first tied class"
        ),
    },
    "ID3": {"check_estimators_unfitted": NOT_FITTED},
    "PrunedID3": {"check_estimators_unfitted": NOT_FITTED},
    "Perceptron": {"check_estimators_unfitted": NOT_FITTED},
    "DualPerceptron": {"check_estimators_unfitted": NOT_FITTED},
    # Its defaults are plain k-NN over rows of any length, which scikit-learn's small made-up
    # data sets fit; blur and the invariances need 16×16 grids (rows of 256), which they are not.
    "DigitClassifier": {"check_estimators_unfitted": NOT_FITTED},
}


def expected_failures(estimator) -> dict[str, str]:
    return EXPECTED_FAILURES[type(estimator).__name__]


with warnings.catch_warnings():  # collecting the checks warns that we do not inherit BaseEstimator
    warnings.filterwarnings("ignore", "Estimator .* does not inherit", UserWarning)
    every_check = parametrize_with_checks(
        ESTIMATORS, expected_failed_checks=expected_failures, xfail_strict=True
    )


@every_check
def test_scikit_learns_estimator_checks(estimator, check):
    check(estimator)


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=lambda e: type(e).__name__)
def test_at_most_five_expected_failures_each_and_every_other_check_passes(estimator):
    expected = expected_failures(estimator)
    assert len(expected) <= 5
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Estimator .* does not inherit", UserWarning)
        results = check_estimator(estimator, expected_failed_checks=expected, on_fail=None, on_skip=None)
    status: dict[str, set] = {}
    for result in results:
        status.setdefault(result["check_name"], set()).add(result["status"])
    print(f"\n{type(estimator).__name__}: {sum('passed' in s for s in status.values())} checks pass")
    for name, reason in expected.items():
        print(f"  expected failure {name}: {reason}")
        assert status[name] == {"xfail"}, f"{name} is listed as an expected failure but {status[name]}"
    failed = sorted(name for name, s in status.items() if "failed" in s)
    assert not failed
    assert np.mean([s == {"passed"} for s in status.values()]) > 0.85
