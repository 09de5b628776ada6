"""Shared test fixtures: data location, Streamlit AppTest, and a real browser.

Browser tests drive Debian's Chromium through Playwright. Without Chromium or Playwright they
are skipped, unless ``REQUIRE_BROWSER=1`` (as in CI), where a missing browser is a failure.
One Chromium per test process (fixture ``browser``; under pytest-xdist, one per worker): a test
that needs a fresh profile opens ``new_context(browser)``, which shares nothing with the others
but the browser's process. Each browser test module gets a fresh Streamlit server (fixture
``server``) on a free port, so the module's first request is also the server's first: a deep
link as the very first request is tested for every page.

The pages come from app.py's navigation and the lessons registry (``app_pages``): a lesson added
there is tested without editing a list in the tests.
"""

from __future__ import annotations

import ast
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"
SCREENSHOTS = ROOT / "tests" / "artifacts" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# The app folder first on the path, so that ``classic`` and ``pages`` are the app's own.
sys.path.insert(0, str(ROOT))
if not os.environ.get("CLASSIC_DATA_HOME") and SHARED_DATA.is_dir():
    os.environ["CLASSIC_DATA_HOME"] = str(SHARED_DATA)
# Matplotlib must never try to open a window in tests.
os.environ.setdefault("MPLBACKEND", "Agg")
# Classes a test starts (a fuzzer or a walk pressing "Start a class") go to a folder of this test
# process (each pytest-xdist worker has its own), never to the checkout's data/classes/; every
# server a test starts gets a folder of its own under it (``start_server``), unless the test
# names one: a test's classes are never another's.
_CLASSES = tempfile.TemporaryDirectory(prefix="classic-test-classes-")
os.environ["CLASSIC_CLASS_DIR"] = _CLASSES.name


def _uci_folder() -> tuple[Path | None, str]:
    """The first folder holding both UCI files, or None and why they cannot be had."""
    from classic import uci

    fix = f"run `{uci.DOWNLOAD_COMMAND}` or set CLASSIC_DATA_HOME to a folder holding the files"
    try:
        folders = uci.data_dirs()
    except uci.DatasetUnavailable as error:  # $CLASSIC_DATA_HOME names no folder
        return None, str(error)
    for folder in folders:
        if all((folder / source.filename).is_file() for source in uci.FILES):
            return folder, ""
    names = " and ".join(source.filename for source in uci.FILES)
    return None, f"UCI data not found ({names} in none of {[str(d) for d in folders]}): {fix}"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items) -> None:
    """Every test that uses the browser or a server is marked ``browser`` (its module says so too).

    For pytest-xdist's ``--dist loadgroup`` (pyproject.toml; CI runs ``-n 2``): a module whose
    tests share a module-scoped fixture (a server, a browser context, a page that the next test
    goes on with) runs whole on one worker, in its order; every other test, and those of a module
    that sets ``XDIST_SPREAD = True`` (independent tests each worker can run on its own copy of
    the module's fixtures: the walk), goes to whichever worker is free."""
    for item in items:
        # What drives Chromium (its fixtures ask for the browser or a server) is left out of the
        # quick loop, even if its module forgets the mark.
        uses = set(getattr(item, "fixturenames", ()))
        if uses & {"browser", "server"} and not item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)
        module = getattr(item, "module", None)
        if module is None or getattr(module, "XDIST_SPREAD", False):
            continue
        info = getattr(item, "_fixtureinfo", None)
        defs = info.name2fixturedefs.values() if info else ()
        if any(d.scope in ("module", "class", "package") for group in defs for d in group):
            item.add_marker(pytest.mark.xdist_group(module.__name__))


@pytest.fixture(scope="session")
def data_home() -> Path:
    """The folder holding the UCI files; every test that needs them takes this fixture.

    Without the files the test is skipped with the reason and the fix, unless ``REQUIRE_DATA=1``
    (as in CI), where missing data is a failure. Tests never download.
    """
    folder, why = _uci_folder()
    if folder is None:
        if os.environ.get("REQUIRE_DATA") == "1":
            pytest.fail(f"REQUIRE_DATA=1 but {why}")
        pytest.skip(why)
    return folder


class AppPage(NamedTuple):
    file: str  # "knn" for pages/knn.py
    path: str  # the URL path: "" for the default page
    title: str  # the navigation menu's label
    hidden: bool  # not in the menu (the phones' /join)


def app_pages(menu_only: bool = False) -> list[AppPage]:
    """Every page of app.py's navigation, in order: its own ``st.Page(...)`` calls (home, /join)
    and, where it unpacks the lessons registry, every lesson (``classic.lessons.LESSONS``);
    ``menu_only``: those the menu shows (not ``visibility="hidden"``)."""
    from classic.lessons import LESSONS

    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    listed = next(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "PAGES"
    )
    pages = []
    for node in listed.elts:
        if isinstance(node, ast.Starred):
            pages += [AppPage(ls.url_path, ls.url_path, ls.title, False) for ls in LESSONS]
            continue
        words = {
            word.arg: ast.literal_eval(word.value)
            for word in node.keywords
            if isinstance(word.value, ast.Constant)
        }
        file = Path(ast.literal_eval(node.args[0])).stem
        path = "" if words.get("default") else words.get("url_path", file)
        pages.append(AppPage(file, path, words.get("title", file), words.get("visibility") == "hidden"))
    return [page for page in pages if not (menu_only and page.hidden)]


# ---------------------------------------------------------------------------------------------
# AppTest
# ---------------------------------------------------------------------------------------------


def open_page(name: str, timeout: float = 60, params: dict | None = None, try_this: bool = True):
    """An AppTest of the whole app (``app.py``) switched to ``pages/<name>.py`` and run once.

    ``params`` are the link's query parameters (a list value repeats the key). ``try_this``: the
    page's "Try this" expander open, as a student opens it (its steps are drawn only when open).
    """
    from streamlit import config
    from streamlit.testing.v1 import AppTest

    os.chdir(ROOT)  # page paths in app.py are relative to the app folder
    # The deployment hides exception details (.streamlit/config.toml); tests need them to debug.
    config.set_option("client.showErrorDetails", "full")
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=timeout)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    at.run()
    if try_this:
        at.session_state["try_this"] = True
    at.switch_page(f"pages/{name}.py")
    at.run()
    return at


def page_text(at) -> str:
    """Every text an AppTest page shows, one string a line: its elements' texts, the labels and
    options of its widgets, and the texts inside its charts' specs and its players' data (JSON
    inside a field is read as JSON), so a test can look for what a student would read anywhere on
    the page, figures included."""
    import json

    from google.protobuf.json_format import MessageToDict

    found: list[str] = []

    def strings(value) -> None:
        if isinstance(value, dict):
            for item in value.values():
                strings(item)
        elif isinstance(value, list):
            for item in value:
                strings(item)
        elif isinstance(value, str):
            text = value.strip()
            if len(text) > 2000 and ("function" in text or "<style" in text):
                return  # a player's or a component's own code, not what it shows
            if text[:1] in "[{":
                try:
                    strings(json.loads(text))
                    return
                except ValueError:
                    pass
            found.append(value)

    def walk(node) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None and not hasattr(node, "children"):
            strings(MessageToDict(proto))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(found)


def assert_no_exception(at) -> None:
    """Fail with the exception texts if the app raised anything."""
    messages = [e.message for e in at.exception]
    assert not messages, f"the page raised: {messages}"


# ---------------------------------------------------------------------------------------------
# Browser
# ---------------------------------------------------------------------------------------------


def _browser_missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is not installed (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright)"
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(
    timeout: float | None = None, warm: bool = False, env: dict | None = None, port: int | None = None
) -> tuple[subprocess.Popen, str]:
    """Start ``streamlit run app.py`` on a free port; return the process and its base URL.

    ``warm``: the server's warm start (pages/server/warm.py), as deployed; off by default, since
    every browser test module starts its own server and the warm start costs each one seconds.
    ``env``: environment variables for the server on top of this process's (None: unset).
    A port another process took between the check and the server's bind (test processes
    running side by side) is retried on another port. ``timeout``: 180 s for a warm start (it
    computes the digits ladder, maybe beside another test process on 2 cores), 90 s otherwise.
    ``port``: this port (a server restarted where it was: a browser's storage is per address).
    """
    timeout = timeout or (180 if warm else 90)
    for attempt in range(3):
        try:
            return _start_server_once(timeout, warm, env or {}, port)
        except _PortTaken:
            if attempt == 2 or port is not None:
                raise
    raise AssertionError("unreachable")


class _PortTaken(RuntimeError):
    pass


def _start_server_once(
    timeout: float, warm: bool, extra: dict, port: int | None
) -> tuple[subprocess.Popen, str]:
    port = port or _free_port()
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(ROOT / "app.py"),
        "--server.headless=true",
        f"--server.port={port}",
        "--server.address=127.0.0.1",
        "--browser.gatherUsageStats=false",
        "--server.fileWatcherType=none",
    ]
    log = tempfile.NamedTemporaryFile(prefix="streamlit-", suffix=".log", delete=False)
    env = {**os.environ, "CLASSIC_WARM_START": "1" if warm else "0", **extra}
    if "CLASSIC_CLASS_DIR" not in extra:
        env["CLASSIC_CLASS_DIR"] = tempfile.mkdtemp(prefix="server-", dir=_CLASSES.name)
    env = {key: value for key, value in env.items() if value is not None}
    process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    process.log_path = log.name  # read on failure, removed by stop_server
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            text = Path(log.name).read_text()
            Path(log.name).unlink(missing_ok=True)
            if "already in use" in text:
                raise _PortTaken(f"port {port} taken")
            raise RuntimeError(f"streamlit exited: {text[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return process, url
        except OSError:
            time.sleep(0.2)
    stop_server(process)
    raise RuntimeError(f"streamlit did not start within {timeout} s")


def require_browser() -> None:
    """Skip (or, with ``REQUIRE_BROWSER=1``, fail) when Chromium or Playwright is missing."""
    missing = _browser_missing()
    if missing:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {missing}")
        pytest.skip(missing)


def stop_server(process: subprocess.Popen) -> None:
    """Stop a server from ``start_server`` and remove its log."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
    Path(process.log_path).unlink(missing_ok=True)


@pytest.fixture(scope="session")
def browser() -> Iterator:
    """Debian's Chromium through Playwright, one for the whole test process (Playwright's sync
    API runs one instance a thread): every context, page and fresh profile comes from it."""
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@contextmanager
def new_context(browser, **options) -> Iterator:
    """A fresh browser context (a new profile: no cookies, no storage, no cache), 1400×1000 unless
    ``options`` say otherwise (Playwright's ``new_context`` options); closed at the end."""
    context = browser.new_context(**{"viewport": {"width": 1400, "height": 1000}, **options})
    context.set_default_timeout(30_000)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A fresh Streamlit server for this test module; yields its base URL."""
    require_browser()
    process, url = start_server()
    yield url
    stop_server(process)


@pytest.fixture(scope="module")
def browser_context(browser, server: str) -> Iterator:
    """A fresh browser context for this test module (its tabs share cookies and storage)."""
    with new_context(browser) as context:
        yield context


@pytest.fixture
def browser_page(browser_context):
    """A new browser tab; closed after the test."""
    page = browser_context.new_page()
    yield page
    page.close()


def player(page, root: str, index: int = 0):
    """The ``index``-th browser player whose root element matches ``root`` (".pc", ".knn",
    ".tree-player"), once it has drawn (it sets ``data-drawn``); its controls are found in it
    and its state read from its attributes. Playwright's CSS locators reach into the players'
    shadow roots."""
    page.locator(f"{root}[data-drawn]").nth(index).wait_for()
    return page.locator(root).nth(index)


def wait_for_app(page, timeout: float = 60_000) -> None:
    """Wait until Streamlit has finished running the script (its stApp says ``notRunning``).

    After an interaction, wait for the content you expect instead: the rerun may not have
    started yet when this is called.
    """
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout)
    page.wait_for_timeout(300)


# Resolves once the main area's figures are drawn (each Vega-Lite chart has its canvas or SVG,
# each browser player has set data-drawn) and their boxes have not moved for ``still`` ms, or
# after ``limit`` ms (false) whatever they do.
SETTLED_JS = """async ([still, limit]) => {
  const started = performance.now(), sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const main = () => document.querySelector('[data-testid="stMain"]');
  const layout = () => {
    const root = main();
    if (!root) return null;
    if ([...root.querySelectorAll('.vega-embed')].some((e) => !e.querySelector('canvas, svg'))) return null;
    const hosts = [...root.querySelectorAll('*')].filter((e) => e.shadowRoot);
    if (hosts.some((h) => h.shadowRoot.querySelector('.pc:not([data-drawn]), .knn:not([data-drawn]), '
                                                   + '.tree-player:not([data-drawn])'))) return null;
    const parts = root.querySelectorAll('.vega-embed, iframe, canvas, img, [data-testid^="stBidiComponent"], '
                                        + '[data-testid="stGraphVizChart"], [data-testid="stSidebarUserContent"]');
    return [...parts].map((e) => { const r = e.getBoundingClientRect();
      return [r.x, r.y, r.width, r.height].map(Math.round).join(','); }).join(';');
  };
  let last = null, since = performance.now();
  while (performance.now() - started < limit) {
    const now = layout();
    if (now === null || now !== last) { last = now; since = performance.now(); }
    else if (performance.now() - since >= still) return true;
    await sleep(50);
  }
  return false;
}"""


def wait_for_layout(page, still_ms: float = 300, limit_ms: float = 10_000) -> bool:
    """After ``wait_for_app``: wait until the figures are drawn and have stopped moving (charts
    and players lay themselves out after the script ends), at most ``limit_ms``; whether they
    settled."""
    return evaluate_with_timeout(
        page, SETTLED_JS, [still_ms, limit_ms], ms=limit_ms + 5000, what="the figures to settle"
    )


def evaluate_with_timeout(target, js: str, arg=None, ms: float = 20_000, what: str = "the promise"):
    """``target.evaluate(js, arg)`` (a page or a locator) for a ``js`` that returns a promise, raced
    against a timer inside the page: after ``ms`` it rejects with a message naming ``what``.

    Playwright's ``evaluate`` has no timeout of its own: a promise that never settles (a
    requestAnimationFrame loop on a loaded machine, a condition never met) would hang the test.
    """
    wrapper = f"""(a, b) => Promise.race([
        Promise.resolve(({js})(a, b)),
        new Promise((_, reject) => setTimeout(
            () => reject(new Error({json.dumps(f"timed out after {ms:.0f} ms waiting for {what}")})), {ms})),
    ])"""
    return target.evaluate(wrapper, arg)


PLAYER_ORIGIN = "http://player.invalid"  # pages served by the test itself: nothing leaves the machine


def serve_alone(page, files: dict[str, tuple[str, str]], ready: str) -> None:
    """Serve ``files`` ({path: (content type, body)}) at PLAYER_ORIGIN to ``page``, open "/" and
    wait (bounded) until the page's module has set ``window[ready]``: a player tried without the app."""

    def serve(route):
        kind, body = files[route.request.url.removeprefix(PLAYER_ORIGIN)]
        route.fulfill(status=200, content_type=kind, body=body)

    page.route(f"{PLAYER_ORIGIN}/**", serve)
    page.goto(f"{PLAYER_ORIGIN}/")
    evaluate_with_timeout(
        page,
        "(name) => new Promise((done) => { const t = setInterval(() => { if (window[name]) { clearInterval(t); done(); } }, 20); })",
        ready,
        what="the player's module to load",
    )


def assert_no_exception_box(page) -> None:
    """Fail if Streamlit shows an exception box anywhere on the page."""
    boxes = page.locator('[data-testid="stException"]')
    assert boxes.count() == 0, boxes.first.inner_text()


def screenshot(page, name: str) -> Path:
    """Save a full-page screenshot to tests/artifacts/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
