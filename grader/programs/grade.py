"""Grade one console-program submission: the pipeline's entry point for ``kind: program``.

detect language and main file -> decode -> style -> build (javac, cached) -> play every case in
the sandbox with the plug-in's players -> the plug-in judges the runs -> speed (CPU time against
the reference's, measured by the kernel) -> the spec's crash and rule penalties -> score.
"""
from __future__ import annotations

import dataclasses
import hashlib
import os
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any, Mapping, Sequence

from grader.judge.verdict import FunctionResult, SubmissionError, SubmissionResult, TestResult
from grader.languages import Build, Language, get_language
from grader.run.sandbox import IsolationProfile, Limits, probe
from grader.spec.loader import load_trusted_module
from grader.static.style import check_style

from .plugin import CaseRun, Context, Judgement, Plugin, load_plugin
from .session import find_crash, drive
from .spec import LanguageSpec, ProgramSpec, of_spec, reference_path

FIXED_CRITERIA = ("speed", "style")
#: Cases of one submission played at once: they are independent sessions, and a program spends most of a
#: session waiting for its next answer or starting up (a JVM), so two at a time halve the wait on two cores.
CASE_JOBS = max(1, min(2, os.cpu_count() or 1))
BASE_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1",
            "PYTHONIOENCODING": "utf-8"}


def case_seed(case: Mapping[str, Any]) -> int:
    """The seed of a case's own randomness: the spec's, else one derived from the case's name."""
    return int(case["seed"]) if "seed" in case else zlib.crc32(str(case["name"]).encode())


def detect(files: Mapping[str, bytes], languages: Mapping[str, LanguageSpec]) -> tuple[Language, str] | None:
    """The submission's language (the first of the spec's that owns one of its files) and its main file."""
    for name in languages:
        language = get_language(name)
        main = language.program_main(files)
        if main is not None:
            return language, main
    return None


def build(language: Language, setup: LanguageSpec, files: Mapping[str, bytes], main: str, *, program: ProgramSpec,
          limits: Limits | None, profile: IsolationProfile | None) -> Build:
    """The language's build with the spec's commands and course libraries."""
    return language.build(files, main, command=setup.build, run=setup.run, libraries=setup.libraries,
                          limits=_limits(limits, program, setup, cpu_s=program.compile_s), profile=profile,
                          timeout=program.compile_s)


def _limits(base: Limits | None, program: ProgramSpec, setup: LanguageSpec, *, cpu_s: float) -> Limits:
    """The spec's limits on top of the pipeline's (the pipeline's may be None)."""
    return dataclasses.replace(base or Limits(), memory_mb=setup.memory_mb or program.memory_mb,
                               output_bytes=program.output_kb * 1024, cpu_s=int(cpu_s) + 1)


class _Runner:
    """Runs the cases of one build (a submission's or the reference's) through the sandbox."""

    def __init__(self, program: ProgramSpec, language: Language, setup: LanguageSpec, built: Build,
                 limits: Limits | None, profile: IsolationProfile | None):
        self.program = program
        self.language = language
        self.built = built
        self.limits = _limits(limits, program, setup, cpu_s=program.session_s)
        self.profile = profile

    def run_all(self, plugin: Plugin, cases: Sequence[Mapping[str, Any]], ctx: Context, *,
                own_inputs_only: bool = False, costs: Sequence[float] = ()) -> list[CaseRun]:
        """Every case, CASE_JOBS at a time; the runs come back in the cases' order.

        With ``costs`` (each case's expected CPU time, in the cases' order) the longest start first, so that
        a long case does not start last and run alone on one core while the other waits.
        """
        def play(case: Mapping[str, Any]) -> CaseRun:
            return self.run(plugin, case, ctx, own_inputs_only=own_inputs_only)

        if CASE_JOBS == 1 or len(cases) < 2:
            return [play(case) for case in cases]
        order = sorted(range(len(cases)), key=lambda i: -costs[i] if i < len(costs) else 0.0)
        with ThreadPoolExecutor(CASE_JOBS, thread_name_prefix="case") as pool:
            started = {i: pool.submit(play, cases[i]) for i in order}
            return [started[i].result() for i in range(len(cases))]

    def run(self, plugin: Plugin, case: Mapping[str, Any], ctx: Context, *, own_inputs_only: bool = False) -> CaseRun:
        play = plugin.start(case, ctx)
        if own_inputs_only:
            play.files, play.env = {}, {}
        env = {**BASE_ENV, "GRADER_SEED": str(case_seed(case)), **play.env}
        process = self.language.spawn(self.built, limits=self.limits, env=env, profile=self.profile, files=play.files)
        try:
            transcript = drive(process, play.player, step_s=self.program.step_s,
                               session_s=self.program.session_s, max_inputs=self.program.inputs)
        finally:
            process.kill()
        return CaseRun(case, transcript, find_crash(transcript, set(self.built.sources), self.language),
                       play.player)


def _context(program: ProgramSpec, plugin: Plugin, reference: Any, language: Language, built: Build) -> Context:
    points = {name: program.weights.get(name, 0.0) for name in plugin.criteria}
    return Context(reference, program.options, points, language.name, built.main_file, built.sources)


def _cases_for(program: ProgramSpec, public_only: bool) -> ProgramSpec:
    """A student's self-check runs the public cases only, as for function assignments."""
    if not public_only:
        return program
    return dataclasses.replace(program, cases=tuple(c for c in program.cases if c.get("visibility", "hidden") == "public"))


@lru_cache(maxsize=8)
def _reference_times(spec_path: str, digest: str, public_only: bool) -> tuple[float, ...]:
    """CPU time of the reference on every timed case, played exactly like a submission."""
    from grader.spec.loader import load_spec

    spec = load_spec(spec_path)
    program = _cases_for(of_spec(spec), public_only)
    plugin = load_plugin(program.plugin)
    ref = reference_path(spec)
    python = get_language("python")
    setup = dataclasses.replace(program.languages.get("python") or LanguageSpec("python", python.default_run), libraries=())
    built = build(python, setup, {ref.name: ref.read_bytes()}, ref.name, program=program, limits=None, profile=None)
    runner = _Runner(program, python, setup, built, None, None)
    ctx = _context(program, plugin, load_trusted_module(ref, "reference"), python, built)
    # The reference is timed with no files or environment from the plug-in (no fixed decks, say): it does all its own
    # work, as the students' programs do, so that a program as fast as the reference is within the full-points ratio.
    timed = [case for case in program.cases if case.get("timed", True)]
    return tuple(run.transcript.cpu_s for run in runner.run_all(plugin, timed, ctx, own_inputs_only=True))


def _expected_costs(spec: Any, program: ProgramSpec, public_only: bool) -> list[float]:
    """How long each case is likely to take: the reference's CPU time on it (0 for an untimed case)."""
    times = iter(_reference_times(str(spec.path), getattr(spec, "digest", ""), public_only))
    return [next(times) if case.get("timed", True) else 0.0 for case in program.cases]


def speed_score(student: Sequence[float], reference: Sequence[float], factors: tuple[float, float],
                points: float) -> tuple[float, dict[str, Any]]:
    """Full points up to ``full`` x the reference's CPU time, none from ``zero`` x, linear between."""
    mine, theirs = sum(student), max(sum(reference), 0.05)
    ratio = mine / theirs
    full, zero = factors
    share = 1.0 if ratio <= full else 0.0 if ratio >= zero else (zero - ratio) / (zero - full)
    return points * share, {"cpu_s": round(mine, 3), "reference_cpu_s": round(theirs, 3), "ratio": round(ratio, 2),
                            "full_within": full, "zero_at": zero, "score": round(points * share, 3),
                            "max_score": points}


def grade_program(spec: Any, submission_id: str, files: Mapping[str, bytes], *, limits: Limits | None = None,
                  profile: IsolationProfile | None = None, public_only: bool = False) -> SubmissionResult:
    """Grade one submission of a ``kind: program`` spec (only its public cases for a self-check)."""
    started = time.monotonic()
    program = _cases_for(of_spec(spec), public_only)
    plugin = load_plugin(program.plugin)
    criteria = (*plugin.criteria, *FIXED_CRITERIA)
    digest = hashlib.sha256(b"".join(name.encode() + b"\0" + files[name] for name in sorted(files))).hexdigest()[:16]
    base = dict(submission=submission_id, assignment=spec.assignment, max_score=program.max_score,
                spec_digest=getattr(spec, "digest", ""), submission_digest=digest,
                isolation=(profile or probe()).describe())
    finish = _Finisher(base, started, program, criteria)
    detected = detect(files, program.languages)
    if detected is None:
        wanted = " or ".join(f"*{suffix}" for name in program.languages for suffix in get_language(name).suffixes)
        return finish({}, [], errors=[SubmissionError("missing-file", f"no program file found: hand in {wanted}")])
    language, main = detected
    setup = program.languages[language.name]
    built = build(language, setup, files, main, program=program, limits=limits, profile=profile)
    style = check_style(language.name, built.main_file, built.sources[built.main_file], program.style,
                        program.weights.get("style", 0.0))
    extra: dict[str, Any] = {"language": language.name, "main_file": built.main_file, "style": style.to_json()}
    if built.encodings:
        extra["encodings"] = dict(built.encodings)
    if built.errors:
        return _compile_error(finish, program, built, extra)
    ctx = _context(program, plugin, load_trusted_module(reference_path(spec), "reference"), language, built)
    runner = _Runner(program, language, setup, built, limits, profile)
    runs = runner.run_all(plugin, program.cases, ctx, costs=_expected_costs(spec, program, public_only))
    judgement = plugin.judge(runs, ctx)
    tests = list(judgement.tests)
    speed, speed_test = _speed(spec, program, language.name, runs, public_only, judgement.short_cases)
    extra["speed"] = speed
    tests.append(speed_test)
    tests.extend(style.tests())
    scores = {**judgement.scores, "speed": speed["score"], "style": style.score}
    errors, forced = _penalties(program, runs, judgement, extra)
    return finish(scores, tests, errors=errors, extra=extra, forced=forced)


def _compile_error(finish: "_Finisher", program: ProgramSpec, built: Build, extra: dict[str, Any]) -> SubmissionResult:
    extra["compile_output"] = built.output[-4000:]
    errors = [SubmissionError("compile-error", e.describe(), line=e.line) for e in built.errors]
    tests = [TestResult(name="compile", function=finish.criteria[0], visibility="public", status="error", score=0.0,
                        max_score=program.max_score, message=built.errors[0].describe())]
    return finish({}, tests, errors=errors, extra=extra, forced=program.on_compile_error.score)


def _speed(spec: Any, program: ProgramSpec, language: str, runs: Sequence[CaseRun],
           public_only: bool, short_cases: Sequence[str] = ()) -> tuple[dict[str, Any], TestResult]:
    points = program.weights.get("speed", 0.0)
    times = [run.transcript.cpu_s if not run.crash else program.session_s for run in runs if run.case.get("timed", True)]
    reference = _reference_times(str(spec.path), getattr(spec, "digest", ""), public_only)
    score, info = speed_score(times, reference, program.speed.get(language, (3.0, 30.0)), points)
    message = f"{info['ratio']}x the reference's CPU time (full points within {info['full_within']}x)"
    short = [run.case["name"] for run in runs if run.case["name"] in short_cases]
    if any(run.crash for run in runs):
        info["score"], info["note"] = 0.0, "no speed points for a program that crashes"
        message = info["note"]
    elif short:
        info["score"], info["note"] = 0.0, (f"no speed points: the sessions of {', '.join(short[:3])}"
                                            f"{', ...' if len(short) > 3 else ''} stopped before the player's last game, "
                                            "so the work the reference's time includes was not done")
        message = info["note"]
    test = TestResult(name="speed", function="speed", visibility="public",
                      status="passed" if info["score"] >= points - 1e-9 else "failed", score=round(info["score"], 4),
                      max_score=points, message=message)
    return info, test


def _penalties(program: ProgramSpec, runs: Sequence[CaseRun], judgement: Judgement,
               extra: dict[str, Any]) -> tuple[list[SubmissionError], float | None]:
    """Crashes and broken rules, and the spec's cap on the score for them."""
    errors: list[SubmissionError] = []
    caps: list[float] = []
    for run in runs:
        if run.crash and run.case.get("visibility", "hidden") == "public":
            errors.append(SubmissionError("crash", f"case {run.case['name']}: {run.crash.message}", line=run.crash.line))
        elif run.crash:     # its words and line are the program's to choose: staff only (issue #12, class 2)
            where = f" (line {run.crash.line})" if run.crash.line else ""
            errors.append(SubmissionError("crash", f"case {run.case['name']}: the program crashed on a hidden case",
                                          staff=run.crash.message + where))
        if run.transcript.ended == "lost":
            lost = f"case {run.case['name']}: the grader lost track of the program, which is not counted as a crash"
            if run.case.get("visibility", "hidden") == "public":
                errors.append(SubmissionError(SubmissionError.NOTE, f"{lost}: {run.transcript.note}"))
            else:           # the note quotes the program's output of a hidden case
                errors.append(SubmissionError(SubmissionError.NOTE, f"{lost} (in a hidden case)",
                                              staff=run.transcript.note))
    if any(run.crash for run in runs) and program.on_crash.scope == "submission":
        caps.append(program.on_crash.score)
        extra["crash_rule"] = f"a program that crashes scores at most {program.on_crash.score:g} (spec: on_crash)"
    for rule, message, *staff in judgement.rules_broken:
        errors.append(SubmissionError("rule", f"{rule}: {message}", staff=f"{rule}: {staff[0]}" if staff else None))
        penalty = program.rules.get(rule)
        if penalty is not None:
            caps.append(penalty.score)
            extra.setdefault("rules", {})[rule] = f"scores at most {penalty.score:g} (spec: rules.{rule})"
    return errors, (min(caps) if caps else None)


@dataclasses.dataclass
class _Finisher:
    base: dict[str, Any]
    started: float
    program: ProgramSpec
    criteria: tuple[str, ...]

    def __call__(self, scores: Mapping[str, float], tests: list[TestResult], *, errors: list[SubmissionError],
                 extra: dict[str, Any] | None = None, forced: float | None = None) -> SubmissionResult:
        extra = extra if extra is not None else {}
        functions = {
            name: FunctionResult(name=name, score=round(scores.get(name, 0.0), 4),
                                 max_score=self.program.weights.get(name, 0.0), found_as=name if name in scores else None)
            for name in self.criteria
        }
        score = sum(f.score for f in functions.values())
        if forced is not None:
            extra["score_before_penalty"] = round(score, 4)
            score = min(score, forced)
        return SubmissionResult(score=round(score, 4), functions=functions, tests=tuple(tests), errors=tuple(errors),
                                duration_s=time.monotonic() - self.started, extra=extra, **self.base)
