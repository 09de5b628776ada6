"""The server gives back memory its sessions' threads freed (pages/server/memory.py, issue 22)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from pages.server import memory

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or memory._glibc() is None, reason="glibc's malloc only"
)


def rss_mb() -> float:
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


def test_memory_a_finished_thread_freed_goes_back_to_the_system():
    """A script thread allocates ~180 MB in glibc-sized pieces and frees all but 2%: the process
    keeps those pages until give_back (a collection alone gave back nothing: 232 → 232 MB)."""
    kept: list[bytes] = []

    def script_run() -> None:
        data = [bytes(600) + bytes([i % 256]) for i in range(300_000)]
        kept.extend(data[::50])

    thread = threading.Thread(target=script_run)
    thread.start()
    thread.join(timeout=60)
    before = rss_mb()
    memory.give_back()
    assert before - rss_mb() >= 100, (before, rss_mb())
    assert len(kept) == 6000


def test_housekeeping_runs_one_thread_that_keeps_giving_back(monkeypatch):
    calls, stop = threading.Event(), threading.Event()
    monkeypatch.setattr(memory, "give_back", lambda: calls.set() or 0.0)
    first = memory.housekeeping(every_s=0.05, stop=stop)
    try:
        assert memory.housekeeping(every_s=0.05) is first
        assert first.daemon and first.is_alive()
        assert calls.wait(timeout=10)
    finally:
        stop.set()
        first.join(timeout=10)
    assert not first.is_alive()


def test_few_arenas_leaves_the_environment_setting_alone(monkeypatch):
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert memory.few_arenas() is False
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    assert memory.few_arenas() is True
