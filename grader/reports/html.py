"""A self-contained HTML class report: ``DIR/report/index.html`` plus one page per student.

The pages open offline: styles are inline, charts are base64 PNGs rendered by matplotlib,
and nothing is fetched. Every string that came from a submission goes through
``html.escape``. Student pages (``DIR/report/students/<id>.html``) show what the student
may see: public cases in full, hidden cases by status only. Most common wrong answers on
the class page are listed for public cases only.
"""
from __future__ import annotations

import base64
from collections import Counter, defaultdict
from html import escape
from pathlib import Path
from typing import Iterable, Sequence

from grader.judge.verdict import SubmissionResult, TestResult
from grader.reports import _plots
from grader.reports._atomic import atomic_write_text, safe_name
from grader.reports._common import (
    BaseReporter,
    CaseView,
    all_violations,
    banned_counts,
    fmt_score,
    function_names,
    hidden_tests,
    is_extra_credit,
    natural_key,
    public_tests,
    score_line,
    short_repr,
    status_counts,
    status_summary,
    violation_location,
    violation_text,
    was_run,
)
from grader.reports.json_report import summarize
from grader.spec.model import Spec

TOP_WRONG = 3
CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:2rem auto;max-width:1100px;
padding:0 1rem;color:#222;line-height:1.4}
h1{margin-bottom:.2rem}h2{margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}
.sub{color:#666;margin-top:0}
table{border-collapse:collapse;margin:.5rem 0;font-size:.92rem}
th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f4f6f8}td.num{text-align:right;font-variant-numeric:tabular-nums}
code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.88rem}
pre{background:#f7f7f7;border:1px solid #e3e3e3;padding:.4rem .6rem;overflow-x:auto;margin:.2rem 0;
white-space:pre-wrap;word-break:break-word}
.stats{display:flex;gap:1rem;flex-wrap:wrap}.stat{background:#f4f6f8;border-radius:6px;padding:.5rem 1rem}
.stat b{display:block;font-size:1.4rem}
img.chart{max-width:100%;height:auto;display:block;margin:.5rem 0}
.passed{color:#2e7d32}.failed,.banned{color:#c62828}.error,.crashed{color:#6a1b9a}.timeout{color:#b26a00}
.case{border:1px solid #e3e3e3;border-radius:6px;padding:.5rem .8rem;margin:.6rem 0}
.muted{color:#777}
"""


def _page(title: str, body: Iterable[str]) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{escape(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body) + "\n</body>\n</html>\n"
    )


def _img(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<img class="chart" alt="{escape(alt)}" src="data:image/png;base64,{data}">'


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], numeric: Sequence[int] = ()) -> str:
    """``rows`` cells are already-escaped HTML; ``numeric`` columns are right-aligned."""
    out = ["<table>", "<tr>" + "".join(f"<th>{escape(h)}</th>" for h in header) + "</tr>"]
    for row in rows:
        cells = (f'<td class="num">{c}</td>' if i in numeric else f"<td>{c}</td>" for i, c in enumerate(row))
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _status(status: str) -> str:
    return f'<span class="{escape(status)}">{escape(status)}</span>'


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def _counts_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{_status(s)} {n}" for s, n in counts.items() if n)


# ---------------------------------------------------------------- student pages

def student_page(result: SubmissionResult, spec: Spec) -> str:
    """One student's feedback: what they may see, nothing of hidden cases but statuses."""
    title = f"{spec.title or spec.assignment}: {result.submission}"
    body = ["<p><a href=\"../index.html\">&larr; class report</a></p>",
            f"<h1>{escape(title)}</h1>", f"<p class=\"sub\"><b>{escape(score_line(result))}</b></p>"]
    problems = [e for e in result.errors if not e.is_note]
    advice = [e for e in result.errors if e.is_note]
    if problems:
        body.append("<h2>Problems with the submission</h2><ul>")
        body += [f"<li><code>{escape(e.message)}</code>" + (f" (line {e.line})" if e.line else "")
                 + (f"<pre>{escape(e.excerpt)}</pre>" if e.excerpt else "") + "</li>" for e in problems]
        body.append("</ul>")
    if advice:
        body.append("<h2>Notes</h2><ul>")
        body += [f"<li>{escape(e.message)}</li>" for e in advice]
        body.append("</ul>")
    rows = []
    for name in function_names(spec, [result]):
        fn = result.functions.get(name)
        tests = [t for t in result.tests if t.function == name]
        notes = []
        if is_extra_credit(spec, name, [result]):
            notes.append("extra credit")
        if fn is None or fn.found_as is None:
            notes.append("not found")
        elif fn.found_as != name:
            notes.append(f"found as <code>{escape(fn.found_as)}</code>")
        if fn is not None and fn.violations:
            notes.append(f"banned: <code>{escape(banned_counts(fn.violations))}</code>")
        pub = [t for t in tests if t.visibility == "public"]
        hid = [t for t in tests if t.visibility != "public"]
        rows.append([
            f"<code>{escape(name)}</code>",
            f"{fmt_score(fn.score)} / {fmt_score(fn.max_score)}" if fn else "-",
            f"{sum(t.passed for t in pub)}/{len(pub)}" if pub else "-",
            escape(status_summary(hid)) if hid else "-",
            "; ".join(notes),
        ])
    body += ["<h2>Functions</h2>",
             _table(["function", "score", "public passed", "hidden cases", "notes"], rows, numeric=(1, 2))]
    violations = all_violations(result)
    if violations:
        body.append("<h2>Banned functions</h2><ul>")
        for v in violations:
            src = f" <code>{escape(v.source_line.strip())}</code>" if v.source_line.strip() else ""
            body.append(f"<li><code>{escape(violation_location(v, spec))}</code>: "
                        f"{escape(violation_text(v))}{src}</li>")
        body.append("</ul>")
    public = public_tests(result)
    if public:
        body.append("<h2>Public cases</h2>")
        body += [_case_block(t) for t in sorted(public, key=lambda t: t.passed)]
    hidden = hidden_tests(result)
    if hidden:
        body += ["<h2>Hidden cases</h2>",
                 f"<p>{len(hidden)} hidden cases: {_counts_text(status_counts(hidden))}.</p>"]
    return _page(title, body)


def _case_block(test: TestResult) -> str:
    view = CaseView.of(test)
    out = [f'<div class="case"><b><code>{escape(view.function)}</code> {escape(view.name)}</b> '
           f"{_status(view.status)} <span class=\"muted\">{fmt_score(view.score)}/"
           f"{fmt_score(view.max_score)} pts, {view.time_s * 1000:.1f} ms</span>"]
    if not test.passed:
        if view.call is not None:
            out.append(f"<div>call</div><pre>{escape(view.call)}</pre>")
        if view.expected is not None:
            out.append(f"<div>expected</div><pre>{escape(view.expected)}</pre>")
        if view.actual is not None:
            out.append(f"<div>got</div><pre>{escape(view.actual)}</pre>")
        if view.diff:
            out.append("<div>difference (- expected, + got)</div><pre>"
                       + "\n".join(_diff_line(line) for line in view.diff) + "</pre>")
        if view.message:
            out.append(f"<pre>{escape(view.message)}</pre>")
    out.append("</div>")
    return "\n".join(out)


def _diff_line(line: str) -> str:
    css = {"-": "failed", "+": "passed", "?": "muted"}.get(line[:1])
    return f'<span class="{css}">{escape(line)}</span>' if css else escape(line)


# ---------------------------------------------------------------- class page

def class_page(results: Sequence[SubmissionResult], spec: Spec, links: dict[str, str]) -> str:
    summary = summarize(results, spec)
    names = function_names(spec, results)
    title = spec.title or spec.assignment
    stats = summary["score"]
    body = [f"<h1>{escape(title)}</h1>",
            f"<p class=\"sub\">{escape(spec.assignment)}: {len(results)} submissions, "
            f"max score {fmt_score(spec.max_score)}</p>",
            '<div class="stats">' + "".join(
                f'<div class="stat">{label}<b>{fmt_score(stats[key])}</b></div>'
                for label, key in (("mean", "mean"), ("median", "median"), ("max", "max"), ("min", "min")))
            + f'<div class="stat">with errors<b>{summary["counts"]["with_errors"]}</b></div></div>']

    body += ["<h2>Score distribution</h2>",
             _img(_plots.score_histogram([r.score for r in results], spec.max_score), "score histogram")]
    body += students_table(results, names, links)

    by_function: dict[str, list[TestResult]] = defaultdict(list)
    by_case: dict[tuple[str, str], list[TestResult]] = defaultdict(list)
    for r in results:
        for t in r.tests:
            by_function[t.function].append(t)
            by_case[(t.function, t.name)].append(t)
    body.append("<h2>Functions</h2>")
    fn_names = [n for n in names if by_function.get(n)]
    if fn_names:
        body.append(_img(_plots.status_bars(fn_names, [status_counts(by_function[n]) for n in fn_names],
                                            "Case outcomes by function"), "case outcomes by function"))
    rows = []
    for name in names:
        tests = by_function.get(name, [])
        missing = sum(1 for r in results if name not in r.functions or r.functions[name].found_as is None)
        banned = sum(1 for r in results if name in r.functions and r.functions[name].violations)
        rows.append([f"<code>{escape(name)}</code>" + (" (extra credit)" if is_extra_credit(spec, name, results) else ""),
                     fmt_score(summary["function_mean"].get(name)),
                     _pct(sum(t.passed for t in tests), len(tests)),
                     str(missing), str(banned), _counts_text(status_counts(tests))])
    body.append(_table(["function", "mean score", "cases passed", "not found", "banned", "outcomes"],
                       rows, numeric=(1, 2, 3, 4)))

    body += ["<h2>Cases, hardest first</h2>",
             "<p class=\"muted\">Most common wrong answers are shown for public cases only.</p>"]
    case_rows = []
    ordered = sorted(by_case.items(), key=lambda kv: (sum(t.passed for t in kv[1]) / len(kv[1]), kv[0][0], natural_key(kv[0][1])))
    for (fn, case), tests in ordered:
        public = tests[0].visibility == "public"
        wrong = ""
        if public:
            common = Counter(short_repr(t.actual) for t in tests if t.status == "failed").most_common(TOP_WRONG)
            wrong = "<br>".join(f"<code>{escape(value)}</code> &times;{n}" for value, n in common)
        case_rows.append([f"<code>{escape(fn)}</code>", escape(case), "public" if public else "hidden",
                          _pct(sum(t.passed for t in tests), len(tests)),
                          _counts_text(status_counts(tests)), wrong])
    body.append(_table(["function", "case", "visibility", "passed", "outcomes", "most common wrong answers"],
                       case_rows, numeric=(3,)))

    case_times = {n: [t.time_s for t in by_function.get(n, []) if t.status != "timeout" and was_run(t)] for n in names}
    body += ["<h2>Timing</h2>",
             _img(_plots.timing_plot([r.duration_s for r in results], case_times), "timing distribution")]
    timeouts = Counter(t.function for r in results for t in r.tests if t.status == "timeout")
    if timeouts:
        body.append("<p>Timeouts: " + ", ".join(f"<code>{escape(f)}</code> {n}" for f, n in timeouts.items()) + "</p>")

    ban_rows = []
    for r in results:
        for v in all_violations(r):
            ban_rows.append([f'<a href="{links[r.submission]}">{escape(r.submission)}</a>',
                             escape(", ".join(v.functions)), f"<code>{escape(v.banned)}</code>",
                             f"<code>{escape(violation_location(v, spec))}</code>", escape(v.layer),
                             "yes" if v.counts else "flag only",
                             f"<code>{escape(v.source_line.strip())}</code>" if v.source_line.strip() else ""])
    body.append("<h2>Banned functions</h2>")
    body.append(_table(["student", "functions", "banned", "where", "layer", "penalised", "source"], ban_rows)
                if ban_rows else "<p>No violations.</p>")

    err_rows = [[f'<a href="{links[r.submission]}">{escape(r.submission)}</a>', escape(e.kind),
                 f"<code>{escape(e.message)}</code>"] for r in results for e in r.errors if not e.is_note]
    if err_rows:
        body += ["<h2>Submission errors</h2>", _table(["student", "kind", "message"], err_rows)]

    body += hidden_failures(results, links)
    return _page(f"{title}: class report", body)


def students_table(results: Sequence[SubmissionResult], names: list[str], links: dict[str, str]) -> list[str]:
    rows = []
    for r in sorted(results, key=lambda r: natural_key(r.submission)):
        cells = [f'<a href="{links[r.submission]}">{escape(r.submission)}</a>',
                 f"{fmt_score(r.score)} / {fmt_score(r.max_score)}"]
        cells += [fmt_score(r.functions[n].score) if n in r.functions else "-" for n in names]
        cells.append(escape("; ".join(e.kind for e in r.errors if not e.is_note)))
        rows.append(cells)
    return ["<h2>Students</h2>",
            _table(["student", "score", *names, "errors"], rows, numeric=tuple(range(1, len(names) + 2)))]


def hidden_failures(results: Sequence[SubmissionResult], links: dict[str, str]) -> list[str]:
    """For staff: every hidden case that did not pass, with what went wrong (students see statuses
    only), and every public test whose message keeps a hidden case's details for staff (a program
    plug-in's aspect over every case)."""
    rows = []
    for r in sorted(results, key=lambda r: natural_key(r.submission)):
        for t in r.tests:
            staff_only = t.visibility == "hidden" or t.staff.get("message", t.message) != t.message
            if not staff_only or t.passed or not was_run(t):
                continue
            why = t.staff.get("message") or t.message
            rows.append([f'<a href="{links[r.submission]}">{escape(r.submission)}</a>', f"<code>{escape(t.function)}</code>",
                         escape(t.name), _status(t.status), f"<code>{escape(str(why))}</code>"])
    if not rows:
        return []
    return ["<h2>Hidden cases that did not pass</h2>",
            "<p class=\"muted\">For staff: this class page shows what hidden cases hide from students; "
            "hand students their own pages (students/), never this one.</p>",
            _table(["student", "function", "case", "outcome", "what went wrong"], rows)]


class HtmlReporter(BaseReporter):
    """``DIR/report/index.html`` and ``DIR/report/students/<id>.html``."""

    name = "html"

    def write(self, results: Sequence[SubmissionResult], spec: Spec, out_dir: Path) -> list[Path]:
        folder = Path(out_dir) / "report"
        links = {r.submission: f"students/{safe_name(r.submission)}.html" for r in results}
        written = [atomic_write_text(folder / links[r.submission], student_page(r, spec)) for r in results]
        written.append(atomic_write_text(folder / "index.html", class_page(results, spec, links)))
        return written
