"""The ID3 lesson's made questions (issue #33): every "question of the same kind" and every "Ask
about this view" kind, 200 random instances each, valid (``check_step``) and answered as a
brute-force ID3 written here (numpy entropies, no ``classic`` scorer) or scikit-learn answers it;
and a few made set-ups applied to the page in AppTest, their tells hidden while asked."""

from __future__ import annotations

import re
from functools import cache

import numpy as np
import pytest

from classic.lessons import check_step, lesson_of
from classic.lessons import tree as lesson

PAGE = "decision-tree"
SEEDS = range(200)
TOL = 1e-12  # scores this close are ties (the first column, the lowest threshold wins)


def questions():
    return lesson_of(PAGE).questions()


# -- the brute force: ID3 from the definitions -------------------------------------------------


def impurity(counts: np.ndarray, criterion: str) -> float:
    n = counts.sum()
    if n == 0:
        return 0.0
    p = counts[counts > 0] / n
    return float(1 - (p**2).sum()) if criterion == "gini" else float(-(p * np.log2(p)).sum())


def scores(tables: np.ndarray, criterion: str) -> tuple[np.ndarray, np.ndarray]:
    """(what the criterion compares, the gain) of splits' count tables [split, branch, class]."""
    tables = np.asarray(tables, dtype=float)

    def impurity(c: np.ndarray, kind: str) -> np.ndarray:  # of each row of counts [..., class]
        n = c.sum(axis=-1, keepdims=True)
        p = np.divide(c, n, out=np.zeros_like(c), where=n > 0)
        if kind == "gini":
            return np.where(n[..., 0] > 0, 1 - (p**2).sum(axis=-1), 0.0)
        return -(p * np.log2(np.where(p > 0, p, 1))).sum(axis=-1)

    kind = "gini" if criterion == "gini" else "entropy"
    sizes = tables.sum(axis=2)
    after = (sizes * impurity(tables, kind)).sum(axis=1) / sizes.sum(axis=1)
    gain = impurity(tables.sum(axis=1), kind) - after
    gain = np.where(np.abs(gain) < TOL, 0.0, gain)
    if criterion != "gain_ratio":
        return gain, gain
    information = impurity(sizes, "entropy")
    return np.divide(gain, information, out=np.zeros_like(gain), where=information > TOL), gain


def score(table: np.ndarray, criterion: str) -> tuple[float, float]:
    """(what the criterion compares, the gain) of one split's count table [branch, class]."""
    s, g = scores(np.asarray(table)[None], criterion)
    return float(s[0]), float(g[0])


def counts(labels: np.ndarray, classes: np.ndarray) -> np.ndarray:
    return (labels[:, None] == classes[None, :]).sum(axis=0)


def best_test(X, y, classes, available, criterion):
    """Each feature's best (score, gain, threshold or None), -inf where it has no test."""
    found = []
    for j in range(X.shape[1]):
        column = X[:, j]
        if not available[j] or len(np.unique(column)) < 2:
            found.append((-np.inf, -np.inf, None))
        elif column.dtype.kind == "f":
            found.append(best_threshold(column, y, classes, criterion))
        else:
            table = np.array([counts(y[column == v], classes) for v in np.unique(column)])
            found.append((*score(table, criterion), None))
    return found


def best_threshold(column, y, classes, criterion):
    """A number's best test x <= τ: τ midway between two values (not both of one label), each scored."""
    values, at = np.unique(column, return_inverse=True)
    per_value = np.zeros((len(values), len(classes)))
    np.add.at(per_value, (at, np.searchsorted(classes, y)), 1)
    left = per_value.cumsum(axis=0)[:-1]  # below each gap between values
    right = per_value.sum(axis=0) - left
    pair = per_value[:-1] + per_value[1:]
    keep = (pair > 0).sum(axis=1) > 1  # the two values hold two labels between them
    at = np.flatnonzero(keep)
    if not len(at):
        return (-np.inf, -np.inf, None)
    s, g = scores(np.stack([left[at], right[at]], axis=1), criterion)
    i = int(np.argmax(s >= s.max() - TOL))  # ties: the lowest threshold
    return float(s[i]), float(g[i]), (values[at[i]] + values[at[i] + 1]) / 2


def grow(X, y, criterion="entropy", max_depth=None, min_gain=0.0):
    """ID3 by the book, as nested dicts: {"feature", "threshold", "children": {branch: node}, "rows"}."""
    classes = np.unique(y)

    def node(rows, available, depth):
        here = {"rows": rows, "feature": None, "threshold": None, "children": {}}
        if len(np.unique(y[rows])) < 2 or not available.any() or (max_depth and depth >= max_depth):
            return here
        tests = best_test(X[rows], y[rows], classes, available, criterion)
        top = max(t[0] for t in tests)
        if not top > min_gain + TOL:
            return here
        j = next(j for j, t in enumerate(tests) if t[0] >= top - TOL)
        here["feature"], here["threshold"] = j, tests[j][2]
        if tests[j][2] is None:
            left = available.copy()
            left[j] = False
            for v in np.unique(X[rows, j]):
                here["children"][("=", v)] = node(rows[X[rows, j] == v], left, depth + 1)
        else:
            low = X[rows, j].astype(float) <= tests[j][2]
            here["children"][("<=", tests[j][2])] = node(rows[low], available, depth + 1)
            here["children"][(">", tests[j][2])] = node(rows[~low], available, depth + 1)
        return here

    return node(np.arange(len(y)), np.ones(X.shape[1], bool), 0)


def root(X, y) -> int:
    """The column ID3 (information gain) asks about first."""
    tests = best_test(X, y, np.unique(y), np.ones(X.shape[1], bool), "entropy")
    top = max(t[0] for t in tests)
    return next(j for j, t in enumerate(tests) if t[0] >= top - TOL)


def leaves(tree) -> int:
    return 1 if not tree["children"] else sum(leaves(c) for c in tree["children"].values())


def table_of(setup: dict):
    """The table a step's link shows, loaded as the page loads it."""
    data, seed = setup["tree_data"], setup.get("tree_seed", 0)
    X, y, names = (
        lesson.data_sets(None)[data](seed) if data in lesson.POINT_TABLES else lesson.data_sets(None)[data]()
    )
    return (X.astype(float) if data in lesson.POINT_TABLES else X), np.asarray(y).astype(str), list(names)


def made(maker_index: int, seed: int) -> dict:
    step = questions().SAME_KIND[maker_index](np.random.default_rng(seed))
    check_step(step)
    options = [str(o) for o in step["options"]]
    assert len(set(options)) == len(options) and options.count(str(step["answer"])) == 1
    return step


# -- a question of the same kind -----------------------------------------------------------------


def test_one_maker_per_step_from_the_registry():
    module = questions()
    assert len(module.SAME_KIND) == len(module.try_this_steps()) == 5
    assert len(module.VIEW_QUESTIONS) >= 3
    assert len({q.name for q in module.VIEW_QUESTIONS}) == len(module.VIEW_QUESTIONS)


@cache
def originals() -> list[dict]:
    return questions().try_this_steps()


def test_same_root_is_the_attribute_of_the_largest_gain():
    answers = []
    for seed in SEEDS:
        step = made(0, seed)
        X, y, names = table_of(step["setup"])
        assert step["answer"] == names[root(X, y)], step["question"]
        assert step["options"] == names and step["hides"] == originals()[0]["hides"]
        answers.append(step["answer"])
    assert set(answers) - {originals()[0]["answer"]}, "the same kind always has the original's answer"


def test_same_gain_is_the_entropy_drop_in_bits():
    answers = []
    for seed in SEEDS:
        step = made(1, seed)
        X, y, names = table_of(step["setup"])
        feature = re.search(r"knowing (\S+) save", step["question"])[1]
        column = X[:, names.index(feature)]
        table = np.array([counts(y[column == v], np.unique(y)) for v in np.unique(column)])
        assert step["answer"] == f"{score(table, 'entropy')[1]:.4f}", step["question"]
        assert step["hides"] == originals()[1]["hides"]
        answers.append(step["answer"])
    assert set(answers) - {originals()[1]["answer"]}


def test_same_pair_is_the_larger_gain():
    answers = []
    for seed in SEEDS:
        step = made(2, seed)
        X, y, names = table_of(step["setup"])
        tests = best_test(X, y, np.unique(y), np.ones(len(names), bool), "entropy")
        gains = {name: tests[names.index(name)][1] for name in step["options"]}
        assert len(gains) == 2 and step["answer"] == max(gains, key=gains.get), step["question"]
        answers.append(step["answer"])
    assert set(answers) - {originals()[2]["answer"]}


def test_same_agree_says_whether_the_drawn_root_is_id3s():
    answers = []
    for seed in SEEDS:
        step = made(3, seed)
        X, y, names = table_of(step["setup"])
        drawn = re.search(r"has (\S+) at the root", step["question"])[1]
        assert step["answer"] == ("Yes" if names[root(X, y)] == drawn else "No"), step["question"]
        assert step["hides"] == originals()[3]["hides"]
        answers.append(step["answer"])
    assert set(answers) == {"Yes", "No"}


def test_same_parity_is_the_full_tree_scikit_learn_grows():
    from sklearn.tree import DecisionTreeClassifier

    @cache
    def nodes(n: int) -> int:  # every impure node split, as ID3 with min_gain < 0 does
        bits = (np.arange(2**n)[:, None] >> np.arange(n)) & 1
        return (
            DecisionTreeClassifier(criterion="entropy", random_state=0)
            .fit(bits, bits.sum(axis=1) % 2)
            .tree_.node_count
        )

    answers = []
    for seed in SEEDS:
        step = made(4, seed)
        n = int(re.search(r"of (\d+) bits", step["question"])[1])
        assert step["answer"] == str(nodes(n)), step["question"]
        answers.append(step["answer"])
    assert set(answers) - {originals()[4]["answer"]}


# -- "Ask about this view" -----------------------------------------------------------------------


@cache
def view_and_tree(seed: int):
    view = questions().random_view(np.random.default_rng(seed))
    p = view["params"]
    X = view["X"].astype(float) if view["data"] in lesson.POINT_TABLES else np.asarray(view["X"])
    tree = grow(X, np.asarray(view["y"]).astype(str), p["criterion"], p["max_depth"], p["min_gain"])
    return view, tree, X


def asked(name: str, seed: int) -> dict | None:
    kind = next(q for q in questions().VIEW_QUESTIONS if q.name == name)
    view, _, _ = view_and_tree(seed)
    step = kind.make(view, np.random.default_rng(seed))
    if step is not None:
        check_step(step)
        options = [str(o) for o in step["options"]]
        assert len(set(options)) == len(options) and options.count(str(step["answer"])) == 1
        assert step["setup"] == {} and lesson.SPLITS in step["hides"]
    return step


def test_view_root_is_the_brute_force_root():
    made_ = 0
    for seed in SEEDS:
        view, tree, _ = view_and_tree(seed)
        step = asked("root", seed)
        if tree["feature"] is None or len(view["names"]) < 2:
            assert step is None
            continue
        made_ += 1
        assert step["answer"] == view["names"][tree["feature"]]
    assert made_ > 100


def _path(question: str) -> list[tuple[str, str, str]]:
    """The tests a question's path names: (feature, "=" / "<=" / ">", value)."""
    path = re.search(r"the rows with (.*): which", question)[1]
    return [re.fullmatch(r"(\S+) (=|<=|>) (.+)", test).groups() for test in path.split(" and ")]


def _follow(tree, path, names):
    for feature, op, value in path:
        assert names[tree["feature"]] == feature
        ((_, child),) = [
            (key, c)
            for key, c in tree["children"].items()
            if key[0] == op
            and (str(key[1]) == value if op == "=" else np.isclose(key[1], float(value), rtol=1e-3))
        ]
        tree = child
    return tree


def test_view_next_split_is_the_brute_force_split_below_the_branch():
    kinds = set()
    for seed in SEEDS:
        view, tree, _ = view_and_tree(seed)
        step = asked("next_split", seed)
        if step is None:
            assert not tree["children"] or len(view["names"]) < 2
            continue
        node = _follow(tree, _path(step["question"]), view["names"])
        expected = lesson.LEAF if node["feature"] is None else view["names"][node["feature"]]
        assert step["answer"] == expected, step["question"]
        kinds.add(node["feature"] is None)
    assert kinds == {True, False}  # leaves and splits both asked


def test_view_leaves_is_the_brute_force_count():
    for seed in SEEDS:
        view, tree, _ = view_and_tree(seed)
        step = asked("leaves", seed)
        n = leaves(tree)
        holding = []
        for option in step["options"]:
            low, _, high = option.partition("–")
            if int(low) <= n <= int(high or low):
                holding.append(option)
        assert holding == [step["answer"]], (step["options"], n)


# -- the page, in AppTest --------------------------------------------------------------------


@pytest.mark.parametrize(("maker", "seed"), [(0, 3), (2, 11), (4, 5)])
def test_made_setups_run_on_the_page_with_their_tells_hidden(maker, seed):
    from conftest import assert_no_exception, open_page, page_text

    step = made(maker, seed)
    at = open_page(PAGE, try_this=False)
    # As "A question of the same kind" asks it: the step's values set, its parts hidden.
    for key, value in step["setup"].items():
        at.session_state[key] = value
    at.session_state[f"{PAGE}_try_asked"] = maker + 1
    at.session_state[f"{PAGE}_try_hiding"] = tuple(step["hides"])
    at.run()
    assert_no_exception(at)
    text = page_text(at)
    assert [tell for tell in step["tells"] if tell in text] == []
    assert "hidden until the answer is revealed" in text
    assert all(at.session_state[key] == value for key, value in step["setup"].items())
    at.session_state[f"{PAGE}_try_asked"] = None  # closed: the parts it hid are back
    at.run()
    assert_no_exception(at)
    text = page_text(at) + step["why"]  # a reveal shows the why beside them
    assert [tell for tell in step["tells"] if tell not in text] == []


def test_a_view_question_asked_on_the_regions_tab_hides_the_boxes():
    from conftest import assert_no_exception, open_page, page_text

    from classic import id3

    data = "Moons (2-D points)"
    at = open_page(PAGE, try_this=False, params={"tree_data": data, "tree_tab": "Regions"})
    X, y, names = lesson.data_sets(None)[data](0)
    view = {
        "data": data,
        "X": X,
        "y": y,
        "names": names,
        "prune": False,
        "params": lesson.tree_params("entropy", "fractional", 0, 0.0),
    }
    view["model"] = id3.ID3().fit(X, y, names)
    kind = next(q for q in questions().VIEW_QUESTIONS if q.name == "leaves")
    step = kind.make(view, np.random.default_rng(0))
    shown = page_text(at)
    assert [tell for tell in step["tells"] if tell not in shown] == []  # the summary under the regions
    at.session_state[f"{PAGE}_try_asked"] = 1  # as "Ask about this view" hides the step's parts
    at.session_state[f"{PAGE}_try_hiding"] = tuple(step["hides"])
    at.run()
    assert_no_exception(at)
    text = page_text(at)
    assert "hidden until the answer is revealed" in text
    assert [tell for tell in step["tells"] if tell in text] == []
