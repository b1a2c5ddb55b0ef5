"""The spec's ``tournament:`` block, checked here with every problem located by YAML line and
column, then turned into a frozen :class:`TournamentConfig`; the game plug-in it names is
loaded and its own ``options`` checked against the schema the plug-in declares.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Mapping

import jsonschema
import yaml

from grader.spec.problems import PositionMap, Problem, SpecError

if TYPE_CHECKING:
    from grader.tournament.game import Game

RatingModel = Literal["plackett-luce", "bradley-terry", "thurstone-mosteller"]
RATING_MODELS = ("plackett-luce", "bradley-terry", "thurstone-mosteller")

_SECONDS = {"type": "number", "exclusiveMinimum": 0}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["game"],
    "properties": {
        "game": {"type": "string", "description": "the game plug-in, a path relative to the spec file"},
        "games": {"oneOf": [{"type": "integer", "minimum": 1}, {"const": "auto"}],
                  "description": "games played when --games is not given; 'auto' plays until the order is settled"},
        "max_games": {"type": "integer", "minimum": 1, "description": "the budget of --games auto"},
        "seed": {"type": "integer", "description": "tournament seed when --seed is not given"},
        "move_time_limit": {**_SECONDS, "description": "seconds for one call of a player's function"},
        "game_time_limit": {**_SECONDS, "description": "seconds of a player's calls over one whole game"},
        "bots": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        "rating": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"model": {"enum": list(RATING_MODELS)},
                           "interval": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}},
        },
        "options": {"type": "object", "description": "the game's own options (the plug-in's schema)"},
    },
}


@dataclass(frozen=True)
class TournamentConfig:
    """How games are played and rated; every field but the game has a default."""

    game: Path | None = None
    games: int | Literal["auto"] = 100
    max_games: int = 2000
    seed: int = 0
    move_time_limit: float = 1.0
    game_time_limit: float = 10.0
    bots: tuple[str, ...] | None = None  # None: the game's default bots
    rating_model: RatingModel = "plackett-luce"
    rating_interval: float = 0.95
    options: Mapping[str, Any] = field(default_factory=dict)


def _where(parts: Any) -> str:
    out = "tournament"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def problems_in(block: Any, spec_path: str = "<spec>", positions: PositionMap | None = None) -> list[Problem]:
    """Every problem in a ``tournament:`` block, as located messages (empty when it is fine)."""
    positions = positions or PositionMap(None)
    found = []
    for error in jsonschema.Draft202012Validator(SCHEMA).iter_errors(block):
        where = list(error.absolute_path)
        if error.validator == "additionalProperties":
            extra = sorted(set(error.instance) - set(error.schema["properties"]))
            for key in extra:
                line, col = positions.locate(["tournament", *where, key], key=True)
                allowed = ", ".join(sorted(error.schema["properties"]))
                found.append(Problem(spec_path, line, col, f"{_where([*where, key])}: unknown key '{key}' (allowed: {allowed})"))
            continue
        line, col = positions.locate(["tournament", *where])
        message = "must be an integer of at least 1, or 'auto'" if where == ["games"] else error.message
        found.append(Problem(spec_path, line, col, f"{_where(where)}: {message}"))
    return sorted(found, key=lambda p: (p.line, p.col))


def from_block(block: Mapping[str, Any], spec_path: Path) -> TournamentConfig:
    """Build the config from a block already checked by :func:`problems_in`."""
    base = TournamentConfig()
    rating = block.get("rating", {})
    bots = block.get("bots")
    return TournamentConfig(
        game=(spec_path.parent / block["game"]).resolve(),
        games=block.get("games", base.games),
        max_games=int(block.get("max_games", base.max_games)),
        seed=int(block.get("seed", base.seed)),
        move_time_limit=float(block.get("move_time_limit", base.move_time_limit)),
        game_time_limit=float(block.get("game_time_limit", base.game_time_limit)),
        bots=None if bots is None else tuple(bots),
        rating_model=rating.get("model", base.rating_model),
        rating_interval=float(rating.get("interval", base.rating_interval)),
        options=dict(block.get("options", {})),
    )


def _positions(spec_path: Path) -> PositionMap:
    try:
        return PositionMap(yaml.compose(spec_path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader))
    except (OSError, yaml.YAMLError):
        return PositionMap(None)


def load_config(spec_path: Path, raw: Mapping[str, Any]) -> TournamentConfig:
    """The tournament config of a loaded spec, or :class:`SpecError` naming each bad field."""
    block = raw.get("tournament")
    positions = _positions(spec_path)
    problems = problems_in(block, str(spec_path), positions)
    if problems:
        raise SpecError(problems)
    assert isinstance(block, Mapping)
    config = from_block(block, spec_path)
    assert config.game is not None
    if not config.game.is_file():
        line, col = positions.locate(["tournament", "game"])
        raise SpecError([Problem(str(spec_path), line, col, f"tournament.game: file not found: {block['game']} (looked in {config.game})")])
    return config


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
