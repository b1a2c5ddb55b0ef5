"""``grader tournament``: students' players play real games against each other (and bots).

Reads like the pipeline: load spec and tournament block -> find and load players ->
seat games from the seed -> play (sandboxed, in parallel) -> standings -> write and show.
"""
from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from grader.cli import command, err, resolve_profile
from grader.errors import ExitCode, GraderError
from grader.tournament.config import BOT_NAMES, TournamentConfig, load_config
from grader.tournament.referee import GameRecord


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("targets", nargs="*", metavar="TARGET", help="player files, folders, or folders of submissions")
    p.add_argument("--games", type=int, default=None, help="games to play (default: the spec's tournament.games)")
    p.add_argument("--seed", type=int, default=None, help="tournament seed (default: the spec's tournament.seed)")
    p.add_argument("--out", type=Path, default=Path("tournament"), help="output folder (default: tournament)")
    p.add_argument("--jobs", "-j", type=int, default=1, help="games played in parallel, each worker with its own sandbox slots (4 to 16)")
    p.add_argument("--bots", default=None, help=f"built-in opponents, comma separated ({', '.join(BOT_NAMES)}) or 'none'")
    p.add_argument("--replay", type=int, default=None, metavar="GAME", help="replay game GAME move by move (same players, seed and bots)")
    p.add_argument("--unsafe", action="store_true", help="run several students' players without a sandbox (trusted code only)")


def _bots(value: str | None, config: TournamentConfig) -> list[str]:
    if value is None:
        return list(config.bots)
    names = [n.strip().removeprefix("bot:") for n in value.split(",") if n.strip()]
    if names in (["none"], []):
        return []
    unknown = [n for n in names if n not in BOT_NAMES]
    if unknown:
        raise GraderError(f"--bots: unknown bot {', '.join(unknown)}", hint=f"choose from {', '.join(BOT_NAMES)}", exit_code=ExitCode.USAGE)
    return list(dict.fromkeys(names))


class GameProgress:
    """A live bar on a terminal; a line per tenth of the games in a log."""

    def __init__(self, total: int, stream: Any = None):
        self.total, self.done, self.stream = total, 0, stream or sys.stderr
        self._bar: Any = None
        self._task: Any = None
        self._every = max(1, total // 10)

    def __enter__(self) -> "GameProgress":
        if self.stream.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            self._bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                                 TextColumn("{task.fields[last]}"), console=Console(file=self.stream))
            self._bar.__enter__()
            self._task = self._bar.add_task("games", total=self.total, last="")
        return self

    def advance(self, record: GameRecord) -> None:
        self.done += 1
        best = max(range(len(record.scores)), key=lambda s: record.scores[s])
        last = f"game {record.game}: {record.entrants[best]} {record.scores[best]}"
        if self._bar is not None:
            self._bar.update(self._task, advance=1, last=last)
        elif self.done % self._every == 0 or self.done == self.total:
            print(f"[{self.done}/{self.total}] {last}", file=self.stream, flush=True)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)


@command("tournament", "play students' COMP10001-Go players against each other and built-in bots", _args)
def cmd_tournament(args: argparse.Namespace) -> int:
    from grader.spec.loader import load_spec, load_trusted_module
    from grader.submissions import discover
    from grader.tournament import runner
    from grader.tournament.leaderboard import Tournament, format_replay, print_table, write_all
    from grader.tournament.standings import standings

    spec = load_spec(args.spec)
    if "tournament" not in spec.raw:
        raise GraderError(f"{args.spec} defines no tournament (the spec has no `tournament:` block)",
                          hint="tournaments are for games such as specs/comp10001go.yaml", exit_code=ExitCode.USAGE)
    config = load_config(spec.path, spec.raw)
    if spec.reference is None:
        raise GraderError(f"{args.spec} names no reference: the referee scores with its comp10001go_score_grouping", exit_code=ExitCode.USAGE)
    reference = load_trusted_module(spec.reference, "reference")
    bots = _bots(args.bots, config)
    games = args.games if args.games is not None else config.games
    seed = args.seed if args.seed is not None else config.seed
    if games < 1 or args.jobs < 1:
        raise GraderError("--games and --jobs must be at least 1", exit_code=ExitCode.USAGE)
    submissions = discover(args.targets, spec.submission_files) if args.targets else []
    profile = resolve_profile(args, for_students=len(submissions) <= 1) if submissions else None
    open_session, close = runner.sandbox_sessions(profile)  # starts nothing until a student sits
    try:
        players, rejected = runner.check_entries(submissions, config, open_session)
        for r in rejected:
            err(f"not entered: {r.id}: {r.reason}")
        if submissions and not players:
            raise GraderError("no player could enter the tournament", exit_code=ExitCode.CHECK_FAILED)
        entrants = players + runner.bot_entrants(bots)
        ids = [e.id for e in entrants]
        replay_cmd = " ".join(["grader", "tournament", shlex.quote(args.spec), *map(shlex.quote, args.targets),
                               "--seed", str(seed), "--bots", ",".join(bots) or "none", "--replay", "{game}"])
        if args.replay is not None:
            if args.replay < 1:
                raise GraderError("--replay: games are numbered from 1", exit_code=ExitCode.USAGE)
            seating = runner.schedule(ids, args.replay, seed)[-1]
            record = runner.run_games([seating], entrants, config, reference, open_session)[0]
            sys.stdout.write(format_replay(record))
            return ExitCode.OK
        seatings = runner.schedule(ids, games, seed)
        where = f"isolation: {profile.describe()}" if profile else "bots only"
        err(f"tournament of {spec.assignment}: {len(players)} player(s) and {len(bots)} bot(s), {games} games, seed {seed}, {args.jobs} job(s); {where}")
        start = time.perf_counter()
        with GameProgress(len(seatings)) as progress:
            records = runner.run_games(seatings, entrants, config, reference, open_session, jobs=args.jobs,
                                       capacity=runner.slots_per_worker(len(players)), on_game=progress.advance)
        elapsed = time.perf_counter() - start
    finally:
        close()
    settings = {"games": games, "seed": seed, "bots": bots, "move_time_limit": config.move_time_limit,
                "group_time_limit": config.group_time_limit, "game_time_limit": config.game_time_limit,
                "default_move": config.default_move, "rating": {"initial": config.rating_initial, "k": config.rating_k}}
    result = Tournament(assignment=spec.assignment, seed=seed, standings=standings(records, ids, config), records=records,
                        rejected=[(r.id, r.reason) for r in rejected], settings=settings, replay_command=replay_cmd)
    written = write_all(result, args.out)
    print_table(result, sys.stdout)
    err(f"played {len(records)} games in {elapsed:.1f} s ({len(records) / max(elapsed, 1e-9):.1f} games/s); {len(written)} files in {args.out}/")
    return ExitCode.OK
