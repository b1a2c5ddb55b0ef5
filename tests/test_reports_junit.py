"""JUnit XML: valid against a minimal JUnit XSD, with the structure CI tools rely on."""
from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

from lxml import etree

from grader.reports import write_reports

FIXTURES = Path(__file__).parent / "fixtures" / "reports"
_spec = importlib.util.spec_from_file_location("reports_batch_junit", FIXTURES / "batch.py")
batch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(batch)


def _write(tmp_path) -> Path:
    write_reports(batch.make_batch(), batch.make_spec(), tmp_path, ["junit"])
    return tmp_path / "junit.xml"


def test_valid_against_the_junit_xsd(tmp_path):
    schema = etree.XMLSchema(etree.parse(str(FIXTURES / "junit.xsd")))
    document = etree.parse(str(_write(tmp_path)))
    assert schema.validate(document), schema.error_log


def test_the_xsd_catches_a_broken_report():
    schema = etree.XMLSchema(etree.parse(str(FIXTURES / "junit.xsd")))
    broken = etree.fromstring(b"<testsuites><testsuite name='x'><testcase name='a'/></testsuite></testsuites>")
    assert not schema.validate(broken)  # no tests= on the suite, no classname on the case


def test_structure(tmp_path):
    root = ET.parse(_write(tmp_path)).getroot()
    assert root.tag == "testsuites" and root.get("name") == "hw_demo"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites][:2] == ["hw_demo.alice", "hw_demo.bob"]
    for suite in suites:
        cases = suite.findall("testcase")
        assert int(suite.get("tests")) == len(cases)
        assert int(suite.get("failures")) == sum(1 for c in cases if c.find("failure") is not None)
        assert int(suite.get("errors")) == sum(1 for c in cases if c.find("error") is not None)
        pairs = [(c.get("classname"), c.get("name")) for c in cases]
        assert len(pairs) == len(set(pairs))
        for classname, _ in pairs:
            assert classname.startswith(suite.get("name"))
            assert classname.count(".") in (1, 2)
    assert int(root.get("tests")) == sum(int(s.get("tests")) for s in suites)


def test_wrong_answers_fail_and_broken_code_errors(tmp_path):
    root = ET.parse(_write(tmp_path)).getroot()
    suites = {s.get("name"): s for s in root.findall("testsuite")}

    def case(suite, function, name):
        return suites[suite].find(f"testcase[@classname='{suite}.{function}'][@name='{name}']")

    failed = case("hw_demo.bob", "scrabbleScore", "multiline")
    assert failed.find("failure") is not None and failed.find("error") is None
    assert "line two" in failed.find("failure").text
    timeout = case("hw_demo.bob", "sum_list", "sum_random[0]")
    assert timeout.find("error").get("type") == "timeout"
    assert case("hw_demo.carol", "sum_list", "basic").find("error").get("type") == "banned"
    assert case("hw_demo.carol", "bonus", "bonus_case").find("error").get("type") == "error"
    assert case("hw_demo.dave", "scrabbleScore", "multiline").find("error").get("type") == "crashed"
    missing = case("hw_demo.dave", "sum_list", "submission: missing-function")
    assert missing.find("error").get("message") == "function sum_list is not defined"
    syntax = suites["hw_demo.eve"].find("testcase[@name='submission: syntax']")
    assert syntax.find("error") is not None
    assert case("hw_demo.alice", "bonus", "bonus_case").find("*") is None


def test_scores_are_properties(tmp_path):
    root = ET.parse(_write(tmp_path)).getroot()
    carol = [s for s in root.findall("testsuite") if s.get("name") == "hw_demo.carol"][0]
    props = {p.get("name"): p.get("value") for p in carol.find("properties")}
    assert props["score"] == "10" and props["max_score"] == "20"
    assert props["score.sum_list"] == "0/10"
    assert any("hw_demo.py:12:11" in v for k, v in props.items() if k.startswith("violation."))


def test_odd_ids_and_control_characters_stay_well_formed(tmp_path):
    root = ET.parse(_write(tmp_path)).getroot()
    names = [s.get("name") for s in root.findall("testsuite")]
    assert "hw_demo.mal/__/<b>lory</b>" in names  # dots replaced: classnames split on dots
    text = (tmp_path / "junit.xml").read_text(encoding="utf-8")
    assert "\x00" not in text and "\x1b" not in text
