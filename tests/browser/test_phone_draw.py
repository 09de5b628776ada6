"""The phone's canvas in a real browser (390×844, touch): a drawing started the instant a round
opens keeps every stroke (issue 31), the canvas is still clean for each new drawing, and a new
canvas shows where it stays.

The phone learns of a round at its fragment's next run (/join reads the room every 2 seconds), so
a student who starts as the teacher asks draws on the canvas the phone still shows; one who
waits draws on the round's canvas as soon as it appears, or while a rerun is in flight. The
drawing is a 4 in two strokes, its bar first and its stem second: the grid stored holds both.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
import test_join
from conftest import assert_no_exception_box, wait_for_app
from strokes import PATHS

from pages.classroom import class_draw

pytestmark = pytest.mark.browser
# The phone page's fixtures: a class folder, a server and the store this test opens on it, a phone.
class_dir, store, until = test_join.class_dir, test_join.store, test_join.until
phone_server, phone = test_join.phone_server, test_join.phone  # the phone: 390×844, touch
BAR, STEM = PATHS[4]
# When the bar starts, in seconds after the teacher asks: spread over the fragment's 2-second tick
# and past it ("canvas": as soon as the round's canvas appears; "rerun": while a run is in flight).
STARTS = ["canvas", 0.0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.2, 1.5, 1.8, 2.2, "rerun", "rerun"]
# Resolves once a script run is in flight (the app's state), or after 4 s with false.
RUN_IN_FLIGHT = """async () => {
  const started = performance.now(), app = () => document.querySelector('[data-testid="stApp"]');
  while (performance.now() - started < 4000) {
    if (app().getAttribute('data-test-script-state') === 'running') return true;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return false;
}"""
# The ink on the canvas the phone shows (the drawing's layer, beside the layer touches go to):
# its pixels that are not transparent.
INK = """upper => {
  const canvas = upper.parentElement.querySelector('canvas.lower-canvas');
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let inked = 0;
  for (let i = 3; i < data.length; i += 4) inked += data[i] > 0;
  return inked;
}"""

# From now on, counts the canvases the phone shows and notes each one that moves once shown (its
# top, first and then, in page pixels), frame by frame for at most a minute.
WATCH_CANVASES = """() => {
  window.canvasesShown = 0;
  window.canvasesMoved = [];
  const first = new WeakMap(), started = performance.now();
  const look = () => {
    document.querySelectorAll('[data-testid="stBidiComponentIsolated"]').forEach((host) => {
      const canvas = host.shadowRoot && host.shadowRoot.querySelector('canvas.upper-canvas');
      const box = canvas && canvas.getBoundingClientRect();
      if (!box || !box.width) return;  // none, or one going away
      const top = Math.round(box.top + scrollY);
      if (!first.has(canvas)) {
        first.set(canvas, top);
        window.canvasesShown += 1;
      } else if (first.get(canvas) !== top) {
        window.canvasesMoved.push([first.get(canvas), top]);
        first.set(canvas, top);
      }
    });
    if (performance.now() - started < 60000) requestAnimationFrame(look);
  };
  look();
}"""


def join(phone, url: str, code: str) -> None:
    phone.goto(f"{url}/join?room={code}")
    wait_for_app(phone)
    phone.get_by_text("Waiting for the teacher").wait_for()


def touch_stroke(page, path, margin: float = 0.15) -> None:
    """One finger along ``path`` (tests/strokes.py's unit box) on the canvas the phone shows now:
    a touchStart, touchMoves (8 a segment, as test_class_draw's ``touch_draw``) and a touchEnd."""
    canvas = page.locator("canvas.upper-canvas").first
    box = canvas.bounding_box()
    if box is None:  # the canvas being replaced (a new round's, a clean one) has no box for a moment
        canvas.wait_for(state="visible", timeout=10_000)
        box = canvas.bounding_box()
    size = np.array([box["width"], box["height"]])
    points = np.array([box["x"], box["y"]]) + (margin + (1 - 2 * margin) * np.array(path)) * size
    moves = [
        a + t * (b - a) for a, b in zip(points, points[1:], strict=False) for t in np.linspace(0.1, 1, 8)
    ]
    cdp = page.context.new_cdp_session(page)
    for kind, touches in [("touchStart", points[:1]), *(("touchMove", [m]) for m in moves), ("touchEnd", [])]:
        points_now = [{"x": float(x), "y": float(y)} for x, y in touches]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points_now})
    cdp.detach()


def settle(phone) -> None:
    """Until the last stroke is on the server: the canvas sends 0.2 s after the finger lifts, and
    the page reruns with it."""
    phone.wait_for_timeout(600)
    wait_for_app(phone, 10_000)


def ink(phone) -> int:
    return phone.locator("canvas.upper-canvas").first.evaluate(INK)


def strokes_in(grid) -> tuple[bool, bool]:
    """Whether a 4's 16×16 grid holds its bar (a row of at least 9 inked cells) and its stem (a
    column of at least 9). Drawn as here, both read 16 and 12; the bar alone 16 and 6; the stem
    alone 6 and 16."""
    cells = np.asarray(grid).reshape(16, 16)
    return bool(cells.sum(axis=1).max() >= 9), bool(cells.sum(axis=0).max() >= 9)


def test_a_drawing_started_the_instant_a_round_opens_keeps_every_stroke(phone, phone_server, store):
    code, key = store.open_room()
    join(phone, phone_server, code)
    canvas = phone.locator("canvas.upper-canvas")
    kept = []
    for number, start in enumerate(STARTS, start=1):
        store.ask(code, key, class_draw.question(4))
        asked = time.monotonic()
        if start == "rerun":
            phone.evaluate(RUN_IN_FLIGHT)
        elif start != "canvas":
            time.sleep(max(0.0, start - (time.monotonic() - asked)))
        if canvas.count() == 0:  # the first round: no canvas until the phone shows it
            canvas.first.wait_for(timeout=10_000)
        began = time.monotonic() - asked
        touch_stroke(phone, BAR)
        phone.get_by_text(f"Question {number}.").wait_for(timeout=10_000)
        touch_stroke(phone, STEM)
        settle(phone)
        phone.get_by_role("button", name="Send my drawing").tap(timeout=10_000)
        phone.get_by_text("Sent: it is on the projector").wait_for(timeout=10_000)  # then the next question
        (grid,) = store.drawings(code, number).values()
        kept.append((number, start, round(began, 2), *strokes_in(grid)))
    assert_no_exception_box(phone)
    lost = [(n, start, began, bar, stem) for n, start, began, bar, stem in kept if not (bar and stem)]
    assert not lost, (
        f"{len(lost)} of {len(kept)} drawings lost a stroke (round, start, seconds after the ask "
        f"the bar began, bar kept, stem kept): {lost}"
    )


def test_the_canvas_is_clean_after_clear_after_send_and_for_a_new_round(phone, phone_server, store):
    code, key = store.open_room()
    join(phone, phone_server, code)
    store.ask(code, key, class_draw.question(4))
    phone.locator("canvas.upper-canvas").first.wait_for(timeout=10_000)
    send = phone.get_by_role("button", name="Send my drawing")
    touch_stroke(phone, BAR)
    touch_stroke(phone, STEM)
    until(send.is_enabled, "the drawing to be read", 10)
    assert ink(phone) > 0
    phone.get_by_role("button", name="Clear").tap()
    until(lambda: send.is_disabled() and ink(phone) == 0, "a clean canvas after Clear", 10)

    touch_stroke(phone, BAR)
    touch_stroke(phone, STEM)
    settle(phone)
    send.tap()
    phone.get_by_text("Sent: it is on the projector").wait_for(timeout=10_000)
    assert len(store.drawings(code, 1)) == 1
    until(lambda: send.is_disabled() and ink(phone) == 0, "a clean canvas once the drawing is sent", 10)

    # A drawing not sent is the earlier round's: the next round starts clean.
    touch_stroke(phone, BAR)
    until(send.is_enabled, "the bar to be read", 10)
    settle(phone)
    store.ask(code, key, class_draw.question(7))
    phone.get_by_text("Question 2.").wait_for(timeout=10_000)
    until(lambda: send.is_disabled() and ink(phone) == 0, "a clean canvas for the new round", 10)
    assert store.drawings(code, 2) == {}
    assert_no_exception_box(phone)


def test_a_new_canvas_shows_where_it_stays(phone, phone_server, store):
    """Every clean canvas (here, one a "Clear") is drawn at its place from its first frame: a
    stroke started as it appears lands on it."""
    code, key = store.open_room()
    join(phone, phone_server, code)
    store.ask(code, key, class_draw.question(4))
    phone.locator("canvas.upper-canvas").first.wait_for(timeout=10_000)
    phone.evaluate(WATCH_CANVASES)
    clear = phone.get_by_role("button", name="Clear")
    for shown in range(1, 13):
        clear.tap()
        until(lambda n=shown: phone.evaluate("window.canvasesShown") > n, f"clean canvas {shown}", 10)
    wait_for_app(phone, 10_000)
    moved, shown = phone.evaluate("window.canvasesMoved"), phone.evaluate("window.canvasesShown")
    assert not moved, f"{len(moved)} of {shown} clean canvases moved once shown (top, then top): {moved}"
