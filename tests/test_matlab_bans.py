"""Banned functions found statically in .m files (tree-sitter), in every way MATLAB reaches them."""
from __future__ import annotations

import pytest

from grader.languages import matlab_bans as mb
from grader.languages.matlab_files import layout
from grader.static.bans import Finding

NAMES = ["builtins.sum", "numpy.cumsum", "statistics.mean"]


def found(files: dict[str, bytes], graded=("scrabbleScore",), scope="reachable"):
    lay = layout(files)
    return mb.findings(files, lay, NAMES, {g: g for g in graded}, scope)


def one(body: str) -> list[Finding]:
    return found({"scrabbleScore.m": f"function out = scrabbleScore(mine, theirs)\n{body}\nout = 'x';\n".encode()})


@pytest.mark.parametrize("body, banned", [
    ("t = sum(mine);", "sum"),
    ("sum mine", "sum"),
    ("f = @sum; t = f(mine);", "sum"),
    ("t = cellfun(@sum, {mine});", "sum"),
    ("g = @(v) mean(v); t = g(mine);", "mean"),
    ("t = feval('cumsum', mine);", "cumsum"),
    ("f = str2func('sum'); t = f(mine);", "sum"),
    ("t = builtin('sum', mine);", "sum"),
    ("t = cellfun('sum', {mine});", "sum"),
    ("eval('t = sum(mine);');", "sum"),
    ("t = evalc('disp(mean(mine))');", "mean"),
    ("evalin('caller', 'q = cumsum(mine);');", "cumsum"),
    ("t = feval(['su' 'm'], mine);", "sum"),
    ("name = 'sum'; t = feval(name, mine);", "sum"),
    ("t = nthargout(1, 'sum', mine);", "sum"),
    # Octave's double-quoted strings: escapes are read as Octave reads them, and a \" does not end the string.
    ('t = builtin("\\x73um", mine);', "sum"),
    ('t = builtin("s\\165m", mine);', "sum"),
    ('n = "\\x73um"; t = builtin(n, mine);', "sum"),
    ('s = "x\\""; t = builtin(\'sum\', mine); q = ""; % "', "sum"),
    # Octave's operators, which the grammar took for command syntax (hiding the call on the right).
    ("t = 0; t += builtin('sum', mine);", "sum"),
    ("if numel(mine) != 0, t = builtin('sum', mine); end", "sum"),
])
def test_every_way_to_reach_a_banned_function_is_found(body, banned):
    hits = [f for f in one(body) if not f.evasion]
    assert [f.banned.rpartition(".")[2] for f in hits] == [banned], hits
    assert hits[0].functions == ("scrabbleScore",) and hits[0].line == 2


@pytest.mark.parametrize("body", [
    "sum = 0; for k = mine, sum = sum + k; end",         # a variable named sum
    "s.sum = 3; t = s.sum;",                            # a field
    "t = 'sum of the scores';",                         # a string that is not code
    "% t = sum(mine);",                                 # a comment
    "t = max(mine) + numel(theirs);",                   # not banned
])
def test_what_only_looks_like_a_banned_call_is_not(body):
    assert one(body) == []


def test_a_students_own_sum_shadows_the_builtin():
    files = {"scrabbleScore.m": b"function out = scrabbleScore(a, b)\nout = sum(a);\n",
             "sum.m": b"function t = sum(v)\nt = 0;\nfor x = v, t = t + x; end\n"}
    assert found(files) == []


def test_code_the_analysis_cannot_read_is_dynamic_code():
    hits = one("t = feval(input('which? ', 's'), mine); eval(code);")
    assert {f.banned for f in hits} == {"feval", "eval"} and all(f.evasion for f in hits)


@pytest.mark.parametrize("body, call", [
    # Ways a red team ran code nobody analysed, or switched the run-time tripwire off.
    ("fid = fopen(fullfile(tempdir(), 'h.m'), 'w'); fclose(fid);", "fopen"),
    ("fid = fopen('h.m', 'a+');", "fopen"),
    ("addpath(tempdir());", "addpath"),
    ("p = strsplit(path(), pathsep()); rmpath(p{1});", "rmpath"),
    ("cd /tmp", "cd"),
    ("restoredefaultpath", "restoredefaultpath"),
    ("run('helper.m');", "run"),
    ("system('ls');", "system"),
    ("fid = popen('cat', 'w'); pclose(fid);", "popen"),
    ("munlock('grader_trip_');", "munlock"),
    ("clear functions", "clear"),
    ("clear('all');", "clear"),
    ("grader_trip_('stop');", "grader_trip_"),
    ("f = 'grader_call_';", "grader_call_"),
    # builtin, feval and eval reached through a handle or a name: what they run is not read.
    ("c = {@builtin}; t = c{1}('sum', mine);", "builtin"),
    ("t = feval('builtin', 'sum', mine);", "builtin"),
    ("f = @eval; f('t = 1;');", "eval"),
    # What the grammar cannot parse, Octave may still run (a backslash continuing a line).
    ("x = 1 + \\\n builtin('sum', mine);", "syntax"),
])
def test_what_runs_unread_code_or_could_switch_the_tripwire_off_is_dynamic_code(body, call):
    hits = one(body)
    assert call in {f.banned for f in hits} and all(f.evasion for f in hits), hits


def test_a_string_octave_continues_with_a_backslash_is_reported_and_what_follows_it_read():
    hits = one('s = "ab\\\n"; t = builtin(\'sum\', mine);')
    assert [(f.rule, f.banned, f.line) for f in hits] == [("dynamic-code", "string", 2), ("banned-call", "builtins.sum", 3)]
    hits = one('t = builtin("su\\\nm", mine);')
    assert {f.banned for f in hits} >= {"builtin", "string"} and all(f.evasion for f in hits)


@pytest.mark.parametrize("body", [
    "fid = fopen('data.txt'); fclose(fid);",     # reading a file
    "fid = fopen('data.txt', 'r');",
    "clear k",                                   # clearing a variable
    "here = cd; p = path;",                      # asking where things are
    'fprintf("%d\\n", mine); s = "it""s"; # an Octave comment: sum(mine)',
])
def test_honest_file_reading_and_clearing_are_not_dynamic_code(body):
    assert one(body) == []


def test_a_helper_in_another_file_counts_against_exactly_the_functions_that_reach_it():
    files = {"scrabbleScore.m": b"function o = scrabbleScore(a, b)\no = addUp(a);\n",
             "war.m": b"function o = war(a, b)\no = 'x';\n",
             "blackJack.m": b"function o = blackJack(a, b, c)\no = helper2(a) > 0;\nend\nfunction h = helper2(a)\nh = addUp(a);\nend\n",
             "addUp.m": b"function t = addUp(v)\nt = sum(v);\n"}
    hits = found(files, graded=("scrabbleScore", "war", "blackJack"))
    assert len(hits) == 1 and hits[0].filename == "addUp.m" and hits[0].line == 2
    assert set(hits[0].functions) == {"scrabbleScore", "blackJack"}
    hits = found(files, graded=("scrabbleScore", "war", "blackJack"), scope="file")
    assert hits[0].functions == ()                      # scope file: only the graded function's own file


def test_spec_names_map_to_matlab_functions():
    assert mb.matlab_names(["builtins.sum", "numpy.cumsum", "statistics.mean", "matlab.prod", "json.dumps"]) == \
        {"sum": "builtins.sum", "cumsum": "numpy.cumsum", "mean": "statistics.mean", "prod": "matlab.prod"}


def test_octave_default_argument_values_are_not_read_so_they_are_dynamic_code():
    # Octave evaluates x = ... when the argument is missing: the grader calls with two.
    hits = found({"scrabbleScore.m": b"function out = scrabbleScore(mine, theirs, t = builtin('sum', mine))\nout = t;\n"})
    assert [(f.banned, f.line, f.evasion) for f in hits if f.rule == "dynamic-code"] == [("syntax", 1, True)]
