"""The players' last WCAG 2.2 AA barriers, in Chromium: reduced motion, the k-NN player's keys
when presenting, and the tree's pan and zoom buttons on a 320 px screen.

- prefers-reduced-motion (2.2.2, 2.3.3): a player the page asks to play on load (the perceptron's
  ``autoplay``) stays still when the reader's system asks for reduced motion, says so on its Play
  button, and still plays when Play is pressed; without the preference it plays by itself. The
  player is mounted alone, as the page mounts it (``pages/widgets/players.player_source``), since
  no lesson asks it to play on load.
- Presenting (``?present=1``), the k-NN player takes the keyboard on load as the perceptron and
  tree players do; outside presentation mode it leaves the focus where it is.
- At 320 px (1.4.10 reflow, 2.5.8 target size) the tree's pan and zoom buttons sit in a row above
  the drawing: none covers the root's label, each is at least 24 × 24 px and named, they pan and
  zoom, and the player needs no horizontal scrolling.

Screenshots: players-access-*.png.
"""

import json

import pytest
from conftest import (
    assert_no_exception_box,
    evaluate_with_timeout,
    new_context,
    player,
    screenshot,
    serve_alone,
    wait_for_app,
    wait_for_layout,
)

from classic import datasets
from classic.perceptron import Perceptron
from classic.viz import perceptron as perceptron_view
from pages.widgets.players import player_source

pytestmark = pytest.mark.browser


def perceptron_data() -> dict:
    """A run of 49 updates at 8 a second, which the page asks to play on load."""
    X, y = datasets.xor(n=8, noise=0.2, random_state=1)
    model = Perceptron(max_epochs=10).fit(X, y)
    return perceptron_view.player_data(
        X, y, model, ["a", "b"], ("stop", "Stopped", "A cycle."), autoplay=True
    )


def mount_alone(page, template: str, data: dict) -> None:
    """Mount ``assets/<template>`` in ``page`` as the component would: its markup in a host, its
    style sheet, its script (the shared toolkit in front) called with ``data``."""
    source = player_source(template)
    html = (
        f'<!doctype html><html lang="en"><head><style>{source["css"]}</style></head><body>'
        f'<div id="host">{source["html"]}</div>'
        '<script type="module">import mount from "./player.js";'
        " window.mount = (data, host = 'host') => mount({ data, parentElement: document.getElementById(host),"
        " setTriggerValue: () => {} });</script></body></html>"
    )
    files = {"/": ("text/html", html), "/player.js": ("text/javascript", source["js"])}

    serve_alone(page, files, "mount")
    page.evaluate(f"() => window.mount({json.dumps(data)})")
    page.locator(".pc[data-drawn]").wait_for(timeout=10_000)


def frames_over(root, seconds: float, every_ms: int = 250) -> list[int]:
    """The frame the player shows, read every ``every_ms`` for ``seconds``."""
    seen = []
    for _ in range(int(seconds * 1000 / every_ms)):
        seen.append(int(root.get_attribute("data-frame")))
        root.page.wait_for_timeout(every_ms)
    return seen


def test_without_a_motion_preference_the_perceptron_plays_on_load_as_asked(browser):
    """The control: the same player and data do play by themselves when nothing asks otherwise."""
    with new_context(browser, viewport={"width": 900, "height": 800}) as context:
        page = context.new_page()
        mount_alone(page, "perceptron_player.html", perceptron_data())
        root = page.locator(".pc")
        root.page.wait_for_function(
            "() => Number(document.querySelector('.pc').dataset.frame) > 0", timeout=5_000
        )
        assert root.get_attribute("data-playing") == "yes"
        assert "Plays only when you press Play" not in root.locator("#play").get_attribute("title")


def test_reduced_motion_keeps_the_perceptron_still_until_play_is_pressed(browser):
    with new_context(browser, viewport={"width": 900, "height": 800}, reduced_motion="reduce") as context:
        page = context.new_page()
        mount_alone(page, "perceptron_player.html", perceptron_data())
        root = page.locator(".pc")
        still = frames_over(root, 2.5)
        assert set(still) == {0}, f"it moved by itself: {still}"
        assert root.get_attribute("data-playing") == "no"
        play = root.locator("#play")
        # Said where a screen reader (and a mouse's tooltip) finds it: the button's description.
        assert "Plays only when you press Play" in play.get_attribute("title")
        assert play.evaluate("(b) => getComputedStyle(b).transitionDuration") in ("0s", "")
        page.screenshot(path=str(screenshot(page, "players-access-reduced-motion-still")))
        play.click()  # the reader's own choice: it plays
        page.wait_for_function("() => Number(document.querySelector('.pc').dataset.frame) > 1", timeout=5_000)
        play.click()  # pause; the steps work as ever
        paused = int(root.get_attribute("data-frame"))
        root.locator("#forward").click()
        assert int(root.get_attribute("data-frame")) == min(paused + 1, 49)
        root.focus()
        page.keyboard.press("Home")
        assert root.get_attribute("data-frame") == "0"
        page.keyboard.press("ArrowRight")
        assert root.get_attribute("data-frame") == "1"


# Whether the k-NN player's root has the focus (the component mounts it in a shadow root).
KNN_FOCUSED = "(root) => root.getRootNode().activeElement === root"


def test_presenting_the_knn_player_takes_the_keyboard_on_load(server, browser):
    with new_context(browser, viewport={"width": 1280, "height": 720}) as context:
        page = context.new_page()
        page.goto(f"{server}/knn?present=1")
        wait_for_app(page)
        assert_no_exception_box(page)
        root = player(page, ".knn")
        evaluate_with_timeout(
            root,
            f"(root) => new Promise((done) => {{ const t = setInterval(() => {{ if (({KNN_FOCUSED})(root)) {{ clearInterval(t); done(); }} }}, 50); }})",
            ms=10_000,
            what="the k-NN player to take the focus",
        )
        k = int(root.get_attribute("data-k"))
        page.keyboard.press("ArrowRight")  # no click first
        page.wait_for_function(
            "(k) => { const h = [...document.querySelectorAll('*')].find((e) => e.shadowRoot && e.shadowRoot.querySelector('.knn'));"
            " return h && Number(h.shadowRoot.querySelector('.knn').dataset.k) === k; }",
            arg=k + 1,
            timeout=5_000,
        )
        page.screenshot(path=str(screenshot(page, "players-access-knn-present-focus")))


def test_outside_presentation_mode_the_knn_player_leaves_the_focus_alone(server, browser):
    with new_context(browser, viewport={"width": 1280, "height": 900}) as context:
        page = context.new_page()
        page.goto(f"{server}/knn")
        wait_for_app(page)
        root = player(page, ".knn")
        page.wait_for_timeout(1000)
        assert not root.evaluate(KNN_FOCUSED)


def test_a_player_presenting_never_takes_the_focus_from_a_field_being_typed_in(browser):
    """The rule every player follows on load (takeKeys in player_common.js): the keys go to the
    player only when the focus is nowhere else."""
    with new_context(browser, viewport={"width": 900, "height": 800}) as context:
        page = context.new_page()
        data = {**perceptron_data(), "autoplay": False, "present": True}
        mount_alone(page, "perceptron_player.html", data)
        assert page.evaluate("() => document.activeElement === document.querySelector('#host .pc')")
        # The reader types in a field; a second player is mounted meanwhile.
        page.evaluate(
            "(html) => { const f = document.createElement('input'); f.id = 'typing'; document.body.prepend(f);"
            " const h = document.createElement('div'); h.id = 'second'; h.innerHTML = html; document.body.append(h); }",
            player_source("perceptron_player.html")["html"],
        )
        page.locator("#typing").click()
        page.keyboard.type("ab")
        page.evaluate("(data) => window.mount(data, 'second')", data)
        page.locator("#second .pc[data-drawn]").wait_for(timeout=10_000)
        assert page.evaluate("() => document.activeElement.id") == "typing"
        page.keyboard.type("c")
        assert page.locator("#typing").input_value() == "abc"


# The tree player's pan and zoom buttons and its root's label (the first text of the root's box),
# in page pixels; how far the player and the page would scroll sideways.
TREE_BOXES = """(box) => {
  const rect = (e) => { const r = e.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; };
  const rootId = box.playerData.nodes[0].id;
  const label = box.querySelector(`#view g[data-node="${rootId}"] text`);
  const main = document.querySelector('[data-testid="stMain"]');
  return {
    label: rect(label), text: label.textContent,
    controls: [...box.querySelectorAll('#zoom button')].map((b) => ({ name: b.getAttribute('aria-label'), ...rect(b) })),
    stage: rect(box.querySelector('#stage')), player: rect(box), width: innerWidth,
    overflow: { player: box.scrollWidth - box.clientWidth, page: document.scrollingElement.scrollWidth - innerWidth,
                main: main ? main.scrollWidth - main.clientWidth : 0 },
  };
}"""


def overlaps(a: dict, b: dict) -> bool:
    return (
        a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and a["y"] < b["y"] + b["h"]
        and b["y"] < a["y"] + a["h"]
    )


def test_the_trees_pan_and_zoom_buttons_hide_nothing_at_320_px(server, browser):
    with new_context(browser, viewport={"width": 320, "height": 720}) as context:
        page = context.new_page()
        page.goto(f"{server}/decision-tree")
        wait_for_app(page)
        assert_no_exception_box(page)
        root = player(page, ".tree-player")
        wait_for_layout(page)
        root.locator("#zoom").evaluate("(e) => e.scrollIntoView({ block: 'center' })")
        seen = root.evaluate(TREE_BOXES)
        page.screenshot(path=str(screenshot(page, "players-access-tree-320")), full_page=False)
        names = [c["name"] for c in seen["controls"]]
        for wanted in (
            "Pan left",
            "Pan right",
            "Pan up",
            "Pan down",
            "Zoom in",
            "Zoom out",
            "Fit the tree in view",
        ):
            assert wanted in names, (wanted, names)
        for control in seen["controls"]:
            assert control["w"] >= 24 and control["h"] >= 24, control  # WCAG 2.5.8
            assert not overlaps(control, seen["label"]), (control, seen["text"], seen["label"])
            assert not overlaps(control, seen["stage"]), control  # above the drawing, never over it
            assert 0 <= control["x"] and control["x"] + control["w"] <= seen["width"], control
        assert seen["player"]["x"] + seen["player"]["w"] <= seen["width"] + 0.5, seen["player"]
        assert seen["overflow"]["player"] <= 0 and seen["overflow"]["page"] <= 0, seen["overflow"]

        # The buttons pan and zoom, by pointer and by keyboard (Enter on the focused button).
        view = root.locator("#view")
        moves = []
        for name in ("Pan left", "Pan down", "Zoom in"):
            before = view.get_attribute("transform")
            root.get_by_role("button", name=name, exact=True).click()
            moves.append(view.get_attribute("transform") != before)
        before = view.get_attribute("transform")
        root.get_by_role("button", name="Pan right", exact=True).focus()
        page.keyboard.press("Enter")
        moves.append(view.get_attribute("transform") != before)
        assert all(moves), moves
