"""A real redis-server for the class store's tests (no fakes): started on a free local port,
with no persistence, and killed at the end.

Without ``/usr/bin/redis-server`` the tests that need it are skipped, unless ``REQUIRE_REDIS=1``
(as in CI, whose script installs Debian's ``redis-server``), where it is a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def require_redis() -> None:
    missing = None
    if not os.path.exists(REDIS_SERVER):
        missing = "redis-server is not installed (apt-get install redis-server)"
    else:
        try:
            import redis  # noqa: F401
        except ImportError:
            missing = "the redis client is not installed (pip install redis)"
    if missing:
        if os.environ.get("REQUIRE_REDIS") == "1":
            pytest.fail(f"REQUIRE_REDIS=1 but {missing}")
        pytest.skip(missing)


@contextmanager
def redis_server(timeout: float = 30) -> Iterator[str]:
    """Run redis-server on a free port; yield its URL (``redis://127.0.0.1:PORT/0``)."""
    import redis

    port = _free_port()
    workdir = tempfile.mkdtemp(prefix="classic-redis-")
    command = [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
               "--dir", workdir]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {process.returncode}")
            try:
                client = redis.Redis.from_url(url, socket_timeout=2)
                client.ping()
                client.close()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"redis-server did not answer within {timeout} s") from None
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)
