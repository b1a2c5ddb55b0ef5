"""numpy scalars and arrays are answers like any other, judged with the case's tolerance."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from conftest import FIXTURES
from grader.run.child import codec

STATS = FIXTURES / "specs" / "stats.yaml"
NUMPY_STUDENT = """import numpy as np

def spread(xs):
    return np.std(xs)

def scaled(xs, k):
    return np.array(xs) * k

def count_over(xs, t):
    return np.sum(np.array(xs) > t)

def all_positive(xs):
    return np.all(np.array(xs) > 0)
"""
PLAIN_STUDENT = """import math

def spread(xs):
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))

def scaled(xs, k):
    return [x * k for x in xs]

def count_over(xs, t):
    return len([x for x in xs if x > t])

def all_positive(xs):
    return min(xs) > 0
"""


@pytest.mark.parametrize("value, plain", [
    (np.float64(1.5), 1.5),
    (np.int64(7), 7),
    (np.bool_(True), True),
    (np.array([[1, 2], [3, 4]]), [[1, 2], [3, 4]]),
    (np.array([0.5, 1.0]), [0.5, 1.0]),
    ((np.int32(1), [np.float32(0.5)]), (1, [0.5])),
])
def test_numpy_values_cross_as_the_plain_values_they_hold(value, plain):
    got = codec.decode(codec.encode(value))
    assert got == plain and type(got) is type(plain)
    assert json.dumps(codec.encode(value))


@pytest.mark.parametrize("value, words", [
    (np.float64("nan"), "NaN"),
    (np.array([1 + 2j]), "complex"),
    (np.array([object()]), "object"),
])
def test_numpy_values_that_hold_no_plain_value_are_refused_in_words(value, words):
    with pytest.raises(codec.CodecError, match=words):
        codec.encode(value)


def grade(tmp_path, students: dict[str, str]) -> dict[str, dict]:
    klass = tmp_path / "class"
    klass.mkdir()
    for name, src in students.items():
        (klass / f"{name}.py").write_text(src)
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "grader", "grade", str(STATS), str(klass), "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return {name: json.loads((out / f"{name}.json").read_text()) for name in students}


def test_a_numpy_student_scores_like_a_plain_one_and_a_wrong_one_is_told_why(tmp_path):
    wrong = NUMPY_STUDENT.replace("np.std(xs)", "np.std(xs, ddof=1)")
    results = grade(tmp_path, {"numpy_user": NUMPY_STUDENT, "plain": PLAIN_STUDENT, "sample_std": wrong})
    assert results["plain"]["score"] == results["plain"]["max_score"] == 30
    numpy_user = results["numpy_user"]
    assert numpy_user["score"] == 30, [t["message"] for t in numpy_user["tests"] if t["status"] != "passed"]
    assert {t["status"] for t in numpy_user["tests"]} == {"passed"}
    public = next(t for t in results["sample_std"]["tests"] if t["function"] == "spread" and t["visibility"] == "public")
    assert public["status"] == "failed" and "plain value" not in public["message"]
    assert isinstance(public["actual"], float) and public["actual"] == pytest.approx(2.138, rel=1e-3)
    assert results["sample_std"]["functions"]["spread"]["score"] == 0
