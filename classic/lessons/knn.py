"""The k-NN lesson's words and data, kept out of the page so that the page reads as the lesson.

The data-set menu (the registry's, :mod:`classic.lessons.points`: the post's two clusters, the
generated shapes, the unscaled weight and height, the user's own points) with where each one's
query starts; the scaling and editing
menus (Wilson's editing, the post's edited k-NN, and Hart's condensing, not from the post);
the sentences that put numbers in context (the query's prediction and its tie, when a vote
can tie, the accuracy curves, the k-d tree's depth against the notes' claim); the "Try this" steps, each answer computed by the library; the "How it works" formulas
and the figures' alt text. Pure Python over ``classic``: no Streamlit, no drawing (the figures
and the player's data are in :mod:`classic.viz.knn`).
"""

from __future__ import annotations

import numpy as np

from classic import evaluation, knn
from classic.knn import TIE_RULE, KNNClassifier, leave_one_out_accuracy, pairwise_distances, vote
from classic.lessons import MAX_OPTIONS, ViewQuestion, points
from classic.preprocessing import MinMaxScaler, StandardScaler
from classic.viz.knn import K_CURVES, view_grid

# The intro's sentence on what k does: a step asking what a larger k does leaves it out.
INTRO_K = "Scrub k under the map: at k = 1 the regions hug every point; as k grows they smooth out."


def intro(without_k: bool = False) -> str:
    """The page's intro, ``without_k`` its sentence on what k does."""
    sentences = [
        "A point takes the majority label of the k training points nearest to it.",
        *([] if without_k else [INTRO_K]),
        "Drag the ◆ query, or click to move it.",
    ]
    return " ".join(sentences)


POST, CLUSTERS, UNSCALED = points.POST, points.CLUSTERS, points.UNSCALED
DATA_NAMES = points.menu("knn")  # the registry's sets offered here, then the user's points
YOURS = points.yours("knn")
# The axes' names where the data set gives its features a meaning (else x₁ and x₂).
AXES = {UNSCALED: ("x₁: weight (kg)", "x₂: height (m)")}
MANY_CLASSES = points.many_classes("knn")  # the data sets whose number of classes can be chosen
# The page's first view (its other controls start at the first entry of their menus).
DEFAULTS = {"points": 100, "classes": 3, "seed": 0, "k": 8, "p": 3.0, "h": 1.0}
SCALERS = {"none": None, "min-max": MinMaxScaler, "standardise": StandardScaler}
QUERY_LIMIT = 1e6  # a query beyond ±1e6 on an axis is clipped: squared distances would overflow float32
# Where the query starts: the post's own query for its data, else the middle of the data.
DEFAULT_QUERY = {POST: (-3.0, 0.0), "Moons": (0.5, 0.25), "XOR": (0.5, 0.5), UNSCALED: (70.0, 1.7)}


def axis_titles(name: str) -> tuple[str, str]:
    """The names of the map's two axes on the data set ``name``."""
    return AXES.get(name, ("x₁", "x₂"))


def start_query(name: str) -> dict[str, float]:
    """The query's first position on the data set ``name``, as the page's widget values."""
    qx, qy = DEFAULT_QUERY.get(name, (0.0, 0.0))
    return {"knn_qx": qx, "knn_qy": qy}


def lesson_data(name: str, n: int, n_classes: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The page's generated data set ``name`` (the registry's), exactly ``n`` points."""
    return points.load("knn", name, seed, n, n_classes)


def starter_points() -> tuple[np.ndarray, np.ndarray]:
    """The first "your points": six of each class, around (−2, 0) and (2, 0)."""
    return points.your_points("knn")[1]


def scaling(name: str, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (scale, offset) of the scaler ``SCALERS[name]`` fitted on X: x' = (x − offset) / scale."""
    if SCALERS[name] is None:
        return np.ones(X.shape[1]), np.zeros(X.shape[1])
    scaler = SCALERS[name]().fit(X)
    return scaler.scale_, scaler.offset_


EDITS = {
    "none": None,
    "Wilson's editing (the post's edited k-NN): drop the points their 3 neighbours out-vote": "wilson",
    "Hart's condensing (not from the post; keeps the boundary): a subset 1-NN gets all right": "hart",
}
EDIT_LABEL = "Thin the training points (edited or condensed k-NN)"


def edited(X: np.ndarray, y: np.ndarray, edit: str, metric: str, p: float) -> np.ndarray:
    """The indices kept by the editing named ``edit`` (a key of ``EDITS``), all of them for none."""
    if EDITS[edit] == "wilson" and len(X) > 3:
        return knn.wilson_edit(X, y, 3, metric, p)
    if EDITS[edit] == "hart":
        return knn.hart_condense(X, y, metric, p)
    return np.arange(len(X))


def edit_accuracy(Xs: np.ndarray, y: np.ndarray, edit: str, seed: int, params: dict) -> str:
    """Held-out accuracy (a 70/30 split) before and after the editing, as a sentence."""
    X_train, X_test, y_train, y_test = evaluation.train_test_split(Xs, y, 0.3, seed, stratify=len(Xs) >= 20)
    kept = edited(X_train, y_train, edit, params["metric"], params["p"])
    if len(np.unique(y_train[kept])) < 2:
        return "The editing leaves fewer than two classes in the training part: nothing to compare."
    scores = [
        KNNClassifier(**dict(params, k=min(params["k"], len(rows))))
        .fit(X_train[rows], y_train[rows])
        .score(X_test, y_test)
        for rows in (np.arange(len(X_train)), kept)
    ]
    return (
        f"Held-out accuracy (30% of the points, the editing done on the other 70%): {scores[0]:.1%} with all "
        f"{len(X_train)} training points, {scores[1]:.1%} with the {len(kept)} kept."
    )


def add_point(points, click: dict[str, float], c: int):
    """The table of the user's points with one more row (x1, x2, class): the player's ``click``
    ({"x": …, "y": …}) of class ``c``, rounded as the link holds them."""
    import pandas as pd

    row = {"x1": [round(click["x"], 2)], "x2": [round(click["y"], 2)], "class": [c]}
    return pd.concat([points, pd.DataFrame(row)], ignore_index=True)


TIE_DELTA = "a tie: the nearest tied neighbour's class"  # under the prediction when its vote tied


def training_accuracy(k: int, accuracy: float) -> str:
    """The training accuracy the page states under the query's neighbours."""
    return f"Training accuracy at k = {k}: {accuracy:.1%}"


def query_view(model: KNNClassifier, query: np.ndarray, kept: np.ndarray, class_names: list[str]):
    """The query's prediction, a note when its vote tied, and its neighbours as a table (a pandas
    DataFrame: ``st.table`` shows a dict's keys as no header).

    ``query`` is in the classifier's (scaled) space; ``kept`` maps training rows to the data's.
    """
    import pandas as pd

    distances, indices = model.kneighbors(query[None])
    winner, _, tied = vote(model.y_[indices], distances, len(class_names), model.weights, model.bandwidth)
    table = pd.DataFrame(
        {
            "neighbour": kept[indices[0]],
            "class": [class_names[c] for c in model.y_[indices[0]]],
            "distance": distances[0],
        }
    )
    return class_names[winner[0]], TIE_DELTA if tied[0] else None, table


def best_k_text(best_k: int, best: float) -> str:
    """Where leave-one-out accuracy peaks, as the accuracy note says it."""
    return f"highest at k = {best_k} ({best:.1%})"


def accuracy_note(best_k: int, best: float) -> str:
    """What the accuracy curves say."""
    return (
        f"Leave-one-out accuracy is {best_k_text(best_k, best)}. "
        "Training accuracy at k = 1 is always 100%: each point is its own nearest neighbour."
    )


KDTREE_METRICS = (
    "The k-d tree prunes with the distance to a splitting line, which bounds Minkowski metrics only."
)


def clip_query(qx: float, qy: float) -> tuple[np.ndarray, str | None]:
    """The query as used (within ±QUERY_LIMIT, NaN as 0), and a note when it had to be changed."""
    query = np.clip(np.nan_to_num([qx, qy]), -QUERY_LIMIT, QUERY_LIMIT)
    if np.array_equal(query, [qx, qy]):
        return query, None
    return (
        query,
        f"The query is kept within ±{QUERY_LIMIT:g} on each axis: it is used as ({query[0]:g}, {query[1]:g}).",
    )


TIE_NOTE = (
    f"A vote can tie at this k: {TIE_RULE}, on the map (the greyed cells), in the prediction and in "
    "the accuracy alike."
)


def ties_possible(
    X: np.ndarray, y: np.ndarray, k: int, weights: str = "uniform", metric: str = "euclidean", p: float = 2
) -> bool:
    """Whether the k-NN vote on these points can tie over an area of the map (the page then states
    the tie rule); ``X`` scaled as the classifier sees it, ``y`` class indices. Uniform votes tie
    when two classes can share the top count; weighted ones only where distances coincide (under
    Hamming, or points of different classes at distance 0). Necessary, not sufficient."""
    y = np.asarray(y)
    counts = np.bincount(y)
    counts = counts[counts > 0]
    if k < 2 or len(counts) < 2:
        return False
    if weights != "uniform" and metric != "hamming":
        distances = pairwise_distances(X, X, metric, p)
        coincide = np.any((y[:, None] != y[None, :]) & (distances <= 1e-12))
        return bool(coincide and (len(counts) >= 3 or k % 2 == 0))  # two classes tie at even k only
    # Some top count t ≤ k/2 that two classes reach, with the counts capped at t adding up to k.
    return any(
        np.count_nonzero(counts >= t) >= 2 and np.minimum(counts, t).sum() >= k for t in range(1, k // 2 + 1)
    )


def _grid_votes(X, y, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Winner and tie flag of every grid cell for the plain (Euclidean, uniform) k-NN."""
    _, _, grid = view_grid(X)
    model = KNNClassifier(k=k).fit(X, y)
    distances, indices = model.kneighbors(grid)
    winner, _, tied = vote(model.y_[indices], distances, len(model.classes_))
    return winner, tied


def _pick(options: list[str], holds: list[bool]) -> str:
    """The one option whose condition holds (a ValueError if none or several: the options need
    rewording, never a typed answer)."""
    chosen = [option for option, ok in zip(options, holds, strict=True) if ok]
    if len(chosen) != 1:
        raise ValueError(f"{len(chosen)} options hold among {options}")
    return chosen[0]


def _view(name: str, **values) -> dict:
    """A step's setup: the plain k-NN (Euclidean, uniform, unscaled, unedited, seed 0) on the data
    set ``name`` with its query where a new data set starts it, then ``values``."""
    plain = dict(
        knn_metric="euclidean", knn_weights="uniform", knn_scaling="none", knn_edit="none", knn_seed=0
    )
    return dict(plain, knn_data=name, **start_query(name), **values)


# The parts of the page a step can hide until its answer is revealed (a step's ``hides``): the
# intro's sentence on what k does; the accuracy curves, or those but the training one ("validation":
# where they peak); the map's colouring, its tied votes (no grey, no tie in the prediction or the
# notes), the player's marks round the query's k nearest; the query's prediction (the tile and the
# player's status line); the training accuracy, the table of the query's neighbours and the note on a
# metric that does not suit the data. The note under the map names those it keeps back (WITHHELD),
# and the player hides its own (PLAYER_PARTS).
WITHHELD = {
    "regions": "the map's colouring",
    "prediction": "the query's prediction",
    "ties": "how it shows tied votes",
    "neighbours": "the rings round the query's nearest points",
    "accuracy": "the training accuracy",
    "neighbour_table": "the query's neighbours and their distances",
    "metric_note": "a note on the metric",
}
PARTS = ("intro_k", "curves", "validation", *WITHHELD)
PLAYER_PARTS = ("regions", "ties", "neighbours", "prediction")


def _tie_tells(X: np.ndarray, y: np.ndarray, k: int, name: str) -> list[str]:
    """The notes the page shows about ties on the data set ``name`` at this k (the tie rule, the
    prediction's tie), as the page computes them."""
    query = np.array([list(start_query(name).values())])
    model = KNNClassifier(k=k).fit(X, y)
    distances, indices = model.kneighbors(query)
    tied = vote(model.y_[indices], distances, len(model.classes_))[2][0]
    return [TIE_NOTE] * ties_possible(X, y, k) + [TIE_DELTA] * bool(tied)


def try_this_steps() -> list[dict]:
    """The page's "Try this" steps, each answer and its why computed with the library.

    Each step is a dict of :class:`pages.widgets.lesson.Step`'s fields. The map greys a tied cell
    (and colours it by the nearest tied neighbour's class), so the answers about the map say
    what the library's :func:`~classic.knn.vote` says of every cell: its winner and its tie flag.
    Where the map is the answer, the step hides its colouring (``PARTS``) until the reveal; a
    step about what a larger k does opens at k = 1, before it.
    """
    X, y = lesson_data("Moons", 200, 2, 0)
    a1, a51 = (KNNClassifier(k=k).fit(X, y).score(X, y) for k in (1, 51))
    smooth = [
        "It smooths out: fewer islands, lower training accuracy",
        "It gets more jagged",
        "It does not change",
    ]
    w1, _ = _grid_votes(X, y, 1)
    w2, tied2 = _grid_votes(X, y, 2)
    same2 = np.all(w1 == w2)
    two = [
        "Not at all: the same map",
        "Same colours, but some cells turn grey: tied votes",
        "New colours: it smooths out",
    ]
    ks = np.arange(1, K_CURVES + 1)  # as far as the page's curves go
    loo = leave_one_out_accuracy(X, y, ks)
    best = int(ks[np.argmax(loo)])
    picks = ["k = 1", "a k from 2 to 25", "a k above 25"]

    Xu, yu = lesson_data(UNSCALED, 200, 2, 0)
    spread = Xu.std(axis=0)
    unscaled = leave_one_out_accuracy(Xu, yu, [5])[0]
    standard = leave_one_out_accuracy((Xu - Xu.mean(axis=0)) / spread, yu, [5])[0]
    features = ["x₁ (weight: the larger range)", "x₂ (height)", "Both equally"]

    Xp, yp = lesson_data(POST, 100, 2, 0)
    wn, tiedn = _grid_votes(Xp, yp, 100)
    wp1, _ = _grid_votes(Xp, yp, 1)
    full = [
        "One colour, no grey: the majority class everywhere",
        "The k = 1 map's colours, with no grey",
        "Grey everywhere, over the k = 1 map's colours",
    ]
    as_one = np.all(wn == wp1)
    everyone = KNNClassifier(k=100).fit(Xp, yp).score(Xp, yp)
    query = np.array([list(DEFAULT_QUERY[POST])])
    hamming = pairwise_distances(query, Xp, "hamming")
    distinct = len(np.unique(hamming))
    counts = ["One: every point is equally far", "Two or three", "About as many as there are points"]
    unsuited = [why for ok, why in [knn.metric_suits("hamming", Xp)] if not ok]

    return [
        dict(
            title="From k = 1 to k = 51 on the moons",
            setup=_view("Moons", knn_points=200, knn_k=1),
            question="The map at k = 1: predict, then scrub k up to 51. What does the boundary do?",
            options=smooth,
            answer=_pick(smooth, [a51 < a1, a51 > a1, a51 == a1]),
            why=f"Training accuracy is {a1:.1%} at k = 1 (each point is its own nearest neighbour) and "
            f"{a51:.1%} at k = 51: every cell now follows the majority of a wider neighbourhood.",
            hides=("intro_k", "curves"),
            tells=(f"{a51:.1%} at k = 51",),
        ),
        dict(
            title="k = 2 after k = 1",
            setup=_view("Moons", knn_points=200, knn_k=2),
            question="With two classes, how does the map change from k = 1 to k = 2?",
            options=two,
            answer=_pick(two, [same2 and not tied2.any(), same2 and tied2.any(), not same2]),
            why=f"Where the two neighbours disagree the vote is 1–1, a tie: {tied2.mean():.1%} of the cells "
            "here, greyed on the map. A tie goes to the class of the nearest tied neighbour, which is the "
            f"1-NN answer, so {np.mean(w1 == w2):.0%} of the cells keep their k = 1 colour. An odd k avoids "
            "ties between two classes.",
            hides=("ties",),
            tells=(*_tie_tells(X, y, 2, "Moons"), f"{tied2.mean():.1%} of the cells"),
        ),
        dict(
            title="The best k",
            setup=_view("Moons", knn_points=200, knn_k=1, knn_tab="Accuracy against k"),
            question=f"Which k does leave-one-out accuracy pick on the moons (k up to {K_CURVES})?",
            options=picks,
            answer=_pick(picks, [best == 1, 2 <= best <= 25, best > 25]),
            why=f"k = {best}: {loo.max():.1%} of the points are classified right by the others, against "
            f"{loo[0]:.1%} at k = 1 (too jumpy) and {loo[-1]:.1%} at k = {ks[-1]} (too smooth).",
            hides=("validation",),
            tells=(best_k_text(best, loo.max()),),
        ),
        dict(
            title="Which feature decides without scaling?",
            setup=_view(UNSCALED, knn_points=200, knn_k=5),
            question="Weight (x₁) and height (x₂), unscaled: which one decides who is near?",
            options=features,
            answer=_pick(features, [spread[0] > spread[1], spread[0] < spread[1], spread[0] == spread[1]]),
            why=f"x₁ spreads {spread[0] / spread[1]:.0f}× wider than x₂, so it dominates every distance, "
            f"though only x₂ tells the classes apart: leave-one-out accuracy at k = 5 is {unscaled:.0%} "
            f"unscaled and {standard:.0%} standardised.",
            hides=("regions", "neighbours"),
            tells=(f"{spread[0] / spread[1]:.0f}× wider",),
        ),
        dict(
            title="k = n on the post's 50 + 50 points",
            setup=_view(POST, knn_points=100, knn_k=100),
            question="Every point votes (k = 100). What does the map show?",
            options=full,
            answer=_pick(
                full,
                [
                    len(np.unique(wn)) == 1 and not tiedn.any(),
                    as_one and not tiedn.any(),
                    as_one and tiedn.all(),
                ],
            ),
            why=f"Every vote is 50–50: {tiedn.mean():.0%} of the cells are tied, so all are greyed. The "
            "nearest tied neighbour decides each one, and that is the nearest neighbour: the colours are "
            f"the k = 1 map's on {np.mean(wn == wp1):.0%} of the cells.",
            hides=("regions", "ties", "accuracy"),
            tells=(
                *_tie_tells(Xp, yp, 100, POST),
                training_accuracy(100, everyone),
                f"{tiedn.mean():.0%} of the cells are tied",
            ),
        ),
        dict(
            title="Hamming distance on continuous points",
            setup=_view(POST, knn_points=100, knn_k=8, knn_metric="hamming"),
            question=f"How many different Hamming distances are there from the query ({query[0, 0]:g}, "
            f"{query[0, 1]:g}) to the 100 points?".replace("-", "−"),
            options=counts,
            answer=_pick(counts, [distinct == 1, 2 <= distinct <= 3, distinct > 3]),
            why=f"{distinct} distinct value(s): {', '.join(f'{d:g}' for d in np.unique(hamming))}. Hamming "
            "counts the coordinates that differ, and continuous coordinates almost never coincide, so the "
            "'nearest' points are an arbitrary pick: Hamming is for binary or categorical features.",
            hides=("regions", "neighbours", "neighbour_table", "metric_note"),
            tells=(*unsuited, f"{distinct} distinct value(s)"),
        ),
    ]


FORMULAS = [
    r"\hat y(x) = \arg\max_c \sum_{i \in N_k(x)} w_i\,[y_i = c],\qquad "
    r"w_i \in \{1,\ 1/d_i,\ 1/d_i^2,\ e^{-(d_i^2 - d_1^2)/h^2}\}",
    r"\|a-b\|_p = \Big(\sum_j |a_j-b_j|^p\Big)^{1/p}",
]


HOW_IT_WORKS = (
    "The textbook k-NN below is the post's few lines with its tie made definite; a test checks that it "
    "predicts what the fast code predicts on the page's data. The fast code finds the neighbours "
    "of every map cell once, for the largest k the browser holds; the map then re-votes in the browser "
    "as k moves. Gaussian weights are taken relative to the nearest neighbour (the factor e^{d₁²/h²} "
    "is the same for every class), so they never all underflow to 0."
)


def depth_note(depth: int, n: int) -> str:
    """The k-d tree's measured depth next to the notes' claim."""
    return (
        f"Depth {depth} for {n} points: each median split halves the points, so a balanced k-d tree is "
        f"⌊lg n⌋ = {int(np.floor(np.log2(n)))} deep whatever the dimension d. The notes give O(d lg n) for "
        "the depth; it is O(lg n). Descending to the query's leaf compares one coordinate per level."
    )


ACCURACY_ALT = (
    "Accuracy against k from 1 to 100 (or as far as the points allow): training accuracy, accuracy on a "
    "held-out 30%, and leave-one-out accuracy, on an accuracy axis zoomed to the curves (its title says "
    "where it starts), with a dotted line at the best k by leave-one-out."
)


TRAINING_ALT = (
    "Training accuracy against k from 1 to 100 (or as far as the points allow), on an accuracy axis "
    "zoomed to the curves; the held-out and leave-one-out curves are hidden until the answer is revealed."
)


KDTREE_ALT = (
    "The k-d tree's splitting lines over the training points, thicker near the root; the cells the "
    "query's search never entered are shaded grey and their points faded; the query, its k nearest "
    "neighbours ringed, and the dashed ball of radius the k-th distance around it."
)


def pruning_note(measured: int, pruned: int, n: int, k: int, scaled: bool) -> str:
    """What the k-d tree's search did, with the notes' test it applied at every split."""
    units = " (distances after scaling)" if scaled else ""
    nearest = "nearest point" if k == 1 else f"k-th nearest point (k = {k})"
    return (
        f"The search measured **{measured} of {n}** distances (brute force measures all {n}) and never entered "
        f"**{pruned}** {'cell' if pruned == 1 else 'cells'} (grey). At each split on its way back up it applies "
        f"the notes' test: every point beyond the line xₐ = t is at least |t − xₐ| from the query, so the far "
        f"side is searched only if |t − xₐ| ≤ the distance to the {nearest} found so far; otherwise it is "
        f"pruned. The dashed ball (in the axes' units) has the final k-th distance as radius: every cell it "
        f"reaches was searched{units}."
    )


# ---------------------------------------------------------------------------------------------
# Peer instruction: a question of the same kind as each "Try this" step (``SAME_KIND``,
# in the steps' order) and questions about the view on the screen (``VIEW_QUESTIONS``). Every
# answer is the library's; a maker draws again when its draw has no clear answer.
# ---------------------------------------------------------------------------------------------

VIEW = """The view the page builds for "Ask about this view" (``page_view``; ``random_view`` makes one):

- ``data``: the data menu's name; ``X``: the training points on the map (after any thinning), in
  the data's units, shape (n, 2); ``y``: their class indices into ``class_names`` (the legend's);
- ``k``, ``metric``, ``p``, ``weights``, ``bandwidth``: the classifier's settings;
- ``scaling``: a key of ``SCALERS``, with ``scale`` and ``offset``: the classifier sees
  (X − offset) / scale; ``X_all``: the points before thinning, which the scaler was fitted on;
- ``query``: the query as used (clipped), in the data's units, shape (2,).
"""

GENERATED = [name for name in DATA_NAMES if name != YOURS]
_TRIES = 200  # draws a maker tries for a clear answer (a few suffice: most draws have one)


def page_view(
    data: str,
    X: np.ndarray,
    y: np.ndarray,
    class_names: list[str],
    params: dict,
    scaling_name: str,
    scale: np.ndarray,
    offset: np.ndarray,
    query: np.ndarray,
    X_all: np.ndarray | None = None,
) -> dict:
    """The view (``VIEW``) of the page's values; ``params`` as the page's: k, metric, p, weights, bandwidth."""
    return dict(
        data=data,
        X=np.asarray(X, dtype=float),
        y=np.asarray(y),
        class_names=list(class_names),
        k=int(params["k"]),
        metric=params["metric"],
        p=float(params["p"]),
        weights=params["weights"],
        bandwidth=float(params["bandwidth"]),
        scaling=scaling_name,
        scale=np.asarray(scale, dtype=float),
        offset=np.asarray(offset, dtype=float),
        query=np.asarray(query, dtype=float),
        X_all=np.asarray(X if X_all is None else X_all, dtype=float),
    )


def random_view(rng: np.random.Generator) -> dict:
    """A view as the page builds it, its menus drawn at random (your points: the starter ones)."""
    name = str(rng.choice(DATA_NAMES))
    n_classes = int(rng.integers(2, 6)) if name in MANY_CLASSES else DEFAULTS["classes"]
    seed = int(rng.integers(0, 1000))
    if name == YOURS:
        X, y_raw = starter_points()
    else:
        X, y_raw = lesson_data(name, int(rng.choice([20, 50, 100, 200, 300])), n_classes, seed)
    classes, y = np.unique(y_raw, return_inverse=True)
    metric = str(rng.choice(knn.METRICS))
    p = float(rng.choice([1.0, 1.5, 3.0, 10.0]))
    scaling_name = str(rng.choice(list(SCALERS)))
    scale, offset = scaling(scaling_name, X)
    edit = list(EDITS)[int(rng.choice(3, p=[0.8, 0.1, 0.1]))]
    kept = edited((X - offset) / scale, y, edit, metric, p)
    X_all, X, y = X, X[kept], y[kept]
    k = (
        int(rng.choice([1, 2, 3, 5, 8, 15, 40, len(X)]))
        if rng.random() < 0.8
        else int(rng.integers(1, len(X) + 1))
    )
    low, high = X.min(axis=0), X.max(axis=0)
    query = (
        np.round(low + rng.random(2) * (high - low), 2)
        if rng.random() < 0.7
        else np.array(DEFAULT_QUERY.get(name, (0.0, 0.0)))
    )
    params = dict(
        k=min(k, len(X)),
        metric=metric,
        p=p,
        weights=str(rng.choice(knn.WEIGHTS)),
        bandwidth=float(rng.choice([0.1, 1.0, 3.0])),
    )
    names = [f"class {c}" for c in classes]
    return page_view(name, X, y, names, params, scaling_name, scale, offset, query, X_all)


def _draw(rng: np.random.Generator, names: list[str], sizes: list[int], n_classes: tuple[int, ...] = (2, 3)):
    """A data set of the menu at random: (name, n, classes, seed, X, y)."""
    name = str(rng.choice(names))
    n, seed = int(rng.choice(sizes)), int(rng.integers(0, 1000))
    classes = int(rng.choice(n_classes)) if name in MANY_CLASSES else DEFAULTS["classes"]
    return (name, n, classes, seed, *lesson_data(name, n, classes, seed))


def _setup(name: str, n: int, classes: int, seed: int, **values) -> dict:
    """A made step's setup: ``_view``'s, with the data's size and seed (and its classes where it has a choice)."""
    many = {"knn_classes": classes} if name in MANY_CLASSES else {}
    return {**_view(name, knn_points=n, knn_seed=seed, **many), **values}


def _named(name: str, n: int, classes: int, seed: int) -> str:
    """The data as a question names it."""
    of = f", {classes} classes" if name in MANY_CLASSES else ""
    return f"“{name}” ({n} points{of}, seed {seed})"


def _redraw(make):
    """A maker that draws again while its draw has no clear answer (``make`` returns None)."""

    def maker(rng: np.random.Generator) -> dict:
        for _ in range(_TRIES):
            made = make(rng)
            if made is not None:
                return made
        raise ValueError(f"{make.__name__}: no draw with a clear answer in {_TRIES} tries")

    maker.__name__ = maker.__qualname__ = make.__name__
    maker.__doc__ = make.__doc__
    return maker


def _train_accuracy(X: np.ndarray, y: np.ndarray, k: int) -> float:
    return float(KNNClassifier(k=k).fit(X, y).score(X, y))


_SMOOTH, _TWO, _PICKS, _FULL, _COUNTS = (
    [
        "It smooths out: fewer islands, lower training accuracy",
        "It gets more jagged",
        "It does not change",
    ],
    [
        "Not at all: the same map",
        "Same colours, but some cells turn grey: tied votes",
        "Same colours; some grey cells take a colour again",
        "Some cells change colour",
    ],
    ["k = 1", "a k from 2 to 25", "a k above 25"],
    [
        "One colour, no grey: the majority class everywhere",
        "The k = 1 map's colours, with no grey",
        "Grey everywhere, over the k = 1 map's colours",
    ],
    ["One: every point is equally far", "Two or three", "About as many as there are points"],
)


@_redraw
def same_scrub(rng: np.random.Generator) -> dict | None:
    """Step 1 anew: another data set and seed, k scrubbed up or down between a small and a large k."""
    name, n, classes, seed, X, y = _draw(rng, GENERATED, [100, 150, 200])
    small, large = int(rng.choice([1, 2, 3, 5])), int(rng.choice([15, 25, 51, 75]))
    start, end = (small, large) if rng.random() < 0.6 else (large, small)
    before, after = _train_accuracy(X, y, start), _train_accuracy(X, y, end)
    if before == after:  # no clear answer in the training accuracy: draw again
        return None
    way = "up" if end > start else "down"
    return dict(
        title=f"From k = {start} to k = {end} on {name}",
        setup=_setup(name, n, classes, seed, knn_k=start),
        question=f"The map of {_named(name, n, classes, seed)} at k = {start}: predict, then scrub k {way} "
        f"to {end}. What does the boundary do?",
        options=_SMOOTH,
        answer=_pick(_SMOOTH, [after < before, after > before, after == before]),
        why=f"Training accuracy is {before:.1%} at k = {start} and {after:.1%} at k = {end}: the more "
        "neighbours vote, the wider the neighbourhood each cell follows, and the fewer single points it "
        "bends round (at k = 1 each point is its own nearest neighbour).",
        hides=("intro_k", "curves"),
        tells=(INTRO_K, f"{after:.1%} at k = {end}"),
    )


@_redraw
def same_next_k(rng: np.random.Generator) -> dict | None:
    """Step 2 anew: from k to k + 1 (k = 1 to 4), two or three classes, another data set and seed."""
    names = ["Moons", "Concentric circles", "XOR", POST, CLUSTERS, "Spiral"]
    name, n, classes, seed, X, y = _draw(rng, names, [100, 150, 200])
    k = int(rng.integers(1, 5))
    w_before, tied_before = _grid_votes(X, y, k)
    w_after, tied_after = _grid_votes(X, y, k + 1)
    same = bool(np.all(w_before == w_after))
    cleared, greyed = bool(np.any(tied_before & ~tied_after)), bool(np.any(tied_after & ~tied_before))
    return dict(
        title=f"k = {k + 1} after k = {k}",
        setup=_setup(name, n, classes, seed, knn_k=k + 1),
        question=f"{_named(name, n, classes, seed)} has {len(np.unique(y))} classes. How does the map change "
        f"from k = {k} to k = {k + 1}?",
        options=_TWO,
        answer=_pick(
            _TWO,
            [same and not (cleared or greyed), same and greyed and not cleared, same and cleared, not same],
        ),
        why=f"{tied_after.mean():.1%} of the cells tie at k = {k + 1} ({tied_before.mean():.1%} at k = {k}), "
        f"and {np.mean(w_before == w_after):.1%} keep their colour. A tie goes to the class of the nearest "
        "tied neighbour, so from k = 1 to k = 2 every cell keeps its colour and the split votes turn grey; "
        "an odd k avoids ties between two classes.",
        hides=("ties",),
        tells=(*_tie_tells(X, y, k + 1, name), f"{tied_after.mean():.1%} of the cells tie"),
    )


@_redraw
def same_best_k(rng: np.random.Generator) -> dict | None:
    """Step 3 anew: the k leave-one-out picks, on another data set and seed."""
    name, n, classes, seed, X, y = _draw(rng, GENERATED, [150, 200, 250, 300])
    ks = np.arange(1, K_CURVES + 1)  # 70% of at least 150 points: the page's curves reach K_CURVES
    loo = leave_one_out_accuracy(X, y, ks)
    best = int(ks[np.argmax(loo)])
    return dict(
        title=f"The best k on {name}",
        setup=_setup(name, n, classes, seed, knn_k=1, knn_tab="Accuracy against k"),
        question=f"Which k does leave-one-out accuracy pick on {_named(name, n, classes, seed)}, "
        f"with k up to {K_CURVES}?",
        options=_PICKS,
        answer=_pick(_PICKS, [best == 1, 2 <= best <= 25, best > 25]),
        why=f"k = {best}: {loo.max():.1%} of the points are classified right by the others, against "
        f"{loo[0]:.1%} at k = 1 and {loo[-1]:.1%} at k = {ks[-1]} (the smallest k wins a tie).",
        hides=("validation",),
        tells=(best_k_text(best, loo.max()),),
    )


@_redraw
def same_feature(rng: np.random.Generator) -> dict | None:
    """Step 4 anew: which feature decides who is near, on another data set, seed and scaling."""
    names = [UNSCALED, UNSCALED, POST, "Moons", "XOR", "Concentric circles", CLUSTERS]
    name, n, classes, seed, X, y = _draw(rng, names, [100, 200, 300])
    how = str(rng.choice(list(SCALERS), p=[0.5, 0.25, 0.25]))
    scale, offset = scaling(how, X)
    spread = ((X - offset) / scale).std(axis=0)
    ratio = spread[0] / spread[1]
    if 1.5 <= ratio <= 2.5 or 1 / 2.5 <= ratio <= 1 / 1.5:  # neither clearly one nor clearly both
        return None
    x1, x2 = axis_titles(name)
    features = [x1, x2, "Both about equally"]
    wide, narrow = (x1, x2) if ratio > 1 else (x2, x1)
    return dict(
        title=f"Which feature decides, scaling {how}?",
        setup=_setup(name, n, classes, seed, knn_k=5, knn_scaling=how),
        question=f"{_named(name, n, classes, seed)}, scaling: {how}. Which feature decides who is near?",
        options=features,
        answer=_pick(features, [ratio > 2.5, ratio < 1 / 2.5, 1 / 1.5 < ratio < 1.5]),
        why=f"After scaling ({how}) {wide} spreads {max(ratio, 1 / ratio):.2f}× as wide as {narrow} "
        "(standard deviations): a distance adds up the squared differences, so a feature several times "
        "wider decides alone, and features about as wide share the say. Standardising makes them equal.",
        hides=("regions", "neighbours"),
        tells=(f"{max(ratio, 1 / ratio):.2f}× as wide",),
    )


@_redraw
def same_everyone(rng: np.random.Generator) -> dict | None:
    """Step 5 anew: k = n on another data set, size, number of classes and seed."""
    names = [POST, CLUSTERS, CLUSTERS, "Spiral", "Moons", "XOR", "Concentric circles"]
    name, n, classes, seed, X, y = _draw(rng, names, list(range(60, 210, 10)), (2, 3, 4, 5))
    n = len(X)
    every, tied = _grid_votes(X, y, n)
    nearest, _ = _grid_votes(X, y, 1)
    as_one = bool(np.all(every == nearest))
    holds = [len(np.unique(every)) == 1 and not tied.any(), as_one and not tied.any(), as_one and tied.all()]
    if sum(holds) != 1:  # only some classes tie at the top: none of the options describes it
        return None
    counts = np.bincount(y)
    answer = _pick(_FULL, holds)
    if holds[0]:
        why = (
            f"The counts are {' + '.join(map(str, counts))}: every cell counts the same votes, so class "
            f"{int(np.argmax(counts))}, the largest, wins everywhere, with no tie."
        )
    else:
        why = (
            f"The counts are {' + '.join(map(str, counts))}: every vote ties, so {tied.mean():.0%} of the "
            "cells are greyed. The nearest tied neighbour decides each, and that is the nearest neighbour: "
            "the colours are the k = 1 map's."
        )
    return dict(
        title=f"k = n on {name}: {' + '.join(map(str, counts))} points",
        setup=_setup(name, n, classes, seed, knn_k=n),
        question=f"Every point of {_named(name, n, classes, seed)} votes (k = {n}). What does the map show?",
        options=_FULL,
        answer=answer,
        why=why,
        hides=("regions", "ties", "accuracy"),
        tells=(
            *_tie_tells(X, y, n, name),
            training_accuracy(n, _train_accuracy(X, y, n)),
            f"{tied.mean():.0%} of the cells are greyed"
            if not holds[0]
            else f"{int(np.argmax(counts))}, the largest",
        ),
    )


@_redraw
def same_distances(rng: np.random.Generator) -> dict | None:
    """Step 6 anew: how many distinct distances from a query, under another metric, data set and query."""
    name, n, classes, seed, X, y = _draw(rng, GENERATED, [50, 100, 200])
    metric = str(
        rng.choice(["hamming", "hamming", "hamming", "euclidean", "manhattan", "chebyshev", "cosine"])
    )
    low, high = X.min(axis=0), X.max(axis=0)
    query = np.round(low + rng.random(2) * (high - low), 2)
    shares = ""
    if metric == "hamming" and rng.random() < 0.5:  # the query shares a coordinate (or two) with a point
        i, axes = int(rng.integers(len(X))), [[0], [1], [0, 1]][int(rng.integers(3))]
        query[axes] = X[i, axes]
        shared = "both coordinates" if len(axes) == 2 else ("x₁", "x₂")[axes[0]]
        shares = f" (The query shares {shared} with point {i}.)"
    distances = pairwise_distances(query[None], X, metric)
    distinct = np.unique(distances)
    unsuited = [why for ok, why in [knn.metric_suits(metric, X)] if not ok]
    shown = ", ".join(f"{d:g}" for d in distinct[:4]) + (", …" if len(distinct) > 4 else "")
    return dict(
        title=f"{metric.capitalize()} distance on continuous points",
        setup=_setup(
            name, n, classes, seed, knn_k=8, knn_metric=metric, knn_qx=float(query[0]), knn_qy=float(query[1])
        ),
        question=f"How many different {metric} distances are there from the query ({query[0]:.6g}, {query[1]:.6g})"
        f" to the {n} points of {_named(name, n, classes, seed)}?".replace("-", "−")
        + shares,
        options=_COUNTS,
        answer=_pick(_COUNTS, [len(distinct) == 1, 2 <= len(distinct) <= 3, len(distinct) > 3]),
        why=f"{len(distinct)} distinct value(s): {shown}. Hamming counts the coordinates that differ, and "
        "continuous coordinates almost never coincide: Hamming is for binary or categorical features; the "
        "other metrics measure how far, and random points are almost never exactly as far.",
        hides=("regions", "neighbours", "neighbour_table", "metric_note"),
        tells=(*unsuited, f"{len(distinct)} distinct value(s)"),
    )


SAME_KIND = (same_scrub, same_next_k, same_best_k, same_feature, same_everyone, same_distances)


def _decide(view, k: int | None = None, metric: str | None = None, how: str | None = None):
    """The query's vote in ``view``, with k, the metric or the scaling changed: its class index, whether
    it tied, and its k nearest neighbours' class indices, nearest first."""
    metric = view["metric"] if metric is None else metric
    if how is None:
        scale, offset = view["scale"], view["offset"]
    else:
        scale, offset = scaling(how, view["X_all"])
    params = dict(metric=metric, p=view["p"], weights=view["weights"], bandwidth=view["bandwidth"])
    model = KNNClassifier(k=view["k"] if k is None else k, **params).fit(
        (view["X"] - offset) / scale, view["y"]
    )
    decision = model.decide(((view["query"] - offset) / scale)[None])
    # the neighbours' labels as the view's class indices (a thinning may leave a class out of classes_)
    return int(decision.label[0]), bool(decision.tied[0]), model.classes_[model.y_[decision.indices[0]]]


def _settings(view, with_k: bool = True) -> str:
    """The view's settings as a question states them (``with_k``: k too)."""
    p = f" (p = {view['p']:g})" if view["metric"] == "minkowski" else ""
    bandwidth = f" (h = {view['bandwidth']:g})" if view["weights"] == "gaussian" else ""
    k = f"k = {view['k']}, " if with_k else ""
    return f"{k}{view['metric']}{p} distance, {view['weights']}{bandwidth} weights, scaling {view['scaling']}"


def _query_text(view) -> str:
    return f"({view['query'][0]:g}, {view['query'][1]:g})".replace("-", "−")


def _tally(view, labels: np.ndarray) -> str:
    """How the neighbours' classes split, as the why says it."""
    counts = np.bincount(labels, minlength=len(view["class_names"]))
    return ", ".join(f"{counts[c]} of {view['class_names'][c]}" for c in np.flatnonzero(counts))


def ask_query_class(view, rng: np.random.Generator) -> dict | None:
    """The class the query gets at this k."""
    names = view["class_names"]
    if not 2 <= len(names) <= MAX_OPTIONS:
        return None
    label, tied, labels = _decide(view)
    weighted = "" if view["weights"] == "uniform" else f", weighted by {view['weights']}"
    tie = f" The vote tied: {TIE_RULE}." if tied else ""
    return dict(
        title=f"The class at the query, k = {view['k']}",
        setup={},
        question=f"Which class does the query {_query_text(view)} get ({_settings(view)})?",
        options=names,
        answer=names[label],
        why=f"Its {view['k']} nearest: {_tally(view, labels)}{weighted}.{tie}",
        hides=("prediction", "regions", "ties", "neighbours", "neighbour_table"),
        tells=(),
    )


def ask_double_k(view, rng: np.random.Generator) -> dict | None:
    """The query's class when k doubles (the page shows its class at this k)."""
    names, k = view["class_names"], view["k"]
    if not 2 <= len(names) <= MAX_OPTIONS or 2 * k > len(view["X"]):
        return None
    now, _, _ = _decide(view)
    label, tied, labels = _decide(view, k=2 * k)
    options = [f"{name} (it stays)" if c == now else name for c, name in enumerate(names)]
    tie = f" The vote tied: {TIE_RULE}." if tied else ""
    return dict(
        title=f"The query at k = {2 * k}",
        setup={},
        question=f"At k = {k} the query {_query_text(view)} is {names[now]} ({_settings(view, with_k=False)}). "
        f"Which class does it get at k = {2 * k}?",
        options=options,
        answer=options[label],
        why=f"Its {2 * k} nearest: {_tally(view, labels)}.{tie}",
        hides=(),
        tells=(),
    )


def _ranges(k: int) -> list[tuple[int, int]]:
    """0 … k as one number an option up to k = 7, else as four ranges."""
    if k + 1 <= MAX_OPTIONS:
        return [(c, c) for c in range(k + 1)]
    edges = np.linspace(0, k + 1, 5).round().astype(int)
    return [(int(a), int(b) - 1) for a, b in zip(edges[:-1], edges[1:], strict=True)]


def ask_neighbour_count(view, rng: np.random.Generator) -> dict | None:
    """How many of the query's k nearest are of one class (a class picked at random)."""
    names, k = view["class_names"], view["k"]
    if len(names) < 2:
        return None
    _, _, labels = _decide(view)
    c = int(rng.integers(len(names)))
    count = int(np.sum(labels == c))
    ranges = _ranges(k)
    options = [f"{a}" if a == b else f"{a} to {b}" for a, b in ranges]
    return dict(
        title=f"The query's {k} nearest",
        setup={},
        question=f"How many of the {k} training points nearest to the query {_query_text(view)} are of "
        f"{names[c]} ({_settings(view)})?",
        options=options,
        answer=_pick(options, [a <= count <= b for a, b in ranges]),
        why=f"{count}: its {k} nearest are {_tally(view, labels)}.",
        hides=("prediction", "regions", "ties", "neighbours", "neighbour_table"),
        tells=(),
    )


NONE_OF_THEM = "None of them: it keeps its class"


def ask_metric_change(view, rng: np.random.Generator) -> dict | None:
    """Which other metric would give the query another class (one of the options at most does)."""
    names = view["class_names"]
    now, _, _ = _decide(view)
    others = [metric for metric in knn.METRICS if metric != view["metric"]]
    labels = {metric: _decide(view, metric=metric)[0] for metric in others}
    changers = [metric for metric in others if labels[metric] != now]
    keepers = [metric for metric in others if labels[metric] == now]
    chosen = list(rng.choice(keepers, min(len(keepers), 3), replace=False)) if keepers else []
    if changers:
        chosen.append(str(rng.choice(changers)))
    shown = [metric for metric in others if metric in chosen]  # in the menu's order
    if not shown:
        return None

    def label(metric: str) -> str:
        return f"{metric} (p = {view['p']:g})" if metric == "minkowski" else metric

    options = [*map(label, shown), NONE_OF_THEM]
    answer = next((label(metric) for metric in shown if metric in changers), NONE_OF_THEM)
    return dict(
        title="Another metric",
        setup={},
        question=f"The query {_query_text(view)} is {names[now]} ({_settings(view)}). Which of these metrics "
        "would give it another class, all else the same?",
        options=options,
        answer=answer,
        why="Under each: " + "; ".join(f"{label(metric)}, {names[labels[metric]]}" for metric in shown) + ".",
        hides=(),
        tells=(),
    )


_SCALED = ["Only min-max", "Only standardise", "Both", "Neither: it keeps its class"]


def ask_scaling_change(view, rng: np.random.Generator) -> dict | None:
    """Whether scaling the features another way would give the query another class."""
    names = view["class_names"]
    if view["scaling"] != "none":  # asked of the unscaled view: both scalings are then the others
        return None
    now, _, _ = _decide(view)
    labels = {how: _decide(view, how=how)[0] for how in ("min-max", "standardise")}
    changed = {how: labels[how] != now for how in labels}
    options = _SCALED
    return dict(
        title="Scale the features",
        setup={},
        question=f"The query {_query_text(view)} is {names[now]} ({_settings(view)}). Which scaling "
        "(fitted on the points) would give it another class?",
        options=options,
        answer=_pick(
            options,
            [
                changed["min-max"] and not changed["standardise"],
                changed["standardise"] and not changed["min-max"],
                changed["min-max"] and changed["standardise"],
                not any(changed.values()),
            ],
        ),
        why=f"Min-max: {names[labels['min-max']]}; standardise: {names[labels['standardise']]}. Scaling "
        "changes which points are near whenever the features' spreads differ.",
        hides=(),
        tells=(),
    )


VIEW_QUESTIONS = (
    ViewQuestion("query_class", "The class at the query", ask_query_class),
    ViewQuestion("double_k", "The query's class at 2k", ask_double_k),
    ViewQuestion("neighbour_count", "How many of the k nearest are of a class", ask_neighbour_count),
    ViewQuestion("metric_change", "Which metric changes the query's class", ask_metric_change),
    ViewQuestion("scaling_change", "Which scaling changes the query's class", ask_scaling_change),
)
