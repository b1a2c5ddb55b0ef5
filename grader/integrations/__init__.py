"""Integrations with the places a course already lives.

* :mod:`grader.integrations.gradescope_zip` -- ``grader gradescope``: the autograder zip
  an instructor uploads to Gradescope unchanged.
* :mod:`grader.integrations.student_bundle` -- ``grader export-student``: a folder of
  public cases with frozen answers that students run with ``grader check`` or ``pytest``.
* :mod:`grader.pytest_plugin` -- ``pytest --grader-spec SPEC --submission FILE``.

The commands register with the CLI from :mod:`grader.integrations.cli`.
"""
