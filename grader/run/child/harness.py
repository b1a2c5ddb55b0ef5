"""Entry point inside the sandbox: the zygote, and the shim that runs whole programs.

Runs *inside* the sandbox (standalone: imports only the stdlib, this package —
``codec`` values, ``wire`` line framing, ``linux`` system calls, ``runner`` the
session child, ``monitor`` the ban watcher, lazily — and timeout_decorator if present).

Process tree inside one slot's sandbox (bwrap's pid namespace)::

    bwrap (pid 1)
      zygote            long-lived; speaks to the parent on the control socket
        I               one per session start: unshare(pid+mount ns), waits for G
          G             pid 1 of a fresh pid namespace: loads the student's
                        module and serves calls on its own socketpair

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
    SESSION_NAMESPACES,
    MS_BIND,
    MS_NODEV,
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
class Zygote:
    def __init__(self, cfg: dict[str, Any]) -> None:
        self.cfg = cfg
        sys.dont_write_bytecode = True       # no __pycache__ in the student's scratch
        self.ctl = socket.socket(fileno=cfg["ctl_fd"])
        self.reader = LineReader(self.ctl)
        self.isolated = bool(cfg.get("isolated"))
        self.container = cfg.get("container")   # the container profile: sessions drop to this uid
        self.cur: tuple[int, int | None, str | None] | None = None  # (I pid, G pid, scratch dir or None)
        for p in cfg.get("sys_path", []):
            if p not in sys.path:
                sys.path.append(p)
        # The monitor read its library folders when it was imported, before the parent's
        # sys_path arrived: a venv's site-packages (not the interpreter's own) is known only now.
        monitor.refresh_library_dirs()
        try:
            importlib.import_module("timeout_decorator")  # pre-import for the children
        except Exception:
            pass
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
            line = self.reader.readline()
            if line is None:
                self._kill_current()
                os._exit(0)
            msg = json.loads(line)
            op = msg.get("op")
            if op == "spawn":
                self._kill_current()
                self._spawn(msg)
            elif op == "kill":
                st = self._kill_current()
                _send(self.ctl, {"ok": True, "status": st})
            elif op == "ping":
                _send(self.ctl, {"ok": True})
            elif op == "exit":
                self._kill_current()
                os._exit(0)
            else:
                _send(self.ctl, {"ok": False, "error": f"unknown op {op!r}"})

    def _spawn(self, msg: dict[str, Any]) -> None:
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
                if self.isolated:
                    _chk(libc().unshare(SESSION_NAMESPACES), "unshare")
                elif sys.platform.startswith("linux"):
                    prctl(PR_SET_CHILD_SUBREAPER, 1)
                gpid = os.fork()
                if gpid == 0:
                    os.close(w)
                    try:
                        Child(self.cfg, msg, b, scratch).run()
                    except BaseException:
                        try:
                            sys.__stderr__.write(traceback.format_exc())  # type: ignore[union-attr]
                        except Exception:
                            pass
                    os._exit(121)
                b.close()
                os.write(w, str(gpid).encode())
                os.close(w)
                _intermediate_wait(gpid, self.isolated or bool(self.container))   # container: the uid sweep kills orphans
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
        grandchild = int(data) if data.isdigit() else None
        self.cur = (ipid, grandchild, scratch)
        socket.send_fds(self.ctl, [codec.dumps_line({"ok": grandchild is not None, "gpid": grandchild})], [a.fileno()])
        a.close()

    def _kill_current(self) -> dict[str, int] | None:
        if self.cur is None:
            return None
        ipid, gpid, scratch = self.cur
        self.cur = None
        if gpid:
            for kill in (os.killpg, os.kill):
                try:
                    kill(gpid, signal.SIGKILL)
                except OSError:
                    pass
        status: dict[str, int] | None = None
        try:
            _, st = os.waitpid(ipid, 0)
            if os.WIFEXITED(st):
                status = {"exit": os.WEXITSTATUS(st)}
            elif os.WIFSIGNALED(st):
                status = {"signal": os.WTERMSIG(st)}
        except ChildProcessError:
            pass
        if self.container:       # whatever escaped the process group and the subreaper
            confine.sweep_uid(self.container["uid"], tuple(self.container.get("litter", ())))
        if scratch:
            import shutil
            shutil.rmtree(scratch, ignore_errors=True)
        return status


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
        # a mount ns owned by our (innermost) user ns, so that we may mount
        _chk(libc().unshare(CLONE_NEWNS), "unshare")
        mount(None, "/", None, MS_REC | MS_PRIVATE)
        mount("tmpfs", "/w", "tmpfs", MS_NOSUID | MS_NODEV, f"size={mb}m,mode=0700")
        mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, f"size={mb}m,mode=0700")
        mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0700")
        mount(None, "/dev", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
        drop_all_caps()
        prctl(PR_SET_NO_NEW_PRIVS, 1)
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
    Zygote(cfg).serve()


if __name__ == "__main__":
    main()
