"""How this package runs untrusted programs: the sandbox's program API, with its limits.

A thin layer over :mod:`grader.run.process` (bubblewrap as an unprivileged uid where the
machine supports it): the spec's limits become a :class:`Limits`, and Java gets the
JDK bound read-only.
"""
from __future__ import annotations

import dataclasses
import os
import shutil
from functools import lru_cache
from pathlib import Path

from grader.run.process import Program, ProgramResult, run, spawn
from grader.run.sandbox import IsolationProfile, Limits, probe

__all__ = ["Program", "ProgramResult", "run", "spawn", "limits_for", "isolation", "jdk_home", "binds_for"]


def limits_for(base: Limits | None, *, memory_mb: int, output_bytes: int, cpu_s: int) -> Limits:
    """The spec's limits on top of the pipeline's (the pipeline's may be None)."""
    return dataclasses.replace(base or Limits(), memory_mb=memory_mb, output_bytes=output_bytes, cpu_s=cpu_s)


def isolation(profile: IsolationProfile | None) -> str:
    return (profile or probe()).describe()


@lru_cache(maxsize=1)
def jdk_home() -> str:
    """The JDK's folder, from the javac on PATH (bound read-only into the sandbox)."""
    javac = shutil.which("javac")
    return str(Path(os.path.realpath(javac)).parent.parent) if javac else ""


def binds_for(language: str) -> tuple[str, ...]:
    return (jdk_home(),) if language == "java" and jdk_home() else ()

