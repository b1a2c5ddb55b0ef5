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
from grader.tournament.referee import GameRecord
from grader.tournament.standings import Standing

COLUMNS = ("rank", "entrant", "games", "mean_score", "wins", "win_rate", "rating", "illegal_moves", "invalid_groupings", "mean_move_ms")
HEADERS = ("#", "player", "games", "mean score", "wins", "win rate", "rating", "illegal moves", "bad groupings", "ms/move")


@dataclass(frozen=True)
class Tournament:
    """What the writers receive: the outcome and how to reproduce it."""

    assignment: str
    seed: int
    standings: list[Standing]
    records: list[GameRecord]
    rejected: list[tuple[str, str]]  # (player, why it could not enter)
    settings: dict[str, Any]
    replay_command: str  # with {game} left to fill in


def _cells(row: Standing) -> list[str]:
    return [str(row.rank), row.entrant, str(row.games), f"{row.mean_score:.1f}", f"{row.wins:g}", f"{100 * row.win_rate:.1f}%",
            f"{row.rating:.0f}", str(row.illegal_moves), str(row.invalid_groupings), f"{row.mean_move_ms:.2f}"]


def as_text(t: Tournament) -> str:
    rows = [list(HEADERS)] + [_cells(r) for r in t.standings]
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADERS))]
    lines = [f"{t.assignment} tournament: {len(t.records)} games, seed {t.seed}", ""]
    for n, r in enumerate(rows):
        lines.append("  ".join(c.ljust(w) if i == 1 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    for player, why in t.rejected:
        lines.append(f"not entered: {player}: {why}")
    lines += ["", "Wins: tied winners share a win (2 tied winners get 0.5 each). Rating: multiplayer Elo from pairwise results."]
    return "\n".join(lines) + "\n"


def as_csv(t: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for r in t.standings:
        writer.writerow([r.rank, r.entrant, r.games, round(r.mean_score, 4), round(r.wins, 4), round(r.win_rate, 4),
                         round(r.rating, 2), r.illegal_moves, r.invalid_groupings, round(r.mean_move_ms, 3)])
    return out.getvalue()


def as_json(t: Tournament) -> dict[str, Any]:
    return {
        "assignment": t.assignment,
        "seed": t.seed,
        "games": len(t.records),
        "settings": t.settings,
        "standings": [asdict(r) for r in t.standings],
        "not_entered": [{"player": p, "reason": why} for p, why in t.rejected],
    }


def player_report(t: Tournament, player: str) -> dict[str, Any]:
    """One player's games: only public cards and the player's own, never another's hand."""
    games: list[dict[str, Any]] = []
    illegal: list[dict[str, Any]] = []
    groupings: list[dict[str, Any]] = []
    for r in t.records:
        for seat, e in enumerate(r.entrants):
            if e != player:
                continue
            games.append({
                "game": r.game, "seed": r.seed, "seat": seat, "table": list(r.entrants), "score": r.scores[seat],
                "scores": r.scores, "win": r.wins[seat], "discards": [turn[seat] for turn in r.discards],
                "grouping": r.groupings[seat], "grouped_by": r.grouped_by[seat],
                "replay": t.replay_command.format(game=r.game),
            })
        for f in r.faults:
            if f.entrant != player:
                continue
            entry = asdict(f)
            # The player's own view at that moment, to call the function again by hand.
            if f.phase == "play" and f.turn is not None:
                entry["call"] = {"discard_history": r.discards[: f.turn - 1], "player_no": f.seat, "hand": r.hands[f.turn - 1][f.seat]}
            else:
                entry["call"] = {"discard_history": r.discards, "player_no": f.seat}
            entry["replay"] = t.replay_command.format(game=r.game)
            (illegal if f.phase == "play" else groupings).append(entry)
    standing = next((asdict(s) for s in t.standings if s.entrant == player), None)
    return {"player": player, "assignment": t.assignment, "tournament_seed": t.seed, "standing": standing,
            "illegal_moves": illegal, "invalid_groupings": groupings, "games": games}


def write_all(t: Tournament, out_dir: Path) -> list[Path]:
    """Write every file of the tournament into ``out_dir``; returns the paths written."""
    out_dir = Path(out_dir)
    written = [
        atomic_write_json(out_dir / "leaderboard.json", as_json(t)),
        atomic_write_text(out_dir / "leaderboard.csv", as_csv(t)),
        atomic_write_text(out_dir / "leaderboard.txt", as_text(t)),
        atomic_write_text(out_dir / "games.jsonl", "".join(json.dumps(asdict(r), separators=(",", ":")) + "\n" for r in t.records)),
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

    table = Table(title=f"{t.assignment}: {len(t.records)} games, seed {t.seed}")
    for i, h in enumerate(HEADERS):
        table.add_column(h, justify="left" if i == 1 else "right")
    for r in t.standings:
        table.add_row(*_cells(r), style="dim" if r.is_bot else None)
    console = Console(file=stream)
    console.print(table)
    for player, why in t.rejected:
        console.print(f"[yellow]not entered[/]: {player}: {why}", markup=True, highlight=False)


def format_replay(record: GameRecord) -> str:
    """A game move by move, as a referee would call it (staff view: every hand is shown)."""
    lines = [f"game {record.game}  seed {record.seed}"]
    lines += [f"  seat {s}: {e}" for s, e in enumerate(record.entrants)]
    faults = {(f.turn, f.seat): f for f in record.faults if f.phase == "play"}
    for turn, (hands, moves) in enumerate(zip(record.hands, record.moves), start=1):
        lines.append(f"turn {turn}")
        for s, move in enumerate(moves):
            note = ""
            f = faults.get((turn, s))
            if f is not None:
                note = f"   ILLEGAL ({f.kind}: {f.detail}); played the default"
            lines.append(f"  seat {s} {record.entrants[s]:<16} plays {move.card}  from {' '.join(hands[s])}{note}")
        if turn < len(record.moves):
            lines.append("  hands pass to the left (seat i -> seat i+1)")
    lines.append("grouping")
    group_faults = {f.seat: f for f in record.faults if f.phase == "group"}
    for s, e in enumerate(record.entrants):
        groups = "  ".join("[" + " ".join(g) + "]" for g in record.groupings[s])
        note = f"   (scored as singletons: {group_faults[s].kind}: {group_faults[s].detail})" if s in group_faults else ""
        lines.append(f"  seat {s} {e:<16} {record.scores[s]:>5}  {groups}{note}")
    top = max(record.scores)
    winners = [record.entrants[s] for s in range(len(record.entrants)) if record.scores[s] == top]
    lines.append(f"winner{'s (sharing the win)' if len(winners) > 1 else ''}: {', '.join(winners)} with {top}")
    return "\n".join(lines) + "\n"
