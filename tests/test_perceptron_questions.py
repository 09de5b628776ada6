"""The perceptron lesson's question makers (issue #33): a question of the same kind for each "Try
this" step, and "Ask about this view". 200 instances of each are valid questions whose answer
matches a computation written here, by brute force, apart from the lesson's code: the textbook
loops point by point, the pocket, the kernel perceptron and the table of sizes. A few made
set-ups run on the page (AppTest) without showing what gives their answer away."""

from __future__ import annotations

import re
from functools import cache

import numpy as np
import pytest
from conftest import assert_no_exception, open_page, page_text

from classic.lessons import check_step, lesson_of, points
from classic.lessons import perceptron as lessons

PAGE = "perceptron"
SEEDS = range(200)
MODULE = lesson_of(PAGE).questions()
SAME_KIND = MODULE.SAME_KIND
VIEW_QUESTIONS = MODULE.VIEW_QUESTIONS
STEPS = lessons.try_this_steps()
SEED_IN_QUESTION = re.compile(r"with seed (\d+)")


# --- brute force, written here -------------------------------------------------------------


def run(X, y, epochs, shuffle=False, seed=None, extra=0):
    """The perceptron point by point for ``epochs`` passes (then ``extra`` more, for what comes
    next): (outcome, updates made in the page's passes, each update's point in order). The
    outcome is "converges" (a pass without a mistake), "cycles" (a state (point, weights) after
    an update comes back) or "runs out"."""
    X = np.asarray(X, dtype=float)
    classes = np.unique(y)
    codes = np.searchsorted(classes, y)
    rows = np.hstack([X, np.ones((len(X), 1))])
    two = len(classes) == 2
    W = np.zeros(rows.shape[1]) if two else np.zeros((len(classes), rows.shape[1]))
    rng = np.random.default_rng(seed)
    seen, outcome, counted, order_of_updates = {}, None, None, []
    for epoch in range(epochs + extra):
        if epoch == epochs:
            counted = len(order_of_updates)
        order = rng.permutation(len(X)) if shuffle else range(len(X))
        mistakes = 0
        for i in order:
            if two:
                step = (1.0 if codes[i] == 1 else -1.0) * rows[i]
                wrong = step @ W <= 0
            else:
                scores = rows[i] @ W.T
                rival_scores = np.where(np.arange(len(classes)) == codes[i], -np.inf, scores)
                rival = int(np.argmax(rival_scores))
                wrong = scores[codes[i]] <= rival_scores[rival]
            if not wrong:
                continue
            mistakes += 1
            if two:
                W = W + step
            else:
                W = W.copy()
                W[codes[i]] += rows[i]
                W[rival] -= rows[i]
            order_of_updates.append(int(i))
            state = (int(i), W.tobytes())
            if outcome is None and not shuffle and state in seen:
                outcome, run.turn = "cycles", len(order_of_updates) - seen[state]
            seen.setdefault(state, len(order_of_updates))
        if mistakes == 0:
            outcome = outcome or ("converges" if epoch < epochs else None)
            break
    if counted is None:
        counted = len(order_of_updates)
    return outcome or "runs out", counted, order_of_updates


def outcome_of(data, seed, epochs, shuffle=False):
    X, y = points.load(PAGE, data, seed)
    return run(X, y, epochs, shuffle, seed)


def best_cut_right(p, signs):
    """The most points a threshold along projections p gets strictly right, the first such cut
    from below (the cuts lie between distinct values, or beyond either end)."""
    order = np.argsort(p, kind="stable")
    ranked, positive = p[order], signs[order] > 0
    # A cut after the k lowest: those called −1, the rest +1; only where the values differ.
    right = np.concatenate([[0], np.cumsum(~positive)]) + np.concatenate(
        [np.cumsum(positive[::-1])[::-1], [0]]
    )
    valid = np.concatenate([[True], ranked[1:] > ranked[:-1], [True]])
    k = int(np.argmax(np.where(valid, right, -1)))
    padded = np.concatenate([[ranked[0] - 1], ranked, [ranked[-1] + 1]])
    return int(right[k]), (padded[k] + padded[k + 1]) / 2


def pocket_right(X, y, seed, epochs):
    """The points the pocket's weights get right on the page (shuffled, its passes' budget): the
    fewest-mistakes weights visited, or that line slid along w to its best place."""
    X = np.asarray(X, dtype=float)
    signs = np.where(y == 1, 1.0, -1.0)
    passes = int(min(epochs, max(1, 2_000_000 // len(X) ** 2)))
    rng = np.random.default_rng(seed)
    w, b = np.zeros(2), 0.0
    best = (len(X) + 1, np.zeros(2), 0.0)
    for _ in range(passes):
        order, start, mistakes = rng.permutation(len(X)), 0, 0
        while True:  # the next point of the pass on the wrong side, found by one scan of the rest
            rest = order[start:]
            wrong = np.flatnonzero(signs[rest] * (X[rest] @ w + b) <= 0)
            if not len(wrong):
                break
            i = rest[wrong[0]]
            start += int(wrong[0]) + 1
            mistakes += 1
            w, b = w + signs[i] * X[i], b + signs[i]
            count = int(np.sum(signs * (X @ w + b) <= 0))
            if count < best[0]:
                best = (count, w.copy(), b)
            if w.any() and count > 0:
                right, cut = best_cut_right(X @ w, signs)
                if len(X) - right < best[0]:
                    best = (len(X) - right, w.copy(), -cut)
        if mistakes == 0:
            break
    _, w, b = best
    return int(np.sum((X @ w + b > 0) == (y == 1)))


def kernel_separates(X, y, kernel):
    """The dual perceptron with the page's kernel (γ = 2, degree 2), at most 200 passes: whether it
    ends on a pass without a mistake and every point right."""
    X = np.asarray(X, dtype=float)
    if kernel == "rbf":
        gram = np.exp(-2.0 * ((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2))
    else:
        gram = (X @ X.T + 1.0) ** 2
    signs = np.where(y == 1, 1.0, -1.0)
    alpha, b = np.zeros(len(X)), 0.0
    f = np.zeros(len(X))
    clean = False
    for _ in range(200):
        mistakes = 0
        for i in range(len(X)):
            if signs[i] * (f[i] + b) <= 0:
                alpha[i] += 1
                f += signs[i] * gram[i]
                b += signs[i]
                mistakes += 1
        if mistakes == 0:
            clean = True
            break
    decision = (alpha * signs) @ gram + b
    return clean and bool(np.all((decision > 0) == (y == 1)))


@cache
def size_medians():
    """The median updates to convergence on the table's sets of 25, 250 and 2500 points (gap 0.05,
    seeds 0-19), counted by a loop of this file (vectorised within a pass)."""
    medians = []
    for n in (25, 250, 2500):
        counts = []
        for seed in range(20):
            X, y = lessons.separated_band(n, 0.05, seed)
            rows = np.hstack([X, np.ones((n, 1))]) * np.where(y == 1, 1.0, -1.0)[:, None]
            v, updates = np.zeros(3), 0
            while True:
                start, before = 0, updates
                while start < n:
                    wrong = np.flatnonzero(rows[start:] @ v <= 0)
                    if not len(wrong):
                        break
                    i = start + int(wrong[0])
                    v, updates, start = v + rows[i], updates + 1, i + 1
                if updates == before:
                    break
            counts.append(updates)
        medians.append(float(np.median(counts)))
    return dict(zip((25, 250, 2500), medians, strict=True))


# --- the makers ------------------------------------------------------------------------------


def made(maker, seed):
    fields = maker(np.random.default_rng(seed))
    step = check_step(fields)
    options = [str(o) for o in step.options]
    assert len(set(options)) == len(options) and options.count(str(step.answer)) == 1
    return fields


def seed_of(question: str) -> int:
    found = SEED_IN_QUESTION.search(question)
    return int(found.group(1)) if found else 0


def test_the_registry_holds_a_maker_per_step_and_three_view_kinds():
    assert len(SAME_KIND) == len(STEPS)
    assert len(VIEW_QUESTIONS) >= 3
    assert len({kind.name for kind in VIEW_QUESTIONS}) == len(VIEW_QUESTIONS)
    assert list(lessons.TABS) == ["Every update", "When no line will do", "Does it generalise?",
                                  "More points, more mistakes?"]  # fmt: skip


@pytest.mark.parametrize("index", range(len(STEPS)))
def test_a_made_step_keeps_its_kind_and_the_setup_the_page_accepts(index):
    original = STEPS[index]
    menu = points.menu(PAGE)
    for seed in range(20):
        fields = made(SAME_KIND[index], seed)
        assert set(fields["setup"]) == set(original["setup"])
        assert tuple(fields["hides"]) == tuple(original["hides"]) and fields["tells"]
        setup = fields["setup"]
        assert setup.get("pc_data", menu[0]) in menu
        assert setup["pc_tab"] in lessons.TABS and 1 <= setup["pc_epochs"] <= 200
        assert 0 <= setup["pc_seed"] < 2**31 and isinstance(setup["pc_shuffle"], bool)
        assert setup.get("pc_kernel", "rbf") in ("rbf", "polynomial")


@cache
def answers_of(index):
    return [made(SAME_KIND[index], seed) for seed in SEEDS]


def assert_not_always_the_original(index, made_steps):
    answers = [fields["answer"] for fields in made_steps]
    assert sum(answer != STEPS[index]["answer"] for answer in answers) >= 20, set(answers)


def test_converges_again_matches_the_loop():
    made_steps = answers_of(0)
    for fields in made_steps:
        setup = fields["setup"]
        outcome, _, _ = outcome_of(setup["pc_data"], setup["pc_seed"], setup["pc_epochs"])
        expected = {"converges": "Yes", "cycles": "No, it will cycle"}.get(outcome, fields["options"][2])
        assert fields["answer"] == expected, fields["question"]
    assert_not_always_the_original(0, made_steps)


def test_the_loop_again_matches_the_loop():
    made_steps = answers_of(1)
    for fields in made_steps:
        setup = fields["setup"]
        X, y = points.load(PAGE, setup["pc_data"], setup["pc_seed"])
        outcome, _, order = run(X, y, setup["pc_epochs"])
        assert outcome in ("converges", "cycles")
        if outcome == "converges":
            assert fields["answer"] == lessons.NEVER_LOOPS
            continue
        # One turn: from a state (point, weights) to its first return.
        assert fields["answer"] == f"A loop of {run.turn} updates"
    assert_not_always_the_original(1, made_steps)


def check_pockets(made_steps):
    for fields in made_steps:
        setup = fields["setup"]
        X, y = points.load(PAGE, setup["pc_data"], setup["pc_seed"])
        assert setup["pc_shuffle"] is True
        assert fields["answer"] == f"{pocket_right(X, y, setup['pc_seed'], setup['pc_epochs'])} of {len(X)}"


def test_the_pocket_again_matches_a_pocket_written_here():
    made_steps = answers_of(2)
    check_pockets(made_steps)
    assert_not_always_the_original(2, made_steps)


def test_the_kernel_again_matches_a_dual_perceptron_written_here():
    made_steps = answers_of(3)
    for fields in made_steps:
        setup = fields["setup"]
        X, y = points.load(PAGE, setup["pc_data"], setup["pc_seed"])
        expected = "Yes" if kernel_separates(X, y, setup["pc_kernel"]) else "No"
        assert fields["answer"] == expected, fields["question"]
    assert_not_always_the_original(3, made_steps)


def test_three_classes_again_matches_the_loop():
    made_steps = answers_of(4)
    words = list(lessons.THREE_OUTCOMES)
    for fields in made_steps:
        setup = fields["setup"]
        outcome, _, _ = outcome_of(setup["pc_data"], setup["pc_seed"], setup["pc_epochs"])
        expected = {"converges": words[0], "cycles": words[1], "runs out": words[2]}[outcome]
        assert fields["answer"] == expected, fields["question"]
    assert_not_always_the_original(4, made_steps)


def test_more_points_again_matches_the_medians_counted_here():
    medians = size_medians()
    made_steps = answers_of(5)
    for fields in made_steps:
        b, a = (int(n) for n in re.search(r"With (\d+) points instead of (\d+)", fields["question"]).groups())
        fold = {"twofold": 2, "threefold": 3, "fivefold": 5, "tenfold": 10}[
            fields["question"].split()[-1][:-1]
        ]
        expected = "More" if medians[b] > fold * medians[a] else "Less"
        assert fields["answer"].startswith(expected), fields["question"]
    assert_not_always_the_original(5, made_steps)


# --- "Ask about this view" -------------------------------------------------------------------


def views():
    return [(lessons.random_view(np.random.default_rng(seed)), seed) for seed in SEEDS]


@pytest.fixture(scope="module")
def random_views():
    return views()


def asked(kind, view, seed):
    fields = kind.make(view, np.random.default_rng(seed))
    if fields is not None:
        check_step(fields)
        options = [str(o) for o in fields["options"]]
        assert len(set(options)) == len(options) and options.count(str(fields["answer"])) == 1
        assert fields["setup"] == {}
    return fields


def kind(name):
    return next(k for k in VIEW_QUESTIONS if k.name == name)


def page_run(view, extra=0):
    return run(view["X"], view["y"], view["max_epochs"], view["shuffle"], view["seed"], extra)


def test_a_view_is_what_the_page_builds(random_views):
    for view, _ in random_views:
        assert set(view) == {
            "X",
            "y",
            "data",
            "seed",
            "max_epochs",
            "shuffle",
            "tab",
            "frame",
            "model",
            "verdict",
        }
        assert view["data"] in points.menu(PAGE) and view["tab"] in lessons.TABS
        assert 0 <= view["frame"] <= view["model"].n_updates_


def test_converges_on_the_view_matches_the_loop(random_views):
    answers = set()
    for view, seed in random_views:
        fields = asked(kind("converges"), view, seed)
        outcome, _, _ = page_run(view)
        expected = {"converges": "Yes", "cycles": "No, it will cycle"}.get(outcome, fields["options"][-1])
        assert fields["answer"] == expected
        assert fields["hides"] == ("run",) and fields["tells"] == (view["verdict"][1],)
        answers.add(fields["answer"][:2])
    assert answers == {"Ye", "No"}


def test_the_updates_on_the_view_match_the_loop(random_views):
    answers = set()
    for view, seed in random_views:
        fields = asked(kind("updates"), view, seed)
        outcome, count, _ = page_run(view)
        if outcome != "converges":
            assert fields["answer"].startswith("It does not converge")
        else:
            low = 1 if count < 10 else 10 if count < 30 else 30 if count < 100 else 100
            assert fields["answer"].startswith(f"{low}"), (count, fields["answer"])
        answers.add(fields["answer"])
    assert len(answers) >= 4


def next_point(view):
    """The point of the update after the player's frame, from the loop run a few passes longer."""
    _, counted, order = page_run(view, extra=3)
    frame = view["frame"]
    if view["shuffle"] or view["tab"] != lessons.TABS[0] or frame >= len(order):
        return None
    if frame == counted and page_run(view)[0] != "cycles":
        return None  # it stopped (converged, or out of passes): no next update on screen
    return order[frame]


def test_the_next_point_on_the_view_matches_the_loop(random_views):
    made_count, answers = 0, set()
    for view, seed in random_views:
        fields = asked(kind("next_point"), view, seed)
        point = next_point(view)
        if fields is None:
            assert point is None or view["shuffle"] or view["tab"] != lessons.TABS[0]
            continue
        made_count += 1
        assert point is not None
        assert fields["answer"].startswith(f"Point {point} at ")
        answers.add(fields["answer"])
    assert made_count >= 60 and len(answers) >= 10


def test_the_sign_of_the_next_change_matches_the_loop(random_views):
    made_count, answers = 0, set()
    for view, seed in random_views:
        fields = asked(kind("weight_sign"), view, seed)
        if fields is None:
            continue
        made_count += 1
        point = next_point(view)
        assert point is not None and len(np.unique(view["y"])) == 2
        name = re.search(r"happens to (w₁|w₂|b)\?", fields["question"]).group(1)
        value = {"w₁": view["X"][point, 0], "w₂": view["X"][point, 1], "b": 1.0}[name]
        change = value if view["y"][point] == 1 else -value
        expected = "It goes up" if change > 0 else "It goes down" if change < 0 else "It stays the same"
        assert fields["answer"] == expected
        answers.add(fields["answer"])
    assert made_count >= 40 and len(answers) == 3


# --- on the page -----------------------------------------------------------------------------


def url_text(value):
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("index", [0, 2, 3])
def test_made_setups_run_on_the_page_without_their_tells(index):
    """A made step's set-up as a link (through the page's guards), asked as the step it was made
    from: the page runs, says nothing of a link not used, and shows none of its tells."""
    fields = made(SAME_KIND[index], 7 + index)
    at = open_page(PAGE, params={key: url_text(value) for key, value in fields["setup"].items()})
    assert_no_exception(at)
    at.session_state[f"{PAGE}_try_asked"] = index + 1
    at.session_state[f"{PAGE}_try_hiding"] = tuple(fields["hides"])
    at.run()
    assert_no_exception(at)
    text = page_text(at)
    assert "could not be used" not in text
    assert [tell for tell in fields["tells"] if tell in text] == []
    at.session_state[f"{PAGE}_try_asked"] = None
    at.run()
    assert_no_exception(at)
    shown = page_text(at)
    assert [tell for tell in fields["tells"] if tell not in shown] == [], fields["setup"]


def test_the_page_builds_the_view_the_kinds_read(monkeypatch):
    """The page's own view (its lambda, called as the menu would), at a frame of the player: the
    keys of ``lessons.VIEW``, and every kind makes a valid question of it."""
    from pages.widgets import lesson

    built = []
    monkeypatch.setattr(lesson, "about_this_view", lambda page, view: built.append((page, view)))
    at = open_page(PAGE, params={"pc_frame": "3"})
    assert_no_exception(at)
    page, view = built[-1]
    view = view()
    assert page == PAGE and set(view) == set(lessons.random_view(np.random.default_rng(0)))
    assert view["frame"] == 3 and view["tab"] == lessons.TABS[0] and view["data"] == points.menu(PAGE)[0]
    for question in VIEW_QUESTIONS:
        fields = asked(question, view, 0)
        assert fields is not None, question.name
    assert (
        kind("next_point")
        .make(view, np.random.default_rng(0))["answer"]
        .startswith(f"Point {int(view['model'].update_points_[3])} at ")
    )
