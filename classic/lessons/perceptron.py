"""The perceptron lesson: the textbook loop, the experiments, the data menu and the page's words.

- ``perceptron_textbook`` and ``classes_textbook``: the loop as a textbook writes it, one point at
  a time, for two classes and for k ≥ 3; the page prints them, and ``Perceptron.fit`` makes the
  same updates in the same order (a test checks it). ``FORMULAS`` and ``HOW``: "How it works",
  the k-class rule beside scikit-learn's one-vs-rest.
- ``best_line_accuracy``: the best training accuracy any line reaches on 2-D points, found
  exactly by trying every ordering of the points' projections a direction can make (what the
  pocket is measured against on XOR).
- ``updates_against_size``: Novikoff's bound (R/γ)² against the updates actually made, on
  ``separated_band`` sets of 25 to 2500 points with the same radius and margin.
- ``generalisation_runs``: the post's experiment (train on 25 points, test on 1000) over many
  seeds, each run to convergence as the post's loop is.
- ``novikoff_figures``: R, γ and (R/γ)² printed so that the bound recomputes from what is shown.
- The page's words: ``verdict`` (beside the player), the charts' titles, and the "Try this" steps
  (``try_this_steps``), every answer computed by the library. Each step names the parts of the
  page that would give its answer away (``hides``) and the texts that do (``tells``): while it is
  asked the page leaves them out, and the player plays the first pass only (``HELD``).
- Peer instruction: ``SAME_KIND``, one maker per step that asks it anew on other data,
  seeds or passes; ``VIEW_QUESTIONS``, "Ask about this view" on the view the page builds (``VIEW``
  says its keys; ``random_view`` makes one for the tests).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from classic import datasets
from classic._validation import RandomState, check_random_state
from classic.lessons import ViewQuestion, points
from classic.perceptron import (
    DualPerceptron,
    Perceptron,
    Update,
    _check_two_classes,
    best_cuts,
    mistake_bound,
)
from classic.viz.tree_figures import plural


def perceptron_textbook(X: np.ndarray, y: np.ndarray, max_epochs: int = 100) -> list[Update]:
    """The perceptron loop as the textbook writes it: every update, in order (η = 1, no shuffle).

    The labels' larger class is +1. This is the code the page shows; ``Perceptron.fit`` makes
    the same updates (a test checks it), but stops early when it proves a cycle.
    """
    X = np.asarray(X, dtype=np.float64)
    labels = np.where(np.asarray(y) == np.unique(y)[-1], 1.0, -1.0)
    w, b = np.zeros(X.shape[1]), 0.0
    history = []
    for epoch in range(max_epochs):
        made_a_mistake = False
        for i in range(len(X)):
            if labels[i] * (X[i] @ w + b) <= 0:
                w = w + labels[i] * X[i]
                b = b + labels[i]
                history.append(Update(epoch, i, w.copy(), float(b)))
                made_a_mistake = True
        if not made_a_mistake:
            break
    return history


def classes_textbook(X: np.ndarray, y: np.ndarray, max_epochs: int = 100) -> list[Update]:
    """The perceptron for k ≥ 3 classes as a textbook writes it: one (w_c, b_c) per class.

    A point is a mistake unless its own class scores strictly highest; then its class's vector
    gains it and the highest-scoring other class's vector loses it (η = 1, no shuffle). This is
    the code the page shows; ``Perceptron.fit`` makes the same updates (a test checks it).
    """
    X = np.asarray(X, dtype=np.float64)
    classes, codes = np.unique(y, return_inverse=True)
    w, b = np.zeros((len(classes), X.shape[1])), np.zeros(len(classes))
    history = []
    for epoch in range(max_epochs):
        made_a_mistake = False
        for i in range(len(X)):
            scores = w @ X[i] + b
            true = codes[i]
            others = np.where(np.arange(len(classes)) == true, -np.inf, scores)
            predicted = int(np.argmax(others))
            if scores[true] <= others[predicted]:
                w[true] += X[i]
                b[true] += 1
                w[predicted] -= X[i]
                b[predicted] -= 1
                history.append(Update(epoch, i, w.copy(), b.copy(), int(true), predicted))
                made_a_mistake = True
        if not made_a_mistake:
            break
    return history


# "How it works": the two-class rule and Novikoff's bound, then the k-class rule beside
# scikit-learn's Perceptron, which for k ≥ 3 classes is one-vs-rest.
FORMULAS = [
    r"\text{if } y_i\,(w\cdot x_i + b) \le 0:\ w \leftarrow w + \eta\, y_i x_i,\ b \leftarrow b + \eta\, y_i",
    r"\#\text{updates} \le \left(R/\gamma\right)^2 \quad\text{(Novikoff)}",
    r"\text{this page, } k \ge 3:\ p = \arg\max_{c \ne y_i} (w_c\cdot x_i + b_c);\ \text{if } "
    r"w_{y_i}\cdot x_i + b_{y_i} \le w_p\cdot x_i + b_p:\ w_{y_i} \mathrel{+}= \eta x_i,\ "
    r"w_p \mathrel{-}= \eta x_i",
    r"\text{scikit-learn, one-vs-rest: for each } c,\ y^{(c)}_i = \pm 1\ (y_i = c \text{ or not});\ "
    r"\text{if } y^{(c)}_i (w_c\cdot x_i + b_c) \le 0:\ w_c \mathrel{+}= \eta\, y^{(c)}_i x_i",
]
HOW = (
    "The page runs `Perceptron.fit`, which makes exactly the updates of the loops below in the same order "
    "(a test checks it) but finds the next mistake with one vectorised scan, and proves a cycle when the same "
    "weights come back after an update at the same position of a pass: the order is fixed, so everything "
    "after it repeats.\n\n"
    "**With three or more classes** this page's perceptron keeps one vector per class and trains them "
    "*together*: a point is a mistake unless its own class scores highest, and each mistake moves two "
    "vectors (the third formula, `classes_textbook` below). **scikit-learn's `Perceptron`** is *one-vs-rest* "
    "(the fourth formula): it trains k separate two-class perceptrons, each class against all the others, "
    "each with its own mistakes, and predicts the class whose score is highest. Both predict arg max_c "
    "(w_c·x + b_c); they learn the w_c differently."
)
SIZE_CLAIMS = (
    "**The post** says the mistakes grow with the *volume* the training points enclose. **Novikoff's "
    "theorem** bounds them by (R/γ)², with R = max ‖(x, 1)‖ (the bias is a weight on a constant 1, so R "
    "is the largest distance of (x₁, x₂, 1) from the origin) and γ the margin in that space; the number "
    "of points does not enter."
)


def dual_caption(n_classes: int) -> str:
    """What the dual view's αᵢ add up to, for two classes or more."""
    if n_classes == 2:
        return "The dual form: w = Σ αᵢ yᵢ xᵢ, where αᵢ counts the updates point i caused."
    return (
        "The dual form: each class's w_c = Σᵢ (times xᵢ was added to c − times it was taken from c)·xᵢ; "
        "αᵢ counts the updates point i caused, each of which moved two classes' vectors."
    )


MAX_BEST_LINE_POINTS = 100
# The pocket scores every point after every update, and slides the line to its best place (a
# sort): a pass over n noisy points costs about n/2 updates × n points. Its passes are capped at
# POCKET_WORK / n², so a page answers within about a second (200 passes stay up to 100 points).
POCKET_WORK = 2_000_000


def pocket_passes(n_points: int, max_epochs: int) -> int:
    """The passes the pocket is given on ``n_points`` points when ``max_epochs`` are asked for."""
    return int(min(max_epochs, max(1, POCKET_WORK // max(n_points, 1) ** 2)))


def no_line_numbers(best: float | None, pocket, curved, X: Any, y: Any) -> list[tuple[str, str, str, str]]:
    """The "When no line will do" tab's headline numbers, (part, label, value, what it is): the
    best any line can do (when it was found: two classes, few points), the pocket's and the
    kernel's. ``part`` is the name a "Try this" step hides it by."""
    numbers = [
        (
            "pocket",
            "Pocket: the best seen",
            f"{pocket.score(X, y):.0%}",
            "The fewest-mistakes weights the perceptron visited, as a share of the points right.",
        ),
        (
            "kernel",
            f"{curved.kernel} kernel",
            f"{curved.score(X, y):.0%}",
            "The kernel perceptron's share of the points right"
            + (", converged." if curved.converged_ else "."),
        ),
    ]
    if best is not None:
        right = round(best * len(X))
        numbers.insert(
            0,
            (
                "best_line",
                "The best any line can do",
                f"{best:.0%}",
                f"{right} of {len(X)} strictly on their side, found by trying every way a line can split them.",
            ),
        )
    return numbers


def pocket_title(score: float | None, n_classes: int) -> str:
    """The pocket chart's title, with its share of the points right (``score``; None: left out)."""
    title = f"Pocket: the best {'line' if n_classes == 2 else 'weights'} seen"
    return title if score is None else f"{title}, {score:.0%} right"


def kernel_title(kernel: str, score: float | None, converged: bool = False) -> str:
    """The kernel chart's title, with its share of the points right and whether it converged
    (``score`` None: neither)."""
    if score is None:
        return f"{kernel} kernel"
    return f"{kernel} kernel: {score:.0%} right" + (", converged" if converged else "")


def pocket_caption(n_points: int, max_epochs: int) -> str:
    """What the pocket did, and the budget when it ran fewer passes than asked."""
    text = "The pocket keeps the fewest-mistakes weights seen, each line slid along w to its best place."
    passes = pocket_passes(n_points, max_epochs)
    if passes < max_epochs:
        text += f" On {n_points:,} points it runs {passes} of the {max_epochs} passes, to answer at once."
    return text


def best_line_accuracy(X: Any, y: Any) -> float:
    """The highest training accuracy any line gets on 2-D points, points on the line counted wrong.

    Exact: the order of the points' projections onto a direction only changes where the
    direction is at right angles to the difference of two points, so one direction between
    each pair of neighbouring critical angles sees every ordering a line can make; for each,
    every threshold between distinct projections is tried. O(n³ log n): at most
    ``MAX_BEST_LINE_POINTS`` points.
    """
    X, _, signs = _check_two_classes(X, y)
    if X.shape[1] != 2:
        raise ValueError(f"best_line_accuracy is for 2-D points; got {X.shape[1]} features")
    if len(X) > MAX_BEST_LINE_POINTS:
        raise ValueError(f"best_line_accuracy takes at most {MAX_BEST_LINE_POINTS} points; got {len(X)}")
    i, j = np.triu_indices(len(X), 1)
    difference = X[j] - X[i]
    critical = np.arctan2(difference[:, 1], difference[:, 0]) + np.pi / 2
    critical = np.sort(np.mod(np.concatenate([critical, critical + np.pi, [0.0]]), 2 * np.pi))
    between = (critical + np.append(critical[1:], critical[0] + 2 * np.pi)) / 2
    normals = np.column_stack([np.cos(between), np.sin(between)])
    right, _ = best_cuts(X @ normals.T, signs)
    return float(right.max() / len(X))


def novikoff_figures(R: float, gamma: float) -> tuple[str, str, str]:
    """R, γ and Novikoff's bound (R/γ)² as the page prints them.

    The bound is rounded to a whole number of updates; R and γ get just enough significant
    digits (at least 3) that (R/γ)² worked out from the printed R and γ rounds to the printed
    bound, so a student who checks it by hand gets the number on screen.
    """
    if not (np.isfinite(R) and np.isfinite(gamma) and gamma > 0):
        raise ValueError(f"Novikoff's bound needs a finite R and a margin γ > 0; got R={R!r}, γ={gamma!r}")
    bound = f"{(R / gamma) ** 2:,.0f}"
    for digits in range(3, 18):
        r, g = _significant(R, digits), _significant(gamma, digits)
        if f"{(float(r) / float(g)) ** 2:,.0f}" == bound:
            return r, g, bound
    return repr(R), repr(gamma), bound


def _significant(value: float, digits: int) -> str:
    """``value`` to at least ``digits`` significant digits, in plain decimals (never 1e+03)."""
    decimals = max(0, digits - 1 - int(np.floor(np.log10(abs(value)))))
    return f"{value:.{decimals}f}"


def band_radius_and_margin(gap: float) -> tuple[float, float]:
    """R and γ of every ``separated_band`` set, with the bias as a weight on a constant 1.

    Every point (x₁, x₂, 1) lies within R = √3 of the origin (the corner (1, 1, 1)); the true
    line, (w, b) = (1, 1, −1), keeps every point at least γ = gap·√2/√3 away in that space.
    """
    return float(np.sqrt(3.0)), float(gap * np.sqrt(2.0) / np.sqrt(3.0))


def band_caption(gap: float = 0.05, n_seeds: int = 20) -> str:
    """What the table of ``updates_against_size`` holds, with the R, γ and bound of its sets."""
    R, gamma, bound = novikoff_figures(*band_radius_and_margin(gap))
    return (
        f"{n_seeds} seeds each, in the unit square with no point within {gap:g} of x₁ + x₂ = 1: every set has "
        f"R = √3 ≈ {R} (the corner (1, 1, 1)) and γ = {gap:g}·√2/√3 ≈ {gamma}, so (R/γ)² = ({R} / {gamma})² "
        f"≈ {bound}."
    )


def size_medians(rows: Any) -> str:
    """The median updates of ``updates_against_size``'s rows, from the fewest points to the most."""
    return " → ".join(f"{median:g} updates with {n:,} points" for n, median, _ in rows)


def separated_band(n: int, gap: float, random_state: RandomState = None) -> tuple[np.ndarray, np.ndarray]:
    """``n`` points of the unit square with none closer than ``gap`` to the line x₁ + x₂ = 1.

    Labelled 1 above the line, 0 below. Every such set has the same radius R (the square)
    and a margin of at least ``gap``, however large n is: Novikoff's bound stays put.
    """
    rng = check_random_state(random_state)
    kept = np.empty((0, 2))
    while len(kept) < n:
        candidates = rng.random((2 * n, 2))
        far = np.abs(candidates.sum(axis=1) - 1) / np.sqrt(2) >= gap
        kept = np.vstack([kept, candidates[far]])
    X = kept[:n]
    return X, (X.sum(axis=1) > 1).astype(np.int64)


def updates_against_size(
    sizes: Any = (25, 250, 2500), gap: float = 0.05, seeds: Any = range(20)
) -> tuple[float, list[tuple[int, float, int]]]:
    """Updates to convergence against the number of points, at a fixed radius and margin.

    Points come from ``separated_band``: the unit square with a band of half-width ``gap``
    around x₁ + x₂ = 1 left empty, so R and γ (``band_radius_and_margin``) and Novikoff's
    bound (R/γ)² = 4.5/gap² are the same for every n. Returns the bound and
    ``(n, median updates, most updates)`` per size over the seeds.
    """
    R, gamma = band_radius_and_margin(gap)
    bound = (R / gamma) ** 2
    rows = []
    for n in sizes:
        counts = []
        for seed in seeds:
            X, y = separated_band(n, gap, seed)
            if len(np.unique(y)) == 2:
                counts.append(Perceptron(max_epochs=10_000).fit(X, y).n_updates_)
        rows.append((int(n), float(np.median(counts)), int(np.max(counts))))
    return bound, rows


# The post's loop runs while a mistake is made. On its 25 points the slowest of seeds 0-99 needs
# 276 passes; 5 of them need more than the estimator's default of 100.
PASSES_TO_CONVERGE = 10_000


@dataclass(frozen=True)
class GeneralisationRuns:
    """The post's experiment over seeds: each run's test accuracy, passes, and whether it converged."""

    scores: np.ndarray
    passes: np.ndarray
    converged: np.ndarray


def generalisation_runs(
    n_train: int = 25, n_test: int = 1000, seeds: Any = range(100), **params: Any
) -> GeneralisationRuns:
    """The post's experiment per seed: train on ``n_train`` points of the line x₂ = 1 − x₁,
    test on ``n_test`` fresh ones. ``params`` go to the Perceptron (by default it runs up to
    ``PASSES_TO_CONVERGE`` passes: to convergence). A seed whose points are all of one class
    is left out."""
    params = {"max_epochs": PASSES_TO_CONVERGE, **params}
    scores, passes, converged = [], [], []
    for seed in seeds:
        X, y = datasets.linearly_separable(n_train, random_state=seed)
        X_test, y_test = datasets.linearly_separable(n_test, random_state=10_000 + seed)
        if len(np.unique(y)) < 2:
            continue
        model = Perceptron(**params).fit(X, y)
        scores.append(model.score(X_test, y_test))
        passes.append(model.n_epochs_)
        converged.append(model.converged_)
    return GeneralisationRuns(np.array(scores), np.array(passes, dtype=int), np.array(converged, dtype=bool))


def generalisation(
    n_train: int = 25, n_test: int = 1000, seeds: Any = range(100), **params: Any
) -> np.ndarray:
    """The test accuracies of ``generalisation_runs``."""
    return generalisation_runs(n_train, n_test, seeds, **params).scores


def generalisation_caption(runs: GeneralisationRuns) -> str:
    """What the spread over seeds says: its median, and that every run converged (or how many did not)."""
    stopped = int((~runs.converged).sum())
    how = (
        f"every run converged (the slowest in {runs.passes.max()} passes)"
        if stopped == 0
        else f"{stopped} of the {len(runs.scores)} runs stopped before converging"
    )
    return (
        f"Over {len(runs.scores)} seeds the median is {np.median(runs.scores):.2%}; {how}. "
        "The post's 92.2% was one run."
    )


# The page's words: the verdict beside the player, and the "Try this" steps.

NOVIKOFF_TERMS = (
    "R = max ‖(x, 1)‖ (the bias is a weight on a constant 1) and γ is the widest line's margin in that space."
)


NO_LINES = "no set of lines gives each class its own region"
# Where the player stops while a question about the whole run is asked.
HELD = "The first pass ends here: the rest of the run is hidden until the answer is revealed."


def novikoff_text(bound) -> str:
    """Novikoff's bound for a ``MistakeBound``, with R and γ printed so that it recomputes
    (None, for three or more classes: nothing)."""
    if bound is None:
        return ""
    if not bound.gamma > 0:
        return "No line separates these points, so Novikoff's bound does not apply."
    R, gamma, most = novikoff_figures(bound.R, bound.gamma)
    return f"Novikoff's bound: at most (R/γ)² = ({R} / {gamma})² ≈ {most} updates."


def verdict(model, bound) -> tuple[str, str, str]:
    """(kind, title, text) for a fitted Perceptron and its ``MistakeBound`` (None for three or more
    classes): kind "good", "bad" or "stop"."""
    updates, passes = plural(model.n_updates_, "update"), plural(model.n_epochs_, "pass", "passes")
    if model.converged_:
        return (
            "good",
            f"Converged after {updates} in {passes}:",
            f"a whole pass without a mistake. {novikoff_text(bound)}".rstrip(),
        )
    if model.cycle_ is not None:
        m, n = model.cycle_
        return (
            "bad",
            f"The weights at update {n} equal those at update {m}, at the same point of a pass:",
            f"this will never converge; {'no line separates these points' if bound is not None else NO_LINES}. "
            "From here the perceptron repeats the same updates for ever.",
        )
    if bound is None:
        reason = f"allow more passes, or {NO_LINES}"
    else:
        reason = "no line separates these points" if bound.gamma <= 0 else "a line exists: allow more passes"
    return "stop", f"Not converged after {passes} ({updates}):", f"{reason}."


# What a perceptron can do on a fit, as the "three classes" step words it.
THREE_OUTCOMES = {
    "It converges: each class gets its own region": lambda model: model.converged_,
    "Its weights come back to earlier ones, and it cycles for ever": lambda model: model.cycle_ is not None,
    "It runs out of passes, still making mistakes": lambda model: True,
}


NEVER_LOOPS = "No, it converges"
MORE_THAN_TENFOLD, LESS_THAN_TENFOLD = "More than tenfold", "Less than tenfold"


def loop_choices(turn: int) -> list[str]:
    """The choices for the length of one turn of a loop: half of it, it, and two turns."""
    return [f"A loop of {n} updates" for n in (max(1, turn // 2), turn, 2 * turn)]


def try_this_steps() -> list[dict]:
    """The lesson's "Try this" steps, each answer and why computed by the library.

    Each is a dict with the fields of ``classic.lessons.Step``: title, setup (widget keys →
    values), question, options, answer (one of the options), why, and what the page hides while
    the step is asked: ``hides`` names the page's parts ("run": the player past its first pass,
    its total, the verdict, the mistakes per pass and the CSV; "pocket" and "best_line": the
    pocket's line, score and the best line's score; "kernel": the kernel's boundary and score;
    "size_updates": the updates column of the table of sizes), ``tells`` the texts they show.
    """
    separable = datasets.linearly_separable(25, 0)
    corners = datasets.xor(4)
    line = Perceptron().fit(*separable)
    bound = mistake_bound(*separable)
    xor = Perceptron().fit(*corners)
    pocket = Perceptron(pocket=True, shuffle=True, random_state=0).fit(*corners)
    best = best_line_accuracy(*corners)
    rbf = DualPerceptron(kernel="rbf", gamma=2.0, max_epochs=200).fit(*corners)
    limit, rows = updates_against_size()
    row = Perceptron().fit(*datasets.three_in_a_row())
    first, last = rows[0], rows[-1]
    # Each view opens on the player's first frame: its end (and the verdict beside it) would answer.
    base = {"pc_seed": 0, "pc_epochs": 100, "pc_shuffle": False, "pc_tab": "Every update", "pc_frame": 0}
    pocket_right = round(pocket.score(*corners) * 4)
    grows = last[1] > 10 * first[1]
    # XOR's loop: one turn runs from weights to their return at the same point of a pass. The
    # question asks for its length, and no choice is the update at which the return is seen.
    turn = xor.cycle_[1] - xor.cycle_[0] if xor.cycle_ else None
    return [
        {
            "title": "A line exists",
            "setup": {**base, "pc_data": "Linearly separable (25 points, true line y = 1 − x)"},
            "question": "Will the perceptron converge on these points?",
            "options": ["Yes", "No, it will cycle"],
            "answer": "Yes" if line.converged_ else "No, it will cycle",
            "why": f"It stops after {plural(line.n_updates_, 'update')} in "
            f"{plural(line.n_epochs_, 'pass', 'passes')}; Novikoff's bound allowed up to {bound.bound:,.0f}.",
            "hides": ("run",),
            "tells": (verdict(line, bound)[1],),
        },
        {
            "title": "XOR repeats",
            "setup": {**base, "pc_data": "XOR (the four corners)"},
            "question": "Do the updates on XOR end up in a loop that repeats for ever? If so, how many updates "
            "make one turn of it?",
            "options": [NEVER_LOOPS, *loop_choices(turn or len(corners[0]))],
            "answer": f"A loop of {turn} updates" if turn else NEVER_LOOPS,
            "why": f"Updates {xor.cycle_[0] + 1}–{xor.cycle_[1]} make one turn: the weights after update "
            f"{xor.cycle_[1]} equal those after update {xor.cycle_[0]}, at the same point of a pass, so from "
            f"there the same {turn} updates repeat for ever."
            if xor.cycle_
            else "No cycle was found.",
            "hides": ("run",),
            "tells": (verdict(xor, mistake_bound(*corners))[1],),
        },
        {
            "title": "The pocket on XOR",
            "setup": {
                **base,
                "pc_data": "XOR (the four corners)",
                "pc_shuffle": True,
                "pc_tab": "When no line will do",
            },
            "question": "How many of XOR's four corners does the pocket's best line get right?",
            "options": ["2 of 4", "3 of 4", "4 of 4"],
            "answer": f"{pocket_right} of 4",
            "why": f"No line does better: trying every way a line can split the corners, the best gets "
            f"{best:.0%}. A line with (0, 0) and (1, 1) on one side has their midpoint (½, ½) there too, "
            "and (½, ½) is also the midpoint of (1, 0) and (0, 1), which would need the other side.",
            "hides": ("pocket", "best_line"),
            "tells": (pocket_title(pocket.score(*corners), 2),),
        },
        {
            "title": "A curved boundary",
            "setup": {
                **base,
                "pc_data": "XOR (the four corners)",
                "pc_kernel": "rbf",
                "pc_tab": "When no line will do",
            },
            "question": "Will the perceptron with an RBF kernel separate XOR?",
            "options": ["Yes", "No"],
            "answer": "Yes" if rbf.converged_ and rbf.score(*corners) == 1 else "No",
            "why": f"It converges after {int(rbf.alpha_.sum())} updates with every corner right: the "
            "boundary is curved, not a line.",
            "hides": ("kernel",),
            "tells": (kernel_title(rbf.kernel, rbf.score(*corners), rbf.converged_),),
        },
        {
            "title": "Three classes, no lines",
            "setup": {**base, "pc_data": "Three classes in a row (the first at both ends)"},
            "question": "Class 0 sits at both ends of the row, classes 1 and 2 between. With a vector per class, "
            "what will the perceptron do?",
            "options": list(THREE_OUTCOMES),
            "answer": next(o for o, happened in THREE_OUTCOMES.items() if happened(row)),
            "why": (
                f"The weights of all three classes after update {row.cycle_[1]} equal those after update "
                f"{row.cycle_[0]}, at the same point of a pass: from there it repeats for ever. "
                if row.cycle_
                else f"After {plural(row.n_updates_, 'update')} it still makes mistakes. "
            )
            + "Each class's region (where its score beats the others) is an intersection of half-planes, "
            "so it is convex; a convex region holding both ends of the row holds the middle too.",
            "hides": ("run",),
            "tells": (verdict(row, None)[1],),
        },
        {
            "title": "More points",
            "setup": {**base, "pc_tab": "More points, more mistakes?"},
            "question": f"With {last[0]} points instead of {first[0]} (same square, same margin), do the "
            "updates grow more or less than tenfold?",
            "options": [MORE_THAN_TENFOLD, LESS_THAN_TENFOLD],
            "answer": MORE_THAN_TENFOLD if grows else LESS_THAN_TENFOLD,
            "why": f"They grow, but far less than the points: the median is {size_medians(rows)}, all under "
            f"Novikoff's bound of {limit:,.0f}, which depends on R and γ only.",
            "hides": ("size_updates",),
            "tells": (size_medians(rows),),
        },
    ]


# ---------------------------------------------------------------------------------------------
# Peer instruction: a question of the same kind (``SAME_KIND``), one maker per "Try this" step in
# its order, and "Ask about this view" (``VIEW_QUESTIONS``). Every answer is the library's.
# ---------------------------------------------------------------------------------------------

VIEW = """The view the page builds for "Ask about this view" (``random_view`` makes one at random):

- ``X``: the points (n, 2), as drawn; ``y``: their classes 0 … k − 1;
- ``data``: the data menu's name; ``seed``, ``max_epochs``, ``shuffle``: the sidebar's values;
- ``tab``: the tab open (one of ``TABS``); ``frame``: the player's frame (updates shown, 0 … all);
- ``model``: the page's fitted ``Perceptron`` on X, y with those values;
- ``verdict``: ``verdict(model, bound)`` as the page shows it beside the player.
"""

TABS = ("Every update", "When no line will do", "Does it generalise?", "More points, more mistakes?")
SEPARABLE, CORNERS, NOISY_XOR, CLUSTERS, THREE, ROW = (
    "Linearly separable (25 points, true line y = 1 − x)",
    "XOR (the four corners)",
    "XOR (noisy clusters)",
    "Gaussian clusters",
    "Three clusters (3 classes)",
    "Three classes in a row (the first at both ends)",
)
SEEDLESS = (CORNERS, ROW)  # their points are the same for every seed
_BASE = {"pc_seed": 0, "pc_epochs": 100, "pc_shuffle": False, "pc_tab": TABS[0], "pc_frame": 0}
_TRIES = 200  # seeds tried for an instance with a wanted answer, before taking what came


def _points(data: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    return points.load("perceptron", data, seed)


def _named(data: str, seed: int) -> str:
    """The data as a question names it: its menu name, and its seed where the seed matters."""
    return f"“{data}”" if data in SEEDLESS else f"“{data}” with seed {seed}"


def _two_classes(y: np.ndarray) -> bool:
    return len(np.unique(y)) >= 2


def _fit(
    data: str, seed: int, epochs: int = 100, shuffle: bool = False
) -> tuple[np.ndarray, np.ndarray, Any]:
    X, y = _points(data, seed)
    return X, y, Perceptron(max_epochs=epochs, shuffle=shuffle, random_state=seed).fit(X, y)


def _verdict_of(X: np.ndarray, y: np.ndarray, model) -> tuple[str, str, str]:
    return verdict(model, mistake_bound(X, y) if len(np.unique(y)) == 2 else None)


def _outcome(model) -> str:
    return "converges" if model.converged_ else "cycles" if model.cycle_ is not None else "runs out"


def _seed(rng: np.random.Generator) -> int:
    return int(rng.integers(0, 10_000))


def _placed(
    answer: int, step: int, low: int, high: int, rng: np.random.Generator, count: int = 3
) -> list[int]:
    """``count`` distinct whole numbers ``step`` apart within low … high, ``answer`` among them at
    a random place (so its place in the list says nothing)."""
    starts = [answer - step * k for k in range(count)]
    fits = [s for s in starts if s >= low and s + step * (count - 1) <= high] or [
        max(low, answer - step * (count - 1))
    ]
    start = fits[int(rng.integers(len(fits)))]
    return [start + step * k for k in range(count)]


def same_converges(rng: np.random.Generator) -> dict:
    """Step 1 anew: another data set, seed and number of passes; will it converge?"""
    while True:
        data = [SEPARABLE, SEPARABLE, CLUSTERS, NOISY_XOR, CORNERS][int(rng.integers(5))]
        seed, epochs = _seed(rng), [100, 100, 20, 5, 3][int(rng.integers(5))]
        X, y, model = _fit(data, seed, epochs)
        if _two_classes(y):
            break
    out = f"No: after {epochs} passes it still makes mistakes"
    answer = {"converges": "Yes", "cycles": "No, it will cycle", "runs out": out}[_outcome(model)]
    updates, passes = plural(model.n_updates_, "update"), plural(model.n_epochs_, "pass", "passes")
    why = {
        "Yes": f"It stops after {updates} in {passes}: a whole pass without a mistake.",
        "No, it will cycle": f"The weights after update {model.cycle_[1] if model.cycle_ else 0} equal earlier "
        "ones at the same point of a pass: no line separates these points, and it repeats for ever.",
        out: f"After {updates} in {passes} it still makes mistakes"
        + (": a line exists, so more passes would get there." if mistake_bound(X, y).gamma > 0 else "."),
    }[answer]
    return {
        "title": "A line exists?",
        "setup": {**_BASE, "pc_data": data, "pc_seed": seed, "pc_epochs": epochs},
        "question": f"On {_named(data, seed)}, with at most {epochs} passes: will the perceptron converge?",
        "options": ["Yes", "No, it will cycle", out],
        "answer": answer,
        "why": why,
        "hides": ("run",),
        "tells": (_verdict_of(X, y, model)[1],),
    }


def _turn_choices(turn: int, rng: np.random.Generator) -> list[str]:
    """Three loop lengths with ``turn`` at a random place among them."""
    lengths = [[turn, 2 * turn, 4 * turn], [max(1, turn // 2), turn, 2 * turn]]
    if turn >= 4:
        lengths.append([turn // 4, turn // 2, turn])
    chosen = [n for n in lengths if len(set(n)) == 3]
    return [f"A loop of {n} updates" for n in chosen[int(rng.integers(len(chosen)))]]


def same_loop(rng: np.random.Generator) -> dict:
    """Step 2 anew: a set that loops (XOR's corners, three classes in a row) or one that converges
    (a seed of a separable set); is there a loop, and how long is one turn?"""
    kind = int(rng.integers(3))
    for _ in range(_TRIES):
        data = [CORNERS, ROW, [SEPARABLE, CLUSTERS][int(rng.integers(2))]][kind]
        seed = _seed(rng)
        X, y, model = _fit(data, seed)
        if _two_classes(y) and _outcome(model) != "runs out":
            break
    else:  # no seed converged: XOR's corners, which loop whatever the seed
        data, seed = CORNERS, 0
        X, y, model = _fit(data, seed)
    turn = model.cycle_[1] - model.cycle_[0] if model.cycle_ else None
    choices = _turn_choices(turn or [4, 6, 8][int(rng.integers(3))], rng)
    return {
        "title": "Does it repeat?",
        "setup": {**_BASE, "pc_data": data, "pc_seed": seed},
        "question": f"Do the updates on {_named(data, seed)} end up in a loop that repeats for ever? If so, "
        "how many updates make one turn of it?",
        "options": [NEVER_LOOPS, *choices],
        "answer": f"A loop of {turn} updates" if turn else NEVER_LOOPS,
        "why": f"Updates {model.cycle_[0] + 1}–{model.cycle_[1]} make one turn: the weights after update "
        f"{model.cycle_[1]} equal those after update {model.cycle_[0]}, at the same point of a pass."
        if turn
        else f"It converges after {plural(model.n_updates_, 'update')} in "
        f"{plural(model.n_epochs_, 'pass', 'passes')}: a pass without a mistake ends it, with no loop.",
        "hides": ("run",),
        "tells": (_verdict_of(X, y, model)[1],),
    }


def same_pocket(rng: np.random.Generator) -> dict:
    """Step 3 anew: the pocket on another two-class set and shuffling seed; how many points right?"""
    for _ in range(_TRIES):
        data, seed = [CORNERS, NOISY_XOR, CLUSTERS][int(rng.integers(3))], _seed(rng)
        epochs = [10, 25, 50][int(rng.integers(3))]  # fewer passes than the page's default: a quicker answer
        X, y = _points(data, seed)
        if not _two_classes(y):
            continue
        passes = pocket_passes(len(X), epochs)
        pocket = Perceptron(pocket=True, shuffle=True, random_state=seed, max_epochs=passes).fit(X, y)
        if pocket.coef_.any():  # w = 0 is no line: the page says so instead of a score
            break
    else:  # XOR's corners always give a line within a pass
        data, seed, epochs = CORNERS, 0, 10
        X, y = _points(data, seed)
        pocket = Perceptron(pocket=True, shuffle=True, random_state=seed, max_epochs=epochs).fit(X, y)
    n, score = len(X), pocket.score(X, y)
    right = round(score * n)
    counts = _placed(right, 1 if n <= 10 else 2, 0, n, rng)
    return {
        "title": "The pocket, again",
        "setup": {
            **_BASE,
            "pc_data": data,
            "pc_seed": seed,
            "pc_epochs": epochs,
            "pc_shuffle": True,
            "pc_tab": TABS[1],
        },
        "question": f"On {_named(data, seed)}, shuffled each pass, at most {epochs} passes: how many of the {n} points does the "
        "pocket's best line get right?",
        "options": [f"{c} of {n}" for c in counts],
        "answer": f"{right} of {n}",
        "why": f"The fewest-mistakes line it saw gets {right} of {n} right; trying every way a line can split "
        f"these points, the best gets {best_line_accuracy(X, y):.0%}.",
        "hides": ("pocket", "best_line"),
        "tells": (pocket_title(score, 2),),
    }


def _kernel_fit(data: str, seed: int, kernel: str):
    X, y = _points(data, seed)
    return X, y, DualPerceptron(kernel=kernel, gamma=2.0, max_epochs=200).fit(X, y)


def _separates(X: np.ndarray, y: np.ndarray, curved) -> bool:
    return bool(curved.converged_ and curved.score(X, y) == 1)


def same_kernel(rng: np.random.Generator) -> dict:
    """Step 4 anew: a kernel (RBF or polynomial) on another set; does it separate the points? About
    a third of the instances look for a set it does not separate (rarer: a seed of the clusters
    that overlap), so that the answer is not always yes."""
    want_no = rng.random() < 0.35
    for _ in range(_TRIES):
        data = CLUSTERS if want_no else [CORNERS, NOISY_XOR, CLUSTERS, SEPARABLE][int(rng.integers(4))]
        kernel = "polynomial" if want_no else ["rbf", "polynomial"][int(rng.integers(2))]
        seed = _seed(rng)
        X, y, curved = _kernel_fit(data, seed, kernel)
        if _two_classes(y) and (not want_no or not _separates(X, y, curved)):
            break
    yes = _separates(X, y, curved)
    score = curved.score(X, y)
    return {
        "title": "A curved boundary, again",
        "setup": {**_BASE, "pc_data": data, "pc_seed": seed, "pc_kernel": kernel, "pc_tab": TABS[1]},
        "question": f"Will the perceptron with a {'RBF' if kernel == 'rbf' else 'polynomial'} kernel separate "
        f"{_named(data, seed)}?",
        "options": ["Yes", "No"],
        "answer": "Yes" if yes else "No",
        "why": f"It converges after {int(curved.alpha_.sum())} updates with every point right: the boundary is "
        "curved, not a line."
        if yes
        else f"After {plural(curved.n_epochs_, 'pass', 'passes')} it gets {score:.0%} right"
        + (", without a clean pass: " if not curved.converged_ else ": ")
        + "even this curve cannot put every point on its side.",
        "hides": ("kernel",),
        "tells": (kernel_title(kernel, score, curved.converged_),),
    }


def same_three(rng: np.random.Generator) -> dict:
    """Step 5 anew: three classes in a row (it cycles) or three clusters with a seed and a number of
    passes (it converges, or runs out of passes); what will it do?"""
    wanted = ("cycles", "converges", "runs out")[int(rng.integers(3))]
    for _ in range(_TRIES):
        data = ROW if wanted == "cycles" else THREE
        seed, epochs = _seed(rng), 100 if wanted != "runs out" else int(rng.integers(1, 4))
        X, y, model = _fit(data, seed, epochs)
        if _outcome(model) == wanted:
            break
    answer = next(o for o, happened in THREE_OUTCOMES.items() if happened(model))
    return {
        "title": "Three classes, again",
        "setup": {**_BASE, "pc_data": data, "pc_seed": seed, "pc_epochs": epochs},
        "question": f"On {_named(data, seed)}, with a vector per class and at most "
        f"{plural(epochs, 'pass', 'passes')}: what will the perceptron do?",
        "options": list(THREE_OUTCOMES),
        "answer": answer,
        "why": f"The weights after update {model.cycle_[1]} equal those after update {model.cycle_[0]}, at the "
        "same point of a pass: from there it repeats for ever."
        if model.cycle_
        else f"It converges after {plural(model.n_updates_, 'update')}: every class has its own region."
        if model.converged_
        else f"After {plural(model.n_epochs_, 'pass', 'passes')} it still makes mistakes.",
        "hides": ("run",),
        "tells": (verdict(model, None)[1],),
    }


_FOLDS = {2: "twofold", 3: "threefold", 5: "fivefold", 10: "tenfold"}
_size_rows: dict = {}  # the table of sizes, computed once a process (about a second)


def size_rows() -> tuple[float, list[tuple[int, float, int]]]:
    """``updates_against_size()`` with the page's arguments, kept once computed."""
    if "rows" not in _size_rows:
        _size_rows["rows"] = updates_against_size()
    return _size_rows["rows"]


def same_sizes(rng: np.random.Generator) -> dict:
    """Step 6 anew: two of the table's sizes and a factor; do the updates grow more or less?"""
    limit, rows = size_rows()
    pairs = [
        (a, b, f)
        for a in range(len(rows))
        for b in range(a + 1, len(rows))
        for f in _FOLDS
        if rows[b][1] != f * rows[a][1]  # an exact tie would make both answers wrong
    ]
    a, b, fold = pairs[int(rng.integers(len(pairs)))]
    more, less = f"More than {_FOLDS[fold]}", f"Less than {_FOLDS[fold]}"
    return {
        "title": "More points, again",
        "setup": {**_BASE, "pc_tab": TABS[3]},
        "question": f"With {rows[b][0]} points instead of {rows[a][0]} (same square, same margin), do the "
        f"updates grow more or less than {_FOLDS[fold]}?",
        "options": [more, less],
        "answer": more if rows[b][1] > fold * rows[a][1] else less,
        "why": f"The median is {size_medians(rows)}, all under Novikoff's bound of {limit:,.0f}, which depends "
        "on R and γ only.",
        "hides": ("size_updates",),
        "tells": (size_medians(rows),),
    }


SAME_KIND = (same_converges, same_loop, same_pocket, same_kernel, same_three, same_sizes)


def _converges_view(view, rng: np.random.Generator) -> dict | None:
    """Will the run on screen converge within the page's passes?"""
    model, epochs = view["model"], int(view["max_epochs"])
    out = f"No: after {plural(epochs, 'pass', 'passes')} it still makes mistakes"
    # Shuffled, no cycle is ever proved: only two outcomes can happen.
    options = ["Yes", out] if view["shuffle"] else ["Yes", "No, it will cycle", out]
    answer = {"converges": "Yes", "cycles": "No, it will cycle", "runs out": out}[_outcome(model)]
    return {
        "title": "Will it converge?",
        "setup": {},
        "question": f"On the {len(view['X'])} points on screen, "
        f"{'shuffled each pass, ' if view['shuffle'] else ''}with at most {plural(epochs, 'pass', 'passes')}: "
        "will the perceptron converge?",
        "options": options,
        "answer": answer,
        "why": f"{view['verdict'][1]} {view['verdict'][2]}",
        "hides": ("run",),
        "tells": (view["verdict"][1],),
    }


BUCKETS = ((1, 9), (10, 29), (30, 99), (100, None))


def _bucket(n: int) -> str:
    return next(
        f"{low}–{high} updates" if high else f"{low} updates or more"
        for low, high in BUCKETS
        if n >= low and (high is None or n <= high)
    )


def _updates_view(view, rng: np.random.Generator) -> dict | None:
    """How many updates until it converges, in buckets (or it does not)."""
    model, epochs = view["model"], int(view["max_epochs"])
    never = f"It does not converge within {plural(epochs, 'pass', 'passes')}"
    options = [_bucket(low) for low, _ in BUCKETS] + [never]
    return {
        "title": "How many updates?",
        "setup": {},
        "question": f"On the {len(view['X'])} points on screen, how many updates will the perceptron make "
        "before a whole pass without a mistake?",
        "options": options,
        "answer": _bucket(model.n_updates_) if model.converged_ else never,
        "why": f"{view['verdict'][1]} {view['verdict'][2]}",
        "hides": ("run",),
        "tells": (view["verdict"][1],),
    }


def _next_update(view) -> tuple[int, int] | None:
    """(frame, the point the update after it is for), where the player shows it and the order is
    the points' own (shuffled, the next point visited cannot be read off the screen)."""
    model, frame = view["model"], int(view["frame"])
    if view["shuffle"] or view["tab"] != TABS[0]:
        return None
    if frame < model.n_updates_:
        return frame, int(model.update_points_[frame])
    if model.cycle_ is not None:  # after the update that closes the loop, the loop's first again
        return frame, int(model.update_points_[model.cycle_[0]])
    return None


def _wrong_at(view, frame: int) -> np.ndarray:
    """Which points are mistakes with the weights after ``frame`` updates (w = 0 at frame 0)."""
    model, X = view["model"], np.asarray(view["X"], dtype=float)
    y = np.asarray(view["y"])
    history = model.weights_history_
    W = np.zeros(history.shape[1:]) if frame == 0 else history[frame - 1]
    if W.ndim == 1:
        signs = np.where(y == 1, 1.0, -1.0)
        return signs * (X @ W[:-1] + W[-1]) <= 0
    scores = X @ W[:, :-1].T + W[:, -1]
    own = scores[np.arange(len(y)), y]
    scores[np.arange(len(y)), y] = -np.inf
    return own <= scores.max(axis=1)


def _point_name(view, i: int) -> str:
    x = np.asarray(view["X"], dtype=float)[i]
    return f"Point {i} at ({x[0]:.2f}, {x[1]:.2f}), class {int(view['y'][i])}"


def _next_point_view(view, rng: np.random.Generator) -> dict | None:
    """Which point will the next update move the line for, at the frame the player shows?"""
    found = _next_update(view)
    if found is None:
        return None
    frame, point = found
    wrong = np.flatnonzero(_wrong_at(view, frame))
    others = [int(i) for i in rng.permutation(wrong) if i != point]
    rest = [int(i) for i in rng.permutation(len(view["X"])) if i != point and i not in others]
    chosen = [point, *(others + rest)[:3]]
    options = [_point_name(view, i) for i in rng.permutation(chosen)]
    model = view["model"]
    last = int(model.update_points_[frame - 1]) if frame else None
    rule = "y·(w·x + b) ≤ 0" if model.weights_history_.ndim == 2 else "its own class does not score highest"
    return {
        "title": "Which point is next?",
        "setup": {},
        "question": f"The player shows the line after update {frame}. The points are visited in order 0, 1, 2, …, "
        "pass after pass: which point will the next update be for?",
        "options": options,
        "answer": _point_name(view, point),
        "why": (
            "At the start every weight is 0, so every point is a mistake: the first visited, point 0, is updated."
            if last is None
            else f"Update {frame} was for point {last}; going on in order from there (back to point 0 after the "
            f"last), the first point where {rule} is point {point}."
        ),
        "hides": (),
        "tells": (),
    }


def _sign_view(view, rng: np.random.Generator) -> dict | None:
    """Does the next update raise, lower or keep one weight (w₁, w₂ or b)? Two classes only."""
    found = _next_update(view)
    if found is None or view["model"].weights_history_.ndim != 2:
        return None
    frame, point = found
    part = int(rng.integers(3))
    name = ("w₁", "w₂", "b")[part]
    sign = 1.0 if int(view["y"][point]) == 1 else -1.0
    change = sign * (np.asarray(view["X"], dtype=float)[point, part] if part < 2 else 1.0)
    options = ["It goes up", "It goes down", "It stays the same"]
    answer = options[0] if change > 0 else options[1] if change < 0 else options[2]
    return {
        "title": f"Which way does {name} move?",
        "setup": {},
        "question": f"The player shows the line after update {frame}. At the next update, what happens to {name}?",
        "options": options,
        "answer": answer,
        "why": f"The next update is for {_point_name(view, point)} (y = {'+1' if sign > 0 else '−1'}): "
        f"w ← w + η·y·x and b ← b + η·y, so {name} changes by {change:+.2f}.",
        "hides": (),
        "tells": (),
    }


VIEW_QUESTIONS = (
    ViewQuestion("converges", "Will it converge?", _converges_view),
    ViewQuestion("updates", "How many updates until it converges", _updates_view),
    ViewQuestion("next_point", "Which point the next update is for", _next_point_view),
    ViewQuestion("weight_sign", "Which way a weight moves at the next update", _sign_view),
)


def random_view(rng: np.random.Generator) -> dict:
    """A view as the page builds it (``VIEW``), over its data menu (but your own points), seeds,
    passes, shuffling, tabs and frames."""
    menu = [SEPARABLE, CORNERS, NOISY_XOR, CLUSTERS, THREE, ROW]
    while True:
        data, seed = menu[int(rng.integers(len(menu)))], _seed(rng)
        X, y = _points(data, seed)
        if _two_classes(y):
            break
    epochs = int(rng.choice([1, 2, 5, 20, 100, 200]))
    shuffle = bool(rng.random() < 0.25)
    model = Perceptron(max_epochs=epochs, shuffle=shuffle, random_state=seed).fit(X, y)
    tab = TABS[0] if rng.random() < 0.75 else TABS[int(rng.integers(1, len(TABS)))]
    return {
        "X": X,
        "y": y,
        "data": data,
        "seed": seed,
        "max_epochs": epochs,
        "shuffle": shuffle,
        "tab": tab,
        "frame": int(rng.integers(0, model.n_updates_ + 1)),
        "model": model,
        "verdict": _verdict_of(X, y, model),
    }
