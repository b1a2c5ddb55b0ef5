"""Writers of a finished tournament: leaderboard (JSON, CSV, text, terminal), per-player
reports and the game log.  They receive computed :class:`Standing` rows and game records
and never compute a figure themselves.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from grader.reports._atomic import atomic_write_json, atomic_write_text, safe_name
from grader.tournament.game import Game
from grader.tournament.match import GameRecord
from grader.tournament.results import to_json
from grader.tournament.standings import Standing, unsettled_pairs
from grader.textsafe import csv_safe, terminal_safe

COLUMNS = ("rank", "entrant", "games", "mean_score", "wins", "win_rate", "rating", "low", "high", "above_next", "faults", "mean_move_ms")
HEADERS = ("#", "player", "games", "mean score", "wins", "win rate", "rating", "interval", "above next", "faults", "ms/move")


@dataclass(frozen=True)
class Tournament:
    """What the writers receive: the outcome and how to reproduce it."""

    assignment: str
    game: Game
    seed: int
    confidence: float
    standings: list[Standing]
    records: list[GameRecord]
    rejected: list[tuple[str, str]]  # (player, why it could not enter)
    settings: dict[str, Any]
    replay_command: str  # with {game} left to fill in


def _cells(row: Standing) -> list[str]:
    """A row as shown on a terminal or in leaderboard.txt: an entrant's id is the student's
    file name, so its control characters are shown, never run."""
    above = "" if row.above_next is None else f"{100 * row.above_next:.0f}%"
    return [str(row.rank), terminal_safe(row.entrant), str(row.games), f"{row.mean_score:.1f}", f"{row.wins:g}", f"{100 * row.win_rate:.1f}%",
            f"{row.rating:.1f}", f"{row.low:.1f} .. {row.high:.1f}", above, str(row.faults), f"{row.mean_move_ms:.2f}"]


def _footnote(t: Tournament) -> list[str]:
    close = [f"{terminal_safe(a)} / {terminal_safe(b)}" for a, b in unsettled_pairs(t.standings, t.confidence)]
    lines = ["Wins: tied winners share a win (2 tied winners get 0.5 each).",
             f"Rating: openskill ({t.settings['rating']['model']}) skill estimate from the order of the seats in each game; "
             f"interval: {100 * t.confidence:g}% credible interval; above next: the chance a row is truly stronger than the row below."]
    if close:
        why = (f"the budget of {t.settings['max_games']} games ran out" if t.settings.get("games") == "auto"
               else "play more games, or --games auto")
        lines.append(f"Not yet settled at {100 * t.confidence:g}% ({why}): " + "; ".join(close))
    return lines


def as_text(t: Tournament) -> str:
    rows = [list(HEADERS)] + [_cells(r) for r in t.standings]
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADERS))]
    lines = [f"{t.assignment} tournament ({t.game.title}): {len(t.records)} games, seed {t.seed}", ""]
    for n, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) if i == 1 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    for player, why in t.rejected:
        lines.append(f"not entered: {terminal_safe(player)}: {terminal_safe(why)}")
    lines += ["", *_footnote(t)]
    return "\n".join(lines) + "\n"


def as_csv(t: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in t.standings:
        writer.writerow([r.rank, csv_safe(r.entrant), r.games, round(r.mean_score, 4), round(r.wins, 4), round(r.win_rate, 4),
                         round(r.rating, 3), round(r.low, 3), round(r.high, 3),
                         "" if r.above_next is None else round(r.above_next, 4), r.faults, round(r.mean_move_ms, 3)])
    return out.getvalue()


def as_json(t: Tournament) -> dict[str, Any]:
    return {
        "assignment": t.assignment,
        "seed": t.seed,
        "game": t.game.title,
        "games": len(t.records),
        "reused_games": sum(1 for r in t.records if r.reused),
        "confidence": t.confidence,
        "unsettled": [list(pair) for pair in unsettled_pairs(t.standings, t.confidence)],
        "settings": t.settings,
        "standings": [asdict(r) for r in t.standings],
        "not_entered": [{"player": p, "reason": why} for p, why in t.rejected],
    }


def player_report(t: Tournament, player: str) -> dict[str, Any]:
    """One player's games: what the game lets that seat see, and each fault with the exact
    call (the player's own view) to run again by hand; never another player's secrets."""
    games: list[dict[str, Any]] = []
    faults: list[dict[str, Any]] = []
    for r in t.records:
        for seat, e in enumerate(r.entrants):
            if e == player:
                games.append({"game": r.game, "seed": r.seed, "seat": seat, "table": list(r.entrants), "score": r.scores[seat],
                              "scores": r.scores, "win": r.wins[seat], **t.game.view(r.outcome, seat),
                              "replay": t.replay_command.format(game=r.game)})
        for f in r.faults:
            if f.entrant == player:
                faults.append({**asdict(f), "replay": t.replay_command.format(game=r.game)})
    standing = next((asdict(s) for s in t.standings if s.entrant == player), None)
    return {"player": player, "assignment": t.assignment, "tournament_seed": t.seed, "standing": standing,
            "faults": faults, "games": games}


def write_all(t: Tournament, out_dir: Path) -> list[Path]:
    """Write every file of the tournament into ``out_dir``; returns the paths written."""
    out_dir = Path(out_dir)
    written = [
        atomic_write_json(out_dir / "leaderboard.json", as_json(t)),
        atomic_write_text(out_dir / "leaderboard.csv", as_csv(t)),
        atomic_write_text(out_dir / "leaderboard.txt", as_text(t)),
        atomic_write_text(out_dir / "games.jsonl", "".join(json.dumps({**to_json(r), "reused": r.reused}, separators=(",", ":")) + "\n" for r in t.records)),
    ]
    used: set[str] = set()
    for s in t.standings:
        if s.is_bot:
            continue
        name = safe_name(s.entrant, frozenset(used))
        used.add(name)
        written.append(atomic_write_json(out_dir / "players" / f"{name}.json", player_report(t, s.entrant)))
    return written


def print_table(t: Tournament, stream: Any) -> None:
    """The leaderboard on a terminal (a rich table), or as plain text in a pipe."""
    if not getattr(stream, "isatty", lambda: False)():
        stream.write(as_text(t))
        return
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"{t.assignment} ({t.game.title}): {len(t.records)} games, seed {t.seed}")
    for i, h in enumerate(HEADERS):
        table.add_column(h, justify="left" if i == 1 else "right")
    for r in t.standings:
        table.add_row(*(Text(c) for c in _cells(r)), style="dim" if r.is_bot else None)   # no markup
    console = Console(file=stream)
    console.print(table)
    for player, why in t.rejected:
        console.print(Text.assemble(("not entered", "yellow"), f": {terminal_safe(player)}: {terminal_safe(why)}"),
                      highlight=False)
    for line in _footnote(t):
        console.print(line, markup=False, highlight=False)


def format_replay(game: Game, record: GameRecord) -> str:
    """A game move by move, as a referee would call it (staff view: hidden information is shown),
    terminal-safe: the ids and the plug-in's words about the players' moves are printed."""
    text = f"game {record.game}  seed {record.seed}\n" + game.describe(record.entrants, record.outcome, record.faults)
    top = max(record.scores)
    winners = [record.entrants[s] for s in range(len(record.entrants)) if record.scores[s] == top]
    text += f"winner{'s (sharing the win)' if len(winners) > 1 else ''}: {', '.join(winners)} with {top:g}\n"
    return terminal_safe(text, keep_lines=True)
