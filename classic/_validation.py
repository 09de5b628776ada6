"""What every estimator in ``classic`` shares: the scikit-learn contract, without scikit-learn.

- ``Estimator``: the constructor only stores its keyword-only arguments; ``get_params``,
  ``set_params`` and ``__repr__`` are read off the constructor's signature, so a subclass never
  lists its parameters twice. This is all ``sklearn.base.clone``, ``cross_val_score`` and
  ``GridSearchCV`` need from an estimator.
- ``NotFittedError``: raised when ``predict`` (or anything that reads learned attributes) is
  called before ``fit``; a subclass of ValueError and AttributeError, as scikit-learn's is.
- ``check_random_state``: a seed, a Generator or None → a ``numpy.random.Generator``.
- ``check_array``, ``check_labels``, ``check_n_features``, ``check_consistent_length``: the one
  place where every estimator checks its X (before ``fit`` and ``predict``) and its labels y, with scikit-learn's messages
  where its estimator checks look for them ("Complex data not supported", "Reshape your data",
  "0 feature(s) (shape=…) while a minimum of 1 is required", "Unknown label type", "X has 1
  features, but … is expecting 4 features as input", "requires y to be passed").
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import numpy as np

RandomState = int | np.random.Generator | None


class NotFittedError(ValueError, AttributeError):
    """An estimator was used before ``fit`` was called."""


def check_random_state(random_state: RandomState) -> np.random.Generator:
    """Turn a seed, a Generator or None into a ``numpy.random.Generator``."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is None or (
        isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool)
    ):
        return np.random.default_rng(random_state)
    raise ValueError(f"random_state must be an int, a numpy Generator or None, got {random_state!r}")


def check_is_fitted(estimator: Any, attribute: str) -> None:
    """Raise ``NotFittedError`` unless ``estimator`` has the learned ``attribute``."""
    if not hasattr(estimator, attribute):
        raise NotFittedError(
            f"this {type(estimator).__name__} is not fitted yet: call fit(X, y) before using it"
        )


class DataConversionWarning(UserWarning):
    """The input was converted to what the estimator takes (a column y (n, 1) read as 1-D)."""


def is_sparse(X: Any) -> bool:
    """A scipy.sparse matrix or array, recognised without importing scipy."""
    return type(X).__module__.startswith("scipy.sparse") or (hasattr(X, "tocsr") and hasattr(X, "nnz"))


def check_array(
    X: Any,
    *,
    numeric: bool = True,
    keep_integers: bool = False,
    allow_nan: bool = False,
    n_features: int | None = None,
    estimator: Any = None,
    name: str = "X",
) -> np.ndarray:
    """X as a non-empty 2-D array (rows × features), checked; float64 when ``numeric``.

    Refused, with a message that says what was wrong and what is allowed: None, sparse matrices
    (TypeError: not supported, pass a dense array), complex numbers, a scalar or a 1-D array
    (reshape), more than two dimensions, no rows or no columns, values that are not numbers
    (TypeError, when ``numeric``), NaN and ±inf (unless ``allow_nan``), and, with
    ``n_features``, a number of columns other than the fitted one. ``numeric=False`` keeps the
    array's own dtype (strings or objects for categorical data); ``keep_integers`` keeps an
    integer or boolean array as it is (pixels: exact, and a quarter of float64's memory as uint8).
    """
    who = type(estimator).__name__ if estimator is not None else "this estimator"
    if X is None:
        raise ValueError(f"{name} is None: {who} expects a 2-D array of rows × features")
    if is_sparse(X):
        raise TypeError(
            f"{name} is a sparse matrix: sparse input is not supported by {who}; "
            f"pass a dense array ({name}.toarray())"
        )
    try:
        array = X if isinstance(X, np.ndarray) else np.asarray(X, dtype=None if numeric else object)
    except ValueError as error:  # ragged rows
        raise ValueError(f"{name} must be a 2-D array with rows of one length ({error})") from None
    if array.dtype.kind == "c" or (array.dtype == object and any(isinstance(v, complex) for v in array.flat)):
        raise ValueError(f"Complex data not supported: {name} holds complex numbers; give real ones")
    if numeric and array.dtype != np.float64 and not (keep_integers and array.dtype.kind in "biu"):
        try:
            array = array.astype(np.float64)
        except TypeError as error:
            raise TypeError(f"{name} must be numeric, {who} takes numbers only ({error})") from None
        except ValueError as error:
            raise ValueError(f"{name} must be numeric, {who} takes numbers only ({error})") from None
    if array.ndim < 2:
        shape = "a scalar" if array.ndim == 0 else f"a 1-D array of shape {array.shape}"
        raise ValueError(
            f"{who} expects {name} as a 2-D array (rows × features), got {shape}. Reshape your data: "
            "array.reshape(-1, 1) if it is one feature, array.reshape(1, -1) if it is one sample"
        )
    if array.ndim > 2:
        raise ValueError(f"{who} expects {name} as a 2-D array (rows × features), got shape {array.shape}")
    for count, what in ((array.shape[0], "sample"), (array.shape[1], "feature")):
        if count == 0:
            raise ValueError(
                f"{name} must be non-empty: found array with 0 {what}(s) (shape={array.shape}) while a "
                f"minimum of 1 is required by {who} (at least one row and one column)"
            )
    if not allow_nan and array.dtype.kind == "f" and not np.isfinite(array).all():
        found = "NaN" if np.isnan(array).any() else "infinity"
        raise ValueError(f"Input {name} contains {found}: {who} takes finite numbers only")
    if n_features is not None:
        check_n_features(array, n_features, estimator, name)
    return array


def check_consistent_length(X: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """X and y as arrays, refused when they are empty or their numbers of rows differ (as
    scikit-learn's ``check_consistent_length``). Their contents are the estimator's to check."""
    X, y = np.asarray(X), np.asarray(y)
    if len(X) != len(y):
        raise ValueError(f"X and y must have the same length, got {len(X)} and {len(y)}")
    if len(y) == 0:
        raise ValueError("X and y are empty")
    return X, y


def check_n_features(X: np.ndarray, n_features: int, estimator: Any = None, name: str = "X") -> None:
    """Refuse X whose number of columns is not the ``n_features_in_`` the estimator was fitted with."""
    if X.shape[1] != n_features:
        who = type(estimator).__name__ if estimator is not None else "the estimator"
        raise ValueError(
            f"{name} has {X.shape[1]} features, but {who} is expecting {n_features} features as input "
            f"(it was fitted with {n_features})"
        )


def check_labels(y: Any, n_samples: int, estimator: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Class labels for ``n_samples`` rows: (y as a 1-D array, the sorted classes, each row's index).

    Labels are categories: integers, strings, booleans, or floats that are whole numbers. A
    column (n, 1) is read as 1-D with a ``DataConversionWarning``. Refused: None, sparse,
    complex, other shapes, a length other than n_samples, NaN or ±inf, and fractional floats
    (a continuous target, "Unknown label type: continuous"). The classes keep y's dtype.
    """
    who = type(estimator).__name__ if estimator is not None else "this classifier"
    if y is None:
        raise ValueError(
            f"{who} requires y to be passed, but the target y is None: give one label per row of X"
        )
    if is_sparse(y):
        raise TypeError(f"y is a sparse matrix: sparse input is not supported by {who}; pass a dense array")
    y = np.asarray(y)
    if np.iscomplexobj(y) or (y.dtype == object and any(isinstance(v, complex) for v in y.flat)):
        raise ValueError(
            "Complex data not supported: y holds complex numbers; labels are integers or strings"
        )
    if y.ndim == 2 and y.shape[1] == 1:
        warnings.warn(
            DataConversionWarning(
                "A column-vector y was passed when a 1d array was expected: "
                f"read as 1-D (y.ravel()); give y of shape ({len(y)},)"
            ),
            stacklevel=3,
        )
        y = y.ravel()
    if y.ndim != 1:
        raise ValueError(
            f"y should be a 1d array with one label per row of X, got an array of shape {y.shape} instead"
        )
    if len(y) != n_samples:
        raise ValueError(
            f"Found input variables with inconsistent numbers of samples: X has {n_samples} rows, "
            f"y has {len(y)} labels; give one label per row"
        )
    numbers = y.astype(np.float64) if y.dtype.kind == "f" else None
    if y.dtype == object and all(isinstance(v, (float, np.floating)) for v in y.tolist()):
        numbers = y.astype(np.float64)
    if numbers is not None:
        if not np.isfinite(numbers).all():
            found = "NaN" if np.isnan(numbers).any() else "infinity"
            raise ValueError(f"Input y contains {found}: labels must be classes (integers or strings)")
        if (numbers != np.round(numbers)).any():
            raise ValueError(
                "Unknown label type: continuous. y holds fractional numbers (a regression target); "
                f"{who} predicts classes: give labels as integers or strings"
            )
    try:
        classes, codes = _unique(y)
    except TypeError:
        kinds = sorted({type(v).__name__ for v in y.tolist()})
        raise ValueError(
            f"Unknown label type: y mixes labels of different types ({', '.join(kinds)}); "
            "give labels of one type: all integers or all strings"
        ) from None
    return y, classes, codes.ravel()


def _unique(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(y, return_inverse=True)``, without sorting y for small integers and strings.

    Integers from 0 to 2n are counted (a bincount) and strings put in a set: few labels, many
    rows. Same values, dtype and codes as np.unique.
    """
    if y.dtype.kind == "i" and len(y) and 0 <= y.min() and y.max() < 2 * len(y):
        present = np.bincount(y) > 0
        return present.nonzero()[0].astype(y.dtype), (present.cumsum() - 1).take(y)
    if y.dtype.kind in "US":
        classes = np.array(sorted(set(y.tolist())), dtype=y.dtype)
        return classes, classes.searchsorted(y)
    classes, codes = np.unique(y, return_inverse=True)
    return classes, codes.ravel()


class Estimator:
    """Base class: parameters from the constructor's signature (as scikit-learn's BaseEstimator).

    ``_estimator_type`` is "classifier" (``predict``, ``score``) or "transformer" (the scalers).
    """

    _estimator_type = "classifier"

    @classmethod
    def _param_names(cls) -> list[str]:
        signature = inspect.signature(cls.__init__)
        return sorted(name for name, p in signature.parameters.items() if p.kind is p.KEYWORD_ONLY)

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The constructor's parameters and their current values."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params: Any) -> Estimator:
        """Set parameters by name (checked in ``fit``, as scikit-learn does); returns self."""
        valid = self._param_names()
        for name, value in params.items():
            if name not in valid:
                raise ValueError(f"{name!r} is not a parameter of {type(self).__name__}; they are {valid}")
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        """The class and the parameters that differ from their defaults."""
        defaults = {name: p.default for name, p in inspect.signature(type(self).__init__).parameters.items()}
        changed = []
        for name, value in self.get_params().items():
            default = defaults.get(name, inspect.Parameter.empty)
            try:
                same = bool(value == default) if not isinstance(value, np.ndarray) else False
            except (TypeError, ValueError):
                same = False
            if not same or type(value) is not type(default):
                changed.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(changed)})"

    def __sklearn_tags__(self) -> Any:
        """The tags scikit-learn's tools read (only ever called by scikit-learn, so importing it here is safe)."""
        from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags, TransformerTags

        classifier = self._estimator_type == "classifier"
        return Tags(
            estimator_type=self._estimator_type,
            target_tags=TargetTags(required=classifier),
            classifier_tags=ClassifierTags() if classifier else None,
            transformer_tags=None if classifier else TransformerTags(),
            input_tags=InputTags(**self._input_tags),
        )

    # What X may hold, as scikit-learn's InputTags: numbers only by default; ID3 overrides it.
    _input_tags: dict[str, bool] = {"string": False, "categorical": False, "allow_nan": False}

    def score(self, X: Any, y: Any) -> float:
        """Accuracy of ``predict(X)`` against ``y``."""
        return float(np.mean(self.predict(X) == np.asarray(y)))  # type: ignore[attr-defined]
