"""Benchmark: how fast the app answers (issue 12), on the server and in the browser. On demand.

``python tests/benchmarks/bench_app.py [--repeat 12] [--only knn]``

Server: AppTest, the time of ``.run()`` after each interaction (the script's work alone), on the
clock and in CPU time of the process (``time.process_time``: on a loaded machine the clock
measures the load; the CPU column is the one to compare between two versions, run alternately).
Browser: Chromium against a server on 127.0.0.1 (tests/load/timed_server.py), from the key
press or mouse-up until the script is done and every image on the page has loaded; the same
server's own time per run is read from its run log ("server in browser run"). First render: a
fresh server per page, from navigation until the script is done and the images are loaded.
Sliders and switches alternate between two values (k and k + 1, on and off), as a teacher
scrubbing back and forth does; "new points" takes a new seed each time (nothing cached). Prints medians and p95 in a table, beside issue 12's goal (server ≤ 150 ms, browser
≤ 300 ms median; first render ≤ 2 s).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

os.environ.setdefault("OMP_WAIT_POLICY", "passive")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "load")]

import numpy as np  # noqa: E402
from conftest import CHROMIUM, CHROMIUM_FLAGS  # noqa: E402
from run_load import start_server  # noqa: E402

# The app the server rows time: this checkout, or another one with ``--root`` (or
# $CLASSIC_BENCH_ROOT), so that one copy of this script times two versions alternately. conftest
# put this checkout first on the path; the app's own folder goes in front of it here.
APP_ROOT = ROOT


def use_app_root(root: Path) -> None:
    """Make ``root``'s app.py, classic and pages the ones imported and run (before any is imported)."""
    global APP_ROOT
    APP_ROOT = root.resolve()
    stale = [name for name in sys.modules if name.split(".")[0] in ("classic", "pages")]
    if stale:
        raise RuntimeError(f"imported before --root was applied: {stale[:5]}")
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT.resolve()]
    sys.path.insert(0, str(APP_ROOT))


def open_page(name: str, timeout: float = 60, params: dict | None = None, try_this: bool = True):
    """conftest.open_page, on APP_ROOT's app.py."""
    from streamlit import config
    from streamlit.testing.v1 import AppTest

    os.chdir(APP_ROOT)
    config.set_option("client.showErrorDetails", "full")
    at = AppTest.from_file(str(APP_ROOT / "app.py"), default_timeout=timeout)
    for key, value in (params or {}).items():
        at.query_params[key] = value
    at.run()
    if try_this:
        at.session_state["try_this"] = True
    at.switch_page(f"pages/{name}.py")
    at.run()
    return at


def share_script_cache() -> None:
    """One ScriptCache for every AppTest run, as a server keeps one for all its sessions: AppTest
    makes a new one a run (streamlit/testing/v1), so each rerun parses, transforms (magic) and
    compiles app.py and the page again."""
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache
    from streamlit.testing.v1 import app_test, local_script_runner

    shared = ScriptCache()
    app_test.ScriptCache = local_script_runner.ScriptCache = lambda: shared


def where_from() -> str:
    """Which files the runs really used: app.py and the folders the loaded classic and pages
    modules came from (``classic.viz.knn`` in <root>/classic/viz/knn.py: three levels up)."""
    folders = set()
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None)
        if name.split(".")[0] in ("classic", "pages") and file:
            up = len(name.split(".")) - (0 if file.endswith("__init__.py") else 1)
            folders.add(str(Path(file).resolve().parents[up]))
    folders = sorted(folders)
    return f"app {APP_ROOT / 'app.py'}; classic/pages modules from {folders}"


DONE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
# Every script state the page passes through, in order (a rerun quicker than Playwright's polling
# would otherwise go unseen, and the wait for "running" would time out: 2 s counted for a 30 ms rerun).
STATES = """
window.__states = [];
new MutationObserver(records => {
  for (const r of records) {
    if (r.attributeName === 'data-test-script-state') window.__states.push(r.oldValue, r.target.getAttribute(r.attributeName));
  }
}).observe(document, {subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ['data-test-script-state']});
"""
FIRST_RUN_OVER = """() => { const s = window.__states.slice(SEEN), i = s.indexOf('running');
  return i >= 0 && s.slice(i + 1).includes('notRunning'); }"""
IMAGES_LOADED = "Array.from(document.images).every(image => image.complete)"


@dataclass
class Interaction:
    """One row of the table: a page, its setup (the link's parameters) and a control to work."""

    name: str
    page: str
    setup: dict[str, str]
    key: str
    kind: str  # "slider" (one step up, then down), "toggle", "number" (a new value each time)

    def apptest_step(self, at, n: int) -> None:
        """The n-th interaction in AppTest (alternating, so that every run changes something)."""
        if self.kind == "slider":
            widget = at.slider(key=self.key)
            widget.set_value(widget.value + widget.step if n % 2 == 0 else widget.value - widget.step)
        elif self.kind == "toggle":
            widgets = [w for w in [*at.toggle, *at.checkbox] if w.key == self.key]
            widgets[0].set_value(not widgets[0].value)
        else:
            at.number_input(key=self.key).increment()  # a seed never seen: nothing cached

    def browser_step(self, page, n: int) -> None:
        container = page.locator(f".st-key-{self.key}")
        if self.kind == "slider":
            container.locator('input[type="range"]').first.focus()
            page.keyboard.press("ArrowRight" if n % 2 == 0 else "ArrowLeft")
        elif self.kind == "toggle":
            container.locator("label").first.click()
        else:
            container.locator('[data-testid="stNumberInputStepUp"]').click()


VOTES = "1984 congressional votes"
INTERACTIONS = [
    Interaction("k-NN: k + 1 (n = 200)", "knn", {"knn_points": "200"}, "knn_k", "slider"),
    Interaction("k-NN: k + 1 (n = 1000)", "knn", {"knn_points": "1000"}, "knn_k", "slider"),
    Interaction("k-NN: new points (n = 1000)", "knn", {"knn_points": "1000"}, "knn_seed", "number"),
    Interaction("perceptron: max passes", "perceptron", {}, "pc_epochs", "slider"),
    Interaction("perceptron: shuffle", "perceptron", {}, "pc_shuffle", "toggle"),
    Interaction("tree depth on the votes", "decision-tree", {"tree_data": VOTES}, "tree_depth", "slider"),
    Interaction("digits: k + 1", "digits", {}, "digits_k", "slider"),
]


def stats(values: list[float]) -> tuple[float | None, float | None]:
    if not values:
        return None, None
    return float(np.median(values)), float(np.percentile(values, 95))


def server_times(item: Interaction, repeat: int) -> tuple[list[float], list[float]]:
    """The clock's and the CPU's seconds of each AppTest rerun after the first."""
    at = open_page(item.page, timeout=120, params=item.setup, try_this=False)  # as a page opens
    for key, value in item.setup.items():
        if str(at.session_state[key]) != value:
            raise RuntimeError(f"the link's {key}={value} was not taken (got {at.session_state[key]!r})")
    times, cpu = [], []
    for n in range(repeat + 1):
        item.apptest_step(at, n)
        started, cpu_started = time.perf_counter(), time.process_time()
        at.run()
        if n:  # the first is a warm-up
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
        if at.exception:
            raise RuntimeError(at.exception[0].message)
    return times, cpu


def _wait_done(page, seen: int | None = None, timeout_ms: float = 120_000) -> None:
    """Wait until the script is done and the images are loaded; with ``seen`` (the number of
    states recorded before the interaction), first until a run started after it."""
    if seen is not None:
        try:
            page.wait_for_function(f"window.__states.slice({seen}).includes('running')", timeout=2000)
        except Exception:
            pass  # no rerun at all
        else:  # the first run after the interaction is over (a player may start another at once)
            page.wait_for_function(FIRST_RUN_OVER.replace("SEEN", str(seen)), timeout=timeout_ms)
            page.wait_for_function(IMAGES_LOADED, timeout=timeout_ms)
            return
    page.wait_for_selector(DONE, timeout=timeout_ms)
    page.wait_for_function(IMAGES_LOADED, timeout=timeout_ms)


def _settle(page, quiet_s: float = 0.5) -> None:
    """Wait until no script run has started for ``quiet_s`` (a player's follow-up rerun, such as the
    k player asking for its full neighbour table after painting a preview, ends before the next step)."""
    for _ in range(40):
        seen = page.evaluate("window.__states.length")
        time.sleep(quiet_s)
        if page.evaluate("window.__states.length") == seen:
            break
    _wait_done(page)


def browser_times(context, base: str, run_log: Path, item: Interaction, repeat: int) -> tuple[list, list]:
    page = context.new_page()
    page.goto(f"{base}/{item.page}?{urlencode(item.setup)}")
    _wait_done(page)
    times, server = [], []
    for n in range(repeat + 1):
        mark = time.time()
        seen = page.evaluate("window.__states.length")
        started = time.perf_counter()
        item.browser_step(page, n)
        _wait_done(page, seen)
        elapsed = time.perf_counter() - started
        _settle(page)  # not timed
        if n:
            times.append(elapsed)
            runs = [json.loads(line) for line in run_log.read_text().splitlines() if line.strip()]
            server += [r["s"] for r in runs if r["t"] >= mark and r["page"] == item.page]
    page.close()
    return times, server


def first_renders(pages: list[str]) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    renders = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        for path in pages:
            run_log = Path(tempfile.mkstemp(suffix=".jsonl")[1])
            process, base, log = start_server(run_log)
            try:
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                started = time.perf_counter()
                page.goto(f"{base}/{path}")
                page.wait_for_selector(DONE, timeout=120_000)
                page.wait_for_function(IMAGES_LOADED, timeout=120_000)
                renders[path or "home"] = time.perf_counter() - started
                page.close()
            finally:
                process.terminate()
                process.wait(timeout=15)
                run_log.unlink(missing_ok=True)
                log.unlink(missing_ok=True)
        browser.close()
    return renders


def fmt(value: float | None) -> str:
    return "   —  " if value is None else f"{value * 1e3:6.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="app benchmark (issue 12)")
    parser.add_argument("--repeat", type=int, default=12)
    parser.add_argument(
        "--only",
        default="",
        help="run only the rows whose name contains this (or any of several, comma-separated)",
    )
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument(
        "--root",
        default=os.environ.get("CLASSIC_BENCH_ROOT", ""),
        help="time another checkout's app (its app.py, classic and pages); server rows only",
    )
    parser.add_argument(
        "--cached-scripts",
        action="store_true",
        help="compile app.py and the page once, as a server does (AppTest recompiles both on every "
        "run: a few ms a rerun that grow with the scripts' length, and no server pays)",
    )
    args = parser.parse_args(argv)
    if args.cached_scripts:
        share_script_cache()
    if args.root:
        use_app_root(Path(args.root))
        if not args.no_browser:
            parser.error("--root times the server rows only: add --no-browser")
    wanted = [part.strip().lower() for part in args.only.split(",")]  # "a,b": rows matching either
    rows = [item for item in INTERACTIONS if any(part in item.name.lower() for part in wanted)]
    results = {}
    for item in rows:
        try:
            times, cpu = server_times(item, args.repeat)
            results[item.name] = {"server": stats(times), "server_cpu": stats(cpu)}
        except Exception as error:  # a page that changed under the benchmark: report, go on
            results[item.name] = {
                "server": (None, None),
                "error": f"AppTest: {type(error).__name__}: {error}",
            }
    if not args.no_browser:
        from playwright.sync_api import sync_playwright

        run_log = Path(tempfile.mkstemp(suffix=".jsonl")[1])
        process, base, log = start_server(run_log)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
                )
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                context.add_init_script(STATES)
                for item in rows:
                    try:
                        times, server = browser_times(context, base, run_log, item, args.repeat)
                        results[item.name]["browser"] = stats(times)
                        results[item.name]["server_in_browser_run"] = stats(server)
                    except Exception as error:
                        results[item.name]["browser"] = (None, None)
                        results[item.name].setdefault(
                            "error", f"browser: {type(error).__name__}: {error}"[:200]
                        )
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=15)
            log.unlink(missing_ok=True)
            run_log.unlink(missing_ok=True)
    load = os.getloadavg()[0]
    print(f"\n{where_from()}")
    print(f"\nmilliseconds, {args.repeat} repetitions, load average {load:.1f} on {os.cpu_count()} CPUs")
    print("goal: server ≤ 150 median, browser ≤ 300 median")
    print(
        f"{'interaction':32} {'server med':>10} {'p95':>6} {'CPU med':>7} {'browser med':>11} {'p95':>6} {'srv in br':>9}"
    )
    for name, row in results.items():
        server, cpu = row["server"], row.get("server_cpu", (None, None))
        browser = row.get("browser", (None, None))
        inside = row.get("server_in_browser_run", (None, None))
        print(
            f"{name:32} {fmt(server[0]):>10} {fmt(server[1]):>6} {fmt(cpu[0]):>7} {fmt(browser[0]):>11} {fmt(browser[1]):>6} {fmt(inside[0]):>9}"
        )
        if "error" in row:
            print(f"{'':32} ! {row['error'][:150]}")
    if not args.no_browser and not args.only:
        import re

        names = re.findall(r'st\.Page\(\s*"pages/([\w-]+)\.py"', (ROOT / "app.py").read_text())
        renders = first_renders(["" if name == "home" else name for name in names])
        print(
            "\nfirst render on a fresh server (goal ≤ 2 s): "
            + " · ".join(f"{p} {s:.1f} s" for p, s in renders.items())
        )
        results["first_render_s"] = renders
    results["app"] = where_from()
    out = ROOT / "tests" / "artifacts" / "bench_app.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
