"""Java programs' own randomness is seeded by the grader: the compiled classes are rewritten so that
new Random(), Math.random() and Collections.shuffle(list) draw from generators seeded by GRADER_SEED."""
from __future__ import annotations

import dataclasses

from grader.languages import get_language
from grader.languages.java_seed import seed_class
from grader.run.sandbox import Limits

DEALS = """import java.util.*;

public class Deals extends Object {
    static Random shared = new Random();

    public static void main(String[] args) {
        Random own = new Random();
        Random fixed = new Random(42);
        List<Integer> deck = new ArrayList<>();
        for (int i = 0; i < 10; i++) deck.add(i);
        Collections.shuffle(deck);
        int pick;
        switch (own.nextInt(3)) { case 0: pick = 1; break; case 1: pick = 2; break; default: pick = 3; }
        System.out.println(Math.random() + " " + own.nextInt(1000) + " " + shared.nextInt(1000) + " "
                           + fixed.nextInt(1000) + " " + deck + " " + pick + " " + new Dice().nextInt(1000));
    }
}

class Dice extends Random {
    Dice() { super(); }
}
"""


def _outputs(seeds):
    java = get_language("java")
    limits = dataclasses.replace(Limits(), memory_mb=4096, nproc=200, cpu_s=20)
    built = java.build({"Deals.java": DEALS.encode()}, "Deals.java", limits=limits)
    assert not built.errors, built.output
    outputs = []
    for seed in seeds:
        with java.spawn(built, limits=limits, env={"PATH": "/usr/bin:/bin", "GRADER_SEED": str(seed)}) as program:
            turn = program.read_turn(30)
            assert turn.state == "exit" and program.wait(10) == 0, program.stderr
            outputs.append(turn.text.split())
    return outputs


def test_the_same_seed_deals_the_same_and_another_seed_deals_otherwise():
    first, again, other = _outputs([5, 5, 6])
    assert first[:-1] == again[:-1]                    # Math.random, new Random(), static field, shuffle, switch
    assert first[:3] != other[:3] and first[4:-2] != other[4:-2]
    assert first[3] == other[3]                        # an explicit seed stays the program's own
    # A subclass of Random calls Random's own constructor as its super: left unseeded, it still runs.
    assert first[-1].isdigit()


def test_a_class_without_randomness_or_that_cannot_be_read_is_left_unchanged():
    assert seed_class(b"not a class file") == b"not a class file"
    assert seed_class(b"\xca\xfe\xba\xbe\x00\x00\x00\x3d\x00\x05\x01") == b"\xca\xfe\xba\xbe\x00\x00\x00\x3d\x00\x05\x01"
