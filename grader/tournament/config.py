"""The spec's ``tournament:`` block: checked here (the main schema accepts any object), with
every problem located by YAML line and column, then turned into a frozen :class:`TournamentConfig`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Mapping

import jsonschema
import yaml

from grader.spec.problems import PositionMap, Problem, SpecError

DefaultMove = Literal["first", "lowest", "random"]
BOT_NAMES = ("random", "greedy", "reference")

_NUMBER = {"type": "number", "exclusiveMinimum": 0}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "games": {"type": "integer", "minimum": 1, "description": "games played when --games is not given"},
        "seed": {"type": "integer", "description": "tournament seed when --seed is not given"},
        "move_time_limit": {**_NUMBER, "description": "seconds for one call of the play function"},
        "group_time_limit": {**_NUMBER, "description": "seconds for the call of the group function"},
        "game_time_limit": {**_NUMBER, "description": "seconds of a player's calls over one whole game"},
        "default_move": {"enum": ["first", "lowest", "random"], "description": "card played in place of an illegal move"},
        "bots": {"type": "array", "items": {"enum": list(BOT_NAMES)}, "uniqueItems": True},
        "play_function": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "group_function": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "rating": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"initial": {"type": "number"}, "k": _NUMBER},
        },
    },
}


@dataclass(frozen=True)
class TournamentConfig:
    """How games are played and judged; every field has a default so the block is optional."""

    games: int = 100
    seed: int = 0
    move_time_limit: float = 1.0
    group_time_limit: float = 2.0
    game_time_limit: float = 10.0
    default_move: DefaultMove = "first"
    bots: tuple[str, ...] = BOT_NAMES
    play_function: tuple[str, ...] = ("comp10001go_play", "comp10001_play")
    group_function: tuple[str, ...] = ("comp10001go_group", "comp10001_group")
    rating_initial: float = 1500.0
    rating_k: float = 32.0


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
        found.append(Problem(spec_path, line, col, f"{_where(where)}: {error.message}"))
    return sorted(found, key=lambda p: (p.line, p.col))


def from_block(block: Mapping[str, Any] | None) -> TournamentConfig:
    """Build the config from a block already checked by :func:`problems_in`."""
    block = block or {}
    rating = block.get("rating", {})
    base = TournamentConfig()
    return TournamentConfig(
        games=int(block.get("games", base.games)),
        seed=int(block.get("seed", base.seed)),
        move_time_limit=float(block.get("move_time_limit", base.move_time_limit)),
        group_time_limit=float(block.get("group_time_limit", base.group_time_limit)),
        game_time_limit=float(block.get("game_time_limit", base.game_time_limit)),
        default_move=block.get("default_move", base.default_move),
        bots=tuple(block.get("bots", base.bots)),
        play_function=tuple(block.get("play_function", base.play_function)),
        group_function=tuple(block.get("group_function", base.group_function)),
        rating_initial=float(rating.get("initial", base.rating_initial)),
        rating_k=float(rating.get("k", base.rating_k)),
    )


def load_config(spec_path: Path, raw: Mapping[str, Any]) -> TournamentConfig:
    """The tournament config of a loaded spec, or :class:`SpecError` naming each bad field."""
    block = raw.get("tournament")
    if block is None:
        return TournamentConfig()
    try:
        positions = PositionMap(yaml.compose(spec_path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader))
    except (OSError, yaml.YAMLError):
        positions = PositionMap(None)
    problems = problems_in(block, str(spec_path), positions)
    if problems:
        raise SpecError(problems)
    return from_block(block)
