"""Tests for classic.preprocessing against scikit-learn's scalers."""

import numpy as np
import pytest
from sklearn import preprocessing as sk

from classic._validation import NotFittedError
from classic.preprocessing import MinMaxScaler, StandardScaler


@pytest.mark.parametrize(
    ("ours", "theirs"), [(MinMaxScaler, sk.MinMaxScaler), (StandardScaler, sk.StandardScaler)]
)
def test_scalers_equal_sklearn(ours, theirs):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 3)) * [1, 100, 0.01] + [0, 5, -3]
    X[:, 2] = 7.0  # a constant feature is left unscaled
    new = rng.normal(size=(10, 3))
    scaler, oracle = ours().fit(X), theirs().fit(X)
    np.testing.assert_allclose(scaler.transform(new), oracle.transform(new))
    np.testing.assert_allclose(scaler.fit_transform(X), oracle.fit_transform(X), atol=1e-12)
    np.testing.assert_allclose(scaler.inverse_transform(scaler.transform(new)), new)


def test_scaler_errors():
    with pytest.raises(ValueError, match="not fitted"):
        MinMaxScaler().transform([[1.0]])
    with pytest.raises(ValueError, match="features"):
        StandardScaler().fit([[1.0, 2.0]]).transform([[1.0]])
    with pytest.raises(ValueError, match="NaN"):
        StandardScaler().fit([[np.nan]])


@pytest.mark.parametrize("scaler", [MinMaxScaler, StandardScaler])
def test_scalers_follow_the_estimator_contract(scaler):
    from sklearn.base import clone

    X = np.arange(12.0).reshape(4, 3)
    unfitted = scaler()
    assert unfitted.fit(X) is unfitted and unfitted.n_features_in_ == 3
    assert repr(scaler()) == f"{scaler.__name__}()" and clone(scaler()).get_params() == {}
    for method in (scaler().transform, scaler().inverse_transform):
        with pytest.raises(NotFittedError):
            method(X)
