"""Bugs the random walk (tests/browser/test_walk.py) found, pinned in AppTest."""

import pytest
from conftest import assert_no_exception, open_page

from classic.viz import tree_lesson


@pytest.mark.parametrize("points", ["", "0_0_0", "0_0_0~0_1_0", "0_0_0~1_1_1"])
def test_the_tree_on_your_points_cleared_or_few_shows_a_message_not_a_traceback(points):
    """Walk seed 1, /decision-tree?present=1, step 46: "Clear" on "Your points" left no rows and
    the page raised ValueError (X must be non-empty) from ID3's fit."""
    at = open_page("decision-tree", params={"tree_data": tree_lesson.YOURS, "tree_user_points": points})
    assert_no_exception(at)
    if not points:
        assert any("point" in w.value for w in at.warning), [w.value for w in at.warning]
