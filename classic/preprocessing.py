"""Feature scaling: put every feature on a comparable scale before measuring distances.

k-NN adds up differences across features, so a feature measured in large units (a shoe size
in millimetres next to a height in metres) dominates the distance. ``MinMaxScaler`` maps each
feature to [0, 1]: x' = (x − min) / (max − min); ``StandardScaler`` to zero mean and unit
variance: x' = (x − μ) / σ. Both learn their numbers from the training data only (``fit``) and
apply them to any later data (``transform``). A constant feature is left unscaled (divisor 1).
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _as_matrix(X: Any) -> np.ndarray:
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"X must be a non-empty 2-D array (rows × features), got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X contains NaN or infinite values")
    return X


class _Scaler:
    """Shared transform logic: x' = (x − offset_) / scale_."""

    offset_: np.ndarray
    scale_: np.ndarray

    def fit_transform(self, X: Any) -> np.ndarray:
        return self.fit(X).transform(X)

    def transform(self, X: Any) -> np.ndarray:
        if not hasattr(self, "scale_"):
            raise ValueError(f"{type(self).__name__} is not fitted yet: call fit(X) first")
        X = _as_matrix(X)
        if X.shape[1] != len(self.scale_):
            raise ValueError(f"X has {X.shape[1]} features, the scaler was fitted on {len(self.scale_)}")
        return (X - self.offset_) / self.scale_

    def inverse_transform(self, X: Any) -> np.ndarray:
        return np.asarray(X, dtype=np.float64) * self.scale_ + self.offset_

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class MinMaxScaler(_Scaler):
    """Scale each feature to [0, 1] using the training minimum and maximum.

    Attributes
    ----------
    data_min_, data_max_ : ndarray of shape (n_features,)
    """

    def fit(self, X: Any) -> MinMaxScaler:
        X = _as_matrix(X)
        self.data_min_, self.data_max_ = X.min(axis=0), X.max(axis=0)
        span = self.data_max_ - self.data_min_
        self.offset_, self.scale_ = self.data_min_, np.where(span > 0, span, 1.0)
        return self


class StandardScaler(_Scaler):
    """Scale each feature to mean 0 and standard deviation 1 (population σ, as scikit-learn).

    Attributes
    ----------
    mean_, std_ : ndarray of shape (n_features,)
    """

    def fit(self, X: Any) -> StandardScaler:
        X = _as_matrix(X)
        self.mean_, self.std_ = X.mean(axis=0), X.std(axis=0)
        self.offset_, self.scale_ = self.mean_, np.where(self.std_ > 0, self.std_, 1.0)
        return self
