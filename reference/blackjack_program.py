"""The Blackjack program plug-in (specs/blackjack.yaml ``program.plugin``): play and judge EPL131 sessions.

Trusted course code, loaded by the grader's console-program engine, which knows nothing of
Blackjack. ``start`` gives each case its player (reference/blackjack_players.py); ``judge``
reads every session back (reference/blackjack_transcript.py), replays every game through the
reference with the same cards and answers (reference/blackjack_replay.py) and scores:

* ``games``: six aspects of the game, each worth a sixth, lost when any game of any case shows
  the fault: the deal, the player's cards, the dealer's play, the money of each game, the flow of
  questions, and the session (ends on the answer, final total = the games' results). A fault is
  scored once however many games show it, so the score does not depend on how often the
  program's own shuffle happens to trigger it, and every game that shows it is listed;
* ``wording``: the share of the handout's kinds of line the program prints exactly, each where it
  belongs (reference/blackjack_wording.py);
* both count only the share of the games the player asked for that the program played to a
  result: a game it never played is not a game it got right (a program that plays none scores none);
* rules: ``unfair_deals`` (a program that reads the grader's decks shows a card that is not the
  deck's next one, or the program's own deals fail a test of a fair shuffle: the opening tests
  below and reference/blackjack_deals.py's test of every card), ``unreached_actions`` (some
  action was never reachable) and ``abandoned_session`` (the program ended the session unasked, with
  no final total and no error shown: a crash it caught and hid); the spec says what breaking one costs.
"""
from __future__ import annotations

import io
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Collection, Mapping, Sequence

from grader.judge.verdict import TestResult
from grader.programs.plugin import CaseRun, Context, Judgement, Play, hide_findings, listing, unreadable
from grader.programs.plugin import played_share as _played_share
from grader.spec.loader import load_trusted_module

_here = Path(__file__).parent
_t = load_trusted_module(_here / "blackjack_transcript.py", "blackjack_transcript")
_p = load_trusted_module(_here / "blackjack_players.py", "blackjack_players")
_r = load_trusted_module(_here / "blackjack_replay.py", "blackjack_replay")
_d = load_trusted_module(_here / "blackjack_deals.py", "blackjack_deals")
_w = load_trusted_module(_here / "blackjack_wording.py", "blackjack_wording")

CRITERIA = ("games", "wording")
ASPECTS = {
    "deal": "every game's cards come from one 52-card deck: two open cards each at the start, no card twice",
    "player_cards": "a hit gives one card, a double down exactly one card",
    "dealer_play": "the dealer reveals the hidden card and draws while the total is 17 or less",
    "money": "each game settles the stake as the handout says (a natural pays 1.5x, 21 by hitting 1x, ...)",
    "flow": "the right questions at the right time (insurance only against an Ace, no action after 21 or a bust)",
    "session": "the session ends on the answer that ends it, and the final total is the sum of the games",
}
#: Significance of each test of the program's own deals: the opening's three and the test of every
#: card (``cards``, exact by Ville's inequality) together raise a false alarm for fewer than 1 in
#: 30,000 honest submissions.
FAIRNESS_ALPHA = {"ranks": 1e-5, "naturals": 1e-5, "repeats": 1e-6, "cards": 1e-5}
FAIRNESS_MIN_GAMES = 30
#: Games whose opening is the supplied deck's, at least, for a program to count as reading the decks
#: (an honest self-shuffling program opens two of ~330 games so by chance with probability ~3e-6).
DECK_READER_GAMES = 2
#: Games listed in full in a message; the rest are counted.
SHOWN_PROBLEMS = 3

_STRATEGIES = sorted(_p.STRATEGIES)
CARD_SCHEMA = {"type": "string", "pattern": "^(Ace|King|Queen|Jack|10|[2-9]) of (Clubs|Diamonds|Hearts|Spades)$"}
CASE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["name"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "visibility": {"enum": ["public", "hidden"]},
        "weight": {"type": "number"},
        "timed": {"type": "boolean"},
        "seed": {"type": "integer"},
        "games": {"type": "integer", "minimum": 1, "maximum": 1000},
        "stakes": {"type": "array", "minItems": 1, "items": {"type": "number", "exclusiveMinimum": 0}},
        "insure": {"type": "boolean"},
        "stdin": {"type": "array", "minItems": 1, "items": {"type": ["string", "number"]}},
        "strategy": {"oneOf": [
            {"enum": _STRATEGIES},
            {"type": "object", "required": ["name"], "additionalProperties": False,
             "properties": {"name": {"enum": _STRATEGIES}, "threshold": {"type": "integer"}}},
        ]},
        "decks": {"type": "array", "items": {"type": "array", "items": CARD_SCHEMA, "maxItems": 52},
                  "description": "deck prefixes, one per game, for programs that read their decks from deck_env"},
    },
    "oneOf": [{"required": ["stdin"]}, {"required": ["strategy"]}],
}
OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {"deck_env": {"type": "string", "pattern": "^[A-Z_][A-Z0-9_]*$",
                                "description": "a program that reads this variable gets the case's decks from its file"}},
}


# ----------------------------------------------------------------------------- playing

def start(case: Mapping[str, Any], ctx: Context) -> Play:
    """The player of one case, and the case's decks for a program that reads them."""
    plan = plan_script(case, ctx.reference) if "stdin" in case else None
    player = _p.BlackjackPlayer(_p.make_policy(case, plan))
    play = Play(player)
    if ctx.options.get("deck_env"):
        play.files["decks.txt"] = "".join(card + "\n" for deck in _r.spec_decks(case) for card in deck).encode()
        play.env[ctx.options["deck_env"]] = "decks.txt"
    return play


class _PlanningInput(io.StringIO):
    """stdin for the reference that labels every script line with the question it answered."""

    def __init__(self, lines: list[str], out: io.StringIO):
        super().__init__()
        self.lines, self.out = lines, out
        # A player that never ends the session itself: the script says when it ends (a default policy
        # would quit after its third game and label every later line of the script "again").
        self.player = _p.BlackjackPlayer(_p.Policy(games=len(lines) + 1))
        self.plan: list[dict[str, list[str]]] = []

    def readline(self, *_: Any) -> str:  # type: ignore[override]
        output = self.out.getvalue()
        self.out.seek(0)
        self.out.truncate()
        if not self.lines:
            return ""
        reply = self.player.answer(output)          # works out the kind, as it will against a student
        if not isinstance(reply, str):
            raise ValueError(f"the case's stdin cannot be followed through the reference: {reply.reason}")
        kind = self.player.sent[-1].kind
        line = self.lines.pop(0)
        game = self.player.parser.game
        number = game.number if game else 1
        while len(self.plan) < number:
            self.plan.append({})
        self.plan[number - 1].setdefault(kind, []).append(line)
        return line + "\n"


def plan_script(case: Mapping[str, Any], reference: Any) -> list[dict[str, list[str]]]:
    """Per game of a scripted case: its answers by kind, as the reference consumed them."""
    out = io.StringIO()
    stdin = _PlanningInput([str(line) for line in case["stdin"]], out)
    reference.play_session(stdin, out, reference.deck_supplier(_r.spec_decks(case), None))
    return stdin.plan


# ----------------------------------------------------------------------------- judging

@dataclass
class _Findings:
    faults: dict[str, list[str]] = field(default_factory=lambda: {a: [] for a in ASPECTS})
    games: int = 0
    wording: Any = field(default_factory=lambda: _w.Wording())
    played: list[tuple[int, int]] = field(default_factory=list)    # (games finished, games the player wanted) per case
    short: list[str] = field(default_factory=list)                  # cases whose session stopped before the player did
    abandoned: list[str] = field(default_factory=list)              # sessions left unasked, no total, no error
    openings: list[tuple[str, str, str]] = field(default_factory=list)
    own: list[Any] = field(default_factory=list)                    # games the program dealt itself
    supplied: list[tuple[str, Any, list[str]]] = field(default_factory=list)   # (case, game, its deck) when a deck was given
    actions: set[str] = field(default_factory=set)
    notes: list[TestResult] = field(default_factory=list)
    totals: list[tuple[float, dict[str, float]]] = field(default_factory=list)   # (summary - sum, announced by kind)


def reread(run: CaseRun) -> Any:
    """The whole session parsed again from the transcript, with the answers the player sent."""
    parser = _t.TranscriptParser()
    answers = iter(run.player.sent)
    for event in run.transcript.events:
        if event.stream == "out":
            parser.feed_output(event.text)
        else:
            parser.feed_answer(next(answers))
    return parser.finish()


def judge(runs: Sequence[CaseRun], ctx: Context) -> Judgement:
    """Scores of games and wording, a test per aspect, the rules about deals."""
    found = _Findings()
    hidden: set[str] = set()
    for run in runs:
        before = {aspect: len(faults) for aspect, faults in found.faults.items()} | {"abandoned": len(found.abandoned)}
        _judge_run(run, ctx, found)
        if run.case.get("visibility", "hidden") == "hidden":
            hidden.add(run.case["name"])
            hide_findings({**found.faults, "abandoned": found.abandoned}, before)
    points = ctx.points.get("games", 0.0) / len(ASPECTS)
    explanation = explain_totals(found.totals)
    if explanation:
        found.faults["session"].insert(0, explanation)
    share, played = played_share(found.played)
    tests = [_aspect_test(aspect, found.faults[aspect], found.games, points * share) for aspect in ASPECTS]
    games = points * share * sum(1 for aspect in ASPECTS if not found.faults[aspect])
    ratio, misses = found.wording.ratio()
    wording_points = ctx.points.get("wording", 0.0) * share
    tests.append(TestResult(name="wording", function="wording", visibility="public",
                            status="passed" if ratio >= 0.999 and share >= 1 else "failed",
                            score=round(wording_points * ratio, 4), max_score=round(wording_points, 4),
                            message=f"{ratio:.0%} of the handout's kinds of line printed exactly where they belong"
                            + (": " + "; ".join(misses) if misses else "")))
    if played:
        tests.append(played)
    tests.extend(found.notes)
    deviations = deck_deviations(found.supplied, hidden)
    shown = [student for _, student, _ in deviations]
    full = [staff for _, _, staff in deviations]
    others = [message for _, message in fairness(found.openings)]
    cards = _d.CardTest()
    for game in found.own:
        cards.add_game(game)
    verdict = cards.verdict(FAIRNESS_ALPHA["cards"])
    others += [verdict] if verdict else []
    broken: list[tuple[str, str] | tuple[str, str, str]] = []
    if shown or others:
        broken.append(("unfair_deals", "; ".join(shown + others), "; ".join(full + others)))
    complete = all(not run.crash and run.transcript.ended == "exit" for run in runs)
    missing = [name for name in ("hit", "stand", "double down", "surrender", "insurance") if name not in found.actions]
    if complete and missing and len(found.openings) >= FAIRNESS_MIN_GAMES:
        broken.append(("unreached_actions", f"in the {len(found.openings)} games it dealt itself the grader could never {', '.join(missing)}: "
                                            "the program's deals never allowed it"))
    if found.abandoned and found.games:     # the grader can read this program's games: it did leave them
        student, staff = listing([_bounded(f) for f in found.abandoned], SHOWN_PROBLEMS)
        broken.append(("abandoned_session", student, staff))
    return Judgement({"games": games, "wording": wording_points * ratio}, tests, broken, short_cases=tuple(found.short))


def played_share(played: list[tuple[int, int]]) -> tuple[float, TestResult | None]:
    """The share of the wanted games played to a result, over (played, wanted) of every case (see the engine's)."""
    return _played_share(sum(p for p, _ in played), sum(w for _, w in played), "games")


def _listed(problems: list[str], what: str) -> str:
    shown = "; ".join(_bounded(p) for p in problems[:SHOWN_PROBLEMS])
    return shown + (f"; ... ({len(problems) - SHOWN_PROBLEMS} more {what})" if len(problems) > SHOWN_PROBLEMS else "")


def _aspect_test(aspect: str, faults: list[str], games: int, points: float) -> TestResult:
    if not games and not faults:
        return TestResult(name=f"games/{aspect}", function="games", visibility="public", status="failed", score=0.0,
                          max_score=round(points, 4), message=f"{ASPECTS[aspect]}: not judged, no game was played to a "
                          "result")
    if not faults:
        return TestResult(name=f"games/{aspect}", function="games", visibility="public", status="passed",
                          score=round(points, 4), max_score=round(points, 4), message=f"{ASPECTS[aspect]}: right in all "
                          f"{games} games")
    head = f"{ASPECTS[aspect]}: wrong {len(faults)} times: "
    student, staff = listing([_bounded(f) for f in faults], SHOWN_PROBLEMS)
    return TestResult(name=f"games/{aspect}", function="games", visibility="public", status="failed", score=0.0,
                      max_score=round(points, 4), message=head + student, staff={"message": head + staff})


def _bounded(text: str, limit: int = 600) -> str:
    """One problem as a student reads it: at most ``limit`` characters."""
    return text if len(text) <= limit else text[:limit - 20].rstrip() + " ... (shortened)"


def deck_deviations(supplied: list[tuple[str, Any, list[str]]], hidden: Collection[str] = ()) -> list[tuple[str, str, str]]:
    """A program that reads the supplied decks must deal every card of every game from them, in order.

    It reads them when at least DECK_READER_GAMES games open with their deck's first three cards;
    then each game's first card that is not the deck's next one is named with its line. A game past
    the last supplied deck may instead be dealt by the program itself (it is tested as its own deal).
    Returns (rule, what the student reads, what staff read): of a game of a ``hidden`` case the
    student reads only its name and number, since the deviation shows its deck.
    """
    if sum(1 for _, game, deck in supplied if _d.follows_opening(game, deck)) < DECK_READER_GAMES:
        return []
    by_order = {}
    for order in _d.ORDERS:    # the spec's order, or the hidden card dealt at the dealer's turn: one for all games
        by_order[order] = [(name, f"{name} game {game.number}", deviation) for name, game, deck in supplied
                           for deviation in [_d.deck_deviation(game, deck, order)] if deviation]
    wrong = min(by_order.values(), key=len)
    if not wrong:
        return []
    head = f"the program reads the grader's decks but does not deal from them in order in {len(wrong)} game(s): "
    shown = [where if name in hidden else f"{where}: {deviation}" for name, where, deviation in wrong]
    full = [f"{where}: {deviation}" for _, where, deviation in wrong]
    return [("unfair_deals", head + _listed(shown, "games"), head + _listed(full, "games"))]


def _judge_run(run: CaseRun, ctx: Context, found: _Findings) -> None:
    session = reread(run)
    name = run.case["name"]
    if session.moves:
        _unreadable(name, run, session, found)
        return
    unfinished = run.crash is not None or run.transcript.ended != "exit"
    supplied = _r.spec_decks(run.case) if ctx.options.get("deck_env") else []
    finished = [g for g in session.games if g.result_kind is not None]
    judged = 0
    for game in session.games:
        if game.result_kind is None:
            if not unfinished:
                found.faults["money"].append(f"{name} game {game.number}: no result line for this game "
                                             f"(line {game.first_line})")
            continue
        if not _judge_game(name, game, ctx, found, session.answered):
            continue       # cards that cannot be played again: nothing else of the game can be judged
        found.games += 1
        judged += 1
        opening = _d.opening(game)
        deck = supplied[(game.number - 1) % len(supplied)] if supplied else []
        if deck and (game.number <= len(supplied) or _d.follows_opening(game, deck)):
            found.supplied.append((name, game, deck))   # must follow the deck if the program reads the decks
        if len(opening) == 3 and all(opening) and not _d.follows_opening(game, deck):
            found.openings.append(opening)   # dealt by the program itself
            found.own.append(game)
            found.actions.update(_p.ACTIONS.get(a, "") for a in game.actions())
            found.actions.update("insurance" for a in game.answers if a.kind == "insurance")
    total = sum(g.money or 0.0 for g in finished)
    asked_to_end = not run.crash and run.transcript.ended in ("exit", "stopped")   # the total was due
    found.wording.session(session, ended=asked_to_end, summary=_r.reference_lines(ctx.reference, "print_summary", total))
    _count_played(name, run, session, len(finished), judged, found)
    if unfinished:
        _unfinished(name, run, session, found)
        return
    before = len(found.faults["session"])
    _judge_session(name, session, total, run, found)
    problems = found.faults["session"][before:]
    found.notes.append(TestResult(name=f"{name}/session", function="games", visibility=run.case.get("visibility", "hidden"),
                                  status="failed" if problems else "passed", score=0.0, max_score=0.0,
                                  message="; ".join(problems) or f"{len(session.games)} games played to the end"))


def _unreadable(name: str, run: CaseRun, session: Any, found: _Findings) -> None:
    """A session whose output moved the cursor to other lines: what a person saw is not its lines, so none of its
    games is judged (none counts as played) and the student is told why."""
    why = unreadable(session.moves, len(session.games), SHOWN_PROBLEMS)
    wanted = run.player.policy.games
    found.played.append((0, wanted))
    found.short.append(name)
    found.faults["session"].append(f"{name}: {why}")
    found.notes.append(TestResult(name=f"{name}/session", function="games", visibility=run.case.get("visibility", "hidden"),
                                  status="failed", score=0.0, max_score=0.0, message=why))


def _count_played(name: str, run: CaseRun, session: Any, finished: int, judged: int, found: _Findings) -> None:
    """How many of the games the player wanted the session played and the grader could judge, and whether the
    program left the session unasked.

    Left unasked: it exited by itself, before the player's last game or in the middle of a game, without the
    answer that ends the session, without stating a total and without an error (an exception caught and hidden).
    One that states a total ends the session on purpose, too early: a fault of the session, not a crash.
    A session the grader lost track of counts the games played before: a program that keeps the grader from
    following it (the same question again and again) must not pass on no evidence ("right in all 0 games").
    """
    wanted = run.player.policy.games    # a session the grader lost counts too: nothing unjudged earns points
    found.played.append((min(judged, wanted), wanted))
    if finished < wanted and not run.crash:
        found.short.append(name)
    last = session.games[-1] if session.games else None
    after = max((number for number, _ in last.lines), default=last.first_line) if last else 0
    stated_total = any(_t.read_total(line) is not None for line in session.lines[after:])
    if (run.transcript.ended == "exit" and not run.crash and session.quit_line is None and not stated_total
            and last is not None and (finished < wanted or last.result_kind is None)):
        where = (f"in the middle of game {last.number}" if last.result_kind is None else f"after game {last.number}")
        found.abandoned.append(f"{name}: the program ended {where} (line {len(session.lines)}) without being asked to "
                               "stop, without a final total and without an error: a crash it hid")


def _unfinished(name: str, run: CaseRun, session: Any, found: _Findings) -> None:
    """A session that did not end by itself: a crash, a hang, a program that would not stop, or the grader lost."""
    ended = run.transcript.ended
    if run.crash:
        status, why = run.crash.status, run.crash.message
    elif ended == "stopped":
        status, why = "failed", run.transcript.note
        found.faults["session"].append(f"{name}: {why}")
    else:
        status, why = "error", (f"the grader lost track of the program: {run.transcript.note}; the games from there on "
                                "could not be judged and earn no points (if your program is right there, ask for a review)")
    found.notes.append(TestResult(name=f"{name}/session", function="games", visibility=run.case.get("visibility", "hidden"),
                                  status=status, score=0.0, max_score=0.0,
                                  message=f"ended in game {len(session.games)}: {why}"))


def _judge_session(name: str, session: Any, total: float, run: CaseRun, found: _Findings) -> None:
    games = run.player.policy.games
    if len(session.games) < games:
        found.faults["session"].append(f"{name}: the session ended after {len(session.games)} games, the player "
                                       f"wanted {games}")
    totals = {round(value, 2): (line, text) for value, line, text in reversed(session.totals)}
    if len(totals) > 1:
        shown = "; ".join(f"line {line}: '{_bounded(text, 80)}'" for line, text in sorted(totals.values())[:SHOWN_PROBLEMS])
        found.faults["session"].append(f"{name}: {len(totals)} different final totals were shown ({shown}): "
                                       "a session has one total")
    if session.summary is None:
        found.faults["session"].append(f"{name}: no final total after the last game")
    else:
        found.totals.append((session.summary - total, _announced_by_situation(session)))
        if abs(session.summary - total) > 0.005:
            found.faults["session"].append(f"{name}: final total {session.summary:+.2f} Euro (line "
                                           f"{session.summary_line[0]}), but the games' results add up to "
                                           f"{total:+.2f} Euro")


def _announced_by_situation(session: Any) -> dict[str, float]:
    by_kind: dict[str, float] = {}
    for game in session.games:
        if game.result_kind is not None:
            by_kind[_situation(game)] = by_kind.get(_situation(game), 0.0) + abs(game.money or 0.0)
    return by_kind


def explain_totals(totals: list[tuple[float, dict[str, float]]]) -> str:
    """Wrong totals that are, in every session, one share of what one kind of game announced: say which."""
    if not any(abs(difference) > 0.005 for difference, _ in totals):
        return ""
    kinds = sorted({kind for _, announced in totals for kind in announced})
    for kind in kinds:
        for share in (0.5, 1.0, 1.5, 2.0, -0.5, -1.0, -2.0):
            if all(abs(difference - share * announced.get(kind, 0.0)) < 0.005 for difference, announced in totals):
                return (f"in every session the total is off by exactly {share:g}x what the games {kind} announced: "
                        f"the program seems to credit {1 + share:g}x the amount it prints for them")
    return ""


def _situation(game: Any) -> str:
    if game.result_kind in ("player_natural", "player_21") and not game.player_draws and _t.hand_total(game.player) == 21:
        return "won with a natural"     # the handout's "Blackjack for you!!!" says no more than 21: the cards tell
    if game.result_kind == "player_21" or (game.money and game.money > 0 and _t.hand_total(game.player_cards()) == 21
                                            and game.player_draws):
        return "won by reaching 21 with a hit or a double"
    return {"player_natural": "won with a natural", "dealer_natural": "lost to the dealer's natural",
            "dealer_burned": "won when the dealer burned", "player_burned": "lost by burning",
            "surrender": "surrendered", "tie": "tied"}.get(game.result_kind, f"ended '{game.result_kind}'")


def _judge_game(name: str, game: Any, ctx: Context, found: _Findings, answered: set[int]) -> bool:
    """Every aspect of one finished game; False when its cards cannot be played again (nothing else was judged).

    A card shown twice is the deal's fault, and the rest of the game is still judged with the cards as shown
    (it once stopped the judging there, so a program that repeated a card in every game passed every other
    aspect unjudged, whatever results it announced).
    """
    where = f"{name} game {game.number}"
    problems = _r.deal_problems(game)
    if problems:
        found.faults["deal"].append(f"{where}: " + "; ".join(problems))
        if not _r.replayable(game):
            return False
    replay = _r.replay_game(ctx.reference, game, _r.build_deck(game, as_shown=bool(problems)))
    ref = replay.game
    found.wording.game(game, [line for _, line in ref.lines], answered)
    cards_differ = False
    if game.player_draws != ref.player_draws:
        cards_differ = True
        found.faults["player_cards"].append(f"{where}: the player got {_hand(game.player_cards())} after "
                                            f"{_actions(game)}; expected {_hand(ref.player_cards())}")
    if game.dealer_turn and ref.dealer_turn and game.dealer_draws != ref.dealer_draws:
        cards_differ = True
        found.faults["dealer_play"].append(f"{where}: the dealer drew {_hand(game.dealer_cards())}; expected "
                                           f"{_hand(ref.dealer_cards())}")
    unseen = _dealer_unseen(game, ref)
    if unseen:
        found.faults["dealer_play"].append(f"{where}: {unseen}")
        found.faults["money"].append(f"{where}: {unseen}, so the result (line {game.result_line[0]}: "
                                     f"'{game.result_line[1]}') can't be checked")
        return True
    if cards_differ:
        return True   # the rest of this game follows from other cards than the reference's: not judged again
    flow = _flow(game, replay)
    if flow:
        found.faults["flow"].append(f"{where}: {flow}")
    contradiction = _contradiction(game)
    if contradiction:
        found.faults["money"].append(f"{where}: {contradiction}")
    elif ref.money is not None and (game.money is None or abs(game.money - ref.money) > 0.005):
        line = f" (line {game.result_line[0]}: '{game.result_line[1]}')" if game.result_line else ""
        found.faults["money"].append(f"{where}: {_money(game.money)} for '{_situation(ref)}'{line}; expected "
                                     f"{_money(ref.money)}")
    return True


def _dealer_unseen(game: Any, ref: Any) -> str:
    """Why the dealer's play can't be checked: the dealer had to play (or claimed a natural) and the program never
    showed the hidden card, so neither the dealer's draws nor the result are the cards' (a program that only
    announces results, e.g. a win whenever the player stands on 17 or more, shows no dealer to judge)."""
    if game.dealer_hidden is not None:
        return ""
    if ref.dealer_turn:
        return ("the dealer had to play, but the program never showed the dealer's hidden card" +
                ("" if game.dealer_draws else " or draws"))
    if ref.result_kind == "dealer_natural" or game.result_kind in ("dealer_natural", "dealer_21"):
        return "the program announced the dealer's blackjack without showing the dealer's hidden card"
    return ""


def _contradiction(game: Any) -> str:
    """A result the game's own lines or cards deny: a second result line saying otherwise, a burn
    claimed for cards that total 21 or less. The benefit of the doubt goes to no side: the money is wrong."""
    if game.contradicted:
        return (f"line {game.contradicted[0]} ('{_bounded(game.contradicted[1], 80)}') contradicts the result of line "
                f"{game.result_line[0]} ('{_bounded(game.result_line[1], 80)}')")
    player, dealer = _t.hand_total(game.player_cards()), _t.hand_total(game.dealer_cards())
    claim = {"player_burned": ("the player burned", player <= 21, f"the player's cards total {player}"),
             "dealer_burned": ("the dealer burned", game.dealer_hidden is not None and dealer <= 21,
                               f"the dealer's cards total {dealer}")}.get(game.result_kind)
    if claim and claim[1]:
        return f"line {game.result_line[0]} claims {claim[0]}, but {claim[2]}"
    return ""


def _flow(game: Any, replay: Any) -> str:
    if "insurance" in replay.wanted:
        return "the dealer showed an Ace but no insurance was offered"
    if "insurance" in replay.answers_unused:
        return f"insurance was offered though the dealer shows {game.dealer_up}"
    if replay.answers_unused:
        return f"asked for {len(replay.answers_unused)} more action(s) after the game was decided"
    if replay.wanted:
        return f"the game ended before the player could act ({', '.join(replay.wanted)})"
    if game.dealer_turn and not replay.game.dealer_turn and replay.game.result_kind in ("player_burned", "player_21"):
        return "the dealer played after the player's hand had already decided the game"
    return ""


def _hand(cards: list[str]) -> str:
    return f"{', '.join(cards) or 'nothing'} (total {_t.hand_total(cards)})"


def _actions(game: Any) -> str:
    return ", ".join(_p.ACTIONS.get(a, str(a)) for a in game.actions()) or "no action"


def _money(money: float | None) -> str:
    return "no amount" if money is None else f"{money:+.2f} Euro"


# ----------------------------------------------------------------------------- fair deals

def _chi2_sf_even(x: float, dof: int) -> float:
    """Survival function of chi-square with an even number of degrees of freedom (closed form)."""
    half = x / 2
    return math.exp(-half) * sum(half ** j / math.factorial(j) for j in range(dof // 2))


def _binomial_tail(n: int, k: int, p: float) -> float:
    """P(X >= k) for a binomial(n, p), summed in log space."""
    return sum(math.exp(math.lgamma(n + 1) - math.lgamma(j + 1) - math.lgamma(n - j + 1)
                        + j * math.log(p) + (n - j) * math.log1p(-p)) for j in range(k, n + 1))


def _poisson_tail(k: int, mean: float) -> float:
    """P(X >= k) for a Poisson mean, summed in log space (k may be in the hundreds)."""
    return sum(math.exp(-mean + j * math.log(mean) - math.lgamma(j + 1)) for j in range(k, k + 400))


def fairness(openings: list[tuple[str, str, str]]) -> list[tuple[str, str]]:
    """Tests of the program's own deals (player's two cards and the dealer's open card of every game).

    Under a fair shuffle each of those cards has each rank with probability 1/13, the player
    has a natural with probability 2*(4/52)*(16/51), and two games rarely open alike. Three tests,
    at the significances of FAIRNESS_ALPHA: the ranks (chi-square, 12 degrees of freedom; the
    cards of one game are drawn without replacement, which only makes the test more cautious),
    the player's naturals (binomial upper tail) and repeated openings (Poisson upper tail).
    """
    games = len(openings)
    if games < FAIRNESS_MIN_GAMES:
        return []
    broken = []
    ranks = Counter(card.split(" of ")[0] for opening in openings for card in opening)
    expected = 3 * games / 13
    chi2 = sum((ranks.get(rank, 0) - expected) ** 2 / expected for rank in _t.RANKS)
    if _chi2_sf_even(chi2, 12) < FAIRNESS_ALPHA["ranks"]:
        common = ", ".join(f"{rank} {count}x" for rank, count in ranks.most_common(3))
        broken.append(("unfair_deals", f"the opening cards of {games} games are not a fair shuffle (most common: {common}"
                                       f" of {3 * games} cards; about {expected:.0f} each expected)"))
    naturals = sum(1 for p1, p2, _ in openings if {_t.card_points(p1), _t.card_points(p2)} == {10, 11})
    if _binomial_tail(games, naturals, 2 * (4 / 52) * (16 / 51)) < FAIRNESS_ALPHA["naturals"]:
        broken.append(("unfair_deals", f"the player got a natural in {naturals} of {games} games "
                                       f"(about {games * 0.048:.0f} expected from a fair shuffle)"))
    repeats = sum(n * (n - 1) // 2 for n in Counter(openings).values())
    if repeats and _poisson_tail(repeats, games * (games - 1) / 2 / (52 * 51 * 50)) < FAIRNESS_ALPHA["repeats"]:
        broken.append(("unfair_deals", f"{repeats} pairs of games opened with the same three cards: the deals do not vary"))
    return broken
