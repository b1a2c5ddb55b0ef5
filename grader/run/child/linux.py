"""Linux system calls the child needs and Python does not wrap: mounts, prctl, capabilities.

Standalone (stdlib only): it runs inside the sandbox as part of ``_gradechild``.
"""
from __future__ import annotations

import ctypes
import os

CLONE_NEWNS = 0x00020000
CLONE_NEWPID = 0x20000000
MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
PR_SET_CHILD_SUBREAPER = 36


_libc = None


def libc() -> ctypes.CDLL:
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
    return _libc


def _chk(r: int, what: str) -> None:
    if r != 0:
        e = ctypes.get_errno()
        raise OSError(e, f"{what}: {os.strerror(e)}")


def prctl(*args: int) -> int:
    a = [ctypes.c_ulong(x) for x in args] + [ctypes.c_ulong(0)] * (5 - len(args))
    return int(libc().prctl(*a))


def mount(src: str | None, dst: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    _chk(libc().mount(src.encode() if src else None, dst.encode(),
                      fstype.encode() if fstype else None, ctypes.c_ulong(flags),
                      data.encode() if data else None), f"mount {dst}")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def drop_all_caps() -> None:
    for cap in range(64):
        prctl(PR_CAPBSET_DROP, cap)          # EINVAL past the last cap: ignored
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    hdr = _CapHeader(0x20080522, 0)
    data = (_CapData * 2)()
    _chk(libc().capset(ctypes.byref(hdr), data), "capset")
