"""The note "Some settings in this link could not be used" speaks of a link the user opened, never
of the app's own writes: a player's steps, reported one after another, write their frame (or k)
into the URL, and the next step's run starts from that URL; none of it may bring the note up.
A link with a truly bad value still does (tests/browser/test_deep_links.py)."""

import pytest
from conftest import assert_no_exception_box, screenshot, wait_for_app

pytestmark = pytest.mark.browser

NOTE = '[data-testid="stAlertContainer"]:has-text("could not be used")'


def url_value(page, key: str) -> str | None:
    return page.evaluate("(key) => new URL(location).searchParams.get(key)", key)


def wait_for_url_value(page, key: str, value: str) -> None:
    page.wait_for_function(
        "([key, value]) => new URL(location).searchParams.get(key) === value", arg=[key, value]
    )
    wait_for_app(page)


def assert_no_note(page, name: str) -> None:
    assert_no_exception_box(page)
    notes = page.locator(NOTE)
    if notes.count():
        screenshot(page, name)
        raise AssertionError(f"a false note after the app's own write: {notes.first.inner_text()}")


def test_perceptron_steps_forward_and_back_bring_no_note(server, browser_page):
    page = browser_page
    page.goto(f"{server}/perceptron")
    wait_for_app(page)
    root = page.locator(".pc[data-drawn]")
    for frame in (1, 2, 3):  # one step at a time, each written to the URL before the next
        root.get_by_role("button", name="Step forward").click()
        wait_for_url_value(page, "pc_frame", str(frame))
        assert_no_note(page, "url-note-perceptron-forward")
    root.get_by_role("button", name="Step back").click()
    wait_for_url_value(page, "pc_frame", "2")
    assert_no_note(page, "url-note-perceptron-back")


def test_knn_plus_twice_brings_no_note(server, browser_page):
    page = browser_page
    page.goto(f"{server}/knn")
    wait_for_app(page)
    plus = page.locator(".knn[data-drawn]").get_by_role("button", name="k plus one")
    start = int(page.locator(".knn").get_attribute("data-k"))
    for step in (1, 2, 3):
        plus.click()
        wait_for_url_value(page, "knn_k", str(start + step))
        assert_no_note(page, "url-note-knn-plus")
