"""Exec a program that can start no other program: its own exec is the last one.

Why: an interpreter that runs the student's code in its own process (Octave) holds what the
grader trusts in that same memory (the tripwire's signing key).  The interpreter's own file
functions cannot read ``/proc/self/mem`` at a mapped address, but any program it starts can
read its parent's memory (same uid, dumpable), and a started program can also write past the
interpreter's captured output.  So the interpreter may run no program at all: ``system``,
``popen``, ``unix`` and ``exec`` fail as the kernel refuses ``execve``.

How: a seccomp filter that refuses ``execve`` and ``execveat`` unless the path pointer is the
one buffer this process passes to its own ``execve`` right after installing the filter.  A new
program's address space holds nothing at that address that its code chose (the buffer lived in
the image the exec replaced, at an address randomised with its heap).  Cross-process memory
calls (ptrace, process_vm_readv/writev) are refused with it.  Standalone (stdlib only): part of
``_gradechild``; needs no_new_privs, which the sandbox has set.
"""
from __future__ import annotations

import ctypes
import errno
import os

from .confine import (_JEQ_K, _LD_W_ABS, _OFF_ARG0_LO, _RET_K, RET_ALLOW, SYSCALLS, begin_filter, end_filter,
                      install_filter, native_arch)
from .linux import PR_SET_NO_NEW_PRIVS, libc, prctl

TYPE_CHECKING = False  # the sandboxed child does not import typing
if TYPE_CHECKING:
    from typing import Mapping, Sequence

_OFF_ARG0_HI = _OFF_ARG0_LO + 4


def exec_filter(address: int, arch: int | None = None) -> list[tuple[int, int, int, int]]:
    """The BPF program: allow everything but another exec (the path pointer is not ``address``)
    and cross-process memory calls, which get EACCES and EPERM."""
    arch = arch if arch is not None else native_arch()
    nrs = SYSCALLS[arch]
    a = begin_filter(arch)
    for name in ("ptrace", "process_vm_readv", "process_vm_writev"):
        a.emit(_JEQ_K, nrs[name], "eperm", 0)
    a.emit(_JEQ_K, nrs["execve"], "path", 0)
    a.emit(_JEQ_K, nrs["execveat"], "eacces", 0)     # ours is execve: execveat never needed
    a.emit(_RET_K, RET_ALLOW)
    a.label("path")
    a.emit(_LD_W_ABS, _OFF_ARG0_LO)
    a.emit(_JEQ_K, address & 0xFFFFFFFF, 0, "eacces")
    a.emit(_LD_W_ABS, _OFF_ARG0_HI)
    a.emit(_JEQ_K, address >> 32, 0, "eacces")
    a.emit(_RET_K, RET_ALLOW)
    return end_filter(a, eacces=errno.EACCES)


def _resolve(name: str, env: Mapping[str, str]) -> str:
    """``execvp``'s search of PATH, done before the filter forbids the trial execs."""
    if "/" in name:
        return name
    for folder in env.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(folder or ".", name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    raise OSError(errno.ENOENT, f"{name}: not found on PATH")


def _strings(items: Sequence[str]) -> ctypes.Array[ctypes.c_char_p]:
    arr = (ctypes.c_char_p * (len(items) + 1))()
    arr[:-1] = [s.encode() for s in items]
    return arr


def exec_last(argv: Sequence[str], env: Mapping[str, str] | None) -> None:
    """Replace this process with ``argv``, which then can exec nothing.  Returns only by
    raising OSError (the filter could not be installed, or the exec failed)."""
    environ = dict(os.environ if env is None else env)
    path = ctypes.create_string_buffer(_resolve(argv[0], environ).encode())
    args = _strings(list(argv))
    envp = _strings([f"{k}={v}" for k, v in environ.items()])
    if prctl(PR_SET_NO_NEW_PRIVS, 1) != 0:
        raise OSError(ctypes.get_errno(), "no_new_privs")
    install_filter(exec_filter(ctypes.addressof(path)))
    libc().execve(path, args, envp)
    e = ctypes.get_errno()
    raise OSError(e, os.strerror(e))
