"""Leaves state behind in every kind of namespace a session could share with the next one,
and looks for what an earlier session left."""
import ctypes
import os
import socket

libc = ctypes.CDLL(None, use_errno=True)
IPC_CREAT, IPC_RMID = 0o1000, 0
KEY = 0x5EC12
SYS_add_key, SYS_keyctl = 248, 250          # x86_64
KEY_SPEC_USER_KEYRING = -4
KEYCTL_SEARCH = 10


def shm_leave():
    shmid = libc.shmget(KEY, 1 << 20, IPC_CREAT | 0o666)
    if shmid < 0:
        return f"shmget failed: {os.strerror(ctypes.get_errno())}"
    libc.shmat.restype = ctypes.c_void_p
    addr = libc.shmat(shmid, None, 0)
    ctypes.memmove(addr, b"secret-from-earlier-session", 27)
    return "left"


def shm_find():
    shmid = libc.shmget(KEY, 0, 0)
    if shmid < 0:
        return None
    libc.shmat.restype = ctypes.c_void_p
    addr = libc.shmat(shmid, None, 0)
    return ctypes.string_at(addr, 27).decode(errors="replace")


def key_leave():
    r = libc.syscall(SYS_add_key, b"user", b"grader-leftover", b"secret", 6, KEY_SPEC_USER_KEYRING)
    return "left" if r >= 0 else f"add_key refused: {os.strerror(ctypes.get_errno())}"


def key_find():
    r = libc.syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, b"user", b"grader-leftover", 0)
    return None if r < 0 else "found"


def abstract_leave():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind("\0grader-leftover")
    s.listen(1)
    if os.fork() == 0:            # a daemon holding the socket
        os.setsid()
        import time
        while True:
            time.sleep(1)
    return "left"


def abstract_find():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect("\0grader-leftover")
        return "found"
    except OSError:
        return None


def scratch_leave():
    for d in ("/w", "/tmp", "/dev/shm"):
        with open(os.path.join(d, "leftover.txt"), "w") as f:
            f.write("x")
    return "left"


def scratch_find():
    return [d for d in ("/w", "/tmp", "/dev/shm") if os.path.exists(os.path.join(d, "leftover.txt"))] or None


def ipc_namespace():
    return os.readlink("/proc/self/ns/ipc")
