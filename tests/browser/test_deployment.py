"""The deployment recipe (docs/deploy/), run here as a school would run it (issue 32): Debian's
nginx in front (nginx-site.conf as it is in the repository, with this test's ports), two
``streamlit run app.py`` servers, one redis-server started with the recipe's redis.conf
(``appendonly yes``), all on free local ports.

A class round goes THROUGH THE PROXY: a teacher's projector (1280×720) and four phones (390×844,
touch; each a fresh browser, whose identity is in its own localStorage), two on each app server;
every answer is counted once. Then the app server without the teacher is stopped mid-round:
its phones' WebSockets reconnect by themselves, nginx sends them to the other server, and they
keep their answers (each still shows "Your answer: …", and a changed answer replaces its own
rather than adding one), then answer the next vote. Which server holds a tab's WebSocket is read
from the handshake itself (nginx's ``X-Classic-Upstream`` header, seen through Chromium's
DevTools protocol), and the fail-over time from Chromium's own clock.

The first test runs docs/deploy/run-local.sh, the recipe's start script, as someone trying it
would, and stops it. Without nginx the module is skipped, unless ``REQUIRE_BROWSER=1`` (as in CI).
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import NamedTuple

import pytest
from conftest import ROOT, _free_port, assert_no_exception_box, screenshot, start_server, stop_server
from redis_server import require_redis
from test_class_round import PHONE, PROJECTOR, Tabs, ask_step, open_tab, start_class, tap, until, wait_count
from test_deployment_checks import redis_with

from pages.classroom import room_store
from pages.server import deployment

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(300)]

NGINX = "/usr/sbin/nginx"
DEPLOY = ROOT / "docs" / "deploy"
PHONES_PER_SERVER = 2
UPSTREAM = "x-classic-upstream"  # nginx-site.conf: which app server answered


def require_nginx() -> None:
    if not Path(NGINX).exists():
        missing = f"{NGINX} is not installed (apt-get install nginx)"
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {missing}")
        pytest.skip(missing)


def get(url: str, cookie: str = "") -> tuple[int, dict[str, str]]:
    """A GET through the proxy: its status and headers (lower-case names; a repeated one's values
    a line each)."""
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        headers: dict[str, str] = {}
        for name, value in response.headers.items():
            headers[name.lower()] = "\n".join(filter(None, [headers.get(name.lower()), value]))
        return response.status, headers


def answers(url: str, seconds: float = 60) -> None:
    """Wait until ``url`` answers 200, at most ``seconds``."""
    until(lambda: _answers(url), f"{url} to answer", seconds)


def _answers(url: str) -> bool:
    try:
        return get(url)[0] == 200
    except OSError:
        return False


def site_conf(listen: int, apps: list[str]) -> str:
    """docs/deploy/nginx-site.conf with this test's ports: its ``listen`` (on 127.0.0.1 only) and
    its two upstream ``server`` lines (as docs/deploy/run-local.sh fills them in)."""
    text = (DEPLOY / "nginx-site.conf").read_text(encoding="utf-8")
    lines = re.findall(r"^    server 127\.0\.0\.1:\d+ .*$", text, flags=re.M)
    assert len(lines) == len(apps) == 2 and text.count("\n    listen 80;\n") == 1, "the recipe changed shape"
    for line, app in zip(lines, apps, strict=True):
        text = text.replace(line, re.sub(r"127\.0\.0\.1:\d+", app, line))
    return text.replace("\n    listen 80;\n", f"\n    listen 127.0.0.1:{listen};\n")


@contextmanager
def nginx(apps: list[str]) -> Iterator[tuple[str, Path]]:
    """Debian's nginx in the foreground, in a folder of its own (docs/deploy/nginx-local.conf and
    the site) on a free port, in front of ``apps`` (``host:port``); its URL and folder."""
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="classic-nginx-") as name:
        folder = Path(name)
        for part in ("logs", "tmp"):
            (folder / part).mkdir()
        for part in (folder, folder / "tmp"):
            os.chmod(part, 0o755)  # run as root, its workers are `nobody`
        (folder / "site.conf").write_text(site_conf(port, apps), encoding="utf-8")
        shutil.copy(DEPLOY / "nginx-local.conf", folder / "nginx.conf")
        command = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", "stderr"]
        checked = subprocess.run([*command, "-t", "-q"], capture_output=True, text=True, timeout=30)
        assert checked.returncode == 0, checked.stderr
        with (folder / "logs" / "stderr.log").open("w") as err:
            process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
        process.log_path = err.name  # for stop_server
        url = f"http://127.0.0.1:{port}"
        try:
            answers(f"{url}/_stcore/health", 30)
            yield url, folder
        finally:
            stop_server(process)


class Deployment(NamedTuple):
    proxy: str  # nginx's URL: every browser goes through it
    redis_url: str
    servers: dict[str, subprocess.Popen]  # "127.0.0.1:PORT" → its `streamlit run app.py`
    nginx: Path  # nginx's folder (its logs)
    low_soft: int  # the first server started under this soft limit on open files


@pytest.fixture(scope="module")
def deployed(browser) -> Iterator[Deployment]:
    """The recipe's set-up, for this module's class round: Redis (redis.conf), two app servers
    sharing it, nginx (nginx-site.conf) in front. The first app server starts under a soft limit
    of at most 1024 open files, as ``ulimit -n 1024`` leaves a shell."""
    require_nginx()
    with ExitStack() as stack:
        redis_url = stack.enter_context(redis_with(str(DEPLOY / "redis.conf")))
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        low = min(1024, hard // 2)
        servers = {}
        for first in (True, False):
            if first:
                resource.setrlimit(resource.RLIMIT_NOFILE, (low, hard))  # inherited by the server
            try:
                process, url = start_server(env={"CLASSIC_CLASS_STORE": redis_url})
            finally:
                resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
            stack.callback(stop_server, process)
            servers[url.removeprefix("http://")] = process
        proxy, folder = stack.enter_context(nginx(list(servers)))
        yield Deployment(proxy, redis_url, servers, folder, low)


def test_the_start_script_runs_the_recipe_and_stops_it_all():
    """docs/deploy/run-local.sh, as someone trying the recipe runs it (on free ports): Redis
    keeping the classes on disk, two app servers, nginx sending new browsers to both; SIGINT (a
    Ctrl-C) stops every process it started."""
    require_nginx()
    require_redis()
    ports = {"PORT": _free_port(), "REDIS_PORT": _free_port()}
    apps = [_free_port(), _free_port()]
    with tempfile.TemporaryDirectory(prefix="classic-run-local-") as run_dir:
        env = {**os.environ, **{k: str(v) for k, v in ports.items()}, "APP_PORTS": " ".join(map(str, apps)),
               "RUN_DIR": run_dir, "CLASSIC_WARM_START": "0", "WAIT": "90"}  # fmt: skip
        out = Path(run_dir) / "script.out"
        with out.open("w") as sink:
            script = subprocess.Popen(
                ["bash", str(DEPLOY / "run-local.sh")], env=env, stdout=sink, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        try:
            until(
                lambda: "== ready" in out.read_text() or script.poll() is not None,
                "the script to be ready",
                150,
            )
            assert script.poll() is None, out.read_text()
            proxy = f"http://127.0.0.1:{ports['PORT']}"
            landed = Counter(get(f"{proxy}/_stcore/health")[1][UPSTREAM] for _ in range(24))
            assert set(landed) == {f"127.0.0.1:{port}" for port in apps}, landed
            found = deployment.redis_persistence(f"redis://127.0.0.1:{ports['REDIS_PORT']}/0")
            assert found.aof is True and found.kept, found
        finally:
            os.killpg(script.pid, signal.SIGINT)  # Ctrl-C in its terminal: the whole group
            try:
                script.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(script.pid, signal.SIGKILL)
                raise
        text = out.read_text()
        assert "== stopping" in text, text
        for port in [*ports.values(), *apps]:  # nothing listens any more
            with socket.socket() as probe:
                assert probe.connect_ex(("127.0.0.1", port)) != 0, f"port {port} still open:\n{text}"


def open_files(pid: int) -> tuple[int, int]:
    """A process's soft and hard limits on open files (/proc/PID/limits)."""
    line = next(
        ln for ln in Path(f"/proc/{pid}/limits").read_text().splitlines() if ln.startswith("Max open files")
    )
    soft, hard = line.split()[3:5]
    return int(soft), int(hard)


def test_the_app_servers_ran_the_start_checks(deployed):
    """Each app server ran the start checks (pages/server/deployment.py): the first, started under
    a low soft limit on open files, has it at the hard limit and said so; neither warns of the
    Redis, which keeps the classes on disk."""
    first, second = deployed.servers.values()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    for process in (first, second):
        text = Path(process.log_path).read_text()
        assert "Class store:" not in text, text
    assert open_files(first.pid) == (hard, hard), (
        f"the server started under {deployed.low_soft} open files kept it: does app.py's server "
        "branch call deployment.start_checks()?"
    )
    assert f"soft limit raised from {deployed.low_soft} to {hard}" in Path(first.log_path).read_text()


def test_nginx_spreads_new_browsers_keeps_each_on_one_and_passes_the_host_whole(deployed):
    """nginx sends new browsers to both app servers, keeps one browser (its route cookie) on one,
    and passes a school's host name and port to Streamlit, which then accepts the WebSocket."""
    health = f"{deployed.proxy}/_stcore/health"
    routes, landed = set(), Counter()
    for _ in range(24):
        _, headers = get(health)
        cookie = re.search(
            r"classic_route=([0-9a-f]{32}); Path=/; HttpOnly; SameSite=Lax", headers["set-cookie"]
        )
        assert cookie, headers
        routes.add(cookie[1])
        landed[headers[UPSTREAM]] += 1
    assert len(routes) == 24 and set(landed) == set(deployed.servers), landed  # new browsers: both
    for route in list(routes)[:4]:
        seen = {get(health, f"classic_route={route}")[1][UPSTREAM] for _ in range(6)}
        assert len(seen) == 1, seen  # one browser: one server
    # A cookie nginx did not write is not a route: a new one is given.
    assert "classic_route=forged;" not in get(health, "classic_route=forged")[1]["set-cookie"]

    # `proxy_set_header Host $http_host`: a school's name on a port of its own reaches Streamlit
    # whole, as the browser's Origin says it, and Streamlit accepts the WebSocket.
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from websockets.sync.client import connect

    port = int(deployed.proxy.rsplit(":", 1)[1])
    host = f"classic.school.example:{port}"
    with connect(
        f"ws://{host}/_stcore/stream", sock=socket.create_connection(("127.0.0.1", port), timeout=10),
        subprotocols=["streamlit"], origin=f"http://{host}", open_timeout=10, close_timeout=2,
    ) as ws:  # fmt: skip
        message = BackMsg()
        message.rerun_script.query_string, message.rerun_script.page_name = "", ""
        ws.send(message.SerializeToString())
        assert ws.recv(timeout=30)  # a session's first message, not a 1008 close
        assert ws.response.headers[UPSTREAM] in deployed.servers


class Sockets:
    """The WebSockets a tab opened, as Chromium saw them (its DevTools protocol): which app server
    nginx sent each handshake to (``X-Classic-Upstream``), and when (Chromium's clock, s)."""

    def __init__(self, page) -> None:
        self.opened: list[tuple[float, str]] = []
        self.closed: list[float] = []
        session = page.context.new_cdp_session(page)
        session.on("Network.webSocketHandshakeResponseReceived", self._handshake)
        session.on("Network.webSocketClosed", lambda event: self.closed.append(event["timestamp"]))
        session.send("Network.enable")

    def _handshake(self, event: dict) -> None:
        headers = {name.lower(): value for name, value in event["response"]["headers"].items()}
        self.opened.append((event["timestamp"], headers.get(UPSTREAM, "")))

    @property
    def server(self) -> str | None:
        """The app server holding the tab's last WebSocket."""
        return self.opened[-1][1] if self.opened else None


def test_a_class_round_through_nginx_survives_an_app_server_stopping(browser, deployed):
    store = room_store.open_store(url=deployed.redis_url)
    with ExitStack() as stack:
        stack.callback(store.close)
        tabs = stack.enter_context(Tabs(browser))
        projector = open_tab(tabs, PROJECTOR)
        projector_sockets = Sockets(projector)
        code, link = start_class(projector, deployed.proxy)
        assert link == f"{deployed.proxy}/join?room={code}"  # the join link goes through the proxy too
        until(lambda: projector.evaluate("1") and projector_sockets.server, "the projector's WebSocket")
        teacher_server = projector_sockets.server
        assert teacher_server in deployed.servers, projector_sockets.opened

        # Phones: fresh browsers, each landing where nginx sends it; two kept on each server.
        phones: list = []
        sockets: list[Sockets] = []
        wanted = dict.fromkeys(deployed.servers, PHONES_PER_SERVER)
        tries = 0
        while any(wanted.values()):
            tries += 1
            assert tries <= 16, f"16 new browsers and still {wanted} wanted: is nginx spreading them?"
            phone = open_tab(tabs, PHONE, phone=True)
            server = phone.goto(f"{deployed.proxy}/_stcore/health").headers[UPSTREAM]
            if not wanted[server]:
                phone.context.close()
                continue
            wanted[server] -= 1
            sockets.append(Sockets(phone))
            phone.goto(link)
            phone.get_by_text("Waiting for the teacher").wait_for()
            phones.append(phone)
        until(lambda: phones[0].evaluate("1") and all(s.server for s in sockets), "every phone's WebSocket")
        on = [s.server for s in sockets]
        assert Counter(on) == dict.fromkeys(deployed.servers, PHONES_PER_SERVER), on
        until(lambda: store.joined(code) == len(phones), f"{len(phones)} phones to join")

        ask_step(projector)
        question = store.current(code).question
        right = question.choices[question.answer]
        wrong = question.choices[(question.answer + 1) % len(question.choices)]
        picks = [right, wrong, right, wrong]
        for n, (phone, pick) in enumerate(zip(phones, picks, strict=True), start=1):
            phone.get_by_role("button", name=pick, exact=True).wait_for()
            tap(phone, pick)
            phone.get_by_text(f"Your answer: {pick}").wait_for()
            wait_count(projector, n)
        counted = store.counts(code, 1)
        assert counted[question.answer] == 2 and sum(counted) == len(phones)  # each answer once
        screenshot(projector, "deploy_projector_counted")

        # Stop the app server the teacher is not on, mid-round.
        victim = next(server for server in deployed.servers if server != teacher_server)
        moved = [i for i, s in enumerate(sockets) if s.server == victim]
        before = [len(sockets[i].opened) for i in moved]
        closes = [len(sockets[i].closed) for i in moved]  # the first close after this is the stop's
        stopped = time.monotonic()
        stop_server(deployed.servers[victim])
        stop_seconds = time.monotonic() - stopped
        for i, count in zip(moved, before, strict=True):
            until(lambda i=i, count=count: phones[i].evaluate("1") and len(sockets[i].opened) > count,
                  "a moved phone's WebSocket to reconnect", 60)  # fmt: skip
        reconnected = time.monotonic() - stopped
        failover = [
            sockets[i].opened[-1][0] - sockets[i].closed[n] for i, n in zip(moved, closes, strict=True)
        ]
        assert all(sockets[i].server == teacher_server for i in moved), [sockets[i].opened for i in moved]
        print(
            f"\n{tries} new browsers for phones {Counter(on)}, teacher on {teacher_server}; "
            f"stopped {victim} in {stop_seconds:.1f} s; WebSocket closed → open on the other server: "
            f"{', '.join(f'{s:.2f}' for s in failover)} s; all reconnected {reconnected:.1f} s after the stop"
        )
        assert max(failover) < 30, failover

        # The moved phones keep their answers: the same phone (its id in its browser's storage)
        # in a new session on the other server.
        for i in moved:
            phones[i].get_by_text(f"Your answer: {picks[i]}").wait_for()
            assert_no_exception_box(phones[i])
        assert store.counts(code, 1) == counted and store.joined(code) == len(phones)
        screenshot(phones[moved[0]], "deploy_phone_after_failover")
        # A changed answer replaces its own, not adds one: the server it moved to knows the phone.
        changer = moved[0]
        picks[changer] = wrong if picks[changer] == right else right
        tap(phones[changer], picks[changer])
        phones[changer].get_by_text(f"Your answer: {picks[changer]}").wait_for()
        until(lambda: store.counts(code, 1) != counted, "the changed answer to be stored")
        assert sum(store.counts(code, 1)) == len(phones) and store.joined(code) == len(phones)
        assert store.counts(code, 1)[question.answer] == picks.count(right)
        wait_count(projector, len(phones))

        projector.get_by_role("button", name="Reveal").click()
        projector.get_by_test_id("class-round").first.wait_for()
        for phone, pick in zip(phones, picks, strict=True):
            phone.get_by_text("Right! The answer is" if pick == right else "Not this time").wait_for()
        screenshot(projector, "deploy_projector_revealed")
        screenshot(phones[changer], "deploy_phone_revealed_after_failover")

        # The next vote, every phone on the one server left.
        projector.get_by_role("button", name="Ask again").click()
        for phone in phones:
            phone.get_by_text("Question 2.").wait_for()
            tap(phone, right)
        wait_count(projector, len(phones))
        assert store.counts(code, 2)[question.answer] == len(phones) and store.joined(code) == len(phones)
        screenshot(projector, "deploy_projector_second_vote")
        screenshot(phones[moved[-1]], "deploy_phone_second_vote")
        for page in [projector, *phones]:
            assert_no_exception_box(page)
