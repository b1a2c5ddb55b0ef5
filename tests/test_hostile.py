"""Hostile submissions (submissions/hostile/) graded in ONE batch with honest ones.

Each hostile file attacks from inside a function or at import time and carries a hand-written
``<name>.expected.yaml`` (format: see tests/test_corpus.py) with the result it deserves.
Three honest hw7 submissions are copied into the same batch folder; the test asserts that

* the batch finishes (within a deadline) and every hostile file gets its deserved result,
  with a clear message for every lost case;
* every honest submission's scores and statuses are identical to grading it alone;
* no file under reference/, specs/, submissions/ or the batch folder changed (sha256) and
  no attack left files in the host's shared temporary folders;
* no process of the run is left behind (no descendant of this process, and no orphaned
  process of a sandbox uid).
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

from test_corpus import ROOT, check_expectations, describe, grade_batch, load_expected

SPEC = ROOT / "specs" / "hw7_iteration.yaml"
HOSTILE = ROOT / "submissions" / "hostile"
HONEST = ["correct_loops", "banned_sum_helper", "war_off_by_one"]
# Honest files handed in under names built to forge a terminal line or run as a spreadsheet
# formula (class 10): graded like their originals, displayed and exported harmlessly.
EVIL_IDS = {"\x1b[2K\r\x1b[32mtop_student 60 of 50\x1b[0m": "war_off_by_one",
            '=HYPERLINK("http:__evil","grades")': "correct_loops", "bob;=1+1": "banned_sum_helper",
            "carol\u202e05 fo 06": "war_off_by_one"}
WATCHED = [ROOT / "reference", ROOT / "specs", ROOT / "submissions"]
SANDBOX_UID_MIN = 61000
DEADLINE_S = 300.0  # ~60 hostile submissions; generous for a loaded 2-core machine
HOST_LITTER = ["/tmp/daemon_was_here", "/tmp/filler_0.bin", "/var/tmp/filler_0.bin", "/dev/shm/filler_0.bin",
               str(ROOT / "filler_0.bin"), str(ROOT / "submissions" / "filler_0.bin"), str(HOSTILE / "filler_0.bin")]


def tree_digest(folders: list[Path]) -> dict[str, str]:
    digests = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            digests[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return digests


def _proc(pid: str, name: str) -> str:
    try:
        with open(f"/proc/{pid}/{name}", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def process_table() -> dict[int, tuple[int, int, str, str]]:
    """pid -> (ppid, uid, state, cmdline) for every live process."""
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        stat = _proc(entry, "stat")
        try:
            fields = stat.rsplit(")", 1)[1].split()
            state, ppid = fields[0], int(fields[1])
            uid = os.stat(f"/proc/{entry}").st_uid
        except (IndexError, ValueError, OSError):
            continue
        table[int(entry)] = (ppid, uid, state, _proc(entry, "cmdline")[:200])
    return table


def leftover_processes(before: set[int]) -> list[str]:
    """Processes of this run still alive after it: descendants of this test process, and
    processes of the batch's sandbox uids (slots 0 and 1) orphaned to init.

    Other engineers' sandboxes may run at the same time (even under the same slot uids), so
    only processes that did not exist before the run and that are not zombies count.
    """
    table = process_table()
    me = os.getpid()
    slot_uids = {SANDBOX_UID_MIN, SANDBOX_UID_MIN + 1}
    found = []
    for pid, (ppid, uid, state, cmd) in table.items():
        if pid in before or pid == me or state == "Z":
            continue
        chain, p, seen = [], ppid, set()
        while p in table and p not in seen and p > 1:
            seen.add(p)
            chain.append(p)
            p = table[p][0]
        if me in chain:
            found.append(f"pid {pid} (uid {uid}, state {state}) is still a descendant of the test: {cmd!r}")
        elif uid in slot_uids and ppid in (0, 1):
            found.append(f"pid {pid} (uid {uid}, state {state}) escaped its sandbox (orphaned to init): {cmd!r}")
    return found


def _link_to_reference(folder: Path) -> None:
    (folder / "hw7_iteration.py").write_text("from helpers import *\n")
    (folder / "helpers.py").symlink_to(ROOT / "reference" / "hw7_iteration.py")


def _linked_main(folder: Path) -> None:
    (folder / "hw7_iteration.py").symlink_to(ROOT / "reference" / "hw7_iteration.py")


def _fifo_helper(folder: Path) -> None:
    (folder / "hw7_iteration.py").write_text("from helpers import *\n")
    os.mkfifo(folder / "helpers.py")


def _crowded(folder: Path) -> None:
    shutil.copy(ROOT / "submissions" / "hw7_iteration" / "correct_loops.py", folder / "hw7_iteration.py")
    for i in range(1000):
        (folder / f"junk{i:04d}.py").write_text("x = 1\n")


def _oversized(folder: Path) -> None:
    shutil.copy(ROOT / "submissions" / "hw7_iteration" / "correct_loops.py", folder / "hw7_iteration.py")
    (folder / "padding.py").write_text("# padding\n" * 150_000)  # 1.5 MB of comments


def _undecodable_name(folder: Path) -> None:
    shutil.copy(ROOT / "submissions" / "hw7_iteration" / "correct_loops.py", folder / "hw7_iteration.py")
    (folder / os.fsdecode(b"helper\xff.py")).write_text("x = 1\n")   # a name no report can write as text


# Attacks on intake that only a folder can carry (git stores no FIFO, and a link must point
# at this checkout): built in the batch folder; each has <name>.expected.yaml like the others.
LAYOUT_ATTACKS = {"layout_link_to_reference": _link_to_reference, "layout_linked_main": _linked_main,
                  "layout_fifo_helper": _fifo_helper, "layout_crowded_folder": _crowded,
                  "layout_oversized_file": _oversized, "layout_undecodable_name": _undecodable_name}
HOSTILE_NAMES = sorted([p.stem for p in HOSTILE.glob("*.py")] + list(LAYOUT_ATTACKS))


@pytest.fixture(scope="module")
def hostile_run(tmp_path_factory):
    batch = tmp_path_factory.mktemp("hostile_batch")
    for p in HOSTILE.glob("*.py"):
        shutil.copy(p, batch / p.name)
    for name, build in LAYOUT_ATTACKS.items():
        (batch / name).mkdir()
        build(batch / name)
    for name in HONEST:
        shutil.copy(ROOT / "submissions" / "hw7_iteration" / f"{name}.py", batch / f"{name}.py")
    for evil, original in EVIL_IDS.items():
        shutil.copy(ROOT / "submissions" / "hw7_iteration" / f"{original}.py", batch / f"{evil}.py")
    alone = tmp_path_factory.mktemp("honest_alone")
    for name in HONEST:
        shutil.copy(ROOT / "submissions" / "hw7_iteration" / f"{name}.py", alone / f"{name}.py")

    litter_before = {p for p in HOST_LITTER if os.path.exists(p)}
    digests_before = tree_digest(WATCHED + [batch])
    procs_before = set(process_table())

    box: dict = {}

    out = tmp_path_factory.mktemp("hostile_out")

    def run() -> None:
        try:
            box["results"], box["elapsed"] = grade_batch(SPEC, [batch], out)
        except BaseException as exc:  # reported by the test, not lost in the thread
            box["error"] = exc

    started = time.perf_counter()
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(DEADLINE_S)
    finished = not worker.is_alive()
    elapsed = time.perf_counter() - started

    leftovers: list[str] = []
    if finished:
        for _ in range(30):  # give killed sandboxes a moment to be reaped
            leftovers = leftover_processes(procs_before)
            if not leftovers:
                break
            time.sleep(0.1)
    alone_results = grade_batch(SPEC, [alone], tmp_path_factory.mktemp("honest_out"))[0] if finished else {}
    return {
        "finished": finished,
        "elapsed": elapsed,
        "out": out,
        "error": box.get("error"),
        "results": box.get("results", {}),
        "alone": alone_results,
        "digests_before": digests_before,
        "digests_after": tree_digest(WATCHED + [batch]),
        "leftovers": leftovers,
        "litter": sorted({p for p in HOST_LITTER if os.path.exists(p)} - litter_before),
    }


def test_hostile_suite_is_complete():
    assert len(HOSTILE_NAMES) >= 20, f"only {len(HOSTILE_NAMES)} hostile submissions"
    missing = [n for n in HOSTILE_NAMES if not (HOSTILE / f"{n}.expected.yaml").exists()]
    assert not missing, f"hostile submissions without an expected file: {missing}"


def test_batch_finishes(hostile_run):
    assert hostile_run["finished"], f"the batch with hostile submissions did not finish within {DEADLINE_S} s"
    assert hostile_run["error"] is None, f"the batch raised {hostile_run['error']!r}"
    graded = set(hostile_run["results"])
    wanted = set(HOSTILE_NAMES) | set(HONEST) | set(EVIL_IDS)
    assert graded == wanted, f"not graded: {sorted(wanted - graded)}"


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_hostile_gets_deserved_result(hostile_run, name):
    if not hostile_run["finished"]:
        pytest.fail("the batch did not finish")
    result = hostile_run["results"].get(name)
    assert result is not None, f"{name} was not graded"
    problems = check_expectations(result, load_expected(HOSTILE / f"{name}.expected.yaml"))
    assert not problems, f"hostile/{name}.py does not get its deserved result:\n- " + "\n- ".join(problems) + "\nresult:\n" + describe(result)


@pytest.mark.parametrize("name", HONEST)
def test_honest_unaffected(hostile_run, name):
    if not hostile_run["finished"]:
        pytest.fail("the batch did not finish")
    mixed, alone = hostile_run["results"][name], hostile_run["alone"][name]

    def shape(r):
        return (r.score, {n: f.score for n, f in r.functions.items()}, [(t.function, t.name, t.status, t.score) for t in r.tests])

    a, b = shape(mixed), shape(alone)
    if a != b:
        diffs = [f"{x[0]}/{x[1]}: {x[2]} {x[3]} with hostile neighbours vs {y[2]} {y[3]} alone" for x, y in zip(a[2], b[2]) if x != y]
        pytest.fail(f"honest {name} graded differently next to hostile submissions: total {a[0]} vs {b[0]}\n" + "\n".join(diffs[:20]))


def test_no_file_changed(hostile_run):
    before, after = hostile_run["digests_before"], hostile_run["digests_after"]
    changed = sorted(p for p in before if p in after and before[p] != after[p])
    removed = sorted(set(before) - set(after))
    added = sorted(p for p in set(after) - set(before) if not p.endswith(".pyc"))
    assert not (changed or removed or added), f"files changed by the hostile run: changed {changed}, removed {removed}, added {added}"
    assert not hostile_run["litter"], f"attacks left files on the host: {hostile_run['litter']}"


def test_no_process_left(hostile_run):
    assert hostile_run["finished"], "the batch did not finish"
    assert not hostile_run["leftovers"], "processes left after the run:\n" + "\n".join(hostile_run["leftovers"])


@pytest.fixture(scope="module")
def hostile_reports(hostile_run):
    """Every report format written for the hostile batch; writer failures collected."""
    from grader.reports import write_reports
    from grader.spec.loader import load_spec

    assert hostile_run["finished"], "the batch did not finish"
    failed: list[str] = []
    write_reports(list(hostile_run["results"].values()), load_spec(SPEC), hostile_run["out"],
                  ["csv", "gradescope", "junit", "markdown", "html"],
                  on_error=lambda name, message: failed.append(f"{name}: {message}"))
    return {"out": hostile_run["out"], "failed": failed}


def test_every_report_of_the_hostile_batch_is_written_and_bounded(hostile_reports):
    """One submission can make no report fail and no file grow past the bounds (issue #12, classes 7 and 8)."""
    from grader.judge.bounds import MAX_RESULT_CHARS
    from grader.reports import REPORT_ERRORS

    out = hostile_reports["out"]
    assert not hostile_reports["failed"] and not (out / REPORT_ERRORS).exists(), hostile_reports["failed"]
    per_submission = {p.name: p.stat().st_size for p in out.glob("*.json") if p.name != "summary.json"}
    assert per_submission and max(per_submission.values()) <= 2.2 * MAX_RESULT_CHARS, per_submission
    sizes = {str(p.relative_to(out)): p.stat().st_size for p in out.rglob("*") if p.is_file() and p.name != "grader.sqlite3"}
    biggest = max(sizes, key=sizes.get)
    assert sizes[biggest] <= 8_000_000, f"{biggest} is {sizes[biggest]:,} bytes"


# What the attacks of class 2 write around the inputs they try to smuggle out of hidden cases
# only (printing or raising on public cases is the student's own business).
LEAK_MARKERS = ("LEAKED", "hidden input")


def _hidden_inputs() -> set[str]:
    from grader.plan import make_plan
    from grader.spec.loader import load_spec

    plan = make_plan(load_spec(SPEC))
    public = {repr(a) for cases in plan.cases.values() for p in cases if p.case.is_public for a in p.case.args}
    found = set()
    for cases in plan.cases.values():
        for p in cases:
            if p.case.is_public:
                continue
            for a in p.case.args:
                if len(repr(a)) >= 12 and repr(a) not in public:
                    found.add(repr(a))
                    if isinstance(a, list) and all(type(x) is int for x in a):
                        found.add("_".join(map(str, a)))   # spelled into a name
    return found


def test_no_hidden_input_reaches_any_student_facing_output(hostile_run, hostile_reports):
    """Class 2: hidden inputs stay in the parent, whatever a submission prints, raises or returns."""
    import json

    out = hostile_reports["out"]
    facing = {f"{r.submission} (JSON without staff fields)": json.dumps(r.to_json(include_staff=False))
              for r in hostile_run["results"].values()}
    for pattern in ("gradescope/*/results.json", "feedback/*.md", "*.json"):
        facing.update({str(p.relative_to(out)): p.read_text(errors="replace") for p in out.glob(pattern)})
    hidden = _hidden_inputs()
    assert len(hidden) > 50
    leaks = [f"{where}: {needle!r}" for where, text in facing.items()
             for needle in (*LEAK_MARKERS, *hidden) if needle in text]
    assert not leaks, "hidden inputs reached student-facing output:\n" + "\n".join(leaks[:20])


def test_hidden_times_are_coarse_in_every_student_facing_output(hostile_reports):
    """Class 2: a hidden case's time, burnt on purpose in proportion to its input
    (leak_hidden_via_time), reaches a student only in tenths of a second."""
    import json

    out = hostile_reports["out"]
    shown = json.loads((out / "leak_hidden_via_time.json").read_text())["tests"]
    times = [t["time_s"] for t in shown if t["visibility"] == "hidden"]
    assert times and all(abs(t * 10 - round(t * 10)) < 1e-9 for t in times), times
    staff = json.loads((out / "staff" / "leak_hidden_via_time.json").read_text())["tests"]
    assert len({t["time_s"] for t in staff if t["visibility"] == "hidden" and t["function"] == "scrabbleScore"}) > 5
    assert json.loads((out / "leak_hidden_via_time.json").read_text())["duration_s"] % 1 == 0   # whole seconds
    import xml.etree.ElementTree as ET

    for case in ET.parse(out / "junit.xml").iter("testcase"):   # CI pages show JUnit to students
        if "scrabble_random" in case.get("name", ""):
            assert abs(float(case.get("time")) * 10 - round(float(case.get("time")) * 10)) < 1e-9, case.attrib
    for board in out.rglob("results.json"):      # Gradescope's: hidden cases say their status only
        for case in json.loads(board.read_text())["tests"]:
            if case.get("visibility") != "visible":
                assert all(abs(float(x) * 10 - round(float(x) * 10)) < 1e-9
                           for x in re.findall(r"Time: (\d+\.\d+)s", case.get("output", ""))), case


def test_a_banned_call_in_a_hidden_case_is_reported_without_the_line_the_code_chose(hostile_reports):
    """Class 2: a run-time finding's line is the code's own to choose (``co_firstlineno``);
    hidden_args_in_ban_lines spelt every hidden input out in them, so of a hidden case a
    student sees that the banned function ran, never where."""
    import json

    out = hostile_reports["out"]
    shown = json.loads((out / "hidden_args_in_ban_lines.json").read_text())
    runtime = [v for v in shown["functions"]["scrabbleScore"]["violations"] if v["layer"] == "runtime"]
    assert runtime and all(v["line"] is None for v in runtime), runtime   # it calls sum on hidden cases only
    for path in [out / "hidden_args_in_ban_lines.json", *out.glob("feedback/hidden_args_in_ban_lines*"),
                 *out.glob("gradescope/hidden_args_in_ban_lines*/results.json"), *out.glob("report/students/hidden_args_in_ban_lines*")]:
        spelt = re.findall(r"\b1[01]\d{5}\b", path.read_text())
        assert not spelt, f"{path.relative_to(out)} shows lines {spelt[:5]}"


def test_evil_ids_are_graded_like_their_originals_and_shown_harmlessly(hostile_run, hostile_reports):
    """Class 10: a name that forges a terminal line or a spreadsheet formula changes nothing."""
    import csv
    import re

    from grader.reports.terminal import render_summary
    from grader.spec.loader import load_spec
    from rich.console import Console

    results = hostile_run["results"]
    for evil, original in EVIL_IDS.items():
        assert results[evil].score == hostile_run["alone"][original].score, evil
    buffer = __import__("io").StringIO()
    Console(file=buffer, force_terminal=True, width=300).print(render_summary(list(results.values()), load_spec(SPEC)))
    shown = re.sub(r"\x1b\[[0-9;]*m", "", buffer.getvalue())  # rich's own colours
    assert "\x1b" not in shown and "\r" not in shown and "\u202e" not in shown
    assert "top_student 60 of 50" in shown  # shown, with its escape codes spelled out
    rows = list(csv.reader((hostile_reports["out"] / "grades.csv").open(newline="")))
    for row in rows[1:]:
        for piece in re.split(r"[,;\t|\r\n]", row[0]):
            assert not piece.strip().startswith(("=", "+", "-", "@")), row[0]
