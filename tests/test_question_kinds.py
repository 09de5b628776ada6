"""The question kinds' registry (pages/classroom/kinds.py): each kind's checks, and what every
kind must do in the store, the CSV and the phone's view, run over ``KINDS`` so that a new kind
is tested without editing this file."""

from __future__ import annotations

import numpy as np
import pytest

from pages.classroom import kinds, room_store
from pages.classroom.kinds import KINDS
from pages.classroom.rooms import Question, RoomError
from pages.widgets.downloads import table_csv

CHOICE = Question(
    "knn.k1", "What does k = 1 do at a noisy point?", ("Follows it", "Ignores it", "Crashes"), 0, "why"
)


def phone(i: int) -> str:
    return f"phone-{i:04d}-abcdef"


@pytest.fixture()
def store(tmp_path):
    store = room_store.SQLiteStore(tmp_path / "classes.sqlite3")
    yield store
    store.close()


def test_a_choice_is_an_index_into_the_question_s_choices():
    choice = KINDS["choose"]
    assert choice.check(2, CHOICE) == "2"
    for raw in (-1, 3, 10**30, True, 1.0, "1", None, [0]):
        with pytest.raises(RoomError, match="Choose one of the 3 answers"):
            choice.check(raw, CHOICE)


def test_a_drawing_is_a_16_by_16_grid_of_zeros_and_ones():
    drawing, q = KINDS[kinds.DRAW], KINDS[kinds.DRAW].example()
    grid = np.zeros((16, 16), dtype=np.uint8)
    grid[3:12, 7] = 1
    flat = "".join(map(str, grid.ravel()))
    assert drawing.check(grid, q) == flat
    assert drawing.check(grid.ravel().tolist(), q) == flat
    assert drawing.check([[True] * 16] * 16, q) == "1" * 256
    bad = [
        [0] * 255, [0] * 257, [[0] * 16] * 15, [[0] * 17] * 16, [[0] * 16] * 15 + [[0] * 15], [2] * 256,
        [0.5] * 256, [float("nan")] * 256, ["1"] * 255 + ["x"], "0" * 256, None, 7, np.zeros((256, 16)),
        [[[0]] * 16] * 16, {"a": 1},
    ]  # fmt: skip
    for raw in bad:
        with pytest.raises(RoomError, match="drawing"):
            drawing.check(raw, q)


def test_a_question_is_checked_before_it_reaches_a_phone():
    assert kinds.checked(CHOICE) is CHOICE
    draw = Question("digits.draw7", "Everyone draws a 7", (), 7, kind=kinds.DRAW)
    assert kinds.checked(draw) is draw
    bad = [
        Question("x", "Q", ("only one",), 0), Question("x", "Q", ("a", "b"), 2), Question("x", "Q", ("a", "b"), True),
        Question("x y", "Q", ("a", "b"), 0), Question("x", " ", ("a", "b"), 0), Question("x", "Q", ("a",) * 9, 0),
        Question("x", "Q" * 3000, ("a", "b"), 0), Question("x", "Q", ("a", "b"), 0, kind="vote"),
        Question("x", "Q", ("a", "b"), 0, kind=None), Question("x", "Draw", ("a",), 7, kind=kinds.DRAW),
        Question("x", "Draw", (), 12, kind=kinds.DRAW), "a question",
    ]  # fmt: skip
    for q in bad:
        with pytest.raises(RoomError):
            kinds.checked(q)


@pytest.mark.parametrize("name", list(KINDS))
def test_every_kind_s_example_is_a_valid_question_with_a_right_and_a_wrong_answer(name):
    kind = KINDS[name]
    q = kind.example()
    assert q.kind == name and kinds.checked(q) is q and kinds.of(q) is kind
    right, wrong = kind.samples(q)
    kept_right, kept_wrong = kind.check(right, q), kind.check(wrong, q)
    assert isinstance(kept_right, str) and kept_right != kept_wrong
    assert kind.answer_text(q)
    if kind.graded:
        assert (kind.right(kept_right, q), kind.right(kept_wrong, q)) == (True, False)
    else:
        assert kind.right(kept_right, q) is None


@pytest.mark.parametrize("name", list(KINDS))
def test_every_kind_round_trips_through_the_store_the_phone_s_view_and_the_csv(store, name):
    kind = KINDS[name]
    q = kind.example()
    right, wrong = kind.samples(q)
    code, key = store.open_room()
    for i in (1, 2, 3):
        store.join(code, phone(i))
    store.ask(code, key, q)
    other = next(k for k in KINDS if k != name)
    with pytest.raises(RoomError, match=f"asks for {kind.asks}"):
        store.answer(code, phone(1), right, other)
    assert store.answer(code, phone(1), right, name).mine is not None
    store.answer(code, phone(2), wrong, name)
    assert store.view(code, phone(1)).correct is None  # before the reveal, nobody is told
    assert sum(store.counts(code, 1)) == store.answered(code, 1) == 2
    before = store.export(code, key)
    assert before["right"] == ["", ""]
    store.reveal(code, key)
    views = [store.view(code, phone(i)) for i in (1, 2, 3)]
    assert all(v.status == "revealed" and v.answer == q.answer for v in views)
    assert views[2].mine is None and views[2].correct is None
    columns = store.export(code, key)
    assert sorted(columns["answer"]) == sorted([kind.check(right, q), kind.check(wrong, q)])
    assert all(cell != "" for cell in columns["choice"])
    if kind.graded:
        # A graded kind fills the CSV's "right" column once revealed, and tells each phone.
        assert (views[0].correct, views[1].correct) == (True, False)
        by_phone = dict(zip(columns["phone"], columns["right"], strict=True))
        assert (by_phone[phone(1)], by_phone[phone(2)]) == (True, False)
    csv = table_csv(columns).decode()
    assert csv.count("\n") == 3


def test_a_kind_that_is_not_registered_is_refused():
    with pytest.raises(RoomError, match="kind is one of"):
        kinds.of(Question("x", "Q", ("a", "b"), 0, kind="estimate"))


def _phone_app(name: str, status: str) -> None:
    import streamlit as st

    from pages.classroom import kinds
    from pages.classroom.rooms import PhoneView

    kind = kinds.KINDS[name]
    q = kind.example()
    answer = q.answer if status == "revealed" else None
    view = PhoneView(status, 1, q.kind, q.text, q.choices, None, answer, q.why if answer is not None else "")
    kind.phone(view, lambda value: st.session_state.setdefault("sent", []).append(value))


@pytest.mark.parametrize("status", ["question", "closed", "revealed"])
@pytest.mark.parametrize("name", list(KINDS))
def test_every_kind_has_a_phone_input_for_an_open_a_closed_and_a_revealed_round(name, status):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_phone_app, args=(name, status), default_timeout=30)
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    shown = [*at.button, *at.markdown, *at.caption, *at.info, *at.success, *at.get("iframe")]
    assert shown, "the phone shows nothing for this kind"
    enabled = [b for b in at.button if not b.disabled]
    if status != "question":  # stopped or revealed: nothing more can be sent, nor any way to send it
        assert not any(b.label.startswith("Send") or b.key.startswith("join_choice") for b in enabled)
        assert not at.get("iframe") and not at.number_input
