"""How a MATLAB submission's .m files become callable functions: one per file, or a single file split up."""
from __future__ import annotations

from grader.languages.matlab_files import definitions, layout

SINGLE = b"""% Homework 7 in one file
function a = scrabbleScore(x, y)
  a = helper(x);
end

function b = war(p, q)
  b = helper(p) + 1;
end
function h = helper(z)
  h = z;
end
"""


def test_one_function_per_file_is_called_by_the_file_name():
    files = {"war.m": b"function out = war(a, b)\nout = 1;\n", "helper.m": b"function h = helper(x)\nh = x;\n"}
    lay = layout(files)
    assert lay.callable == {"war": ("war.m", 1), "helper": ("helper.m", 1)}
    assert lay.files == files and not lay.notes


def test_a_single_file_with_several_functions_is_split_at_the_same_line_numbers():
    lay = layout({"hw7.m": SINGLE})
    assert {"scrabbleScore", "war", "helper"} <= set(lay.callable)
    war = lay.files["war.m"].decode().splitlines()
    assert war[5] == "function b = war(p, q)"             # line 6, as in hw7.m
    assert "function h = helper(z)" in lay.files["war.m"].decode()   # its helpers stay local to it
    assert lay.where("war.m", 7) == ("hw7.m", 7)
    assert lay.where("war.m", 11) == ("hw7.m", 4)         # after war come scrabbleScore (lines 9-11) ...
    assert lay.where("war.m", 13) == ("hw7.m", 10)        # ... and helper, whose body is line 10 of hw7.m
    assert any("holds several functions" in n for n in lay.notes)


def test_local_functions_and_scripts():
    funcs, is_function_file = definitions("s.m", b"x = 1;\nfunction y = f(a)\ny = a;\nend\n")
    assert [f.name for f in funcs] == ["f"] and not is_function_file
    lay = layout({"s.m": b"x = 1;\nfunction y = goFish(a)\ny = a;\nend\n"})
    assert lay.callable == {"goFish": ("s.m", 2)}          # a script is never called, its function is
    lay = layout({"war.m": b"function o = war(a)\no = h(a);\nend\nfunction r = h(a)\nr = a;\nend\n",
                  "h.m": b"function r = h(a)\nr = 2 * a;\nend\n"})
    assert lay.files["h.m"] == b"function r = h(a)\nr = 2 * a;\nend\n"   # a file of its own is never replaced


def test_a_file_named_like_the_graders_own_functions_is_not_loaded():
    # The student's folder comes first on Octave's path: a grader_trip_.m there would shadow the tripwire.
    files = {"grader_trip_.m": b"function out = grader_trip_(op, arg)\nout = '';\n",
             "war.m": b"function o = war(a)\no = 1;\nend\nfunction grader_call_()\nend\n"}
    lay = layout(files)
    assert sorted(lay.files) == ["war.m"] and set(lay.callable) == {"war"}     # nor split out of war.m
    from grader.languages.matlab import MATLAB
    assert "grader_trip_.m is not loaded" in (MATLAB.encoding_note("grader_trip_.m", files["grader_trip_.m"]) or "")
    assert MATLAB.encoding_note("war.m", files["war.m"]) is None


def test_the_grammar_reads_octaves_strings_and_comments_at_the_same_offsets():
    from grader.languages.matlab_files import as_octave_reads
    source = (b's = "x\\""; t = 1; % "\n'            # Octave: \" is a quote inside the string
              b"y = a'; z = 'it''s # not a comment'; # a comment\n"
              b'#{\nblock "\n#}\nw = "ab\\\n"; v = 2;\n')   # a backslash continues a double-quoted string
    read = as_octave_reads(source)
    assert len(read) == len(source) and read.count(b"\n") == source.count(b"\n")
    assert read.splitlines()[:2] == [b's = "x"""; t = 1; % "', b"y = a'; z = 'it''s # not a comment'; % a comment"]
    assert read.splitlines()[2:] == [b"%{", b'block "', b"%}", b'w = "ab"', b" ; v = 2;"]


def test_a_file_that_would_replace_a_function_the_graders_code_calls_is_not_loaded():
    # A red team's dbstack.m returned no frames, and the tripwire saw no banned call at all.
    from grader.languages.matlab_files import reserved_note, server_calls
    assert {"dbstack", "strncmp", "sprintf", "stdin", "evalc", "feval", "builtin"} <= server_calls()
    assert "the grader's own code calls dbstack" in (reserved_note("dbstack.m") or "")
    assert reserved_note("sum.m") is None and reserved_note("helper.m") is None   # a student's own sum.m is theirs
    lay = layout({"dbstack.m": b"function s = dbstack(varargin)\ns = [];\n", "sum.m": b"function t = sum(v)\nt = 0;\n"})
    assert sorted(lay.files) == ["sum.m"]
