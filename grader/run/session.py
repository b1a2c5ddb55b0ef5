"""A session: one submission loaded in one child, and the line protocol spoken with it.

The child's replies are read with suspicion: one line per request (per case in a
streamed batch), carrying the request's nonce, decoded by the codec's exact-type rules;
anything else is a protocol violation, never an exception in the grader.
"""
from __future__ import annotations

import base64
import math
import os
import secrets
import select
import signal
import socket
import struct
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping, Sequence, cast

from . import messages
from .child import codec
from .child.deadlines import PARENT_GRACE, blocked_after, slowed_until
from .model import CallResult, Limits, LoadResult, SandboxError

Status = Literal["ok", "error", "timeout", "crashed", "protocol"]
_STATUSES = frozenset(("ok", "error", "timeout", "crashed", "protocol"))

if TYPE_CHECKING:
    from .sandbox import Sandbox


# ------------------------------------------------------------------ channel helpers
_CHUNK = 1 << 16    # one recv's buffer: a megabyte is allocated (and paged in) per call, 64 KiB is not


def _buffered_line(buf: bytearray) -> tuple[bytes | None, str]:
    """A whole line already in ``buf`` (taken out of it), or why none can come: (None, 'oversized')
    when the buffer passed the line limit without a newline, (None, '') when more must be read."""
    i = buf.find(b"\n")
    if i >= 0:
        line = bytes(buf[:i + 1])
        del buf[:i + 1]
        return line, ""
    return None, "oversized" if len(buf) > codec.MAX_LINE_BYTES else ""


def _read_line(sock: socket.socket, buf: bytearray, deadline: float | None) -> tuple[bytes | None, str]:
    """Read until one newline.  Returns (line, reason); reason is '' on success,
    else 'eof', 'timeout' or 'oversized'.  Extra bytes stay in buf."""
    while True:
        line, why = _buffered_line(buf)
        if line is not None or why:
            return line, why
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        r, _, _ = select.select([sock], [], [], timeout)
        if not r:
            return None, "timeout"
        try:
            chunk = sock.recv(_CHUNK)
        except (ConnectionResetError, OSError):
            chunk = b""
        if not chunk:
            return None, "eof"
        buf += chunk


class _Channel:
    """A session's socket to its child, read with as few system calls as a reply allows: a
    wait is one blocking ``recv`` whose timeout (``SO_RCVTIMEO``) is set only when it changes
    (a function's calls wait the same time), not a ``select`` before each ``recv``; whether
    the child wrote more is one ``poll`` on a poller kept for the socket.  A signal whose
    handler returns (the worker's SIGINT) makes Python retry the recv with the whole timeout:
    that one wait can end up to one timeout late."""

    def __init__(self, fd: int, buf: bytearray) -> None:
        self.sock = socket.socket(fileno=fd)
        self.sock.setblocking(True)         # a blocking recv, so the kernel's timeout is the only one
        self.buf = buf                      # the session's own, which counts the lines left over
        self._timeout = math.inf            # SO_RCVTIMEO now: none
        self._poller = select.poll()
        self._poller.register(fd, select.POLLIN)

    def read(self, deadline: float | None) -> tuple[bytes | None, str]:
        """One line: (line, '') or (None, 'eof' | 'timeout' | 'oversized'); extra bytes stay buffered."""
        buf = self.buf
        while True:
            line, why = _buffered_line(buf)
            if line is not None or why:
                return line, why
            left = math.inf if deadline is None else deadline - time.monotonic()
            if left <= 0:
                return None, "timeout"
            if not left <= self._timeout <= left + 0.002:   # else the setting a function's calls share
                self._set_timeout(left)
            try:
                chunk = self.sock.recv(_CHUNK)
            except BlockingIOError:         # the timeout ran out: the deadline decides
                continue
            except OSError:
                chunk = b""
            if not chunk:
                return None, "eof"
            if not buf and chunk.find(b"\n") == len(chunk) - 1:
                return chunk, ""            # the usual reply: one whole line, nothing buffered
            buf += chunk

    def _set_timeout(self, left: float) -> None:
        """A recv waits ``left`` seconds, rounded up to the millisecond (0 would mean forever)."""
        if left == math.inf:
            sec, usec = 0, 0
        else:
            sec, ms = divmod(math.ceil(left * 1000), 1000)
            usec = ms * 1000
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, struct.pack("@ll", sec, usec))
        self._timeout = math.inf if left == math.inf else sec + usec / 1e6

    def pending(self) -> bool:
        """Has the child written anything not read yet (or closed its end)?"""
        return bool(self.buf) or bool(self._poller.poll(0))

    def sendall(self, data: bytes) -> None:
        self.sock.sendall(data)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


# Built with getattr: Windows lacks SIGKILL and SIGBUS, and this module must import there.
_SIGNAMES = {getattr(signal, name): text for name, text in (
    ("SIGSEGV", "segmentation fault (SIGSEGV)"), ("SIGKILL", "SIGKILL"), ("SIGABRT", "abort (SIGABRT)"),
    ("SIGBUS", "bus error (SIGBUS)"), ("SIGFPE", "arithmetic fault (SIGFPE)"),
    ("SIGILL", "illegal instruction (SIGILL)")) if hasattr(signal, name)}
if hasattr(signal, "SIGXCPU"):
    _SIGNAMES[signal.SIGXCPU] = "CPU time limit (SIGXCPU)"


def _parent_backstop(cpu_s: float) -> float:
    """Where the parent stops a call that gains no CPU time: after the child's own blocked
    deadline, with slack, so the child's verdict (it names the call) normally comes first."""
    return blocked_after(cpu_s) * 1.1 + PARENT_GRACE


def _status_detail(status: dict[str, Any] | None, limits: Limits) -> str:
    if not status:
        return "the process died"
    if "exit" in status:
        return f"the process exited with status {status['exit']} (os._exit or a fatal error)"
    sig: Any = status.get("signal")  # whatever the helper reported; a non-signal falls to the except
    if hasattr(signal, "SIGXCPU") and sig == signal.SIGXCPU:
        return f"killed: CPU time limit of the submission ({limits.cpu_s} s) exceeded"
    if sig == getattr(signal, "SIGKILL", 9):
        return "the process was killed (SIGKILL)"
    try:
        name = _SIGNAMES.get(sig) or signal.Signals(sig).name
    except Exception:
        name = f"signal {sig}"
    return f"the process crashed: {name}"


# ------------------------------------------------------------------ Session
def _check_files(files: Mapping[str, str | bytes], main: str) -> dict[str, str]:
    out = {}
    for name, data in files.items():
        norm = os.path.normpath(name)
        if os.path.isabs(norm) or norm.startswith("..") or norm in (".", ""):
            raise ValueError(f"bad file name for the scratch folder: {name!r}")
        if isinstance(data, str):
            data = data.encode("utf-8")
        out[norm] = base64.b64encode(bytes(data)).decode("ascii")
    if os.path.normpath(main) not in out:
        raise ValueError(f"main file {main!r} is not among the files")
    return out


class Session:
    """One submission loaded in one child process."""

    # Appended to a wall-clock backstop verdict; the portable session says its own.
    _BACKSTOP_HINT = " (did it block or ignore the timer signal?)"

    def __init__(self, sandbox: Sandbox, files: Mapping[str, str | bytes], main: str, watch: Sequence[str],
                 load_time_limit: float, code: str | None = None) -> None:
        self.sandbox = sandbox
        self.limits = sandbox.limits
        self.main = os.path.normpath(main)
        self.watch = tuple(watch)
        self.load_time_limit = float(load_time_limit)
        self._files = _check_files(files, main)
        self._code = code                   # the main file compiled by the sandbox, marshalled (or None)
        self._chan: _Channel | None = None
        self._buf = bytearray()
        self._restart = False
        self._cpu_used = 0.0
        self._cpu_mark: float | None = None     # the slot's CPU count when the last reply arrived
        self._unchecked = False     # the last reply is not yet known to be alone (see _check_row)
        self._nonce_base = secrets.token_hex(8)
        self._sequence = 0
        self._heads: dict[tuple[str, float, bool], bytes] = {}   # see _call_head
        self._closed = False
        self.restarts = 0
        # Each restart imports the file again: together they may use one more load's worth of
        # CPU time, so that a slow import and a crash on every case cost a bounded time (a 0.5 s
        # import and os._exit in every function once held a slot for four minutes).
        self._reload_left = self.load_time_limit
        self.load = self._spawn(first=True)

    # -- child lifecycle --------------------------------------------------
    def _limits_msg(self) -> dict[str, Any]:
        L = self.limits
        d = {"memory_mb": L.memory_mb, "cpu_s": max(1, int(L.cpu_s - self._cpu_used + 0.999)),
             "nproc": L.nproc, "fsize_mb": L.fsize_mb, "nofile": L.nofile,
             "output_bytes": L.output_bytes, "scratch_mb": L.scratch_mb}
        if "unprivileged-uid" not in self.sandbox.profile.layers:   # RLIMIT_NPROC counts a shared uid
            d["nproc_abs"] = L.nproc + _count_own_processes()
        return d

    def _nonce(self) -> str:
        """A request's tag, unique in this session: a line that does not carry it is not the
        answer to that request (a stale or a made-up line).  Student code in the child can
        read the request it answers, so the tag keeps lines apart; it is no secret."""
        self._sequence += 1
        return f"{self._nonce_base}{self._sequence:x}"

    def _drop_chan(self) -> None:
        self._cpu_mark = None
        self._unchecked = False
        if self._chan is not None:
            self._chan.close()
        self._chan = None
        self._buf = bytearray()

    def _kill_child(self) -> dict[str, Any] | None:
        """End this session's child and return its exit status; nothing to end when another
        session's spawn already ended it (the zygote's current process is then not ours)."""
        self._drop_chan()
        if not self._let_go():
            return None
        try:
            reply, _ = self.sandbox._request({"op": "kill"})
            status: dict[str, Any] | None = reply.get("status")
            return status
        except SandboxError:
            return None

    def _spawn(self, first: bool) -> LoadResult:
        """A fresh child (a spare the zygote prepared, or one forked now); the session's
        request and the student's files go to it over its own channel, never through the
        zygote, so no later session can find them in memory it inherits."""
        self._drop_chan()
        nonce = secrets.token_hex(16)
        settle = self.sandbox._other_code(self._files)
        reply, fd = self.sandbox._request({"op": "spawn", "settle": settle}, want_fd=True)
        assert fd is not None  # asked for with want_fd: a reply without one raised
        self.sandbox.holder = self
        self._chan = _Channel(fd, self._buf)
        limit = self._reload_limit(first)
        cpu0, wall0 = self._cpu_now(), time.monotonic()
        failed = self._send({"files": self._files, "main": self.main, "limits": self._limits_msg(),
                             "watch": list(self.watch), "nonce": nonce, "load_time_limit": limit,
                             **({"code": self._code} if self._code else {})})
        if failed:
            self._restart = True
            return LoadResult(False, "crashed", f"{failed.detail} before loading {self.main}")
        load = self._await_load(nonce, limit, cpu0)
        if not first:
            self._charge_reload(cpu0, wall0)
        return load

    def renew_reloads(self) -> None:
        """Give the restarts a new budget: a session that serves a whole tournament renews
        it for each game, so a rarely crashing player is not shut out after many games."""
        self._reload_left = self.load_time_limit

    def _reload_limit(self, first: bool) -> float:
        return self.load_time_limit if first else max(0.0, min(self.load_time_limit, self._reload_left))

    def _charge_reload(self, cpu0: float | None, wall0: float) -> None:
        """Take a restart's load from what reloading may still use: the slot's CPU time, and at
        least a third of the wall clock (the backstop's ratio), so that an import that sleeps
        spends it too; the wall clock alone where nothing counts CPU time."""
        wall = time.monotonic() - wall0
        cpu1 = self._cpu_now() if cpu0 is not None else None
        self._reload_left -= max(cpu1 - cpu0, wall / 3) if cpu0 is not None and cpu1 is not None else wall

    def _await_load(self, nonce: str, limit: float, cpu0: float | None = None) -> LoadResult:
        """The load reply of a freshly started child, read with suspicion.  An import is
        limited as a call is: by the slot's CPU time (a busy machine does not make it a
        timeout), with the wall-clock backstop for one that sleeps or blocks."""
        self._restart = False
        line, why = self._read_answer(blocked_after(limit), limit, cpu0, slowed_until(limit) + PARENT_GRACE)
        if why:
            status = self._kill_child()
            self._restart = True
            if why == "cpu":
                return LoadResult(False, "timeout", f"importing {self.main} used more than {limit:g} s of CPU time")
            if why == "timeout":
                return LoadResult(False, "timeout", f"importing {self.main} did not finish within {blocked_after(limit):g} s "
                                                    "of wall-clock time (did it sleep or block?)")
            if why == "oversized":
                return LoadResult(False, "protocol", "the load reply was too large")
            return LoadResult(False, "crashed",
                              f"{_status_detail(status, self.limits)} while importing {self.main}")
        try:
            m = messages.check(codec.loads_line(line or b""), messages.LOAD_REPLY)
            if m.get("n") != nonce:
                raise codec.CodecError("a load reply the harness did not write (forged)")
            if self._reply_pending():
                raise codec.CodecError("more than one line in reply to loading the module")
            exc = m.get("exception")
            res = LoadResult(
                ok=m.get("ok") is True,
                kind=_pick(m.get("kind"), ("ok", "syntax", "import-error", "timeout"), "protocol"),
                message=_str(m.get("message")),
                lineno=m.get("lineno") if type(m.get("lineno")) is int else None,
                line=m.get("line") if type(m.get("line")) is str else None,
                names=tuple(n for n in (m.get("names") or []) if type(n) is str),
                stdout=_str(m.get("stdout")) + ("\n[output truncated]" if m.get("truncated") is True else ""),
                exception=_exc(exc),
            )
            if res.ok:
                res.kind = "ok"
            self._restart = m.get("restart") is True
        except codec.CodecError as e:
            self._kill_child()
            self._restart = True
            return LoadResult(False, "protocol", f"protocol violation while loading: {e}")
        return res

    # -- calls ------------------------------------------------------------
    def _not_loaded(self) -> CallResult:
        return CallResult("error", detail=f"the module {self.main} did not load ({self.load.kind}): "
                                          f"{self.load.message}",
                          exception={"type": "LoadError", "message": self.load.message,
                                     "lineno": self.load.lineno, "line": self.load.line,
                                     "traceback": ""})

    def _ensure_child(self, clean: bool = False) -> CallResult | None:
        """A live child with a clean channel, restarting it if needed; a CallResult when impossible.
        ``clean``: the channel was just found to hold nothing (see ``_check_row``)."""
        if (self._restart or self._chan is None or self._lost_child()
                or (not clean and self._reply_pending())):
            if self._reload_left <= 0:
                self._restart = True
                return CallResult("crashed", detail=f"not run: {self.main} was loaded again {self.restarts} time(s) after "
                                                    "its process ended, and those loads used the "
                                                    f"{self.load_time_limit:g} s of CPU time allowed for reloading it")
            self.restarts += 1
            self._kill_child()
            again = self._spawn(first=False)
            if not again.ok:
                self._restart = True
                return CallResult("crashed", detail=f"the module could not be loaded again after a restart: "
                                                    f"{again.message}")
        return None

    def _lost_child(self) -> bool:
        """Did another session's spawn end this session's child (see ``Sandbox.holder``)?"""
        return self.sandbox.holder is not self

    def _let_go(self) -> bool:
        """Stop holding the zygote's current process; False when it was not this session's
        (another session's spawn ended our child already: nothing of ours is left to end)."""
        if self.sandbox.holder is not self:
            return False
        self.sandbox.holder = None
        return True

    def _live_chan(self) -> _Channel:
        """The channel to the child; callers have just made sure there is one (``_ensure_child``)."""
        assert self._chan is not None, "no live child"
        return self._chan

    def _read_reply(self, deadline: float | None) -> tuple[bytes | None, str]:
        """One line from the child: (line, '') or (None, 'eof' | 'timeout' | 'oversized')."""
        chan = self._chan                   # not _live_chan(): a call less on every case's path
        assert chan is not None, "no live child"
        return chan.read(deadline)

    def _reply_pending(self) -> bool:
        """Has the child written anything not read yet (or closed its end)?"""
        chan = self._chan
        assert chan is not None, "no live child"
        return chan.pending()

    def _send(self, req: dict[str, Any]) -> CallResult | None:
        return self._send_line(codec.dumps_line(req))

    def _send_line(self, line: bytes) -> CallResult | None:
        chan = self._chan
        assert chan is not None, "no live child"
        try:
            chan.sendall(line)
        except OSError:
            status = self._kill_child()
            self._restart = True
            return CallResult("crashed", detail=_status_detail(status, self.limits))
        return None

    def _cpu_now(self) -> float | None:
        """The kernel's count of the slot's CPU seconds, or None where nothing measures it."""
        m = getattr(self.sandbox, "meter", None)
        return m.cpu_seconds() if m is not None else None

    def _cpu_start(self) -> float | None:
        """The count a call starts from: the one read when the previous reply of this child
        arrived (the child has waited for this request since, and nothing else of the session
        ran), else a fresh reading.  One read of the kernel's count per call, not two."""
        mark, self._cpu_mark = self._cpu_mark, None
        return mark if mark is not None else self._cpu_now()

    def _read_answer(self, backstop: float, time_limit: float, cpu0: float | None,
                     hard: float) -> tuple[bytes | None, str]:
        """Wait for the reply line: (line, '') or (None, why).

        The child's own alarm stops a call at its CPU limit; one that goes on past it (it
        swallows the alarm) is stopped here, ``'cpu'``, as soon as the slot's measured CPU
        time shows it, not at the wall-clock backstop 3 x the limit later. At the backstop
        a call that is still gaining CPU time but has not used its limit is only slowed by
        a busy machine: wait on (up to ``hard`` seconds), so the verdict rests on CPU time;
        a call gaining none is blocked.
        """
        t0 = time.monotonic()
        deadline = t0 + backstop
        if cpu0 is None:
            return self._read_reply(deadline)
        over = time_limit * 1.05 + 0.1      # the child's alarm had its chance to answer
        line, why = self._read_reply(min(deadline, t0 + over))
        last = cpu0
        while why == "timeout":
            now_cpu = self._cpu_now()
            if now_cpu is None:
                break
            if now_cpu - cpu0 > over:
                return None, "cpu"
            now = time.monotonic()
            if now < deadline:   # CPU time grows no faster than wall time in a slot of one core
                line, why = self._read_reply(min(deadline, now + max(0.1, over - (now_cpu - cpu0))))
                continue
            progressing = now_cpu - last > 0.002
            if not (progressing and now_cpu - cpu0 < time_limit and now - t0 < hard):
                break
            last = now_cpu
            deadline = now + 0.5
            line, why = self._read_reply(deadline)
        return line, why

    def _receive(self, nonce: str, backstop: float, time_limit: float, cpu0: float | None = None,
                 hard: float = 0.0, last: bool = True) -> tuple[dict[str, Any] | None, CallResult | None, float]:
        """Read the one reply line of a request: (message, None, wall) or (None, failure, wall).
        ``last``: no more lines are due for this request (in a batch, the next case's may be)."""
        t0 = time.perf_counter()
        line, why = self._read_answer(backstop, time_limit, cpu0, hard)
        wall = time.perf_counter() - t0
        if why:
            used = self._cpu_now()      # before the kill: a killed tree's time is in flight to its reapers
            status = self._kill_child()
            self._restart = True
            if why in ("timeout", "cpu"):
                charged = used - cpu0 if used is not None and cpu0 is not None else time_limit
                self._cpu_used += charged
                if why == "cpu":
                    return None, CallResult("timeout", time_s=charged, wall_s=wall,
                                            detail=f"used {charged:.2f} s of CPU time and went on past the "
                                                   f"{time_limit:g} s limit; the process was killed"), wall
                return None, CallResult("timeout", time_s=charged, wall_s=wall,
                                        detail=f"no answer within {wall:.1f} s of wall-clock time; the process "
                                               f"was killed{self._BACKSTOP_HINT}"), wall
            if why == "oversized":
                return None, CallResult("protocol", wall_s=wall,
                                        detail=f"wrote a result line longer than {codec.MAX_LINE_BYTES} bytes"), wall
            return None, CallResult("crashed", wall_s=wall, detail=_status_detail(status, self.limits)), wall
        try:
            m = messages.check_call_reply(codec.loads_line(line or b""))
            if m.get("n") != nonce:
                raise codec.CodecError("wrote a result line the harness did not write (a forged line)")
            if last and self._reply_pending():
                raise self._more_lines()
        except codec.CodecError as e:
            return None, self._protocol_failure(e, wall), wall
        return m, None, wall

    def _more_lines(self) -> codec.CodecError:
        """What a reply followed by more lines is (the channel is known to hold more)."""
        lines = 2 + self._buf.count(b"\n")
        return codec.CodecError(f"wrote {lines} result lines for one call")

    def _protocol_failure(self, error: Exception, wall: float) -> CallResult:
        self._kill_child()
        self._restart = True
        msg = str(error)
        if not (msg.startswith("wrote") or msg.startswith("returned")):
            msg = f"protocol violation: {msg}"
        return CallResult("protocol", wall_s=wall, detail=msg)

    def _result(self, m: dict[str, Any], wall: float, time_limit: float, measured: float | None) -> CallResult:
        """One case's reply, decoded with the same suspicion as everything from the child.

        ``measured``: the CPU time the kernel counted for the slot during the call (every
        process and thread of the session); when there is one, it is the time of the
        verdict and the child's own figure is ignored.  ``wall``: how long the parent waited for
        the reply; the child's ``wall`` is its own clock's word and is never read.
        """
        status = m.get("status")
        if status not in _STATUSES:
            raise codec.CodecError(f"unknown status {status!r}")
        raw_cpu: Any = m.get("cpu")
        cpu = measured if measured is not None else (float(raw_cpu) if type(raw_cpu) in (int, float) else 0.0)
        if status == "ok" and cpu <= time_limit and m.keys() <= messages.PLAIN_REPLY:  # the usual reply: a value only
            value = codec.decode(m.get("value"))
            self._cpu_used += cpu
            return CallResult.ok(value, cpu, wall)
        value = codec.decode(m.get("value")) if status == "ok" else None
        hits = messages.check_hits(codec.decode(m.get("hits") or []), self.watch)
        self._cpu_used += cpu
        if m.get("restart") is True:
            self._restart = True
        out = _str(m.get("stdout"))
        if m.get("truncated") is True:
            out += "\n[output truncated]"
        detail = _str(m.get("detail"))
        if status == "ok" and cpu > time_limit:
            status, value = "timeout", None
            detail = f"used {cpu:.2f} s of CPU time, counted by the kernel over all its processes and threads; " \
                     f"the limit is {time_limit:g} s"
        return CallResult(status=cast(Status, status), value=value, time_s=cpu, wall_s=wall, stdout=out,
                          exception=_exc(m.get("exception")), detail=detail,
                          watch_hits=hits, tampered=m.get("tampered") is True)

    def call(self, function: str, args: Sequence[Any] | codec.Encoded, *, time_limit: float, watch: bool = False) -> CallResult:
        sent = self._send_call(function, args, float(time_limit), watch)
        return sent if isinstance(sent, CallResult) else self._finish_call(*sent)

    def start_call(self, function: str, args: Sequence[Any] | codec.Encoded, *, time_limit: float,
                   watch: bool = False) -> Callable[[], CallResult]:
        """Send one call and return what waits for its result (call it once).

        Calls to several sessions can then be in flight from one thread, each child
        thinking while the parent waits on the first reply: a tournament's seats. The
        verdict is the one :meth:`call` gives; the wall-clock backstop counts from the wait.
        """
        sent = self._send_call(function, args, float(time_limit), watch)
        if isinstance(sent, CallResult):
            return _ready(sent)
        return lambda: self._finish_call(*sent)

    def _send_call(self, function: str, args: Sequence[Any] | codec.Encoded, time_limit: float,
                   watch: bool, clean: bool = False) -> CallResult | tuple[str, float, float | None]:
        """Send one call: what its reply is awaited with (nonce, limit, the CPU count it
        started from), or the CallResult of a call that cannot be made.  ``clean``: as for
        ``_ensure_child``."""
        if self._closed:
            raise SandboxError("the session is closed")
        if not self.load.ok:
            return self._not_loaded()
        # The grader's own values (encoded once per plan when it passes codec.Encoded): errors are bugs, raise.
        args_json = args.json if isinstance(args, codec.Encoded) else codec.Encoded(args).json
        failed = self._ensure_child(clean)
        if failed:
            return failed
        nonce = self._nonce()
        line = self._call_head(function, time_limit, watch) + nonce.encode() + b'","a":' + args_json + b"}\n"
        if len(line) > codec.MAX_LINE_BYTES:
            raise codec.CodecError(f"a message of {len(line)} bytes, more than the limit of {codec.MAX_LINE_BYTES}")
        cpu0 = self._cpu_start()
        failure = self._send_line(line)
        if failure:
            return failure
        return nonce, time_limit, cpu0

    def _call_head(self, function: str, time_limit: float, watch: bool) -> bytes:
        """A call request up to its nonce, built once per function and limit (only the
        nonce and the arguments differ between its cases): ``{...,"n":"``."""
        key = (function, time_limit, watch)
        head = self._heads.get(key)
        if head is None:
            head = self._heads[key] = codec.dumps_line(
                {"op": "call", "f": function, "t": time_limit, "wl": slowed_until(time_limit),
                 "w": list(self.watch) if watch else None, "n": ""})[:-3]
        return head

    def _finish_call(self, nonce: str, time_limit: float, cpu0: float | None, deferred: bool = False) -> CallResult:
        """Wait for a sent call's reply and make its verdict.  ``deferred``: whether the reply
        came alone is looked at by the caller (``_check_row``), not here."""
        m, failure, wall = self._receive(nonce, _parent_backstop(time_limit), time_limit, cpu0,
                                         slowed_until(time_limit) + PARENT_GRACE, last=not deferred)
        if failure:
            return failure
        assert m is not None  # _receive gives a message or a failure
        self._unchecked = deferred
        cpu1 = self._cpu_mark = self._cpu_now()
        measured = cpu1 - cpu0 if cpu0 is not None and cpu1 is not None else None
        try:
            return self._result(m, wall, time_limit, measured)
        except codec.CodecError as e:
            return self._protocol_failure(e, wall)

    #: call_many takes ``batch=True``: several (public) cases in one request.
    batches = True

    def call_many(self, function: str, calls: Sequence[tuple[Sequence[Any] | codec.Encoded, float]], *,
                  watch: bool | Sequence[bool] = False,
                  stop: Callable[[Sequence[CallResult]], bool] | None = None, batch: bool = False) -> list[CallResult]:
        """Call ``function`` once per ``(args, time_limit)``, one case at a time.

        ``watch`` turns the runtime monitor on for every call, or per call.  The child
        receives a case only when the one before it has answered: it never holds the
        inputs of a case it has not yet been asked to run.  ``stop`` is asked after every
        result: when it says so, the remaining calls are not made (the list is shorter).
        A result ``stop`` saw may still become a protocol failure (see ``_check_row``).
        """
        watched = [bool(watch)] * len(calls) if isinstance(watch, bool) else [bool(w) for w in watch]
        results: list[CallResult] = []
        if batch and len(calls) > 1 and len(set(watched)) == 1:
            results = self._call_batch(function, calls, watched[0], stop)
            if len(results) == len(calls) or (stop is not None and results and stop(results)):
                return results
            calls, watched = calls[len(results):], watched[len(results):]
        for (a, t), w in zip(calls, watched):
            sent = self._send_call(function, a, float(t), w, self._check_row(results))
            results.append(sent if isinstance(sent, CallResult) else self._finish_call(*sent, deferred=True))
            if stop is not None and len(results) < len(calls) and stop(results):
                break
        self._check_row(results)
        return results

    def _check_row(self, results: list[CallResult]) -> bool:
        """In a row of calls, whether the previous reply came alone is looked at when the next
        call looks for a clean channel anyway: one poll per call, not two, and a line written
        in between is that reply's too.  A line there makes that result a protocol failure
        (as :meth:`call` makes it).  True when the channel was found clean."""
        if not self._unchecked:
            return False
        self._unchecked = False
        if not self._reply_pending():
            return True
        results[-1] = self._protocol_failure(self._more_lines(), results[-1].wall_s)
        return False

    def _call_batch(self, function: str, calls: Sequence[tuple[Sequence[Any] | codec.Encoded, float]], watch: bool,
                    stop: Callable[[Sequence[CallResult]], bool] | None) -> list[CallResult]:
        """Several cases in one request, a reply line each as it finishes (cases a student may
        see anyway: never a hidden one).  Each case's CPU time is the slot's count between the
        arrivals of its reply and the one before (the kernel's, as for single calls; the child
        may have begun the next case by the time the parent reads it, so a case can be charged
        a little of its successor's time, never less than its own).  The results so far come
        back when the batch ends early (a timeout, a restart, a failure, ``stop``); the child
        is then restarted, since it may still be running the batch."""
        if self._closed:
            raise SandboxError("the session is closed")
        if not self.load.ok:
            return [self._not_loaded() for _ in calls]
        encoded = [a.json if isinstance(a, codec.Encoded) else codec.Encoded(a).json for a, _ in calls]
        failed = self._ensure_child()
        if failed:
            return [failed]
        limits = [float(t) for _, t in calls]
        hards = [slowed_until(t) for t in limits]
        nonces = [self._nonce() for _ in calls]
        head = codec.dumps_line({"op": "calls", "f": function, "t": limits, "wl": hards,
                                 "w": list(self.watch) if watch else None, "n": nonces})
        line = head[:-2] + b',"a":[' + b",".join(encoded) + b"]}\n"
        if len(line) > codec.MAX_LINE_BYTES:        # too large for one request: one at a time
            return []
        cpu = self._cpu_start()
        failure = self._send_line(line)
        if failure:
            return [failure]
        results: list[CallResult] = []
        for i, (t, hard, nonce) in enumerate(zip(limits, hards, nonces)):
            last = i == len(calls) - 1
            m, failure, wall = self._receive(nonce, _parent_backstop(t), t, cpu, hard + PARENT_GRACE, last=last)
            if failure:
                results.append(failure)
                break
            assert m is not None  # _receive gives a message or a failure
            now = self._cpu_mark = self._cpu_now()
            measured = now - cpu if now is not None and cpu is not None else None
            cpu = now
            try:
                result = self._result(m, wall, t, measured)
            except codec.CodecError as e:
                results.append(self._protocol_failure(e, wall))
                break
            results.append(result)
            if not last and (result.status == "timeout" or self._restart or (stop is not None and stop(results))):
                self._kill_child()
                self._restart = True
                break
        return results

    def close(self) -> None:
        """End the session: every process of it is killed (SIGKILL to the session's pid 1, whose
        death takes its whole pid namespace) before the slot serves anything else.  Nothing
        waits here for the kernel to tear the namespaces down (a grace period of several
        milliseconds with no CPU in it): the zygote reaps them as they finish, and a session
        of other code starts only once they are gone (``Sandbox._other_code``)."""
        if self._closed:
            return
        self._closed = True
        self._drop_chan()
        if self._let_go():
            self.sandbox._post({"op": "drop"})

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _ready(result: CallResult) -> Callable[[], CallResult]:
    return lambda: result


def _str(x: object) -> str:
    return x if type(x) is str else ""


def _pick(x: Any, allowed: Sequence[Any], default: Any) -> Any:
    return x if x in allowed else default


def _exc(e: object) -> dict[str, Any] | None:
    if type(e) is not dict:
        return None
    return {"type": _str(e.get("type")) or "Exception", "message": _str(e.get("message")),
            "lineno": e.get("lineno") if type(e.get("lineno")) is int else None,
            "line": e.get("line") if type(e.get("line")) is str else None,
            "traceback": _str(e.get("traceback"))}


def _count_own_processes() -> int:
    if not os.path.isdir("/proc"):
        return 0
    uid = os.getuid()
    n = 0
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                if os.stat(f"/proc/{p}").st_uid == uid:
                    n += 1
            except OSError:
                pass
    return n


def kill_tree(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL a process started in its own session and everything it left in that session."""
    if sys.platform == "win32":
        try:
            subprocess.run(["taskkill", "/F", "/T", "/PID", str(proc.pid)], capture_output=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            pass
    else:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        proc.kill()
    except OSError:
        pass
