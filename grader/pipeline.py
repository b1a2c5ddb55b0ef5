"""Grade one function submission: static checks -> sandboxed calls -> judge -> verdict.

This is the pipeline the README's architecture section describes, for one submission;
batch.py runs it over a class. It reads like the sentence: check the bans, load the file
in the sandbox, call every function on every case, judge each answer, total the scores.
"""
from __future__ import annotations

import difflib
import time
from typing import Any, Sequence, cast

from grader.judge.compare import JudgeContext
from grader.judge.score import Observation, judge_case, score_function, total
from grader.judge.timeouts import TimeoutStreak
from grader.judge.verdict import ErrorKind, SubmissionError, SubmissionResult, TestResult, Violation
from grader.plan import Plan, PlannedCase
from grader.run.model import LoadResult
from grader.run.sandbox import CallResult, Sandbox
from grader.spec.model import FunctionSpec, Spec
from grader.static.banscan import static_violations
from grader.languages import get_language
from grader.static.syntax import excerpt, syntax_problem
from grader.submissions import Submission, wrong_language


def observe(result: CallResult, limit: float) -> Observation:
    """Phrase what the sandbox saw in the student's terms; tracebacks go to staff only."""
    staff: dict[str, Any] = {}
    if result.exception:
        staff["traceback"] = result.exception.get("traceback", "")
    if result.status == "ok":
        return Observation("returned", result.value, result.time_s, result.stdout, staff=staff)
    if result.status == "error":
        exc = result.exception or {}
        if exc.get("type") == "OSError" and "[Errno 27]" in exc.get("message", ""):
            return Observation("raised", None, result.time_s, result.stdout,
                               "printed or wrote more than the sandbox's file-size limit allows; print less", staff)
        where = f" on line {exc['lineno']}: {exc['line'].strip()}" if exc.get("lineno") and exc.get("line") else (f" on line {exc['lineno']}" if exc.get("lineno") else "")
        message = f"raised {exc.get('type', 'an exception')}: {exc.get('message', '')}".rstrip(": ") + where
        return Observation("raised", None, result.time_s, result.stdout, message, staff)
    if result.status == "timeout":
        detail = f" ({result.detail})" if result.detail else ""
        return Observation("timeout", None, result.time_s, result.stdout, f"did not finish within the {limit:.3g} s time limit{detail}", staff)
    if result.status == "protocol":
        return Observation("raised", None, result.time_s, result.stdout, f"the result could not be accepted: {result.detail}", staff)
    return Observation("crashed", None, result.time_s, result.stdout, f"the program crashed: {result.detail or 'the process died'}", staff)


def runtime_violations(result: CallResult, fn: FunctionSpec, case_name: str) -> list[Violation]:
    counts = fn.bans.penalty != "warn"
    found = [
        Violation(
            rule="banned-call",
            banned=hit.get("banned", "?"),
            layer="runtime",
            line=hit.get("line"),
            functions=(fn.name,),
            case=case_name,
            counts=counts,
            message=f"called banned {hit.get('banned')} while running case {case_name}",
        )
        for hit in result.watch_hits
    ]
    if result.tampered:
        found.append(Violation(rule="tampering", banned="sys.setprofile", layer="runtime", line=None, functions=(fn.name,), case=case_name, counts=True,
                               message=f"removed or replaced the grader's call monitor while running case {case_name}"))
    return found


def load_error(load: LoadResult, source: str, filename: str, *, parses_as_python: bool) -> SubmissionError:
    """Why the file did not load, said once: the language's words, the line, and for a Python
    syntax error a caret under the spot (the parent parses the source itself: nothing runs)."""
    if load.kind == "syntax" and parses_as_python:
        found = syntax_problem(source, filename)
        if found is not None:
            return SubmissionError("syntax", found.message, line=found.lineno, excerpt=found.excerpt or None)
    shown = excerpt(load.line, None) if load.line else None
    return SubmissionError(cast(ErrorKind, load.kind), load.message, line=load.lineno, excerpt=shown)


def _folded(name: str) -> str:
    return name.replace("_", "").lower()


def find_function(fn: FunctionSpec, names: Sequence[str], taken: Sequence[str] = ()) -> tuple[str | None, str]:
    """The name the student gave the function, or why it was not found, with the likely misspelling.

    ``taken``: the other graded functions' names, never offered as a guess."""
    for name in fn.accepted_names:
        if name in names:
            return name, ""
    others = [n for n in names if n not in taken and not n.startswith("__")]
    folded = {_folded(n): n for n in others}
    near = [folded[f] for f in difflib.get_close_matches(_folded(fn.name), list(folded), n=1, cutoff=0.75)]
    case = "; names are case-sensitive" if near and near[0].lower() == fn.name.lower() else ""
    hint = f" (your file defines {near[0]}: did you mean {fn.name}?{case})" if near else ""
    return None, f"function {fn.name} is not defined{hint}"


def _not_run(fn: FunctionSpec, planned: Sequence[PlannedCase], message: str, context_for: Any) -> list[TestResult]:
    seen = Observation("not-run", message=message)
    return [judge_case(fn, p.case, p.expected, seen, context_for(p)) for p in planned]


class FunctionGrader:
    """Grades one submission against a plan, inside one sandbox slot."""

    def __init__(self, plan: Plan, sandbox: Sandbox):
        self.plan = plan
        self.spec: Spec = plan.spec
        self.sandbox = sandbox

    def context(self, fn: FunctionSpec, planned: PlannedCase) -> JudgeContext:
        return JudgeContext(args=planned.case.args, reference=self.plan.reference, function=fn.name,
                            validators=self.plan.validators)

    def grade(self, submission: Submission) -> SubmissionResult:
        started = time.perf_counter()
        errors = [SubmissionError(kind, message) for kind, message in submission.problems]
        errors += [SubmissionError(SubmissionError.NOTE, note) for note in submission.notes]
        if submission.problems:
            return self._without_running(submission, errors, started, submission.problems[0][1])
        if submission.language not in self.spec.languages:
            message = wrong_language(submission.main or submission.id, [get_language(n) for n in self.spec.languages])
            errors.append(SubmissionError("wrong-language", message))
            return self._without_running(submission, errors, started, message)
        language = submission.lang
        source = submission.source()
        assert submission.main is not None  # no problems, so discovery found a main file
        violations = static_violations(self.spec, language, source, submission.main, submission.files)
        watch = sorted({name for fn in self.spec.functions if fn.bans.runtime != "off" for name in fn.bans.names}) if language.runtime_bans else []
        suspicious = any(violations.values())
        with language.open_session(self.sandbox, submission.files, submission.main, watch=watch) as session:
            load = session.load
            if not load.ok:
                errors.append(load_error(load, source, submission.main, parses_as_python=".py" in language.suffixes))
                return self._without_running(submission, errors, started, "not run: the file could not be loaded (see above)",
                                             stdout=load.stdout)
            functions, tests = {}, []
            streak = TimeoutStreak(0)
            for fn in self.spec.functions:
                streak.limit = fn.stop_after_timeouts
                taken = [n for other in self.spec.functions if other is not fn for n in other.accepted_names]
                found_as, missing = find_function(fn, load.names, taken)
                fn_violations = [v for v in violations.get(fn.name, [])]
                planned = self.plan.for_function(fn.name)
                if found_as is None:
                    errors.append(SubmissionError("missing-function", missing, function=fn.name))
                    fn_tests = _not_run(fn, planned, f"not run: {missing}", lambda p, fn=fn: self.context(fn, p))
                    streak.reset()
                else:
                    hidden_index = {id(p): i for i, p in enumerate(q for q in planned if not q.case.is_public)}
                    watch_flags = [fn.bans.watches(hidden_index.get(id(p), 0), p.case.is_public, suspicious) for p in planned]
                    # every session takes stop= (the consecutive-timeout rule); a language that
                    # reads the expected values gets them too
                    options: dict[str, Any] = {"stop": streak.should_stop}
                    if language.wants_expected:
                        options["expected"] = [p.expected for p in planned]
                    calls = session.call_many(found_as, [(list(p.case.args), p.time_limit) for p in planned], watch=watch_flags,
                                              **options)
                    fn_tests = []
                    for p, call in zip(planned, calls):
                        fn_violations += runtime_violations(call, fn, p.case.name)
                        fn_tests.append(judge_case(fn, p.case, p.expected, observe(call, p.time_limit), self.context(fn, p)))
                    skipped = planned[len(calls):]
                    fn_tests += [judge_case(fn, p.case, p.expected, streak.skipped(fn.name, len(skipped)), self.context(fn, p)) for p in skipped]
                    streak.finish(calls, len(skipped))
                result, fn_tests = score_function(fn, fn_tests, fn_violations, found_as)
                functions[fn.name] = result
                tests += fn_tests
            return total(self.spec, submission.id, functions, tests, errors, isolation=self.sandbox.profile.name,
                         duration_s=time.perf_counter() - started, submission_digest=submission.digest, stdout=load.stdout)

    def _without_running(self, submission: Submission, errors: list[SubmissionError], started: float, message: str, stdout: str = "") -> SubmissionResult:
        functions, tests = {}, []
        for fn in self.spec.functions:
            fn_tests = _not_run(fn, self.plan.for_function(fn.name), message, lambda p, fn=fn: self.context(fn, p))
            functions[fn.name], fn_tests = score_function(fn, fn_tests, [], None)
            tests += fn_tests
        return total(self.spec, submission.id, functions, tests, errors, isolation=self.sandbox.profile.name,
                     duration_s=time.perf_counter() - started, submission_digest=submission.digest, stdout=stdout)
