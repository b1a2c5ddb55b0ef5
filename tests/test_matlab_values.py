"""Values between Python and MATLAB, both directions, checked inside a real Octave.

Out: each Python value is sent as an argument to a function that reports what MATLAB
sees (class and size). Back: values built in MATLAB come back as the Python the judge
compares, read in the shape of the reference's answer.
"""
from __future__ import annotations

import pytest

from grader.languages import matlab_values as mv
from grader.languages.matlab_session import OctaveSession, octave_path

PROBE = b"""function [cls, sz, same] = probe(x, y)
% What MATLAB sees: the class and size of x, and whether y equals it exactly (isequal + class).
cls = class(x);
sz = size(x);
same = isequal(x, y) && strcmp(class(x), class(y));
"""

BUILD = b"""function varargout = build(what)
% Values as a MATLAB student would return them.
switch what
  case 'row',        varargout = {[1 2 3]};
  case 'column',     varargout = {[1; 2; 3]};
  case 'matrix',     varargout = {[1 2; 3 4]};
  case 'onerow',     varargout = {[3 2]};
  case 'scalar',     varargout = {7};
  case 'half',       varargout = {2.5};
  case 'char',       varargout = {'abc'};
  case 'charmat',    varargout = {['ab'; 'cd']};
  case 'logical',    varargout = {true};
  case 'logicals',   varargout = {[true false]};
  case 'empty',      varargout = {[]};
  case 'emptyrow',   varargout = {zeros(1, 0)};
  case 'emptychar',  varargout = {''};
  case 'cell',       varargout = {{'a', 1, [1 2]}};
  case 'uint8',      varargout = {uint8([1 255])};
  case 'int32',      varargout = {int32(-4)};
  case 'struct',     varargout = {struct('name', 'x', 'n', 3)};
  case 'two',        varargout = {'tie', [1 1]};
  case 'handle',     varargout = {@sin};
  case 'complex',    varargout = {1 + 2i};
  case 'inf',        varargout = {[Inf -Inf NaN]};
  case 'nd',         varargout = {ones(2, 2, 2)};
end
"""


@pytest.fixture(scope="module")
def octave():
    assert octave_path(), "GNU Octave is required (./install.sh --matlab; CI installs it with --test)"
    with OctaveSession({"probe.m": PROBE, "build.m": BUILD}, ["probe", "build"]) as session:
        assert session.load.ok, session.load.message
        yield session


# ------------------------------------------------------------------ Python -> MATLAB
@pytest.mark.parametrize("value, cls, size, literal", [
    ([1, 2, 3], "double", [1, 3], "[1 2 3]"),
    ([1.5, 2], "double", [1, 2], "[1.5 2]"),
    (7, "double", [1, 1], "7"),
    ("abc", "char", [1, 3], "'abc'"),
    ("it's", "char", [1, 4], "'it''s'"),
    (["ab", "cd", "ef"], "char", [3, 2], "['ab'; 'cd'; 'ef']"),
    (True, "logical", [1, 1], "true"),
    ([True, False], "logical", [1, 2], "[true false]"),
    ([], "double", [0, 0], "[]"),
    ("", "char", [0, 0], "''"),
    ([[1, 2], [3, 4]], "double", [2, 2], "[1 2; 3 4]"),
    (["ab", "c"], "cell", [1, 2], "{'ab', 'c'}"),
    ([1, "a", [2, 3]], "cell", [1, 3], "{1, 'a', [2 3]}"),
    ({"n": 3, "s": "x"}, "struct", [1, 1], "struct('n', {3}, 's', {'x'})"),
])
def test_python_values_arrive_as_matlab_sees_them(octave, value, cls, size, literal):
    assert mv.literal(value) == literal
    result = octave.call("probe", [value, value], time_limit=5, expected=("", [], True))
    assert result.status == "ok", result
    assert result.value[0] == cls and result.value[1] == size


def test_integer_classes_where_the_spec_says(octave):
    result = octave.call("probe", [[1, 255], [1, 255]], time_limit=5, expected=("", [], True), classes=["uint8"])
    assert result.value[:2] == ("uint8", [1, 2])


def test_empty_double_and_empty_char_stay_apart(octave):
    result = octave.call("probe", [[], ""], time_limit=5, expected=("", [], True))
    assert result.value == ("double", [0, 0], False)


def test_special_numbers_and_text_cross_exactly(octave):
    assert mv.literal([float("inf"), float("-inf"), 0.1]) == "[Inf -Inf 0.1]"
    assert mv.literal("é") == "char([195 169])"
    result = octave.call("probe", [0.1 + 0.2, 0.30000000000000004], time_limit=5, expected=("", [], True))
    assert result.value[2] is True
    with pytest.raises(mv.BadValue):
        mv.literal(2**60)


# ------------------------------------------------------------------ MATLAB -> Python
@pytest.mark.parametrize("what, like, expected", [
    ("row", [0], [1, 2, 3]),
    ("column", [0], [[1], [2], [3]]),                 # a column is not the row the reference has
    ("matrix", [[0]], [[1, 2], [3, 4]]),
    ("onerow", [[1, 1]], [[3, 2]]),                  # a Px2 array with one row, as wordSearch's
    ("onerow", [1, 1], [3, 2]),                      # a 1x2 vector, as goFish's score
    ("scalar", 1, 7),
    ("half", 1.0, 2.5),
    ("char", "x", "abc"),
    ("char", ["x"], ["abc"]),                        # a 1-row char matrix, for a list-of-rows reference
    ("charmat", ["x"], ["ab", "cd"]),
    ("logical", False, True),
    ("logicals", [False], [True, False]),
    ("empty", [], []),
    ("emptyrow", [], []),
    ("emptychar", "", ""),
    ("cell", [], ["a", 1, [1, 2]]),
    ("uint8", [], [1, 255]),
    ("int32", 0, -4),
    ("struct", {}, {"name": "x", "n": 3}),
])
def test_matlab_values_come_back_as_python(octave, what, like, expected):
    result = octave.call("build", [what], time_limit=5, expected=like)
    assert result.status == "ok", result
    assert result.value == expected
    assert type(result.value) is type(expected)


def test_integer_valued_doubles_are_ints_and_logicals_are_bools(octave):
    assert type(octave.call("build", ["scalar"], time_limit=5, expected=1).value) is int
    assert type(octave.call("build", ["logical"], time_limit=5, expected=True).value) is bool
    assert octave.call("build", ["inf"], time_limit=5, expected=[0.0]).value[:2] == [float("inf"), float("-inf")]


def test_several_outputs_are_a_tuple(octave):
    result = octave.call("build", ["two"], time_limit=5, expected=("", [0, 0]))
    assert result.value == ("tie", [1, 1])


@pytest.mark.parametrize("what, says", [("handle", "function_handle"), ("complex", "complex"), ("nd", "2x2x2")])
def test_values_without_a_python_form_are_refused_with_a_reason(octave, what, says):
    result = octave.call("build", [what], time_limit=5, expected=0)
    assert result.status == "protocol" and says in result.detail


def test_a_reply_that_lies_about_its_size_is_refused():
    with pytest.raises(mv.BadValue):
        mv.parse_reply(b'{"ok":true,"v":[{"c":"double","z":[1,3],"d":"1,2"}]}')
    with pytest.raises(mv.BadValue):
        mv.parse_reply(b'{"ok":true,"v":[{"c":"char","z":[1,2],"d":"zz"}]}')
