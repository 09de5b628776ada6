"""Feature scaling: put every feature on a comparable scale before measuring distances.

k-NN adds up differences across features, so a feature with a large range dominates the
distance: the course notes' example predicts a shoe size from height and weight, and the
weight, spread over a much larger range than the height, decides alone. ``MinMaxScaler`` maps
each feature to [0, 1]: x' = (x − min) / (max − min); ``StandardScaler`` to zero mean and unit
variance: x' = (x − μ) / σ. Both learn their numbers from the training data only (``fit``) and
apply them to any later data (``transform``). A constant feature is left unscaled (divisor 1).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from classic._validation import Estimator, check_is_fitted


def _as_matrix(X: Any) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"X must be a non-empty 2-D array (rows × features), got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinite values")
    return X


class _Scaler(Estimator):
    """Shared transform logic: x' = (x − offset_) / scale_."""

    offset_: np.ndarray
    scale_: np.ndarray

    def __init__(self) -> None:
        pass

    def _learn(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def fit(self, X: Any, y: Any = None) -> _Scaler:
        """Learn each feature's offset and scale from X (``y`` is ignored). Returns self."""
        X = _as_matrix(X)
        self.offset_, self.scale_ = self._learn(X)
        self.n_features_in_ = X.shape[1]
        return self

    def fit_transform(self, X: Any, y: Any = None) -> np.ndarray:
        return self.fit(X).transform(X)

    def transform(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "scale_")
        X = _as_matrix(X)
        if X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, the scaler was fitted on {self.n_features_in_}")
        return (X - self.offset_) / self.scale_

    def inverse_transform(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "scale_")
        return np.asarray(X, dtype=np.float64) * self.scale_ + self.offset_


class MinMaxScaler(_Scaler):
    """Scale each feature to [0, 1] using the training minimum and maximum.

    Attributes
    ----------
    data_min_, data_max_ : ndarray of shape (n_features,)
    offset_, scale_ : the minimum and the range (1 for a constant feature).
    """

    def _learn(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.data_min_, self.data_max_ = X.min(axis=0), X.max(axis=0)
        span = self.data_max_ - self.data_min_
        return self.data_min_, np.where(span > 0, span, 1.0)


class StandardScaler(_Scaler):
    """Scale each feature to mean 0 and standard deviation 1 (population σ, as scikit-learn).

    Attributes
    ----------
    mean_, std_ : ndarray of shape (n_features,)
    offset_, scale_ : the mean and the standard deviation (1 for a constant feature).
    """

    def _learn(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.mean_, self.std_ = X.mean(axis=0), X.std(axis=0)
        return self.mean_, np.where(self.std_ > 0, self.std_, 1.0)
