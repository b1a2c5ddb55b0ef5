"""Launcher run *inside* the sandbox before a Python program: seeds its randomness.

``python3 -u _grader_seed.py main.py`` seeds the ``random`` module from ``GRADER_SEED``
and gives every ``random.Random()`` made without a seed the next number of the same
seeded sequence, then runs ``main.py`` as ``__main__``. A seed read off the clock
(``random.seed(time.time())``, ``time.time_ns()``, ``perf_counter()``) is a seed only in
name and is replaced the same way; ``random.SystemRandom`` (and so ``secrets``' numbers)
draws from a seeded generator too. The same case then deals the same cards on every run,
so a self-shuffling program grades the same way five times. It uses nothing but the
standard library, and the program's traceback still names its own file and lines.
"""
import os
import random
import runpy
import sys
import time

_seeds = random.Random(int(os.environ.get("GRADER_SEED", "0")))
_original_seed = random.Random.seed
_CLOCK_WINDOW_S = 120.0


def _from_clock(a):
    """A number read off a clock in the last two minutes: time.time() in s, ms or ns, monotonic, perf_counter."""
    if isinstance(a, bool) or not isinstance(a, (int, float)) or abs(a) > 2 ** 64:
        return False
    now = time.time()
    readings = [(now, 1.0), (now * 1000, 1000.0), (time.time_ns(), 1e9), (time.monotonic_ns(), 1e9),
                (time.perf_counter_ns(), 1e9)]
    if isinstance(a, float) and not a.is_integer():    # seconds since boot: only a float is the clock's for sure
        readings += [(time.monotonic(), 1.0), (time.perf_counter(), 1.0)]
    return any(abs(a - clock) < _CLOCK_WINDOW_S * unit for clock, unit in readings)


def _seeded(self, a=None, version=2):
    if a is None or _from_clock(a):
        a = _seeds.getrandbits(64)
    _original_seed(self, a, version)


random.Random.seed = _seeded  # type: ignore[method-assign]  # the point of the launcher
# random.seed is the module's generator's method, bound when random was imported: bound again, it is _seeded too
random.seed = random._inst.seed
random.seed(_seeds.getrandbits(64))
_system = random.Random(_seeds.getrandbits(64))
random.SystemRandom.random = lambda self: _system.random()  # type: ignore[method-assign]
random.SystemRandom.getrandbits = lambda self, k: _system.getrandbits(k)  # type: ignore[method-assign]
if hasattr(random.Random, "randbytes"):
    random.SystemRandom.randbytes = lambda self, n: _system.randbytes(n)  # type: ignore[method-assign]
del sys.argv[0]
runpy.run_path(sys.argv[0], run_name="__main__")
