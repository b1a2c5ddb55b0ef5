"""The container profile's confinement of one session, for machines where namespaces are refused.

Runs in the session child (G) right after the root zygote forked it, before any student
byte is written or loaded.  Standalone (stdlib only): part of ``_gradechild``.

Layers, in this order (each needs the one before):

1. **uid separation**: ``setgroups([])``, ``setresgid``/``setresuid`` to the slot's own
   unprivileged ids; every capability goes with uid 0.
2. **no_new_privs**: no setuid binary gives anything back.
3. **Landlock** (Linux >= 5.13, raw syscalls 444-446): read-only the folders the interpreter
   and the harness need, read-write the session's scratch, nothing else; from ABI 4 no TCP,
   from ABI 6 no abstract unix socket and no signal outside the session's domain.
4. **seccomp**: an allow-by-default BPF filter that refuses what no namespace isolates here:
   new sockets (the protocol socketpair is made by the zygote before the fork; ``socket()``
   of every family is refused, AF_UNIX included, so a session reaches no other session by an
   abstract or named unix socket), ``socketpair`` other than AF_UNIX, ptrace and cross-process
   memory, mounts, namespaces (``unshare``, ``setns``, namespace flags of ``clone``,
   ``clone3`` as ENOSYS so libc falls back to ``clone``), kexec, bpf, perf_event_open, SysV
   IPC, personality, kernel keyrings, io_uring (it can open sockets behind seccomp's back),
   userfaultfd, module loading, swap, reboot, chroot, file handles; and, as in every session
   (``session_filter``), the kernel state all sandboxes share (``_F_TAKE_LOCK``).  Other
   architectures' system calls (x32 on x86_64, or an unknown ABI) are refused outright.
"""
from __future__ import annotations

import ctypes
import errno
import os
import signal

from .linux import (  # relative: this package is `_gradechild` in the sandbox, grader.run.child here
    PR_SET_NO_NEW_PRIVS,
    PR_SET_SECCOMP,
    SECCOMP_MODE_FILTER,
    _SockFilter,
    _SockFprog,
    libc,
    prctl,
    prctl_ptr,
)

TYPE_CHECKING = False  # the sandboxed child does not import typing
if TYPE_CHECKING:
    from typing import Any

# ------------------------------------------------------------------ seccomp
AUDIT_ARCH_X86_64 = 0xC000003E
AUDIT_ARCH_AARCH64 = 0xC00000B7
_X32 = 0x40000000
AF_UNIX = 1
NAMESPACE_FLAGS = 0x7E020080   # CLONE_NEWNS|NEWCGROUP|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET|NEWTIME

# Refused outright (EPERM).  Numbers per architecture; tests check them against libseccomp.
DENIED = ("ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "mount", "umount2", "pivot_root", "chroot",
          "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
          "unshare", "setns", "kexec_load", "kexec_file_load", "bpf", "perf_event_open",
          "shmget", "shmat", "shmctl", "semget", "semop", "semctl", "semtimedop",
          "msgget", "msgsnd", "msgrcv", "msgctl", "personality", "keyctl", "add_key", "request_key",
          "io_uring_setup", "io_uring_enter", "io_uring_register", "userfaultfd", "init_module",
          "finit_module", "delete_module", "swapon", "swapoff", "reboot", "acct", "quotactl",
          "open_by_handle_at", "name_to_handle_at", "fanotify_init", "syslog", "vhangup", "socket")
SYSCALLS = {
    AUDIT_ARCH_X86_64: {
        "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "kcmp": 312, "mount": 165,
        "umount2": 166, "pivot_root": 155, "chroot": 161, "open_tree": 428, "move_mount": 429, "fsopen": 430,
        "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442, "unshare": 272, "setns": 308,
        "kexec_load": 246, "kexec_file_load": 320, "bpf": 321, "perf_event_open": 298, "shmget": 29,
        "shmat": 30, "shmctl": 31, "semget": 64, "semop": 65, "semctl": 66, "semtimedop": 220, "msgget": 68,
        "msgsnd": 69, "msgrcv": 70, "msgctl": 71, "personality": 135, "keyctl": 250, "add_key": 248,
        "request_key": 249, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "userfaultfd": 323, "init_module": 175, "finit_module": 313, "delete_module": 176, "swapon": 167,
        "swapoff": 168, "reboot": 169, "acct": 163, "quotactl": 179, "open_by_handle_at": 304,
        "name_to_handle_at": 303, "fanotify_init": 300, "syslog": 103, "vhangup": 153, "socket": 41,
        "socketpair": 53, "clone": 56, "clone3": 435, "execve": 59, "execveat": 322,
        "flock": 73, "fcntl": 72, "inotify_init": 253, "inotify_init1": 294, "io_setup": 206,
    },
    AUDIT_ARCH_AARCH64: {
        "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272, "mount": 40,
        "umount2": 39, "pivot_root": 41, "chroot": 51, "open_tree": 428, "move_mount": 429, "fsopen": 430,
        "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442, "unshare": 97, "setns": 268,
        "kexec_load": 104, "kexec_file_load": 294, "bpf": 280, "perf_event_open": 241, "shmget": 194,
        "shmat": 196, "shmctl": 195, "semget": 190, "semop": 193, "semctl": 191, "semtimedop": 192,
        "msgget": 186, "msgsnd": 189, "msgrcv": 188, "msgctl": 187, "personality": 92, "keyctl": 219,
        "add_key": 217, "request_key": 218, "io_uring_setup": 425, "io_uring_enter": 426,
        "io_uring_register": 427, "userfaultfd": 282, "init_module": 105, "finit_module": 273,
        "delete_module": 106, "swapon": 224, "swapoff": 225, "reboot": 142, "acct": 89, "quotactl": 60,
        "open_by_handle_at": 265, "name_to_handle_at": 264, "fanotify_init": 262, "syslog": 116,
        "vhangup": 58, "socket": 198, "socketpair": 199, "clone": 220, "clone3": 435, "execve": 221,
        "execveat": 281, "flock": 32, "fcntl": 25, "inotify_init1": 26, "io_setup": 0,
    },
}

# BPF opcodes and return values
_LD_W_ABS, _JEQ_K, _JSET_K, _JGE_K, _RET_K = 0x20, 0x15, 0x45, 0x35, 0x06
RET_ALLOW = 0x7FFF0000
RET_KILL_PROCESS = 0x80000000
_RET_ERRNO = 0x00050000
_OFF_NR, _OFF_ARCH, _OFF_ARG0_LO, _OFF_ARG1_LO = 0, 4, 16, 24

# State of the kernel that every sandbox on the machine shares, which a process can set to any
# value and a process in another sandbox read back exactly: a channel between two sessions
# that run side by side (the players of one game, two students graded at once).  File locks
# are kept per inode, and every sandbox can open the same read-only files (the interpreter's
# own); /proc/locks lists open file descriptions' locks in every pid namespace.  inotify
# reports another sandbox's opening of such a file.  The machine's count of AIO contexts
# (/proc/sys/fs/aio-nr) is whatever sum their sizes make.  A session runs one program, whose
# locks guard it against nobody: taking or releasing a lock succeeds and does nothing, asking
# who holds one fails (ENOLCK), leases and directory notices are refused, and so are inotify
# and AIO contexts (EPERM: the standard library uses neither).
_F_TAKE_LOCK = (6, 7, 37, 38)            # F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW
_F_ASK_LOCK = (5, 36)                    # F_GETLK, F_OFD_GETLK
_F_REFUSED = (1024, 1025, 1026)          # F_SETLEASE, F_GETLEASE, F_NOTIFY
_CHANNELS_REFUSED = ("inotify_init", "inotify_init1", "io_setup")


def _errno(e: int) -> int:
    return _RET_ERRNO | e


class Assembler:
    """A straight-line BPF program with forward jumps to named labels, resolved at the end."""

    def __init__(self) -> None:
        self.code: list[tuple[int, Any, Any, int]] = []   # jt/jf: int offsets or label names
        self.labels: dict[str, int] = {}

    def emit(self, code: int, k: int, jt: Any = 0, jf: Any = 0) -> None:
        self.code.append((code, jt, jf, k))

    def label(self, name: str) -> None:
        self.labels[name] = len(self.code)

    def program(self) -> list[tuple[int, int, int, int]]:
        out = []
        for i, (code, jt, jf, k) in enumerate(self.code):
            rel = [(self.labels[j] - i - 1) if isinstance(j, str) else j for j in (jt, jf)]
            if not all(0 <= r < 256 for r in rel):
                raise ValueError("BPF jump out of range")
            out.append((code, rel[0], rel[1], k))
        return out


def begin_filter(arch: int) -> Assembler:
    """A filter's start: another architecture's call is killed, x32's refused, and the call's
    number loaded for what follows (which may jump to the labels ``eperm`` and ``kill``)."""
    a = Assembler()
    a.emit(_LD_W_ABS, _OFF_ARCH)
    a.emit(_JEQ_K, arch, 0, "kill")
    a.emit(_LD_W_ABS, _OFF_NR)
    if arch == AUDIT_ARCH_X86_64:
        a.emit(_JGE_K, _X32, "eperm", 0)
    return a


def end_filter(a: Assembler, **errnos: int) -> list[tuple[int, int, int, int]]:
    """A filter's end: one return per label, each errno in ``errnos``, then ``eperm`` and ``kill``."""
    for label, value in {**{k: _errno(v) for k, v in errnos.items()}, "eperm": _errno(errno.EPERM),
                         "kill": RET_KILL_PROCESS}.items():
        a.label(label)
        a.emit(_RET_K, value)
    return a.program()


def _shared_state_checks(a: Assembler, nrs: dict[str, int]) -> None:
    """Jumps for the calls that reach kernel state sandboxes share (see ``_F_TAKE_LOCK``);
    a filter that emits them ends with :func:`_shared_state_end`."""
    a.emit(_JEQ_K, nrs["flock"], "noop", 0)
    a.emit(_JEQ_K, nrs["fcntl"], "fcntl", 0)
    for name in _CHANNELS_REFUSED:
        if name in nrs:                      # aarch64 has only inotify_init1
            a.emit(_JEQ_K, nrs[name], "eperm", 0)


def _shared_state_end(a: Assembler) -> list[tuple[int, int, int, int]]:
    a.label("fcntl")
    a.emit(_LD_W_ABS, _OFF_ARG1_LO)
    for cmd in _F_TAKE_LOCK:
        a.emit(_JEQ_K, cmd, "noop", 0)
    for cmd in _F_ASK_LOCK:
        a.emit(_JEQ_K, cmd, "nolock", 0)
    for cmd in _F_REFUSED:
        a.emit(_JEQ_K, cmd, "eperm", 0)
    a.emit(_RET_K, RET_ALLOW)
    return end_filter(a, noop=0, nolock=errno.ENOLCK, enosys=errno.ENOSYS)


def session_filter(arch: int | None = None) -> list[tuple[int, int, int, int]]:
    """The seccomp program of a session in namespaces of its own (bubblewrap): those isolate
    everything else, but kernel keyrings belong to the slot's user namespace and would outlive
    the session, and some state is the whole kernel's (``_F_TAKE_LOCK``)."""
    arch = arch if arch is not None else native_arch()
    nrs = SYSCALLS[arch]
    a = begin_filter(arch)
    for name in ("add_key", "request_key", "keyctl"):
        a.emit(_JEQ_K, nrs[name], "eperm", 0)
    _shared_state_checks(a, nrs)
    a.emit(_RET_K, RET_ALLOW)
    return _shared_state_end(a)


def no_exec_filter(arch: int | None = None) -> list[tuple[int, int, int, int]]:
    """A graded function's session starts no program: ``execve`` and ``execveat`` are refused.

    A program it started is another interpreter, with none of the session's tripwires: a red
    team's ``subprocess.run([sys.executable, "-c", "print(sum(...))"])`` added a list up with
    the banned ``sum`` and scored full marks, seen by neither layer.  (A console program's
    session execs the program itself, so it has :func:`session_filter` alone.)"""
    arch = arch if arch is not None else native_arch()
    nrs = SYSCALLS[arch]
    a = begin_filter(arch)
    a.emit(_JEQ_K, nrs["execve"], "eperm", 0)
    a.emit(_JEQ_K, nrs["execveat"], "eperm", 0)
    a.emit(_RET_K, RET_ALLOW)
    return end_filter(a)


def container_filter(arch: int | None = None) -> list[tuple[int, int, int, int]]:
    """The session's seccomp program for this machine's architecture (see the module doc)."""
    arch = arch if arch is not None else native_arch()
    nrs = SYSCALLS[arch]
    a = begin_filter(arch)
    for name in DENIED:
        a.emit(_JEQ_K, nrs[name], "eperm", 0)
    _shared_state_checks(a, nrs)
    a.emit(_JEQ_K, nrs["clone3"], "enosys", 0)
    a.emit(_JEQ_K, nrs["clone"], "clone", 0)
    a.emit(_JEQ_K, nrs["socketpair"], "socketpair", 0)
    a.emit(_RET_K, RET_ALLOW)
    a.label("clone")
    a.emit(_LD_W_ABS, _OFF_ARG0_LO)
    a.emit(_JSET_K, NAMESPACE_FLAGS, "eperm", 0)
    a.emit(_RET_K, RET_ALLOW)
    a.label("socketpair")
    a.emit(_LD_W_ABS, _OFF_ARG0_LO)
    a.emit(_JEQ_K, AF_UNIX, 0, "eperm")
    a.emit(_RET_K, RET_ALLOW)
    return _shared_state_end(a)


def native_arch() -> int:
    machine = os.uname().machine
    if machine == "x86_64":
        return AUDIT_ARCH_X86_64
    if machine in ("aarch64", "arm64"):
        return AUDIT_ARCH_AARCH64
    raise OSError(errno.ENOSYS, f"no seccomp filter for the {machine} architecture")


class Prepared:
    """A BPF program in the kernel's layout, made once: the zygote prepares the session filter
    before it forks, and each session only loads it."""

    def __init__(self, prog: list[tuple[int, int, int, int]]) -> None:
        self._arr = (_SockFilter * len(prog))(*[_SockFilter(*ins) for ins in prog])
        self._fprog = _SockFprog(len(prog), self._arr)

    def install(self) -> None:
        """Load it for this thread and every child (needs no_new_privs or CAP_SYS_ADMIN)."""
        if prctl_ptr(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(self._fprog)) != 0:
            e = ctypes.get_errno()
            raise OSError(e, f"seccomp: {os.strerror(e)}")


def install_filter(prog: list[tuple[int, int, int, int]]) -> None:
    Prepared(prog).install()


_session: Prepared | None = None


def prepared_session_filter() -> Prepared:
    """:func:`session_filter`, prepared once per process."""
    global _session
    if _session is None:
        _session = Prepared(session_filter())
    return _session


_no_exec: Prepared | None = None


def prepared_no_exec_filter() -> Prepared:
    """:func:`no_exec_filter`, prepared once per process."""
    global _no_exec
    if _no_exec is None:
        _no_exec = Prepared(no_exec_filter())
    return _no_exec


# ------------------------------------------------------------------ Landlock
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446   # same on every architecture
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
_FS_ALL_V1 = (1 << 13) - 1                      # execute .. make_sym
_FS_REFER, _FS_TRUNCATE, _FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
_NET_ALL = (1 << 0) | (1 << 1)                  # bind_tcp, connect_tcp (ABI 4)
_SCOPE_ALL = (1 << 0) | (1 << 1)                # abstract unix sockets, signals (ABI 6)
READ_ONLY = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR
_FILE_ONLY = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | _FS_TRUNCATE | _FS_IOCTL_DEV


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _syscall(nr: int, *args: Any) -> int:
    r: int = libc().syscall(ctypes.c_long(nr), *args)
    return r


def landlock_abi() -> int:
    """The kernel's Landlock ABI version, 0 where there is none (old kernel, disabled, or refused)."""
    r = _syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_CREATE_RULESET_VERSION))
    return r if r > 0 else 0


def handled_fs(abi: int) -> int:
    fs = _FS_ALL_V1
    if abi >= 2:
        fs |= _FS_REFER
    if abi >= 3:
        fs |= _FS_TRUNCATE
    if abi >= 5:
        fs |= _FS_IOCTL_DEV
    return fs


def landlock_restrict(abi: int, rules: list[tuple[str, int]]) -> None:
    """Allow only ``rules`` (path, access bits) from now on, for this process and its children."""
    fs = handled_fs(abi)
    attr = _RulesetAttr(fs, _NET_ALL if abi >= 4 else 0, _SCOPE_ALL if abi >= 6 else 0)
    size = 8 if abi < 4 else (16 if abi < 6 else 24)
    fd = _syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if fd < 0:
        e = ctypes.get_errno()
        raise OSError(e, f"landlock_create_ruleset: {os.strerror(e)}")
    try:
        for path, access in rules:
            try:
                pfd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue                        # a folder this machine does not have
            try:
                allowed = access & fs
                if not os.path.isdir(path):
                    allowed &= _FILE_ONLY
                rule = _PathBeneath(allowed, pfd)
                if _syscall(_SYS_ADD_RULE, ctypes.c_int(fd), ctypes.c_int(_RULE_PATH_BENEATH),
                            ctypes.byref(rule), ctypes.c_uint32(0)) != 0:
                    e = ctypes.get_errno()
                    raise OSError(e, f"landlock_add_rule {path}: {os.strerror(e)}")
            finally:
                os.close(pfd)
        if _syscall(_SYS_RESTRICT_SELF, ctypes.c_int(fd), ctypes.c_uint32(0)) != 0:
            e = ctypes.get_errno()
            raise OSError(e, f"landlock_restrict_self: {os.strerror(e)}")
    finally:
        os.close(fd)


# ------------------------------------------------------------------ the session
def drop_to(uid: int, gid: int) -> None:
    os.setgroups([])
    os.setresgid(gid, gid, gid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise OSError(errno.EPERM, "the uid did not change")


def enter(cfg: dict[str, Any], scratch: str) -> None:
    """Confine this process (a fresh session child, still root) before any student code.

    ``cfg``: uid, gid, landlock (ABI, 0 for none), read (paths), seccomp (bool)."""
    drop_to(int(cfg["uid"]), int(cfg["gid"]))
    if prctl(PR_SET_NO_NEW_PRIVS, 1) != 0:
        raise OSError(ctypes.get_errno(), "no_new_privs")
    abi = int(cfg.get("landlock") or 0)
    if abi:
        rules = [(p, READ_ONLY) for p in cfg.get("read", ())]
        rules += [(p, FS_READ_FILE | FS_WRITE_FILE | _FS_TRUNCATE) for p in ("/dev/null", "/dev/zero")]
        rules += [(scratch, handled_fs(abi))]
        landlock_restrict(abi, rules)
    if cfg.get("seccomp"):
        install_filter(container_filter())
    os.environ["TMPDIR"] = scratch          # the only folder the session may write
    os.environ["HOME"] = scratch
    import tempfile
    tempfile.tempdir = None                 # not a folder chosen before the session began


def sweep_uid(uid: int, litter: tuple[str, ...] = ()) -> None:
    """Kill every process of ``uid`` (a session's processes, however they detached), then
    remove what the uid left in the world-writable ``litter`` folders.

    Called by a root process: a forked helper takes the uid and sends SIGKILL to everything
    it may signal, ``kill(-1)``.  One such call is complete even against a fork bomb: the
    kernel walks every process under the task-list lock that ``fork`` needs to add a child,
    and a process with SIGKILL pending cannot fork any more.  (Its return value proves
    nothing: it reports success whenever any other process exists, signalled or not.)"""
    pid = os.fork()
    if pid == 0:
        try:
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            os.kill(-1, signal.SIGKILL)
        except BaseException:
            os._exit(1)
        os._exit(0)
    while True:
        try:
            os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
        except ChildProcessError:
            break
    for folder in litter:
        _remove_owned(folder, uid)


def _remove_owned(folder: str, uid: int) -> None:
    """Delete the entries of ``folder`` owned by ``uid`` (without following links)."""
    import shutil
    try:
        entries = os.listdir(folder)
    except OSError:
        return
    for name in entries:
        path = os.path.join(folder, name)
        try:
            st = os.lstat(path)
        except OSError:
            continue
        if st.st_uid != uid:
            continue
        try:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
        except OSError:
            pass
