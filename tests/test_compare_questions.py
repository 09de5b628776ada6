"""/compare's generated questions (issue 33): "A question of the same kind" for each "Try this" step
and the kinds of "Ask about this view", read from the lessons registry.

Every made question must be one a class can be asked (``check_step``: distinct options, one of them
right) and its answer must agree with a computation written here, apart from the lesson: k-NN by
brute force, ID3 grown again in plain numpy, the perceptron's predictions recomputed from its
weights (or, for a kernel, from its dual coefficients and scikit-learn's kernels), and every
accuracy compared as an exact count of points. The 200-instance runs are slow; the quick loop
runs the first 8 of each.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from conftest import assert_no_exception, open_page, page_text
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel

from classic import compare
from classic.lessons import check_step, lesson_of
from classic.lessons import compare as content  # its data sets only: make_data and the steps

MODULE = lesson_of("compare").questions()
SAME_KIND = MODULE.SAME_KIND
VIEW_QUESTIONS = MODULE.VIEW_QUESTIONS
STEPS = content.questions()
NAMES = ("perceptron", "knn", "tree")
WORDS = {"perceptron": "the perceptron", "knn": "k-NN", "tree": "the tree"}
MANY, FEW = range(200), range(8)


# ---------------------------------------------------------------------------------------------
# The classifiers again, apart from the lesson
# ---------------------------------------------------------------------------------------------


def knn_predict(X_train, codes, X, k):
    """The k nearest by brute force (ties in distance: the lower index); the most votes win, and
    between classes with as many votes, the class of the nearest neighbour among them."""
    d = ((X[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2)
    near = codes[np.argsort(d, axis=1, kind="stable")[:, :k]]
    out = np.empty(len(X), dtype=int)
    for row, labels in enumerate(near):
        votes = np.bincount(labels, minlength=2)
        top = np.flatnonzero(votes == votes.max())
        out[row] = next(c for c in labels if c in top)
    return out


def entropy(ones, n):
    """The entropy in bits of two classes, ``ones`` of ``n`` in the second (arrays)."""
    p = np.stack([ones / n, 1 - ones / n])
    return -np.sum(np.where(p > 0, p * np.log2(np.where(p > 0, p, 1)), 0), axis=0)


def grow(X, codes, depth, max_depth):
    """ID3 on numbers: a test x_j ≤ τ, τ halfway between neighbouring values whose labels differ,
    chosen by information gain (ties: the first feature, the lowest τ); a leaf, the majority
    (ties: the first class), when pure, at the depth limit or when no test gains anything."""
    n, total = len(codes), int(codes.sum())
    leaf = ("leaf", int(total * 2 > n))
    if total in (0, n) or depth == max_depth:
        return leaf
    base, found = float(entropy(np.array(total), n)), []
    for j in range(2):
        order = np.argsort(X[:, j], kind="stable")
        v, c = X[order, j], codes[order]
        starts = np.flatnonzero(np.r_[True, v[1:] != v[:-1]])  # each distinct value's first row
        low, high = np.minimum.reduceat(c, starts), np.maximum.reduceat(c, starts)
        same = (low[:-1] == high[:-1]) & (low[1:] == high[1:]) & (low[:-1] == low[1:])
        ends = starts[1:][~same]  # rows on the left of each candidate cut
        if len(ends) == 0:
            continue
        left_ones = np.cumsum(c)[ends - 1]
        gains = (
            base - (ends * entropy(left_ones, ends) + (n - ends) * entropy(total - left_ones, n - ends)) / n
        )
        first = int(np.argmax(gains >= gains.max() - 1e-12))
        found.append((float(gains.max()), j, (v[ends[first] - 1] + v[ends[first]]) / 2))
    if not found or max(g for g, *_ in found) <= 1e-12:
        return leaf
    top = max(g for g, *_ in found)
    _, j, tau = next(f for f in found if f[0] >= top - 1e-12)
    left = X[:, j] <= tau
    return (
        "test",
        j,
        tau,
        grow(X[left], codes[left], depth + 1, max_depth),
        grow(X[~left], codes[~left], depth + 1, max_depth),
    )


def tree_predict(node, x):
    while node[0] == "test":
        node = node[3] if x[node[1]] <= node[2] else node[4]
    return node[1]


def leaves(node):
    return 1 if node[0] == "leaf" else leaves(node[3]) + leaves(node[4])


def perceptron_predict(model, kind, X):
    """The fitted perceptron's classes from its own weights: the line's w·x + b, or the kernel's
    Σ α_i y_i K(x_i, x) + b with scikit-learn's kernel; the second class where it is positive."""
    if kind == "line":
        score = X @ model.coef_ + model.intercept_
    elif kind == "RBF kernel":
        score = model.dual_coef_ @ rbf_kernel(model.X_, X, gamma=model.gamma) + model.intercept_
    else:
        score = (
            model.dual_coef_ @ polynomial_kernel(model.X_, X, degree=2, gamma=1, coef0=1) + model.intercept_
        )
    return (score > 0).astype(int)


def right_counts(X, y, seed, kind, k, depth):
    """Each classifier's right answers on the seeded split, (training, held out), and the tree's
    leaves; the split's sizes."""
    parts = compare.split(np.asarray(X, dtype=float), np.asarray(y), seed)
    classes = np.unique(parts.y_train)
    train, test = np.searchsorted(classes, parts.y_train), np.searchsorted(classes, parts.y_test)
    k = min(k, len(train))
    line = compare.make_perceptron(kind, parts.X_train).fit(parts.X_train, parts.y_train)
    tree = grow(parts.X_train, train, 0, depth)
    predicted = {
        "perceptron": lambda Z: perceptron_predict(line, kind, Z),
        "knn": lambda Z: knn_predict(parts.X_train, train, Z, k),
        "tree": lambda Z: np.array([tree_predict(tree, z) for z in Z]),
    }
    counts = {
        n: (
            int(np.sum(predicted[n](parts.X_train) == train)),
            int(np.sum(predicted[n](parts.X_test) == test)),
        )
        for n in NAMES
    }
    return counts, len(train), len(test), leaves(tree)


def the_one(values, pick=max):
    top = pick(values.values())
    winners = [n for n, v in values.items() if v == top]
    return WORDS[winners[0]] if len(winners) == 1 else None


# ---------------------------------------------------------------------------------------------
# The answers, computed here
# ---------------------------------------------------------------------------------------------


def settings_of(made):
    return {key.removeprefix("cmp_"): value for key, value in made["setup"].items()}


def recount(made):
    s = settings_of(made)
    X, y = content.make_data(s["data"], s["points"], s["seed"], s["flip"])
    return s, right_counts(X, y, s["seed"], s["perceptron"], s["k"], s["depth"])


def worst_held_out(made):
    _, (counts, *_) = recount(made)
    return the_one({n: counts[n][1] for n in NAMES}, min)


def knn_train_against_held_out(made):
    _, (counts, n_train, n_test, _) = recount(made)
    train, test = Fraction(counts["knn"][0], n_train), Fraction(counts["knn"][1], n_test)
    return "higher than" if train > test else "the same as" if train == test else "lower than"


def kernel_bucket(made):
    s, (counts, _, n_test, _) = recount(made)
    assert s["perceptron"] != "line"
    held_out = Fraction(counts["perceptron"][1], n_test)
    assert held_out not in (Fraction(6, 10), Fraction(9, 10)), "an accuracy on a bucket's edge"
    return (
        "below 60%"
        if held_out < Fraction(6, 10)
        else "60% to 90%"
        if held_out < Fraction(9, 10)
        else "above 90%"
    )


def leaves_bucket(made):
    _, (*_, n_leaves) = recount(made)
    assert n_leaves >= 2
    return "2" if n_leaves == 2 else "3 to 6" if n_leaves <= 6 else "more than 6"


def best_held_out(made):
    _, (counts, *_) = recount(made)
    return the_one({n: counts[n][1] for n in NAMES})


# In the steps' order: the data set each keeps, and the answer computed here.
EXPECTED = (
    ("XOR", worst_held_out),
    (None, knn_train_against_held_out),
    (None, kernel_bucket),
    ("Diagonal boundary", leaves_bucket),
    ("Spiral", best_held_out),
    ("Axis-aligned boxes", best_held_out),
)


def test_one_maker_per_step_read_from_the_registry():
    assert len(SAME_KIND) == len(STEPS) == len(EXPECTED)
    assert len(VIEW_QUESTIONS) >= 3
    assert len({kind.name for kind in VIEW_QUESTIONS}) == len(VIEW_QUESTIONS)


def check_same_kind(i, seeds):
    step, (data, expected) = STEPS[i], EXPECTED[i]
    answers = Counter()
    for seed in seeds:
        made = SAME_KIND[i](np.random.default_rng(seed))
        checked = check_step(made)
        assert len(set(checked.options)) == len(checked.options)
        assert sum(option == checked.answer for option in checked.options) == 1
        assert checked.hides == step.hides
        assert set(made["setup"]) == {f"cmp_{key}" for key in step.settings}
        s = settings_of(made)
        assert s["data"] in content.DATASETS and (data is None or s["data"] == data)
        assert 20 <= s["points"] <= 1000 and s["points"] % 10 == 0
        assert 0 <= s["flip"] <= 40 and s["flip"] % 5 == 0 and 1 <= s["k"] <= 100 and 1 <= s["depth"] <= 20
        assert s["perceptron"] in compare.PERCEPTRONS
        assert checked.answer == expected(made), f"step {i + 1}, rng {seed}: {made['question']}"
        assert all(token and token not in checked.question for token in checked.tells)
        answers[checked.answer] += 1
    return answers


@pytest.mark.parametrize("i", range(len(STEPS)))
def test_same_kind_quick(i):
    check_same_kind(i, FEW)


@pytest.mark.slow
@pytest.mark.parametrize("i", range(len(STEPS)))
def test_same_kind_200_instances_valid_and_not_always_the_originals_answer(i):
    answers = check_same_kind(i, MANY)
    assert answers[STEPS[i].answer] < len(MANY), f"step {i + 1} always answers {STEPS[i].answer!r}"


# ---------------------------------------------------------------------------------------------
# Ask about this view
# ---------------------------------------------------------------------------------------------


def view_answer(name, view, made):
    counts, n_train, n_test, n_leaves = right_counts(
        view["X"], view["y"], view["seed"], view["perceptron"], view["k"], view["depth"]
    )
    assert (n_train, n_test, n_leaves) == (view["n_train"], view["n_test"], view["leaves"])
    if name == "best_held_out":
        return the_one({n: counts[n][1] for n in NAMES})
    if name == "largest_gap":
        return the_one({n: Fraction(counts[n][0], n_train) - Fraction(counts[n][1], n_test) for n in NAMES})
    if name == "perceptron_edge":
        edge = int(made["options"][0].removeprefix("below ").removesuffix("%"))
        held_out = Fraction(counts["perceptron"][1], n_test)
        assert abs(100 * held_out - edge) >= 1, "an edge the rounded percentage would blur"
        return made["options"][held_out >= Fraction(edge, 100)]
    if name == "tree_leaves":
        return next(
            words
            for top, words in (
                (2, "1 or 2"),
                (5, "3 to 5"),
                (10, "6 to 10"),
                (20, "11 to 20"),
                (None, "more than 20"),
            )
            if top is None or n_leaves <= top
        )
    raise AssertionError(f"no computation here for the view kind {name!r}")


def left_out_rightly(name, view):
    """A kind may leave a view out only where it has no one answer: a tie, or no clear edge."""
    counts, n_train, n_test, _ = right_counts(
        view["X"], view["y"], view["seed"], view["perceptron"], view["k"], view["depth"]
    )
    if name == "best_held_out":
        return the_one({n: counts[n][1] for n in NAMES}) is None
    if name == "largest_gap":
        return (
            the_one({n: Fraction(counts[n][0], n_train) - Fraction(counts[n][1], n_test) for n in NAMES})
            is None
        )
    if name == "perceptron_edge":
        held_out = 100 * Fraction(counts["perceptron"][1], n_test)
        return all(abs(held_out - edge) < 1 for edge in (50, 60, 70, 80, 90))
    return False


def check_views(seeds):
    made_count = Counter()
    for seed in seeds:
        view = MODULE.random_view(np.random.default_rng(seed))
        for kind in VIEW_QUESTIONS:
            made = kind.make(view, np.random.default_rng(seed))
            if made is None:
                assert left_out_rightly(kind.name, view), f"{kind.name} left out on view {seed}"
                continue
            checked = check_step(made)
            assert made["setup"] == {}
            assert sum(option == checked.answer for option in checked.options) == 1
            assert set(checked.hides) <= set(content.PARTS)
            assert checked.answer == view_answer(kind.name, view, made), f"{kind.name}, view {seed}"
            made_count[kind.name] += 1
    return made_count


def test_views_quick():
    check_views(FEW)


@pytest.mark.slow
def test_views_200_instances_valid_with_the_answer_computed_here():
    made = check_views(MANY)
    assert all(made[kind.name] >= 100 for kind in VIEW_QUESTIONS), made


# ---------------------------------------------------------------------------------------------
# On the page
# ---------------------------------------------------------------------------------------------


def link_value(value):
    return str(value).lower() if isinstance(value, bool) else str(value)


def test_same_kind_setups_run_on_the_page_and_hide_their_tells_while_asked():
    """Three made steps on one page: the first opened from its link, the others set up as "Set up
    this view" does (only the values that change); each asked in the slot of the step it was made
    from, hiding its parts, then closed."""
    made = [SAME_KIND[i](np.random.default_rng(seed)) for i, seed in ((0, 3), (2, 5), (3, 7))]
    at = open_page("compare", params={key: link_value(value) for key, value in made[0]["setup"].items()})
    assert_no_exception(at)
    for i, step in zip((0, 2, 3), made, strict=True):
        for key, value in step["setup"].items():
            if at.session_state[key] != value:
                at.session_state[key] = value
        at.session_state["compare_try_asked"] = i + 1
        at.session_state["compare_try_hiding"] = tuple(step["hides"])
        at.run()
        assert_no_exception(at)
        asked = page_text(at)
        assert [t for t in step["tells"] if t in asked] == [], step["question"]
        at.button(key="compare_try_close").click().run()
        shown = page_text(at)
        assert [t for t in step["tells"] if t not in shown] == [], step["question"]
