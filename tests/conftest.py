"""Shared test fixtures: data location, Streamlit AppTest, and a real browser.

Browser tests drive Debian's Chromium through Playwright. Without Chromium or Playwright they
are skipped, unless ``REQUIRE_BROWSER=1`` (as in CI), where a missing browser is a failure.
Each browser test module gets a fresh Streamlit server (fixture ``server``), so the module's
first request is also the server's first: a deep link as the very first request is tested for
every page.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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


def start_server(timeout: float = 60, warm: bool = False) -> tuple[subprocess.Popen, str]:
    """Start ``streamlit run app.py`` on a free port; return the process and its base URL.

    ``warm``: the server's warm start (pages/_ui/shared.py), as deployed; off by default, since
    every browser test module starts its own server and the warm start costs each one seconds.
    """
    port = _free_port()
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
    env = {**os.environ, "CLASSIC_WARM_START": "1" if warm else "0"}
    process = subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    process.log_path = log.name  # read on failure, removed by stop_server
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"streamlit exited: {Path(log.name).read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return process, url
        except OSError:
            time.sleep(0.3)
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


@contextmanager
def chromium_context() -> Iterator:
    """Debian's Chromium through Playwright, on a fresh temporary profile."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="classic-chromium-")
    try:
        with sync_playwright() as playwright:
            context = playwright.chromium.launch_persistent_context(
                profile,
                executable_path=CHROMIUM,
                headless=True,
                args=CHROMIUM_FLAGS,
                viewport={"width": 1400, "height": 1000},
            )
            context.set_default_timeout(30_000)
            yield context
            context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A fresh Streamlit server for this test module; yields its base URL."""
    require_browser()
    process, url = start_server()
    yield url
    stop_server(process)


@pytest.fixture(scope="module")
def browser_context(server: str) -> Iterator:
    """A Chromium context on a fresh temporary profile (one per test module)."""
    with chromium_context() as context:
        yield context


@pytest.fixture
def browser_page(browser_context):
    """A new browser tab; closed after the test."""
    page = browser_context.new_page()
    yield page
    page.close()


def wait_for_app(page, timeout: float = 60_000) -> None:
    """Wait until Streamlit has finished running the script (its stApp says ``notRunning``).

    After an interaction, wait for the content you expect instead: the rerun may not have
    started yet when this is called.
    """
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout)
    page.wait_for_timeout(300)


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
