"""``grader similarity``: which submissions of a class share code, whatever disguise they wear.

Pipeline, one module per step: languages (which parser-backed normaliser reads a file) ->
python_lang / treesitter_lang (syntax tree to disguise-proof tokens, per function) ->
fingerprint (winnowed k-grams) -> compare (inverted index, exclusions, measured pairs) ->
run (the whole class, problems per submission, clusters) -> reports / html (pairs.csv,
problems.csv, side-by-side pages) -> cli.
"""
