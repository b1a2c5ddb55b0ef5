"""The session child: loads the student's module and runs calls, one request at a time.

Runs inside the sandbox (standalone: stdlib, this package, the monitor lazily). Every
call is timed by CPU and wall-clock alarms, its output captured, its value encoded with exact type checks; a reply line goes back per call.
"""
from __future__ import annotations

import base64
import importlib.util
import io
import marshal
import os
import signal
import sys
import threading
import time
import traceback
import types

try:
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None  # type: ignore[assignment]  # no rlimits on this platform

try:
    import _signal  # type: ignore[import-not-found]  # the C functions behind ``signal``'s enum-building wrappers
except ImportError:  # pragma: no cover - an interpreter without it
    _signal = signal

from _gradechild import codec, confine
from _gradechild.deadlines import slowed_until
from _gradechild.monitor import CallWatcher, Tripwires  # imported in the zygote: sessions pay nothing
from _gradechild.linux import (
    MS_BIND,
    MS_NODEV,
    MS_NOEXEC,
    MS_NOSUID,
    MS_RDONLY,
    MS_REMOUNT,
    PR_SET_DUMPABLE,
    PR_SET_NO_NEW_PRIVS,
    drop_caps,
    mount,
    prctl,
)
from _gradechild.wire import LineReader, send as _send

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: the sandboxed child does not import typing
if TYPE_CHECKING:
    import socket
    from typing import Any, Callable


# Captured before any student code runs: it may rebind os.getpid and os._exit, not these.
_getpid, _exit = os.getpid, os._exit
_ITIMER_REAL = int(getattr(signal, "ITIMER_REAL", 0))
_ITIMER_PROF = int(getattr(signal, "ITIMER_PROF", 2))
_SIGPROF = int(getattr(signal, "SIGPROF", -1))

class _CallTimeout(BaseException):
    """Raised by the SIGALRM timer; a BaseException so `except Exception` in
    student code does not swallow it."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)


def _text(obj: object, cap: int = 2000) -> str:
    """str(obj) forced to an exact str, capped; never raises."""
    try:
        s = str(obj)
        if type(s) is not str:
            s = str.__str__(s)
    except BaseException:
        s = "<unprintable>"
    if len(s) > cap:
        s = s[:cap] + "..."
    return s


def _close_all_but(*keep: int) -> None:
    """Close every descriptor but ``keep``.  With the close_range system call (Linux 5.9),
    one per gap up to the descriptor limit; without it (closerange would then close every
    number one by one), those /proc/self/fd lists."""
    if _CLOSE_RANGE:
        low = 0
        for fd in sorted(set(keep)):
            if fd > low:
                os.closerange(low, fd)
            low = fd + 1
        os.closerange(low, _MAX_FD)
        return
    try:
        fds = [int(x) for x in os.listdir("/proc/self/fd")]
    except OSError:
        fds = list(range(3, 1024))
    for fd in fds:
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def _has_close_range() -> bool:
    try:
        major, minor = (int(x) for x in os.uname().release.split(".")[:2])
    except (AttributeError, ValueError):
        return False
    return sys.platform.startswith("linux") and (major, minor) >= (5, 9)


_CLOSE_RANGE = _has_close_range()
_MAX_FD = os.sysconf("SC_OPEN_MAX") if _CLOSE_RANGE else 0   # none is opened above the limit


class Child:
    """One session's process.  ``msg`` (main file, limits, nonce, watch list, files) arrives as
    the first line on its own channel, so a child can be forked and isolated before the
    session it will serve is known (a spare); ``preinstalled``: the zygote's tripwires and
    the names they watch, used when the session watches the same names."""

    def __init__(self, cfg: dict[str, Any], msg: dict[str, Any] | None, sock: socket.socket, scratch: str | None,
                 preinstalled: tuple[tuple[str, ...], Any] | None = None) -> None:
        self.cfg = cfg
        self.msg = dict(msg or {})
        self.sock = sock
        self.reader = LineReader(sock)
        self.isolated = bool(cfg.get("isolated"))
        self._pid = _getpid()                # the one process that answers (see _reply); a
        # forked session sets it again in _before_session, the portable profile's child keeps it
        self.scratch = scratch or "/w"
        self.module: types.ModuleType | None = None
        self.tripwires: Any = None
        self._preinstalled = preinstalled
        self._watcher: Any = None
        self.out_fd = -1
        self._session_limits()
        self._task_fd = -1
        self._task_id = (0, 0)
        self._armed = False
        self._cpu_deadline = 0.0
        self._wall_deadline = 0.0
        self._cpu_at = 0.0                   # when the pending timers fire (process time, perf_counter); 0: none
        self._wall_at = 0.0
        self._timer_signals = tuple(int(getattr(signal, n)) for n in ("SIGALRM", "SIGPROF") if hasattr(signal, n))
        self._handler = _handler_of(self)    # one function: ``is`` finds it installed

    def _session_limits(self) -> None:
        self.limits = self.msg.get("limits") or {}
        self.out_cap = int(self.limits.get("output_bytes", 32000))

    # -- setup ------------------------------------------------------------
    def _isolate(self) -> None:
        """The session's own /proc, scratch, /tmp and /dev/shm, and no capability left.  The
        zygote made its mounts private and dropped the bounding set once (``Zygote.__init__``):
        this process's copies of both are already so."""
        mb = int(self.cfg.get("scratch_mb") or self.limits.get("scratch_mb", 64))
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
        mount("tmpfs", "/w", "tmpfs", MS_NOSUID | MS_NODEV, f"size={mb}m,mode=0700")
        mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, f"size={mb}m,mode=0700")
        mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0700")
        mount(None, "/dev", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
        drop_caps()

    def _rlimits(self) -> None:
        if resource is None:
            return
        L = self.limits
        mb = 1024 * 1024
        want = [
            ("RLIMIT_CORE", 0),
            ("RLIMIT_AS", int(L["memory_mb"]) * mb),
            ("RLIMIT_CPU", int(L["cpu_s"])),
            ("RLIMIT_NPROC", int(L.get("nproc_abs", L["nproc"]))),
            ("RLIMIT_FSIZE", int(L["fsize_mb"]) * mb),
            ("RLIMIT_NOFILE", int(L["nofile"])),
        ]
        for name, val in want:
            r = getattr(resource, name, None)
            if r is None:
                continue
            soft, hard = val, val
            if name == "RLIMIT_CPU":
                hard = val + 2          # SIGXCPU at soft, SIGKILL at hard
            try:
                cur_soft, cur_hard = resource.getrlimit(r)
                if cur_hard != resource.RLIM_INFINITY:
                    hard = min(hard, cur_hard)
                    soft = min(soft, hard)
                resource.setrlimit(r, (soft, hard))
            except (ValueError, OSError):
                pass

    def _before_session(self) -> None:
        """Everything that needs nothing of the session: namespaces' mounts, capabilities,
        no_new_privs, the seccomp filter.  Then one byte tells the zygote this child is ready."""
        if self.cfg.get("container"):        # no namespaces: own uid, Landlock, seccomp (confine.py)
            from _gradechild.confine import enter
            enter(self.cfg["container"], self.scratch)
        if self.isolated:
            self._isolate()
        self._pid = _getpid()                # this session's process, forked from the zygote
        if sys.platform.startswith("linux"):
            prctl(PR_SET_DUMPABLE, 1)        # our own /proc/self stays readable
            prctl(PR_SET_NO_NEW_PRIVS, 1)
            if self.isolated:
                confine.prepared_session_filter().install()   # see confine.session_filter
            if self.isolated or self.cfg.get("container"):
                confine.prepared_no_exec_filter().install()   # see confine.no_exec_filter
        try:
            os.setsid()
        except OSError:
            pass
        self.sock.sendall(b"R")

    def _setup(self) -> None:
        for name, data in self.msg["files"].items():
            data = base64.b64decode(data)
            path = os.path.join(self.scratch, name)
            if os.path.dirname(name):
                os.makedirs(os.path.dirname(path), exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
            try:
                while data:
                    data = data[os.write(fd, data):]
            finally:
                os.close(fd)
        os.chdir(self.scratch)
        # captured output: fd 1 and 2 -> an anonymous file (no name to find)
        if hasattr(os, "memfd_create"):
            self.out_fd = os.memfd_create("output", 0)
        else:  # pragma: no cover - macOS
            import tempfile
            fd, p = tempfile.mkstemp(dir=self.scratch)
            os.unlink(p)
            self.out_fd = fd
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(self.out_fd, 1)
        os.dup2(self.out_fd, 2)
        if hasattr(signal, "SIGXFSZ"):
            _signal.signal(int(signal.SIGXFSZ), _signal.SIG_IGN)
        _close_all_but(0, 1, 2, self.out_fd, self.sock.fileno())
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", write_through=False)
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        # Final in typeshed, but the child deliberately points the originals at the new streams too.
        sys.__stdout__, sys.__stderr__, sys.__stdin__ = sys.stdout, sys.stderr, sys.stdin  # type: ignore[misc]
        self.std = (sys.stdin, sys.stdout, sys.stderr)
        sys.path.insert(0, self.scratch)
        self.recursion_limit = sys.getrecursionlimit()
        self._rlimits()

    # -- helpers ----------------------------------------------------------
    def _restore_std(self) -> None:
        for f in self.std[1:]:
            try:
                f.flush()
            except BaseException:
                pass
        sys.stdin, sys.stdout, sys.stderr = self.std
        try:
            sys.setrecursionlimit(self.recursion_limit)
        except Exception:
            pass

    def _take_output(self) -> tuple[str, bool]:
        """What was printed since the last reset (capped), then reset.  A seek to the end
        gives the size, and when nothing was printed (the usual case) it leaves the offset
        at 0 again: one system call."""
        try:
            size = os.lseek(self.out_fd, 0, os.SEEK_END)
            if size == 0:
                return "", False
            data = os.pread(self.out_fd, self.out_cap + 4, 0)
            os.ftruncate(self.out_fd, 0)
            os.lseek(self.out_fd, 0, os.SEEK_SET)
        except OSError:
            return "", False
        truncated = size > self.out_cap
        text = data[: self.out_cap].decode("utf-8", errors="replace")
        return text, truncated

    def _alarm(self, signum: int, frame: object) -> None:
        """Both timers' handler, installed once per session: raises only while a call is armed,
        so a timer that fires as a call returns never lands in the harness's own code.  A
        timer firing before the call's deadline (one left from an earlier call, see ``_arm``;
        the CPU itimer's ticks also run early) is re-armed for what is left."""
        cpu = signum == _SIGPROF
        if cpu:
            self._cpu_at = 0.0
        else:
            self._wall_at = 0.0
        if not self._armed:
            return
        if cpu:
            now = time.process_time()
            left = self._cpu_deadline - now
        else:
            now = time.perf_counter()
            left = self._wall_deadline - now
        if left > 0:
            left = max(left, 0.002)
            _signal.setitimer(_ITIMER_PROF if cpu else _ITIMER_REAL, left)
            if cpu:
                self._cpu_at = now + left
            else:
                self._wall_at = now + left
            return
        self._armed = False
        raise _CallTimeout("CPU time limit" if cpu else "Timed Out")

    def _arm(self, wall_s: float, cpu_s: float | None = None, cpu_now: float | None = None) -> None:
        """Have the wall-clock timer (and the CPU-time one; ``cpu_now``: the process time the
        call starts at) fire by this call's deadlines.  A timer still pending from an earlier
        call that fires no later is kept (``_alarm`` re-arms it for what is left), so most
        calls make no system call here.  A handler student code replaced is put back
        (``_signal``'s own functions: the ``signal`` module's wrappers build an enum on every
        call), and both timers are then set anew, since either may have fired into the
        student's handler.  Student code that cancels a pending timer loses only its child:
        the parent stops a call by the slot's measured CPU time and its own backstop."""
        handler = self._handler
        fresh = False
        for signum in self._timer_signals:
            if _signal.getsignal(signum) is not handler:
                _signal.signal(signum, handler)
                fresh = True
        now = time.perf_counter()
        self._wall_deadline = now + wall_s
        if cpu_s is not None:
            cpu = time.process_time() if cpu_now is None else cpu_now
            self._cpu_deadline = cpu + cpu_s
        self._armed = True
        if fresh or not now < self._wall_at <= self._wall_deadline:
            self._wall_at = self._wall_deadline
            _signal.setitimer(_ITIMER_REAL, wall_s)
        if cpu_s is not None and (fresh or not cpu < self._cpu_at <= self._cpu_deadline):
            self._cpu_at = self._cpu_deadline
            _signal.setitimer(_ITIMER_PROF, cpu_s)

    def _disarm(self) -> None:
        """Only the flag: a timer still pending fires into ``_alarm``, which ignores it while no
        call is armed (or keeps it for the next call, see ``_arm``)."""
        self._armed = False

    def _timed(self, cpu_s: float) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Run a call under the CPU-time timer, with the wall-clock one as a late backstop
        (``slowed_until``): a busy machine slows an import down, it does not make it use
        more CPU time, so it never turns a loadable file into a timeout."""
        def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
            def run(*a: Any, **k: Any) -> Any:
                self._arm(slowed_until(cpu_s), self._cpu_cap(cpu_s))
                try:
                    return fn(*a, **k)
                finally:
                    self._disarm()
            return run
        return deco

    @staticmethod
    def _cpu_cap(t_limit: float) -> float:
        """Interrupt CPU-bound code as soon as its CPU time passes the limit.

        CPU time, unlike wall time, does not grow when the machine is busy, so this stops
        a hopelessly slow solution at its limit (a timeout costs the limit, no more) without
        endangering one that finishes under it; the wall-clock timer stays as the backstop
        for code that sleeps or blocks. The kernel's itimer counts in ticks and fires up to
        ~10% early (0.44 s of process time for 0.5 s): it is then re-armed for what is left
        (see ``_alarm``).
        """
        return t_limit

    def _describe(self, e: BaseException) -> dict[str, Any]:
        tb = e.__traceback__
        try:
            frames: list[traceback.FrameSummary] = list(traceback.extract_tb(tb))
        except BaseException:
            frames = []
        prefix = os.path.join(self.scratch, "")
        lineno = line = None
        for fr in frames:
            if fr.filename.startswith(prefix):
                lineno, line = fr.lineno, (fr.line or None)
        if isinstance(e, SyntaxError) and isinstance(e.filename, str) and e.filename.startswith(prefix):
            lineno, line = e.lineno, (e.text or "").strip("\n") or None
        here = os.path.dirname(os.path.abspath(__file__))
        keep = [fr for fr in frames if not fr.filename.startswith(here) and "timeout_decorator" not in fr.filename]
        try:
            text = "Traceback (most recent call last):\n" + "".join(traceback.format_list(keep))
            text += "".join(traceback.format_exception_only(type(e), e))
        except BaseException:
            text = ""
        name = _text(getattr(type(e), "__name__", "?"), 200)
        return {"type": name, "message": _text(e), "lineno": lineno if type(lineno) is int else None,
                "line": _text(line, 500) if line is not None else None, "traceback": _text(text, 20000)}

    def _other_tasks(self) -> bool:
        """Does the process run any thread but this one?  The kernel counts them in the link
        count of /proc/self/task (two, plus one per thread): one fstat of a descriptor opened
        once, a third of what reading the count from /proc/self/stat costs.  Its device and
        inode, noted then, show that the descriptor still is that folder; if not, the folder
        is listed."""
        try:
            if self._task_fd < 0:
                fd = os.open("/proc/self/task", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
                st = os.fstat(fd)
                self._task_fd, self._task_id = fd, (st.st_dev, st.st_ino)
            st = os.fstat(self._task_fd)
            if st.st_ino == self._task_id[1] and st.st_dev == self._task_id[0]:
                return st.st_nlink > 3
        except OSError:
            pass
        try:
            return len(os.listdir("/proc/self/task")) > 1
        except OSError:
            return threading.active_count() > 1

    def _kill_other_processes(self) -> None:
        """Kill every other process of the session's pid namespace.  This child is its pid 1,
        so every other process there is its descendant: with no child at all (one waitpid
        raising ChildProcessError, the usual case) there is nothing to kill."""
        if not self.isolated:
            return
        try:
            os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        try:
            os.kill(-1, signal.SIGKILL)     # from pid 1: everyone else in our namespace
        except OSError:
            pass
        while True:
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    time.sleep(0.001)
            except ChildProcessError:
                break

    # -- load -------------------------------------------------------------
    def _load(self) -> None:
        main = self.msg["main"]
        name = os.path.splitext(os.path.basename(main))[0]
        path = os.path.join(self.scratch, main)
        res: dict[str, Any] = {"n": self.msg["nonce"], "ok": False, "kind": "ok", "message": "", "lineno": None,
               "line": None, "names": [], "exception": None}
        load_limit = float(self.msg.get("load_time_limit", 10.0))
        t0 = time.process_time()
        try:
            watch = tuple(self.msg.get("watch") or ())
            if watch:                       # before any student code: the tripwires are in place
                inherited = self._preinstalled
                self.tripwires = inherited[1] if inherited and inherited[0] == watch else Tripwires(watch).install()
            spec = importlib.util.spec_from_file_location(name, path)
            if spec is None or spec.loader is None:
                raise ImportError(f"cannot import {main}")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            self._timed(load_limit)(self._exec_module(spec.loader))(module)
            self.module = module
            names = []
            for k, v in list(vars(module).items()):
                if (type(v) is types.FunctionType or isinstance(v, type)) and getattr(v, "__module__", None) == name:
                    if type(k) is str:
                        names.append(k)
            res.update(ok=True, names=names)
        except _CallTimeout:
            if time.process_time() - t0 >= load_limit:
                res.update(kind="timeout", message=f"importing the module used more than {load_limit:g} s of CPU time")
            else:
                res.update(kind="timeout", message=f"importing the module did not finish in {slowed_until(load_limit):g} s "
                                                   "of wall-clock time (did it sleep or block?)")
        except SyntaxError as e:
            d = self._describe(e)
            res.update(kind="syntax", message=_text(e.msg if isinstance(e.msg, str) else e), lineno=d["lineno"],
                       line=d["line"], exception=d)
        except SystemExit as e:
            d = self._describe(e)
            res.update(kind="import-error", message=f"the module called sys.exit({_text(e.code, 100)}) while loading",
                       lineno=d["lineno"], line=d["line"], exception=d)
        except BaseException as e:
            d = self._describe(e)
            res.update(kind="import-error", message=f"{d['type']}: {d['message']}", lineno=d["lineno"],
                       line=d["line"], exception=d)
        self._restore_std()
        out, trunc = self._take_output()
        res["stdout"] = out
        res["truncated"] = trunc
        res["restart"] = self._other_tasks()
        self._kill_other_processes()
        _send(self.sock, res)

    def _exec_module(self, loader: Any) -> Callable[[types.ModuleType], None]:
        """Run the module's code: the parent's compilation of the main file when it sent one
        (compiled once for both sessions of a submission, as importlib would: same file name,
        dont_inherit, optimize -1), else the import system's own."""
        code = self.msg.get("code")
        if type(code) is not str or not self.isolated:
            return loader.exec_module  # type: ignore[no-any-return]
        compiled = marshal.loads(base64.b64decode(code))
        if type(compiled) is not types.CodeType:
            return loader.exec_module  # type: ignore[no-any-return]

        def run(module: types.ModuleType) -> None:
            exec(compiled, module.__dict__)
        return run

    # -- calls ------------------------------------------------------------
    def _resolve(self, fname: str) -> Any:
        obj: Any = self.module
        for part in fname.split("."):
            obj = getattr(obj, part)
        return obj

    def _reply(self, res: dict[str, Any]) -> None:
        """One reply line.  ``res`` holds only the fields that differ from what the parent
        assumes for a missing one (``Session._result``: no value, exception, hits or output,
        no restart): the usual reply is five short fields."""
        try:
            line = codec.dumps_line(res)
        except codec.CodecError as e:
            res.update(status="protocol", detail=f"returned a value too large to pass back ({e})")
            res.pop("value", None)
            line = codec.dumps_line(res)
        if _getpid() != self._pid:
            # A process the student's code forked came back here through the harness's code it
            # inherited: a red team's child answered for its parent (asleep with the timers'
            # signals blocked), and the hits its parent's record never saw were lost.  Only the
            # session's own process answers; the parent's backstop ends the call.
            _exit(0)
        self.sock.sendall(line)

    def _hook_methods(self) -> None:
        """Methods of C types (``arr.sum()``) cannot be replaced: once the module that has
        them is loaded (numpy), a profile hook watches the rest of the call for them."""
        if self._watcher is None and self.tripwires.unreplaceable:
            self._watcher = CallWatcher((), covered=self.tripwires.unreplaceable)
            self._watcher.__enter__()

    def _call(self, req: dict[str, Any]) -> None:
        self._reply(self._run(req))

    def _calls(self, req: dict[str, Any]) -> None:
        """Public cases, several per request (they hide nothing): each runs as a call of its
        own and gets its own reply line at once; a timeout or a call after which the child
        must be restarted ends the batch (the parent sends the rest again, one at a time)."""
        for args, t, wl, nonce in zip(req["a"], req["t"], req["wl"], req["n"]):
            res = self._run({"f": req["f"], "a": args, "t": t, "wl": wl, "w": req.get("w"), "n": nonce})
            self._reply(res)
            if res["status"] == "timeout" or res.get("restart"):
                return

    def _run(self, req: dict[str, Any]) -> dict[str, Any]:
        """One call; the reply's fields, those at their default left out (see ``_reply``).
        The captured output is empty when a call starts: the previous call (or the load)
        took it, and a thread that could print in between makes the parent restart us."""
        nonce = req["n"]
        t_limit = float(req["t"])
        wall_limit = float(req["wl"])
        res: dict[str, Any] = {"n": nonce, "status": "ok"}
        try:
            args = codec.decode_request(req["a"])
        except codec.CodecError as e:
            res.update(status="protocol", detail=f"the arguments could not be decoded: {e}", cpu=0.0, wall=0.0)
            return res
        watched = req.get("w") is not None and self.tripwires is not None
        value = None
        watcher = None
        t0 = time.process_time()
        w0 = time.perf_counter()
        try:
            fn = self._resolve(req["f"])
        except BaseException as e:
            res.update(status="error", exception={
                "type": "NameError", "message": f"name {req['f']!r} is not defined in {self.msg['main']}",
                "lineno": None, "line": None, "traceback": _text(e)})
            fn = None
        if fn is not None:
            try:
                if watched:
                    self.tripwires.start(self._hook_methods)
                cpu_cap = self._cpu_cap(t_limit)
                self._arm(wall_limit, cpu_cap, t0)
                try:
                    value = fn(*args)
                finally:
                    self._armed = False     # _disarm's work, inline: the timers' handler ignores them now
                    watcher, self._watcher = self._watcher, None
                    if watcher is not None:
                        watcher.__exit__(None, None, None)
            except _CallTimeout:
                if time.process_time() - t0 >= cpu_cap:
                    res.update(status="timeout", detail=f"used more than {t_limit:g} s of CPU time")
                else:
                    res.update(status="timeout", detail=f"stopped after {wall_limit:g} s of wall-clock time")
            except SystemExit as e:
                res.update(status="crashed", detail=f"the process exited with sys.exit({_text(e.code, 100)})")
            except MemoryError:
                res.update(status="crashed", restart=True,
                           detail=f"killed: memory limit ({self.limits['memory_mb']} MB) exceeded")
            except RecursionError as e:
                res.update(status="error", exception=self._describe(e), restart=True)
            except BaseException as e:
                res.update(status="error", exception=self._describe(e))
        cpu = time.process_time() - t0
        wall = time.perf_counter() - w0
        self._restore_std()
        res["cpu"], res["wall"] = round(cpu, 6), round(wall, 6)
        if res["status"] == "ok" and cpu > t_limit:
            res.update(status="timeout", detail=f"used {cpu:.2f} s of CPU time; the limit is {t_limit:g} s")
        if res["status"] == "ok" and value is not None:
            try:
                res["value"] = codec.encode(value)
            except codec.CodecError as e:
                res.update(status="protocol", detail=f"returned {e}")
            except RecursionError:
                res.update(status="protocol", detail="returned a value nested too deeply")
        self._kill_other_processes()         # before the hits are read: a forked process records until it ends
        if watched:
            try:
                moved = self.tripwires.stop()
                hits = _one_per_site(self.tripwires.take(), watcher.hits if watcher is not None else [])
                if hits:
                    res["hits"] = codec.encode([dict(h) for h in hits])
                # A call interrupted by a timer or an exit leaves the hook half-torn by
                # design; only a call that returned can have tampered with it.
                if res["status"] == "ok" and (moved or (watcher is not None and watcher.tampered is True)):
                    res["tampered"] = True
            except BaseException:
                res["tampered"] = True
        value = None
        out, truncated = self._take_output()
        if out:
            res["stdout"] = out
        if truncated:
            res["truncated"] = True
        if self._other_tasks():
            res["restart"] = True
        return res

    def _receive_files(self) -> None:
        """The session's request and the student's files come on this child's own channel,
        never through the zygote."""
        first = self.reader.readline()
        if first is None:
            os._exit(0)
        self.msg.update(codec.loads_request(first))
        self._session_limits()

    def run(self) -> None:
        self._before_session()
        self._receive_files()
        self.msg.setdefault("nonce", "")
        self._setup()
        _unlist_harness()
        self._load()
        while True:
            line = self.reader.readline()
            if line is None:
                os._exit(0)
            req = codec.loads_request(line)
            if req.get("op") == "call":
                self._call(req)
            elif req.get("op") == "calls":
                self._calls(req)
            else:
                os._exit(0)


def _unlist_harness() -> None:
    """Take the harness's modules out of ``sys.modules`` before student code loads: the harness
    runs on from the objects it holds, and ``import _gradechild.monitor`` (which the interpreter,
    started with ``-I``, finds nowhere else) once let a submission mark its forged code as the
    standard library's own in the monitor's cache, so its call of ``sum`` went unrecorded."""
    for name in [n for n in sys.modules if n == "_gradechild" or n.startswith("_gradechild.")]:
        del sys.modules[name]


def _handler_of(child: Child) -> Callable[[int, object], None]:
    """The timers' handler, a plain function: ``signal.getsignal`` hands it to any code, and a
    bound method's ``__self__`` was the session's Child, whose tripwires' hits a submission
    cleared after calling ``sum`` (60/50)."""
    alarm = child._alarm

    def on_timer(signum: int, frame: object) -> None:
        alarm(signum, frame)
    return on_timer


def _one_per_site(tripped: list[dict[str, Any]], watched: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Both layers' hits, a call both saw once: ``arr.sum()`` is a C method the profile hook
    sees, and it runs numpy's own Python body of ``numpy.sum``, whose stand-in sees it too."""
    if not tripped or not watched:
        return tripped or watched
    seen = {(h["banned"], h["filename"], h["line"]) for h in tripped}
    return tripped + [h for h in watched if (h["banned"], h["filename"], h["line"]) not in seen]

