"""What every estimator in ``classic`` shares: the scikit-learn contract, without scikit-learn.

- ``Estimator``: the constructor only stores its keyword-only arguments; ``get_params``,
  ``set_params`` and ``__repr__`` are read off the constructor's signature, so a subclass never
  lists its parameters twice. This is all ``sklearn.base.clone``, ``cross_val_score`` and
  ``GridSearchCV`` need from an estimator.
- ``NotFittedError``: raised when ``predict`` (or anything that reads learned attributes) is
  called before ``fit``; a subclass of ValueError and AttributeError, as scikit-learn's is.
- ``check_random_state``: a seed, a Generator or None → a ``numpy.random.Generator``.
"""

from __future__ import annotations

import inspect
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
            input_tags=InputTags(string=True, categorical=True),
        )

    def score(self, X: Any, y: Any) -> float:
        """Accuracy of ``predict(X)`` against ``y``."""
        return float(np.mean(self.predict(X) == np.asarray(y)))  # type: ignore[attr-defined]
