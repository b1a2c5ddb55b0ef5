"""Seating and seeds: balanced, filled by bots, reproducible; the spec's tournament block and its game."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from grader.errors import GraderError
from grader.spec.problems import SpecError
from grader.spec.loader import load_spec
from grader.spec.model import TournamentSpec
from grader.tournament.config import load_game
from grader.tournament.runner import game_seed, schedule

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"


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


def _spec(tmp_path, block: str):
    """The mini spec with a tournament part: the loader checks it like any other part."""
    text = (FIXTURES / "specs" / "mini.yaml").read_text().replace(": mini_", f": {FIXTURES}/specs/mini_")
    path = tmp_path / "s.yaml"
    path.write_text(text + "tournament:\n" + block)
    return path, len(text.splitlines())


def test_tournament_block_problems_are_located_and_named(tmp_path):
    spec, top = _spec(tmp_path, "  games: 0\n  gmaes: 3\n  rating: {interval: 2}\n")
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    text = "\n".join(map(str, info.value.problems))
    assert f"s.yaml:{top + 2}:10: tournament.games:" in text
    assert f"s.yaml:{top + 3}:3: tournament.gmaes: unknown key 'gmaes' (did you mean 'games'?)" in text
    assert "tournament.rating.interval" in text
    assert "'game' is a required property" in text


def test_the_game_checks_its_own_options_and_bots(tmp_path):
    game = (ROOT / "reference" / "comp10001go_game.py").as_posix()
    spec, top = _spec(tmp_path, f"  game: {game}\n  bots: [random, clever]\n  options:\n    default_move: best\n    colour: red\n")
    with pytest.raises(SpecError) as info:
        load_spec(spec)
    text = "\n".join(map(str, info.value.problems))
    assert f"s.yaml:{top + 5}:19: tournament.options.default_move: 'best' is not one of ['first', 'lowest', 'random']" in text
    assert f"s.yaml:{top + 6}:5: tournament.options.colour: unknown key 'colour'" in text
    assert f"s.yaml:{top + 3}:18: tournament.bots[1]: the game has no bot 'clever'" in text


def test_a_plugin_without_a_game_is_a_located_spec_problem(tmp_path):
    (tmp_path / "nogame.py").write_text("RULES = 1\n")
    spec, top = _spec(tmp_path, "  game: nogame.py\n")
    with pytest.raises(SpecError, match=f"s.yaml:{top + 2}:9: tournament.game: the game plug-in nogame.py defines no GAME"):
        load_spec(spec)
    spec, top = _spec(tmp_path, "  game: missing.py\n")
    with pytest.raises(SpecError, match="tournament.game: file not found: missing.py"):
        load_spec(spec)


@pytest.mark.parametrize("name", ["comp10001go", "nim"])
def test_the_course_specs_have_valid_tournament_blocks(name):
    path = ROOT / "specs" / f"{name}.yaml"
    config = load_spec(path).tournament
    assert config is not None
    game = load_game(config)
    assert isinstance(config, TournamentSpec) and config.move_time_limit > 0
    assert set(config.bots or ()) <= set(game.bots()) and game.roles()


def test_secret_deals_key_every_games_seed_and_follow_the_files_at_the_table():
    from grader.tournament.runner import secret_deals

    seatings = schedule(["a", "b", "c", "d", "e"], 10, 3, 4)
    digests = {e: f"digest-{e}" for e in "abcde"}
    one = secret_deals(seatings, b"k1", digests)
    assert one == secret_deals(seatings, b"k1", digests)                    # a rerun deals the same games
    assert [s.entrants for s in one] == [s.entrants for s in seatings]     # only the deal changes
    assert all(a.seed != b.seed for a, b in zip(one, secret_deals(seatings, b"k2", digests)))
    again = secret_deals(seatings, b"k1", {**digests, "e": "handed-in-again"})
    assert [a.seed == b.seed for a, b in zip(one, again)] == ["e" not in s.entrants for s in seatings]
