"""The /compare page in AppTest: three classifiers on every data set, widgets at their extremes,
the "Try this" answers checked against the library, and the URL reproducing the view."""

import json
import re

import pytest
from conftest import assert_no_exception, open_page

from classic import compare
from classic.lessons import compare as lesson

DATA = [*lesson.DATASETS, "Your points"]
# Each panel's numbers: the held-out accuracy as a metric with the training accuracy as its note,
# then the fit and predict times (issues 15 and 26).
TIMES = re.compile(r"fit [\d.]+ ms · predict [\d.]+ ms")


def charts(at) -> list[dict]:
    """The three panels' Vega-Lite specs (titled charts; the your-points click chart has no title)."""
    specs = [json.loads(chart.proto.spec) for chart in at.get("vega_lite_chart")]
    return [spec for spec in specs if isinstance(spec.get("title"), dict)]


def panel_numbers(at) -> list[tuple[int, int]]:
    """(training %, held-out %) under each panel, in panel order."""
    held_out = [m for m in at.metric if m.label == "Held out"]
    assert len([c for c in at.caption if TIMES.fullmatch(c.value)]) == len(held_out)
    return [(int(m.delta.removesuffix("% training")), int(m.value.removesuffix("%"))) for m in held_out]


@pytest.fixture(scope="module")
def page():
    return open_page("compare")


def test_default_view_has_three_panels_on_one_scale(page):
    assert_no_exception(page)
    assert page.title[0].value == "Three classifiers, one data set"
    specs = charts(page)
    assert [s["title"]["text"].split(":")[0].split(",")[0] for s in specs] == [
        "Perceptron",
        "k-NN",
        "ID3 tree",
    ]
    domains = {json.dumps(layer["encoding"]["x"]["scale"]) for s in specs for layer in s["layer"]}
    assert len(domains) == 1  # every layer of every panel on the same x domain
    assert specs[0]["layer"][0]["mark"]["url"].startswith("data:image/png;base64,")
    assert any(layer["mark"]["type"] == "line" for layer in specs[0]["layer"])  # the perceptron's line
    assert len(panel_numbers(page)) == 3


def test_a_panel_carries_one_accessible_name(page):
    """The panel's alt replaces its spec's description: one name, and no warning with a stack
    trace in the server's log on every rerun (Streamlit logs one when both are set)."""
    panels = [chart for chart in page.get("vega_lite_chart") if "title" in json.loads(chart.proto.spec)]
    assert len(panels) == 3
    for chart in panels:
        spec = json.loads(chart.proto.spec)
        assert "description" not in spec
        assert chart.proto.alt.startswith(spec["title"]["text"].split(":")[0])


def test_numbers_on_screen_are_the_librarys(page):
    """A student who fits the same split with the library gets the numbers on the screen."""
    expected = lesson.run()
    shown = panel_numbers(page)
    for (train, test), name in zip(shown, compare.NAMES, strict=True):
        assert train == round(100 * expected[name].train_accuracy)
        assert test == round(100 * expected[name].test_accuracy)


@pytest.mark.parametrize("name", DATA)
def test_every_data_set_shows_the_three_classifiers(name):
    at = open_page("compare")
    at.selectbox(key="cmp_data").set_value(name).run()
    assert_no_exception(at)
    assert len(charts(at)) == 3
    assert len(panel_numbers(at)) == 3
    said = " ".join(m.value for m in at.markdown)
    assert "Best held out here" in said


@pytest.mark.parametrize("name", lesson.DATASETS)
def test_extremes_of_every_widget(name):
    at = open_page("compare")
    at.selectbox(key="cmp_data").set_value(name)
    at.slider(key="cmp_points").set_value(20)
    at.slider(key="cmp_k").set_value(100)
    at.slider(key="cmp_depth").set_value(1)
    at.slider(key="cmp_flip").set_value(40)
    at.number_input(key="cmp_seed").set_value(2**31 - 1).run()
    assert_no_exception(at)
    assert any("k is capped at the 14 training points" in c.value for c in at.caption)
    assert "k-NN, k = 14" in charts(at)[1]["title"]["text"]
    for kind in compare.PERCEPTRONS:
        at.selectbox(key="cmp_perceptron").set_value(kind)
        at.slider(key="cmp_points").set_value(1000)
        at.slider(key="cmp_k").set_value(1)
        at.slider(key="cmp_depth").set_value(20).run()
        assert_no_exception(at)
        assert len(charts(at)) == 3
        # k = 1: every training point is its own nearest neighbour.
        assert panel_numbers(at)[1][0] == 100


def test_kernel_perceptron_has_no_line():
    at = open_page("compare")
    at.selectbox(key="cmp_data").set_value("Concentric circles")
    at.selectbox(key="cmp_perceptron").set_value("RBF kernel").run()
    assert_no_exception(at)
    assert not any(layer["mark"]["type"] == "line" for layer in charts(at)[0]["layer"])
    assert "RBF kernel" in charts(at)[0]["title"]["text"]


def open_with(**params):
    """The app opened on /compare with these query parameters (a link's first run)."""
    from conftest import ROOT
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params.update(params)
    at.run()
    at.switch_page("pages/compare.py")
    return at.run()


def test_your_points_of_one_class_or_unreadable_give_a_message():
    at = open_page("compare")
    at.selectbox(key="cmp_data").set_value("Your points").run()
    assert_no_exception(at)
    assert len(charts(at)) == 3  # the default points
    at = open_with(cmp_data="Your points", cmp_user_points="0_0_0~0_1_1~0_2_0")
    assert_no_exception(at)
    assert "exactly two classes" in at.warning[0].value
    assert not charts(at)
    at = open_with(cmp_data="Your points", cmp_user_points="0_0_inf~1_1_1")
    assert_no_exception(at)
    assert any("could not be read" in w.value for w in at.warning)
    assert len(charts(at)) == 3  # the default points instead


def test_the_url_reproduces_the_view():
    at = open_with(cmp_data="Spiral", cmp_k="3", cmp_depth="9", cmp_perceptron="RBF kernel")
    assert_no_exception(at)
    assert at.selectbox(key="cmp_data").value == "Spiral"
    assert at.slider(key="cmp_k").value == 3
    assert at.slider(key="cmp_depth").value == 9
    assert "k-NN, k = 3" in charts(at)[1]["title"]["text"]


def expected_answers() -> dict[str, str]:
    """Each question's answer, worked out here from the library, independently of the page."""
    xor = lesson.run(data="XOR")
    moons = lesson.run(data="Moons", k=1, flip=10)["knn"]
    circles = lesson.run(data="Concentric circles", perceptron="RBF kernel")["perceptron"].test_accuracy
    leaves = lesson.run(data="Diagonal boundary", depth=20)["tree"].model.n_leaves_
    spiral = lesson.run(data="Spiral", points=400)
    boxes = lesson.run(data="Axis-aligned boxes")
    return {
        "A line against XOR": lesson.LABELS[min(xor, key=lambda n: xor[n].test_accuracy)],
        "k = 1 memorises": "higher than"
        if moons.train_accuracy > moons.test_accuracy
        else "the same as"
        if moons.train_accuracy == moons.test_accuracy
        else "lower than",
        "A kernel bends the line": "below 60%"
        if circles < 0.6
        else "60% to 90%"
        if circles < 0.9
        else "above 90%",
        "The tree's staircase": "2" if leaves <= 2 else "3 to 6" if leaves <= 6 else "more than 6",
        "The spiral": lesson.LABELS[max(spiral, key=lambda n: spiral[n].test_accuracy)],
        "Where trees do well": lesson.LABELS[max(boxes, key=lambda n: boxes[n].test_accuracy)],
    }


def test_try_this_reveals_the_librarys_answers():
    at = open_page("compare")
    questions = lesson.questions()
    expected = expected_answers()
    assert 4 <= len(questions) <= 6
    assert [q.title for q in questions] == list(expected)
    for i, question in enumerate(questions, start=1):
        answer = expected[question.title]
        at.radio(key=f"compare_try_{i}").set_value(answer).run()
        assert_no_exception(at)
        assert any(f"Right: **{answer}**" in s.value for s in at.success)
        wrong = next(option for option in question.options if option != answer)
        at.radio(key=f"compare_try_{i}").set_value(wrong).run()
        assert any(f"it is **{answer}**" in w.value for w in at.warning)


def test_set_up_this_view_applies_the_questions_settings():
    at = open_page("compare")
    at.slider(key="cmp_k").set_value(1).run()
    at.button(key="compare_try_5_setup").click().run()
    assert_no_exception(at)
    assert at.selectbox(key="cmp_data").value == "Spiral"
    assert at.slider(key="cmp_points").value == 400
    assert at.slider(key="cmp_k").value == lesson.DEFAULTS["k"]


def test_your_points_come_from_the_link():
    at = open_with(cmp_data="Your points", cmp_user_points="0_0_0~0_0.5_0.2~0_0.2_0.4~1_2_2~1_3_3~1_2.5_3")
    assert_no_exception(at)
    specs = charts(at)
    assert len(specs) == 3
    shown = [p for layer in specs[0]["layer"][1:3] for p in layer["data"]["values"]]
    assert sorted((p["x1"], p["x2"]) for p in shown) == [
        (0, 0),
        (0.2, 0.4),
        (0.5, 0.2),
        (2, 2),
        (2.5, 3),
        (3, 3),
    ]


def test_hostile_link_values_are_ignored_with_a_note():
    at = open_with(
        cmp_data="Mars", cmp_k="abc", cmp_points="1e9", cmp_perceptron="<b>x</b>", cmp_user_points="1_x_2"
    )
    assert_no_exception(at)
    assert at.selectbox(key="cmp_data").value == lesson.DEFAULTS["data"]
    assert at.slider(key="cmp_k").value == lesson.DEFAULTS["k"]
    assert len(charts(at)) == 3
    noted = " ".join(e.value for e in (*at.markdown, *at.caption, *at.info, *at.warning))
    assert "Mars" in noted and "abc" in noted


# Issue 31: a step asked shows its set-up, not its answer, until the answer is chosen.
QUESTIONS = lesson.questions()
ASKED = list(enumerate(QUESTIONS, start=1))


def asked(i: int):
    """/compare with step ``i`` set up ("Set up this view"), its answer not chosen yet."""
    at = open_page("compare")
    at.button(key=f"compare_try_{i}_setup").click().run()
    assert_no_exception(at)
    return at


def reveal(at, i: int):
    at.radio(key=f"compare_try_{i}").set_value(QUESTIONS[i - 1].answer).run()
    assert_no_exception(at)
    return at


def notes(at) -> list[str]:
    return [c.value for c in at.caption if "hidden until the answer is revealed" in c.value]


def regions_drawn(at) -> list[bool]:
    """Whether each panel draws its regions (an image layer) or a line."""
    return [any(layer["mark"]["type"] in ("image", "line") for layer in s["layer"]) for s in charts(at)]


def said(at) -> str:
    return " ".join(m.value for m in at.markdown)


@pytest.mark.parametrize("i, question", [(i, q) for i, q in ASKED if lesson.SCORES in q.hides])
def test_a_step_about_accuracies_hides_every_accuracy_until_revealed(i, question):
    """Every panel showed "Held out NN%" (and its alt the same) while the class voted on which
    classifier scores best; the sentences under the panels named the winner."""
    at = asked(i)
    assert [m for m in at.metric if m.label == "Held out"] == []
    assert not any(
        "held out" in chart.proto.alt or "training" in chart.proto.alt for chart in at.get("vega_lite_chart")
    )
    assert "Best held out here" not in said(at) and "% held out" not in said(at)
    assert any(note.endswith("Each accuracy is hidden until the answer is revealed.") for note in notes(at))
    assert len([c for c in at.caption if TIMES.fullmatch(c.value)]) == 3  # the times stay: no answer in them
    reveal(at, i)
    assert len(panel_numbers(at)) == 3
    assert "Best held out here" in said(at)
    assert notes(at) == []


def test_the_accuracy_questions_keep_the_regions_a_student_predicts_from():
    for i, question in ASKED:
        if set(question.hides) == {lesson.SCORES, lesson.SAID}:
            assert regions_drawn(asked(i)) == [True, True, True], question.title


def test_the_kernel_question_hides_the_kernel_perceptrons_regions():
    """Its regions closing around the inner ring would answer "above 90%" alone."""
    i = next(i for i, q in ASKED if lesson.PERCEPTRON_REGIONS in q.hides)
    at = asked(i)
    assert regions_drawn(at) == [False, True, True]
    assert charts(at)[0]["title"]["text"] == "Perceptron: RBF kernel"  # the set-up stays
    assert any(note.endswith("Its boundary is hidden until the answer is revealed.") for note in notes(at))
    assert regions_drawn(reveal(at, i)) == [True, True, True]


def test_the_staircase_question_hides_the_trees_boxes_and_their_count():
    """The tree's title said "ID3 tree: 10 leaves" beside the question "how many leaves"."""
    i = next(i for i, q in ASKED if lesson.TREE_REGIONS in q.hides)
    leaves = lesson.run(**QUESTIONS[i - 1].settings)["tree"].model.n_leaves_
    at = asked(i)
    assert regions_drawn(at) == [True, True, False]
    tree = charts(at)[2]["title"]["text"]
    assert tree == "ID3 tree: ? leaves" and f"{leaves} leaves" not in at.get("vega_lite_chart")[-1].proto.alt
    assert f"{leaves} boxes" not in said(at)
    assert len(panel_numbers(at)) == 3  # the accuracies say nothing of the leaves: they stay
    reveal(at, i)
    assert charts(at)[2]["title"]["text"] == f"ID3 tree: {leaves} leaves"
    assert regions_drawn(at) == [True, True, True] and f"from {leaves} boxes" in said(at)


def test_closing_a_step_shows_what_it_hid():
    at = asked(1)
    at.button(key="compare_try_close").click().run()
    assert_no_exception(at)
    assert len(panel_numbers(at)) == 3 and notes(at) == []
