"""Style checks for Python and Java programs, each finding tied to a line.

The EPL131 handout grades comments, indentation, self-explanatory names and a header
comment (author, written, last updated, how to compile/run, what it does), and asks
for methods rather than one long main. Python is read with ``tokenize`` and ``ast``;
Java with a small lexer (comments, strings and code tokens), never compiled here.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import Counter
from itertools import groupby
from dataclasses import dataclass, field
from typing import Any, Mapping

from grader.judge.verdict import TestResult
from grader.languages import get_language

# (check, share of the style points)
SHARES = {"header": 0.30, "comments": 0.20, "indentation": 0.20, "names": 0.15, "structure": 0.15}
HEADER_FIELDS = (
    ("author", r"author|name|συγγραφ"),
    ("written", r"written|created|date"),
    ("last updated", r"updated|modified|revised"),
    ("how to compile/run", r"compil|execut|\brun\b|usage|python3? |java "),
)
LOOP_COUNTERS = set("ijkxyn_")


@dataclass
class Finding:
    line: int | None
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


@dataclass
class StyleCheck:
    name: str
    share: float                      # 0..1 of this check's points earned
    max_score: float
    summary: str
    findings: list[Finding] = field(default_factory=list)

    @property
    def score(self) -> float:
        return round(self.max_score * max(0.0, min(1.0, self.share)), 4)


@dataclass
class StyleReport:
    checks: list[StyleCheck]

    @property
    def score(self) -> float:
        return round(sum(c.score for c in self.checks), 4)

    @property
    def max_score(self) -> float:
        return round(sum(c.max_score for c in self.checks), 4)

    def tests(self) -> list[TestResult]:
        return [
            TestResult(name=f"style/{c.name}", function="style", visibility="public",
                       status="passed" if c.share >= 0.999 else "failed", score=c.score, max_score=c.max_score,
                       message="; ".join([c.summary, *map(str, c.findings[:8])]))
            for c in self.checks
        ]

    def to_json(self) -> dict[str, Any]:
        return {c.name: {"score": c.score, "max_score": c.max_score, "summary": c.summary,
                         "findings": [{"line": f.line, "message": f.message} for f in c.findings]}
                for c in self.checks}


@dataclass
class Source:
    """What every check needs, from either language."""

    lines: list[str]
    header: str                      # the leading comment block / docstring
    header_line: int | None
    comment_lines: set[int]
    code_lines: set[int]
    names: list[tuple[str, int, str]]        # (name, line, role) of one-letter names that are not loop counters
    functions: list[tuple[str, int, int]]    # (name, first line, last line)
    main_span: tuple[int, int] | None        # lines of main / of the module's top-level statements
    indentation: list[Finding] = field(default_factory=list)
    empty: set[tuple[str, int]] = field(default_factory=set)   # (name, first line) of functions with no statement
    comment_text: dict[int, str] = field(default_factory=dict)  # what the comments on each line say


# ----------------------------------------------------------------------------- Python

def _python_source(text: str) -> Source:
    lines = text.splitlines()
    comments: set[int] = set()
    code: set[int] = set()
    indentation: list[Finding] = []
    units: Counter[int] = Counter()
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        tokens = []
    said: dict[int, str] = {}
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            comments.add(tok.start[0])
            said[tok.start[0]] = tok.string
        elif tok.type == tokenize.STRING and tok.line.strip().startswith(('"""', "'''", 'r"""')):
            comments.update(range(tok.start[0], tok.end[0] + 1))   # docstrings count as comments
            said.update(zip(range(tok.start[0], tok.end[0] + 1), tok.string.split("\n")))
        elif tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
                              tokenize.ENDMARKER, tokenize.ENCODING):
            code.add(tok.start[0])
        if tok.type == tokenize.INDENT:
            if "\t" in tok.string and " " in tok.string:
                indentation.append(Finding(tok.start[0], "tabs and spaces mixed in one indentation"))
            units[len(tok.string.expandtabs(8))] += 1
    tree = ast.parse(text)
    header = ast.get_docstring(tree, clean=False) or ""
    header_line = 1 if header else None
    if not header:
        leading = []
        for number, line in enumerate(lines, 1):
            if line.strip().startswith("#"):
                leading.append(line.strip().lstrip("#"))
                header_line = header_line or number
            elif line.strip():
                break
        header = "\n".join(leading)
    indentation.extend(_python_indent_findings(tree, lines))
    names: list[tuple[str, int, str]] = []
    loop_targets = {id(n) for node in ast.walk(tree) if isinstance(node, (ast.For, ast.comprehension))
                    for n in ast.walk(node.target)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and id(node) not in loop_targets:
            if len(node.id) == 1 and node.id != "_":
                names.append((node.id, node.lineno, "variable"))
        elif isinstance(node, ast.arg) and len(node.arg) == 1 and node.arg != "_":
            names.append((node.arg, node.lineno, "parameter"))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and len(node.name) == 1:
            names.append((node.name, node.lineno, "function"))
    defs = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    functions = [(n.name, n.lineno, n.end_lineno or n.lineno) for n in defs]
    empty = {(n.name, n.lineno) for n in defs    # `pass`, `...` or a docstring only
             if all(isinstance(b, ast.Pass) or (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant)) for b in n.body)}
    main = next((f for f in functions if f[0] == "main"), None)
    top = [n for n in tree.body if not isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom))
           and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    if main:
        main_span = (main[1], main[2])
    elif top:
        main_span = (top[0].lineno, top[-1].end_lineno or top[-1].lineno)
    else:
        main_span = None
    return Source(lines, header, header_line, comments, code, _dedupe(names), functions, main_span, indentation, empty,
                  said)


def _python_indent_findings(tree: ast.AST, lines: list[str]) -> list[Finding]:
    """Blocks indented by a step other than the file's usual one."""
    steps: Counter[int] = Counter()
    samples: list[tuple[int, int]] = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and hasattr(node, "col_offset") and isinstance(body[0], ast.stmt):
            if body[0].lineno == getattr(node, "lineno", -1):
                continue  # one-line block
            step = body[0].col_offset - node.col_offset
            steps[step] += 1
            samples.append((body[0].lineno, step))
    if not steps:
        return []
    usual = steps.most_common(1)[0][0]
    return [Finding(line, f"block indented by {step} columns, elsewhere by {usual}")
            for line, step in samples if step != usual]


# ----------------------------------------------------------------------------- Java

_JAVA_TOKEN = re.compile(
    r'(?P<block>/\*.*?\*/)|(?P<line>//[^\n]*)|(?P<text>"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\')'
    r'|(?P<word>[A-Za-z_$][\w$]*)|(?P<nl>\n)|(?P<other>\S)', re.S)
_JAVA_TYPES = r"(?:int|long|short|byte|double|float|char|boolean|String|Scanner|Random|var|[A-Z]\w*)(?:\s*\[\s*\])*"
_JAVA_KEYWORDS = {"if", "for", "while", "switch", "catch", "return", "new", "else", "do", "try", "synchronized"}


def _java_source(text: str) -> Source:
    lines = text.splitlines()
    comments: set[int] = set()
    code: set[int] = set()
    header, header_line = "", None
    said: dict[int, str] = {}
    stripped = []          # the code with comments and literals blanked, for the regexes below
    line = 1
    for match in _JAVA_TOKEN.finditer(text):
        kind, value = match.lastgroup, match.group()
        span = range(line, line + value.count("\n") + 1)
        if kind in ("block", "line"):
            comments.update(span)
            said.update(zip(span, value.split("\n")))
            if not code:   # every comment before the first code token is the header
                header += value + "\n"
                header_line = header_line or line
            stripped.append("\n" * value.count("\n"))
        elif kind == "nl":
            stripped.append("\n")
        else:
            code.add(line)
            stripped.append(' "" ' if kind == "text" else f" {value} ")
        line += value.count("\n")
    blanked = "".join(stripped)
    names = []
    for match in re.finditer(r"\b" + _JAVA_TYPES + r"\s+([A-Za-z_$])\s*(?=[=;,)])", blanked):
        number = blanked.count("\n", 0, match.start()) + 1
        before = blanked[max(0, match.start() - 12):match.start()]
        name = match.group(1)
        in_for = re.search(r"for\s*\(\s*$", before) is not None
        in_catch = re.search(r"catch\s*\(\s*$", before) is not None
        if not (in_catch or (in_for and name in LOOP_COUNTERS)):
            names.append((name, number, "variable"))
    functions = []
    empty: set[tuple[str, int]] = set()
    for match in re.finditer(r"\b(?:static\s+|public\s+|private\s+|protected\s+|final\s+)*"
                             + _JAVA_TYPES.replace("|var", "|void") + r"\s+(\w+)\s*\([^;{)]*\)\s*(?:throws[\w\s,.]+)?\{",
                             blanked):
        if match.group(1) in _JAVA_KEYWORDS:
            continue
        start = blanked.count("\n", 0, match.start()) + 1
        depth, position = 0, match.end() - 1
        while position < len(blanked):
            depth += {"{": 1, "}": -1}.get(blanked[position], 0)
            if depth == 0:
                break
            position += 1
        functions.append((match.group(1), start, blanked.count("\n", 0, position) + 1))
        if not blanked[match.end():position].strip():
            empty.add((match.group(1), start))
    main = next((f for f in functions if f[0] == "main"), None)
    return Source(lines, header, header_line, comments, code, _dedupe(names), functions,
                  (main[1], main[2]) if main else None, _java_indent_findings(blanked.splitlines(), lines), empty,
                  said)


def _java_indent_findings(code_lines: list[str], lines: list[str]) -> list[Finding]:
    """Lines whose indentation does not follow the structure of the code.

    Each open brace adds a level for its contents, the closing brace returns to the level of
    the line that opened it; a brace-less body (``for (...)`` / ``if (...)`` / ``else`` with no
    ``{``) is one level deeper, nested ones deeper still (the handout's own shuffle nests two
    brace-less ``for`` loops); a ``{`` alone on the line after a header (Allman style) sits at
    the header's level. Continuation lines of a long statement are excused.
    """
    openers: list[int] = []
    pending = 0                   # brace-less headers waiting for their body
    previous = ";"
    widths: Counter[float] = Counter()
    samples: list[tuple[int, int, int]] = []
    for number, (code, raw) in enumerate(zip(code_lines, lines), 1):
        body = code.strip()
        if not body:
            continue
        header_before = bool(re.match(r"^(\}\s*)?(if|for|while|else|do)\b", previous)) and not previous.endswith((";", "{", "}"))
        if previous[-1:] not in (";", "{", "}", ":") and not header_before:
            previous = body if body.endswith((";", "{", "}")) else previous + " " + body
            continue              # a continuation line
        base = openers[-1] + 1 if openers else 0
        if body.startswith("}"):
            level = openers.pop() if openers else 0
        elif body == "{" and pending:
            level = base + pending - 1
        else:
            level = base + pending
        indent = len(raw.expandtabs(4)) - len(raw.expandtabs(4).lstrip())
        if level > 0:
            widths[indent / level] += 1
            samples.append((number, level, indent))
        opens = body.count("{") - body.count("}") + (1 if body.startswith("}") else 0)
        for _ in range(max(opens, 0)):
            openers.append(level)
        header = bool(re.match(r"^(\}\s*)?(if|for|while|else|do)\b", body)) and not body.endswith((";", "{", "}"))
        if header:
            pending += 1
        elif body.endswith(("{", ";", "}")):
            pending = 0
        previous = body
    if not widths:
        return []
    unit = widths.most_common(1)[0][0]
    return [Finding(number, f"indented {indent} columns, expected {int(level * unit)} (depth {level})")
            for number, level, indent in samples if abs(indent - level * unit) > 0.5]


def _dedupe(names: list[tuple[str, int, str]]) -> list[tuple[str, int, str]]:
    seen: dict[str, tuple[str, int, str]] = {}
    for item in names:
        seen.setdefault(item[0], item)
    return sorted(seen.values(), key=lambda item: item[1])


# ----------------------------------------------------------------------------- scoring

def check_style(language: str, file_name: str, text: str, options: Mapping[str, Any] | None = None,
                points: float = 15.0) -> StyleReport:
    """Score the style of one source file; ``points`` are split over the five checks."""
    options = options or {}
    try:
        source = get_language(language).style_source(text)  # each language reads its own source
    except SyntaxError as exc:
        return StyleReport([StyleCheck("header", 0.0, points, f"not analysed: syntax error on line {exc.lineno}")])
    return StyleReport([
        _header(source, points * SHARES["header"]),
        _comments(source, points * SHARES["comments"], float(options.get("min_comment_density", 0.15))),
        _indentation(source, points * SHARES["indentation"]),
        _names(source, points * SHARES["names"], frozenset(options.get("handout_names", ()))),
        _structure(source, points * SHARES["structure"], int(options.get("max_main_lines", 40)),
                   int(options.get("min_functions", 3))),
    ])


def _header(source: Source, points: float) -> StyleCheck:
    text = source.header.lower()
    if not text.strip():
        return StyleCheck("header", 0.0, points, "no header comment at the top of the file",
                          [Finding(1, "start the file with a comment: author, written, last updated, "
                                      "how to compile/run, what the program does")])
    missing = [label for label, pattern in HEADER_FIELDS if not re.search(pattern, text)]
    words = re.findall(r"[a-zα-ω]{3,}", re.sub("|".join(p for _, p in HEADER_FIELDS), " ", text))
    if len(words) < 6:
        missing.append("what the program does")
    share = 1 - len(missing) / (len(HEADER_FIELDS) + 1)
    findings = [Finding(source.header_line, f"the header comment does not say: {m}") for m in missing]
    return StyleCheck("header", share, points, "header comment complete" if not missing else
                      f"header comment lacks {len(missing)} of 5 items", findings)


_WORD = re.compile(r"[^\W\d_]{2,}")      # two letters in a row, in any alphabet (Greek comments count)


def _saying(source: Source) -> tuple[set[int], int]:
    """The comment lines that count, and how many do not, so that filler cannot buy the comment
    points: the same words again (one comment pasted on every line) count once, and a line with
    no words (dashes, stars, a bare ``//``) counts only as the frame of a comment that speaks, as
    many of them in a run of comment lines as that run has lines that say something (a javadoc's
    ``/**``, `` *`` and `` */`` count; a wall of separators does not)."""
    seen: set[str] = set()
    saying: set[int] = set()
    # runs of consecutive comment lines: a line's number less its rank is the same along a run
    for _, run in groupby(enumerate(sorted(source.comment_lines)), key=lambda pair: pair[1] - pair[0]):
        spoken, wordless = 0, []
        for _, number in run:
            words = " ".join(_WORD.findall(source.comment_text.get(number, ""))).lower()
            if not words:
                wordless.append(number)
            elif words not in seen:
                seen.add(words)
                saying.add(number)
                spoken += 1
        saying.update(wordless[:spoken])
    return saying, len(source.comment_lines) - len(saying)


def _comments(source: Source, points: float, minimum: float) -> StyleCheck:
    code = len(source.code_lines)
    saying, filler = _saying(source)
    density = len(saying) / max(code, 1)
    share = min(1.0, density / minimum) if minimum else 1.0
    findings = []
    if share < 1:
        undocumented = [f for f in source.functions if not ({f[1] - 1, f[1], f[1] + 1} & saying)]
        findings = [Finding(start, f"'{name}' has no comment saying what it does") for name, start, _ in undocumented]
    not_counted = f"; {filler} that say nothing new (separators, repeats) not counted" if filler and share < 1 else ""
    return StyleCheck("comments", share, points,
                      f"{len(saying)} commented lines for {code} lines of code "
                      f"({density:.0%}, at least {minimum:.0%} expected{not_counted})", findings)


def _indentation(source: Source, points: float) -> StyleCheck:
    findings = source.indentation
    share = 1.0 - 0.1 * len(findings)
    summary = "consistent indentation" if not findings else f"{len(findings)} line(s) indented inconsistently"
    return StyleCheck("indentation", share, points, summary, findings)


def _names(source: Source, points: float, handout: frozenset[str] = frozenset()) -> StyleCheck:
    """One-letter names, except loop counters and the names of the handout's own code (not the student's choice)."""
    findings = [Finding(line, f"one-letter {role} name '{name}': say what it holds")
                for name, line, role in source.names if name not in handout]
    share = 1.0 - 0.25 * len(findings)
    summary = "self-explanatory names" if not findings else f"{len(findings)} one-letter name(s) outside loop counters"
    if handout & {name for name, _, _ in source.names}:
        summary += " (names from the handout's own code are not counted)"
    return StyleCheck("names", share, points, summary, findings)


def _structure(source: Source, points: float, max_main: int, min_functions: int) -> StyleCheck:
    """Methods besides main (an empty one splits nothing off: it does not count), and main's length."""
    helpers = [f for f in source.functions if f[0] != "main" and (f[0], f[1]) not in source.empty]
    findings = [Finding(start, f"'{name}' is empty: it does not count as a method")
                for name, start, _ in source.functions if (name, start) in source.empty]
    share = 1.0
    if len(helpers) < min_functions:
        share -= 0.5 * (min_functions - len(helpers)) / max(min_functions, 1)
        findings.append(Finding(None, f"{len(helpers)} function(s)/method(s) besides main, at least "
                                      f"{min_functions} expected: split the game into methods"))
    if source.main_span:
        start, end = source.main_span
        length = end - start + 1
        if length > max_main:
            share -= 0.5 * min(1.0, (length - max_main) / max_main)
            findings.append(Finding(start, f"main is {length} lines long (at most {max_main}): move its steps into methods"))
    summary = f"{len(helpers)} function(s)/method(s) besides main"
    return StyleCheck("structure", share, points, summary, findings)
