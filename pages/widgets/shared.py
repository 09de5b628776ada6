"""What every session shares and no widget changes: the lessons' cached content.

Each page's "Try this" answers, /compare's questions, the default views' tables and the digits
protocol's neighbour searches are the same for every visitor: they are cached here, once per
server. The ``warm_*`` functions (and the constants) are named by the lessons registry
(``classic.lessons.LESSONS``), and the server computes them before its first visit
(``pages/server/warm.py``), so the first student on a page waits only for the page itself.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from classic import compare, digits
from classic.knn import METRICS, WEIGHTS
from classic.lessons import compare as compare_lesson
from classic.lessons import knn as knn_lesson
from classic.lessons import perceptron as perceptron_lesson
from classic.lessons import tree as tree_lesson
from classic.viz import knn as knn_view

# The lessons' constant content (no arguments: one entry each).
knn_steps = st.cache_data(show_spinner=False)(knn_lesson.try_this_steps)
tree_steps = st.cache_data(show_spinner=False)(tree_lesson.try_this_steps)
perceptron_steps = st.cache_data(show_spinner=False)(perceptron_lesson.try_this_steps)
compare_questions = st.cache_data(show_spinner="Preparing the questions…")(compare_lesson.questions)

# The k-NN page's (4 MiB at most) and its accuracy curves; the default view's are warmed below.
knn_table = st.cache_data(max_entries=8, show_spinner="Finding neighbours…")(knn_view.neighbour_table)
knn_accuracy = st.cache_data(max_entries=16, show_spinner="Accuracy for every k…")(knn_view.accuracy_view)

# /compare's points, fits and neighbour table (its default view's are warmed below).
COMPARE_RESOLUTION = 100  # the panels' grid, pixels a side


@st.cache_data(max_entries=32, show_spinner=False)
def compare_points(name: str, n_points: int, seed: int, flip: int) -> tuple[np.ndarray, np.ndarray]:
    return compare_lesson.make_data(name, n_points, seed, flip)


@st.cache_data(max_entries=96, show_spinner="Fitting…")
def compare_fitted(classifier: str, X: np.ndarray, y: np.ndarray, seed: int, **params) -> compare.Fitted:
    """One classifier on the seeded split, with its regions on the grid (k-NN's are voted from
    ``compare_neighbours``)."""
    data = compare.split(X, y, seed)
    grid = None if classifier == "knn" else compare.box(X, COMPARE_RESOLUTION)[0]
    return compare.fit(compare.make_model(classifier, data, **params), data, grid)


# A resource, not data: the table (up to 8 MB) is only read, so it is shared rather than copied.
@st.cache_resource(max_entries=4, show_spinner="Finding the neighbours of every pixel…")
def compare_neighbours(X: np.ndarray, y: np.ndarray, seed: int):
    return compare.grid_neighbours(compare.split(X, y, seed), compare.box(X, COMPARE_RESOLUTION)[0])


KS = range(1, 51)  # the digits post's plot runs to k = 50


# One search per blur, metric and invariance (a few MB each); changing the weights only re-votes.
@st.cache_data(max_entries=8, show_spinner="Finding the 50 nearest of 5 × 793 test digits…")
def digits_neighbours(_X, _y, search):
    """The post's protocol's neighbour search for one blur, metric and invariance (the data: Semeion)."""
    return digits.protocol_neighbours(_X, _y, max(KS), range(5), **dict(search))


@st.cache_data(max_entries=12, show_spinner=False)
def digits_protocol(_X, _y, settings):
    """The post's protocol for one setting, every k, shared by all sessions (the data: always Semeion)."""
    search = dict(settings)
    weights = search.pop("weights")
    test, distances, indices = digits_neighbours(_X, _y, tuple(sorted(search.items())))
    return test, digits.protocol_votes(_y, distances, indices, KS, weights).astype(np.int8)


def digits_results(data, **params):
    """A setting's accuracy (seeds × k), test rows and predictions on the protocol."""
    keep = digits.DigitClassifier(**params).get_params().items()
    test, predicted = digits_protocol(*data, tuple(sorted(p for p in keep if p[0] != "k")))
    return digits.scores(data[1], test, predicted), test, predicted


def warm_digits() -> None:
    """The digits ladder at every rung, and each of its searches without the blur (nothing
    without the data set: the page says so)."""
    from pages.widgets.data import load_semeion

    data = load_semeion()
    if data is not None:
        for _, params in digits.RUNGS:
            digits_results(data, **params)
            digits_results(data, **{**params, "blur": 0.0})


def warm_knn() -> None:
    """The k-NN page's default view, as the page computes it: its first table and accuracy curves."""
    lesson, view, d = knn_lesson, knn_view, knn_lesson.DEFAULTS
    X, labels = lesson.lesson_data(lesson.DATA_NAMES[0], d["points"], d["classes"], d["seed"])
    y = np.unique(labels, return_inverse=True)[1]
    scale, offset = lesson.scaling(next(iter(lesson.SCALERS)), X)
    K = view.table_sizes(len(X), WEIGHTS[0] != "uniform", d["k"])[0]
    knn_table(X, y, scale, offset, METRICS[0], d["p"], WEIGHTS[0] != "uniform", X, K)
    knn_accuracy((X - offset) / scale, y, d["seed"], METRICS[0], d["p"], WEIGHTS[0], d["h"])


def warm_compare() -> None:
    """/compare's default view, as the page computes it: the points, three fits, k-NN's table."""
    d = compare_lesson.DEFAULTS
    X, y = compare_points(d["data"], d["points"], d["seed"], d["flip"])
    params = {
        "perceptron": {"perceptron": d["perceptron"]},
        "knn": {"k": d["k"]},
        "tree": {"max_depth": d["depth"]},
    }
    for name in compare.NAMES:
        compare_fitted(name, X, y, d["seed"], **params[name])
    compare_neighbours(X, y, d["seed"])
