"""The Guess the Number plug-in beside its spec: the secrets a program's answers imply are tested as
draws made before the guesses, and the handout's lines count only where they belong."""
from __future__ import annotations

import itertools
import random
from collections import Counter

from grader.programs.plugin import CaseRun, Context, Judgement, Stop
from grader.programs.session import Event, Transcript
from grader.spec.loader import load_trusted_module

from conftest import ROOT

plugin = load_trusted_module(ROOT / "reference" / "guess_number_program.py", "program_plugin")
CASES = [{"name": "binary_search", "strategy": "binary", "games": 5, "seed": 1},
         {"name": "random_guesses", "strategy": "random", "games": 25, "seed": 2},
         {"name": "long_session", "strategy": "random", "games": 100, "seed": 3}]
CTX = Context(reference=None, options={}, points={"games": 70.0, "wording": 10.0}, language="python",
              main_file="guess_number.py", sources={})


# ----------------------------------------------------------------------------- toy programs, played without a sandbox

def honest(rng):
    """The handout's program: a secret drawn before the first guess."""
    def game():
        secret = rng.randint(1, 100)
        tries = 0
        while True:
            guess = yield "Enter your guess: "
            tries += 1
            if guess == secret:
                return f"Correct! You guessed it in {tries} tries.\n"
            yield "Too low!\n" if guess < secret else "Too high!\n"
    return game


def always_right(rng):
    def game():
        yield "Enter your guess: "
        return "Correct! You guessed it in 1 tries.\n"
    return game


def lucky(rng, share=0.2):
    """Honest, except that in a share of the games the first guess is called right."""
    def game():
        secret, tries, lucky_game = rng.randint(1, 100), 0, rng.random() < share
        while True:
            guess = yield "Enter your guess: "
            tries += 1
            if lucky_game and tries == 1:
                secret = guess
            if guess == secret:
                return f"Correct! You guessed it in {tries} tries.\n"
            yield "Too low!\n" if guess < secret else "Too high!\n"
    return game


def dodging(rng):
    """Keeps no secret: answers whichever hint leaves more numbers, right only when one is left."""
    def game():
        low, high, tries = 1, 100, 0
        while True:
            guess = yield "Enter your guess: "
            tries += 1
            if low == high == guess:
                return f"Correct! You guessed it in {tries} tries.\n"
            if high - guess >= guess - low:
                low = guess + 1
                yield "Too low!\n"
            else:
                high = guess - 1
                yield "Too high!\n"
    return game


def from_secrets(secrets):
    """Honest play against a given sequence of secrets (one per game)."""
    def make(rng):
        source = iter(secrets)

        def game():
            secret, tries = next(source), 0
            while True:
                guess = yield "Enter your guess: "
                tries += 1
                if guess == secret:
                    return f"Correct! You guessed it in {tries} tries.\n"
                yield "Too low!\n" if guess < secret else "Too high!\n"
        return game
    return make


class Stopped(Exception):
    """The player stopped the session (its reason is the transcript's note)."""


def run_case(case, game, banner=""):
    """One case's session, as the engine would record it, with the plug-in's player answering (until it stops)."""
    player = plugin.start(case, CTX).player
    events: list[Event] = []
    pending = "Welcome to Guess the Number!\n" + banner

    def exchange(prompt):
        nonlocal pending
        events.append(Event(0.0, "out", pending + prompt))
        reply = player.answer(pending + prompt)
        if isinstance(reply, Stop):
            raise Stopped(reply.reason)
        events.append(Event(0.0, "in", reply))
        pending = ""
        return reply

    games = []
    try:
        while True:
            play = game()
            prompt = next(play)
            tries = 0
            while True:
                tries += 1
                try:
                    hint = play.send(int(exchange(prompt)))
                    pending += hint
                    prompt = next(play)
                except StopIteration as end:
                    pending += end.value
                    break
            games.append(tries)
            if exchange("Play again? (y/n): ") == "n":
                break
    except Stopped as stop:
        return CaseRun(case, Transcript(tuple(events), "stopped", note=str(stop)), None, player)
    events.append(Event(0.0, "out", f"You played {len(games)} games with {sum(games) / len(games):.1f} tries "
                                    "on average.\nGoodbye!\n"))
    return CaseRun(case, Transcript(tuple(events), "exit", exit_code=0), None, player)


def judge_program(make, seed=0, banner="", cases=CASES) -> Judgement:
    rng = random.Random(seed)
    return plugin.judge([run_case(case, make(rng), banner) for case in cases], CTX)


def rules(judgement):
    return {rule for rule, _ in judgement.rules_broken}


# ----------------------------------------------------------------------------- secrets

def test_an_honest_program_breaks_no_rule_and_prints_every_line_where_it_belongs():
    for seed in range(5):
        judgement = judge_program(honest, seed)
        assert judgement.rules_broken == [], (seed, judgement.rules_broken)
        assert judgement.scores == {"games": 70.0, "wording": 10.0}


def test_a_program_that_calls_every_first_guess_right_is_rigged():
    judgement = judge_program(always_right, banner="Too low!\nToo high!\n")
    assert rules(judgement) == {"rigged_secret"}
    assert "the first guess was called right in 130 of 130 games" in judgement.rules_broken[0][1]
    # the banner's hints answer no guess: they do not count as the handout's wording
    wording = next(t for t in judgement.tests if t.name == "wording")
    assert "never printed 'Too low!'" in wording.message and abs(judgement.scores["wording"] - 10 * 4 / 6) < 1e-9


def test_a_program_right_first_time_in_one_game_of_five_is_rigged():
    for seed in range(5):
        assert rules(judge_program(lucky, seed)) == {"rigged_secret"}, seed


def test_a_program_right_first_time_once_in_a_hundred_games_is_not():
    """A share 1/100 is what an honest secret gives: no alarm."""
    assert judge_program(lambda rng: lucky(rng, 0.01), 3).rules_broken == []


def test_answers_that_dodge_the_guesses_are_rigged_even_though_every_hint_is_true():
    judgement = judge_program(dodging)
    assert rules(judgement) == {"rigged_secret"}
    assert "steer away from the guesses" in judgement.rules_broken[0][1]
    assert all(t.status == "passed" for t in judgement.tests if t.name.startswith("games/"))


def test_secrets_from_half_the_range_or_a_few_numbers_are_unfair():
    rng = random.Random(4)
    half = judge_program(from_secrets([rng.randint(1, 50) for _ in range(130)]))
    assert rules(half) == {"unfair_secrets"}
    assert "not spread evenly between 1 and 100: 130 of them are 50 or less, about 65 expected" in half.rules_broken[0][1]
    middle = judge_program(from_secrets([rng.randint(26, 75) for _ in range(130)]))
    assert "not spread evenly" in middle.rules_broken[0][1]
    few = judge_program(from_secrets(itertools.cycle([17, 64, 33, 90, 5, 71, 48, 26, 82, 59])))
    assert rules(few) == {"unfair_secrets"} and "only 10 different secrets in 130 games" in few.rules_broken[0][1]


def test_a_fixed_secret_is_reported_once_as_fixed_secret():
    judgement = judge_program(from_secrets(itertools.repeat(42)))
    assert rules(judgement) == {"fixed_secret"}


def test_too_few_games_are_not_tested():
    short = [{**CASES[1], "games": plugin.SECRET_MIN_GAMES - 1}]
    assert judge_program(always_right, cases=short).rules_broken == []
    assert rules(judge_program(always_right, cases=[{**CASES[1], "games": plugin.SECRET_MIN_GAMES}])) == {"rigged_secret"}


def test_tries_counts_is_the_players_own_game_against_every_secret():
    for strategy, seed in (("random", 11), ("random", 12), ("binary", 0)):
        rng = random.Random(seed)
        rng.random()
        state = rng.getstate()
        tries = Counter()
        for secret in range(1, 101):
            player_rng = random.Random()
            player_rng.setstate(state)
            lo, hi = 1, 100
            for n in itertools.count(1):
                guess = plugin.next_guess(strategy, lo, hi, player_rng)
                if guess == secret:
                    tries[n] += 1
                    break
                lo, hi = (guess + 1, hi) if guess < secret else (lo, guess - 1)
        counts = plugin.tries_counts(strategy, state if strategy == "random" else None)
        assert {t: c for t, c in enumerate(counts) if c} == dict(tries), strategy
    assert plugin.tries_counts("binary", None)[1:8] == [1, 2, 4, 8, 16, 32, 37]


def test_the_exact_tails():
    assert abs(plugin._binomial_tail(130, 10, 0.01) - 8.95e-7) < 1e-9
    # the number of different values among 4 draws from 3, counted by brute force
    draws = list(itertools.product(range(3), repeat=4))
    for d in (1, 2, 3):
        brute = sum(1 for draw in draws if len(set(draw)) <= d) / len(draws)
        assert abs(plugin._distinct_cdf(4, d, 3) - brute) < 1e-12


# ----------------------------------------------------------------------------- wording where it belongs

def test_a_hint_counts_only_when_it_is_true_of_the_secret():
    """Both hints printed after every guess: only the true one is the handout's line there."""
    def both_hints(rng):
        def game():
            tries = 0
            while True:
                guess = yield "Enter your guess: "
                tries += 1
                if guess == 100:
                    return f"Correct! You guessed it in {tries} tries.\n"
                yield "Too low!\nToo high!\n"     # every guess is below 100; the grader reads the first hint
        return game

    case = {"name": "one", "strategy": "binary", "games": 1, "seed": 1}
    run = run_case(case, both_hints(None))
    player = run.player
    assert [hint for _, hint in player.logs[0].guesses] == ["low"] * 6 + ["right"]
    for secrets in ({0: 100}, {}):      # the game's secret, or (no secret known) the hint the grader read
        found = plugin.wording_in_place(run.transcript, player, secrets)
        assert "Too low!" in found and "Too high!" not in found
    assert "Too low!" not in plugin.wording_in_place(run.transcript, player, {0: 1})


def test_prompts_and_goodbye_count_only_in_their_place():
    case = {"name": "one", "strategy": "binary", "games": 2, "seed": 1}
    run = run_case(case, honest(random.Random(1)), banner="Enter your guess: \nPlay again? (y/n): \nGoodbye!\n")
    found = plugin.wording_in_place(run.transcript, run.player, {})
    assert {"Enter your guess:", "Play again? (y/n):", "Goodbye!"} <= found
    events = list(run.transcript.events)
    events[-1] = Event(0.0, "out", "You played 2 games with 5.0 tries on average.\n")    # no goodbye at the end
    silent = plugin.wording_in_place(Transcript(tuple(events), "exit"), run.player, {})
    assert "Goodbye!" not in silent       # the banner's goodbye does not count


# ----------------------------------------------------------------------------- the screen, not the bytes

def shown_as(hint):
    """The handout's program, each hint and the line of the right guess printed as ``hint(line, guess, secret)``."""
    def make(rng):
        def game():
            secret, tries = rng.randint(1, 100), 0
            while True:
                guess = yield "Enter your guess: "
                tries += 1
                if guess == secret:
                    return hint(f"Correct! You guessed it in {tries} tries.", guess, secret)
                yield hint("Too low!" if guess < secret else "Too high!", guess, secret)
        return game
    return make


#: Ways to print a line and overwrite it at once on the screen: a carriage return, backspaces, CR + erase the line.
OVERWRITES = {"cr": "\r", "backspaces": "\b" * len("Too low!"), "erase": "\r\x1b[2K"}


def test_a_true_hint_overwritten_by_a_false_one_on_the_screen_is_false():
    """"Too low!" printed for a parser and covered at once by "Too high!": a person reads the wrong hint, and so
    does the grader (it believed the first hint in the bytes: all right)."""
    for how, overwrite in OVERWRITES.items():
        def hint(line, guess, secret, overwrite=overwrite):
            return line + (overwrite + "Too high!" if guess < secret else "") + "\n"

        judgement = judge_program(shown_as(hint), cases=CASES[:1])
        hints = next(t for t in judgement.tests if t.name == "games/hints")
        assert hints.status == "failed" and "no number is left" in hints.staff["message"], (how, hints.staff)
        assert judgement.scores["games"] < 70 / 2, how      # the session stops at the first false hint


def test_a_false_hint_overwritten_by_the_true_one_on_the_screen_is_true():
    """The reverse: "Too low!" above the secret, covered at once by the true "Too high!": a person reads the true
    hint, and the program keeps full marks (the grader believed the false one, and the hints left no number)."""
    for how, overwrite in OVERWRITES.items():
        def hint(line, guess, secret, overwrite=overwrite):
            return ("Too low!" + overwrite if guess > secret else "") + line + "\n"

        judgement = judge_program(shown_as(hint))
        assert judgement.rules_broken == [] and judgement.scores == {"games": 70.0, "wording": 10.0}, how


def test_colours_and_a_spinner_are_not_part_of_what_is_read():
    """In colour, a spinner turned with carriage returns and wiped before each hint: the handout's screen (the
    colour codes' digits were read as the tries, 0, and no hint was the handout's line)."""
    def hint(line, guess, secret):
        spinner = "\x1b[?25l" + "".join(f"\r\x1b[36mChecking {frame}\x1b[0m" for frame in "|/-\\") + "\r\x1b[K\x1b[?25h"
        return f"{spinner}\x1b[33m{line}\x1b[0m\n"

    judgement = judge_program(shown_as(hint))
    assert judgement.rules_broken == [] and judgement.scores == {"games": 70.0, "wording": 10.0}
    assert all(t.status == "passed" for t in judgement.tests), [t.message for t in judgement.tests if t.status != "passed"]


def test_a_session_that_rewrites_earlier_lines_is_not_judged():
    """The true hint on a line of its own, then the cursor up (ESC[1A) to write the false one over it: what a person
    saw is not the lines, so no game counts as played and the student is told why (all right before)."""
    def hint(line, guess, secret):
        false = {"Too low!": "Too high!", "Too high!": "Too low!"}.get(line)
        return line + "\n" + (f"\x1b[1A\x1b[2K{false}\n" if false and abs(guess - secret) <= 2 else "")

    judgement = judge_program(shown_as(hint))
    assert judgement.scores == {"games": 0.0, "wording": 0.0}
    notes = {t.name: t for t in judgement.tests if t.name.endswith("/session") and t.name != "games/session"}
    assert set(notes) == {f"{case['name']}/session" for case in CASES}
    assert all(note.status == "failed" and "moves the cursor to rewrite earlier lines (ESC[1A at line" in note.message
               and "its output can't be graded" in note.message for note in notes.values())
    assert "played 0 of the 130 games" in next(t for t in judgement.tests if t.name == "played").message
    assert set(judgement.short_cases) == {case["name"] for case in CASES}
    session = next(t for t in judgement.tests if t.name == "games/session")
    assert "binary_search: the program moves the cursor" in session.staff["message"]


def test_the_summary_is_read_as_the_screen_shows_it():
    """The right summary printed and erased at once (CR + ESC[2K) under a wrong one: the wrong one is read."""
    case = {"name": "one", "visibility": "public", "strategy": "binary", "games": 2, "seed": 1}
    run = run_case(case, honest(random.Random(1)))
    events = list(run.transcript.events)
    wrong = "\r\x1b[2KYou played 9 games with 1.0 tries on average.\n"
    events[-1] = Event(0.0, "out", events[-1].text.replace(" on average.\n", " on average." + wrong, 1))
    judgement = plugin.judge([CaseRun(case, Transcript(tuple(events), "exit"), None, run.player)], CTX)
    session = next(t for t in judgement.tests if t.name == "games/session")
    assert session.status == "failed" and "does not say 2 games" in session.message, session.message
