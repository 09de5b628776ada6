"""The perceptron page in a real browser: the player animates every update to convergence, steps,
scrubs, answers keys and saves its own PNG; XOR stops with the cycle verdict and the pocket's
line; a link reproduces the same player data in a fresh browser; presentation mode fits
1280×720; clicks place points; nothing is fetched from outside the app's own server."""

import json
import re
import time

from conftest import (
    SCREENSHOTS,
    assert_no_exception_box,
    chromium_context,
    screenshot,
    wait_for_app,
)

PLAYER = 'iframe[title^="Animation of every perceptron update"]'


def player(page):
    """The player's iframe: (a locator for clicking, its Frame for reading its state)."""
    page.locator(PLAYER).wait_for()
    frame = page.locator(PLAYER).element_handle().content_frame()
    frame.wait_for_function("document.body.dataset.drawn >= 1")
    return page.frame_locator(PLAYER), frame


def shown(frame) -> int:
    return int(frame.evaluate("document.body.dataset.frame"))


def choose(page, label: str, option: str) -> None:
    page.get_by_test_id("stSelectbox").filter(has_text=label).click()
    page.get_by_role("option", name=option).click()


# The two tests below open their own browsers (chromium_context), so they run before any test that
# uses the module's shared browser: Playwright's sync API allows one running instance at a time.


def test_a_link_reproduces_the_same_player_data_in_a_fresh_browser(server):
    with chromium_context() as first:
        page = first.new_page()
        page.goto(f"{server}/perceptron")
        wait_for_app(page)
        choose(page, "Data", "XOR (noisy clusters)")
        wait_for_app(page)
        page.get_by_text("Shuffle the order each pass").click()
        wait_for_app(page)
        seed = page.get_by_label("Random seed")
        seed.fill("7")
        seed.press("Enter")
        page.wait_for_function("() => location.search.includes('pc_seed=7')")
        wait_for_app(page)
        _, frame = player(page)
        here = frame.evaluate("JSON.stringify(DATA)")
        link = page.url
        assert all(key in link for key in ("pc_data=", "pc_seed=7", "pc_shuffle=true"))
    with chromium_context() as fresh:  # a new profile: nothing shared but the link
        other = fresh.new_page()
        other.goto(link)
        wait_for_app(other)
        _, other_frame = player(other)
        there = other_frame.evaluate("JSON.stringify(DATA)")
    assert json.loads(there) == json.loads(here)
    assert len(json.loads(here)["points"]) == 40


def test_presentation_mode_shows_the_player_and_its_controls_at_720p(server):
    with chromium_context() as context:
        page = context.new_page()
        page.set_viewport_size({"width": 1280, "height": 720})
        page.goto(f"{server}/perceptron?present=true")
        wait_for_app(page)
        controls, frame = player(page)
        page.wait_for_timeout(500)
        path = SCREENSHOTS / "perceptron-present-720p.png"
        page.screenshot(path=str(path))  # the viewport, as the projector shows it
        box = page.locator(PLAYER).bounding_box()
        for name in ("Play", "Step forward", "Download PNG"):
            button = controls.get_by_role("button", name=name).bounding_box()
            assert button["y"] + button["height"] <= 720, (name, button)
        canvas = controls.locator("canvas").bounding_box()
        assert box["y"] >= 0 and canvas["y"] + canvas["height"] <= 720
        assert frame.evaluate("DATA.present") is True


def test_animation_plays_steps_and_saves_its_own_png(server, browser_page):
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
    assert frame.evaluate("DATA.updates.length") == total == 48
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
    page.locator(PLAYER).screenshot(path=str(SCREENSHOTS / "perceptron-player-converged.png"))
    # Step and scrub: buttons, keys and the range input.
    controls.get_by_role("button", name="Step back").click()
    assert shown(frame) == total - 1
    controls.get_by_role("button", name="Start").click()
    assert shown(frame) == 0
    controls.get_by_role("button", name="Step forward").click()
    page.keyboard.press("ArrowRight")
    assert shown(frame) == 2
    page.keyboard.press("ArrowLeft")
    assert shown(frame) == 1
    page.keyboard.press(" ")
    frame.wait_for_function("document.body.dataset.playing === 'yes'")
    page.keyboard.press(" ")
    assert frame.evaluate("document.body.dataset.playing") == "no"
    controls.get_by_label("Update", exact=True).fill("10")
    assert shown(frame) == 10
    assert "Update 10 of 48" in controls.locator("#status").inner_text()
    # The player saves the frame it shows, drawn by itself.
    with page.expect_download() as download:
        controls.get_by_role("button", name="Download PNG").click()
    assert download.value.suggested_filename == "perceptron-update-10.png"
    saved = SCREENSHOTS / "perceptron-update-10.png"
    download.value.save_as(saved)
    assert saved.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and saved.stat().st_size > 5000
    assert_no_exception_box(page)
    assert outside == [], outside  # no CDN, no fonts, no icons from elsewhere


def test_xor_stops_with_the_cycle_and_the_pocket_finds_three_of_four(server, browser_page):
    page = browser_page
    page.goto(f"{server}/perceptron")
    wait_for_app(page)
    choose(page, "Data", "XOR (the four corners)")
    page.get_by_test_id("stAlertContentError").get_by_text("will never converge", exact=False).wait_for()
    wait_for_app(page)
    controls, frame = player(page)
    assert frame.evaluate("DATA.updates.length") == 6
    controls.get_by_role("button", name="Play").click()
    frame.wait_for_function("Number(document.body.dataset.frame) === 6", timeout=30_000)
    text = controls.locator("#verdict").inner_text()
    assert "update 6 equal those at update 2" in text and "never converge" in text
    assert "In the cycle" in controls.locator("#status").inner_text()
    page.locator(PLAYER).screenshot(path=str(SCREENSHOTS / "perceptron-xor-player.png"))
    page.get_by_role("tab", name="When no line will do").click()
    page.get_by_text("The best any line can do on these points: 75%").wait_for()
    wait_for_app(page)
    assert "pc_tab=" in page.url  # the open tab is in the link
    assert_no_exception_box(page)
    screenshot(page, "perceptron-xor-pocket")


def test_clicks_place_points_of_the_chosen_class(server, browser_page):
    page = browser_page
    page.goto(f"{server}/perceptron")
    wait_for_app(page)
    choose(page, "Data", "Your points (click to place)")
    page.get_by_text("Place your points").wait_for()
    wait_for_app(page)
    _, frame = player(page)
    before = frame.evaluate("DATA.points.length")
    page.get_by_role("radio", name="class 1").click()
    wait_for_app(page)
    chart = page.locator('[data-testid="stVegaLiteChart"] svg').first
    chart.scroll_into_view_if_needed()
    for fx, fy in ((0.85, 0.15), (0.8, 0.25)):  # top right, in class 1's corner
        box = chart.bounding_box()  # the page may have moved since the last click
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
    assert "pc_points=" in page.url  # the points travel in the link
    assert_no_exception_box(page)
    screenshot(page, "perceptron-your-points")
