"""The grown tree (classic._id3_tree): its flat arrays, the Node objects read from them, and the
router that sends every row down at once."""

import numpy as np
import pytest

from classic import datasets
from classic.id3 import ID3


@pytest.fixture
def votes(data_home):
    return datasets.load_house_votes(data_home)


def test_apply_gives_the_leaf_of_each_row():
    X, y = datasets.xor(40, 0.1, 0)
    tree = ID3().fit(X, y)
    leaves = tree.apply(X)
    by_id = {node.id: node for node in tree._iter_nodes()}
    assert all(by_id[int(leaf)].is_leaf for leaf in leaves)
    assert [by_id[int(leaf)].label for leaf in leaves] == tree.predict(X).astype(str).tolist()


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
# Reading the tree as nodes
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
