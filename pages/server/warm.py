"""The server's warm start: what every visitor shares, computed before the first connection.

The lifespan of app.py's ``st.App``: it takes the server out of Streamlit's legacy page mode
(``shell.leave_legacy_mode``), imports every module a page imports, and calls each function the
lessons registry names in its ``warm`` entries (``classic.lessons.LESSONS``), so that no
student's first visit waits for them. ``CLASSIC_WARM_START=0`` skips the computing (the test
suite's browser servers do; the deep-link tests keep it, as deployed).
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import os
import pkgutil
import time
from collections.abc import Iterable
from contextlib import asynccontextmanager

from streamlit.logger import get_logger
from threadpoolctl import threadpool_limits

from classic.lessons import LESSONS, Lesson
from pages.server.shell import leave_legacy_mode

_LOG = get_logger(__name__)
PACKAGES = ("pages.server", "pages.widgets", "pages.classroom")


def _call(target: str) -> None:
    module, _, name = target.partition(":")
    getattr(importlib.import_module(module), name)()


def warm(lessons: Iterable[Lesson] = LESSONS) -> float:
    """Import what the pages import and compute each lesson's shared content; returns the seconds."""
    with threadpool_limits(limits=1):  # app.py's policy, also when a test calls this first
        started = time.perf_counter()
        for package in PACKAGES:
            for module in pkgutil.iter_modules(importlib.import_module(package).__path__):
                importlib.import_module(f"{package}.{module.name}")
        importlib.import_module("pandas.io.formats.style")  # the tree page's highlighted gain table
        for lesson in lessons:
            for target in lesson.warm:
                _call(target)
        # Streamlit's first element of a process looks up every loaded module's file for a
        # warning (inspect.stack); the lookup's cache is filled here, not in a first visit.
        inspect.stack()
        # Altair reads its Vega-Lite schema on its first chart.
        import altair as alt

        alt.Chart().mark_point().encode(x="x:Q").to_dict()
        return time.perf_counter() - started


@asynccontextmanager
async def warm_start(_app):
    """The server's lifespan: out of Streamlit's legacy page mode, warm (unless
    ``CLASSIC_WARM_START=0``), then serve."""
    leave_legacy_mode()
    if os.environ.get("CLASSIC_WARM_START", "1") != "0":
        seconds = await asyncio.to_thread(warm)
        _LOG.info("warm start: the lessons' shared content computed in %.1f s", seconds)
    yield
