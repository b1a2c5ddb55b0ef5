"""The "Guess the Number" program plug-in (specs/guess_number.yaml): play and judge sessions.

A second console assignment on the same engine, with no edit under grader/: the program
chooses a secret between 1 and 100, the player guesses (binary search or random guesses in
the range the hints leave), and the judge checks, game by game, that every hint is true of
one secret that the final guess hits, that the tries are counted right, and that the session's
summary (games, average tries) adds up. The program's secrets are its own: they must vary.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from grader.judge.verdict import TestResult
from grader.programs.plugin import CaseRun, Context, Judgement, Play, Stop

CRITERIA = ("games", "wording")
LOWEST, HIGHEST = 1, 100
ASPECTS = {
    "hints": "every hint is true of one secret number, and the right guess ends the game",
    "tries": "the number of tries announced is the number of guesses",
    "session": "the session ends on 'n' and its summary counts the games and the average tries",
}
WORDING = ("Too low!", "Too high!", "Correct! You guessed it in {n} tries.", "Play again? (y/n): ",
           "Enter your guess: ", "Goodbye!")
CASE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name", "strategy", "games"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"}, "visibility": {"enum": ["public", "hidden"]}, "weight": {"type": "number"},
        "timed": {"type": "boolean"}, "seed": {"type": "integer"},
        "strategy": {"enum": ["binary", "random"]},
        "games": {"type": "integer", "minimum": 1, "maximum": 100},
    },
}
OPTIONS_SCHEMA: dict[str, Any] = {"type": "object", "additionalProperties": False}

_LOW = re.compile(r"too low|higher|too small|go up", re.I)
_HIGH = re.compile(r"too high|lower|too big|too large|go down", re.I)
_RIGHT = re.compile(r"correct|right|you got it|you guessed|well done|bravo", re.I)


@dataclass
class GameLog:
    guesses: list[tuple[int, str]] = field(default_factory=list)   # (guess, "low" | "high" | "right" | "?")
    announced_tries: int | None = None
    again_answered: bool = False


@dataclass
class GuessPlayer:
    """Guesses by the hints it has read; after a right guess answers whether to play again."""

    strategy: str
    games: int
    seed: int
    logs: list[GameLog] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    lo: int = LOWEST
    hi: int = HIGHEST
    quit_sent: bool = False
    contradiction: str = ""
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def answer(self, output: str) -> Any:
        read(self, output)
        if self.quit_sent:
            return Stop("the program did not end after 'n'")
        log = self.logs[-1] if self.logs else None
        if log is not None and log.guesses and log.guesses[-1][1] == "right" and not log.again_answered:
            log.again_answered = True
            again = len(self.logs) < self.games
            self.quit_sent = not again
            return self._send("y" if again else "n")
        if log is None or log.again_answered:
            self.logs.append(GameLog())
            self.lo, self.hi = LOWEST, HIGHEST
        elif log.guesses and log.guesses[-1][1] == "?":
            return Stop(f"the grader could not read the answer to the guess {log.guesses[-1][0]}", by_grader=True)
        if self.lo > self.hi:
            self.contradiction = (f"game {len(self.logs)}: after the hints "
                                  f"{', '.join(f'{g} {h}' for g, h in self.logs[-1].guesses[-4:])} no number is left")
            return Stop(f"the hints contradict each other: {self.contradiction}")
        guess = (self.lo + self.hi) // 2 if self.strategy == "binary" else self.rng.randint(self.lo, self.hi)
        self.logs[-1].guesses.append((guess, "?"))
        return self._send(str(guess))

    def _send(self, text: str) -> str:
        self.sent.append(text)
        return text


def read(player: GuessPlayer, output: str) -> None:
    """Apply the hints printed since the last answer to the open guess."""
    if not player.logs or not player.logs[-1].guesses:
        return
    log = player.logs[-1]
    guess, hint = log.guesses[-1]
    if hint != "?":
        return
    for line in output.splitlines():
        if _RIGHT.search(line):
            log.guesses[-1] = (guess, "right")
            numbers = re.findall(r"\d+", line)
            log.announced_tries = int(numbers[-1]) if numbers else None
            return
        if _LOW.search(line):
            log.guesses[-1] = (guess, "low")
            player.lo = max(player.lo, guess + 1)
            return
        if _HIGH.search(line):
            log.guesses[-1] = (guess, "high")
            player.hi = min(player.hi, guess - 1)
            return


def start(case: Mapping[str, Any], ctx: Context) -> Play:
    return Play(GuessPlayer(case["strategy"], int(case["games"]), int(case.get("seed", 0))))


def _secret(log: GameLog) -> tuple[int | None, str]:
    """The secret all hints agree on (the final right guess), or why there is none."""
    lo, hi = LOWEST, HIGHEST
    for guess, hint in log.guesses:
        if hint == "right":
            if not lo <= guess <= hi:
                return None, f"{guess} was called right, but earlier hints ruled it out (only {lo}..{hi} was left)"
            return guess, ""
        if hint == "low":
            lo = max(lo, guess + 1)
        elif hint == "high":
            hi = min(hi, guess - 1)
        if lo > hi:
            return None, f"after the guess {guess} ({hint}) no number is left between {LOWEST} and {HIGHEST}"
    return None, "the game never ended with a right guess"


def judge(runs: Sequence[CaseRun], ctx: Context) -> Judgement:
    faults: dict[str, list[str]] = {aspect: [] for aspect in ASPECTS}
    secrets: list[int] = []
    printed: set[str] = set()
    games = 0
    for run in runs:
        name = run.case["name"]
        player: GuessPlayer = run.player
        lines = run.transcript.lines()
        printed.update(re.sub(r"\d+", "{n}", line) for line in lines)
        printed.update(re.sub(r"\d+", "{n}", line[: -len(answer)]) for line in lines for answer in player.sent
                       if answer and line.endswith(answer))
        finished = [log for log in player.logs if log.guesses and log.guesses[-1][1] == "right"]
        for number, log in enumerate(finished, 1):
            games += 1
            secret, why = _secret(log)
            if secret is None:
                faults["hints"].append(f"{name} game {number}: {why}")
            else:
                secrets.append(secret)
            if log.announced_tries != len(log.guesses):
                faults["tries"].append(f"{name} game {number}: announced {log.announced_tries} tries after "
                                       f"{len(log.guesses)} guesses")
        if player.contradiction:
            faults["hints"].append(f"{name} {player.contradiction}")
        if run.crash is None and run.transcript.ended == "exit":
            faults["session"].extend(_summary_problems(name, run.transcript.output, finished))
        elif run.transcript.ended == "stopped":
            faults["session"].append(f"{name}: {run.transcript.note}")
    points = ctx.points.get("games", 0.0) / len(ASPECTS)
    tests = [TestResult(name=f"games/{aspect}", function="games", visibility="public",
                        status="failed" if faults[aspect] else "passed", score=0.0 if faults[aspect] else round(points, 4),
                        max_score=round(points, 4), message=f"{ASPECTS[aspect]}: " + ("; ".join(faults[aspect][:3])
                                                                                      or f"right in all {games} games"))
             for aspect in ASPECTS]
    missing = [w for w in WORDING if w.rstrip() not in {p.rstrip() for p in printed}]
    ratio = 1 - len(missing) / len(WORDING)
    wording = ctx.points.get("wording", 0.0)
    tests.append(TestResult(name="wording", function="wording", visibility="public",
                            status="passed" if not missing else "failed", score=round(wording * ratio, 4),
                            max_score=wording, message=f"{ratio:.0%} of the handout's lines printed exactly"
                            + ("; never printed " + ", ".join(repr(m) for m in missing[:3]) if missing else "")))
    broken = []
    if len(secrets) >= 10 and len(set(secrets)) == 1:
        broken.append(("fixed_secret", f"the secret was {secrets[0]} in all {len(secrets)} games"))
    scores = {"games": points * sum(1 for aspect in ASPECTS if not faults[aspect]), "wording": wording * ratio}
    return Judgement(scores, tests, broken)


def _summary_problems(name: str, output: str, finished: list[GameLog]) -> list[str]:
    tail = output.strip().splitlines()[-3:]
    summary = next((line for line in tail if re.search(r"\bgames?\b", line, re.I)), None)
    if summary is None:
        return [f"{name}: no summary line with the number of games at the end"]
    numbers = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", summary)]
    average = sum(len(log.guesses) for log in finished) / max(len(finished), 1)
    problems = []
    if len(finished) not in numbers:
        problems.append(f"{name}: the summary '{summary.strip()}' does not say {len(finished)} games")
    if not any(abs(n - average) < 0.051 for n in numbers):
        problems.append(f"{name}: the summary '{summary.strip()}' does not give the average {average:.1f} tries")
    return problems
