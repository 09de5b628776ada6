"""Tests for classic.preprocessing against scikit-learn's scalers."""

import numpy as np
import pytest
from sklearn import preprocessing as sk

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
