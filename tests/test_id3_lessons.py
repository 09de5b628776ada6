"""The ID3 lesson's extras (classic.lessons.tree_sources): the post's hand-drawn tree, its unweighted gain and
its claims on the 1984 votes, the printed textbook ID3, AND against parity."""

import numpy as np
import pytest

from classic import datasets
from classic.criteria import (
    information_gain,
    score_split,
)
from classic.evaluation import cross_val_score
from classic.id3 import ID3, rows_with_missing
from classic.lessons.tree_sources import (
    POST_ARYA_LAYOUT,
    as_textbook,
    complete_rows_root,
    disagreement,
    evaluate,
    fit_layout,
    posts_protocol,
    representation_sizes,
    textbook_classify,
    textbook_id3,
    unweighted_choice,
    unweighted_information_gain,
    votes_for,
)


@pytest.fixture
def votes(data_home):
    return datasets.load_house_votes(data_home)


def test_the_posts_unweighted_gain_can_choose_another_feature():
    # 5 Yes and 5 No. A isolates one row; B makes two groups of five (4 Yes 1 No, 1 Yes 4 No).
    y = np.array(["Y"] * 5 + ["N"] * 5)
    a = np.array(["x"] + ["z"] * 9)
    b = np.array(["p"] * 4 + ["q"] + ["p"] + ["q"] * 4)
    assert information_gain(b, y) > information_gain(a, y)  # the definition prefers B
    assert unweighted_information_gain(b, y) == pytest.approx(1 - 2 * 0.7219, abs=1e-4)
    assert unweighted_information_gain(a, y) > unweighted_information_gain(b, y)
    chosen, scores = unweighted_choice(np.column_stack([a, b]), y, ["A", "B"])
    assert chosen == "A" and set(scores) == {"A", "B"}
    assert ID3().fit(np.column_stack([a, b]), y, ["A", "B"]).root_.feature == "B"


def test_on_play_tennis_the_posts_unweighted_gain_prefers_humidity():
    # Outlook: 0.940 − (0.971 + 0 + 0.971) = −1.002; Humidity: 0.940 − (0.985 + 0.592) = −0.637.
    X, y, names = datasets.load_play_tennis()
    chosen, scores = unweighted_choice(X, y, names)
    assert chosen == "Humidity"
    assert scores["Outlook"] == pytest.approx(-1.0016, abs=1e-3)
    assert scores["Humidity"] == pytest.approx(-0.6376, abs=1e-3)


def test_arya_id3_tree_and_the_posts_hand_drawn_tree():
    X, y, names = datasets.load_arya()
    tree = ID3().fit(X, y, names)
    assert tree.root_.feature == "Temperature" and tree.n_leaves_ == 3
    gains = {c.feature: c.gain for c in tree.steps_[0].candidates()}
    assert gains["Temperature"] == pytest.approx(1.0)
    assert gains["Wind"] == pytest.approx(1 - 4 / 6 * 0.8113, abs=1e-4)
    post = fit_layout(X, y, POST_ARYA_LAYOUT, names)
    assert post.root_.feature == "Wind" and post.root_.children["Low"].feature == "Temperature"
    assert post.steps_[0].chosen == "Wind"
    assert post.n_nodes_ == 6 and tree.n_nodes_ == 4
    assert post.score(X, y) == tree.score(X, y) == 1.0


def test_a_value_never_seen_at_a_node_is_the_posts_none_leaf():
    X, y, names = datasets.load_arya()
    post = fit_layout(X, y, POST_ARYA_LAYOUT, names)
    low = post.root_.children["Low"]
    hot = low.children["Hot"]  # no windless day was hot
    assert hot.is_leaf and hot.n_samples == 0
    assert hot.label == low.label == "Yes"
    record = ["Sunny", "Hot", "Low", "Low"]
    assert post.predict([record])[0] == "Yes"
    np.testing.assert_allclose(post.predict_proba([record])[0], [0.25, 0.75])
    assert hot.votes.tolist() == low.votes.tolist()  # the post's rule adds up its parent's counts
    # A value never seen anywhere in training answers with the node's own majority.
    tree = ID3().fit(X, y, names)
    np.testing.assert_allclose(tree.predict_proba([["Sunny", "Tepid", "Low", "Low"]])[0], [0.5, 0.5])


def test_the_posts_tree_and_id3s_agree_on_six_days_not_on_all_72():
    X, y, names = datasets.load_arya()
    post = fit_layout(X, y, POST_ARYA_LAYOUT, names)
    differ, possible = disagreement(post, ID3().fit(X, y, names))
    assert possible == 4 * 3 * 3 * 2
    assert 0 < differ < possible


def test_evaluate_on_the_votes_gives_the_posts_protocol_and_the_curves(votes):
    X, y, names = votes
    result = evaluate(X, y, names, {"criterion": "entropy"}, random_state=0, curve_runs=2)
    plain = cross_val_score(ID3(), X, y, cv=10, random_state=0)
    np.testing.assert_allclose(result.cv_unpruned, plain)  # the same folds as classic.evaluation
    assert result.protocol == pytest.approx(195 / 203)
    assert result.protocol_rows == (232, 203)
    assert len(result.cv_unpruned) == len(result.cv_pruned) == 10
    assert result.nodes_pruned.mean() < result.nodes_unpruned.mean()
    assert result.curve_train.shape == result.curve_test.shape == (2, 10)
    assert result.curve_sizes[-1] == 326  # the whole training part (three quarters of 435)
    assert result.curve_test[:, -1].mean() > 0.9


def test_votes_posts_protocol_under_both_missing_value_rules(votes):
    X, y, names = votes
    missing = rows_with_missing(X)
    assert (int((~missing).sum()), int(missing.sum())) == (232, 203)
    fractional = ID3(missing="fractional").fit(X[~missing], y[~missing], names)
    branch = ID3(missing="branch").fit(X[~missing], y[~missing], names)
    assert fractional.root_.feature == branch.root_.feature == "physician-fee-freeze"
    assert fractional.score(X[missing], y[missing]) == pytest.approx(195 / 203)  # 96.1%
    # The post's rule: 194 sure and one 1–1 tie, which our tie rule (first class, democrat) gets
    # right: 96.1%; the post's Python 2 dict order listed republican first: 194/203 = 95.6%.
    proba = branch.predict_proba(X[missing])
    tied = np.isclose(proba[:, 0], proba[:, 1])
    assert tied.sum() == 1 and y[missing][tied].tolist() == ["democrat"]
    right = branch.predict(X[missing]) == y[missing]
    assert (right & ~tied).sum() == 194 and branch.score(X[missing], y[missing]) == pytest.approx(195 / 203)


def test_the_posts_claims_on_the_votes(votes):
    X, y, names = votes
    results = {(r.gain, r.missing): r for r in posts_protocol(X, y)}
    assert results["weighted", "branch"].correct == results["weighted", "fractional"].correct == 195
    assert (results["weighted", "branch"].ties, results["weighted", "branch"].tied_right) == (1, 1)
    # That tie, broken the other way (the post's Python 2 order, republican first): 194/203.
    tied = results["weighted", "branch"]
    assert tied.correct_other_tie_order == 194 and tied.tied_labels == ("democrat",)
    assert "?" in X[tied.tied_rows[0] - 1].tolist() and y[tied.tied_rows[0] - 1] == "democrat"
    assert results["unweighted", "branch"].correct_other_tie_order == 190  # no tie: the same count
    # "Very few Democrats voted in favor" of the budget resolution: 231 of the 260 who voted did.
    budget = votes_for(X, y, names, "adoption-of-the-budget-resolution")
    column = X[:, names.index("adoption-of-the-budget-resolution")]
    assert budget["democrat"] == (
        int((column[y == "democrat"] == "y").sum()),
        int((column[y == "democrat"] != "?").sum()),
    )
    assert budget == {"democrat": (231, 260), "republican": (22, 164)}
    assert (results["unweighted", "branch"].correct, results["unweighted", "fractional"].correct) == (
        190,
        191,
    )
    assert all(0.93 < r.accuracy < 0.97 for r in results.values())  # the post says "around 90%"
    # The post saw the budget resolution first; on the 232 complete rows either gain starts elsewhere.
    assert complete_rows_root(X, y, names) == {
        "weighted": "physician-fee-freeze",
        "unweighted": "physician-fee-freeze",
    }


def test_textbook_id3_grows_the_identical_tree(votes):
    X, y, names = votes
    keep = ~rows_with_missing(X)
    holes, labels = datasets.moons(200, 0.3, 0)
    holes[np.random.default_rng(0).random(holes.shape) < 0.1] = np.nan  # NaN: a missing number
    tables = [
        datasets.load_arya(),
        datasets.load_play_tennis(),
        datasets.load_has_kids(),
        datasets.load_two_tests(),
        (X[keep], y[keep], names),
        (X, y, names),  # all 435 votes, 203 of them with a "?"
        (*datasets.xor(200, 0.15, 0), ["x1", "x2"]),  # numbers: thresholds, a feature tested again
        (*datasets.spiral(300, 2, 0.1, 0), ["x1", "x2"]),
        (holes, labels, ["x1", "x2"]),
    ]
    for X_t, y_t, names_t in tables:
        y_t = np.asarray(y_t).astype(str)
        slow = textbook_id3(X_t.tolist(), y_t.tolist(), set(range(X_t.shape[1])))
        for rule in ("fractional", "branch", "majority"):  # the rule only changes prediction
            fast = ID3(missing=rule).fit(X_t, y_t, names_t)
            assert as_textbook(fast) == slow, (names_t, rule)
    assert rows_with_missing(X).sum() == 203 and ID3().fit(X, y, names).n_nodes_ == 61
    assert any(n.threshold is not None for n in ID3().fit(holes, labels.astype(str))._iter_nodes())
    # The post's rule on the textbook tree gives the fast tree's "branch" answers on every vote.
    slow = textbook_id3(X.tolist(), y.tolist(), set(range(X.shape[1])))
    totals = [textbook_classify(slow, row) for row in X.tolist()]
    votes_here = np.array([[t.get(c, 0) for c in ("democrat", "republican")] for t in totals], dtype=float)
    np.testing.assert_allclose(
        votes_here / votes_here.sum(axis=1, keepdims=True),
        ID3(missing="branch").fit(X, y, names).predict_proba(X),
    )
    results = {(r.gain, r.missing): r.correct for r in posts_protocol(X, y)}
    fast = ID3(missing="fractional").fit(X[keep], y[keep], names)
    assert results["weighted", "fractional"] == int((fast.predict(X[~keep]) == y[~keep]).sum())


# --------------------------------------------------------------------------------------------
# The slides' representational power: AND in O(n) tests, parity in O(2ⁿ)
# --------------------------------------------------------------------------------------------


def test_and_and_parity_tables():
    X, y, names = datasets.load_parity(3)
    assert X.shape == (8, 3) and names == ["x1", "x2", "x3"]
    assert y.tolist() == ["F", "T", "T", "F", "T", "F", "F", "T"]
    X, y, _ = datasets.load_and(4)
    assert (y == "T").sum() == 1 and X[y == "T"].tolist() == [["T"] * 4]


def test_and_needs_2n_plus_1_nodes_parity_2_to_the_n_plus_1_minus_1():
    sizes = representation_sizes(range(2, 9))
    assert sizes["AND"] == [2 * n + 1 for n in range(2, 9)]
    assert sizes["parity"] == [2 ** (n + 1) - 1 for n in range(2, 9)]
    assert sizes["parity, as ID3 grows it"] == [1] * 7  # every gain is 0 at the root: ID3 stops
    X, y, names = datasets.load_parity(4)
    assert ID3(min_gain=-1).fit(X, y, names).score(X, y) == 1.0
    assert [score_split(X[:, j], y).gain for j in range(4)] == [0.0] * 4


# --------------------------------------------------------------------------------------------
# The "Try this" steps asked honestly: what each hides, and the texts of its answer
# --------------------------------------------------------------------------------------------


def test_every_steps_tells_are_in_its_reveal_and_none_is_in_its_question():
    from classic.lessons import tree as lesson

    steps = lesson.try_this_steps()
    parts = {lesson.SPLITS, lesson.ID3_TREE, lesson.PARITY}
    for step in steps:
        assert step["tells"] and set(step["hides"]) <= parts, step["title"]
        asked = " ".join([step["question"], *step["options"]])
        assert [t for t in step["tells"] if t not in step["why"]] == [], step["title"]  # the reveal says them
        assert [t for t in step["tells"] if t in asked] == [], step["title"]
    tennis = ID3().fit(*datasets.load_play_tennis())
    gains = {c.feature: c.gain for c in tennis.steps_[0].candidates()}
    assert steps[0]["tells"] == ("asks about Outlook", *(f"{f} {g:.4f}" for f, g in gains.items()))
    assert steps[1]["tells"] == ("0.3113 bits",)  # HasKids' gain, in bits
    assert steps[3]["tells"][0] == "asks about Temperature" and steps[3]["answer"] == "No"
    assert steps[4]["tells"] == ("31 nodes", lesson.PARITY_NODES) == ("31 nodes", "2ⁿ⁺¹ − 1")


def test_a_withheld_player_sends_the_root_alone_and_no_split():
    from classic.viz import tree_figures

    X, y, names = datasets.load_play_tennis()
    model = ID3().fit(X, y, names)
    whole = tree_figures.player_data(model, 2, path=X[0])
    data = tree_figures.player_data(model, 2, path=X[0], withheld=True)
    assert whole["steps"] and whole["nodes"][0]["test"] == "Outlook" and not whole["withheld"]
    assert data["steps"] == [] and data["start"] == 0 and data["withheld"] is True
    assert data["nodes"] == [{**whole["nodes"][0], "test": None, "split": None}]
    assert data["path"] == whole["path"][:1] and "Outlook" not in str(data)


def test_and_alone_while_parity_is_asked():
    from classic.lessons import tree as lesson
    from classic.viz import tree_figures

    sizes = representation_sizes(range(2, 9))
    alone = tree_figures.representation_spec(sizes, parity=False)
    assert {v["function"] for v in alone["data"]["values"]} == {"AND"}
    assert {v["function"] for v in tree_figures.representation_spec(sizes)["data"]["values"]} == {
        "AND",
        "parity",
    }
    text = lesson.representation_text(sizes, parity=False)
    assert "parity" not in text and lesson.PARITY_NODES not in text and "2n + 1" in text
    assert lesson.PARITY_NODES in lesson.representation_text(sizes)
