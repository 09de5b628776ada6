"""The server gives back the memory a busy lesson used (a room of students, some hostile).

Streamlit runs each session's script on a thread of its own; glibc's malloc gives threads up to
eight heaps a core and keeps what they free for their next use, and the app turns off
Streamlit's full garbage collection after every run (``runner.postScriptGC = false``), so the cycles a closed session leaves wait for Python's collector's rare full pass. On
the hostile load run (tests/load/run_hostile.py) the server stayed hundreds of MB above its warm
level with every session closed and its caches back to their size. Two changes bring it back:

- ``few_arenas``: at most two heaps for all threads (glibc's ``M_ARENA_MAX``, the same as
  ``MALLOC_ARENA_MAX=2`` in the environment, which wins when set);
- ``housekeeping``: every 30 s a full collection, then ``malloc_trim`` returns the free pages of
  every heap to the system.

The figures: docs/measurements.md. Linux with glibc only; elsewhere both do nothing.
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys
import threading
import time

from streamlit.logger import get_logger

_LOG = get_logger(__name__)

ARENAS = 2
EVERY_S = 30.0
_M_ARENA_MAX = -8  # glibc's malloc.h


def _glibc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt, libc.malloc_trim  # noqa: B018 (both exist only in glibc)
    except (OSError, AttributeError):
        return None
    return libc


def few_arenas(arenas: int = ARENAS) -> bool:
    """At most ``arenas`` malloc heaps for the threads started from now on (True if set)."""
    libc = _glibc()
    if libc is None or os.environ.get("MALLOC_ARENA_MAX"):
        return False
    return bool(libc.mallopt(_M_ARENA_MAX, arenas))


def give_back() -> float:
    """One full collection, then every heap's free pages back to the system; its seconds."""
    started = time.perf_counter()
    gc.collect()
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)
    return time.perf_counter() - started


def housekeeping(every_s: float = EVERY_S, stop: threading.Event | None = None) -> threading.Thread:
    """A daemon thread that gives memory back every ``every_s`` seconds until ``stop`` is set
    (started once a process)."""
    for thread in threading.enumerate():
        if thread.name == "classic-housekeeping":
            return thread
    stop = stop or threading.Event()

    def loop() -> None:
        while not stop.wait(every_s):
            seconds = give_back()
            _LOG.debug("housekeeping: memory given back in %.3f s", seconds)

    thread = threading.Thread(target=loop, name="classic-housekeeping", daemon=True)
    thread.start()
    return thread
