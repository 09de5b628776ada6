"""The perceptron page in a real browser: the player animates every update to convergence,
steps and scrubs; XOR stops with the cycle verdict; clicks place points; nothing is fetched
from outside the app's own server."""

import re
import time

from conftest import SCREENSHOTS, assert_no_exception_box, screenshot, wait_for_app

PLAYER = 'iframe[title="Animation of every perceptron update"]'


def player(page):
    """The player's iframe: (a locator for clicking, its Frame for reading its state)."""
    page.locator(PLAYER).wait_for()
    frame = page.locator(PLAYER).element_handle().content_frame()
    frame.wait_for_function("document.body.dataset.drawn >= 1")
    return page.frame_locator(PLAYER), frame


def shown(frame) -> int:
    return int(frame.evaluate("document.body.dataset.frame"))


def test_animation_plays_every_update_smoothly_to_convergence(server, browser_page):
    page = browser_page
    outside = []
    page.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith((server, "data:", "blob:")) else None,
    )
    page.goto(f"{server}/perceptron")  # the first request of this fresh server
    wait_for_app(page)
    verdict = page.get_by_test_id("stAlertContentSuccess")
    verdict.get_by_text("Converged").wait_for()
    total = int(re.search(r"after (\d+) updates", verdict.inner_text()).group(1))
    controls, frame = player(page)
    assert frame.evaluate("DATA.updates.length") == total
    assert shown(frame) == 0
    # 30 updates a second; record when each frame is drawn, in the page itself.
    controls.get_by_label("Speed (updates per second)").fill("30")
    frame.evaluate(
        """() => { window.drawTimes = []; const body = document.body;
        new MutationObserver(() => window.drawTimes.push([performance.now(), Number(body.dataset.frame)]))
            .observe(body, {attributes: true, attributeFilter: ["data-frame"]}); }"""
    )
    controls.get_by_role("button", name="Play").click()
    page.wait_for_timeout(700)
    screenshot(page, "perceptron-mid-animation")
    page.locator(PLAYER).screenshot(path=str(SCREENSHOTS / "perceptron-player-mid.png"))
    frame.wait_for_function(f"Number(document.body.dataset.frame) === {total}", timeout=30_000)
    assert frame.evaluate("document.body.dataset.playing") == "no"  # stops at the end
    times = frame.evaluate("window.drawTimes")
    frames = [f for _, f in times]
    assert frames == sorted(frames) and frames[-1] == total  # forward only, to the end
    seconds = (times[-1][0] - times[0][0]) / 1000
    fps = (len(times) - 1) / seconds
    print(f"perceptron player: {len(times)} frames drawn in {seconds:.2f} s = {fps:.1f} fps (30 asked)")
    assert fps >= 8, fps  # the floor for smooth animation
    assert "Converged" in controls.locator("#verdict").inner_text()
    screenshot(page, "perceptron-converged")
    page.locator(PLAYER).screenshot(path=str(SCREENSHOTS / "perceptron-player-converged.png"))
    # Step and scrub: buttons, keys and the range input.
    controls.get_by_role("button", name="Step back").click()
    assert shown(frame) == total - 1
    controls.get_by_role("button", name="Start").click()
    assert shown(frame) == 0
    controls.get_by_role("button", name="Step forward").click()
    page.keyboard.press("ArrowRight")
    assert shown(frame) == 2
    controls.get_by_label("Update", exact=True).fill("10")
    assert shown(frame) == 10
    assert "Update 10 of" in controls.locator("#status").inner_text()
    assert_no_exception_box(page)
    assert outside == [], outside  # no CDN, no fonts, no icons from elsewhere


def test_xor_stops_with_the_cycle_verdict(server, browser_page):
    page = browser_page
    page.goto(f"{server}/perceptron")
    wait_for_app(page)
    page.get_by_test_id("stSelectbox").filter(has_text="Data").click()
    page.get_by_role("option", name="XOR (the four corners)").click()
    page.get_by_test_id("stAlertContentError").get_by_text("will never converge", exact=False).wait_for()
    wait_for_app(page)
    controls, frame = player(page)
    assert frame.evaluate("DATA.updates.length") == 6
    controls.get_by_role("button", name="Play").click()
    frame.wait_for_function("Number(document.body.dataset.frame) === 6", timeout=30_000)
    text = controls.locator("#verdict").inner_text()
    assert "update 6 equal those at update 2" in text and "never converge" in text
    assert "in the cycle" in controls.locator("#status").inner_text()
    page.get_by_text("When no line will do").wait_for()
    assert_no_exception_box(page)
    screenshot(page, "perceptron-xor-verdict")
    page.locator(PLAYER).screenshot(path=str(SCREENSHOTS / "perceptron-xor-player.png"))
    # A rerun that leaves the fit alone (another kernel) keeps the player where it was.
    controls.get_by_role("button", name="Step back").click()
    assert shown(frame) == 5
    kernel = page.get_by_role("combobox", name="Kernel perceptron")
    kernel.click()  # the first click takes the focus back from the player's frame
    if not page.get_by_role("option", name="polynomial", exact=True).is_visible():
        kernel.click()
    page.get_by_role("option", name="polynomial", exact=True).click()
    page.wait_for_timeout(500)
    wait_for_app(page)
    assert kernel.input_value() == "polynomial"
    _, frame = player(page)
    assert shown(frame) == 5


def test_clicks_place_points_of_the_chosen_class(server, browser_page):
    page = browser_page
    page.goto(f"{server}/perceptron")
    wait_for_app(page)
    page.get_by_test_id("stSelectbox").filter(has_text="Data").click()
    page.get_by_role("option", name="Your points", exact=False).click()
    page.get_by_text("Place your points").wait_for()
    wait_for_app(page)
    _, frame = player(page)
    before = frame.evaluate("DATA.points.length")
    page.get_by_role("radio", name="class 1").click()
    wait_for_app(page)
    chart = page.locator('[data-testid="stVegaLiteChart"] svg').first
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    for fx, fy in ((0.85, 0.15), (0.8, 0.25)):  # top right, in class 1's corner
        page.mouse.click(box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)
        deadline = time.time() + 30
        while time.time() < deadline:
            page.wait_for_timeout(300)
            try:
                _, frame = player(page)
                if frame.evaluate("DATA.points.length") > before:
                    break
            except Exception:  # the iframe is being replaced by the rerun
                continue
        wait_for_app(page)
        _, frame = player(page)
        assert frame.evaluate("DATA.points.length") == before + 1
        assert frame.evaluate("DATA.labels[DATA.labels.length - 1]") == 1
        before += 1
    assert_no_exception_box(page)
    screenshot(page, "perceptron-your-points")
