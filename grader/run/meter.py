"""CPU time and memory of a sandbox slot, measured by the kernel from outside the sandbox.

Student code shares its interpreter with the child harness, so whatever the child says
about its own time (``time.process_time``, a profiling timer, the work of a forked helper
or of a thread outside the measured call) can be forged.  The parent therefore reads the
kernel's accounting of *everything* a slot runs:

* **cgroup** (root, cgroup v1 controllers or a v2 tree with ``cpu``/``memory`` delegated):
  one group per slot, ``grader-<parent pid>-slot<N>``; the root launcher joins it
  before it drops privileges, so bwrap, the zygote and every session process are inside.
  The group also gives the slot its own CPU share (``cpu.shares``/``cpu.weight``) and a
  ceiling of one core (CFS quota), a memory ceiling that covers every process and SysV
  shared memory, and a process count ceiling.
* **proc** (no cgroup): the sum of ``utime+stime+cutime+cstime`` over the slot's process
  tree as the host sees it in ``/proc``; a reaped process's time is in its reaper's
  ``cutime``, and every reaper of a session (its pid-namespace init, the zygote) is in
  the tree, so the sum only grows.

Both are read before a case is sent and after its answer arrives; the difference is the
case's CPU time, whatever the child claims.
"""
from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass, field
from typing import Protocol

CG_ROOT = "/sys/fs/cgroup"
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class Meter(Protocol):
    kind: str

    def cpu_seconds(self) -> float:
        """Total CPU time (user + system) of everything the slot has run so far."""
        ...

    def close(self) -> None: ...


# ------------------------------------------------------------------ cgroup
def _write(path: str, value: str) -> bool:
    try:
        with open(path, "w") as f:
            f.write(value)
        return True
    except OSError:
        return False


def _read(path: str) -> str | None:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


@dataclass
class CgroupSlot:
    """One slot's groups in each hierarchy that works on this machine."""

    kind: str
    dirs: dict[str, str] = field(default_factory=dict)   # controller -> group folder
    _usage: str = ""                                     # the file holding cumulative CPU time

    @property
    def procs_files(self) -> list[str]:
        return [os.path.join(d, "cgroup.procs") for d in self.dirs.values()]

    _fd: int = -1                                        # the usage file, kept open: read once per call

    def cpu_seconds(self) -> float:
        """One pread on a descriptor opened once (a cgroup file is regenerated on every read
        from offset 0), not an open/read/close per call; v1's count, one number, into a
        buffer of 64 bytes, not 4 KiB."""
        try:
            if self._fd < 0:
                self._fd = os.open(self._usage, os.O_RDONLY | os.O_CLOEXEC)
            if self.kind == "cgroup-v1":
                return int(os.pread(self._fd, 64, 0)) / 1e9     # cpuacct.usage: nanoseconds
            text = os.pread(self._fd, 4096, 0)
        except OSError:
            return 0.0
        at = text.find(b"usage_usec ")
        if at < 0:
            return 0.0
        return int(text[at + 11:text.find(b"\n", at)]) / 1e6

    def memory_peak_mb(self) -> float | None:
        for name in ("memory.max_usage_in_bytes", "memory.peak"):
            text = _read(os.path.join(self.dirs.get("memory", ""), name))
            if text and text.strip().isdigit():
                return int(text) / 2**20
        return None

    def close(self) -> None:
        """Remove the groups (their processes are already dead; a stray one is killed first)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        for d in self.dirs.values():
            _write(os.path.join(d, "cgroup.kill"), "1")
            for line in (_read(os.path.join(d, "cgroup.procs")) or "").split():
                try:
                    os.kill(int(line), 9)
                except (OSError, ValueError):
                    pass
            # A killed process leaves its group a few ms later: poll finely at first (a
            # student's check waits for this at its end), for a second at most.
            pause, deadline = 0.001, time.monotonic() + 1.0
            while True:
                try:
                    os.rmdir(d)
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(pause)
                    pause = min(pause * 2, 0.02)
        self.dirs.clear()


def _v1(controller: str) -> str | None:
    path = os.path.join(CG_ROOT, controller)
    return path if os.path.isfile(os.path.join(path, "cgroup.procs")) and os.access(path, os.W_OK) else None


def make_cgroup(slot: int, *, memory_mb: int, nproc: int) -> CgroupSlot | None:
    """This slot's cgroup, or None when the machine does not let us make one (not root,
    no writable hierarchy)."""
    return _make(slot, memory_mb=memory_mb, nproc=nproc, limited=True)


def accounting_cgroup(slot: int) -> CgroupSlot | None:
    """A group that only counts the CPU time of everything in it (a console program's: its
    limits are its rlimits and wall clocks, and a JVM's threads may use every core), or None."""
    return _make(slot, memory_mb=0, nproc=0, limited=False, tag=f"-program{next(_programs)}")


_programs = itertools.count()


def _make(slot: int, *, memory_mb: int, nproc: int, limited: bool, tag: str = "") -> CgroupSlot | None:
    if not hasattr(os, "geteuid") or os.geteuid() != 0 or not os.path.isdir(CG_ROOT):
        return None
    _remove_stale()
    # At the top level, like any process: a slot competes for CPU as one task would.  Each
    # program has a group of its own (``tag``), even two programs of one slot or a program of
    # a session slot's number (Octave's): closing a group kills what is in it.
    name = f"grader-{os.getpid()}-slot{slot}{tag}"
    slot_cg = CgroupSlot("cgroup-v1")
    for controller in ("cpu", "cpuacct", "memory", "pids") if limited else ("cpuacct",):
        root = _v1(controller)
        if root is None:
            continue
        d = os.path.join(root, name)
        try:
            os.makedirs(d, exist_ok=True)
        except OSError:
            continue
        slot_cg.dirs[controller] = d
    if "cpuacct" not in slot_cg.dirs:
        slot_cg.close()
        return _make_v2(name, memory_mb=memory_mb, nproc=nproc, limited=limited)
    slot_cg._usage = os.path.join(slot_cg.dirs["cpuacct"], "cpuacct.usage")
    if not limited:
        return slot_cg
    cpu = slot_cg.dirs.get("cpu")
    if cpu:
        _write(os.path.join(cpu, "cpu.shares"), "1024")          # every slot the same share
        _write(os.path.join(cpu, "cpu.cfs_period_us"), "100000")
        _write(os.path.join(cpu, "cpu.cfs_quota_us"), "100000")  # and at most one core
    mem = slot_cg.dirs.get("memory")
    if mem:
        limit = str((memory_mb + 256) * 2**20)                   # the session plus the zygote
        _write(os.path.join(mem, "memory.limit_in_bytes"), limit)
        _write(os.path.join(mem, "memory.memsw.limit_in_bytes"), limit)
    pids = slot_cg.dirs.get("pids")
    if pids:
        _write(os.path.join(pids, "pids.max"), str(nproc + 16))
    return slot_cg


def _remove_stale() -> None:
    """Empty groups left by a grader that was killed (its pid is gone)."""
    for controller in ("cpu", "cpuacct", "memory", "pids", "unified"):
        root = os.path.join(CG_ROOT, controller)
        try:
            entries = [e for e in os.listdir(root) if e.startswith("grader-") and "-slot" in e]
        except OSError:
            continue
        for entry in entries:
            pid = entry[len("grader-"):].split("-slot")[0]
            if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                try:
                    os.rmdir(os.path.join(root, entry))
                except OSError:
                    pass


def _make_v2(name: str, *, memory_mb: int, nproc: int, limited: bool) -> CgroupSlot | None:
    """A group in the unified (v2) tree; CPU time works with no controller delegated."""
    for root in (os.path.join(CG_ROOT, "unified"), CG_ROOT):
        if not os.path.isfile(os.path.join(root, "cgroup.procs")) or os.path.isdir(os.path.join(root, "cpu")):
            continue
        d = os.path.join(root, name)
        try:
            os.makedirs(d, exist_ok=True)
        except OSError:
            continue
        slot_cg = CgroupSlot("cgroup-v2", {"unified": d}, os.path.join(d, "cpu.stat"))
        if limited:
            _write(os.path.join(d, "cpu.weight"), "100")
            _write(os.path.join(d, "cpu.max"), "100000 100000")
            _write(os.path.join(d, "memory.max"), str((memory_mb + 256) * 2**20))
            _write(os.path.join(d, "pids.max"), str(nproc + 16))
        if _read(slot_cg._usage) is not None:
            return slot_cg
        slot_cg.close()
    return None


# ------------------------------------------------------------------ /proc
def _read_raw(path: str) -> bytes:
    """A small /proc file in one read: three system calls, no text layer (a program's tree is
    walked hundreds of times a session)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return b""
    try:
        data = os.read(fd, 4096)
        while len(data) % 4096 == 0 and data:    # a long list of children
            more = os.read(fd, 4096)
            if not more:
                break
            data += more
        return data
    except OSError:
        return b""
    finally:
        os.close(fd)


def children(pid: int) -> list[int]:
    """Every thread's children: /proc lists a child under the thread that forked it (a process
    forked by a student's thread is not in the main thread's list)."""
    try:
        threads = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for tid in threads:
        found += [int(x) for x in _read_raw(f"/proc/{pid}/task/{tid}/children").split() if x.isdigit()]
    return found


def _stat_ticks(pid: int) -> int:
    text = _read(f"/proc/{pid}/stat")
    if not text:
        return 0
    fields = text.rsplit(")", 1)[-1].split()
    try:
        return int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
    except (IndexError, ValueError):
        return 0


class ProcTree:
    """CPU time of a host process and all its descendants, from ``/proc``."""

    kind = "proc"

    def __init__(self, root_pid: int) -> None:
        self.root_pid = root_pid

    def cpu_seconds(self) -> float:
        total, todo, seen = 0, [self.root_pid], set()
        while todo:
            pid = todo.pop()
            if pid in seen:
                continue
            seen.add(pid)
            total += _stat_ticks(pid)
            todo += children(pid)
        return total / _TICKS

    def close(self) -> None:
        pass


def proc_available() -> bool:
    pid = os.getpid()
    return os.path.exists(f"/proc/{pid}/task/{pid}/children")


__all__ = ["CgroupSlot", "Meter", "ProcTree", "accounting_cgroup", "children", "make_cgroup", "proc_available"]
