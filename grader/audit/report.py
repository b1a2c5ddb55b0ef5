"""What an audit found, in the instructor's terms: scores per function, survivors, cases to add."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import yaml

from .run import Audit, Verdict

#: The mutation score every function of a shipped spec must reach.
TARGET = 0.9


@dataclass(frozen=True)
class Score:
    function: str
    killed: int
    survived: int
    equivalent: int

    @property
    def value(self) -> float:
        """Killed over non-equivalent mutants (1.0 when every mutant is equivalent)."""
        graded = self.killed + self.survived
        return self.killed / graded if graded else 1.0


def scores(audit: Audit) -> list[Score]:
    counts: dict[str, Counter[str]] = {name: Counter() for name in audit.probes}
    for verdict in audit.verdicts:
        counts[verdict.function][verdict.status] += 1
    return [Score(name, c["killed"], c["survived"], c["equivalent"]) for name, c in counts.items()]


def survivors(audit: Audit, function: str) -> list[Verdict]:
    return [v for v in audit.verdicts if v.function == function and v.status == "survived"]


def _plain(value: Any) -> Any:
    """YAML-safe plain data: tuples become lists."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _flow(value: Any) -> str:
    return yaml.safe_dump(_plain(value), default_flow_style=True, width=10_000, sort_keys=False).strip().removesuffix("...").strip()


def suggest(audit: Audit, function: str, limit: int) -> tuple[list[int], int]:
    """Up to ``limit`` fresh inputs that kill the most survivors (greedy cover); and how many they kill."""
    left = {v.mutant: set(v.witnesses) for v in survivors(audit, function)}
    chosen: list[int] = []
    killed = 0
    while left and len(chosen) < limit:
        hits = Counter(i for witnesses in left.values() for i in witnesses)
        if not hits:
            break
        best, count = max(hits.items(), key=lambda item: (item[1], -item[0]))
        chosen.append(best)
        killed += count
        left = {m: w for m, w in left.items() if best not in w}
    return chosen, killed


def suggestion_yaml(audit: Audit, function: str, limit: int) -> str:
    """Cases to paste under the function's ``cases:``, each pinned to the reference's answer."""
    chosen, killed = suggest(audit, function, limit)
    if not chosen:
        return ""
    probes = audit.probes[function].extra
    lines = [f"      # {function}: {len(chosen)} case(s) that kill {killed} of {len(survivors(audit, function))} surviving mutant(s)"]
    for n, index in enumerate(chosen, 1):
        probe = probes[index]
        lines.append(f"      - name: audit_{n}    # from {probe.name}")
        lines.append(f"        args: {_flow(probe.args)}")
        lines.append(f"        expected: {_flow(probe.expected)}")
    return "\n".join(lines)


def render(audit: Audit, *, suggest_n: int = 0, show_equivalent: bool = False) -> str:
    """The audit report: one line per function, then each survivor as a diff with an input that exposes it."""
    out = [f"mutation audit of {audit.spec.path} (reference {audit.spec.reference.name if audit.spec.reference else '?'})",
           f"{len(audit.mutants)} mutants; {audit.unreached} in code no graded function reaches",
           "", f"{'function':32} {'killed':>6} {'survived':>8} {'equivalent':>10} {'score':>7}"]
    for s in scores(audit):
        flag = "" if s.value >= TARGET else f"   below {TARGET:.0%}"
        out.append(f"{s.function:32} {s.killed:6} {s.survived:8} {s.equivalent:10} {s.value:7.1%}{flag}")
    samples = {name: len(p.extra) for name, p in audit.probes.items()}
    out.append("")
    out.append("score = killed / (killed + survived). 'equivalent' = passed the spec's cases and agreed with the")
    out.append(f"reference on every fresh generator input too ({', '.join(f'{n}: {k}' for n, k in samples.items())} inputs).")
    for s in scores(audit):
        for verdict in survivors(audit, s.function):
            mutant = audit.mutants[verdict.mutant]
            probe = audit.probes[s.function].extra[verdict.witnesses[0]]
            out += ["", f"SURVIVOR #{mutant.id} in {s.function} ({mutant.operator}: {mutant.description})", mutant.diff.rstrip(),
                    f"  exposed by {probe.name}: {s.function}({_flow(list(probe.args))[1:-1]})"]
    if show_equivalent:
        for verdict in (v for v in audit.verdicts if v.status == "equivalent"):
            mutant = audit.mutants[verdict.mutant]
            out += ["", f"EQUIVALENT #{mutant.id} for {verdict.function} ({mutant.operator}: {mutant.description})", mutant.diff.rstrip()]
    if suggest_n:
        blocks = [text for s in scores(audit) if (text := suggestion_yaml(audit, s.function, suggest_n))]
        out += ["", "suggested cases (paste under each function's `cases:`):" if blocks else "no survivors: nothing to suggest", *blocks]
    timing = ", ".join(f"{k} {v:.1f} s" for k, v in audit.timings.items())
    out += ["", f"audit took {audit.elapsed_s:.1f} s ({timing})"]
    return "\n".join(out)
