"""What the server checks when it starts (pages/server/deployment.py, issue 32): its open-files
limit raised to the hard limit, with a warning and the sessions it can hold when that is low; a
Redis class store that keeps nothing on disk warned of, or said to be unchecked.

Real processes where they can be had: a fresh Python started under a lowered limit (``prlimit``,
as ``ulimit -n`` would leave the server) runs the checks as the server does and reports its limit
after; the Redis checks ask real redis-servers started with and without persistence, with
``CONFIG`` renamed away or refused by an ACL. Only what Linux cannot do here (a hard limit of
"unlimited", as on macOS) is faked.
"""

from __future__ import annotations

import ast
import logging
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import ROOT, stop_server
from redis_server import REDIS_SERVER, _free_port, require_redis

from pages.server import deployment

DEPLOY = ROOT / "docs" / "deploy"
# An ACL user who may run anything but CONFIG and INFO (its password: pw).
NO_CONFIG_USER = ("--user", "app", "on", ">pw", "~*", "&*", "+@all", "-config", "-info")


@contextmanager
def redis_with(*args: str, timeout: float = 30) -> Iterator[str]:
    """A real redis-server on a free local port, started with ``args`` (a config file first, if
    any; then its own port and a data folder of its own); its URL, ``redis://127.0.0.1:PORT/0``."""
    require_redis()
    import redis

    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="classic-redis-") as folder:
        command = [REDIS_SERVER, *args, "--port", str(port), "--bind", "127.0.0.1", "--dir", folder]
        log = Path(folder) / "redis.log"
        with log.open("w") as out:
            process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        process.log_path = str(log)  # for stop_server
        url = f"redis://127.0.0.1:{port}/0"
        try:
            deadline = time.monotonic() + timeout
            while True:
                assert process.poll() is None, f"redis-server exited: {log.read_text()[-2000:]}"
                try:
                    with redis.Redis.from_url(url, socket_timeout=2) as client:
                        client.ping()
                    break
                except redis.AuthenticationError:  # up, with a password (the test knows it)
                    break
                except redis.ConnectionError:
                    assert time.monotonic() < deadline, f"redis-server did not answer within {timeout} s"
                    time.sleep(0.1)
            yield url
        finally:
            stop_server(process)


def server_start(limits: tuple[int, int] | None = None, store: str = "") -> tuple[tuple[int, int], str]:
    """``start_checks`` in a fresh Python process, as ``streamlit run app.py`` runs it when the
    server starts: under ``prlimit --nofile=SOFT:HARD`` (util-linux) when ``limits`` are given,
    and with ``CLASSIC_CLASS_STORE=store``. Its limit afterwards, and what it wrote in its log."""
    code = (
        "import resource; from pages.server import deployment; deployment.start_checks(); "
        "print(*resource.getrlimit(resource.RLIMIT_NOFILE))"
    )
    lowered = ["prlimit", f"--nofile={limits[0]}:{limits[1]}"] if limits else []
    done = subprocess.run(
        [*lowered, sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "CLASSIC_CLASS_STORE": store},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    soft, hard = map(int, done.stdout.split())
    return (soft, hard), done.stderr


@pytest.fixture
def log() -> Iterator[list[logging.LogRecord]]:
    """What ``deployment`` writes in the server's log during the test."""
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append
    deployment._LOG.addHandler(handler)
    yield records
    deployment._LOG.removeHandler(handler)


# ---- open files ---------------------------------------------------------------------------


def test_sessions_are_counted_at_four_files_each_beyond_the_servers_own():
    assert deployment.FDS_PER_SESSION == 4 and deployment.RESERVED_FDS == 64
    assert deployment.sessions_for(1024) == 240  # (1024 - 64) // 4
    assert deployment.sessions_for(20_000) == 4984
    assert deployment.sessions_for(10) == 0


def test_a_server_started_under_a_low_soft_limit_raises_it_to_the_hard_limit():
    limits, text = server_start(limits=(256, 4096))
    assert limits == (4096, 4096)
    assert "soft limit raised from 256 to 4096 (the hard limit): room for about 1008 sessions" in text
    assert "WARNING" not in text  # 1008 sessions: enough


def test_a_low_hard_limit_is_warned_of_with_the_sessions_the_server_can_hold():
    """The case of the issue: ``ulimit -n 1024`` (soft and hard), where 300 idle connections
    locked every new teacher and phone out."""
    limits, text = server_start(limits=(1024, 1024))
    assert limits == (1024, 1024)
    assert "raised" not in text
    assert "WARNING" in text and "only about 240 sessions at once (1024 open files, hard limit 1024" in text
    assert "Raise the hard limit to at least 2064" in text and "docs/deployment.md" in text
    # Raised as far as it goes, and still low: both said.
    limits, text = server_start(limits=(256, 1024))
    assert limits == (1024, 1024)
    assert "raised from 256 to 1024" in text and "only about 240 sessions" in text


def test_a_soft_limit_at_the_hard_limit_is_left_alone_and_enough_says_nothing():
    limits, text = server_start(limits=(4096, 4096))
    assert limits == (4096, 4096) and "pages.server.deployment" not in text


class FakeLimits:
    """A kernel whose hard limit on open files is "unlimited" (macOS) and that takes a soft limit
    of at most ``most``: what Linux cannot show here."""

    def __init__(self, soft: int, most: int) -> None:
        self.soft, self.most = soft, most

    def getrlimit(self, which: int) -> tuple[int, int]:
        return self.soft, resource.RLIM_INFINITY

    def setrlimit(self, which: int, limits: tuple[int, int]) -> None:
        if limits[0] > self.most:
            raise ValueError("current limit exceeds maximum limit")
        self.soft = limits[0]


def test_an_unlimited_hard_limit_gets_the_largest_soft_limit_the_kernel_takes(monkeypatch, log):
    fake = FakeLimits(soft=256, most=10_240)
    monkeypatch.setattr(resource, "getrlimit", fake.getrlimit)
    monkeypatch.setattr(resource, "setrlimit", fake.setrlimit)
    limits = deployment.check_open_files()
    assert limits == deployment.OpenFiles(256, 10_240, None) and limits.sessions == 2544
    assert [r.levelname for r in log] == ["INFO"] and "raised from 256 to 10240" in log[0].getMessage()
    # A kernel that takes none of them: the limit stays, and the warning says so.
    fake.soft, fake.most = 256, 0
    log.clear()
    assert deployment.check_open_files() == deployment.OpenFiles(256, 256, None)
    assert [r.levelname for r in log] == ["WARNING"] and "about 48 sessions" in log[0].getMessage()


# ---- Redis persistence --------------------------------------------------------------------


def test_a_redis_that_keeps_nothing_on_disk_is_warned_of_without_its_password():
    with redis_with("--appendonly", "no", "--save", "", "--requirepass", "s3cret") as url:
        url = url.replace("redis://", "redis://:s3cret@")
        found = deployment.redis_persistence(url)
        assert found == deployment.Persistence(url.replace("s3cret", "***"), False, "", "")
        assert found.kept is False
        _, text = server_start(store=url)
    assert "WARNING" in text and "keeps nothing on disk" in text and "appendonly yes" in text
    assert "redis://:***@127.0.0.1:" in text and "s3cret" not in text


@pytest.mark.parametrize(
    "args, aof, snapshots, said",
    [
        (("--appendonly", "yes", "--save", ""), True, "", None),
        (("--appendonly", "yes", "--save", "60 1"), True, "60 1", None),
        (("--appendonly", "no", "--save", "60 1"), False, "60 1", "keeps snapshots only (save 60 1)"),
    ],
    ids=["append-only file", "both", "snapshots only"],
)
def test_a_redis_that_keeps_its_data_passes(args, aof, snapshots, said, log):
    with redis_with(*args) as url:
        found = deployment.check_class_store(url)
    assert (found.aof, found.snapshots, found.problem, found.kept) == (aof, snapshots, "", True)
    assert [r.getMessage() for r in log if r.levelno >= logging.WARNING] == []
    assert [said in r.getMessage() for r in log] == ([True] if said else [])


@pytest.mark.parametrize(
    "args, url_user, aof, kept",
    [
        (("--rename-command", "CONFIG", "", "--appendonly", "no", "--save", ""), "", False, None),
        (("--rename-command", "CONFIG", "", "--appendonly", "yes", "--save", ""), "", True, True),
        # A managed Redis's way: an ACL user who may not run CONFIG (nor INFO, here).
        ((*NO_CONFIG_USER, "--appendonly", "yes"), "app:pw@", None, None),
    ],
    ids=["CONFIG renamed away", "CONFIG renamed, AOF said by INFO", "an ACL user without CONFIG"],
)
def test_a_redis_that_refuses_config_is_said_to_be_unchecked(args, url_user, aof, kept, log):
    """Where ``CONFIG GET`` is refused, ``INFO persistence`` still tells whether the append-only
    file is on (not the snapshots); where that is refused too, the log says it could not check."""
    with redis_with(*args) as url:
        found = deployment.check_class_store(url.replace("redis://", f"redis://{url_user}"))
    assert (found.aof, found.snapshots, found.kept) == (aof, None, kept)
    assert "CONFIG GET was refused" in found.problem
    warnings = [r.getMessage() for r in log if r.levelno >= logging.WARNING]
    if kept:
        assert warnings == []
    else:
        assert len(warnings) == 1 and "could not check whether the Redis at" in warnings[0]
        assert "CONFIG GET was refused" in warnings[0] and "pw@" not in warnings[0]


def test_a_redis_that_cannot_be_reached_is_said_so_at_once(log):
    started = time.monotonic()
    found = deployment.check_class_store(f"redis://127.0.0.1:{_free_port()}/0")
    assert time.monotonic() - started < 5
    assert found.kept is None and "cannot be reached" in found.problem
    said = [record.getMessage() for record in log]
    assert len(said) == 1 and "could not check" in said[0] and "Connection refused" in said[0]


def test_the_sqlite_store_is_not_checked(log):
    assert deployment.check_class_store("") is None and log == []


def test_the_recipes_redis_conf_keeps_the_classes_on_disk():
    """docs/deploy/redis.conf, as the run script and the deployment test start it."""
    with redis_with(str(DEPLOY / "redis.conf")) as url:
        found = deployment.redis_persistence(url)
    assert (found.aof, found.snapshots, found.kept) == (True, "3600 1 300 100 60 10000", True)


# ---- wired in, and the recipe's script -----------------------------------------------------


def test_the_server_runs_the_checks_when_it_starts():
    """app.py's server branch (``streamlit run`` imports app.py) calls ``start_checks``."""
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    branch = next(
        node for node in tree.body if isinstance(node, ast.If) and "__name__" in ast.unparse(node.test)
    )
    calls = {
        ast.unparse(call.func)
        for part in branch.orelse
        for call in ast.walk(part)
        if isinstance(call, ast.Call)
    }
    assert "deployment.start_checks" in calls, (
        "app.py's server branch must call deployment.start_checks() (beside guard.install())"
    )


def test_the_run_script_is_valid_bash():
    done = subprocess.run(["bash", "-n", str(DEPLOY / "run-local.sh")], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert os.access(DEPLOY / "run-local.sh", os.X_OK)
