"""The one registry of 2-D point sets (classic.lessons.points): every 2-D page's menu reads it.

The sets each page offered before there was a registry are pinned (their menu names and order, and
the calls that made their points, written out below), so that no link and no number on a page
changed; a set added to the registry since is offered on every 2-D page, by its name, with no
other file touched, and does not fail these pins.
"""

import numpy as np
import pytest

from classic import datasets
from classic.lessons import compare as compare_lesson
from classic.lessons import knn as knn_lesson
from classic.lessons import perceptron as perceptron_lesson
from classic.lessons import points
from classic.lessons import tree as tree_lesson


def _balanced(X, y, n):
    classes = np.unique(y)
    quota = {c: n // len(classes) + (i < n % len(classes)) for i, c in enumerate(classes)}
    rank = np.zeros(len(y), dtype=int)
    for c in classes:
        rank[y == c] = np.arange(np.sum(y == c))
    keep = rank < np.array([quota[c] for c in y])
    return X[keep], y[keep]


def _circle(n, n_classes, seed):
    angles = np.linspace(0, 2 * np.pi, n_classes, endpoint=False)
    centres = np.column_stack([4 * np.cos(angles), 4 * np.sin(angles)])
    return _balanced(*datasets.gaussian_clusters(-(-n // max(n_classes, 2)), centres, 1.5, seed), n)


# Each page's menu and generator calls as they were before the registry (the link values).
PERCEPTRON = {
    "Linearly separable (25 points, true line y = 1 − x)": lambda s: datasets.linearly_separable(25, s),
    "XOR (the four corners)": lambda s: datasets.xor(4),
    "XOR (noisy clusters)": lambda s: datasets.xor(40, 0.12, s),
    "Gaussian clusters": lambda s: datasets.gaussian_clusters(20, ((-1.5, -1.5), (1.5, 1.5)), 1.0, s),
    "Three clusters (3 classes)": lambda s: datasets.gaussian_clusters(
        15, ((-2.0, -1.0), (2.0, -1.0), (0.0, 2.0)), 0.8, s
    ),
    "Three classes in a row (the first at both ends)": lambda s: (
        np.array([[x, h] for x in (-1.5, -0.5, 0.5, 1.5) for h in (-0.5, 0.5)]),
        np.repeat([0, 1, 2, 0], 2),
    ),
}
KNN = {
    "The post's two clusters": lambda n, c, s: _balanced(
        *datasets.gaussian_clusters(-(-n // 2), ((-4, 0), (4, 0)), 1.0, s), n
    ),
    "Gaussian clusters around a circle": lambda n, c, s: _circle(n, c, s),
    "Concentric circles": lambda n, c, s: datasets.concentric_circles(n, 0.12, s),
    "Moons": lambda n, c, s: datasets.moons(n, 0.15, s),
    "XOR": lambda n, c, s: datasets.xor(max(n, 4), 0.2, s),
    "Spiral": lambda n, c, s: datasets.spiral(n, c, 0.15, s),
    "Weight and height (unscaled)": lambda n, c, s: _balanced(
        *datasets.stretched_clusters(-(-n // 2), 100.0, s), n
    ),
}
TREE = {
    "Two clusters (2-D points)": lambda s: datasets.gaussian_clusters(100, ((-1, -1), (1, 1)), 1.0, s),
    "Circles (2-D points)": lambda s: datasets.concentric_circles(200, 0.1, s),
    "Moons (2-D points)": lambda s: datasets.moons(200, 0.15, s),
    "XOR (2-D points)": lambda s: datasets.xor(200, 0.15, s),
    "Spiral (2-D points)": lambda s: datasets.spiral(300, 2, 0.1, s),
}
COMPARE = {
    "Diagonal boundary": None,  # compare's own generators, now in classic.datasets
    "Gaussian clusters": lambda n, s: datasets.gaussian_clusters(
        max(n // 2, 1), ((-1.5, -1.5), (1.5, 1.5)), 1.0, s
    ),
    "Concentric circles": lambda n, s: datasets.concentric_circles(n, 0.12, s),
    "Moons": lambda n, s: datasets.moons(n, 0.15, s),
    "XOR": lambda n, s: datasets.xor(max(n, 4), 0.2, s),
    "Spiral": lambda n, s: datasets.spiral(n, 2, 0.15, s),
    "Axis-aligned boxes": None,
}
YOURS = {
    "perceptron": ("Your points (click to place)", datasets.linearly_separable(8, 1), 2),
    "knn": ("Your points", datasets.gaussian_clusters(6, ((-2, 0), (2, 0)), 1.0, 0), 5),
    "tree": ("Your points (2-D, click to place)", datasets.xor(16, 0.15, 1), 2),
    "compare": ("Your points", datasets.xor(16, 0.2, 1), 2),
}


def _same(a, b):
    return all(np.array_equal(x, y) and x.dtype == y.dtype for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize(
    ("page", "before"), [("perceptron", PERCEPTRON), ("knn", KNN), ("tree", TREE), ("compare", COMPARE)]
)
def test_each_page_keeps_its_menu_and_its_yours(page, before):
    # The sets a page offered before keep their names (a link's value) and their order; a set the
    # registry gained since may stand among them; the user's points come last.
    menu = points.menu(page)
    assert [shown for shown in menu if shown in before] == list(before)
    assert menu[-1] == YOURS[page][0] and len(set(menu)) == len(menu)
    assert all(points.named(page, shown) is not None for shown in menu[:-1])
    shown, start, n_classes = points.your_points(page)
    assert (shown, n_classes) == (YOURS[page][0], YOURS[page][2]) and _same(start, YOURS[page][1])


@pytest.mark.parametrize("seed", [0, 7])
def test_each_page_draws_the_points_it_drew_before(seed):
    for name, make in PERCEPTRON.items():
        assert _same(points.load("perceptron", name, seed), make(seed)), name
    for name, make in TREE.items():
        assert _same(points.load("tree", name, seed), make(seed)), name
    for name, make in KNN.items():
        for n, c in ((100, 3), (37, 5), (20, 2)):
            assert _same(knn_lesson.lesson_data(name, n, c, seed), make(n, c, seed)), (name, n, c)
    for name, make in COMPARE.items():
        for n in (20, 200, 333):
            if make is not None:
                assert _same(compare_lesson.make_data(name, n, seed), make(n, seed)), (name, n)
            X, y = compare_lesson.make_data(name, n, seed)
            assert X.shape == (
                max(n, 4) if name == "XOR" else n - n % 2 if name == "Gaussian clusters" else n,
                2,
            )


@pytest.mark.parametrize("page", points.PAGES)
def test_every_set_a_page_offers_gives_labelled_points_a_link_can_reproduce(page):
    for shown in points.menu(page)[:-1]:
        entry = points.POINT_SETS[points.named(page, shown)]
        classes = 3 if entry.classes == points.MANY else entry.classes
        X, y = points.load(page, shown, 5, n_classes=3)
        assert X.shape == (len(y), 2) and len(y) >= 4 and np.all(np.isfinite(X)), shown
        assert sorted(set(y.tolist())) == list(range(classes)), shown
        assert _same(points.load(page, shown, 5, n_classes=3), (X, y)), (
            shown
        )  # the same seed, the same points


def test_the_lessons_read_the_registry():
    assert list(tree_lesson.POINT_TABLES) == points.menu("tree")[:-1]
    assert tree_lesson.YOURS == YOURS["tree"][0]
    X, y, names = tree_lesson.POINT_TABLES["Spiral (2-D points)"](3)
    assert names == ["x1", "x2"] and np.array_equal(X, TREE["Spiral (2-D points)"](3)[0])
    assert knn_lesson.DATA_NAMES == points.menu("knn") and knn_lesson.YOURS == "Your points"
    assert knn_lesson.MANY_CLASSES == points.many_classes("knn")
    assert [shown for shown in knn_lesson.MANY_CLASSES if shown in KNN] == [
        "Gaussian clusters around a circle",
        "Spiral",
    ]
    assert compare_lesson.DATASETS == points.menu("compare")[:-1] and compare_lesson.YOURS == "Your points"
    assert not hasattr(perceptron_lesson, "DATA")  # the page reads the registry itself


def test_the_link_to_compare_names_the_same_set_there():
    assert points.compare_name("knn", "Moons") == "Moons"
    assert points.compare_name("tree", "Spiral (2-D points)") == "Spiral"
    assert points.compare_name("perceptron", "Gaussian clusters") == "Gaussian clusters"
    assert points.compare_name("knn", "The post's two clusters") is None  # not offered on /compare
    assert points.compare_name("knn", "Your points") is None


def test_a_set_added_to_the_registry_is_on_every_2d_page(monkeypatch):
    added = points.PointSet(
        lambda n, seed, c: datasets.gaussian_clusters(-(-n // 2), ((0, 0), (3, 3)), 1.0, seed)
    )
    monkeypatch.setitem(points.POINT_SETS, "Blobs", added)
    for page in points.PAGES:
        assert points.menu(page)[-2:] == ["Blobs", YOURS[page][0]]
        X, y = points.load(page, "Blobs", 1, 60)
        assert X.shape == (60, 2) and set(y) == {0, 1}
    assert points.load("perceptron", "Blobs", 1)[0].shape == (200, 2)  # no slider: the entry's n
    assert points.compare_name("tree", "Blobs") == "Blobs"


def test_an_unknown_name_is_a_clear_error():
    with pytest.raises(ValueError, match="no generated data set named 'Moons' on the perceptron page"):
        points.load("perceptron", "Moons")
    with pytest.raises(ValueError, match="page must be one of"):
        points.menu("digits")
