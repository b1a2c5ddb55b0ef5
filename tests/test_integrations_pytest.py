"""The pytest plugin: ``pytest --grader-spec SPEC --submission FILE``, one test per public case."""
from __future__ import annotations

import shutil
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from grader.integrations.student_bundle import export_student_bundle

pytest_plugins = ["pytester"]

SPECS = Path(__file__).resolve().parent / "fixtures" / "specs"

GOOD = """\
def add(a, b):
    return a + b


def divmod2(a, b):
    return a // b, a % b


def shout(text):
    return text.upper() + "!"
"""

BAD = """\
def add(a, b):
    return a - b


def divmod2(a, b):
    return a / 0


def shout(text):
    print("about to shout", text)
    return text.upper() + "?"
"""

# With the entry point installed pytest loads the plugin itself; loading it twice is an error.
PLUGIN = [] if any(ep.value == "grader.pytest_plugin" for ep in entry_points(group="pytest11")) else ["-p", "grader.pytest_plugin"]


@pytest.fixture
def assignment(pytester: pytest.Pytester) -> pytest.Pytester:
    for name in ("mini.yaml", "mini_ref.py", "mini_cases.py"):
        shutil.copy(SPECS / name, pytester.path / name)
    (pytester.path / "mini.py").write_text(GOOD)
    (pytester.path / "bad.py").write_text(BAD)
    return pytester


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(*PLUGIN, "-p", "no:cacheprovider", *args, timeout=300)


def test_passing_submission(assignment: pytest.Pytester) -> None:
    result = run(assignment, "--grader-spec", "mini.yaml", "--submission", "mini.py", "-v")
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines([
        "mini.yaml::add::small PASSED*",
        "mini.yaml::add::negative PASSED*",
        "mini.yaml::divmod2::seven_by_two PASSED*",
        "mini.yaml::shout::hello PASSED*",
        "*4/4 public cases passed*hidden cases are not run*",
    ])
    # hidden cases are never items
    assert "big" not in result.stdout.str() and "hidden_one" not in result.stdout.str()


def test_failing_submission(assignment: pytest.Pytester) -> None:
    result = run(assignment, "--grader-spec", "mini.yaml", "--submission", "bad.py")
    result.assert_outcomes(failed=4)
    result.stdout.fnmatch_lines([
        "*add(1, 2) failed: expected 3, got -1",
        "expected:",
        "    3",
        "actual:",
        "    -1",
    ])
    result.stdout.fnmatch_lines([
        "*divmod2(7, 2) error: raised ZeroDivisionError: division by zero on line 6: return a / 0",
    ])
    result.stdout.fnmatch_lines(["*shout('hello') failed*", "printed:", "    about to shout hello"])
    result.stdout.fnmatch_lines(["FAILED mini.yaml::add::small - add(1, 2) failed: expected 3, got -1"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_long_values_get_a_diff(assignment: pytest.Pytester) -> None:
    (assignment.path / "long.py").write_text(GOOD.replace('return text.upper() + "!"', 'return text.upper() * 20 + "!"'))
    result = run(assignment, "--grader-spec", "mini.yaml", "--submission", "long.py")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(["difference (- expected, + actual):"])


def test_submission_that_does_not_load(assignment: pytest.Pytester) -> None:
    (assignment.path / "broken.py").write_text("def add(a, b)\n    return a + b\n")
    result = run(assignment, "--grader-spec", "mini.yaml", "--submission", "broken.py")
    result.assert_outcomes(failed=4)
    result.stdout.fnmatch_lines(["*add(1, 2) error: not run: the file could not be loaded*", "syntax error: expected ':' (line 1)",
                                 "    def add(a, b)", "                 ^"])


def test_only_the_spec_is_collected_without_paths(assignment: pytest.Pytester) -> None:
    assignment.makepyfile(test_other="def test_other():\n    assert False\n")
    result = run(assignment, "--grader-spec", "mini.yaml", "--submission", "mini.py")
    result.assert_outcomes(passed=4)
    both = run(assignment, "test_other.py", "--grader-spec", "mini.yaml", "--submission", "mini.py")
    both.assert_outcomes(passed=4, failed=1)


def test_plugin_is_inert_without_options(assignment: pytest.Pytester) -> None:
    assignment.makepyfile(test_other="def test_other():\n    pass\n")
    run(assignment).assert_outcomes(passed=1)


def test_usage_errors(assignment: pytest.Pytester) -> None:
    result = run(assignment, "--grader-spec", "mini.yaml")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--grader-spec needs --submission*"])
    result = run(assignment, "--grader-spec", "mini.yaml", "--submission", "nope.py")
    assert result.ret == pytest.ExitCode.USAGE_ERROR


def test_student_bundle_with_pytest(assignment: pytest.Pytester, tmp_path: Path) -> None:
    export_student_bundle(assignment.path / "mini.yaml", assignment.path / "bundle")
    for name in ("mini.yaml", "mini_ref.py", "mini_cases.py"):
        (assignment.path / name).unlink()
    result = run(assignment, "--grader-spec", "bundle/spec.yaml", "--submission", "mini.py")
    result.assert_outcomes(passed=4)
    run(assignment, "--grader-spec", "bundle/spec.yaml", "--submission", "bad.py").assert_outcomes(failed=4)
