"""What the runner promises its callers: limits, isolation profiles, and call results.

Plain data only, shared by the sandbox (slots), the sessions and whole-program runs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal


class SandboxError(RuntimeError):
    """The sandbox itself could not be started or talked to."""


@dataclass(frozen=True)
class Limits:
    memory_mb: int = 1024        # RLIMIT_AS of the child
    cpu_s: int = 120             # RLIMIT_CPU of one session (whole submission)
    nproc: int = 32
    fsize_mb: int = 16           # RLIMIT_FSIZE
    nofile: int = 64
    output_bytes: int = 32_000   # captured stdout+stderr kept per call
    scratch_mb: int = 64         # size of the writable scratch tmpfs


@dataclass(frozen=True)
class IsolationProfile:
    name: str
    layers: tuple[str, ...]
    secure: bool

    def describe(self) -> str:
        tag = "fit for untrusted code" if self.secure else "NOT fit for untrusted code"
        return f"isolation {self.name} ({tag}): {', '.join(self.layers) or 'no layers'}"

    @property
    def uses_bwrap(self) -> bool:
        return self.name.startswith("bwrap")


@dataclass
class LoadResult:
    ok: bool
    kind: Literal["ok", "syntax", "import-error", "timeout", "crashed", "protocol"]
    message: str = ""
    lineno: int | None = None
    line: str | None = None
    names: tuple[str, ...] = ()
    stdout: str = ""
    exception: dict[str, Any] | None = None


@dataclass(frozen=True)
class CallResult:
    status: Literal["ok", "error", "timeout", "crashed", "protocol"]
    value: Any = None
    time_s: float = 0.0
    wall_s: float = 0.0
    stdout: str = ""
    exception: dict[str, Any] | None = None
    detail: str = ""
    watch_hits: tuple[dict[str, Any], ...] = ()
    tampered: bool = False

    @classmethod
    def ok(cls, value: Any, time_s: float, wall_s: float) -> CallResult:
        """The usual result (a value and its times, every other field at its default), made
        without the frozen dataclass's ``__init__``, whose nine ``object.__setattr__`` calls
        are most of its cost (1.5 us of every case)."""
        result = object.__new__(cls)
        result.__dict__.update(_OK, value=value, time_s=time_s, wall_s=wall_s)
        return result


_OK = dict(vars(CallResult("ok")))     # every field as __init__ leaves it; CallResult.ok sets three


# ------------------------------------------------------------------ probe
