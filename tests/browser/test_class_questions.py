"""The teacher's own questions and "Ask about this view" in a browser: a projector (1280×720,
presenting, the teacher's link) and two phones (390×844, touch) on one server with SQLite.

A number question with a tolerance goes to the phones, which type their numbers; it is stopped,
revealed, and each phone told right or wrong, the projector's bars counting below / within /
above. A timed question closes itself on the phones and on the projector with no click. A
question about the view on the screen (/knn) is asked and revealed with the answer the lesson
computed. The store on the same file is the oracle."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from conftest import (
    assert_no_exception_box,
    require_browser,
    screenshot,
    start_server,
    stop_server,
    wait_for_app,
)
from test_class_layout import teacher_page  # noqa: I001  (the tests folder is on the path)

from pages.classroom import room_store

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(600)]
WAIT = 60_000


@pytest.fixture(scope="module")
def class_server(tmp_path_factory) -> Iterator[tuple[str, str]]:
    require_browser()
    folder = str(tmp_path_factory.mktemp("classes"))
    process, url = start_server(env={"CLASSIC_CLASS_DIR": folder, "CLASSIC_CLASS_STORE": None})
    yield url, folder
    stop_server(process)


def until(condition, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out after {seconds} s waiting for {what}"
        time.sleep(0.25)


def phone_tab(browser, base: str, code: str):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    page.goto(f"{base}/join?room={code}")
    page.get_by_text("Waiting for the teacher").wait_for()
    return context, page


def ask_own(
    projector, text: str, kind: str, choices: str = "", right: int = 1, number=None, within=None, timer=0
):
    """Fill "Ask your own question" in the class's sidebar and send it."""
    projector.get_by_role("button", name="Ask your own question").click()
    form = projector.locator('[data-testid="stPopoverBody"]')
    form.get_by_label("Question", exact=True).fill(text)
    form.get_by_text(kind, exact=True).click()
    if choices:
        form.get_by_label("Choices, one a line (2 to 8)", exact=True).fill(choices)
        form.get_by_label("The right choice (its line)", exact=True).fill(str(right))
    if number is not None:
        form.get_by_label("The number", exact=True).fill(str(number))
        form.get_by_label("Right within ±", exact=True).fill(str(within))
    form.get_by_label("Timer in seconds (0: none)", exact=True).fill(str(timer))
    form.get_by_role("button", name="Ask the class").click()
    projector.keyboard.press("Escape")
    projector.locator(".st-key-try_step").get_by_text("Asked of the class").wait_for()


def test_a_number_question_a_timed_question_and_a_question_about_the_view(browser, class_server):
    base, folder = class_server
    store = room_store.open_store(url="", directory=folder)
    code, key = store.open_room()
    contexts = []
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        contexts.append(context)
        projector = teacher_page(context, base, "knn", code, key)
        wait_for_app(projector, 120_000)
        phones = []
        for _ in range(2):
            c, phone = phone_tab(browser, base, code)
            contexts.append(c)
            phones.append(phone)
        until(lambda: store.joined(code) == 2, "two phones to join")

        # A number, right within ± 2 of 12.
        ask_own(projector, "How many updates will it make?", "A number", number=12, within=2)
        asked = store.current(code).question
        assert (asked.kind, asked.answer, asked.tolerance) == ("number", 12, 2)
        # Issue 35: a phone says a new question in a live region; the projector's count is one too.
        said = phones[0].get_by_test_id("class-question")
        said.filter(has_text="Question 1. How many updates will it make?").wait_for()
        assert said.get_attribute("aria-live") == "polite" and said.get_attribute("role") == "status"
        count = projector.get_by_test_id("class-count")
        assert count.get_attribute("role") == "status" and count.get_attribute("aria-live") == "polite"
        for phone, value in zip(phones, ("13.5", "30"), strict=True):
            phone.get_by_text("How many updates will it make?").wait_for()
            phone.get_by_label("Your answer", exact=True).fill(value)
            phone.get_by_role("button", name="Send").tap()
            phone.get_by_text(f"Your answer: {value}").wait_for()
        screenshot(phones[0], "class_number_phone")
        projector.get_by_test_id("class-count").filter(has_text=re.compile(r"^2 answers")).wait_for()
        projector.get_by_role("button", name="Stop the vote").click()
        projector.get_by_text("Vote 1: 50% right (1 of 2)").wait_for()
        projector.get_by_role("button", name="Reveal").click()
        bars = projector.get_by_test_id("class-round")
        bars.first.wait_for()
        counts = [int(t.split()[0]) for t in bars.first.get_by_test_id("class-bar-count").all_inner_texts()]
        assert tuple(counts) == store.counts(code, 1) == (0, 1, 1)
        assert "12 ± 2" in bars.first.inner_text()
        phones[0].get_by_text("Right! You said 13.5").wait_for()
        phones[1].get_by_text("Not this time: you said 30").wait_for()
        screenshot(projector, "class_number_revealed")

        # A question with a 10 s timer: it closes itself, on the phones and on the projector.
        ask_own(
            projector, "Is the map smoother at k = 15?", "Choices, one of them right", "Yes\nNo", 1, timer=10
        )
        until(lambda: store.current(code).number == 2, "the timed question to be asked")
        timed = store.current(code)
        assert timed.question.seconds == 10 and timed.question.choices == ("Yes", "No")
        phones[0].get_by_text(re.compile(r"About \d+ s left")).wait_for()
        phones[0].get_by_role("button", name="Yes", exact=True).tap()
        projector.get_by_text(re.compile(r"\d+ s left")).first.wait_for()
        screenshot(projector, "class_timed_projector")
        for phone in phones:
            phone.get_by_text("The vote is closed").wait_for(timeout=30_000)
        closed = phones[1].get_by_test_id("stAlertContainer").filter(has_text="The vote is closed")
        assert closed.get_attribute("role") == "status"  # Streamlit's box is a live region: it is said
        assert time.time() >= timed.asked_at + 10 - 0.5
        projector.get_by_text("Vote 1: 100% right (1 of 1)").wait_for(timeout=30_000)  # no click
        assert store.counts(code, timed.number) == (1, 0)
        screenshot(phones[1], "class_timed_phone_closed")

        # A question about the view on the screen.
        projector.locator('[data-testid="stExpander"] summary', has_text="Ask about this view").click()
        box = projector.locator('[data-testid="stExpander"]', has_text="Ask about this view")
        box.get_by_role("button").first.click()
        until(lambda: ".view" in store.current(code).question.qid, "a question about the view to be asked")
        about = store.current(code).question
        projector.locator(".st-key-try_step").get_by_text(about.text[:40]).wait_for()
        right, wrong = about.choices[about.answer], about.choices[(about.answer + 1) % len(about.choices)]
        phones[0].get_by_role("button", name=right, exact=True).tap()
        phones[1].get_by_role("button", name=wrong, exact=True).tap()
        projector.get_by_test_id("class-count").filter(has_text=re.compile(r"^2 answers")).wait_for()
        assert f"The answer: {right}" not in projector.inner_text("body")
        if about.text.startswith(
            "Which class does the query"
        ):  # the class at the query: the player keeps it back
            projector.get_by_text("its class is hidden until the answer is revealed").wait_for()
            assert projector.get_by_text(re.compile(r"The query \(.*\) → ")).count() == 0
        screenshot(projector, "class_about_view_asked")
        projector.get_by_role("button", name="Reveal").click()
        projector.get_by_text(f"The answer: {right}").wait_for()
        projector.get_by_text(re.compile(r"The query \(.*\) → ")).first.wait_for()  # told once revealed
        phones[0].get_by_text("Right! The answer is").wait_for()
        screenshot(projector, "class_about_view_revealed")
        for page in [projector, *phones]:
            assert_no_exception_box(page)
    finally:
        for context in contexts:
            context.close()
        store.close()


def test_a_phone_answers_by_keyboard_alone(browser, class_server):
    """Issue 35's done-when: a class question answered on the phone with the keyboard only (Tab
    to a choice, Enter), the new question said in the page's live region first."""
    from pages.classroom.rooms import Question

    base, folder = class_server
    store = room_store.open_store(url="", directory=folder)
    code, key = store.open_room()
    context, phone = phone_tab(browser, base, code)
    try:
        asked = Question("knn.1", "Which way does the boundary run?", ("Across", "Up and down"), 1, "Look.")
        store.ask(code, key, asked)
        phone.get_by_test_id("class-question").filter(has_text="Which way does the boundary run?").wait_for()
        for _ in range(30):  # Tab until the right choice has the focus: no click, no tap
            phone.keyboard.press("Tab")
            if phone.evaluate(
                "() => (document.activeElement && document.activeElement.innerText || '').trim()"
            ) == ("Up and down"):
                break
        else:
            raise AssertionError("Tab never reached the choice")
        phone.keyboard.press("Enter")
        phone.get_by_text("Your answer: Up and down").wait_for()
        until(lambda: store.counts(code, 1) == (0, 1), "the answer stored")
        store.reveal(code, key)
        phone.get_by_text("Right! The answer is").wait_for()
    finally:
        context.close()
        store.close()
