"""Each 2-D lesson links to /compare with its own points (issue 15), and the tree grows on yours.

The link carries the points themselves while two classes of at most ``MAX_URL_POINTS`` fit in
it; larger data go by /compare's name for the same generator; other data link to /compare as
it is. Following the link must show /compare's three panels on those very points.
"""

import re
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest
from conftest import assert_no_exception, open_page

from classic.id3 import ID3
from classic.lessons import tree as tree_lesson
from pages.widgets.points import MAX_URL_POINTS, YOURS, decode_points, encode_points

LINK = re.compile(r"\]\((/compare\?[^)]*)\)")


def compare_link(at) -> dict[str, str]:
    """The query parameters of the page's link to /compare (exactly one such link)."""
    links = [m.group(1) for md in at.markdown for m in LINK.finditer(md.value)]
    assert len(links) == 1, links
    return dict(parse_qsl(urlsplit(links[0]).query))


def compare_panels(params: dict[str, str]):
    at = open_page("compare", params=params)
    assert_no_exception(at)
    return at


@pytest.mark.parametrize(
    "page, params",
    [
        ("perceptron", {}),
        ("knn", {}),
        ("decision-tree", {"tree_data": "Moons (2-D points)"}),
    ],
)
def test_a_lessons_link_opens_compare_on_the_same_points(page, params):
    at = open_page(page, params=params)
    assert_no_exception(at)
    link = compare_link(at)
    assert link["cmp_data"] == YOURS
    X, y = decode_points(link["cmp_user_points"], 2)
    assert 2 <= len(X) <= MAX_URL_POINTS and set(y.tolist()) == {0, 1}
    there = compare_panels(link)
    assert there.selectbox(key="cmp_data").value == YOURS
    shown = there.session_state["cmp_user_points"]
    assert np.array_equal(shown[["x1", "x2"]].to_numpy(), X) and np.array_equal(shown["class"].to_numpy(), y)
    assert len([c for c in there.get("vega_lite_chart") if '"title"' in c.proto.spec]) >= 3


def test_too_many_points_for_a_link_go_by_the_generators_name():
    at = open_page("knn", params={"knn_data": "Moons", "knn_points": "1000"})
    assert compare_link(at) == {"cmp_data": "Moons"}


def test_three_classes_link_to_compare_as_it_is():
    at = open_page("knn", params={"knn_data": "Gaussian clusters around a circle", "knn_classes": "3"})
    assert compare_link(at) == {}


def test_a_table_of_categories_has_no_link():
    at = open_page("decision-tree", params={"tree_data": "Play Tennis"})
    assert_no_exception(at)
    assert not [md for md in at.markdown if "/compare?" in md.value]


def test_the_tree_grows_on_your_points_from_the_link():
    X = np.array([[0.0, 0.0], [0.1, 0.9], [0.9, 0.1], [1.0, 1.0], [0.2, 0.2], [0.8, 0.8]])
    y = np.array([0, 1, 1, 0, 0, 0])
    params = {"tree_data": tree_lesson.YOURS, "tree_user_points": encode_points(X, y), "tree_tab": "Regions"}
    at = open_page("decision-tree", params=params)
    assert_no_exception(at)
    tree = ID3().fit(*tree_lesson.point_table(X, y))
    caption = at.caption[0].value
    assert caption.startswith(f"{tree.n_nodes_} nodes, {tree.n_leaves_} leaves")
    assert f"training accuracy {tree.score(*tree_lesson.point_table(X, y)[:2]):.1%}" in caption
    regions = [c for c in at.get("vega_lite_chart") if '"pick"' in c.proto.spec]
    assert len(regions) == 1 and "class 1" in regions[0].proto.spec
    assert compare_link(at)["cmp_user_points"] == encode_points(X, y)
