"""The terminal a transcript is read through (grader/programs/terminal.py): the lines a person saw."""
from __future__ import annotations

import pytest

from grader.programs.session import Event, Transcript
from grader.programs.terminal import MAX_PAD, Terminal, render


def lines(text: str) -> list[str]:
    shown, moves = render(text)
    assert not moves, moves
    return shown


def test_a_carriage_return_overwrites_the_line_it_returns_to():
    assert lines("Total 17\rTotal 21\n") == ["Total 21", ""]
    assert lines("You have won 15.0 Euro\rYou have lost\n") == ["You have lost15.0 Euro", ""]
    assert lines("a\r\nb") == ["a", "b"]


def test_erasing_within_the_line():
    assert lines("You have won 15.0 Euro\r\x1b[2KYou have lost 10.0 Euro") == ["You have lost 10.0 Euro"]
    assert lines("You have won 15.0 Euro\r\x1b[KLost") == ["Lost"]
    assert lines("abcdef\x1b[3D\x1b[1K!") == ["   !ef"]
    assert lines("abcdef\x1b[4G\x1b[0K") == ["abc"]
    assert lines("abcdef\r\x1b[2CX\x1b[2X") == ["abX  f"]
    assert lines("abcdef\r\x1b[P\x1b[2@") == ["  bcdef"]


def test_backspaces_and_tabs():
    assert lines("ab\bc") == ["ac"]
    assert lines("\b\bx") == ["x"]
    word = "My next card is 10 of Spades"
    assert lines(word + "\b" * len(word) + " " * len(word)) == [" " * len(word)]
    assert lines("a\tb\tc") == ["a       b       c"]
    assert lines("12345678\tx") == ["12345678        x"]


def test_cursor_moves_within_the_line():
    assert lines("ab\x1b[3Cc") == ["ab   c"]
    assert lines("abcdef\x1b[2DX") == ["abcdXf"]
    assert lines("abcdef\x1b[1GX") == ["Xbcdef"]
    assert lines("abc\x1b[DX\x1b[C\x1b[CY") == ["abX  Y"]


def test_colours_and_cursor_visibility_are_dropped():
    assert lines("\x1b[1;31mQueen of Hearts\x1b[0m\n\x1b[38;5;208mx\x1b[m") == ["Queen of Hearts", "x"]
    assert lines("\x1b[?25lShuffling |\b/\b-\r\x1b[K\x1b[?25h>>>> Game 1 <<<<") == [">>>> Game 1 <<<<"]
    assert lines("\x1b]0;title\x07a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\") == ["alink"]
    assert lines("a\x07\x00b") == ["ab"]


def test_sequences_cut_between_chunks_are_joined():
    terminal = Terminal()
    assert terminal.feed("You have won 15.0 Euro\r\x1b") == []
    assert terminal.feed("[2") == []
    assert terminal.feed("KLost 10.0\x1b[3") == []
    assert terminal.feed("1mX\x1b[0m\n") == ["Lost 10.0X"]
    assert not terminal.moves


@pytest.mark.parametrize("sequence, shown", [
    ("\x1b[1A", "ESC[1A"), ("\x1b[A", "ESC[A"), ("\x1b[2B", "ESC[2B"), ("\x1b[H", "ESC[H"), ("\x1b[3;1f", "ESC[3;1f"),
    ("\x1b[2J", "ESC[2J"), ("\x1b[s", "ESC[s"), ("\x1b[u", "ESC[u"), ("\x1b7", "ESC7"), ("\x1b8", "ESC8"),
    ("\x1bM", "ESCM"), ("\x1b[?1049h", "ESC[?1049h"), ("\x1b[1S", "ESC[1S"), ("\x1b[2F", "ESC[2F"),
    ("\x1b[\n", "ESC[\\x0aY"), ("\x1b\n", "ESC\\x0a"), ("\x0b", "\\x0b"), ("\x0c", "\\x0c"), ("\x1b(0", "ESC(0"), ("\x0e", "\\x0e"), ("\x9bA", "CSIA"),
])
def test_leaving_the_line_once_something_is_shown_is_recorded(sequence, shown):
    terminal = Terminal()
    assert terminal.feed("You have lost 10.0 Euro\nI am") == ["You have lost 10.0 Euro"]
    terminal.feed(sequence + "You have won 10.0 Euro\n")
    assert [(m.line, m.sequence) for m in terminal.moves] == [(2, shown)]
    assert terminal.moves[0].describe() == f"{shown} at line 2"


def test_clearing_an_empty_screen_rewrites_nothing():
    assert lines("\x1b[2J\x1b[H\n\x1b[3;1H******* WELCOME *******") == ["", "******* WELCOME *******"]


def test_the_cursor_alone_pads_a_line_only_so_far():
    shown = lines("a\x1b[999999999999999999999999999999C" + "b" + "\x1b[99999@" * 50)
    assert len(shown[0]) <= MAX_PAD + 1 and shown[0].startswith("a ") and shown[0].rstrip().endswith("b")
    assert lines("x" * 1000 + "\t!")[0] == "x" * 1000 + " " * 8 + "!"


def test_wide_and_combining_characters_take_their_columns():
    assert lines("\u4f60\u597dX\b\b\bY") == ["\u4f60Y X"]
    assert lines("e\u0301\bE") == ["E"]
    assert lines("Καλή τύχη\rΚ") == ["Καλή τύχη"]


def test_the_transcript_reads_the_screen_with_the_answers_echoed():
    events = (Event(0.0, "out", "Total 17\r\x1b[2KTotal 21\nStake: "), Event(0.1, "in", "10"),
              Event(0.2, "out", "\x1b[32mok\x1b[0m\n"))
    transcript = Transcript(events, "exit")
    assert transcript.lines() == ["Total 21", "Stake: 10", "ok", ""]
    assert transcript.screen()[1] == []
    moved = Transcript(events + (Event(0.3, "out", "\x1b[2Agone\n"),), "exit")
    assert [m.describe() for m in moved.screen()[1]] == ["ESC[2A at line 4"]


def test_the_segments_between_answers_are_read_from_the_screen():
    events = (Event(0.0, "out", "Welcome\nToo low!\rToo high!\nGuess: "), Event(0.1, "in", "50"),
              Event(0.2, "out", "\x1b[32mRight\x1b[0m\nAgain? \b\b\b\b\b\b\bAgain (y/n)? "), Event(0.3, "in", "n"),
              Event(0.4, "out", "Bye\n"))
    parts, moves = Transcript(events, "exit").segments()
    assert parts == [["Welcome", "Too high!", "Guess: "], ["Right", "Again (y/n)? "], ["Bye", ""]] and moves == []
    _, moved = Transcript(events + (Event(0.5, "out", "\x1b[1AGoodbye\n"),), "exit").segments()
    assert [m.describe() for m in moved] == ["ESC[1A at line 7"]
