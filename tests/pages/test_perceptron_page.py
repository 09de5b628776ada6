"""The perceptron page in AppTest: the lesson's numbers, the tabs, your points in the link, Try this,
and a fuzz of every widget at its extremes and in random combinations (only worded messages)."""

import json
import os
import random
import re

import numpy as np
import pandas as pd
import pytest
from conftest import ROOT, assert_no_exception, open_page

from classic import datasets
from classic.lessons import perceptron as lessons
from classic.lessons import points
from classic.lessons.perceptron import PASSES_TO_CONVERGE, best_line_accuracy, generalisation_runs
from classic.perceptron import Perceptron, mistake_bound
from classic.viz import perceptron as viz
from classic.viz import theme
from pages.widgets.points import MAX_URL_POINTS, decode_points, encode_points

DATA = [
    "Linearly separable (25 points, true line y = 1 − x)",
    "XOR (the four corners)",
    "XOR (noisy clusters)",
    "Gaussian clusters",
    "Three clusters (3 classes)",
    "Three classes in a row (the first at both ends)",
    "Your points (click to place)",
]
THREE, ROW, YOURS = DATA[4], DATA[5], DATA[6]
TABS = ["Every update", "When no line will do", "Does it generalise?", "More points, more mistakes?"]
# Every message the page may show: each a deliberate, worded one.
WORDED = (
    "Converged after",
    "The weights at update",
    "Not converged after",
    "The best any line can do",
    "The pocket still holds w = 0",
    "The perceptron needs points of both classes",
    "The points in this link could not be read",
    "Some settings in this link could not be used",
    "`",  # an uploaded file's name as a code span, then why it could not be read
)


def players(at) -> list:
    """The page's browser players (components.v2 components keyed pc_player; class mode adds its own)."""
    return [c for c in at.get("bidi_component") if c.key == "pc_player"]


def player_data(at) -> dict:
    """The JSON the page handed to the browser player."""
    return json.loads(players(at)[0].proto.json)


def walk(node):
    yield node
    for child in getattr(node, "children", {}).values():
        yield from walk(child)


def vega_specs(at) -> list[dict]:
    """Each Vega-Lite chart's spec, with ``frames``: its data as DataFrames (Streamlit sends it apart)."""
    from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df as frame

    specs = []
    for node in walk(at.main):
        if getattr(node, "type", "") == "vega_lite_chart":
            spec = json.loads(node.proto.spec)
            top = [frame(node.proto.data.data)] if node.proto.HasField("data") else []
            inline = [
                pd.DataFrame(layer["data"]["values"]) for layer in spec.get("layer", []) if "data" in layer
            ]
            spec["frames"] = top + [frame(d.data.data) for d in node.proto.datasets] + inline
            specs.append(spec)
    return specs


def open_link(**params):
    """The page opened from a link carrying ``params`` as query parameters."""
    from streamlit.testing.v1 import AppTest

    os.chdir(ROOT)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update(params)
    at.run()
    at.session_state["try_this"] = True  # its steps are drawn only when open
    at.switch_page("pages/perceptron.py")
    return at.run()


def messages(at) -> list[str]:
    return [m.value for kind in (at.success, at.error, at.warning, at.info) for m in kind]


def assert_only_worded_messages(at) -> None:
    assert_no_exception(at)
    for text in messages(at):
        assert text.lstrip("*").startswith(WORDED), text


def test_default_converges_with_the_posts_numbers():
    at = open_page("perceptron")
    assert_no_exception(at)
    assert player_data(at)["start"] == 0  # the player opens on its first frame, the verdict beside it
    verdict = at.success[0].value
    assert "Converged" in verdict and "Novikoff" in verdict
    data = player_data(at)
    assert len(data["updates"]) == 48 == int(re.search(r"after (\d+) updates", verdict).group(1))
    assert len(data["points"]) == 25 and data["theme"]["classes"] == theme.class_colors(2)
    assert data["verdict"]["kind"] == "good" and data["verdict"]["title"].startswith("Converged")
    w, b = np.array(data["updates"][-1]["w"]), data["updates"][-1]["b"]
    X, y = np.array(data["points"]), np.array(data["labels"])
    assert np.all(np.where(y == 1, 1, -1) * (X @ w + b) > 0)
    assert "https://" not in players(at)[0].proto.json  # nothing is fetched
    mistakes, alpha = vega_specs(at)
    assert mistakes["frames"][0]["mistakes"].tolist() == Perceptron().fit(X, y).mistakes_per_epoch_
    assert alpha["frames"][0]["alpha"].sum() == 48
    assert [b.label for b in at.get("download_button")] == ["Every update (CSV)"]
    assert all(n.proto.alt for n in walk(at.main) if getattr(n, "type", "") == "vega_lite_chart")


def test_only_the_open_tab_computes():
    at = open_page("perceptron")
    assert len(players(at)) == 1 and not at.metric
    at.session_state["pc_tab"] = TABS[2]
    at.run()
    assert_no_exception(at)
    assert not players(at) and at.metric[0].label == "Test accuracy (seed 0)"
    assert any("The post's 92.2% was one run" in c.value for c in at.caption)
    spread = vega_specs(at)[1]
    median = next(f for f in spread["frames"] if "at" in f)["at"][0]
    assert 0.93 <= median <= 0.98


def test_xor_cycle_pocket_and_the_best_line():
    at = open_page("perceptron")
    at.selectbox(key="pc_data").set_value(DATA[1]).run()
    assert "will never converge" in at.error[0].value
    data = player_data(at)
    assert data["cycle"] == [2, 6] and len(data["updates"]) == 6
    at.checkbox(key="pc_shuffle").check()
    at.session_state["pc_tab"] = TABS[1]
    at.run()
    assert_no_exception(at)
    best = best_line_accuracy(*datasets.xor())
    metrics = {m.label: m for m in at.metric}
    assert metrics["The best any line can do"].value == f"{best:.0%}" == "75%"
    assert metrics["The best any line can do"].help.startswith("3 of 4 strictly on their side")
    assert metrics["Pocket: the best seen"].value == "75%" and metrics["rbf kernel"].value == "100%"
    pocket, kernel = vega_specs(at)
    assert pocket["title"] == "Pocket: the best line seen, 75% right"
    assert [b.label for b in at.get("download_button")] == ["Pocket (PNG)"]
    assert kernel["title"] == "rbf kernel: 100% right, converged"
    at.selectbox(key="pc_kernel").set_value("polynomial").run()
    assert_no_exception(at)
    assert vega_specs(at)[1]["title"].startswith("polynomial kernel")


def test_the_bound_tab_sets_the_posts_claim_beside_novikoff():
    at = open_page("perceptron")
    at.session_state["pc_tab"] = TABS[3]
    at.run()
    assert_no_exception(at)
    assert "volume" in at.markdown[1].value and "(R/γ)²" in at.markdown[1].value
    table = at.table[0].value
    assert table["points"].tolist() == [25, 250, 2500]
    assert set(table["Novikoff's bound"]) == {"1,800"}


def test_your_points_undo_clear_and_the_link():
    at = open_page("perceptron")
    at.selectbox(key="pc_data").set_value(YOURS).run()
    assert_no_exception(at)
    assert len(player_data(at)["points"]) == 8
    at.button(key="pc_undo").click().run()
    assert len(player_data(at)["points"]) == 7
    assert not any(m.startswith("Some settings") for m in messages(at))  # changed points are no bad link
    link = at.query_params["pc_points"]
    X, y = decode_points(link if isinstance(link, str) else link[-1], 2)
    np.testing.assert_array_equal(X, np.array(player_data(at)["points"]))
    at.button(key="pc_clear").click().run()
    assert_no_exception(at)
    assert "both classes" in at.warning[0].value  # a clear message, not a traceback
    assert at.button(key="pc_undo").disabled


def test_a_link_with_points_reproduces_them():
    X, y = datasets.xor(30, 0.2, random_state=2)
    at = open_link(pc_data=YOURS, pc_points=encode_points(X, y), pc_epochs="7", pc_shuffle="true")
    assert_no_exception(at)
    data = player_data(at)
    assert data["points"] == X.round(2).tolist() and data["labels"] == y.tolist()
    model = Perceptron(max_epochs=7, shuffle=True, random_state=0).fit(X.round(2), y)
    assert [u["i"] for u in data["updates"]] == model.update_points_.tolist()
    assert not any(m.startswith("Some settings") for m in messages(at))  # every value was used


def test_csv_upload_replaces_the_points_and_a_bad_file_is_explained_as_text():
    at = open_page("perceptron")
    at.selectbox(key="pc_data").set_value(YOURS).run()
    csv = b"x1,x2,label\n0,0,no\n1,1,yes\n0.5,0.2,no\n"
    at.get("file_uploader")[0].upload("mine.csv", csv, "text/csv").run()
    assert_no_exception(at)
    data = player_data(at)
    assert data["points"] == [[0.0, 0.0], [1.0, 1.0], [0.5, 0.2]] and data["labels"] == [0, 1, 0]
    bad = b"x1,x2,label\n![x](http://example.com/a.png),0,a\n1,1,b\n"
    at.get("file_uploader")[0].upload("<b>bad</b>.csv", bad, "text/csv").run()
    assert_no_exception(at)
    error = at.error[0].value
    assert "could not be read" in error and "](http" not in error.replace("\\]", "")
    assert len(player_data(at)["points"]) == 3  # the points stay as they were


@pytest.mark.parametrize(
    "text",
    [
        "0_0_0~1_1_<b>x</b>",
        "9_0_0~1_1_1",
        "0_nan_0~1_1_1",
        "0_1e308_0~1_1_1",
        "0_1_2_3",
        "~".join(["0_1_1"] * 400),
    ],
)
def test_a_bad_points_link_is_ignored_with_a_note(text):
    at = open_link(pc_data=YOURS, pc_points=text)
    assert_only_worded_messages(at)
    assert any(m.startswith("The points in this link could not be read") for m in messages(at))
    assert len(player_data(at)["points"]) == 8  # the default points


def test_points_encoding_round_trip_and_limit():
    X, y = datasets.gaussian_clusters(100, ((-3, 0), (2.5, 1)), 2.0, random_state=0)
    text = encode_points(X, y)
    X2, y2 = decode_points(text, 2)
    np.testing.assert_array_equal(X2, X.round(2))
    np.testing.assert_array_equal(y2, y)
    assert len(text) < 20 * len(X)  # compact: ~13 characters a point
    with pytest.raises(ValueError, match="at most"):
        decode_points("~".join(["0_0_0"] * (MAX_URL_POINTS + 1)), 2)


def test_try_this_reveals_the_librarys_answers():
    at = open_page("perceptron")
    steps = lessons.try_this_steps()
    for i, step in enumerate(steps, start=1):
        at.button(key=f"perceptron_try_{i}_setup").click().run()
        assert_no_exception(at)
        for key, value in step["setup"].items():
            assert at.session_state[key] == value
        at.radio(key=f"perceptron_try_{i}").set_value(step["answer"]).run()
        assert any(s.value.startswith(f"Right: **{step['answer']}**") for s in at.success)
    wrong = next(o for o in steps[1]["options"] if o != steps[1]["answer"])
    at.radio(key="perceptron_try_2").set_value(wrong).run()
    assert any(f"it is **{steps[1]['answer']}**" in w.value for w in at.warning)


def test_a_link_with_a_frame_starts_the_player_there_and_a_rerun_keeps_it():
    at = open_link(pc_frame="5")
    assert_only_worded_messages(at)
    assert player_data(at)["start"] == 5 and at.query_params["pc_frame"] in ("5", ["5"])
    assert not any(m.startswith("Some settings") for m in messages(at))  # the value was used
    at.checkbox(key="pc_shuffle").check().uncheck().run()  # the same fit: the same frame
    assert player_data(at)["start"] == 5 and at.query_params["pc_frame"] in ("5", ["5"])
    at.session_state["pc_frame"] = 7  # as the player reports a frame it rests on
    at.run()
    assert player_data(at)["start"] == 7 and at.query_params["pc_frame"] in ("7", ["7"])
    at.session_state["pc_frame"] = 10**9  # a report out of range is clamped too
    at.run()
    assert player_data(at)["start"] == 48
    at.selectbox(key="pc_data").set_value(DATA[1]).run()  # another fit starts again at 0
    assert player_data(at)["start"] == 0 and "pc_frame" not in at.query_params


@pytest.mark.parametrize(("text", "start"), [("-1", 0), (str(10**9), 48), ("abc", 0), ("2.5", 0)])
def test_a_bad_frame_in_a_link_is_clamped_or_ignored_with_a_note(text, start):
    at = open_link(pc_frame=text)
    assert_only_worded_messages(at)
    assert player_data(at)["start"] == start
    note = next(m for m in messages(at) if m.startswith("Some settings in this link could not be used"))
    assert f"pc_frame={text}" in note and f"using `{start}`" in note
    assert at.query_params.get("pc_frame") in ((None,) if start == 0 else (str(start), [str(start)]))


def test_each_try_this_setup_starts_the_player_at_its_first_frame():
    at = open_link(pc_frame="48")
    assert at.success  # no question asked: the verdict shows beside the player
    for i, step in enumerate(lessons.try_this_steps(), start=1):
        assert step["setup"]["pc_frame"] == 0
        at.session_state["pc_frame"] = 3
        at.run()
        at.button(key=f"perceptron_try_{i}_setup").click().run()
        assert_no_exception(at)
        if at.session_state["pc_tab"] == TABS[0]:
            assert player_data(at)["start"] == 0
            assert not at.success and not at.error  # the question is not answered on sight


def test_presentation_mode_shortens_the_player():
    at = open_link(present="true")
    assert_no_exception(at)
    assert player_data(at)["present"] is True


@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize(("epochs", "shuffle", "seed"), [(1, True, 2**31 - 1), (200, False, 0)])
def test_every_data_set_at_the_extremes(name, epochs, shuffle, seed):
    at = open_page("perceptron")
    at.selectbox(key="pc_data").set_value(name)
    at.slider(key="pc_epochs").set_value(epochs)
    at.number_input(key="pc_seed").set_value(seed)
    at.checkbox(key="pc_shuffle").set_value(shuffle)
    at.run()
    assert_only_worded_messages(at)
    data = player_data(at)
    assert len(data["updates"]) >= 1 and data["verdict"]["kind"] in {"good", "bad", "stop"}
    at.button(key="pc_new").click().run()
    assert_only_worded_messages(at)
    for tab in TABS[1:]:
        at.session_state["pc_tab"] = tab
        at.run()
        assert_only_worded_messages(at)


def test_fuzz_random_widget_combinations():
    """Seeded random settings, tabs and point edits: no exception, only worded messages."""
    rng = random.Random(16)
    at = open_page("perceptron")
    for _ in range(30):
        at.selectbox(key="pc_data").set_value(rng.choice(DATA))
        at.slider(key="pc_epochs").set_value(rng.choice([1, 2, rng.randint(1, 200), 200]))
        at.number_input(key="pc_seed").set_value(rng.choice([0, 1, rng.randint(0, 2**31 - 1), 2**31 - 1]))
        at.checkbox(key="pc_shuffle").set_value(rng.random() < 0.5)
        at.session_state["pc_tab"] = rng.choice(TABS)
        at.run()
        if at.session_state["pc_tab"] == TABS[1]:  # the kernel is chosen on its own tab
            at.selectbox(key="pc_kernel").set_value(rng.choice(["rbf", "polynomial"])).run()
        assert_only_worded_messages(at)
        if at.selectbox(key="pc_data").value == YOURS and rng.random() < 0.5:
            button = at.button(key=rng.choice(["pc_undo", "pc_clear"]))
            if not button.disabled:
                button.click().run()
            assert_only_worded_messages(at)


HOSTILE = [
    "abc",
    "nan",
    "inf",
    "-inf",
    "1e308",
    str(10**100),
    "<script>alert(1)</script>",
    "![x](http://h/i.png)",
    "é" * 5000,
]


@pytest.mark.parametrize("value", HOSTILE)
def test_hostile_link_values_are_ignored_with_a_note(value):
    keys = [
        "pc_data",
        "pc_seed",
        "pc_epochs",
        "pc_shuffle",
        "pc_kernel",
        "pc_tab",
        "pc_click_class",
        "pc_frame",
    ]
    at = open_link(**{key: value for key in keys})
    assert_only_worded_messages(at)
    assert at.selectbox(key="pc_data").value == DATA[0] and at.slider(key="pc_epochs").value == 100
    assert len(player_data(at)["updates"]) == 48  # the default view
    for text in messages(at):  # the link's text only inside code spans, shown verbatim
        outside_code = re.sub(r"`[^`]*`", "", text)
        assert "<script>" not in outside_code and "](http" not in outside_code


NOVIKOFF = re.compile(r"\(R/γ\)² = \(([\d.]+) / ([\d.]+)\)² ≈ ([\d,]+)")


def assert_bound_recomputes(text: str) -> str:
    """The R and γ a text shows give, worked out by hand, the bound it shows; returns the bound."""
    R, gamma, bound = NOVIKOFF.search(text).groups()
    assert f"{(float(R) / float(gamma)) ** 2:,.0f}" == bound, text
    return bound


def test_novikoffs_bound_recomputes_from_the_r_and_gamma_shown():
    at = open_link(pc_frame="48")
    verdict = at.success[0].value
    assert "R = max ‖(x, 1)‖" in verdict and "the bias is a weight on a constant 1" in verdict
    X, y = datasets.linearly_separable(25, 0)
    assert assert_bound_recomputes(verdict) == f"{mistake_bound(X, y).bound:,.0f}"
    assert player_data(at)["verdict"]["text"] in verdict  # the player says the same
    at.session_state["pc_tab"] = TABS[3]
    at.run()
    assert "R = max ‖(x, 1)‖" in at.markdown[1].value and "constant 1" in at.markdown[1].value
    caption = next(c.value for c in at.caption if "(R/γ)²" in c.value)
    assert assert_bound_recomputes(caption) == at.table[0].value["Novikoff's bound"].iloc[0] == "1,800"


def test_counts_agree_in_number_in_the_verdict():
    at = open_link(pc_epochs="1", pc_frame="1000")  # one pass: it cannot have converged
    title = player_data(at)["verdict"]["title"]
    assert re.fullmatch(r"Not converged after 1 pass \(\d+ updates\):", title), title
    two = np.array([[1.0, 1.0], [-1.0, -1.0]]), np.array([1, 0])
    model = Perceptron().fit(*two)  # one update, then a clean pass
    assert lessons.verdict(model, mistake_bound(*two))[1] == "Converged after 1 update in 2 passes:"
    model = Perceptron(max_epochs=1).fit(*two)
    assert lessons.verdict(model, mistake_bound(*two))[1] == "Not converged after 1 pass (1 update):"


def test_the_kernel_is_chosen_only_on_the_tab_it_acts_on():
    for tab in TABS:
        at = open_link(pc_tab=tab, pc_kernel="polynomial")
        assert_no_exception(at)
        keys = [box.key for box in at.selectbox]
        assert ("pc_kernel" in keys) == (tab == TABS[1]), (tab, keys)
    assert vega_specs(at if tab == TABS[1] else open_link(pc_tab=TABS[1], pc_kernel="polynomial"))[1][
        "title"
    ].startswith("polynomial kernel")


def test_generalisation_runs_to_convergence_and_draws_the_learned_line():
    at = open_link(pc_tab=TABS[2])
    assert_no_exception(at)
    runs = generalisation_runs()
    assert runs.converged.all() and len(runs.scores) == 100
    caption = next(c.value for c in at.caption if "median" in c.value)
    assert f"median is {np.median(runs.scores):.2%}" in caption and "every run converged" in caption
    picture, spread = vega_specs(at)
    median = next(f for f in spread["frames"] if "at" in f)["at"][0]
    assert median == pytest.approx(np.median(runs.scores)) and f"{median:.2%}" == "95.65%"
    X, y = datasets.linearly_separable(25, random_state=0)
    model = Perceptron(max_epochs=PASSES_TO_CONVERGE).fit(X, y)
    lines = next(f for f in picture["frames"] if "line" in f)
    learned = lines[lines["line"] == "learned line"][["x1", "x2"]].to_numpy()
    assert len(learned) == 2 and np.allclose(learned @ model.coef_ + model.intercept_, 0)
    train = next(f for f in picture["frames"] if "class" in f)
    np.testing.assert_allclose(train[["x1", "x2"]].to_numpy(), X)
    assert train["class"].tolist() == [["class 0", "class 1"][c] for c in y]
    assert at.metric[0].value == f"{model.score(*datasets.linearly_separable(1000, random_state=10_000)):.1%}"


def test_the_more_points_answer_says_the_updates_grow_under_the_same_bound():
    from classic.lessons.perceptron import updates_against_size

    step = next(s for s in lessons.try_this_steps() if s["title"] == "More points")
    bound, rows = updates_against_size()
    medians = [f"{median:g} updates with {n:,} points" for n, median, _ in rows]
    assert " → ".join(medians) in step["why"] and "grow" in step["why"]
    assert f"{bound:,.0f}" in step["why"] and all(most <= bound for _, _, most in rows)


def test_three_classes_each_update_moves_two_vectors_and_each_class_has_a_region():
    at = open_link(pc_data=THREE)
    assert_only_worded_messages(at)
    data = player_data(at)
    X, y = points.load("perceptron", THREE, 0)
    np.testing.assert_allclose(data["points"], X, atol=1e-6)
    model = Perceptron().fit(X, y)
    assert data["k"] == 3 and len(data["updates"]) == model.n_updates_ and model.converged_
    assert data["theme"]["classes"] == theme.class_colors(3) and len(data["theme"]["shades"]) == 3
    before = np.zeros((3, 3))
    for update in data["updates"]:
        W, step = np.array(update["W"]), np.append(X[update["i"]], 1.0)
        assert update["t"] == y[update["i"]] != update["p"]
        change = W - before
        np.testing.assert_allclose(change[update["t"]], step)  # the point's class gains (x, 1)
        np.testing.assert_allclose(change[update["p"]], -step)  # the class wrongly on top loses it
        assert not change[3 - update["t"] - update["p"]].any()  # the third stays put
        before = W
    np.testing.assert_allclose(before, model.weights_history_[-1])
    assert len(data["updates"][0]["W"]) == 3 and "w" not in data["updates"][0]
    assert at.success[0].value.startswith(f"**Converged after {model.n_updates_} updates")
    assert "Novikoff" not in at.success[0].value  # his bound, as the page gives it, is for two classes
    csv = at.get("download_button")[0].proto  # the CSV has a row per update and every class's weights
    at.session_state["pc_tab"] = TABS[1]
    at.run()
    assert_only_worded_messages(at)
    assert [m.label for m in at.metric] == ["Pocket: the best seen", "rbf kernel"]  # a best line: two classes
    pocket, kernel = vega_specs(at)
    for spec in (pocket, kernel):
        cells = next(f for f in spec["frames"] if "side" in f)
        assert set(cells["side"]) == {"class 0", "class 1", "class 2"}  # a region per class
    assert csv.label == "Every update (CSV)"


def test_the_k_class_csv_lists_both_moves_and_every_row():
    X, y = datasets.gaussian_clusters(15, ((-2.0, -1.0), (2.0, -1.0), (0.0, 2.0)), 0.8, 0)
    model = Perceptron().fit(X, y)
    lines = viz.updates_csv(model).decode().splitlines()
    assert lines[0] == "update,pass,point,gained,lost,w1_0,w2_0,b_0,w1_1,w2_1,b_1,w1_2,w2_2,b_2"
    assert len(lines) == model.n_updates_ + 1
    last = lines[-1].split(",")
    assert [int(last[3]), int(last[4])] == [model.update_true_[-1], model.update_predicted_[-1]]
    np.testing.assert_allclose([float(v) for v in last[5:]], model.weights_history_[-1].ravel())


def test_three_classes_no_lines_separate_cycle_and_try_this_says_so():
    at = open_link(pc_data=ROW, pc_frame="1000")
    data = player_data(at)
    model = Perceptron().fit(np.array(data["points"]), np.array(data["labels"]))
    assert model.cycle_ is not None and data["cycle"] == list(model.cycle_)
    assert f"at update {model.cycle_[1]} equal those at update {model.cycle_[0]}" in at.error[0].value
    assert "no set of lines gives each class its own region" in at.error[0].value
    step = next(s for s in lessons.try_this_steps() if s["title"] == "Three classes, no lines")
    assert step["setup"]["pc_data"] == ROW
    assert step["answer"] == next(o for o, happened in lessons.THREE_OUTCOMES.items() if happened(model))
    assert "cycles" in step["answer"] and f"after update {model.cycle_[1]}" in step["why"]


def test_how_it_works_sets_the_k_class_rule_beside_scikit_learns_one_vs_rest():
    at = open_page("perceptron")
    at.session_state["how_it_works"] = True  # the student opens it: a rerun
    at.run()
    assert_no_exception(at)
    text = " ".join(m.value for m in at.markdown)
    assert "scikit-learn's `Perceptron`** is *one-vs-rest*" in text and "moves two" in text
    formulas = [f.value for f in at.latex]
    assert any("this page" in f for f in formulas) and any("one-vs-rest" in f for f in formulas)
    code = [c.value for c in at.code]
    assert any("def perceptron_textbook" in c for c in code) and any(
        "def classes_textbook" in c for c in code
    )


# ---------------------------------------------------------------------------------------------
# An honest question: a step set up shows its set-up, never its answer, until it is revealed
# ---------------------------------------------------------------------------------------------

STEPS = {step["title"]: i for i, step in enumerate(lessons.try_this_steps(), start=1)}
WITHHELD = "is hidden until the answer is revealed"


def set_up(at, title: str) -> dict:
    """Press the step's "Set up this view"; its dict."""
    at.button(key=f"perceptron_try_{STEPS[title]}_setup").click().run()
    assert_no_exception(at)
    return lessons.try_this_steps()[STEPS[title] - 1]


def reveal(at, title: str, step: dict) -> None:
    """Choose the step's answer, which reveals it."""
    at.radio(key=f"perceptron_try_{STEPS[title]}").set_value(step["answer"]).run()
    assert_no_exception(at)


def chart_titles(at) -> list[str]:
    return [spec.get("title") for spec in vega_specs(at)]


def downloads(at) -> list[str]:
    return [b.label for b in at.get("download_button")]


@pytest.mark.parametrize("title", ["A line exists", "XOR repeats", "Three classes, no lines"])
def test_a_question_about_the_run_plays_its_first_pass_only_until_it_is_revealed(title):
    at = open_page("perceptron")
    step = set_up(at, title)
    data = player_data(at)
    X, y = np.array(data["points"]), np.array(data["labels"])
    model = Perceptron().fit(X, y)
    first = int((model.update_epochs_ == 0).sum())
    assert 0 < first < model.n_updates_
    assert len(data["updates"]) == first and data["start"] == 0
    assert data["verdict"] is None and data["cycle"] is None and data["held"] == lessons.HELD
    assert not at.success and not at.error and not at.warning  # no verdict beside the player
    assert any(c.value.endswith(f"{WITHHELD}.") for c in at.caption)
    assert not any("once the player reaches" in c.value for c in at.caption)  # its total
    alpha = vega_specs(at)  # the dual view only: no mistakes per pass (their count is the answer)
    assert [spec["title"] for spec in alpha] == ["αᵢ: the updates in the first pass"]
    assert alpha[0]["frames"][0]["alpha"].sum() == first
    assert "Every update (CSV)" not in downloads(at)
    reveal(at, title, step)
    data = player_data(at)
    assert len(data["updates"]) == model.n_updates_ and data["held"] is None
    assert data["verdict"]["title"] == step["tells"][0]
    verdicts = [m.value for m in (*at.success, *at.error) if not m.value.startswith("Right: ")]
    assert len(verdicts) == 1 and verdicts[0].startswith(f"**{step['tells'][0]}**")
    assert "Mistakes in each pass." in [
        n.proto.alt for n in walk(at.main) if getattr(n, "type", "") == "vega_lite_chart"
    ]
    assert "Every update (CSV)" in downloads(at)


def test_the_pocket_question_hides_the_pockets_line_and_every_score_it_would_read():
    at = open_page("perceptron")
    step = set_up(at, "The pocket on XOR")
    assert [m.label for m in at.metric] == ["rbf kernel"]  # neither the best line's 75% nor the pocket's
    withheld = [c.value for c in at.caption if WITHHELD in c.value]
    assert any("The best any line can do" in c for c in withheld) and any("Pocket" in c for c in withheld)
    pocket, kernel = vega_specs(at)
    assert pocket["title"] == lessons.pocket_title(None, 2) == "Pocket: the best line seen"
    assert not any("side" in frame for frame in pocket["frames"]) and len(pocket["frames"]) == 1  # the points
    assert "Pocket (PNG)" not in downloads(at)
    assert kernel["title"].startswith("rbf kernel: ")  # not asked: shown
    reveal(at, "The pocket on XOR", step)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["The best any line can do"] == metrics["Pocket: the best seen"] == "75%"
    assert chart_titles(at)[0] == step["tells"][0] == "Pocket: the best line seen, 75% right"
    assert "Pocket (PNG)" in downloads(at)


def test_the_kernel_question_hides_the_kernels_boundary_and_score():
    at = open_page("perceptron")
    step = set_up(at, "A curved boundary")
    assert "rbf kernel" not in [m.label for m in at.metric]
    assert any(c.value.startswith(":material/visibility_off: rbf kernel") for c in at.caption)
    pocket, kernel = vega_specs(at)
    assert kernel["title"] == lessons.kernel_title("rbf", None) == "rbf kernel"
    assert not any("side" in frame for frame in kernel["frames"])
    reveal(at, "A curved boundary", step)
    assert {m.label: m.value for m in at.metric}["rbf kernel"] == "100%"
    assert chart_titles(at)[1] == step["tells"][0] == "rbf kernel: 100% right, converged"


def test_the_more_points_question_shows_the_sizes_and_the_bound_but_not_the_updates():
    at = open_page("perceptron")
    step = set_up(at, "More points")
    table = at.table[0].value
    assert table.columns.tolist() == ["points", "Novikoff's bound"] and table["points"].tolist() == [
        25,
        250,
        2500,
    ]
    assert any(c.value.endswith(f"{WITHHELD}.") for c in at.caption)
    reveal(at, "More points", step)
    table = at.table[0].value
    assert table.columns.tolist() == ["points", "median updates", "most updates", "Novikoff's bound"]
    caption = next(c.value for c in at.caption if c.value.startswith("Median:"))
    assert step["tells"][0] in caption and table["median updates"].iloc[-1] in step["tells"][0]


def test_setting_up_a_step_that_writes_the_seed_logs_no_widget_warning():
    """A step's setup writes pc_seed: the seed widget, given no value of its own, takes it without
    Streamlit's warning of a widget created with a default value and also set through the
    Session State API (logged once a process: the flag is reset before each setup)."""
    import logging

    from streamlit.elements.lib import policies

    heard: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: heard.append(record.getMessage())
    logger = logging.getLogger(policies.__name__)  # Streamlit's loggers do not propagate
    logger.addHandler(handler)
    try:
        at = open_page("perceptron")
        for i in range(1, len(STEPS) + 1):
            policies._shown_default_value_warning = False
            at.button(key=f"perceptron_try_{i}_setup").click().run()
            assert_no_exception(at)
    finally:
        logger.removeHandler(handler)
    assert not [message for message in heard if '"pc_seed"' in message], heard
