"""Seating and seeds: balanced, filled by bots, reproducible; the spec's tournament block and its game."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from grader.errors import GraderError
from grader.spec.problems import SpecError
from grader.tournament.config import TournamentConfig, load_config, load_game, problems_in
from grader.tournament.runner import game_seed, schedule

ROOT = Path(__file__).resolve().parent.parent


def test_game_seeds_depend_on_the_seed_and_game_only():
    assert game_seed(1, 5) == game_seed(1, 5)
    assert len({game_seed(1, g) for g in range(1, 100)}) == 99
    assert game_seed(2, 5) != game_seed(1, 5)


def test_schedule_is_reproducible_and_balanced():
    pool = [f"s{i}" for i in range(7)] + ["bot:random"]
    one = schedule(pool, 40, 3, 4)
    assert one == schedule(pool, 40, 3, 4) and one != schedule(pool, 40, 4, 4)
    assert schedule(pool, 10, 3, 4) == one[:10]  # game g depends only on the games before it
    counts = Counter(e for s in one for e in s.entrants)
    assert set(counts.values()) == {20}  # 40 games * 4 seats / 8 entrants
    assert all(len(set(s.entrants)) == 4 for s in one)
    assert len({s.entrants for s in one}) > 30  # seat orders vary


def test_a_lone_student_is_seated_with_bots():
    seatings = schedule(["me", "bot:random", "bot:greedy"], 12, 1, 4)
    assert all(s.entrants.count("me") == 1 and len(s.entrants) == 4 for s in seatings)
    assert all(set(s.entrants) == {"me", "bot:random", "bot:greedy"} for s in seatings)


def test_too_few_players_without_bots_is_a_usage_error():
    with pytest.raises(GraderError, match="4 players"):
        schedule(["a", "b"], 3, 1, 4)


def test_two_seat_games_pair_everyone_evenly():
    pool = ["a", "b", "c", "bot:x"]
    seatings = schedule(pool, 20, 9, 2)
    assert all(len(s.entrants) == 2 and len(set(s.entrants)) == 2 for s in seatings)
    assert set(Counter(e for s in seatings for e in s.entrants).values()) == {10}
    lone = schedule(["me", "bot:x"], 5, 9, 2)
    assert all(sorted(s.entrants) == ["bot:x", "me"] for s in lone)


def test_tournament_block_problems_are_located_and_named(tmp_path):
    spec = tmp_path / "s.yaml"
    spec.write_text("assignment: x\ntournament:\n  games: 0\n  gmaes: 3\n  rating: {interval: 2}\n")
    import yaml

    with pytest.raises(SpecError) as info:
        load_config(spec, yaml.safe_load(spec.read_text()))
    text = "\n".join(map(str, info.value.problems))
    assert "s.yaml:3:10: tournament.games: must be an integer of at least 1, or 'auto'" in text
    assert "s.yaml:4:3: tournament.gmaes: unknown key 'gmaes'" in text
    assert "tournament.rating.interval" in text
    assert "'game' is a required property" in text


def test_the_game_checks_its_own_options_and_bots(tmp_path):
    import yaml

    spec = tmp_path / "s.yaml"
    game = (ROOT / "reference" / "comp10001go_game.py").as_posix()
    spec.write_text(f"assignment: x\ntournament:\n  game: {game}\n  bots: [random, clever]\n"
                    "  options:\n    default_move: best\n    colour: red\n")
    raw = yaml.safe_load(spec.read_text())
    config = load_config(spec, raw)
    with pytest.raises(SpecError) as info:
        load_game(spec, config)
    text = "\n".join(map(str, info.value.problems))
    assert "s.yaml:6:19: tournament.options.default_move: 'best' is not one of ['first', 'lowest', 'random']" in text
    assert "s.yaml:7:5: tournament.options.colour: unknown option 'colour'" in text
    spec.write_text(f"assignment: x\ntournament:\n  game: {game}\n  bots: [random, clever]\n")
    with pytest.raises(SpecError, match=r"s.yaml:4:18: tournament.bots\[1\]: the game has no bot 'clever'"):
        load_game(spec, load_config(spec, yaml.safe_load(spec.read_text())))


def test_a_plugin_without_a_game_is_a_located_spec_problem(tmp_path):
    import yaml

    (tmp_path / "nogame.py").write_text("RULES = 1\n")
    spec = tmp_path / "s.yaml"
    spec.write_text("assignment: x\ntournament:\n  game: nogame.py\n")
    with pytest.raises(SpecError, match="s.yaml:3:9: tournament.game: the game plug-in .* defines no GAME"):
        load_game(spec, load_config(spec, yaml.safe_load(spec.read_text())))
    spec.write_text("assignment: x\ntournament:\n  game: missing.py\n")
    with pytest.raises(SpecError, match="tournament.game: file not found: missing.py"):
        load_config(spec, yaml.safe_load(spec.read_text()))


@pytest.mark.parametrize("name", ["comp10001go", "nim"])
def test_the_course_specs_have_valid_tournament_blocks(name):
    import yaml

    path = ROOT / "specs" / f"{name}.yaml"
    raw = yaml.safe_load(path.read_text())
    assert problems_in(raw["tournament"]) == []
    config = load_config(path, raw)
    game = load_game(path, config)
    assert isinstance(config, TournamentConfig) and config.move_time_limit > 0
    assert set(config.bots or ()) <= set(game.bots()) and game.roles()
