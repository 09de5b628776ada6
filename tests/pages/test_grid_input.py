"""The digits page's keyboard grid (pages/widgets/grid_input.py) in AppTest: a browser's grid
checked on the server, and a good one read exactly as the library reads it (issue 35, barrier 1).

AppTest cannot press keys in a component; it sets the value the component sends (its state
``{"grid": [256 cells]}``), as a browser, or a console, would.
"""

import re
import sys
from types import SimpleNamespace

import numpy as np
import pytest
from conftest import assert_no_exception, open_page

from classic import datasets, digits
from pages.widgets import grid_input

KEY = "digits_keys_grid"


@pytest.fixture
def canvas(monkeypatch):
    """The drawing canvas (a third-party component AppTest cannot run) replaced by an empty one."""
    fake = lambda **kwargs: SimpleNamespace(image_data=None, json_data=None, _image_data_url=None)  # noqa: E731
    monkeypatch.setitem(sys.modules, "streamlit_drawable_canvas", SimpleNamespace(st_canvas=fake))


def keyboard_page():
    """/digits with "Draw with the keyboard" on: the grid instead of the canvas."""
    at = open_page("digits")
    at.toggle(key="digits_keyboard").set_value(True).run()
    assert_no_exception(at)
    return at


def send(at, value):
    at.session_state[KEY] = {"grid": value}
    at.run()
    assert_no_exception(at)


def page_words(at) -> str:
    words = [e.value for kind in ("caption", "markdown", "info", "warning") for e in getattr(at, kind)]
    return " ".join(words + [re.sub(r"<[^>]+>", " ", e.proto.body) for e in at.get("html")])


def grid_data(at) -> dict:
    """The data the page gave the grid component (its answer to announce, its cells)."""
    import json

    [grid] = [c for c in at.get("bidi_component") if c.key == KEY]
    return json.loads(grid.proto.json)


def bar() -> np.ndarray:
    """A 1 drawn as cells: a vertical bar, two cells wide, rows 2 to 14."""
    grid = np.zeros((16, 16), np.uint8)
    grid[2:14, 7:9] = 1
    return grid


def fill(grid: np.ndarray) -> np.ndarray:
    """The library's reading of cells as a drawing: cropped to the ink, stretched to 16×16."""
    return digits.read_drawing(1.0 - grid).grid


def test_the_toggle_puts_the_grid_in_place_of_the_canvas(canvas):
    at = keyboard_page()
    assert [c for c in at.get("bidi_component") if c.key == KEY]
    assert any("Draw a digit on the grid" in i.value for i in at.info)
    assert grid_data(at)["cell"] >= 24  # WCAG 2.5.8's 24 CSS px
    assert grid_input.LABEL == "Draw a digit on a 16×16 grid: arrow keys move, Space toggles a cell"


BAD = {
    "too short": [0, 1] * 100,
    "too long": [0] * 257,
    "a 2": [2] + [0] * 255,
    "a None cell": [None] * 256,
    "a string cell": ["1"] + [0] * 255,
    "true for 1": [True] + [0] * 255,
    "NaN": [float("nan")] + [0] * 255,
    "a string": "1" * 256,
    "a number": 2,
    "a dict": {"0": 1},
}


@pytest.mark.parametrize("value", BAD.values(), ids=BAD.keys())
def test_a_bad_grid_is_refused_with_a_note(canvas, value):
    at = keyboard_page()
    send(at, bar().reshape(-1).tolist())  # a good grid first: a bad one must not be read as it
    assert "Read as" in page_words(at)
    send(at, value)
    notes = [w.value for w in at.warning if "The grid from the browser was not used" in w.value]
    assert len(notes) == 1, page_words(at)
    assert "Read as" not in page_words(at) and "Read as" not in grid_data(at)["answer"]
    assert grid_data(at)["cells"] is None


def test_no_value_yet_is_no_note(canvas):
    at = keyboard_page()
    send(at, None)
    assert not at.warning and any("Draw a digit on the grid" in i.value for i in at.info)
    assert grid_input.checked(None) == (None, "")


@pytest.mark.parametrize("which", ["a bar of cells", "a Semeion digit"])
def test_a_good_grid_is_read_as_the_library_reads_it(canvas, data_home, which):
    X, y = datasets.load_semeion(data_home)
    grid = bar()
    if which == "a Semeion digit":  # the first one already filling its 16×16 box, so read as it is
        grid = next(g for g in X.reshape(-1, 16, 16).astype(np.uint8) if np.array_equal(fill(g), g))
    at = keyboard_page()
    send(at, grid.reshape(-1).tolist())
    # The page's pipeline is the canvas's: the cells as ink, cropped, stretched, then voted on.
    seen = fill(grid)
    labels, share, _, _ = digits.default_model(X, y).vote(seen.reshape(1, -1))
    said = f"Read as {labels[0]} with {share[0].max():.0%} of the vote"
    assert said in page_words(at)
    assert grid_data(at)["answer"] == said  # announced by the grid's live region
    assert grid_data(at)["cells"] == grid.reshape(-1).tolist()  # a remounted grid starts from it
    if which == "a bar of cells":
        assert labels[0] == 1
    assert not at.button(key="digits_teach").disabled  # teach mode takes it like a drawing


def test_a_dot_gets_the_canvas_note_in_the_grids_words(canvas):
    at = keyboard_page()
    dot = np.zeros(256, int)
    dot[100] = 1
    send(at, dot.tolist())
    assert any("That is a dot" in w.value for w in at.warning)
    assert "That is a dot" in grid_data(at)["answer"]


def test_the_reading_stays_hidden_while_a_step_asks_about_it(canvas):
    """The honest-question rule holds for the grid: step 5 hides the reading until answered."""
    at = keyboard_page()
    send(at, bar().reshape(-1).tolist())
    at.button(key="digits_try_5_setup").click().run()
    assert_no_exception(at)
    assert at.toggle(key="digits_keyboard").value
    assert "Read as" not in page_words(at) and "hidden until the answer" in grid_data(at)["answer"]
    at.radio(key="digits_try_5").set_value(at.session_state["digits_try_steps"][4].answer).run()
    assert_no_exception(at)
    assert "Read as" in page_words(at) and grid_data(at)["answer"].startswith("Read as")
