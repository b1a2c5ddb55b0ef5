"""The Blackjack plug-in beside its spec: tolerant reading of real wordings, players, fair-deal tests."""
from __future__ import annotations

import random

from grader.spec.loader import load_trusted_module

from conftest import ROOT

plugin = load_trusted_module(ROOT / "reference" / "blackjack_program.py", "program_plugin")
t, players, replay = plugin._t, plugin._p, plugin._r


def _session(chunks):
    """chunks: output strings and (kind, text, value) answers, in order."""
    parser = t.TranscriptParser()
    for chunk in chunks:
        if isinstance(chunk, str):
            parser.feed_output(chunk)
        else:
            parser.feed_answer(t.Answer(*chunk))
    return parser.finish()


def test_real_wordings_are_read_as_events():
    session = _session([
        ">>>> We are about to start Game number 1 <<<<\nGive your stake in Euro (integer): ", ("stake", "10", 10.0),
        "You have the following two cards:\nAce of Hearts\nKing of Spades\nThe first of my initial two cards is 6 of Clubs\n"
        "Natural Blackjack for you!!! You have just won 15.0 Euro\nDo you want to play again? (1=Yes, 2=No): ",
        ("again", "1", 1.0),
        ">>>> We are about to start Game number 2 <<<<\nGive your stake in Euro (integer): ", ("stake", "10", 10.0),
        "You have the following two cards:\n10 of Hearts\n7 of Spades\nThe first of my initial two cards is 10 of Clubs\n"
        "Choose action (1=Hit, 2=Stand, 3=Double Down, 4=Surrender): ", ("action", "2", 2.0),
        "My turn to play...\nMy second initial card is 7 of Clubs\nI am stopping...\nDraw! You are not losing anything.\n"
        "Do you want to play again? (1=Yes, 2=No): ", ("again", "2", 0.0),
        "You have not won anything. Next time luckier.\n******** GOODBYE - COME AGAIN **********\n",
    ])
    first, second = session.games
    assert first.player == ["Ace of Hearts", "King of Spades"] and first.dealer_up == "6 of Clubs"
    assert (first.result_kind, first.money) == ("player_natural", 15.0)
    assert second.dealer_hidden == "7 of Clubs" and (second.result_kind, second.money) == ("tie", 0.0)
    assert session.summary == 0.0


def test_result_lines_by_meaning():
    assert t.classify_result("As you see I have a natural blackjack, so you lose your stake") == ("dealer_natural", -1)
    assert t.classify_result("Blackjack for me!!! You have just lost 20.0 Euro") == ("dealer_21", -1)
    assert t.classify_result("You are burned! You lost 10.0 Euro") == ("player_burned", -1)
    assert t.classify_result("I have burned myself and you win 10.0 Euro") == ("dealer_burned", 1)
    assert t.classify_result("Choose action (1=Hit, 2=Stand, 3=Double Down, 4=Surrender): ") is None
    assert t.classify_result("You have the following two cards:") is None


def test_the_player_answers_the_question_in_its_form():
    player = players.BlackjackPlayer(players.Policy(decide=players.always_stand, games=2, stakes=(10,), insure=True))
    assert player.answer(">>>> Game number 1 <<<<\nEnter your stake in Euro: ") == "10"
    assert player.answer("7 of Hearts\n9 of Clubs\nThe first of my initial two cards is Ace of Spades\n"
                         "I have an Ace. Do you want insurance? (Y/N): ") == "Y"
    assert player.answer("Choose action (1=Hit, 2=Stand): ") == "2"
    assert player.answer("My turn to play...\nMy second initial card is 6 of Hearts\nMy next card is 2 of Spades\n"
                         "I am stopping...\nYou have lost 5.0 Euro\nDo you want to play again? (1=Yes, 2=No): ") == "1"
    assert [a.kind for a in player.sent] == ["stake", "insurance", "action", "again"]
    assert player.sent[1].value == 5.0


def test_a_question_the_grader_cannot_place_stops_as_the_graders_fault():
    player = players.BlackjackPlayer(players.Policy(decide=players.always_stand, games=1))
    player.answer("Enter your stake in Euro: ")
    prompt = "4 of Hearts\n9 of Clubs\nThe first of my initial two cards is Ace of Spades\nInsurance? "
    answers = [player.answer(prompt)] + [player.answer("Insurance? ") for _ in range(6)]
    stop = answers[-1]
    assert answers[0] == "10" and "N" in answers   # an amount first, then the Y/N form
    assert getattr(stop, "by_grader", False) and "could not tell what the program asks" in stop.reason


def test_a_repeated_card_in_a_game_is_an_impossible_deal():
    session = _session([
        "Enter your stake in Euro: ", ("stake", "10", 10.0),
        "9 of Spades\n2 of Hearts\nThe first of my initial two cards is 5 of Clubs\nEnter chosen action: ",
        ("action", "3", 3.0), "Your final card is 8 of Diamonds\nMy turn to play...\nMy second initial card is "
        "10 of Clubs\nMy next card is 8 of Diamonds\nI am stopping...\nYou have lost 20.0 Euro\n"])
    problems = replay.deal_problems(session.games[0])
    assert any("8 of Diamonds was dealt a second time" in p for p in problems)


def _fair_openings(rng, games):
    openings = []
    for _ in range(games):
        deck = list(t.ALL_CARDS)
        rng.shuffle(deck)
        openings.append(tuple(deck[:3]))
    return openings


def test_fair_shuffles_are_not_flagged():
    rng = random.Random(7)
    assert not any(plugin.fairness(_fair_openings(rng, 120)) for _ in range(300))


def test_rigged_deals_are_flagged():
    rng = random.Random(8)
    naturals = [("Ace of Hearts", "King of Spades", o[2]) for o in _fair_openings(rng, 60)]
    assert [rule for rule, _ in plugin.fairness(naturals)] == ["unfair_deals"] * 3
    same = [("9 of Clubs", "4 of Hearts", "Queen of Spades")] * 60
    assert any("do not vary" in message for _, message in plugin.fairness(same))
    busting = [(o[0], o[1], "6 of Clubs") for o in _fair_openings(rng, 60)]
    assert plugin.fairness(busting)


deals = load_trusted_module(ROOT / "reference" / "blackjack_deals.py", "blackjack_deals")
reference = load_trusted_module(ROOT / "reference" / "blackjack.py", "blackjack_reference")


class _Answering:
    """stdin for the reference that a grader's player answers (a fair or a rigged dealer, no program)."""

    def __init__(self, out, player):
        self.out, self.player = out, player

    def readline(self, *_):
        text = self.out.getvalue()
        self.out.seek(0)
        self.out.truncate()
        answer = self.player.answer(text)
        return answer + "\n" if isinstance(answer, str) else ""


def _played(decks, games=40, seed=1, game_class=None):
    """The GameRecords of one `mixed` session the reference deals from ``decks`` (game number -> deck)."""
    import io
    player = players.BlackjackPlayer(players.make_policy({"strategy": "mixed", "games": games, "seed": seed}, None))
    out = io.StringIO()
    saved = reference.Game
    reference.Game = game_class or saved
    try:
        reference.play_session(_Answering(out, player), out, decks)
    finally:
        reference.Game = saved
    player.parser.feed_output(out.getvalue())
    return [g for g in player.parser.finish().games if g.result_kind]


def _fair_decks(rng):
    def deck(_):
        cards = list(t.ALL_CARDS)
        rng.shuffle(cards)
        return cards
    return deck


class _NeverSeventeen(reference.Game):
    """A dealer who swaps the cards that would make 17 (hidden card or draw) for later ones: a deal hiding a bug."""

    def deal(self):
        rest = list(self.cards)
        for i in range(4, len(rest)):
            if t.hand_total(rest[2:4]) != 17:
                break
            if t.hand_total([rest[2], rest[i]]) not in (17, 21):
                rest[3], rest[i] = rest[i], rest[3]
        self.cards = iter(rest)
        super().deal()

    def dealer_turn(self):
        rest = list(self.cards)
        self.cards = iter(rest)
        draw = self.draw

        def pick():
            i = next((i for i, c in enumerate(rest) if t.hand_total([*self.dealer, c]) != 17), 0)
            return rest.pop(i)
        self.draw = pick
        try:
            return super().dealer_turn()
        finally:
            self.draw = draw


def test_every_card_must_follow_the_supplied_deck_in_dealing_order():
    rng = random.Random(5)
    decks = [_fair_decks(rng)(0) for _ in range(6)]
    games = _played(lambda n: list(decks[(n - 1) % 6]), games=6)
    assert all(deals.follows_opening(g, decks[g.number - 1]) for g in games)
    assert all(deals.deck_deviation(g, decks[g.number - 1]) is None for g in games)
    supplied = [("case", g, decks[g.number - 1]) for g in games]
    assert plugin.deck_deviations(supplied) == []
    # the same games judged against decks whose drawn cards are in another order: named with game and line
    drawn = next(g for g in games if len(deals.slots(g)) >= 6)
    deck = list(decks[drawn.number - 1])
    deck[4], deck[5] = deck[5], deck[4]
    message = deals.deck_deviation(drawn, deck)
    line = next(line for _, card, line in deals.slots(drawn) if card == deck[5])
    assert message and message.startswith(f"line {line} shows {deck[5]}") and "card 5 is" in message
    dealt = [*supplied[:drawn.number - 1], ("case", drawn, deck), *supplied[drawn.number:]]
    [(rule, text, staff)] = plugin.deck_deviations(dealt)
    assert rule == "unfair_deals" and f"case game {drawn.number}: line" in text and "in 1 game(s)" in text
    assert staff == text
    [(_, student, staff)] = plugin.deck_deviations(dealt, hidden={"case"})   # a hidden case's deck is staff-only
    assert f"case game {drawn.number}: line" not in student and f"case game {drawn.number}" in student and staff == text


def test_a_self_shuffling_program_is_not_held_to_decks_it_never_read():
    rng = random.Random(6)
    games = _played(_fair_decks(rng), games=30)
    other = [_fair_decks(rng)(0) for _ in games]
    other[0] = [*deals.opening(games[0]), *[c for c in t.ALL_CARDS if c not in deals.opening(games[0])]]  # one opening by chance
    assert plugin.deck_deviations([("case", g, d) for g, d in zip(games, other)]) == []


def test_the_card_test_passes_fair_deals_and_catches_a_dealer_that_never_reaches_17():
    rng = random.Random(7)
    for _ in range(3):
        fair = deals.CardTest()
        for game in _played(_fair_decks(rng), games=300, seed=rng.randrange(100)):
            fair.add_game(game)
        assert fair.verdict(1e-5) is None and fair.cards > 1000
    rigged = deals.CardTest()
    for game in _played(_fair_decks(rng), games=300, game_class=_NeverSeventeen):
        rigged.add_game(game)
    verdict = rigged.verdict(1e-5)
    assert verdict and "the dealer's total became 17 0 times" in verdict


def test_a_flood_of_repeated_cards_makes_a_short_message():
    game = t.GameRecord(number=1, first_line=1, player=["2 of Hearts", "3 of Hearts"], dealer_up="4 of Hearts",
                        repeated=[("2 of Spades", line) for line in range(20000)])
    problems = replay.deal_problems(game)
    assert len(problems) == 4 and "19997 more cards dealt a second time" in problems[-1]
    assert len(plugin._aspect_test("deal", ["x" * 100000], 1, 10.0).message) < 1000


wording = plugin._w

_GAME_ONE = [
    "******* WELCOME TO BLACKJACK ********\n>>>> We are about to start Game number 1 <<<<\nYour stake in Euro: ",
    ("stake", "10", 10.0),
    "7 of Hearts\n9 of Clubs\nThe first of my initial two cards is 5 of Spades\nAction? ", ("action", "2", 2.0),
    "My turn to play...\nMy second initial card is 10 of Clubs\nMy next card is 4 of Diamonds\nI am stopping...\n"
    "You lose 10.0 Euro\n",
]


def _wording_of(chunks, reference_game_lines):
    session = _session(chunks)
    found = wording.Wording()
    found.game(session.games[0], reference_game_lines, session.answered)
    found.session(session, ended=True, summary=["You have lost 10.0 Euro. Next time luckier.", wording.GOODBYE])
    return found


_REFERENCE_GAME = ["Enter your stake in Euro: 10", "7 of Hearts", "9 of Clubs", "The first of my initial two cards is "
                   "5 of Spades", "Enter chosen action: 2", "My turn to play...", "My second initial card is 10 of Clubs",
                   "My next card is 4 of Diamonds", "I am stopping...", "You have lost 10.0 Euro"]
_LEGEND = "Enter your stake in Euro: 10\nEnter chosen action: 2\nYou have lost 10.0 Euro\n"


def test_a_line_of_the_handout_counts_only_where_the_game_calls_for_it():
    """A legend before the first game, after a result or after the goodbye counts for nothing; a prompt counts
    only where an answer followed it; the welcome, the banner and the goodbye count in their own places."""
    honest = _wording_of([*_GAME_ONE, "Again? ", ("again", "2", 0.0),
                          "You have lost 10.0 Euro. Next time luckier.\n" + wording.GOODBYE + "\n"], _REFERENCE_GAME)
    assert {"Enter your stake in Euro: {n}", "Enter chosen action: {n}", "You have lost {n} Euro"} <= honest.arose
    assert honest.arose - honest.in_place == {"Enter your stake in Euro: {n}", "Enter chosen action: {n}",
                                              "You have lost {n} Euro"}
    legend = [_GAME_ONE[0].replace("\n>>>>", "\n" + _LEGEND + ">>>>"), *_GAME_ONE[1:-1], _GAME_ONE[-1] + _LEGEND,
              "Again? ", ("again", "2", 0.0), "You have lost 10.0 Euro. Next time luckier.\n" + wording.GOODBYE
              + "\n" + _LEGEND]
    assert _wording_of(legend, _REFERENCE_GAME).in_place == honest.in_place
    # the banner and the welcome where they belong, and nowhere else
    assert {wording.WELCOME, wording.BANNER, "You have lost {n} Euro. Next time luckier.", wording.GOODBYE} <= honest.in_place
    late = _wording_of([_GAME_ONE[0].split("\n")[-1], *_GAME_ONE[1:], "Again? ", ("again", "2", 0.0),
                        wording.BANNER + "\n" + wording.WELCOME + "\n"], _REFERENCE_GAME)
    assert {wording.WELCOME, wording.BANNER} <= late.arose and not {wording.WELCOME, wording.BANNER} & late.in_place
    ratio, misses = late.ratio()
    assert ratio < 1 and any("where it belongs" in m for m in misses)


def test_games_the_program_never_played_are_not_games_it_got_right():
    assert plugin.played_share([(40, 40), (9, 9)]) == (1.0, None)
    share, test = plugin.played_share([(2, 40), (1, 9), (0, 1)])
    assert share == 3 / 50 and test.status == "failed" and "played 3 of the 50 games" in test.message
    assert plugin.played_share([(0, 40)])[0] == 0.0


def test_a_scripted_case_follows_its_whole_script():
    """The handout's second run is nine games: each game gets its own answers from the script (the planner once
    quit after the third game and sent every later line as an answer to 'play again')."""
    from grader.programs.spec import of_spec
    from grader.spec.loader import load_spec

    case = next(c for c in of_spec(load_spec(ROOT / "specs" / "blackjack.yaml")).cases if c["name"] == "handout_run_2")
    plan = plugin.plan_script(case, reference)
    assert len(plan) == 9 and [game["stake"] for game in plan] == [[s] for s in "10 8 9 5 6 10 10 20 10".split()]
    assert [game["again"] for game in plan] == [["1"]] * 8 + [["2"]]
    assert plan[6]["action"] == ["1", "1", "3"]


def test_a_card_shown_twice_is_replayed_as_shown_and_a_deal_without_a_dealer_card_is_not_judged():
    session = _session([
        "Enter your stake in Euro: ", ("stake", "10", 10.0),
        "9 of Spades\n7 of Hearts\nThe first of my initial two cards is 5 of Clubs\nEnter chosen action: ",
        ("action", "2", 2.0), "My turn to play...\nMy second initial card is 9 of Spades\nI am stopping...\n"
        "You have won 10.0 Euro\n"])
    game = session.games[0]
    assert replay.deal_problems(game) and replay.replayable(game)
    deck = replay.build_deck(game, as_shown=True)
    assert deck[:4] == ["9 of Spades", "7 of Hearts", "5 of Clubs", "9 of Spades"]
    assert replay.build_deck(game)[3] != "9 of Spades"          # the usual deck never deals a card twice
    ref = replay.replay_game(reference, game, deck).game
    assert ref.dealer_draws and ref.money is not None       # the dealer on 14 draws: the program's win is judged
    no_dealer = t.GameRecord(number=1, first_line=1, player=["2 of Hearts", "3 of Hearts"])
    assert not replay.replayable(no_dealer)


# ----------------------------------------------------------------------------- what the screen shows

def _judged(chunks, games=None):
    """Judge one public case whose session is ``chunks`` (as in _session): the aspect tests by name, and notes."""
    from types import SimpleNamespace

    from grader.programs.plugin import CaseRun, Context
    from grader.programs.session import Event, Transcript

    events, sent = [], []
    for chunk in chunks:
        if isinstance(chunk, str):
            events.append(Event(len(events) * 0.01, "out", chunk))
        else:
            sent.append(t.Answer(*chunk))
            events.append(Event(len(events) * 0.01, "in", sent[-1].text))
    wanted = games or sum(1 for a in sent if a.kind == "stake")
    player = SimpleNamespace(sent=sent, policy=SimpleNamespace(games=wanted))
    run = CaseRun({"name": "c", "visibility": "public"}, Transcript(tuple(events), "exit"), None, player)
    ctx = Context(reference=reference, options={}, points={"games": 60, "wording": 10}, language="python",
                  main_file="blackjack.py", sources={})
    judgement = plugin.judge([run], ctx)
    return {test.name: test for test in judgement.tests}, judgement


def _game(opening, action_answers, rest, stake="10"):
    return ["Enter your stake in Euro: ", ("stake", stake, float(stake)), opening, *action_answers, rest]


GOODBYE = "******** GOODBYE - COME AGAIN **********\n"


def test_an_overwritten_line_is_read_as_the_screen_shows_it():
    """A natural paid 1x on the screen, the handout's 1.5x line printed first and erased with CR + ESC[2K (and a
    total overwritten with CR and blanks): the grader reads the 1x a person sees."""
    shadow = "You have won 15.0 Euro. Lucky you!!"
    chunks = [*_game("Ace of Spades\nKing of Hearts\nThe first of my initial two cards is 7 of Clubs\n"
                     "Blackjack for you!!! You have just won 15.0 Euro\r\x1b[2KBlackjack for you!!! You have just won "
                     "10.0 Euro\n", [], ""),
              ("again", "2", 0.0), shadow + "\r" + " " * len(shadow) + "\rYou have won 10.0 Euro. Lucky you!!\n" + GOODBYE]
    tests, judgement = _judged(chunks)
    assert tests["games/money"].status == "failed" and "+10.00 Euro for 'won with a natural'" in tests["games/money"].message
    assert tests["games/session"].status == "passed"      # the total a person sees is the games' sum
    assert judgement.scores["games"] == 50


def test_a_cursor_moved_to_another_line_makes_the_session_unreadable():
    game = _game("9 of Spades\n8 of Hearts\nThe first of my initial two cards is 10 of Clubs\nEnter chosen action: ",
                 [("action", "2", 2.0)], "My turn to play...\nMy second initial card is 7 of Diamonds\nI am stopping...\n"
                 "You have won 10.0 Euro\n\x1b[1A\x1b[2KYou have lost 10.0 Euro\n")
    tests, judgement = _judged([*game, ("again", "2", 0.0), "You have lost 10.0 Euro. Next time luckier.\n" + GOODBYE])
    note = tests["c/session"]
    assert note.status == "failed" and "moves the cursor to rewrite earlier lines (ESC[1A at line 10)" in note.message
    assert "can't be graded" in note.message and "c" in judgement.short_cases
    assert judgement.scores == {"games": 0.0, "wording": 0.0}
    assert tests["games/session"].status == "failed"


def test_colour_and_a_spinner_within_the_line_keep_a_game_right():
    game = _game("\x1b[1m9 of Spades\x1b[0m\n\x1b[31mKing of Hearts\x1b[0m\nThe first of my initial two cards is "
                 "\x1b[1m10 of Clubs\x1b[0m\n\x1b[36mEnter chosen action: \x1b[0m", [("action", "2", 2.0)],
                 "My turn to play...\nthinking |\b/\b-\r\x1b[KMy second initial card is \x1b[31m8 of Diamonds\x1b[0m\n"
                 "I am stopping...\n\x1b[32mYou have won 10.0 Euro\x1b[0m\n")
    tests, judgement = _judged(["\x1b[?25lShuffling |\b/\r\x1b[K\x1b[?25h", *game, ("again", "2", 0.0),
                                "You have won 10.0 Euro. Lucky you!!\n" + GOODBYE])
    assert all(tests[f"games/{aspect}"].status == "passed" for aspect in plugin.ASPECTS), \
        [tests[f"games/{a}"].message for a in plugin.ASPECTS]
    assert judgement.scores["games"] == 60


def test_a_dealer_that_plays_out_of_sight_is_a_fault_of_its_play_and_of_the_money():
    """The player stands on 19 and the program only announces a win: with no hidden card the grader would make one up
    (the unseen cards in order), and a program that announces what that made-up dealer gives passed."""
    game = _game("9 of Spades\nKing of Hearts\nThe first of my initial two cards is 10 of Clubs\nEnter chosen action: ",
                 [("action", "2", 2.0)], "You have won 10.0 Euro\n")
    tests, judgement = _judged([*game, ("again", "2", 0.0), "You have won 10.0 Euro. Lucky you!!\n" + GOODBYE])
    for aspect in ("dealer_play", "money"):
        assert tests[f"games/{aspect}"].status == "failed", aspect
        assert "never showed the dealer's hidden card" in tests[f"games/{aspect}"].message
    assert "can't be checked" in tests["games/money"].message
    assert judgement.scores["games"] == 40
    # a game the player's own hand decides needs no dealer: a bust is judged as before
    bust = _game("9 of Spades\n8 of Hearts\nThe first of my initial two cards is 10 of Clubs\nEnter chosen action: ",
                 [("action", "1", 1.0)], "Your next card is 7 of Clubs\nYou have been burned and have lost 10.0 Euro\n")
    tests, _ = _judged([*bust, ("again", "2", 0.0), "You have lost 10.0 Euro. Next time luckier.\n" + GOODBYE])
    assert tests["games/dealer_play"].status == "passed" and tests["games/money"].status == "passed"


def test_two_results_or_two_totals_get_no_benefit_of_the_doubt():
    lost_then_won = _game("9 of Spades\n8 of Hearts\nThe first of my initial two cards is 10 of Clubs\n"
                          "Enter chosen action: ", [("action", "2", 2.0)],
                          "My turn to play...\nMy second initial card is 9 of Diamonds\nI am stopping...\n"
                          "You have lost 10.0 Euro\nYou have won 10.0 Euro\n")
    tests, _ = _judged([*lost_then_won, ("again", "2", 0.0), "You have lost 10.0 Euro. Next time luckier.\n"
                        "You have won 10.0 Euro. Lucky you!!\n" + GOODBYE])
    money, session = tests["games/money"], tests["games/session"]
    assert money.status == "failed" and "'You have won 10.0 Euro') contradicts the result of line" in money.message
    assert session.status == "failed" and "2 different final totals were shown" in session.message
    # a running total after the result is no second result, and the same total twice is one total
    honest = _game("9 of Spades\n8 of Hearts\nThe first of my initial two cards is 10 of Clubs\nEnter chosen action: ",
                   [("action", "2", 2.0)], "My turn to play...\nMy second initial card is 9 of Diamonds\n"
                   "I am stopping...\nYou have lost 10.0 Euro\nSo far you have lost 10.0 Euro in total\n")
    tests, judgement = _judged([*honest, ("again", "2", 0.0), "You have lost 10.0 Euro. Next time luckier.\n"
                                "You have lost 10.0 Euro. Next time luckier.\n" + GOODBYE])
    assert judgement.scores["games"] == 60, [test.message for test in tests.values() if test.status == "failed"]


def test_a_burn_claimed_for_cards_that_did_not_burn_is_a_money_fault():
    """The dealer stops on 18 and the player has 19: the money (+10) is right, but the line says the dealer burned."""
    game = _game("9 of Spades\nKing of Hearts\nThe first of my initial two cards is 10 of Clubs\nEnter chosen action: ",
                 [("action", "2", 2.0)], "My turn to play...\nMy second initial card is 8 of Diamonds\nI am stopping...\n"
                 "I have burned myself and you win 10.0 Euro\n")
    tests, _ = _judged([*game, ("again", "2", 0.0), "You have won 10.0 Euro. Lucky you!!\n" + GOODBYE])
    assert tests["games/money"].status == "failed"
    assert "claims the dealer burned, but the dealer's cards total 18" in tests["games/money"].message
