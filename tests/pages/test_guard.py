"""pages/server/guard.py on its own: each check on values a browser sends (issue 22). The same
checks through the real server are in test_hostile.py."""

import math

import pytest
from streamlit import config

from classic.tables import MAX_COORDINATE, MAX_POINTS
from pages.server import guard
from pages.widgets.points import MAX_URL_POINTS, encode_points


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("7", 7),
        (7.0, 7),
        (-5, 1),
        (10**9, 40),
        ("abc", 3),
        (math.inf, 3),
        (math.nan, 3),
        (None, 3),
        ([4], 3),
        (2.5, 3),
        (True, 3),
    ],
)
def test_a_whole_number_is_clamped_or_the_default(value, expected):
    assert guard.number(value, 1, 40, 3, "k", whole=True) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"x": 1, "y": "2.5"}, (1.0, 2.5)),
        ({"x1": -3, "x2": 4}, (-3.0, 4.0)),
        ({"x": "abc", "y": 1}, None),
        ({"y": 1}, None),
        ({"x": MAX_COORDINATE * 2, "y": 0}, None),
        ({"x": float("inf"), "y": 0}, None),
        ("here", None),
        (None, None),
    ],
)
def test_a_click_is_two_finite_coordinates_within_the_limit(value, expected):
    assert guard.point(value) == expected


def test_edits_beyond_the_points_limit_are_refused_before_they_are_applied():
    added = [{"x1": 0, "x2": 0, "class": 0}] * (MAX_POINTS - 10)
    assert guard.table_edits({"added_rows": added}, 10) is None
    assert f"the limit is {MAX_POINTS:,}" in guard.table_edits({"added_rows": added + added[:1]}, 10)
    assert guard.table_edits({"added_rows": added + added[:5], "deleted_rows": [0, 1, 2, 3, 4]}, 10) is None
    for hostile in (
        [1],
        {"added_rows": "x"},
        {"edited_rows": []},
        {"added_rows": [3]},
        {"deleted_rows": list(range(99))},
        {"deleted_rows": [[1]]},
    ):
        assert guard.table_edits(hostile, 10), hostile


def test_the_settings_a_deployment_needs_are_checked():
    """The repository's .streamlit/config.toml is safe, and an unsafe value is named. (The
    settings are read from the file: tests in this process set client.showErrorDetails to
    "full" to debug, which is what the live check must catch.)"""
    import tomllib

    from conftest import ROOT

    with open(ROOT / ".streamlit" / "config.toml", "rb") as file:
        sections = tomllib.load(file)
    repository = {f"{section}.{key}": v for section, keys in sections.items() for key, v in keys.items()}
    assert guard.deployment_problems(repository) == []
    unsafe = repository | {"server.maxWidgetStateSize": 25}
    assert [p.split(" =")[0] for p in guard.deployment_problems(unsafe)] == ["server.maxWidgetStateSize"]
    saved = config.get_option("client.showErrorDetails")
    config.set_option("client.showErrorDetails", "full")
    try:
        assert any(p.startswith("client.showErrorDetails") for p in guard.deployment_problems())  # live
    finally:
        config.set_option("client.showErrorDetails", saved)


def test_the_points_a_link_carries_stay_well_under_32_kb():
    """A link over ~32 KB may get a 400: the most the app writes (MAX_URL_POINTS points, each of
    class 4 at the extreme coordinates) is under 8 KB."""
    import numpy as np

    X = np.full((MAX_URL_POINTS, 2), -(MAX_COORDINATE - 0.01))
    assert len(encode_points(X, np.full(MAX_URL_POINTS, 4))) < 8_000


def test_every_way_points_arrive_says_a_coordinate_limit_in_the_same_words():
    import numpy as np

    from classic.tables import COORDINATES, parse_points_csv, points_problem
    from pages.widgets.points import decode_points

    with pytest.raises(ValueError) as from_file:
        parse_points_csv(b"x1,x2,label\n0,0,a\n1e308,1,b\n")
    with pytest.raises(ValueError) as from_link:
        decode_points("0_0_0~1_1e308_1", 2)
    from_table = points_problem(np.array([[0, 0], [1e308, 1]]), np.array([0, 1]), 2)
    for message in (str(from_file.value), str(from_link.value), from_table):
        assert message.endswith(COORDINATES), message
