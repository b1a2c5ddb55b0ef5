"""The typed parts of a spec: the tournament part checked against its game plug-in, the
program part's points as the assignment's maximum, leaderboard columns; every problem at its line."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from grader.spec.loader import load_spec
from grader.spec.model import TournamentSpec
from grader.spec.problems import SpecError

GAME = '''
OPTIONS_SCHEMA = {"type": "object", "additionalProperties": False,
                  "properties": {"heaps": {"type": "array", "items": {"type": "integer", "minimum": 1}}}}
BOTS = {"random": object, "greedy": object}
GAME = type("Toy", (), {})  # the game class (the engine builds it; here only declared)
'''


def _spec(tmp_path: Path, tournament: str) -> Path:
    (tmp_path / "toy_game.py").write_text(GAME)
    text = (FIXTURES / "specs" / "mini.yaml").read_text().replace(": mini_", f": {FIXTURES}/specs/mini_")
    path = tmp_path / "mini.yaml"
    path.write_text(text + "tournament:\n" + tournament)
    return path


def test_the_tournament_part_is_typed_and_names_its_game_beside_the_spec(tmp_path):
    spec = load_spec(_spec(tmp_path, "  game: toy_game.py\n  games: auto\n  bots: [greedy]\n  options: {heaps: [3, 4, 5]}\n"))
    assert spec.tournament == TournamentSpec(game=tmp_path / "toy_game.py", games="auto", bots=("greedy",),
                                             options={"heaps": [3, 4, 5]})
    assert load_spec(FIXTURES / "specs" / "mini.yaml").tournament is None


def test_the_games_options_and_bots_are_checked_by_validate_at_their_lines(tmp_path):
    path = _spec(tmp_path, "  game: toy_game.py\n  bots: [greedy, smart]\n  options:\n    heapz: [3]\n    heaps: [0]\n")
    with pytest.raises(SpecError) as info:
        load_spec(path)
    lines = path.read_text().splitlines()
    found = {(p.line, p.col, p.message) for p in info.value.problems}
    bots = lines.index("  bots: [greedy, smart]") + 1
    assert (bots, 18, "tournament.bots[1]: the game has no bot 'smart' (known: greedy, random)") in found
    assert (lines.index("    heapz: [3]") + 1, 5, "tournament.options.heapz: unknown key 'heapz' (did you mean 'heaps'?)") in found
    assert any(line == lines.index("    heaps: [0]") + 1 and "tournament.options.heaps[0]: 0 is less than the minimum of 1" in m
               for line, _, m in found), found


def test_a_missing_game_plug_in_is_reported_where_it_is_named(tmp_path):
    path = _spec(tmp_path, "  game: no_such_game.py\n")
    with pytest.raises(SpecError) as info:
        load_spec(path)
    (problem,) = info.value.problems
    assert "tournament.game: file not found: no_such_game.py" in problem.message
    assert problem.line == path.read_text().splitlines().index("  game: no_such_game.py") + 1


def test_max_score_comes_from_the_body_whatever_the_kind():
    assert load_spec(ROOT / "specs" / "hw7_iteration.yaml").max_score == 50  # regular functions only
    assert load_spec(ROOT / "specs" / "blackjack.yaml").max_score == 100  # the program's criteria


def test_leaderboard_columns_are_typed(tmp_path):
    text = (FIXTURES / "specs" / "mini.yaml").read_text().replace(": mini_", f": {FIXTURES}/specs/mini_")
    path = tmp_path / "mini.yaml"
    path.write_text(text + "leaderboard: [score, {name: Accuracy, key: acc, order: desc}]\n")
    columns = load_spec(path).leaderboard
    assert [(c.name, c.key, c.order) for c in columns] == [("score", "score", None), ("Accuracy", "acc", "desc")]


def test_a_program_part_names_only_registered_languages(tmp_path):
    text = (ROOT / "specs" / "guess_number.yaml").read_text().replace("../reference/", f"{ROOT}/reference/")
    assert "\n    java:\n" in text
    path = tmp_path / "guess.yaml"
    path.write_text(text.replace("\n    java:\n", "\n    cobol:\n", 1))
    with pytest.raises(SpecError) as info:
        load_spec(path)
    line = path.read_text().splitlines().index("    cobol:") + 1
    assert any(p.line == line and "program.languages: unknown language 'cobol'" in p.message for p in info.value.problems)
    from grader.spec.program import program_spec

    part = program_spec({"plugin": "p.py", "languages": {"java": {"run": ["java"]}}, "cases": [{"name": "a"}]}, tmp_path)
    assert part.speed == {"java": (10.0, 60.0)}  # without `speed:`, the language's own ratios
