"""Fixed stdin scripts, made robust to a submission's own shuffling.

A script is written for the spec's decks. It is played once through the reference to
learn what each line answers (which game; stake, insurance, action or play-again). A
submission that deals other cards is then asked the same questions in a different
order; the :class:`PlannedScript` player answers each question with the script's next
answer of that kind for that game, stands when the script has no more actions for it,
and keeps the script's play-again answers, so the session has the script's games.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Mapping

from .drivers import AGAIN, QUIT, STAND
from .session import expected_kind
from .spec import spec_decks
from .transcript import GameRecord, TranscriptParser


class _PlanningInput(io.StringIO):
    """stdin for the reference that labels every script line with the question it answered."""

    def __init__(self, lines: list[str], out: io.StringIO):
        super().__init__()
        self.lines = list(lines)
        self.out = out
        self.parser = TranscriptParser()
        self.plan: list[dict[str, list[str]]] = []

    def readline(self, *_: Any) -> str:  # type: ignore[override]
        self.parser.feed_output(self.out.getvalue())
        self.out.seek(0)
        self.out.truncate()
        if not self.lines:
            return ""
        kind = expected_kind(self.parser, self.parser.pending_prompt())
        line = self.lines.pop(0)
        number = self.parser.game.number if self.parser.game else 1
        while len(self.plan) < number:
            self.plan.append({})
        self.plan[number - 1].setdefault(kind, []).append(line)
        self.parser.feed_input(line, kind)
        return line + "\n"


def plan_script(case: Mapping[str, Any], reference: ModuleType) -> list[dict[str, list[str]]]:
    """Per game of the script: its answers by kind, as the reference consumed them."""
    out = io.StringIO()
    stdin = _PlanningInput([str(line) for line in case["stdin"]], out)
    reference.play_session(stdin, out, reference.deck_supplier(spec_decks(case), None))
    return stdin.plan


@dataclass
class PlannedScript:
    plan: list[dict[str, list[str]]]
    used: dict[tuple[int, str], int] = field(default_factory=dict)

    def answer(self, kind: str, game: GameRecord | None) -> str:
        number = game.number if game else 1
        answers = self.plan[number - 1].get(kind, []) if number <= len(self.plan) else []
        position = self.used.get((number, kind), 0)
        self.used[(number, kind)] = position + 1
        if position < len(answers):
            return answers[position]
        if kind == "again":
            return AGAIN if number < len(self.plan) else QUIT
        if kind == "stake":
            return "10"
        if kind == "insurance":
            return str((game.stake if game and game.stake else 10))
        return STAND
