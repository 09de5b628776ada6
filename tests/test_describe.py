"""The figures in words (classic.viz.describe) and the k player's own words for its map.

The k player describes its map in the browser for every k (``mapDescription`` in
``assets/knn_player.html``); ``classic.viz.describe.map_description`` is its mirror. Here the
player's module, built as the page mounts it, runs under node on the same maps as the Python and
must say the same words: half-planes in every direction, an island, three classes with one
absent, ties, cells not voted yet, a change since an earlier k, a question that hides the classes.
Without node the mirror tests are skipped, unless ``REQUIRE_BROWSER=1`` (as in CI).
"""

import json
import os
import shutil
import subprocess

import numpy as np
import pytest

from classic.viz.describe import map_description
from pages.widgets.players import player_source

HARNESS = """
let text = "";
for await (const chunk of process.stdin) text += chunk;
const m = await import(process.argv[2]);
const out = JSON.parse(text).map(([winners, tied, names, previous, options]) =>
  m.mapDescription(Int16Array.from(winners), tied && Uint8Array.from(tied), names, previous && Int16Array.from(previous), options));
process.stdout.write(JSON.stringify(out));
"""

NAMES = ["class 0", "class 1", "class 2"]


def grid(R: int) -> tuple[np.ndarray, np.ndarray]:
    """Cell centres in [0, 1]²: rows from the bottom, as the player's cells."""
    centres = (np.arange(R) + 0.5) / R
    return np.meshgrid(centres, centres)  # x by column, y by row


def maps() -> list[tuple[str, np.ndarray, np.ndarray | None, np.ndarray | None, dict]]:
    """(name, winners, tied, previous, options) cases, winners as R × R rows from the bottom."""
    R = 30
    x, y = grid(R)
    rng = np.random.default_rng(35)
    diagonal = (y < x).astype(int)  # class 1 below the line from the bottom left to the top right
    anti = (y > 1 - x).astype(int)  # the other diagonal
    left_right = (x > 0.4).astype(int)
    island = ((x - 0.5) ** 2 + (y - 0.5) ** 2 < 0.05).astype(int)
    three = np.where(x < 0.3, 0, np.where(y > 0.5, 2, 0))  # class 1 nowhere
    checker = ((np.arange(R)[:, None] // 5 + np.arange(R)[None, :] // 5) % 2).astype(int)
    field = rng.normal(size=(3, 2)) @ np.stack([x.ravel(), y.ravel()]) + rng.normal(
        scale=0.2, size=(3, R * R)
    )
    noisy = field.argmax(axis=0).reshape(R, R)
    ties = rng.random((R, R)) < 0.04
    pending = diagonal.copy()
    pending[R // 2 :, :] = -1
    cases = [
        ("diagonal", diagonal, None, None, {"k": 1}),
        ("anti-diagonal", anti, None, None, {"k": 2}),
        ("left and right", left_right, None, None, {}),
        ("island", island, None, None, {"k": 5}),
        ("three, one absent", three, None, None, {"k": 3}),
        ("checkerboard", checker, None, None, {"k": 7}),
        ("noisy with ties", noisy, ties, diagonal, {"k": 4, "previousK": 3}),
        ("one class", np.zeros((R, R), dtype=int), None, None, {"k": 9}),
        ("not voted yet", pending, None, None, {"k": 12}),
        ("changed", anti, None, diagonal, {"k": 8, "previousK": 7}),
        ("unchanged", diagonal, None, diagonal, {"k": 8}),
        ("classes hidden", noisy, ties, anti, {"k": 6, "previousK": 5, "tellClasses": False}),
        ("tiny", np.array([[0, 1], [1, 1]]), None, None, {"k": 1}),
        ("one cell", np.array([[1]]), None, None, {"k": 1}),
    ]
    return cases


def python_text(winners, tied, previous, options) -> str:
    return map_description(
        winners,
        tied,
        NAMES,
        previous,
        k=options.get("k"),
        previous_k=options.get("previousK"),
        tell_classes=options.get("tellClasses", True),
    )


@pytest.fixture(scope="module")
def node_texts(tmp_path_factory) -> list[str]:
    program = shutil.which("node")
    if program is None:
        why = "node is missing (apt-get install nodejs): the k player's description is not checked"
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {why}")
        pytest.skip(why)
    folder = tmp_path_factory.mktemp("describe")
    module, harness = folder / "player.mjs", folder / "describe.mjs"
    module.write_text(player_source("knn_player.html")["js"], encoding="utf-8")
    harness.write_text(HARNESS, encoding="utf-8")
    jobs = [
        [
            winners.ravel().tolist(),
            None if tied is None else tied.ravel().astype(int).tolist(),
            NAMES,
            None if previous is None else previous.ravel().tolist(),
            options,
        ]
        for _, winners, tied, previous, options in maps()
    ]
    done = subprocess.run(
        [program, str(harness), module.as_uri()],
        input=json.dumps(jobs),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("index", range(len(maps())), ids=[case[0] for case in maps()])
def test_the_player_says_what_the_python_says(node_texts, index):
    _, winners, tied, previous, options = maps()[index]
    assert node_texts[index] == python_text(winners, tied, previous, options)


def test_the_shares_and_the_boundary_of_a_diagonal_map():
    R = 30
    x, y = grid(R)
    text = map_description((y > x).astype(int), None, ["setosa", "virginica"], k=3)
    # class 1 above the line from the bottom left to the top right: 465 of 900 cells.
    assert text.startswith("k = 3. setosa covers 52% of the map, virginica 48%.")
    assert "The boundary runs from the top right to the bottom left" in text
    text = map_description((y < 1 - x).astype(int), None, ["a", "b"])
    assert "The boundary runs from the top left to the bottom right" in text


def test_an_island_closes_inside_the_map_and_a_half_plane_says_where_it_is():
    x, y = grid(30)
    island = ((x - 0.5) ** 2 + (y - 0.5) ** 2 < 0.02).astype(int)
    assert "closes on itself inside the map, round the centre." in map_description(island, None, ["a", "b"])
    text = map_description((x > 0.5).astype(int), None, ["a", "b"])
    assert "a covers 50% of the map, b 50%." in text
    assert "runs from the top to the bottom, through the top, the centre and the bottom." in text


def test_ties_changes_and_absent_classes_are_told():
    x, y = grid(20)
    winners = (x > 0.5).astype(int)
    tied = np.zeros_like(winners, dtype=bool)
    tied[:, 9:11] = True  # the two columns beside the boundary
    before = (x > 0.7).astype(int)
    text = map_description(winners, tied, ["a", "b", "c"], before, k=4, previous_k=3)
    assert "No cell goes to c." in text
    assert "Tied votes (greyed) cover 10%." in text
    assert text.endswith("From k = 3: 20% of the map changed class.")
    assert "no cell changed class" in map_description(winners, None, ["a", "b"], winners, k=4, previous_k=3)
    tiny = np.zeros((20, 20), dtype=int)
    tiny[0, 0] = 1
    assert "b under 1%" in map_description(tiny, None, ["a", "b"])
    assert "a covers over 99%" in map_description(tiny, None, ["a", "b"])


def test_a_hidden_question_names_no_class():
    x, y = grid(20)
    text = map_description((x > y).astype(int), None, ["setosa", "virginica"], tell_classes=False)
    assert "setosa" not in text and "virginica" not in text and "covers" not in text
    assert "not told while the question is asked" in text
