"""Seating and seeds: balanced, filled by bots, reproducible; the spec's tournament block."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from grader.errors import GraderError
from grader.spec.problems import SpecError
from grader.tournament.config import TournamentConfig, load_config, problems_in
from grader.tournament.runner import game_seed, schedule

ROOT = Path(__file__).resolve().parent.parent


def test_game_seeds_depend_on_the_seed_and_game_only():
    assert game_seed(1, 5) == game_seed(1, 5)
    assert len({game_seed(1, g) for g in range(1, 100)}) == 99
    assert game_seed(2, 5) != game_seed(1, 5)


def test_schedule_is_reproducible_and_balanced():
    pool = [f"s{i}" for i in range(7)] + ["bot:random"]
    one = schedule(pool, 40, 3)
    assert one == schedule(pool, 40, 3) and one != schedule(pool, 40, 4)
    assert schedule(pool, 10, 3) == one[:10]  # game g depends only on the games before it
    counts = Counter(e for s in one for e in s.entrants)
    assert set(counts.values()) == {20}  # 40 games * 4 seats / 8 entrants
    assert all(len(set(s.entrants)) == 4 for s in one)
    assert len({s.entrants for s in one}) > 30  # seat orders vary


def test_a_lone_student_is_seated_with_bots():
    seatings = schedule(["me", "bot:random", "bot:greedy"], 12, 1)
    assert all(s.entrants.count("me") == 1 and len(s.entrants) == 4 for s in seatings)
    assert all(set(s.entrants) == {"me", "bot:random", "bot:greedy"} for s in seatings)


def test_too_few_players_without_bots_is_a_usage_error():
    with pytest.raises(GraderError, match="4 players"):
        schedule(["a", "b"], 3, 1)


def test_tournament_block_problems_are_located_and_named(tmp_path):
    spec = tmp_path / "s.yaml"
    spec.write_text("assignment: x\ntournament:\n  games: 0\n  default_move: best\n  gmaes: 3\n  rating: {k: -1}\n")
    import yaml

    with pytest.raises(SpecError) as info:
        load_config(spec, yaml.safe_load(spec.read_text()))
    text = "\n".join(map(str, info.value.problems))
    assert "s.yaml:3:10: tournament.games: 0 is less than the minimum of 1" in text
    assert "tournament.default_move: 'best' is not one of ['first', 'lowest', 'random']" in text
    assert "s.yaml:5:3: tournament.gmaes: unknown key 'gmaes'" in text
    assert "tournament.rating.k" in text


def test_the_course_spec_has_a_valid_tournament_block():
    import yaml

    raw = yaml.safe_load((ROOT / "specs" / "comp10001go.yaml").read_text())
    assert problems_in(raw.get("tournament", {})) == []
    config = load_config(ROOT / "specs" / "comp10001go.yaml", raw)
    assert isinstance(config, TournamentConfig) and config.move_time_limit > 0
