"""The perceptron lesson's printed numbers and placed labels, checked by hand: Novikoff's bound
recomputes from the R and γ printed, labels never overlap or leave their plot."""

import itertools

import numpy as np
import pytest

from classic.lessons.perceptron import band_radius_and_margin, novikoff_figures
from classic.viz.perceptron import label_places


@pytest.mark.parametrize(
    ("R", "gamma"),
    [
        (np.sqrt(3), 0.05 * np.sqrt(2 / 3)),
        (1.7194375876515566, 0.025149786328459545),
        (1000.5, 1e-3),
        (1.0, 1.0),
    ],
)
def test_the_printed_r_and_gamma_give_the_printed_bound(R, gamma):
    r, g, bound = novikoff_figures(R, gamma)
    assert f"{(float(r) / float(g)) ** 2:,.0f}" == bound == f"{(R / gamma) ** 2:,.0f}"
    for shown in (r, g):  # plain decimals, at least three significant digits
        assert "e" not in shown and len(shown.replace(".", "").lstrip("0")) >= 3


def test_the_band_has_the_bound_of_the_docstring():
    R, gamma = band_radius_and_margin(0.05)
    assert R == pytest.approx(np.linalg.norm([1, 1, 1]))
    assert (R / gamma) ** 2 == pytest.approx(4.5 / 0.05**2)
    with pytest.raises(ValueError, match="γ > 0"):
        novikoff_figures(R, 0.0)


def test_labels_are_placed_apart_inside_the_plot_or_left_out():
    rng = np.random.default_rng(0)
    centres = rng.uniform(0, 200, size=(60, 2))  # crowded: some labels cannot be placed
    radii = np.full(60, 5.0)
    texts = [str(k) for k in range(60)]
    places = label_places(centres, radii, texts, 13, (200, 200))
    assert 0 < sum(p is not None for p in places) < 60
    boxes = []
    for place, text in zip(places, texts, strict=True):
        if place is None:
            continue
        half = np.array([0.38 * 13 * len(text) + 2.0, 0.68 * 13])
        box = np.concatenate([np.array(place) - half, np.array(place) + half])
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= 200 and box[3] <= 200
        assert not any(
            np.hypot(*(np.clip(c, box[:2], box[2:]) - c)) < r - 1e-9
            for c, r in zip(centres, radii, strict=True)
        )  # no label over a marker
        boxes.append(box)
    for a, b in itertools.combinations(boxes, 2):
        assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])
    alone = label_places(np.array([[100.0, 100.0]]), np.array([5.0]), ["7"], 13, (200, 200))
    assert alone[0] is not None and alone[0][0] > 100 and alone[0][1] < 100  # up and to the right


def test_the_printed_k_class_loop_makes_the_estimators_updates():
    from classic import datasets
    from classic.datasets import three_in_a_row
    from classic.lessons.perceptron import classes_textbook
    from classic.perceptron import Perceptron

    for X, y, epochs in (
        (*datasets.gaussian_clusters(15, ((-2.0, -1.0), (2.0, -1.0), (0.0, 2.0)), 0.8, 0), 100),
        (*datasets.gaussian_clusters(10, ((0, 0), (3, 0), (0, 3), (3, 3)), 1.2, 1), 30),
        (*three_in_a_row(), 3),  # it cycles: both stop at the pass limit
    ):
        model = Perceptron(max_epochs=epochs).fit(X, y)
        history = classes_textbook(X, y, max_epochs=epochs)
        if model.cycle_ is not None:
            history = history[: model.n_updates_]
        assert [u.index for u in history] == model.update_points_.tolist()
        assert [u.true for u in history] == model.update_true_.tolist()
        assert [u.predicted for u in history] == model.update_predicted_.tolist()
        for update, W in zip(history, model.weights_history_, strict=True):
            np.testing.assert_allclose(np.column_stack([update.w, update.b]), W, atol=1e-9)


def test_scikit_learns_perceptron_is_one_vs_rest_and_the_page_says_which_is_which():
    from sklearn.linear_model import Perceptron as SkPerceptron

    from classic import datasets
    from classic.lessons.perceptron import FORMULAS, HOW
    from classic.perceptron import Perceptron

    X, y = datasets.gaussian_clusters(15, ((-2.0, -1.0), (2.0, -1.0), (0.0, 2.0)), 0.8, 0)
    params = {"shuffle": False, "max_iter": 50, "tol": None}
    together = SkPerceptron(**params).fit(X, y)
    for c in range(3):  # each row of scikit-learn's is a two-class perceptron: class c against the rest
        alone = SkPerceptron(**params).fit(X, (y == c).astype(int))
        np.testing.assert_allclose(together.coef_[c], alone.coef_[0])
        np.testing.assert_allclose(together.intercept_[c], alone.intercept_[0])
    ours = Perceptron().fit(X, y)
    assert ours.coef_.shape == together.coef_.shape == (3, 2)
    assert not np.allclose(ours.coef_, together.coef_)  # the same shape, learned differently
    assert "one-vs-rest" in HOW and "scikit-learn's `Perceptron`" in HOW and "moves two" in HOW
    assert "one-vs-rest" in FORMULAS[3] and "this page" in FORMULAS[2]
