"""Nothing leaves the app's own server: every request a page makes, recorded in Chromium.

Every page is opened plainly and with a hostile link (each of its widget keys set to Markdown
image and link syntax, HTML and a script). Requests to any other origin are recorded and
aborted (so a failure never reaches the network); the test fails if there is one.
"""

import re
from urllib.parse import quote, urlsplit

import pytest
from conftest import ROOT, assert_no_exception_box, screenshot, wait_for_app

pytestmark = pytest.mark.browser

PAGES = re.findall(r'st\.Page\(\s*"pages/([\w-]+)\.py"', (ROOT / "app.py").read_text())
HOSTILE = [
    "![x](http://example.com/markdown-image.png)",
    "<img src=http://example.com/html-image.png>",
    "[y](http://example.com/link)",
    "<script>fetch('http://example.com/script')</script>",
]
LOCAL_SCHEMES = {"data", "blob", "about"}


def _path(name: str) -> str:
    return "" if name == "home" else name


def _keys(name: str) -> list[str]:
    """The page's widget keys, read from its source (so new widgets are covered)."""
    source = (ROOT / "pages" / f"{name}.py").read_text()
    return sorted(set(re.findall(r'key="(\w+)"', source)))


def _hostile_query(name: str) -> str:
    keys = _keys(name) or ["x"]
    pairs = [(key, HOSTILE[i % len(HOSTILE)]) for i, key in enumerate(keys)] + [("present", HOSTILE[0])]
    return "&".join(f"{quote(key)}={quote(value, safe='')}" for key, value in pairs)


@pytest.fixture
def recorded(browser_context, server):
    """A new tab whose requests to other origins are recorded and aborted."""
    own = urlsplit(server).netloc
    outside: list[str] = []

    def guard(route):
        url = route.request.url
        parts = urlsplit(url)
        if parts.scheme in LOCAL_SCHEMES or parts.netloc == own:
            route.continue_()
        else:
            outside.append(f"{route.request.resource_type} {url}")
            route.abort()

    browser_context.route("**/*", guard)
    page = browser_context.new_page()
    yield page, outside
    page.close()
    browser_context.unroute("**/*", guard)


def _visit(page, url: str) -> None:
    page.goto(url)
    wait_for_app(page)
    page.wait_for_timeout(1500)  # images and iframes that load after the script is done


@pytest.mark.parametrize("name", PAGES)
def test_a_page_fetches_only_from_its_own_server(recorded, server, name):
    page, outside = recorded
    _visit(page, f"{server}/{_path(name)}")
    assert_no_exception_box(page)
    assert outside == []


@pytest.mark.parametrize("name", PAGES)
def test_a_hostile_link_fetches_nothing_from_elsewhere(recorded, server, name):
    page, outside = recorded
    _visit(page, f"{server}/{_path(name)}?{_hostile_query(name)}")
    assert_no_exception_box(page)
    screenshot(page, f"hostile-link-{name}")
    assert outside == []
    # Nothing the link carried became an element of the page.
    assert page.locator('img[src*="example.com"], script:has-text("example.com")').count() == 0


def test_the_guard_sees_a_request_to_another_origin(recorded, server):
    """The check itself: an image from elsewhere is recorded (and aborted)."""
    page, outside = recorded
    page.goto(f"{server}/_stcore/health")
    page.set_content('<img src="http://example.com/planted.png">')
    page.wait_for_timeout(500)
    assert outside == ["image http://example.com/planted.png"]
