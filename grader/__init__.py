"""grader: a sandboxed autograder driven by YAML specs.

The pipeline, one package or module per step:
spec (grader.spec) -> static checks (grader.static) -> run in the sandbox (grader.run)
-> judge (grader.judge) -> store (grader.store) -> reports (grader.reports).
grader.pipeline grades one function submission, grader.batch a class; programs,
tournaments, integrations and executors build on the same steps.
"""

__version__ = "0.1.0"
