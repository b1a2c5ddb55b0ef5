"""Run the ban analysis for a spec and attach each finding to the graded functions it costs."""
from __future__ import annotations

from collections import defaultdict

from typing import TYPE_CHECKING, Mapping

from grader.judge.verdict import Violation
from grader.spec.model import BanPolicy, Spec
from grader.static.bans import Finding

if TYPE_CHECKING:
    from grader.languages import Language


def combined_policy(spec: Spec) -> BanPolicy:
    """One analysis covers every function: the union of names, the assignment's policy otherwise."""
    names = tuple(dict.fromkeys(n for fn in spec.functions for n in fn.bans.names))
    base = spec.bans
    return BanPolicy(names=names, penalty=base.penalty, deduct=base.deduct, scope=base.scope,
                     dynamic_code=base.dynamic_code, runtime=base.runtime)


def findings_for(spec: Spec, language: "Language", source: str, filename: str,
                 files: Mapping[str, bytes] | None = None) -> list[Finding]:
    """The language's static ban findings for one file, under the union of the spec's bans."""
    policy = combined_policy(spec)
    if not policy.names:
        return []
    graded = {fn.name: fn.accepted_names for fn in spec.functions}
    return language.ban_findings(source, filename, policy, graded, files=files)


def static_violations(spec: Spec, language: "Language", source: str, filename: str,
                      files: Mapping[str, bytes] | None = None) -> dict[str, list[Violation]]:
    """Graded function name -> the static violations that apply to it under its own policy."""
    out: dict[str, list[Violation]] = defaultdict(list)
    for finding in findings_for(spec, language, source, filename, files):
        for fn in spec.functions:
            if fn.name not in finding.functions:
                continue
            policy = fn.bans
            if not finding.evasion and finding.banned not in policy.names:
                continue
            counts = policy.penalty != "warn" and (not finding.evasion or policy.dynamic_code == "violation")
            out[fn.name].append(
                Violation(
                    rule=finding.rule,
                    banned=finding.banned,
                    layer="static",
                    line=finding.line,
                    col=finding.col,
                    source_line=finding.source_line,
                    functions=tuple(finding.functions),
                    evasion=finding.evasion,
                    counts=counts,
                    message=finding.message,
                )
            )
    return out
