"""Grade one function submission: static checks -> sandboxed calls -> judge -> verdict.

This is the pipeline the README's architecture section describes, for one submission;
batch.py runs it over a class. It reads like the sentence: check the bans, load the file
in the sandbox, call every function on every case, judge each answer, total the scores.
"""
from __future__ import annotations

import difflib
import time
from dataclasses import replace
from typing import Any, Sequence, cast

from grader.judge.compare import JudgeContext
from grader.judge.score import Observation, judge_case, score_function, total
from grader.judge.timeouts import TimeoutRule
from grader.judge.verdict import ErrorKind, SubmissionError, SubmissionResult, TestResult, Violation
from grader.plan import Plan, PlannedCase
from grader.run.sandbox import CallResult, LoadResult, Sandbox
from grader.spec.model import Case, FunctionSpec, Spec
from grader.static.banscan import static_violations
from grader.static.syntax import excerpt, syntax_problem
from grader.languages import Language, get_language
from grader.submissions import Submission, wrong_language


def observe(result: CallResult, limit: float, public: bool = True) -> Observation:
    """Phrase what the sandbox saw in the student's terms; tracebacks go to staff only.

    Of a hidden case the student learns the outcome and nothing the code chose: an
    exception's type and message, an exit code or printed text could carry the case's
    inputs out, so they go to the staff-only field and the message is the parent's own.
    """
    seen = _observe(result, limit)
    if public or seen.outcome == "returned":
        return seen
    generic = {"raised": "raised an exception on a hidden case", "crashed": "crashed on a hidden case",
               "timeout": f"did not finish within the {limit:.3g} s time limit on a hidden case"}[seen.outcome]
    return replace(seen, stdout="", message=generic, staff={**seen.staff, "message": seen.message})


def _observe(result: CallResult, limit: float) -> Observation:
    staff: dict[str, Any] = {}
    if result.exception:
        staff["traceback"] = result.exception.get("traceback", "")
    if result.status == "ok":
        return Observation("returned", result.value, result.time_s, result.stdout, "", staff)
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


def _unloaded(load: LoadResult) -> CallResult:
    """The hidden cases' verdict when the module loaded for the public ones but not again."""
    return CallResult("crashed", detail=f"the module could not be loaded again for the hidden cases ({load.kind})")


#: The least CPU time a ``state: fresh`` case's session has to load the file: its case's limit
#: bounds what a slow import costs per case, and this keeps a tight limit from failing an honest
#: import (numpy takes ~0.2 s).
FRESH_LOAD_FLOOR_S = 1.0
#: What a tampering finding names as banned: the monitor itself, in words that hold for every language
#: (Python's profile hook and Octave's tripwire alike).
TAMPERED = "the grader's call monitor"


def _reload_failed(load: LoadResult) -> CallResult:
    """A ``state: fresh`` case whose own session did not load the file (it loaded once before)."""
    if load.kind == "timeout":
        return CallResult("timeout", detail=f"loading the file again for this case: {load.message}; each case of this "
                                            "function runs in a new session, and its import has the case's time limit "
                                            f"(at least {FRESH_LOAD_FLOOR_S:g} s)")
    return CallResult("crashed", detail=f"the file could not be loaded again: {load.message}")


def runtime_violations(result: CallResult, fn: FunctionSpec, case: Case, language: Language) -> list[Violation]:
    """The banned calls and tampering a case's run reported.  Of a hidden case, no line: the
    line is the code's to choose (``code.replace(co_firstlineno=...)``), and a red team spelt
    every hidden input out in the lines of the findings."""
    if not result.watch_hits and not result.tampered:
        return []       # nearly every call: asked for every case of every submission
    counts = fn.bans.penalty != "warn"
    case_name = case.name
    found = []
    for hit in result.watch_hits:
        banned = language.policy_name(str(hit.get("banned", "?")), fn.bans.names)
        if banned is not None:
            line = hit.get("line") if case.is_public else None
            found.append(Violation(rule="banned-call", banned=banned, layer="runtime", line=line,
                                   functions=(fn.name,), case=case_name, counts=counts,
                                   message=f"called banned {hit.get('banned')} while running case {case_name}"))
    if result.tampered:
        found.append(Violation(rule="tampering", banned=TAMPERED, layer="runtime", line=None, functions=(fn.name,), case=case_name, counts=True,
                               message=f"removed or replaced the grader's call monitor while running case {case_name}"))
    return found


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


def load_error(load: LoadResult, source: str, filename: str, *, parses_as_python: bool) -> SubmissionError:
    """Why the file did not load, said once: the language's words, the line, and for a Python
    syntax error a caret under the spot (the parent parses the source itself: nothing runs)."""
    if load.kind == "syntax" and parses_as_python:
        found = syntax_problem(source, filename)
        if found is not None:
            return SubmissionError("syntax", found.message, line=found.lineno, excerpt=found.excerpt or None)
    shown = excerpt(load.line, None) if load.line else None
    return SubmissionError(cast(ErrorKind, load.kind), load.message, line=load.lineno, excerpt=shown)


def _not_run(fn: FunctionSpec, planned: Sequence[PlannedCase], message: str, context_for: Any) -> list[TestResult]:
    seen = Observation("not-run", message=message)
    return [judge_case(fn, p.case, p.expected, seen, context_for(p)) for p in planned]


def watch_list(spec: Spec) -> tuple[str, ...]:
    """The banned callables a session watches at run time (the union over the functions)."""
    return tuple(sorted({name for fn in spec.functions if fn.bans.runtime != "off" for name in fn.bans.names}))


class FunctionGrader:
    """Grades one submission against a plan, inside one sandbox slot."""

    def __init__(self, plan: Plan, sandbox: Sandbox):
        self.plan = plan
        self.spec: Spec = plan.spec
        self.sandbox = sandbox
        self._contexts: dict[int, JudgeContext] = {}   # by id of the plan's PlannedCase (the plan holds them)

    def context(self, fn: FunctionSpec, planned: PlannedCase) -> JudgeContext:
        """The case's judge context, the same for every submission: made once per grader."""
        found = self._contexts.get(id(planned))
        if found is None:
            found = self._contexts[id(planned)] = JudgeContext(
                args=planned.case.args, reference=self.plan.reference, function=fn.name,
                validators=self.plan.validators, answers=planned.answers)
        return found

    def grade(self, submission: Submission) -> SubmissionResult:
        started = time.perf_counter()
        errors = [SubmissionError(kind, message) for kind, message in submission.problems]
        errors += [SubmissionError(SubmissionError.NOTE, note) for note in submission.notes]
        if submission.problems:
            return self._without_running(submission, errors, started, f"not run: {submission.problems[0][1]}")
        if submission.language not in self.spec.languages:
            message = wrong_language(submission.main or submission.id, [get_language(n) for n in self.spec.languages])
            errors.append(SubmissionError("wrong-language", message))
            return self._without_running(submission, errors, started, f"not run: {message}")
        language = submission.lang
        source = submission.source()
        assert submission.main is not None  # no problems, so discovery found a main file
        violations = static_violations(self.spec, language, source, submission.main, submission.files)
        public: list[PlannedCase] = []
        hidden: list[PlannedCase] = []
        for fn in self.spec.functions:
            for p in self.plan.for_function(fn.name):
                (public if p.case.is_public else hidden).append(p)
        # Public and hidden cases never share a process: whatever a submission keeps from a
        # hidden case (inputs in a global, a file) cannot come back out through a public one.
        # The consecutive-timeout rule is the parent's: one count over both sessions.
        rule = TimeoutRule(self.spec.functions)
        load, calls, skipped = self._run_cases(submission, public or hidden, rule)
        if not load.ok:
            errors.append(load_error(load, source, submission.main, parses_as_python=".py" in language.suffixes))
            return self._without_running(submission, errors, started, "not run: the file could not be loaded (see above)",
                                         stdout=load.stdout)
        if public and hidden:
            skipped |= {id(p) for p in hidden if rule.stopped(p.case.function)}
            defined = {fn.name for fn in self.spec.functions if find_function(fn, load.names)[0] is not None}
            left = [p for p in hidden if id(p) not in skipped and p.case.function in defined]
            if left:   # a submission whose every function was stopped opens no second session
                hidden_load, hidden_calls, hidden_skipped = self._run_cases(submission, left, rule)
                calls.update(hidden_calls if hidden_load.ok else
                             {id(p): _unloaded(hidden_load) for p in left})
                skipped |= hidden_skipped if hidden_load.ok else set()
        self.sandbox.prepare(2 if public and hidden else 1)   # the next submission's sessions, while this one is judged
        functions, tests = {}, []
        for fn in self.spec.functions:
            taken = [n for other in self.spec.functions if other is not fn for n in other.accepted_names]
            found_as, missing = find_function(fn, load.names, taken)
            fn_violations = list(violations.get(fn.name, []))
            planned = self.plan.for_function(fn.name)
            if found_as is None:
                errors.append(SubmissionError("missing-function", missing, function=fn.name))
                fn_tests = _not_run(fn, planned, f"not run: {missing}", lambda p, fn=fn: self.context(fn, p))
            else:
                fn_tests = []
                not_run = rule.skipped(fn.name, sum(id(p) in skipped for p in planned))
                for p in planned:
                    if id(p) in skipped:   # the consecutive-timeout rule: a timeout, with the reason
                        fn_tests.append(judge_case(fn, p.case, p.expected, not_run, self.context(fn, p)))
                        continue
                    call = calls[id(p)]
                    fn_violations += runtime_violations(call, fn, p.case, language)
                    fn_tests.append(judge_case(fn, p.case, p.expected, observe(call, p.time_limit, p.case.is_public),
                                               self.context(fn, p)))
            result, fn_tests = score_function(fn, fn_tests, fn_violations, found_as)
            functions[fn.name] = result
            tests += fn_tests
        return total(self.spec, submission.id, functions, tests, errors, isolation=self.sandbox.profile.name,
                     duration_s=time.perf_counter() - started, submission_digest=submission.digest, stdout=load.stdout)

    def _run_cases(self, submission: Submission, planned: Sequence[PlannedCase], rule: TimeoutRule
                   ) -> tuple[LoadResult, dict[int, CallResult], set[int]]:
        """Load the submission in a fresh session and run ``planned`` there, one case at a time;
        the cases the consecutive-timeout rule skipped come back apart, by id."""
        language = submission.lang
        watch = list(watch_list(self.spec)) if language.runtime_bans else []
        calls: dict[int, CallResult] = {}
        skipped: set[int] = set()
        assert submission.main is not None
        by_function: dict[str, list[PlannedCase]] = {}
        for p in planned:
            by_function.setdefault(p.case.function, []).append(p)
        with language.open_session(self.sandbox, submission.files, submission.main, watch=watch) as session:
            if not session.load.ok:
                return session.load, calls, skipped
            for fn in self.spec.functions:
                found_as, _ = find_function(fn, session.load.names)
                mine = by_function.get(fn.name, [])
                if found_as is None:
                    rule.missing(fn.name)
                if found_as is None or not mine:
                    continue
                rule.begin(fn.name)
                # The tripwires cost nothing until a banned callable is called: every case is watched.
                watched = bool(watch) and bool(fn.bans.names) and fn.bans.runtime != "off"
                options: dict[str, Any] = {"stop": lambda results, name=fn.name: rule.should_stop(name, results)}
                if getattr(session, "batches", False) and all(p.case.is_public for p in mine):
                    options["batch"] = True     # public cases hide nothing: several per request
                if language.wants_expected:
                    options["expected"] = [p.expected for p in mine]
                if fn.state == "fresh":
                    results = self._fresh_calls(submission, found_as, mine, watch, watched, rule)
                else:
                    results = session.call_many(found_as, [(p.call_args, p.time_limit) for p in mine],
                                                watch=watched, **options)
                calls.update((id(p), r) for p, r in zip(mine, results))
                rest = mine[len(results):]
                skipped.update(id(p) for p in rest)
                rule.finish(fn.name, results, len(rest))
            return session.load, calls, skipped

    def _fresh_calls(self, submission: Submission, found_as: str, mine: Sequence[PlannedCase], watch: list[str],
                     watched: bool, rule: TimeoutRule) -> list[CallResult]:
        """``state: fresh``: each case in a session of its own, so module-level state left by
        one unrelated case never reaches the next (a game player that remembers its game).

        Each of those sessions loads the file again under the case's own time limit (at least
        ``FRESH_LOAD_FLOOR_S``): the first load had the usual 10 s, and a file whose import takes
        seconds would otherwise cost that once per case (60 play states: ten minutes of one slot
        for a 10 s import)."""
        language = submission.lang
        assert submission.main is not None
        results: list[CallResult] = []
        for p in mine:
            if results and rule.should_stop(p.case.function, results):
                break
            options: dict[str, Any] = {"expected": [p.expected]} if language.wants_expected else {}
            with language.open_session(self.sandbox, submission.files, submission.main, watch=watch,
                                       load_time_limit=max(p.time_limit, FRESH_LOAD_FLOOR_S)) as fresh:
                if not fresh.load.ok:  # loaded once already: a second failure is this case's
                    results.append(_reload_failed(fresh.load))
                    continue
                results += fresh.call_many(found_as, [(p.call_args, p.time_limit)], watch=watched, **options)
        return results

    def _without_running(self, submission: Submission, errors: list[SubmissionError], started: float, message: str, stdout: str = "") -> SubmissionResult:
        functions, tests = {}, []
        for fn in self.spec.functions:
            fn_tests = _not_run(fn, self.plan.for_function(fn.name), message, lambda p, fn=fn: self.context(fn, p))
            functions[fn.name], fn_tests = score_function(fn, fn_tests, [], None)
            tests += fn_tests
        return total(self.spec, submission.id, functions, tests, errors, isolation=self.sandbox.profile.name,
                     duration_s=time.perf_counter() - started, submission_digest=submission.digest, stdout=stdout)
