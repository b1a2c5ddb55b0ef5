"""Root-only launcher: join the slot's cgroups, stage bind sources, drop to the slot's uid, exec bwrap.

Run as ``python -I -S _launch.py '<json>'`` by a root parent.  Standalone.

Some bind sources (typically the Python prefix under /root, mode 0700) cannot
be reached by the unprivileged slot uid that bwrap runs as.  In a private mount
namespace that only this process sees, each such source is bind-mounted onto
an empty, world-traversable staging folder; then the process drops to the slot
uid and execs bwrap, which binds the staging folders to their real paths
inside the sandbox.  Nothing changes on the host.
"""
import ctypes
import json
import os
import sys

CLONE_NEWNS = 0x00020000
MS_BIND = 4096
MS_REC = 0x4000
MS_PRIVATE = 1 << 18


def main() -> None:
    spec = json.loads(sys.argv[1])
    libc = ctypes.CDLL(None, use_errno=True)

    def chk(r: int, what: str) -> None:
        if r != 0:
            e = ctypes.get_errno()
            sys.stderr.write(f"grader launcher: {what}: {os.strerror(e)}\n")
            os._exit(126)

    for procs in spec.get("cgroups", ()):   # join the slot's cgroups while still root
        try:
            with open(procs, "w") as f:
                f.write(str(os.getpid()))
        except OSError as e:
            sys.stderr.write(f"grader launcher: cannot join {procs}: {e.strerror}\n")
            os._exit(126)
    if spec["stage"]:
        chk(libc.unshare(CLONE_NEWNS), "unshare(CLONE_NEWNS)")
        chk(libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None), "make / private")
        for src, dst in spec["stage"]:
            chk(libc.mount(src.encode(), dst.encode(), None, MS_BIND | MS_REC, None), f"bind {src}")
    os.setgroups([])
    os.setgid(spec["gid"])
    os.setuid(spec["uid"])
    os.execv(spec["bwrap"], spec["argv"])


if __name__ == "__main__":
    main()
