"""Sessions where there is no ``os.fork`` (Windows): one plain subprocess per session.

The profile ``portable`` (``secure=False``; layers ``subprocess`` and ``parent-kill``) is
what :func:`grader.run.sandbox.probe` reports on such machines, for ``grader check`` on a
student's own computer.  Each session starts ``python -I -S child/portable.py`` in a
private temporary folder holding the student's files, and speaks the harness's JSON-line
protocol over the subprocess's stdin and stdout (see ``child/portable.py``), so all the
decoding and every verdict is :class:`grader.run.session.Session`'s own.

There are no timer signals in the child: a call's verdict is its CPU time against its
limit, and a call that does not answer within its wall-clock backstop is killed here,
reported as a timeout, and the next call gets a fresh subprocess.
"""
from __future__ import annotations

import base64
import os
import queue
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import IO, Any, Mapping, Sequence, cast

from . import _bwrap
from .child import codec
from .model import IsolationProfile, LoadResult, SandboxError
from .session import Session, kill_tree

CHILD = os.path.join(_bwrap.CHILD_DIR, "portable.py")
PROFILE = IsolationProfile("portable", ("subprocess", "parent-kill"), False)

__all__ = ["CHILD", "PROFILE", "PortableSession"]

_EOF = object()
_OVERSIZED = object()


class _Pipe:
    """One child process and its protocol pipes; a reader thread queues the reply lines
    (``select`` does not work on pipes everywhere)."""

    def __init__(self, cwd: str) -> None:
        env = dict(os.environ)
        env.update({"PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8",
                    "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"})
        kw: dict[str, Any] = {}
        if sys.platform == "win32":
            kw["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        else:
            kw["start_new_session"] = True
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-S", CHILD], cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=None if os.environ.get("GRADER_SANDBOX_DEBUG") else subprocess.DEVNULL, close_fds=True, **kw)
        self.lines: queue.Queue[Any] = queue.Queue()
        threading.Thread(target=self._pump, args=(self.proc.stdout, self.lines), daemon=True).start()

    @staticmethod
    def _pump(stream: IO[bytes], lines: queue.Queue[Any]) -> None:
        try:
            while True:
                line = stream.readline(codec.MAX_LINE_BYTES + 1)
                if not line.endswith(b"\n"):
                    if len(line) > codec.MAX_LINE_BYTES:
                        lines.put(_OVERSIZED)
                        return
                    break
                lines.put(line)
        except (OSError, ValueError):
            pass
        lines.put(_EOF)

    def sendall(self, data: bytes) -> None:
        stdin = self.proc.stdin
        if stdin is None:
            raise OSError("the child's stdin is closed")
        try:
            stdin.write(data)
            stdin.flush()
        except ValueError as e:           # written after close
            raise OSError(str(e)) from None

    def read(self, deadline: float | None) -> tuple[bytes | None, str]:
        try:
            item = self.lines.get(timeout=None if deadline is None else max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None, "timeout"
        if item is _EOF or item is _OVERSIZED:
            self.lines.put(item)              # stays at the end: the child has nothing more to say
            return None, "eof" if item is _EOF else "oversized"
        return item, ""

    def pending(self) -> bool:
        return not self.lines.empty()

    def close(self) -> dict[str, Any] | None:
        """Kill the child and whatever it started; how it ended, as the zygote reports it."""
        p = self.proc
        if p.poll() is None:
            kill_tree(p)
        elif sys.platform != "win32":
            try:
                os.killpg(p.pid, signal.SIGKILL)  # what it left behind in its session
            except OSError:
                pass
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            pass
        for f in (p.stdin, p.stdout):
            try:
                if f is not None:
                    f.close()
            except (OSError, ValueError):
                pass
        rc = p.returncode
        if rc is None:
            return None
        return {"signal": -rc} if rc < 0 else {"exit": rc}


class PortableSession(Session):
    """:class:`Session` over a subprocess's pipes instead of a zygote's socketpair."""

    _BACKSTOP_HINT = " (no timer signals here: the wall-clock backstop is the time limit)"
    _chan: _Pipe | None  # type: ignore[assignment]

    def __init__(self, sandbox: Any, files: Mapping[str, str | bytes], main: str, watch: Sequence[str],
                 load_time_limit: float) -> None:
        self._dir: str | None = None
        super().__init__(sandbox, files, main, watch, load_time_limit)

    def _fresh_dir(self) -> str:
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
        self._dir = d = os.path.realpath(tempfile.mkdtemp(prefix="grader-check-"))
        for name, data in self._files.items():
            path = os.path.join(d, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(base64.b64decode(data))
        return d

    def _spawn(self, first: bool) -> LoadResult:
        self._kill_child()
        scratch = self._fresh_dir()
        nonce = secrets.token_hex(16)
        msg = {"op": "spawn", "main": self.main, "nonce": nonce, "scratch": scratch, "watch": list(self.watch),
               "load_time_limit": self._reload_limit(first), "sys_path": _bwrap.site_dirs(),
               "limits": {"memory_mb": self.limits.memory_mb, "output_bytes": self.limits.output_bytes}}
        try:
            self._chan = _Pipe(scratch)
        except OSError as e:
            raise SandboxError(f"could not start {sys.executable}: {e}") from None
        try:
            self._chan.sendall(codec.dumps_line(msg))
        except OSError:
            pass                                  # the load reply will say what happened
        wall0 = time.monotonic()
        load = self._await_load(nonce, self._reload_limit(first))
        if not first:
            self._charge_reload(None, wall0)
        return load

    def _kill_child(self) -> dict[str, Any] | None:
        chan, self._chan = self._chan, None
        self._buf = bytearray()
        return chan.close() if chan is not None else None

    def _drop_chan(self) -> None:
        self._kill_child()

    def _lost_child(self) -> bool:
        return False                              # a subprocess of its own, which no other session ends

    def _read_reply(self, deadline: float | None) -> tuple[bytes | None, str]:
        return cast(_Pipe, self._live_chan()).read(deadline)

    def _reply_pending(self) -> bool:
        return cast(_Pipe, self._live_chan()).pending()

    def close(self) -> None:
        super().close()
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
