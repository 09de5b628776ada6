"""``streamlit run app.py`` with every script run timed, for the load test and the benchmarks.

Each run of the script (first render, or a rerun after an interaction) appends one JSON line
to ``$CLASSIC_RUN_LOG``: the wall time it finished, its duration in seconds (``s``, wall time:
on a machine shared with the browsers it includes waiting for a core and for the GIL), the CPU
time of the script's thread (``cpu``: the server's own work alone), the page's URL path and the
session's id (``session``).

Usage: ``CLASSIC_RUN_LOG=runs.jsonl python tests/load/timed_server.py --server.port=8600 ...``
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from streamlit.runtime.scriptrunner import script_runner
from streamlit.web import cli

# The app this checkout holds, or another checkout's ($CLASSIC_APP_ROOT: a version before or
# after a change, timed by the same load tools).
APP = Path(os.environ.get("CLASSIC_APP_ROOT") or Path(__file__).resolve().parents[2]) / "app.py"
_log = open(os.environ["CLASSIC_RUN_LOG"], "a", buffering=1)  # noqa: SIM115 (open for the process)
_run_script = script_runner.ScriptRunner._run_script


def _timed_run_script(self, rerun_data):
    started, cpu = time.perf_counter(), time.thread_time()
    try:
        return _run_script(self, rerun_data)
    finally:
        manager = self._pages_manager
        page = manager.get_pages().get(manager.current_page_script_hash, {}).get("url_pathname", "?")
        seconds, cpu = time.perf_counter() - started, time.thread_time() - cpu
        record = {
            "t": time.time(),
            "s": seconds,
            "cpu": cpu,
            "page": page or "home",
            "session": self._session_id,
        }
        _log.write(json.dumps(record) + "\n")


script_runner.ScriptRunner._run_script = _timed_run_script

if __name__ == "__main__":
    sys.argv = ["streamlit", "run", str(APP), *sys.argv[1:]]
    sys.exit(cli.main())
