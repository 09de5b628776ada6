"""Tests for classic.evaluation, with scikit-learn as an oracle where it has the same function."""

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from classic import evaluation


class MajorityClassifier:
    """Predicts the most common training label: a tiny fit/predict object with a known score."""

    def fit(self, X, y):
        values, counts = np.unique(y, return_counts=True)
        self.label_ = values[np.argmax(counts)]
        return self

    def predict(self, X):
        return np.full(len(X), self.label_)


class NearestNeighbour:
    def fit(self, X, y):
        self.X_, self.y_ = np.asarray(X, float), np.asarray(y)
        return self

    def predict(self, X):
        d = ((np.asarray(X, float)[:, None, :] - self.X_[None]) ** 2).sum(-1)
        return self.y_[d.argmin(axis=1)]


def test_train_test_split_partitions_the_rows():
    X = np.arange(100).reshape(50, 2)
    y = np.arange(50) % 3
    X_train, X_test, y_train, y_test = evaluation.train_test_split(X, y, test_size=0.2, random_state=0)
    assert len(X_test) == 10 and len(X_train) == 40
    rows = np.concatenate([X_train[:, 0], X_test[:, 0]])
    assert sorted(rows.tolist()) == X[:, 0].tolist()
    np.testing.assert_array_equal(y_train, X_train[:, 0] // 2 % 3)
    again = evaluation.train_test_split(X, y, test_size=0.2, random_state=0)
    np.testing.assert_array_equal(again[1], X_test)


def test_train_test_split_by_count_and_stratified():
    y = np.array([0] * 80 + [1] * 20)
    X = np.arange(100)[:, None]
    _, X_test, _, y_test = evaluation.train_test_split(X, y, test_size=25, random_state=1, stratify=True)
    assert len(y_test) == 25
    assert np.bincount(y_test).tolist() == [20, 5]


@pytest.mark.parametrize("test_size", [0, 1.0, 1.5, -3, 100, "half"])
def test_train_test_split_rejects_bad_sizes(test_size):
    with pytest.raises(ValueError, match="test_size"):
        evaluation.train_test_split(np.zeros((100, 1)), np.zeros(100), test_size=test_size)


def test_accuracy_and_length_mismatch():
    assert evaluation.accuracy([1, 2, 3, 4], [1, 2, 0, 4]) == 0.75
    with pytest.raises(ValueError, match="same length"):
        evaluation.accuracy([1, 2], [1])
    with pytest.raises(ValueError, match="empty"):
        evaluation.accuracy([], [])


def test_confusion_matrix_matches_sklearn():
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.integers(0, 4, 200), rng.integers(0, 4, 200)
    np.testing.assert_array_equal(
        evaluation.confusion_matrix(y_true, y_pred), sk_confusion_matrix(y_true, y_pred)
    )
    labels = ["republican", "democrat"]
    matrix = evaluation.confusion_matrix(["democrat", "democrat", "republican"], ["democrat"] * 3, labels)
    assert matrix.tolist() == [[0, 1], [0, 2]]


def test_stratified_folds_cover_everything_and_keep_proportions():
    y = np.array([0] * 60 + [1] * 30 + [2] * 10)
    folds = evaluation.stratified_folds(y, cv=10, random_state=0)
    assert sorted(np.concatenate(folds).tolist()) == list(range(100))
    for fold in folds:
        assert np.bincount(y[fold], minlength=3).tolist() == [6, 3, 1]
    with pytest.raises(ValueError, match="cv"):
        evaluation.stratified_folds(y, cv=1)


def test_cross_val_score_of_a_majority_classifier_is_known():
    y = np.array([0] * 70 + [1] * 30)
    X = np.zeros((100, 1))
    scores = evaluation.cross_val_score(MajorityClassifier(), X, y, cv=10, random_state=0)
    assert scores.shape == (10,)
    np.testing.assert_allclose(scores, 0.7)


def test_cross_val_score_does_not_touch_the_estimator():
    model = NearestNeighbour()
    X = np.random.default_rng(0).normal(size=(40, 2))
    evaluation.cross_val_score(model, X, (X[:, 0] > 0).astype(int), cv=4, random_state=0)
    assert not hasattr(model, "X_")


def test_learning_curve_grows_and_improves():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(400, 2))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    sizes, train, test = evaluation.learning_curve(
        NearestNeighbour(), X, y, [2, 0.1, 0.5, 1.0], random_state=0
    )
    assert sizes.tolist() == [2, 30, 150, 300]
    np.testing.assert_allclose(train, 1.0)
    assert test[-1] > 0.9 and test[-1] > test[0]
    with pytest.raises(ValueError, match="train size"):
        evaluation.learning_curve(NearestNeighbour(), X, y, [1000])


def test_clone_is_a_fresh_unfitted_estimator_with_the_same_parameters():
    from classic.knn import KNNClassifier

    X, y = np.random.default_rng(0).normal(size=(40, 2)), np.arange(40) % 2
    fitted = KNNClassifier(k=3, weights="distance").fit(X, y)
    copy = evaluation.clone(fitted)
    assert type(copy) is KNNClassifier and copy.get_params() == fitted.get_params()
    assert not hasattr(copy, "classes_")
    # An object without get_params is deep-copied: a new object, the original untouched.
    plain = MajorityClassifier().fit(X, y)
    assert evaluation.clone(plain) is not plain and evaluation.clone(plain).label_ == plain.label_


def test_cross_val_score_equals_sklearn_on_the_same_folds():
    from sklearn.model_selection import PredefinedSplit
    from sklearn.model_selection import cross_val_score as sk_cross_val_score

    from classic.knn import KNNClassifier

    rng = np.random.default_rng(1)
    X = rng.normal(size=(90, 2))
    y = (X[:, 0] + 0.3 * rng.normal(size=90) > 0).astype(int)
    folds = evaluation.stratified_folds(y, 5, random_state=2)
    fold_of = np.empty(len(y), dtype=int)
    for number, fold in enumerate(folds):
        fold_of[fold] = number
    ours = evaluation.cross_val_score(KNNClassifier(k=5), X, y, cv=5, random_state=2)
    theirs = sk_cross_val_score(KNNClassifier(k=5), X, y, cv=PredefinedSplit(fold_of))
    np.testing.assert_allclose(ours, theirs)
