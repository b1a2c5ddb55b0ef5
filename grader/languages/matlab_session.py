"""One Octave process per submission, serving the graded calls, inside the grader's sandbox.

Octave starts once (through ``grader.run.process.spawn``: bubblewrap, the slot's uid,
rlimits, a private scratch folder holding the student's ``.m`` files) and runs the call
server in ``matlab_m/server``. Each call is one request line; the reply is one framed
line carrying the outputs, what the call printed, the error and the tripwire findings.

Nothing the server says about time or crashes is believed: the CPU time of each call is
read from /proc from outside, a call over its limit (or stuck past its wall-clock
backstop) is killed from outside, and a dead Octave (a crash, ``exit``, a kill) costs
that case only: the next call starts a fresh Octave. Same results as the Python
sessions: :class:`grader.run.model.CallResult` and :class:`LoadResult`.
"""
from __future__ import annotations

import dataclasses
import hashlib
import hmac
import os
import re
import secrets
import shutil
import time
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from grader.languages import matlab_values as mv
from grader.run import process
from grader.run.child.deadlines import blocked_after
from grader.run.meter import children
from grader.run.model import CallResult, IsolationProfile, Limits, LoadResult, SandboxError
from grader.run.sandbox import probe

M_DIR = Path(__file__).with_name("matlab_m")
SANDBOX_M_DIR = "/opt/grader/matlab"
STARTUP_S = 20.0
POLL_S = 0.02
# What the parent keeps of Octave's stdout (replies, capped printing) and stderr over a whole session.
PROGRAM_OUTPUT_BYTES = 64 << 20
HARD_WALL_FACTOR = 10   # past this many backstops of wall time, stop waiting whatever the machine's load
FRAME = b"\x1e"
# The student's code shares Octave's process with the tripwire's signing key.  Octave's own file
# functions cannot seek into /proc/self/mem, but a program Octave starts can read its parent's
# memory, and so can a JVM Octave loads: Octave may start no program (``last_exec``) and sees no JVM.
JVM_HOMES = ("/usr/lib/jvm", "/usr/lib64/jvm")
OCTAVE_FLAGS = ("--norc", "--no-init-file", "--no-site-file", "--quiet", "--no-history", "--no-window-system")
_CLK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def octave_path() -> str | None:
    """The Octave interpreter, or None: grading .m files then says what to install."""
    return shutil.which("octave-cli")


# ------------------------------------------------------------------ CPU, from outside
def _process_cpu(pid: int) -> float:
    """CPU seconds of one process and its reaped children (finest clock available)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / _CLK
    reaped = (int(fields[13]) + int(fields[14])) / _CLK
    try:
        with open(f"/proc/{pid}/sched") as f:
            match = re.search(r"se\.sum_exec_runtime\s*:\s*([\d.]+)", f.read())
        precise = float(match.group(1)) / 1000 if match else 0.0
    except OSError:
        precise = 0.0
    # sched counts the main thread only, in ns; stat counts every thread, in ticks.
    return max(own, precise) + reaped


def _running(pid: int) -> bool:
    """Is the process running or waiting for a CPU (state R), rather than blocked or asleep?"""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "R"
    except (OSError, IndexError):
        return False


def tree_cpu(pid: int) -> float:
    """CPU seconds used so far by a process and every descendant (dead ones included)."""
    total, todo, seen = 0.0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        total += _process_cpu(p)
        todo += children(p)
    return total


def _leaf(pid: int) -> int:
    """The process at the bottom of the sandbox's chain (bwrap, bwrap, octave-cli): Octave itself."""
    for _ in range(8):
        kids = children(pid)
        if len(kids) != 1:
            break
        pid = kids[0]
    return pid


# ------------------------------------------------------------------ the session
class OctaveSession:
    """The student's functions loaded in one Octave, restarted after a crash or a kill."""

    def __init__(self, files: Mapping[str, bytes], functions: Sequence[str], watch: Sequence[str] = (), *,
                 limits: Limits = Limits(), profile: IsolationProfile | None = None, slot: int = 0,
                 load_time_limit: float = 10.0):
        self.files = dict(files)
        self.functions = tuple(functions)
        self.watch = tuple(watch)
        self.limits = limits
        self.profile = profile or probe()
        self.slot = slot
        self.load_time_limit = load_time_limit
        self.restarts = 0
        self.parse_errors: dict[str, str] = {}
        self.declared_outputs: dict[str, int] = {}
        self._program: process.Program | None = None
        self._octave_pid = 0
        self._carry = b""
        self._closed = False
        self._key = ""
        self.load = self._start()

    # -- lifecycle ---------------------------------------------------------
    def _argv(self) -> tuple[list[str], list[tuple[str, str]]]:
        root = SANDBOX_M_DIR if self.profile.uses_bwrap else str(M_DIR)
        boot = (f"addpath('{root}/server'); addpath('{root}/compat', '-end'); grader_serve_()")
        return ["octave-cli", *OCTAVE_FLAGS, "--eval", boot], [(str(M_DIR), SANDBOX_M_DIR)]

    def _env(self) -> dict[str, str]:
        home = "/w" if self.profile.uses_bwrap else "/tmp"
        return {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}

    def _start(self) -> LoadResult:
        """Start Octave, install the tripwire, and parse every graded function's file."""
        argv, binds = self._argv()
        limits = Limits(memory_mb=max(self.limits.memory_mb, 2048), cpu_s=self.limits.cpu_s, nproc=self.limits.nproc,
                        fsize_mb=self.limits.fsize_mb, nofile=max(self.limits.nofile, 256),
                        output_bytes=PROGRAM_OUTPUT_BYTES, scratch_mb=self.limits.scratch_mb)
        try:
            self._program = process.spawn(argv, self.files, limits=limits, binds=binds, env=self._env(),
                                          profile=self.profile, slot=self.slot, last_exec=True, masks=JVM_HOMES)
        except (OSError, RuntimeError) as exc:
            raise SandboxError(f"Octave could not be started: {exc}") from exc
        self._carry = b""
        self._octave_pid = self._program.pid
        nonce = secrets.token_hex(8)
        trip = ",".join(self.watch) or "-"
        self._key = secrets.token_hex(16)      # signs the tripwire's reports: see _signed
        self._send(f"{nonce} load {trip} {self._key} {' '.join(self.functions)}")
        reply, stray, failure = self._await(nonce, limit=STARTUP_S, wall=STARTUP_S + self.load_time_limit)
        self._octave_pid = _leaf(self._program.pid) if self._program else 0
        if failure is not None:
            self._kill()
            return LoadResult(False, "crashed" if failure.status == "crashed" else "timeout",
                              f"Octave did not start: {failure.detail}", stdout=stray)
        entries = reply.get("load") if reply else None
        if type(entries) is not list:
            self._kill()
            return LoadResult(False, "protocol", "Octave did not load the submission", stdout=stray)
        for entry in entries:
            name = mv.text(entry.get("n")) if type(entry) is dict else ""
            if name and entry.get("ok") is not True:
                self.parse_errors[name] = mv.text(entry.get("m")).strip()
            elif name and type(entry.get("o")) is int:
                self.declared_outputs[name] = entry["o"]
        # A function that does not parse is still there: calling it fails the way MATLAB fails, with the parse error.
        return LoadResult(True, "ok", names=self.functions, stdout=stray)

    def _kill(self) -> int | None:
        program, self._program = self._program, None
        if program is None:
            return None
        program.kill("killed")
        return program.returncode

    def close(self) -> None:
        self._closed = True
        self._kill()

    def __enter__(self) -> "OctaveSession":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- the line protocol -------------------------------------------------
    def _send(self, line: str) -> bool:
        assert self._program is not None
        return self._program.send(line + "\n\n")   # the empty line: fgetl reads one character ahead

    def _await(self, nonce: str, *, limit: float, wall: float) -> tuple[dict | None, str, CallResult | None]:
        """The reply frame for ``nonce``, what was printed outside it, or the failure (killed from outside)."""
        program = self._program
        assert program is not None
        marker = FRAME + nonce.encode() + b" "
        buffer = self._carry
        start_cpu = self._cpu()
        started = time.monotonic()
        idle = 0.0   # wall time Octave spent blocked or asleep: a busy machine's queueing does not count
        while True:
            at = buffer.find(marker)
            end = buffer.find(b"\n", at) if at >= 0 else -1
            if end >= 0:
                self._carry = buffer[end + 1:]
                stray = buffer[:at].decode("utf-8", "replace")
                stray = stray[:-1] if stray.endswith("\n") else stray
                cpu = self._cpu() - start_cpu
                try:
                    return mv.parse_reply(buffer[at + len(marker):end]) | {"cpu": cpu}, stray, None
                except mv.BadValue as exc:
                    self._kill()
                    return None, stray, CallResult("protocol", time_s=cpu, detail=f"the answer could not be read: {exc}")
            if len(buffer) > mv.MAX_REPLY_BYTES + self.limits.output_bytes:
                self._kill()
                return None, "", CallResult("protocol", detail="printed or returned more than the grader accepts")
            before = time.monotonic()
            chunk = program.read_until(lambda text: bool(text), POLL_S)
            buffer += chunk.encode("utf-8", "surrogateescape") if chunk else b""
            waited = time.monotonic() - started
            if not _running(self._octave_pid):
                idle += time.monotonic() - before
            cpu = self._cpu() - start_cpu
            if not chunk and program.poll() is not None:
                code = program.returncode
                self._program = None
                stray = buffer.decode("utf-8", "replace")
                return None, stray, CallResult("crashed", time_s=max(0.0, cpu), wall_s=waited, stdout=stray,
                                               detail=_exit_detail(code, program.stderr))
            if cpu > limit or idle > wall or waited > HARD_WALL_FACTOR * wall:
                self._kill()
                why = (f"used {cpu:.2f} s of CPU time" if cpu > limit
                       else f"no answer after {waited:.1f} s, {idle:.1f} s of it waiting rather than computing "
                            "(did it wait for input or sleep?)")
                return None, buffer.decode("utf-8", "replace"), CallResult("timeout", time_s=max(cpu, limit if cpu > limit else cpu),
                                                                            wall_s=waited, detail=why)

    def _cpu(self) -> float:
        """CPU seconds of Octave and everything it started, so far."""
        if self._program is None:
            return 0.0
        return tree_cpu(self._octave_pid or self._program.pid)

    # -- calls -------------------------------------------------------------
    def _ensure(self) -> CallResult | None:
        if self._program is not None:
            return None
        self.restarts += 1
        again = self._start()
        if not again.ok:
            return CallResult("crashed", detail=f"Octave could not be started again: {again.message}")
        return None

    def _outputs_of(self, function: str, expected: Any) -> Any:
        """A frozen spec (a student bundle) holds several outputs as a list, YAML having no tuples:
        a list of k >= 2 answers for a function declaring exactly k outputs is read as k outputs."""
        if type(expected) is list and len(expected) >= 2 and self.declared_outputs.get(function) == len(expected):
            return tuple(expected)
        return expected

    def call(self, function: str, args: Sequence[Any], *, time_limit: float, watch: bool = False,
             expected: Any = None, classes: Sequence[str | None] = ()) -> CallResult:
        """``[o1..ok] = function(args{:})`` with k the reference's number of outputs."""
        return self._calls(function, [(args, time_limit)], [watch], [expected], classes)[0]

    def call_many(self, function: str, calls: Sequence[tuple[Sequence[Any], float]], *,
                  watch: bool | Sequence[bool] = False, expected: Sequence[Any] | None = None,
                  stop: Callable[[Sequence[CallResult]], bool] | None = None, batch: bool = False) -> list[CallResult]:
        """Every case of a function; a case that kills Octave costs that case only.

        ``batch`` (public cases, which hide nothing) sends them all in one request. Otherwise
        each case is a request of its own, sent only once the one before has answered, so
        Octave never holds the inputs of a hidden case it has not been asked to run yet (the
        student's code can read the server's variables); ``stop`` (the consecutive-timeout
        rule) is then asked after every result, and the remaining cases are not run."""
        flags = [bool(watch)] * len(calls) if isinstance(watch, bool) else [bool(w) for w in watch]
        wanted = list(expected) if expected is not None else [None] * len(calls)
        return self._calls(function, calls, flags, wanted, batch=batch, stop=stop)

    def _calls(self, function: str, calls: Sequence[tuple[Sequence[Any], float]], flags: Sequence[bool],
               wanted: Sequence[Any], classes: Sequence[str | None] = (), *, batch: bool = True,
               stop: Callable[[Sequence[CallResult]], bool] | None = None) -> list[CallResult]:
        if self._closed:
            raise SandboxError("the session is closed")
        literals = [mv.args_literal(list(args), classes) for args, _ in calls]   # the grader's own values
        results: list[CallResult] = []
        while len(results) < len(calls):
            if not batch and results and stop is not None and stop(results):
                break
            failure = self._ensure()
            if failure:
                results.append(failure)
                continue
            end = len(calls) if batch else len(results) + 1
            results += self._batch(function, calls[len(results):end], flags[len(results):end],
                                   wanted[len(results):end], literals[len(results):end])
        return results

    def _batch(self, function: str, calls: Sequence[tuple[Sequence[Any], float]], flags: Sequence[bool],
               wanted: Sequence[Any], literals: Sequence[str]) -> list[CallResult]:
        """Send the cases, read one reply per case; stop at the first that loses Octave (the rest go again)."""
        expected = [self._outputs_of(function, e) for e in wanted]
        counts = [mv.nargout(e) for e in expected]
        nonce = secrets.token_hex(8)
        request = (f"{nonce} calls {function} {''.join('1' if f else '0' for f in flags)} "
                   f"{''.join(str(min(c, 9)) for c in counts)} {{{', '.join(literals)}}}")
        if not self._send(request):
            self._kill()
            return [CallResult("crashed", detail="Octave stopped reading its requests")]
        out: list[CallResult] = []
        for index, ((_, limit), count, want) in enumerate(zip(calls, counts, expected)):
            reply, stray, failure = self._await(f"{nonce}:{index}", limit=limit, wall=blocked_after(limit))
            if failure is not None:
                out.append(failure)
                break
            assert reply is not None
            tampered = _signed(reply, self._key, f"{nonce}:{index}")
            if tampered is None:
                out.append(CallResult("protocol", time_s=float(reply.get("cpu", 0.0)), stdout=stray,
                                      detail="its answer did not come from the grader's call server (the ban "
                                             "tripwire's report was missing or not signed)"))
                continue
            result = _result(reply, stray, count, want)
            out.append(dataclasses.replace(result, tampered=True) if tampered else result)
        return out


def _signed(reply: dict, key: str, tag: str) -> bool | None:
    """Whether the tripwire saw its controls called by the student's code, or None when the
    reply's hits are not the tripwire's (a frame the student's code wrote itself, with no hits:
    its signature needs the key, which lives only in the tripwire's locked state)."""
    raw, sig = reply.get("hits"), reply.get("sig")
    if type(raw) is not list or type(sig) is not str or sig[:2] not in ("0:", "1:"):
        return None
    if not all(type(h) is dict and type(h.get("b")) is str and type(h.get("f")) is str and type(h.get("l")) is int
               for h in raw):
        return None
    signed = "".join(f"{h['b']}:{h['f']}:{h['l']};" for h in raw)
    want = hashlib.sha256(f"{key}|{tag}|{sig[0]}|{signed}".encode()).hexdigest()
    return sig[0] == "1" if hmac.compare_digest(sig[2:], want) else None


def _exit_detail(code: int | None, stderr: str) -> str:
    if code is not None and code >= 0:
        return f"Octave exited with status {code} (the code called exit or quit, or Octave failed)"
    last = stderr.strip().splitlines()[-1:] if stderr.strip() else []
    return f"Octave crashed (signal {-code if code else '?'})" + (f": {last[0]}" if last else "")


def _result(reply: dict, stray: str, count: int, expected: Any) -> CallResult:
    """A reply frame as a CallResult, read with the same suspicion as any child's reply."""
    cpu = float(reply.get("cpu", 0.0))
    printed = stray + mv.text(reply.get("out"))
    hits = _hits(reply.get("hits"))
    if reply.get("ok") is True:
        values = reply.get("v") or []
        if len(values) != count:
            return CallResult("protocol", time_s=cpu, stdout=printed, detail=f"returned {len(values)} outputs, not {count}")
        try:
            value = mv.outputs(values, expected)
        except mv.Unsupported as exc:
            return CallResult("protocol", time_s=cpu, stdout=printed, detail=str(exc), watch_hits=hits)
        return CallResult("ok", value=value, time_s=cpu, stdout=printed, watch_hits=hits)
    raw_error = reply.get("e")
    error: dict[str, Any] = raw_error if type(raw_error) is dict else {}
    message = mv.text(error.get("m")).strip()
    frames = [f for f in (error.get("s") or []) if type(f) is dict]
    where = next(((mv.text(f.get("f")), f.get("l")) for f in frames
                  if mv.text(f.get("f")) and not mv.text(f.get("f")).startswith("/")), None)
    file, line = (os.path.basename(where[0]), where[1]) if where else (None, None)
    trace = "\n".join(f"  {mv.text(f.get('n'))} ({os.path.basename(mv.text(f.get('f')))} line {f.get('l')})" for f in frames)
    exception = {"type": "an error", "message": message, "lineno": line if type(line) is int and line > 0 else None,
                 "line": None, "file": file, "identifier": mv.text(error.get("id")), "traceback": f"{message}\n{trace}"}
    return CallResult("error", time_s=cpu, stdout=printed, exception=exception, watch_hits=hits)


def _hits(raw: Any) -> tuple[dict, ...]:
    found = []
    for hit in raw if type(raw) is list else []:
        if type(hit) is dict:
            found.append({"banned": mv.text(hit.get("b")), "file": mv.text(hit.get("f")),
                          "line": hit.get("l") if type(hit.get("l")) is int else None})
    return tuple(found)
