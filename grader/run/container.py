"""The ``container`` isolation profile: sandboxing where namespaces are refused.

Inside Docker, Gradescope, PrairieLearn, CI runners and Kubernetes pods the grader is root
without ``CAP_SYS_ADMIN`` and the default seccomp profile refuses new namespaces, so
bubblewrap cannot start.  What such a container still allows is enough for a sandbox:

* **uid separation**: each slot runs sessions as its own unprivileged uid/gid
  (``UID_BASE + slot``; ``setuid``/``setgid`` are in Docker's default capabilities), taken
  under a lock so two graders on one machine never share one.  The zygote stays root
  (trusted code only), so a session can signal neither it nor the grader nor another slot.
* **Landlock** (``child/confine.py``): read-only the interpreter, its libraries and the
  harness; read-write only the session's scratch folder (0700, owned by the slot uid).  The
  spec, reference, generators, submissions, other slots' scratch and the grader's output
  and store are outside every rule, so unreadable whatever their permissions.  Without
  Landlock the profile says so and relies on file permissions (see :func:`secrets_hidden`).
* **seccomp**: no new sockets, no ptrace, mounts, namespaces, SysV IPC, keyrings, bpf ...
* rlimits as in every profile; CPU from the slot's cgroup where it is writable, else the
  zygote's process tree in ``/proc``; at a session's end its process group, its subreaper's
  orphans and every process of the slot's uid are killed, and (without Landlock) what the
  uid left in ``/tmp``, ``/var/tmp`` and ``/dev/shm`` is removed.

The profile's name lists its filesystem layer (``container+uid+landlock+seccomp`` or
``container+uid+permissions+seccomp``); its layers say everything it has.
"""
from __future__ import annotations

import ctypes
import errno
import fcntl
import glob
import json
import os
import shutil
import stat
import sys
import tempfile
from typing import Any, Callable

from . import _bwrap, meter
from .model import IsolationProfile, Limits

# bwrap slots use 61000 + slot, and its program slots reach 61000 + 1511: a per-uid kill must
# never reach them (62000 once overlapped the program slots' 62000..62511).
UID_BASE = 63000
_UID_STRIDE = 1000        # next block tried when a uid is held by another grader
LOCK_DIR = "/run/grader-uids"
LITTER = ("/tmp", "/var/tmp", "/dev/shm")   # world-writable: swept per uid without Landlock
FORCE_ENV = "GRADER_ISOLATION"              # "container": skip bubblewrap (benchmarks, tests)
NO_LANDLOCK_ENV = "GRADER_NO_LANDLOCK"      # "1": behave as a kernel without Landlock


def forced() -> bool:
    return os.environ.get(FORCE_ENV) == "container"


def possible() -> bool:
    """Root on Linux: the only place this profile can separate uids."""
    return sys.platform.startswith("linux") and hasattr(os, "geteuid") and os.geteuid() == 0


# ------------------------------------------------------------------ layers
def landlock_abi() -> int:
    """Landlock ABI of this kernel as this process may use it (0: none or refused)."""
    if os.environ.get(NO_LANDLOCK_ENV) == "1":
        return 0
    libc = ctypes.CDLL(None, use_errno=True)
    r = libc.syscall(ctypes.c_long(444), None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    return int(r) if r > 0 else 0


def seccomp_works() -> bool:
    """Can a child install the session filter here?  (Tried in a throwaway fork.)"""
    import socket

    from .child import confine          # the very module the session child runs
    from .child.linux import PR_SET_NO_NEW_PRIVS, prctl
    pid = os.fork()
    if pid == 0:
        try:
            prctl(PR_SET_NO_NEW_PRIVS, 1)
            confine.install_filter(confine.container_filter())
            try:
                socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                os._exit(3)
            except PermissionError:
                os._exit(0)
        except BaseException:
            os._exit(2)
    _, st = os.waitpid(pid, 0)
    return os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0


def read_paths() -> list[str]:
    """What a session may read (Landlock): the interpreter, its libraries, the harness."""
    paths = ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32", "/etc/ld.so.cache",
             "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime", "/etc/alternatives",
             "/proc", "/dev/urandom", "/dev/random", "/sys/devices/system/cpu", _bwrap.CHILD_DIR]
    paths += sorted(glob.glob("/etc/java*"))
    for d in _bwrap.python_dirs() + _bwrap.site_dirs():
        if d not in paths:
            paths.append(d)
    return [os.path.realpath(p) if p != "/proc" else p for p in paths if os.path.exists(p)]


def unreadable_python() -> list[str]:
    """Folders of the interpreter a slot uid cannot reach (a Python under /root, mode 0700):
    without mounts there is no way to show them to the session."""
    return [d for d in _bwrap.python_dirs() + _bwrap.site_dirs() if not _bwrap._reachable_by_others(d)]


def secrets_hidden(paths: list[str]) -> list[str]:
    """Of ``paths`` (the spec's folder, the output folder ...), those an unrelated uid can read:
    without Landlock, file permissions are the only wall."""
    return [p for p in paths if os.path.exists(p) and _readable_by_others(p)]


def hide_secrets(prof: IsolationProfile, secrets: list[str]) -> list[str]:
    """Without Landlock, file permissions are the only wall between a session and the spec,
    the reference, the submissions and the output: take ``o=rwx`` off the highest folder above
    each secret that nothing a session needs lies in or under (or off the secret itself).
    Returns the paths changed; raises OSError when a secret sits where sessions must read."""
    if "file-permissions" not in prof.layers:
        return []
    needed = [os.path.realpath(p) for p in read_paths()]
    passed = {os.sep}                       # folders sessions must pass through: keep o+x
    for p in needed + [os.path.realpath(tempfile.gettempdir())]:     # scratch roots are made there
        while p not in passed:
            passed.add(p)
            p = os.path.dirname(p)
    changed = []
    for secret in secrets:
        real = os.path.realpath(secret)
        if not os.path.exists(real):
            continue
        if any(real == n or real.startswith(n.rstrip(os.sep) + os.sep) for n in needed):
            raise OSError(errno.EACCES, f"{secret} lies where sandboxed sessions must read ({real}); "
                                        f"move it, or grade on a kernel with Landlock")
        block = real
        while os.path.dirname(block) not in passed:
            block = os.path.dirname(block)
        mode = os.stat(block).st_mode
        if mode & 0o007:
            os.chmod(block, stat.S_IMODE(mode) & ~0o007)
            changed.append(block)
    return changed


def _readable_by_others(path: str) -> bool:
    path = os.path.abspath(path)
    cur = "/"
    for part in path.split(os.sep)[1:]:
        st = os.stat(cur)
        if not st.st_mode & stat.S_IXOTH:
            return False
        cur = os.path.join(cur, part)
    st = os.stat(path)
    return bool(st.st_mode & stat.S_IROTH)


def profile(abi: int, seccomp: bool) -> IsolationProfile:
    fs = f"landlock-abi{abi}" if abi else "file-permissions"
    layers = ["unprivileged-uid", "own-gid", "no-supplementary-groups", "root-zygote",
              fs, "scratch-0700-per-session"]
    if abi >= 4:
        layers.append("landlock-no-tcp")
    if abi >= 6:
        layers += ["landlock-scoped-abstract-unix", "landlock-scoped-signals"]
    layers += ["seccomp-session-filter" if seccomp else "NO-seccomp", "no-new-privs", "no-capabilities",
               "rlimits", "fork-per-session", "kill-process-group", "kill-slot-uid"]
    if not abi:
        layers.append("sweep-world-writable")
    name = "container+uid+" + ("landlock" if abi else "permissions") + ("+seccomp" if seccomp else "")
    return IsolationProfile(name, tuple(layers), seccomp)


def probe(try_profile: Callable[[IsolationProfile], str | None]) -> tuple[IsolationProfile | None, str]:
    """The container profile when this machine supports it: (profile, '') or (None, why not).

    ``try_profile`` runs a real session under a candidate and returns the CPU meter's kind
    (None when the session did not work), so a profile that claims to work does."""
    if not possible():
        return None, "needs root on Linux to give each slot its own uid"
    hidden = unreadable_python()
    if hidden:
        return None, (f"the Python installation ({', '.join(hidden)}) cannot be read by unprivileged uids; "
                      f"install the grader with a world-readable Python (install.sh does)")
    seccomp = seccomp_works()
    cand = profile(landlock_abi(), seccomp)
    measured = try_profile(cand)
    if measured is None:
        return None, "a trial session under the container profile failed"
    return IsolationProfile(cand.name, cand.layers + (f"cpu-time-from-{measured}",), cand.secure), ""


# ------------------------------------------------------------------ one slot
ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
       "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8", "OPENBLAS_NUM_THREADS": "1",
       "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "MALLOC_ARENA_MAX": "2"}   # see _bwrap.build


def without(read: list[str], hidden: tuple[str, ...]) -> list[str]:
    """``read`` with the ``hidden`` folders cut out of it.  Landlock only grants, so a granted
    folder holding a hidden one is granted entry by entry along the way down to it, every
    entry but the hidden one (``/usr`` without ``/usr/lib/jvm``: ``/usr``'s entries but
    ``lib``, and ``/usr/lib``'s entries but ``jvm``)."""
    cuts = [os.path.realpath(h) for h in hidden if os.path.isdir(h)]
    return [kept for path in read for kept in _around(path, cuts)]


def _around(path: str, cuts: list[str]) -> list[str]:
    inside = [c for c in cuts if c == path or c.startswith(path.rstrip("/") + "/")]
    if not inside:
        return [path]
    if path in inside:
        return []
    return [kept for entry in sorted(os.listdir(path)) for kept in _around(os.path.join(path, entry), inside)]


def confinement(prof: IsolationProfile, uid: int, gid: int, extra_read: tuple[str, ...] = (),
                hidden: tuple[str, ...] = ()) -> dict[str, Any]:
    """What ``child/confine.enter`` applies to a session (or a whole program) of this profile;
    ``hidden``: folders it may not read although they lie in readable ones (Landlock only)."""
    abi = next((int(x[len("landlock-abi"):]) for x in prof.layers if x.startswith("landlock-abi")), 0)
    read = without(read_paths() + [os.path.realpath(p) for p in extra_read if os.path.exists(p)], hidden)
    return {"uid": uid, "gid": gid, "landlock": abi, "read": read,
            "seccomp": "seccomp-session-filter" in prof.layers, "litter": [] if abi else list(LITTER)}


class Slot:
    """One sandbox slot's uid (held under a lock), scratch root and cgroup."""

    def __init__(self, slot: int, limits: Limits, prof: IsolationProfile) -> None:
        self.profile = prof
        self.uid, self._lock = _take_uid(slot)
        self.gid = self.uid
        self.scratch_root = tempfile.mkdtemp(prefix=f"grader-c{slot}-")
        os.chmod(self.scratch_root, 0o711)       # the uid reaches its own 0700 session folder only
        self.cgroup = meter.make_cgroup(slot, memory_mb=limits.memory_mb, nproc=limits.nproc)

    def zygote(self, cfg: dict[str, Any], harness: str) -> tuple[list[str], dict[str, str]]:
        """argv and environment of the slot's root zygote."""
        cfg["scratch_root"] = self.scratch_root
        cfg["sys_path"] = _bwrap.site_dirs()
        cfg["container"] = confinement(self.profile, self.uid, self.gid)
        return [sys.executable, "-I", "-S", harness, json.dumps(cfg)], dict(ENV)

    def started(self, pid: int) -> None:
        """The zygote is running (and has forked nothing yet): measure it in the slot's cgroup."""
        if self.cgroup is None:
            return
        for procs in self.cgroup.procs_files:
            try:
                with open(procs, "w") as f:
                    f.write(str(pid))
            except OSError:
                pass

    def close(self) -> None:
        from .child.confine import sweep_uid
        sweep_uid(self.uid, LITTER if "file-permissions" in self.profile.layers else ())   # a session cut off mid-way
        if self.cgroup is not None:
            self.cgroup.close()
            self.cgroup = None
        shutil.rmtree(self.scratch_root, ignore_errors=True)
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None


def _lock_dir() -> str:
    for d in (LOCK_DIR, os.path.join(tempfile.gettempdir(), "grader-uids-0")):
        try:
            os.mkdir(d, 0o700)
        except FileExistsError:
            pass
        except OSError:
            continue
        st = os.lstat(d)
        if stat.S_ISDIR(st.st_mode) and st.st_uid == 0 and not st.st_mode & 0o077:
            return d
    raise OSError(errno.EACCES, "no private folder for the slot uid locks")


def _take_uid(slot: int) -> tuple[int, int | None]:
    """This slot's uid, locked for as long as the slot lives."""
    d = _lock_dir()
    for block in range(20):
        uid = UID_BASE + slot + block * _UID_STRIDE
        fd = os.open(os.path.join(d, f"{uid}.lock"), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return uid, fd
        except BlockingIOError:
            os.close(fd)
    raise OSError(errno.EBUSY, "every slot uid is held by another grader")


class ProgramBox:
    """A whole program's uid and scratch folder under the container profile (``process.py``)."""

    def __init__(self, slot: int, prof: IsolationProfile, binds: tuple[str, ...], hidden: tuple[str, ...] = ()) -> None:
        self.profile = prof
        self.uid, self._lock = _take_uid(slot)
        self.root = tempfile.mkdtemp(prefix=f"grader-p{slot}-")
        os.chmod(self.root, 0o711)
        self.scratch = os.path.join(self.root, "w")
        os.mkdir(self.scratch, 0o700)
        os.chown(self.scratch, self.uid, self.uid)
        self.config = confinement(prof, self.uid, self.uid, binds, hidden)

    def close(self) -> None:
        from .child.confine import sweep_uid
        sweep_uid(self.uid, tuple(self.config["litter"]))
        shutil.rmtree(self.root, ignore_errors=True)
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None
