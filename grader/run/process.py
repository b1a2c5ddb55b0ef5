"""Whole programs (a console program in any language, a compiler) in the same
isolation as sessions: bwrap as the slot's uid, private tmpfs scratch as cwd,
rlimits, no capabilities, no network.  Knows nothing about grading.

    p = spawn(["python3", "game.py"], {"game.py": src}, limits=Limits())
    turn = p.read_turn(timeout=2)       # output until it blocks reading stdin, exits, or times out
    p.send("h\\n"); ...; p.wait(2)

An interactive program is fed only when the kernel says it waits for input: one of its
threads is blocked in ``read`` on the stdin pipe and the pipe is empty
(:meth:`Program.blocked_on_stdin`). Nothing is inferred from what it printed.

    r = run(["javac", "Main.java"], files, "", limits=Limits(), timeout=30,
            binds=["/usr/lib/jvm"])
"""
from __future__ import annotations

import base64
import fcntl
import functools
import json
import os
import platform
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Pattern, Sequence, Union

from . import _bwrap, container
from .meter import CgroupSlot, accounting_cgroup, children
from .sandbox import IsolationProfile, Limits, probe

SHIM = "/opt/grader/_gradechild/harness.py"
#: Sandbox slots (uids) a program gets when its caller names none: clear of ``grader grade``'s (0..jobs-1),
#: the distributed workers' (64..575), tournaments' (100+) and the probe's (999). A slot is claimed with a
#: lock file for the program's lifetime, so no two programs on this machine, in this process or another,
#: share a uid: RLIMIT_NPROC counts every thread of a uid, and two JVMs (or a JVM and javac) sharing one
#: would fail each other's thread creation.
PROGRAM_SLOTS = range(1000, 1512)
_SLOT_LOCKS = os.path.join(tempfile.gettempdir(), "grader-program-slots")

Matcher = Union[str, Pattern[str], Callable[[str], bool]]

# read-like syscalls by architecture (x86_64, aarch64): a thread blocked in one of them on the stdin pipe waits for input
_READ_SYSCALLS = {"x86_64": {0, 17, 19, 295}, "aarch64": {63, 65, 67, 69}}.get(platform.machine(), {0, 17, 19})
_POLL_MIN_S, _POLL_MAX_S = 0.0001, 0.02
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Turn:
    """The output of one turn of an interactive program and how the turn ended.

    ``state``: ``input`` (blocked reading its stdin), ``exit`` (the process ended), ``timeout``.
    ``at`` is the time of the end of the turn, in seconds since the program started.
    """

    text: str
    state: str
    at: float


@dataclass(frozen=True)
class ProgramResult:
    stdout: str
    stderr: str
    exit_code: int | None
    timed_out: bool
    killed_reason: str          # "" | "timeout" | "cpu time limit" | "killed (SIGKILL)" | "crashed (SIGSEGV)" ...
    time_s: float               # CPU time (user+sys) of the program and its waited-for children
    truncated: bool = False


def _reason(code: int | None) -> str:
    if code is None:
        return ""
    sig = -code if code < 0 else (code - 128 if code > 128 else 0)
    if not sig:
        return ""
    if hasattr(signal, "SIGXCPU") and sig == signal.SIGXCPU:
        return "cpu time limit"
    if sig == signal.SIGKILL:
        return "killed (SIGKILL)"
    try:
        return f"crashed ({signal.Signals(sig).name})"
    except ValueError:
        return ""


class Program:
    """A running program; its stdout is read by the caller, stderr in the background."""

    def __init__(self, popen: subprocess.Popen[bytes], limits: Limits, cleanup: Callable[[], None] | None,
                 slot_lock: int | None = None, cgroup: CgroupSlot | None = None):
        assert popen.stdin is not None and popen.stdout is not None  # spawn() pipes all three streams
        self._p = popen
        self._stdin = popen.stdin
        self._stdout = popen.stdout
        self._stdin_inode = os.fstat(self._stdin.fileno()).st_ino
        self._cpu_ticks: dict[int, int] = {}
        self._known_tree: list[int] = []
        self._checks = 0
        self._reader: tuple[int, str] | None = None   # (pid, thread) last seen reading stdin
        self._proc_fds: dict[str, int] = {}            # /proc files read at every check, kept open
        self.started = time.monotonic()
        self._limits = limits
        self._cleanup = cleanup
        self._slot_lock = slot_lock  # the lock file's descriptor of a claimed slot
        self._cgroup = cgroup        # counts every process the program ran, reaped by anyone or not
        self._pending = ""          # received, not yet returned
        self._taken = 0             # bytes of stdout kept so far
        self.truncated = False
        self._eof = False
        self._dec = __import__("codecs").getincrementaldecoder("utf-8")("replace")
        self._err = bytearray()
        self._err_thread = threading.Thread(target=self._drain_err, daemon=True)
        self._err_thread.start()
        self.returncode: int | None = None
        self.time_s = 0.0
        self.killed_reason = ""
        os.set_blocking(self._stdout.fileno(), False)

    @property
    def pid(self) -> int:
        return self._p.pid

    @property
    def stderr(self) -> str:
        return bytes(self._err).decode("utf-8", "replace")

    def _drain_err(self) -> None:
        f = self._p.stderr
        assert f is not None  # spawned with stderr=PIPE
        try:
            while True:
                chunk = f.read1(65536) if hasattr(f, "read1") else f.read(65536)
                if not chunk:
                    break
                room = self._limits.output_bytes - len(self._err)
                if room > 0:
                    self._err += chunk[:room]
                if len(chunk) > max(room, 0):
                    self.truncated = True
        except (OSError, ValueError):
            pass

    def _pump(self, timeout: float) -> bool:
        """Read what is available within timeout; False at EOF."""
        if self._eof:
            return False
        fd = self._stdout.fileno()
        r, _, _ = select.select([fd], [], [], max(0.0, timeout))
        if not r:
            return True
        try:
            chunk = os.read(fd, 65536)
        except BlockingIOError:
            return True
        except OSError:
            chunk = b""
        if not chunk:
            self._eof = True
            self._pending += self._dec.decode(b"", final=True)
            return False
        room = self._limits.output_bytes - self._taken
        if len(chunk) > room:
            self.truncated = True
            chunk = chunk[:max(room, 0)]
        self._taken += len(chunk)
        self._pending += self._dec.decode(chunk)
        return True

    def _tree(self) -> list[int]:
        """The sandboxed process and its descendants (bwrap's own processes included)."""
        found, todo = [], [self._p.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo += children(pid)
        return found

    def _read_kept(self, path: str) -> bytes:
        """A one-line /proc file, its descriptor kept: one pread a check instead of open, read and close.

        A kept descriptor also stays with its process: once that process has gone, the read fails
        rather than reading another process that took its pid.
        """
        fd = self._proc_fds.get(path)
        if fd is None:
            fd = self._proc_fds[path] = os.open(path, os.O_RDONLY)
        try:
            return os.pread(fd, 4096, 0)
        except OSError:
            del self._proc_fds[path]
            os.close(fd)
            raise

    def _task_reads_stdin(self, pid: int, task: str) -> bool:
        """Thread ``task`` of ``pid`` is blocked in a read of a descriptor that is our stdin pipe."""
        try:
            fields = self._read_kept(f"/proc/{pid}/task/{task}/syscall").split()
        except OSError:
            return False
        if len(fields) < 2 or not fields[0].isdigit() or int(fields[0]) not in _READ_SYSCALLS:
            return False
        try:
            return os.stat(f"/proc/{pid}/fd/{int(fields[1], 16)}").st_ino == self._stdin_inode
        except (OSError, ValueError):
            return False

    def _reads_stdin(self, pid: int) -> bool:
        """Some thread of ``pid`` reads our stdin (remembered: Java has dozens of threads, one reads)."""
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            return False
        for task in tasks:
            if self._task_reads_stdin(pid, task):
                self._reader = (pid, task)
                return True
        return False

    def _stdin_pending(self) -> int:
        """Bytes sent to the program that it has not read yet."""
        try:
            return int.from_bytes(fcntl.ioctl(self._stdin.fileno(), termios.FIONREAD, b"\0" * 4), "little")
        except (OSError, ValueError):
            return 0

    def blocked_on_stdin(self) -> bool:
        """The kernel's word that the program waits for input: a read on the empty stdin pipe."""
        self._checks += 1
        if not self._known_tree or self._checks % 16 == 0:   # processes come and go rarely: walk the tree now and then
            self._known_tree = self._tree()
        tree = self._known_tree
        self._sample_cpu(tree)
        if self._stdin.closed or self._stdin_pending():
            return False
        if self._reader:
            if self._task_reads_stdin(*self._reader):
                return True
            if self._checks % 8:
                return False   # the thread that read last time usually reads next; the others every 8th check
        return any(self._reads_stdin(pid) for pid in tree)

    def _sample_cpu(self, tree: list[int]) -> None:
        """CPU time of the process tree as the kernel accounts it (with reaped children), kept per process.

        In a pid namespace the exit status of the sandbox's init carries none of the program's CPU
        time, so the tree is read while it lives, at every check of whether it reads its input.
        """
        for pid in tree:
            try:
                fields = self._read_kept(f"/proc/{pid}/stat").rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            ticks = sum(int(value) for value in fields[11:15])
            self._cpu_ticks[pid] = max(self._cpu_ticks.get(pid, 0), ticks)
        self.time_s = max(self.time_s, sum(self._cpu_ticks.values()) / _CLOCK_TICKS, self._cgroup_s())

    def _cgroup_s(self) -> float:
        """The kernel's count for the program's cgroup: the tree in /proc misses a child that
        lived between two checks and was reaped unseen (``SIGCHLD`` ignored: nobody's
        ``cutime``), and a red team ran a tenth of a second a game in such children."""
        return self._cgroup.cpu_seconds() if self._cgroup is not None else 0.0

    def read_turn(self, timeout: float) -> Turn:
        """Output until the program blocks reading its stdin, exits, or ``timeout`` passes.

        No fixed waits: output is read as it comes, and the process's state is checked
        whenever the output pauses, at first a tenth of a millisecond after the last output (a prompt is
        usually followed at once by the read), backing off to 20 ms.
        """
        deadline = time.monotonic() + timeout
        pause = _POLL_MIN_S
        text = ""
        while True:
            got = len(self._pending)
            alive = self._pump(pause)
            if len(self._pending) > got:
                pause = _POLL_MIN_S
                continue
            if not alive or self.poll() is not None:
                self._pending = self.read_all(0.5)
                state = "exit"
            elif self.blocked_on_stdin():
                self._drain()   # everything written before the read is in the pipe by now
                state = "input"
            elif time.monotonic() >= deadline:
                state = "timeout"
            else:
                pause = min(pause * 2, _POLL_MAX_S)
                continue
            text, self._pending = self._pending, ""
            return Turn(text, state, time.monotonic() - self.started)

    def _drain(self) -> None:
        """Read what is in the stdout pipe now, without waiting."""
        while True:
            got = len(self._pending)
            if not self._pump(0.0) or len(self._pending) == got:
                return

    def send(self, text: str) -> bool:
        """Write to the program's stdin.  False if it no longer reads."""
        try:
            self._stdin.write(text.encode("utf-8"))
            self._stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def close_stdin(self) -> None:
        try:
            self._stdin.close()
        except OSError:
            pass

    def read_until(self, pattern: Matcher, timeout: float) -> str:
        """Output up to and including the first match of pattern (a substring,
        a compiled regex, or a predicate on the text so far).  On timeout or
        EOF without a match, returns everything received (check it)."""
        deadline = time.monotonic() + timeout
        while True:
            text = self._pending
            end = None
            if callable(pattern) and not isinstance(pattern, (str, re.Pattern)):
                if pattern(text):
                    end = len(text)
            elif isinstance(pattern, re.Pattern):
                m = pattern.search(text)
                if m:
                    end = m.end()
            else:
                i = text.find(pattern)
                if i >= 0:
                    end = i + len(pattern)
            if end is not None:
                self._pending = text[end:]
                return text[:end]
            left = deadline - time.monotonic()
            if left <= 0 or self._eof:
                self._pending = ""
                return text
            self._pump(min(left, 0.5))

    def read_all(self, timeout: float) -> str:
        """Everything until EOF (or until timeout)."""
        deadline = time.monotonic() + timeout
        while not self._eof and time.monotonic() < deadline:
            self._pump(min(deadline - time.monotonic(), 0.5))
        text, self._pending = self._pending, ""
        return text

    def poll(self) -> int | None:
        if self.returncode is not None:
            return self.returncode
        try:
            pid, status, ru = os.wait4(self._p.pid, os.WNOHANG)
        except ChildProcessError:
            self.returncode = self._p.poll() if self._p.returncode is None else self._p.returncode
            return self.returncode
        if pid == 0:
            return None
        self.time_s = max(self.time_s, ru.ru_utime + ru.ru_stime, self._cgroup_s())
        self.returncode = os.waitstatus_to_exitcode(status)
        self._p.returncode = self.returncode
        if not self.killed_reason:
            self.killed_reason = _reason(self.returncode)
        self._finish()
        return self.returncode

    def wait(self, timeout: float) -> int | None:
        """Exit status (negative: killed by that signal), or None if still running."""
        deadline = time.monotonic() + timeout
        while True:
            rc = self.poll()
            if rc is not None or time.monotonic() >= deadline:
                return rc
            time.sleep(0.005)

    def kill(self, reason: str = "killed") -> None:
        if self.returncode is None:
            if not self.killed_reason:
                self.killed_reason = reason
            try:
                os.killpg(self._p.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                self._p.kill()
            except OSError:
                pass
            self.wait(5)
        self._finish()

    def _finish(self) -> None:
        for fd in self._proc_fds.values():
            os.close(fd)
        self._proc_fds.clear()
        for f in (self._p.stdin,):
            try:
                if f is not None:
                    f.close()
            except OSError:
                pass
        if self._cleanup:
            c, self._cleanup = self._cleanup, None
            c()
        if self._cgroup is not None:
            self.time_s = max(self.time_s, self._cgroup_s())
            cgroup, self._cgroup = self._cgroup, None
            cgroup.close()
        if self._slot_lock is not None:
            lock, self._slot_lock = self._slot_lock, None
            os.close(lock)          # closing the lock file frees the slot (so does this process ending)

    def __enter__(self) -> Program:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


def _encode_files(files: Mapping[str, str | bytes]) -> dict[str, str]:
    out = {}
    for name, data in files.items():
        norm = os.path.normpath(name)
        if os.path.isabs(norm) or norm.startswith(".."):
            raise ValueError(f"bad file name for the scratch folder: {name!r}")
        if isinstance(data, str):
            data = data.encode("utf-8")
        out[norm] = base64.b64encode(bytes(data)).decode("ascii")
    return out


def _claim_slot() -> tuple[int, int | None]:
    """A free slot of PROGRAM_SLOTS and its held lock (slot 0 and no lock when slots are not uids: not root)."""
    if not _bwrap.is_root():
        return 0, None
    os.makedirs(_SLOT_LOCKS, exist_ok=True)
    for slot in PROGRAM_SLOTS:
        fd = os.open(os.path.join(_SLOT_LOCKS, f"slot-{slot}.lock"), os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        return slot, fd
    raise RuntimeError(f"all {len(PROGRAM_SLOTS)} program sandbox slots on this machine are taken")


def spawn(argv: Sequence[str], files: Mapping[str, str | bytes], *, limits: Limits = Limits(),
          binds: Sequence[Any] = (), env: Mapping[str, str] | None = None,
          profile: IsolationProfile | None = None, slot: int | None = None, last_exec: bool = False,
          masks: Sequence[str] = ()) -> Program:
    """Start argv with files in a private scratch folder as cwd (as ``slot``'s uid; None: a free program slot).

    last_exec: argv's exec is the program's last, it can start no other program (see
    ``child/lastexec.py``; Linux).  masks: folders the program cannot read (bubblewrap shows
    them empty; the container profile leaves them out of its Landlock rules), e.g. a runtime
    the program could load into its own process."""
    profile = profile or probe()
    lock: int | None = None
    if slot is None:
        slot, lock = _claim_slot() if profile.uses_bwrap else (0, None)
    L = limits
    lim = {"memory_mb": L.memory_mb, "cpu_s": L.cpu_s, "nproc": L.nproc, "fsize_mb": L.fsize_mb,
           "nofile": L.nofile, "scratch_mb": L.scratch_mb}
    cfg = {"argv": list(argv), "files": _encode_files(files), "limits": lim,
           "isolated": profile.uses_bwrap, "env": dict(env) if env is not None else None, "last_exec": last_exec}
    cleanup = None
    scratch = None
    if not profile.uses_bwrap or not _bwrap.is_root():
        from .session import _count_own_processes
        lim["nproc_abs"] = L.nproc + _count_own_processes()
    if profile.name.startswith("container"):    # own uid, Landlock, seccomp: see container.py
        box = container.ProgramBox(slot, profile, tuple(b if isinstance(b, str) else b[0] for b in binds), tuple(masks))
        cfg["scratch"], cfg["container"], cleanup = box.scratch, box.config, box.close
        lim.pop("nproc_abs", None)
        # the scratch is the only folder the program may write: HOME and TMPDIR point there
        cfg["env"] = dict(container.ENV if env is None else env, HOME=box.scratch, TMPDIR=box.scratch)
    elif not profile.uses_bwrap:
        scratch = tempfile.mkdtemp(prefix="grader-prog-")
        cfg["scratch"] = scratch
        if env is None:
            cfg["env"] = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
                          "HOME": scratch}
        cleanup = functools.partial(shutil.rmtree, scratch, ignore_errors=True)
    data = json.dumps(cfg).encode()
    rfd, wfd = os.pipe()
    # the config can exceed a pipe's buffer: write it from a thread
    threading.Thread(target=_write_all, args=(wfd, data), daemon=True).start()
    cgroup = None
    if profile.uses_bwrap:
        cgroup = accounting_cgroup(slot) if _bwrap.is_root() else None
        cmd = [_bwrap.inside(os.path.realpath(sys.executable)), "-I", "-S", SHIM, "exec", str(rfd)]
        argv_ = _bwrap.build(cmd, slot=slot, tmp_mb=L.scratch_mb, binds=tuple(binds), masks=tuple(masks),
                             cgroup_procs=tuple(cgroup.procs_files) if cgroup else ()).argv
        penv = {"PATH": "/usr/bin:/bin"}
    else:
        argv_ = [sys.executable, "-I", "-S", os.path.join(_bwrap.CHILD_DIR, "harness.py"), "exec", str(rfd)]
        penv = None
    try:
        p = subprocess.Popen(argv_, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             pass_fds=(rfd,), start_new_session=True, env=penv, close_fds=True)
    except BaseException:
        if lock is not None:
            os.close(lock)
        if cgroup is not None:
            cgroup.close()
        raise
    finally:
        os.close(rfd)
    return Program(p, limits, cleanup, lock, cgroup)


def _write_all(fd: int, data: bytes) -> None:
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    except OSError:
        pass


def run(argv: Sequence[str], files: Mapping[str, str | bytes], stdin: str = "", *, limits: Limits = Limits(),
        timeout: float, binds: Sequence[Any] = (), env: Mapping[str, str] | None = None,
        profile: IsolationProfile | None = None, slot: int | None = None) -> ProgramResult:
    """Run argv to completion with stdin; wall-clock timeout kills it."""
    p = spawn(argv, files, limits=limits, binds=binds, env=env, profile=profile, slot=slot)

    def feed() -> None:
        p.send(stdin)
        p.close_stdin()

    t = threading.Thread(target=feed, daemon=True)
    t.start()
    out = p.read_all(timeout)
    timed_out = False
    rc = p.wait(max(0.5, min(2.0, timeout)))
    if rc is None:
        timed_out = True
        p.kill("timeout")
        rc = p.returncode
    p._err_thread.join(1.0)
    return ProgramResult(stdout=out, stderr=p.stderr, exit_code=rc, timed_out=timed_out,
                         killed_reason=p.killed_reason, time_s=p.time_s, truncated=p.truncated)
