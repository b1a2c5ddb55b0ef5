"""Console programs go through the language registry: a course's own language, installed as a plug-in,
is built, run and graded by the program engine without an edit under grader/ (grader/programs/ has
no switch on a language's name or a file suffix)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from grader.languages import get_language, registry
from grader.programs.grade import grade_program
from grader.spec.loader import load_spec

ROOT = Path(__file__).resolve().parent.parent

#: A course's language: programs in ".toy" files, Python underneath, built by wrapping the program in a
#: prelude of the course's own and run through the prelude, as a language with its own toolchain would be.
TOY = '''
from grader.languages.base import Build, fill
from grader.languages.python import Python, syntax_error


class Toy(Python):
    name = "toy"
    title = "Toy"
    suffixes = (".toy",)
    default_run = ("python3", "-u", "prelude.py", "{main}")

    def build(self, files, main, *, command=(), run=(), limits=None, profile=None, timeout=60.0, libraries=()):
        sources = {name: data.decode() for name, data in files.items() if self.owns(name)}
        prelude = b"import random, runpy, sys\\nrandom.seed(7)\\nrunpy.run_path(sys.argv[1], run_name='__main__')\\n"
        errors = [e for e in (syntax_error(n, t) for n, t in sources.items()) if e]
        return Build(files={**{n: t.encode() for n, t in sources.items()}, "prelude.py": prelude},
                     argv=fill(run or self.default_run, main=main), main_file=main, sources=sources, errors=errors)


TOY_LANGUAGE = Toy()
'''


@pytest.fixture
def toy_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A package declaring an entry point in group grader.languages, on sys.path like an installed one."""
    site = tmp_path / "site"
    (site / "toy_prog-0.1.dist-info").mkdir(parents=True)
    (site / "toy_prog.py").write_text(TOY)
    (site / "toy_prog-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-prog\nVersion: 0.1\n")
    (site / "toy_prog-0.1.dist-info" / "entry_points.txt").write_text("[grader.languages]\ntoy = toy_prog:TOY_LANGUAGE\n")
    monkeypatch.syspath_prepend(str(site))
    registry.refresh()
    yield
    sys.modules.pop("toy_prog", None)
    registry.refresh()


def _toy_spec(tmp_path: Path) -> Path:
    text = (ROOT / "specs" / "guess_number.yaml").read_text().replace("../reference/", f"{ROOT}/reference/")
    text = text.replace("language: [python, java]", "language: [toy]").replace("files: [guess_number.py]",
                                                                                  "files: [guess.toy]")
    text = re.sub(r"  languages:\n(    .*\n)+", "  languages:\n    toy:\n      run: [python3, -u, prelude.py, \"{main}\"]\n",
                  text, count=1)
    spec = tmp_path / "guess_toy.yaml"
    spec.write_text(text)
    return spec


def test_a_course_console_language_installed_as_a_plug_in_is_graded_by_the_program_engine(toy_installed, tmp_path):
    spec = load_spec(_toy_spec(tmp_path))
    assert list(spec.program.languages) == ["toy"]
    good = (ROOT / "submissions" / "guess_number" / "guess_correct.py").read_bytes()
    result = grade_program(spec, "alice", {"guess.toy": good})
    assert result.extra["language"] == "toy" and result.extra["main_file"] == "guess.toy"
    assert not result.errors, [e.message for e in result.errors]
    assert result.functions["games"].score == result.functions["games"].max_score > 0
    # The course's language decides how its programs are found: a .py file is not one of them.
    missing = grade_program(spec, "bob", {"guess.py": good})
    assert [e.kind for e in missing.errors] == ["missing-file"] and "*.toy" in missing.errors[0].message
    # A broken program is the language's syntax check's finding, with its file and line.
    broken = grade_program(spec, "carol", {"guess.toy": b"def main(:\n    pass\n"})
    assert [e.kind for e in broken.errors] == ["compile-error"] and "guess.toy, line 1" in broken.errors[0].message


def test_the_program_engine_asks_the_language_not_the_file_name():
    engine = "\n".join(p.read_text() for p in (ROOT / "grader" / "programs").glob("*.py"))
    # No switch on a name or a suffix, and no language's error format (tracebacks, stack traces) in the engine.
    assert not re.search(r"""==\s*["'](java|python)["']|["']\.(java|py)["']|\\\.java|Traceback|Exception in""", engine)
    java = get_language("java")
    files = {"Cards.java": b"class Cards {}", "Game.java": b"// main(String[] a) is below\nclass Game {\n"
             b"  public static void main(String[] a) {}\n}\n", "notes.txt": b"x"}
    assert java.program_main(files) == "Game.java" and get_language("python").program_main(files) is None
