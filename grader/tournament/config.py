"""The game a spec's tournament part names, built from its checked ``options``.

The part itself is ``Spec.tournament`` (grader.spec.model.TournamentSpec), checked by the
spec loader with every problem at its YAML line and column, the game's options and bots included.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import yaml

from grader.spec.model import TournamentSpec
from grader.spec.problems import PositionMap, Problem, SpecError

if TYPE_CHECKING:
    from grader.tournament.game import Game

RatingModel = Literal["plackett-luce", "bradley-terry", "thurstone-mosteller"]
RATING_MODELS = ("plackett-luce", "bradley-terry", "thurstone-mosteller")

# The tournament part's schema ($defs/tournament) and typed form belong to the one spec model:
# the loader checks it, the game's options and its bots, each problem at its line.
TournamentConfig = TournamentSpec


def _where(parts: Any) -> str:
    out = "tournament"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _positions(spec_path: Path) -> PositionMap:
    try:
        return PositionMap(yaml.compose(spec_path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader))
    except (OSError, yaml.YAMLError):
        return PositionMap(None)


def load_game(spec_path: Path, config: TournamentConfig) -> "Game":
    """The game the block names, built from its checked ``options``; the spec's ``bots`` must
    be bots the game offers.  A :class:`SpecError` locates every problem."""
    from grader.tournament.game import PluginError, game_class, option_problems

    assert config.game is not None
    positions = _positions(spec_path)

    def problem(where: list[Any], message: str, at_key: bool = False) -> Problem:
        line, col = positions.locate(["tournament", *where], key=at_key)
        return Problem(str(spec_path), line, col, f"{_where(where)}: {message}")

    try:
        cls = game_class(config.game)
    except PluginError as exc:
        raise SpecError([problem(["game"], str(exc))]) from None
    found = [problem(["options", *where], message, at_key) for where, message, at_key in option_problems(cls, config.options)]
    if found:
        raise SpecError(found)
    game = cls(config.options)
    offered = game.bots()
    for i, name in enumerate(config.bots or ()):
        if name not in offered:
            found.append(problem(["bots", i], f"the game has no bot '{name}' (it offers: {', '.join(offered) or 'none'})"))
    if found:
        raise SpecError(found)
    return game
