"""Read a Blackjack session's console output into events, leniently.

A transcript is what the program printed, cut at every point where it read input,
plus the inputs the driver sent. The parser accepts the usual variations of a
student's wording (spacing, case, tabs, ``\\r\\n``, ``I am stopping ...``,
``Your next card is : X``) and recovers, game by game, the cards shown to whom,
the prompts, the inputs and the money result. It is incremental so the driver can
ask it, mid-session, what the program is waiting for.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

SUITS = ("Clubs", "Diamonds", "Hearts", "Spades")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace")
ALL_CARDS = tuple(f"{rank} of {suit}" for rank in RANKS for suit in SUITS)

InputKind = Literal["stake", "insurance", "action", "again"]

# Any "<word> of <suit>", so that an impossible card ("11 of Spades") is caught, not skipped.
_CARD = re.compile(r"\b([A-Za-z0-9]+)\s+of\s+(clubs|diamonds|hearts|spades)\b", re.I)
_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")
_RANK_NAMES = {rank.lower(): rank for rank in RANKS}


def normalize(line: str) -> str:
    """Lower case, single spaces, no space before ':' or '...'."""
    text = " ".join(line.replace("\t", " ").split()).lower()
    return re.sub(r"\s+([:.!])", r"\1", text)


def card_name(rank: str, suit: str) -> str:
    """The canonical name of a card as written, or ``rank of Suit`` kept verbatim when impossible."""
    canonical = _RANK_NAMES.get(rank.lower())
    return f"{canonical or rank} of {suit.capitalize()}"


def find_cards(line: str) -> list[str]:
    return [card_name(rank, suit) for rank, suit in _CARD.findall(line)]


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
    match = _NUMBER.search(line)
    return float(match.group().replace(",", ".")) if match else None


# Result lines, first match wins. (kind, sign of the money, pattern on the normalized line)
_RESULTS: tuple[tuple[str, int, re.Pattern[str]], ...] = tuple(
    (kind, sign, re.compile(pattern))
    for kind, sign, pattern in (
        ("dealer_natural", -1, r"natural"),
        ("dealer_blackjack", -1, r"blackjack for me"),
        ("player_blackjack", 1, r"blackjack for you"),
        ("dealer_burned", 1, r"burned myself|i (have )?burned|i am burned|dealer (is |has )?(been )?burned"),
        ("player_burned", -1, r"burn|bust"),
        ("surrender", -1, r"surrender"),
        ("tie", 0, r"\btie\b|\bdraw\b|\bpush\b|get (back )?your|stake back"),
        ("won", 1, r"you (have )?(won|win)\b"),
        ("lost", -1, r"you (have )?(lost|lose)\b"),
    )
)
_SUMMARY_HINT = re.compile(r"luck|total|in all|overall|session")
_PROMPT_HINT = re.compile(r"(:|\?)\s*$|\benter\b|\bchoose\b|\bpress\b|\btype\b|\bselect\b|again|continue")


def classify_result(line: str) -> tuple[str, int] | None:
    text = normalize(line)
    if "euro" not in text and "natural" not in text and "stake" not in text:
        return None
    for kind, sign, pattern in _RESULTS:
        if pattern.search(text):
            return kind, sign
    return None


def looks_like_prompt(line: str) -> bool:
    text = normalize(line)
    return bool(text) and not find_cards(text) and classify_result(text) is None and bool(_PROMPT_HINT.search(text))


@dataclass
class GameRecord:
    """What one game showed. Money is signed: positive when the player won."""

    number: int
    lines: list[str] = field(default_factory=list)
    prompts: list[str] = field(default_factory=list)         # "stake" | "insurance" | "action"
    inputs: list[tuple[str, str]] = field(default_factory=list)  # (kind, text)
    player: list[str] = field(default_factory=list)           # the two initial cards
    dealer_up: str | None = None
    dealer_hidden: str | None = None
    player_draws: list[str] = field(default_factory=list)     # hits and the double-down card
    dealer_draws: list[str] = field(default_factory=list)
    dealer_played: bool = False
    result_kind: str | None = None
    money: float | None = None
    result_line: str = ""
    odd_lines: list[str] = field(default_factory=list)        # card lines that fit nowhere

    @property
    def stake(self) -> float | None:
        stakes = [amount(text) for kind, text in self.inputs if kind == "stake"]
        return stakes[0] if stakes else None

    def revealed(self) -> list[str]:
        cards = [*self.player, *([self.dealer_up] if self.dealer_up else []),
                 *([self.dealer_hidden] if self.dealer_hidden else []), *self.player_draws, *self.dealer_draws]
        return cards

    def player_cards(self) -> list[str]:
        return [*self.player, *self.player_draws]

    def dealer_cards(self) -> list[str]:
        return [c for c in (self.dealer_up, self.dealer_hidden) if c] + self.dealer_draws

    def current_stake(self) -> float | None:
        """The stake now in play: after insurance and double down."""
        stake = self.stake
        for kind, text in self.inputs:
            if kind == "insurance" and amount(text) is not None:
                stake = amount(text)
            if kind == "action" and text.strip() == "3" and stake is not None:
                stake *= 2
        return stake


@dataclass
class Session:
    lines: list[str] = field(default_factory=list)
    welcome: bool = False
    games: list[GameRecord] = field(default_factory=list)
    summary: float | None = None
    summary_line: str = ""
    goodbye: bool = False
    before_first_game: list[str] = field(default_factory=list)


class TranscriptParser:
    """Feed output chunks and inputs in order; read ``session`` at any time."""

    def __init__(self) -> None:
        self.session = Session()
        self._partial = ""   # the unterminated tail of the output so far

    @property
    def game(self) -> GameRecord | None:
        return self.session.games[-1] if self.session.games else None

    def feed_output(self, text: str) -> None:
        text = self._partial + text.replace("\r\n", "\n").replace("\r", "\n")
        *complete, self._partial = text.split("\n")
        for line in complete:
            self._line(line)

    def feed_input(self, text: str, kind: str) -> None:
        if self._partial.strip():
            self._line(self._partial)   # the prompt the input answers
        self._partial = ""
        if self.game is not None and kind != "again":
            self.game.inputs.append((kind, text))

    def finish(self) -> Session:
        if self._partial.strip():
            self._line(self._partial)
        self._partial = ""
        return self.session

    # ------------------------------------------------------------------ one line

    def _line(self, raw: str) -> None:
        line = raw.rstrip()
        if not line.strip():
            return
        self.session.lines.append(line)
        text = normalize(line)
        game = self.game
        if game is not None:
            game.lines.append(line)
        if "welcome" in text:
            self.session.welcome = True
            return
        match = re.search(r"game (?:number|no\.?|#)?\s*(\d+)", text)
        if match and ("start" in text or "game number" in text):
            self.session.games.append(GameRecord(number=int(match.group(1)), lines=[line]))
            return
        if "goodbye" in text or "good bye" in text:
            self.session.goodbye = True
            return
        if game is None:
            self.session.before_first_game.append(line)
            return
        result = classify_result(text)
        if result is not None:
            self._result(game, line, text, *result)
            return
        if "stake" in text and game.stake is None and "stake" not in game.prompts:
            game.prompts.append("stake")
        elif "insur" in text or ("stake" in text and game.stake is not None):
            game.prompts.append("insurance")
        elif "action" in text:
            game.prompts.append("action")
        if "my turn" in text:
            game.dealer_played = True
        cards = find_cards(line)
        if cards:
            self._cards(game, text, cards)

    def _cards(self, game: GameRecord, text: str, cards: list[str]) -> None:
        if "first of my" in text or "my first" in text or ("dealer" in text and game.dealer_up is None):
            game.dealer_up = cards[0]
        elif "my second" in text or "hidden" in text:
            game.dealer_hidden = cards[0]
        elif "my next" in text or "i draw" in text or "my card" in text:
            game.dealer_draws.extend(cards)
            game.dealer_played = True
        elif "your next" in text or "your final" in text or "you draw" in text:
            game.player_draws.extend(cards)
        elif len(game.player) < 2 and game.dealer_up is None:
            game.player.extend(cards)
        else:
            game.odd_lines.append(" / ".join(cards))

    def _result(self, game: GameRecord, line: str, text: str, kind: str, sign: int) -> None:
        value = amount(text)
        is_summary = game.result_kind is not None or (bool(_SUMMARY_HINT.search(text)) and kind in ("won", "lost"))
        if is_summary:
            if game.lines and game.lines[-1] == line:
                game.lines.pop()
            self.session.summary = (value or 0.0) * (1 if sign >= 0 else -1)
            self.session.summary_line = line
            return
        game.result_kind = kind
        game.result_line = line
        if kind == "dealer_natural" and value is None:
            value = game.current_stake()
        game.money = None if value is None else value * sign

    # ------------------------------------------------------------------ for the driver

    def pending_prompt(self) -> str:
        """The unterminated last line, if any (usually a prompt waiting for input)."""
        return self._partial


def parse(items: list[tuple[str, str, str]]) -> Session:
    """Parse a recorded transcript: items are ("out", text, "") or ("in", text, kind)."""
    parser = TranscriptParser()
    for direction, text, kind in items:
        if direction == "out":
            parser.feed_output(text)
        else:
            parser.feed_input(text, kind)
    return parser.finish()
