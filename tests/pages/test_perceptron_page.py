"""The perceptron page in AppTest, with its widgets pushed to their extremes."""

import pytest
from conftest import assert_no_exception, open_page

DATA = [
    "Linearly separable (25 points, true line y = 1 − x)",
    "XOR (the four corners)",
    "XOR (noisy clusters)",
    "Gaussian clusters",
    "Your points (edit the table)",
]


def test_default_converges_and_shows_every_panel():
    at = open_page("perceptron")
    assert_no_exception(at)
    assert "Converged" in at.success[0].value and "Novikoff" in at.success[0].value
    assert at.slider(key="pc_frame").max > 10
    assert any("median" in c.value for c in at.caption)
    assert at.metric[0].label.startswith("Test accuracy")


def test_xor_gives_the_cycle_verdict_and_the_alternatives():
    at = open_page("perceptron")
    at.selectbox(key="pc_data").set_value(DATA[1]).run()
    assert_no_exception(at)
    verdict = at.error[0].value
    assert "will never converge" in verdict and "no line separates these points" in verdict
    assert at.subheader[0].value == "When no line will do"
    at.selectbox(key="pc_kernel").set_value("polynomial").run()
    assert_no_exception(at)


def test_stepping_and_scrubbing():
    at = open_page("perceptron")
    at.button(key="pc_forward").click().run()
    at.button(key="pc_forward").click().run()
    assert at.slider(key="pc_frame").value == 2
    at.button(key="pc_back").click().run()
    assert at.slider(key="pc_frame").value == 1
    last = at.slider(key="pc_frame").max
    at.slider(key="pc_frame").set_value(last).run()
    assert_no_exception(at)
    at.button(key="pc_forward").click().run()
    assert at.slider(key="pc_frame").value == last  # cannot step past the end
    at.button(key="pc_rewind").click().run()
    assert at.slider(key="pc_frame").value == 0


@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize(("epochs", "speed", "shuffle"), [(1, 1, True), (200, 20, False)])
def test_every_data_set_at_the_extremes(name, epochs, speed, shuffle):
    at = open_page("perceptron")
    at.selectbox(key="pc_data").set_value(name)
    at.slider(key="pc_epochs").set_value(epochs)
    at.slider(key="pc_speed").set_value(speed)
    if shuffle:
        at.checkbox(key="pc_shuffle").check()
    at.run()
    assert_no_exception(at)
    at.button(key="pc_play").click().run()
    assert_no_exception(at)
    at.button(key="pc_new").click().run()
    assert_no_exception(at)
