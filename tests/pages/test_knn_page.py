"""The k-NN page in AppTest: its widgets at their extremes, the player's data, the lesson's claims."""

import json
import struct

import numpy as np
import pytest
from conftest import assert_no_exception, open_page

from classic.knn import (
    METRICS,
    TIE_RULE,
    WEIGHTS,
    KNNClassifier,
    knn_textbook,
    leave_one_out_accuracy,
    pairwise_distances,
    vote,
)
from classic.lessons import knn as lesson
from classic.viz import knn as view
from pages.widgets.points import decode_points, encode_points


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


def test_new_data_at_n_1000_send_a_preview_then_the_full_table_when_the_player_asks():
    at = open_page("knn", params={"knn_points": 1000})
    header, parts = payload(at)
    cells, K = view.RESOLUTION**2, view.PREVIEW
    assert (header["K"], header["fullK"]) == (K, view.player_size(1000, False)) and header["fullK"] > 2 * K
    preview = np.frombuffer(parts["table"], np.uint8).reshape(cells, K)
    at.session_state["knn_player"] = {"need": header["fullId"]}  # the player's trigger, once it has painted
    at.run()
    header, parts = payload(at)
    full = np.frombuffer(parts["table"], np.uint8).reshape(cells, header["fullK"])
    assert header["tableId"] == header["fullId"] and header["K"] == header["fullK"]
    assert np.array_equal(full[:, :K], preview)  # the same nearest neighbours, nearest first
    at.session_state["knn_player"] = {}
    at.slider(key="knn_k").set_value(100).run()  # beyond the preview: the browser has the full table
    header, parts = payload(at)
    assert header["tableId"] == header["fullId"] and "table" not in parts
    at.number_input(key="knn_seed").increment().run()  # new data at k = 100 > PREVIEW: the full table
    header, parts = payload(at)
    assert header["K"] == header["fullK"] and len(parts["table"]) == cells * header["fullK"]


@pytest.mark.parametrize("k", [1, 100])
def test_k_at_both_ends(page, k):
    page.slider(key="knn_k").set_value(k).run()
    assert_no_exception(page)
    assert len(page.table[0].value) == k


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


def test_the_chosen_search_finds_the_query_and_the_fastest_paints_and_scores(monkeypatch):
    """Every search gives the same answers; a k-d tree asked for k ≈ n by every point of 1000 took
    seconds (the widget fuzz: 3.9 s a rerun). Only the query goes through the chosen one."""
    from classic.kdtree import KDTree

    asked = []
    query = KDTree.query
    monkeypatch.setattr(KDTree, "query", lambda self, *a, **kw: asked.append(1) or query(self, *a, **kw))
    at = open_page(
        "knn", params={"knn_points": 1000, "knn_algorithm": "kdtree", "knn_tab": "Accuracy against k"}
    )
    asked.clear()
    at.slider(key="knn_k").set_value(1000).run()
    assert_no_exception(at)
    assert len(asked) == 1  # this run's one query
    brute = open_page("knn", params={"knn_points": 1000, "knn_algorithm": "brute"})
    brute.slider(key="knn_k").set_value(1000).run()
    assert caption_accuracy(at) == caption_accuracy(brute)
    assert [str(m.value) for m in at.metric] == [str(m.value) for m in brute.metric]


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
    assert int(measured.split(" of ")[0]) < 1000 and at.metric[1].delta == ""
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


def _expected_answers() -> list[str]:
    """Every Try-this answer recomputed here from the library alone (the options are the
    lesson's; which one is right is decided by what the library and the map say)."""
    steps = lesson.try_this_steps()
    X, y = lesson.lesson_data("Moons", 200, 2, 0)
    _, _, grid = view.view_grid(X)
    a1, a51 = (KNNClassifier(k=k).fit(X, y).score(X, y) for k in (1, 51))
    one, two = (KNNClassifier(k=k).fit(X, y).decide(grid) for k in (1, 2))
    same = bool(np.all(one.label == two.label))
    # Leave-one-out by refitting without each point, for k = 1..100.
    right = np.zeros(100)
    for i in range(len(X)):
        rest = np.arange(len(X)) != i
        model = KNNClassifier(k=100).fit(X[rest], y[rest])
        distances, indices = model.kneighbors(X[i : i + 1])
        for k in range(1, 101):
            winner = vote(model.y_[indices[:, :k]], distances[:, :k], 2)[0][0]
            right[k - 1] += model.classes_[winner] == y[i]
    best = int(np.argmax(right)) + 1
    Xu, _ = lesson.lesson_data(lesson.UNSCALED, 200, 2, 0)
    Xp, yp = lesson.lesson_data(lesson.POST, 100, 2, 0)
    _, _, grid_p = view.view_grid(Xp)
    everyone = KNNClassifier(k=100).fit(Xp, yp).decide(grid_p)
    nearest = KNNClassifier(k=1).fit(Xp, yp).predict(grid_p)
    hamming = np.unique(pairwise_distances([[-3.0, 0.0]], Xp, "hamming"))
    chosen = [
        0 if a51 < a1 else 2,
        1 if same and two.tied.any() else 0 if same else 2,
        0 if best == 1 else 1 if best <= 25 else 2,
        0 if Xu[:, 0].std() > Xu[:, 1].std() else 1,
        2 if everyone.tied.all() and np.all(everyone.label == nearest) else 1,
        0 if len(hamming) == 1 else 1 if len(hamming) <= 3 else 2,
    ]
    return [step["options"][c] for step, c in zip(steps, chosen, strict=True)]


def test_every_try_this_reveal_matches_the_library():
    at = open_page("knn")
    steps = lesson.try_this_steps()
    expected = _expected_answers()
    assert len(steps) == len(expected) == 6
    for i, (step, answer) in enumerate(zip(steps, expected, strict=True), start=1):
        at.radio(key=f"knn_try_{i}").set_value(answer).run()
        assert any(s.value == f"Right: **{answer}**. {step['why']}" for s in at.success), (i, answer)
    # The map greys every tied cell: the k = 2 answer says some turn grey, the k = n one all.
    assert "grey" in expected[1] and "Grey everywhere" in expected[4]
    X, y = lesson.lesson_data("Moons", 200, 2, 0)
    share = KNNClassifier(k=2).fit(X, y).decide(view.view_grid(X)[2]).tied.mean()
    assert 0 < share < 0.2 and f"{share:.1%} of the cells" in steps[1]["why"]
    assert "100% of the cells are tied" in steps[4]["why"]


def test_every_try_this_setup_gives_the_view_its_question_is_about():
    at = open_page("knn")
    steps = lesson.try_this_steps()
    for i, step in enumerate(steps, start=1):
        # A view far from the step's: other data, a moved query, weights, an editing.
        at.selectbox(key="knn_data").set_value("XOR").run()
        at.number_input(key="knn_qx").set_value(1.5)
        at.number_input(key="knn_qy").set_value(-1.25)
        at.selectbox(key="knn_weights").set_value("distance")
        at.selectbox(key="knn_edit").set_value(list(lesson.EDITS)[1]).run()
        at.button(key=f"knn_try_{i}_setup").click().run()
        assert_no_exception(at)
        for key, value in step["setup"].items():
            assert at.session_state[key] == value, (i, key)
        header, _ = payload(at)
        assert header["k"] == step["setup"]["knn_k"] and header["n"] == step["setup"]["knn_points"]
        assert header["query"] == [step["setup"]["knn_qx"], step["setup"]["knn_qy"]]
        assert not header["droppedLabels"] and not header["weighted"]
    # The Hamming step asks about the query (−3, 0): its view has that query.
    assert "(−3, 0)" in steps[5]["question"] and payload(at)[0]["query"] == [-3.0, 0.0]
    assert payload(at)[0]["metric"] == "hamming"
    # 100 points then 200: the remade k slider took the link's k = 100 over the step's k.
    for i in (5, 3):
        at.button(key=f"knn_try_{i}_setup").click().run()
        assert at.slider(key="knn_k").value == payload(at)[0]["k"] == steps[i - 1]["setup"]["knn_k"]


def test_the_tie_note_follows_the_classes_and_k():
    at = open_page("knn")
    at.selectbox(key="knn_data").set_value(lesson.CLUSTERS).run()
    at.slider(key="knn_classes").set_value(3)
    at.slider(key="knn_k").set_value(5).run()
    header, _ = payload(at)
    X, y = np.array(header["points"]).reshape(-1, 2), np.array(header["labels"])
    assert np.bincount(y).tolist() == [34, 33, 33]
    assert KNNClassifier(k=5).fit(X, y).decide(view.view_grid(X)[2]).tied.sum() > 0
    assert any(TIE_RULE in i.value for i in at.info)
    at.selectbox(key="knn_data").set_value("Moons").run()
    for k, note in ((5, False), (6, True)):
        at.slider(key="knn_k").set_value(k).run()
        assert any(TIE_RULE in i.value for i in at.info) == note, k
    at.selectbox(key="knn_weights").set_value("distance").run()
    assert not any(TIE_RULE in i.value for i in at.info)  # 1/d totals tie on lines only


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
    """The step about k = 1 → 51 opens at k = 1: the asked view comes before the answer."""
    at = open_page("knn")
    at.button(key="knn_try_1_setup").click().run()
    assert_no_exception(at)
    assert at.selectbox(key="knn_data").value == "Moons" and at.slider(key="knn_k").value == 1
    assert "· 200 points" in facts(at) and payload(at)[0]["k"] == 1


def ask(i: int, tab: str | None = None):
    """The page with step ``i`` set up ("Set up this view"), the lower tab ``tab`` open."""
    at = open_page("knn", params={"knn_tab": tab} if tab else None)
    at.button(key=f"knn_try_{i}_setup").click().run()
    assert_no_exception(at)
    return at


def reveal(at, i: int) -> None:
    """Choose step ``i``'s answer: the page then shows everything."""
    at.radio(key=f"knn_try_{i}").set_value(at.session_state["knn_try_steps"][i - 1].answer).run()
    assert_no_exception(at)


def withheld_notes(at) -> list[str]:
    return [c.value for c in at.caption if "hidden until the answer is revealed" in c.value]


def test_the_k_from_1_to_51_step_hides_the_intros_answer_and_the_curves_until_revealed():
    at = ask(1)
    assert not any(lesson.INTRO_K in m.value for m in at.markdown)
    assert not at.get("vega_lite_chart")  # the training curve falls with k: the answer
    assert any(n.startswith(":material/visibility_off: The accuracy against k") for n in withheld_notes(at))
    reveal(at, 1)
    assert any(lesson.INTRO_K in m.value for m in at.markdown)
    assert accuracy_chart(at)[0]["layer"] and not withheld_notes(at)


def test_the_k_2_step_hides_the_ties_in_the_player_the_prediction_and_the_notes():
    at = ask(2)
    header, _ = payload(at)
    assert header["k"] == 2 and header["hide"] == ["ties"]
    assert not any(TIE_RULE in i.value for i in at.info)
    assert not at.metric[0].delta  # the query's 1–1 vote: no "a tie" under the prediction
    assert any("how it shows tied votes" in n for n in withheld_notes(at))
    reveal(at, 2)
    assert payload(at)[0]["hide"] == [] and any(TIE_RULE in i.value for i in at.info)
    assert at.metric[0].delta == lesson.TIE_DELTA and not withheld_notes(at)


def test_the_best_k_step_opens_away_from_the_best_k_with_the_training_curve_alone():
    """The step used to set k at the answer and draw the leave-one-out curve with its best k."""
    at = ask(3, tab="k-d tree")
    X, y = lesson.lesson_data("Moons", 200, 2, 0)
    loo = leave_one_out_accuracy(X, y, np.arange(1, 101))
    best = int(np.argmax(loo)) + 1
    assert at.slider(key="knn_k").value == 1 != best
    spec, rows = accuracy_chart(at)  # the step opens the accuracy tab
    assert {r["curve"] for r in rows} == {"training"} and len(spec["layer"]) == 1
    assert not any("Leave-one-out accuracy is" in m.value for m in at.markdown)
    reveal(at, 3)
    spec, rows = accuracy_chart(at)
    assert {r["curve"] for r in rows} == {"training", "held-out (30%)", "leave-one-out"}
    assert any(lesson.best_k_text(best, loo.max()) in m.value for m in at.markdown)


def test_the_scaling_step_hides_the_stripes_and_the_rings_round_the_neighbours():
    at = ask(4, tab="k-d tree")
    header, _ = payload(at)
    assert header["hide"] == ["regions", "neighbours"]
    assert not at.get("vega_lite_chart")  # the k-d tree's rings show the neighbours too
    assert not any(b.label == "Map for slides (PNG)" for b in at.get("download_button"))
    reveal(at, 4)
    assert payload(at)[0]["hide"] == [] and at.get("vega_lite_chart")
    assert any(b.label == "Map for slides (PNG)" for b in at.get("download_button"))


def test_the_k_equal_n_step_hides_the_grey_map_its_tie_and_the_training_accuracy():
    at = ask(5)
    header, _ = payload(at)
    assert header["k"] == header["n"] == 100 and header["hide"] == ["regions", "ties"]
    assert not any(c.value.startswith("Training accuracy") for c in at.caption)
    assert not any(TIE_RULE in i.value for i in at.info) and not at.metric[0].delta
    reveal(at, 5)
    assert payload(at)[0]["hide"] == [] and caption_accuracy(at) == 100.0
    assert any(TIE_RULE in i.value for i in at.info)


def test_the_hamming_step_hides_the_neighbours_distances_and_the_metrics_note():
    """Every distance in the neighbour table read 1.0000 while the class was asked how many there
    are (and the neighbours 0, 1, 2, … in order say the same): the table waits for the reveal."""
    at = ask(6)
    assert not at.table
    assert not any("Hamming distance counts" in w.value for w in at.warning)
    assert payload(at)[0]["hide"] == ["regions", "neighbours"]
    reveal(at, 6)
    distances = at.table[0].value["distance"]
    assert len(distances) == 8 and set(distances) == {1.0}
    assert any("Hamming distance counts" in w.value for w in at.warning)


def test_the_classes_slider_is_there_only_for_the_data_sets_whose_classes_it_sets():
    """It used to show greyed out for every two-class data set."""
    at = open_page("knn")
    for name in lesson.DATA_NAMES:
        at.selectbox(key="knn_data").set_value(name).run()
        assert_no_exception(at)
        sliders = [s for s in at.slider if s.key == "knn_classes"]
        assert len(sliders) == (name in lesson.MANY_CLASSES), name
    at.selectbox(key="knn_data").set_value(lesson.CLUSTERS).run()
    at.slider(key="knn_classes").set_value(4).run()
    assert len(set(payload(at)[0]["labels"])) == 4


def test_the_map_for_slides_is_built_as_a_png():
    X, y = lesson.lesson_data(lesson.POST, 100, 2, 0)
    png = view.regions_png(
        X, y, KNNClassifier(k=100).fit(X, y), np.ones(2), np.zeros(2), ["a", "b"], "k = 100"
    )
    assert png.startswith(b"\x89PNG")


def test_the_editing_menu_credits_the_post_with_wilsons_editing_only():
    at = open_page("knn")
    menu = at.selectbox(key="knn_edit")
    assert menu.label == lesson.EDIT_LABEL and "enhancement" not in menu.label
    wilson, hart = (next(o for o in menu.options if o.startswith(name)) for name in ("Wilson", "Hart"))
    assert "the post's" in wilson and "not from the post" in hart and "keeps the boundary" in hart


def test_your_points_from_a_csv_file_a_bad_file_and_the_link():
    at = open_page("knn", params={"knn_data": lesson.YOURS})
    assert_no_exception(at)
    csv = b"x1,x2,label\n0,0,red\n1,0.5,blue\n0.25,1,red\n-1,2,green\n"
    at.get("file_uploader")[0].upload("mine.csv", csv, "text/csv").run()
    assert_no_exception(at)
    header, _ = payload(at)
    assert header["points"] == [0.0, 0.0, 1.0, 0.5, 0.25, 1.0, -1.0, 2.0]
    assert header["n"] == 4 and len(set(header["labels"])) == 3
    assert header["labels"][0] == header["labels"][2] != header["labels"][1]
    assert "· 4 points" in facts(at)
    link = at.query_params["knn_user_points"]
    assert (
        decode_points(link if isinstance(link, str) else link[-1], 5)[0].ravel().tolist() == header["points"]
    )
    at.get("file_uploader")[0].upload("bad.csv", b"x1,x2,label\nabc,0,a\n1,1,b\n", "text/csv").run()
    assert_no_exception(at)
    assert any(e.value.startswith("`bad.csv` could not be read") for e in at.error)
    assert payload(at)[0]["n"] == 4  # the points stay as they were
    # A link with points: they arrive on the page as they were written.
    X, y = lesson.starter_points()
    X, y = np.vstack([X, [[3.5, -1.25]]]), np.append(y, 2)
    at = open_page("knn", params={"knn_data": lesson.YOURS, "knn_user_points": encode_points(X, y)})
    assert_no_exception(at)
    header, _ = payload(at)
    assert header["points"] == X.round(2).ravel().tolist() and header["labels"] == y.tolist()
    assert "· 13 points" in facts(at) and not at.warning


def accuracy_chart(at) -> tuple[dict, list[dict]]:
    """The accuracy-against-k chart's Vega-Lite spec and its curves' rows (Streamlit sends a
    spec's named data sets beside it, as Arrow tables)."""
    import pyarrow as pa

    chart = next(c for c in at.get("vega_lite_chart") if any(d.name == "curves" for d in c.proto.datasets))
    data = next(d for d in chart.proto.datasets if d.name == "curves").data.data
    return json.loads(chart.proto.spec), pa.ipc.open_stream(data).read_all().to_pylist()


@pytest.mark.parametrize(
    ("data", "points", "last_k"), [("Moons", 100, 70), ("Moons", 200, 100), (None, 1000, 100)]
)
def test_the_accuracy_axis_is_zoomed_to_the_curves_and_k_runs_to_100(data, points, last_k):
    """On 0–100% curves between 80% and 100% were flat lines at the top and k stopped at 60: the
    axis now starts just under the lowest value and says so, and k runs to 100 (or to the size
    of the 70% training part, as far as the held-out curve can go)."""
    params = {"knn_points": points, "knn_tab": "Accuracy against k"} | ({"knn_data": data} if data else {})
    at = open_page("knn", params=params)
    assert_no_exception(at)
    spec, rows = accuracy_chart(at)
    values = [r["accuracy"] for r in rows]
    low, high = spec["layer"][0]["encoding"]["y"]["scale"]["domain"]
    assert 0.5 < low <= min(values) - 0.02 < min(values) - 0.02 + 0.05 + 1e-9 and high >= max(values)
    assert high - low <= 2 * (max(values) - min(values)) + 0.09  # zoomed: no more than twice the spread
    assert spec["title"]["text"] == f"Accuracy against k: the accuracy axis starts at {low:.0%}, not 0"
    ticks = spec["layer"][0]["encoding"]["y"]["axis"]["values"]
    assert low <= ticks[0] < low + 0.1 and max(ticks) <= 1 < max(ticks) + 0.1  # none at 102%
    for curve in ("training", "held-out (30%)", "leave-one-out"):
        assert [r["k"] for r in rows if r["curve"] == curve] == list(range(1, last_k + 1))


def test_the_k_d_tree_tab_shows_the_search_with_the_notes_test_and_no_arrows():
    """The search as the library records it: each split met on the way back as a row (|t − x|
    against the best distance so far, searched or pruned), the count of cells pruned in the
    text, and the measured count as a number without a delta (st.metric drew an "↑ brute force:
    100" arrow under it). The prediction's tie note has no arrow either."""
    from classic.kdtree import KDTree

    at = open_page("knn", params={"knn_tab": "k-d tree"})
    assert_no_exception(at)
    X, _ = lesson.lesson_data(lesson.POST, 100, 2, 0)
    found = KDTree(X).search([-3.0, 0.0], 8, p=2)
    measured = at.metric[1]
    assert measured.value == f"{len(found.measured)} of 100" and measured.delta == ""
    rows = at.table[-1].value
    assert rows.columns.tolist() == ["depth", "split", "|t − x|", "best so far", "far side"]
    assert len(rows) == len(found.decisions)
    for (_, row), decision in zip(rows.iterrows(), found.decisions, strict=True):
        assert float(row["|t − x|"]) == pytest.approx(decision.gap, abs=5e-4)
        assert row["far side"].startswith("searched" if decision.searched else "pruned")
    pruned = len(found.pruned)
    assert any(f"never entered **{pruned}** cells" in m.value for m in at.markdown)
    tie = open_page("knn", params={"knn_k": "100"})  # 50 + 50: every vote ties
    assert tie.metric[0].delta.startswith("a tie") and tie.metric[0].proto.direction == 2  # NONE: no arrow


def test_weight_and_height_name_their_axes_in_the_player_and_the_k_d_tree():
    """Issue 26 (15): the unscaled data's axes are weight and height, not x₁ and x₂."""
    names = lesson.axis_titles(lesson.UNSCALED)
    assert "weight" in names[0] and "height" in names[1]
    at = open_page("knn", params={"knn_data": lesson.UNSCALED, "knn_tab": "k-d tree"})
    assert_no_exception(at)
    header, _ = payload(at)
    assert (header["xlabel"], header["ylabel"]) == names
    specs = [json.loads(chart.proto.spec) for chart in at.get("vega_lite_chart")]
    titles = {(s["encoding"]["x"].get("title"), s["encoding"]["y"].get("title")) for s in _layers(specs)}
    assert names in titles
    at.selectbox(key="knn_data").set_value("Moons").run()
    header, _ = payload(at)
    assert (header["xlabel"], header["ylabel"]) == ("x₁", "x₂")


def test_weights_and_heights_are_positive_and_the_query_starts_among_them():
    """The data set had weights down to −300 and heights down to −4; its query started at (0, 0)."""
    at = open_page("knn", params={"knn_data": lesson.UNSCALED, "knn_points": 1000})
    assert_no_exception(at)
    header, _ = payload(at)
    weight, height = np.array(header["points"]).reshape(-1, 2).T
    assert 25 < weight.min() and weight.max() < 120 and 1.3 < height.min() and height.max() < 2.1
    assert "(kg)" in header["xlabel"] and "(m)" in header["ylabel"]
    (qx, qy), (x0, x1), (y0, y1) = header["query"], header["xlim"], header["ylim"]
    assert weight.min() < qx < weight.max() and height.min() < qy < height.max()
    assert x0 < qx < x1 and y0 < qy < y1


def _layers(specs):
    """Every (sub)spec with an x and a y encoding."""
    for spec in specs:
        yield from _layers(spec.get("layer", []))
        if "x" in spec.get("encoding", {}) and "y" in spec.get("encoding", {}):
            yield spec
