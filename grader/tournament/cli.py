"""``grader tournament``: students' players play real games against each other (and bots).

Reads like the pipeline: load spec, tournament block and game plug-in -> find and load
players -> seat games from the seed -> play (sandboxed, in parallel; games already in the
store are read back) -> standings -> write and show.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import shlex
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from grader.cli import command, err, resolve_profile
from grader.errors import ExitCode, GraderError
from grader.textsafe import terminal_safe
from grader.spec.model import TournamentSpec
from grader.tournament.game import Game
from grader.tournament.match import GameRecord


def _games(value: str | None, config: TournamentSpec) -> int | str:
    if value is None:
        return config.games
    if value == "auto":
        return value
    try:
        number = int(value)
    except ValueError:
        raise GraderError(f"--games: expected a number of games or 'auto', not {value!r}", exit_code=ExitCode.USAGE) from None
    if number < 1:
        raise GraderError("--games must be at least 1, or 'auto'", exit_code=ExitCode.USAGE)
    return number


def _args(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", metavar="SPEC")
    p.add_argument("targets", nargs="*", metavar="TARGET", help="player files, folders, or folders of submissions")
    p.add_argument("--games", default=None,
                   help="games to play, or 'auto': until the order of adjacent entrants is settled (default: the spec's tournament.games)")
    p.add_argument("--max-games", type=int, default=None, help="the budget of --games auto (default: the spec's tournament.max_games)")
    p.add_argument("--seed", type=int, default=None, help="tournament seed (default: the spec's tournament.seed)")
    p.add_argument("--out", type=Path, default=Path("tournament"),
                   help="output folder (default: tournament); its store keeps every game, so a rerun plays only what changed")
    p.add_argument("--jobs", "-j", type=int, default=1, help="games played in parallel, each worker with its own sandbox slots")
    p.add_argument("--bots", default=None, help="built-in opponents of the game, comma separated, or 'none' (default: the spec's)")
    p.add_argument("--replay", type=int, default=None, metavar="GAME", help="replay game GAME move by move (same players, seed, bots and --out: its deal key)")
    p.add_argument("--unsafe", action="store_true", help="run several students' players without a sandbox (trusted code only)")


def _bots(value: str | None, config: TournamentSpec, game: Game) -> list[str]:
    offered = game.bots()
    if value is None:
        return list(config.bots if config.bots is not None else game.default_bots)
    names = [n.strip().removeprefix("bot:") for n in value.split(",") if n.strip()]
    if names in (["none"], []):
        return []
    unknown = [n for n in names if n not in offered]
    if unknown:
        raise GraderError(f"--bots: unknown bot {', '.join(unknown)}", hint=f"{game.title} offers {', '.join(offered) or 'no bots'}",
                          exit_code=ExitCode.USAGE)
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
                                 TextColumn("{task.fields[last]}", markup=False), console=Console(file=self.stream))
            self._bar.__enter__()
            self._task = self._bar.add_task("games", total=self.total, last="")
        return self

    def advance(self, record: GameRecord) -> None:
        self.done += 1
        best = max(range(len(record.scores)), key=lambda s: record.scores[s])
        last = f"game {record.game}: {terminal_safe(record.entrants[best])} {record.scores[best]:g}"
        if self._bar is not None:
            self._bar.update(self._task, advance=1, last=last)
        elif self.done % self._every == 0 or self.done == self.total:
            print(f"[{self.done}/{self.total}] {last}", file=self.stream, flush=True)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)


@dataclass(frozen=True)
class _Plan:
    """What one command runs: the spec, its tournament part with the command line's overrides,
    the game, the bots, and how many games from which seed."""

    spec: Any
    config: TournamentSpec
    game: Game
    bots: list[str]
    games: int | str
    seed: int


def _plan(args: argparse.Namespace) -> _Plan:
    from grader.spec.loader import load_spec
    from grader.tournament.config import load_game

    spec = load_spec(args.spec)
    if spec.tournament is None:
        raise GraderError(f"{args.spec} defines no tournament (the spec has no `tournament:` block)",
                          hint="a tournament spec names its game: tournament: {game: ../reference/x_game.py}", exit_code=ExitCode.USAGE)
    config = spec.tournament
    if args.max_games is not None:
        if args.max_games < 1:
            raise GraderError("--max-games must be at least 1", exit_code=ExitCode.USAGE)
        config = replace(config, max_games=args.max_games)
    if args.jobs < 1:
        raise GraderError("--jobs must be at least 1", exit_code=ExitCode.USAGE)
    game = load_game(config)
    seed = args.seed if args.seed is not None else config.seed
    return _Plan(spec, config, game, _bots(args.bots, config, game), _games(args.games, config), seed)


def _deal_key(out: Path, *, create: bool) -> bytes:
    """The tournament's secret deal key, kept beside its store (``OUT/.deal-key``, staff-only):
    a rerun into the same folder deals the same games (and reuses them), a new folder new ones."""
    path = out / ".deal-key"
    try:
        return bytes.fromhex(path.read_text().strip())
    except FileNotFoundError:
        if not create:
            raise GraderError(f"{out} holds no tournament to replay (no {path.name})",
                              hint="replay from the --out folder of the tournament", exit_code=ExitCode.USAGE) from None
    except ValueError:
        raise GraderError(f"{path} is not a deal key", exit_code=ExitCode.USAGE) from None
    out.mkdir(parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key.hex() + "\n")
    return key


def _play_with_store(plan: _Plan, tables: Any, saved: Any, ids: list[str], progress: GameProgress,
                     deal: Callable[[Sequence[Any]], list[Any]]) -> list[GameRecord]:
    """Every game of the tournament: those already in the store are read back, the rest played
    (``deal``: the seatings with their secret deal seeds)."""
    from grader.tournament import runner

    def play(public: Sequence[runner.Seating]) -> list[GameRecord]:
        seatings = deal(public)
        known = saved.known(seatings)
        for record in known.values():
            progress.advance(record)
        by_game = {s.game: s for s in seatings}

        def finished(record: GameRecord) -> None:
            saved.save(by_game[record.game], record)
            progress.advance(record)

        todo = [s for s in seatings if s.game not in known]
        return sorted([*known.values(), *tables.run(todo, on_game=finished)], key=lambda r: r.game)

    return runner.play_tournament(ids, plan.games, plan.seed, plan.game.seats, plan.config, play)


def _decided(record: GameRecord) -> str:
    """What a game's result rests on, as JSON (a stored game's log is JSON already): its moves,
    scores and faults, not the times they took."""
    faults = [(f.seat, f.role, f.turn, f.kind, f.returned) for f in record.faults]
    return json.dumps([record.scores, record.wins, faults, record.log], sort_keys=True, default=str)


def replay_note(stored: GameRecord | None, again: GameRecord) -> list[str]:
    """What to say of a game played again beside the one the standings count.

    The stored game is the one shown, since a player that keeps state between games (a
    counter in a file, the clock) plays differently when it is asked again, and a replay
    that showed the new game would show staff a game that never counted."""
    if stored is None:
        return [f"game {again.game} is not in the store of this --out folder: shown as played now"]
    if _decided(stored) == _decided(again):
        return [f"game {again.game}: shown as stored; played again, it went the same way"]
    return [f"game {again.game}: shown as stored (the one the standings count); played again now it went "
            "differently: a player depends on something besides its inputs (state kept between games, "
            "the clock, its own timing)"]


@command("tournament", "play students' players of a game against each other and the game's bots", _args)
def cmd_tournament(args: argparse.Namespace) -> int:
    from grader.store import Store
    from grader.submissions import discover
    from grader.tournament import runner
    from grader.tournament.leaderboard import Tournament, format_replay, print_table, write_all
    from grader.tournament.results import GameStore
    from grader.tournament.standings import standings
    from grader.tournament.workers import parallel_tables

    plan = _plan(args)
    game, config = plan.game, plan.config
    submissions = discover(args.targets, plan.spec.submission_files) if args.targets else []
    profile = resolve_profile(args, for_students=len(submissions) <= 1) if submissions else None
    open_session, close = runner.sandbox_sessions(profile)  # starts nothing until a student sits
    store = Store(args.out) if args.replay is None else None
    lost: list[Any] = []  # games a worker process took with it (see workers.py)
    try:
        players, rejected = runner.check_entries(submissions, game, open_session)
        for r in rejected:
            err(f"not entered: {r.id}: {r.reason}")
        if submissions and not players:
            raise GraderError("no player could enter the tournament", exit_code=ExitCode.CHECK_FAILED)
        entrants = players + runner.bot_entrants(plan.bots)
        ids = [e.id for e in entrants]
        replay_cmd = " ".join(["grader", "tournament", shlex.quote(args.spec), *map(shlex.quote, args.targets),
                               "--seed", str(plan.seed), "--bots", ",".join(plan.bots) or "none",
                               "--out", shlex.quote(str(args.out)), "--replay", "{game}"])
        key = _deal_key(args.out, create=args.replay is None)
        digests = {e.id: e.submission.digest if e.submission is not None else "bot" for e in entrants}

        def deal(seatings: Sequence[Any]) -> list[Any]:
            return runner.secret_deals(seatings, key, digests)

        if args.replay is not None:
            if args.replay < 1:
                raise GraderError("--replay: games are numbered from 1", exit_code=ExitCode.USAGE)
            seating = deal(runner.schedule(ids, args.replay, plan.seed, game.seats)[-1:])[0]
            with Store(args.out) as replay_store:
                stored = GameStore(replay_store, plan.spec.assignment, game, config, entrants).known([seating])
            again = runner.run_games([seating], entrants, game, config, open_session)[0]
            sys.stdout.write(format_replay(game, stored.get(seating.game, again)))
            for line in replay_note(stored.get(seating.game), again):
                err(line)
            return ExitCode.OK
        assert store is not None
        saved = GameStore(store, plan.spec.assignment, game, config, entrants)
        where = f"isolation: {profile.describe()}" if profile else "bots only"
        budget = f"until settled (at most {config.max_games})" if plan.games == "auto" else str(plan.games)
        err(f"tournament of {plan.spec.assignment} ({game.title}): {len(players)} player(s) and {len(plan.bots)} bot(s), "
            f"{budget} games, seed {plan.seed}, {args.jobs} job(s); {where}")
        start = time.perf_counter()
        with GameProgress(config.max_games if plan.games == "auto" else int(plan.games)) as progress, \
                parallel_tables(entrants, game, config, open_session, profile=profile, jobs=args.jobs,
                                capacity=runner.slots_per_worker(len(players), game.seats)) as tables:
            records = _play_with_store(plan, tables, saved, ids, progress, deal)
        elapsed = time.perf_counter() - start
        lost = list(tables.lost)
        for game_lost in lost:
            err(f"game {game_lost.game} not played: {game_lost.reason}; the grader's fault, charged to no player "
                f"(not stored: running the command again plays it)")
    finally:
        close()
        if store is not None:
            store.close()
    settings = {"games": plan.games, "max_games": config.max_games, "seed": plan.seed, "bots": plan.bots,
                "move_time_limit": config.move_time_limit, "game_time_limit": config.game_time_limit,
                "options": game.options, "rating": {"model": config.rating_model, "interval": config.rating_interval}}
    result = Tournament(assignment=plan.spec.assignment, game=game, seed=plan.seed, confidence=config.rating_interval,
                        standings=standings(records, ids, config), records=records,
                        rejected=[(r.id, r.reason) for r in rejected], settings=settings, replay_command=replay_cmd)
    written = write_all(result, args.out)
    print_table(result, sys.stdout)
    played = sum(1 for r in records if not r.reused)
    reused = f", {len(records) - played} reused from the store" if played < len(records) else ""
    reused += f", {len(lost)} lost (see above)" if lost else ""
    err(f"played {played} games in {elapsed:.1f} s ({played / max(elapsed, 1e-9):.1f} games/s){reused}; "
        f"{len(written)} files in {args.out}/")
    return ExitCode.OK
