"""The session child where there is no fork and no timer signal (Windows): one process per session.

Runs as ``python -I -S portable.py`` in the student's scratch folder (standalone: stdlib
and this package — ``codec`` values, ``runner`` the session child, ``monitor`` the ban
watcher, lazily).  The parent wrote the student's files there; it sends one spawn line
on stdin, then requests, and reads one reply line per request (per case of a batch)
from stdout — the very same lines :class:`runner.Child` speaks on its socket.

The protocol streams are private duplicates of the original fd 0 and fd 1; the real
fd 0, 1 are pointed at the null device so that the student's code can neither read
requests nor write replies through them, and ``sys.stdout`` / ``sys.stderr`` are a
capped in-memory capture, put back after the import and after every call.

No timers run in here: the verdict is the call's CPU time against its limit, and a call
that never returns is killed by the parent when its wall-clock backstop passes.
"""
from __future__ import annotations

import io
import json
import os
import sys

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: the sandboxed child does not import typing
if TYPE_CHECKING:
    from typing import Any

import importlib.util

sys.dont_write_bytecode = True               # -I ignores PYTHONDONTWRITEBYTECODE
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
from _gradechild.runner import Child  # noqa: E402


class _Sink(io.RawIOBase):
    """Keeps the first ``cap + 4`` bytes written and counts the rest."""

    def __init__(self, cap: int) -> None:
        super().__init__()
        self.cap = cap
        self.data = bytearray()
        self.size = 0

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        n = len(b)
        room = self.cap + 4 - len(self.data)
        if room > 0:
            self.data += bytes(b[:room])
        self.size += n
        return n

    def take(self) -> tuple[bytes, int]:
        data, size = bytes(self.data), self.size
        self.data = bytearray()
        self.size = 0
        return data, size


class _Pipes:
    """The protocol ends: ``sendall`` a reply line, ``readline`` a request (None at EOF)."""

    def __init__(self, fd_in: int, fd_out: int) -> None:
        self.rin = os.fdopen(fd_in, "rb", buffering=1 << 16)
        self.wout = os.fdopen(fd_out, "wb", buffering=0)

    def sendall(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = self.wout.write(view)
            view = view[n or 0:]

    def readline(self) -> bytes | None:
        line = self.rin.readline(codec.MAX_LINE_BYTES + 1)
        if not line:
            return None
        if not line.endswith(b"\n"):
            if len(line) > codec.MAX_LINE_BYTES:
                raise codec.CodecError("oversized request")
            return None
        return line[:-1]


class PortableChild(Child):  # type: ignore[misc]  # Child comes from _gradechild (the sandbox's name)
    """:class:`runner.Child` without fork, rlimits, namespaces or timer signals."""

    def __init__(self, msg: dict[str, Any], pipes: _Pipes) -> None:
        super().__init__({"isolated": False, "sys_path": msg.get("sys_path") or []}, msg, pipes, msg["scratch"])
        self.reader = pipes
        self.sink = _Sink(self.out_cap)

    def _before_session(self) -> None:
        pass                                 # no zygote, no isolation: the subprocess is the session

    def _receive_files(self) -> None:
        pass                                 # the parent wrote them into the scratch folder

    def _setup(self) -> None:
        sys.dont_write_bytecode = True       # no __pycache__ in the student's scratch
        for p in self.cfg["sys_path"]:
            if p not in sys.path:
                sys.path.append(p)
        os.chdir(self.scratch)
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.close(null)
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(self.sink), encoding="utf-8",
                                      errors="backslashreplace", write_through=False)
        sys.stderr = io.TextIOWrapper(io.BufferedWriter(self.sink), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        # Final in typeshed, but the child deliberately points the originals at the new streams too.
        sys.__stdout__, sys.__stderr__, sys.__stdin__ = sys.stdout, sys.stderr, sys.stdin  # type: ignore[misc]
        self.std = (sys.stdin, sys.stdout, sys.stderr)
        sys.path.insert(0, self.scratch)
        self.recursion_limit = sys.getrecursionlimit()

    def _take_output(self) -> tuple[str, bool]:
        for f in self.std[1:]:
            try:
                f.flush()
            except BaseException:
                pass
        data, size = self.sink.take()
        return data[: self.out_cap].decode("utf-8", errors="replace"), size > self.out_cap

    def _arm(self, wall_s: float, cpu_s: float | None = None, cpu_now: float | None = None) -> None:
        pass                                 # the parent's kill is the wall-clock limit

    def _disarm(self) -> None:
        pass

    @staticmethod
    def _cpu_cap(t_limit: float) -> float:
        return float("inf")                  # the verdict is CPU time > limit, after the call

    def _kill_other_processes(self) -> None:
        pass                                 # the parent kills the process tree on restart


def main() -> None:
    fd_in, fd_out = os.dup(0), os.dup(1)     # private, not inherited by the student's processes
    pipes = _Pipes(fd_in, fd_out)
    first = pipes.readline()
    if first is None:
        os._exit(0)
    msg = json.loads(first)
    PortableChild(msg, pipes).run()


if __name__ == "__main__":
    main()
