"""Style checks: each finding names its line."""
from grader.static.style import check_style

PY_BAD = "import random\nx = 1\ndef main():\n  for i in range(3):\n      print(i)\nmain()\n"
JAVA_GOOD = """/**
 * Author: A. Student
 * Written: 01/10/2017
 * Last updated: 02/10/2017
 * Compilation: javac Game.java   Execution: java Game
 * Plays a tiny game of cards against the computer dealer.
 */
public class Game {
    // how many cards
    static int count(int limit) {
        int total = 0;
        for (int i = 0; i < limit; i++)
            total += i;
        return total;
    }
}
"""


def test_python_findings_have_lines():
    report = check_style("python", "a.py", PY_BAD, points=15)
    data = report.to_json()
    assert data["header"]["score"] == 0
    assert any(f["line"] == 2 and "'x'" in f["message"] for f in data["names"]["findings"])
    assert any(f["line"] == 5 for f in data["indentation"]["findings"])
    assert report.score < report.max_score


def test_java_header_names_indentation():
    data = check_style("java", "Game.java", JAVA_GOOD, points=15).to_json()
    assert data["header"]["findings"] == []
    assert data["names"]["findings"] == []          # i is a loop counter
    assert data["indentation"]["findings"] == []    # braceless for body is one level deeper
    bad = JAVA_GOOD.replace("        int total = 0;", "      int t = 0;")
    data = check_style("java", "Game.java", bad, points=15).to_json()
    assert any(f["line"] == 11 for f in data["indentation"]["findings"])
    assert any("'t'" in f["message"] for f in data["names"]["findings"])


def test_an_empty_method_is_not_a_method_of_the_game():
    """The handout asks for the game split into methods: empty ones, added for the count, split nothing off."""
    java = ("/** Author: A. Written: 1/1. Last updated: 2/1. Run: java Game. Plays one game of cards at the console. */\n"
            "public class Game {\n    static void a() {\n    }\n\n    static void b() { }\n\n"
            "    static int c() {\n        return 1;\n    }\n\n    public static void main(String[] args) {\n"
            "        System.out.println(c());\n    }\n}\n")
    structure = {t.name: t for t in check_style("java", "Game.java", java, {"min_functions": 3}).tests()}["style/structure"]
    assert structure.status == "failed" and "'a' is empty" in structure.message and "'b' is empty" in structure.message
    assert "1 function(s)/method(s) besides main, at least 3 expected" in structure.message
    python = 'def a():\n    pass\n\n\ndef b():\n    """Nothing."""\n\n\ndef c():\n    return 1\n'
    structure = {t.name: t for t in check_style("python", "x.py", python, {"min_functions": 2}).tests()}["style/structure"]
    assert "'a' is empty" in structure.message and "'b' is empty" in structure.message and structure.status == "failed"


def test_filler_comments_do_not_buy_the_comment_points():
    """A wall of separators, or one comment pasted on every line, is not documentation; the frame
    of a javadoc that speaks (``/**``, `` *``, `` */``) is, in Java and in Python alike."""
    body = "".join(f"        total += {n};\n" for n in range(20))
    java = JAVA_GOOD.replace("        return total;\n", body + "        return total;\n")
    def comments(text, language="java", name="Game.java"):
        return check_style(language, name, text, {"min_comment_density": 0.3}, points=15).to_json()["comments"]
    honest = comments(java)
    walls = comments(java.replace("        return total;\n", "        // ----------\n" * 12 + "        return total;\n"))
    pasted = comments(java.replace(";\n", "; // add\n"))
    assert walls["score"] == honest["score"] and "12 that say nothing new" in walls["summary"]
    assert pasted["score"] == comments(java.replace("int total = 0;", "int total = 0; // add"))["score"]
    said = comments(java.replace("        return total;\n", "".join(f"        // step {w} adds\n" for w in "abcdefghijkl")
                                 + "        return total;\n"))
    assert said["score"] > honest["score"]            # twelve lines that do say something count
    assert comments(JAVA_GOOD)["summary"].startswith("8 commented lines")   # the javadoc's frame counts
    python = '"""\nAuthor: A. Student\nPlays cards.\n"""\n\n' + "".join(f"x{n} = {n}\n" for n in range(10))
    assert comments(python, "python", "a.py")["summary"].startswith("4 commented lines")
    assert comments(python + "#\n#####\n# - - -\n", "python", "a.py")["summary"].startswith("4 commented lines")
