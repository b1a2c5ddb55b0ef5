"""Grading overhead per submission: the container profile next to bubblewrap, side by side.

Runs `grader grade` on the same N generated hw7 submissions (benchmarks/gen_submissions.py),
serially (--jobs 1), alternately under

  * bubblewrap: on this machine as it is (the profile the probe picks);
  * container:  inside a simulated default Docker container (tests/container_sim.py: Docker's
    capabilities, namespaces refused), where the probe picks the container profile;

and prints the wall time per submission for each and their ratio, and the cost of one sandbox
session (start a child, load a module, one call, end it) under each profile: wall, CPU of the
slot counted by the kernel (its cgroup, or /proc), CPU of the grader.  Needs root and a Python the
slot uids can read (install.sh's .venv).  Figures only; nothing is asserted.

Run: .venv/bin/python benchmarks/bench_container.py [--n 30] [--rounds 2] [--sessions 40]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "specs" / "hw7_iteration.yaml"
SIM = ROOT / "tests" / "container_sim.py"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_submissions import generate  # noqa: E402

SESSIONS = r"""
import json, resource, statistics, sys, time
from grader.run.sandbox import Sandbox, probe
from grader.run.model import Limits
prof = probe()
walls, slot_cpu, parent_cpu = [], [], []
with Sandbox(prof, Limits(), slot=0) as sb:
    sb.session({"m.py": ""}, "m.py").close()      # the zygote is up and its meter chosen
    kind = sb.meter.kind if sb.meter else "none"
    for i in range(int(sys.argv[1]) + 2):
        t, c, m = time.perf_counter(), sb.meter.cpu_seconds() if sb.meter else 0.0, time.process_time()
        with sb.session({"m.py": "def f(x):\n    return x + 1\n"}, "m.py") as s:
            assert s.call("f", [i], time_limit=5).value == i + 1
        walls.append(time.perf_counter() - t)
        slot_cpu.append((sb.meter.cpu_seconds() if sb.meter else 0.0) - c)
        parent_cpu.append(time.process_time() - m)
print(json.dumps({"profile": prof.name, "meter": kind,
                  "median_ms": statistics.median(walls[2:]) * 1000,
                  "slot_cpu_ms": statistics.mean(slot_cpu[2:]) * 1000, "parent_cpu_ms": statistics.mean(parent_cpu[2:]) * 1000}))
"""


def run(cmd: list[str], container: bool) -> tuple[float, str]:
    """(wall s, output) of one command, on the host or in the simulated container."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GRADER_ISOLATION", None)
    argv = [sys.executable, str(SIM), "--", *cmd] if container else cmd
    t = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    if done.returncode != 0:
        sys.exit(f"failed ({'container' if container else 'host'}): {done.stderr[-2000:]}")
    return wall, done.stdout + done.stderr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=30, help="submissions per grading run")
    ap.add_argument("--rounds", type=int, default=2, help="alternating rounds per profile")
    ap.add_argument("--sessions", type=int, default=40, help="sessions in the per-session figure")
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("needs root (the container profile gives each slot its own uid)")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        subs = Path(tmp) / "subs"
        generate(subs, args.n)
        os.chmod(tmp, 0o700)
        figures: dict[str, list[float]] = {"bwrap": [], "container": []}
        names: dict[str, str] = {}
        for r in range(args.rounds):
            for kind in ("bwrap", "container"):
                out = Path(tmp) / f"out_{kind}_{r}"
                cmd = [sys.executable, "-m", "grader", "grade", str(SPEC), str(subs), "--out", str(out),
                       "--jobs", "1", "--regrade", "--format", "json"]
                wall, text = run(cmd, kind == "container")
                figures[kind].append(wall)
                names[kind] = next((line.split("isolation ", 1)[1].split(" (")[0] for line in text.splitlines()
                                    if "isolation " in line), "?")
        sessions = {kind: json.loads(run([sys.executable, "-c", SESSIONS, str(args.sessions)], kind == "container")[1]
                                     .strip().splitlines()[-1]) for kind in ("bwrap", "container")}
    print(f"load average after:  {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{args.n} generated hw7 submissions, `grader grade --jobs 1`, {args.rounds} alternating rounds each")
    per = {}
    for kind in ("bwrap", "container"):
        wall = statistics.median(figures[kind]) / args.n
        per[kind] = wall
        s = sessions[kind]
        print(f"  {kind:9s} [{names[kind]}]: {wall * 1000:6.0f} ms wall per submission; one session (start a child, "
              f"load, one call, end it): {s['median_ms']:.1f} ms wall, {s['slot_cpu_ms']:.1f} ms CPU in the slot "
              f"({s['meter']}) + {s['parent_cpu_ms']:.1f} ms in the grader")
    print(f"  container / bwrap: wall per submission {per['container'] / per['bwrap']:.2f}x; one session: wall "
          f"{sessions['container']['median_ms'] / sessions['bwrap']['median_ms']:.2f}x, slot CPU "
          f"{sessions['container']['slot_cpu_ms'] / sessions['bwrap']['slot_cpu_ms']:.2f}x")
    print("  (a whole run's CPU is not compared: processes killed with bubblewrap's pid namespace are never waited "
          "for, so their time is missing from the kernel's child rusage; the slot's cgroup counts it)")


if __name__ == "__main__":
    main()
