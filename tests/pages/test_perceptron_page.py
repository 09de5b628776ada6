"""The perceptron page in AppTest, with its widgets pushed to their extremes."""

import json
import re

import numpy as np
import pytest
from conftest import assert_no_exception, open_page

DATA = [
    "Linearly separable (25 points, true line y = 1 − x)",
    "XOR (the four corners)",
    "XOR (noisy clusters)",
    "Gaussian clusters",
    "Your points (click to place)",
]


def player_data(at) -> dict:
    """The JSON the page handed to the browser player (the iframe's srcdoc)."""
    html = at.get("iframe")[0].proto.srcdoc
    return json.loads(re.search(r"const DATA = (\{.*?\});\n", html).group(1).replace("<\\/", "</"))


def test_default_converges_and_shows_every_panel():
    at = open_page("perceptron")
    assert_no_exception(at)
    verdict = at.success[0].value
    assert "Converged" in verdict and "Novikoff" in verdict
    updates = int(re.search(r"after (\d+) updates", verdict).group(1))
    data = player_data(at)
    assert len(data["updates"]) == updates == 48  # the post's set-up: 48 updates in 10 passes
    assert len(data["points"]) == 25 and set(data["labels"]) == {0, 1}
    assert data["verdict"]["kind"] == "good" and "<b>Converged</b>" in data["verdict"]["text"]
    assert data["cycle"] is None
    # Every frame's weights are the model's: the last one separates every point.
    w, b = np.array(data["updates"][-1]["w"]), data["updates"][-1]["b"]
    X, y = np.array(data["points"]), np.array(data["labels"])
    assert np.all(np.where(y == 1, 1, -1) * (X @ w + b) > 0)
    assert "https://" not in at.get("iframe")[0].proto.srcdoc  # nothing is fetched
    assert any("median" in c.value for c in at.caption)
    assert at.metric[0].label.startswith("Test accuracy")
    labels = [b.label for b in at.get("download_button")]
    assert "Download every update (CSV)" in labels and "Download the last frame (PNG)" in labels


def test_xor_gives_the_cycle_verdict_and_the_alternatives():
    at = open_page("perceptron")
    at.selectbox(key="pc_data").set_value(DATA[1]).run()
    assert_no_exception(at)
    verdict = at.error[0].value
    assert "will never converge" in verdict and "no line separates these points" in verdict
    data = player_data(at)
    assert data["cycle"] == [2, 6] and len(data["updates"]) == 6
    assert data["verdict"]["kind"] == "bad" and "will never converge" in data["verdict"]["text"]
    assert at.subheader[0].value == "When no line will do"
    at.selectbox(key="pc_kernel").set_value("polynomial").run()
    assert_no_exception(at)


def test_your_points_undo_and_clear():
    at = open_page("perceptron")
    at.selectbox(key="pc_data").set_value(DATA[4]).run()
    assert_no_exception(at)
    assert len(player_data(at)["points"]) == 8
    at.button(key="pc_undo").click().run()
    assert_no_exception(at)
    assert len(player_data(at)["points"]) == 7
    at.button(key="pc_clear").click().run()
    assert_no_exception(at)
    assert "both classes" in at.warning[0].value  # a clear message, not a traceback
    assert at.button(key="pc_undo").disabled


@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize(("epochs", "shuffle"), [(1, True), (200, False)])
def test_every_data_set_at_the_extremes(name, epochs, shuffle):
    at = open_page("perceptron")
    at.selectbox(key="pc_data").set_value(name)
    at.slider(key="pc_epochs").set_value(epochs)
    if shuffle:
        at.checkbox(key="pc_shuffle").check()
    at.run()
    assert_no_exception(at)
    data = player_data(at)
    assert len(data["updates"]) >= 1
    assert data["verdict"]["kind"] in {"good", "bad", "stop"}
    at.button(key="pc_new").click().run()
    assert_no_exception(at)
