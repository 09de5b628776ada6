"""The ID3 page's step player in AppTest: the step it shows is the link's ``tree_step`` (no slider
beside it: the player is the one control), a report from the player moves it and the link, a
hostile value is clamped or ignored with the page's note, and new settings show the whole tree."""

from __future__ import annotations

import json
import os

import pytest
from conftest import ROOT, assert_no_exception

NOTE = "Some settings in this link could not be used"


def linked(params: dict):
    """The page opened from a link carrying ``params`` (as a fresh browser would)."""
    from streamlit.testing.v1 import AppTest

    os.chdir(ROOT)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update(params)
    at.run()
    at.switch_page("pages/decision-tree.py")
    at.run()
    assert_no_exception(at)
    return at


def player(at) -> dict:
    tree = [c for c in at.get("bidi_component") if str(c.key).startswith("tree_")]  # class mode adds its own
    return json.loads(tree[0].proto.json)


def notes(at) -> list[str]:
    return [m.value for m in at.info if m.value.startswith(NOTE)]


def test_a_link_with_a_step_starts_the_player_there():
    at = linked({"tree_data": "Play Tennis", "tree_step": "2"})
    data = player(at)
    assert len(data["steps"]) == 3 and data["start"] == 2 and not notes(at)
    assert not [s for s in at.slider if s.key == "tree_step"]  # the player is the one control
    assert any(e.label.startswith("Split 2 worked by hand") for e in at.expander)
    at.session_state["tree_step"] = 1  # as the player reports the step it rests on
    at.run()
    assert player(at)["start"] == 1 and at.query_params["tree_step"] in ("1", ["1"])
    at.session_state["tree_step"] = 3  # the whole tree is the default: out of the link
    at.run()
    assert player(at)["start"] == 3 and "tree_step" not in at.query_params
    at.session_state["tree_step"] = 1
    at.run()
    at.slider(key="tree_depth").set_value(1).run()  # new settings: the whole new tree
    assert player(at)["start"] == len(player(at)["steps"]) == 1 and "tree_step" not in at.query_params


@pytest.mark.parametrize(("text", "start"), [("-1", 0), (str(10**9), 3), ("abc", 3), ("1.5", 3)])
def test_a_bad_step_in_a_link_is_clamped_or_ignored_with_a_note(text, start):
    at = linked({"tree_data": "Play Tennis", "tree_step": text})
    assert player(at)["start"] == start
    assert len(notes(at)) == 1 and f"tree_step={text}" in notes(at)[0] and f"using `{start}`" in notes(at)[0]


def test_the_regions_tab_shows_the_whole_tree_and_reports_nothing():
    at = linked({"tree_data": "XOR (2-D points)", "tree_tab": "Regions", "tree_step": "1"})
    data = player(at)
    assert data["start"] == len(data["steps"]) and data["report"] is False
