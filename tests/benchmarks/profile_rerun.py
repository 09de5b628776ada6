"""Profile one bench_app row's AppTest reruns (cProfile), for a checkout given by --root.

``python3 tests/benchmarks/profile_rerun.py --root /tmp/base --only "n = 200" --repeat 30``
prints the CPU median of the reruns and the top functions by cumulative time, and writes the
profile to /tmp/profile-<label>.prof. Not in CI; a helper for comparing two versions.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_app  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", default="")
    parser.add_argument("--only", default="n = 200")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--label", default="run")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    if args.root:
        bench_app.use_app_root(Path(args.root))
    item = next(i for i in bench_app.INTERACTIONS if args.only.lower() in i.name.lower())
    at = bench_app.open_page(item.page, timeout=120, params=item.setup, try_this=False)
    for n in range(4):  # warm-up
        item.apptest_step(at, n)
        at.run()
    # AppTest runs the script in a thread of its own: the profiler is switched on in that thread,
    # around the script run (ScriptRunner._run_script), for the timed reruns only.
    from streamlit.runtime.scriptrunner import script_runner

    profile, cpu, on = cProfile.Profile(), [], [False]
    run_script = script_runner.ScriptRunner._run_script

    def profiled(self, rerun_data):
        if not on[0]:
            return run_script(self, rerun_data)
        profile.enable()
        try:
            return run_script(self, rerun_data)
        finally:
            profile.disable()

    script_runner.ScriptRunner._run_script = profiled
    for n in range(args.repeat):
        item.apptest_step(at, n)
        started = time.process_time()
        on[0] = True
        at.run()
        on[0] = False
        cpu.append(time.process_time() - started)
    cpu.sort()
    print(bench_app.where_from())
    print(
        f"{item.name}: CPU median under the profiler {1e3 * cpu[len(cpu) // 2]:.0f} ms ({args.repeat} reruns)"
    )
    out = f"/tmp/profile-{args.label}.prof"
    profile.dump_stats(out)
    stats = pstats.Stats(profile)
    stats.sort_stats("cumulative").print_stats(args.top)


if __name__ == "__main__":
    main()
