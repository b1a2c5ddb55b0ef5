"""``grader audit``: measure how strong a spec's cases are by mutation testing its reference.

mutate.py makes the mutants, run.py judges them against the spec's cases (and fresh
generator inputs) in parallel worker processes, report.py scores each graded function and
suggests cases that kill the survivors, corpus.py lists known-bug submissions that still get
full marks.
"""
