"""The lenient transcript parser and the replay deck."""
from grader.programs.replay import build_deck, deal_problems
from grader.programs.transcript import parse


def _session(text: str, inputs=(("stake", "10"), ("action", "2"))):
    items = [("out", text, "")] + [("in", t, k) for k, t in inputs]
    return parse(items)


def test_lenient_wording():
    text = (">>>>  We are about to start Game number 1 <<<<\r\nEnter your stake in Euro: ace of spades\n"
            "7 of Hearts\nThe first of my initial two cards is\t10 of Clubs\r\nYour next card is : 2 of Spades\n"
            "My turn to play...\nMy second initial card is Queen of Diamonds\nI am stopping ...\n"
            "You have lost 10.0 Euro\nYou have lost 10.0 Euro. Next time luckier.\n")
    game = _session(text).games[0]
    assert game.player == ["Ace of Spades", "7 of Hearts"]
    assert game.dealer_up == "10 of Clubs" and game.dealer_hidden == "Queen of Diamonds"
    assert game.player_draws == ["2 of Spades"] and game.money == -10.0


def test_impossible_deal_is_reported():
    text = (">>>> We are about to start Game number 1 <<<<\n2 of Spades\n2 of Spades\n"
            "The first of my initial two cards is 11 of Clubs\nYou have won 10.0 Euro\n")
    problems = deal_problems(_session(text).games[0])
    assert any("dealt 2 times" in p for p in problems) and any("11 of Clubs" in p for p in problems)


def test_replay_deck_keeps_the_order_and_avoids_an_unseen_natural():
    text = (">>>> We are about to start Game number 1 <<<<\n9 of Spades\n5 of Hearts\n"
            "The first of my initial two cards is Ace of Clubs\nYour next card is 10 of Hearts\n"
            "You have been burned and have lost 10.0 Euro\n")
    deck = build_deck(_session(text).games[0])
    assert deck[:3] == ["9 of Spades", "5 of Hearts", "Ace of Clubs"] and deck[4] == "10 of Hearts"
    assert deck[3].split(" ")[0] not in ("10", "Jack", "Queen", "King") and len(set(deck)) == 52
