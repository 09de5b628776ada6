"""Draw together (issue 25) in a real browser: the teacher's /digits asks "Everyone draws a 7", a
phone (390×844, touch) draws a 7 with its finger and sends it, the projector (1280×720,
presenting) shows its 16×16 thumbnail with the label the model gives it, the class's accuracy,
then teaches with the class's drawings.

The phone's strokes are real touch events (Chromium's ``Input.dispatchTouchEvent``), not mouse
events; the teacher's room is opened through the store and the projector opens the teacher's link
(``class_panel``'s), as "Control from another device" gives it.
"""

from __future__ import annotations

import base64
import io
import struct
import zlib
from collections.abc import Iterator
from urllib.parse import urlencode

import numpy as np
import pytest
import test_join
from conftest import (
    assert_no_exception_box,
    require_browser,
    screenshot,
    start_server,
    stop_server,
    wait_for_app,
)
from strokes import PATHS, replay
from test_class_layout import SIZES_JS
from wsclient import Session

from classic import digits
from pages.classroom import class_draw, class_panel, phone_draw

pytestmark = [pytest.mark.browser, pytest.mark.slow]
# The phone page's own fixtures: a class folder for the server and the store this test opens.
class_dir, store, until = test_join.class_dir, test_join.store, test_join.until
PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1280, "height": 720}


@pytest.fixture(scope="module")
def draw_server(class_dir, data_home) -> Iterator[str]:
    """A Streamlit server whose class store is a SQLite file this test also opens."""
    require_browser()
    process, url = start_server(env={"CLASSIC_CLASS_DIR": class_dir, "CLASSIC_CLASS_STORE": None})
    yield url
    stop_server(process)


@pytest.fixture(scope="module")
def browser(browser, draw_server) -> Iterator:
    """The test process's one Chromium (conftest: Playwright's sync API runs one instance a
    thread), after this module's server; the contexts this module opens are closed at its end."""
    before = set(browser.contexts)
    yield browser
    for context in browser.contexts:
        if context not in before:
            context.close()


def touch_draw(page, digit: int, margin: float = 0.15) -> None:
    """Draw ``digit``'s pen path (tests/strokes.py) on the phone's canvas with one finger:
    touchStart, many touchMoves, touchEnd per stroke, as a phone's screen sends them."""
    box = page.locator("canvas.upper-canvas").bounding_box()
    cdp = page.context.new_cdp_session(page)
    left, top = box["x"] + margin * box["width"], box["y"] + margin * box["height"]
    width, height = (1 - 2 * margin) * box["width"], (1 - 2 * margin) * box["height"]
    for path in PATHS[digit]:
        points = [(left + x * width, top + y * height) for x, y in path]
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchStart", "touchPoints": [{"x": points[0][0], "y": points[0][1]}]},
        )
        for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
            for t in np.linspace(0.1, 1, 8):
                point = {"x": x0 + t * (x1 - x0), "y": y0 + t * (y1 - y0)}
                cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_phone_draws_a_seven_by_touch_and_the_projector_reads_it(browser, draw_server, store):
    code, key = store.open_room()
    projector = browser.new_context(viewport=PROJECTOR).new_page()
    projector.set_default_timeout(60_000)
    teacher = urlencode({class_panel.CODE_PARAM: code, class_panel.KEY_PARAM: key})
    projector.goto(f"{draw_server}/digits?present=1&{teacher}")
    wait_for_app(projector, 120_000)
    projector.get_by_text("No drawing asked yet").wait_for()
    projector.get_by_test_id("class-code").wait_for()  # the classroom's join card, from the teacher's link
    projector.get_by_role("button", name="Hide the join code").click()  # the gallery to the top
    projector.get_by_test_id("class-code").wait_for(state="detached")
    phone = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2
    ).new_page()
    phone.set_default_timeout(60_000)
    phone.goto(f"{draw_server}/join?room={code}")
    wait_for_app(phone)
    phone.get_by_text("Waiting for the teacher").wait_for()

    projector.get_by_role("button", name="Everyone draws a 7").click()
    until(lambda: store.current(code) is not None, "the round to open")
    assert store.current(code).question == class_draw.question(7)
    # No click on the phone: it follows the room and shows the canvas, as wide as the screen allows.
    canvas = phone.locator("canvas.upper-canvas")
    canvas.wait_for()
    phone.get_by_text("Everyone draws a 7").wait_for()
    box = canvas.bounding_box()
    assert box["width"] >= 300 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    send = phone.get_by_role("button", name="Send my drawing")
    assert send.is_disabled()  # nothing drawn yet
    screenshot(phone, "class_draw_phone_empty")

    touch_draw(phone, 1)
    until(send.is_enabled, "the touch drawing to be read as a digit")
    phone.get_by_role("button", name="Clear").tap()  # a fresh canvas: nothing to send
    until(send.is_disabled, "the cleared canvas")
    assert store.drawings(code, 1) == {}
    touch_draw(phone, 7)
    until(send.is_enabled, "the touch drawing to be read as a digit")
    send.tap()
    phone.get_by_text("Sent: it is on the projector").wait_for()
    drawn = store.drawings(code, 1)
    assert len(drawn) == 1
    grid = np.array(next(iter(drawn.values())), dtype=np.uint8).reshape(16, 16)
    assert 0.05 < grid.mean() < digits.FILLED  # a drawing, not a blank or a blob
    screenshot(phone, "class_draw_phone_sent")

    # The projector follows by itself: the thumbnail, its label, the accuracy.
    gallery = projector.locator(".class-draw-gallery").first
    gallery.wait_for()
    images = gallery.locator("img")
    until(lambda: images.count() == 1, "the thumbnail on the projector", 30)
    caption = gallery.locator("figcaption").first.inner_text().strip()
    label, number = caption.split()[-2:]  # the label read, then the drawing's number
    assert label.isdigit() and number == "#1"
    alt = images.first.get_attribute("alt")
    assert f"read as {label}" in alt
    # The round's line and the accuracy come with the thumbnail's fragment run, or with the next.
    box = projector.locator(".st-key-class_draw")
    until(
        lambda: "1 drawing from 1 phone" in box.inner_text() and "Read right" in box.inner_text(),
        "the round's count and accuracy beside the thumbnail",
        30,
        lambda: box.inner_text()[:600],
    )
    right = label == "7"
    assert ("100%" if right else "0%") in projector.locator('[data-testid="stMetric"]').first.inner_text()
    assert_no_exception_box(projector)
    assert_no_exception_box(phone)
    screenshot(projector, "class_draw_projector_gallery")

    # Teach with the class's drawing (chosen by the teacher), then a second round: read with and
    # without it, by a model that never learnt the round it reads.
    chosen = box.get_by_role("button", name="#1", exact=False)
    if (
        chosen.first.get_attribute("aria-pressed") != "true"
        and chosen.first.get_attribute("kind") != "pillsActive"
    ):
        chosen.first.click()
    projector.get_by_role("button", name="Teach with 1 chosen drawing").click()
    until(lambda: store.taught(code) == [(1, next(iter(drawn)))], "the drawing taught, in the store")
    projector.get_by_role("button", name="Everyone draws a 7").click()
    until(lambda: store.current(code).number == 2, "the second round")
    phone.locator("canvas.upper-canvas").wait_for()
    phone.get_by_text("Question 2.").wait_for()
    send = phone.get_by_role("button", name="Send my drawing")
    touch_draw(phone, 7, margin=0.2)
    until(send.is_enabled, "the second drawing to be read")
    send.tap()
    until(lambda: len(store.drawings(code, 2)) == 1, "the second drawing in the store")
    projector.get_by_text("Without the class's 1 drawing").wait_for()
    assert "points with them" in projector.inner_text("body")
    assert "never this round's own" in projector.inner_text("body")
    assert_no_exception_box(projector)
    screenshot(projector, "class_draw_projector_taught")
    projector.get_by_role("button", name="Close the drawing").click()
    phone.get_by_text("The teacher closed the drawing. Your drawing is in.").wait_for()
    assert store.current(code).revealed
    assert phone.locator("canvas.upper-canvas").count() == 0


def declared_png(width: int, height: int) -> bytes:
    """A PNG header declaring ``width``×``height`` pixels and no pixel data: what a console can send
    for a drawing (the hostile issue's 13000² PNG took gigabytes once decoded)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


def drawn_png(digit: int, size: int = phone_draw.PHONE_CANVAS) -> bytes:
    """An honest phone drawing of ``digit`` as the canvas sends it (ink in the alpha channel)."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(replay(digit, (0.2 * size, 0.1 * size, 0.6 * size, 0.8 * size), 21, size)).save(
        buffer, "PNG"
    )
    return buffer.getvalue()


def canvas_value(image: bytes) -> dict:
    """The phone canvas's state as its script sends it back (streamlit-drawable-canvas 0.13)."""
    url = "data:image/png;base64," + base64.b64encode(image).decode()
    return {"drawing": {"raw": {"version": "6", "objects": [{"type": "path"}]}, "data": url}}


def test_a_phone_console_cannot_send_an_oversized_or_fake_drawing(draw_server, store):
    """What a phone's console sends for the canvas is checked on the server before decoding (the
    hostile issue's limits) and never stored; an honest drawing sent the same way is."""
    code, key = store.open_room()
    store.ask(code, key, class_draw.question(7))
    send_key = "class_draw_send_1"
    with Session(draw_server, "join") as phone:
        shown = phone.join(f"room={code}")
        assert not shown.exceptions and store.joined(code) == 1
        canvas_key = next(key for key in phone.ids if key.startswith("class_draw_canvas_1_"))
        for hostile, why in [
            (canvas_value(declared_png(13000, 13000)), "13,000×13,000 pixels; the limit is"),
            (
                {"drawing": {"raw": {"objects": []}, "data": "data:text/html,<b>x</b>"}},
                "it is not a PNG image",
            ),
            (  # over the drawing's limit (900,000), under the 1 MB a message (which closes the connection)
                {"drawing": {"raw": {}, "data": "data:image/png;base64," + "A" * 920_000}},
                "characters; the limit",
            ),
        ]:
            phone.set_json(canvas_key, hostile)
            phone.set_raw(send_key, trigger_value=True)  # and press "Send" at once
            shown = phone.run()
            phone.states.pop(phone.widget_id(send_key), None)
            assert not shown.exceptions, shown.exceptions
            assert why in shown.text, shown.text
            assert store.drawings(code, 1) == {}  # nothing was sent
        phone.set_json(canvas_key, canvas_value(drawn_png(7)))
        assert not phone.run().exceptions
        phone.set_raw(send_key, trigger_value=True)
        shown = phone.run()
        assert not shown.exceptions and "Sent: it is on the projector" in shown.text
        assert len(store.drawings(code, 1)) == 1


def grid_of(digit: int) -> np.ndarray:
    """An honest drawing of ``digit`` as the phone's server reads it: its 16×16 grid."""
    size = phone_draw.PHONE_CANVAS
    return digits.read_drawing(replay(digit, (0.2 * size, 0.1 * size, 0.6 * size, 0.8 * size), 21, size)).grid


def test_the_teacher_chooses_hides_and_holds_back_drawings_and_the_model_learns_only_the_chosen(
    browser, draw_server, store
):
    """Only the drawings the teacher chooses are taught (a drawing read as another digit is marked
    and starts left out; one tap leaves one out); a hidden drawing leaves the projector at once
    and is never taught; the choices survive a reload; a round is scored by a model that never
    learnt it; held-back drawings reach the projector only once approved on the teacher's own
    device (/review)."""
    code, key = store.open_room()
    phones = [f"phone-{i:04d}-draw" for i in range(1, 5)]
    for phone in phones:
        store.join(code, phone)
    store.ask(code, key, class_draw.question(7))
    for phone, digit in zip(phones, (7, 7, 1), strict=False):
        store.answer(code, phone, grid_of(digit), "draw")
    projector = browser.new_context(viewport=PROJECTOR).new_page()
    projector.set_default_timeout(60_000)
    teacher = urlencode({class_panel.CODE_PARAM: code, class_panel.KEY_PARAM: key})
    projector.goto(f"{draw_server}/digits?present=1&{teacher}")
    wait_for_app(projector, 120_000)
    box = projector.locator(".st-key-class_draw")
    gallery = box.locator(".class-draw-gallery").first
    until(lambda: gallery.locator("img").count() == 3, "three thumbnails", 60)
    # A round asked folds the join card to one line, so the drawings start near the top.
    assert projector.get_by_test_id("class-code").count() == 0
    assert projector.get_by_text(f"Class {code} · join at").count() == 1
    assert gallery.bounding_box()["y"] < 720
    alts = [gallery.locator("img").nth(i).get_attribute("alt") for i in range(3)]
    # The labels shown are kept with the class, for its CSV.
    until(lambda: len(store.reads(code, 1)) == 3, "the labels read, in the store")
    read = store.reads(code, 1)
    assert sorted(f"read as {label}" in " ".join(alts) for label in read.values()) == [True] * 3
    screenshot(projector, "class_draw_choose")
    # Which are chosen to start: those read as the digit asked for; a drawing read otherwise is
    # marked on its pill.
    pills = box.get_by_role("button", name="#", exact=False)
    names = [pills.nth(i).inner_text() for i in range(pills.count())]
    read_other = [name for name in names if "✗" in name]
    assert read_other and all("read as" in name for name in read_other), names
    assert any("not 7" in alt for alt in alts)
    # One tap leaves the first 7 out; teach with the rest.
    box.get_by_role("button", name="#1", exact=True).click()
    teach = box.get_by_role("button", name="Teach with", exact=False)
    until(lambda: "Teach with" in teach.inner_text() and teach.is_enabled(), "the teach button")
    teach.click()
    until(lambda: store.taught(code) != [], "the chosen drawings taught")
    taught = {phone for _, phone in store.taught(code)}
    assert phones[0] not in taught and phones[1] in taught
    # Hide the 1 at once: it leaves the projector, and is never taught.
    box.get_by_role("button", name="Hide a drawing").click()
    projector.get_by_role("button", name="#3", exact=True).click()
    until(lambda: "hidden" in store.marks(code, 1).get(phones[2], ()), "the drawing hidden")
    until(lambda: gallery.locator("img").count() == 2, "the hidden drawing gone from the projector")
    store.mark(code, key, 1, phones, "taught")
    assert phones[2] not in {phone for _, phone in store.taught(code)}
    store.mark(code, key, 1, [phones[0]], "taught", on=False)
    # A reload keeps every choice: they live with the class.
    projector.reload()
    wait_for_app(projector, 120_000)
    until(lambda: gallery.locator("img").count() == 2, "the two shown drawings after a reload", 60)
    assert "taught" in gallery.inner_text() and "1 hidden" in box.inner_text()
    # Round 2, held back: nothing reaches the projector until approved on the teacher's phone.
    store.hold(code, key, True)
    store.ask(code, key, class_draw.question(7))
    store.answer(code, phones[3], grid_of(7), "draw")
    box.get_by_text("1 drawing waits for your approval").wait_for()
    assert box.locator(".class-draw-gallery").count() == 0
    review = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    review.set_default_timeout(60_000)
    review.goto(f"{draw_server}/review?{teacher}")
    wait_for_app(review)
    review.get_by_text("waiting").first.wait_for()
    screenshot(review, "class_draw_review_phone")
    assert review.get_by_test_id("class-code").count() == 0  # no join card on the teacher's phone
    review.get_by_role("button", name="Approve").tap()
    until(lambda: "approved" in store.marks(code, 2).get(phones[3], ()), "the drawing approved")
    until(
        lambda: box.locator(".class-draw-gallery img").count() >= 1, "the approved drawing on the projector"
    )
    # Scored by the model taught round 1's chosen drawing, never round 2's own, and it says so.
    box.get_by_text("Without the class's 1 drawing").wait_for()
    assert "never this round's own" in box.inner_text()
    assert_no_exception_box(projector)
    assert_no_exception_box(review)
    screenshot(projector, "class_draw_held_and_approved")
    small = [(text, size) for text, size in projector.evaluate(SIZES_JS, [".st-key-class_draw"]) if size < 18]
    assert small == [], f"Draw together's text under 18 px on the projector: {small}"
