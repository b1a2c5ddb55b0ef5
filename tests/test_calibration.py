"""Absolute time limits scale with the grading machine's speed, measured on a stated workload."""
from __future__ import annotations

from pathlib import Path

from grader.calibration import Calibration, calibrate, measure, workload
from grader.plan import make_plan
from grader.reports.json_report import summarize
from grader.spec.loader import load_spec

ROOT = Path(__file__).resolve().parent.parent


def test_workload_is_deterministic_and_measured_once_per_process():
    assert workload(3) == workload(3)
    assert measure() == measure() > 0
    assert calibrate(None) is None


def test_factor_is_measured_over_stated():
    assert Calibration(stated_s=0.1, measured_s=0.15).factor == 0.15 / 0.1


def test_absolute_limits_and_floors_are_scaled_by_the_factor(tmp_path):
    text = (ROOT / "tests" / "fixtures" / "specs" / "mini.yaml").read_text()
    stated = measure() / 3  # a machine three times faster set these limits
    (tmp_path / "mini.yaml").write_text(text.replace("defaults:\n", f"calibration: {{seconds: {stated!r}}}\ndefaults:\n"))
    for name in ("mini_ref.py", "mini_cases.py"):
        (tmp_path / name).write_text((ROOT / "tests" / "fixtures" / "specs" / name).read_text())
    plan = make_plan(load_spec(tmp_path / "mini.yaml"))
    assert plan.calibration is not None and abs(plan.calibration.factor - 3) < 1e-9
    limits = {p.time_limit for p in plan.for_function("add")}
    assert limits == {1 * plan.calibration.factor}  # mini.yaml: time_limit {seconds: 1}
    plain = make_plan(load_spec(ROOT / "tests" / "fixtures" / "specs" / "mini.yaml"))
    assert plain.calibration is None and {p.time_limit for p in plain.for_function("add")} == {1.0}


def test_summary_reports_the_factor():
    spec = load_spec(ROOT / "specs" / "comp10001go.yaml")
    summary = summarize([], spec)
    assert summary["time_limits"]["stated_s"] == 0.105
    assert summary["time_limits"]["factor"] > 0 and "workload" in summary["time_limits"]
