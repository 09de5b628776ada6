"""The perceptron: a line that moves at every mistake until it separates two classes.

With labels y_i ∈ {−1, +1}, weights w and bias b start at zero; for each training point in
turn, if it is on the wrong side or on the line, y_i (w·x_i + b) ≤ 0, the rule adds it in:

    w ← w + η y_i x_i,    b ← b + η y_i.

Novikoff's theorem: if some line separates the data with margin γ, and every point lies within
R of the origin, the perceptron makes at most (R/γ)² mistakes, whatever the order and however
many points there are. On XOR no line separates the points, and since the updates are
deterministic the weights eventually return to a state they had at the same point of a pass:
from then on the passes repeat for ever. ``Perceptron`` detects that cycle and stops. The
pocket variant keeps the weights with the fewest training mistakes seen. The dual form keeps
instead α_i, the number of updates point i caused, so that w = Σ α_i y_i x_i; replacing x·z by
a kernel K(x, z) lets the same rule draw curved boundaries, which separate XOR.

With k ≥ 3 classes the rule keeps one weight vector per class, (w_c, b_c), and predicts the
class whose score w_c·x + b_c is largest. Point i of class t is a mistake unless its own class
scores strictly highest (a tie counts as a mistake, as a point on the line does for two classes);
then, with p the best-scoring other class,

    (w_t, b_t) ← (w_t, b_t) + η (x_i, 1),    (w_p, b_p) ← (w_p, b_p) − η (x_i, 1).

Every update moves two vectors. The dual form keeps, per class, the signed count of the times
each point was added to or taken from it. Two classes keep the one-vector rule above.

``Perceptron.fit`` makes the updates of the textbook loop (one point at a time,
:func:`classic.lessons.perceptron.perceptron_textbook`) in the same order, but finds the next
mistake with one vectorised scan, so its Python loop runs once per update rather than once per
point. The lesson's experiments (the best any line can do, updates against the number of
points, generalisation over seeds) are in :mod:`classic.lessons.perceptron`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from classic._validation import (
    Estimator,
    RandomState,
    check_array,
    check_is_fitted,
    check_labels,
    check_random_state,
)

KERNELS = ("linear", "polynomial", "rbf")


@dataclass(frozen=True)
class Update:
    """One update of the perceptron: the point (by index) that was misclassified, and (w, b) after.

    Two classes: w is (n_features,), b a float, ``true`` and ``predicted`` are None. k ≥ 3
    classes: w is (k, n_features) and b (k,), one row per class, and the update added the point
    to class ``true``'s row and took it from class ``predicted``'s (indices into ``classes_``).
    """

    epoch: int
    index: int
    w: np.ndarray
    b: float | np.ndarray
    true: int | None = None
    predicted: int | None = None


def _check_classes(X: Any, y: Any, estimator: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validated float X, its two or more classes, and each row's class as an index into them."""
    X = check_array(X, estimator=estimator)
    _, classes, codes = check_labels(y, len(X), estimator)
    if len(classes) < 2:
        raise ValueError(
            f"the perceptron needs at least two classes; got 1 class ({classes[0]!r}) in {len(X)} sample(s)"
        )
    return X, classes, codes


def _check_two_classes(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validated float X, the two classes, and labels as −1 (first class) / +1 (second)."""
    X, classes, codes = _check_classes(X, y)
    if len(classes) != 2:
        raise ValueError(f"this needs exactly two classes; got {len(classes)}: {classes.tolist()}")
    return X, classes, np.where(codes == 1, 1.0, -1.0)


def _check_max_epochs(max_epochs: Any) -> int:
    if isinstance(max_epochs, bool) or not isinstance(max_epochs, (int, np.integer)) or max_epochs < 1:
        raise ValueError(f"max_epochs must be a positive integer; got {max_epochs!r}")
    return int(max_epochs)


class _ScoreClassifier(Estimator):
    """``predict`` from a ``decision_function``, shared by both forms."""

    def predict(self, X: Any) -> np.ndarray:
        """Two classes: the second where the decision function is positive, else the first.

        k ≥ 3 classes: the class with the largest score (the first of those that tie).
        """
        scores = self.decision_function(X)  # type: ignore[attr-defined]
        if scores.ndim == 2:
            return self.classes_[scores.argmax(axis=1)]
        return self.classes_[(scores > 0).astype(int)]


def _first_mistake(scores: np.ndarray, codes: np.ndarray) -> tuple[int, int]:
    """The first row whose own class (codes) does not score strictly highest, and its best rival.

    ``scores`` is (rows, k). Returns (row, rival class), or (−1, −1) when every row is right.
    The rival is the best-scoring class other than the row's own (the first of those that tie).
    """
    rows = np.arange(len(scores))
    own = scores[rows, codes].copy()
    scores = scores.copy()
    scores[rows, codes] = -np.inf
    rival = scores.argmax(axis=1)
    wrong = own <= scores[rows, rival]
    first = int(wrong.argmax()) if len(wrong) else 0
    return (first, int(rival[first])) if len(wrong) and wrong[first] else (-1, -1)


class Perceptron(_ScoreClassifier):
    """Rosenblatt's perceptron, recording every update.

    Parameters
    ----------
    max_epochs : int, default 100
        Passes over the data at most.
    learning_rate : float, default 1.0
        η in the update rule (with zero start it only scales w and b).
    shuffle : bool, default False
        Visit the points in a new random order each pass (then no cycle can be proved).
    random_state : int, Generator or None, default None
        Seed for the shuffling.
    pocket : bool, default False
        Keep the weights with the fewest training mistakes seen ("pocket" algorithm) as the
        result, instead of the last ones; besides each (w, b) the perceptron visits, the line
        along the same w at its best bias is a candidate (see ``_pocket``). The updates made
        are the same either way. An update that leaves w = 0 is no line: check ``coef_.any()``.

    Attributes
    ----------
    coef_, intercept_ : the weights w and bias b of the result.
    classes_ : the labels, sorted; with two, the second is the positive side.
    n_features_in_ : number of features seen in ``fit``.
    converged_ : bool, a full pass made no mistake.
    n_updates_, n_epochs_ : updates made and passes started.
    history_ : list of Update, one per update (built from the three arrays below).
    weights_history_ : array (n_updates, n_features + 1), (w, b) after each update.
    update_points_, update_epochs_ : arrays, the point and the pass of each update.
    cycle_ : None, or (m, n): the weights after update n equal those after update m, at the
        same point of a pass, so the passes repeat for ever.
    mistakes_per_epoch_ : list of int.
    pocket_mistakes_ : training mistakes of the pocketed weights (pocket=True only).
    update_true_, update_predicted_ : arrays, for each update the index (into ``classes_``) of
        the point's class and of the class it was wrongly given (two classes: the other one).

    With k ≥ 3 classes (the rule in the module docstring) ``coef_`` is (k, n_features) and
    ``intercept_`` (k,), one row per class in the order of ``classes_``; ``weights_history_`` is
    (n_updates, k, n_features + 1), W = (w_c, b_c) row by row after each update; each update
    added the point to row ``update_true_`` and took it from row ``update_predicted_``;
    ``decision_function`` is (rows, k) and ``predict`` picks its largest column. The pocket
    keeps the visited W with the fewest training mistakes.

    Examples
    --------
    >>> from classic import datasets
    >>> Perceptron().fit(*datasets.xor()).cycle_
    (2, 6)
    """

    def __init__(
        self,
        *,
        max_epochs: int = 100,
        learning_rate: float = 1.0,
        shuffle: bool = False,
        random_state: RandomState = None,
        pocket: bool = False,
    ) -> None:
        self.max_epochs = max_epochs
        self.learning_rate = learning_rate
        self.shuffle = shuffle
        self.random_state = random_state
        self.pocket = pocket

    def fit(self, X: Any, y: Any) -> Perceptron:
        """Run the perceptron rule until a pass makes no mistake, a cycle appears, or max_epochs."""
        max_epochs = _check_max_epochs(self.max_epochs)
        rate = self.learning_rate
        if isinstance(rate, bool) or not isinstance(rate, (int, float, np.number)) or not rate > 0:
            raise ValueError(f"learning_rate must be a positive number; got {rate!r}")
        if not np.isfinite(rate):
            raise ValueError(f"learning_rate must be a positive number; got {rate!r}")
        X, self.classes_, codes = _check_classes(X, y, self)
        self.n_features_in_ = X.shape[1]
        rng = check_random_state(self.random_state)
        if len(self.classes_) > 2:
            return self._fit_classes(X, codes, max_epochs, rate, rng)
        signs = np.where(codes == 1, 1.0, -1.0)
        # Rows (y_i x_i, y_i) and v = (w, b): the margin y_i (w·x_i + b) is one dot product,
        # and an update is v ← v + η (y_i x_i, y_i).
        A = np.hstack([signs[:, None] * X, signs[:, None]])
        steps = rate * A
        v = np.zeros(X.shape[1] + 1)
        points: list[int] = []
        self.mistakes_per_epoch_, self.cycle_, self.converged_ = [], None, False
        # If the state (point, v) after an update repeats an earlier one, the rest of the pass
        # repeats that pass's, so v at the end of the pass repeats too: only then is the history
        # searched for the first repeated state. ``ends`` holds v at the end of each pass.
        ends = {v.tobytes()}
        for epoch in range(max_epochs):
            self.n_epochs_ = epoch + 1
            if self.shuffle:
                order = rng.permutation(len(X))
                found, v = _one_pass(A[order], steps[order], v)
                points += order[found].tolist()
            else:
                found, v = _one_pass(A, steps, v)
                points += found
            self.mistakes_per_epoch_.append(len(found))
            if not found:
                self.converged_ = True
                break
            if not self.shuffle and v.tobytes() in ends:
                self.cycle_ = _first_repeat(points, _weights(steps, points))
                if self.cycle_ is not None:  # stop at the update that closes the cycle
                    self.mistakes_per_epoch_[-1] -= len(points) - self.cycle_[1]
                    del points[self.cycle_[1] :]
                    break
            ends.add(v.tobytes())
        self.n_updates_ = len(points)
        self.weights_history_ = _weights(steps, points)
        self.update_points_ = np.array(points, dtype=np.int64)
        self.update_epochs_ = np.repeat(np.arange(self.n_epochs_), self.mistakes_per_epoch_)
        self.update_true_ = codes[self.update_points_]
        self.update_predicted_ = 1 - self.update_true_
        last = self.weights_history_[-1] if points else v
        self.coef_, self.intercept_ = last[:-1].copy(), float(last[-1])
        if self.pocket:
            # Worse than any weights: the first update is always pocketed (w = 0 is no line).
            best = (len(X) + 1, np.zeros(X.shape[1]), 0.0)
            for row in self.weights_history_:
                best = _pocket(X, signs, row[:-1], float(row[-1]), best)
            self.pocket_mistakes_, self.coef_, self.intercept_ = best[0], best[1], float(best[2])
        return self

    def _fit_classes(
        self, X: np.ndarray, codes: np.ndarray, max_epochs: int, rate: float, rng: np.random.Generator
    ) -> Perceptron:
        """The rule for k ≥ 3 classes: one row (w_c, b_c) of W per class (module docstring).

        A mistake on point i of class t, whose best-scoring rival is class p, adds η (x_i, 1) to
        row t and takes it from row p. The passes, the cycle check and the pocket are those of
        the two-class loop; the history holds W after each update.
        """
        k, n = len(self.classes_), len(X)
        rows = np.hstack([X, np.ones((n, 1))])  # (x_i, 1): the bias is a weight on a constant 1
        W = np.zeros((k, X.shape[1] + 1))
        points: list[int] = []
        rivals: list[int] = []
        self.mistakes_per_epoch_, self.cycle_, self.converged_ = [], None, False
        ends = {W.tobytes()}  # W at the end of each pass (see the two-class loop)
        for epoch in range(max_epochs):
            self.n_epochs_ = epoch + 1
            order = rng.permutation(n) if self.shuffle else np.arange(n)
            found, W = _one_pass_classes(rows[order], codes[order], rate, W)
            points += order[[i for i, _ in found]].tolist()
            rivals += [p for _, p in found]
            self.mistakes_per_epoch_.append(len(found))
            if not found:
                self.converged_ = True
                break
            if not self.shuffle and W.tobytes() in ends:
                history = _class_weights(rows, codes, rate, points, rivals, k)
                self.cycle_ = _first_repeat(points, history.reshape(len(points), -1))
                if self.cycle_ is not None:  # stop at the update that closes the cycle
                    self.mistakes_per_epoch_[-1] -= len(points) - self.cycle_[1]
                    del points[self.cycle_[1] :], rivals[self.cycle_[1] :]
                    break
            ends.add(W.tobytes())
        self.n_updates_ = len(points)
        self.weights_history_ = _class_weights(rows, codes, rate, points, rivals, k)
        self.update_points_ = np.array(points, dtype=np.int64)
        self.update_epochs_ = np.repeat(np.arange(self.n_epochs_), self.mistakes_per_epoch_)
        self.update_true_ = codes[self.update_points_]
        self.update_predicted_ = np.array(rivals, dtype=np.int64)
        last = self.weights_history_[-1] if points else W
        if self.pocket:
            # The plain pocket: the weights visited with the fewest training mistakes.
            counts = [_class_mistakes(rows, codes, weights) for weights in self.weights_history_]
            best = int(np.argmin(counts)) if counts else -1
            self.pocket_mistakes_ = counts[best] if counts else _class_mistakes(rows, codes, W)
            last = self.weights_history_[best] if counts else W
        self.coef_, self.intercept_ = last[:, :-1].copy(), last[:, -1].copy()
        return self

    @property
    def history_(self) -> list[Update]:
        """Every update in order: the pass, the point, and (w, b) after it (k ≥ 3: W and the two classes)."""
        check_is_fitted(self, "weights_history_")
        if self.weights_history_.ndim == 3:
            return [
                Update(int(e), int(i), W[:, :-1].copy(), W[:, -1].copy(), int(t), int(p))
                for e, i, W, t, p in zip(
                    self.update_epochs_,
                    self.update_points_,
                    self.weights_history_,
                    self.update_true_,
                    self.update_predicted_,
                    strict=True,
                )
            ]
        return [
            Update(int(e), int(i), row[:-1].copy(), float(row[-1]))
            for e, i, row in zip(self.update_epochs_, self.update_points_, self.weights_history_, strict=True)
        ]

    def decision_function(self, X: Any) -> np.ndarray:
        """w·x + b for each row of X; k ≥ 3 classes: (rows, k), each class's w_c·x + b_c."""
        check_is_fitted(self, "coef_")
        X = check_array(X, n_features=self.n_features_in_, estimator=self)
        return (
            X @ self.coef_.T + self.intercept_ if self.coef_.ndim == 2 else X @ self.coef_ + self.intercept_
        )


BLOCK = 128  # rows per scan: a matrix-vector product over 128 rows costs about what one row does


def _one_pass(rows: np.ndarray, steps: np.ndarray, v: np.ndarray) -> tuple[list[int], np.ndarray]:
    """One pass of the rule over rows (y_i x_i, y_i) in order from v = (w, b): mistakes' positions, v after.

    Each mistake is found with one vectorised scan of the rows after the last one, a block of
    them (doubled while it holds none): the first margin y_i (w·x_i + b) ≤ 0. So the Python loop
    runs once per update, not once per point.
    """
    mistakes: list[int] = []
    position, size, n = 0, BLOCK, len(rows)
    while position < n:
        margins = rows[position : position + size].dot(v)
        first = int((margins <= 0.0).argmax())  # the first margin ≤ 0 (or the first, if none)
        if margins[first] > 0:
            position, size = position + size, 2 * size
            continue
        position += first
        v = v + steps[position]
        mistakes.append(position)
        position, size = position + 1, BLOCK
    return mistakes, v


def _one_pass_classes(
    rows: np.ndarray, codes: np.ndarray, rate: float, W: np.ndarray
) -> tuple[list[tuple[int, int]], np.ndarray]:
    """One pass of the k-class rule over rows (x_i, 1) in order from W: [(position, rival)], W after.

    As ``_one_pass``, each mistake is found with one scan of a block of the rows after the last
    one (doubled while it holds none), so the Python loop runs once per update.
    """
    mistakes: list[tuple[int, int]] = []
    W = W.copy()
    position, size, n = 0, BLOCK, len(rows)
    while position < n:
        block = slice(position, position + size)
        first, rival = _first_mistake(rows[block] @ W.T, codes[block])
        if first < 0:
            position, size = position + size, 2 * size
            continue
        position += first
        W[codes[position]] += rate * rows[position]  # the true class's vector gains the point
        W[rival] -= rate * rows[position]  # the predicted one's loses it
        mistakes.append((position, rival))
        position, size = position + 1, BLOCK
    return mistakes, W


def _class_weights(
    rows: np.ndarray, codes: np.ndarray, rate: float, points: list[int], rivals: list[int], k: int
) -> np.ndarray:
    """W after each update, (updates, k, features + 1), from zero, added one update at a time."""
    steps = np.zeros((len(points) + 1, k, rows.shape[1]))
    index = np.arange(1, len(points) + 1)
    steps[index, codes[points]] += rate * rows[points]
    steps[index, rivals] -= rate * rows[points]
    return np.cumsum(steps, axis=0)[1:]


def _class_mistakes(rows: np.ndarray, codes: np.ndarray, W: np.ndarray) -> int:
    """How many points' own class does not score strictly highest under W."""
    scores = rows @ W.T
    own = scores[np.arange(len(rows)), codes]
    scores[np.arange(len(rows)), codes] = -np.inf
    return int(np.sum(own <= scores.max(axis=1)))


def _weights(steps: np.ndarray, points: list[int]) -> np.ndarray:
    """(w, b) after each update, from zero: the running sums of the steps, added one at a time."""
    start = np.zeros((1, steps.shape[1]))
    return np.cumsum(np.vstack([start, steps[points]]), axis=0)[1:]


def _first_repeat(points: list[int], weights: np.ndarray) -> tuple[int, int] | None:
    """(m, n), counted from 1: the first update n whose state (point, w, b) equals that after update m."""
    states = np.column_stack([np.array(points, dtype=np.float64), weights])
    keys = states.view(np.dtype((np.void, states.itemsize * states.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    earlier = first[inverse.ravel()]
    repeats = np.flatnonzero(earlier < np.arange(len(keys)))
    return (int(earlier[repeats[0]]) + 1, int(repeats[0]) + 1) if len(repeats) else None


def _pocket(
    X: np.ndarray, signs: np.ndarray, w: np.ndarray, b: float, best: tuple[int, np.ndarray, float]
) -> tuple[int, np.ndarray, float]:
    """The pocket after an update to (w, b): (mistakes, w, b) of the best weights seen so far.

    Besides (w, b) itself, the line along the same w at its best bias is a candidate. Gallant's
    plain pocket only compares the weights the perceptron visits; on XOR's integer corners
    those are integers, and the few integer lines that get 3 of 4 strictly right are rarely
    visited, so the plain pocket mostly ends at 2 of 4. Sliding the line along w finds 3 of 4
    from any diagonal w, which the perceptron visits within a few updates.
    """
    count = mistakes(X, signs, w, b)
    if count < best[0]:
        best = (count, w.copy(), b)
    if w.any() and count > 0:
        right, cut = best_cuts((X @ w)[:, None], signs)
        if len(X) - int(right[0]) < best[0]:
            best = (len(X) - int(right[0]), w.copy(), float(-cut[0]))
    return best


def mistakes(X: np.ndarray, signs: np.ndarray, w: np.ndarray, b: float) -> int:
    """How many points (labels ±1) are misclassified or on the line by (w, b)."""
    return int(np.sum(signs * (X @ w + b) <= 0))


def kernel_matrix(
    A: np.ndarray, B: np.ndarray, kernel: str = "linear", degree: int = 2, gamma: float = 1.0
) -> np.ndarray:
    """K(a, b) for every pair of rows: a·b, (a·b + 1)^degree, or exp(−γ |a − b|²)."""
    if kernel == "linear":
        return A @ B.T
    if kernel == "polynomial":
        return (A @ B.T + 1.0) ** degree
    squared = (A * A).sum(axis=1)[:, None] + (B * B).sum(axis=1)[None, :] - 2 * A @ B.T
    return np.exp(-gamma * np.maximum(squared, 0.0))


class DualPerceptron(_ScoreClassifier):
    """The perceptron in dual form, with a kernel.

    f(x) = Σ_i α_i y_i K(x_i, x) + b; a mistake on point i adds one to α_i and y_i to b.

    Parameters
    ----------
    kernel : {"linear", "polynomial", "rbf"}, default "linear"
    degree : int, default 2
        Polynomial degree: K = (x·z + 1)^degree.
    gamma : float, default 1.0
        RBF width: K = exp(−γ |x − z|²).
    max_epochs : int, default 100

    Attributes
    ----------
    alpha_ : number of updates each training point caused.
    dual_coef_ : α_i y_i per point; k ≥ 3 classes: (k, n_samples), row c the signed number of
        times each point was added to class c's vector (+1) or taken from it (−1).
    intercept_ : b; k ≥ 3 classes: (k,), one per class.
    classes_, n_features_in_, converged_, n_epochs_ ;
    coef_ (linear kernel only) = Σ α_i y_i x_i; k ≥ 3 classes (k, n_features).
    """

    def __init__(
        self, *, kernel: str = "linear", degree: int = 2, gamma: float = 1.0, max_epochs: int = 100
    ) -> None:
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.max_epochs = max_epochs

    def fit(self, X: Any, y: Any) -> DualPerceptron:
        """Visit the points in order, adding 1 to α_i at each mistake, until a clean pass."""
        if self.kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {', '.join(KERNELS)}; got {self.kernel!r}")
        max_epochs = _check_max_epochs(self.max_epochs)
        X, self.classes_, codes = _check_classes(X, y, self)
        self.n_features_in_ = X.shape[1]
        gram = kernel_matrix(X, X, self.kernel, self.degree, self.gamma)
        if len(self.classes_) > 2:
            return self._fit_classes(X, codes, gram, max_epochs)
        signs = np.where(codes == 1, 1.0, -1.0)
        n = len(X)
        alpha, b = np.zeros(n), 0.0
        # f_j = Σ_i α_i y_i K(x_i, x_j), kept up to date: a mistake on i adds y_i K(x_i, ·).
        f = np.zeros(n)
        self.converged_ = False
        for epoch in range(max_epochs):
            self.n_epochs_ = epoch + 1
            # Whole-pass scans: the dual form is for small data sets (its Gram matrix is n × n).
            errors, position = 0, 0
            while position < n:
                wrong = signs[position:] * (f[position:] + b) <= 0
                first = int(wrong.argmax())
                if not wrong[first]:
                    break
                position += first
                alpha[position] += 1
                f += signs[position] * gram[position]
                b += signs[position]
                errors += 1
                position += 1
            if errors == 0:
                self.converged_ = True
                break
        self.alpha_, self.intercept_, self.X_, self.signs_ = alpha, b, X, signs
        self.dual_coef_ = alpha * signs
        return self

    def _fit_classes(
        self, X: np.ndarray, codes: np.ndarray, gram: np.ndarray, max_epochs: int
    ) -> DualPerceptron:
        """The k-class rule in dual form: row c of ``dual_coef_`` says how often each point was
        added to class c's vector (+1) or taken from it (−1), so f_c(x) = Σ_i dual_coef_[c, i] K(x_i, x) + b_c.
        """
        k, n = len(self.classes_), len(X)
        dual, b, alpha = np.zeros((k, n)), np.zeros(k), np.zeros(n)
        # F[j, c] = Σ_i dual[c, i] K(x_i, x_j), kept up to date: an update on i changes two columns.
        F = np.zeros((n, k))
        self.converged_ = False
        for epoch in range(max_epochs):
            self.n_epochs_ = epoch + 1
            errors, position = 0, 0
            while position < n:
                first, rival = _first_mistake(F[position:] + b, codes[position:])
                if first < 0:
                    break
                position += first
                true = codes[position]
                alpha[position] += 1
                dual[true, position] += 1  # the true class gains the point
                dual[rival, position] -= 1  # the predicted one loses it
                F[:, true] += gram[position]
                F[:, rival] -= gram[position]
                b[true] += 1
                b[rival] -= 1
                errors += 1
                position += 1
            if errors == 0:
                self.converged_ = True
                break
        self.alpha_, self.dual_coef_, self.intercept_, self.X_ = alpha, dual, b, X
        return self

    @property
    def coef_(self) -> np.ndarray:
        """w = Σ α_i y_i x_i (k ≥ 3 classes: one row per class); defined for the linear kernel only."""
        if self.kernel != "linear":
            raise AttributeError("coef_ exists only for the linear kernel")
        check_is_fitted(self, "alpha_")
        return self.dual_coef_ @ self.X_

    def decision_function(self, X: Any) -> np.ndarray:
        """Σ α_i y_i K(x_i, x) + b for each row of X; k ≥ 3 classes: (rows, k), one score per class."""
        check_is_fitted(self, "alpha_")
        X = check_array(X, n_features=self.n_features_in_, estimator=self)
        K = kernel_matrix(self.X_, X, self.kernel, self.degree, self.gamma)
        return (
            (self.dual_coef_ @ K).T + self.intercept_
            if self.dual_coef_.ndim == 2
            else self.dual_coef_ @ K + self.intercept_
        )


def margin(X: Any, y: Any, w: Any, b: float) -> float:
    """Geometric margin min_i y_i (w·x_i + b) / |w| (labels: the larger one is +1).

    Negative when some point is on the wrong side.
    """
    X, _, signs = _check_two_classes(X, y)
    w = np.asarray(w, dtype=np.float64)
    norm = np.linalg.norm(w)
    if norm == 0:
        return 0.0
    return float(np.min(signs * (X @ w + b)) / norm)


@dataclass(frozen=True)
class MistakeBound:
    """Novikoff's bound (R/γ)² with the R, γ and separator it was computed from."""

    bound: float
    R: float
    gamma: float
    w: np.ndarray
    b: float


def best_separator(
    X: np.ndarray, signs: np.ndarray, directions: int = 3600
) -> tuple[np.ndarray, float, float]:
    """The widest-margin line among ``directions`` unit normals (2-D: an angle sweep).

    For a fixed unit normal u, the best bias puts the line halfway between the classes'
    projections, with margin (min_{y=+1} u·x − max_{y=−1} u·x) / 2. Sweeping the angle finds
    the maximum-margin line to within the sweep's resolution. In more than two dimensions,
    random unit normals are tried instead.
    """
    if X.shape[1] == 2:
        angles = np.linspace(0, 2 * np.pi, directions, endpoint=False)
        normals = np.column_stack([np.cos(angles), np.sin(angles)])
    else:
        normals = np.random.default_rng(0).normal(size=(directions * 10, X.shape[1]))
        normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    projections = X @ normals.T
    low = projections[signs > 0].min(axis=0)
    high = projections[signs < 0].max(axis=0)
    best = int(np.argmax(low - high))
    return normals[best], float(-(low[best] + high[best]) / 2), float((low[best] - high[best]) / 2)


def mistake_bound(X: Any, y: Any) -> MistakeBound:
    """Novikoff's bound on the perceptron's updates, (R/γ)², for the learner with a bias.

    The bias is a weight on a constant feature 1, so R = max |(x_i, 1)| and γ is the margin
    of the best separating line found by :func:`best_separator`, measured in that augmented
    space: γ = min_i y_i (w·x_i + b) / |(w, b)|. A wider line gives a smaller (better)
    bound; the exact maximum-margin line gives the smallest. Infinite when no line separates
    the data. The number of points does not enter it.
    """
    X, _, signs = _check_two_classes(X, y)
    w, b, _ = best_separator(X, signs)
    gamma = float(np.min(signs * (X @ w + b)) / np.hypot(np.linalg.norm(w), b))
    R = float(np.sqrt((X * X).sum(axis=1).max() + 1.0))
    bound = (R / gamma) ** 2 if gamma > 0 else np.inf
    return MistakeBound(bound, R, gamma, w, b)


def best_cuts(projections: np.ndarray, signs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each column of projections (points × directions), the best threshold t along it.

    Points projecting above t are called +1, the others −1; only cuts between distinct
    projections (or beyond either end) are tried, so no point lies on the line. Returns the
    number of points each best cut gets right, and the cuts t (the line is u·x − t = 0).
    """
    n, m = projections.shape
    order = np.argsort(projections, axis=0, kind="stable")
    ranked = np.take_along_axis(projections, order, axis=0)
    positive = signs[order] > 0
    # A cut after the k lowest points: those are called −1, the rest +1.
    negatives_below = np.vstack([np.zeros((1, m)), np.cumsum(~positive, axis=0)])
    positives_above = np.vstack([np.cumsum(positive[::-1], axis=0)[::-1], np.zeros((1, m))])
    ends = np.ones((1, m), bool)
    distinct = np.vstack([ends, ranked[1:] > ranked[:-1], ends])
    right = np.where(distinct, negatives_below + positives_above, -1)
    k = right.argmax(axis=0)
    columns = np.arange(m)
    padded = np.vstack([ranked[:1] - 1, ranked, ranked[-1:] + 1])
    cut = (padded[k, columns] + padded[k + 1, columns]) / 2
    return right[k, columns], cut
