"""The HTML evidence: an index of the top pairs, one side-by-side page per pair, and the clusters.

On a pair page both submissions are shown in full with every matching region highlighted; a
region's colour and link lead to its partner on the other side. Everything a student controls
(ids, file names, code) is escaped; file names of pages are ranks, never ids.
"""
from __future__ import annotations

from html import escape
from typing import Sequence

from grader.similarity.model import PairResult, Region
from grader.similarity.run import Cluster, Outcome

MAX_LINES_SHOWN = 5000
_COLOURS = ("#ffe08a", "#b5e8ff", "#c9f2c0", "#ffc8dd", "#dcc9ff", "#ffd2a8", "#c2f0ec", "#f3c6c6")

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}
th{background:#f3f3f3}.flag{color:#b00020;font-weight:bold}
.sides{display:flex;gap:1em}.side{flex:1;min-width:0;overflow-x:auto}
pre{margin:0;font-size:12px;line-height:1.35}.ln{color:#999;display:inline-block;width:4em;user-select:none}
a.region{color:inherit;text-decoration:none;display:block}a.region:hover{outline:1px solid #888}
h2 small{font-weight:normal;color:#555}
"""


def page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body>{body}</body></html>\n")


def _percent(value: float) -> str:
    return f"{value * 100:.0f}%"


def pair_row(rank: int, pair: PairResult, threshold: float, link: bool) -> str:
    name = f"<a href=\"pairs/{rank:04d}.html\">{rank}</a>" if link else str(rank)
    flag = " class=\"flag\"" if pair.score >= threshold else ""
    return (f"<tr><td>{name}</td><td>{escape(pair.a)}</td><td>{escape(pair.b)}</td><td{flag}>{pair.score:.2f}</td>"
            f"<td>{_percent(pair.fraction_a)}</td><td>{_percent(pair.fraction_b)}</td>"
            f"<td>{pair.longest_tokens} tokens, {pair.longest_lines} lines</td></tr>")


def index_page(outcome: Outcome, linked: set[int]) -> str:
    rows = "".join(pair_row(i, p, outcome.threshold, i in linked) for i, p in enumerate(outcome.pairs, 1))
    left = "".join(f"<li>{escape(i)}: {escape(why)}</li>" for i, why in outcome.left_out)
    notes = "".join(f"<li>{escape(i)}: {escape(why)}</li>" for i, why in outcome.notes)
    flagged = len(outcome.flagged)
    body = (f"<h1>Similarity</h1><p>{len(outcome.documents)} submissions compared; {len(outcome.pairs)} pairs share code, "
            f"{flagged} at or above the threshold {outcome.threshold:.2f}"
            + (f"; <a href=\"clusters.html\">{len(outcome.clusters)} cluster(s)</a> of three or more" if outcome.clusters else "")
            + f". {outcome.common_hashes} fingerprints held by a large part of the class were left out as common idiom.</p>"
            "<table><tr><th>#</th><th>A</th><th>B</th><th>score</th><th>of A</th><th>of B</th><th>longest match</th></tr>"
            f"{rows}</table>"
            + (f"<h2>Not compared</h2><ul>{left}</ul>" if left else "")
            + (f"<h2>Compared with caveats</h2><ul>{notes}</ul>" if notes else ""))
    return page("Similarity", body)


def _line_regions(regions: Sequence[Region], file: str) -> dict[int, int]:
    marks: dict[int, int] = {}
    for index, region in enumerate(regions):
        if region.file == file:
            for line in range(region.first_line, region.last_line + 1):
                marks.setdefault(line, index)
    return marks


def _code(files: dict[str, str], regions: Sequence[Region], side: str, other: str) -> str:
    """One side's files, line by line, matched lines coloured and linked to the partner region."""
    parts = []
    for name, text in files.items():
        marks = _line_regions(regions, name)
        lines = text.splitlines()
        shown = []
        for number, line in enumerate(lines[:MAX_LINES_SHOWN], 1):
            cell = f"<span class=\"ln\">{number}</span>{escape(line)}"
            region = marks.get(number)
            if region is None:
                shown.append(cell + "\n")
                continue
            partner = regions[region].partner
            colour = _COLOURS[(region if side == "a" else partner) % len(_COLOURS)] if partner >= 0 else "#eee"
            anchor = f" id=\"{side}{region}\"" if regions[region].first_line == number else ""
            target = f"#{other}{partner}" if partner >= 0 else f"#{side}{region}"
            shown.append(f"<a class=\"region\"{anchor} href=\"{target}\" style=\"background:{colour}\">{cell}</a>")
        more = f"\n… {len(lines) - MAX_LINES_SHOWN} more lines not shown" if len(lines) > MAX_LINES_SHOWN else ""
        parts.append(f"<h3>{escape(name)}</h3><pre>{''.join(shown)}{escape(more)}</pre>")
    return "".join(parts)


def pair_page(rank: int, pair: PairResult, files_a: dict[str, str], files_b: dict[str, str], threshold: float) -> str:
    verdict = "at or above" if pair.score >= threshold else "below"
    body = (f"<p><a href=\"../index.html\">all pairs</a></p>"
            f"<h1>#{rank}: {escape(pair.a)} and {escape(pair.b)}</h1>"
            f"<p>score {pair.score:.2f} ({verdict} the threshold {threshold:.2f}); {_percent(pair.fraction_a)} of "
            f"{escape(pair.a)} and {_percent(pair.fraction_b)} of {escape(pair.b)} is found in the other; longest match "
            f"{pair.longest_tokens} tokens over {pair.longest_lines} lines. Click a highlighted region to jump to its match.</p>"
            f"<div class=\"sides\"><div class=\"side\"><h2>{escape(pair.a)} <small>{len(pair.regions_a)} regions</small></h2>"
            f"{_code(files_a, pair.regions_a, 'a', 'b')}</div>"
            f"<div class=\"side\"><h2>{escape(pair.b)} <small>{len(pair.regions_b)} regions</small></h2>"
            f"{_code(files_b, pair.regions_b, 'b', 'a')}</div></div>")
    return page(f"{pair.a} / {pair.b}", body)


def clusters_page(clusters: Sequence[Cluster], pairs: Sequence[PairResult], linked: set[int]) -> str:
    """Each cluster as a matrix of its members' pairwise scores, linked to the pair pages."""
    rank = {(p.a, p.b): i for i, p in enumerate(pairs, 1)}
    score = {(p.a, p.b): p.score for p in pairs}
    sections = []
    for number, cluster in enumerate(clusters, 1):
        head = "".join(f"<th>{escape(m)}</th>" for m in cluster.members)
        rows = []
        for a in cluster.members:
            cells = []
            for b in cluster.members:
                key = (a, b) if (a, b) in score else (b, a)
                if a == b or key not in score:
                    cells.append("<td></td>")
                    continue
                text = f"{score[key]:.2f}"
                cells.append(f"<td><a href=\"pairs/{rank[key]:04d}.html\">{text}</a></td>" if rank[key] in linked else f"<td>{text}</td>")
            rows.append(f"<tr><th>{escape(a)}</th>{''.join(cells)}</tr>")
        sections.append(f"<h2>Cluster {number} <small>{len(cluster.members)} submissions, {len(cluster.pairs)} flagged pairs</small></h2>"
                        f"<table><tr><th></th>{head}</tr>{''.join(rows)}</table>")
    return page("Similarity clusters", "<p><a href=\"index.html\">all pairs</a></p><h1>Clusters</h1>"
                "<p>Three or more submissions joined by flagged pairs.</p>" + "".join(sections))
