"""The perceptron: a line that moves at every mistake until it separates two classes.

With labels y_i ∈ {−1, +1}, weights w and bias b start at zero; for each training point in
turn, if it is on the wrong side or on the line, y_i (w·x_i + b) ≤ 0, the rule adds it in:

    w ← w + η y_i x_i,    b ← b + η y_i.

Novikoff's theorem: if some line separates the data with margin γ, and every point lies within
R of the origin, the perceptron makes at most (R/γ)² mistakes, whatever the order. On XOR no
line separates the points, and since the updates are deterministic the weights eventually
return to a state they had at the same point of a pass: from then on the passes repeat for
ever. ``Perceptron`` detects that cycle and stops. The dual form keeps instead α_i, the
number of updates point i caused, so that w = Σ α_i y_i x_i; replacing x·z by a kernel
K(x, z) lets the same rule draw curved boundaries, which separate XOR.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from classic import datasets
from classic.datasets import RandomState, check_random_state

KERNELS = ("linear", "polynomial", "rbf")


@dataclass(frozen=True)
class Update:
    """One update of the perceptron: the point (by index) that was misclassified, and (w, b) after."""

    epoch: int
    index: int
    w: np.ndarray
    b: float


def _check_two_classes(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validated float X, the two classes, and labels as −1 (first class) / +1 (second)."""
    try:
        X = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("X must be numeric") from None
    y = np.asarray(y)
    if X.ndim != 2 or len(X) == 0:
        raise ValueError(f"X must be a non-empty 2-D array (rows × features); got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinite values")
    if y.ndim != 1 or len(y) != len(X):
        raise ValueError(f"y must be 1-D with one label per row of X; got {len(y)} labels for {len(X)} rows")
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError(
            f"the perceptron separates exactly two classes; got {len(classes)}: {classes.tolist()}"
        )
    return X, classes, np.where(y == classes[1], 1.0, -1.0)


class _Classifier:
    """predict / score from a ``decision_function``, shared by both forms."""

    classes_: np.ndarray

    def decision_function(self, X: Any) -> np.ndarray:
        raise NotImplementedError

    def predict(self, X: Any) -> np.ndarray:
        """The second class where the decision function is positive, else the first."""
        positive = self.decision_function(X) > 0
        return self.classes_[positive.astype(int)]

    def score(self, X: Any, y: Any) -> float:
        """Accuracy on (X, y)."""
        return float(np.mean(self.predict(X) == np.asarray(y)))


class Perceptron(_Classifier):
    """Rosenblatt's perceptron, recording every update.

    Parameters
    ----------
    max_epochs : int, default 100
        Passes over the data at most.
    learning_rate : float, default 1.0
        η in the update rule (with zero start it only scales w and b).
    shuffle : bool, default False
        Visit the points in a new random order each pass (then no cycle can be proved).
    random_state : int, Generator or None
        Seed for the shuffling.
    pocket : bool, default False
        Keep the weights with the fewest training mistakes seen ("pocket" algorithm) as the
        result, instead of the last ones.

    Attributes
    ----------
    coef_, intercept_ : the weights w and bias b of the result.
    classes_ : the two labels; the second is the positive side.
    converged_ : bool, a full pass made no mistake.
    n_updates_, n_epochs_ : updates made and passes started.
    history_ : list of Update, one per update.
    cycle_ : None, or (m, n): the weights after update n equal those after update m, at the
        same point of a pass, so the passes repeat for ever.
    mistakes_per_epoch_ : list of int.
    """

    def __init__(
        self,
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

    def __repr__(self) -> str:
        return f"Perceptron(max_epochs={self.max_epochs}, learning_rate={self.learning_rate}, pocket={self.pocket})"

    def fit(self, X: Any, y: Any) -> Perceptron:
        """Run the perceptron rule until a pass makes no mistake, a cycle appears, or max_epochs."""
        if (
            isinstance(self.max_epochs, bool)
            or int(self.max_epochs) != self.max_epochs
            or self.max_epochs < 1
        ):
            raise ValueError(f"max_epochs must be a positive integer; got {self.max_epochs!r}")
        if not (np.isfinite(self.learning_rate) and self.learning_rate > 0):
            raise ValueError(f"learning_rate must be a positive number; got {self.learning_rate!r}")
        X, self.classes_, signs = _check_two_classes(X, y)
        rng = check_random_state(self.random_state)
        w, b = np.zeros(X.shape[1]), 0.0
        best = (mistakes(X, signs, w, b), w.copy(), b)
        self.history_, self.mistakes_per_epoch_, self.cycle_ = [], [], None
        self.converged_ = False
        seen: dict[tuple, int] = {}
        order = np.arange(len(X))
        for epoch in range(int(self.max_epochs)):
            self.n_epochs_ = epoch + 1
            if self.shuffle:
                order = rng.permutation(len(X))
            errors = 0
            for position, i in enumerate(order):
                if signs[i] * (w @ X[i] + b) > 0:
                    continue
                errors += 1
                w = w + self.learning_rate * signs[i] * X[i]
                b = b + self.learning_rate * signs[i]
                self.history_.append(Update(epoch, int(i), w.copy(), float(b)))
                if self.pocket:
                    count = mistakes(X, signs, w, b)
                    if count < best[0]:
                        best = (count, w.copy(), b)
                if not self.shuffle:
                    state = (position, w.tobytes(), b)
                    if state in seen:
                        self.cycle_ = (seen[state], len(self.history_))
                        break
                    seen[state] = len(self.history_)
            self.mistakes_per_epoch_.append(errors)
            if errors == 0:
                self.converged_ = True
                break
            if self.cycle_ is not None:
                break
        self.n_updates_ = len(self.history_)
        self.coef_, self.intercept_ = (best[1], best[2]) if self.pocket else (w, b)
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """w·x + b for each row of X."""
        if not hasattr(self, "coef_"):
            raise ValueError("this Perceptron is not fitted yet: call fit(X, y) first")
        return np.asarray(X, dtype=np.float64) @ self.coef_ + self.intercept_


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


class DualPerceptron(_Classifier):
    """The perceptron in dual form, with a kernel.

    f(x) = Σ_i α_i y_i K(x_i, x) + b; a mistake on point i adds one to α_i and y_i to b.

    Parameters
    ----------
    kernel : {"linear", "polynomial", "rbf"}
    degree : int, polynomial degree.
    gamma : float, RBF width: K = exp(−γ |x − z|²).
    max_epochs : int

    Attributes
    ----------
    alpha_ : number of updates each training point caused.
    intercept_, classes_, converged_, n_epochs_ ; coef_ (linear kernel only) = Σ α_i y_i x_i.
    """

    def __init__(
        self, kernel: str = "linear", degree: int = 2, gamma: float = 1.0, max_epochs: int = 100
    ) -> None:
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.max_epochs = max_epochs

    def __repr__(self) -> str:
        return f"DualPerceptron(kernel={self.kernel!r}, degree={self.degree}, gamma={self.gamma})"

    def fit(self, X: Any, y: Any) -> DualPerceptron:
        if self.kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {', '.join(KERNELS)}; got {self.kernel!r}")
        if (
            isinstance(self.max_epochs, bool)
            or int(self.max_epochs) != self.max_epochs
            or self.max_epochs < 1
        ):
            raise ValueError(f"max_epochs must be a positive integer; got {self.max_epochs!r}")
        X, self.classes_, signs = _check_two_classes(X, y)
        gram = kernel_matrix(X, X, self.kernel, self.degree, self.gamma)
        alpha, b = np.zeros(len(X)), 0.0
        self.converged_ = False
        for epoch in range(int(self.max_epochs)):
            self.n_epochs_ = epoch + 1
            errors = 0
            for i in range(len(X)):
                if signs[i] * ((alpha * signs) @ gram[:, i] + b) <= 0:
                    alpha[i] += 1
                    b += signs[i]
                    errors += 1
            if errors == 0:
                self.converged_ = True
                break
        self.alpha_, self.intercept_, self.X_, self.signs_ = alpha, b, X, signs
        return self

    @property
    def coef_(self) -> np.ndarray:
        """w = Σ α_i y_i x_i (defined for the linear kernel only)."""
        if self.kernel != "linear":
            raise AttributeError("coef_ exists only for the linear kernel")
        return (self.alpha_ * self.signs_) @ self.X_

    def decision_function(self, X: Any) -> np.ndarray:
        """Σ α_i y_i K(x_i, x) + b for each row of X."""
        if not hasattr(self, "alpha_"):
            raise ValueError("this DualPerceptron is not fitted yet: call fit(X, y) first")
        K = kernel_matrix(self.X_, np.asarray(X, dtype=np.float64), self.kernel, self.degree, self.gamma)
        return (self.alpha_ * self.signs_) @ K + self.intercept_


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
    the data.
    """
    X, _, signs = _check_two_classes(X, y)
    w, b, _ = best_separator(X, signs)
    gamma = float(np.min(signs * (X @ w + b)) / np.hypot(np.linalg.norm(w), b))
    R = float(np.sqrt((X * X).sum(axis=1).max() + 1.0))
    bound = (R / gamma) ** 2 if gamma > 0 else np.inf
    return MistakeBound(bound, R, gamma, w, b)


def generalisation(
    n_train: int = 25, n_test: int = 1000, seeds: Any = range(100), **params: Any
) -> np.ndarray:
    """The post's experiment per seed: train on ``n_train`` points of the line y = 1 − x,
    test on ``n_test`` fresh ones; returns the test accuracies."""
    scores = []
    for seed in seeds:
        X, y = datasets.linearly_separable(n_train, random_state=seed)
        X_test, y_test = datasets.linearly_separable(n_test, random_state=10_000 + seed)
        if len(np.unique(y)) < 2:
            continue
        scores.append(Perceptron(**params).fit(X, y).score(X_test, y_test))
    return np.array(scores)
