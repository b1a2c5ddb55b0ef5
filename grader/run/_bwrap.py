"""Building the bubblewrap command line shared by sandbox.py and process.py."""
from __future__ import annotations

import atexit
import glob
import importlib.util
import json
import os
import shutil
import stat
import sys
import tempfile
import threading
from typing import Any, Iterable
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
CHILD_DIR = os.path.join(HERE, "child")
LAUNCHER = os.path.join(HERE, "_launch.py")
SANDBOX_CHILD_PKG = "/opt/grader/_gradechild"     # where CHILD_DIR appears inside
HOST_TMP_VIEW = "/opt/grader/host"                 # where host folders under /tmp appear inside
BASE_UID = 61000

_stage_lock = threading.Lock()
_stage_root: str | None = None
_stage_map: dict[str, str] = {}


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def slot_ids(slot: int) -> tuple[int, int]:
    if is_root():
        return BASE_UID + slot, BASE_UID + slot
    return os.getuid(), os.getgid()


def _reachable_by_others(path: str) -> bool:
    """Can an unrelated unprivileged uid reach (x on every parent) and list it?"""
    path = os.path.abspath(path)
    parts = path.split(os.sep)
    cur = "/"
    for i, part in enumerate(parts[1:], 1):
        cur = os.path.join(cur, part)
        try:
            st = os.stat(cur)
        except OSError:
            return False
        need = stat.S_IXOTH
        if i == len(parts) - 1:
            need = (stat.S_IXOTH | stat.S_IROTH) if stat.S_ISDIR(st.st_mode) else stat.S_IROTH
        if st.st_mode & need != need:
            return False
    return True


def _stage(src: str) -> str:
    """An empty world-traversable folder onto which the launcher binds src."""
    global _stage_root
    with _stage_lock:
        if _stage_root is None:
            _stage_root = tempfile.mkdtemp(prefix=_stage_prefix(os.getpid()))
            os.chmod(_stage_root, 0o711)
            atexit.register(_cleanup_stage)
        if src not in _stage_map:
            d = os.path.join(_stage_root, str(len(_stage_map)))
            if os.path.isdir(src):
                os.mkdir(d)
                os.chmod(d, 0o755)
            else:
                open(d, "w").close()
                os.chmod(d, 0o644)
            _stage_map[src] = d
        return _stage_map[src]


def _cleanup_stage() -> None:
    if _stage_root:
        shutil.rmtree(_stage_root, ignore_errors=True)


def _stage_prefix(pid: int) -> str:
    """The stage folder names the process that made it, so that whoever reaps a killed
    process (its atexit never ran) can remove what it left: see :func:`remove_stage_of`."""
    return f"grader-stage-{pid}-"


def remove_stage_of(pid: int) -> None:
    """Remove the stage folder of a process that has ended (call only after reaping it)."""
    for path in glob.glob(os.path.join(tempfile.gettempdir(), glob.escape(_stage_prefix(pid)) + "*")):
        shutil.rmtree(path, ignore_errors=True)


def python_dirs() -> list[str]:
    """Folders the sandboxed interpreter needs: its prefixes and the site
    folders holding timeout_decorator and numpy."""
    dirs = []
    for p in (sys.base_prefix, sys.prefix, sys.exec_prefix, sys.base_exec_prefix):
        p = os.path.realpath(p)
        if p not in dirs:
            dirs.append(p)
    return dirs


def site_dirs() -> list[str]:
    """sys.path entries the child must add (it runs with -I -S)."""
    out = []
    for mod in ("timeout_decorator", "numpy"):
        try:
            spec = importlib.util.find_spec(mod)
        except Exception:
            spec = None
        if spec and spec.origin:
            d = os.path.dirname(os.path.dirname(os.path.realpath(spec.origin)))
            if d not in out:
                out.append(d)
    return out


def _under(path: str, roots: Iterable[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


# The project the grader runs from (specs, reference, submissions): never shown at its own path.
_PROJECT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def inside(path: str) -> str:
    """Where a host path of the interpreter's environment appears in the sandbox.

    The sandbox's /tmp is private (and every session mounts a fresh one over it), and a
    venv inside the project (install.sh's ./.venv) would make the project's own folder
    visible at its path, so such environments are bound beside them instead."""
    return HOST_TMP_VIEW + path if _under(path, ["/tmp", _PROJECT]) else path


@dataclass
class Command:
    argv: list[str]          # what to Popen
    user_switch: bool        # argv is the root launcher (it drops to uid itself)


def build(cmd: list[str], *, slot: int, tmp_mb: int, binds: tuple[Any, ...] = (), caps: bool = True,
          env: dict[str, Any] | None = None, cgroup_procs: tuple[str, ...] = (), masks: tuple[str, ...] = ()) -> Command:
    """The argv to run ``cmd`` in bubblewrap as this slot's uid.

    binds: extra (src, dst) read-only binds (or plain paths, bound at the same path).
    caps:  keep CAP_SYS_ADMIN+CAP_SETPCAP *inside* the sandbox's user namespace
           for our own setup code (the harness drops them before student code).
    cgroup_procs: ``cgroup.procs`` files the root launcher joins before it drops to the
           slot's uid, so everything the sandbox runs is measured and limited there.
    masks: folders (of the bound ones) shown as empty.
    """
    bw = bwrap_path()
    if not bw:
        raise RuntimeError("bubblewrap (bwrap) is not installed")
    ro: list[tuple[str, str]] = [("/usr", "/usr")]
    a = [bw, "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
         "--new-session", "--hostname", "sandbox", "--clearenv"]
    if caps:
        a += ["--cap-add", "CAP_SYS_ADMIN", "--cap-add", "CAP_SETPCAP"]
    else:
        a += ["--cap-drop", "ALL"]
    envv = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "HOME": "/w", "TMPDIR": "/tmp", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONIOENCODING": "utf-8",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            # glibc gives each thread that contends for malloc an arena of 64 MB of address space, up
            # to 8 per CPU: a JVM's compiler threads on a busy machine then pass its RLIMIT_AS at
            # random (C1 aborting "Not enough space"); two arenas keep its address space fixed.
            "MALLOC_ARENA_MAX": "2"}
    envv.update(env or {})
    for k, v in envv.items():
        a += ["--setenv", k, v]
    links = []
    for p in ("/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"):
        if os.path.islink(p):
            links.append((os.readlink(p), p))
        elif os.path.isdir(p):
            ro.append((p, p))
    for p in ["/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/localtime",
              "/etc/alternatives", *sorted(glob.glob("/etc/java*"))]:
        if os.path.exists(p):
            ro.append((p, p))
    py = python_dirs()
    for d in py + site_dirs():
        if not _under(d, [r for r, _ in ro]) and os.path.exists(d):
            ro.append((d, inside(d)))
    for b in binds:
        src, dst = (b, b) if isinstance(b, str) else b
        ro.append((os.path.realpath(src), dst))
    ro.append((CHILD_DIR, SANDBOX_CHILD_PKG))
    # never show the grader itself if it sits under a bound folder
    hide = [m for m in masks if os.path.isdir(m)]
    grader_pkg = os.path.dirname(HERE)
    for src, dst in ro:
        if src != CHILD_DIR and _under(grader_pkg, [src]):
            hide.append(dst + grader_pkg[len(src):])

    root = is_root()
    stage = []
    for src, dst in ro:
        if root and not _reachable_by_others(src):
            st = _stage(src)
            stage.append((src, st))
            src = st
        a += ["--ro-bind", src, dst]
    for target, name in links:
        a += ["--symlink", target, name]
    for h in hide:
        a += ["--tmpfs", h]
    a += ["--proc", "/proc", "--dev", "/dev", "--size", str(tmp_mb * 1024 * 1024), "--tmpfs", "/tmp",
          "--dir", "/w", "--remount-ro", "/", "--chdir", "/", "--"]
    a += cmd
    if not root:
        return Command(a, False)
    uid, gid = slot_ids(slot)
    spec = {"stage": stage, "uid": uid, "gid": gid, "bwrap": bw, "argv": a, "cgroups": list(cgroup_procs)}
    return Command([sys.executable, "-I", "-S", LAUNCHER, json.dumps(spec)], True)
