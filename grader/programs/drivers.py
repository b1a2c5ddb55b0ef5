"""Players that answer a Blackjack program's questions: fixed scripts and strategies.

A player sees what the program has shown so far (a :class:`GameRecord`) and answers
one question at a time: the stake, the insurance (new stake), an action
(1 Hit, 2 Stand, 3 Double Down, 4 Surrender) or whether to play again (1 / 2).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

from .transcript import GameRecord, card_points, hand_total

HIT, STAND, DOUBLE, SURRENDER = "1", "2", "3", "4"
AGAIN, QUIT = "1", "2"


def _euro(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


class Player(Protocol):
    def answer(self, kind: str, game: GameRecord | None) -> str: ...


@dataclass
class StrategyPlayer:
    """Plays ``games`` games with ``stakes`` (cycled), deciding actions with ``decide``."""

    decide: Callable[[GameRecord, random.Random], str]
    games: int
    stakes: Sequence[float] = (10,)
    insure: bool = False
    seed: int = 0
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def answer(self, kind: str, game: GameRecord | None) -> str:
        number = game.number if game else 1
        if kind == "stake":
            return _euro(self.stakes[(number - 1) % len(self.stakes)])
        if kind == "insurance":
            stake = (game.stake if game else None) or self.stakes[0]
            return _euro(stake / 2 if self.insure else stake)
        if kind == "action":
            assert game is not None
            return self.decide(game, self.rng)
        return AGAIN if number < self.games else QUIT


def _first_action(game: GameRecord) -> bool:
    return not any(kind == "action" for kind, _ in game.inputs)


def hit_until(threshold: int) -> Callable[[GameRecord, random.Random], str]:
    def decide(game: GameRecord, rng: random.Random) -> str:
        return HIT if hand_total(game.player_cards()) < threshold else STAND
    return decide


def always_stand(game: GameRecord, rng: random.Random) -> str:
    return STAND


def double_on_11(game: GameRecord, rng: random.Random) -> str:
    if _first_action(game) and hand_total(game.player_cards()) in (10, 11):
        return DOUBLE
    return hit_until(17)(game, rng)


def surrender_16_vs_10(game: GameRecord, rng: random.Random) -> str:
    dealer = card_points(game.dealer_up) if game.dealer_up else 0
    if _first_action(game) and hand_total(game.player_cards()) in (15, 16) and dealer >= 10:
        return SURRENDER
    return hit_until(17)(game, rng)


def random_action(game: GameRecord, rng: random.Random) -> str:
    choices = [HIT, STAND, DOUBLE] + ([SURRENDER] if _first_action(game) else [])
    return rng.choice(choices)


STRATEGIES: dict[str, Callable[..., Callable[[GameRecord, random.Random], str]]] = {
    "hit_until": lambda threshold=17, **_: hit_until(int(threshold)),
    "always_stand": lambda **_: always_stand,
    "double_on_11": lambda **_: double_on_11,
    "surrender_16_vs_10": lambda **_: surrender_16_vs_10,
    "random": lambda **_: random_action,
}


@dataclass
class ScriptPlayer:
    """Answers with the script's lines in order, whatever is asked; then quits politely."""

    lines: Sequence[str]
    position: int = 0

    def answer(self, kind: str, game: GameRecord | None) -> str:
        if self.position < len(self.lines):
            self.position += 1
            return str(self.lines[self.position - 1])
        return {"stake": "10", "action": STAND, "again": QUIT}.get(kind, _euro((game and game.stake) or 10))


def make_player(case: Mapping[str, Any]) -> Player:
    """The player a spec case describes: ``stdin`` (a script) or ``strategy``."""
    if "stdin" in case:
        return ScriptPlayer([str(line) for line in case["stdin"]])
    strategy = case.get("strategy", "always_stand")
    options = dict(strategy) if isinstance(strategy, Mapping) else {"name": strategy}
    name = options.pop("name")
    return StrategyPlayer(
        decide=STRATEGIES[name](**options),
        games=int(case.get("games", 3)),
        stakes=tuple(case.get("stakes", (10,))),
        insure=bool(case.get("insure", False)),
        seed=int(case.get("seed", 0)),
    )
