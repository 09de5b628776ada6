"""The phone's page, /join?room=CODE, at 390×844 with touch: a question asked through the store
shows up, a tap answers, a second tap changes the answer, the reveal says right or wrong and why."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Iterator

import pytest
from conftest import (
    assert_no_exception_box,
    new_context,
    require_browser,
    screenshot,
    start_server,
    stop_server,
    wait_for_app,
)
from redis_server import redis_server, require_redis

from pages.classroom import room_store
from pages.classroom.rooms import Question

pytestmark = pytest.mark.browser

K1 = Question("knn.k1", "At **k = 1**, what does the boundary do near a noisy point?",
              ("It bends around the point", "It ignores the point", "It disappears"), 0,
              "With one neighbour, every training point decides its own little region, noise included.")  # fmt: skip
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def class_dir() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="classic-classes-") as folder:
        yield folder


@pytest.fixture(scope="module")
def phone_server(class_dir) -> Iterator[str]:
    """A Streamlit server whose class store is a SQLite file this test also opens."""
    require_browser()
    process, url = start_server(env={"CLASSIC_CLASS_DIR": class_dir, "CLASSIC_CLASS_STORE": None})
    yield url
    stop_server(process)


@pytest.fixture(scope="module")
def phone(browser, phone_server) -> Iterator:
    with new_context(
        browser, viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2
    ) as context:
        yield context.new_page()


@pytest.fixture
def store(class_dir):
    opened = room_store.open_store(url="", directory=class_dir)
    yield opened
    opened.close()


def until(condition, what: str, seconds: float = 30, shown=None) -> None:
    """Wait for ``condition``; after ``seconds`` fail, with what ``shown()`` returns then."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() >= deadline:
            seen = f"; it showed: {shown()!r}" if shown else ""
            raise AssertionError(f"timed out after {seconds} s waiting for {what}{seen}")
        time.sleep(0.2)


def test_a_phone_joins_answers_changes_its_answer_and_sees_the_reveal(phone, phone_server, store):
    code, key = store.open_room()
    phone.goto(f"{phone_server}/join?room={code.lower()}")
    wait_for_app(phone)
    phone.get_by_text("Waiting for the teacher").wait_for()
    assert store.joined(code) == 1
    # Made for a phone: no sidebar, nothing wider than the screen.
    assert not phone.locator('[data-testid="stSidebar"]').is_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "join_phone_waiting")

    store.ask(code, key, K1)  # no click on the phone: the page follows the room by itself
    choices = phone.locator(".st-key-join_choices button")
    choices.first.wait_for()
    assert choices.count() == 3 and "k = 1" in phone.inner_text("body")
    assert all(choices.nth(i).bounding_box()["height"] >= 48 for i in range(3))  # thumb-sized

    phone.get_by_role("button", name="It ignores the point").tap()
    until(lambda: store.counts(code, 1) == (0, 1, 0), "the first tap to be counted")
    phone.get_by_text("Your answer: It ignores the point").wait_for()
    phone.get_by_role("button", name="It bends around the point").tap()
    until(lambda: store.counts(code, 1) == (1, 0, 0), "the second tap to replace the first")
    phone.get_by_text("Your answer: It bends around the point").wait_for()
    assert store.answered(code, 1) == 1
    screenshot(phone, "join_phone_answered")

    store.reveal(code, key)
    phone.get_by_text("Right! The answer is").wait_for()
    assert "every training point decides" in phone.inner_text("body")
    assert phone.get_by_role("button", name="It ignores the point").is_disabled()
    assert_no_exception_box(phone)
    screenshot(phone, "join_phone_revealed")

    store.ask_again(code, key)
    phone.get_by_text("Question 2.").wait_for()
    phone.get_by_role("button", name="It disappears").tap()
    until(lambda: store.counts(code, 2) == (0, 0, 1), "the answer in round 2")
    assert store.counts(code, 1) == (1, 0, 0)
    store.reveal(code, key)
    phone.get_by_text("Not this time: you chose It disappears; the answer is").wait_for()

    store.end(code, key)
    phone.get_by_text("This class has ended").wait_for()


def test_unknown_bad_and_ended_rooms_get_a_clear_message(phone, phone_server, store):
    phone.goto(f"{phone_server}/join?room=ZZZZZ")
    wait_for_app(phone)
    phone.get_by_text("No class has the code ZZZZZ").wait_for()
    phone.goto(f"{phone_server}/join?room=0O1IL")
    wait_for_app(phone)
    phone.get_by_text("That is not a room code").wait_for()
    code, key = store.open_room()
    store.end(code, key)
    phone.goto(f"{phone_server}/join?room={code}")
    wait_for_app(phone)
    phone.get_by_text("This class has ended").wait_for()
    assert_no_exception_box(phone)
    screenshot(phone, "join_phone_ended")


def test_a_typed_code_joins_and_a_nickname_is_cleaned(phone, phone_server, store):
    code, key = store.open_room()
    phone.goto(f"{phone_server}/join")
    wait_for_app(phone)
    screenshot(phone, "join_phone_no_room")
    phone.get_by_label("Room code (on the projector)").fill(f" {code.lower()} ")
    phone.get_by_role("button", name="Join", exact=True).tap()
    phone.get_by_text("Waiting for the teacher").wait_for()
    assert store.joined(code) == 1
    assert f"room=+{code.lower()}+" in phone.url  # what was typed is in the address, as a link carries it
    nickname = phone.get_by_label("Nickname (optional, at most 20 characters)")
    if phone.locator('[data-testid="stExpanderDetails"][inert]').count():
        phone.get_by_text("Room code and nickname").tap()  # it folds away once the room is joined
    nickname.fill("Ada\u202e\u200b  L.")
    phone.get_by_role("button", name="Save the nickname").tap()
    phone.get_by_text("Nickname saved.").wait_for()
    assert list(store._phones(code).values()) == ["Ada L."]
    assert_no_exception_box(phone)


def test_a_phone_on_a_redis_backed_server_answers_a_question_asked_elsewhere(phone):
    """Two servers on one Redis: the phone's Streamlit server, and this test's store standing for
    the projector's server."""
    require_redis()
    with redis_server() as redis_url:
        process, server = start_server(env={"CLASSIC_CLASS_STORE": redis_url})
        teacher = room_store.open_store(url=redis_url)
        try:
            code, key = teacher.open_room()
            teacher.ask(code, key, K1)
            phone.goto(f"{server}/join?room={code}")
            wait_for_app(phone)
            phone.get_by_role("button", name="It ignores the point").tap()  # a late joiner sees the question
            until(lambda: teacher.counts(code, 1) == (0, 1, 0), "the answer to reach the other server")
            teacher.reveal(code, key)
            phone.get_by_text("Not this time: you chose It ignores the point").wait_for()
            assert_no_exception_box(phone)
        finally:
            teacher.close()
            stop_server(process)


def test_a_nickname_typed_in_the_room_code_field_keeps_the_phone_in_its_class(phone, phone_server, store):
    code, key = store.open_room()
    phone.goto(f"{phone_server}/join?room={code}")
    phone.get_by_text("Waiting for the teacher").wait_for()
    if phone.locator('[data-testid="stExpanderDetails"][inert]').count():
        phone.get_by_text("Room code and nickname").tap()
    field = phone.get_by_label("Room code (on the projector)")
    field.fill("Ada")
    field.press("Enter")
    phone.get_by_text(f"you are still in room {code}").wait_for(timeout=30_000)
    wait_for_app(phone)
    assert field.input_value() == code
    assert phone.get_by_text("Waiting for the teacher").count() == 1
    assert phone.get_by_text("could not be used").count() == 0
    assert store.joined(code) == 1
    assert_no_exception_box(phone)


def test_a_forwarded_link_joins_as_a_new_phone_and_a_reload_keeps_the_phone(browser, phone_server, store):
    """The phone's identity lives in its browser, not its link: five students on one forwarded
    link are five phones, and the first one's answer is never overwritten; a reload is the same
    phone."""
    code, key = store.open_room()
    store.ask(code, key, K1)
    with new_context(browser, viewport=PHONE, has_touch=True, is_mobile=True) as first_context:
        first = first_context.new_page()
        first.goto(f"{phone_server}/join?room={code}")
        first.get_by_role("button", name=K1.choices[0], exact=True).tap()
        until(lambda: store.counts(code, 1)[0] == 1, "the first phone's answer")
        forwarded = first.url  # what a student would paste into a chat
        assert "me=" not in forwarded
        for _ in range(2):
            with new_context(browser, viewport=PHONE, has_touch=True, is_mobile=True) as friend_context:
                friend = friend_context.new_page()
                friend.goto(forwarded)
                friend.get_by_role("button", name=K1.choices[1], exact=True).tap()
                friend.get_by_text(f"Your answer: {K1.choices[1]}").wait_for()
        until(lambda: store.counts(code, 1) == (1, 2, 0), "each friend counted as a phone of its own")
        assert store.joined(code) == 3
        first.reload()
        first.get_by_text(f"Your answer: {K1.choices[0]}").wait_for()  # the same phone
        assert store.joined(code) == 3
