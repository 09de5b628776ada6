"""A whole class in a browser: the teacher's projector (1280×720, presentation mode) and six
phones (390×844, touch).

The teacher starts a class from the sidebar, the phones join by the card's link, the teacher
asks a "Try this" step, the count on the projector follows the answers with no click; peer
instruction's cycle: the vote stopped (the share right and the advice on the projector, the
votes only when the teacher shows them), a second vote from the teacher's other device, a
question of the same kind answered alone, one reveal for all three side by side, each phone told
right or wrong; the report of what the class missed; the end closes the room and downloads the
answers as CSV. Against SQLite (one server) and
against Redis with two servers sharing it (the teacher on one, the phones split across both).
The restart test stops the server mid-class and starts it again on the same SQLite file.

The store this test opens on the same file (or Redis) is the oracle: what the phones answered,
the question's right answer, the counts.
"""

from __future__ import annotations

import csv
import io
import json
import re
import tempfile
import time
from contextlib import ExitStack
from urllib.parse import quote, urlencode

import pytest
from conftest import assert_no_exception_box, new_context, screenshot, start_server, stop_server
from redis_server import redis_server, require_redis

from pages.classroom import class_panel, room_store, rooms

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(900)]

PAGE = "perceptron"
PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
PHONES = 6
WAIT = 60_000  # ms: every wait on a page is bounded


def open_tab(browser, viewport: dict, phone: bool = False):
    """A tab in a fresh browser context (a phone's: touch, 2× pixels), closed with the browser's
    contexts at the end of the test (``Tabs``)."""
    context = browser.enter_context(
        new_context(
            browser.chromium, viewport=viewport, has_touch=phone, is_mobile=phone,
            device_scale_factor=2 if phone else 1, accept_downloads=True,
        )
    )  # fmt: skip
    context.set_default_timeout(WAIT)
    return context.new_page()


class Tabs(ExitStack):
    """The test's browser: the session's Chromium, and the contexts this test opened."""

    def __init__(self, chromium) -> None:
        super().__init__()
        self.chromium = chromium


def until(condition, what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out after {seconds} s waiting for {what}"
        time.sleep(0.25)


def wait_idle(page) -> None:
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=WAIT)


def teacher_kept(page) -> tuple[str, str]:
    """The [code, key] the teacher's browser keeps in its own storage (pages/widgets/remembered.py),
    once it has written them."""
    read = "localStorage.getItem('classic.teacher')"
    until(lambda: page.evaluate(read) is not None, "the teacher's browser to keep the key", 30)
    return tuple(json.loads(page.evaluate(read)))


def teacher_link(page, base: str, path: str = PAGE) -> str:
    code, key = teacher_kept(page)
    return f"{base}/{path}?" + urlencode({class_panel.CODE_PARAM: code, class_panel.KEY_PARAM: key})


def start_class(projector, base: str) -> tuple[str, str]:
    """Open the lesson in presentation mode and press "Start a class": the room code and the
    join link as the card shows them."""
    projector.goto(f"{base}/{PAGE}?present=1")
    wait_idle(projector)
    projector.get_by_role("button", name="Start a class").click()
    code = projector.get_by_test_id("class-code").inner_text(timeout=WAIT).strip()
    link = projector.get_by_test_id("class-link").inner_text().strip()
    return code, link


def ask_step(projector, step: int = 1, shot: str = "") -> None:
    """Open "Try this" and press "Ask the class" beside step ``step`` (a screenshot of the steps
    first, named ``shot``)."""
    projector.locator('[data-testid="stExpander"] summary', has_text="Try this").click()
    button = projector.locator(f".st-key-{PAGE}_class_ask_{step} button")
    button.wait_for()
    if shot:
        button.scroll_into_view_if_needed()
        screenshot(projector, shot)
    button.click()
    projector.get_by_text("Asked of the class").wait_for()


def count_shown(projector) -> str:
    return projector.get_by_test_id("class-count").inner_text(timeout=WAIT)


def wait_count(projector, n: int) -> None:
    """The projector's live count reaches ``n`` answers, with no click on the projector."""
    projector.get_by_test_id("class-count").filter(has_text=re.compile(rf"^{n} answers?\b")).wait_for()


def tap(phone, choice: str) -> None:
    phone.get_by_role("button", name=choice, exact=True).tap()


def assert_axe_clean(page, what: str) -> None:
    """axe-core on the page itself (the class's card, count, bars, the phone's page): no critical
    or serious violation."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page.main_frame, options={"resultTypes": ["violations"], "iframes": False})
    bad = [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in results.response["violations"]
        if v["impact"] in ("critical", "serious")
    ]
    assert not bad, f"{what}: {bad}"


def check_csv(data: bytes, store, code: str, key: str, nickname: str) -> list[dict]:
    rows = list(csv.DictReader(io.StringIO(data.decode())))
    exported = store.export(code, key)
    assert len(rows) == len(exported["phone"]) > 0
    assert set(rows[0]) == set(exported)  # round, question, attempt, phone, nickname, answer, …
    # A nickname a spreadsheet would run is neutralised; no other personal data is in the file.
    assert f"'{nickname}" in {row["nickname"] for row in rows}
    return rows


def run_round(browser, teacher_base: str, phone_bases: list[str], store, name: str) -> None:
    """The whole round; ``phone_bases[i % len]`` is the server phone ``i`` joins through."""
    projector = open_tab(browser, PROJECTOR)
    code, link = start_class(projector, teacher_base)
    # The key is never in the projector's address (it is photographed): the teacher's browser
    # keeps it in its own storage; the phones' link never has it.
    assert "teacher=" not in projector.url and "class=" not in projector.url
    code_kept, key = teacher_kept(projector)
    assert code_kept == code and store.is_teacher(code, key) and key not in projector.inner_text("body")
    assert link == f"{teacher_base}/join?room={code}" and key not in link
    qr = projector.get_by_test_id("class-join-card").locator("img")
    assert qr.get_attribute("src").startswith("data:image/svg+xml")  # the QR code, nothing fetched
    assert qr.bounding_box()["width"] >= 250
    card = projector.get_by_test_id("class-code").bounding_box()
    # Large enough for the back row, and whole on the projector's screen.
    assert card["height"] >= 80 and card["y"] + card["height"] <= PROJECTOR["height"]
    screenshot(projector, f"class_{name}_projector_card")
    assert_axe_clean(projector, "the projector's join card")
    # Another page keeps the class, and so does a reload (a new session): the card on the page,
    # never the key in the address.
    projector.locator('[data-testid="stSidebarNav"] a', has_text="Home").click()
    projector.wait_for_url(re.compile(r"/(\?|$)"), timeout=WAIT)
    projector.get_by_test_id("class-code").wait_for()
    projector.locator('[data-testid="stSidebarNav"] a', has_text="Perceptron").click()
    projector.wait_for_url(re.compile(rf"/{PAGE}"), timeout=WAIT)
    projector.get_by_test_id("class-code").wait_for()
    projector.reload()
    projector.get_by_test_id("class-code").wait_for(timeout=WAIT)
    assert "teacher=" not in projector.url
    # Presenting, the teacher link is not even on demand.
    assert projector.get_by_role("button", name="Control from another device").count() == 0

    phones = []
    nickname = "=HYPERLINK(1)"
    for i in range(PHONES):
        phone = open_tab(browser, PHONE, phone=True)
        query = f"&join_nickname={quote(nickname)}" if i == 0 else ""
        phone.goto(link.replace(teacher_base, phone_bases[i % len(phone_bases)]) + query)
        phone.get_by_text("Waiting for the teacher").wait_for()
        phones.append(phone)
    until(lambda: store.joined(code) == PHONES, f"{PHONES} phones to join")
    projector.get_by_text(
        f"{PHONES} of {rooms.CLASS_SIZE} phones joined"
    ).wait_for()  # no click: the card follows
    screenshot(phones[0], f"class_{name}_phone_waiting")
    # Everyone is in: the card folds to one line, and the figure gets the screen back.
    projector.get_by_role("button", name="Hide the join code").click()
    projector.get_by_text(f"Class {code} · join at").wait_for()
    assert projector.get_by_test_id("class-join-card").count() == 0

    ask_step(projector, shot=f"class_{name}_projector_steps")
    question = store.current(code).question
    assert question.qid == f"{PAGE}.1" and count_shown(projector).startswith("0 answers")
    screenshot(projector, f"class_{name}_projector_asked")
    right = question.choices[question.answer]
    wrong = question.choices[(question.answer + 1) % len(question.choices)]
    picks = [right, right, right, wrong, wrong, wrong]
    for n, (phone, pick) in enumerate(zip(phones, picks, strict=True), start=1):
        phone.get_by_role("button", name=pick, exact=True).wait_for()
        tap(phone, pick)
        wait_count(projector, n)  # the projector counts each answer as it arrives, no click
    screenshot(phones[3], f"class_{name}_phone_answered")
    # A reload keeps the phone's id (in its own storage): its answer is still its own.
    phones[3].reload()
    phones[3].get_by_text(f"Your answer: {wrong}").wait_for()
    assert store.joined(code) == PHONES
    assert "answers" in count_shown(projector) and "phones joined" in count_shown(projector)
    screenshot(projector, f"class_{name}_projector_counted")

    # Vote 1 stopped: the share right and the advice for 35–70%, but neither the answer nor the votes.
    projector.get_by_role("button", name="Stop the vote").click()
    projector.get_by_text("Vote 1: 50% right (3 of 6)").wait_for()
    assert "Between 35% and 70% right: students discuss with a neighbour" in projector.inner_text("body")
    rounds = projector.get_by_test_id("class-round")
    assert rounds.count() == 0 and f"The answer: {right}" not in projector.inner_text("body")
    for phone in phones:
        phone.get_by_text("The vote is closed").wait_for()
    assert phones[0].get_by_role("button", name=right, exact=True).is_disabled()
    screenshot(projector, f"class_{name}_projector_stopped")
    screenshot(phones[0], f"class_{name}_phone_closed")
    projector.get_by_role("button", name="Show the votes").click()  # the teacher's choice
    rounds.first.wait_for()
    expected = store.counts(code, 1)
    assert sum(expected) == PHONES and expected[question.answer] == 3
    shown = [int(t.split()[0]) for t in rounds.first.get_by_test_id("class-bar-count").all_inner_texts()]
    assert tuple(shown) == expected and "✓" not in rounds.first.inner_text()  # no answer marked
    projector.get_by_role("button", name="Hide the votes").click()
    until(lambda: rounds.count() == 0, "the votes hidden again")

    # "Vote again" from the teacher's second device, by the teacher's link (on the other server
    # when there are two): it shows the class as the projector does, and the projector follows.
    other = open_tab(browser, PROJECTOR)
    other.goto(teacher_link(projector, phone_bases[-1]) + "&present=1")
    other.get_by_text("Vote 1: 50% right (3 of 6)").wait_for()
    other.get_by_role("button", name="Vote again").click()
    other.get_by_text("Vote 2").first.wait_for()
    projector.get_by_text("Vote 2").first.wait_for()  # no click on the projector
    other.close()
    for phone in phones:
        phone.get_by_text("Question 2.").wait_for()
        tap(phone, right)
    wait_count(projector, PHONES)
    projector.get_by_role("button", name="Stop the vote").click()
    projector.get_by_text("Vote 2: 100% right (6 of 6)").wait_for()
    assert "Above 70% right" in projector.inner_text("body")
    screenshot(projector, f"class_{name}_projector_second_vote")

    # A question of the same kind, made anew by the lesson and answered alone.
    projector.get_by_role("button", name="Same kind").click()
    until(lambda: store.current(code).question.follows == question.qid, "the same kind to be asked")
    same = store.current(code).question
    assert same.qid != question.qid and store.current(code).attempt == 1
    same_right = same.choices[same.answer]
    same_wrong = same.choices[(same.answer + 1) % len(same.choices)]
    same_picks = [same_right] * 4 + [same_wrong] * 2
    projector.get_by_test_id("class-count").filter(has_text=re.compile(r"^0 answers")).wait_for()
    for phone, pick in zip(phones, same_picks, strict=True):
        phone.get_by_text("Question 3.").wait_for()
        tap(phone, pick)
    wait_count(projector, PHONES)
    screenshot(phones[1], f"class_{name}_phone_same_kind")
    projector.get_by_role("button", name="Reveal").click()
    until(lambda: rounds.count() == 3, "vote 1, vote 2 and the same kind side by side")
    boxes = [rounds.nth(n).bounding_box() for n in range(3)]
    assert (
        all(abs(b["y"] - boxes[0]["y"]) < 5 for b in boxes) and boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]
    )
    texts = [rounds.nth(n).inner_text() for n in range(3)]
    assert (
        texts[0].startswith("Vote 1") and texts[1].startswith("Vote 2") and texts[2].startswith("Same kind")
    )
    assert f"The answer: {same_right}" in projector.inner_text("body")
    assert store.counts(code, 1) == expected and store.counts(code, 2)[question.answer] == PHONES
    for phone, pick in zip(phones, same_picks, strict=True):
        phone.get_by_text("Right! The answer is" if pick == same_right else "Not this time").wait_for()
    screenshot(projector, f"class_{name}_projector_three_votes")
    assert_axe_clean(projector, "the projector's revealed rounds")
    assert_axe_clean(phones[4], "a phone told it was wrong")
    screenshot(phones[0], f"class_{name}_phone_right")
    screenshot(phones[4], f"class_{name}_phone_wrong")

    # What the class missed, from the sidebar's link: the line of this question.
    projector.get_by_role("link", name="What was missed").click()
    projector.get_by_role("heading", name="What the class missed").wait_for()
    table = projector.locator('[data-testid="stTable"]')
    table.wait_for()
    line = table.inner_text()
    for cell in ("50% (3 of 6)", "100% (6 of 6)", "67% (4 of 6)", f"{wrong} (3)"):
        assert cell in line, (cell, line)
    screenshot(projector, f"class_{name}_report")
    projector.locator('[data-testid="stSidebarNav"] a', has_text="Perceptron").click()
    projector.wait_for_url(re.compile(rf"/{PAGE}"), timeout=WAIT)
    until(lambda: rounds.count() == 3, "the rounds on the lesson again")

    projector.get_by_role("button", name="End the class").click()
    projector.get_by_role("button", name="End the class now").click()
    for phone in phones:
        phone.get_by_text("This class has ended").wait_for()
    # The projector keeps the last answers on the screen, without the buttons.
    projector.get_by_text(f"Class {code} has ended: these are its last answers.").wait_for()
    assert rounds.count() == 3 and projector.get_by_role("button", name="Ask again").count() == 0
    with projector.expect_download(timeout=WAIT) as download:
        projector.get_by_role("button", name="Download the answers (CSV)").click()
    rows = check_csv(download.value.path().read_bytes(), store, code, key, nickname)
    assert len(rows) == 3 * PHONES
    assert len({row["phone"] for row in rows}) == PHONES
    screenshot(projector, f"class_{name}_projector_ended")
    screenshot(phones[0], f"class_{name}_phone_ended")
    for page in [projector, *phones]:
        assert_no_exception_box(page)


def test_a_whole_round_on_one_server_with_sqlite(browser):
    with tempfile.TemporaryDirectory(prefix="classic-classes-") as folder, ExitStack() as stack:
        process, base = start_server(env={"CLASSIC_CLASS_DIR": folder, "CLASSIC_CLASS_STORE": None})
        stack.callback(stop_server, process)
        store = room_store.open_store(url="", directory=folder)
        stack.callback(store.close)
        tabs = stack.enter_context(Tabs(browser))
        run_round(tabs, base, [base], store, "sqlite")


def test_a_whole_round_on_two_servers_sharing_redis(browser):
    require_redis()
    with redis_server() as redis_url, ExitStack() as stack:
        servers = []
        for _ in range(2):
            process, base = start_server(env={"CLASSIC_CLASS_STORE": redis_url})
            stack.callback(stop_server, process)
            servers.append(base)
        store = room_store.open_store(url=redis_url)
        stack.callback(store.close)
        tabs = stack.enter_context(Tabs(browser))
        # The teacher on the first server; the phones split across both.
        run_round(tabs, servers[0], servers, store, "redis")


def test_the_class_survives_a_server_restart_and_the_teacher_link_still_works(browser):
    """SQLite: stop the server mid-class and start it again on the same file: the class, its
    question and its answers are there, the phones reload into their own answers, and the
    teacher's link, opened on another device, reveals."""
    with tempfile.TemporaryDirectory(prefix="classic-classes-") as folder, ExitStack() as stack:
        sqlite = {"CLASSIC_CLASS_DIR": folder, "CLASSIC_CLASS_STORE": None}
        process, base = start_server(env=sqlite)
        store = room_store.open_store(url="", directory=folder)
        stack.callback(store.close)
        browser = stack.enter_context(Tabs(browser))
        projector = open_tab(browser, PROJECTOR)
        code, link = start_class(projector, base)
        other_link = teacher_link(projector, base)
        phones = [open_tab(browser, PHONE, phone=True) for _ in range(2)]
        for phone in phones:
            phone.goto(link)
            phone.get_by_text("Waiting for the teacher").wait_for()
        ask_step(projector)
        question = store.current(code).question
        picks = [question.choices[0], question.choices[1]]
        for n, (phone, pick) in enumerate(zip(phones, picks, strict=True), start=1):
            phone.get_by_role("button", name=pick, exact=True).wait_for()
            tap(phone, pick)
            wait_count(projector, n)
        phone_paths = [phone.url.removeprefix(base) for phone in phones]
        assert not any("me=" in path for path in phone_paths)  # the phone's identity is not in its link

        stop_server(process)
        process, again = start_server(env=sqlite, port=int(base.rsplit(":", 1)[1]))
        assert again == base
        stack.callback(stop_server, process)
        assert store.counts(code, 1)[:2] == (1, 1) and store.joined(code) == 2

        # The teacher's link on another device, after the restart: the same class, the step asked
        # at the top, its two answers, and the teacher's controls.
        # A laptop's screen, not presenting.
        other = open_tab(browser, {"width": 1440, "height": 900})
        other.goto(other_link)
        # A question is asked: the card is folded to its line (the code and the join link).
        other.get_by_text(f"Class {code} · join at").wait_for(timeout=WAIT)
        wait_count(other, 2)
        assert "teacher=" not in other.url  # read, then out of the address
        screenshot(other, "class_restart_projector")
        # Not presenting, the teacher link shows on demand, for yet another device.
        other.get_by_role("button", name="Control from another device").click()
        shown = other.locator('[data-testid="stPopoverBody"] code').first.inner_text()
        assert shown.endswith(other_link.split("/", 3)[3]) and f"teacher={teacher_kept(other)[1]}" in shown
        other.keyboard.press("Escape")
        for phone, path, pick in zip(phones, phone_paths, picks, strict=True):
            phone.goto(base + path)  # a reload, on the restarted server
            phone.get_by_text(f"Your answer: {pick}").wait_for()
        other.get_by_role("button", name="Reveal").click()
        other.get_by_test_id("class-round").wait_for()
        for phone, pick in zip(phones, picks, strict=True):
            verdict = "Right! The answer is" if pick == question.choices[question.answer] else "Not this time"
            phone.get_by_text(verdict).wait_for()
        assert store.current(code).revealed and store.joined(code) == 2
        screenshot(phones[0], "class_restart_phone")
        for page in [other, *phones]:
            assert_no_exception_box(page)


def test_a_wrong_teacher_key_gets_no_control_and_a_student_sees_none(browser, tmp_path):
    """A link with the room's code and a made-up key: a note, no teacher control, and the key is
    dropped from the address; the phone's page has no teacher control either."""
    with ExitStack() as stack:
        process, base = start_server(env={"CLASSIC_CLASS_DIR": str(tmp_path), "CLASSIC_CLASS_STORE": None})
        stack.callback(stop_server, process)
        store = room_store.open_store(url="", directory=tmp_path)
        stack.callback(store.close)
        code, key = store.open_room()
        browser = stack.enter_context(Tabs(browser))
        page = open_tab(browser, PROJECTOR)
        page.goto(f"{base}/{PAGE}?class={code}&teacher=not-the-key")
        page.get_by_text("This teacher link opens no class").wait_for()
        page.get_by_role("button", name="Start a class").wait_for()
        assert page.get_by_test_id("class-code").count() == 0
        assert page.get_by_role("button", name="End the class").count() == 0
        until(lambda: "teacher=" not in page.url, "the wrong key to leave the address")
        phone = open_tab(browser, PHONE, phone=True)
        # Even with the key in a phone's link; an identity in a link is never used.
        phone.goto(f"{base}/join?room={code}&teacher={key}&me=%3Cb%3Eid%3C%2Fb%3E")
        phone.get_by_text("Waiting for the teacher").wait_for()
        until(lambda: "me=" not in phone.url, "the link's identity to leave the address")
        kept = phone.evaluate("localStorage.getItem('classic.phone')")
        assert list(store._phones(code)) == [kept] and kept != "<b>id</b>"
        for label in ("Start a class", "End the class", "Reveal", "Ask the class", "Ask again"):
            assert phone.get_by_role("button", name=label).count() == 0
        assert not store.room(code).ended and store.current(code) is None
