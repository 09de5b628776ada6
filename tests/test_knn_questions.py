"""The k-NN lesson's peer-instruction questions (issue #33): a question of the same kind for every
"Try this" step, and "Ask about this view". 200 instances of each are valid questions a class
can be asked, and their answers agree with a brute-force k-NN written here (numpy, and
scikit-learn's neighbour search), never the lesson's own functions. A few made setups run on the
page (AppTest), hiding what gives their answer away."""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pytest
from sklearn.neighbors import NearestNeighbors

from classic.knn import METRICS, WEIGHTS
from classic.lessons import check_step, lesson_of, points
from classic.lessons import knn as lesson  # the data menu and loader only: the answers are computed here
from classic.viz.knn import K_CURVES, view_grid

QUESTIONS = lesson_of("knn").questions()
SAME_KIND = QUESTIONS.SAME_KIND
VIEW_QUESTIONS = QUESTIONS.VIEW_QUESTIONS
STEPS = lesson.try_this_steps()
SEEDS = range(200)
QUICK = range(25)  # the slower makers: these in the quick loop, the rest marked slow


# ----- a brute-force k-NN: distances, the vote and its tie rule, written from the lesson's prose ----


def distances(Q: np.ndarray, X: np.ndarray, metric: str, p: float = 2.0) -> np.ndarray:
    diff = np.abs(Q[:, None, :] - X[None, :, :])
    if metric == "euclidean":
        return np.sqrt((diff**2).sum(axis=2))
    if metric == "manhattan":
        return diff.sum(axis=2)
    if metric == "chebyshev":
        return diff.max(axis=2)
    if metric == "minkowski":
        return (diff**p).sum(axis=2) ** (1 / p)
    if metric == "hamming":
        return (diff != 0).mean(axis=2)
    assert metric == "cosine"
    norms = np.linalg.norm(Q, axis=1)[:, None] * np.linalg.norm(X, axis=1)[None, :]
    dots = Q @ X.T
    cos = np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)  # a zero vector: cos 0
    return 1 - cos


def vote_one(labels: np.ndarray, d: np.ndarray, n_classes: int, weights: str, h: float) -> tuple[int, bool]:
    """The winner of one query's vote (neighbours nearest first) and whether it tied."""
    d1 = d[0]
    if len(labels) == 1 or weights == "uniform":
        w = np.ones(len(d))
    elif d1 == 0:
        w = (d == 0).astype(float)  # an exact match wins outright
    elif weights == "distance":
        w = d1 / d
    elif weights == "distance2":
        w = (d1 / d) ** 2
    else:
        w = np.exp(-(d**2 - d1**2) / h**2)
    totals = np.bincount(labels, w, minlength=n_classes)
    top = totals.max()
    at_top = totals >= top * (1 - 1e-12)
    if at_top.sum() == 1:
        return int(np.argmax(totals)), False
    return int(next(c for c in labels if at_top[c])), True  # the nearest among the tied classes


def classify(view: dict, k: int | None = None, metric: str | None = None, scaled: str | None = None):
    """The query's class in a view (k, the metric or the scaling changed) and its k nearest labels."""
    k = view["k"] if k is None else k
    metric = view["metric"] if metric is None else metric
    X, query = view["X"], view["query"]
    if scaled is None:
        X, query = (X - view["offset"]) / view["scale"], (query - view["offset"]) / view["scale"]
    else:
        fit = view["X_all"]
        if scaled == "min-max":
            low, width = fit.min(axis=0), np.ptp(fit, axis=0)
        else:
            low, width = fit.mean(axis=0), fit.std(axis=0)
        width = np.where(width > 0, width, 1.0)
        X, query = (X - low) / width, (query - low) / width
    d = distances(query[None], X, metric, view["p"])[0]
    order = np.argsort(d, kind="stable")[:k]  # equal distances: the lower index is nearer
    winner, _ = vote_one(
        view["y"][order], d[order], len(view["class_names"]), view["weights"], view["bandwidth"]
    )
    return winner, view["y"][order]


def uniform_votes(labels: np.ndarray, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """Winners and tie flags of uniform votes, one row of neighbours' labels (nearest first) each."""
    counts = np.stack([(labels == c).sum(axis=1) for c in range(n_classes)], axis=1)
    at_top = counts == counts.max(axis=1, keepdims=True)
    tied = at_top.sum(axis=1) > 1
    first_top = np.take_along_axis(at_top, labels, axis=1).argmax(axis=1)  # the nearest of a top class
    return np.where(tied, labels[np.arange(len(labels)), first_top], counts.argmax(axis=1)), tied


def grid_votes(X: np.ndarray, y: np.ndarray, k: int, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Uniform Euclidean votes of every grid cell (scikit-learn finds the neighbours)."""
    _, idx = NearestNeighbors(n_neighbors=k).fit(X).kneighbors(grid)
    return uniform_votes(y[idx], y.max() + 1)


def data_of(setup: dict) -> tuple[np.ndarray, np.ndarray]:
    """The points a made setup opens on the page, through the page's own menu entry."""
    classes = setup.get("knn_classes", lesson.DEFAULTS["classes"])
    X, y = points.load("knn", setup["knn_data"], setup["knn_seed"], setup["knn_points"], classes)
    return X, np.unique(y, return_inverse=True)[1]


def training_accuracy(X: np.ndarray, y: np.ndarray, k: int) -> float:
    order = np.argsort(distances(X, X, "euclidean"), axis=1, kind="stable")[:, :k]
    return float(np.mean(uniform_votes(y[order], y.max() + 1)[0] == y))


def loo_best_k(X: np.ndarray, y: np.ndarray, top_k: int) -> int:
    """The k of 1 … top_k with the highest leave-one-out accuracy (the smallest on a tie)."""
    d = distances(X, X, "euclidean")
    np.fill_diagonal(d, np.inf)
    labels = y[np.argsort(d, axis=1, kind="stable")[:, :top_k]]  # (n, K), nearest first
    counts = np.cumsum(labels[:, :, None] == np.arange(y.max() + 1), axis=1)  # (n, k, class)
    at_top = counts == counts.max(axis=2, keepdims=True)
    tied = at_top.sum(axis=2) > 1
    # A tie goes to the top class whose first neighbour is nearest (a top class has one among the k).
    n_classes = y.max() + 1
    first = np.array(
        [np.where((labels == c).any(axis=1), (labels == c).argmax(axis=1), top_k) for c in range(n_classes)]
    ).T
    nearest = np.where(at_top, first[:, None, :], top_k + 1).argmin(axis=2)
    winner = np.where(tied, nearest, counts.argmax(axis=2))
    return int(np.argmax((winner == y[:, None]).mean(axis=0))) + 1


# ----- the checks every made question passes ----------------------------------------------------


def valid(made: dict) -> None:
    step = check_step(made)
    options = [str(option) for option in step.options]
    assert len(set(options)) == len(options) and options.count(str(step.answer)) == 1


def test_one_maker_per_step_in_the_registry():
    assert len(SAME_KIND) == len(STEPS) == 6
    assert len(VIEW_QUESTIONS) >= 3
    assert len({kind.name for kind in VIEW_QUESTIONS}) == len(VIEW_QUESTIONS)
    assert all(re.fullmatch(r"\w+", kind.name) for kind in VIEW_QUESTIONS)


def made(i: int, seeds) -> list[dict]:
    """Step i's maker's instances for these seeds, each valid, with the step's hides and a full setup."""
    original = STEPS[i]
    out = []
    for seed in seeds:
        step = SAME_KIND[i](np.random.default_rng(seed))
        valid(step)
        assert tuple(step["hides"]) == tuple(original["hides"]) and step["tells"]
        setup = step["setup"]
        assert set(original["setup"]) <= set(setup) <= set(original["setup"]) | {"knn_classes"}
        assert setup["knn_data"] in lesson.DATA_NAMES and setup["knn_data"] != lesson.YOURS
        assert 20 <= setup["knn_points"] <= 1000 and setup["knn_points"] % 10 == 0
        assert 1 <= setup["knn_k"] <= setup["knn_points"]
        assert setup["knn_metric"] in METRICS and setup["knn_scaling"] in lesson.SCALERS
        assert 2 <= setup.get("knn_classes", 2) <= 5
        out.append(step)
    return out


def varied(i: int, steps: list[dict]) -> None:
    answers = Counter(step["answer"] for step in steps)
    assert sum(n for answer, n in answers.items() if answer != STEPS[i]["answer"]) > 0, answers


def check_scrub(step: dict) -> None:
    X, y = data_of(step["setup"])
    start, way, end = re.search(
        r"at k = (\d+): predict, then scrub k (up|down) to (\d+)", step["question"]
    ).groups()
    start, end = int(start), int(end)
    assert step["setup"]["knn_k"] == start and (way == "up") == (end > start)
    before, after = training_accuracy(X, y, start), training_accuracy(X, y, end)
    expected = 0 if after < before else 1 if after > before else 2
    assert step["answer"] == step["options"][expected]


def check_next_k(step: dict) -> None:
    X, y = data_of(step["setup"])
    k = step["setup"]["knn_k"] - 1
    grid = view_grid(X)[2]  # the map's cells (what the page draws), not its votes
    w0, t0 = grid_votes(X, y, k, grid)
    w1, t1 = grid_votes(X, y, k + 1, grid)
    same, cleared, greyed = np.all(w0 == w1), np.any(t0 & ~t1), np.any(t1 & ~t0)
    expected = 3 if not same else 2 if cleared else 1 if greyed else 0
    assert step["answer"] == step["options"][expected]


def check_best_k(step: dict) -> None:
    X, y = data_of(step["setup"])
    assert step["setup"]["knn_points"] * 0.7 >= K_CURVES  # the page's curves reach K_CURVES
    best = loo_best_k(X, y, K_CURVES)
    expected = 0 if best == 1 else 1 if best <= 25 else 2
    assert step["answer"] == step["options"][expected]


def check_feature(step: dict) -> None:
    X, _ = data_of(step["setup"])
    spread = X.std(axis=0)
    how = step["setup"]["knn_scaling"]
    if how == "min-max":
        spread = spread / np.ptp(X, axis=0)
    elif how == "standardise":
        spread = np.ones(2)
    ratio = spread[0] / spread[1]
    expected = 0 if ratio > 2.5 else 1 if ratio < 0.4 else 2
    assert expected != 2 or 1 / 1.5 < ratio < 1.5
    assert step["answer"] == step["options"][expected]


def check_everyone(step: dict) -> None:
    X, y = data_of(step["setup"])
    assert step["setup"]["knn_k"] == len(X)
    counts = np.bincount(y)
    top = np.flatnonzero(counts == counts.max())
    if len(top) == 1:  # every cell counts the same votes: the largest class everywhere, no tie
        assert step["answer"] == step["options"][0]
        return
    grid = view_grid(X)[2]
    assert len(top) == len(counts)  # the maker only keeps draws an option describes
    nearest = y[NearestNeighbors(n_neighbors=1).fit(X).kneighbors(grid)[1][:, 0]]
    among_top = np.isin(nearest, top).all()
    assert among_top and step["answer"] == step["options"][2]


def check_distances(step: dict) -> None:
    X, _ = data_of(step["setup"])
    query = np.array([[step["setup"]["knn_qx"], step["setup"]["knn_qy"]]])
    distinct = len(np.unique(distances(query, X, step["setup"]["knn_metric"])))
    expected = 0 if distinct == 1 else 1 if distinct <= 3 else 2
    assert step["answer"] == step["options"][expected]


CHECKS = (check_scrub, check_next_k, check_best_k, check_feature, check_everyone, check_distances)
SLOW_MAKERS = {1, 4}  # next k and k = n vote every cell of the map, twice: 40 quick, 200 slow


@pytest.mark.parametrize("i", [i for i in range(6) if i not in SLOW_MAKERS])
def test_same_kind_is_valid_right_and_varied(i):
    steps = made(i, SEEDS)
    for step in steps:
        CHECKS[i](step)
    varied(i, steps)


@pytest.mark.parametrize("i", sorted(SLOW_MAKERS))
def test_same_kind_of_the_map_quick(i):
    steps = made(i, QUICK)
    for step in steps:
        CHECKS[i](step)
    varied(i, steps)


@pytest.mark.slow
@pytest.mark.parametrize("i", sorted(SLOW_MAKERS))
def test_same_kind_of_the_map_200(i):
    for step in made(i, SEEDS):
        CHECKS[i](step)


# ----- "Ask about this view" --------------------------------------------------------------------


def option_index(step: dict) -> int:
    return list(step["options"]).index(step["answer"])


def check_query_class(view: dict, step: dict) -> None:
    winner, _ = classify(view)
    assert step["answer"] == view["class_names"][winner]


def check_double_k(view: dict, step: dict) -> None:
    now, _ = classify(view)
    winner, _ = classify(view, k=2 * view["k"])
    assert option_index(step) == winner
    assert step["options"][now].endswith("(it stays)")


def check_neighbour_count(view: dict, step: dict) -> None:
    name = re.search(r"are of (.+?) \(k = ", step["question"]).group(1)
    c = view["class_names"].index(name)
    _, labels = classify(view)
    count = int(np.sum(labels == c))
    low, _, high = step["answer"].partition(" to ")
    assert int(low) <= count <= int(high or low)


def check_metric_change(view: dict, step: dict) -> None:
    now, _ = classify(view)
    changes = []
    for option in step["options"][:-1]:
        metric = option.split(" ")[0]
        changes.append(classify(view, metric=metric)[0] != now)
    assert sum(changes) <= 1
    expected = changes.index(True) if any(changes) else len(changes)
    assert option_index(step) == expected


def check_scaling_change(view: dict, step: dict) -> None:
    now, _ = classify(view)
    minmax, standard = (classify(view, scaled=how)[0] != now for how in ("min-max", "standardise"))
    expected = 0 if minmax and not standard else 1 if standard and not minmax else 2 if minmax else 3
    assert option_index(step) == expected


VIEW_CHECKS = {
    "query_class": check_query_class,
    "double_k": check_double_k,
    "neighbour_count": check_neighbour_count,
    "metric_change": check_metric_change,
    "scaling_change": check_scaling_change,
}
VIEWS = [lesson.random_view(np.random.default_rng(seed)) for seed in SEEDS]


def test_random_views_are_the_pages():
    for view in VIEWS:
        assert view["data"] in lesson.DATA_NAMES and view["scaling"] in lesson.SCALERS
        assert view["metric"] in METRICS and view["weights"] in WEIGHTS
        assert 1 <= view["k"] <= len(view["X"]) == len(view["y"])
        assert view["X"].shape[1] == 2 and view["query"].shape == (2,)
        assert 2 <= len(view["class_names"]) <= 5 and view["y"].max() < len(view["class_names"])


@pytest.mark.parametrize("kind", VIEW_QUESTIONS, ids=lambda kind: kind.name)
def test_view_question_is_valid_and_right(kind):
    asked = 0
    answers = Counter()
    for seed, view in zip(SEEDS, VIEWS, strict=True):
        step = kind.make(view, np.random.default_rng(seed))
        if step is None:
            continue
        asked += 1
        valid(step)
        assert step["setup"] == {}
        assert set(step["hides"]) <= set(lesson.PARTS)
        VIEW_CHECKS[kind.name](view, step)
        answers[option_index(step)] += 1
    assert asked >= 50, f"{kind.name} applies to {asked} of 200 views"
    assert len(answers) >= 2, answers  # its answer is not always the same choice


def test_view_questions_not_applying_say_so():
    view = dict(VIEWS[0], k=len(VIEWS[0]["X"]))  # 2k beyond the points
    double = next(kind for kind in VIEW_QUESTIONS if kind.name == "double_k")
    assert double.make(view, np.random.default_rng(0)) is None
    scaled = next(kind for kind in VIEW_QUESTIONS if kind.name == "scaling_change")
    assert scaled.make(dict(VIEWS[0], scaling="standardise"), np.random.default_rng(0)) is None


# ----- the page: a few made setups run, and hide what gives their answer away ------------------


@pytest.mark.parametrize(("i", "seed"), [(0, 1), (1, 3), (2, 2), (3, 4), (4, 5), (5, 7)])
def test_made_setup_runs_on_the_page_and_hides_its_tells(i, seed, monkeypatch):
    """Asked as the page asks its own steps (its "Set up this view" button, then an answer), with the
    made step in the place of step i + 1: no tell before the reveal, all of them after."""
    from conftest import assert_no_exception, open_page, page_text

    from pages.widgets import shared

    step = check_step(SAME_KIND[i](np.random.default_rng(seed)))
    steps = [*STEPS[:i], step.__dict__, *STEPS[i + 1 :]]
    monkeypatch.setattr(shared, "knn_steps", lambda: steps)
    at = open_page("knn")
    at.button(key=f"knn_try_{i + 1}_setup").click().run()
    assert_no_exception(at)
    assert at.slider(key="knn_k").value == step.setup["knn_k"]
    assert at.selectbox(key="knn_data").value == step.setup["knn_data"]
    asked = page_text(at)
    shown = [tell for tell in step.tells if tell in asked]
    assert shown == [], f"made step {i + 1} shows its answer before the reveal: {shown}"
    at.radio(key=f"knn_try_{i + 1}").set_value(step.answer).run()
    assert_no_exception(at)
    revealed = page_text(at)
    assert [tell for tell in step.tells if tell not in revealed] == []


def test_asked_about_the_page_view_it_hides_the_prediction():
    """The page's view, asked through "Ask about this view" (pages/widgets/lesson.py): each kind runs on
    the page's own view, and the class at the query keeps the prediction back until it is revealed."""
    from conftest import assert_no_exception, open_page

    at = open_page("knn", try_this=False)
    at.session_state["knn_about_view"] = True
    at.run()
    for kind in VIEW_QUESTIONS:
        at.button(key=f"knn_about_{kind.name}").click().run()
        assert_no_exception(at)
        shown = [metric.label for metric in at.metric]  # the page's only tile: the prediction
        assert shown == ([] if kind.name in ("query_class", "neighbour_count") else ["Prediction"]), kind.name
