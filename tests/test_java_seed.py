"""Java (and Python) programs' own randomness is seeded by the grader: the compiled classes are rewritten so that
new Random(), Math.random(), Collections.shuffle, SecureRandom and ThreadLocalRandom draw from generators seeded by
GRADER_SEED, and a seed read off the clock is replaced like no seed; Python's launcher does the same for random."""
from __future__ import annotations

import dataclasses
import struct

from grader.languages import get_language
from grader.languages.java_seed import SEEDED, THREAD_LOCAL, _ClassFile, seed_class
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


#: Randomness a student reaches for that new Random() does not cover: every kind of it, once.
UNSEEDED = """import java.security.SecureRandom;
import java.util.*;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;

public class Unseeded {
    public static void main(String[] args) throws Exception {
        ThreadLocalRandom local = ThreadLocalRandom.current();
        Random secure = new SecureRandom();
        Random later = new Random();
        later.setSeed(System.currentTimeMillis() / 1000);
        Supplier<Random> maker = Random::new;
        IntUnaryOperator pick = local::nextInt;
        List<Integer> deck = new ArrayList<>();
        for (int i = 0; i < 10; i++) deck.add(i);
        Collections.shuffle(deck, ThreadLocalRandom.current());
        System.out.println(local.nextInt(1000) + " " + ThreadLocalRandom.current().nextInt(5, 1000) + " "
            + local.ints(0, 100).limit(3).sum() + " " + secure.nextInt(1000) + " "
            + SecureRandom.getInstanceStrong().nextInt(1000) + " " + SecureRandom.getInstance("SHA1PRNG").nextInt(1000)
            + " " + new Random(System.nanoTime()).nextInt(1000) + " " + new Random(System.currentTimeMillis()).nextInt(1000)
            + " " + later.nextInt(1000) + " " + maker.get().nextInt(1000) + " " + pick.applyAsInt(1000) + " "
            + (int) (StrictMath.random() * 1000) + " " + deck.toString().replace(" ", "") + " " + new Random(42).nextInt(1000));
    }
}
"""


def _outputs(seeds, source=DEALS, name="Deals.java"):
    java = get_language("java")
    limits = dataclasses.replace(Limits(), memory_mb=4096, nproc=200, cpu_s=20)
    built = java.build({name: source.encode()}, name, limits=limits)
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


def test_secure_random_thread_local_random_and_clock_seeds_are_seeded_too():
    """ThreadLocalRandom (calls and method references), SecureRandom (made or got from its factories), a seed read
    off the clock, Random::new, StrictMath.random and Collections.shuffle(list, ThreadLocalRandom) all deal the same
    for the same case and otherwise for another; a constant seed stays the program's own."""
    first, again, other = _outputs([5, 5, 6], UNSEEDED, "Unseeded.java")
    assert first == again
    assert sum(a != b for a, b in zip(first[:-1], other[:-1])) >= len(first) - 3, (first, other)
    assert first[-1] == other[-1]


def _methods(data: bytes) -> set[tuple[str, str]]:
    """(name, descriptor) of every method of a class file."""
    cls = _ClassFile(data)
    rest, pos = cls.rest, 6
    pos += 2 + 2 * struct.unpack_from(">H", rest, pos)[0]
    found = set()
    for is_method in (False, True):
        count = struct.unpack_from(">H", rest, pos)[0]
        pos += 2
        for _ in range(count):
            name, descriptor, attributes = struct.unpack_from(">HHH", rest, pos + 2)
            pos += 8
            for _ in range(attributes):
                pos += 6 + struct.unpack_from(">I", rest, pos + 2)[0]
            if is_method:
                found.add((cls.utf8(name), cls.utf8(descriptor)))
    return found


def test_every_thread_local_random_method_the_rewriter_redirects_has_its_stand_in():
    """A redirected call to a method SeededRandom lacks would fail at run time (NoSuchMethodError): none is missing."""
    java = get_language("java")
    limits = dataclasses.replace(Limits(), memory_mb=4096, nproc=200, cpu_s=20)
    built = java.build({"Deals.java": DEALS.encode()}, "Deals.java", limits=limits)
    methods = _methods(built.files[f"classes/{SEEDED}.class"])
    wanted = {(name, f"(Ljava/util/concurrent/ThreadLocalRandom;{descriptor[1:]}") for name, descriptor in THREAD_LOCAL}
    assert wanted <= methods, wanted - methods


CLOCKED = """import random, secrets, time
random.seed(time.time())
a = random.randint(0, 999)
random.seed(time.time_ns())
b = random.randint(0, 999)
random.seed()
c = random.randint(0, 999)
d = random.Random(time.perf_counter()).randint(0, 999)
e = random.SystemRandom().randint(0, 999)
f = secrets.randbelow(1000)
g = random.Random(42).randint(0, 999)
print(a, b, c, d, e, f, g)
"""


def test_python_clock_seeds_system_random_and_secrets_are_seeded_by_the_launcher():
    python = get_language("python")
    limits = dataclasses.replace(Limits(), memory_mb=1024, cpu_s=20)
    built = python.build({"main.py": CLOCKED.encode()}, "main.py", limits=limits,
                         run=("python3", "-u", "{seed_launcher}", "{main}"))
    outputs = []
    for seed in (5, 5, 6):
        with python.spawn(built, limits=limits, env={"PATH": "/usr/bin:/bin", "GRADER_SEED": str(seed)}) as program:
            turn = program.read_turn(30)
            assert turn.state == "exit" and program.wait(10) == 0, program.stderr
            outputs.append(turn.text.split())
    first, again, other = outputs
    assert first == again
    assert sum(a != b for a, b in zip(first[:-1], other[:-1])) >= 5 and first[-1] == other[-1]
