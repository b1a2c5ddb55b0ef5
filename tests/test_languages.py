"""The language registry: built-ins, a course's own language installed as a plug-in, and the
pipeline grading through the interface without knowing which language it runs."""
from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest

from conftest import FIXTURES
from grader.languages import DecodeProblem, NotSupported, UnknownLanguage, get_language, language_names, language_of
from grader.languages import registry
from grader.spec.loader import load_spec
from grader.spec.problems import SpecError
from grader.submissions import discover

TOY = '''
"""A course's own language: Python source in .toy files, graded through the Python child."""
from grader.languages.python import Python


class Toy(Python):
    name = "toy"
    title = "Toy"
    suffixes = (".toy",)

    def open_session(self, sandbox, files, main, watch=()):
        renamed = {name.replace(".toy", ".py"): data for name, data in files.items()}
        return sandbox.session(renamed, main.replace(".toy", ".py"), watch=watch)


TOY_LANGUAGE = Toy()
'''


@pytest.fixture
def toy_installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A package declaring an entry point in group grader.languages, on sys.path like an installed one."""
    site = tmp_path / "site"
    (site / "toy_lang-0.1.dist-info").mkdir(parents=True)
    (site / "toy_lang.py").write_text(TOY)
    (site / "toy_lang-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-lang\nVersion: 0.1\n")
    (site / "toy_lang-0.1.dist-info" / "entry_points.txt").write_text("[grader.languages]\ntoy = toy_lang:TOY_LANGUAGE\n")
    monkeypatch.syspath_prepend(str(site))
    registry.refresh()
    yield
    sys.modules.pop("toy_lang", None)
    registry.refresh()


def test_the_builtin_languages_and_lookup_by_file_name():
    assert language_names()[:2] == ("python", "java")
    assert language_of("Main.java") is get_language("java")
    assert language_of("notes.txt") is None
    with pytest.raises(UnknownLanguage, match="unknown language 'cobol' \\(known: python, java"):
        get_language("cobol")
    # Languages travel to cluster workers by name, never as pickled code.
    assert pickle.loads(pickle.dumps(get_language("python"))) is get_language("python")


def test_main_file_rules_belong_to_the_language():
    files = {"Card.java": b"class Card {}", "Game.java": b"class Game { public static void main(String[] a) {} }"}
    assert get_language("java").find_main(files) == "Game.java"
    assert get_language("python").find_main({"a.py": b"", "b.py": b""}) is None  # ambiguous
    assert get_language("python").find_main({"a.py": b"", "b.py": b""}, ["b.py"]) == "b.py"
    assert get_language("python").decode("x.py", b"x = '\xe9'") == "x = '\xe9'"   # Python's own rules, then a code page
    with pytest.raises(DecodeProblem) as info:
        get_language("matlab").decode("x.m", b"x = '\xe9'")
    assert info.value.kind == "encoding"
    with pytest.raises(NotSupported, match="Java submissions cannot be graded function by function"):
        get_language("java").open_session(None, {}, "Main.java")  # type: ignore[arg-type]


def test_a_spec_naming_an_unknown_language_or_one_that_cannot_serve_calls_is_invalid(tmp_path):
    text = (FIXTURES / "specs" / "mini.yaml").read_text()
    for language, words in (("cobol", "unknown language 'cobol'"), ("java", "cannot be graded function by function")):
        spec = tmp_path / "mini.yaml"
        spec.write_text(text.replace("language: python", f"language: {language}").replace(": mini_", f": {FIXTURES}/specs/mini_"))
        with pytest.raises(SpecError) as info:
            load_spec(spec)
        assert any(words in p.message and p.line == 4 for p in info.value.problems), info.value.problems


def test_a_course_language_installed_as_a_plug_in_is_graded_without_editing_grader(toy_installed, tmp_path):
    from grader.plan import make_plan
    from grader.pipeline import FunctionGrader
    from grader.run.sandbox import Sandbox

    assert "toy" in language_names() and language_of("work.toy") is get_language("toy")
    text = (FIXTURES / "specs" / "mini.yaml").read_text()
    spec_path = tmp_path / "mini.yaml"
    spec_path.write_text(text.replace("language: python", "language: toy").replace("files: [mini.py]", "files: [mini.toy]")
                         .replace(": mini_", f": {FIXTURES}/specs/mini_"))
    spec = load_spec(spec_path)
    assert spec.languages == ("toy",)
    folder = tmp_path / "class"
    folder.mkdir()
    good = (FIXTURES / "specs" / "mini_ref.py").read_text()
    (folder / "alice.toy").write_text(good)
    (folder / "bob.py").write_text(good)
    alice, bob = discover([folder], spec.submission_files, languages=spec.languages)
    assert alice.language == "toy" and not alice.problems
    assert bob.problems[0][0] == "wrong-language" and "hand in a .toy file, not bob.py" in bob.problems[0][1]
    with Sandbox() as sandbox:
        result = FunctionGrader(make_plan(spec), sandbox).grade(alice)
    assert result.score >= result.max_score > 0, [t.message for t in result.tests if not t.passed]
