"""The console-program engine: input only when the kernel says the program reads, crash vs lost track, toolchain."""
from __future__ import annotations

import dataclasses

import pytest

from grader.languages import Build, get_language
from grader.languages.base import decode_legacy as decode_source
from grader.programs.plugin import Stop
from grader.programs.session import drive, find_crash
from grader.run.sandbox import Limits

from conftest import ROOT


class Recorder:
    """A player that answers from a list and remembers what it was shown when asked."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.seen: list[str] = []

    def answer(self, output):
        self.seen.append(output)
        return self.answers.pop(0) if self.answers else Stop("no more answers", by_grader=True)


def _run(files, argv, player, *, java=False, step_s=4.0):
    limits = dataclasses.replace(Limits(), memory_mb=4096 if java else 512, nproc=200 if java else Limits().nproc)
    language = get_language("java" if java else "python")
    program = language.spawn(Build(dict(files), list(argv), argv[-1]), limits=limits)
    try:
        return drive(program, player, step_s=step_s, session_s=30, max_inputs=50)
    finally:
        program.kill()


HEADING_THEN_WORK = """import time
print("You have the following two cards:")
time.sleep(0.6)            # a pause after a line ending in ':' that is not a prompt
print("2 of Spades")
stake = int(input("Enter your stake: "))
print("stake", stake)
"""


def test_input_is_sent_only_when_the_program_reads():
    player = Recorder(["10"])
    transcript = _run({"m.py": HEADING_THEN_WORK}, ["python3", "-u", "m.py"], player)
    assert player.seen == ["You have the following two cards:\n2 of Spades\nEnter your stake: "]
    assert transcript.ended == "exit" and transcript.exit_code == 0
    assert transcript.output.endswith("stake 10\n")
    assert [e.stream for e in transcript.events] == ["out", "in", "out"]
    assert transcript.events[1].at >= 0.6     # timestamped: the answer came after the pause


def test_an_uncaught_exception_is_a_crash_with_its_line():
    player = Recorder(["10.0"])
    transcript = _run({"m.py": "x = int(input('stake: '))\n"}, ["python3", "-u", "m.py"], player)
    crash = find_crash(transcript, {"m.py"}, PYTHON)
    assert crash is not None and crash.status == "crashed" and crash.line == 1
    assert "ValueError" in crash.message


def test_the_grader_losing_track_is_not_a_crash():
    player = Recorder([])
    transcript = _run({"m.py": "input('what now? ')\n"}, ["python3", "-u", "m.py"], player)
    assert transcript.ended == "lost" and find_crash(transcript, {"m.py"}, PYTHON) is None


def test_a_program_that_neither_reads_nor_ends_times_out():
    transcript = _run({"m.py": "while True:\n    pass\n"}, ["python3", "-u", "m.py"], Recorder([]), step_s=0.5)
    crash = find_crash(transcript, {"m.py"}, PYTHON)
    assert transcript.ended == "timeout" and crash is not None and crash.status == "timeout"


def test_non_zero_exit_is_a_crash():
    transcript = _run({"m.py": "import sys\nprint('bye')\nsys.exit(3)\n"}, ["python3", "-u", "m.py"], Recorder([]))
    crash = find_crash(transcript, {"m.py"}, PYTHON)
    assert crash is not None and "exit code 3" in crash.message


JAVA = """public class Main {
    public static void main(String[] args) throws Exception {
        java.util.Scanner in = new java.util.Scanner(System.in);
        System.out.println("Your cards:");
        Thread.sleep(300);
        System.out.print("Enter stake: ");
        int stake = in.nextInt();
        System.out.println("got " + stake);
    }
}
"""


PYTHON = get_language("python")
JAVA_LIMITS = dataclasses.replace(Limits(), memory_mb=4096, nproc=200)


def test_java_reading_from_one_of_many_threads_is_seen():
    built = get_language("java").build({"Main.java": JAVA.encode()}, "Main.java", limits=JAVA_LIMITS)
    assert not built.errors, built.output
    player = Recorder(["12"])
    transcript = _run(built.files, built.argv, player, java=True)
    assert player.seen == ["Your cards:\nEnter stake: "]
    assert transcript.output.endswith("got 12\n") and find_crash(transcript, {"Main.java"}, get_language("java")) is None


@pytest.mark.parametrize("text, encoding", [("// “quoted” – it’s\nclass A {}\n", "cp1252"),
                                            ("// Καλή τύχη, παίκτη\nclass A {}\n", "iso8859_7")])
def test_legacy_encodings_are_detected(text, encoding):
    decoded, found = decode_source(text.encode(encoding))
    assert decoded == text and found in (encoding, "cp1253" if encoding == "iso8859_7" else encoding)


def test_a_bom_is_dropped():
    assert decode_source(b"\xef\xbb\xbfclass A {}") == ("class A {}", "utf-8-sig")


def test_a_missing_course_library_is_named():
    source = b"public class P { public static void main(String[] a) { StdOut.println(StdIn.readInt()); } }"
    built = get_language("java").build({"P.java": source}, "P.java", limits=JAVA_LIMITS,
                                       libraries=(ROOT / "reference" / "lib" / "StdIn.java",))
    assert built.errors[0].message == "StdOut is not part of the submission or the course libraries"
    assert all("StdIn is not" not in e.message for e in built.errors)


def test_helper_classes_and_the_main_class_are_found():
    java = get_language("java")
    files = {"cards.java": b"public class Cards { static int points() { return 10; } }",
             "game.java": b"// no main here: main(String[] args)\npublic class Game {\n"
                          b"    public static void main(String[] args) { System.out.println(Cards.points()); }\n}\n"}
    main = java.program_main(files)
    built = java.build(files, main, limits=JAVA_LIMITS)
    assert not built.errors and built.main_file == "game.java" and built.argv[-1] == "Game"


def test_programs_running_at_once_never_share_a_uid():
    """RLIMIT_NPROC counts a uid's threads: two JVMs (or a JVM and javac) sharing a uid fail each other's threads."""
    from grader.run import _bwrap, process

    def uid_of(program):
        for pid in reversed(program._tree()):
            try:
                status = open(f"/proc/{pid}/status").read()
            except OSError:
                continue
            return int(status.split("\nUid:")[1].split()[0])
        return None

    files = {"m.py": "input()\n"}
    first = process.spawn(["python3", "-u", "m.py"], files, limits=Limits())
    second = process.spawn(["python3", "-u", "m.py"], files, limits=Limits())
    try:
        for program in (first, second):
            assert program.read_turn(20).state == "input"
        uids = {uid_of(first), uid_of(second)}
    finally:
        first.kill()
        second.kill()
    if _bwrap.is_root() and process.probe().uses_bwrap:
        assert len(uids) == 2 and all(_bwrap.BASE_UID + min(process.PROGRAM_SLOTS) <= u for u in uids), uids
    else:
        assert uids == {__import__("os").getuid()}


def test_programs_get_a_fixed_number_of_malloc_arenas():
    """A JVM's threads on a busy machine each took a 64 MB malloc arena of address space and
    passed RLIMIT_AS at random (C1 aborting with "Not enough space"): the cap must reach programs."""
    player = Recorder([])
    transcript = _run({"m.py": "import os\nprint(os.environ.get('MALLOC_ARENA_MAX'))\n"}, ["python3", "-u", "m.py"], player)
    assert transcript.ended == "exit" and transcript.output.strip() == "2"


def test_the_longest_cases_start_first_and_come_back_in_order(monkeypatch):
    """Two at a time, a long case listed last would run alone at the end: it starts first instead."""
    import threading

    from grader.programs import grade

    started: list[str] = []
    lock = threading.Lock()

    def run(self, plugin, case, ctx, *, own_inputs_only=False):
        with lock:
            started.append(case["name"])
        return case["name"]

    monkeypatch.setattr(grade, "CASE_JOBS", 2)
    monkeypatch.setattr(grade._Runner, "run", run)
    runner = object.__new__(grade._Runner)
    cases = [{"name": n} for n in ("short", "untimed", "long", "middle")]
    runs = runner.run_all(None, cases, None, costs=[0.1, 0.0, 2.0, 0.5])
    assert runs == ["short", "untimed", "long", "middle"]
    assert set(started[:2]) == {"long", "middle"}


def test_the_cpu_time_of_children_reaped_unseen_is_counted():
    """A red team's Blackjack program ignored SIGCHLD (the kernel reaps its children, whose time
    then reaches no parent's cutime) and did its work in children of a few ms each, between two
    of the grader's looks at /proc: 32 s of CPU were measured as 2.4 s and got full speed points."""
    from grader.run import _bwrap, process

    code = ("import os, signal, time\nsignal.signal(signal.SIGCHLD, signal.SIG_IGN)\n"
            "for _ in range(40):\n"
            "    if os.fork() == 0:\n"
            "        end = time.process_time() + 0.01\n"
            "        while time.process_time() < end:\n"
            "            pass\n"
            "        os._exit(0)\n"
            "    time.sleep(0.015)\n")
    program = process.spawn(["python3", "-u", "m.py"], {"m.py": code}, limits=Limits())
    try:
        assert program.wait(30) == 0
    finally:
        program.kill()
    if _bwrap.is_root() and process.probe().uses_bwrap:      # the program's own cgroup counts them
        assert program.time_s >= 0.35, program.time_s
