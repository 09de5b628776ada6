"""classic.viz.tree_figures: the step player's JSON, the split tables and the regions of a tree,
checked against the fitted tree itself (hand-checkable cases and invariants)."""

import math

import numpy as np
import pytest

from classic import criteria, datasets, id3
from classic.lessons import tree as lesson
from classic.viz import tree_figures as figures


def test_a_split_table_adds_up_from_its_terms_in_bits_and_in_nats():
    X, y, names = datasets.load_play_tennis()
    model = id3.ID3().fit(X, y, names)
    for step in model.steps_:
        for base in (2.0, math.e):
            table, terms = figures.split_table(step, base), figures.split_terms(step, base)
            h = next(name for name in terms if name.startswith("H ("))
            for test, after, gain, before in zip(
                table["test"], table[f"{h} after"], table["gain"], table[f"{h} before"], strict=True
            ):
                rows = [i for i, t in enumerate(terms["test"]) if t == test]
                weights = [int(a) / int(b) for a, b in (terms["weight"][i].split("/") for i in rows)]
                total = sum(w * float(terms[h][i]) for w, i in zip(weights, rows, strict=True))
                assert total == pytest.approx(after, abs=5e-4) and gain == pytest.approx(before - after)
    root = figures.split_table(model.steps_[0])
    assert root["test"][root["chosen"].index(True)] == "Outlook"
    assert figures.number(root["gain"][0]) == "0.2467"  # Mitchell's Gain(S, Outlook) = 0.246


def test_the_slides_hasKids_numbers_in_both_bases():
    X, y, names = datasets.load_has_kids()
    step = id3.ID3().fit(X, y, names).steps_[0]
    bits, nats = figures.split_table(step), figures.split_table(step, math.e)
    assert [figures.number(bits[k][0]) for k in ("H (bits) before", "H (bits) after", "gain")] == [
        "1.0000",
        "0.6887",
        "0.3113",
    ]
    assert figures.number(nats["H (nats) after"][0]) == "0.4774"
    assert figures.split_terms(step, math.e)["H (nats)"] == ["0.0000", "0.6365"]
    assert figures.split_terms(step)["H (bits)"] == ["0.0000", "0.9183"]


def test_the_slides_two_tests_table_and_terms_are_one_computation_under_each_criterion():
    X, y, names = datasets.load_two_tests()
    step = id3.ID3().fit(X, y, names).steps_[0]
    table, terms = figures.split_table(step), figures.split_terms(step)
    assert table["test"] == ["Test1", "Test2"] and table["chosen"] == [True, False]
    for test, after in zip(table["test"], table["H (bits) after"], strict=True):
        rows = [i for i, t in enumerate(terms["test"]) if t == test]
        known = sum(terms["rows"][i] for i in rows)
        assert known == 40
        total = sum(terms["rows"][i] / known * float(terms["H (bits)"][i]) for i in rows)
        assert after == pytest.approx(total, abs=5e-4)  # terms printed to 4 places
    first = [(terms["branch"][i], terms["rows"][i], terms["H (bits)"][i], terms["weight"][i]) for i in (0, 1)]
    assert first == [("F", 10, "0.0000", "10/40"), ("T", 30, "0.9183", "30/40")]  # [10+, 0−], [20+, 10−]
    ratio = figures.split_table(id3.ID3(criterion="gain_ratio").fit(X, y, names).steps_[0])
    assert ratio["gain ratio"][0] == pytest.approx(ratio["gain"][0] / ratio["split information"][0])
    assert figures.number(ratio["gain ratio"][0]) == figures.number(0.1226 / 0.8113)
    gini = figures.split_table(id3.ID3(criterion="gini").fit(X, y, names).steps_[0])
    assert "Gini before" in gini and "H (bits) before" not in gini


def test_on_the_votes_the_table_and_the_terms_agree_with_missing_values(data_home):
    X, y, names = datasets.load_house_votes(data_home)
    step = id3.ID3().fit(X, y, names).steps_[0]
    table, terms = figures.split_table(step), figures.split_terms(step)
    assert len(table["test"]) == 16
    for k, test in enumerate(table["test"]):
        rows = [i for i, t in enumerate(terms["test"]) if t == test]
        known = [i for i in rows if terms["weight"][i] != "no branch"]
        lost = sum(terms["rows"][i] for i in rows if terms["weight"][i] == "no branch")
        n_known = sum(terms["rows"][i] for i in known)
        column = X[:, names.index(test)]
        assert (n_known, lost) == (int((column != "?").sum()), int((column == "?").sum()))
        assert table["known share"][k] == pytest.approx(n_known / 435)
        after = sum(terms["rows"][i] / n_known * float(terms["H (bits)"][i]) for i in known)
        assert after == pytest.approx(table["H (bits) after"][k], abs=5e-4)  # terms printed to 4 places
        before = table["H (bits) before"][k]
        assert table["known-share gain"][k] == pytest.approx(
            n_known / 435 * (before - table["H (bits) after"][k])
        )
        assert table["known-share gain"][k] == pytest.approx(criteria.score_split(column, y).gain, abs=1e-15)


def test_missing_values_are_listed_as_no_branch():
    X = np.array([["a"], ["a"], ["b"], ["?"]])
    step = id3.ID3().fit(X, ["x", "x", "y", "y"], ["f"]).steps_[0]
    terms = figures.split_terms(step)
    assert terms["branch"] == ["a", "b", "?"] and terms["weight"] == ["2/3", "1/3", "no branch"]
    assert terms["rows"] == [2, 1, 1]
    assert figures.split_table(step)["known share"] == [pytest.approx(0.75)]


def test_leaf_boxes_tile_the_plane_and_hold_their_points():
    X, y = datasets.moons(200, 0.2, 0)
    model = id3.ID3().fit(X, y.astype(str), ["x1", "x2"])
    low, high = X.min(axis=0) - 0.1, X.max(axis=0) + 0.1
    boxes = figures.leaf_boxes(model, low, high)
    assert len(boxes) == model.n_leaves_
    area = sum((b["x2"] - b["x"]) * (b["y2"] - b["y"]) for b in boxes)
    assert area == pytest.approx(np.prod(high - low))  # boxes cover the frame without overlap
    by_leaf = {b["leaf"]: b for b in boxes}
    for point, leaf in zip(X, model.apply(X), strict=True):
        box = by_leaf[int(leaf)]
        assert box["x"] <= point[0] <= box["x2"] and box["y"] <= point[1] <= box["y2"]
        assert box["label"] == model.predict(point[None, :])[0]


def test_the_player_shows_a_pruned_tree_and_caps_a_huge_one():
    X, y, names = datasets.load_play_tennis()
    model = id3.PrunedID3(validation_fraction=0.3, random_state=1).fit(X, y, names)
    data = figures.player_data(model, start=99)
    assert len(data["nodes"]) == model.n_nodes_ and data["start"] == len(data["steps"])
    splits = sorted(n["split"] for n in data["nodes"] if n["split"] is not None)
    assert splits == list(range(len(data["steps"])))
    rng = np.random.default_rng(0)
    big = id3.ID3().fit(np.char.add("v", rng.integers(0, 30, (800, 6)).astype(str)), rng.integers(0, 3, 800))
    capped = figures.player_data(big)
    assert len(capped["nodes"]) <= figures.MAX_DRAWN_NODES < big.n_nodes_
    assert capped["note"].startswith(
        f"The tree is too big to draw whole: levels 0–{figures.drawn_depth(big)}"
    )


def test_numbers_print_four_places_without_a_negative_zero():
    assert figures.number(-1e-17) == "0.0000" and figures.number(0.91829583) == "0.9183"


def test_counts_agree_with_their_nouns_in_the_terms_the_summary_and_the_rules():
    assert [figures.plural(n, "row") for n in (0, 1, 2, 1500)] == ["0 rows", "1 row", "2 rows", "1,500 rows"]
    assert [figures.plural(n, "leaf", "leaves") for n in (1, 5)] == ["1 leaf", "5 leaves"]
    # "b" holds one row and one row misses the value: the player's terms say "1 row" twice.
    model = id3.ID3().fit(np.array([["a"], ["a"], ["b"], ["?"]]), ["x", "x", "y", "y"], ["f"])
    (step,) = figures.player_steps(model)
    assert step["terms"]["f"][1].startswith("b: 1 row (x 0 · y 1)")
    assert step["terms"]["f"][2] == "?: 1 row with the value missing (no branch)"
    assert step["terms"]["f"][0].startswith("a: 2 rows (")
    X, y, names = datasets.load_play_tennis()
    stump = id3.ID3(min_gain=0.5).fit(X, y, names)  # the best gain is 0.247: one leaf
    assert (stump.n_nodes_, stump.n_leaves_, len(stump.decision_path(X[0]))) == (1, 1, 1)
    assert lesson.summary(stump, X, y, 1).startswith("1 node, 1 leaf, depth 0; training accuracy 64.3%")
    assert "follows 1 node (outlined)" in lesson.summary(stump, X, y, 1)
    tree = id3.ID3().fit(X, y, names)
    assert lesson.summary(tree, X, y, 1).startswith(f"{tree.n_nodes_} nodes, {tree.n_leaves_} leaves")
    assert (
        lesson.rules_heading(len(stump.rules()))
        == "1 rule, one per leaf: the tree in disjunctive normal form."
    )
    assert lesson.rules_heading(len(tree.rules())).startswith("5 rules, one per leaf")


def test_the_data_table_never_repeats_a_column_name():
    """An upload's column named like the table's class column crashed the Data & rules tab
    (Arrow refuses two equal names); the class column takes a name no feature has."""
    import pyarrow as pa

    from classic.lessons.tree import data_frame

    frame = data_frame([["a", "b"], ["c", "d"]], ["no", "yes"], ["class ←", "class ←←"])
    assert list(frame.columns) == ["class ←", "class ←←", "class ←←←"]
    assert frame["class ←←←"].tolist() == ["no", "yes"]
    pa.Table.from_pandas(frame)


def test_a_large_table_is_evaluated_on_a_sample_and_the_toggle_says_so():
    """At the upload limits the evaluation (70 trees) took 27 s; above QUICK_EVALUATION cells the
    page evaluates a seeded sample of rows with 5 folds and one learning curve, and says so."""
    from classic.lessons import tree as lesson

    rng = np.random.default_rng(0)
    X = rng.integers(0, 40, (5000, 7)).astype(str)
    rows = lesson.evaluation_rows(X, seed=3)
    assert len(rows) == lesson.LARGE_EVALUATION_CELLS // 7 and len(np.unique(rows)) == len(rows)
    assert np.array_equal(rows, lesson.evaluation_rows(X, seed=3))
    assert "2,857 of the 5,000 rows" in lesson.evaluate_label(X, 3)
    votes = rng.choice(["y", "n", "?"], size=(435, 16))
    assert lesson.evaluation_rows(votes, 0) is None and lesson.evaluate_label(votes, 0) == lesson.EVALUATE
    y = np.where(X[:, 0] < "2", "a", "b")
    result = lesson.evaluate(X[:3000], y[:3000], [f"c{j}" for j in range(7)], {}, 0.25, 0)
    assert len(result.cv_unpruned) == 5 and len(result.cv_pruned) == 5 and len(result.curve_sizes) == 10


def test_the_player_steps_in_nats_are_the_bits_times_ln_2():
    X, y, names = datasets.load_play_tennis()
    model = id3.ID3().fit(X, y, names)
    bits, nats = figures.player_steps(model), figures.player_steps(model, math.e)
    for b, n in zip(bits, nats, strict=True):
        assert n["header"][1:] == [h.replace("bits", "nats") for h in b["header"][1:]]
        assert n["chosen"] == b["chosen"] and [r[0] for r in n["rows"]] == [r[0] for r in b["rows"]]
        for rb, rn in zip(b["rows"], n["rows"], strict=True):
            assert [float(v) for v in rn[1:]] == pytest.approx(
                [float(v) * math.log(2) for v in rb[1:]], abs=1e-4
            )


def test_the_regions_legend_is_above_the_plot_and_the_boxes_have_their_own_fill_scale():
    X, y = datasets.moons(60, 0.1, 0)
    X, y, names = lesson.point_table(X, y)
    spec = figures.regions_spec(id3.ID3().fit(X, y, names), X, y, 0)
    boxes, points = spec["layer"]
    assert spec["resolve"]["scale"]["fill"] == "independent"  # shared, the boxes' (no legend) hid it
    assert boxes["encoding"]["fill"]["legend"] is None
    assert points["encoding"]["color"]["legend"]["orient"] == "top"
    assert points["encoding"]["shape"]["legend"] == points["encoding"]["color"]["legend"]  # one legend
    assert points["params"][0]["select"]["nearest"] is True  # a click beside the points picks the nearest
