"""ID3: hand-checkable entropy and gain numbers, the classic trees, missing values, pruning,
rules, DOT, CSV parsing, the 1984 votes, and scikit-learn as an oracle."""

import copy
import shutil
import subprocess

import numpy as np
import pytest

from classic import datasets
from classic.evaluation import cross_val_score, stratified_folds, train_test_split
from classic.id3 import (
    ID3,
    POST_ARYA_LAYOUT,
    PrunedID3,
    conditional_entropy,
    disagreement,
    entropy,
    evaluate,
    explain_split,
    gain_ratio,
    gini,
    gini_gain,
    information_gain,
    parse_categorical_csv,
    render_dot,
    rows_with_missing,
    split_information,
    subset_entropies,
    unweighted_choice,
    unweighted_information_gain,
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
    # 30+/10−: Test 1 sends (20+, 0−) one way and (10+, 10−) the other; Test 2 (15+, 7−) and
    # (15+, 3−). Gain 1 = 0.811 − (20/40·0 + 20/40·1) = 0.311; Test 2 hardly helps.
    gain_1 = information_gain(*_two_way((20, 0), (10, 10)))
    gain_2 = information_gain(*_two_way((15, 7), (15, 3)))
    assert gain_1 == pytest.approx(0.3113, abs=1e-4)
    assert gain_2 == pytest.approx(0.0225, abs=1e-4)  # 0.811 − (22/40·0.902 + 18/40·0.650)
    assert gain_1 > gain_2
    assert gain_ratio(*_two_way((20, 0), (10, 10))) > gain_ratio(*_two_way((15, 7), (15, 3)))
    assert gini_gain(*_two_way((20, 0), (10, 10))) > gini_gain(*_two_way((15, 7), (15, 3)))


def test_slides_has_kids_numbers():
    X, y, names = datasets.load_has_kids()
    assert names == ["HasKids", "OwnsDoraVideo"]
    assert entropy(y) == pytest.approx(1.0)
    assert entropy(y[X[:, 0] == "Yes"]) == pytest.approx(0.9183, abs=1e-4)
    assert conditional_entropy(X[:, 0], y) == pytest.approx(0.9183, abs=1e-4)
    assert information_gain(X[:, 0], y) == pytest.approx(1 - 0.9183, abs=1e-4)
    step = ID3().fit(X, y, names).steps_[0]
    kids = step.candidates()[0]
    assert (kids.feature, kids.before, round(kids.after, 4)) == ("HasKids", 1.0, 0.9183)


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
    assert explain_split(ID3().fit(X, y, names).steps_[0], X, y).post_choice == "Humidity"


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
    post = ID3().fit_layout(X, y, POST_ARYA_LAYOUT, names)
    assert post.root_.feature == "Wind" and post.root_.children["Low"].feature == "Temperature"
    assert post.steps_[0].chosen == "Wind"
    assert post.n_nodes_ == 6 and tree.n_nodes_ == 4
    assert post.score(X, y) == tree.score(X, y) == 1.0


def test_a_value_never_seen_at_a_node_is_the_posts_none_leaf():
    X, y, names = datasets.load_arya()
    post = ID3().fit_layout(X, y, POST_ARYA_LAYOUT, names)
    low = post.root_.children["Low"]
    hot = low.children["Hot"]  # no windless day was hot
    assert hot.is_leaf and hot.n_samples == 0
    assert hot.label == low.label == "Yes"
    record = ["Sunny", "Hot", "Low", "Low"]
    assert post.predict([record])[0] == "Yes"
    np.testing.assert_allclose(post.predict_proba([record])[0], [0.25, 0.75])
    assert "no training rows" in post.to_dot()
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
    day = ID3("gain_ratio").fit(with_id, y, [*names, "Day"]).steps_[0].candidates()[-1]
    assert day.score == pytest.approx(0.940 / np.log2(14), abs=1e-3)  # the split's entropy divides
    # An identifier ties a perfect feature on gain; its split information loses it the ratio.
    X, y, names = datasets.load_has_kids()
    with_id = np.column_stack([[f"c{i}" for i in range(len(y))], X])
    assert ID3().fit(with_id, y, ["Customer", *names]).root_.feature == "Customer"
    assert ID3("gain_ratio").fit(with_id, y, ["Customer", *names]).root_.feature == "OwnsDoraVideo"
    X, y, names = datasets.load_play_tennis()
    assert ID3("gini").fit(X, y, names).root_.feature == "Outlook"
    step = ID3("gain_ratio").fit(X, y, names).steps_[0]
    for candidate in step.candidates():
        assert candidate.score == pytest.approx(candidate.gain / candidate.split_information)


def test_candidate_tables_agree_with_the_module_functions():
    X, y, names = datasets.load_play_tennis()
    for criterion, score in (("entropy", information_gain), ("gain_ratio", gain_ratio), ("gini", gini_gain)):
        tree = ID3(criterion).fit(X, y, names)
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


def test_branch_gain_uses_known_rows_times_the_fraction_known():
    tree = ID3(missing="branch").fit(MISSING_X, MISSING_Y)
    known_gain = entropy(["Yes"] * 3 + ["No"]) - 0.0
    assert tree.steps_[0].gain[0] == pytest.approx(4 / 5 * known_gain)
    assert set(tree.root_.children) == {"a", "b"}
    assert tree.root_.children["a"].counts == {"No": 0, "Yes": 4}  # the "?" row went with the majority
    assert tree.root_.shares == {"a": 0.75, "b": 0.25}


def test_each_missing_value_strategy_on_a_small_case():
    record = [["?"]]
    branch = ID3(missing="branch").fit(MISSING_X, MISSING_Y)
    np.testing.assert_allclose(branch.predict_proba(record), [[0.25, 0.75]])  # 3/4 Yes-leaf, 1/4 No-leaf
    assert [node.id for node in branch.decision_path(["?"])] == [0, 1, 2]
    majority = ID3(missing="majority").fit(MISSING_X, MISSING_Y)
    np.testing.assert_allclose(majority.predict_proba(record), [[0.0, 1.0]])
    assert len(majority.decision_path(["?"])) == 2
    value = ID3(missing="value").fit(MISSING_X, [*MISSING_Y[:4], "No"])
    assert set(value.root_.children) == {"?", "a", "b"}
    assert value.predict(record).tolist() == ["No"]


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
def test_pruning_never_lowers_validation_accuracy_nor_grows_the_tree(seed):
    X, y, names = datasets.load_house_votes()
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


def test_to_dot_highlights_the_path_and_draws_growth_step_by_step():
    X, y, names = datasets.load_play_tennis()
    tree = ID3().fit(X, y, names)
    dot = tree.to_dot(highlight=["Sunny", "Hot", "High", "Weak"])
    assert dot.startswith("digraph") and dot.count("->") == 7
    assert dot.count("penwidth=3") == 3 + 2  # three nodes and two edges on the path
    assert 'n0 -> n3 [label="Sunny", color="#D55E00", penwidth=3]' in dot
    assert "H = 0.940" in dot
    first = tree.to_dot(splits=1, focus=0)
    assert first.count("->") == 3 and "Humidity" not in first and "penwidth=4" in first
    assert tree.to_dot(splits=0).count("->") == 0


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot is not installed")
def test_to_dot_renders_with_graphviz():
    X, y, names = datasets.load_arya()
    dot = ID3().fit_layout(X, y, POST_ARYA_LAYOUT, names).to_dot(highlight=["Sunny", "Hot", "Low", "Low"])
    svg = subprocess.run(["dot", "-Tsvg"], input=dot, capture_output=True, text=True, check=True).stdout
    assert "<svg" in svg and "Temperature" in svg and "no training rows" in svg


def test_compact_left_to_right_drawing_for_bushy_trees():
    X, y, names = datasets.load_house_votes()
    dot = ID3().fit(X, y, names).to_dot(rankdir="LR", compact=True)
    assert "rankdir=LR" in dot and "H = " not in dot
    assert "physician-fee-<BR/>freeze" in dot  # long names wrap after a hyphen
    assert "267 / 168" in dot  # democrats / republicans at the root
    with pytest.raises(ValueError, match="rankdir"):
        ID3().fit(X, y, names).to_dot(rankdir="BT")


@pytest.mark.skipif(shutil.which("dot") is None, reason="graphviz's dot is not installed")
def test_render_dot_makes_svg_and_png_and_explains_failures():
    X, y, names = datasets.load_play_tennis()
    dot = ID3().fit(X, y, names).to_dot()
    assert render_dot(dot, "svg").lstrip().startswith(b"<?xml")
    assert render_dot(dot, "png").startswith(b"\x89PNG")
    with pytest.raises(ValueError, match="format"):
        render_dot(dot, "pdf")
    with pytest.raises(ValueError, match="could not draw"):
        render_dot("digraph { a -> }")


def test_explain_split_gives_the_table_the_posts_choice_and_the_terms():
    X, y, names = datasets.load_has_kids()
    tree = ID3().fit(X, y, names)
    explained = explain_split(tree.steps_[0], X, y)
    assert explained.columns["feature"] == ["HasKids", "OwnsDoraVideo"]
    assert explained.columns["entropy before"] == [1.0, 1.0]
    assert explained.chosen == explained.post_choice == "OwnsDoraVideo"
    terms, total = explained.terms["HasKids"]
    assert [(v, n, round(h, 4)) for v, n, h in terms] == [("No", 3, 0.9183), ("Yes", 3, 0.9183)]
    assert total == pytest.approx(0.9183, abs=1e-4)
    assert subset_entropies(X[:, 1], y) == [("No", 3, 0.0), ("Yes", 3, 0.0)]
    ratio = explain_split(ID3("gain_ratio").fit(X, y, names).steps_[0], X, y)
    assert ratio.columns["gain ratio"] == pytest.approx([(1 - 0.9183) / 1.0, 1.0], abs=1e-4)
    assert "Gini before" in explain_split(ID3("gini").fit(X, y, names).steps_[0], X, y).columns


def test_conditions_name_the_tests_on_the_way_to_a_node():
    X, y, names = datasets.load_play_tennis()
    tree = ID3().fit(X, y, names)
    humidity = tree.root_.children["Sunny"]
    assert tree.conditions(tree.root_) == []
    assert tree.conditions(humidity.children["High"]) == [("Outlook", "Sunny"), ("Humidity", "High")]


def test_the_posts_tree_and_id3s_agree_on_six_days_not_on_all_72():
    X, y, names = datasets.load_arya()
    post = ID3().fit_layout(X, y, POST_ARYA_LAYOUT, names)
    differ, possible = disagreement(post, ID3().fit(X, y, names))
    assert possible == 4 * 3 * 3 * 2
    assert 0 < differ < possible


def test_evaluate_on_the_votes_gives_the_posts_protocol_and_the_curves():
    X, y, names = datasets.load_house_votes()
    result = evaluate(X, y, names, {"criterion": "entropy"}, random_state=0, curve_runs=2)
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
        ({"min_gain": -1}, "min_gain"),
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
    with pytest.raises(RuntimeError, match="not fitted"):
        ID3().predict([["a"]])
    with pytest.raises(ValueError, match="fitted with 1"):
        ID3().fit([["a"]], ["x"]).predict([["a", "b"]])
    with pytest.raises(ValueError, match="its values are"):
        ID3().fit_layout([["a"]], ["x"], {"x0": {"zz": {}}})


def test_fit_returns_self_and_deepcopy_gives_an_independent_tree():
    X, y, names = datasets.load_play_tennis()
    tree = ID3()
    assert tree.fit(X, y, names) is tree
    twin = copy.deepcopy(tree)
    twin.prune(X[:3], ["Yes", "Yes", "Yes"])
    assert tree.n_nodes_ == 8


# --------------------------------------------------------------------------------------------
# Uploaded CSV files
# --------------------------------------------------------------------------------------------


def test_a_good_csv_becomes_a_table():
    text = "Outlook;Wind;Play\nSunny;Weak;No\nRain;;Yes\nOvercast;Strong;Yes\n\n"
    table = parse_categorical_csv(text.encode())
    assert table.columns == ["Outlook", "Wind", "Play"]
    X, y, names = table.split("Play")
    assert names == ["Outlook", "Wind"] and y.tolist() == ["No", "Yes", "Yes"]
    assert X[1].tolist() == ["Rain", "?"]  # an empty cell is missing
    assert ID3().fit(X, y, names).predict([["Sunny", "Weak"]]).tolist() == ["No"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not text"),
        ("a,b\n1,2\n".encode("utf-16"), "not text|not UTF-8"),
        (b"\xff\xfeab,c\n", "not UTF-8"),
        (b"only\nx\ny\n", "at least two are needed"),
        (b"a,b\nx,y\n", "at least two are needed"),
        (b"a,a\nx,y\nz,w\n", "more than once"),
        (b"a,,c\nx,y,z\nz,w,q\n", "no name"),
        (b"a,b,c\nx,y,z\np,q\nr,s,t\n", "line 3 has 2 fields"),
        (b"a,b\n" + b"x,y\n" * 6000, "limit is 5,000"),
        (b"a,b\n" + b"x,y\n" * 300_000, "limit is 1,000,000 bytes"),
    ],
)
def test_bad_csv_files_give_clear_errors(data, message):
    with pytest.raises(ValueError, match=message):
        parse_categorical_csv(data)


def test_csv_label_and_category_checks():
    table = parse_categorical_csv(b"f,label\nx,Yes\ny,\nz,No\n")
    with pytest.raises(ValueError, match="empty in data row"):
        table.split("label")
    with pytest.raises(ValueError, match="is not a column"):
        table.split("nope")
    many = "n,label\n" + "".join(f"{i},{'AB'[i % 2]}\n" for i in range(60))
    with pytest.raises(ValueError, match="60 different values"):
        parse_categorical_csv(many).split("label")


# --------------------------------------------------------------------------------------------
# The 1984 congressional votes
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def votes():
    return datasets.load_house_votes()


def test_votes_posts_protocol_reaches_95_percent(votes):
    X, y, names = votes
    missing = rows_with_missing(X)
    assert (int((~missing).sum()), int(missing.sum())) == (232, 203)
    tree = ID3().fit(X[~missing], y[~missing], names)
    assert tree.score(X[missing], y[missing]) >= 0.95  # 0.961 (195 of 203)
    assert tree.root_.feature == "physician-fee-freeze"


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
