"""Matplotlib charts for the HTML report, returned as PNG bytes.

Figures are built with ``matplotlib.figure.Figure`` on an Agg canvas, never through
``pyplot``: no global backend switch, no figure registry to leak, safe in a worker thread.
"""
from __future__ import annotations

import io
from typing import Mapping, Sequence

COLORS = {
    "passed": "#2e7d32", "failed": "#c62828", "error": "#6a1b9a",
    "timeout": "#f9a825", "banned": "#ad1457", "crashed": "#4e342e",
}


def _figure(width: float = 7.0, height: float = 3.2):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _png(fig) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def score_histogram(scores: Sequence[float], max_score: float) -> bytes:
    fig = _figure()
    ax = fig.add_subplot()
    top = max([max_score, *scores]) if scores else max_score or 1
    bins = min(20, max(5, int(top) if top == int(top) else 10))
    ax.hist(scores, bins=bins, range=(0, top or 1), color="#1565c0", edgecolor="white")
    ax.axvline(max_score, color="#888", linestyle="--", linewidth=1, label=f"max {max_score:g}")
    ax.set_xlabel("score")
    ax.set_ylabel("submissions")
    ax.set_title("Score distribution")
    ax.legend(loc="upper left", frameon=False)
    ax.yaxis.get_major_locator().set_params(integer=True)
    return _png(fig)


def status_bars(labels: Sequence[str], counts: Sequence[dict[str, int]], title: str) -> bytes:
    """Horizontal stacked bars: the share of each status per label (function or case)."""
    height = max(2.4, 0.42 * len(labels) + 1.2)
    fig = _figure(7.0, height)
    ax = fig.add_subplot()
    left = [0.0] * len(labels)
    totals = [max(1, sum(c.values())) for c in counts]
    positions = list(range(len(labels)))[::-1]
    for status, color in COLORS.items():
        shares = [100 * c.get(status, 0) / t for c, t in zip(counts, totals)]
        if any(shares):
            ax.barh(positions, shares, left=left, color=color, label=status, height=0.7)
            left = [a + b for a, b in zip(left, shares)]
    ax.set_yticks(positions, labels=list(labels))
    ax.set_xlim(0, 100)
    ax.set_xlabel("% of cases run")
    ax.set_title(title)
    fig.legend(loc="outside right upper", fontsize="small", frameon=False)
    return _png(fig)


def time_axis_limits(longest_ms: float) -> tuple[float, float]:
    """The ms axis of case times: a margin left of zero, so cases that took no measurable
    time stand clear of the axis instead of being drawn on it."""
    return -0.25, max(10.0, 2 * longest_ms)


def timing_plot(durations: Sequence[float], case_times: Mapping[str, Sequence[float]]) -> bytes:
    """Submission wall times (histogram) and per-function case CPU times (box plot)."""
    fig = _figure(9.0, 3.4)
    left, right = fig.subplots(1, 2)
    left.hist(durations or [0.0], bins=15, color="#00838f", edgecolor="white")
    left.set_xlabel("seconds per submission")
    left.set_ylabel("submissions")
    left.set_title("Grading time")
    left.yaxis.get_major_locator().set_params(integer=True)
    names = [n for n, times in case_times.items() if times][::-1]  # first function on top
    if names:
        right.boxplot([[t * 1000 for t in case_times[n]] for n in names], orientation="horizontal",
                      tick_labels=names, showfliers=True)
        longest = max(t * 1000 for n in names for t in case_times[n])
        right.set_xscale("symlog", linthresh=1.0)
        right.set_xlim(*time_axis_limits(longest))
    right.set_xlabel("ms per case")
    right.set_title("Time per case, by function")
    return _png(fig)
