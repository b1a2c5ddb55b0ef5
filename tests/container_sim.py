"""Run a command as if inside a default Docker container: ``python container_sim.py -- CMD ...``.

What a default ``docker run`` gives its root process, reproduced on the development machine
(root needed):

* the capability bounding set cut to Docker's default list (``setpriv --bounding-set``), so
  root keeps ``setuid``/``setgid``/``kill``/``dac_override`` but not ``sys_admin``;
* a seccomp filter that, like Docker's default profile, refuses ``unshare``, ``setns``,
  ``mount``, ``umount2`` and namespace flags of ``clone`` (EPERM), and answers ``clone3``
  with ENOSYS (so libc falls back to ``clone``, whose flags a filter can see);
* real uids (no user namespace), so ``setuid`` works as in Docker.

The filter is assembled with the grader's own BPF assembler (grader/run/child/confine.py).
"""
from __future__ import annotations

import errno
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from grader.run.child import confine  # noqa: E402

# moby's oci/caps/defaults.go
DOCKER_CAPS = ("chown", "dac_override", "fsetid", "fowner", "mknod", "net_raw", "setgid", "setuid", "setfcap",
               "setpcap", "net_bind_service", "sys_chroot", "kill", "audit_write")
REFUSED = ("unshare", "setns", "mount", "umount2")


def docker_filter(arch: int) -> list[tuple[int, int, int, int]]:
    nrs = confine.SYSCALLS[arch]
    a = confine.Assembler()
    a.emit(confine._LD_W_ABS, confine._OFF_ARCH)
    a.emit(confine._JEQ_K, arch, 0, "allow")             # a foreign ABI: not this simulation's business
    a.emit(confine._LD_W_ABS, confine._OFF_NR)
    for name in REFUSED:
        a.emit(confine._JEQ_K, nrs[name], "eperm", 0)
    a.emit(confine._JEQ_K, nrs["clone3"], "enosys", 0)
    a.emit(confine._JEQ_K, nrs["clone"], 0, "allow")
    a.emit(confine._LD_W_ABS, confine._OFF_ARG0_LO)
    a.emit(confine._JSET_K, confine.NAMESPACE_FLAGS, "eperm", 0)
    a.label("allow")
    a.emit(confine._RET_K, confine.RET_ALLOW)
    a.label("enosys")
    a.emit(confine._RET_K, confine._errno(errno.ENOSYS))
    a.label("eperm")
    a.emit(confine._RET_K, confine._errno(errno.EPERM))
    return a.program()


def argv_for(cmd: list[str]) -> list[str]:
    """The command line that runs ``cmd`` in the simulated container."""
    return [sys.executable, os.path.abspath(__file__), "--", *cmd]


def main() -> None:
    if "--" not in sys.argv:
        sys.exit("usage: container_sim.py -- CMD ...")
    cmd = sys.argv[sys.argv.index("--") + 1:]
    if os.geteuid() != 0:
        sys.exit("container_sim: must run as root (a container's root)")
    setpriv = shutil.which("setpriv")
    if not setpriv:
        sys.exit("container_sim: setpriv (util-linux) is missing")
    confine.install_filter(docker_filter(confine.native_arch()))   # root with CAP_SYS_ADMIN: no no_new_privs
    caps = ",".join(["-all"] + [f"+{c}" for c in DOCKER_CAPS])
    os.execv(setpriv, [setpriv, "--bounding-set", caps, "--inh-caps", "-all", "--", *cmd])


if __name__ == "__main__":
    main()
