"""Grade one console-program submission (Python or Java): the pipeline's entry point.

detect language -> style -> build (javac, cached) -> drive each case in the sandbox
-> replay every game through the reference -> speed against the reference -> score.
"""
from __future__ import annotations

import dataclasses
import hashlib
import time
from functools import lru_cache
from typing import Any, Mapping

from grader.judge.verdict import FunctionResult, SubmissionError, SubmissionResult, TestResult
from grader.spec.loader import load_trusted_module
from grader.static.style import check_style

from . import sandbox
from .build import BuildResult, compile_java, python_syntax_error
from .drivers import Player, make_player
from .scripts import PlannedScript, plan_script
from .judge import CaseVerdict, judge_case
from .session import RunRecord, drive
from .spec import LanguageSpec, ProgramSpec, program_spec, reference_path, spec_decks

CRITERIA = ("games", "wording", "speed", "style")


def detect_language(files: Mapping[str, bytes]) -> tuple[str, str] | None:
    """(language, main file): Java when a .java file is present, else the Python file."""
    java = sorted(n for n in files if n.endswith(".java"))
    if java:
        with_main = [n for n in java if b"static void main" in files[n]]
        return "java", (with_main or java)[0]
    python = sorted(n for n in files if n.endswith(".py"))
    if python:
        return "python", python[0]
    return None


def _decks_file(case: Mapping[str, Any]) -> bytes:
    return "".join(card + "\n" for deck in spec_decks(case) for card in deck).encode()


def _command(template: tuple[str, ...], main: str, main_class: str) -> list[str]:
    return [part.replace("{main}", main).replace("{class}", main_class) for part in template]


def case_player(case: Mapping[str, Any], reference: Any) -> tuple[Player, int]:
    """The player of a case and the number of games it plays."""
    if "stdin" in case:
        plan = plan_script(case, reference)
        return PlannedScript(plan), int(case.get("games", len(plan)))
    return make_player(case), int(case.get("games", 3))


class _Runner:
    """Runs the cases of one submission (or of the reference) through the sandbox."""

    def __init__(self, program: ProgramSpec, language: LanguageSpec, files: Mapping[str, bytes], argv: list[str],
                 limits: sandbox.Limits | None = None, profile: Any = None):
        self.program = program
        self.language = language
        self.files = dict(files)
        self.argv = argv
        self.binds = sandbox.binds_for(language.name)
        self.limits = _limits(program, language, limits)
        self.profile = profile

    def run_case(self, case: Mapping[str, Any], player: Player) -> RunRecord:
        files = dict(self.files)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1"}
        if self.language.deck_env:
            files["decks.txt"] = _decks_file(case)
            env[self.language.deck_env] = "decks.txt"
        process = sandbox.spawn(self.argv, files, limits=self.limits, binds=self.binds, env=env, profile=self.profile)
        try:
            return drive(process, player, step_timeout=self.program.step_s,
                         session_timeout=self.program.session_s)
        finally:
            process.kill()


def _limits(program: ProgramSpec, language: LanguageSpec, limits: sandbox.Limits | None) -> sandbox.Limits:
    memory = language.memory_mb or program.memory_mb
    return sandbox.limits_for(limits, memory_mb=memory, output_bytes=program.output_kb * 1024,
                              cpu_s=int(program.session_s) + 1)


@lru_cache(maxsize=8)
def _reference_times(spec_path: str, digest: str, language: str, public_only: bool = False) -> tuple[float, ...]:
    """Wall time of the reference on every timed case, driven exactly like a submission."""
    from grader.spec.loader import load_spec

    spec = load_spec(spec_path)
    program = _cases_for(program_spec(spec.raw["program"]), public_only)
    ref = reference_path(spec)
    python = program.languages.get("python") or LanguageSpec("python", ("python3", "-u", "{main}"))
    deck_env = program.languages[language].deck_env if language in program.languages else ""
    lang = LanguageSpec("python", python.run, (), deck_env)
    runner = _Runner(program, lang, {ref.name: ref.read_bytes()}, _command(python.run, ref.name, ""))
    reference = load_trusted_module(ref, "reference")
    return tuple(runner.run_case(case, case_player(case, reference)[0]).time_s
                 for case in program.cases if case.get("timed", True))


def speed_score(student: list[float], reference: tuple[float, ...], factors: tuple[float, float],
                points: float) -> tuple[float, dict[str, Any]]:
    """Full points up to ``full`` x the reference's time, none from ``zero`` x, linear between."""
    mine, theirs = sum(student), max(sum(reference), 1e-3)
    ratio = mine / theirs
    full, zero = factors
    share = 1.0 if ratio <= full else 0.0 if ratio >= zero else (zero - ratio) / (zero - full)
    return points * share, {"time_s": round(mine, 3), "reference_s": round(theirs, 3), "ratio": round(ratio, 2),
                            "full_within": full, "zero_at": zero, "score": round(points * share, 3),
                            "max_score": points}


def _cases_for(program: ProgramSpec, public_only: bool) -> ProgramSpec:
    """A student's self-check runs the public cases only, as for function assignments."""
    if not public_only:
        return program
    return dataclasses.replace(program, cases=tuple(c for c in program.cases if c.get("visibility", "hidden") == "public"))


def grade_program(spec: Any, submission_id: str, files: Mapping[str, bytes], *, limits: Any = None,
                  profile: Any = None, public_only: bool = False) -> SubmissionResult:
    """Grade one submission of a ``kind: program`` spec (only its public cases for a self-check)."""
    started = time.monotonic()
    program = _cases_for(program_spec(spec.raw["program"]), public_only)
    digest = hashlib.sha256(b"".join(name.encode() + b"\0" + files[name] for name in sorted(files))).hexdigest()[:16]
    base = dict(submission=submission_id, assignment=spec.assignment, max_score=program.max_score,
                spec_digest=getattr(spec, "digest", ""), submission_digest=digest, isolation=sandbox.isolation(profile))
    detected = detect_language(files)
    if detected is None or detected[0] not in program.languages:
        wanted = " or ".join(f"*.{'py' if n == 'python' else n}" for n in program.languages)
        error = SubmissionError("missing_file", f"no program file found: hand in {wanted}")
        return _finish(base, started, program, {}, [], errors=[error], extra={})
    language_name, main_file = detected
    language = program.languages[language_name]
    source = files[main_file].decode("utf-8", "replace")
    style = check_style(language_name, main_file, source, program.style, program.weights["style"])
    build = _build(language, main_file, files, program, _limits(program, language, limits), profile)
    extra: dict[str, Any] = {"language": language_name, "main_file": main_file, "style": style.to_json()}
    if build.errors:
        extra["compile_output"] = build.output[-4000:]
        errors = [SubmissionError("compile_error", e.message, line=e.line) for e in build.errors]
        score = program.on_compile_error.score
        tests = [TestResult(name="compile", function="games", visibility="public", status="error", score=0.0,
                            max_score=program.max_score, message=build.errors[0].describe(main_file))]
        return _finish(base, started, program, {}, tests, errors=errors, extra=extra, forced=score)
    reference = load_trusted_module(reference_path(spec), "reference")
    runner = _Runner(program, language, build.files, build.argv, limits, profile)
    verdicts: list[CaseVerdict] = []
    total_weight = sum(float(c.get("weight", 1.0)) for c in program.cases)
    times: list[float] = []
    for case in program.cases:
        share = float(case.get("weight", 1.0)) / total_weight
        player, games = case_player(case, reference)
        record = runner.run_case(case, player)
        verdict = judge_case(case, record, reference, planned_games=games,
                             points=program.weights["games"] * share, wording_points=program.weights["wording"] * share,
                             main_file=build.main_file)
        verdicts.append(verdict)
        if case.get("timed", True):
            times.append(record.time_s if not verdict.crash else program.session_s)
    crashes = [v.crash for v in verdicts if v.crash]
    tests = [t for v in verdicts for t in v.tests]
    reference_times = _reference_times(str(spec.path), getattr(spec, "digest", ""), language_name, public_only)
    speed, speed_info = speed_score(times, reference_times, program.speed[language_name], program.weights["speed"])
    if crashes:
        speed, speed_info["score"] = 0.0, 0.0
        speed_info["note"] = "no speed points for a program that crashes"
    extra["speed"] = speed_info
    tests.append(TestResult(name="speed", function="speed", visibility="public",
                            status="passed" if speed >= program.weights["speed"] - 1e-9 else "failed",
                            score=round(speed, 4), max_score=program.weights["speed"],
                            message=f"{speed_info['ratio']}x the reference's time "
                                    f"(full points within {speed_info['full_within']}x)"))
    tests.extend(style.tests())
    scores = {
        "games": (sum(v.games_score for v in verdicts), sum(v.games_max for v in verdicts)),
        "wording": (sum(v.wording_score for v in verdicts), sum(v.wording_max for v in verdicts)),
        "speed": (speed, program.weights["speed"]),
        "style": (style.score, style.max_score),
    }
    errors = [SubmissionError("crash", c.message, line=c.line) for c in crashes]
    forced = None
    if crashes and program.on_crash.scope == "submission":
        forced = program.on_crash.score
        extra["crash_rule"] = f"a program that crashes scores {forced:g} (spec: on_crash)"
    return _finish(base, started, program, scores, tests, errors=errors, extra=extra, forced=forced)


def _build(language: LanguageSpec, main_file: str, files: Mapping[str, bytes], program: ProgramSpec,
           limits: sandbox.Limits, profile: Any) -> BuildResult:
    if language.name == "java":
        return compile_java(language, main_file, files, timeout=program.compile_s, limits=limits, profile=profile)
    error = python_syntax_error(main_file, files[main_file])
    argv = _command(language.run, main_file, "")
    return BuildResult(files=dict(files), argv=argv, main_file=main_file, errors=[error] if error else [])


def _finish(base: dict[str, Any], started: float, program: ProgramSpec, scores: Mapping[str, tuple[float, float]],
            tests: list[TestResult], *, errors: list[SubmissionError], extra: dict[str, Any],
            forced: float | None = None) -> SubmissionResult:
    functions = {
        name: FunctionResult(name=name, score=round(scores.get(name, (0.0, 0.0))[0], 4),
                             max_score=program.weights[name], found_as=name if name in scores else None)
        for name in CRITERIA
    }
    score = sum(f.score for f in functions.values())
    if forced is not None:
        extra["score_before_penalty"] = round(score, 4)
        score = min(score, forced)
    return SubmissionResult(score=round(score, 4), functions=functions, tests=tuple(tests), errors=tuple(errors),
                            duration_s=time.monotonic() - started, extra=extra, **base)
