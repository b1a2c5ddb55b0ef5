"""Two sessions side by side that talk through state the kernel shares between them.

``publish_*`` leaves a mark where a process in another sandbox can find it (an open file
description's lock shows in /proc/locks in every pid namespace; a lock on a file both can
read, the interpreter's own, blocks the other's; an AIO context's size adds to
/proc/sys/fs/aio-nr; inotify reports the other's opening of a shared file); ``listen_*``
looks for it.  Each returns what it saw, so a test can tell a closed channel from a quiet one.
"""
import ctypes
import fcntl
import os
import platform
import struct

_kept = []
BASE = 7_123_000_000_000


def publish_lock(n):
    fd = os.open("/tmp/.c", os.O_RDWR | os.O_CREAT, 0o600)
    _kept.append(fd)
    fcntl.fcntl(fd, fcntl.F_OFD_SETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, BASE + n, 1, 0))
    return "published"


def listen_lock(n):
    try:
        with open("/proc/locks") as f:
            text = f.read()
    except OSError as e:
        return f"unreadable: {e.strerror}"
    return str(BASE + n) in text


def publish_flock():
    fd = os.open(os.__file__, os.O_RDONLY)
    _kept.append(fd)
    fcntl.flock(fd, fcntl.LOCK_EX)
    return "published"


def listen_flock():
    fd = os.open(os.__file__, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return "locked by another sandbox"
    finally:
        os.close(fd)
    return "free"


def ask_lock():
    """Who holds a lock on the interpreter's own file (F_OFD_GETLK, whole file)?"""
    fd = os.open(os.__file__, os.O_RDONLY)
    try:
        got = fcntl.fcntl(fd, fcntl.F_OFD_GETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))
    except OSError as e:
        return f"refused: {e.strerror}"
    finally:
        os.close(fd)
    return "unlocked" if struct.unpack("hhqqi", got)[0] == fcntl.F_UNLCK else "locked"


def watch_shared_file():
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(os.O_NONBLOCK)
    if fd < 0:
        return f"refused: {os.strerror(ctypes.get_errno())}"
    _kept.append(fd)
    return "watching" if libc.inotify_add_watch(fd, os.__file__.encode(), 0x20) >= 0 else "no watch"


def _aio_nr():
    try:
        with open("/proc/sys/fs/aio-nr") as f:
            return f.read().strip() or "empty"
    except OSError as e:
        return f"unreadable: {e.strerror}"


def publish_aio(n):
    libc = ctypes.CDLL(None, use_errno=True)
    ctx = ctypes.c_ulong(0)
    number = {"x86_64": 206, "aarch64": 0}[platform.machine()]
    if libc.syscall(number, n, ctypes.byref(ctx)) != 0:
        return f"io_setup failed: {os.strerror(ctypes.get_errno())}"
    _kept.append(ctx)
    return "published"


def listen_aio():
    return _aio_nr()


KEYCTL_NR = {"x86_64": 250, "aarch64": 219}[platform.machine()]
