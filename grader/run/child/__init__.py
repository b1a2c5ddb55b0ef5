"""Child-side harness of the sandboxed runner.

Everything in this folder is standalone (no ``grader`` imports): it is bound
read-only into the sandbox as the package ``_gradechild`` and runs there.
"""
