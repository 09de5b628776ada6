"""Tests for classic.perceptron: convergence, the XOR cycle, the dual form, kernels, pocket, bounds."""

import numpy as np
import pytest

from classic import datasets
from classic.perceptron import DualPerceptron, Perceptron, generalisation, margin, mistake_bound, mistakes


@pytest.mark.parametrize("seed", range(10))
def test_converges_on_separable_data_and_classifies_every_point(seed):
    X, y = datasets.linearly_separable(25, random_state=seed)
    model = Perceptron(max_epochs=1000).fit(X, y)
    assert model.converged_ and model.cycle_ is None
    assert model.score(X, y) == 1.0
    assert model.mistakes_per_epoch_[-1] == 0 and len(model.mistakes_per_epoch_) == model.n_epochs_
    assert model.n_updates_ == len(model.history_) == sum(model.mistakes_per_epoch_)
    assert model.n_updates_ <= mistake_bound(X, y).bound  # Novikoff


def test_history_replays_the_update_rule():
    X, y = datasets.linearly_separable(25, random_state=3)
    model = Perceptron(learning_rate=0.5).fit(X, y)
    w, b = np.zeros(2), 0.0
    for update in model.history_:
        sign = 1 if y[update.index] == 1 else -1
        assert sign * (w @ X[update.index] + b) <= 0  # it really was a mistake
        w, b = w + 0.5 * sign * X[update.index], b + 0.5 * sign
        np.testing.assert_allclose(update.w, w)
        assert update.b == pytest.approx(b)
    np.testing.assert_allclose(model.coef_, w)


def test_xor_cycle_is_found_within_two_passes():
    X, y = datasets.xor()
    model = Perceptron(max_epochs=100).fit(X, y)
    assert not model.converged_
    assert model.n_epochs_ <= 2
    first, second = model.cycle_
    a, b = model.history_[first - 1], model.history_[second - 1]
    np.testing.assert_array_equal(a.w, b.w)
    assert a.b == b.b and a.index == b.index


def test_shuffling_is_reproducible_and_proves_no_cycle():
    X, y = datasets.xor(40, 0.1, random_state=0)
    one = Perceptron(max_epochs=20, shuffle=True, random_state=5).fit(X, y)
    two = Perceptron(max_epochs=20, shuffle=True, random_state=5).fit(X, y)
    assert one.cycle_ is None and one.n_epochs_ == 20
    np.testing.assert_array_equal(one.coef_, two.coef_)


def test_pocket_is_never_worse_than_the_last_weights():
    for seed in range(5):
        X, y = datasets.xor(60, 0.2, random_state=seed)
        signs = np.where(y == 1, 1, -1)
        last = Perceptron(max_epochs=30).fit(X, y)
        pocket = Perceptron(max_epochs=30, pocket=True).fit(X, y)
        assert mistakes(X, signs, pocket.coef_, pocket.intercept_) <= mistakes(
            X, signs, last.coef_, last.intercept_
        )
        assert pocket.score(X, y) >= last.score(X, y)


def test_dual_equals_primal_with_a_linear_kernel():
    X, y = datasets.gaussian_clusters(30, ((-1, -1), (1.5, 1)), 1.0, random_state=2)
    primal = Perceptron().fit(X, y)
    dual = DualPerceptron("linear").fit(X, y)
    np.testing.assert_allclose(dual.coef_, primal.coef_)
    assert dual.intercept_ == pytest.approx(primal.intercept_)
    assert dual.alpha_.sum() == primal.n_updates_
    grid = np.random.default_rng(0).normal(size=(200, 2)) * 3
    np.testing.assert_array_equal(dual.predict(grid), primal.predict(grid))


@pytest.mark.parametrize("kernel", ["rbf", "polynomial"])
def test_kernels_separate_xor(kernel):
    X, y = datasets.xor()
    model = DualPerceptron(kernel=kernel).fit(X, y)
    assert model.converged_ and model.score(X, y) == 1.0
    with pytest.raises(AttributeError):
        model.coef_  # noqa: B018


def test_labels_of_any_kind():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 0.2], [1.0, 0.8]])
    model = Perceptron().fit(X, np.array(["no", "yes", "no", "yes"]))
    assert model.predict([[1.0, 1.0]])[0] == "yes" and model.classes_.tolist() == ["no", "yes"]


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [
        (np.zeros((3, 2)), [1, 1, 1], "exactly two classes"),
        (np.zeros((3, 2)), [0, 1, 2], "exactly two classes"),
        ([[np.nan, 0.0], [1.0, 1.0]], [0, 1], "NaN"),
        (np.zeros((0, 2)), [], "non-empty"),
        (np.zeros((3, 2)), [0, 1], "one label per row"),
        ([["a", "b"], ["c", "d"]], [0, 1], "numeric"),
    ],
)
def test_bad_inputs_give_clear_errors(X, y, message):
    with pytest.raises(ValueError, match=message):
        Perceptron().fit(X, y)
    with pytest.raises(ValueError, match=message):
        DualPerceptron().fit(X, y)


def test_bad_parameters():
    X, y = datasets.xor()
    with pytest.raises(ValueError, match="max_epochs"):
        Perceptron(max_epochs=0).fit(X, y)
    with pytest.raises(ValueError, match="learning_rate"):
        Perceptron(learning_rate=-1).fit(X, y)
    with pytest.raises(ValueError, match="kernel"):
        DualPerceptron(kernel="sigmoid").fit(X, y)
    with pytest.raises(ValueError, match="not fitted"):
        Perceptron().predict(X)


def test_margin_and_mistake_bound_by_hand():
    X = np.array([[0.0, 1.0], [0.0, -1.0]])
    y = np.array([1, 0])
    assert margin(X, y, [0.0, 2.0], 0.0) == pytest.approx(1.0)
    assert margin(X, y, [0.0, -1.0], 0.0) == pytest.approx(-1.0)
    bound = mistake_bound(X, y)
    # Best line: x2 = 0; in the augmented space (x, 1) the margin is 1, R = √2: bound 2.
    assert bound.gamma == pytest.approx(1.0, abs=1e-6) and bound.R == pytest.approx(np.sqrt(2))
    assert bound.bound == pytest.approx(2.0, abs=1e-5)
    assert mistake_bound(*datasets.xor()).bound == np.inf


def test_generalisation_over_seeds_matches_the_post():
    scores = generalisation(seeds=range(100))
    assert len(scores) == 100
    assert 0.93 <= np.median(scores) <= 0.98  # the post's one run: 92.2%
