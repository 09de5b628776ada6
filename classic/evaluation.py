"""How well does a classifier generalise? Splits, scores and curves for any fit/predict object.

``train_test_split`` holds data out; ``accuracy`` and ``confusion_matrix`` score predictions;
``cross_val_score`` runs stratified k-fold cross-validation (each fold keeps the class
proportions of the whole); ``learning_curve`` trains on growing subsets to show how accuracy
depends on the amount of data. Estimators are anything with ``fit(X, y)`` and ``predict(X)``;
each fit works on a fresh, unfitted :func:`clone`, so the caller's object is untouched.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from classic._validation import RandomState, check_consistent_length, check_random_state


def clone(estimator: Any) -> Any:
    """A new, unfitted estimator with the same parameters, as scikit-learn's ``clone``.

    Built from ``get_params()`` (the constructor's arguments), so nothing learned is carried
    over. An object without ``get_params`` is deep-copied instead.
    """
    if not hasattr(estimator, "get_params"):
        return copy.deepcopy(estimator)
    params = {name: copy.deepcopy(value) for name, value in estimator.get_params(deep=False).items()}
    return type(estimator)(**params)


def train_test_split(
    X: Any,
    y: Any,
    test_size: float | int = 0.25,
    random_state: RandomState = None,
    stratify: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Shuffle and split into ``X_train, X_test, y_train, y_test``.

    ``test_size`` is a fraction in (0, 1) or a number of rows. With ``stratify=True`` each
    class is split in the same proportion, so both parts keep the class balance.
    """
    X, y = check_consistent_length(X, y)
    n = len(y)
    if isinstance(test_size, float) and 0 < test_size < 1:
        n_test = int(round(test_size * n))
    elif isinstance(test_size, (int, np.integer)) and 0 < test_size < n:
        n_test = int(test_size)
    else:
        raise ValueError(
            f"test_size must be a fraction in (0, 1) or a count in [1, {n - 1}], got {test_size!r}"
        )
    n_test = min(max(n_test, 1), n - 1)
    rng = check_random_state(random_state)
    if not stratify:
        order = rng.permutation(n)
        test, train = order[:n_test], order[n_test:]
    else:
        test_parts, train_parts = [], []
        classes, y_index = np.unique(y, return_inverse=True)
        # Largest-remainder allocation gives exactly n_test rows with proportional classes.
        sizes = np.bincount(y_index) * n_test / n
        take = np.floor(sizes).astype(int)
        take[np.argsort(-(sizes - take), kind="stable")[: n_test - take.sum()]] += 1
        for c in range(len(classes)):
            members = rng.permutation(np.flatnonzero(y_index == c))
            test_parts.append(members[: take[c]])
            train_parts.append(members[take[c] :])
        test = rng.permutation(np.concatenate(test_parts))
        train = rng.permutation(np.concatenate(train_parts))
    return X[train], X[test], y[train], y[test]


def accuracy(y_true: Any, y_pred: Any) -> float:
    """The fraction of predictions equal to the truth."""
    y_true, y_pred = check_consistent_length(y_true, y_pred)
    return float(np.mean(y_true == y_pred))


def confusion_matrix(y_true: Any, y_pred: Any, labels: Sequence | None = None) -> np.ndarray:
    """Counts ``C[i, j]`` of rows of true class ``labels[i]`` predicted as ``labels[j]``.

    ``labels`` defaults to the sorted union of the labels seen in either argument.
    """
    y_true, y_pred = check_consistent_length(y_true, y_pred)
    labels = np.unique(np.concatenate([y_true, y_pred])) if labels is None else np.asarray(labels)
    index = {label: i for i, label in enumerate(labels.tolist())}
    matrix = np.zeros((len(labels), len(labels)), dtype=np.int64)
    for truth, guess in zip(y_true.tolist(), y_pred.tolist(), strict=True):
        if truth in index and guess in index:
            matrix[index[truth], index[guess]] += 1
    return matrix


def stratified_folds(y: Any, cv: int = 10, random_state: RandomState = None) -> list[np.ndarray]:
    """Split row indices into ``cv`` folds, dealing each class's shuffled rows round-robin."""
    y = np.asarray(y)
    if int(cv) != cv or cv < 2 or cv > len(y):
        raise ValueError(f"cv must be an integer in [2, {len(y)}], got {cv!r}")
    rng = check_random_state(random_state)
    fold_of = np.empty(len(y), dtype=np.int64)
    start = 0
    for c in np.unique(y):
        members = rng.permutation(np.flatnonzero(y == c))
        fold_of[members] = (start + np.arange(len(members))) % cv
        start += len(members)  # continue the deal so small classes do not all land in fold 0
    return [np.flatnonzero(fold_of == k) for k in range(cv)]


def cross_val_score(
    estimator: Any, X: Any, y: Any, cv: int = 10, random_state: RandomState = None
) -> np.ndarray:
    """Accuracy on each of ``cv`` stratified folds, training on the other folds each time."""
    X, y = check_consistent_length(X, y)
    scores = []
    for test in stratified_folds(y, cv, random_state):
        train = np.setdiff1d(np.arange(len(y)), test)
        model = clone(estimator).fit(X[train], y[train])
        scores.append(accuracy(y[test], model.predict(X[test])))
    return np.array(scores)


def learning_curve(
    estimator: Any,
    X: Any,
    y: Any,
    train_sizes: Sequence[float | int],
    random_state: RandomState = None,
    test_size: float = 0.25,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Accuracy against training-set size on one stratified hold-out split.

    Each size (a fraction of the training part, or a row count) trains on the first rows of a
    shuffled training part, so larger sets contain the smaller ones. Returns
    ``(sizes, train_scores, test_scores)``.
    """
    X, y = check_consistent_length(X, y)
    rng = check_random_state(random_state)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size, rng, stratify=True)
    sizes = []
    for size in train_sizes:
        count = int(round(size * len(y_train))) if isinstance(size, float) and size <= 1 else int(size)
        if not 1 <= count <= len(y_train):
            raise ValueError(f"train size {size!r} is outside [1, {len(y_train)}] rows")
        sizes.append(count)
    train_scores, test_scores = [], []
    for count in sizes:
        model = clone(estimator).fit(X_train[:count], y_train[:count])
        train_scores.append(accuracy(y_train[:count], model.predict(X_train[:count])))
        test_scores.append(accuracy(y_test, model.predict(X_test)))
    return np.array(sizes), np.array(train_scores), np.array(test_scores)
