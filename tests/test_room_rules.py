"""The room model's checks (pages/classroom/rooms.py): every value a phone sends, refused with a
message (a RoomError), never another exception."""

from __future__ import annotations

import numpy as np
import pytest

from pages.classroom import rooms
from pages.classroom.rooms import Question, RoomError

QUESTION = Question(
    "knn.k1", "What does k = 1 do at a noisy point?", ("Follows it", "Ignores it", "Crashes"), 0, "why"
)


def test_codes_use_no_look_alikes_and_are_read_forgivingly():
    assert not set("0O1IL") & set(rooms.ALPHABET)
    codes = {rooms.new_code() for _ in range(500)}
    assert all(len(c) == rooms.CODE_LENGTH and set(c) <= set(rooms.ALPHABET) for c in codes)
    assert len(codes) > 490  # 28 million codes: 500 draws almost never repeat
    assert rooms.check_code(" ab 3k7 ") == "AB3K7"


@pytest.mark.parametrize("raw", ["AB0K7", "ABOK7", "AB1K7", "ABIK7", "ABLK7", "AB3K", "AB3K78", "", None, 12345,
                                 ["AB3K7"], "AB3K7\u202e", "'; DROP TABLE rooms; --"])  # fmt: skip
def test_a_bad_code_is_refused_with_a_message(raw):
    with pytest.raises(RoomError, match="room code"):
        rooms.check_code(raw)


def test_a_nickname_loses_controls_and_bidi_characters():
    assert rooms.check_nickname("  Ada\u202e  Lovelace\u200b\x07 ") == "Ada Lovelace"
    assert rooms.check_nickname("\u2066Zoë\u2069") == "Zoë"
    assert rooms.check_nickname(None) == "" and rooms.check_nickname("\u200f\u200e") == ""
    assert rooms.check_nickname("x" * 20) == "x" * 20
    assert rooms.check_nickname("<b>=1+1</b>") == "<b>=1+1</b>"  # kept as text: escaped where shown


@pytest.mark.parametrize("raw", ["x" * 21, "a" * 5000, 42, b"bytes", ["a"]])
def test_a_bad_nickname_is_refused(raw):
    with pytest.raises(RoomError, match="nickname"):
        rooms.check_nickname(raw)


def test_a_choice_is_an_index_into_the_question_s_choices():
    assert rooms.check_choice(2, QUESTION) == 2
    for raw in (-1, 3, 10**30, True, 1.0, "1", None, [0]):
        with pytest.raises(RoomError, match="Choose one of the 3 answers"):
            rooms.check_choice(raw, QUESTION)


def test_a_drawing_is_a_16_by_16_grid_of_zeros_and_ones():
    grid = np.zeros((16, 16), dtype=np.uint8)
    grid[3:12, 7] = 1
    assert rooms.check_grid(grid) == tuple(grid.ravel())
    assert rooms.check_grid(grid.ravel().tolist()) == tuple(grid.ravel())
    assert rooms.check_grid([[True] * 16] * 16) == (1,) * 256
    bad = [
        [0] * 255, [0] * 257, [[0] * 16] * 15, [[0] * 17] * 16, [[0] * 16] * 15 + [[0] * 15], [2] * 256,
        [0.5] * 256, [float("nan")] * 256, ["1"] * 255 + ["x"], "0" * 256, None, 7, np.zeros((256, 16)),
        [[[0]] * 16] * 16, {"a": 1},
    ]  # fmt: skip
    for raw in bad:
        with pytest.raises(RoomError, match="drawing"):
            rooms.check_grid(raw)


def test_a_question_is_checked_before_it_reaches_a_phone():
    assert rooms.check_question(QUESTION) is QUESTION
    draw = Question("digits.draw7", "Everyone draws a 7", (), 7, kind=rooms.DRAW)
    assert rooms.check_question(draw) is draw
    bad = [
        Question("x", "Q", ("only one",), 0), Question("x", "Q", ("a", "b"), 2), Question("x", "Q", ("a", "b"), True),
        Question("x y", "Q", ("a", "b"), 0), Question("x", " ", ("a", "b"), 0), Question("x", "Q", ("a",) * 9, 0),
        Question("x", "Q" * 3000, ("a", "b"), 0), Question("x", "Q", ("a", "b"), 0, kind="vote"),
        Question("x", "Draw", ("a",), 7, kind=rooms.DRAW), Question("x", "Draw", (), 12, kind=rooms.DRAW),
        "a question",
    ]  # fmt: skip
    for q in bad:
        with pytest.raises(RoomError):
            rooms.check_question(q)


def test_the_teacher_key_is_kept_as_a_digest_and_compared_whole():
    key = rooms.new_key()
    digest = rooms.key_digest(key)
    assert key not in digest and len(key) >= 32
    assert rooms.key_matches(key, digest)
    for wrong in (key[:-1], key + "x", "", None, 5, "x" * 10_000):
        assert not rooms.key_matches(wrong, digest)


def test_a_phone_view_says_right_or_wrong_only_after_the_reveal():
    asked = rooms.PhoneView("question", 1, rooms.CHOOSE, "Q", ("a", "b"), mine=1)
    assert asked.correct is None and asked.answer is None
    assert rooms.PhoneView("revealed", 1, rooms.CHOOSE, "Q", ("a", "b"), 1, 1, "why").correct is True
    assert rooms.PhoneView("revealed", 1, rooms.CHOOSE, "Q", ("a", "b"), 0, 1, "why").correct is False
