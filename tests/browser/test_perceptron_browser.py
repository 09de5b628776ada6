"""The perceptron page in a real browser: the player animates every update to convergence, steps,
scrubs, answers keys and saves its own PNG; the frame it rests on is in the link (pc_frame) and a
fresh browser opens on it; a rerun that keeps the fit keeps the frame; the verdict shows beside
the player, and in it once it reaches the end; XOR stops with the cycle verdict and the pocket's
line; a "Try this" question about the run plays the first pass without its total until it is
revealed; a link reproduces the same player data in a fresh browser; presentation mode fits
1280×720 and takes the keyboard; clicks place points; nothing is fetched from outside the app's
own server."""

import json
import re
import time

import pytest
from conftest import (
    SCREENSHOTS,
    assert_no_exception_box,
    new_context,
    player,
    screenshot,
    wait_for_app,
)

pytestmark = pytest.mark.browser

PLAYER = ".pc"  # the player's root (Playwright's CSS locators reach into the component's shadow root)


def shown(root) -> int:
    return int(root.get_attribute("data-frame"))


def data(root) -> dict:
    """The JSON the page sent the player."""
    return root.evaluate("(root) => root.playerData")


def link_frame(page) -> str | None:
    return page.evaluate("() => new URL(location).searchParams.get('pc_frame')")


def choose(page, label: str, option: str) -> None:
    page.get_by_test_id("stSelectbox").filter(has_text=label).click()
    page.get_by_role("option", name=option).click()


def test_a_link_reproduces_the_same_player_data_in_a_fresh_browser(server, browser):
    with new_context(browser) as first:
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
        here = data(player(page, PLAYER))
        link = page.url
        assert all(key in link for key in ("pc_data=", "pc_seed=7", "pc_shuffle=true"))
    with new_context(browser) as fresh:  # a new profile: nothing shared but the link
        other = fresh.new_page()
        other.goto(link)
        wait_for_app(other)
        there = data(player(other, PLAYER))
    assert json.loads(json.dumps(there)) == json.loads(json.dumps(here))
    assert len(here["points"]) == 40


def test_the_frame_is_in_the_link_and_a_fresh_browser_opens_on_it(server, browser):
    with new_context(browser) as first:
        page = first.new_page()
        page.goto(f"{server}/perceptron")
        wait_for_app(page)
        root = player(page, PLAYER)
        assert shown(root) == 0 and link_frame(page) is None
        for _ in range(5):  # five quick steps: each reported, the echoes never move it back
            root.get_by_role("button", name="Step forward").click()
        assert shown(root) == 5
        page.wait_for_function("() => new URL(location).searchParams.get('pc_frame') === '5'")
        wait_for_app(page)
        page.wait_for_timeout(500)
        assert shown(root) == 5
        # Presentation mode's rerun reaches the player (its .present class), which may mount anew
        # in the wider column: it still opens on the frame the session holds.
        page.get_by_text("Presentation mode").click()
        page.locator(f"{PLAYER}.present").wait_for()
        wait_for_app(page)
        assert shown(root) == 5 and link_frame(page) == "5"
        assert "Update 5 of 48" in root.locator("#status").inner_text()
        assert not root.locator("#verdict").is_visible()  # the player's own verdict waits for its end
        link = page.url
    with new_context(browser) as fresh:  # a new profile: nothing shared but the link
        other = fresh.new_page()
        other.goto(link)
        wait_for_app(other)
        root = player(other, PLAYER)
        assert shown(root) == 5 and data(root)["start"] == 5
        assert "Update 5 of 48" in root.locator("#status").inner_text()
        root.get_by_role("button", name="End").click()  # the end, reported: in the link
        other.wait_for_function("() => new URL(location).searchParams.get('pc_frame') === '48'")
        assert shown(root) == 48 and "Converged" in root.locator("#verdict").inner_text()
        other.get_by_test_id("stAlertContentSuccess").get_by_text("Converged").wait_for()
        assert_no_exception_box(other)


def font_size(locator) -> float:
    return locator.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)")


def test_presentation_mode_at_720p_the_player_takes_the_width_and_shows_it_all(server, browser):
    """At 1280×720 with ?present=1 the player spans the tab, its plot, controls, status, verdict
    and legend above the fold, the update count at 32 px, its text at 18 px, nothing sideways."""
    with new_context(browser) as context:
        page = context.new_page()
        page.set_viewport_size({"width": 1280, "height": 720})
        page.goto(f"{server}/perceptron?present=1&pc_frame=48")  # the end: the verdict shows too
        wait_for_app(page)
        root = player(page, PLAYER)
        page.wait_for_timeout(500)
        path = SCREENSHOTS / "perceptron-present-720p.png"
        page.screenshot(path=str(path))  # the viewport, as the projector shows it
        assert data(root)["present"] is True and shown(root) == 48
        tab = page.get_by_role("tabpanel").bounding_box()
        box = root.bounding_box()
        assert box["width"] >= 0.95 * tab["width"], (box, tab)  # the free width, not a column of it
        canvas = root.locator("canvas").bounding_box()
        assert canvas["width"] >= 0.5 * tab["width"] and canvas["height"] >= 300, canvas
        for part in ("canvas", "#bar", "#head", "#why", "#verdict", "#legend"):
            where = root.locator(part).bounding_box()
            assert where["height"] > 0 and where["y"] >= 0, part
            assert where["y"] + where["height"] <= 720 and where["x"] + where["width"] <= 1280, (part, where)
        for name in ("Play", "Step forward", "Download PNG"):
            button = root.get_by_role("button", name=name).bounding_box()
            assert button["y"] + button["height"] <= 720, (name, button)
        assert font_size(root.locator("#head")) >= 32
        for part in ("#why", "#verdict", "#legend"):
            assert font_size(root.locator(part)) >= 18, part
        sideways = page.evaluate(
            "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
            " return m.scrollWidth - m.clientWidth; }"
        )
        assert sideways <= 0, sideways
        # The player has the keyboard on load: Home and → step without a click first.
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        assert shown(root) == 1


def test_animation_plays_steps_and_saves_its_own_png(server, browser_page):
    page = browser_page
    outside = []
    page.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith((server, "data:", "blob:")) else None,
    )
    page.goto(f"{server}/perceptron")  # the first request of this fresh server
    wait_for_app(page)
    root = player(page, PLAYER)
    total = len(data(root)["updates"])
    assert total == 48 and shown(root) == 0
    assert not root.locator("#verdict").is_visible()  # the player's verdict waits for the end
    # 30 updates a second; record when each frame is drawn, in the page itself.
    root.get_by_label("Speed (updates per second)").fill("30")
    root.evaluate(
        """(root) => { window.drawTimes = [];
        new MutationObserver(() => window.drawTimes.push([performance.now(), Number(root.dataset.frame)]))
            .observe(root, {attributes: true, attributeFilter: ["data-frame"]}); }"""
    )
    root.get_by_role("button", name="Play").click()
    page.wait_for_timeout(700)
    screenshot(page, "perceptron-mid-animation")
    page.locator(f'{PLAYER}[data-frame="{total}"]').wait_for(timeout=30_000)
    assert root.get_attribute("data-playing") == "no"  # stops at the end
    times = page.evaluate("window.drawTimes")
    frames = [f for _, f in times]
    assert frames == sorted(frames) and frames[-1] == total  # forward only, to the end
    seconds = (times[-1][0] - times[0][0]) / 1000
    fps = (len(times) - 1) / seconds
    print(f"perceptron player: {len(times)} frames drawn in {seconds:.2f} s = {fps:.1f} fps (30 asked)")
    assert fps >= 8, fps  # the floor for smooth animation
    assert "Converged" in root.locator("#verdict").inner_text()
    # The end is reported: the link has the frame; the page says the same beside the player.
    page.wait_for_function(f"() => new URL(location).searchParams.get('pc_frame') === '{total}'")
    page.get_by_test_id("stAlertContentSuccess").get_by_text("Converged").wait_for()
    assert (
        int(re.search(r"after (\d+) updates", page.get_by_test_id("stAlertContentSuccess").inner_text())[1])
        == total
    )
    assert link_frame(page) == str(total)
    wait_for_app(page)
    root.screenshot(path=str(SCREENSHOTS / "perceptron-player-converged.png"))
    # Step and scrub: buttons, keys and the range input.
    root.get_by_role("button", name="Step back").click()
    assert shown(root) == total - 1
    root.get_by_role("button", name="Start").click()
    assert shown(root) == 0
    root.get_by_role("button", name="Step forward").click()
    page.keyboard.press("ArrowRight")
    assert shown(root) == 2
    page.keyboard.press("ArrowLeft")
    assert shown(root) == 1
    page.keyboard.press(" ")
    page.locator(f'{PLAYER}[data-playing="yes"]').wait_for()
    page.keyboard.press(" ")
    assert root.get_attribute("data-playing") == "no"
    root.get_by_label("Update", exact=True).fill("10")
    assert shown(root) == 10
    assert "Update 10 of 48" in root.locator("#status").inner_text()
    page.wait_for_function("() => new URL(location).searchParams.get('pc_frame') === '10'")
    wait_for_app(page)
    assert shown(root) == 10  # the echoes of the reports left it where it was
    assert not root.locator("#verdict").is_visible()  # not the end: the player's verdict waits
    # The player saves the frame it shows, drawn by itself.
    with page.expect_download() as download:
        root.get_by_role("button", name="Download PNG").click()
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
    page.wait_for_function("() => location.search.includes('pc_data=')")
    wait_for_app(page)
    root = player(page, PLAYER)
    page.get_by_test_id("stAlertContentError").get_by_text("will never converge", exact=False).wait_for()
    root = player(page, PLAYER)
    assert shown(root) == 0 and len(data(root)["updates"]) == 6  # the XOR fit
    root.get_by_role("button", name="Play").click()
    page.locator(f'{PLAYER}[data-frame="6"]').wait_for(timeout=30_000)
    text = root.locator("#verdict").inner_text()
    assert "update 6 equal those at update 2" in text and "never converge" in text
    assert "In the cycle" in root.locator("#status").inner_text()
    root.screenshot(path=str(SCREENSHOTS / "perceptron-xor-player.png"))
    page.get_by_role("tab", name="When no line will do").click()
    best = page.get_by_test_id("stMetric").filter(has_text="The best any line can do")
    best.get_by_test_id("stMetricValue").get_by_text("75%").wait_for()
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
    before = len(data(player(page, PLAYER))["points"])
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
            if len(data(player(page, PLAYER))["points"]) > before:
                break
        wait_for_app(page)
        points = data(player(page, PLAYER))
        assert len(points["points"]) == before + 1
        assert points["labels"][-1] == 1
        before += 1
    assert "pc_points=" in page.url  # the points travel in the link
    assert_no_exception_box(page)
    screenshot(page, "perceptron-your-points")


def boxes(locator) -> list[dict]:
    return [b for b in (locator.nth(k).bounding_box() for k in range(locator.count())) if b]


def overlap(a: dict, b: dict) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def inside(inner: dict, outer: dict, slack: float = 1.0) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack
    )


def test_the_dual_views_labels_do_not_overlap_and_its_legends_are_whole(server, browser_page):
    page = browser_page
    for width, height, link in ((1440, 900, ""), (1280, 720, "&present=1")):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{server}/perceptron?pc_data=XOR+%28noisy+clusters%29{link}")
        wait_for_app(page)
        chart = page.get_by_test_id("stVegaLiteChart").filter(has_text="the updates each point caused")
        chart.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        labels = boxes(chart.locator("g.mark-text.role-mark text"))
        assert len(labels) >= 5, len(labels)
        for k, a in enumerate(labels):
            assert not any(overlap(a, b) for b in labels[k + 1 :]), (width, a)
        frame = chart.bounding_box()
        column = chart.locator("xpath=ancestor::*[@data-testid='stColumn'][1]").bounding_box()
        legends = boxes(chart.locator("g.role-legend"))
        assert len(legends) >= 2  # the classes and the sizes (α)
        for legend in legends + labels:
            assert inside(legend, frame) and inside(legend, column), (width, legend, frame, column)
        # The mistakes chart beside it: its axis titles whole, inside the chart.
        bars = page.get_by_test_id("stVegaLiteChart").filter(has_text="pass (epoch)")
        for title in boxes(bars.locator("g.role-axis-title text")):
            assert inside(title, bars.bounding_box()), (width, title)
        screenshot(page, f"perceptron-dual-view-{width}")


SHADES_JS = """(root) => {
  const canvas = root.querySelector('canvas'), ctx = canvas.getContext('2d');
  const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  const hex = (i) => '#' + [0, 1, 2].map((k) => pixels[i + k].toString(16).padStart(2, '0')).join('').toUpperCase();
  return root.playerData.theme.shades.map((shade) => {
    let count = 0;
    for (let i = 0; i < pixels.length; i += 4) if (hex(i) === shade.toUpperCase()) count += 1;
    return count / (canvas.width * canvas.height);
  });
}"""


def test_three_classes_a_region_each_and_two_vectors_move(server, browser_page):
    page = browser_page
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(f"{server}/perceptron?pc_data=Three+clusters+%283+classes%29")
    wait_for_app(page)
    root = player(page, PLAYER)
    sent = data(root)
    assert sent["k"] == 3 and shown(root) == 0
    assert root.evaluate(SHADES_JS) == [0, 0, 0]  # every score 0: no region yet
    root.get_by_role("button", name="Step forward").click()
    update = sent["updates"][0]
    status = root.locator("#status").inner_text()
    gained, lost = sent["classNames"][update["t"]], sent["classNames"][update["p"]]
    assert f"{gained}'s w gains η·x" in status and f"{lost}'s loses them" in status, status
    assert "Two vectors move" in status
    root.get_by_role("button", name="End").click()
    assert shown(root) == len(sent["updates"])
    shares = root.evaluate(SHADES_JS)
    assert all(share > 0.05 for share in shares), shares  # each class's region takes its part of the plot
    legend = root.locator("#legend").inner_text()
    assert all(name in legend for name in sent["classNames"]) and "score the same" in legend
    page.get_by_test_id("stAlertContentSuccess").get_by_text("Converged").wait_for()
    root.screenshot(path=str(SCREENSHOTS / "perceptron-three-classes-player.png"))
    page.set_viewport_size({"width": 1280, "height": 720})
    page.goto(f"{server}/perceptron?present=1&pc_data=Three+clusters+%283+classes%29&pc_frame=3")
    wait_for_app(page)
    root = player(page, PLAYER)
    page.wait_for_timeout(500)
    page.screenshot(path=str(SCREENSHOTS / "perceptron-three-classes-present-720p.png"))
    for part in ("canvas", "#bar", "#head", "#why", "#legend"):
        where = root.locator(part).bounding_box()
        assert where["y"] + where["height"] <= 720, (part, where)
    assert_no_exception_box(page)


def test_presentation_mode_headline_numbers_are_large_and_nothing_goes_sideways(server, browser_page):
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 720})
    for tab, names in (
        ("When no line will do", ["The best any line can do", "Pocket: the best seen", "rbf kernel"]),
        ("Does it generalise?", ["Test accuracy (seed 0)", "Median over 100 seeds"]),
    ):
        page.goto(f"{server}/perceptron?present=1&pc_tab={tab.replace(' ', '+').replace('?', '%3F')}")
        wait_for_app(page)
        page.wait_for_timeout(800)
        screenshot(page, f"perceptron-present-720p-{tab.split()[0].lower()}")
        for name in names:
            metric = page.get_by_test_id("stMetric").filter(has_text=name)
            value = metric.get_by_test_id("stMetricValue")
            size = value.evaluate(
                "(e) => Math.max(...[e, ...e.querySelectorAll('*')].map((n) => parseFloat(getComputedStyle(n).fontSize)))"
            )
            inner = value.evaluate("(e) => parseFloat(getComputedStyle(e.querySelector('p') || e).fontSize)")
            assert min(size, inner) >= 32, (tab, name, size, inner)
        sideways = page.evaluate(
            "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
            " return m.scrollWidth - m.clientWidth; }"
        )
        assert sideways <= 0, (tab, sideways)
    assert_no_exception_box(page)


def test_a_question_about_the_run_plays_the_first_pass_without_its_total_until_revealed(server, browser_page):
    """Step 2 (XOR's loop) asked at 1280×720, presenting: the player plays the first pass, says
    "Update 3" and not "of 6", and ends on a note instead of the verdict; nothing beside it says
    the verdict. Once the answer is chosen: the whole run, "of 6", the verdict beside it."""
    from test_classroom import open_presenting, open_try_this

    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 720})
    open_presenting(page, server, "perceptron")
    assert open_try_this(page)
    expander = page.locator('[data-testid="stExpander"]', has_text="Try this")
    button = expander.get_by_role("button", name="Set up this view").nth(1)
    button.scroll_into_view_if_needed()
    button.click()
    asked = page.locator(".st-key-try_step")
    asked.get_by_text("Do the updates on XOR end up in a loop", exact=False).wait_for(timeout=60_000)
    wait_for_app(page)
    root = player(page, PLAYER)
    assert shown(root) == 0 and len(data(root)["updates"]) == 3 and data(root)["verdict"] is None
    assert root.locator("#head").inner_text() == "Update 0"
    root.get_by_role("button", name="End").click()
    assert shown(root) == 3 and root.locator("#head").inner_text() == "Update 3"
    note = root.locator("#verdict").inner_text()
    assert "hidden until the answer is revealed" in note and "never converge" not in note
    wait_for_app(page)
    text = page.locator('[data-testid="stMain"]').inner_text() + root.inner_text()
    assert not re.search(r"update \d+ of|update 6", text, re.I) and "never converge" not in text, text
    assert page.get_by_test_id("stAlertContentError").count() == 0
    page.screenshot(path=str(SCREENSHOTS / "perceptron-try-2-asked.png"))
    asked.get_by_role("radio", name="A loop of 4 updates", exact=True).check(force=True)
    page.get_by_test_id("stAlertContentError").get_by_text("will never converge", exact=False).wait_for()
    wait_for_app(page)
    root = player(page, PLAYER)
    assert len(data(root)["updates"]) == 6 and " of 6" in root.locator("#head").inner_text()
    page.screenshot(path=str(SCREENSHOTS / "perceptron-try-2-revealed.png"))
    assert_no_exception_box(page)
