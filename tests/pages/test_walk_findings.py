"""Bugs the random walk (tests/browser/test_walk.py) found, pinned in AppTest."""

import pytest
from conftest import assert_no_exception, open_page

from classic.lessons import tree as tree_lesson


@pytest.mark.parametrize("points", ["", "0_0_0", "0_0_0~0_1_0", "0_0_0~1_1_1"])
def test_the_tree_on_your_points_cleared_or_few_shows_a_message_not_a_traceback(points):
    """Walk seed 1, /decision-tree?present=1, step 46: "Clear" on "Your points" left no rows and
    the page raised ValueError (X must be non-empty) from ID3's fit."""
    at = open_page("decision-tree", params={"tree_data": tree_lesson.YOURS, "tree_user_points": points})
    assert_no_exception(at)
    if not points:
        assert any("point" in w.value for w in at.warning), [w.value for w in at.warning]


def test_a_slider_moved_twice_quickly_brings_no_link_note():
    """Walk seed 1, /decision-tree, step 25: a click on the depth slider (8) and Home (0) at once;
    the second rerun came with the URL a step behind (tree_depth=8, the browser's own write for
    the first move) and the page noted "ignored tree_depth=8 from the link … using 0"."""
    at = open_page("decision-tree")
    at.query_params["tree_depth"] = "8"  # the URL as the first move left it
    at.slider(key="tree_depth").set_value(0)  # the widget as the second move left it
    at.run()
    assert_no_exception(at)
    assert not [i.value for i in at.info if "could not be used" in i.value]


def test_a_bad_value_in_the_link_is_still_noted_on_the_first_run():
    at = open_page("decision-tree", params={"tree_depth": "abc"})
    assert any("`tree_depth=abc`" in i.value for i in at.info if "could not be used" in i.value)


def test_new_perceptron_data_on_another_tab_takes_the_old_frame_out_of_the_link():
    """Walk seed 2, /perceptron?present=1, step 55: frame 72 in the link, new data chosen on
    another tab (the player's tab not drawn) left pc_frame=72 in the URL; a reload (or the link
    shared) then noted "ignored pc_frame=72 … using 41"."""
    at = open_page("perceptron", params={"pc_frame": "5"})
    assert at.query_params["pc_frame"] == "5"
    at.query_params["pc_tab"] = "When no line will do"
    at.session_state["pc_tab"] = "When no line will do"
    at.run()
    at.number_input(key="pc_seed").set_value(3).run()  # new points, 'Every update' not shown
    assert_no_exception(at)
    assert "pc_frame" not in at.query_params
    again = open_page("perceptron", params=dict(at.query_params))  # the link opened anew
    assert not [i.value for i in again.info if "could not be used" in i.value]
