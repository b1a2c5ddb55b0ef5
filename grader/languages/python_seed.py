"""Launcher run *inside* the sandbox before a Python program: seeds its randomness.

``python3 -u _grader_seed.py main.py`` seeds the ``random`` module from ``GRADER_SEED``
and gives every ``random.Random()`` made without a seed the next number of the same
seeded sequence, then runs ``main.py`` as ``__main__``. The same case then deals the
same cards on every run, so a self-shuffling program grades the same way five times.
It uses nothing but the standard library, and the program's traceback still names
its own file and lines.
"""
import os
import random
import runpy
import sys

_seeds = random.Random(int(os.environ.get("GRADER_SEED", "0")))
_original_seed = random.Random.seed


def _seeded(self, a=None, version=2):
    if a is None:
        a = _seeds.getrandbits(64)
    _original_seed(self, a, version)


random.Random.seed = _seeded  # type: ignore[method-assign]  # the point of the launcher
random.seed(_seeds.getrandbits(64))
del sys.argv[0]
runpy.run_path(sys.argv[0], run_name="__main__")
