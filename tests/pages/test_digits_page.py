"""The digits page in AppTest: drawings (a fake canvas), every control at its extremes, the tabs,
the "Try this" reveals checked against the library, teach mode, and missing data.

The drawing canvas is a custom component that AppTest cannot draw on (the browser test draws
with the mouse); here ``st_canvas`` is replaced by one that returns a replayed pen drawing.
"""

import base64
import io
import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pyarrow as pa
import pytest
import streamlit as st
from conftest import assert_no_exception, open_page, page_text
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from strokes import draw, render_squares, replay  # noqa: E402

from classic import datasets, digits  # noqa: E402
from classic.knn import METRICS, WEIGHTS  # noqa: E402
from classic.viz import digits as view  # noqa: E402


@pytest.fixture
def canvas(monkeypatch):
    """Set ``canvas.image`` (and ``canvas.json``) to what the fake drawing canvas returns (None:
    nothing drawn); ``canvas.calls`` keeps the arguments of each call (``initial_drawing``)."""
    state = SimpleNamespace(image=None, json=None, calls=[])

    def st_canvas(**kwargs):
        state.calls.append(kwargs)
        return SimpleNamespace(
            image_data=state.image, json_data=state.json, _image_data_url=png_url(state.image)
        )

    monkeypatch.setitem(sys.modules, "streamlit_drawable_canvas", SimpleNamespace(st_canvas=st_canvas))
    return state


def png_url(image: np.ndarray | None) -> str | None:
    """``image`` as the canvas sends it: a PNG data URL (pages/server/guard.py reads the PNG)."""
    if image is None:
        return None
    out = io.BytesIO()
    Image.fromarray(np.asarray(image, dtype=np.uint8)).save(out, format="PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def text(at) -> str:
    """The page's words: captions, markdown, notes and its HTML (the prediction), tags left out."""
    words = [e.value for kind in ("caption", "markdown", "info", "warning") for e in getattr(at, kind)]
    return " ".join(words + [re.sub(r"<[^>]+>", " ", e.proto.body) for e in at.get("html")])


def test_default_page_invites_a_drawing(canvas):
    at = open_page("digits")
    assert_no_exception(at)
    intro = at.markdown[0].value
    assert "exactly as" not in intro and "widened first" in intro  # what the page does, said as it is
    assert any("Draw a digit" in i.value for i in at.info)
    assert "No examples of yours yet" in text(at) and "(s)" not in text(at)
    assert at.button(key="digits_teach").disabled


def page_settings(at) -> dict:
    """The classifier settings the page's sidebar stands for (the blur box: σ = 1 cell; the
    sheared copies' box: digits.SHEAR)."""
    names = {"k": "slider", "metric": "selectbox", "weights": "selectbox", "invariance": "selectbox"}
    settings = {name: getattr(at, kind)(key=f"digits_{name}").value for name, kind in names.items()}
    shear = digits.SHEAR if at.checkbox(key="digits_shear").value else 0.0
    return {**settings, "blur": 1.0 if at.checkbox(key="digits_blur").value else 0.0, "shear": shear}


@pytest.mark.parametrize(
    "default",
    [None, {"k": 7, "metric": "euclidean", "weights": "uniform", "invariance": "shifts"}],
    ids=["the library's", "another"],
)
def test_the_pages_defaults_are_the_default_models_settings(canvas, data_home, monkeypatch, default):
    """The sidebar starts at default_model's parameters, wherever classic.digits sets them."""
    if default is not None:
        monkeypatch.setattr(digits, "DEFAULT", default)
    X, y = datasets.load_semeion(data_home)
    at = open_page("digits")
    assert_no_exception(at)
    shown = digits.DigitClassifier(**page_settings(at)).get_params()
    assert shown == digits.default_model(X, y).get_params()


def semeion_link(data_home, index: int = 0) -> tuple[np.ndarray, str, str]:
    """A Semeion training digit, its link value and the vote caption the library gives it."""
    X, y = datasets.load_semeion(data_home)
    grid = X[index].reshape(16, 16)
    labels, share, _, _ = digits.default_model(X, y).vote(grid.reshape(1, -1))
    return grid, digits.grid_to_hex(grid), f"Read as {labels[0]} with {share[0].max():.0%} of the vote"


@pytest.mark.parametrize("index", [0, 800, 1592])
def test_a_link_with_a_drawing_shows_it_read_as_the_library_reads_it(canvas, data_home, index):
    grid, link, caption = semeion_link(data_home, index)
    at = open_page("digits", params={"digits_grid": link})
    assert_no_exception(at)
    assert caption in text(at) and not any("Draw a digit" in i.value for i in at.info)
    X, y = datasets.load_semeion(data_home)
    distances, indices = digits.default_model(X, y).kneighbors(grid.reshape(1, -1))
    strip = view.neighbour_strip(X, y, distances[0], indices[0], len(y))["caption"]
    captions = [i.proto.imgs[0].caption for i in at.get("image")]
    assert strip in captions and "What it sees" in captions  # the same neighbours, and the grid
    assert canvas.calls[-1]["initial_drawing"] == view.grid_drawing(grid, 280)  # drawn on the canvas
    assert at.query_params["digits_grid"] == link  # still in the link
    assert not at.button(key="digits_teach").disabled


def test_a_drawing_goes_into_the_link_and_a_cleared_canvas_takes_it_out(canvas):
    canvas.image = draw(7, np.random.default_rng(0))
    at = open_page("digits")
    assert at.query_params["digits_grid"] == digits.grid_to_hex(digits.read_drawing(canvas.image).grid)
    canvas.image = np.zeros((280, 280, 4), dtype=np.uint8)  # the canvas after "Reset canvas & history"
    at.run()
    assert "digits_grid" not in at.query_params and "Read as" not in text(at)


def test_resetting_a_linked_drawing_clears_it_and_takes_it_out_of_the_link(canvas, data_home):
    """The canvas's reset goes back to its initial drawing, the link's squares: that clears it."""
    _, link, caption = semeion_link(data_home)
    at = open_page("digits", params={"digits_grid": link})
    assert caption in text(at)
    canvas.json = canvas.calls[-1]["initial_drawing"]
    canvas.image = render_squares(canvas.json)
    at.run()
    assert_no_exception(at)
    assert "digits_grid" not in at.query_params and "Read as" not in text(at)
    assert canvas.calls[-1]["initial_drawing"] is None  # the canvas is emptied
    assert any("Draw a digit" in i.value for i in at.info)


HOSTILE_GRIDS = {
    "non-hex": "z" * 64,
    "too short": "ff00",
    "too long": "0f" * 33,
    "100 kB": "0f" * 50_000,
    "HTML": "<img src=x onerror=alert(1)>**bold**" + "0" * 28,
    "no ink": "0" * 64,
    "solid ink": "f" * 64,
}


@pytest.mark.parametrize("value", HOSTILE_GRIDS.values(), ids=HOSTILE_GRIDS.keys())
def test_a_link_drawing_that_cannot_be_read_is_noted_and_ignored(canvas, value):
    at = open_page("digits", params={"digits_grid": value})
    assert_no_exception(at)
    with pytest.raises(ValueError) as why:
        digits.grid_from_hex(value)
    notes = [i.value for i in at.info if "digits_grid" in i.value]
    assert len(notes) == 1 and "could not be used" in notes[0] and str(why.value).split()[-1] in notes[0]
    assert len(notes[0]) < 400 and "<img" not in notes[0].replace("`digits_grid=<img", "")
    assert "Read as" not in text(at) and "digits_grid" not in at.query_params
    assert canvas.calls[-1]["initial_drawing"] is None


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


@pytest.mark.parametrize(
    ("metric", "blur", "warned"),
    [("chebyshev", False, "black-and-white"), ("hamming", True, "continuous"), ("chebyshev", True, None)],
)
def test_a_metric_that_means_nothing_on_the_pixels_says_so(canvas, metric, blur, warned):
    """Chebyshev on black-and-white pixels and Hamming on blurred ones tie nearly every digit (the
    Evaluation reads about one in ten right): the page says so above its numbers."""
    canvas.image = draw(3, np.random.default_rng(0))
    at = open_page("digits", params={"digits_metric": metric, "digits_blur": str(blur).lower()})
    assert_no_exception(at)
    notes = [w.value for w in at.warning if "pick another metric" in w.value]
    if warned is None:
        assert not notes
    else:
        assert len(notes) == 1 and warned in notes[0]


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
    layers = json.loads(at.get("vega_lite_chart")[0].proto.spec)["layer"]
    names = [name for name, _ in digits.RUNGS] + ["your settings"]
    assert layers[0]["encoding"]["color"]["scale"]["domain"] == names
    assert layers[0]["encoding"]["x"]["scale"]["domain"] == [1, 50]  # k up to 50, as in the post's plot
    points = [layer["encoding"] for layer in layers if "shape" in layer.get("encoding", {})]
    assert points[0]["shape"]["scale"]["domain"] == names  # each line its own shape, not colour alone
    assert len(set(points[0]["shape"]["scale"]["range"])) == len(names)


def test_the_ladder_tab_shows_each_rung_and_says_which_adds_nothing(data_home):
    X, y = datasets.load_semeion(data_home)
    rungs = digits.ladder(X, y)
    at = open_page("digits")
    at.session_state["digits_tab"] = "How far can k-NN go"
    at.run()
    assert_no_exception(at)
    notes = {
        line.split("**")[1]: line for m in at.markdown for line in m.value.splitlines() if line[:4] == "- **"
    }
    labels = pa.ipc.open_stream(at.get("vega_lite_chart")[0].proto.data.data).read_all().to_pylist()
    assert list(notes) == [label["rung"] for label in labels] == [name for name, _ in digits.RUNGS]
    nothing = 0
    for (name, accuracy), (_, below), label in zip(rungs[1:], rungs, labels[1:], strict=False):
        gain = accuracy - below
        said = [notes[name], label["label"]]  # beside the rung, in the list and on its bar
        assert label["label"].startswith(f"{accuracy:.1%} (")
        if abs(gain) < digits.NO_GAIN:
            nothing += 1
            assert all(f"{100 * gain:+.2f} points: no real gain" in words for words in said), said
        else:
            assert all(
                f"{100 * gain:+.1f} points)" in words and "no real gain" not in words for words in said
            ), said
    assert nothing == 1  # distance weights: +0.05 points on these splits


def closest(options, value: float) -> str:
    """The option "about N%" nearest to ``value``."""
    return min(options, key=lambda option: abs(float(option.split()[1].rstrip("%")) / 100 - value))


def gain_range(options, points: float) -> str:
    """The option ("a to b points", "more than c points", else "none") that holds ``points``."""
    for option in options:
        if (within := re.fullmatch(r"(\d+) to (\d+) points", option)) and float(within[1]) <= points < float(
            within[2]
        ):
            return option
        if (above := re.fullmatch(r"more than (\d+) points", option)) and points >= float(above[1]):
            return option
    return "none"


def test_try_this_reveals_match_the_library(data_home):
    """Every step's answer recomputed here from classic.digits, against the answer the page reveals."""
    X, y = datasets.load_semeion(data_home)
    plain = digits.protocol_curve(X, y, range(1, 51)).mean(axis=0)
    blurred = digits.protocol_curve(X, y, [1], blur=1.0).mean()
    bar = np.zeros((280, 280, 4), dtype=np.uint8)
    bar[20:260, 130:150, 3] = 255  # one straight vertical stroke
    grid = digits.canvas_to_grid(bar)
    inked = np.flatnonzero(grid.any(axis=0))
    small = digits.read_drawing(replay(2, (20, 20, 35, 55)))  # a 2 in a corner, a fifth of the canvas tall
    at = open_page("digits")
    radios = [r for r in at.radio if r.key and r.key.startswith("digits_try_")]
    assert len(radios) == 5
    change = plain[-1] - plain[0]
    expected = [
        closest(radios[0].options, plain[0]),
        "stays the same" if abs(change) < 0.005 else "rises" if change > 0 else "falls",
        gain_range(radios[2].options, 100 * (blurred - plain[0])),
        "a black square"
        if grid.all()
        else "a vertical bar"
        if grid.all(axis=0)[inked].all()
        else "a diagonal band",
        "the page asks you to draw bigger" if small.status == "small" else "it is read right",
    ]
    assert expected[3] == "a vertical bar" and inked.size <= 6 and small.status == "small"
    for radio, answer in zip(radios, expected, strict=True):
        assert answer in radio.options
        radio.set_value(answer).run()
        assert_no_exception(at)
        assert any(f"Right: **{answer}**" in s.value for s in at.success), answer


def test_taught_examples_are_counted(canvas):
    at = open_page("digits")
    at.session_state["digits_taught"] = [(np.eye(16, dtype=np.uint8), 1), (np.ones((16, 16), np.uint8), 8)]
    at.run()
    assert_no_exception(at)
    assert "2 examples of yours in the training set." in text(at)
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
    {"digits_shear": "maybe"},
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
    assert at.slider(key="digits_k").value == digits.DEFAULT["k"]
    assert at.selectbox(key="digits_metric").value == "euclidean"


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


def reveal(at, i: int) -> None:
    """Choose step ``i``'s answer, as a student does: the page then shows what the step hid."""
    at.radio(key=f"digits_try_{i}").set_value(at.session_state["digits_try_steps"][i - 1].answer).run()
    assert_no_exception(at)


def withheld_notes(at) -> list[str]:
    return [c.value for c in at.caption if "hidden until the answer is revealed" in c.value]


def test_a_try_this_setup_button_opens_its_view(canvas, data_home):
    at = open_page("digits")
    at.button(key="digits_try_1_setup").click().run()
    assert_no_exception(at)
    assert at.slider(key="digits_k").value == 1 and not at.checkbox(key="digits_blur").value
    assert at.selectbox(key="digits_invariance").value == "none"
    assert at.session_state["digits_tab"] == "Evaluation" and withheld_notes(at)  # its numbers hidden
    reveal(at, 1)
    assert "Plain k-NN, k = 1" in at.metric[0].label  # the Evaluation tab is the open one
    assert at.metric[1].value == at.metric[0].value  # the settings are the post's plain k-NN


@pytest.fixture(scope="module")
def protocol(data_home) -> dict[int, np.ndarray]:
    """The accuracies (seeds × k at the step's k) the three accuracy steps ask about, by step."""
    X, y = datasets.load_semeion(data_home)
    plain = digits.protocol_curve(X, y, [1, 50])
    return {1: plain[:, :1], 2: plain[:, 1:], 3: digits.protocol_curve(X, y, [1], blur=1.0)}


@pytest.mark.parametrize("i", [1, 2, 3])
def test_an_accuracy_step_hides_the_evaluations_numbers_until_it_is_revealed(canvas, protocol, i):
    """Asked, the Evaluation shows its protocol and some misread digits, but no tile, curve,
    confusion matrix or count that holds the accuracy asked about; all of them once revealed."""
    scores = protocol[i]
    accuracy, spread = f"{scores.mean():.1%}", f"{scores.min():.1%} – {scores.max():.1%}"
    wrong = f"{round((1 - scores[0, 0]) * 793)} of 793"
    at = open_page("digits")
    at.button(key=f"digits_try_{i}_setup").click().run()
    assert_no_exception(at)
    asked = page_text(at)
    assert accuracy not in asked and spread not in asked and wrong not in asked
    assert not any(m.label.startswith("Your settings") for m in at.metric)
    # The accuracy chart's frame only (no lines, its axis 0–100%), no confusion matrix, no PNG.
    (frame,) = at.get("vega_lite_chart")
    assert pa.ipc.open_stream(frame.proto.data.data).read_all().num_rows == 0
    assert json.loads(frame.proto.spec)["layer"][0]["encoding"]["y"]["scale"]["domain"] == [0, 1]
    assert not at.get("download_button")
    assert (len(at.metric), len(withheld_notes(at))) == ((0, 4) if i == 1 else (1, 3))  # plain tile: step 1
    assert [img.proto.imgs[0].caption[:13] for img in at.get("image")] == ["Left to right"]  # some misreads
    reveal(at, i)
    revealed = page_text(at)
    assert accuracy in revealed and spread in revealed and f"({wrong}, first shuffle)" in revealed
    assert at.metric[1].value == accuracy and len(at.get("vega_lite_chart")) == 2
    assert not withheld_notes(at)


@pytest.mark.parametrize("i, hides", [(1, True), (2, False), (3, True)])
def test_the_ladder_hides_its_accuracies_while_a_step_asks_for_one(canvas, data_home, i, hides):
    """Opened while step 1 (plain k-NN's accuracy) or 3 (blur's gain) is asked, the ladder names
    its rungs and what each adds, without a bar or a gain; step 2 asks about k = 50, which no
    rung shows."""
    at = open_page("digits")
    at.button(key=f"digits_try_{i}_setup").click().run()
    # The student opens the ladder's tab (its link now says Evaluation, which would win).
    at.query_params["digits_tab"] = at.session_state["digits_tab"] = "How far can k-NN go"
    at.run()
    assert_no_exception(at)
    notes = [m.value for m in at.markdown if m.value.startswith("- **")][0].splitlines()
    assert [line.split("**")[1] for line in notes] == [name for name, _ in digits.RUNGS]
    assert bool(withheld_notes(at)) == hides and bool(at.get("vega_lite_chart")) != hides
    assert all(("points" in line or "post's k-NN" in line) != hides for line in notes)
    reveal(at, i)
    assert at.get("vega_lite_chart") and not withheld_notes(at)


def vertical_bar() -> np.ndarray:
    """One straight vertical stroke on the canvas: step 4's bare 1."""
    bar = np.zeros((280, 280, 4), dtype=np.uint8)
    bar[20:260, 130:150, 3] = 255
    return bar


def test_the_bare_1_step_hides_the_grid_it_asks_about_until_it_is_revealed(canvas):
    """Step 4 asks what the grid of a straight stroke shows: drawn, the stroke is read, but the
    grid stays hidden until the student has predicted it."""
    canvas.image = vertical_bar()
    at = open_page("digits")
    at.button(key="digits_try_4_setup").click().run()
    assert_no_exception(at)
    described = view.grid_description(digits.read_drawing(canvas.image).grid)
    assert "Read as" in text(at) and described not in page_text(at)
    assert "What it sees" not in [i.proto.imgs[0].caption for i in at.get("image")]
    assert withheld_notes(at) == [
        ":material/visibility_off: What it sees is hidden until the answer is revealed."
    ]
    reveal(at, 4)
    assert "What it sees" in [i.proto.imgs[0].caption for i in at.get("image")]
    assert described in page_text(at) and not withheld_notes(at)


@pytest.mark.parametrize("size", ["small", "normal"])
def test_the_tiny_digit_step_hides_what_the_page_does_with_a_drawing_until_it_is_revealed(canvas, size):
    """Step 5 asks what the page does with a small drawing: neither its "Draw bigger" note nor a
    reading shows until the student has predicted it."""
    if size == "small":
        canvas.image = replay(2, (20, 20, 35, 55))  # a 2 in a corner, a fifth of the canvas tall
    else:
        canvas.image = draw(7, np.random.default_rng(0))
    said = digits.read_drawing(canvas.image).message.split(":")[0] if size == "small" else "Read as 7"
    at = open_page("digits")
    at.button(key="digits_try_5_setup").click().run()
    assert_no_exception(at)
    assert said not in text(at) and not at.get("vega_lite_chart")  # no note, no vote
    assert len(withheld_notes(at)) == 1 and "What the page makes of your drawing" in withheld_notes(at)[0]
    reveal(at, 5)
    assert said in text(at) and not withheld_notes(at)


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
        assert "Read as 0 with 100% of the vote" in text(
            at
        ) and "1 example of yours: the only training data." in text(at)
    finally:
        monkeypatch.undo()
        st.cache_data.clear()
