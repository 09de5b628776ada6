"""A classroom on one server (issue 16): concurrent browser sessions working every page.

On demand, not in CI: ``python tests/load/run_load.py [--sessions 30] [--seconds 120]``.

One Streamlit server on 127.0.0.1 (tests/load/timed_server.py, which logs the duration of every
script run); one Chromium with a context per session. Each session visits every page of the
app in turn (starting at a different one) and works its controls: a slider nudged with the
arrow keys, a checkbox or toggle clicked, a number input stepped, a menu option chosen, a button
pressed ("New points", a "Try this" set-up). It stops by itself after
``--seconds`` (plus the interaction under way; a page that does not load within
``--page-timeout`` counts as an error), then the browser closes and the server's memory is
watched for ``--settle`` seconds more. Requests to any other host are aborted and counted.

Reported: errors (exception boxes, timeouts, requests elsewhere, "Uncaught app execution" in the
server log), server-side script time per run (p50/p95/max, per page), browser time per page
load and per interaction (p50/p95), server RSS fresh, at peak and after the settle time. The
figures go to stdout and to tests/artifacts/load.json, with issue 16's goals and whether each is
met (the exit code is 1 when one is not).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
DONE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
RUNNING = '[data-testid="stApp"][data-test-script-state="running"]'
PAGES = [
    "" if name == "home" else name
    for name in re.findall(r'st\.Page\(\s*"pages/([\w-]+)\.py"', (ROOT / "app.py").read_text())
]


def percentile(values: list[float], q: float) -> float | None:
    """The q-th percentile (0–100) by nearest rank, or None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Sampler(threading.Thread):
    """Samples the server's RSS and open files twice a second; remembers the peaks."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.files, self.stopped = pid, 0.0, 0, threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            try:
                self.peak = max(self.peak, rss_mb(self.pid))
                self.files = max(self.files, len(os.listdir(f"/proc/{self.pid}/fd")))
            except OSError:
                return
            self.stopped.wait(0.5)


def start_server(run_log: Path) -> tuple[subprocess.Popen, str, Path]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    log = Path(tempfile.mkstemp(prefix="classic-load-", suffix=".log")[1])
    command = [
        sys.executable,
        str(ROOT / "tests" / "load" / "timed_server.py"),
        "--server.headless=true",
        f"--server.port={port}",
        "--server.address=127.0.0.1",
        "--browser.gatherUsageStats=false",
        "--server.fileWatcherType=none",
    ]
    env = {**os.environ, "CLASSIC_RUN_LOG": str(run_log)}
    # The app's own folder (its .streamlit/config.toml): this checkout's, or $CLASSIC_APP_ROOT's.
    cwd = os.environ.get("CLASSIC_APP_ROOT") or ROOT
    process = subprocess.Popen(command, cwd=cwd, stdout=log.open("w"), stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return process, url, log
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(log.read_text()[-2000:]) from None
            time.sleep(0.5)
    process.kill()
    raise RuntimeError("the server did not start within 120 s")


async def _rerun_done(page, timeout_ms: float) -> bool:
    """Wait for a rerun to start (up to 2 s) and finish; False when none started."""
    try:
        await page.wait_for_selector(RUNNING, timeout=2000)
    except Exception:
        return False
    await page.wait_for_selector(DONE, timeout=timeout_ms)
    return True


async def work_a_control(page, rng: random.Random, timeout_ms: float) -> tuple[str, float] | None:
    """Nudge one random control as a student would; the time until the rerun is done."""
    kinds = {
        "slider": page.locator('[data-testid="stSlider"] input[type="range"]'),
        "checkbox": page.locator('[data-testid="stCheckbox"] label, [data-testid="stToggle"] label'),
        "number": page.locator('[data-testid="stNumberInputStepUp"]'),
        "select": page.locator('[data-testid="stSelectbox"] [role="combobox"]'),
        "button": page.locator('[data-testid="stButton"] button:not([disabled])'),  # New points, Set up
    }
    counts = {kind: await locator.count() for kind, locator in kinds.items()}
    choices = [kind for kind, count in counts.items() if count]
    if not choices:
        return None
    kind = rng.choice(choices)
    target = kinds[kind].nth(rng.randrange(counts[kind]))
    if not await target.is_visible():
        return None
    started = time.perf_counter()
    if kind == "slider":
        await target.focus()
        await page.keyboard.press(rng.choice(["ArrowRight", "ArrowLeft"]))
    elif kind == "select":
        await target.click()
        options = page.locator('[role="option"]')
        try:
            await options.first.wait_for(timeout=5000)
        except Exception:  # noqa: BLE001 (the menu did not open: nothing was changed)
            await page.keyboard.press("Escape")
            return None
        await options.nth(rng.randrange(await options.count())).click()
    else:
        await target.click()
    if not await _rerun_done(page, timeout_ms):
        return None
    return kind, time.perf_counter() - started


async def session(number: int, browser, base: str, args, stats: dict) -> None:
    rng = random.Random(number)
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    own = urlsplit(base).netloc

    async def guard(route):
        parts = urlsplit(route.request.url)
        if parts.scheme in ("data", "blob", "about") or parts.netloc == own:
            await route.continue_()
        else:
            stats["outside"].append(route.request.url)
            await route.abort()

    await context.route("**/*", guard)
    page = await context.new_page()
    deadline = time.monotonic() + args.seconds
    timeout_ms = args.page_timeout * 1000
    order = PAGES[number % len(PAGES) :] + PAGES[: number % len(PAGES)]
    try:
        while time.monotonic() < deadline:
            for path in order:
                if time.monotonic() >= deadline:
                    break
                started = time.perf_counter()
                try:
                    await page.goto(f"{base}/{path}", timeout=timeout_ms)
                    await page.wait_for_selector(DONE, timeout=timeout_ms)
                    stats["loads"].append((path or "home", time.perf_counter() - started))
                    for _ in range(args.controls):
                        done = await work_a_control(page, rng, timeout_ms)
                        if done:
                            stats["interactions"].append((path or "home", *done))
                    boxes = await page.locator('[data-testid="stException"]').count()
                    if boxes:
                        stats["errors"].append(f"session {number} /{path}: {boxes} exception box(es)")
                except Exception as error:  # a timeout: the page did not load or answer in time
                    stats["errors"].append(f"session {number} /{path}: {type(error).__name__}: {error}"[:200])
    finally:
        await context.close()


async def drive(base: str, args, stats: dict) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS
        )
        try:
            await asyncio.wait_for(
                asyncio.gather(*(session(i, browser, base, args, stats) for i in range(args.sessions))),
                timeout=args.seconds + 2 * args.page_timeout + 60,
            )
        finally:
            await browser.close()


def summarise(stats: dict, runs: list[dict], rss: dict, server_log: str, args) -> dict:
    started = stats["started"]
    during = [r for r in runs if started <= r["t"] <= stats["ended"]]
    by_page: dict[str, list[float]] = {}
    for record in during:
        by_page.setdefault(record["page"], []).append(record["s"])
    seconds = [r["s"] for r in during]
    cpu = [r["cpu"] for r in during]
    loads = [s for _, s in stats["loads"]]
    interactions = [s for *_, s in stats["interactions"]]
    uncaught = server_log.count("Uncaught app execution")
    return {
        "load_average_1min_at_end": round(os.getloadavg()[0], 1),
        "sessions": args.sessions,
        "seconds": args.seconds,
        "errors": len(stats["errors"]) + len(stats["outside"]) + uncaught,
        "error_samples": stats["errors"][:10],
        "requests_elsewhere": stats["outside"][:10],
        "uncaught_exceptions_in_server_log": uncaught,
        "server_log_first_exception": server_log[server_log.find("Uncaught app execution") :][:2000]
        if uncaught
        else "",
        "server_runs": len(seconds),
        "server_run_p50_s": percentile(seconds, 50),
        "server_run_p95_s": percentile(seconds, 95),
        "server_run_max_s": max(seconds, default=None),
        "server_run_cpu_p50_s": percentile(cpu, 50),
        "server_run_cpu_p95_s": percentile(cpu, 95),
        "server_run_by_page": {
            page: {"runs": len(v), "p50": percentile(v, 50), "p95": percentile(v, 95)}
            for page, v in by_page.items()
        },
        "page_loads": len(loads),
        "browser_load_p50_s": percentile(loads, 50),
        "browser_load_p95_s": percentile(loads, 95),
        "interactions": len(interactions),
        "browser_interaction_p50_s": percentile(interactions, 50),
        "browser_interaction_p95_s": percentile(interactions, 95),
        **rss,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=120, help="how long each session works")
    parser.add_argument("--controls", type=int, default=3, help="controls worked per page visit")
    parser.add_argument("--page-timeout", type=float, default=240)
    parser.add_argument("--settle", type=float, default=90, help="seconds to watch memory after close")
    parser.add_argument("--rss-goal-mb", type=float, default=1500, help="issue 16: peak RSS")
    parser.add_argument("--p95-goal-s", type=float, default=1.0, help="issue 16: server p95 per run")
    args = parser.parse_args(argv)
    if not 1 <= args.sessions <= 60 or not 0 < args.seconds <= 600:
        parser.error("bounded: 1–60 sessions, at most 600 s")

    run_log = Path(tempfile.mkstemp(prefix="classic-runs-", suffix=".jsonl")[1])
    process, base, server_log = start_server(run_log)
    sampler = Sampler(process.pid)
    try:
        time.sleep(3)
        rss = {"rss_fresh_mb": round(rss_mb(process.pid), 1)}
        sampler.start()
        stats = {"loads": [], "interactions": [], "errors": [], "outside": [], "started": time.time()}
        asyncio.run(drive(base, args, stats))
        stats["ended"] = time.time()
        rss["rss_at_close_mb"] = round(rss_mb(process.pid), 1)
        time.sleep(args.settle)
        rss["rss_peak_mb"] = round(sampler.peak, 1)
        rss[f"rss_{int(args.settle)}s_after_close_mb"] = round(rss_mb(process.pid), 1)
    finally:
        sampler.stopped.set()
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
    runs = [json.loads(line) for line in run_log.read_text().splitlines() if line.strip()]
    summary = summarise(stats, runs, rss, server_log.read_text(errors="replace"), args)
    run_log.unlink(missing_ok=True)
    server_log.unlink(missing_ok=True)
    settled = summary[f"rss_{int(args.settle)}s_after_close_mb"]
    summary["goals"] = {
        "0 errors": summary["errors"] == 0,
        # The server's own work (CPU time of the script's thread): wall time here also counts the
        # browsers, which share this machine's cores but run on the students' machines in a class.
        f"server p95 per run <= {args.p95_goal_s} s (CPU)": (summary["server_run_cpu_p95_s"] or 0)
        <= args.p95_goal_s,
        f"peak RSS <= {args.rss_goal_mb:.0f} MB": summary["rss_peak_mb"] <= args.rss_goal_mb,
        # Back to the fresh server plus what the bounded caches hold (the rest is returned).
        "memory returned after close (MB above fresh)": round(settled - summary["rss_fresh_mb"], 1),
    }
    out = ROOT / "tests" / "artifacts" / "load.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary, indent=1))
    met = [value for value in summary["goals"].values() if isinstance(value, bool)]
    return 0 if all(met) else 1


if __name__ == "__main__":
    sys.exit(main())
