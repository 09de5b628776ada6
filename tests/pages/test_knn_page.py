"""The k-NN page in AppTest: its widgets at their extremes, the player's data, the lesson's claims."""

import json
import struct

import numpy as np
import pytest
from conftest import assert_no_exception, open_page

from classic.knn import METRICS, TIE_RULE, WEIGHTS, KNNClassifier, knn_textbook, pairwise_distances, vote
from classic.viz import knn as view
from classic.viz import knn_lesson as lesson


@pytest.fixture(scope="module")
def page():
    return open_page("knn")


def payload(at) -> tuple[dict, dict]:
    """The player's header and binary parts, decoded as the browser does."""
    data = at.get("bidi_component")[0].proto.bytes
    (length,) = struct.unpack("<I", data[:4])
    header = json.loads(data[4 : 4 + length])
    base = 4 + length + (-(4 + length) % 4)
    parts = {name: data[base + at_ : base + at_ + size] for name, (at_, size) in header["parts"].items()}
    return header, parts


def facts(at) -> str:
    """The caption under the query's neighbours: training accuracy and the number of points."""
    return next(c.value for c in at.caption if c.value.startswith("Training accuracy"))


def caption_accuracy(at) -> float:
    return float(facts(at).split(": ")[1].split("%")[0])


def test_default_view_is_the_posts_data_and_query(page):
    assert_no_exception(page)
    assert page.title[0].value == "k-nearest neighbours"
    assert page.selectbox(key="knn_data").value == lesson.POST
    # The post's example: 50 + 50 points, k = 8, the query (−3, 0).
    assert page.slider(key="knn_k").value == 8
    assert (page.number_input(key="knn_qx").value, page.number_input(key="knn_qy").value) == (-3.0, 0.0)
    assert "· 100 points" in facts(page)
    header, parts = payload(page)
    assert header["n"] == 100 and np.bincount(header["labels"]).tolist() == [50, 50]
    assert header["k"] == 8 and header["query"] == [-3.0, 0.0]
    assert "table" in parts and len(parts["table"]) == view.RESOLUTION**2 * header["K"]
    # Equal classes: the page states the tie rule.
    assert any(TIE_RULE in i.value for i in page.info)


def test_the_player_table_votes_like_the_classifier():
    """Voting the first k labels of each cell (the player's job) gives the library's predictions."""
    at = open_page("knn")
    at.selectbox(key="knn_data").set_value("Moons").run()
    header, parts = payload(at)
    X = np.array(header["points"]).reshape(-1, 2)
    y = np.array(header["labels"])
    labels = np.frombuffer(parts["table"], np.uint8).reshape(view.RESOLUTION**2, header["K"])
    _, _, grid = view.view_grid(X)
    for k in (1, 2, 7, header["K"]):
        model = KNNClassifier(k=k).fit(X, y)
        distances, _ = model.kneighbors(grid)
        winner, _, _ = vote(labels[:, :k], distances, 2)
        assert np.mean(winner == model.predict(grid)) > 0.999  # equal-distance swaps at most


def test_a_rerun_sends_the_table_once(page):
    page.slider(key="knn_k").set_value(9).run()
    header, parts = payload(page)
    assert header["k"] == 9 and "table" not in parts  # the browser keeps the table it has
    page.selectbox(key="knn_metric").set_value("manhattan").run()
    assert "table" in payload(page)[1]
    page.selectbox(key="knn_metric").set_value("euclidean").run()


@pytest.mark.parametrize("k", [1, 100])
def test_k_at_both_ends(page, k):
    page.slider(key="knn_k").set_value(k).run()
    assert_no_exception(page)
    assert len(page.dataframe[0].value) == k


def test_k_equal_to_n_on_balanced_classes_agrees_everywhere(page):
    """k = n with 50 + 50: every vote ties; map, prediction and accuracy all give it to the nearest."""
    page.slider(key="knn_k").set_value(100).run()
    X = np.array(payload(page)[0]["points"]).reshape(-1, 2)
    y = np.array(payload(page)[0]["labels"])
    one = KNNClassifier(k=1).fit(X, y)
    assert caption_accuracy(page) == 100.0  # like 1-NN: each point's nearest tied neighbour is itself
    assert page.metric[0].value == f"class {one.predict([[-3.0, 0.0]])[0]}"
    assert "tie" in (page.metric[0].delta or "")
    page.slider(key="knn_k").set_value(8).run()


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("weights", WEIGHTS)
def test_every_metric_and_weighting(page, metric, weights):
    page.slider(key="knn_k").set_value(7)
    page.selectbox(key="knn_metric").set_value(metric)
    page.selectbox(key="knn_weights").set_value(weights).run()
    assert_no_exception(page)
    header, _ = payload(page)
    assert header["weighted"] == (weights != "uniform") and header["metric"] == metric
    if metric in ("cosine", "hamming"):
        assert "kdtree" not in page.selectbox(key="knn_algorithm").options
    if metric == "hamming":
        assert any("Hamming distance counts the coordinates" in w.value for w in page.warning)


@pytest.mark.parametrize("scaling", ["none", "min-max", "standardise"])
@pytest.mark.parametrize("algorithm", ["auto", "brute", "kdtree"])
def test_scaling_and_algorithm_on_weight_and_height(scaling, algorithm):
    at = open_page("knn")
    at.selectbox(key="knn_data").set_value(lesson.UNSCALED)
    at.selectbox(key="knn_scaling").set_value(scaling)
    at.selectbox(key="knn_algorithm").set_value(algorithm).run()
    assert_no_exception(at)
    # Unscaled, weight's larger range decides though only height tells the classes apart.
    assert (caption_accuracy(at) < 85) == (scaling == "none")


@pytest.mark.parametrize("name", [n for n in lesson.DATA_NAMES if n != lesson.YOURS])
def test_every_data_set_has_exactly_n_points(name):
    at = open_page("knn")
    at.selectbox(key="knn_data").set_value(name).run()
    if name in lesson.MANY_CLASSES:
        at.slider(key="knn_classes").set_value(3)
    for n in (20, 130):
        at.slider(key="knn_points").set_value(n).run()
        assert_no_exception(at)
        assert f"· {n} points" in facts(at)


def test_k_of_1000_on_1000_points_is_voted_on_the_server():
    at = open_page("knn")
    at.slider(key="knn_points").set_value(1000).run()
    at.slider(key="knn_k").set_value(1000)
    at.selectbox(key="knn_weights").set_value("gaussian").run()
    assert_no_exception(at)
    assert "· 1000 points" in facts(at)
    header, parts = payload(at)
    assert header["K"] < 1000 and len(parts["winners"]) == view.SERVER_RESOLUTION**2
    X = np.array(header["points"]).reshape(-1, 2)
    _, _, grid = view.view_grid(X, view.SERVER_RESOLUTION)
    model = KNNClassifier(k=1000, weights="gaussian").fit(X, np.array(header["labels"]))
    assert np.frombuffer(parts["winners"], np.uint8).tolist() == model.predict(grid).tolist()


@pytest.mark.parametrize("value", [1e308, -1e308])
def test_a_query_far_away_is_clipped_with_a_note(page, value):
    page.number_input(key="knn_qx").set_value(value).run()
    assert_no_exception(page)
    assert any("kept within" in w.value for w in page.warning)
    page.number_input(key="knn_qx").set_value(-3.0).run()


def test_the_k_d_tree_tab_measures_fewer_distances_and_states_its_depth():
    at = open_page("knn")
    at.session_state["knn_tab"] = "k-d tree"
    at.slider(key="knn_points").set_value(1000).run()
    assert_no_exception(at)
    measured = at.metric[1].value
    assert int(measured.split(" of ")[0]) < 1000
    assert any("Depth 9 for 1000 points" in m.value and "O(d lg n)" in m.value for m in at.markdown)
    at.selectbox(key="knn_metric").set_value("cosine").run()
    assert any("Minkowski metrics only" in i.value for i in at.info)


def test_your_points_start_with_twelve_and_a_click_can_add():
    at = open_page("knn")
    at.selectbox(key="knn_data").set_value(lesson.YOURS).run()
    assert_no_exception(at)
    assert "· 12 points" in facts(at)
    at.toggle(key="knn_add").set_value(True).run()
    assert_no_exception(at)
    assert payload(at)[0]["mode"] == "add"


def test_every_try_this_reveal_matches_the_library():
    at = open_page("knn")
    steps = lesson.try_this_steps()
    for i, step in enumerate(steps, start=1):
        at.radio(key=f"knn_try_{i}").set_value(step["answer"]).run()
        assert any(step["answer"] in s.value for s in at.success)
    # Recomputed here with the library alone.
    X, y = lesson.lesson_data("Moons", 200, 2, 0)
    _, _, grid = view.view_grid(X)
    one, two = (KNNClassifier(k=k).fit(X, y).predict(grid) for k in (1, 2))
    assert (steps[1]["answer"] == "Not at all") == bool(np.all(one == two))
    Xp, yp = lesson.lesson_data(lesson.POST, 100, 2, 0)
    assert np.unique(pairwise_distances([[-3.0, 0.0]], Xp, "hamming")).tolist() == [1.0]
    assert steps[5]["answer"].startswith("One")
    Xu, _ = lesson.lesson_data(lesson.UNSCALED, 200, 2, 0)
    assert steps[3]["answer"].startswith("x₁") and Xu[:, 0].std() > 10 * Xu[:, 1].std()


def test_the_textbook_knn_shown_predicts_what_the_fast_one_does():
    """The few lines "How it works" shows, ties included (k = 2, k = n), against KNNClassifier."""
    X, y = lesson.lesson_data(lesson.POST, 100, 2, 0)
    queries = np.random.default_rng(0).uniform(-7, 7, size=(60, 2))
    for k in (1, 2, 8, 100):
        fast = KNNClassifier(k=k).fit(X, y).predict(queries)
        assert fast.tolist() == [knn_textbook(X, y, q, k) for q in queries]


@pytest.mark.parametrize("edit", [e for e in lesson.EDITS if lesson.EDITS[e]])
def test_edited_knn_draws_the_dropped_points_and_compares_accuracy(edit):
    at = open_page("knn")
    at.selectbox(key="knn_data").set_value("Moons")
    at.slider(key="knn_points").set_value(300)
    at.selectbox(key="knn_edit").set_value(edit).run()
    assert_no_exception(at)
    header, _ = payload(at)
    X = np.array(header["points"] + header["dropped"]).reshape(-1, 2)
    assert len(header["droppedLabels"]) > 0 and len(X) == 300
    kept = len(header["labels"])
    assert f"· {kept} points" in facts(at)
    assert any(c.value.startswith("Held-out accuracy") for c in at.caption)
    if "Hart" in edit:  # a consistent subset: 1-NN on the kept points gets every point right
        model = KNNClassifier(k=1).fit(np.array(header["points"]).reshape(-1, 2), header["labels"])
        all_labels = np.array(header["labels"] + header["droppedLabels"])
        assert model.score(X, all_labels) == 1.0


def test_a_try_this_step_sets_up_its_view():
    at = open_page("knn")
    at.button(key="knn_try_1_setup").click().run()
    assert_no_exception(at)
    assert at.selectbox(key="knn_data").value == "Moons" and at.slider(key="knn_k").value == 51
    assert "· 200 points" in facts(at) and payload(at)[0]["k"] == 51


def test_the_map_for_slides_is_built_as_a_png():
    X, y = lesson.lesson_data(lesson.POST, 100, 2, 0)
    png = view.regions_png(
        X, y, KNNClassifier(k=100).fit(X, y), np.ones(2), np.zeros(2), ["a", "b"], "k = 100"
    )
    assert png.startswith(b"\x89PNG")
