"""``grader export-student SPEC --out DIR``: a self-check bundle students may have.

The bundle is a folder with two files::

    spec.yaml    a *frozen* spec (``frozen: true``): the same functions, points, comparison
                 modes, bans and time limits, but only the PUBLIC cases, each with its
                 expected value computed by the reference and written in (``expected:``)
    README.txt   the two commands a student runs

What it never contains: the reference, the generators, any hidden case (listed or
generated), the instructor's notes. The loader accepts a frozen spec without
``reference:``; :func:`grader.plan.make_plan` then takes the pins as the answers and
resolves time limits without a reference time, so the exporter writes an absolute
``seconds`` limit into every case whose limit depended on the reference's speed.

Scores in a self-check are spread over the public cases only, so they are not the grade.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from grader.errors import ExitCode, GraderError
from grader.plan import make_plan
from grader.spec.loader import document, load_spec
from grader.spec.model import FunctionSpec, Spec, TimeLimit

SPEC_NAME = "spec.yaml"
VALIDATORS_NAME = "validators.py"
README_NAME = "README.txt"
FUNCTION_KEYS = ("name", "aliases", "description", "params", "points", "extra_credit", "compare", "time_limit", "bans")
TOP_KEYS = ("assignment", "title", "kind", "language", "submission", "defaults", "bans")


@dataclass(frozen=True)
class BundleSummary:
    out_dir: Path
    spec_path: Path
    functions: int
    public_cases: int
    hidden_cases_left_out: int
    functions_left_out: tuple[str, ...]


def _same_after_yaml(value: Any, loaded: Any, strict_sequences: bool) -> bool:
    """Does ``loaded`` (value after a YAML round trip) judge exactly like ``value``?

    A tuple becomes a list, which every comparison mode treats alike unless sequence types
    are strict; anything else must come back with the same type and value.
    """
    if isinstance(value, tuple):
        return not strict_sequences and isinstance(loaded, list) and len(value) == len(loaded) and all(
            _same_after_yaml(v, w, strict_sequences) for v, w in zip(value, loaded))
    if type(value) is not type(loaded):
        return False
    if isinstance(value, list):
        return len(value) == len(loaded) and all(_same_after_yaml(v, w, strict_sequences) for v, w in zip(value, loaded))
    if isinstance(value, dict):
        return value.keys() == loaded.keys() and all(_same_after_yaml(value[k], loaded[k], strict_sequences) for k in value)
    if isinstance(value, float) and math.isnan(value):
        return math.isnan(loaded)
    return value == loaded


def freeze_value(value: Any, where: str, strict_sequences: bool) -> Any:
    """``value`` as plain YAML data, or an error naming the case when YAML cannot hold it."""
    try:
        loaded = yaml.safe_load(yaml.safe_dump({"v": value}))["v"]
    except yaml.YAMLError as exc:
        raise GraderError(f"cannot write the expected value of {where} into a student spec: {type(value).__name__} is not plain YAML data ({exc})") from None
    if not _same_after_yaml(value, loaded, strict_sequences):
        raise GraderError(f"the expected value of {where} does not survive being written as YAML ({value!r} reads back as {loaded!r})",
                          hint="a tuple with `sequence_types: strict`, or a value YAML cannot represent exactly")
    return loaded


def _round_up(seconds: float) -> float:
    return math.ceil(seconds * 100) / 100


def _case_time_limit(raw_case: dict[str, Any], fn: FunctionSpec, effective: TimeLimit, planned_limit: float) -> dict[str, Any] | None:
    """The case's ``time_limit:`` in the bundle: absolute whenever the grader's depended on the reference."""
    if abs(effective.resolve(None) - planned_limit) < 1e-9:
        return raw_case.get("time_limit")
    return {"seconds": _round_up(planned_limit), "floor": effective.floor}


def student_spec_data(spec: Spec) -> tuple[dict[str, Any], list[str]]:
    """The frozen spec as YAML-ready data, and the functions left out for having no public case."""
    if spec.kind != "functions":
        raise GraderError(f"export-student supports function assignments; {spec.assignment} is a {spec.kind} assignment",
                          exit_code=ExitCode.USAGE)
    plan = make_plan(spec, visibility="public")
    raw = document(spec)
    data: dict[str, Any] = {key: raw[key] for key in TOP_KEYS if key in raw}
    data = {**{k: data[k] for k in ("assignment", "title", "kind", "language")}, "frozen": True, **data}
    defaults = dict(data.get("defaults", {}))
    defaults["visibility"] = "public"
    data["defaults"] = defaults
    functions, left_out = [], []
    raw_functions = {f["name"]: f for f in raw.get("functions", [])}
    for fn in spec.functions:
        planned = plan.for_function(fn.name)
        if not planned:
            left_out.append(fn.name)
            continue
        raw_fn = raw_functions[fn.name]
        out_fn = {key: raw_fn[key] for key in FUNCTION_KEYS if key in raw_fn}
        raw_cases = {c.get("name", f"case{i + 1}"): c for i, c in enumerate(raw_fn.get("cases", []))}
        strict = fn.compare.options.get("sequence_types") == "strict"
        cases = []
        for p in planned:
            case = p.case
            raw_case = raw_cases.get(case.name, {})
            out_case: dict[str, Any] = {
                "name": case.name,
                "args": freeze_value(list(case.args), f"{fn.name}: {case.name} (its args)", True),
                "visibility": "public",
                "weight": case.weight,
                "expected": freeze_value(p.expected, f"{fn.name}: {case.name}", strict),
            }
            limit = _case_time_limit(raw_case, fn, case.time_limit or fn.time_limit, p.time_limit)
            if limit:
                out_case["time_limit"] = limit
            cases.append(out_case)
        out_fn["cases"] = cases
        functions.append(out_fn)
    if not functions:
        raise GraderError(f"{spec.assignment} has no public cases to export", exit_code=ExitCode.USAGE)
    data["functions"] = functions
    return data, left_out


def readme_text(spec: Spec, submission: str, left_out: list[str], public: int) -> str:
    lines = [
        f"{spec.title} - self-check",
        "",
        f"This folder holds the {public} PUBLIC test cases of {spec.assignment}, with their expected",
        "answers. Your grade also uses hidden cases, which are not here: passing every case",
        "below is necessary, not sufficient. Points shown by a self-check are spread over the",
        "public cases only, so they are not your grade.",
        "",
        "Your code runs the way the grader runs it: in a sandbox, with the same time limits,",
        "comparisons and banned functions.",
        "",
        "Check your file (needs the `grader` Python package installed):",
        "",
        f"    grader check spec.yaml {submission}",
        "",
        "or, as pytest tests (one test per case, with a diff for every failure):",
        "",
        f"    pytest --grader-spec spec.yaml --submission {submission}",
        "",
        "Run them from this folder, or give the path to spec.yaml and to your file.",
    ]
    if left_out:
        lines += ["", f"Not covered here (hidden cases only): {', '.join(left_out)}."]
    return "\n".join(lines) + "\n"


def export_student_bundle(spec_path: str | Path, out_dir: str | Path) -> BundleSummary:
    from grader.integrations.gradescope_zip import dump_spec

    spec = load_spec(spec_path)
    data, left_out = student_spec_data(spec)
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise GraderError(f"--out {out} exists and is not a folder", exit_code=ExitCode.USAGE)
    out.mkdir(parents=True, exist_ok=True)
    if spec.validators is not None:
        # Validators are rules, not answers: the bundle carries them so many-answer functions check the same way.
        (out / VALIDATORS_NAME).write_bytes(spec.validators.read_bytes())
        data["validators"] = VALIDATORS_NAME
    spec_file = out / SPEC_NAME
    header = (f"{spec.assignment}: {spec.title} - student self-check spec (generated by `grader export-student`).\n"
              "Public cases only; every expected value is frozen in. There is no reference here.")
    text = dump_spec(data, header)
    tmp = spec_file.with_name(SPEC_NAME + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    try:
        frozen = load_spec(tmp)  # the bundle must load on its own, without any reference
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    tmp.replace(spec_file)
    public = len(frozen.cases())
    if public != len(spec.cases("public")):
        raise GraderError("the exported spec lost public cases (internal error)")
    submission = spec.submission_files[0] if spec.submission_files else "your_file.py"
    (out / README_NAME).write_text(readme_text(spec, submission, left_out, public), encoding="utf-8")
    return BundleSummary(out, spec_file, len(frozen.functions), public, len(spec.cases("hidden")), tuple(left_out))
