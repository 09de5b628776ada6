"""ID3 and its criteria (classic.criteria): hand-checkable entropy and gain numbers, the classic
trees, numeric thresholds, missing values, pruning, rules, the lesson's extras, the 1984 votes,
and scikit-learn as an oracle."""

import copy
import multiprocessing
import queue

import numpy as np
import pytest

from classic import datasets
from classic._id3_engine import threshold_candidates, threshold_text
from classic._validation import NotFittedError
from classic.criteria import (
    conditional_entropy,
    entropy,
    gain_ratio,
    gini,
    gini_gain,
    information_gain,
    score_split,
    split_information,
    split_scores,
)
from classic.evaluation import cross_val_score, stratified_folds, train_test_split
from classic.id3 import ID3, PrunedID3, rows_with_missing
from classic.id3_lessons import (
    POST_ARYA_LAYOUT,
    as_textbook,
    between,
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


def _split(positives: int, negatives: int, value: str) -> tuple[list[str], list[str]]:
    return [value] * (positives + negatives), ["+"] * positives + ["-"] * negatives


def _two_way(left: tuple[int, int], right: tuple[int, int]) -> tuple[list[str], list[str]]:
    values_l, labels_l = _split(*left, "left")
    values_r, labels_r = _split(*right, "right")
    return values_l + values_r, labels_l + labels_r


# --------------------------------------------------------------------------------------------
# Impurity and gain
# --------------------------------------------------------------------------------------------


def test_entropy_by_hand():
    assert entropy([]) == 0.0
    assert entropy(["a", "a", "a"]) == 0.0  # 0 · log 0 = 0
    assert entropy(["a", "b"]) == pytest.approx(1.0)
    assert entropy(list("abcd")) == pytest.approx(2.0)
    assert entropy(["+"] * 30 + ["-"] * 10) == pytest.approx(0.8113, abs=1e-4)


def test_gini_by_hand():
    assert gini(["a"] * 5) == 0.0
    assert gini(["a", "b"]) == pytest.approx(0.5)
    assert gini(["+"] * 30 + ["-"] * 10) == pytest.approx(1 - 0.75**2 - 0.25**2)


def test_slides_30_positive_10_negative_test_1_beats_test_2():
    # CS 886 slides, "Which test is best?": 30+ and 10−; Test 1 splits them [20+, 10−] / [10+, 0−],
    # Test 2 [15+, 7−] / [15+, 3−]. Gain 1 = 0.8113 − (30/40 · 0.9183 + 10/40 · 0) = 0.1226.
    test_1, test_2 = _two_way((20, 10), (10, 0)), _two_way((15, 7), (15, 3))
    gain_1, gain_2 = information_gain(*test_1), information_gain(*test_2)
    assert gain_1 == pytest.approx(entropy(test_1[1]) - 30 / 40 * entropy(["+"] * 20 + ["-"] * 10))
    assert round(gain_1, 4) == 0.1226
    assert round(gain_2, 4) == 0.0225  # 0.8113 − (22/40 · 0.9024 + 18/40 · 0.6500)
    assert gain_1 > gain_2
    assert gain_ratio(*test_1) > gain_ratio(*test_2) and gini_gain(*test_1) > gini_gain(*test_2)
    # The page's "Test1 vs Test2 (the slides)" table holds exactly these splits.
    X, y, names = datasets.load_two_tests()
    assert names == ["Test1", "Test2"]
    for j, (values, labels) in enumerate((test_1, test_2)):
        page, slides = score_split(X[:, j], y), score_split(values, labels)
        assert sorted(page.counts.tolist()) == sorted(slides.counts.tolist())
        assert page.gain == pytest.approx(slides.gain)


def test_slides_has_kids_numbers_in_bits_and_in_nats():
    X, y, names = datasets.load_has_kids()
    assert names == ["HasKids"] and len(y) == 8
    assert entropy(y) == pytest.approx(1.0)
    assert entropy(y[X[:, 0] == "Yes"]) == pytest.approx(0.9183, abs=1e-4)
    assert conditional_entropy(X[:, 0], y) == pytest.approx(0.6887, abs=1e-4)
    assert information_gain(X[:, 0], y) == pytest.approx(0.3113, abs=1e-4)
    bits = score_split(X[:, 0], y, feature="HasKids")
    assert bits.branches == ["No", "Yes"] and bits.counts.tolist() == [[2, 0], [2, 4]]
    assert np.round(bits.terms, 4).tolist() == [0.0, 0.9183]
    assert bits.weights.tolist() == [0.25, 0.75]
    assert (round(bits.before, 4), round(bits.after, 4), round(bits.gain, 4)) == (1.0, 0.6887, 0.3113)
    # The slides redo the example with natural logarithms: 0.6365 and 0.4774.
    nats = score_split(X[:, 0], y, base=np.e)
    assert round(float(nats.terms[1]), 4) == 0.6365 and round(nats.after, 4) == 0.4774
    assert conditional_entropy(X[:, 0], y, base=np.e) == pytest.approx(0.4774, abs=1e-4)
    assert entropy(y, base=np.e) == pytest.approx(np.log(2))
    candidate = ID3().fit(X, y, names).steps_[0].candidates()[0]
    assert (candidate.before, round(candidate.after, 4), round(candidate.gain, 4)) == (1.0, 0.6887, 0.3113)


def test_slides_test1_beats_test2_on_their_table():
    X, y, names = datasets.load_two_tests()
    assert (y == "+").sum() == 30 and (y == "-").sum() == 10
    first, second = (score_split(X[:, j], y) for j in range(2))
    assert first.counts.tolist() == [[10, 0], [20, 10]]  # F: [10+, 0-], T: [20+, 10-]
    assert second.counts.tolist() == [[15, 3], [15, 7]]
    assert first.gain == pytest.approx(0.1226, abs=1e-4) and second.gain == pytest.approx(0.0225, abs=1e-4)
    assert ID3().fit(X, y, names).root_.feature == "Test1"


def test_split_scores_is_the_one_definition_with_missing_rows():
    # 3 rows a (Yes), 1 row b (No), 2 rows with no value: gain = 4/6 · (H(3,1) − 0).
    before, after, gain, information, score = split_scores(np.array([[0, 3], [1, 0]]), missing=2)
    assert before == pytest.approx(0.8113, abs=1e-4) and after == 0.0
    assert gain == pytest.approx(4 / 6 * 0.8113, abs=1e-4) and score == gain
    assert information == pytest.approx(0.8113, abs=1e-4)
    explained = score_split(["a", "a", "a", "b", "?", "?"], ["Y", "Y", "Y", "N", "Y", "N"])
    assert (explained.missing, explained.known_fraction) == (2, pytest.approx(4 / 6))
    assert explained.gain == pytest.approx(explained.known_fraction * (explained.before - explained.after))


def test_split_scores_names_its_numbers():
    found = split_scores(np.array([[[0, 3], [1, 0]], [[2, 2], [0, 0]]]), missing=2, criterion="gain_ratio")
    assert found._fields == ("before", "after", "gain", "split_information", "score")
    assert found.score[0] == pytest.approx(found.gain[0] / found.split_information[0])
    assert found.score[1] == 0.0  # one branch: no split information, no ratio


def test_a_new_split_criterion_is_one_entry_in_the_registry(monkeypatch):
    # Misclassification error, 1 − max_c p_c: registered once, grown by ID3 and tabled for the player.
    from classic import criteria
    from classic.viz import tree_figures

    error = criteria.Criterion(
        "Misclassification error", "E", lambda p, base: 1 - p.max(axis=-1), logarithm=False
    )
    monkeypatch.setitem(criteria.CRITERIA, "error", error)
    X, y, names = datasets.load_play_tennis()
    tree = ID3(criterion="error").fit(X, y, names)
    by_hand = {}  # each feature's drop in error at the root, from the counts
    for j, name in enumerate(names):
        before = 1 - max(np.mean(y == c) for c in np.unique(y))
        after = sum(
            np.mean(X[:, j] == v) * (1 - max(np.mean(y[X[:, j] == v] == c) for c in np.unique(y)))
            for v in np.unique(X[:, j])
        )
        by_hand[name] = before - after
    best = max(by_hand.values())
    assert tree.root_.feature == next(name for name in names if by_hand[name] >= best - 1e-12)
    table = tree_figures.split_table(tree.steps_[0])
    assert "E before" in table and "gain ratio" not in table
    assert table["gain"] == pytest.approx([by_hand[name] for name in table["test"]])


def test_classic_id3_still_exports_the_criteria_it_moved_to_classic_criteria():
    from classic import criteria, id3

    names = ["entropy", "gini", "conditional_entropy", "information_gain", "split_information"]
    names += ["gain_ratio", "gini_gain", "score_split", "split_scores", "impurity", "SplitScore"]
    for name in names:
        assert getattr(id3, name) is getattr(criteria, name)
    X, y, _ = datasets.load_has_kids()
    assert id3.information_gain(X[:, 0], y) == pytest.approx(0.3113, abs=5e-5)  # the slides' number


def test_split_information_and_gain_ratio_by_hand():
    assert split_information(["a", "a", "b", "b"]) == pytest.approx(1.0)
    assert split_information(["a"] * 4) == 0.0
    assert gain_ratio(["a"] * 4, ["x", "y", "x", "y"]) == 0.0  # nothing to split
    values, labels = _two_way((20, 0), (10, 10))
    assert gain_ratio(values, labels) == pytest.approx(information_gain(values, labels) / 1.0)


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


# --------------------------------------------------------------------------------------------
# Trees on the toy tables
# --------------------------------------------------------------------------------------------


def test_on_play_tennis_the_posts_unweighted_gain_prefers_humidity():
    # Outlook: 0.940 − (0.971 + 0 + 0.971) = −1.002; Humidity: 0.940 − (0.985 + 0.592) = −0.637.
    X, y, names = datasets.load_play_tennis()
    chosen, scores = unweighted_choice(X, y, names)
    assert chosen == "Humidity"
    assert scores["Outlook"] == pytest.approx(-1.0016, abs=1e-3)
    assert scores["Humidity"] == pytest.approx(-0.6376, abs=1e-3)


def test_play_tennis_tree_is_quinlans():
    X, y, names = datasets.load_play_tennis()
    tree = ID3().fit(X, y, names)
    root = tree.root_
    assert root.feature == "Outlook"
    assert root.counts == {"No": 5, "Yes": 9}
    assert root.children["Overcast"].is_leaf and root.children["Overcast"].label == "Yes"
    assert root.children["Sunny"].feature == "Humidity"
    assert root.children["Rain"].feature == "Wind"
    assert (tree.n_nodes_, tree.n_leaves_, tree.depth_) == (8, 5, 2)
    gains = {c.feature: round(c.gain, 3) for c in tree.steps_[0].candidates()}
    assert gains == {"Outlook": 0.247, "Temperature": 0.029, "Humidity": 0.152, "Wind": 0.048}
    assert [c.feature for c in tree.steps_[0].candidates() if c.chosen] == ["Outlook"]
    assert tree.score(X, y) == 1.0
    assert [step.chosen for step in tree.steps_] == [
        "Outlook",
        "Wind",
        "Humidity",
    ]  # breadth first: Rain, then Sunny


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


def test_pure_data_gives_a_single_leaf():
    tree = ID3().fit([["a", "x"], ["b", "y"]], ["Yes", "Yes"], ["f", "g"])
    assert tree.root_.is_leaf and tree.n_nodes_ == 1 and tree.depth_ == 0
    assert tree.rules() == ["IF TRUE THEN Yes"]
    assert tree.predict([["c", "z"]]).tolist() == ["Yes"]


def test_single_feature_with_conflicting_rows_uses_majority_leaves():
    X = [["a"], ["a"], ["a"], ["b"], ["b"]]
    y = ["Y", "Y", "N", "N", "N"]
    tree = ID3().fit(X, y)
    assert tree.feature_names_ == ["x0"]
    assert tree.root_.feature == "x0"
    assert tree.root_.children["a"].label == "Y" and tree.root_.children["a"].counts == {"N": 1, "Y": 2}
    np.testing.assert_allclose(tree.predict_proba([["a"]]), [[1 / 3, 2 / 3]])
    assert tree.score(X, y) == pytest.approx(0.8)


def test_max_depth_and_min_gain_stop_growth():
    X, y, names = datasets.load_play_tennis()
    stump = ID3(max_depth=1).fit(X, y, names)
    assert stump.depth_ == 1 and stump.n_nodes_ == 4
    assert ID3(min_gain=0.25).fit(X, y, names).n_nodes_ == 1  # the best gain is 0.247
    assert ID3(min_gain=0.2).fit(X, y, names).root_.feature == "Outlook"


def test_gain_ratio_resists_an_identifier_column_and_gini_grows_a_tree():
    X, y, names = datasets.load_play_tennis()
    with_id = np.column_stack([X, [f"day{i:02d}" for i in range(len(y))]])
    assert ID3().fit(with_id, y, [*names, "Day"]).root_.feature == "Day"  # gain 0.940: pure leaves
    day = ID3(criterion="gain_ratio").fit(with_id, y, [*names, "Day"]).steps_[0].candidates()[-1]
    assert day.score == pytest.approx(0.940 / np.log2(14), abs=1e-3)  # the split's entropy divides
    # An identifier ties a perfect feature on gain; its split information loses it the ratio.
    X, y, names = datasets.load_arya()
    with_id = np.column_stack([[f"day{i}" for i in range(len(y))], X])
    assert ID3().fit(with_id, y, ["Day", *names]).root_.feature == "Day"
    assert ID3(criterion="gain_ratio").fit(with_id, y, ["Day", *names]).root_.feature == "Temperature"
    X, y, names = datasets.load_play_tennis()
    assert ID3(criterion="gini").fit(X, y, names).root_.feature == "Outlook"
    step = ID3(criterion="gain_ratio").fit(X, y, names).steps_[0]
    for candidate in step.candidates():
        assert candidate.score == pytest.approx(candidate.gain / candidate.split_information)


def test_candidate_tables_agree_with_the_module_functions():
    X, y, names = datasets.load_play_tennis()
    for criterion, score in (("entropy", information_gain), ("gain_ratio", gain_ratio), ("gini", gini_gain)):
        tree = ID3(criterion=criterion).fit(X, y, names)
        for step in tree.steps_:
            for j, candidate in zip(step.columns, step.candidates(), strict=True):
                assert candidate.score == pytest.approx(score(X[step.rows, j], y[step.rows]), abs=1e-12)
                assert candidate.gain == pytest.approx(candidate.before - candidate.after)


# --------------------------------------------------------------------------------------------
# Missing values
# --------------------------------------------------------------------------------------------

# Three a → Yes, one b → No; a fifth row has "?" and label Yes.
MISSING_X = [["a"], ["a"], ["a"], ["b"], ["?"]]
MISSING_Y = ["Yes", "Yes", "Yes", "No", "Yes"]


def test_gain_uses_known_rows_times_the_fraction_known():
    tree = ID3().fit(MISSING_X, MISSING_Y)
    known_gain = entropy(["Yes"] * 3 + ["No"]) - 0.0
    (candidate,) = tree.steps_[0].candidates()
    assert candidate.gain == pytest.approx(4 / 5 * known_gain)
    assert (candidate.missing, candidate.counts.tolist()) == (1, [[0, 3], [1, 0]])
    assert set(tree.root_.children) == {"a", "b"}
    assert tree.root_.children["a"].counts == {"No": 0, "Yes": 4}  # the "?" row went with the majority
    assert tree.root_.shares == {"a": 0.75, "b": 0.25}


def test_each_missing_value_rule_on_a_small_case():
    # Training: a → 4 Yes (one of them the "?" row, sent the majority way), b → 1 No.
    record = [["?"]]
    fractional = ID3(missing="fractional").fit(MISSING_X, MISSING_Y)
    np.testing.assert_allclose(fractional.predict_proba(record), [[0.25, 0.75]])  # ¾ · Yes-leaf + ¼ · No-leaf
    assert [node.id for node in fractional.decision_path(["?"])] == [0, 1, 2]
    branch = ID3(missing="branch").fit(MISSING_X, MISSING_Y)
    np.testing.assert_allclose(branch.predict_proba(record), [[0.2, 0.8]])  # counts 0/4 + 1/0, added
    majority = ID3(missing="majority").fit(MISSING_X, MISSING_Y)
    np.testing.assert_allclose(majority.predict_proba(record), [[0.0, 1.0]])
    assert len(majority.decision_path(["?"])) == 2
    value = ID3(missing="value").fit(MISSING_X, [*MISSING_Y[:4], "No"])
    assert set(value.root_.children) == {"?", "a", "b"}
    assert value.predict(record).tolist() == ["No"]


def test_the_two_rules_differ_when_leaf_sizes_differ_from_shares():
    # Root splits f: a → 2 rows (Yes), b → 6 rows (5 No, 1 Yes: a mixed leaf, g gains nothing).
    X = [["a", "p"]] * 2 + [["b", "p"]] * 6
    y = ["Yes", "Yes", "No", "No", "No", "No", "No", "Yes"]
    fractional = ID3(missing="fractional").fit(X, y, ["f", "g"])
    branch = ID3(missing="branch").fit(X, y, ["f", "g"])
    np.testing.assert_allclose(
        fractional.predict_proba([["?", "p"]]), [[5 / 8, 3 / 8]]
    )  # ¼·(0,1) + ¾·(5/6, 1/6)
    np.testing.assert_allclose(branch.predict_proba([["?", "p"]]), [[5 / 8, 3 / 8]])  # (0,2) + (5,1) over 8
    X3 = [["a"]] * 2 + [["b"]] * 2 + [["c"]] * 4
    y3 = ["Yes", "Yes", "No", "No", "No", "No", "No", "Yes"]
    fractional = ID3(missing="fractional").fit(X3, y3)
    branch = ID3(missing="branch").fit(X3, y3)
    np.testing.assert_allclose(fractional.predict_proba([["?"]]), [[5 / 8, 3 / 8]])
    np.testing.assert_allclose(branch.predict_proba([["?"]]), [[5 / 8, 3 / 8]])


def test_probabilities_sum_to_one_with_missing_values():
    X, y, names = datasets.load_play_tennis()
    tree = ID3().fit(X, y, names)
    rng = np.random.default_rng(0)
    holes = X.copy()
    holes[rng.random(X.shape) < 0.4] = "?"
    proba = tree.predict_proba(holes)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    assert proba.shape == (len(y), 2)


# --------------------------------------------------------------------------------------------
# Pruning, rules, DOT
# --------------------------------------------------------------------------------------------


def test_pruning_removes_a_split_that_only_fits_noise():
    # Feature f predicts the label; g splits the f = b rows on one noisy row.
    X = [["a", "p"]] * 4 + [["b", "p"]] * 3 + [["b", "q"]]
    y = ["Y"] * 4 + ["N"] * 3 + ["Y"]
    tree = ID3().fit(X, y, ["f", "g"])
    assert tree.n_nodes_ == 5
    tree.prune([["b", "q"], ["a", "q"]], ["N", "Y"])
    assert tree.n_nodes_ == 3 and tree.root_.children["b"].pruned
    assert tree.rules() == ["IF f = b THEN N", "IF f = a THEN Y"]


@pytest.mark.parametrize("seed", range(5))
def test_pruning_never_lowers_validation_accuracy_nor_grows_the_tree(seed, votes):
    X, y, names = votes
    X_grow, X_val, y_grow, y_val = train_test_split(X, y, 0.3, random_state=seed, stratify=True)
    tree = ID3().fit(X_grow, y_grow, names)
    before_nodes, before = tree.n_nodes_, tree.score(X_val, y_val)
    tree.prune(X_val, y_val)
    assert tree.score(X_val, y_val) >= before
    assert tree.n_nodes_ <= before_nodes
    assert len(tree.rules()) == tree.n_leaves_


def test_rules_one_per_leaf_grouped_by_label():
    X, y, names = datasets.load_play_tennis()
    tree = ID3().fit(X, y, names)
    rules = tree.rules()
    assert len(rules) == tree.n_leaves_ == 5
    assert rules[0] == "IF Outlook = Rain AND Wind = Strong THEN No"
    assert [rule.rsplit(" ", 1)[1] for rule in rules] == ["No", "No", "Yes", "Yes", "Yes"]
    assert "IF Outlook = Sunny AND Humidity = Normal THEN Yes" in rules


def test_conditions_name_the_tests_on_the_way_to_a_node():
    X, y, names = datasets.load_play_tennis()
    tree = ID3().fit(X, y, names)
    humidity = tree.root_.children["Sunny"]
    assert tree.conditions(tree.root_) == []
    assert tree.conditions(humidity.children["High"]) == [("Outlook", "Sunny"), ("Humidity", "High")]


def test_conditions_equal_the_path_found_from_the_root_and_refuse_cut_off_nodes(votes):
    X, y, names = votes
    tree = ID3().fit(X, y, names)
    paths, stack = {}, [(tree.root_, [])]  # each node's tests, found walking down from the root
    while stack:
        node, path = stack.pop()
        paths[node.id] = path
        stack.extend((child, [*path, (node.feature, key)]) for key, child in node.children.items())
    assert len(paths) == tree.n_nodes_
    for node in tree._iter_nodes():
        assert tree.conditions(node) == paths[node.id]
    # Pruning cuts a subtree off (its nodes stay reachable from their parents, not from the root).
    noisy = ID3().fit(
        [["a", "p"]] * 4 + [["b", "p"]] * 3 + [["b", "q"]], ["Y"] * 4 + ["N"] * 3 + ["Y"], ["f", "g"]
    )
    below = noisy.root_.children["b"].children["q"]
    assert noisy.conditions(below) == [("f", "b"), ("g", "q")]
    noisy.prune([["b", "q"], ["a", "q"]], ["N", "Y"])
    with pytest.raises(ValueError, match="not a node of this tree"):
        noisy.conditions(below)
    assert noisy.conditions(noisy.root_.children["b"]) == [("f", "b")]
    other = ID3().fit(X, y, names)
    with pytest.raises(ValueError, match="not a node of this tree"):
        tree.conditions(other.root_.children[next(iter(other.root_.children))])


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


# --------------------------------------------------------------------------------------------
# Contract and errors
# --------------------------------------------------------------------------------------------


def test_parameters_are_stored_unchanged_and_checked_in_fit():
    tree = ID3(criterion="entrpy", max_depth=0)
    assert tree.criterion == "entrpy" and "entrpy" in repr(tree)
    with pytest.raises(ValueError, match="criterion must be one of"):
        tree.fit([["a"]], ["b"])
    for bad, message in (
        ({"max_depth": 0}, "max_depth"),
        ({"min_gain": float("nan")}, "min_gain"),
        ({"missing": "drop"}, "missing must be one of"),
    ):
        with pytest.raises(ValueError, match=message):
            ID3(**bad).fit([["a"]], ["b"])
    with pytest.raises(ValueError, match="2-D"):
        ID3().fit(["a", "b"], ["x", "y"])
    with pytest.raises(ValueError, match="one label per row"):
        ID3().fit([["a"], ["b"]], ["x"])
    with pytest.raises(ValueError, match="distinct names"):
        ID3().fit([["a", "b"]], ["x"], ["f", "f"])
    with pytest.raises(NotFittedError, match="not fitted"):
        ID3().predict([["a"]])
    with pytest.raises(TypeError):
        ID3("entropy")  # keyword-only
    with pytest.raises(ValueError, match="fitted with 1"):
        ID3().fit([["a"]], ["x"]).predict([["a", "b"]])
    with pytest.raises(ValueError, match="its values are"):
        fit_layout([["a"]], ["x"], {"x0": {"zz": {}}})


def test_fit_returns_self_and_deepcopy_gives_an_independent_tree():
    X, y, names = datasets.load_play_tennis()
    tree = ID3()
    assert tree.fit(X, y, names) is tree
    twin = copy.deepcopy(tree)
    twin.prune(X[:3], ["Yes", "Yes", "Yes"])
    assert tree.n_nodes_ == 8


# --------------------------------------------------------------------------------------------
# The 1984 congressional votes
# --------------------------------------------------------------------------------------------


@pytest.fixture
def votes(data_home):
    return datasets.load_house_votes(data_home)


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


def test_votes_cross_validation_with_and_without_pruning(votes):
    X, y, names = votes
    plain = cross_val_score(ID3(), X, y, cv=10, random_state=0).mean()
    pruned = cross_val_score(PrunedID3(random_state=0), X, y, cv=10, random_state=0).mean()
    assert plain == pytest.approx(0.952, abs=0.005)
    assert pruned == pytest.approx(0.959, abs=0.005)


def test_votes_cross_validation_agrees_with_scikit_learn(votes):
    DecisionTreeClassifier = pytest.importorskip("sklearn.tree").DecisionTreeClassifier
    OneHotEncoder = pytest.importorskip("sklearn.preprocessing").OneHotEncoder
    X, y, names = votes
    one_hot = OneHotEncoder().fit_transform(X).toarray()
    ours, theirs = [], []
    for test in stratified_folds(y, 10, random_state=0):
        train = np.setdiff1d(np.arange(len(y)), test)
        ours.append(ID3().fit(X[train], y[train], names).score(X[test], y[test]))
        oracle = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(one_hot[train], y[train])
        theirs.append(oracle.score(one_hot[test], y[test]))
    assert abs(np.mean(ours) - np.mean(theirs)) <= 0.03  # 0.952 against 0.938


def test_pruned_id3_records_what_pruning_did(votes):
    X, y, names = votes
    model = PrunedID3(validation_fraction=0.3, random_state=1).fit(X, y, names)
    assert model.n_nodes_ <= model.unpruned_n_nodes_
    assert model.validation_accuracy_ >= model.validation_accuracy_before_
    assert "validation_fraction=0.3" in repr(model)
    with pytest.raises(ValueError, match="validation_fraction"):
        PrunedID3(validation_fraction=1.0).fit(X, y)


# --------------------------------------------------------------------------------------------
# Numeric features: thresholds at the slides' midpoints
# --------------------------------------------------------------------------------------------


def test_a_numeric_feature_splits_at_the_midpoint_where_labels_change():
    # Sorted values 1 2 3 | 5 8 with labels a a a | b b: one candidate, τ = (3 + 5) / 2 = 4.
    tree = ID3().fit(np.array([[8.0], [1.0], [3.0], [5.0], [2.0]]), ["b", "a", "a", "b", "a"], ["x"])
    root = tree.root_
    assert root.threshold == 4.0 and list(root.children) == ["<= 4", "> 4"]
    assert root.children["<= 4"].counts == {"a": 3, "b": 0} and root.shares == {"<= 4": 0.6, "> 4": 0.4}
    (candidate,) = tree.steps_[0].candidates()
    assert candidate.threshold == 4.0 and candidate.gain == pytest.approx(entropy(list("aaabb")))
    assert tree.rules() == ["IF x <= 4 THEN a", "IF x > 4 THEN b"]
    assert tree.predict([[3.9], [4.0], [4.1], [-100]]).tolist() == ["a", "a", "b", "a"]
    assert tree.conditions(root.children["> 4"]) == [("x", "> 4")]


def test_candidates_are_only_between_values_whose_labels_differ():
    # 1:a 2:a 3:b 4:b 5:a. Candidates 2.5 and 4.5 (not 1.5 or 3.5); x ≤ 2.5 leaves (a a) pure.
    X, y = np.array([[1.0], [2.0], [3.0], [4.0], [5.0]]), ["a", "a", "b", "b", "a"]
    tree = ID3().fit(X, y, ["x"])
    assert tree.root_.threshold == 2.5
    inner = tree.root_.children["> 2.5"]
    assert inner.feature == "x" and inner.threshold == 4.5  # the same feature again, another τ
    assert tree.score(X, y) == 1.0 and tree.n_leaves_ == 3
    # A value held by rows of two labels gives a candidate on each side of it; the best is 1.5.
    X, y = np.array([[1.0], [2.0], [2.0], [3.0]]), np.array([0, 0, 1, 1])
    _, thresholds, gap, _, _ = threshold_candidates([np.argsort(X[:, 0])], X, y, np.zeros(4, np.int64), 1, 2)
    assert thresholds.tolist() == [1.5, 2.5] and gap.tolist() == [[1.0, 2.0], [2.0, 3.0]]
    tree = ID3().fit(X, ["a", "a", "b", "b"], ["x"])
    assert [c.threshold for c in tree.steps_[0].candidates()] == [1.5]


def test_a_printed_threshold_sorts_the_training_values_as_the_tree_does():
    # Values 1.00002 apart: 4 significant digits would print every τ as "1" (x > 1 AND x <= 1).
    X = np.array([[1.0], [1.00002], [1.00004], [1.00006]])
    tree = ID3().fit(X, ["a", "b", "a", "b"], ["x"])
    for rule in tree.rules():
        bounds = [float(test.split()[-1]) for test in rule.split(" THEN ")[0][3:].split(" AND ")]
        assert len(set(bounds)) == len(bounds), rule
    assert tree.score(X, ["a", "b", "a", "b"]) == 1.0
    # Large values print without an exponent, small ones with no more digits than they need.
    income = ID3().fit(np.array([[41000.0], [50000.0]]), ["low", "high"], ["income"])
    assert list(income.root_.children) == ["<= 45500", "> 45500"]
    assert threshold_text(0.15, 0.1, 0.2) == "0.15" and threshold_text(2.5, 2.0, 3.0) == "2.5"


def _fit_within(X, y, seconds: float = 20.0, **params) -> ID3:
    """``ID3(**params).fit(X, y)`` in a forked process: a fit still running after ``seconds`` fails
    the test (a guard against a growth loop that never ends, not a timing)."""
    context = multiprocessing.get_context("fork")
    found = context.Queue()
    worker = context.Process(target=lambda: found.put(ID3(**params).fit(X, y)))
    worker.start()
    try:
        return found.get(timeout=seconds)
    except queue.Empty:
        pytest.fail(f"ID3({params}).fit did not end within {seconds} s on {np.asarray(X).tolist()!r}")
    finally:
        worker.kill()
        worker.join()


def _sorts_as_printed(tree: ID3, X: np.ndarray) -> None:
    """Each training row ends in the leaf whose printed rule it meets (the rules' τ parsed back)."""
    leaves = tree.apply(X)
    for node in tree._iter_nodes():
        if node.is_leaf and node.n_samples:
            tests = [(tree.feature_names_.index(f), b.split()) for f, b in tree.conditions(node)]
            meets = np.ones(len(X), bool)
            for j, (op, text) in tests:
                meets &= X[:, j] <= float(text) if op == "<=" else X[:, j] > float(text)
            assert (meets == (leaves == node.id)).all(), (node, tests)


A, B = 1 + 2.0**-52, 1 + 2.0**-51  # adjacent floats: (A + B) / 2 rounds onto B
BIG = np.finfo(float).max
EDGES = {  # a column, its labels, and the values the root's τ lies between (τ = the lower or in between)
    "inf": ([1.0, 2.0, np.inf, np.inf], [0, 0, 1, 1]),
    "-inf": ([-np.inf, -np.inf, 1.0, 2.0], [0, 0, 1, 1]),
    "-inf next to inf": ([np.inf, -np.inf, np.inf], [1, 0, 1]),
    "adjacent floats": ([A, B, A, B, B], [0, 1, 0, 1, 1]),
    "1e308 and 1.7e308 (the sum overflows)": ([1e308, 1.7e308, 1.7e308], [0, 1, 1]),
    "-1.7e308 and -1e308": ([-1e308, -1.7e308], [1, 0]),
    "the two largest floats": ([np.nextafter(BIG, 0), BIG], [0, 1]),
    "the largest float and inf": ([BIG, np.inf, -BIG, -np.inf], [0, 1, 2, 3]),
    "subnormals": ([5e-324, 1e-323, 0.0, 5e-324], [1, 2, 0, 1]),
    "a mix": ([-np.inf, 1.0, 2.0, np.inf, A, B, 1.7e308, -1.7e308], [0, 1, 0, 1, 0, 1, 0, 1]),
}


@pytest.mark.parametrize("criterion", ["entropy", "gini"])
@pytest.mark.parametrize("name", list(EDGES))
def test_infinite_huge_and_adjacent_values_split_and_the_fit_ends(name, criterion):
    # τ separates the values it lies between: their midpoint, or the lower one where the midpoint
    # rounds onto the upper (adjacent floats, inf) or is not a number (-inf + inf); no overflow.
    x, y = EDGES[name]
    X = np.array(x)[:, None]
    tree = _fit_within(X, y, criterion=criterion)
    assert tree.score(X, y) == 1.0  # every value its own label: the tree separates them all
    flat = tree._tree.flush()
    inner = flat.feature[: flat.size] >= 0
    low, tau, high = flat.low[inner], flat.threshold[inner], flat.high[inner]
    assert ((low <= tau) & (tau < high)).all(), (low, tau, high)
    assert np.isfinite(tau[np.isfinite(low) & np.isfinite(high)]).all()
    _sorts_as_printed(tree, X)
    assert all(len(rule) < 120 for rule in tree.rules()), tree.rules()  # no 309-digit numbers


def test_a_midpoint_that_would_overflow_is_halved_first():
    tree = _fit_within(np.array([[1e308], [1.7e308]]), [0, 1])
    assert tree.root_.threshold == 1e308 / 2 + 1.7e308 / 2  # a midpoint, not the lower value
    tree = _fit_within(np.array([[A], [B]]), [0, 1])
    assert tree.root_.threshold == A and tree.rules() == [f"IF x0 <= {A!r} THEN 0", f"IF x0 > {A!r} THEN 1"]
    tree = _fit_within(np.array([[-np.inf], [1.0]]), [0, 1])
    assert tree.root_.threshold == -np.inf and list(tree.root_.children) == ["<= -inf", "> -inf"]


@pytest.mark.parametrize("seed", range(8))
def test_random_tables_of_edge_values_fit_every_training_row(seed):
    # Labels a function of the first column's value (separable): a full tree fits every row; with
    # NaN in the other columns the general loop grows it, without them the fused numeric loop.
    rng = np.random.default_rng(seed)
    pool = np.array([-np.inf, np.inf, A, B, 1.0, 0.0, -0.0, 1e308, 1.7e308, -BIG, BIG, 5e-324, 2.5, -3.0])
    n = int(rng.integers(2, 60))
    X = rng.choice(pool, size=(n, 3))
    labels = rng.integers(0, 3, len(pool))
    y = labels[np.searchsorted(np.unique(pool), X[:, 0])]  # (0.0 and -0.0 are one value)
    if seed % 2:
        X[rng.random((n, 3)) < 0.2] = np.nan
        X[:, 0] = np.where(np.isnan(X[:, 0]), 2.5, X[:, 0])
        y = labels[np.searchsorted(np.unique(pool), X[:, 0])]
    tree = _fit_within(X, y, criterion=("entropy", "gain_ratio", "gini")[seed % 3])
    assert tree.score(X, y) == 1.0
    if not seed % 2:
        _sorts_as_printed(tree, X)


def test_a_split_that_leaves_a_side_empty_makes_a_leaf(monkeypatch):
    # A broken midpoint (τ = the value above) puts both values on one side. The node becomes a
    # leaf rather than repeating the split for ever: every split left has rows on both sides.
    from classic import _id3_engine

    def upper(value, at, *_):
        gap = value[at[:, None] + np.array([0, 1])]
        return gap[:, 1].copy(), gap

    monkeypatch.setattr(_id3_engine, "midpoints", upper)
    X = np.array([[1.0], [2.0], [3.0], [4.0]])
    for tree in (_fit_within(X, [0, 1, 1, 0]), _fit_within(np.c_[X, [np.nan, 1, 2, 3]], [0, 1, 1, 0])):
        assert tree.n_nodes_ >= 1
        for node in tree._iter_nodes():
            assert node.is_leaf or sum(1 for c in node.children.values() if c.n_samples) == 2, node


def test_string_columns_of_numbers_are_numeric_and_mixed_tables_work():
    X = np.array(
        [["1.5", "red"], ["1.7", "blue"], ["1.9", "red"], ["2.1", "blue"], ["?", "red"], ["2.3", "?"]],
        dtype=object,
    )
    y = ["s", "s", "t", "t", "s", "t"]
    tree = ID3().fit(X, y, ["height", "colour"])
    assert tree.numeric_.tolist() == [True, False]
    assert tree.root_.feature == "height" and tree.root_.threshold == pytest.approx(1.8)
    (height, colour) = tree.steps_[0].candidates()
    assert height.missing == 1 and height.known_fraction == pytest.approx(5 / 6)
    assert colour.branches == ["blue", "red"] and colour.missing == 1
    proba = tree.predict_proba([["?", "red"]])
    np.testing.assert_allclose(proba, [[3 / 5, 2 / 5]])  # weighted by the 2 : 3 known rows each way
    with pytest.raises(ValueError, match="numeric"):
        tree.predict([["tall", "red"]])


def test_numeric_arrays_with_nan_as_missing():
    X = np.array([[0.0, 1.0], [1.0, np.nan], [2.0, 0.0], [3.0, 1.0]])
    tree = ID3().fit(X, ["a", "a", "b", "b"])
    assert tree.numeric_.tolist() == [True, True] and tree.root_.threshold == 1.5
    assert tree.predict(np.array([[np.nan, 0.0]])).shape == (1,)


@pytest.mark.parametrize("seed", range(3))
def test_the_root_threshold_agrees_with_scikit_learn(seed):
    DecisionTreeClassifier = pytest.importorskip("sklearn.tree").DecisionTreeClassifier
    X, y = datasets.gaussian_clusters(60, ((-1.0, 0.0), (1.5, 0.5)), 1.0, seed)
    ours = ID3(max_depth=1).fit(X, y)
    theirs = DecisionTreeClassifier(criterion="entropy", max_depth=1, random_state=0).fit(X, y)
    assert ours.root_.feature_index == theirs.tree_.feature[0]
    assert ours.root_.threshold == pytest.approx(theirs.tree_.threshold[0])
    gain = theirs.tree_.impurity[0] - sum(
        theirs.tree_.weighted_n_node_samples[c] / len(y) * theirs.tree_.impurity[c] for c in (1, 2)
    )
    assert ours.steps_[0].candidates()[ours.root_.feature_index].gain == pytest.approx(gain)


def test_a_full_numeric_tree_agrees_with_scikit_learn_on_predictions():
    DecisionTreeClassifier = pytest.importorskip("sklearn.tree").DecisionTreeClassifier
    X, y = datasets.moons(400, 0.2, 0)
    ours = ID3().fit(X, y)
    theirs = DecisionTreeClassifier(criterion="entropy", random_state=0).fit(X, y)
    assert ours.score(X, y) == theirs.score(X, y) == 1.0
    X_test, _ = datasets.moons(2000, 0.2, 1)
    agree = np.mean(ours.predict(X_test).astype(int) == theirs.predict(X_test))
    assert agree > 0.9


def test_apply_gives_the_leaf_of_each_row():
    X, y = datasets.xor(40, 0.1, 0)
    tree = ID3().fit(X, y)
    leaves = tree.apply(X)
    by_id = {node.id: node for node in tree._iter_nodes()}
    assert all(by_id[int(leaf)].is_leaf for leaf in leaves)
    assert [by_id[int(leaf)].label for leaf in leaves] == tree.predict(X).astype(str).tolist()


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


def _walk(node, record, rule):
    """A record's class distribution, walked one node at a time (the reference for the router)."""
    if node.is_leaf:
        return node.votes if rule == "branch" else node.proba
    value = record[node.feature_index]
    if node.threshold is not None:
        if value != value and rule == "value":  # a number has no "?" category: the majority way
            return _walk(node.children[max(node.shares, key=node.shares.get)], record, rule)
        if value != value:  # NaN: missing
            value = "?"
        else:
            key = list(node.children)[int(float(value) > node.threshold)]
            return _walk(node.children[key], record, rule)
    if value == "?" and rule != "value":
        if rule == "majority":
            return _walk(node.children[max(node.shares, key=node.shares.get)], record, rule)
        weight = (lambda s: s) if rule == "fractional" else (lambda s: 1.0)
        parts = [weight(s) * _walk(node.children[k], record, rule) for k, s in node.shares.items() if s > 0]
        return np.sum(parts, axis=0)
    if value not in node.children:
        return node.votes if rule == "branch" else node.proba
    return _walk(node.children[value], record, rule)


@pytest.mark.parametrize("rule", ["fractional", "branch", "majority", "value"])
def test_the_vectorised_router_equals_a_walk_down_the_tree(votes, rule):
    X, y, names = votes
    tree = ID3(missing=rule).fit(X[::2], y[::2], names)
    holes = X[1::2].copy()
    holes[np.random.default_rng(1).random(holes.shape) < 0.2] = "?"
    expected = np.array([_walk(tree.root_, record, rule) for record in holes])
    np.testing.assert_allclose(tree.predict_proba(holes), expected / expected.sum(axis=1, keepdims=True))
    points, labels = datasets.moons(200, 0.3, 0)
    tree = ID3(missing=rule).fit(points, labels)
    queries = datasets.moons(100, 0.3, 1)[0]
    queries[::4, 0] = np.nan
    expected = np.array([_walk(tree.root_, record, rule) for record in queries])
    np.testing.assert_allclose(tree.predict_proba(queries), expected / expected.sum(axis=1, keepdims=True))


@pytest.mark.parametrize("rule", ["fractional", "branch", "majority", "value"])
def test_pruning_counts_each_nodes_change_at_once_as_rerouting_does(rule):
    """Reduced-error pruning asks, for every internal node, how many more validation rows are
    right with that node as a leaf. Where each row follows one path the change is counted for
    all nodes at once; it must equal making each node a leaf in turn and routing again."""
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, (400, 5)).astype(str).astype(object)
    y = np.where((X[:, 0] == "1") ^ (rng.random(400) < 0.25), "a", "b")
    tree = ID3(missing=rule).fit(X[:300], y[:300])
    codes, values = tree._input(X[300:])
    truth = (y[300:] == tree.classes_[1]).astype(int)
    visits: list = []
    router = tree._router
    correct = np.argmax(router.route(codes, values, rule, visits), axis=1) == truth
    at_once = router.changes_as_leaf(codes, values, truth, rule)
    rerouted = router._changes_by_rerouting(codes, values, truth, rule, visits, correct)
    assert len(at_once) > 10 and at_once == rerouted
    assert any(change > 0 for change in at_once.values()) and any(change < 0 for change in at_once.values())


# --------------------------------------------------------------------------------------------
# The tree as arrays (classic._id3_tree), one-character tables, the criteria on any layout
# --------------------------------------------------------------------------------------------


def test_the_tree_is_arrays_until_its_nodes_are_read(votes):
    X, y, names = votes
    tree = ID3().fit(X, y, names)
    assert tree.predict(X).shape == (len(y),) and "_nodes" not in vars(tree)  # no Node built yet
    nodes = list(tree._iter_nodes())
    assert len(nodes) == tree.n_nodes_ == tree._tree.size and tree.root_ is nodes[0]
    assert [step.node.step for step in tree.steps_] == list(range(len(tree.steps_)))
    for node in nodes:  # every node's arrays and object agree
        assert node.feature_index == (
            None if tree._tree.feature[node.id] < 0 else tree._tree.feature[node.id]
        )
        assert list(node.counts.values()) == tree._tree.counts[node.id].tolist()
        assert [child.id for child in node.children.values()] == [
            c for c in tree._tree.child[node.id].tolist() if c >= 0
        ]


def test_one_character_tables_encode_as_a_lookup_would():
    """A table of single characters is coded through code points; every code must be the one the
    branch lookup gives: the value's branch, −1 for the missing marker, −2 for a value never seen."""
    rng = np.random.default_rng(4)
    table = rng.choice(["a", "b", "", "?", "é", "中"], size=(60, 3)).astype("U4")
    table[:, 2] = rng.choice(list("01?"), 60)  # a column of digits is numeric
    y = rng.choice(["p", "q"], 60)
    for missing in ("fractional", "value"):
        tree = ID3(missing=missing).fit(table, y)
        assert tree.numeric_.tolist() == [False, False, True]
        queries = rng.choice(["a", "b", "", "?", "z", "中"], size=(40, 3)).astype(object)
        queries[:, 2] = rng.choice(list("01?"), 40)
        codes, values = tree._input(queries)
        for j in (0, 1):
            lookup = {v: b for b, v in enumerate(tree._encoding.branches[j])}
            lost = -2 if missing == "value" else -1
            expected = [lookup.get(v, lost if v == "?" else -2) for v in queries[:, j].tolist()]
            assert codes[:, j].tolist() == expected
        assert np.array_equal(np.isnan(values[:, 2]), queries[:, 2] == "?")


def test_split_scores_do_not_depend_on_the_tables_memory_layout():
    counts = np.random.default_rng(5).integers(0, 40, (30, 4, 4))
    transposed = np.ascontiguousarray(counts.transpose(0, 2, 1)).transpose(0, 2, 1)  # same values
    for criterion in ("entropy", "gain_ratio", "gini"):
        for a, b in zip(
            split_scores(counts, 1, criterion), split_scores(transposed, 1, criterion), strict=True
        ):
            assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("name", list(EDGES))
def test_the_printed_textbook_id3_picks_the_same_thresholds_on_edge_values(name):
    """How it works' ID3 (the page prints it) uses ID3's τ: it ends on these columns and grows the same tree."""
    x, y = EDGES[name]
    X, labels = np.array(x)[:, None], np.asarray(y).astype(str)
    context = multiprocessing.get_context("fork")
    found = context.Queue()
    worker = context.Process(target=lambda: found.put(textbook_id3(X.tolist(), labels.tolist(), {0})))
    worker.start()
    try:
        slow = found.get(timeout=20)
    except queue.Empty:
        pytest.fail(f"textbook_id3 did not end within 20 s on {x!r}")
    finally:
        worker.kill()
        worker.join()
    assert as_textbook(ID3().fit(X, labels)) == slow
    assert (
        between(A, B) == A and between(1e308, 1.7e308) == 1e308 / 2 + 1.7e308 / 2 and between(1.0, 2.0) == 1.5
    )
