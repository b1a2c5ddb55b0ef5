"""The game a spec's tournament part names, built from its checked ``options``.

The part itself is ``Spec.tournament`` (grader.spec.model.TournamentSpec), checked by the
spec loader with every problem at its YAML line and column, the game's options and bots included.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from grader.errors import GraderError
from grader.spec.model import TournamentSpec

if TYPE_CHECKING:
    from grader.tournament.game import Game


def load_game(config: TournamentSpec) -> "Game":
    """The game the tournament part names, built from its options (the loader checked the part,
    the plug-in's GAME, its options and the spec's bots, each problem at its line)."""
    from grader.tournament.game import PluginError, game_class

    assert config.game is not None
    try:
        return game_class(config.game)(config.options)
    except PluginError as exc:
        raise GraderError(str(exc)) from None
