"""Every ``classic`` estimator keeps scikit-learn's contract, checked by scikit-learn itself.

The contract (issue 11): subclass of ``classic._validation.Estimator``; keyword-only constructor
parameters stored unchanged; ``get_params``/``set_params``; ``fit`` returns self and sets
``classes_`` and ``n_features_in_``; ``NotFittedError`` (a ValueError and an AttributeError)
before ``fit``. Then ``sklearn.base.clone``, ``cross_val_score`` and ``GridSearchCV`` work, and
give the scores one gets by fitting and scoring the same folds by hand.
"""

import inspect
from functools import partial

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
from sklearn.pipeline import make_pipeline

from classic import datasets
from classic._validation import Estimator, NotFittedError
from classic.id3 import ID3, PrunedID3
from classic.knn import KNNClassifier
from classic.perceptron import DualPerceptron, Perceptron
from classic.preprocessing import MinMaxScaler, StandardScaler


def _points():
    X, y = datasets.gaussian_clusters(30, centers=((-1, 0), (1, 0)), std=0.8, random_state=0)
    return X, y


def _table():
    rng = np.random.default_rng(0)
    X = rng.choice(["a", "b", "c"], size=(60, 3))
    y = np.where((X[:, 0] == "a") | (X[:, 1] == "b"), "yes", "no")
    return X, y


# (class, data, the parameter GridSearchCV tunes, its values, another valid value of it)
CLASSIFIERS = {
    "Perceptron": (Perceptron, _points, "max_epochs", [1, 3, 20], 7),
    "DualPerceptron": (DualPerceptron, _points, "max_epochs", [1, 3, 20], 7),
    "KNNClassifier": (KNNClassifier, _points, "k", [1, 5, 15], 3),
    "ID3": (ID3, _table, "max_depth", [1, 2, 3], 2),
    # A seed, so that the folds scored by hand hold out the same pruning rows.
    "PrunedID3": (partial(PrunedID3, random_state=0), _table, "max_depth", [1, 2, 3], 2),
}
SCALERS = [StandardScaler, MinMaxScaler]
FOLDS = KFold(3, shuffle=True, random_state=0)


@pytest.fixture(params=list(CLASSIFIERS))
def case(request):
    cls, data, name, values, other = CLASSIFIERS[request.param]
    X, y = data()
    return cls, X, y, name, values, other


@pytest.mark.parametrize("cls", [Perceptron, DualPerceptron, KNNClassifier, ID3, PrunedID3, *SCALERS])
def test_a_classic_estimator_with_keyword_only_parameters(cls):
    assert issubclass(cls, Estimator)
    parameters = [p for name, p in inspect.signature(cls.__init__).parameters.items() if name != "self"]
    positional = [p.name for p in parameters if p.kind is not p.KEYWORD_ONLY]
    assert not positional, f"{cls.__name__} takes {positional} positionally; make them keyword-only"
    if parameters:
        with pytest.raises(TypeError):
            cls(parameters[0].default)


def test_get_params_set_params_round_trip(case):
    cls, _, _, name, _, other = case
    estimator = cls()
    params = estimator.get_params()
    assert name in params
    assert cls(**params).get_params() == params
    assert estimator.set_params(**{name: other}) is estimator
    assert estimator.get_params()[name] == other
    assert f"{name}={other!r}" in repr(estimator)
    with pytest.raises(ValueError, match="not a parameter"):
        estimator.set_params(no_such_parameter=1)


def test_not_fitted_error_before_fit(case):
    cls, X, _, _, _, _ = case
    estimator = cls()
    assert issubclass(NotFittedError, ValueError) and issubclass(NotFittedError, AttributeError)
    with pytest.raises(NotFittedError, match="not fitted"):
        estimator.predict(X)
    assert not hasattr(estimator, "classes_")


def test_fit_returns_self_learns_attributes_and_keeps_the_parameters(case):
    cls, X, y, name, _, other = case
    estimator = cls(**{name: other})
    before = estimator.get_params()
    assert estimator.fit(X, y) is estimator
    assert estimator.get_params() == before
    np.testing.assert_array_equal(estimator.classes_, np.unique(y))
    assert estimator.n_features_in_ == X.shape[1]
    assert len(estimator.predict(X)) == len(X)


def test_clone_copies_the_parameters_not_the_fit(case):
    cls, X, y, name, _, other = case
    estimator = cls(**{name: other}).fit(X, y)
    copy = clone(estimator)
    assert copy is not estimator and type(copy) is type(estimator)
    assert copy.get_params() == estimator.get_params()
    assert not hasattr(copy, "classes_")


def _by_hand(estimator, X, y) -> list[float]:
    scores = []
    for train, test in FOLDS.split(X):
        scores.append(clone(estimator).fit(X[train], y[train]).score(X[test], y[test]))
    return scores


def test_cross_val_score_equals_the_folds_by_hand(case):
    cls, X, y, name, _, other = case
    estimator = cls(**{name: other})
    scores = cross_val_score(estimator, X, y, cv=FOLDS)
    np.testing.assert_allclose(scores, _by_hand(estimator, X, y))
    assert scores.mean() > 0.5


def test_grid_search_picks_the_best_value_by_hand(case):
    cls, X, y, name, values, _ = case
    search = GridSearchCV(cls(), {name: values}, cv=FOLDS).fit(X, y)
    by_hand = [np.mean(_by_hand(cls(**{name: value}), X, y)) for value in values]
    np.testing.assert_allclose(search.cv_results_["mean_test_score"], by_hand)
    assert search.best_params_ == {name: values[int(np.argmax(by_hand))]}
    assert type(search.best_estimator_) is type(cls())
    assert search.best_estimator_.n_features_in_ == X.shape[1]


@pytest.mark.parametrize("cls", SCALERS)
def test_scalers_clone_and_refuse_to_transform_before_fit(cls):
    X, _ = _points()
    with pytest.raises(NotFittedError):
        cls().transform(X)
    fitted = cls().fit(X)
    assert clone(fitted).get_params() == fitted.get_params()
    assert fitted.n_features_in_ == 2


def test_a_pipeline_scaler_then_knn_in_a_grid_search():
    X, y = _points()
    X[:, 0] *= 1000  # the scaler matters: x₀ alone would decide every distance
    pipeline = make_pipeline(StandardScaler(), KNNClassifier())
    search = GridSearchCV(pipeline, {"knnclassifier__k": [1, 5, 15]}, cv=FOLDS).fit(X, y)
    assert search.best_params_["knnclassifier__k"] in (1, 5, 15)
    assert search.best_score_ > 0.7
