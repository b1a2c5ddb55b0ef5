"""The "Guess the Number" program plug-in (specs/guess_number.yaml): play and judge sessions.

A second console assignment on the same engine, with no edit under grader/: the program
chooses a secret between 1 and 100, the player guesses (binary search or random guesses in
the range the hints leave), and the judge checks, game by game, that every hint is true of
one secret that the final guess hits, that the tries are counted right, and that the session's
summary (games, average tries) adds up. The program's secrets are its own, so the secrets its
answers imply are tested, over all games, as uniform draws made before the first guess
(``secret_tests``: rules ``rigged_secret`` and ``unfair_secrets``; a constant one is ``fixed_secret``),
and the handout's lines count as wording only where they belong (``wording_in_place``).

The output is read as a person at the terminal sees it (grader/programs/terminal.py), by the live player
and by the judge alike: a hint overwritten after a carriage return, backspaces or an erase is read as the
screen left it, colours are dropped, and a session whose output moves the cursor to other lines (to
rewrite a hint, say) can't be read as lines: its games are not judged and none counts as played.
"""
from __future__ import annotations

import math
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

import numpy as np

from grader.judge.verdict import TestResult
from grader.programs.plugin import (CaseRun, Context, Judgement, Play, Stop, hide_findings, listing, played_share,
                                    unreadable)
from grader.programs.session import Transcript
from grader.programs.terminal import Move, Terminal

CRITERIA = ("games", "wording")
LOWEST, HIGHEST = 1, 100
ASPECTS = {
    "hints": "every hint is true of one secret number, and the right guess ends the game",
    "tries": "the number of tries announced is the number of guesses",
    "session": "the session ends on 'n' and its summary counts the games and the average tries",
}
WORDING = ("Too low!", "Too high!", "Correct! You guessed it in {n} tries.", "Play again? (y/n): ",
           "Enter your guess: ", "Goodbye!")
WHERE = dict(zip(WORDING, ("in answer to a guess below the secret", "in answer to a guess above the secret",
                           "in answer to the right guess", "as the question answered with y or n",
                           "as the prompt a guess answers", "after the answer n")))
#: Significance of each test of the secrets a program's answers imply (the total of guesses is tested
#: in both tails): together they raise a false alarm for fewer than 1 honest submission in 200,000.
SECRET_ALPHA = {"first_guess": 1e-6, "tries": 1e-6, "distinct": 1e-6, "spread": 1e-6}
SECRET_MIN_GAMES = 30
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
    rng_state: Any = None          # the player's random state before its first guess (to replay it)


@dataclass
class GuessPlayer:
    """Guesses by the hints it has read; after a right guess answers whether to play again."""

    strategy: str
    games: int
    seed: int
    logs: list[GameLog] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    roles: list[tuple[str, int]] = field(default_factory=list)   # per answer sent: ("guess" | "again", game index)
    lo: int = LOWEST
    hi: int = HIGHEST
    quit_sent: bool = False
    contradiction: str = ""
    rng: random.Random = field(init=False)
    terminal: Terminal = field(default_factory=Terminal, repr=False)   # the screen the program's output makes

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def answer(self, output: str) -> Any:
        read(self, self.terminal.feed(output) + [self.terminal.current])
        if self.quit_sent:
            return Stop("the program did not end after 'n'")
        log = self.logs[-1] if self.logs else None
        if log is not None and log.guesses and log.guesses[-1][1] == "right" and not log.again_answered:
            log.again_answered = True
            again = len(self.logs) < self.games
            self.quit_sent = not again
            return self._send("y" if again else "n", "again")
        if log is None or log.again_answered:
            self.logs.append(GameLog(rng_state=self.rng.getstate()))
            self.lo, self.hi = LOWEST, HIGHEST
        elif log.guesses and log.guesses[-1][1] == "?":
            return Stop(f"the grader could not read the answer to the guess {log.guesses[-1][0]}", by_grader=True)
        if self.lo > self.hi:
            self.contradiction = (f"game {len(self.logs)}: after the hints "
                                  f"{', '.join(f'{g} {h}' for g, h in self.logs[-1].guesses[-4:])} no number is left")
            return Stop(f"the hints contradict each other: {self.contradiction}")
        guess = next_guess(self.strategy, self.lo, self.hi, self.rng)
        self.logs[-1].guesses.append((guess, "?"))
        return self._send(str(guess), "guess")

    def _send(self, text: str, role: str) -> str:
        self.terminal.feed(text)        # echoed where the cursor is, then Enter ends the line
        self.terminal.end_line()
        self.sent.append(text)
        self.roles.append((role, len(self.logs) - 1))
        return text


def next_guess(strategy: str, lo: int, hi: int, rng: random.Random) -> int:
    """The player's guess when the hints leave lo..hi: the middle, or a random number of the range."""
    return (lo + hi) // 2 if strategy == "binary" else rng.randint(lo, hi)


def read(player: GuessPlayer, lines: Sequence[str]) -> None:
    """Apply the hints shown since the last answer (the lines as the screen shows them, the prompt's last) to the
    open guess."""
    if not player.logs or not player.logs[-1].guesses:
        return
    log = player.logs[-1]
    guess, hint = log.guesses[-1]
    if hint != "?":
        return
    for line in lines:
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


@dataclass
class _Findings:
    """What the judging of the runs has found so far, over all cases."""

    faults: dict[str, list[str]] = field(default_factory=lambda: {aspect: [] for aspect in ASPECTS})
    played: list[Played] = field(default_factory=list)
    in_place: set[str] = field(default_factory=set)
    notes: list[TestResult] = field(default_factory=list)     # per case, of a session that can't be read
    short: list[str] = field(default_factory=list)
    games: int = 0
    done: int = 0
    wanted: int = 0


def judge(runs: Sequence[CaseRun], ctx: Context) -> Judgement:
    found = _Findings()
    for run in runs:
        before = {aspect: len(faults) for aspect, faults in found.faults.items()}
        _judge_run(run, found)
        if run.case.get("visibility", "hidden") == "hidden":
            hide_findings(found.faults, before)     # they quote the program's output of a hidden case
    faults, played, in_place, games, short = found.faults, found.played, found.in_place, found.games, found.short
    done, wanted = found.done, found.wanted
    share, played_test = played_share(done, wanted, "games")
    points = ctx.points.get("games", 0.0) / len(ASPECTS) * share
    tests = [_aspect_test(aspect, faults[aspect], points, games) for aspect in ASPECTS]
    missing = [w for w in WORDING if w.rstrip() not in in_place]
    ratio = 1 - len(missing) / len(WORDING)
    wording = ctx.points.get("wording", 0.0) * share
    tests.append(TestResult(name="wording", function="wording", visibility="public",
                            status="passed" if not missing and share >= 1 else "failed", score=round(wording * ratio, 4),
                            max_score=round(wording, 4), message=f"{ratio:.0%} of the handout's lines printed exactly where "
                            "they belong" + ("; never printed " + "; ".join(f"{m!r} {WHERE[m]}" for m in missing[:3])
                                             if missing else "")))
    broken = []
    secrets_drawn = [game.secret for game in played]
    fixed = len(secrets_drawn) >= 10 and len(set(secrets_drawn)) == 1
    if fixed:
        broken.append(("fixed_secret", f"the secret was {secrets_drawn[0]} in all {len(secrets_drawn)} games"))
    tested = secret_tests(played)
    for rule in ("rigged_secret", "unfair_secrets"):
        messages = [message for kind, message in tested if kind == rule and not (fixed and rule == "unfair_secrets")]
        if messages:
            broken.append((rule, "; ".join(messages)))
    if played_test:
        tests.append(played_test)
    tests += found.notes
    scores = {"games": points * sum(1 for aspect in ASPECTS if not faults[aspect]), "wording": wording * ratio}
    return Judgement(scores, tests, broken, short_cases=tuple(short))


def _judge_run(run: CaseRun, found: _Findings) -> None:
    """One case's session, read from the screen its output made: its games, its summary, its wording."""
    name = run.case["name"]
    player: GuessPlayer = run.player
    parts, moves = run.transcript.segments()
    found.wanted += player.games              # lost sessions too
    if moves:
        _unreadable(run, moves, found)
        return
    faults = found.faults
    secrets: dict[int, int] = {}
    finished = [(index, log) for index, log in enumerate(player.logs) if log.guesses and log.guesses[-1][1] == "right"]
    found.done += min(len(finished), player.games)
    if len(finished) < player.games and not run.crash:
        found.short.append(name)
    for number, (index, log) in enumerate(finished, 1):
        found.games += 1
        secret, why = _secret(log)
        if secret is None:
            faults["hints"].append(f"{name} game {number}: {why}")
        else:
            secrets[index] = secret
            found.played.append(Played(player.strategy, log.rng_state, secret, len(log.guesses)))
        if log.announced_tries != len(log.guesses):
            faults["tries"].append(f"{name} game {number}: announced {log.announced_tries} tries after "
                                   f"{len(log.guesses)} guesses")
    if player.contradiction:
        faults["hints"].append(f"{name} {player.contradiction}")
    if run.crash is None and run.transcript.ended == "exit":
        shown = "\n".join(line for part in parts for line in part)
        faults["session"].extend(_summary_problems(name, shown, [log for _, log in finished]))
    elif run.transcript.ended == "stopped":
        faults["session"].append(f"{name}: {run.transcript.note}")
    found.in_place |= wording_in_place(run.transcript, player, secrets, parts)


def _unreadable(run: CaseRun, moves: Sequence[Move], found: _Findings) -> None:
    """A session whose output moved the cursor to other lines: what a person saw is not its lines, so none of its
    games is judged (none counts as played, as in the Blackjack plug-in) and the student is told why."""
    name = run.case["name"]
    why = unreadable(moves, len(run.player.logs))
    found.short.append(name)
    found.faults["session"].append(f"{name}: {why}")
    found.notes.append(TestResult(name=f"{name}/session", function="games", visibility=run.case.get("visibility", "hidden"),
                                  status="failed", score=0.0, max_score=0.0, message=why))


def _aspect_test(aspect: str, faults: list[str], points: float, games: int) -> TestResult:
    """One aspect over every case's games; of a hidden case a fault says only where it was."""
    judged = f"right in all {games} games" if games else "not judged, no game was played to the end"
    student, staff = listing(faults)
    return TestResult(name=f"games/{aspect}", function="games", visibility="public",
                      status="failed" if faults or not games else "passed",
                      score=0.0 if faults else round(points, 4), max_score=round(points, 4),
                      message=f"{ASPECTS[aspect]}: " + (student or judged),
                      staff={"message": f"{ASPECTS[aspect]}: " + (staff or judged)})


# ----------------------------------------------------------------------------- the wording, where it belongs

def _template(line: str) -> str:
    return re.sub(r"\d+", "{n}", line).rstrip()


def _last_line(lines: Sequence[str]) -> str:
    shown = [line for line in lines if line.strip()]
    return shown[-1] if shown else ""


def wording_in_place(transcript: Transcript, player: GuessPlayer, secrets: Mapping[int, int],
                     parts: Sequence[Sequence[str]] | None = None) -> set[str]:
    """The kinds of line (digits as {n}) printed in the situation each belongs to.

    The guess prompt counts as the prompt a guess answered, the question to play again as the one
    a y/n answered, "Goodbye!" only after the final 'n'; a hint only in answer to a guess and only
    when true: "Too low!" when the guess was below the game's secret (the number its right guess hit;
    in a game that never reached one, when it is the hint the grader read); the line of the right
    guess only in answer to the guess that ended the game. A legend printed anywhere else counts for
    nothing. The lines are read as the screen showed them (``parts``: :meth:`Transcript.segments`).
    """
    if parts is None:
        parts = transcript.segments()[0]       # as the screen showed them
    found: set[str] = set()
    count: dict[int, int] = {}
    for j, (role, game) in enumerate(player.roles[: len(parts) - 1]):
        prompt, response = _template(_last_line(parts[j])), [_template(line) for line in parts[j + 1]]
        if role == "again":
            found.add(prompt)
            if player.sent[j] == "n":
                found.update(line for line in response if line == "Goodbye!")
            continue
        found.add(prompt)
        k = count[game] = count.get(game, -1) + 1
        log = player.logs[game]
        if k >= len(log.guesses):
            continue
        guess, hint = log.guesses[k]
        secret = secrets.get(game)
        below = guess < secret if secret is not None else hint == "low"
        above = guess > secret if secret is not None else hint == "high"
        for line in response:
            if (line == "Too low!" and below) or (line == "Too high!" and above) or \
                    (hint == "right" and line == _template(WORDING[2])):
                found.add(line)
    return found


# ----------------------------------------------------------------------------- secrets drawn fairly

@dataclass(frozen=True)
class Played:
    """One finished game with a secret: how the player guessed, the secret its answers imply, the tries."""

    strategy: str
    rng_state: Any
    secret: int
    tries: int


def tries_counts(strategy: str, rng_state: Any) -> list[int]:
    """counts[t]: how many of the secrets LOWEST..HIGHEST this game's player would have found in t guesses.

    The player's guesses depend only on the hints and its own random state, so its game against
    every possible secret is one tree: each guess splits the range left into the secrets below it
    and those above, and both continue from the same random state. One draw per secret.
    """
    counts = [0] * (HIGHEST - LOWEST + 2)
    rng = random.Random()
    stack = [(LOWEST, HIGHEST, 1, rng_state)]
    while stack:
        lo, hi, depth, state = stack.pop()
        if lo > hi:
            continue
        if state is not None:
            rng.setstate(state)
        guess = next_guess(strategy, lo, hi, rng)
        after = rng.getstate() if state is not None else None
        counts[depth] += 1
        stack.append((lo, guess - 1, depth + 1, after))
        stack.append((guess + 1, hi, depth + 1, after))
    return counts


def _binomial_tail(n: int, k: int, p: float) -> float:
    """P(X >= k) for a binomial(n, p)."""
    return min(1.0, sum(math.exp(math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)
                                 + j * math.log(p) + (n - j) * math.log1p(-p)) for j in range(k, n + 1)))


def _distinct_cdf(n: int, d: int, cells: int) -> float:
    """P(at most d different values) among n independent uniform draws from `cells` values."""
    dist = [1.0] + [0.0] * cells
    for _ in range(n):
        new = [0.0] * (cells + 1)
        for seen, p in enumerate(dist):
            if p:
                new[seen] += p * seen / cells
                if seen < cells:
                    new[seen + 1] += p * (cells - seen) / cells
        dist = new
    return min(1.0, sum(dist[: d + 1]))


def secret_tests(played: Sequence[Played]) -> list[tuple[str, str]]:
    """Tests of the secrets a program's answers imply, over all its finished games (at least SECRET_MIN_GAMES).

    A secret drawn uniformly at the start of a game, before any guess, is hit by the first guess
    with probability 1/100 whatever the guess, and the game lasts as long as the player's own
    guessing needs for that secret; the secrets of the games are independent and uniform. So:
    the first guesses right (binomial upper tail), the total number of guesses against its exact
    distribution for these games' players (both tails: answers that follow the guesses end games
    early, answers that dodge them make them long), the number of different secrets (exact) and
    how they spread over the range (the largest gap between the share of secrets up to a number and
    that number's share of the range, by the Dvoretzky-Kiefer-Wolfowitz bound, which holds for any
    number of games), each at the significance of SECRET_ALPHA, never above it. ``rigged_secret``: the answers follow the guesses;
    ``unfair_secrets``: the secrets are not uniform draws from the range.
    """
    n = len(played)
    if n < SECRET_MIN_GAMES:
        return []
    cells = HIGHEST - LOWEST + 1
    broken: list[tuple[str, str]] = []
    first = sum(1 for game in played if game.tries == 1)
    if _binomial_tail(n, first, 1 / cells) < SECRET_ALPHA["first_guess"]:
        broken.append(("rigged_secret", f"the first guess was called right in {first} of {n} games; a number chosen "
                                        f"before the guess is hit first time in about 1 game in {cells} "
                                        f"({n / cells:.1f} expected), so the answers follow the guesses, not a secret"))
    total = sum(game.tries for game in played)
    dist = np.ones(1)
    for game in played:     # the exact distribution of the total: one convolution per game
        counts = tries_counts(game.strategy, game.rng_state)
        dist = np.convolve(dist, np.trim_zeros(np.array(counts, dtype=float) / cells, "b"))
    mean = float(np.dot(np.arange(len(dist)), dist))
    if not broken and dist[: total + 1].sum() < SECRET_ALPHA["tries"]:
        broken.append(("rigged_secret", f"the {n} games took {total} guesses in all; against numbers chosen before the "
                                        f"guesses the same guessing takes about {mean:.0f}: the games end far too early"))
    if dist[total:].sum() < SECRET_ALPHA["tries"]:
        broken.append(("rigged_secret", f"the {n} games took {total} guesses in all; against numbers chosen before the "
                                        f"guesses the same guessing takes about {mean:.0f}: the answers steer away "
                                        "from the guesses instead of keeping one secret"))
    secrets = [game.secret for game in played]
    distinct = len(set(secrets))
    if _distinct_cdf(n, distinct, cells) < SECRET_ALPHA["distinct"]:
        expected = cells * (1 - (1 - 1 / cells) ** n)
        broken.append(("unfair_secrets", f"only {distinct} different secrets in {n} games (about {expected:.0f} "
                                         f"expected from numbers drawn between {LOWEST} and {HIGHEST})"))
    below = Counter(secrets)
    seen, gap, worst = 0, 0.0, LOWEST
    for number in range(LOWEST, HIGHEST + 1):
        seen += below[number]
        if abs(seen / n - (number - LOWEST + 1) / cells) > gap:
            gap, worst = abs(seen / n - (number - LOWEST + 1) / cells), number
    if 2 * math.exp(-2 * n * gap * gap) < SECRET_ALPHA["spread"]:
        share = sum(c for number, c in below.items() if number <= worst)
        broken.append(("unfair_secrets", f"the secrets of {n} games are not spread evenly between {LOWEST} and "
                                         f"{HIGHEST}: {share} of them are {worst} or less, about "
                                         f"{n * (worst - LOWEST + 1) / cells:.0f} expected"))
    return broken


def _summary_problems(name: str, shown: str, finished: list[GameLog]) -> list[str]:
    """What is wrong with the summary among the last lines ``shown`` on the screen."""
    tail = shown.strip().splitlines()[-3:]
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
