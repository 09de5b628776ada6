"""The ID3 page in AppTest: every table, every option, the sliders at their ends, uploads good
and bad, and the numbers the lesson promises (the slides' 0.918, the post's 96 % on the votes)."""

import pytest
from conftest import assert_no_exception, open_page

from classic.id3 import CRITERIA, MISSING

TABLES = ["Arya's riding data", "Play Tennis", "HasKids & Dora (slides)", "1984 congressional votes"]


@pytest.fixture
def page():
    at = open_page("decision-tree")
    assert_no_exception(at)
    return at


def dots(at) -> list[str]:
    return [chart.proto.spec for chart in at.get("graphviz_chart")]


def text(at) -> str:
    return " ".join(m.value for m in [*at.markdown, *at.caption, *at.success, *at.info, *at.error])


def choose(at, key: str, value):
    at.selectbox(key=key).set_value(value).run()
    assert_no_exception(at)
    return at


def test_default_page_shows_arya_tree_post_tree_and_explanation(page):
    assert page.title[0].value == "ID3 decision tree"
    tree_dot, step_dot, post_dot, id3_dot = dots(page)
    assert "Temperature" in tree_dot and "#D55E00" in tree_dot  # the record's path is highlighted
    assert "Wind" in post_dot and "no training rows" in post_dot
    assert "Temperature" in id3_dot and "Wind" not in id3_dot
    body = text(page)
    assert "Temperature 1.000" in body and "Wind 0.459" in body
    assert "disagree on" in body
    assert [m.label for m in page.metric][:4] == ["Nodes", "Leaves", "Depth", "Training accuracy"]
    labels = [b.proto.label for b in page.get("download_button")]
    assert {"DOT source", "Rules (text)"} <= set(labels)


@pytest.mark.parametrize("table", TABLES)
def test_every_table_grows_draws_and_steps_to_the_last_split(page, table):
    at = choose(page, "tree_data", table)
    assert dots(at)[0].startswith("digraph")
    slider = at.slider(key="tree_step") if any(s.key == "tree_step" for s in at.slider) else None
    if slider is not None:
        slider.set_value(slider.max).run()
        assert_no_exception(at)
        last = int(slider.max)
        assert f"Split {last} of {last}" in text(at)
    assert "IF " in at.code[0].value and " THEN " in at.code[0].value


def test_slides_table_shows_the_worked_entropy_numbers(page):
    at = choose(page, "tree_data", "HasKids & Dora (slides)")
    body = text(at)
    assert "H(y | HasKids = Yes) = 0.918 (3 rows)" in body
    table = at.dataframe[-1].value
    row = table[table["feature"] == "HasKids"].iloc[0]
    assert row["entropy before"] == pytest.approx(1.0)
    assert row["weighted entropy after"] == pytest.approx(0.918, abs=1e-3)


def test_play_tennis_first_split_shows_what_the_posts_unweighted_gain_would_choose(page):
    at = choose(page, "tree_data", "Play Tennis")
    assert "Split 1 of 3" in text(at)
    assert "would have chosen **Humidity**" in text(at)
    table = at.dataframe[-1].value
    assert list(table.columns) == [
        "feature",
        "entropy before",
        "weighted entropy after",
        "gain",
        "post's unweighted entropy gain",
    ]
    at = choose(at, "tree_criterion", "gain_ratio")
    assert "gain ratio" in at.dataframe[-1].value.columns


def test_votes_evaluation_reports_the_posts_numbers(page):
    at = choose(page, "tree_data", "1984 congressional votes")
    metrics = {m.label: m.value for m in at.metric}
    protocol = next(value for label, value in metrics.items() if label.startswith("The post's test"))
    assert protocol == "96.1%"
    assert "232 complete rows" in next(label for label in metrics if label.startswith("The post's test"))
    assert metrics["10-fold cross-validation, unpruned"] == "95.2%"


@pytest.mark.parametrize("criterion", CRITERIA)
@pytest.mark.parametrize("missing", MISSING)
def test_every_criterion_and_missing_value_strategy_on_the_votes(page, criterion, missing):
    at = choose(page, "tree_data", "1984 congressional votes")
    at = choose(at, "tree_criterion", criterion)
    at = choose(at, "tree_missing", missing)
    assert "physician" in dots(at)[0]
    assert "Prediction:" in at.success[0].value


def test_sliders_and_toggle_at_their_ends(page):
    at = choose(page, "tree_data", "Play Tennis")
    at.select_slider(key="tree_depth").set_value(1).run()
    assert_no_exception(at)
    assert {m.label: m.value for m in at.metric}["Depth"] == "1"
    at.select_slider(key="tree_depth").set_value(12).run()
    at.slider(key="tree_min_gain").set_value(0.5).run()
    assert_no_exception(at)
    assert {m.label: m.value for m in at.metric}["Nodes"] == "1"
    assert "single leaf" in text(at)
    at.slider(key="tree_min_gain").set_value(0.0).run()
    at = choose(at, "tree_data", "1984 congressional votes")
    at.toggle(key="tree_prune").set_value(True).run()
    for fraction in (0.1, 0.5):
        at.slider(key="tree_fraction").set_value(fraction).run()
        assert_no_exception(at)
        assert "pruning" in text(at)
    at.number_input(key="tree_seed").set_value(2**31 - 1).run()
    assert_no_exception(at)
    nodes = {m.label: m for m in at.metric}["Nodes"]
    assert int(nodes.value) < 61


def test_a_record_with_every_value_missing_follows_every_branch(page):
    at = choose(page, "tree_data", "1984 congressional votes")
    for box in at.selectbox:
        if box.key and box.key.startswith("tree_record_"):
            box.set_value("?")
    at.run()
    assert_no_exception(at)
    assert "Prediction:" in at.success[0].value
    assert dots(at)[0].count("#D55E00") > 20  # most of the tree is on the path


def test_uploaded_csv_grows_a_tree_and_bad_files_give_clear_errors(page):
    at = choose(page, "tree_data", "Upload a CSV")
    assert "Upload a CSV file" in at.info[0].value
    upload = at.file_uploader(key="tree_upload")
    good = b"Outlook,Wind,Play\nSunny,Weak,No\nRain,Strong,Yes\nSunny,Strong,No\nRain,Weak,Yes\n"
    upload.set_value(("days.csv", good, "text/csv")).run()
    assert_no_exception(at)
    assert "Outlook" in dots(at)[0]
    label = next(box for box in at.selectbox if box.label.startswith("Label column"))
    assert label.value == "Play"
    label.set_value("Wind").run()
    assert_no_exception(at)
    assert "Strong 2 · Weak 2" in dots(at)[0]  # no feature tells anything about Wind: one leaf
    for name, data, message in (
        ("ragged.csv", b"a,b,c\nx,y\n1,2,3\n", "line 2 has 2 fields"),
        ("picture.csv", b"\x89PNG\r\n\x1a\n\x00\x00\x00", "not text"),
        ("empty.csv", b"", "empty"),
        ("header.csv", b"a,a\n1,2\n3,4\n", "more than once"),
    ):
        at.file_uploader(key="tree_upload").set_value((name, data, "text/csv")).run()
        assert_no_exception(at)
        assert at.error and name in at.error[0].value and message in at.error[0].value
        assert not at.get("graphviz_chart")
    blank_label = b"f,label\nx,Yes\ny,\nz,No\n"
    at.file_uploader(key="tree_upload").set_value(("blank.csv", blank_label, "text/csv")).run()
    assert_no_exception(at)
    assert "every row needs a label" in at.error[0].value
