"""Judge one Blackjack session against the reference's replay: per game, session, wording.

Every game becomes one TestResult. A game passes when the student's program showed the
same cards to the same hands, asked for the same answers and settled the same money as
the reference playing the same deck with the same answers. The session test checks the
banners, the game numbers, the final total and a clean end; the wording test compares
the lines with the reference's exact wording.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Mapping

from grader.judge.verdict import TestResult

from .replay import Replay, build_deck, deal_problems, reference_session_lines, replay_game
from .session import RunRecord
from .transcript import GameRecord, hand_total

# Lines whose wording the handout does not show (the reference invents it): not part of the wording score.
_INVENTED = re.compile(r"insur|tie|get back", re.I)


@dataclass(frozen=True)
class Crash:
    status: str      # crashed | timeout
    message: str
    game: int | None = None
    line: int | None = None


@dataclass
class CaseVerdict:
    tests: list[TestResult] = field(default_factory=list)
    games_score: float = 0.0
    games_max: float = 0.0
    wording_score: float = 0.0
    wording_max: float = 0.0
    crash: Crash | None = None
    games_played: int = 0


def _euro(money: float | None) -> str:
    return "no amount" if money is None else f"{money:+.2f} Euro"


def _hand(cards: list[str]) -> str:
    return f"{', '.join(cards) or 'nothing'} (total {hand_total(cards)})"


def game_differences(student: GameRecord, replay: Replay) -> list[str]:
    """What the student's game did differently from the reference; empty when it is right."""
    problems = deal_problems(student)
    if problems:
        return [f"impossible deal: {p}" for p in problems]
    ref = replay.game
    diffs: list[str] = []
    asked, used = len(student.inputs), replay.answers_used
    if used < asked:
        extra = ", ".join(kind for kind, _ in student.inputs[used:])
        diffs.append(f"your program asked for {asked} answers, the reference for {used} (extra: {extra})")
    if replay.wanted_more:
        diffs.append(f"the game ended too early: the reference still wanted an answer after {asked}")
    if student.player_draws != ref.player_draws:
        diffs.append(f"player's cards: shown {_hand(student.player_cards())}, expected {_hand(ref.player_cards())}")
    if ref.dealer_hidden and student.dealer_hidden != ref.dealer_hidden:
        diffs.append(f"the dealer's hidden card {ref.dealer_hidden} should have been shown")
    if student.dealer_draws != ref.dealer_draws:
        diffs.append(
            f"dealer's cards: shown {_hand(student.dealer_cards())}, expected {_hand(ref.dealer_cards())}"
            " (the dealer draws while the total is 17 or less)"
        )
    if student.money is None:
        diffs.append(f"no result line for this game (expected '{ref.result_line}')")
    elif ref.money is None or abs(student.money - ref.money) > 0.005:
        diffs.append(f"result: you settled {_euro(student.money)} ('{student.result_line.strip()}'), "
                     f"expected {_euro(ref.money)} ('{ref.result_line}')")
    return diffs


def _stderr_location(stderr: str, main_file: str) -> tuple[int | None, str]:
    """The submission's line in a Python traceback or a Java stack trace, and the exception."""
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    where: int | None = None
    for match in re.finditer(r'File "([^"]+)", line (\d+)', stderr):
        if match.group(1).endswith(main_file):
            where = int(match.group(2))
    java = re.search(r"\(" + re.escape(main_file) + r":(\d+)\)", stderr)
    if java:
        where = int(java.group(1))
    exception = ""
    for line in lines:
        if line.startswith("Exception in thread"):
            exception = line.split(" ", 4)[-1]
            break
    if not exception and lines:
        exception = lines[-1].strip()
    return where, exception[:200]


def find_crash(record: RunRecord, main_file: str) -> Crash | None:
    """Crash = exception, non-zero exit or no final summary; timeout = stopped waiting."""
    session = record.session
    last_game = session.games[-1].number if session.games else None
    line, exception = _stderr_location(record.stderr, main_file)
    at = f" in game {last_game}" if last_game else ""
    at_line = f", line {line}" if line else ""
    if record.killed_reason == "output limit exceeded":
        return Crash("crashed", f"output limit exceeded{at}", last_game)
    if record.problem.startswith("did not end"):
        return Crash("crashed", f"{record.problem} (after game {last_game})", last_game)
    if record.problem or record.timed_out:
        reason = record.problem or "time limit exceeded"
        return Crash("timeout", f"{reason}{at}", last_game)
    if "Traceback (most recent call last)" in record.stderr or "Exception in thread" in record.stderr:
        return Crash("crashed", f"crashed{at}{at_line}: {exception}", last_game, line)
    if record.exit_code not in (0, None):
        return Crash("crashed", f"exit code {record.exit_code}{at}{at_line}" + (f": {exception}" if exception else ""),
                     last_game, line)
    if session.summary is None:
        return Crash("crashed", f"no final summary ('You have won/lost ... Euro'){at}", last_game)
    return None


def wording_ratio(reference_lines: list[str], student_lines: list[str]) -> tuple[float, list[str]]:
    """Share of the reference's lines the student printed exactly, and the first misses."""
    ref = [line.rstrip() for line in reference_lines if not _INVENTED.search(line)]
    got = [line.rstrip() for line in student_lines if not _INVENTED.search(line)]
    if not ref:
        return 1.0, []
    matcher = difflib.SequenceMatcher(None, ref, got, autojunk=False)
    matched = sum(block.size for block in matcher.get_matching_blocks())
    misses: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            for k in range(i1, i2):
                shown = f", printed '{got[j1 + k - i1]}'" if tag == "replace" and j1 + k - i1 < j2 else ""
                misses.append(f"expected '{ref[k]}'{shown}")
    return matched / len(ref), misses[:5]


def judge_case(case: Mapping[str, Any], record: RunRecord, reference: ModuleType, *, planned_games: int,
               points: float, wording_points: float, main_file: str) -> CaseVerdict:
    """Per-game and session TestResults for one case, worth ``points`` (+ ``wording_points``)."""
    name = case["name"]
    visibility = case.get("visibility", "hidden")
    session = record.session
    crash = find_crash(record, main_file)
    verdict = CaseVerdict(crash=crash, games_max=points, wording_max=wording_points)
    units = planned_games + 1           # every planned game, and the session as a whole
    unit = points / units
    replays: list[Replay] = []
    games = session.games[:planned_games]
    verdict.games_played = len(games)
    for game in games:
        replay = replay_game(reference, game, build_deck(game))
        replays.append(replay)
        diffs = game_differences(game, replay)
        if game.result_kind is None and crash is not None:  # the game never finished
            status, message = crash.status, crash.message
        else:
            status = "failed" if diffs else "passed"
            message = "; ".join(diffs) if diffs else "same cards, answers and result as the reference"
        score = unit if status == "passed" else 0.0
        verdict.games_score += score
        verdict.tests.append(_test(f"{name}/game{game.number}", "games", visibility, status, score, unit, message,
                                   expected=replay.game.result_line, actual=game.result_line,
                                   staff={"cards": game.revealed(), "inputs": game.inputs}))
    for missing in range(len(games) + 1, planned_games + 1):
        status = crash.status if crash else "failed"
        message = f"not played: {crash.message}" if crash else "not played: the session ended early"
        verdict.tests.append(_test(f"{name}/game{missing}", "games", visibility, status, 0.0, unit, message))
    total = sum(r.game.money or 0.0 for r in replays)
    session_problems = _session_problems(session, games, total)
    if crash:
        status, message = crash.status, crash.message
    else:
        status = "failed" if session_problems else "passed"
        message = "; ".join(session_problems) or "banners, game numbers, final total and goodbye as expected"
    score = unit if status == "passed" else 0.0
    verdict.games_score += score
    verdict.tests.append(_test(f"{name}/session", "games", visibility, status, score, unit, message,
                               staff={"stderr": record.stderr[-2000:], "exit_code": record.exit_code}))
    ratio, misses = wording_ratio(reference_session_lines(reference, replays, total), session.lines)
    if crash:
        ratio = min(ratio, len(games) / max(planned_games, 1))
    verdict.wording_score = wording_points * ratio
    wording_status = "passed" if ratio >= 0.999 else "failed"
    verdict.tests.append(_test(
        f"{name}/wording", "wording", visibility, wording_status, verdict.wording_score, wording_points,
        f"{ratio:.0%} of the lines worded exactly as in the handout" + (": " + "; ".join(misses) if misses else "")))
    return verdict


def _session_problems(session: Any, games: list[GameRecord], total: float) -> list[str]:
    problems = []
    if not session.welcome:
        problems.append("no welcome banner ('******* WELCOME TO BLACKJACK ********')")
    numbers = [g.number for g in games]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"games numbered {numbers}, expected 1..{len(numbers)}")
    if session.summary is None:
        problems.append("no final total")
    elif abs(session.summary - total) > 0.005:
        problems.append(f"final total {_euro(session.summary)}, expected {_euro(total)}")
    if not session.goodbye:
        problems.append("no goodbye line ('******** GOODBYE - COME AGAIN **********')")
    return problems


def _test(name: str, function: str, visibility: str, status: str, score: float, max_score: float, message: str,
          *, expected: Any = None, actual: Any = None, staff: dict[str, Any] | None = None) -> TestResult:
    return TestResult(name=name, function=function, visibility=visibility, status=status,  # type: ignore[arg-type]
                      score=round(score, 4), max_score=round(max_score, 4), message=message,
                      expected=expected, actual=actual, staff=staff or {})
