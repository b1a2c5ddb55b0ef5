"""What ``grader similarity`` writes and shows: pairs.csv, problems.csv, the HTML pages, the terminal lines."""
from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Sequence

from grader.reports._atomic import atomic_write_text
from grader.similarity import html
from grader.similarity.languages import language_of
from grader.similarity.run import Outcome
from grader.submissions import Submission
from grader.textsafe import csv_safe, terminal_safe


def _csv(rows: list[list[str]]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue()


def pairs_csv(outcome: Outcome) -> str:
    """One row per pair sharing code: the pair, its score, each side's matched fraction, the longest match."""
    rows = [["a", "b", "score", "fraction_a", "fraction_b", "longest_match_tokens", "longest_match_lines", "flagged"]]
    for p in outcome.pairs:
        rows.append([csv_safe(p.a), csv_safe(p.b), f"{p.score:.4f}", f"{p.fraction_a:.4f}", f"{p.fraction_b:.4f}",
                     str(p.longest_tokens), str(p.longest_lines), "yes" if p.score >= outcome.threshold else "no"])
    return _csv(rows)


def problems_csv(outcome: Outcome) -> str:
    """Submissions left out, and caveats about the ones compared, in the user's words."""
    rows = [["id", "compared", "message"]]
    rows += [[csv_safe(i), "no", csv_safe(why)] for i, why in outcome.left_out]
    rows += [[csv_safe(i), "yes", csv_safe(why)] for i, why in outcome.notes]
    return _csv(rows)


def _sources(sub: Submission) -> dict[str, str]:
    return {name: data.decode("utf-8", "replace") for name, data in sorted(sub.files.items())
            if language_of(name) and b"\0" not in data}


def write_reports(outcome: Outcome, submissions: Sequence[Submission], out_dir: Path) -> list[Path]:
    """Write every report into ``out_dir``: a page for each pair the outcome carries regions for."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "pairs").mkdir(exist_ok=True)
    by_id = {s.id: s for s in submissions}
    linked = outcome.pages
    written = [
        atomic_write_text(out_dir / "pairs.csv", pairs_csv(outcome)),
        atomic_write_text(out_dir / "problems.csv", problems_csv(outcome)),
        atomic_write_text(out_dir / "index.html", html.index_page(outcome, linked)),
    ]
    if outcome.clusters:
        written.append(atomic_write_text(out_dir / "clusters.html", html.clusters_page(outcome.clusters, outcome.pairs, linked)))
    for i in sorted(linked):
        pair = outcome.pairs[i - 1]
        text = html.pair_page(i, pair, _sources(by_id[pair.a]), _sources(by_id[pair.b]), outcome.threshold)
        written.append(atomic_write_text(out_dir / "pairs" / f"{i:04d}.html", text))
    return written


def terminal_lines(outcome: Outcome, *, top: int) -> list[str]:
    """The top pairs as a plain table, then who was left out and why."""
    lines = []
    shown = outcome.pairs[:top]
    if shown:
        lines.append(f"{'score':>5}  {'of A':>4}  {'of B':>4}  {'longest':>7}  pair")
    for p in shown:
        flag = "*" if p.score >= outcome.threshold else " "
        lines.append(f"{p.score:5.2f}{flag} {p.fraction_a * 100:3.0f}%  {p.fraction_b * 100:3.0f}%  {p.longest_lines:4d} ln  "
                     f"{terminal_safe(p.a)}  {terminal_safe(p.b)}")
    if not outcome.pairs:
        lines.append("no two submissions share code beyond the common idiom")
    lines.append(f"{len(outcome.flagged)} pair(s) at or above {outcome.threshold:.2f} (*); "
                 f"{len(outcome.clusters)} cluster(s) of three or more")
    for i, why in outcome.left_out:
        lines.append(f"not compared: {terminal_safe(i)}: {terminal_safe(why)}")
    return lines
