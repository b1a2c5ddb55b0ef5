"""Players that answer a Blackjack program whenever it waits for input: strategies and scripts.

Trusted course code beside specs/blackjack.yaml. The grader's engine calls a player only when
the kernel says the program is blocked reading its input; the player reads what was printed,
works out what is being asked from the state of the game (a stake before the cards, an
insurance when the dealer shows an Ace, an action, whether to play again after a result) and
answers in the form the question takes (an amount, Y/N, a number). When the program asks the
same thing again and again without the game moving, the player tries the other forms, then
stops and says it could not tell what is asked: that is the grader losing track, not a crash.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from grader.spec.loader import load_trusted_module

_transcript = load_trusted_module(Path(__file__).with_name("blackjack_transcript.py"), "blackjack_transcript")
Answer, GameRecord, TranscriptParser = _transcript.Answer, _transcript.GameRecord, _transcript.TranscriptParser
card_points, hand_total, normalize = _transcript.card_points, _transcript.hand_total, _transcript.normalize

HIT, STAND, DOUBLE, SURRENDER = 1, 2, 3, 4
ACTIONS = {HIT: "hit", STAND: "stand", DOUBLE: "double down", SURRENDER: "surrender"}
_YES_NO = re.compile(r"\by\s*/\s*n\b|\(y\)|\[y\]|\by or n\b|\byes\s*/\s*no\b|\byes or no\b")
_NUMBERED = re.compile(r"\b\d\s*(=|:|\)|-|for\b)")   # "1=Yes, 2=No": the answer is the number


def asks_yes_no(prompt: str) -> bool:
    return bool(_YES_NO.search(prompt)) and not _NUMBERED.search(prompt)
_INSURANCE = re.compile(r"insur|lower (your )?stake|reduce (your )?stake|i have an ace|dealer shows an ace")
_FORMS = {"insurance": ("amount", "yes_no"), "again": ("number", "yes_no"), "action": ("number",), "stake": ("number",)}


class Stopped(Exception):
    """The player cannot go on: ``by_grader`` when the grader lost track of the program."""

    def __init__(self, reason: str, by_grader: bool):
        super().__init__(reason)
        self.reason, self.by_grader = reason, by_grader


def _euro(value: float) -> str:
    """An amount as a reader of whole numbers accepts it when it is one (10, not 10.0)."""
    return str(int(value)) if float(value).is_integer() else str(value)


Decide = Callable[[GameRecord, random.Random], int]


def _first(game: GameRecord) -> bool:
    return not game.actions()


def hit_until(threshold: int) -> Decide:
    def decide(game: GameRecord, rng: random.Random) -> int:
        return HIT if hand_total(game.player_cards()) < threshold else STAND
    return decide


def always_stand(game: GameRecord, rng: random.Random) -> int:
    return STAND


def double_on_11(game: GameRecord, rng: random.Random) -> int:
    """Double down on a first hand of 11 or less (about a third of all deals), else hit until 17."""
    if _first(game) and hand_total(game.player_cards()) <= 11:
        return DOUBLE
    return hit_until(17)(game, rng)


def surrender_16_vs_10(game: GameRecord, rng: random.Random) -> int:
    """Surrender a first hand of 13 to 16 against a dealer's 7 or more, else hit until 17."""
    dealer = card_points(game.dealer_up) if game.dealer_up else 0
    if _first(game) and 13 <= hand_total(game.player_cards()) <= 16 and dealer >= 7:
        return SURRENDER
    return hit_until(17)(game, rng)


def double_first(game: GameRecord, rng: random.Random) -> int:
    """Double down on every first action: the dealer then plays after a double more often than not."""
    return DOUBLE if _first(game) else hit_until(17)(game, rng)


def random_action(game: GameRecord, rng: random.Random) -> int:
    return rng.choice([HIT, STAND, DOUBLE] + ([SURRENDER] if _first(game) else []))


def mixed(game: GameRecord, rng: random.Random) -> int:
    """Each game another strategy, so that long sessions reach every action and the situations where state
    bugs show: a double down followed by the dealer's draws, 21 reached by hitting, a surrender."""
    strategies = (hit_until(17), double_first, always_stand, surrender_16_vs_10, hit_until(21), double_first,
                  random_action, hit_until(21))
    return strategies[(game.number - 1) % len(strategies)](game, rng)


STRATEGIES: dict[str, Callable[..., Decide]] = {
    "hit_until": lambda threshold=17: hit_until(int(threshold)),
    "always_stand": lambda: always_stand,
    "double_on_11": lambda: double_on_11,
    "surrender_16_vs_10": lambda: surrender_16_vs_10,
    "double_first": lambda: double_first,
    "random": lambda: random_action,
    "mixed": lambda: mixed,
}


@dataclass
class Policy:
    """What to answer, as a value: by strategy, or from a script planned through the reference."""

    decide: Decide | None = None
    games: int = 3
    stakes: Sequence[float] = (10,)
    insure: bool = False
    seed: int = 0
    plan: list[dict[str, list[str]]] | None = None
    used: dict[tuple[int, str], int] = field(default_factory=dict)
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def value(self, kind: str, game: GameRecord | None, number: int) -> float:
        if self.plan is not None:
            planned = self._planned(kind, number)
            if planned is not None:
                return planned
        if kind == "stake":
            return float(self.stakes[(number - 1) % len(self.stakes)])
        if kind == "insurance":
            stake = (game.stake if game else None) or float(self.stakes[0])
            return stake / 2 if self.insure else stake
        if kind == "action":
            assert game is not None
            return float(self.decide(game, self.rng) if self.decide else STAND)
        return 1.0 if number < self.games else 0.0

    def _planned(self, kind: str, number: int) -> float | None:
        assert self.plan is not None
        answers = self.plan[number - 1].get(kind, []) if number <= len(self.plan) else []
        position = self.used.get((number, kind), 0)
        self.used[(number, kind)] = position + 1
        if position >= len(answers):
            return None if kind != "again" else (1.0 if number < len(self.plan) else 0.0)
        text = answers[position]
        if kind == "again":
            return 1.0 if text.strip() == "1" else 0.0
        try:
            return float(text)
        except ValueError:
            return 0.0


@dataclass
class BlackjackPlayer:
    """Answers a Blackjack program; keeps every answer it sent (the judge re-reads the transcript with them)."""

    policy: Policy
    parser: TranscriptParser = field(default_factory=TranscriptParser)
    sent: list[Answer] = field(default_factory=list)
    _last: tuple[str, int, int] | None = None   # (kind, game number, cards+results seen) of the last answer
    _repeats: int = 0
    _form: dict[str, int] = field(default_factory=dict)

    def answer(self, output: str) -> Any:
        from grader.programs.plugin import Stop   # the engine's contract type

        try:
            return self._answer(output)
        except Stopped as stop:
            return Stop(stop.reason, stop.by_grader)

    def _answer(self, output: str) -> str:
        parser = self.parser
        parser.feed_output(output)
        session = parser.session
        prompt = parser.partial or (session.lines[-1] if session.lines else "")
        if session.quit_line is not None:
            raise Stopped(f"the program did not end after the answer that ends the session "
                          f"(line {session.quit_line}); it asked '{prompt.strip()}'", by_grader=False)
        kind = self._kind(normalize(prompt))
        form = self._check_progress(kind, prompt)
        game = parser.game
        number = (game.number if game else 0) + (1 if kind == "stake" else 0)
        value = self.policy.value(kind, game if kind != "stake" else None, max(number, 1))
        if kind == "action" and self._repeats:
            value = float(HIT)   # an action it did not take (a late surrender, say): hit, which every program takes
        answer = Answer(kind, self._render(kind, value, normalize(prompt), form, game), value)
        parser.feed_answer(answer)
        self.sent.append(answer)
        return answer.text

    def _kind(self, prompt: str) -> str:
        game = self.parser.game
        if game is None:
            return "stake"
        if game.result_kind is not None:
            answered = self.parser.session.again_answers >= game.number
            return "stake" if answered else "again"
        if game.stake is None:
            return "stake"
        ace_up = bool(game.dealer_up and game.dealer_up.startswith("Ace"))
        if _INSURANCE.search(prompt) or (ace_up and not game.actions() and asks_yes_no(prompt)):
            return "insurance"
        return "action"

    def _check_progress(self, kind: str, prompt: str) -> str:
        """The answer form to use; raises when the same question keeps coming in every form."""
        game = self.parser.game
        seen = len(game.revealed()) + (game.result_kind is not None) if game else 0
        now = (kind, game.number if game else 0, seen)
        self._repeats = self._repeats + 1 if now == self._last else 0
        self._last = now
        forms = _FORMS[kind]
        if kind == "action" and self._repeats >= 4:
            raise Stopped(f"the grader could not follow the game: the program asks for an action again and again "
                          f"without showing a card (line {self.parser.line_number}: '{prompt.strip()}')", by_grader=True)
        if kind != "action" and self._repeats >= 2:
            self._form[kind] = self._form.get(kind, 0) + 1
            self._repeats = 0
            if self._form[kind] >= len(forms):
                raise Stopped(f"the grader could not tell what the program asks at line "
                              f"{self.parser.line_number}: '{prompt.strip()}'", by_grader=True)
        return forms[min(self._form.get(kind, 0), len(forms) - 1)]

    def _render(self, kind: str, value: float, prompt: str, form: str, game: GameRecord | None) -> str:
        yes_no = form == "yes_no" or (kind in ("insurance", "again") and asks_yes_no(prompt))
        if kind == "insurance" and yes_no:
            return "N" if game is not None and value >= (game.stake or 0) else "Y"
        if kind == "again":
            return ("Y" if value else "N") if yes_no else ("1" if value else "2")
        return _euro(value)


def make_policy(case: Mapping[str, Any], plan: list[dict[str, list[str]]] | None) -> Policy:
    """The policy a spec case describes: a ``stdin`` script (planned) or a ``strategy``."""
    if plan is not None:
        return Policy(plan=plan, games=len(plan))
    strategy = case.get("strategy", "always_stand")
    options = dict(strategy) if isinstance(strategy, Mapping) else {"name": strategy}
    name = options.pop("name")
    return Policy(decide=STRATEGIES[name](**options), games=int(case.get("games", 3)),
                  stakes=tuple(case.get("stakes", (10,))), insure=bool(case.get("insure", False)),
                  seed=int(case.get("seed", 0)))
