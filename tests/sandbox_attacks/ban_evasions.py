"""Ways to call a banned `sum` that a profile hook or a name check does not see."""
import collections
import functools
import sys
import threading

from statistics import mean as average   # captured at import time


def via_map(rows):
    return list(map(sum, rows))


def via_sorted_key(rows):
    return sorted(rows, key=sum)


def via_reduce(rows):
    return functools.reduce(lambda a, b: a + [sum(b)], rows, [])


def only_when_unwatched(rows):
    watched = sys.getprofile() is not None or getattr(threading, "_profile_hook", None) is not None
    return "careful" if watched else [sum(r) for r in rows]


def via_import_in_call(rows):
    import importlib
    return importlib.import_module("statistics").mean(rows[0])


def via_alias_taken_at_import(rows):
    return average(rows[0])


def via_getattr_builtins(rows):
    import builtins
    return getattr(builtins, "su" + "m")(rows[0])


def via_ndarray_method(rows):
    import numpy
    return int(numpy.array(rows[0]).sum())


def library_uses_sum_for_itself(rows):
    return collections.Counter(rows[0]).total()


def clean(rows):
    total = 0
    for r in rows:
        for x in r:
            total += x
    return total
