"""Sandboxed runner for student functions.  Knows nothing about grading.

One :class:`Sandbox` per worker slot starts a long-lived *zygote* inside
bubblewrap (run as an unprivileged per-slot uid) that has already imported the
child harness.  Each :class:`Session` costs one fork: the zygote forks a child
into a fresh pid + mount namespace with its own tmpfs scratch, rlimits, no
capabilities and no_new_privs, and hands the parent the child's end of a fresh
socketpair.  Parent and child then speak strict JSON lines in lockstep (see
``child/codec.py``): one request, exactly one reply carrying the request's
nonce.  Anything else is a protocol violation.

Without bubblewrap (a student's own machine, macOS) the same zygote runs as a
plain subprocess with rlimits only; its profile says ``secure=False``.
"""
from __future__ import annotations

import atexit
import base64
import hashlib
import marshal
import os
import select
import socket
import subprocess
import sys
import threading
import time
from typing import IO, Any, Mapping, Sequence

from . import _bwrap, container, meter
from .child import codec
from .model import CallResult, IsolationProfile, Limits, LoadResult, SandboxError
from .session import Session, _read_line, kill_tree

HARNESS = os.path.join(_bwrap.CHILD_DIR, "harness.py")
SCRATCH = "/w"   # the session's scratch folder inside bubblewrap (child/runner.py mounts it)
SANDBOX_HARNESS = _bwrap.SANDBOX_CHILD_PKG + "/harness.py"

__all__ = ["CallResult", "IsolationProfile", "Limits", "LoadResult", "Sandbox", "SandboxError", "Session", "probe"]


_BWRAP_LAYERS = ("user-ns", "pid-ns", "net-ns", "ipc-ns", "uts-ns", "cgroup-ns", "mount-ns",
                 "pid-ns-per-session", "private-tmpfs-scratch", "read-only-root", "no-userns",
                 "cap-drop", "no-new-privs", "non-dumpable-zygote", "rlimits")
_probe_cache: IsolationProfile | None = None
_probe_lock = threading.Lock()
# The probe's own sandbox, kept when asked (``probe(keep=True)``): a self-check then runs its
# one session in it instead of starting a second zygote after the probe (~150 ms of wall time).
_kept: Sandbox | None = None


def _fallback_profile() -> IsolationProfile:
    if sys.platform == "win32" or not hasattr(os, "fork"):
        return IsolationProfile("portable", ("subprocess", "parent-kill"), False)  # see portable.py
    return IsolationProfile("rlimits", ("rlimits", "own-session"), False)


def probe(keep: bool = False) -> IsolationProfile:
    """Which isolation this machine supports (cached).  Tries a real sandboxed
    session when bubblewrap is present, so a profile claiming bwrap works.  ``keep``: the
    sandbox that session ran in stays open for :func:`kept_sandbox` (it ran only the probe's
    own code)."""
    global _probe_cache, _kept
    with _probe_lock:
        if _probe_cache is not None:
            return _probe_cache
        prof = _fallback_profile()
        if not container.forced() and sys.platform.startswith("linux") and _bwrap.bwrap_path() and hasattr(socket, "send_fds"):
            layers = _BWRAP_LAYERS + (("unprivileged-uid",) if _bwrap.is_root() else ())
            name = "bwrap+uid+rlimits" if _bwrap.is_root() else "bwrap+rlimits"
            measured, box = _trial(IsolationProfile(name, layers, True), keep)
            if measured is not None:
                prof = IsolationProfile(name, layers + (f"cpu-time-from-{measured}",), True)
            if box is not None:
                box.profile, _kept = prof, box
                atexit.register(box.close)
        if not prof.secure and container.possible():   # bubblewrap cannot start: a container
            boxed, why = container.probe(lambda cand: _trial(cand)[0])
            prof = boxed or IsolationProfile(prof.name, prof.layers + (f"no container profile: {why}",), False)
        _probe_cache = prof
        return prof


def probe_and_hold() -> None:
    """``probe(keep=True)`` for a thread of its own, which then waits until the kept sandbox
    is closed.  bubblewrap's ``--die-with-parent`` is a parent-death signal, which Linux
    sends when the *thread* that started the sandbox ends: a probe thread that returned at
    once would take the kept zygote with it, and the check would start a second one."""
    probe(keep=True)
    with _probe_lock:
        box = _kept
    if box is not None:
        box.closed.wait()


def _trial(cand: IsolationProfile, keep: bool = False) -> tuple[str | None, Sandbox | None]:
    """Run one real session under ``cand``: the kind of its CPU meter (None if it failed), and
    with ``keep`` the sandbox it ran in, still open, when it worked."""
    sb = Sandbox(cand, Limits(), slot=999)
    kind = None
    try:
        with sb.session({"probe_mod.py": "def f():\n    return 1\n"}, "probe_mod.py") as s:
            r = s.call("f", [], time_limit=5)
            if s.load.ok and r.status == "ok" and r.value == 1:
                kind = sb.meter.kind if sb.meter is not None else "child-reported"
    except Exception:
        pass
    if kind is not None and keep:
        return kind, sb
    sb.close()
    return kind, None


def kept_sandbox(profile: IsolationProfile, limits: Limits, watch: Sequence[str]) -> Sandbox | None:
    """The probe's kept sandbox (see ``probe(keep=True)``), taken once, when it has this
    profile and these limits and its zygote still runs; else None (and it is closed)."""
    global _kept
    with _probe_lock:
        sb, _kept = _kept, None
    if sb is None:
        return None
    if sb.profile != profile or sb.limits != limits or sb._proc is None or sb._proc.poll() is not None:
        sb.close()
        return None
    sb.watch = tuple(watch)      # a restarted zygote preinstalls these; sessions install their own until then
    return sb


# ------------------------------------------------------------------ Sandbox
class Sandbox:
    """One worker slot; runs sessions one at a time."""

    def __init__(self, profile: IsolationProfile | None = None, limits: Limits = Limits(), slot: int = 0,
                 watch: Sequence[str] = ()):
        self.profile = profile or probe()
        self.limits = limits
        self.slot = slot
        # The banned callables this slot's sessions usually watch: the zygote installs their
        # tripwires once and every session inherits them (a session watching others installs its own).
        self.watch = tuple(watch)
        self._proc: subprocess.Popen[bytes] | None = None
        self._ctl: socket.socket | None = None
        self._ctl_buf = bytearray()
        self._fds: list[int] = []
        self._scratch_root: str | None = None
        self.closed = threading.Event()          # set by close(); probe_and_hold waits on it
        self.zygote_starts = 0
        self._code: tuple[tuple[str, bytes], str | None] | None = None   # the last main file compiled
        self._files_digest = b""                 # the files of the last session started
        # The session whose process is the zygote's current one.  The zygote runs one at a
        # time: a spawn (or a prepare) ends the current process, whichever session owns it,
        # so a session that is not the holder has lost its child and must not end another's.
        self.holder: Session | None = None
        self.meter: meter.Meter | None = None      # the kernel's CPU accounting of this slot
        self._cgroup: meter.CgroupSlot | None = None
        self._box: container.Slot | None = None   # the container profile's uid, scratch and cgroup

    # -- zygote -----------------------------------------------------------
    def _start(self) -> None:
        self._stop()
        parent, child = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        cfg: dict[str, Any] = {"ctl_fd": child.fileno(), "isolated": self.profile.uses_bwrap,
                               "scratch_mb": self.limits.scratch_mb, "watch": list(self.watch)}
        if self.profile.uses_bwrap:
            cfg["sys_path"] = [_bwrap.inside(d) for d in _bwrap.site_dirs()]
            cmd = [_bwrap.inside(os.path.realpath(sys.executable)), "-I", "-S", SANDBOX_HARNESS]
            import json
            if self._cgroup is None:
                self._cgroup = meter.make_cgroup(self.slot, memory_mb=self.limits.memory_mb, nproc=self.limits.nproc)
            procs = tuple(self._cgroup.procs_files) if self._cgroup else ()
            b = _bwrap.build(cmd + [json.dumps(cfg)], slot=self.slot, tmp_mb=self.limits.scratch_mb, cgroup_procs=procs)
            argv = b.argv
            env = {"PATH": "/usr/bin:/bin"}
        elif self.profile.name.startswith("container"):
            if self._box is None:
                self._box = container.Slot(self.slot, self.limits, self.profile)
                self._cgroup = self._box.cgroup
            argv, env = self._box.zygote(cfg, HARNESS)
        else:
            import json
            import tempfile
            self._scratch_root = tempfile.mkdtemp(prefix=f"grader-slot{self.slot}-")
            cfg["scratch_root"] = self._scratch_root
            cfg["sys_path"] = _bwrap.site_dirs()
            argv = [sys.executable, "-I", "-S", HARNESS, json.dumps(cfg)]
            env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
                   "PYTHONDONTWRITEBYTECODE": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
        try:
            self._proc = subprocess.Popen(argv, pass_fds=(child.fileno(),), stdin=subprocess.DEVNULL,
                                          stdout=subprocess.DEVNULL,
                                          stderr=None if os.environ.get("GRADER_SANDBOX_DEBUG") else subprocess.PIPE,
                                          start_new_session=True, env=env, close_fds=True)
        finally:
            child.close()
        if self._box is not None:
            self._box.started(self._proc.pid)
        self._ctl = parent
        self._ctl_buf = bytearray()
        self.zygote_starts += 1
        if self._cgroup is not None:
            self.meter = self._cgroup
        elif meter.proc_available():
            self.meter = meter.ProcTree(self._proc.pid)
        line, why = _read_line(parent, self._ctl_buf, time.monotonic() + 20)
        if why:
            err = b""
            try:
                self._proc.kill()
                err = self._proc.stderr.read()[-2000:] if self._proc.stderr else b""
            except Exception:
                pass
            self._stop()
            raise SandboxError(f"the sandbox did not start ({why}): {err.decode(errors='replace').strip()}")
        # from now on stderr of the zygote is not read; avoid a full pipe
        if self._proc.stderr is not None:
            threading.Thread(target=_drain, args=(self._proc.stderr,), daemon=True).start()

    def _stop(self) -> None:
        self.holder = None                       # its sessions' processes go with the zygote
        if self._ctl is not None:
            try:
                self._ctl.close()
            except OSError:
                pass
            self._ctl = None
        if self._proc is not None:
            p = self._proc
            self._proc = None
            kill_tree(p)
            try:
                p.wait(5)
            except Exception:
                pass

    def _request(self, msg: dict[str, Any], want_fd: bool = False, timeout: float = 20.0) -> tuple[dict[str, Any], int | None]:
        """One control request, one reply (and an fd for 'spawn').  Restarts a
        dead zygote once."""
        for attempt in (0, 1):
            if self._ctl is None or self._proc is None or self._proc.poll() is not None:
                self._start()
            ctl = self._ctl
            assert ctl is not None  # _start connects the channel or raises
            try:
                ctl.sendall(codec.dumps_line(msg))
                reply, fd = self._recv_reply(ctl, want_fd, time.monotonic() + timeout)
                return reply, fd
            except (OSError, SandboxError) as exc:
                self._stop()
                if attempt:
                    raise SandboxError("the sandbox's zygote stopped answering") from exc
        raise AssertionError("unreachable")

    def _recv_reply(self, ctl: socket.socket, want_fd: bool, deadline: float) -> tuple[dict[str, Any], int | None]:
        fds: list[int] = []
        buf = self._ctl_buf
        while b"\n" not in buf:
            r, _, _ = select.select([ctl], [], [], max(0.0, deadline - time.monotonic()))
            if not r:
                raise SandboxError("the zygote did not answer in time")
            data, got, _flags, _addr = socket.recv_fds(ctl, 1 << 16, 4)
            fds += got
            if not data:
                raise SandboxError("the zygote closed the control channel")
            buf += data
        i = buf.find(b"\n")
        line = bytes(buf[:i])
        del buf[:i + 1]
        reply = codec.loads_line(line)
        if want_fd:
            if len(fds) != 1:
                for f in fds:
                    os.close(f)
                raise SandboxError("the zygote did not pass a channel")
            return reply, fds[0]
        for f in fds:
            os.close(f)
        return reply, None

    def _post(self, msg: dict[str, Any]) -> None:
        """A control message that has no reply (``drop``, ``prepare``); a dead zygote is
        noticed, and restarted, by the next request."""
        if self._ctl is None or self._proc is None or self._proc.poll() is not None:
            return
        try:
            self._ctl.sendall(codec.dumps_line(msg))
        except OSError:
            self._stop()

    # -- public -----------------------------------------------------------
    def prepare(self, sessions: int = 2) -> None:
        """Have the next ``sessions`` session processes forked into fresh namespaces and
        isolated now, while the parent does other work (judging); call it when no session of
        this slot is running, so their CPU time is never counted in a call's."""
        if not self.closed.is_set() and self.profile.name != "portable":
            self.holder = None                   # the zygote ends its current session first
            self._post({"op": "prepare", "n": int(sessions)})

    def session(self, files: Mapping[str, str | bytes], main: str, watch: Sequence[str] = (),
                *, load_time_limit: float = 10.0) -> "Session":
        if self.closed.is_set():
            raise SandboxError("the sandbox is closed")
        if self.profile.name == "portable":      # no fork: one subprocess per session, no zygote
            from .portable import PortableSession
            return PortableSession(self, files, main, watch, load_time_limit)
        return Session(self, files, main, watch, load_time_limit, code=self._compiled(files, main))

    def _other_code(self, files: Mapping[str, str]) -> bool:
        """Does this session run other files than the last one?  Then the zygote first waits
        until every ended session is gone: a session's end is not waited for (see
        ``Session.close``), so its exit may still be using CPU time, and that may be charged
        only to the same code (a submission's hidden session after its public one), never to
        another student's first case."""
        digest = hashlib.sha256()
        for name in sorted(files):
            digest.update(name.encode("utf-8", "surrogatepass") + b"\0" + files[name].encode("ascii") + b"\0")
        value = digest.digest()
        changed, self._files_digest = value != self._files_digest, value
        return changed

    def _compiled(self, files: Mapping[str, str | bytes], main: str) -> str | None:
        """The main file compiled here, once for a submission's sessions (kept for the next
        one), marshalled for the child; None where the child's path is not known in advance
        (no bubblewrap) or the file does not compile (the child then reports why)."""
        if not self.profile.uses_bwrap or main not in files:
            return None
        source = files[main]
        data = source.encode("utf-8") if isinstance(source, str) else bytes(source)
        key = (os.path.normpath(main), hashlib.sha256(data).digest())
        if self._code is not None and self._code[0] == key:
            return self._code[1]
        try:
            code = compile(data, os.path.join(SCRATCH, key[0]), "exec", dont_inherit=True, optimize=-1)
            text: str | None = base64.b64encode(marshal.dumps(code)).decode("ascii")
        except Exception:    # SyntaxError, ValueError (null bytes), RecursionError: the child's import says it
            text = None
        self._code = (key, text)
        return text

    def close(self) -> None:
        self.closed.set()
        self._stop()
        if self._box is not None:
            self._box.close()                    # also closes the cgroup
            self._box = None
        elif self._cgroup is not None:
            self._cgroup.close()
        self._cgroup = None
        self.meter = None
        if self._scratch_root:
            import shutil
            shutil.rmtree(self._scratch_root, ignore_errors=True)
            self._scratch_root = None

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:  # pragma: no cover - best effort
        try:
            self._stop()
        except Exception:
            pass


def _drain(f: IO[bytes]) -> None:
    try:
        while f.read(65536):
            pass
    except Exception:
        pass
