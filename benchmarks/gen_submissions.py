"""Generate N hw7_iteration submissions for the speed benchmarks, deterministically.

Each submission is the reference rewritten the way students differ: mostly correct
variants (snake_case names, while loops instead of for loops, renamed locals, comments, a
debug print, skipped extra credit), some wrong (the blackJack tie rule, war's 2-beats-king
rule, swapped scrabble messages, 0-based wordSearch indices, goFish's pair order), a few
raising (an unfinished function, an IndexError, a syntax error, a crash on import) and a
couple that use the banned ``sum``. None loops forever: a benchmark should time grading,
not a time limit.

Layout: OUT/student_000/hw7_iteration.py ... plus OUT/manifest.json (kind of each).
Run: python benchmarks/gen_submissions.py OUT [--n 200] [--seed 7]
"""
from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "reference" / "hw7_iteration.py"
FILENAME = "hw7_iteration.py"

Edit = Callable[[str, random.Random], str]


def replace(src: str, old: str, new: str) -> str:
    """``src`` with ``old`` replaced once; a missing ``old`` means the reference changed under us."""
    if old not in src:
        raise AssertionError(f"gen_submissions: the reference no longer contains {old!r}; update the variant")
    return src.replace(old, new, 1)


def cut_section(src: str, start: str, end: str | None) -> str:
    """Remove the reference's section from the ``start`` marker up to the ``end`` marker (or the end)."""
    i = src.index(start)
    j = src.index(end) if end else len(src)
    return src[:i] + src[j:]


# --------------------------------------------------------------------------- correct variants

def snake_case(src: str, rng: random.Random) -> str:
    for camel, snake in (("scrabbleScore", "scrabble_score"), ("blackJack", "black_jack"), ("goFish", "go_fish"),
                         ("wordSearch", "word_search"), ("wordSearchHard", "word_search_hard"), ("blackJackHard", "black_jack_hard")):
        if rng.random() < 0.7:
            src = re.sub(rf"^def {camel}\(", f"def {snake}(", src, flags=re.M)
    return src


def while_total(src: str, rng: random.Random) -> str:
    return replace(src, "    total = 0\n    for value in values:\n        total += value\n    return total",
                   "    total = 0\n    i = 0\n    while i < len(values):\n        total = total + values[i]\n        i += 1\n    return total")


def renamed_locals(src: str, rng: random.Random) -> str:
    name = rng.choice(["me", "player_one", "score_a", "first"])
    return src.replace("my_total", f"{name}_sum").replace("their_total", "other_sum")


def comments(src: str, rng: random.Random) -> str:
    who = rng.choice(["Alex", "Sam", "Jordan", "Priya", "Wei", "Maria", "Tom", "Ana"])
    header = f"# Homework 7 - {who}\n# Collaborators: none\n# I worked on this for {rng.randint(2, 12)} hours.\n\n"
    return header + src.replace("    rounds = 0\n", "    rounds = 0  # how many rounds so far\n", 1)


def debug_print(src: str, rng: random.Random) -> str:
    return src + f"\n\nprint('hw7 loaded, test #{rng.randint(1, 99)}')\n"


def blackjack_index_loop(src: str, rng: random.Random) -> str:
    return replace(src, "    remaining = list(deck)\n    while total < opponent and remaining:\n        total += remaining.pop(0)",
                   "    k = 0\n    while total < opponent and k < len(deck):\n        total += deck[k]\n        k += 1")


def skip_extra_credit(src: str, rng: random.Random) -> str:
    src = cut_section(src, "# --- wordSearchHard", "# --- blackJackHard")
    return cut_section(src, "# --- blackJackHard", None)


CORRECT: list[tuple[str, Edit]] = [
    ("snake_case", snake_case), ("while_total", while_total), ("renamed_locals", renamed_locals),
    ("comments", comments), ("debug_print", debug_print), ("blackjack_index_loop", blackjack_index_loop),
    ("skip_extra_credit", skip_extra_credit),
]

# --------------------------------------------------------------------------- wrong answers

WRONG: list[tuple[str, Edit]] = [
    ("blackjack_tie_loses", lambda s, r: replace(s, "return opponent <= total <= 21", "return opponent < total <= 21")),
    ("war_no_two_rule", lambda s, r: replace(s, "    if card == 2 and other == _KING:\n        return True\n", "")),
    ("scrabble_swapped", lambda s, r: replace(replace(s, 'return "I am the Scrabble champion!"', 'return "@@"'),
                                              "return \"Beginner's luck...\"", 'return "I am the Scrabble champion!"').replace('"@@"', "\"Beginner's luck...\"")),
    ("wordsearch_zero_based", lambda s, r: replace(s, "starts.append([placements[0][0][0] + 1, placements[0][0][1] + 1])", "starts.append([placements[0][0][0], placements[0][0][1]])")),
    ("gofish_pair_first", lambda s, r: replace(s, "            asker.append(drawn)\n            asker.append(asker.pop(0))\n",
                                               "            asker.append(drawn)\n")),
]

# --------------------------------------------------------------------------- raising, banned

RAISING: list[tuple[str, Edit]] = [
    ("gofish_unfinished", lambda s, r: re.sub(r"^def goFish\(", "def _gofish_draft(", s, flags=re.M)
     + "\n\ndef goFish(hand1, hand2, deck):\n    raise NotImplementedError('did not finish this one')\n"),
    ("blackjack_index_error", lambda s, r: replace(s, "total = hand[0] + hand[1]", "total = hand[0] + hand[2]")),
    ("syntax_error", lambda s, r: replace(s, "def war(hand1: list[int], hand2: list[int]) -> str:", "def war(hand1, hand2) -> str\n")),
    ("crash_on_import", lambda s, r: s + "\n\nresult = scrabbleScore([1, 2], [3])\nprint(result[100])\n"),
]

BANNED: list[tuple[str, Edit]] = [
    ("uses_sum", lambda s, r: replace(s, "    total = 0\n    for value in values:\n        total += value\n    return total", "    return sum(values)")),
]

KINDS = (("correct", 0.74), ("wrong", 0.16), ("raising", 0.06), ("banned", 0.04))


def variant(index: int, rng: random.Random, reference: str) -> tuple[str, list[str], str]:
    """The kind, the edits applied and the source of submission ``index``."""
    if index < len(KINDS):  # the first few cover every kind, whatever n is
        kind = KINDS[index][0]
    else:
        kind = rng.choices([k for k, _ in KINDS], weights=[w for _, w in KINDS])[0]
    special = {"wrong": WRONG, "raising": RAISING, "banned": BANNED}.get(kind)
    # The special edit goes first: it matches the reference's text, which a style edit may change.
    edits: list[tuple[str, Edit]] = [rng.choice(special)] if special else []
    edits += rng.sample(CORRECT, rng.randint(0, 3))
    src, applied = reference, []
    for name, edit in edits:
        try:
            src = edit(src, rng)
        except AssertionError:
            if not applied and special:  # the special edit itself must apply
                raise
            continue  # a style edit that no longer fits this variant is skipped
        applied.append(name)
    return kind, applied, src


def generate(out: Path, n: int = 200, seed: int = 7) -> list[dict[str, object]]:
    """Write ``n`` submissions under ``out`` and return the manifest (one entry per submission)."""
    reference = REFERENCE.read_text(encoding="utf-8")
    rng = random.Random(seed)
    out.mkdir(parents=True, exist_ok=True)
    manifest = []
    for index in range(n):
        kind, edits, src = variant(index, rng, reference)
        folder = out / f"student_{index:03d}"
        folder.mkdir(exist_ok=True)
        (folder / FILENAME).write_text(src, encoding="utf-8")
        manifest.append({"id": folder.name, "kind": kind, "edits": edits})
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    manifest = generate(args.out, args.n, args.seed)
    counts: dict[str, int] = {}
    for entry in manifest:
        counts[str(entry["kind"])] = counts.get(str(entry["kind"]), 0) + 1
    print(f"wrote {len(manifest)} submissions to {args.out}: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
