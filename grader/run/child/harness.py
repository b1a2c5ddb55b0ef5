"""Entry point inside the sandbox: the zygote, and the shim that runs whole programs.

Runs *inside* the sandbox (standalone: imports only the stdlib, this package —
``codec`` values, ``wire`` line framing, ``linux`` system calls, ``runner`` the
session child, ``monitor`` the ban watcher, lazily — and timeout_decorator if present).

Process tree inside one slot's sandbox (bwrap's pid namespace)::

    bwrap (pid 1)
      harness           waits for the zygote (see _own_pid_namespace)
       zygote           long-lived, pid 1 of a pid namespace of its own; speaks to
                        the parent on the control socket
        G               one per session: pid 1 of a fresh pid namespace (the zygote
                        unshares it for its next child, forks G, and goes back to its
                        own), in fresh mount, net, ipc, uts and cgroup namespaces of its
                        own (G unshares them first thing); loads the student's module
                        and serves calls on its own socketpair

Without bubblewrap (no namespaces) an intermediate process I sits between the zygote
and G, to kill what G leaves behind.

The zygote creates a fresh socketpair for every G and hands the parent its end
with SCM_RIGHTS, so G never sees the control socket and a dead G leaves no
stale data.  When G dies the kernel kills everything left in its namespace
(daemons included), and its private tmpfs scratch goes with its mount ns.

Usage: python -I -S harness.py '<json config>'
"""
from __future__ import annotations

import json
import os
import signal
import socket
import sys
import time

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: the sandboxed child does not import typing
if TYPE_CHECKING:
    from typing import Any

import importlib.util  # noqa: E402

_HERE = os.path.dirname(os.path.abspath(__file__))
if "_gradechild" not in sys.modules:
    # This folder is the package `_gradechild`, whatever its name on disk.
    _spec = importlib.util.spec_from_file_location(
        "_gradechild", os.path.join(_HERE, "__init__.py"), submodule_search_locations=[_HERE])
    assert _spec is not None and _spec.loader is not None  # a .py path always yields a loadable spec
    _pkg = importlib.util.module_from_spec(_spec)
    sys.modules["_gradechild"] = _pkg
    _spec.loader.exec_module(_pkg)

from _gradechild import codec  # noqa: E402
from _gradechild.linux import (  # noqa: E402
    CLONE_NEWNS,
    CLONE_NEWPID,
    SESSION_NAMESPACES,
    MS_BIND,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_PRIVATE,
    MS_RDONLY,
    MS_REC,
    MS_REMOUNT,
    PR_SET_CHILD_SUBREAPER,
    PR_SET_DUMPABLE,
    PR_SET_NO_NEW_PRIVS,
    _chk,
    drop_all_caps,
    drop_bounding_set,
    libc,
    mount,
    prctl,
)
from _gradechild import confine, monitor  # noqa: E402
from _gradechild.runner import Child  # noqa: E402  (imported before any fork: sessions pay nothing for it)
from _gradechild.wire import LineReader, send as _send  # noqa: E402

# Imported before any fork so that each session pays nothing for them.
import base64  # noqa: E402,F401
import importlib.util  # noqa: E402
import traceback  # noqa: E402
import types  # noqa: E402

try:
    import resource  # noqa: E402
except ImportError:  # pragma: no cover - Windows
    resource = None  # type: ignore[assignment]  # no rlimits on this platform

# --------------------------------------------------------------- zygote
class _Forked:
    """One session process the zygote made: the child it reaps (I, the intermediate, or G
    itself in namespaces), G (the session's pid 1), the zygote's end of G's channel until
    it is handed to the parent, its scratch folder."""

    __slots__ = ("ipid", "gpid", "chan", "scratch")

    def __init__(self, ipid: int, gpid: int | None, chan: socket.socket | None, scratch: str | None) -> None:
        self.ipid, self.gpid, self.chan, self.scratch = ipid, gpid, chan, scratch


class Zygote:
    """Forks sessions on request.  Between submissions the parent may ask it to ``prepare``
    spares: session processes forked into fresh namespaces and isolated ahead of time, each
    waiting for the one session it will serve; a ``spawn`` then hands one over at once.  A
    session ending by ``drop`` is killed without waiting for its namespaces to be torn down
    (it is reaped later); ``kill`` waits, for the status a crash report needs."""

    def __init__(self, cfg: dict[str, Any]) -> None:
        self.cfg = cfg
        sys.dont_write_bytecode = True       # no __pycache__ in the student's scratch
        self.ctl = socket.socket(fileno=cfg["ctl_fd"])
        self.reader = LineReader(self.ctl)
        self.isolated = bool(cfg.get("isolated"))
        self.container = cfg.get("container")   # the container profile: sessions drop to this uid
        self.cur: _Forked | None = None
        self.spares: list[_Forked] = []
        self.dying: list[_Forked] = []
        # The zygote's own pid namespace, to go back to after forking a session into a new one.
        self.pid_ns = os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC) if self.isolated else -1
        for p in cfg.get("sys_path", []):
            if p not in sys.path:
                sys.path.append(p)
        # The monitor read its library folders when it was imported, before the parent's
        # sys_path arrived: a venv's site-packages (not the interpreter's own) is known only now.
        monitor.refresh_library_dirs()
        codec.use_orjson()                   # importable only now that the library folders are on sys.path
        try:
            importlib.import_module("timeout_decorator")  # pre-import for the children
        except Exception:
            pass
        # The slot's watch list, installed once here: every session forked later inherits the
        # tripwires (inactive until a call starts) instead of patching every module itself.
        watch = tuple(cfg.get("watch") or ())
        self.preinstalled = (watch, monitor.Tripwires(watch).install()) if watch else None
        if self.isolated:                    # once for every session (see Child._isolate)
            # A mount namespace of the zygote's own user namespace: only there may it make the
            # mounts private that every session's namespace copies (bubblewrap's is the one above).
            _chk(libc().unshare(CLONE_NEWNS), "unshare")
            mount(None, "/", None, MS_REC | MS_PRIVATE)
            drop_bounding_set()
            confine.prepared_session_filter()   # built once here; every session loads it
            confine.prepared_no_exec_filter()
        if sys.platform.startswith("linux"):
            prctl(PR_SET_DUMPABLE, 0)        # children cannot ptrace / read our memory
        if resource is not None:
            try:
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            except (ValueError, OSError):
                pass

    def serve(self) -> None:
        _send(self.ctl, {"ready": True, "pid": os.getpid(), "isolated": self.isolated})
        while True:
            line = self._next_request()
            if line is None:
                self._kill_all()
                os._exit(0)
            msg = json.loads(line)
            op = msg.get("op")
            self._reap(block=False)
            if op == "spawn":
                self._drop_current()
                if msg.get("settle"):        # another submission: ended sessions must be gone first
                    self._reap(block=True)
                self._spawn()
            elif op == "drop":               # no reply: the session is over, its status unneeded
                self._drop_current()
            elif op == "prepare" and self.container:   # one uid for every session: a sweep would kill spares
                self._drop_current()
            elif op == "prepare":            # no reply: spares for the sessions to come
                self._drop_current()
                self._reap(block=True)
                while len(self.spares) < min(int(msg.get("n", 1)), 4):
                    forked = self._fork()
                    if forked.gpid is None:
                        self._finish(forked, wait=True)
                        break
                    self.spares.append(forked)
            elif op == "kill":
                st = self._kill_current()
                _send(self.ctl, {"ok": True, "status": st})
            elif op == "ping":
                _send(self.ctl, {"ok": True})
            elif op == "exit":
                self._kill_all()
                os._exit(0)
            else:
                _send(self.ctl, {"ok": False, "error": f"unknown op {op!r}"})

    def _next_request(self) -> bytes | None:
        """The parent's next line.  While dropped sessions are dying, their processes are
        reaped as they exit (every few milliseconds of waiting), not at the next request:
        a session ends without its parent waiting for the kernel to tear its namespaces
        down, and no exited process lingers as a zombie of the slot."""
        while self.dying:
            self.ctl.settimeout(0.005)
            try:
                line: bytes | None = self.reader.readline()
                return line
            except TimeoutError:         # socket.timeout: the partial line stays in the reader
                self._reap(block=False)
            finally:
                self.ctl.settimeout(None)    # replies and handed-over channels go out blocking
        last: bytes | None = self.reader.readline()
        return last

    def _spawn(self) -> None:
        forked = self.spares.pop(0) if self.spares else self._fork()
        self.cur = forked
        chan = forked.chan
        forked.chan = None
        ok = forked.gpid is not None and chan is not None
        fds = [chan.fileno()] if chan is not None else []
        socket.send_fds(self.ctl, [codec.dumps_line({"ok": ok, "gpid": forked.gpid})], fds)
        if chan is not None:
            chan.close()

    def _fork(self) -> _Forked:
        """G in fresh namespaces; returns once it is isolated and ready (or is dead)."""
        if self.isolated:
            return self._fork_isolated()
        return self._fork_intermediate()

    def _fork_isolated(self) -> _Forked:
        """G forked straight into a fresh pid namespace: the zygote unshares one for its next
        child only and enters its own again at once (a second one cannot be unshared before
        that).  G unshares the other namespaces itself, before anything else; the zygote's
        descriptors it inherits are closed first."""
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        _chk(libc().unshare(CLONE_NEWPID), "unshare")
        try:
            gpid = os.fork()
        except BaseException:
            self._own_pid_ns()
            raise
        if gpid == 0:  # ---------------- G
            try:
                for sock in [self.ctl, a] + [other.chan for other in self.spares if other.chan is not None]:
                    sock.close()
                os.close(self.pid_ns)
                _chk(libc().unshare(SESSION_NAMESPACES & ~CLONE_NEWPID), "unshare")
                Child(self.cfg, None, b, None, self.preinstalled).run()
            except BaseException:
                _report_crash()
            os._exit(121)
        self._own_pid_ns()
        b.close()
        return _Forked(gpid, gpid if _await_ready(a) else None, a, None)

    def _own_pid_ns(self) -> None:
        """Back to the zygote's own pid namespace for the children to come; a zygote that
        cannot go back would put the next session in this one's, so it ends."""
        if libc().setns(self.pid_ns, CLONE_NEWPID) != 0:
            os._exit(122)

    def _fork_intermediate(self) -> _Forked:
        """I and G, I killing whatever G leaves behind (no pid namespace)."""
        a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        r, w = os.pipe()
        scratch = None
        if not self.isolated:
            import tempfile
            scratch = tempfile.mkdtemp(prefix="s", dir=self.cfg["scratch_root"])
            if self.container:
                os.chown(scratch, self.container["uid"], self.container["gid"])
        ipid = os.fork()
        if ipid == 0:  # ---------------- I
            try:
                os.close(r)
                self.ctl.close()
                a.close()
                for other in self.spares:
                    if other.chan is not None:
                        other.chan.close()
                if sys.platform.startswith("linux"):
                    prctl(PR_SET_CHILD_SUBREAPER, 1)
                gpid = os.fork()
                if gpid == 0:
                    os.close(w)
                    try:
                        Child(self.cfg, None, b, scratch, self.preinstalled).run()
                    except BaseException:
                        _report_crash()
                    os._exit(121)
                b.close()
                os.write(w, str(gpid).encode())
                os.close(w)
                _intermediate_wait(gpid, bool(self.container))   # container: the uid sweep kills orphans
            except BaseException:
                os._exit(120)
            os._exit(120)
        os.close(w)
        b.close()
        data = b""
        while True:
            chunk = os.read(r, 64)
            if not chunk:
                break
            data += chunk
        os.close(r)
        session_pid: int | None = int(data) if data.isdigit() else None
        if session_pid is not None and not _await_ready(a):
            session_pid = None
        return _Forked(ipid, session_pid, a, scratch)

    def _drop_current(self) -> None:
        """End the current session now; its teardown finishes while the zygote goes on."""
        if self.cur is not None:
            forked, self.cur = self.cur, None
            if self.container:           # one uid for every session: end it now, with the uid sweep
                self._finish(forked, wait=True)
                return
            _kill_g(forked)
            self.dying.append(forked)

    def _reap(self, block: bool) -> None:
        keep = []
        for forked in self.dying:
            if not self._finish(forked, wait=block, kill=False):
                keep.append(forked)
        self.dying = keep

    def _finish(self, forked: _Forked, *, wait: bool, kill: bool = True) -> dict[str, int] | None | bool:
        """Kill G, reap I (``wait``: block for it) and remove the scratch folder.  The exit
        status when waited for; without waiting, whether I was reaped."""
        if kill:
            _kill_g(forked)
        if forked.chan is not None:
            forked.chan.close()
            forked.chan = None
        status: dict[str, int] | None = None
        try:
            pid, st = os.waitpid(forked.ipid, 0 if wait else os.WNOHANG)
            if pid == 0:
                return False
            if os.WIFEXITED(st):
                status = {"exit": os.WEXITSTATUS(st)}
            elif os.WIFSIGNALED(st):
                status = {"signal": os.WTERMSIG(st)}
        except ChildProcessError:
            pass
        if self.container and wait:       # whatever escaped the process group and the subreaper
            confine.sweep_uid(self.container["uid"], tuple(self.container.get("litter", ())))
        if forked.scratch:
            import shutil
            shutil.rmtree(forked.scratch, ignore_errors=True)
        return status if wait else True

    def _kill_current(self) -> dict[str, int] | None:
        if self.cur is None:
            return None
        forked, self.cur = self.cur, None
        status = self._finish(forked, wait=True)
        return status if isinstance(status, dict) else None

    def _kill_all(self) -> None:
        self._drop_current()
        for forked in self.spares + self.dying:
            _kill_g(forked)
        for forked in self.spares + self.dying:
            self._finish(forked, wait=True, kill=False)
        self.spares, self.dying = [], []


def _report_crash() -> None:
    try:
        sys.__stderr__.write(traceback.format_exc())  # type: ignore[union-attr]
    except Exception:
        pass


def _kill_g(forked: _Forked) -> None:
    if forked.gpid:
        for kill in (os.killpg, os.kill):
            try:
                kill(forked.gpid, signal.SIGKILL)
            except OSError:
                pass


def _await_ready(chan: socket.socket, timeout: float = 20.0) -> bool:
    """G's one ready byte, sent once it is isolated; nothing (or EOF) means it died."""
    import select

    ready, _, _ = select.select([chan], [], [], timeout)
    if not ready:
        return False
    try:
        return chan.recv(1) == b"R"
    except OSError:
        return False


def _intermediate_wait(gpid: int, isolated: bool) -> None:
    """I: wait for G, kill whatever it left behind, exit with G's status."""
    status: int | None = None
    while True:
        try:
            pid, st = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        except InterruptedError:  # pragma: no cover
            continue
        if pid == gpid:
            status = st
            if not isolated:
                _kill_orphans()
            break
    if status is None:
        os._exit(120)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            signal.signal(sig, signal.SIG_DFL)
        except (OSError, ValueError):
            pass
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 120)


def _kill_orphans() -> None:
    """Fallback mode (no pid namespace): kill descendants re-parented to us."""
    me = str(os.getpid())
    for _ in range(50):
        found = False
        try:
            entries = os.listdir("/proc")
        except OSError:
            return
        for p in entries:
            if not p.isdigit():
                continue
            try:
                with open(f"/proc/{p}/stat") as f:
                    ppid = f.read().rsplit(")", 1)[1].split()[1]
            except (OSError, IndexError):
                continue
            if ppid == me:
                found = True
                try:
                    os.kill(int(p), signal.SIGKILL)
                except OSError:
                    pass
        while True:
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        if not found:
            return
        time.sleep(0.01)


def exec_main(cfg_fd: int) -> None:
    """process.py's shim: set up scratch and limits like a session child, then
    exec the program.  The config (argv, files, limits) comes on an fd."""
    with os.fdopen(cfg_fd, "rb") as f:
        cfg = json.loads(f.read())
    L = cfg["limits"]
    if cfg.get("isolated"):
        mb = int(L.get("scratch_mb", 64))
        # A program that may exec nothing may not map code from a file it wrote either (a compiled
        # .mex file whose bytes an .m file writes out would run inside Octave).
        flags = MS_NOSUID | MS_NODEV | (MS_NOEXEC if cfg.get("last_exec") else 0)
        # a mount ns owned by our (innermost) user ns, so that we may mount
        _chk(libc().unshare(CLONE_NEWNS), "unshare")
        mount(None, "/", None, MS_REC | MS_PRIVATE)
        mount("tmpfs", "/w", "tmpfs", flags, f"size={mb}m,mode=0700")
        mount("tmpfs", "/tmp", "tmpfs", flags, f"size={mb}m,mode=0700")
        mount("tmpfs", "/dev/shm", "tmpfs", flags, "size=1m,mode=0700")
        mount(None, "/dev", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
        drop_all_caps()
        prctl(PR_SET_NO_NEW_PRIVS, 1)
        confine.prepared_session_filter().install()
    scratch = cfg.get("scratch") or "/w"
    if cfg.get("container"):        # no namespaces: own uid, Landlock, seccomp (confine.py)
        confine.enter(cfg["container"], scratch)
    for name, data in cfg["files"].items():
        path = os.path.join(scratch, name)
        if os.path.dirname(name):
            os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))
    os.chdir(scratch)
    Child._rlimits(types.SimpleNamespace(limits=L))
    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    env = cfg.get("env")
    argv = cfg["argv"]
    try:
        if cfg.get("last_exec") and sys.platform.startswith("linux"):   # the program may start no other one: see lastexec.py
            from _gradechild.lastexec import exec_last
            exec_last(argv, env)
        if env is None:
            os.execvp(argv[0], argv)
        os.execvpe(argv[0], argv, env)
    except OSError as e:
        sys.stderr.write(f"cannot run {argv[0]}: {e.strerror}\n")
        os._exit(127)


def main() -> None:
    if sys.argv[1] == "exec":
        exec_main(int(sys.argv[2]))
        return
    cfg = json.loads(sys.argv[1])
    if cfg.get("isolated"):
        _own_pid_namespace(cfg["ctl_fd"])
    Zygote(cfg).serve()


def _own_pid_namespace(ctl_fd: int) -> None:
    """Go on as pid 1 of a pid namespace that the sandbox's own user namespace owns (this
    process waits for it): bubblewrap's belongs to the user namespace above, and only in
    one of its own may the zygote enter its pid namespace again after forking a session
    into a fresh one (``Zygote._own_pid_ns``)."""
    _chk(libc().unshare(CLONE_NEWPID), "unshare")
    pid = os.fork()
    if pid:
        os.close(ctl_fd)                 # the zygote's end alone: its death closes the channel
        _intermediate_wait(pid, True)


if __name__ == "__main__":
    main()
