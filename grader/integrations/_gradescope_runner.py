#!/usr/bin/env python3
"""Gradescope's ``run_autograder``, in Python: grade one submission, always leave a results.json.

This file is copied into the autograder zip (as ``source/gradescope_runner.py``) by
``grader gradescope``; the zip's bash ``run_autograder`` runs it. It uses the standard
library only, so it can still explain a failure when the grader itself is not installed.

Layout (``$AUTOGRADER_ROOT``, default ``/autograder``, as Gradescope sets it up)::

    source/       the unpacked zip: grader_config.json, spec/, grader_src/
    submission/   what the student uploaded
    results/      results.json goes here

Environment (for testing the zip off Gradescope):

* ``AUTOGRADER_ROOT``      another root than /autograder
* ``GRADER_PYTHON``        the Python that runs the grader (default: this one)
* ``GRADER_SKIP_INSTALL``  ``1``: never pip-install the bundled grader, even if missing
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

NO_ISOLATION = 4  # grader.errors.ExitCode.NO_ISOLATION
IGNORED_DIRS = {"__MACOSX", "__pycache__", ".git", ".idea", ".vscode"}
MAX_UPLOAD_FILES = 500            # entries of an upload, folders included
MAX_UPLOAD_BYTES = 20_000_000     # all files of an upload together


class Failure(Exception):
    """A reason the submission could not be graded, phrased for the student."""


def failure_results(message: str, elapsed: float) -> dict[str, Any]:
    return {
        "score": 0,
        "execution_time": round(max(elapsed, 0.0), 3),
        "output": message,
        "output_format": "text",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": [],
    }


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def visible_files(folder: Path) -> list[Path]:
    found = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part in IGNORED_DIRS or part.startswith(".") for part in rel.parts):
            continue
        if path.is_file():
            found.append(path)
    return found


def check_upload(folder: Path) -> None:
    """Refuse links, devices, pipes and oversized uploads before anything is copied or read.

    A link to ``/autograder/source/...`` would otherwise bring the reference into the sandbox.
    """
    count, size = 0, 0
    for here, dirs, files in os.walk(folder, followlinks=False):
        for name in dirs + files:
            path = Path(here) / name
            rel = path.relative_to(folder)
            count += 1
            if count > MAX_UPLOAD_FILES:
                raise Failure(f"Your submission holds more than {MAX_UPLOAD_FILES} files and folders: upload only your source files.")
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                raise Failure(f"{rel} is a symbolic link: upload the file itself, not a link to it.")
            if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
                raise Failure(f"{rel} is not a regular file (a device, pipe or socket): upload source files only.")
            size += info.st_size if stat.S_ISREG(info.st_mode) else 0
            if size > MAX_UPLOAD_BYTES:
                raise Failure(f"Your submission is larger than {MAX_UPLOAD_BYTES // 1_000_000} MB: upload only your source files.")


def choose_target(submission: Path, expected: list[str], suffixes: list[str]) -> Path:
    """The file or folder to grade inside the student's upload, or a Failure saying why not."""
    files = visible_files(submission)
    if not files:
        wanted = " and ".join(expected) or "your source file"
        raise Failure(f"Your submission is empty: upload {wanted}.")
    if expected:
        named = [p for p in files if p.name in expected]
        if named:
            # The shallowest folder holding an expected file: uploads of a folder or a zip work too.
            best = min(named, key=lambda p: (len(p.relative_to(submission).parts), str(p)))
            return best.parent
    sources = [p for p in files if p.suffix in suffixes]
    if len(sources) == 1:
        return sources[0]  # graded whatever its name; the report notes the expected name
    shown = ", ".join(str(p.relative_to(submission)) for p in files[:10]) + (" ..." if len(files) > 10 else "")
    if not sources:
        wanted = " and ".join(expected) or "a .py file"
        raise Failure(f"Your submission has no source file: upload {wanted} (found: {shown}).")
    if not expected:
        return submission
    raise Failure(f"Your submission has several source files and none is named {' or '.join(expected)} "
                  f"(found: {shown}). Upload only {' and '.join(expected)}.")


def grader_importable(python: str) -> bool:
    probe = subprocess.run([python, "-c", "import grader.cli"], capture_output=True, text=True)
    return probe.returncode == 0


def ensure_grader(python: str, source: Path) -> None:
    if grader_importable(python):
        return
    if os.environ.get("GRADER_SKIP_INSTALL") == "1":
        raise RuntimeError(f"the grader package is not importable by {python} (and GRADER_SKIP_INSTALL=1)")
    package = source / "grader_src"
    print(f"grader is not installed; installing {package}", file=sys.stderr)
    for extra in ([], ["--break-system-packages"]):
        done = subprocess.run([python, "-m", "pip", "install", "--quiet", *extra, str(package)])
        if done.returncode == 0 and grader_importable(python):
            return
    raise RuntimeError("could not install the bundled grader (see the autograder log)")


def tail(text: str, lines: int = 8, limit: int = 2000) -> str:
    kept = [line for line in text.splitlines() if line.strip()][-lines:]
    return "\n".join(kept)[-limit:]


def run_grader(python: str, spec: Path, target: Path, out: Path, timeout_s: float, unsafe: bool) -> subprocess.CompletedProcess:
    command = [python, "-m", "grader", "grade", str(spec), str(target), "--out", str(out),
               "--format", "gradescope", "--jobs", "1", "--regrade"]
    if unsafe:
        command.append("--unsafe")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", NO_COLOR="1", TERM="dumb")
    print("$ " + " ".join(command), file=sys.stderr)
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout_s, env=env, cwd=str(out.parent))
    sys.stderr.write(done.stdout + done.stderr)
    return done


def read_results(out: Path) -> dict[str, Any]:
    candidates = [out / "results.json"] if (out / "results.json").is_file() else sorted(out.glob("gradescope/*/results.json"))
    if len(candidates) != 1:
        raise RuntimeError(f"the grader wrote {len(candidates)} results.json files, expected one")
    data = json.loads(candidates[0].read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("score", 0), (int, float)):
        raise RuntimeError("the grader's results.json is not a Gradescope result")
    return data


def grade(root: Path, started: float) -> dict[str, Any]:
    source = root / "source"
    config = json.loads((source / "grader_config.json").read_text(encoding="utf-8"))
    python = os.environ.get("GRADER_PYTHON") or sys.executable
    ensure_grader(python, source)
    work = Path(tempfile.mkdtemp(prefix="grader-"))
    try:
        upload = work / "submission"
        check_upload(root / "submission")
        shutil.copytree(root / "submission", upload, symlinks=True)  # links were refused: none is followed
        target = choose_target(upload, list(config.get("submission_files", [])), list(config.get("source_suffixes", [".py"])))
        spec = source / config["spec"]
        out = work / "out"
        done = run_grader(python, spec, target, out, float(config.get("timeout_s", 1200)), unsafe=False)
        note = ""
        if done.returncode == NO_ISOLATION and config.get("allow_unsafe"):
            note = ("Note: this autograder could not isolate submissions in a sandbox on Gradescope's machine; "
                    "your code ran with resource limits only.")
            done = run_grader(python, spec, target, out, float(config.get("timeout_s", 1200)), unsafe=True)
        if done.returncode == NO_ISOLATION:
            raise RuntimeError("no sandbox is available on this machine for untrusted code; the instructor can "
                               "rebuild the zip with `grader gradescope --allow-unsafe` to grade with resource limits only\n"
                               + tail(done.stderr))
        if done.returncode != 0:
            raise RuntimeError(f"grader exited with status {done.returncode}\n{tail(done.stderr)}")
        data = read_results(out)
        if note:
            data["output"] = (note + "\n\n" + str(data.get("output", ""))).strip()
        data.setdefault("execution_time", round(time.monotonic() - started, 3))
        return data
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    started = time.monotonic()
    root = Path(os.environ.get("AUTOGRADER_ROOT") or "/autograder")
    results = root / "results" / "results.json"
    try:
        data = grade(root, started)
    except Failure as exc:
        data = failure_results(f"{exc}\n\nNothing was graded, so the score is 0; fix the submission and resubmit.",
                               time.monotonic() - started)
    except subprocess.TimeoutExpired as exc:
        data = failure_results(f"The autograder did not finish within {exc.timeout:.0f} s, so nothing was graded. "
                               "Please tell your instructor.", time.monotonic() - started)
    except BaseException as exc:  # the results file is written whatever happened
        data = failure_results("The autograder failed while grading this submission; this is not a problem with "
                               f"your code, please tell your instructor.\n\nDetails: {type(exc).__name__}: {exc}",
                               time.monotonic() - started)
    write_json(results, data)
    print(f"wrote {results} (score {data.get('score')})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
