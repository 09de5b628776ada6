"""The ID3 estimator (classic.id3): the classic trees, missing-value rules, pruning, rules, its
parameters and contract, the 1984 votes, scikit-learn as an oracle."""

import copy

import numpy as np
import pytest

from classic import datasets
from classic._validation import NotFittedError
from classic.criteria import (
    entropy,
)
from classic.evaluation import cross_val_score, stratified_folds, train_test_split
from classic.id3 import ID3, PrunedID3
from classic.lessons.tree_sources import (
    fit_layout,
)


@pytest.fixture
def votes(data_home):
    return datasets.load_house_votes(data_home)


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
