"""A seeded random walk through every page in Chromium, in normal and presentation mode.

From a seeded ``random.Random`` the walk picks an action after another: a click or a drag
anywhere on a figure, a map, a player or the drawing canvas (positions are fractions of the
element's box, so a seed replays the same walk), a key (arrows, space, Home, End, PageUp/Down),
a slider, a select box's option, a checkbox, a number input's step, a tab, an expander, a
button ("Try this" setups among them), back, forward or reload. After each action it waits
until the app is idle (a bounded wait) and checks that

- no exception box is on the page and the server logged no traceback,
- the page raised no JavaScript error (a player's script),
- no "Some settings in this link could not be used" note shows: no action of the walk puts a
  bad value in the URL, so every value there is the app's own.

The pages come from app.py's navigation. CI walks ``WALK_STEPS`` actions (50) a page and mode
with seed ``WALK_SEED`` (1). On demand, thousands of actions and other seeds::

    WALK_SEED=7 WALK_STEPS=1000 python3 -m pytest tests/browser/test_walk.py
    WALK_SEED=1,2,3 WALK_PAGES=knn,decision-tree WALK_MODES=present python3 -m pytest tests/browser/test_walk.py

A failure names the seed, the page, the mode, the step and the actions up to it (the command
that replays it), and saves tests/artifacts/screenshots/walk-<page>-<mode>-<seed>-<step>.png.
``WALK_VERBOSE=1`` (with ``-s``) prints every walk's actions.
"""

from __future__ import annotations

import os
import random
import signal
import time
from dataclasses import dataclass, field

import pytest
from conftest import (
    ROOT,
    SCREENSHOTS,
    app_pages,
    evaluate_with_timeout,
    new_context,
    start_server,
    stop_server,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]
# Each page and mode is a walk of its own: pytest-xdist spreads them over its workers, each with
# its own server and browser context (conftest.py).
XDIST_SPREAD = True

SEEDS = [int(s) for s in os.environ.get("WALK_SEED", "1").split(",") if s.strip()]
STEPS = int(os.environ.get("WALK_STEPS", "50"))
MODES = [m for m in os.environ.get("WALK_MODES", "normal,present").split(",") if m.strip()]
IDLE_MS = 90_000  # the longest a rerun may take on a loaded 2-core machine before it is a hang
NOTE = "could not be used"


PAGES = [
    page.path
    for page in app_pages()
    if not os.environ.get("WALK_PAGES") or page.path in os.environ["WALK_PAGES"].split(",")
]

# Where the walk acts: the page's own content and the sidebar's settings (not the page links).
SCOPES = ['[data-testid="stMain"]', '[data-testid="stSidebarUserContent"]']
TARGETS = {
    # Figures, maps, players and the drawing canvas: clicked and dragged anywhere in their box.
    "figure": ", ".join(
        f"{scope} {sel}"
        for scope in SCOPES
        for sel in (
            '[data-testid="stBidiComponentIsolated"]',
            '[data-testid="stVegaLiteChart"]',
            '[data-testid="stImage"]',
            '[data-testid="stDataFrame"]',
            "iframe",
        )
    ),
    # Buttons inside the players (Play, steps, zoom, PNG), reached through their shadow roots.
    "player button": '[data-testid="stBidiComponentIsolated"] button',
    "button": ", ".join(f'{scope} [data-testid="stButton"] button' for scope in SCOPES),
    "tab": '[data-testid="stMain"] [data-testid="stTab"]',
    "expander": '[data-testid="stMain"] [data-testid="stExpander"] summary',
    "slider": ", ".join(
        f'{scope} [data-testid="stSlider"] [role="group"] > div[data-orientation]' for scope in SCOPES
    ),
    "select": ", ".join(f'{scope} [data-testid="stSelectbox"]' for scope in SCOPES),
    "checkbox": ", ".join(f'{scope} [data-testid="stCheckbox"] label' for scope in SCOPES),
    "choice": ", ".join(
        f"{scope} {sel}"
        for scope in SCOPES
        for sel in ('[data-testid="stRadio"] label', '[data-testid="stButtonGroup"] button')
    ),
    "step": ", ".join(
        f'{scope} [data-testid="{sel}"]'
        for scope in SCOPES
        for sel in ("stNumberInputStepUp", "stNumberInputStepDown")
    ),
}
# How often each kind of action comes (figures and players most: that is where students click).
WEIGHTS = {
    "click figure": 14,
    "drag figure": 7,
    "player button": 8,
    "key": 10,
    "button": 5,
    "tab": 6,
    "expander": 3,
    "slider": 7,
    "select": 5,
    "checkbox": 3,
    "choice": 3,
    "step": 3,
    "back": 2,
    "forward": 1,
    "reload": 1,
}
# Injected before the app's own scripts: notes when the page last sent Streamlit a message (a
# rerun asked for: a widget, a player's report) and whether the server has answered since.
WATCH_JS = """(() => {
  const watch = (window.__walk = {sent: 0, lastSend: -1e9, answered: true, lastMessage: -1e9, heard: 0, sockets: 0});
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (String(this.url).includes('/_stcore/stream')) {
      if (!this.__walkHeard) {
        this.__walkHeard = true;
        watch.sockets += 1;
        this.addEventListener('message', () => { watch.answered = true; watch.lastMessage = performance.now(); watch.heard += 1; });
      }
      watch.sent += 1; watch.lastSend = performance.now(); watch.answered = false;
    }
    return send.call(this, data);
  };
})();"""
# Waits until the app is idle, then reads the exception box's text and the link note's text (or
# null): idle is Streamlit's script not running, every message the page sent answered (a send
# the server leaves unanswered counts as answered after ``unanswered`` ms) and no message from
# the server for 40 ms. Polled in the page, so that an action that asks for no rerun costs a
# few milliseconds, not a fixed sleep. Returns null after ``limit`` ms.
IDLE_CHECK_JS = """async ([note, limit, unanswered]) => {
  const started = performance.now(), sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  await sleep(10);  // the action's own handlers run first (a click's send is synchronous)
  while (performance.now() - started < limit) {
    const app = document.querySelector('[data-testid="stApp"]'), w = window.__walk, now = performance.now();
    const waiting = w && !w.answered && now - w.lastSend < unanswered;
    if (app && app.getAttribute('data-test-script-state') === 'notRunning' && !waiting
        && (!w || now - w.lastMessage > 40)) {
      const box = document.querySelector('[data-testid="stException"]');
      const notes = [...document.querySelectorAll('[data-testid="stAlertContainer"]')]
        .filter((e) => e.innerText.includes(note));
      return [box ? box.innerText.slice(0, 1500) : null, notes.length ? notes[0].innerText.slice(0, 500) : null];
    }
    await sleep(20);
  }
  return null;
}"""
# A visible element among ``elements`` (those a selector matches, shadow roots included) chosen
# by ``share`` in [0, 1), scrolled into view; its box in the viewport, or null if none is shown.
PICK_JS = """(elements, share) => {
  const shown = elements.filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width >= 2 && r.height >= 2 && e.checkVisibility({visibilityProperty: true});
  });
  if (!shown.length) return [elements.length, 0, -1, null];
  const index = Math.min(Math.floor(share * shown.length), shown.length - 1);
  shown[index].scrollIntoView({block: 'nearest', inline: 'nearest', behavior: 'instant'});
  const r = shown[index].getBoundingClientRect();
  return [elements.length, shown.length, index, {x: r.x, y: r.y, width: r.width, height: r.height}];
}"""
# What a page that stays busy is doing, for the failure message: Streamlit's script state, the
# status widget's text, and the traffic the watch above counted over the last two seconds.
BUSY_STATE_JS = """async () => {
  const w = window.__walk || {}, app = document.querySelector('[data-testid="stApp"]');
  const sent = w.sent, heard = w.heard;
  await new Promise((r) => setTimeout(r, 2000));
  const status = document.querySelector('[data-testid="stStatusWidget"]');
  const now = performance.now();
  return {script: app && app.getAttribute('data-test-script-state'),
          connection: app && app.getAttribute('data-test-connection-state'),
          status: status ? status.innerText.slice(0, 80) : null,
          sent_2s: w.sent - sent, heard_2s: w.heard - heard, sockets: w.sockets,
          answered: w.answered, ms_since_send: Math.round(now - w.lastSend), ms_since_message: Math.round(now - w.lastMessage)};
}"""
UNANSWERED_MS = 2000  # a message the server never answers (none known) holds the walk this long
KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", " ", "Home", "End", "PageUp", "PageDown"]


class WalkFailure(AssertionError):
    pass


@dataclass
class Walk:
    page: object
    base: str
    log_path: str
    rng: random.Random
    server_pid: int
    actions: list[str] = field(default_factory=list)
    js_errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)  # the page's last console errors, for a busy report
    log_offset: int = 0
    times: list[tuple[float, float]] = field(default_factory=list)
    spent: dict[str, float] = field(default_factory=lambda: dict.fromkeys(("act", "idle and checks"), 0.0))

    # --- helpers -----------------------------------------------------------------------------
    def fraction(self) -> float:
        return round(self.rng.uniform(0.03, 0.97), 3)

    def pick(self, selector: str):
        """A visible element matching ``selector`` chosen by the seed, scrolled into view: its box
        and a label, or None. Elements hidden (another tab, a folded expander) are not candidates.

        One draw from the seed whatever the page shows, so that an element not drawn yet (timing)
        changes this action only, never the rest of the walk's choices.
        """
        share = self.rng.random()
        found, shown, index, box = self.page.locator(selector).evaluate_all(PICK_JS, share)
        if box is None:
            return None, f" (none of {found} shown)"
        return box, f"#{index}/{shown}"

    def at(self, box: dict, fx: float, fy: float) -> tuple[float, float]:
        return box["x"] + fx * box["width"], box["y"] + fy * box["height"]

    # --- actions -----------------------------------------------------------------------------
    def act(self) -> str:
        kind = self.rng.choices(list(WEIGHTS), weights=list(WEIGHTS.values()))[0]
        page, mouse = self.page, self.page.mouse
        if kind in ("click figure", "drag figure"):
            box, which = self.pick(TARGETS["figure"])
            fx, fy = self.fraction(), self.fraction()
            if kind == "click figure":
                if box:
                    mouse.click(*self.at(box, fx, fy))
                return f"click figure{which} at ({fx}, {fy})"
            gx, gy = self.fraction(), self.fraction()
            if box:
                mouse.move(*self.at(box, fx, fy))
                mouse.down()
                for i in range(1, 6):
                    mouse.move(*self.at(box, fx + (gx - fx) * i / 5, fy + (gy - fy) * i / 5))
                mouse.up()
            return f"drag figure{which} ({fx}, {fy}) → ({gx}, {gy})"
        if kind == "key":
            key = self.rng.choice(KEYS)
            page.keyboard.press(key)
            return f"key {key!r}"
        if kind in ("back", "forward", "reload"):
            if kind == "reload":
                page.reload(wait_until="domcontentloaded")
            else:
                (page.go_back if kind == "back" else page.go_forward)(wait_until="domcontentloaded")
                if not page.url.startswith(self.base):  # back past the first page: return to the app
                    page.go_forward(wait_until="domcontentloaded")
                    return f"{kind} (left the app: forward again)"
            return kind
        if kind == "slider":
            box, which = self.pick(TARGETS["slider"])
            key, times = (
                self.rng.choice(["ArrowLeft", "ArrowRight", "Home", "End", "PageUp"]),
                self.rng.randint(1, 4),
            )
            fx = self.fraction()
            if box:  # a click on the track moves the thumb there; then keys move it on
                mouse.click(*self.at(box, fx, 0.5))
                for _ in range(times):
                    page.keyboard.press(key)
            return f"slider{which} at {fx}, {key} ×{times}"
        if kind == "select":
            box, which = self.pick(TARGETS["select"])
            choice = self.rng.random()
            if not box:
                return f"select{which}"
            mouse.click(*self.at(box, 0.5, 0.75))
            options = page.get_by_role("option")
            try:
                options.first.wait_for(timeout=3000)
                n = options.count()
                index = min(int(choice * n), n - 1)
                options.nth(index).click(timeout=3000)
                return f"select{which} option {index}/{n}"
            except Exception:
                page.keyboard.press("Escape")
                return f"select{which} (no options)"
        # Everything else: a click in the middle of a control chosen by the seed.
        box, which = self.pick(TARGETS[kind])
        if box:
            mouse.click(*self.at(box, 0.5, 0.5))
        return f"{kind}{which}"

    # --- checks ------------------------------------------------------------------------------
    def idle_check(self) -> tuple[str | None, str | None] | None:
        """Wait until the app is idle, at most ``IDLE_MS``: the exception box's and the link note's
        texts (or None each); None if the app was not idle in time."""
        for attempt in range(3):
            try:
                found = evaluate_with_timeout(
                    self.page, IDLE_CHECK_JS, [NOTE, IDLE_MS, UNANSWERED_MS], ms=IDLE_MS + 5000, what="idle"
                )
                break
            except Exception as error:  # a navigation (back, reload) replaced the page mid-wait
                if attempt == 2 or "context was destroyed" not in str(error):
                    raise
                self.page.wait_for_load_state("domcontentloaded")
        return None if found is None else (found[0], found[1])

    def busy_state(self) -> str:
        """What the page and the server were doing while the page stayed busy: the page's state
        (``BUSY_STATE_JS``) and every server thread's stack (app.py dumps them on SIGUSR1)."""
        try:
            page = evaluate_with_timeout(self.page, BUSY_STATE_JS, ms=10_000, what="the page's state")
        except Exception as error:
            page = f"(not read: {str(error).splitlines()[0][:200]})"
        try:
            os.kill(self.server_pid, signal.SIGUSR1)
            time.sleep(1.0)
            # Idle pool threads waiting on their queue say nothing: the other stacks.
            threads = self.server_log().split("\n\n")
            stacks = "\n\n".join(
                t for t in threads if "in get\n" not in t or "scriptrunner" in t or str(ROOT) in t
            )[-12000:]
        except OSError as error:
            stacks = f"(the server is gone: {error})"
        console = "\n".join(self.console[-10:]) or "(none)"
        return f"the page: {page}\nits last console errors:\n{console}\nthe server's threads:\n{stacks}"

    def server_log(self) -> str:
        with open(self.log_path, encoding="utf-8", errors="replace") as log:
            log.seek(self.log_offset)
            text = log.read()
            self.log_offset = log.tell()
        return text

    def problems(self) -> list[str]:
        """Waits until the app is idle, then what is wrong on the page, in the log or the console."""
        found = []
        checked = self.idle_check()
        if checked is None:
            found.append(
                f"the app was still busy after {IDLE_MS / 1000:.0f} s (a hang?)\n{self.busy_state()}"
            )
        box, note = checked or (None, None)
        if box is not None:
            found.append(f"exception box: {box}")
        log = "" if checked is None else self.server_log()  # a busy page's log went into its report
        if "Traceback" in log or "Uncaught app" in log:
            found.append(f"server log: {log[-3000:]}")
        if self.js_errors:
            found.append(f"JavaScript errors: {self.js_errors}")
            self.js_errors.clear()
        if note is not None:
            found.append(f"a link note after the app's own writes: {note}")
        return found


def walk_once(context, base, log_path, path, mode, seed, steps, viewport, server_pid) -> str:
    """Walk ``steps`` actions on ``path``; return a summary, raise WalkFailure on a problem."""
    page = context.new_page()
    page.set_viewport_size(viewport)
    page.set_default_timeout(10_000)
    page.add_init_script(WATCH_JS)
    page.on("popup", lambda popup: popup.close())
    rng = random.Random(f"{seed}/{path}/{mode}")
    walk = Walk(page, base, log_path, rng, server_pid)
    page.on("pageerror", lambda error: walk.js_errors.append(str(error)[:500]))
    page.on("console", lambda message: message.type == "error" and walk.console.append(message.text[:300]))
    walk.server_log()  # start reading the log from here
    query = "?present=1" if mode == "present" else ""
    label = f"/{path} ({mode}) seed {seed}"
    started = time.monotonic()
    step = 0
    try:
        page.goto(f"{base}/{path}{query}")
        problems = walk.problems()
        while step < steps and not problems:
            step += 1
            t0 = time.monotonic()
            try:
                walk.actions.append(walk.act())
            except Exception as error:  # an element that went away mid-action: not the app's fault
                walk.actions.append(f"(action failed: {str(error).splitlines()[0][:120]})")
            t1 = time.monotonic()
            problems = walk.problems()  # waits until the app is idle first
            walk.spent["act"] += t1 - t0
            walk.spent["idle and checks"] += time.monotonic() - t1
            walk.times.append((t1 - t0, time.monotonic() - t1))
        if problems:
            shot = SCREENSHOTS / f"walk-{path or 'home'}-{mode}-{seed}-{step}.png"
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shot), full_page=True)
            replay = (
                f"WALK_SEED={seed} WALK_STEPS={step} WALK_PAGES={path} WALK_MODES={mode} "
                "python3 -m pytest tests/browser/test_walk.py"
            )
            listed = "\n".join(f"  {i}. {a}" for i, a in enumerate(walk.actions, 1))
            raise WalkFailure(
                f"walk {label}: step {step} of {steps} ({page.url}):\n"
                + "\n".join(problems)
                + f"\nactions:\n{listed}\nreplay: {replay}\nscreenshot: {shot}"
            )
    finally:
        page.close()
    spent = ", ".join(f"{part} {seconds:.1f} s" for part, seconds in walk.spent.items())
    summary = f"{label}: {steps} actions in {time.monotonic() - started:.1f} s ({spent})"
    if os.environ.get("WALK_VERBOSE"):
        summary += "".join(
            f"\n  {i}. {a} ({act:.2f} s + {idle:.2f} s)"
            for i, (a, (act, idle)) in enumerate(zip(walk.actions, walk.times, strict=False), 1)
        )
    return summary


@pytest.fixture(scope="module")
def walk_server(browser):
    """A server of its own whose log the walk reads after every action."""
    process, url = start_server()
    yield url, process.log_path, process.pid
    stop_server(process)


@pytest.fixture(scope="module")
def walk_context(browser, walk_server):
    with new_context(browser) as context:
        yield context


# The limit grows with the walk (an on-demand walk of thousands of actions is long, not hung):
# 5 s an action is several times the slowest rerun seen on a loaded machine.
@pytest.mark.timeout(max(300, 5 * STEPS * len(SEEDS)))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("path", PAGES)
def test_a_random_walk_finds_no_error(walk_server, walk_context, path, mode):
    base, log_path, pid = walk_server
    viewport = {"width": 1280, "height": 720} if mode == "present" else {"width": 1440, "height": 900}
    failures = []
    for seed in SEEDS:
        try:
            print(walk_once(walk_context, base, log_path, path, mode, seed, STEPS, viewport, pid))
        except WalkFailure as failure:
            failures.append(str(failure))
    assert not failures, "\n\n".join(failures)


def test_the_walk_covers_every_page_of_the_navigation():
    """The page list is app.py's and the lessons registry's: a lesson added is walked without
    editing this file."""
    from classic.lessons import LESSONS

    paths = [page.path for page in app_pages()]
    assert set(paths) >= {lesson.url_path for lesson in LESSONS}
    assert "" in paths and "knn" in paths and "join" in paths
