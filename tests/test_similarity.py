"""grader.similarity: normalisers, winnowing, exclusions, reports, and bad input that never stops a run."""
from __future__ import annotations

import csv
import textwrap
from pathlib import Path

import pytest

from grader.cli import main
from grader.errors import ExitCode
from grader.similarity.compare import Options, compare, exclude
from grader.similarity.fingerprint import _winnow, fingerprint
from grader.similarity.languages import NORMALISERS

ROOT = Path(__file__).resolve().parent.parent
HW7 = str(ROOT / "specs" / "hw7_iteration.yaml")
CORPUS = Path(__file__).resolve().parent / "similarity_corpus"


def labels(language: str, text: str, name: str, entry=frozenset({"f", "main"})) -> list[list[str]]:
    normalised = NORMALISERS[language]({name: textwrap.dedent(text)}, entry)
    return sorted([t.label for t in u.tokens] for u in normalised.units)


# --------------------------------------------------------------------------- normalisers

PY_ORIGINAL = """
def helper(values):
    total = 0
    for value in values:
        total += value
    return total

def f(xs, ys):
    return helper(xs) > helper(ys)
"""

PY_DISGUISED = """
# a comment
def f(first,   second):
    '''Docstring.'''
    return add_all(first) > add_all(second)

def never_called(q):
    return q * 2

def add_all(nums):
    acc = 100
    junk = 5
    i = 0
    while i < len(nums):
        n = nums[i]
        if False:
            print("debug")
        acc = acc + n
        i += 1
    return acc
    print("unreachable")
"""


def test_python_disguises_normalise_to_the_same_tokens():
    assert labels("python", PY_ORIGINAL, "a.py") == labels("python", PY_DISGUISED, "b.py")


def test_python_library_names_stay_and_a_different_algorithm_differs():
    other = "def f(xs, ys):\n    return sorted(xs) > sorted(ys)\n"
    assert labels("python", PY_ORIGINAL, "a.py") != labels("python", other, "b.py")
    assert "sorted" in labels("python", other, "b.py")[0]


JAVA_ORIGINAL = """
class A {
    static int total(int[] xs) { int t = 0; for (int i = 0; i < xs.length; i++) { t += xs[i]; } return t; }
    public static void main(String[] args) { System.out.println(total(new int[] {1, 2})); }
}
"""

JAVA_DISGUISED = """
/* header */
class Other {
    public static void main(String[] a) {
        System.out.println(sumUp(new int[] {7, 8}));  // changed literals
    }
    static int unused() { return 3; }
    static int sumUp(int[] arr) {
        int acc = 10;
        int junk = 4;
        int k = 0;
        while (k < arr.length) {
            acc = acc + arr[k];
            k++;
        }
        return acc;
    }
}
"""


def test_java_disguises_normalise_to_the_same_tokens():
    assert labels("java", JAVA_ORIGINAL, "A.java") == labels("java", JAVA_DISGUISED, "Other.java")


MATLAB_ORIGINAL = """
function out = f(xs)
% add them up
t = 0;
for i = 1:length(xs)
    t = t + xs(i);
end
out = t;
end
"""

MATLAB_DISGUISED = """
function result = f(values)
junk = 42;
acc = 5;
k = 1;
while k <= length(values)
    acc = acc + values(k);
    k = k + 1;
end
result = acc;
end

function unused()
disp('never called')
end
"""


def test_matlab_disguises_normalise_to_the_same_tokens():
    assert labels("matlab", MATLAB_ORIGINAL, "f.m") == labels("matlab", MATLAB_DISGUISED, "f.m")


def test_a_python_syntax_error_is_repaired_and_noted():
    broken = "def f(xs)\n    total = 0\n    for x in xs:\n        total += x\n    return total\n"
    normalised = NORMALISERS["python"]({"a.py": broken}, frozenset({"f"}))
    assert normalised.size > 0
    assert "syntax error at line 1" in normalised.notes[0] and "repaired" in normalised.notes[0]


def test_a_function_too_deep_to_parse_leaves_only_itself_out():
    # rt2: a copy padded with `return 1+1+...` (300,000 terms) made the whole file "not compared".
    good = "import math\n\n\n@staticmethod\ndef f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total\n"
    padded = good + "\n\ndef pad():\n    return " + "+".join(["1"] * 20000) + "\n"
    alone = NORMALISERS["python"]({"a.py": good}, frozenset({"f"}))
    normalised = NORMALISERS["python"]({"a.py": padded}, frozenset({"f"}))
    assert normalised.size == alone.size > 0
    assert normalised.notes == ["a.py: the code at line(s) 12 cannot be parsed (too large or too deeply nested); the rest compared"]


def test_a_java_syntax_error_is_compared_as_far_as_it_parses():
    normalised = NORMALISERS["java"]({"A.java": "class A { void main() { int x = ; } "}, frozenset())
    assert normalised.notes and "syntax error near line 1" in normalised.notes[0]


# --------------------------------------------------------------------------- winnowing and the index

def test_winnowing_keeps_the_rightmost_minimum_of_every_window_once():
    assert _winnow([5, 3, 4, 3, 9, 1, 7], 3) == [1, 3, 5]
    assert _winnow([4, 2], 3) == [1]
    assert _winnow([], 3) == []


def documents(sources: dict[str, str]):
    return [fingerprint(i, NORMALISERS["python"]({f"{i}.py": s}, frozenset({"f"}))) for i, s in sources.items()]


def test_fragments_shared_by_a_large_part_of_the_class_are_left_out():
    shared = PY_ORIGINAL
    sources = {f"s{i}": shared for i in range(12)}
    docs = documents(sources)
    common = exclude(docs, set(), Options(common_fraction=0.2, common_min=10))
    assert common and all(not d.prints for d in docs)
    assert compare(docs, Options()) == []


def test_starter_code_is_nobodys_evidence():
    hw7 = CORPUS / "hw7_iteration"
    sources = {name: (hw7 / f"{name}.py").read_text() for name in ("indep_loops", "loops_combined")}
    entry = frozenset({"scrabbleScore", "war", "blackJack", "goFish", "wordSearch", "wordSearchHard", "blackJackHard"})

    def docs():
        return [fingerprint(i, NORMALISERS["python"]({f"{i}.py": s}, entry)) for i, s in sources.items()]

    assert compare(docs(), Options())[0].score > 0.8
    starter = {fp.hash for fp in docs()[0].prints}
    handed_out = docs()
    exclude(handed_out, starter, Options())
    assert compare(handed_out, Options()) == []


# --------------------------------------------------------------------------- the command

def write(folder: Path, name: str, data: bytes | str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


def class_with_bad_input(tmp_path: Path) -> Path:
    folder = tmp_path / "class"
    hw7 = CORPUS / "hw7_iteration"
    for name in ("indep_loops.py", "loops_combined.py", "loops_renamed.py", "indep_oop.py", "indep_tidy.py"):
        write(folder, name, (hw7 / name).read_bytes())
    write(folder, "empty.py", "")
    write(folder, "binary.py", b"\x7fELF\x00\x01\x02")
    write(folder, "huge.py", b"x = 1\n" * 200_000)
    write(folder, "broken.py", "def scrabbleScore(a, b)\n    return 'x'\n")
    write(folder, "latin1.py", "s = 'caf\xe9'\n".encode("latin-1"))
    write(folder, "deep.py", "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n")
    return folder


def test_bad_input_is_reported_per_submission_and_the_run_goes_on(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["similarity", HW7, str(class_with_bad_input(tmp_path)), "--out", str(out)]) == ExitCode.OK
    problems = {row["id"]: row for row in csv.DictReader((out / "problems.csv").open())}
    assert "empty" in problems["empty"]["message"] and problems["empty"]["compared"] == "no"
    assert "binary" in problems["binary"]["message"]
    assert "bytes; a source file may have at most" in problems["huge"]["message"]
    assert "no code left to compare" in problems["latin1"]["message"]   # read in its code page, like any file
    assert "syntax error at line 1" in problems["broken"]["message"]
    assert problems["deep"]["compared"] == "no"
    pairs = list(csv.DictReader((out / "pairs.csv").open()))
    top = {pairs[0]["a"], pairs[0]["b"]}
    assert top <= {"indep_loops", "loops_combined", "loops_renamed"}
    shown = capsys.readouterr()
    assert "not compared: empty" in shown.out and "loops_renamed" in shown.out


def test_reports_link_matching_regions_and_show_clusters(tmp_path):
    out = tmp_path / "out"
    assert main(["similarity", HW7, str(CORPUS / "hw7_iteration"), "--out", str(out), "--pages", "3"]) == ExitCode.OK
    rows = list(csv.DictReader((out / "pairs.csv").open()))
    assert set(rows[0]) == {"a", "b", "score", "fraction_a", "fraction_b", "longest_match_tokens", "longest_match_lines", "flagged"}
    assert rows[0]["flagged"] == "yes" and float(rows[0]["score"]) >= 0.5
    page = (out / "pairs" / "0001.html").read_text()
    assert 'id="a0"' in page and 'href="#b' in page and 'id="b0"' in page and 'href="#a' in page
    index = (out / "index.html").read_text()
    assert 'href="pairs/0001.html"' in index and 'href="clusters.html"' in index
    clusters = (out / "clusters.html").read_text()
    assert "loops_combined" in clusters and "indep_oop" not in clusters  # a pair is not a cluster
    # every pair inside a cluster has its page, wherever it ranks
    linked = {p.name for p in (out / "pairs").iterdir()}
    assert len(linked) >= 28


def test_student_controlled_ids_are_escaped_everywhere(tmp_path, capsys):
    folder = tmp_path / "class"
    source = (CORPUS / "hw7_iteration" / "indep_loops.py").read_bytes()
    hostile = "<script>alert(1)<\\script>\x1b[2J=cmd"
    write(folder, "plain.py", source)
    write(folder / hostile, "hw7_iteration.py", source)
    out = tmp_path / "out"
    assert main(["similarity", HW7, str(folder), "--out", str(out)]) == ExitCode.OK
    shown = capsys.readouterr().out
    assert "\x1b" not in shown and "\\x1b[2J" in shown
    for page in [out / "index.html", *(out / "pairs").iterdir()]:
        text = page.read_text()
        assert "<script>" not in text and "&lt;script&gt;" in text
    assert all(not row["a"].startswith("=") and not row["b"].startswith("=")
               for row in csv.DictReader((out / "pairs.csv").open()))


def test_the_spec_can_list_starter_code_and_leave_out_the_reference(tmp_path):
    spec = tmp_path / "hw7.yaml"
    text = (ROOT / "specs" / "hw7_iteration.yaml").read_text().replace("../reference/", str(ROOT / "reference") + "/")
    starter = write(tmp_path, "starter.py", (CORPUS / "hw7_iteration" / "indep_loops.py").read_text())
    spec.write_text(text + f"\nsimilarity:\n  starter: [{starter}]\n  exclude_reference: true\n  threshold: 0.6\n")
    folder = tmp_path / "class"
    write(folder, "a.py", (CORPUS / "hw7_iteration" / "indep_loops.py").read_bytes())
    write(folder, "b.py", (CORPUS / "hw7_iteration" / "loops_renamed.py").read_bytes())
    write(folder, "c.py", (ROOT / "reference" / "hw7_iteration.py").read_bytes())
    write(folder, "d.py", (ROOT / "reference" / "hw7_iteration.py").read_bytes())
    out = tmp_path / "out"
    assert main(["similarity", str(spec), str(folder), "--out", str(out)]) == ExitCode.OK
    assert list(csv.DictReader((out / "pairs.csv").open())) == []


def test_a_bad_similarity_block_is_located(tmp_path, capsys):
    spec = tmp_path / "hw7.yaml"
    text = (ROOT / "specs" / "hw7_iteration.yaml").read_text().replace("../reference/", str(ROOT / "reference") + "/")
    folder = CORPUS / "hw7_iteration"
    # The loader reports every schema problem first, then (on a schema-valid spec) the files it cannot find.
    for block, words in (("  threshold: 2\n", "similarity.threshold"), ("  starter: [missing.py]\n", "similarity.starter[0]: no such file")):
        spec.write_text(text + "\nsimilarity:\n" + block)
        assert main(["similarity", str(spec), str(folder), "--out", str(tmp_path / "o")]) == ExitCode.SPEC_INVALID
        assert words in capsys.readouterr().err


@pytest.mark.parametrize("args", [["--threshold", "1.5"], []])
def test_usage_errors(tmp_path, args):
    lone = write(tmp_path, "one.py", "x = 1\n")
    target = [str(CORPUS / "hw7_iteration")] if args else [str(lone)]
    assert main(["similarity", HW7, *target, "--out", str(tmp_path / "o"), *args]) == ExitCode.USAGE


def test_a_file_without_any_graded_name_keeps_its_uncalled_functions():
    misnamed = "def scrabble(mine, theirs):\n    total = 0\n    for m in mine:\n        total += m\n    return total\n"
    entry = frozenset({"scrabbleScore"})
    assert NORMALISERS["python"]({"a.py": misnamed}, entry).size > 0
    with_graded = misnamed + "\ndef scrabbleScore(a, b):\n    return a > b\n"
    kept = NORMALISERS["python"]({"a.py": with_graded}, entry)
    assert [u.name for u in kept.units] == ["scrabbleScore"]  # the uncalled helper is dead code here
