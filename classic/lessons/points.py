"""The one registry of 2-D point sets: every 2-D page's data menu, and the link to /compare.

``POINT_SETS`` maps a set's name (the value a link carries, ``?knn_data=Moons``) to how it is
made: ``make(n, seed, n_classes)`` gives ``(X, y)``, labels ``0 … n_classes − 1``. The pages
with a points slider (k-NN, /compare) ask for their n; the others (the perceptron, the tree)
take the entry's ``n``. A page's menu is the sets offered on it, in this order, then the user's
own points (``YOURS``). Adding a data set to every 2-D page is one line here::

    "Blobs": PointSet(lambda n, seed, c: datasets.gaussian_clusters(-(-n // 2), ((0, 0), (3, 3)), 1.0, seed)),

Where a page draws a set its own way (the tree's spiral with noise 0.1, not 0.15; its menu
names ending in "(2-D points)"), the entry says so for that page (``On``), so that each page
keeps its pictures and numbers and every saved link opens.
Pure Python over ``classic.datasets``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from classic import datasets

Points = tuple[np.ndarray, np.ndarray]
Make = Callable[[int, int, int], Points]  # (n, seed, n_classes) → (X, y)
PAGES = ("perceptron", "knn", "tree", "compare")
YOURS = "Your points"  # the user's own points (clicked, typed, uploaded, in the link)
MANY = 0  # a set's ``classes`` when the page chooses how many (k-NN's classes slider)


@dataclass(frozen=True)
class On:
    """How one page shows a set where it differs from the entry: its menu name there (a link's
    value), its points (on a page without a points slider) and its generator."""

    label: str | None = None
    n: int | None = None
    make: Make | None = None


@dataclass(frozen=True)
class PointSet:
    """A generator of labelled 2-D points and the pages whose data menus offer it."""

    make: Make
    n: int = 200  # the points on a page without a points slider
    classes: int = 2  # MANY: as many as the page asks for
    on: dict[str, On] = field(default_factory=lambda: dict.fromkeys(PAGES, On()))


def only(*pages: str, **differs: On) -> dict[str, On]:
    """The pages that offer a set (``on``), each with what differs there."""
    return {page: differs.get(page, On()) for page in pages}


def balanced(points: Points, n: int) -> Points:
    """Exactly n of the points, the classes as equal as n allows (shuffled order kept)."""
    X, y = points
    classes = np.unique(y)
    quota = {c: n // len(classes) + (i < n % len(classes)) for i, c in enumerate(classes)}
    rank = np.zeros(len(y), dtype=int)
    for c in classes:
        rank[y == c] = np.arange(np.sum(y == c))
    keep = rank < np.array([quota[c] for c in y])
    return X[keep], y[keep]


def around_a_circle(n: int, seed: int, n_classes: int) -> Points:
    """``n_classes`` Gaussian clusters (σ = 1.5) centred evenly on a circle of radius 4."""
    angles = np.linspace(0, 2 * np.pi, n_classes, endpoint=False)
    centres = np.column_stack([4 * np.cos(angles), 4 * np.sin(angles)])
    return balanced(datasets.gaussian_clusters(-(-n // max(n_classes, 2)), centres, 1.5, seed), n)


# The k-NN post's dummy data: two round Gaussian clusters, σ = 1, centred at (−4, 0) and (4, 0).
POST = "The post's two clusters"
# The notes' shoe-size example (predict the size from height and weight): x₁ plays weight, whose
# range is ~100× larger and which carries no information about the class, x₂ plays height.
UNSCALED = "Weight and height (unscaled)"
CLUSTERS = "Gaussian clusters around a circle"
TWO_CLUSTERS = ((-1.5, -1.5), (1.5, 1.5))

# In menu order: each page lists the sets it offers in this order.
POINT_SETS: dict[str, PointSet] = {
    "Linearly separable (25 points, true line y = 1 − x)": PointSet(
        lambda n, seed, c: datasets.linearly_separable(n, seed), n=25, on=only("perceptron")
    ),
    "XOR (the four corners)": PointSet(lambda n, seed, c: datasets.xor(4), n=4, on=only("perceptron")),
    "XOR (noisy clusters)": PointSet(
        lambda n, seed, c: datasets.xor(n, 0.12, seed), n=40, on=only("perceptron")
    ),
    POST: PointSet(
        lambda n, seed, c: balanced(datasets.gaussian_clusters(-(-n // 2), ((-4, 0), (4, 0)), 1.0, seed), n),
        on=only("knn"),
    ),
    "Diagonal boundary": PointSet(lambda n, seed, c: datasets.diagonal_boundary(n, seed), on=only("compare")),
    "Gaussian clusters": PointSet(
        lambda n, seed, c: datasets.gaussian_clusters(max(n // 2, 1), TWO_CLUSTERS, 1.0, seed),
        n=40,
        on=only(
            "perceptron",
            "tree",
            "compare",
            tree=On(
                "Two clusters (2-D points)",
                n=200,
                make=lambda n, seed, c: datasets.gaussian_clusters(n // 2, ((-1, -1), (1, 1)), 1.0, seed),
            ),
        ),
    ),
    "Three clusters (3 classes)": PointSet(
        lambda n, seed, c: datasets.gaussian_clusters(
            n // 3, ((-2.0, -1.0), (2.0, -1.0), (0.0, 2.0)), 0.8, seed
        ),
        n=45,
        classes=3,
        on=only("perceptron"),
    ),
    "Three classes in a row (the first at both ends)": PointSet(
        lambda n, seed, c: datasets.three_in_a_row(), n=8, classes=3, on=only("perceptron")
    ),
    CLUSTERS: PointSet(around_a_circle, classes=MANY, on=only("knn")),
    "Concentric circles": PointSet(
        lambda n, seed, c: datasets.concentric_circles(n, 0.12, seed),
        on=only(
            "knn",
            "tree",
            "compare",
            tree=On(
                "Circles (2-D points)", make=lambda n, seed, c: datasets.concentric_circles(n, 0.1, seed)
            ),
        ),
    ),
    "Moons": PointSet(
        lambda n, seed, c: datasets.moons(n, 0.15, seed),
        on=only("knn", "tree", "compare", tree=On("Moons (2-D points)")),
    ),
    "XOR": PointSet(
        lambda n, seed, c: datasets.xor(max(n, 4), 0.2, seed),
        on=only(
            "knn",
            "tree",
            "compare",
            tree=On("XOR (2-D points)", make=lambda n, seed, c: datasets.xor(n, 0.15, seed)),
        ),
    ),
    "Spiral": PointSet(
        lambda n, seed, c: datasets.spiral(n, c, 0.15, seed),
        classes=MANY,
        on=only(
            "knn",
            "tree",
            "compare",
            tree=On("Spiral (2-D points)", n=300, make=lambda n, seed, c: datasets.spiral(n, c, 0.1, seed)),
        ),
    ),
    UNSCALED: PointSet(
        lambda n, seed, c: balanced(datasets.stretched_clusters(-(-n // 2), 100.0, seed), n), on=only("knn")
    ),
    "Axis-aligned boxes": PointSet(
        lambda n, seed, c: datasets.axis_aligned_boxes(n, seed), on=only("compare")
    ),
}

# The user's own points: each page's menu name for them (a link's value) and the points they
# start from, with how many classes the page lets them use.
YOUR_POINTS = {
    "perceptron": ("Your points (click to place)", lambda: datasets.linearly_separable(8, 1), 2),
    "knn": (YOURS, lambda: datasets.gaussian_clusters(6, ((-2, 0), (2, 0)), 1.0, 0), 5),
    "tree": ("Your points (2-D, click to place)", lambda: datasets.xor(16, 0.15, 1), 2),
    "compare": (YOURS, lambda: datasets.xor(16, 0.2, 1), 2),
}


def _on(page: str, name: str) -> tuple[str, PointSet, On]:
    return name, POINT_SETS[name], POINT_SETS[name].on[page]


def _offered(page: str) -> list[tuple[str, PointSet, On]]:
    if page not in PAGES:
        raise ValueError(f"page must be one of {', '.join(PAGES)}; got {page!r}")
    return [_on(page, name) for name, entry in POINT_SETS.items() if page in entry.on]


def label(page: str, name: str) -> str:
    """The menu name on ``page`` of the set ``name``."""
    return POINT_SETS[name].on[page].label or name


def menu(page: str) -> list[str]:
    """``page``'s data menu: the sets it offers (by its names for them), then the user's points."""
    return [on.label or name for name, _, on in _offered(page)] + [YOUR_POINTS[page][0]]


def named(page: str, shown: str) -> str | None:
    """The registry's name of the set ``page`` calls ``shown`` (None for the user's points or a
    name the page does not offer)."""
    return next((name for name, _, on in _offered(page) if (on.label or name) == shown), None)


def many_classes(page: str) -> list[str]:
    """The menu names on ``page`` of the sets whose number of classes the page chooses."""
    return [on.label or name for name, entry, on in _offered(page) if entry.classes == MANY]


def load(page: str, shown: str, seed: int = 0, n: int | None = None, n_classes: int = 2) -> Points:
    """The points of the set that ``page`` calls ``shown``: ``n`` of them (the entry's own number
    where the page has no points slider), ``n_classes`` classes if the set lets the page choose."""
    name = named(page, shown)
    if name is None:
        raise ValueError(f"no generated data set named {shown!r} on the {page} page")
    entry, on = POINT_SETS[name], POINT_SETS[name].on[page]
    classes = n_classes if entry.classes == MANY else entry.classes
    return (on.make or entry.make)(int(n if n is not None else on.n or entry.n), int(seed), classes)


def yours(page: str) -> str:
    """``page``'s menu name for the user's points (a link's value)."""
    return YOUR_POINTS[page][0]


def your_points(page: str) -> tuple[str, Points, int]:
    """``page``'s name for the user's points, the points they start from and the classes allowed."""
    shown, start, n_classes = YOUR_POINTS[page]
    return shown, start(), n_classes


def compare_name(page: str, shown: str) -> str | None:
    """/compare's menu name for the set ``page`` calls ``shown``, if /compare offers it."""
    name = named(page, shown)
    return label("compare", name) if name is not None and "compare" in POINT_SETS[name].on else None
