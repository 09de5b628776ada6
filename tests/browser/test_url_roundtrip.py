"""The link is the view: random settings → the URL → a fresh browser shows the same view.

For each page, 20 seeded random settings are drawn from the page's own widgets (found by
running the page in AppTest: every keyed slider, select box, radio, checkbox, toggle and
segmented control, with its range or options). Each setting is opened as a URL in one browser
context; the URL the app then shows (Streamlit drops values it cannot use) is copied and opened
in a fresh context. Both must show the same widget values and the same main figure data.
"""

from __future__ import annotations

import hashlib
import os
import random
from urllib.parse import urlencode

import pytest
from conftest import CHROMIUM, CHROMIUM_FLAGS, open_page, wait_for_app

PAGES = ["perceptron", "knn", "decision-tree", "digits", "compare"]
# 20 settings a page as the issue asks take ~4 min a page here; CI runs fewer (URL_SETTINGS in .ci/run).
SETTINGS = int(os.environ.get("URL_SETTINGS", "20"))
SKIP_KEYS = ("present",)  # the presentation toggle is tested on its own (test_classroom)


def _choices(page_name: str) -> list[tuple[str, list]]:
    """(key, candidate values) for every keyed widget the page shows by default."""
    at = open_page(page_name)
    found: dict[str, list] = {}
    for kind in ("slider", "select_slider", "selectbox", "radio", "checkbox", "toggle"):
        for widget in getattr(at, kind, []):
            key = getattr(widget, "key", None)
            if not key or key in SKIP_KEYS or key.startswith(("FormSubmitter", "$$")):
                continue
            if kind in ("checkbox", "toggle"):
                found[key] = ["true", "false"]
            elif kind == "slider":
                low, high, step = widget.min, widget.max, widget.step
                if not isinstance(low, (int, float)) or isinstance(widget.value, (list, tuple)):
                    continue
                count = int(round((high - low) / step)) if step else 0
                values = {low, high, *(low + step * random.Random(key).randint(0, count) for _ in range(6))}
                found[key] = [round(v, 6) if isinstance(v, float) else v for v in sorted(values)]
            else:
                found[key] = list(widget.options)
    return sorted(found.items())


def _snapshot(page) -> tuple[str, str]:
    """The widget values the page shows, and a fingerprint of its main figures' data."""
    widgets = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stSidebarUserContent"], [data-testid="stMain"]')]
              .flatMap(root => [...root.querySelectorAll('[data-testid="stSliderThumbValue"], input, [role="combobox"],'
                + ' [data-testid="stSelectbox"] [data-baseweb="select"], [role="radio"], [role="switch"], [role="tab"]')])
              .map(e => [e.getAttribute('data-testid'), e.value ?? '', e.innerText ?? '',
                         e.getAttribute('aria-checked') ?? '', e.getAttribute('aria-selected') ?? ''].join('|'))
              .join('\\n')"""
    )
    figures = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="stMain"] iframe, [data-testid="stMain"] img,'
                                              + ' [data-testid="stMain"] canvas')]
              .map(e => e.tagName === 'CANVAS' ? e.toDataURL() : (e.getAttribute('srcdoc') || e.getAttribute('src') || ''))
              .join('\\n')"""
    )
    return widgets, hashlib.sha256(figures.encode()).hexdigest()


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


def _open(browser, url: str) -> tuple[str, tuple[str, str]]:
    """Open ``url`` in a fresh context (no cookies, no storage); the URL shown and the view."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = context.new_page()
        page.goto(url)
        wait_for_app(page, timeout=120_000)
        page.locator('[data-testid="stSidebarUserContent"] [data-testid="stWidgetLabel"]').first.wait_for()
        # A page may rerun after its first run (the app shell, a setting fixed up, a component
        # reporting back): the view is the one that stays the same for two seconds.
        seen = [_snapshot(page)]
        for _ in range(30):
            if len(seen) >= 3 and seen[-1] == seen[-2] == seen[-3]:
                break
            page.wait_for_timeout(1000)
            wait_for_app(page, timeout=120_000)
            seen.append(_snapshot(page))
        return page.url, seen[-1]
    finally:
        context.close()


@pytest.mark.parametrize("page_name", PAGES)
def test_a_link_reproduces_the_view(server, browser, page_name):
    choices = _choices(page_name)
    assert choices, f"/{page_name} has no keyed widgets"
    rng = random.Random(f"url-{page_name}")
    for setting in range(SETTINGS):
        params = {key: rng.choice(values) for key, values in rng.sample(choices, min(len(choices), 4))}
        url = f"{server}/{page_name}?{urlencode(params)}"
        shown_url, before = _open(browser, url)
        _, after = _open(browser, shown_url)
        assert before[0] == after[0], (
            f"/{page_name} setting {setting} {params}: widgets differ after {shown_url}"
        )
        assert before[1] == after[1], f"/{page_name} setting {setting} {params}: the figure differs"
