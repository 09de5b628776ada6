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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from classic import datasets
from classic._validation import RandomState, check_random_state
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
