"""The HTML class report: parsed, checked for offline use and escaping, and screenshotted."""
from __future__ import annotations

import base64
import importlib.util
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
from matplotlib import image as mpimg

from grader.reports import write_reports

FIXTURES = Path(__file__).parent / "fixtures" / "reports"
_spec = importlib.util.spec_from_file_location("reports_batch_html", FIXTURES / "batch.py")
batch = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(batch)

CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def _report(tmp_path) -> Path:
    write_reports(batch.make_batch(), batch.make_spec(), tmp_path, ["html"])
    return tmp_path / "report"


def test_pages_exist_and_links_resolve(tmp_path):
    report = _report(tmp_path)
    index = _parse(report / "index.html")
    links = {a["href"] for tag, a in index.tags if tag == "a"}
    students = {f"students/{p.name}" for p in (report / "students").glob("*.html")}
    assert len(students) == 6
    assert students <= links
    for link in links:
        assert (report / link).is_file(), link
    for page in (report / "students").glob("*.html"):
        back = [a["href"] for tag, a in _parse(page).tags if tag == "a"]
        assert back == ["../index.html"]


def test_self_contained_with_real_charts(tmp_path):
    report = _report(tmp_path)
    for path in [report / "index.html", *sorted((report / "students").glob("*.html"))]:
        page = _parse(path)
        assert not any(tag in ("script", "link", "iframe") for tag, _ in page.tags), path
        for _tag, attrs in page.tags:
            for key in ("src", "href"):
                value = attrs.get(key) or ""
                assert not value.startswith(("http:", "https:", "//")), value
    images = [a for tag, a in _parse(report / "index.html").tags if tag == "img"]
    assert len(images) == 3  # scores, outcomes by function, timing
    for attrs in images:
        prefix = "data:image/png;base64,"
        assert attrs["src"].startswith(prefix) and attrs["alt"]
        png = base64.b64decode(attrs["src"][len(prefix):])
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 5000


def test_class_page_content(tmp_path):
    text = "".join(_parse(_report(tmp_path) / "index.html").text)
    for heading in ("Score distribution", "Functions", "Cases, hardest first", "Timing",
                    "Banned functions", "Submission errors", "Students"):
        assert heading in text
    assert "'line one\\nline 2\\nline three' ×1" in text  # a public wrong answer, counted
    assert "return sum(xs)" in text and "flag only" in text
    assert "function bonus is not defined" in text


def test_student_text_is_escaped(tmp_path):
    report = _report(tmp_path)
    for path in [report / "index.html", *(report / "students").glob("*.html")]:
        raw = path.read_text(encoding="utf-8")
        assert "<script>" not in raw and "<b>lory" not in raw
    mallory = next((report / "students").glob("mal*.html")).read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(" in mallory
    assert "&lt;b&gt;lory&lt;/b&gt;" in mallory


def test_student_pages_show_visible_feedback_only(tmp_path):
    page = "".join(_parse(_report(tmp_path) / "students" / "bob.html").text)
    assert "Score: 10 / 20" in page
    assert "scrabbleScore(1, 2)" in page and "line 2" in page
    assert "4 hidden cases:" in page
    assert "scrabble_random" not in page and "sum_random" not in page


def test_screenshot_in_headless_chromium(tmp_path):
    report = _report(tmp_path)
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    assert browser, "chromium is not installed: run ./install.sh --test"
    shot = tmp_path / "index.png"
    completed = subprocess.run(
        [browser, *CHROMIUM_FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
         f"--screenshot={shot}", "--window-size=1280,2000", (report / "index.html").as_uri()],
        capture_output=True, text=True, timeout=90,
    )
    assert shot.is_file(), completed.stderr[-2000:]
    assert shot.stat().st_size > 50_000
    pixels = mpimg.imread(shot)
    assert pixels.shape[:2] == (2000, 1280)
    gray = pixels[..., :3].mean(axis=2)
    assert gray.std() > 0.05  # not a blank page
    # The charts are drawn: the histogram's blue bars (#1565c0) are somewhere on screen.
    rgb = (pixels[..., :3] * 255).astype(int)
    blue = np.all(np.abs(rgb - np.array([0x15, 0x65, 0xC0])) < 12, axis=2)
    assert blue.sum() > 500
