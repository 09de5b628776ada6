"""The k-NN lesson's honest questions, without Streamlit: what each "Try this" step hides and
tells, steps that open before their answer, and the accuracy chart with its training curve alone.
The page's side (AppTest and Chromium) is in tests/pages/test_knn_page.py and
tests/browser/test_knn_browser.py."""

import numpy as np
import pytest

from classic.knn import leave_one_out_accuracy
from classic.lessons import knn as lesson
from classic.viz import knn as view


@pytest.fixture(scope="module")
def steps() -> list[dict]:
    return lesson.try_this_steps()


def test_every_step_hides_parts_the_page_has_and_tells_what_gives_it_away(steps):
    for i, step in enumerate(steps, start=1):
        assert step["hides"] and set(step["hides"]) <= set(lesson.PARTS), i
        assert step["tells"] and all(isinstance(t, str) and t for t in step["tells"]), i
        assert not any(
            t in step["question"] or any(t in o for o in step["options"]) for t in step["tells"]
        ), i
    assert set(lesson.PLAYER_PARTS) <= set(lesson.PARTS)


def test_the_steps_about_k_open_before_their_answer(steps):
    """The k = 1 → 51 step used to open at k = 51, the best-k step at the best k."""
    X, y = lesson.lesson_data("Moons", 200, 2, 0)
    best = int(np.argmax(leave_one_out_accuracy(X, y, np.arange(1, view.K_CURVES + 1)))) + 1
    first, best_k = steps[0], steps[2]
    assert first["setup"]["knn_k"] == 1 and "51" in first["question"]
    assert best_k["setup"]["knn_k"] != best and best_k["setup"]["knn_tab"] == "Accuracy against k"
    assert lesson.best_k_text(best, leave_one_out_accuracy(X, y, [best])[0]) in best_k["tells"]


def test_the_map_steps_hide_the_map_and_the_tie_steps_its_ties(steps):
    by_title = {step["title"]: step for step in steps}
    assert "ties" in by_title["k = 2 after k = 1"]["hides"]
    assert lesson.TIE_NOTE in by_title["k = 2 after k = 1"]["tells"]
    for title in ("Which feature decides without scaling?", "k = n on the post's 50 + 50 points"):
        assert "regions" in by_title[title]["hides"], title
    hamming = by_title["Hamming distance on continuous points"]
    assert {"neighbour_table", "metric_note"} <= set(hamming["hides"])
    assert any("nearly every distance is 1" in t for t in hamming["tells"])


def test_the_intro_leaves_out_what_k_does_when_asked():
    assert lesson.INTRO_K in lesson.intro() and lesson.INTRO_K not in lesson.intro(without_k=True)
    assert lesson.intro(without_k=True).startswith("A point takes the majority label")


def test_the_accuracy_chart_with_its_training_curve_alone():
    ks = np.arange(1, 6)
    curves = {name: np.linspace(1, 0.8, 5) for name in ("training", "held-out (30%)", "leave-one-out")}
    spec = view.accuracy_chart(ks, curves, 3)
    alone = view.training_only(spec)
    assert {row["curve"] for row in alone["datasets"]["curves"]} == {"training"}
    assert len(alone["layer"]) == 1 and "best" not in alone["datasets"]
    assert alone["layer"][0]["encoding"]["color"]["scale"]["domain"] == ["training"]
    assert len(spec["layer"]) == 2 and len(spec["datasets"]["curves"]) == 15  # the original untouched
