"""Read a Blackjack session's console output into game events, judging the game, not the phrasing.

Trusted course code beside specs/blackjack.yaml (loaded by reference/blackjack_program.py).
The parser is fed what the program printed and what the grader answered, in order, and
recovers per game: the cards shown to whom, the answers, the result and its money, and at
the end the session's total. Who a card belongs to comes from the flow of the game (the deal,
then the player's hits, then the dealer's turn) and from words such as "my"/"dealer" against
"you"/"your"; a result is read from its meaning (won/lost/tie, natural for whom, burned,
surrender, a zero total), never from one exact sentence.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from grader.programs.terminal import Terminal

SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace")
ALL_CARDS = tuple(f"{rank} of {suit}" for rank in RANKS for suit in SUITS)

_CARD = re.compile(r"\b([A-Za-z0-9]+)\s+of\s+(clubs|diamonds|hearts|spades)\b", re.I)
_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")
_RANK_NAMES = {rank.lower(): rank for rank in RANKS}
_DEALER_WORDS = re.compile(r"\b(my|me|mine|dealer'?s?|house|computer|bank|croupier)\b|\bi\b(?! ?(?:deal|give) you)")
_PLAYER_WORDS = re.compile(r"\b(you|your|player'?s?)\b")
_RESULT_WORDS = re.compile(r"euro|€|\bwon\b|\bwin\b|\blost\b|\blose\b|\btie\b|\bdraw\b|natural|burn|bust|surrender|"
                           r"not losing|get back|stake back|\bpush\b")
_TIE = re.compile(r"\btie\b|^draw\b|\bdraw!|it'?s a draw|\bpush\b|not losing anything|nobody wins|no one wins|"
                  r"get (back )?your|stake back|nothing is lost|you neither")
_WON = re.compile(r"\byou\b[^.!]*?\b(won|win|winning|gain)\b")
_LOST = re.compile(r"\byou\b[^.!]*?\b(lost|lose)\b")
_RUNNING_TOTAL = re.compile(r"\btotal|so far|balance|overall|altogether|in all\b|session|until now")


@lru_cache(maxsize=8192)      # a session repeats the same few dozen lines: read each once per grader
def normalize(line: str) -> str:
    """Lower case, single spaces, no space before ':' '.' '!'."""
    text = " ".join(line.replace("\t", " ").split()).lower()
    return re.sub(r"\s+([:.!])", r"\1", text)


def card_name(rank: str, suit: str) -> str:
    canonical = _RANK_NAMES.get(rank.lower())
    return f"{canonical or rank} of {suit.capitalize()}"


def find_cards(line: str) -> list[str]:
    return list(_cards_in(line))


@lru_cache(maxsize=8192)
def _cards_in(line: str) -> tuple[str, ...]:
    return tuple(card_name(rank, suit) for rank, suit in _CARD.findall(line))


def card_points(card: str) -> int:
    rank = card.split(" of ")[0]
    if rank == "Ace":
        return 11
    if rank in ("Jack", "Queen", "King"):
        return 10
    return int(rank) if rank.isdigit() else 0


def hand_total(cards: list[str]) -> int:
    total = sum(card_points(c) for c in cards)
    aces = sum(1 for c in cards if c.startswith("Ace"))
    while total > 21 and aces:
        total -= 10
        aces -= 1
    return total


def amount(line: str) -> float | None:
    numbers = [float(m.replace(",", ".")) for m in _NUMBER.findall(line)]
    return numbers[-1] if numbers else None


@lru_cache(maxsize=8192)
def classify_result(line: str) -> tuple[str, int] | None:
    """(kind, sign of the player's money) of a line that settles a game, else None."""
    text = normalize(line)
    if find_cards(text) or not _RESULT_WORDS.search(text):
        return None
    if _TIE.search(text):
        return "tie", 0
    if "surrender" in text:
        return ("surrender", -1) if re.search(r"\blos[et]\b|euro|€|\bback\b", text) else None
    won, lost = bool(_WON.search(text)), bool(_LOST.search(text))
    if "natural" in text or "blackjack" in text:
        if re.search(r"for you|you (have|got) (a )?natural", text) or (won and not lost):
            return ("player_natural" if "natural" in text else "player_21"), 1
        if re.search(r"for me|i have|dealer has|i got", text) or lost:
            return ("dealer_natural" if "natural" in text else "dealer_21"), -1
    if re.search(r"\byou\b[^.!]*\b(burn|burned|burnt|bust|busted)\b", text) and not re.search(r"\bi\b[^.!]*\b(burn|bust)", text):
        return "player_burned", -1
    if re.search(r"\b(i|dealer|dealer's|me)\b[^.!]*\b(burn|burned|burnt|bust|busted)\b|burned myself", text):
        return "dealer_burned", 1
    if won and not lost:
        return "won", 1
    if lost and not won:
        return "lost", -1
    return None


def read_total(line: str) -> float | None:
    """The session's total a line states ("You have lost 57.0 Euro. Next time luckier.", "not won anything"), else None."""
    text = normalize(line)
    if not text:
        return None
    if re.search(r"not won anything|nothing|zero|neither won nor lost|broke even|even\b", text) and amount(text) is None:
        return 0.0
    value = amount(text)
    if value is None or not re.search(r"euro|€|won|lost|win|lose|total|balance", text):
        return None
    return -abs(value) if _LOST.search(text) and not _WON.search(text) else abs(value)


@dataclass(frozen=True)
class Answer:
    kind: str        # stake | insurance | action | again
    text: str        # what was sent
    value: float     # the meaning: the stake, the insured stake, the action number, 1 again / 0 quit


@dataclass
class GameRecord:
    """What one game showed. Money is signed: positive when the player won."""

    number: int
    first_line: int
    lines: list[tuple[int, str]] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    player: list[str] = field(default_factory=list)
    dealer_up: str | None = None
    dealer_hidden: str | None = None
    player_draws: list[str] = field(default_factory=list)
    dealer_draws: list[str] = field(default_factory=list)
    repeated: list[tuple[str, int]] = field(default_factory=list)   # a card shown as new a second time, at line
    odd: list[tuple[str, int]] = field(default_factory=list)        # cards that fit nowhere
    shown: list[tuple[str, str, int]] = field(default_factory=list)  # (whose: player/dealer_up/dealer/player_draw, card, line), as shown
    result_kind: str | None = None
    money: float | None = None
    result_line: tuple[int, str] | None = None
    dealer_turn: bool = False
    cards_due: int = 0      # cards the player's last hit or double still owes
    contradicted: tuple[int, str] | None = None   # a second result line that says otherwise: (line, text)
    closed: bool = False    # an answer came after the result: later lines are not this game's

    @property
    def stake(self) -> float | None:
        return next((a.value for a in self.answers if a.kind == "stake"), None)

    def current_stake(self) -> float | None:
        """The stake in play now: after insurance and double down."""
        stake = self.stake
        for answer in self.answers:
            if answer.kind == "insurance":
                stake = answer.value
            elif answer.kind == "action" and answer.value == 3 and stake is not None:
                stake *= 2
        return stake

    def revealed(self) -> list[str]:
        return [*self.player, *[c for c in (self.dealer_up, self.dealer_hidden) if c], *self.player_draws,
                *self.dealer_draws]

    def player_cards(self) -> list[str]:
        return [*self.player, *self.player_draws]

    def dealer_cards(self) -> list[str]:
        return [c for c in (self.dealer_up, self.dealer_hidden) if c] + self.dealer_draws

    def actions(self) -> list[int]:
        return [int(a.value) for a in self.answers if a.kind == "action"]


@dataclass
class Session:
    lines: list[str] = field(default_factory=list)
    games: list[GameRecord] = field(default_factory=list)
    quit_line: int | None = None
    summary: float | None = None
    summary_line: tuple[int, str] | None = None
    again_answers: int = 0
    answered: set[int] = field(default_factory=set)    # numbers of the lines an answer ended (prompt + answer)
    moves: list = field(default_factory=list)           # cursor moves off the line (terminal.Move): lines rewritten
    totals: list[tuple[float, int, str]] = field(default_factory=list)   # every final total shown: (value, line, text)


class TranscriptParser:
    """Feed output and answers in order; read ``session`` at any time.

    The output is read as a person at a terminal sees it (grader/programs/terminal.py): a line overwritten
    after a carriage return, a backspace or an erase is read as it was left, colours are dropped, and a
    cursor moved to another line is recorded in ``session.moves``.
    """

    def __init__(self) -> None:
        self.session = Session()
        self.terminal = Terminal()
        self.session.moves = self.terminal.moves

    @property
    def partial(self) -> str:
        """The line being printed, not ended yet (a prompt, before its answer)."""
        return self.terminal.current

    @property
    def game(self) -> GameRecord | None:
        return self.session.games[-1] if self.session.games else None

    @property
    def line_number(self) -> int:
        return len(self.session.lines) + 1

    def feed_output(self, text: str) -> None:
        for line in self.terminal.feed(text):
            self._line(line)

    def feed_answer(self, answer: Answer) -> None:
        """An answer ends the prompt's line (echoed where the cursor is); a stake answer after a finished game
        starts the next one."""
        prompt = self.terminal.current
        self.terminal.feed(answer.text)
        shown = self.terminal.end_line()
        game = self.game
        if game is not None and game.result_kind is not None:
            game.closed = True
        if answer.kind == "stake" and (game is None or game.result_kind is not None or game.stake is not None):
            self.session.games.append(GameRecord(number=len(self.session.games) + 1, first_line=self.line_number))
        self._line(prompt, answer=answer.text, shown=shown)
        if answer.kind == "again":
            self.session.again_answers += 1
            if answer.value == 0:
                self.session.quit_line = len(self.session.lines)
        elif self.game is not None:
            self.game.answers.append(answer)
            if answer.kind == "action" and answer.value in (1, 3):
                self.game.cards_due = 1

    def finish(self) -> Session:
        last = self.terminal.end_line()
        if last.strip():
            self._line(last)
        return self.session

    def _line(self, raw: str, answer: str | None = None, shown: str | None = None) -> None:
        if shown is None:
            shown = raw + answer if answer is not None else raw.rstrip()
        if not shown.strip() and answer is None:
            return
        self.session.lines.append(shown)
        number = len(self.session.lines)
        if answer is not None:
            self.session.answered.add(number)
        if self.session.quit_line is not None:
            self._after_quit(raw, number)
            return
        game = self.game
        if game is not None and game.result_kind is not None and answer is None:
            if not game.closed and game.contradicted is None and self._contradicts(game, raw):
                game.contradicted = (number, raw.strip())
            return
        if game is None:
            return
        game.lines.append((number, shown))
        result = classify_result(raw) if answer is None else None   # a prompt never settles a game
        if result is not None and game.stake is not None:
            self._result(game, raw, number, *result)
            return
        cards = find_cards(raw)
        if cards and game.stake is not None:
            self._cards(game, normalize(raw), cards, number)
        elif re.search(r"my turn|dealer'?s turn|dealer plays|i play|i am stopping|i stop", normalize(raw)):
            game.dealer_turn = True

    @staticmethod
    def _contradicts(game: GameRecord, raw: str) -> bool:
        """A second line settling the game otherwise: the other side wins, or another amount (a running total
        of the session is no result)."""
        result = classify_result(raw)
        if result is None or _RUNNING_TOTAL.search(normalize(raw)):
            return False
        kind, sign = result
        first = (game.money or 0.0) > 0.005, (game.money or 0.0) < -0.005
        if (sign > 0, sign < 0) != first:
            return True
        value = amount(normalize(raw))
        return value is not None and sign != 0 and abs(abs(value) - abs(game.money or 0.0)) > 0.005

    def _after_quit(self, raw: str, number: int) -> None:
        value = read_total(raw)
        if value is None:
            return
        self.session.totals.append((value, number, raw.strip()))
        if self.session.summary is None:
            self.session.summary, self.session.summary_line = value, (number, raw)

    def _cards(self, game: GameRecord, text: str, cards: list[str], number: int) -> None:
        dealer = bool(_DEALER_WORDS.search(text)) and not re.search(r"\byour\b", text)
        if game.dealer_up is None and (dealer or len(game.player) >= 2) and not game.dealer_turn:
            if len(cards) == 1 or not dealer:
                self._new(game, "dealer_up", cards[0], number)
                cards = cards[1:]
            else:
                self._new(game, "dealer_up", cards[0], number)
                self._new(game, "dealer", cards[1], number)
                cards = cards[2:]
        for card in cards:
            if dealer or game.dealer_turn:
                self._dealer_card(game, card, number, hand_shown=len(cards) > 1)
            elif len(game.player) < 2 and not game.actions():
                self._new(game, "player", card, number)
            elif len(cards) > 1 and card in game.player_cards():
                continue     # the player's hand shown again
            elif game.cards_due:
                self._new(game, "player_draw", card, number)
                game.cards_due -= 1
            elif game.actions() and game.actions()[-1] in (2, 3):
                self._dealer_card(game, card, number, hand_shown=len(cards) > 1)
            else:
                game.odd.append((card, number))

    def _dealer_card(self, game: GameRecord, card: str, number: int, *, hand_shown: bool) -> None:
        game.dealer_turn = True
        if hand_shown and card in game.dealer_cards():
            return           # the dealer's hand shown again
        self._new(game, "dealer", card, number)

    def _new(self, game: GameRecord, whom: str, card: str, number: int) -> None:
        if card in game.revealed():
            game.repeated.append((card, number))
        game.shown.append((whom, card, number))
        if whom == "dealer_up":
            game.dealer_up = card
        elif whom == "player":
            game.player.append(card)
        elif whom == "player_draw":
            game.player_draws.append(card)
        elif game.dealer_hidden is None:
            game.dealer_hidden = card
        else:
            game.dealer_draws.append(card)

    def _result(self, game: GameRecord, raw: str, number: int, kind: str, sign: int) -> None:
        game.result_kind = kind
        game.result_line = (number, raw.strip())
        value = amount(normalize(raw))
        if sign == 0:
            game.money = 0.0
        elif value is None or value == 0 and sign:
            stake = game.current_stake() or 0.0
            game.money = sign * (stake / 2 if kind == "surrender" else stake)
        else:
            game.money = sign * abs(value)
