"""What one sandboxed case and one session cost, next to the bare floor (issue #17's budget).

Every figure is CPU time on one CPU (this process pins itself, and the sandbox it starts
inherits the mask, as a grading worker and its sandbox are pinned): the grader's own
(``process_time``) and the sandbox slot's (its kernel meter: the cgroup, or the /proc tree).
  echo      a bare Python echo between two processes over a socketpair: the least any
            round trip between a parent and a child process costs here
  call      a trivial case (``f(x) = x + 1``) sent one at a time, as hidden cases are
            (``Session.call_many``), unwatched and with the ban tripwires watching
  session   a session of a trivial module: forked into fresh namespaces, loaded, one call, ended
  hw7       the hw7 reference's 225 cases one at a time in one session, against the same calls
            made bare in this process: what the harness adds to a case of real size
  unshare   a fork of this process that exits at once, bare and after unsharing one namespace
            kind (the pid kind with the fork into it), then all of them: what a session's fresh
            namespaces cost the kernel (not a root? a new user namespace is unshared with each)
Medians over ``--repeat`` rounds.  From these, the least a hw7 submission can cost with #12's
isolation (two sessions, its cases' round trips at the echo's cost, the student's own calls)
is printed next to what the harness spends now.
Run: python benchmarks/bench_roundtrip.py [--calls 3000] [--sessions 100] [--repeat 5]
"""
from __future__ import annotations

import argparse
import copy
import ctypes
import os
import socket
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grader.pipeline import watch_list  # noqa: E402
from grader.plan import make_plan  # noqa: E402
from grader.run.child import codec  # noqa: E402
from grader.run.model import Limits  # noqa: E402
from grader.run.sandbox import Sandbox, probe  # noqa: E402
from grader.spec.loader import load_spec  # noqa: E402

TRIVIAL = {"m.py": "def f(x):\n    return x + 1\n"}
REQUEST = b'{"op":"call","f":"f","t":1.0,"wl":15.0,"w":null,"n":"0123456789abcdef1","a":[1]}\n'


def echo(n: int) -> tuple[float, float]:
    """(parent, child) CPU seconds per round trip of a bare socketpair echo."""
    a, b = socket.socketpair()
    pid = os.fork()
    if pid == 0:
        a.close()
        start = time.process_time()
        while (data := b.recv(1 << 16)) != b"end":
            b.sendall(data)
        b.sendall(repr(time.process_time() - start).encode())    # the kernel's count, to the ns
        os._exit(0)
    b.close()
    t = time.process_time()
    for _ in range(n):
        a.sendall(REQUEST)
        a.recv(1 << 16)
    parent = time.process_time() - t
    a.sendall(b"end")
    child = float(a.recv(64))
    a.close()
    os.waitpid(pid, 0)
    return parent / n, child / n


NAMESPACES = {"mount": 0x00020000, "uts": 0x04000000, "ipc": 0x08000000, "net": 0x40000000,
              "cgroup": 0x02000000, "pid": 0x20000000}
CLONE_NEWUSER = 0x10000000


def unshare_cost(n: int, flags: int) -> float | str:
    """CPU seconds per fork whose child unshares ``flags`` and exits (or why it could not)."""
    libc = ctypes.CDLL(None, use_errno=True)
    flags |= CLONE_NEWUSER if os.geteuid() != 0 else 0
    used = 0.0
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            if flags and libc.unshare(flags) != 0:
                os._exit(3)
            if flags & NAMESPACES["pid"] and os.fork() == 0:    # the pid namespace's first process
                os._exit(0)
            os._exit(0)
        _, status, usage = os.wait4(pid, 0)     # its CPU and its reaped child's, to the microsecond
        if status != 0:
            return "refused by this machine"
        used += usage.ru_utime + usage.ru_stime
    return used / n


def metered(sb: Sandbox, work: Callable[[], Any]) -> tuple[float, float]:
    """(grader, slot) CPU seconds that ``work`` costs."""
    if sb.meter is None:
        sys.exit("bench_roundtrip: this machine gives the sandbox no CPU meter (no cgroup, no /proc): nothing to measure")
    slot, own = sb.meter.cpu_seconds(), time.process_time()
    work()
    return time.process_time() - own, sb.meter.cpu_seconds() - slot


def calls(sb: Sandbox, n: int, watch: tuple[str, ...]) -> tuple[float, float]:
    with sb.session(TRIVIAL, "m.py", watch) as s:
        todo = [(codec.Encoded([i]), 5.0) for i in range(n)]
        own, slot = metered(sb, lambda: s.call_many("f", todo, watch=bool(watch)))
    return own / n, slot / n


def sessions(sb: Sandbox, n: int) -> tuple[float, float]:
    def run() -> None:
        for i in range(n):
            with sb.session(TRIVIAL, "m.py") as s:
                s.call("f", [i], time_limit=5)
    own, slot = metered(sb, run)
    return own / n, slot / n


def hw7(sb: Sandbox) -> tuple[float, float, float, int]:
    """(grader, slot, bare) CPU seconds per case of the hw7 reference, and the number of cases."""
    spec = load_spec(ROOT / "specs" / "hw7_iteration.yaml")
    plan = make_plan(spec)
    source = (ROOT / "reference" / "hw7_iteration.py").read_text()
    cases = [(f, p) for f, planned in plan.cases.items() for p in planned]
    watch = watch_list(spec)

    def run(s: Any) -> None:
        for f, planned in plan.cases.items():
            s.call_many(f, [(p.call_args, max(p.time_limit, 1.0)) for p in planned], watch=True)

    with sb.session({"hw7.py": source}, "hw7.py", watch) as s:
        run(s)                                   # warm: the first calls page the module in
        own, slot = metered(sb, lambda: run(s))
    module: dict[str, Any] = {}
    exec(compile(source, "hw7.py", "exec"), module)
    args = [copy.deepcopy(list(p.case.args)) for _, p in cases]
    t = time.process_time()
    for (f, _), a in zip(cases, args):
        module[f](*a)
    bare = time.process_time() - t
    n = len(cases)
    return own / n, slot / n, bare / n, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=3000)
    ap.add_argument("--sessions", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    cpu = max(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    print(f"pinned to CPU {cpu}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    rows: dict[str, list[tuple[float, ...]]] = {}
    watch = ("sum", "statistics.mean", "numpy.cumsum")
    with Sandbox(probe(), Limits(), slot=0, watch=watch) as sb:
        sb.session({"m.py": ""}, "m.py").close()        # the zygote is up and its meter chosen
        for _ in range(args.repeat):
            rows.setdefault("echo", []).append(echo(args.calls))
            rows.setdefault("call", []).append(calls(sb, args.calls, ()))
            rows.setdefault("call, watched", []).append(calls(sb, args.calls, watch))
            rows.setdefault("session", []).append(sessions(sb, args.sessions))
            *per_case, n_hw7 = hw7(sb)
            rows.setdefault("hw7 case", []).append(tuple(per_case))
    kinds = {"none": 0, **NAMESPACES, "all": sum(NAMESPACES.values())}
    costs = {k: [unshare_cost(args.sessions, f) for _ in range(args.repeat)] for k, f in kinds.items()}
    med = {k: tuple(statistics.median(r[i] for r in v) for i in range(len(v[0]))) for k, v in rows.items()}
    print(f"{'':16}{'grader':>10}{'slot':>10}   (CPU per item, median of {args.repeat})")
    for name, unit in (("echo", "us"), ("call", "us"), ("call, watched", "us"), ("session", "ms"), ("hw7 case", "us")):
        scale = 1e6 if unit == "us" else 1e3
        own, slot = med[name][:2]
        print(f"{name:16}{own * scale:>8.1f}{unit}{slot * scale:>8.1f}{unit}"
              + (f"   the reference's own calls {med[name][2] * 1e6:.1f} us bare" if name == "hw7 case" else ""))
    line = []
    for kind, runs in costs.items():
        measured = [r for r in runs if isinstance(r, float)]
        line.append(f"{kind} {statistics.median(measured) * 1e3:.2f}" if measured else f"{kind}: {runs[0]}")
    print("fork + exit, ms of CPU, bare and unsharing one namespace kind / all: " + ", ".join(line))
    own, slot, bare = med["hw7 case"]
    floor_trip = sum(med["echo"])
    session = sum(med["session"]) - sum(med["call"])     # a session's start and end, its one call taken out
    print(f"hw7, per case: the harness adds {(own + slot - bare) * 1e6:.1f} us of CPU "
          f"(the bare echo's round trip: {floor_trip * 1e6:.1f} us)")
    least = 2 * session + n_hw7 * (floor_trip + bare)
    now = 2 * session + n_hw7 * (own + slot)
    print(f"a hw7 submission ({n_hw7} cases, 2 sessions) can cost no less than {least * 1e3:.1f} ms of CPU with "
          f"this isolation (round trips at the echo's cost); sessions and round trips cost {now * 1e3:.1f} ms now, "
          f"of which the student's own calls {n_hw7 * bare * 1e3:.1f} ms")


if __name__ == "__main__":
    main()
