"""The ID3 page in AppTest: every table and tab, widgets at their extremes, the sources' numbers
(the slides' 0.9183 / 0.6887 / 0.3113 and their ln figures, Test1 vs Test2, the post's claims on
the votes), links that carry the view, uploads good, bad and hostile (and that no link keeps
them), and each "Try this" step: asked, nothing of its answer shown; revealed, the library's."""

from __future__ import annotations

import json
import math
import os
import re

import numpy as np
import pytest
from conftest import ROOT, assert_no_exception, open_page

from classic import criteria, datasets, id3, tables
from classic.lessons import tree as lesson
from classic.lessons import tree_sources
from classic.viz import tree
from classic.viz import tree_figures as figures
from pages.server.url import code_span, escape_markdown

TABLES = [name for name in lesson.data_sets(None) if name != lesson.UPLOAD]
SMALL = [
    "Arya's riding data (the post)",
    "Play Tennis",
    "HasKids & Dora (the slides)",
    "Test1 vs Test2 (the slides)",
]
TABS = ["Tree", "Regions", "Data & rules", "Evaluation", "AND vs parity"]
HOSTILE = "![x](http://example.invalid/a.png)"


def linked(params: dict, timeout: float = 60):
    """The page opened from a link carrying ``params`` (as a fresh browser would)."""
    from streamlit.testing.v1 import AppTest

    os.chdir(ROOT)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    for key, value in params.items():
        at.query_params[key] = str(value)
    at.run()
    at.switch_page("pages/decision-tree.py")
    at.run()
    assert_no_exception(at)
    return at


def player(at, index: int = 0) -> dict:
    """The JSON the step player was given (a components.v2 component)."""
    return json.loads(players(at)[index].proto.json)


def players(at) -> list:
    """The page's tree players (class mode may add components of its own)."""
    return [c for c in at.get("bidi_component") if str(c.key).startswith("tree_")]


def text(at) -> str:
    return " ".join(
        e.value for e in [*at.markdown, *at.caption, *at.info, *at.error, *at.success, *at.warning]
    )


def test_default_page_plays_arya_tree_with_a_path():
    at = open_page("decision-tree")
    assert_no_exception(at)
    assert at.title[0].value == "ID3 decision tree"
    data = player(at)
    model = id3.ID3(missing="branch").fit(*datasets.load_arya())
    assert len(data["nodes"]) == model.n_nodes_ and data["start"] == len(data["steps"])
    assert data["nodes"][0]["test"] == model.root_.feature == "Temperature"
    assert data["path"] == [node.id for node in model.decision_path(datasets.load_arya()[0][0])]
    assert data["theme"]["highlight"] == figures.theme.HIGHLIGHT
    assert [t.label for t in at.tabs] == TABS


@pytest.mark.parametrize("table", TABLES)
def test_every_table_on_every_tab_with_widgets_at_their_extremes(table):
    at = linked({"tree_data": table})
    for tab in TABS:
        at.session_state["tree_tab"] = tab
        at.run()
        assert_no_exception(at)
    at.session_state["tree_tab"] = "Tree"
    for key, value in (("tree_depth", 1), ("tree_depth", 12), ("tree_min_gain", 0.5), ("tree_min_gain", 0.0)):
        at.slider(key=key).set_value(value).run()
        assert_no_exception(at)
    data = player(at)
    assert data["start"] == len(data["steps"])  # the whole tree
    at.session_state["tree_step"] = 0  # as the player reports its first step
    at.run()
    assert player(at)["start"] == 0
    at.number_input(key="tree_row").set_value(5000).run()
    assert_no_exception(at)
    at.toggle(key="tree_prune").set_value(True).run()
    for fraction in (0.1, 0.5):
        at.slider(key="tree_fraction").set_value(fraction).run()
        assert_no_exception(at)
    at.number_input(key="tree_seed").set_value(2**31 - 1).run()
    assert_no_exception(at)
    assert re.search(r"\b\d+ nodes?, \d+ lea(f|ves), depth \d+", text(at))  # a pruned tree may be 1 node


def test_depth_one_and_a_high_minimum_gain_shrink_the_tree():
    at = linked({"tree_data": "Play Tennis", "tree_depth": 1})
    assert "depth 1" in text(at) and len(player(at)["steps"]) == 1
    at = linked({"tree_data": "Play Tennis", "tree_min_gain": 0.5})
    model = id3.ID3(missing="branch", min_gain=0.5).fit(*datasets.load_play_tennis())
    assert player(at)["steps"] == [] and model.n_nodes_ == model.n_leaves_ == 1
    assert "1 node, 1 leaf, depth 0" in text(at) and "follows 1 node (outlined)" in text(at)
    assert "1 nodes" not in text(at) and "1 leaves" not in text(at)


def test_the_slides_hasKids_table_in_bits_and_in_nats():
    at = linked({"tree_data": "HasKids & Dora (the slides)", "tree_step": 1})
    step = player(at)["steps"][0]
    assert step["rows"] == [["HasKids", "1.0000", "0.6887", "0.3113"]]
    assert step["header"][1:3] == ["H (bits) before", "H (bits) after"]
    assert "Yes: 6 rows (No 2 · Yes 4), H (bits) = 0.9183, weight 6/8" in step["terms"]["HasKids"]
    (terms,) = (frame.value for frame in at.dataframe)  # one gain table (the player's), not two
    assert "gain" not in terms.columns
    assert terms["H (bits)"].tolist() == ["0.0000", "0.9183"] and terms["weight"].tolist() == ["2/8", "6/8"]
    # The slides: H(y) = 1 bit, H(y | Yes) = 0.9183 bits, then 0.6365 and H(y | x) = 0.4774 in nats.
    yes_nats = 2 / 3 * math.log(3 / 2) + 1 / 3 * math.log(3)
    assert round(yes_nats, 4) == 0.6365 and round(0.75 * yes_nats, 4) == 0.4774
    slip, right = 1 - round(0.75 * yes_nats, 4), 1 - 0.75 * yes_nats / math.log(2)
    assert f"1.0000 bit − 0.4774 nats = **{slip:.4f}**" in text(at) and f"**{right:.4f} bits**" in text(at)
    assert f"{slip:.4f}" == "0.5226" and f"{right:.4f}" == "0.3113"
    # "nats" relabels the player's own table: the same counts in natural logs.
    at = linked({"tree_data": "HasKids & Dora (the slides)", "tree_log": "nats (ln)"})
    step = player(at)["steps"][0]
    assert step["header"][1:3] == ["H (nats) before", "H (nats) after"]
    gain = math.log(2) - 0.75 * yes_nats
    assert step["rows"] == [["HasKids", f"{math.log(2):.4f}", f"{0.75 * yes_nats:.4f}", f"{gain:.4f}"]]
    (terms,) = (frame.value for frame in at.dataframe)
    assert terms["H (nats)"].tolist() == ["0.0000", "0.6365"]
    at = linked({"tree_data": "Play Tennis", "tree_step": 1})  # the slides' note only where it applies
    assert "switch logarithms" not in text(at) and len(at.dataframe) == 1


def test_the_slides_test1_beats_test2():
    at = linked({"tree_data": "Test1 vs Test2 (the slides)"})
    step = player(at)["steps"][0]
    assert step["rows"][step["chosen"]][0] == "Test1"
    assert {row[0]: row[-1] for row in step["rows"]} == {"Test1": "0.1226", "Test2": "0.0225"}


def test_step_table_and_terms_show_the_same_numbers_on_the_votes(data_home):
    at = linked(
        {
            "tree_data": lesson.VOTES,
            "tree_votes_rows": lesson.VOTES_ROWS["all"],
            "tree_missing": lesson.MISSING_NAMES["branch"],
            "tree_step": 2,
        }
    )
    step = player(at)["steps"][1]  # the one gain table: the player's, printed to 4 places
    (terms,) = (frame.value for frame in at.dataframe)
    for cells in step["rows"]:
        row = dict(zip(step["header"], cells, strict=True))
        mine = terms[terms["test"] == row["test"]]
        known = mine[mine["weight"] != "no branch"]
        weights = [int(a) / int(b) for a, b in (w.split("/") for w in known["weight"])]
        after = sum(w * float(h) for w, h in zip(weights, known["H (bits)"], strict=True))
        assert after == pytest.approx(float(row["H (bits) after"]), abs=1e-3)  # terms printed to 4 places
        gain = float(row["known share"]) * (float(row["H (bits) before"]) - float(row["H (bits) after"]))
        assert float(row["known-share gain"]) == pytest.approx(gain, abs=2e-4)


def test_missing_value_rules_are_named_for_what_they_are_and_linked_by_name():
    at = open_page("decision-tree")
    options = at.selectbox(key="tree_missing").options
    assert "Follow every branch, counts added (the post)" in options
    assert "Fractional, weighted by training share (C4.5)" in options
    at = linked({"tree_missing": "Fractional, weighted by training share (C4.5)"})  # links carry the label
    assert at.selectbox(key="tree_missing").value == "fractional"


def test_votes_evaluation_sets_the_posts_claims_beside_the_computed_numbers(data_home):
    at = linked({"tree_data": lesson.VOTES, "tree_tab": "Evaluation"}, timeout=120)
    X, y, names = datasets.load_house_votes()
    claims = at.dataframe[-1].value
    assert list(claims.columns) == [
        "claim",
        "the post",
        "computed here",
        "tied votes",
        "ties broken the post's way",
    ]
    assert set(claims["the post"]) == {
        "around 90%",
        "roughly half",
        "adoption-of-the-budget-resolution",
        "very few",
    }
    assert claims["computed here"].tolist()[4] == "203 of 435 (47%)"
    roots = tree_sources.complete_rows_root(X, y, names)
    assert roots == {"weighted": "physician-fee-freeze", "unweighted": "physician-fee-freeze"}
    assert claims["computed here"].tolist()[5:7] == ["physician-fee-freeze", "physician-fee-freeze"]
    results = tree_sources.posts_protocol(X, y)
    rows = claims.head(len(results))
    for result, (_, row) in zip(results, rows.iterrows(), strict=True):
        assert row["computed here"] == f"{result.correct}/{result.total} = {result.accuracy:.1%}"
        assert row["tied votes"] == str(result.ties)
        other = result.correct_other_tie_order
        assert row["ties broken the post's way"] == f"{other}/{result.total} = {other / result.total:.1%}"
    # The post's rule: 194 sure answers and one 1–1 tie (a democrat) that goes right here, the
    # other way in the post's Python 2 code: 195/203 = 96.1% here, 194/203 = 95.6% there.
    post = next(r for r in results if (r.gain, r.missing) == ("weighted", "branch"))
    assert (post.correct, post.ties, post.tied_right, post.correct_other_tie_order) == (195, 1, 1, 194)
    assert post.tied_labels == ("democrat",) and rows_with_missing_row(X, post.tied_rows[0])
    assert (
        rows["computed here"][0] == "195/203 = 96.1%"
        and rows["ties broken the post's way"][0] == "194/203 = 95.6%"
    )
    note = lesson.ties_note(results)
    assert (
        note in text(at) and f"table row {post.tied_rows[0]} (democrat)" in note and "194/203 = 95.6%" in note
    )
    # "Very few Democrats voted in favor" of the budget resolution: most of them did.
    budget = X[:, names.index("adoption-of-the-budget-resolution")]
    democrats, republicans = (budget[y == party] for party in ("democrat", "republican"))
    yes = {
        party: int((votes == "y").sum())
        for party, votes in (("democrat", democrats), ("republican", republicans))
    }
    known = {
        party: int((votes != "?").sum())
        for party, votes in (("democrat", democrats), ("republican", republicans))
    }
    assert (yes["democrat"], known["democrat"], yes["republican"], known["republican"]) == (231, 260, 22, 164)
    assert claims["computed here"].tolist()[-1] == "democrats 231 of 260 (89%); republicans 22 of 164 (13%)"
    assert claims["the post"].tolist()[-1] == "very few"
    assert "10-fold cross-validation" in at.dataframe[0].value["experiment"].tolist()[0]
    assert at.get("vega_lite_chart")


def rows_with_missing_row(X, row: int) -> bool:
    """Whether table row ``row`` (from 1) has a "?": a row of the post's test."""
    return "?" in X[row - 1].tolist()


def test_regions_of_2d_points_one_box_per_leaf_and_the_chosen_points_leaf_outlined():
    at = linked({"tree_data": "XOR (2-D points)", "tree_tab": "Regions", "tree_row": 3})
    X, y = datasets.xor(200, 0.15, 0)
    model = id3.ID3(missing="branch").fit(X, np.char.add("class ", y.astype(str)), ["x1", "x2"])
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    boxes = spec["layer"][0]["data"]["values"]
    assert len(boxes) == model.n_leaves_
    assert [b["leaf"] for b in boxes if b["on_path"]] == [int(model.apply(X[2:3])[0])]
    assert player(at)["path"][-1] == int(model.apply(X[2:3])[0])


def test_and_against_parity_plot_uses_the_librarys_counts():
    at = linked({"tree_tab": "AND vs parity"})
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    sizes = tree_sources.representation_sizes()
    assert (
        spec["title"] == "Nodes ID3 needs for n binary features"
        and spec["encoding"]["y"]["scale"]["type"] == "log"
    )
    values = figures.representation_spec(sizes)["data"]["values"]
    assert (
        [v["nodes"] for v in values if v["function"] == "parity"]
        == sizes["parity"]
        == [2 ** (n + 1) - 1 for n in range(2, 9)]
    )
    assert [v["nodes"] for v in values if v["function"] == "AND"] == [2 * n + 1 for n in range(2, 9)]
    assert "O(2ⁿ)" in text(at)


def test_a_pruned_tree_with_a_minimum_gain_comes_back_from_its_link(data_home):
    settings = {"tree_data": lesson.VOTES, "tree_prune": "true", "tree_min_gain": 0.05, "tree_seed": 3}
    first, second = linked(settings), linked(settings)
    assert player(first)["nodes"] == player(second)["nodes"]
    model = id3.PrunedID3(missing="branch", min_gain=0.05, validation_fraction=0.25, random_state=3)
    model.fit(*datasets.load_house_votes())
    assert len(player(first)["nodes"]) == model.n_nodes_ < 61


def test_hostile_link_values_are_ignored_with_a_note():
    at = linked({"tree_data": HOSTILE, "tree_depth": "1e308", "tree_tab": "<script>"})
    assert at.selectbox(key="tree_data").value == TABLES[0]
    assert "could not be used" in text(at)


def upload(at, name: str, data: bytes):
    at.file_uploader(key="tree_upload").set_value((name, data, "text/csv")).run()
    assert_no_exception(at)
    return at


def test_an_uploaded_csv_grows_a_tree_and_bad_files_give_one_clear_error():
    at = linked({"tree_data": lesson.UPLOAD})
    assert "Upload a CSV file" in at.info[0].value
    upload(
        at, "days.csv", b"Outlook,Wind,Play\nSunny,Weak,No\nRain,Strong,Yes\nSunny,Strong,No\nRain,Weak,Yes\n"
    )
    assert player(at)["nodes"][0]["test"] == "Outlook"
    numeric = b"size,weight,label\n1,5,a\n2,6,a\n3,7,b\n4,8,b\n"
    upload(at, "numbers.csv", numeric)
    assert player(at)["nodes"][0]["test"] == "size" and any(
        "<=" in (n["edge"] or "") for n in player(at)["nodes"]
    )
    for name, data in (
        ("ragged.csv", b"a,b,c\nx,y\n1,2,3\n"),
        ("picture.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00"),
        ("empty.csv", b""),
        ("header.csv", b"a,a\n1,2\n3,4\n"),
        ("blank-label.csv", b"f,label\nx,Yes\ny,\nz,No\n"),
        ("control.csv", b"a,b\nx\x07,1\ny,2\n"),
    ):
        upload(at, name, data)
        assert len(at.error) == 1 and "cannot be used" in at.error[0].value, name
        assert not players(at)


def _reason(data: bytes, label: str | None = None) -> str:
    """Why ``classic.tables`` refuses a file (its label column: ``label``, else the last)."""
    try:
        table = tables.parse_csv(data)
        table.split(label or table.columns[-1])
    except ValueError as error:
        return str(error)
    raise AssertionError("the library accepts this file")


def test_every_upload_error_is_the_librarys_reason_and_no_message_ends_twice():
    # An old message read "… every row needs a label.." (the page added a period to the library's).
    classes = "f,label\n" + "\n".join(f"v{i % 3},c{i}" for i in range(tables.MAX_CLASSES + 1))
    values = "f,label\n" + "\n".join(f"v{i},{i % 2}" for i in range(tables.MAX_CATEGORIES + 1))
    cases = {
        "ragged.csv": b"a,b,c\nx,y\n1,2,3\n",
        "picture.csv": b"\x89PNG\r\n\x1a\n\x00\x00\x00",
        "empty.csv": b"",
        "one-row.csv": b"a,b\n1,2\n",
        "header.csv": b"a,a\n1,2\n3,4\n",
        "blank-label.csv": b"f,label\nx,Yes\ny,\nz,No\n",
        "control.csv": b"a,b\nx\x07,1\ny,2\n",
        "classes.csv": classes.encode(),
        "categories.csv": values.encode(),
    }
    at = linked({"tree_data": lesson.UPLOAD})
    for name, data in cases.items():
        upload(at, name, data)
        assert [e.value for e in at.error] == [
            f"The file {code_span(name)} cannot be used: {code_span(_reason(data))}"
        ]
    reasons = {_reason(data) for data in cases.values()}
    assert len(reasons) == len(cases)  # each path of its own
    assert any(r.endswith("every row needs a label") for r in reasons)
    # A label chosen after the upload: column g is blank in data row 1.
    good = b"f,g,label\nx,,Yes\ny,1,No\nz,2,Yes\n"
    upload(at, "later.csv", good)
    assert not at.error and player(at)["nodes"]
    at.selectbox(key="tree_label").set_value("g").run()
    assert [e.value for e in at.error] == [
        f"The file {code_span('later.csv')} cannot be used: {code_span(_reason(good, 'g'))}"
    ]
    messages = [*reasons, _reason(good, "g"), *(e.value for e in at.error), text(at)]
    assert not [m for m in messages if ".." in m]


def test_markup_in_an_upload_is_shown_as_text_everywhere():
    at = linked({"tree_data": lesson.UPLOAD})
    evil = (
        f"{HOSTILE},label\nyes,[a](http://example.invalid)\nno,b\nyes,[a](http://example.invalid)\n".encode()
    )
    upload(at, "evil.csv", evil)
    data = player(at)
    assert data["nodes"][0]["test"] == HOSTILE  # JSON text, set with textContent by the player
    link = "[a](http://example.invalid)"
    summary = next(c.value for c in at.caption if "follows" in c.value)
    assert code_span(link) in summary  # the row's label, verbatim in a code span
    markdown = " ".join(e.value for e in [*at.markdown, *at.caption, *at.error, *at.info])
    assert markdown.replace(code_span(link), "").count("](http") == 0  # no other copy outside a code span
    for tab in ("Data & rules", "Evaluation", "Regions"):
        at.session_state["tree_tab"] = tab
        at.run()
        assert_no_exception(at)
    upload(at, HOSTILE + ".csv", b"a,a\n1,2\n")
    assert at.error[0].value.startswith(f"The file {code_span(HOSTILE + '.csv')} cannot be used: `")


def test_presenting_an_upload_its_tables_show_markup_as_typed():
    """On the projector a small table is st.table, which reads each header and cell as Markdown: a
    file's "[a](http://…)" class was a link (an image would be fetched) and a "-" label a bullet."""
    at = linked({"present": "true", "tree_data": lesson.UPLOAD})
    evil = f"{HOSTILE},label\nyes,[a](http://example.invalid)\nno,-\nyes,[a](http://example.invalid)\n"
    upload(at, "evil.csv", evil.encode())
    shown = at.table[0].value  # the split worked by hand
    texts = [*map(str, shown.columns), *(v for v in shown.to_numpy().ravel() if isinstance(v, str))]
    assert "[a](http://example.invalid)" not in texts  # only escaped copies
    assert escape_markdown("[a](http://example.invalid)") in texts and escape_markdown(HOSTILE) in texts
    assert escape_markdown("-") in texts and not [t for t in texts if re.search(r"(?<!\\)[\[\]()!]", t)]


def test_a_table_too_big_to_draw_is_drawn_to_a_depth_with_a_note():
    rng = np.random.default_rng(0)
    values = np.char.add("v", rng.integers(0, 30, size=(600, 8)).astype(str))
    rows = "\n".join(",".join(r) + f",{c}" for r, c in zip(values, rng.integers(0, 4, 600), strict=True))
    at = linked({"tree_data": lesson.UPLOAD})
    upload(at, "big.csv", (",".join(f"c{j}" for j in range(8)) + ",label\n" + rows).encode())
    data = player(at)
    assert len(data["nodes"]) <= figures.MAX_DRAWN_NODES and data["note"].startswith("The tree is too big")
    assert "too big to draw" in text(at)


def reveal(at, index: int, choice: str):
    at.radio(key=f"decision-tree_try_{index}").set_value(choice).run()
    assert_no_exception(at)
    return at


def test_each_try_this_step_reveals_the_librarys_answer():
    at = open_page("decision-tree")
    steps = lesson.try_this_steps()
    assert 4 <= len(steps) <= 6
    tennis = id3.ID3().fit(*datasets.load_play_tennis())
    X, y, _ = datasets.load_has_kids()
    expected = [
        tennis.root_.feature,
        f"{criteria.information_gain(X[:, 0], y):.4f}",
        id3.ID3().fit(*datasets.load_two_tests()).root_.feature,
        "Yes" if id3.ID3().fit(*datasets.load_arya()).root_.feature == "Wind" else "No",
        str(2 ** (4 + 1) - 1),
    ]
    assert [step["answer"] for step in steps] == expected == ["Outlook", "0.3113", "Test1", "No", "31"]
    for i, step in enumerate(steps, start=1):
        reveal(at, i, step["answer"])
        assert any(f"Right: **{step['answer']}**" in s.value for s in at.success)
        wrong = next(option for option in step["options"] if option != step["answer"])
        reveal(at, i, wrong)
        assert any(f"it is **{step['answer']}**" in w.value for w in at.warning)


def test_how_it_works_shows_the_textbook_id3_and_the_scoring_function():
    at = open_page("decision-tree")
    assert not at.code and not at.latex  # drawn only once opened
    at.session_state["how_it_works"] = True  # the student opens it: a rerun
    at.run()
    assert len(at.latex) == len(lesson.HOW_IT_WORKS["formulas"])
    code = " ".join(c.value for c in at.code)
    assert "def textbook_id3" in code and "def split_scores" in code
    assert "where.get(i, majority)" in code  # the printed ID3 sends rows missing a value the majority way
    assert "all 435 votes (“?” included)" in " ".join(
        m.value for m in at.markdown
    )  # tests/test_id3.py proves it
    X, y, _ = datasets.load_has_kids()
    assert math.isclose(criteria.information_gain(X[:, 0], y), 0.3113, abs_tol=5e-5)


def test_data_and_rules_tab_shows_the_table_a_rule_per_leaf_and_the_tree_as_dot():
    at = linked({"tree_data": "Play Tennis", "tree_tab": "Data & rules"})
    table = at.dataframe[0].value
    assert (
        list(table.columns) == ["Outlook", "Temperature", "Humidity", "Wind", "class ←"] and len(table) == 14
    )
    rules = at.code[0].value.splitlines()
    model = id3.ID3(missing="branch").fit(*datasets.load_play_tennis())
    assert rules == model.rules() and len(rules) == model.n_leaves_
    button = at.get("download_button")[0]
    assert button.proto.label == "Tree (DOT)"


def test_a_dot_drawing_cut_to_a_depth_says_what_it_leaves_out():
    values = np.char.add("v", np.random.default_rng(1).integers(0, 30, size=(600, 8)).astype(str))
    labels = np.random.default_rng(2).integers(0, 4, 600).astype(str)
    drawing = tree.to_dot(id3.ID3().fit(values, labels))
    assert not drawing.complete
    assert lesson.dot_note(drawing).startswith(
        f"Levels 0–{drawing.depth} of 0–{drawing.full_depth} are drawn"
    )
    assert lesson.dot_note(tree.to_dot(id3.ID3().fit(*datasets.load_play_tennis()))) is None


@pytest.mark.parametrize("index", range(len(lesson.try_this_steps())))
def test_each_try_this_setup_button_opens_its_view(index):
    step = lesson.try_this_steps()[index]
    at = open_page("decision-tree")
    at.button(key=f"decision-tree_try_{index + 1}_setup").click().run()
    assert_no_exception(at)
    for key, value in step["setup"].items():
        assert at.session_state[key] == value
    if "tree_data" in step["setup"]:  # a question on what ID3 will do: nothing of the answer shown yet
        assert step["setup"]["tree_step"] == 0 and player(at)["start"] == 0
        assert not any(e.label.startswith("Split ") for e in at.expander)
        assert player(at)["steps"] == [] and player(at)["withheld"] is True


def ask(at, index: int):
    """Step ``index`` (from 1) set up, as "Set up this view" does: asked, its answer not yet chosen."""
    at.button(key=f"decision-tree_try_{index}_setup").click().run()
    assert_no_exception(at)
    return at


def withheld_notes(at) -> list[str]:
    return [c.value for c in at.caption if "is hidden until the answer is revealed" in c.value]


@pytest.mark.parametrize("index", [1, 2, 3, 4])
def test_a_question_on_the_tree_hides_its_splits_shows_its_data_and_the_reveal_opens_the_first_split(index):
    """The player once carried every split (its test, its score table) at 0 splits: one press of →
    read the answer, and the page's JSON held it before the reveal."""
    step = lesson.try_this_steps()[index - 1]
    at = ask(open_page("decision-tree"), index)
    data = player(at)
    X, y, names = lesson.data_sets(None)[step["setup"]["tree_data"]]()
    assert [n["test"] for n in data["nodes"]] == [None] and data["steps"] == [] and data["note"] == ""
    assert sum(data["nodes"][0]["counts"]) == len(y)  # the root and its rows: what the question is on
    assert len(data["path"]) == 1 and data["withheld"] is True
    assert withheld_notes(at) and not any("training accuracy" in c.value for c in at.caption)
    shown = at.dataframe[0].value if at.dataframe else at.table[0].value
    assert list(shown.columns)[:-1] == list(names) and len(shown) == len(y)
    reveal(at, index, step["answer"])
    data = player(at)
    assert data["withheld"] is False and data["start"] == 1  # the first split: the answer, with its scores
    assert data["nodes"][0]["test"] == id3.ID3().fit(X, y, names).root_.feature and data["steps"]
    assert not withheld_notes(at) and any("training accuracy" in c.value for c in at.caption)
    assert any(e.label.startswith("Split 1 worked by hand") for e in at.expander)


def test_a_large_table_under_a_question_scrolls_in_a_grid_on_the_projector():
    at = ask(open_page("decision-tree", params={"present": "true"}), 1)
    assert len(at.table[0].value) == 14  # the sources' small tables: whole, at the projector's size
    at.selectbox(key="tree_data").set_value("XOR (2-D points)").run()  # still asked: still hidden
    assert withheld_notes(at) and not at.table and len(at.dataframe[0].value) == 200


def test_a_question_on_the_tree_keeps_its_rules_hidden_on_the_data_tab():
    at = ask(open_page("decision-tree"), 1)
    at.session_state["tree_tab"] = "Data & rules"  # the student looks for the answer elsewhere
    at.run()
    assert len(at.dataframe[0].value) == 14 and not at.code and not at.get("download_button")
    assert withheld_notes(at)
    reveal(at, 1, "Temperature")  # a wrong answer reveals too
    assert at.code[0].value.splitlines() == id3.ID3().fit(*datasets.load_play_tennis()).rules()


def test_arya_asked_shows_the_posts_tree_alone_until_the_reveal():
    """ID3's tree was drawn beside the post's, its note saying "ID3 asks about Temperature first",
    while the class was asked whether ID3 agrees with the post's Wind at the root."""
    at = ask(open_page("decision-tree"), 4)
    charts = at.get("graphviz_chart")
    assert len(charts) == 1 and re.search(r"n0 \[label=<<B>Wind</B>", charts[0].proto.spec)
    assert "ID3 asks about" not in text(at) and "beside the tree ID3 grows" not in text(at)
    assert "ID3's own tree is hidden until the answer is revealed." in [
        c.value.split(": ", 1)[-1] for c in at.caption
    ]
    reveal(at, 4, "Yes")
    charts = at.get("graphviz_chart")
    assert len(charts) == 2 and re.search(r"n0 \[label=<<B>Temperature</B>", charts[1].proto.spec)
    assert "disagree on" in text(at)


def lines(at) -> list[str]:
    """The functions the AND/parity chart draws a line for (its colour scale's domain)."""
    return json.loads(at.get("vega_lite_chart")[0].proto.spec)["encoding"]["color"]["scale"]["domain"]


def test_parity_asked_shows_and_alone_without_the_formula_until_the_reveal():
    """The caption under the chart said "parity needs 7 and 511 (2ⁿ⁺¹ − 1 …)" and the chart drew
    parity's line through 31 at n = 4 while the class was asked how many nodes parity of 4 bits needs."""
    at = ask(open_page("decision-tree"), 5)
    assert lines(at) == ["AND"]
    assert lesson.PARITY_NODES not in text(at) and "O(2ⁿ)" not in text(at) and "2n + 1" in text(at)
    assert withheld_notes(at)
    reveal(at, 5, "15")
    assert lines(at) == ["AND", "parity"] and "O(2ⁿ)" in text(at) and not withheld_notes(at)


def test_an_upload_says_it_is_kept_in_no_link_where_the_links_are():
    """A link to the view with an upload opened on an empty upload box, and nothing said so."""
    at = linked({"tree_data": lesson.UPLOAD})
    upload(at, "days.csv", b"Outlook,Wind,Play\nSunny,Weak,No\nRain,Strong,Yes\nSunny,Strong,No\n")
    notes = [c.value for c in at.caption if lesson.UPLOAD_NOT_IN_LINK in c.value]
    assert len(notes) == 2  # under the upload box, and beside the steps' "Link to this view"
    captions = [c.value for c in at.caption]
    assert captions.index(notes[0]) < next(i for i, c in enumerate(captions) if "follows" in c)
    assert "Link to this view" in lesson.UPLOAD_NOT_IN_LINK
    at = linked({"tree_data": "Play Tennis"})
    assert not [c for c in at.caption if lesson.UPLOAD_NOT_IN_LINK in c.value]


def test_a_large_upload_is_evaluated_only_when_asked_and_lists_a_bounded_number_of_rules():
    rng = np.random.default_rng(3)
    values = np.char.add("v", rng.integers(0, 3, size=(2100, 10)).astype(str))
    labels = np.where(values[:, 0] == "v0", "yes", "no")
    header = ",".join(f"c{j}" for j in range(10)) + ",label\n"
    body = "\n".join(",".join(r) + f",{c}" for r, c in zip(values, labels, strict=True))
    at = linked({"tree_data": lesson.UPLOAD, "tree_tab": "Evaluation"})
    upload(at, "large.csv", (header + body).encode())
    assert lesson.slow_to_evaluate(values) and not at.dataframe
    at.toggle(key="tree_run").set_value(True).run()
    assert_no_exception(at)
    assert at.dataframe[0].value["experiment"].tolist()[0] == "10-fold cross-validation"
    assert lesson.rules_heading(3) == "3 rules, one per leaf: the tree in disjunctive normal form."
    assert lesson.rules_heading(5000).endswith(f"the first {lesson.MAX_RULES} are listed.")


def test_an_upload_of_two_numeric_columns_is_drawn_as_regions():
    at = linked({"tree_data": lesson.UPLOAD, "tree_tab": "Regions"})
    rows = [
        ("0", "0", "a"),
        ("0", "1", "b"),
        ("1", "0", "b"),
        ("1", "1", "a"),
        ("0.1", "0.1", "a"),
        ("0.9", "0.1", "b"),
    ]
    upload(at, "points.csv", ("x1,x2,label\n" + "\n".join(",".join(r) for r in rows)).encode())
    table = np.array(rows)
    model = id3.ID3(missing="branch").fit(table[:, :2], table[:, 2], ["x1", "x2"])
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert len(spec["layer"][0]["data"]["values"]) == model.n_leaves_ > 1
    at = linked({"tree_data": "Play Tennis", "tree_tab": "Regions"})
    assert "two numeric columns" in at.info[0].value


def test_arya_the_posts_hand_drawn_tree_beside_the_tree_id3_grows():
    """The home page promised it; nothing drew it. The post: Wind at the root, Temperature under
    Wind = Low, every leaf pure on the six days, a "None" leaf for Low wind and Hot."""
    X, y, names = datasets.load_arya()
    at = linked({"tree_data": "Arya's riding data (the post)"})
    charts = at.get("graphviz_chart")
    assert len(charts) == 2
    post, ours = (chart.proto.spec for chart in charts)
    assert re.search(r"n0 \[label=<<B>Wind</B>", post) and "<B>Temperature</B>" in post
    assert "no training rows" in post  # the post's "None" leaf (Wind = Low, Temperature = Hot)
    # The source's table: each Temperature has one label, so ID3 needs one question (gain = H(y)).
    by_temperature = {t: set(y[X[:, 1] == t]) for t in set(X[:, 1])}
    assert all(len(labels) == 1 for labels in by_temperature.values())
    assert re.search(r"n0 \[label=<<B>Temperature</B>", ours) and "<B>Wind</B>" not in ours
    shown = text(at)
    assert shown.count("6 of 6 days right (100%)") == 2
    post_tree, id3_tree = (tree for _, tree in lesson.arya_trees(X, y, names))
    differ, total = tree_sources.disagreement(post_tree, id3_tree)
    assert total == 4 * 3 * 3 * 2 and f"disagree on {differ} of the {total} possible days" in shown
    assert 0 < differ < total
    at = linked({"tree_data": "Play Tennis"})
    assert not at.get("graphviz_chart")


def test_the_votes_tree_is_grown_as_in_the_post_by_default(data_home):
    """The post grows its tree on the rows without a "?" and tests it on the others; the page grew
    it on all 435 rows with C4.5's known-share gain, unnamed, under a sidebar saying "(the post)"."""
    X, y, names = datasets.load_house_votes(data_home)
    missing = id3.rows_with_missing(X)
    assert (int((~missing).sum()), int(missing.sum())) == (232, 203)  # "roughly half" have a "?"
    at = linked({"tree_data": lesson.VOTES})
    assert at.selectbox(key="tree_votes_rows").value == lesson.AS_IN_THE_POST
    data = player(at)
    assert sum(data["nodes"][0]["counts"]) == 232
    model = id3.ID3(missing="branch").fit(X[~missing], y[~missing], names)
    assert len(data["nodes"]) == model.n_nodes_ and data["nodes"][0]["test"] == model.root_.feature
    assert all("known" not in name for step in data["steps"] for name in step["header"])  # nothing missing
    right = int((model.predict(X[missing]) == y[missing]).sum())
    assert f"{right}/203 = {right / 203:.1%}" in text(at) and "Grown as in the post" in text(at)
    # The post's own code on the same split (tree_sources.textbook_id3): the same tree, the same answers.
    post = next(r for r in tree_sources.posts_protocol(X, y) if (r.gain, r.missing) == ("weighted", "branch"))
    assert post.total == 203 and abs(post.correct - right) <= post.ties
    at = linked({"tree_data": lesson.VOTES, "tree_votes_rows": lesson.VOTES_ROWS["all"], "tree_step": 1})
    data = player(at)
    assert sum(data["nodes"][0]["counts"]) == 435
    assert data["steps"][0]["header"][-2:] == ["known share", "known-share gain"]
    assert "C4.5's known-share gain" in text(at)
