"""The COMP10001-Go referee (reference/comp10001go_game.py) on the engine's table, with
in-process scripted players (no sandbox needed)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from grader.spec.loader import load_trusted_module
from grader.spec.model import TournamentSpec
from grader.tournament.game import Reply, game_class
from grader.tournament.match import play_game as engine_play_game, shared_wins

ROOT = Path(__file__).resolve().parent.parent
REF = load_trusted_module(ROOT / "reference" / "comp10001go.py", "reference")
GO = game_class(ROOT / "reference" / "comp10001go_game.py")
RULES = load_trusted_module(ROOT / "reference" / "comp10001go_game.py", "game")
DECK, SEATS, deal, default_card, pass_left = RULES.DECK, RULES.SEATS, RULES.deal, RULES.default_card, RULES.pass_left
CONFIG = TournamentSpec()


def play_game(players, seed, config=CONFIG, options=None, *, game=0):
    return engine_play_game(GO(options or {}), players, seed, config, number=game)


class Scripted:
    """Answers with ``play(history, player_no, hand)``; records what it was shown."""

    def __init__(self, name, play=None, group=None, seconds=0.001):
        self.entrant = name
        self._play = play or (lambda h, p, hand: Reply("ok", hand[0], seconds))
        self._group = group or (lambda h, p: Reply("ok", REF.comp10001go_group(h, p), seconds))
        self.shown = []  # (history, player_no, hand) per play call
        self.grouped = []

    def new_game(self, seed, seat):
        pass

    def start(self, role, args, time_limit):
        reply = self.answer(role, args)
        return lambda: reply

    def answer(self, role, args):
        if role == "play":
            history, player_no, hand = args
            self.shown.append(([list(t) for t in history], player_no, list(hand)))
            return self._play(history, player_no, hand)
        history, player_no = args
        self.grouped.append(([list(t) for t in history], player_no))
        return self._group(history, player_no)


def table(**overrides):
    players = [Scripted(f"p{s}") for s in range(SEATS)]
    for key, player in overrides.items():
        players[int(key[1:])] = player
    return players


def test_deal_is_seeded_and_disjoint():
    hands = deal(7)
    assert hands == deal(7) and hands != deal(8)
    cards = [c for h in hands for c in h]
    assert len(cards) == 40 and len(set(cards)) == 40 and set(cards) <= set(DECK)
    deck = list(DECK)
    random.Random(7).shuffle(deck)
    assert hands[2] == deck[20:30]


def test_pass_left_sends_seat_i_to_seat_i_plus_1():
    assert pass_left([["a"], ["b"], ["c"], ["d"]]) == [["d"], ["a"], ["b"], ["c"]]


def test_ten_turns_each_player_sees_its_own_hand_passed_from_the_right():
    players = table()
    record = play_game(players, 11)
    discards = record.log["discards"]
    assert len(discards) == 10 and all(len(t) == 4 for t in discards)
    start = deal(11)
    for s, p in enumerate(players):
        assert len(p.shown) == 10
        assert p.shown[0] == ([], s, start[s])
        for turn in range(1, 10):
            history, player_no, hand = p.shown[turn]
            assert player_no == s and history == discards[:turn]
            # The hand seat s holds now is what seat s-1 held, less the card it discarded.
            before = players[(s - 1) % 4].shown[turn - 1][2]
            assert hand == [c for c in before if c != discards[turn - 1][(s - 1) % 4]]
        assert len([t[s] for t in discards]) == 10
        assert p.grouped == [(discards, s)]
    assert sorted(c for t in discards for c in t) == sorted(c for h in start for c in h)


def test_scores_come_from_the_reference_and_the_highest_wins():
    record = play_game(table(), 5)
    log = record.log
    for s in range(SEATS):
        mine = [t[s] for t in log["discards"]]
        assert log["grouped_by"][s] == "player"
        assert record.scores[s] == REF.comp10001go_score_grouping(REF.comp10001go_group(log["discards"], s))
        assert sorted(c for g in log["groupings"][s] for c in g) == sorted(mine)
    best = max(record.scores)
    winners = record.scores.count(best)
    assert record.wins == [1 / winners if x == best else 0.0 for x in record.scores]
    assert record.faults == []


def test_tied_winners_share_the_win():
    assert shared_wins([7, 0, 7, 0]) == [0.5, 0.0, 0.5, 0.0]
    assert shared_wins([1, 2, 3, 3.0]) == [0.0, 0.0, 0.5, 0.5]
    assert shared_wins([4, 4, 4, 4]) == [0.25] * 4


@pytest.mark.parametrize("reply, kind", [
    (Reply("ok", 42), "not-a-string"),
    (Reply("ok", ["5H"]), "not-a-string"),
    (Reply("ok", "1H"), "not-a-card"),
    (Reply("ok", "XX"), "not-in-hand"),  # replaced below by a real card not in the hand
    (Reply("error", detail="ValueError: boom"), "exception"),
    (Reply("timeout", detail="stopped after 1 s"), "timeout"),
    (Reply("crashed", detail="segmentation fault"), "crashed"),
    (Reply("protocol", detail="wrote 2 result lines for one call"), "protocol"),
])
def test_every_kind_of_illegal_move_is_replaced_and_recorded(reply, kind):
    def play(history, player_no, hand):
        if kind == "not-in-hand":
            return Reply("ok", next(c for c in DECK if c not in hand))
        return reply

    record = play_game(table(p2=Scripted("bad", play=play)), 3, game=9)
    faults = [f for f in record.faults if f.role == "play"]
    assert len(faults) == 10 and {f.kind for f in faults} == {kind}
    assert all(f.entrant == "bad" and f.seat == 2 and f.game == 9 and f.seed == 3 for f in faults)
    assert [f.turn for f in faults] == list(range(1, 11))
    # The default ("first") card was played instead, and the game went on normally.
    assert [f.replaced_by for f in faults] == [t[2] for t in record.log["discards"]]
    assert all(f.replaced_by == h[2][0] for f, h in zip(faults, record.log["hands"]))
    # Each fault carries the exact call the player got, to run it again by hand.
    assert [f.call["hand"] for f in faults] == [h[2] for h in record.log["hands"]]
    assert faults[3].call["discard_history"] == record.log["discards"][:3] and faults[3].call["player_no"] == 2


@pytest.mark.parametrize("how", ["first", "lowest", "random"])
def test_default_moves(how):
    hand = ["9S", "3H", "KD", "3C"]
    rng = random.Random(1)
    card = default_card(hand, how, rng)
    assert card == {"first": "9S", "lowest": "3H", "random": random.Random(1).choice(hand)}[how]


def test_random_default_is_reproducible_from_the_seed():
    bad = lambda h, p, hand: Reply("ok", None)  # noqa: E731
    options = {"default_move": "random"}
    one = play_game(table(p0=Scripted("x", play=bad)), 4, options=options)
    two = play_game(table(p0=Scripted("x", play=bad)), 4, options=options)
    assert one.log["discards"] == two.log["discards"]
    assert [f.replaced_by for f in one.faults] != [f.call["hand"][0] for f in one.faults]


@pytest.mark.parametrize("grouping, why", [
    (lambda mine: [mine], "neither a single card"),
    (lambda mine: [[c] for c in mine[:-1]], "not exactly your ten discards"),
    (lambda mine: [[c] for c in mine] + [["AS"]] if "AS" not in mine else [[c] for c in mine] + [["2S"]], "not exactly"),
    (lambda mine: "AS 2S", "not a list of lists"),
    (lambda mine: [[1, 2]], "not a card"),
])
def test_an_invalid_grouping_is_scored_as_singletons(grouping, why):
    group = lambda h, p: Reply("ok", grouping([t[p] for t in h]))  # noqa: E731
    record = play_game(table(p1=Scripted("g", group=group)), 8)
    mine = [t[1] for t in record.log["discards"]]
    assert record.log["grouped_by"][1] == "singletons" and record.log["groupings"][1] == [[c] for c in mine]
    assert record.scores[1] == REF.comp10001go_score_grouping([[c] for c in mine])
    (fault,) = record.faults
    assert fault.role == "group" and fault.kind == "invalid-grouping" and why in fault.detail and fault.turn is None


def test_a_failing_group_call_is_scored_as_singletons():
    record = play_game(table(p3=Scripted("t", group=lambda h, p: Reply("timeout", detail="too slow"))), 2)
    (fault,) = record.faults
    assert (fault.kind, fault.seat, record.log["grouped_by"][3]) == ("timeout", 3, "singletons")


def test_the_game_time_limit_stops_calling_a_slow_player():
    slow = Scripted("slow", seconds=0.4)
    config = TournamentSpec(game_time_limit=1.0)
    record = play_game(table(p0=slow), 6, config)
    assert len(slow.shown) == 3  # 0.4 + 0.4 + 0.4 > 1.0: no fourth call
    kinds = [(f.turn, f.kind) for f in record.faults]
    assert kinds == [(t, "game-time") for t in range(4, 11)] + [(None, "game-time")]
    assert record.play_calls[0] == 3 and record.play_time_s[0] == pytest.approx(1.2)
