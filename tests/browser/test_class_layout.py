"""A class's question on a 1280×720 projector, presenting: the asked step (with its votes
revealed) leaves the figure it is about in view, and what the hall reads of class mode is at
least 18 px."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlencode

import pytest
from conftest import require_browser, screenshot, start_server, stop_server, wait_for_app, wait_for_layout

from pages.classroom import class_panel, room_store
from pages.classroom.rooms import RoomError

pytestmark = [pytest.mark.browser]
WIDTH, HEIGHT = 1280, 720

# Every visible text in the asked step's box and the folded join card's line, with its size.
SIZES_JS = """(selectors) => {
  const out = [];
  for (const sel of selectors) for (const box of document.querySelectorAll(sel)) {
    const tree = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let n = tree.nextNode(); n; n = tree.nextNode()) {
      const el = n.parentElement, text = n.textContent.trim();
      if (!text || !el.getClientRects().length || el.closest('[data-testid="stIconMaterial"]')) continue;
      out.push([text.slice(0, 40), parseFloat(getComputedStyle(el).fontSize)]);
    }
  }
  return out;
}"""


def teacher_page(context, base: str, path: str, code: str, key: str):
    """A tab presenting /``path`` from the teacher's link."""
    page = context.new_page()
    page.set_default_timeout(60_000)
    teacher = urlencode({class_panel.CODE_PARAM: code, class_panel.KEY_PARAM: key})
    page.goto(f"{base}/{path}?present=1&{teacher}")
    return page


@pytest.fixture(scope="module")
def class_server(tmp_path_factory) -> Iterator[tuple[str, str]]:
    require_browser()
    folder = str(tmp_path_factory.mktemp("classes"))
    process, url = start_server(env={"CLASSIC_CLASS_DIR": folder, "CLASSIC_CLASS_STORE": None})
    yield url, folder
    stop_server(process)


def test_a_revealed_four_choice_question_leaves_the_tree_in_view(browser, class_server):
    base, folder = class_server
    store = room_store.open_store(url="", directory=folder)
    code, key = store.open_room()
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    try:
        page = teacher_page(context, base, "decision-tree", code, key)
        wait_for_app(page, 120_000)
        expander = page.locator('[data-testid="stExpander"]', has_text="Try this")
        if not expander.get_by_role("button", name="Set up this view").count():
            expander.locator("summary").first.click()
        expander.get_by_role("button", name="Ask the class").first.click()
        page.locator(".st-key-try_step").get_by_text("Asked of the class").wait_for()
        question = store.current(code).question
        assert len(question.choices) == 4
        for i in range(1, 9):
            phone = f"phone-{i:04d}-layout"
            store.join(code, phone)
            store.answer(code, phone, i % 4)
        page.get_by_role("button", name="Reveal").click()
        page.get_by_test_id("class-round").wait_for()
        wait_for_app(page)
        wait_for_layout(page)
        slot_box = page.locator('[data-testid="stLayoutWrapper"]:has(> .st-key-try_slot)')
        tree = page.locator('[data-testid="stMain"] [data-testid^="stBidiComponent"]').first
        for _ in range(40):  # the page scrolls the figure up under the step: at most 10 s
            slot, figure = slot_box.bounding_box(), tree.bounding_box()
            if figure["y"] < HEIGHT - 200:
                break
            page.wait_for_timeout(250)
        screenshot(page, "class_layout_tree_revealed_720")
        assert slot["height"] <= 0.5 * HEIGHT, f"the asked step takes {slot['height']:.0f} of {HEIGHT} px"
        # The answer is in view at the top of the step, above the votes.
        answer = page.locator(".st-key-try_step").get_by_text("The answer:").bounding_box()
        assert answer["y"] + answer["height"] <= slot["y"] + slot["height"]
        assert figure is not None and figure["y"] >= slot["y"] + slot["height"] - 2
        assert figure["y"] < HEIGHT - 200, f"the tree starts at y = {figure['y']:.0f}"
        small = [
            (text, size)
            for text, size in page.evaluate(SIZES_JS, [".st-key-try_step", ".st-key-class_card"])
            if size < 18
        ]
        assert small == [], f"class-mode text under 18 px on the projector: {small}"
    finally:
        context.close()
        store.close()


def test_the_projector_shows_phones_against_the_class_size_and_lets_the_extra_ones_in(browser, class_server):
    """Phones beyond the class's size wait (their phone says so); the projector shows joined
    against size and "Let 1 more in"; once locked, a new phone is refused."""
    base, folder = class_server
    store = room_store.open_store(url="", directory=folder)
    code, key = store.open_room("layout-test", size=2)
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True) for _ in range(4)]
    projector_context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    try:
        projector = teacher_page(projector_context, base, "knn", code, key)
        projector.get_by_text("0 of 2 phones joined").wait_for()
        phones = [context.new_page() for context in contexts]
        for phone in phones[:3]:
            phone.set_default_timeout(60_000)
            phone.goto(f"{base}/join?room={code}")
        for phone in phones[:2]:
            phone.get_by_text("Waiting for the teacher").wait_for()
        phones[2].get_by_text("The class is full").wait_for()
        projector.get_by_text("2 of 2 phones joined").wait_for()
        screenshot(projector, "class_size_waiting_720")
        projector.get_by_role("button", name="Let 1 more in").click()
        phones[2].get_by_text("Waiting for the teacher").wait_for()
        projector.get_by_text("3 phones joined (class of 2)").wait_for()
        # A script pouring in phones (issue 32's flood): beyond the room's join rate they are turned
        # away, and the projector says how many.
        for i in range(65):  # more than two windows' worth: some are refused whatever the clock
            try:
                store.join(code, f"flood-{i:04d}-phone")
            except RoomError:
                pass
        assert store.refused(code) >= 1 and store.joined(code) == 3
        projector.get_by_text(re.compile(r"\d+ joins? turned away \(too many at once\)")).wait_for()
        screenshot(projector, "class_size_flood_720")
        projector.get_by_role("button", name="Lock the room").click()
        projector.get_by_text("the room is locked").wait_for()
        phones[3].goto(f"{base}/join?room={code}")
        phones[3].get_by_text("closed to new phones").wait_for()
        assert store.joined(code) == 3 and store.locked(code)
    finally:
        for context in [*contexts, projector_context]:
            context.close()
        store.close()
