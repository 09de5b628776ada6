"""The room model's checks (pages/classroom/rooms.py): every value a phone sends, refused with a
message (a RoomError), never another exception."""

from __future__ import annotations

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


def test_the_teacher_key_is_kept_as_a_digest_and_compared_whole():
    key = rooms.new_key()
    digest = rooms.key_digest(key)
    assert key not in digest and len(key) >= 32
    assert rooms.key_matches(key, digest)
    for wrong in (key[:-1], key + "x", "", None, 5, "x" * 10_000):
        assert not rooms.key_matches(wrong, digest)


def test_a_phone_id_is_written_to_the_csv_exactly_as_the_phone_has_it():
    """No id starts with a character a spreadsheet reads as a formula, so the CSV keeps it as is."""
    from pages.widgets.downloads import table_csv

    ids = [rooms.new_phone_id() for _ in range(3000)]
    assert all(rooms.check_phone(phone) == phone and phone[0].isalnum() for phone in ids)
    csv = table_csv({"phone": ids}).decode().splitlines()[1:]
    assert csv == ids
    for formula in ("-abcdefgh", "_abcdefgh"):
        with pytest.raises(RoomError, match="reload"):
            rooms.check_phone(formula)
