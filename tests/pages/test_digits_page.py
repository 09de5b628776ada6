"""The digits page in AppTest: drawings (a fake canvas), every control at its extremes, the tabs,
the "Try this" reveals checked against the library, teach mode, and missing data.

The drawing canvas is a custom component that AppTest cannot draw on (the browser test draws
with the mouse); here ``st_canvas`` is replaced by one that returns a replayed pen drawing.
"""

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import streamlit as st
from conftest import assert_no_exception, open_page

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from strokes import draw  # noqa: E402

from classic import datasets, digits  # noqa: E402
from classic.knn import METRICS, WEIGHTS  # noqa: E402


@pytest.fixture
def canvas(monkeypatch):
    """Set ``canvas.image`` to what the fake drawing canvas returns (None: nothing drawn)."""
    state = SimpleNamespace(image=None)
    fake = SimpleNamespace(st_canvas=lambda **_: SimpleNamespace(image_data=state.image))
    monkeypatch.setitem(sys.modules, "streamlit_drawable_canvas", fake)
    return state


def text(at) -> str:
    return " ".join(e.value for kind in ("caption", "markdown", "info", "warning") for e in getattr(at, kind))


def test_default_page_invites_a_drawing(canvas):
    at = open_page("digits")
    assert_no_exception(at)
    intro = at.markdown[0].value
    assert "exactly as" not in intro and "widened first" in intro  # what the page does, said as it is
    assert any("Draw a digit" in i.value for i in at.info)
    assert "0 example(s) of yours" in text(at)
    assert at.button(key="digits_teach").disabled


@pytest.mark.parametrize("digit", [1, 7, 8])
def test_a_drawn_digit_is_read(canvas, digit):
    canvas.image = draw(digit, np.random.default_rng(0))
    at = open_page("digits")
    assert_no_exception(at)
    assert f"Read as {digit} with" in text(at)
    assert not at.button(key="digits_teach").disabled


def test_a_dot_and_a_black_canvas_are_refused_and_cannot_be_taught(canvas):
    dot = np.zeros((280, 280, 4), dtype=np.uint8)
    dot[100:106, 100:106, 3] = 255
    black = np.zeros((280, 280, 4), dtype=np.uint8)
    black[..., 3] = 255
    for image in (dot, black):
        canvas.image = image
        at = open_page("digits")
        assert_no_exception(at)
        assert "draw a digit" in at.warning[0].value and "Read as" not in text(at)
        assert at.button(key="digits_teach").disabled


def test_a_small_drawing_gets_the_draw_bigger_hint(canvas):
    canvas.image = np.zeros((280, 280, 4), dtype=np.uint8)
    canvas.image[200:250, 200:206, 3] = 255
    canvas.image[200:206, 190:220, 3] = 255
    at = open_page("digits")
    assert "Draw bigger" in at.warning[0].value and "Read as" not in text(at)


@pytest.mark.parametrize("metric", METRICS)
def test_every_metric_with_extreme_k_and_weights(canvas, metric):
    canvas.image = draw(3, np.random.default_rng(0))
    at = open_page("digits")
    at.selectbox(key="digits_metric").set_value(metric)
    at.slider(key="digits_k").set_value(50)
    at.selectbox(key="digits_weights").set_value(WEIGHTS[-1])
    at.checkbox(key="digits_blur").uncheck()
    at.slider(key="digits_pen").set_value(40).run()
    assert_no_exception(at)
    assert "The 50 nearest training digits" in text(at)
    assert at.selectbox(key="digits_invariance").disabled == (metric != "euclidean")


@pytest.mark.parametrize("invariance", digits.INVARIANCES)
def test_every_invariance_at_k_1(canvas, invariance):
    canvas.image = draw(5, np.random.default_rng(0))
    at = open_page("digits")
    at.selectbox(key="digits_invariance").set_value(invariance)
    at.slider(key="digits_k").set_value(1).run()
    assert_no_exception(at)
    assert "Read as 5" in text(at)


def test_the_evaluation_shows_the_posts_plain_result_and_every_rung(data_home):
    at = open_page("digits")
    at.session_state["digits_tab"] = "Evaluation"
    at.run()
    assert_no_exception(at)
    X, y = datasets.load_semeion(data_home)
    plain = digits.protocol_curve(X, y, [1], range(5)).mean()
    assert at.metric[0].value == f"{plain:.1%}" and "89%" in at.metric[0].label
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)["layer"][0]["encoding"]
    assert spec["color"]["scale"]["domain"] == [name for name, _ in digits.RUNGS] + ["your settings"]
    assert spec["x"]["scale"]["domain"] == [1, 50]  # k up to 50, as in the post's plot


def test_the_ladder_tab_shows_each_rung(data_home):
    at = open_page("digits")
    at.session_state["digits_tab"] = "How far can k-NN go"
    at.run()
    assert_no_exception(at)
    page = text(at)
    for name, _ in digits.RUNGS:
        assert f"**{name}**" in page


def test_try_this_reveals_match_the_library(data_home):
    X, y = datasets.load_semeion(data_home)
    plain = digits.protocol_curve(X, y, range(1, 51))
    blurred = digits.protocol_curve(X, y, [1], blur=1.0)
    at = open_page("digits")
    radios = [r for r in at.radio if r.key and r.key.startswith("digits_try_")]
    assert 4 <= len(radios) <= 6
    expected = [
        "about 90%",  # the post's 89%
        "falls" if plain[:, -1].mean() < plain[:, 0].mean() else "rises",
        "3 to 6 points" if 0.03 <= blurred.mean() - plain[:, 0].mean() < 0.06 else "?",
        "a vertical bar",
        "the page asks you to draw bigger",
    ]
    for radio, answer in zip(radios, expected, strict=True):
        radio.set_value(answer).run()
        assert_no_exception(at)
        assert any(answer in s.value for s in at.success), answer


def test_taught_examples_are_counted(canvas):
    at = open_page("digits")
    at.session_state["digits_taught"] = [(np.eye(16, dtype=np.uint8), 1), (np.ones((16, 16), np.uint8), 8)]
    at.run()
    assert_no_exception(at)
    assert "2 example(s) of yours" in text(at)
    assert not at.button(key="digits_forget").disabled


def test_missing_semeion_gives_a_clear_message_and_teach_mode_still_works(canvas, monkeypatch):
    def unavailable(data_home=None):
        raise datasets.DatasetUnavailable("semeion.data is not on this computer and could not be downloaded")

    monkeypatch.setattr(datasets, "load_semeion", unavailable)
    st.cache_data.clear()
    try:
        at = open_page("digits")
        assert_no_exception(at)
        assert "could not be loaded" in at.error[0].value
        assert "the only training data" in text(at)
        at.session_state["digits_tab"] = "Evaluation"
        at.run()
        assert_no_exception(at)
        assert any("need the Semeion data set" in i.value for i in at.info)
    finally:
        monkeypatch.undo()
        st.cache_data.clear()


HOSTILE = [
    {"digits_k": "abc"},
    {"digits_k": "1e308"},
    {"digits_k": "0"},
    {"digits_metric": "<script>alert(1)</script>"},
    {"digits_tab": "nope"},
    {"digits_invariance": "rotations"},
    {"digits_blur": "maybe"},
    {"digits_pen": "-5"},
]


@pytest.mark.parametrize("query", HOSTILE, ids=lambda q: "-".join(q))
def test_hostile_url_values_are_ignored(canvas, query):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"), default_timeout=120)
    at.query_params.update(query)
    at.run()
    at.switch_page("pages/digits.py")
    at.run()
    assert_no_exception(at)
    assert at.slider(key="digits_k").value == 3 and at.selectbox(key="digits_metric").value == "euclidean"


def test_a_link_sets_every_control(canvas):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"), default_timeout=120)
    link = {"digits_k": "50", "digits_metric": "cosine", "digits_weights": "uniform", "digits_blur": "false"}
    at.query_params.update({**link, "digits_pen": "30", "digits_invariance": "shifts"})
    at.run()
    at.switch_page("pages/digits.py")
    at.run()
    assert_no_exception(at)
    assert at.slider(key="digits_k").value == 50 and at.selectbox(key="digits_metric").value == "cosine"
    assert at.selectbox(key="digits_weights").value == "uniform" and not at.checkbox(key="digits_blur").value
    assert at.slider(key="digits_pen").value == 30 and at.selectbox(key="digits_invariance").value == "shifts"
    assert at.selectbox(key="digits_invariance").disabled  # shifts need the Euclidean metric


def test_a_try_this_setup_button_opens_its_view(canvas, data_home):
    at = open_page("digits")
    at.button(key="digits_try_1_setup").click().run()
    assert_no_exception(at)
    assert at.slider(key="digits_k").value == 1 and not at.checkbox(key="digits_blur").value
    assert at.selectbox(key="digits_invariance").value == "none"
    assert "Plain k-NN, k = 1" in at.metric[0].label  # the Evaluation tab is the open one
    assert at.metric[1].value == at.metric[0].value  # the settings are the post's plain k-NN


def test_without_semeion_a_taught_example_is_the_whole_training_set(canvas, monkeypatch):
    def unavailable(data_home=None):
        raise datasets.DatasetUnavailable("semeion.data is not on this computer and could not be downloaded")

    monkeypatch.setattr(datasets, "load_semeion", unavailable)
    st.cache_data.clear()
    try:
        canvas.image = draw(4, np.random.default_rng(0))
        at = open_page("digits")
        assert_no_exception(at)
        assert "only 0 training digits" in at.warning[0].value
        assert not at.button(key="digits_teach").disabled
        # Teaching by the button is driven in the browser test (AppTest loses state set before st.rerun).
        at.session_state["digits_taught"] = [(digits.read_drawing(canvas.image).grid, 0)]
        at.slider(key="digits_k").set_value(1).run()
        assert_no_exception(at)
        assert "Read as 0 with 100% of the vote" in text(at) and "1 example(s) of yours" in text(at)
    finally:
        monkeypatch.undo()
        st.cache_data.clear()
