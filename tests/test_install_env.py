"""The grader's own environment reaches sandboxed student code wherever it lives.

A CI clone or a venv under /tmp must work: the sandbox's /tmp is private, so an
interpreter environment there is bound beside it (grader.run._bwrap.inside)."""
from __future__ import annotations

import os

import pytest

from grader.run import _bwrap
from grader.run.sandbox import Limits, Sandbox, probe


@pytest.fixture(scope="module")
def profile():
    p = probe()
    assert p.secure, f"secure isolation unavailable: {p.describe()}"
    return p


def test_a_site_folder_under_tmp_is_importable_in_the_sandbox(profile, tmp_path, monkeypatch):
    site = tmp_path / "site"
    (site / "envmod").mkdir(parents=True)
    (site / "envmod" / "__init__.py").write_text("ANSWER = 42\n")
    assert str(site.resolve()).startswith("/tmp/")
    shipped = _bwrap.site_dirs()
    monkeypatch.setattr(_bwrap, "site_dirs", lambda: [*shipped, str(site.resolve())])
    src = "import envmod\ndef f():\n    return envmod.ANSWER\n"
    with Sandbox(profile, Limits(), slot=9) as sb, sb.session({"hw.py": src}, "hw.py") as s:
        assert s.load.ok, s.load
        r = s.call("f", [], time_limit=2)
        assert r.status == "ok" and r.value == 42, r


def test_numpy_of_the_graders_environment_is_importable(profile):
    src = "import numpy as np\ndef f():\n    return int(np.arange(4).sum())\n"
    with Sandbox(profile, Limits(), slot=9) as sb, sb.session({"hw.py": src}, "hw.py") as s:
        assert s.load.ok, s.load
        r = s.call("f", [], time_limit=5)
        assert r.status == "ok" and r.value == 6, r


def test_paths_under_tmp_are_shown_beside_the_private_tmp():
    assert _bwrap.inside("/tmp/ci/.venv/lib") == _bwrap.HOST_TMP_VIEW + "/tmp/ci/.venv/lib"
    assert _bwrap.inside("/usr/lib/python3") == "/usr/lib/python3"
    assert _bwrap.inside("/tmpfoo") == "/tmpfoo"
    assert os.path.isabs(_bwrap.HOST_TMP_VIEW) and not _bwrap.HOST_TMP_VIEW.startswith("/tmp")
