"""Every page is reachable by its URL as the very first request to a freshly started server.

Streamlit runs a fresh server in its legacy multipage mode while a ``pages/`` folder sits beside
``app.py``; unless the server leaves it at start (app.py's ``st.App`` lifespan) or
``ensure_app_shell`` does, the first deep link skips ``app.py`` (no navigation, no page config).
Each case here starts its own server, warm started as deployed.
"""

import re
from pathlib import Path

import pytest
from conftest import (
    app_pages,
    assert_no_exception_box,
    new_context,
    screenshot,
    start_server,
    stop_server,
    wait_for_app,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]  # a fresh server per test, most warm

# Each page's heading (its first h1); the pages and the menu's titles are app.py's menu (the
# phones' /join, hidden from it, has its own tests in test_join).
HEADINGS = {
    "": "classic: a lab",
    "perceptron": "Perceptron",
    "knn": "k-nearest neighbours",
    "decision-tree": "ID3 decision tree",
    "digits": "Handwritten digits",
    "compare": "Three classifiers, one data set",
}
NAV = [page.title for page in app_pages(menu_only=True)]


@pytest.fixture(scope="module")
def chromium(browser):
    with new_context(browser) as context:
        yield context


def test_every_page_of_the_navigation_has_its_heading_here():
    assert sorted(HEADINGS) == sorted(page.path for page in app_pages(menu_only=True))


@pytest.mark.parametrize("url_path", [page.path for page in app_pages(menu_only=True)])
def test_deep_link_is_the_first_request_of_a_fresh_server(chromium, url_path):
    process, base = start_server(warm=True)
    try:
        page = chromium.new_page()
        page.goto(f"{base}/{url_path}")
        wait_for_app(page)
        page.get_by_role("heading", name=HEADINGS[url_path]).first.wait_for(timeout=60_000)
        nav = page.locator('[data-testid="stSidebarNav"]')
        nav.wait_for()
        for title in NAV:
            assert nav.get_by_text(title, exact=True).count() == 1, f"{title} missing from navigation"
        # The legacy mode would list files (app, decision-tree, …) instead of the app's titles.
        assert nav.get_by_text("decision-tree", exact=True).count() == 0
        assert page.title() != "app"
        # The legacy mode answers a URL it does not know with a "Page not found" dialog.
        assert page.get_by_text("Page not found").count() == 0
        assert_no_exception_box(page)
        screenshot(page, f"first-request-{url_path or 'home'}")
        page.close()
        assert "warm start: the lessons' shared content computed" in Path(process.log_path).read_text()
    finally:
        stop_server(process)


def test_home_links_open_each_page(chromium):
    process, base = start_server()
    try:
        page = chromium.new_page()
        page.goto(base)
        wait_for_app(page)
        for url_path, heading in [(p.path, HEADINGS[p.path]) for p in app_pages(menu_only=True) if p.path]:
            page.goto(base)
            wait_for_app(page)
            page.locator(f'a[href$="/{url_path}"]').last.click()
            page.wait_for_url(re.compile(rf"/{url_path}(\?.*)?$"))  # pages add their settings
            page.get_by_role("heading", name=heading, level=1).wait_for(timeout=60_000)
            assert_no_exception_box(page)
        page.close()
    finally:
        stop_server(process)
