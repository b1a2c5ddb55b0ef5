"""Linux system calls the child needs and Python does not wrap: mounts, prctl, capabilities.

Standalone (stdlib only): it runs inside the sandbox as part of ``_gradechild``.
"""
from __future__ import annotations

import ctypes
import os

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
# Every namespace a session can hold state in is fresh per session: SysV shared memory,
# semaphores and message queues (ipc), sockets and ports (net), the host name (uts), the
# cgroup view, processes (pid) and mounts.  The user namespace is the slot's: bubblewrap's
# --disable-userns forbids nesting another, and a user namespace holds no state a session
# can write (keyrings are refused by the seccomp filter instead).
SESSION_NAMESPACES = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWNET | CLONE_NEWUTS | CLONE_NEWCGROUP
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
    drop_bounding_set()
    drop_caps()


def drop_bounding_set() -> None:
    """No capability can be gained by exec any more; children inherit the bounding set, so
    the zygote drops it once for every session it forks."""
    for cap in range(64):
        prctl(PR_CAPBSET_DROP, cap)          # EINVAL past the last cap: ignored


def drop_caps() -> None:
    """This process's own capabilities: ambient, effective, permitted, inheritable."""
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    hdr = _CapHeader(0x20080522, 0)
    data = (_CapData * 2)()
    _chk(libc().capset(ctypes.byref(hdr), data), "capset")


# ------------------------------------------------------------------ seccomp: no kernel keyrings
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_uint16), ("filter", ctypes.POINTER(_SockFilter))]


def prctl_ptr(option: int, arg2: int, address: int) -> int:
    result: int = libc().prctl(ctypes.c_int(option), ctypes.c_ulong(arg2), ctypes.c_void_p(address),
                               ctypes.c_ulong(0), ctypes.c_ulong(0))
    return result
