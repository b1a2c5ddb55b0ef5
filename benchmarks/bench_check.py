"""How long a student waits for `grader check`, and what the command line imports.

Times `python -m grader check specs/hw7_iteration.yaml <correct file>` end to end (a fresh
interpreter each run, so interpreter start and every import are included) after one
warm-up run, and prints the wall time (best and median) and the CPU the command and its
sandbox used. Python's own bytecode cache is left on, as on a student's machine (the
environment's PYTHONDONTWRITEBYTECODE is dropped for these runs; the warm-up writes the
cache). Then it measures `import grader.cli` (python -X importtime) and lists which heavy
libraries `grader --help` imports (it should need none of them).
Run: python benchmarks/bench_check.py [--runs 7] [--file FILE]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "specs" / "hw7_iteration.yaml"
CORRECT = ROOT / "reference" / "hw7_iteration.py"
HEAVY = ("yaml", "jsonschema", "rich", "numpy", "grader.spec.loader", "grader.run.sandbox", "grader.audit.run",
         "multiprocessing", "grader.languages.matlab_session")


def env() -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out["PYTHONPATH"] = str(ROOT) + os.pathsep + out.get("PYTHONPATH", "")
    return out


def timed(argv: list[str]) -> tuple[float, float, int]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.returncode


def import_profile(code: str) -> tuple[float, list[str]]:
    """Total import time of ``code`` (µs summed over top-level imports) and which HEAVY modules it loads."""
    proc = subprocess.run([sys.executable, "-X", "importtime", "-c", code], env=env(), capture_output=True, text=True, cwd=ROOT)
    total = 0
    loaded = []
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = (part.strip() for part in line.split(":", 1)[1].split("|"))
        if cumulative.isdigit() and not name.startswith(" ") and line.split("|")[2].startswith(" ") and \
                not line.split("|")[2].startswith("  "):
            total += int(cumulative)
        if name.strip() in HEAVY:
            loaded.append(name.strip())
    return total / 1e6, sorted(set(loaded))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--file", type=Path, default=CORRECT, help="the student's file (default: the reference, a correct file)")
    args = parser.parse_args()
    check = [sys.executable, "-m", "grader", "check", str(SPEC), str(args.file)]
    timed(check)                                   # warm-up: writes the bytecode cache
    runs = [timed(check) for _ in range(args.runs)]
    walls = sorted(r[0] for r in runs)
    cpus = [r[1] for r in runs]
    codes = {r[2] for r in runs}
    cli_import, _ = import_profile("import grader.cli")
    help_import, heavy = import_profile("import sys; sys.argv = ['grader', '--help']\n"
                                        "from grader.cli import main\n"
                                        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    load = os.getloadavg()
    print(f"grader check {SPEC.relative_to(ROOT)} {args.file.name}: {args.runs} runs after a warm-up; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; exit codes {sorted(codes)}")
    print(f"  wall: best {walls[0]:.3f} s, median {statistics.median(walls):.3f} s "
          f"(target < 0.5 s on an idle machine: {'met' if walls[0] < 0.5 else 'NOT met'} by the best run)")
    print(f"  CPU (the command and its sandbox): median {statistics.median(cpus):.3f} s")
    print(f"  import grader.cli: {cli_import * 1000:.0f} ms; grader --help imports {help_import * 1000:.0f} ms of modules, "
          f"heavy ones among them: {', '.join(heavy) or 'none'}")


if __name__ == "__main__":
    main()
