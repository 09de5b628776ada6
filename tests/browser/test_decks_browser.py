"""Decks, lessons the teacher prepares (issue #34), in a browser on one server with SQLite.

Each ready-made deck is played end to end with a class: the projector (1280×720, presenting,
the teacher's link at the deck's first slide) asks every question of every slide from the slide
bar, two phones answer, the projector counts and reveals, each phone is told right or wrong, and
Next (a click, or PageDown as a presenter's clicker sends) goes to the next slide; at the end the
report has a line per question asked. The editor on /decks: slides added from the lesson pages,
retitled, moved, removed, a question removed, saved as JSON and opened again, bad files refused
with one message each; the handout and its answer key as PDFs; a link that opens a deck at a
slide. The store on the same SQLite folder and ``classic.lessons.decks`` are the oracles.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlencode, urlsplit

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

from classic.lessons import decks, lesson_of
from pages.classroom import class_panel, kinds, room_store

pytestmark = [pytest.mark.browser]

PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
WAIT = 120_000  # ms: generous, for a loaded 2-core machine (a slide is a whole page's first run)
READY = list(decks.READY)


@pytest.fixture(scope="module")
def class_server(tmp_path_factory) -> Iterator[tuple[str, str]]:
    """One server for the module, its classes in SQLite in a folder the test's store opens too."""
    require_browser()
    folder = str(tmp_path_factory.mktemp("classes"))
    process, url = start_server(env={"CLASSIC_CLASS_DIR": folder, "CLASSIC_CLASS_STORE": None})
    yield url, folder
    stop_server(process)


@pytest.fixture
def store(class_server):
    opened = room_store.open_store(url="", directory=class_server[1])
    yield opened
    opened.close()


def until(condition, what: str, seconds: float = 120) -> None:
    """Bounded polling of the store (or a page's state)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"timed out after {seconds} s waiting for {what}"
        time.sleep(0.25)


def idle(page) -> None:
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=WAIT)


def press(page, button, done, what: str) -> None:
    """Click ``button`` on a settled page (a click on a page still drawing can land where the
    button was) until ``done()``: a second press if the first did nothing within 45 s. Under load
    a press of Ask or Reveal is sometimes lost while the page's live count reruns every second
    (about 1 in 30 in a CI run; never when idle; the cause is not found): a teacher presses
    again, and so does the test, once."""
    idle(page)
    button.click()
    try:
        until(done, what, 45)
    except AssertionError:
        idle(page)
        button.click()
        until(done, f"{what} (pressed twice)")


def bar_text(page) -> str:
    return page.locator(".st-key-deck_bar").inner_text(timeout=WAIT)


def wait_slide(page, i: int, n: int, title: str) -> None:
    """The projector is at slide ``i`` (1-based) of ``n``: its link says so, and so does the bar."""
    page.wait_for_url(re.compile(rf"[?&]slide={i}(&|$)"), timeout=WAIT)
    page.locator(".st-key-deck_bar").filter(has_text=f"slide {i} of {n}: {title}").wait_for(timeout=WAIT)


def link_text(value) -> str:
    """A view's value as a link carries it (pages/widgets/deck.py)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def asked_text(question) -> str:
    """What the class is asked for a deck question resolved (``decks.resolve``)."""
    return question.text if isinstance(question, decks.Own) else str(question.question)


# ---- 1. each ready-made deck, played with a class ----------------------------------------------


def answer(phone, q, r: int, right: bool) -> str:
    """Phone answers round ``r`` (question ``q`` as the store holds it): the right answer or a
    wrong one (an opinion: the first or second choice). What the phone sent, as text."""
    if q.kind == kinds.NUMBER:
        value = q.answer if right else q.answer + q.tolerance + 10
        phone.get_by_label("Your answer", exact=True).fill(f"{value:g}")
        phone.get_by_role("button", name="Send").tap()
        phone.get_by_text(f"Your answer: {value:g}").wait_for(timeout=WAIT)
        return f"{value:g}"
    if q.kind == kinds.OPINION or not 0 <= q.answer < len(q.choices):
        pick = 0 if right else 1
    else:
        pick = q.answer if right else (q.answer + 1) % len(q.choices)
    button = phone.locator(f".st-key-join_choice_{r}_{pick} button")
    button.wait_for(timeout=WAIT)
    button.tap()
    phone.get_by_text("Your answer:").first.wait_for(timeout=WAIT)
    return q.choices[pick]


def verdict(q, right: bool) -> str:
    if q.kind == kinds.OPINION or (q.kind != kinds.NUMBER and not 0 <= q.answer < len(q.choices)):
        return "This question asked for your opinion"
    return "Right!" if right else "Not this time"


@pytest.mark.slow
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("name", READY)
def test_a_ready_made_deck_plays_end_to_end_with_a_class(browser, class_server, store, name):
    base, _ = class_server
    deck = decks.ready(name)
    n = len(deck.slides)
    code, key = store.open_room()
    first = deck.slides[0]
    view = {k: link_text(v) for k, v in first.view.items()}
    link = f"/{first.page}?" + urlencode(
        {**view, decks_param("deck"): name, decks_param("slide"): 1, "present": 1,
         class_panel.CODE_PARAM: code, class_panel.KEY_PARAM: key}
    )  # fmt: skip
    with (
        new_context(browser, viewport=PROJECTOR) as projector_context,
        new_context(browser, viewport=PHONE, has_touch=True, is_mobile=True) as phone_a,
        new_context(browser, viewport=PHONE, has_touch=True, is_mobile=True) as phone_b,
    ):
        for context in (projector_context, phone_a, phone_b):
            context.set_default_timeout(WAIT)
        projector = projector_context.new_page()
        projector.goto(base + link)
        wait_slide(projector, 1, n, first.title)
        # The key leaves the projected address for the browser's own storage; every next slide
        # is a new page load that finds the class there.
        until(
            lambda: projector.evaluate("localStorage.getItem('classic.teacher')") is not None, "the key kept"
        )
        until(lambda: "teacher=" not in projector.url, "the key to leave the address", 60)
        phones = []
        for context in (phone_a, phone_b):
            phone = context.new_page()
            phone.goto(f"{base}/join?room={code}")
            phone.get_by_text("Waiting for the teacher").wait_for(timeout=WAIT)
            phones.append(phone)
        until(lambda: store.joined(code) == 2, "two phones to join")

        asked: list[str] = []
        last = 0
        for i, slide in enumerate(deck.slides, start=1):
            wait_slide(projector, i, n, slide.title)
            # Each slide is a page load that finds the class in the browser's storage a run later:
            # "Ask" pressed before that sets the question up at the screen only (no class round).
            projector.get_by_text(code).first.wait_for(timeout=WAIT)
            for j, expected in enumerate(decks.resolve(slide)):
                button = projector.locator(f".st-key-deck_ask_{j}").get_by_role("button")
                button.wait_for(timeout=WAIT)
                press(
                    projector,
                    button,
                    lambda before=last: (c := store.current(code)) is not None and c.number > before,
                    f"slide {i}'s “Ask {j + 1}” to ask the class",
                )
                current = store.current(code)
                last, q = current.number, current.question
                assert q.text == asked_text(expected), (name, i, j, q.text)
                asked.append(q.text)
                sent = [
                    answer(phone, q, last, right) for phone, right in zip(phones, (True, False), strict=True)
                ]
                projector.get_by_test_id("class-count").filter(has_text=re.compile(r"^2 answers")).wait_for(
                    timeout=WAIT
                )
                assert len(store.answers(code, key, last)) == 2
                if i == 1 and j == 0:
                    screenshot(projector, f"deck_{name}_projector_counted")
                reveal = projector.locator('[class*="_class_reveal"] button')
                press(
                    projector,
                    reveal,
                    lambda: store.current(code).revealed,
                    f"slide {i}, question {j + 1} revealed",
                )
                for phone, right, value in zip(phones, (True, False), sent, strict=True):
                    # The store's answer decides right or wrong: the phone must say the same.
                    said = kinds.of(q).right(answer_value(q, value), q) if kinds.of(q).graded else None
                    want = verdict(q, right)
                    if said is not None:
                        assert said == right, (name, i, j, value, q.answer)
                    phone.get_by_text(want).first.wait_for(timeout=WAIT)
                if i == 1 and j == 0:
                    screenshot(projector, f"deck_{name}_projector_revealed")
                    screenshot(phones[1], f"deck_{name}_phone_wrong")
                assert_no_exception_box(projector)
            if i < n:
                if i == 1:  # a presenter's clicker: PageDown on the page, no click
                    idle(projector)
                    projector.locator("body").press("PageDown")
                else:  # on a settled page: the reveal's answer moves what is below it
                    idle(projector)
                    projector.locator(".st-key-deck_next").get_by_role("button").click()
                try:
                    projector.wait_for_url(re.compile(rf"[?&]slide={i + 1}(&|$)"), timeout=WAIT)
                except Exception as error:  # say where it stopped, with what the hall saw
                    screenshot(projector, f"deck_{name}_stuck_at_{i}")
                    how = "PageDown" if i == 1 else "Next"
                    raise AssertionError(f"{how} on slide {i} went nowhere: {projector.url}") from error
        assert projector.locator(".st-key-deck_next").get_by_role("button").is_disabled()
        screenshot(projector, f"deck_{name}_projector_last")

        projector.get_by_role("link", name="What was missed").click()
        projector.get_by_role("heading", name="What the class missed").wait_for(timeout=WAIT)
        table = projector.locator('[data-testid="stTable"]')
        table.wait_for(timeout=WAIT)
        until(lambda: table.locator("tbody tr").count() >= 1, "the report's lines", 30)
        screenshot(projector, f"deck_{name}_report")
        rows = table.locator("tbody tr").all_inner_texts()
        # One line a question asked: the report groups rounds by their question's id, so two
        # questions given one id (a made question numbered anew on each slide's page load) share a line.
        qids = [r.question.qid for r in store.rounds(code)]
        assert len(rows) == len(asked), (name, f"{len(rows)} lines for {len(asked)} questions", qids)
        for text in asked:
            assert any(text[:60] in row for row in rows), (text, rows)
        for page in [projector, *phones]:
            assert_no_exception_box(page)


def decks_param(which: str) -> str:
    from pages.widgets import deck

    return deck.DECK_PARAM if which == "deck" else deck.SLIDE_PARAM


def answer_value(q, sent: str):
    """The value the store keeps for what a phone sent (a choice's index, or the number)."""
    return float(sent) if q.kind == kinds.NUMBER else q.choices.index(sent)


# ---- 2. the editor ------------------------------------------------------------------------------


def kept_deck(page) -> decks.Deck | None:
    said = page.evaluate("localStorage.getItem('classic.deck')")
    return decks.load(said) if said else None


def add_view(page, slides: int) -> None:
    """Press "Add this view to my lesson" and wait until the browser keeps ``slides`` slides."""
    idle(page)
    page.locator(".st-key-deck_add").get_by_role("button", name="Add this view to my lesson").click()
    # The sidebar's caption counts the slides (its "Added as slide n" note may be gone by the
    # time the browser has written the deck: that write reruns the page).
    page.locator('[data-testid="stSidebar"]').get_by_role(
        "link", name=f"My lesson: {slides} slide(s)"
    ).wait_for(timeout=WAIT)
    until(
        lambda: (d := kept_deck(page)) is not None and len(d.slides) == slides, f"{slides} slide(s) kept", 60
    )


def titles_shown(page) -> list[str]:
    fields = page.locator('[class*="st-key-decks_slide_title_"] input')
    return [fields.nth(k).input_value() for k in range(fields.count())]


def wait_titles(page, titles: list[str], seconds: float = 60) -> None:
    try:
        until(lambda: titles_shown(page) == titles, f"the slides {titles}", seconds)
    except AssertionError as error:
        labels = page.locator('[class*="st-key-decks_slide_title_"] label').all_inner_texts()
        kept = kept_deck(page)
        raise AssertionError(
            f"{error}; the page shows {titles_shown(page)} labelled {labels}; the browser keeps "
            f"{[s.title for s in kept.slides] if kept else None}"
        ) from None


def open_decks(page, base: str, titles: list[str]) -> None:
    """Open /decks and wait until it lists ``titles`` (the browser says its lesson before the page
    is drawn)."""
    page.goto(f"{base}/decks")
    wait_for_app(page, WAIT)
    wait_titles(page, titles)


def listed(page, titles: list[str], problems: list[str], what: str) -> None:
    """Wait until the browser keeps a lesson of ``titles`` and the page has a field a slide;
    a field that does not show its slide's title is noted in ``problems`` (the test goes on, to
    check the rest, and fails at its end)."""
    labels = page.locator('[class*="st-key-decks_slide_title_"] label')

    def kept() -> list[str]:
        deck = kept_deck(page)
        return [s.title for s in deck.slides] if deck else []

    until(lambda: kept() == titles and labels.count() == len(titles), f"{what}: the lesson {titles}", 60)
    idle(page)
    if (shown := titles_shown(page)) != titles:
        problems.append(f"{what}: the title fields show {shown} for the lesson {titles}")


def download(page, selector: str) -> bytes:
    with page.expect_download(timeout=WAIT) as got:
        page.locator(selector).click()
    return got.value.path().read_bytes()


def upload(page, path) -> None:
    page.locator('.st-key-decks_upload input[type="file"]').set_input_files(str(path))


def open_files(page) -> None:
    expander = page.locator('[data-testid="stExpander"]', has_text="Open a lesson file")
    if not expander.locator(".st-key-decks_upload").is_visible():
        expander.locator("summary").click()
    expander.locator(".st-key-decks_upload").wait_for(timeout=WAIT)


def only_error(page, expected: str, problems: list[str], what: str) -> None:
    """The page shows ``expected`` in its one error box; a box gone again once the page is idle
    (the user may never read it) is noted in ``problems``."""
    box = page.locator(
        '[data-testid="stAlertContentError"] [data-testid="stMarkdownContainer"]'
    )  # not the icon
    try:
        box.filter(has_text=expected).first.wait_for(timeout=WAIT)
    except Exception:
        raise AssertionError(
            f"{what}: no box says {expected!r}; the page shows {box.all_inner_texts()}"
        ) from None
    texts = [t.strip() for t in box.all_inner_texts()]
    assert texts == [expected], (what, texts)
    idle(page)
    page.wait_for_timeout(2000)
    idle(page)
    if [t.strip() for t in box.all_inner_texts()] != [expected]:
        problems.append(f"{what}: the message {expected!r} was gone again once the page was idle")


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_editor_builds_edits_saves_and_opens_a_lesson(browser, class_server, tmp_path):
    base, _ = class_server
    problems: list[str] = []
    with new_context(browser, accept_downloads=True) as context:
        context.set_default_timeout(WAIT)
        page = context.new_page()
        page.goto(f"{base}/knn")
        wait_for_app(page, WAIT)
        add_view(page, 1)
        # A "Try this" step set up at the top: the slide carries its question.
        page.locator('[data-testid="stExpander"] summary', has_text="Try this").click()
        page.locator(".st-key-knn_try_1_setup button").click()
        page.wait_for_url(re.compile(r"knn_k="), timeout=WAIT)
        idle(page)
        add_view(page, 2)
        page.goto(f"{base}/perceptron")
        wait_for_app(page, WAIT)
        add_view(page, 3)
        built = kept_deck(page)
        assert [s.page for s in built.slides] == ["knn", "knn", "perceptron"]
        assert built.slides[1].questions == (decks.StepRef(1),) and not built.slides[0].questions
        screenshot(page, "decks_added_view")

        open_decks(page, base, [s.title for s in built.slides])
        screenshot(page, "decks_editor_listed")
        # Retitle slide 1, move slide 3 up, remove slide 1, remove slide 2's question: the same
        # edits through decks' own helpers give the deck the page must save.
        expected = decks.retitle(built, 0, "The moons at a glance")
        field = page.locator('[class*="st-key-decks_slide_title_0_"] input')
        field.fill("The moons at a glance")
        field.press("Enter")
        listed(page, [s.title for s in expected.slides], problems, "retitled")
        expected = decks.move(expected, 2, 1)
        page.locator(".st-key-decks_up_2 button").click()
        listed(page, [s.title for s in expected.slides], problems, "slide 3 moved up")
        expected = decks.remove(expected, 0)
        page.locator(".st-key-decks_remove_0 button").click()
        listed(page, [s.title for s in expected.slides], problems, "slide 1 removed")
        at = next(k for k, s in enumerate(expected.slides) if s.questions)
        expected = decks.without_question(expected, at, 0)
        page.locator(f".st-key-decks_q_{at}_0 button").click()
        until(lambda: page.locator(f".st-key-decks_q_{at}_0").count() == 0, "the question removed", 60)
        idle(page)
        screenshot(page, "decks_editor_edited")
        assert_no_exception_box(page)

        saved = download(page, ".st-key-decks_save button")
        shown = decks.load(saved)
        assert shown == expected, (shown, expected)
        assert [s.page for s in shown.slides] == ["perceptron", "knn"]

        # A new, empty lesson, then the file opened again: the same deck comes back.
        open_files(page)
        page.locator(".st-key-decks_new button").click()
        page.get_by_text("This lesson has no slide yet").wait_for(timeout=WAIT)
        wait_titles(page, [])
        open_files(page)
        (tmp_path / "lesson.json").write_bytes(saved)
        upload(page, tmp_path / "lesson.json")
        page.get_by_text("The lesson is open").wait_for(timeout=WAIT)
        listed(page, [s.title for s in expected.slides], problems, "the file opened")
        again = download(page, ".st-key-decks_save button")
        assert decks.load(again) == decks.load(saved)

        # Bad files: one message each, from the first problem, and the lesson stays as it was.
        doc = json.loads(saved)
        bad_key = json.loads(saved)
        bad_key["slides"][1]["view"]["k"] = 3  # a key without the knn page's prefix
        bad = {
            "not-json.json": b"this is not JSON {",
            "version.json": json.dumps({**doc, "version": 2}).encode(),
            "huge.json": json.dumps(doc).encode() + b" " * (300 * 1024),  # valid JSON, 300 KiB
            "bad-key.json": json.dumps(bad_key).encode(),
        }
        for file, data in bad.items():
            with pytest.raises(decks.DeckError) as refused:
                decks.load(data)
            open_files(page)
            (tmp_path / file).write_bytes(data)
            upload(page, tmp_path / file)
            only_error(page, str(refused.value), problems, file)
            screenshot(page, f"decks_bad_{file.removesuffix('.json')}")
            listed(page, [s.title for s in expected.slides], problems, f"after {file}")
        assert_no_exception_box(page)
        # Up, Down and Remove move the slides, their labels and what is saved, but a title field
        # keeps the text of the slide that was at its place (a keyed text_input keeps its state).
        assert not problems, problems


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_page_load_of_decks_shows_the_lesson_the_browser_keeps_and_plays_it(browser, class_server):
    """The lesson kept in the browser's storage is read by ``deck.sync()``, which app.py runs after
    the page: on a page load, /decks has already said "No lesson of your own yet", and a slide of
    ``deck=mine`` (each slide is a page load) has already drawn no slide bar."""
    base, _ = class_server
    mine = decks.add_slide(
        decks.add_slide(decks.empty("Kept lesson"), decks.Slide("First", "knn", {"knn_k": 3})),
        decks.Slide("Second", "perceptron", {}, "", (decks.StepRef(1),)),
    )
    with new_context(browser) as context:
        context.set_default_timeout(WAIT)
        page = context.new_page()
        page.goto(f"{base}/join")  # any page of the server: its storage is the address's
        page.evaluate("(text) => localStorage.setItem('classic.deck', text)", decks.dumps(mine))
        page.goto(f"{base}/decks")
        wait_for_app(page, WAIT)
        try:
            wait_titles(page, ["First", "Second"], 30)
        finally:
            screenshot(page, "decks_page_load")
        page.locator(".st-key-decks_play_mine button").click()
        page.wait_for_url(re.compile(r"/knn\?.*deck=mine&slide=1"), timeout=WAIT)
        try:
            wait_slide(page, 1, 2, "First")
        finally:
            screenshot(page, "decks_mine_slide_1")
        page.locator(".st-key-deck_next").get_by_role("button").click()
        wait_slide(page, 2, 2, "Second")
        page.locator(".st-key-deck_ask_0").get_by_role("button").wait_for()
        assert_no_exception_box(page)


# ---- 3. the handout and the answer key ------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_handout_and_the_answer_key_download_as_pdfs_on_a4_and_letter(browser, class_server):
    base, _ = class_server
    name = READY[0]
    with new_context(browser, accept_downloads=True) as context:
        context.set_default_timeout(WAIT)
        page = context.new_page()
        page.goto(f"{base}/decks")
        wait_for_app(page, WAIT)
        page.locator(f".st-key-decks_copy_{name} button").click()
        wait_titles(page, [s.title for s in decks.ready(name).slides])
        sizes = {"A4": (595, 842), "Letter": (612, 792)}  # points, as a PDF's MediaBox says
        for paper, (width, height) in sizes.items():
            page.locator(".st-key-decks_paper").get_by_text(paper, exact=True).click()
            page.locator(f'[class*="st-key-decks_handout_{paper}_"] button').filter(
                has_text="Handout"
            ).wait_for()
            idle(page)
            for which in ("handout", "key"):
                pdf = download(page, f'[class*="st-key-decks_{which}_{paper}_"] button')
                assert pdf.startswith(b"%PDF"), (paper, which, pdf[:20])
                boxes = re.findall(rb"/MediaBox \[ *0 0 ([\d.]+) ([\d.]+) *\]", pdf)
                assert boxes, (paper, which)
                found = {(round(float(w)), round(float(h))) for w, h in boxes}
                assert found == {(width, height)}, (paper, which, found)
        screenshot(page, "decks_pdfs")
        assert_no_exception_box(page)


# ---- 4. a link opens a deck at a slide ---------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_link_opens_a_ready_deck_at_its_second_slide(browser, class_server):
    base, _ = class_server
    name = READY[0]
    deck = decks.ready(name)
    with new_context(browser) as context:
        context.set_default_timeout(WAIT)
        page = context.new_page()
        page.goto(f"{base}/decks?deck={name}&slide=2")
        page.wait_for_url(re.compile(rf"/{deck.slides[1].page}\?.*slide=2"), timeout=WAIT)
        wait_slide(page, 2, len(deck.slides), deck.slides[1].title)
        # The app drops a view's default values from the address: what it keeps is the slide's.
        prefix = lesson_of(deck.slides[1].page).prefix
        kept = {k: v for k, v in parse_qsl(urlsplit(page.url).query) if k.startswith(prefix)}
        assert kept and all(v == link_text(deck.slides[1].view[k]) for k, v in kept.items()), (kept, page.url)
        screenshot(page, f"decks_link_{name}_slide_2")
        assert_no_exception_box(page)
