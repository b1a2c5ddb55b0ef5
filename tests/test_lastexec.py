"""A program started with ``last_exec`` runs, and can start no other program (child/lastexec.py)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from grader.run.child import lastexec

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="seccomp is Linux's")


def _run_last(argv: list[str]) -> subprocess.CompletedProcess[str]:
    code = f"from grader.run.child.lastexec import exec_last; exec_last({argv!r}, None)"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_the_program_itself_starts():
    done = _run_last(["sh", "-c", "echo started"])               # found on PATH, as execvp would
    assert (done.returncode, done.stdout) == (0, "started\n")


def test_a_program_it_starts_is_refused():
    done = _run_last(["/bin/sh", "-c", "/bin/echo never; echo status $?"])
    assert "never" not in done.stdout and "status 126" in done.stdout      # sh: Permission denied
    replaced = _run_last(["/bin/sh", "-c", "exec /bin/echo never"])
    assert "never" not in replaced.stdout and replaced.returncode != 0


def test_cross_process_memory_calls_are_refused():
    probe = ("import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); "
             "r = libc.process_vm_readv(os.getppid(), None, 0, None, 0, 0); print(r, ctypes.get_errno())")
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True).stdout.split() == ["0", "0"]
    done = _run_last([sys.executable, "-c", probe])
    assert done.stdout.split() == ["-1", "1"]                                  # EPERM


def test_the_filter_allows_exec_only_at_its_own_address():
    prog = lastexec.exec_filter(0x7F00_1234_5678)
    words = {k for _, _, _, k in prog}
    assert {0x1234_5678, 0x7F00} <= words                                      # both halves compared
    with pytest.raises(OSError):
        lastexec._resolve("no-such-program-anywhere", {"PATH": "/nonexistent"})


def _in_sandbox(code: str, **options) -> str:
    from grader.run import process
    from grader.run.sandbox import probe

    assert probe().uses_bwrap, "no sandbox on this machine; run ./install.sh"
    with process.spawn(["python3", "-I", "-c", code], {}, **options) as program:
        out = program.read_all(30)
        program.wait(5)
    return out


def test_in_the_sandbox_a_last_exec_program_starts_nothing_and_maps_no_code_it_wrote():
    import ctypes.util
    library = f"/lib/{os.uname().machine}-linux-gnu/{ctypes.util.find_library('m')}"
    code = (f"import ctypes, shutil, subprocess\nshutil.copy({library!r}, '/w/own.so')\n"
            "try:\n    ctypes.CDLL('/w/own.so'); print('mapped')\nexcept OSError as e: print('refused', e.args[0][-30:])\n"
            "try:\n    subprocess.run(['/bin/true']); print('started')\nexcept OSError as e: print('refused', e.strerror)\n")
    assert _in_sandbox(code).split() == ["mapped", "started"]          # without it: both
    last = _in_sandbox(code, last_exec=True)
    assert "mapped" not in last and "started" not in last and last.count("refused") == 2, last
