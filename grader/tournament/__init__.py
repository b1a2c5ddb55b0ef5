"""Tournament mode for COMP10001-Go: students' players play real games against each other.

config (the spec's ``tournament:`` block) -> runner (seatings from the seed, workers with
sandbox slots) -> referee (one game by the rules, faults caught and recorded) -> standings
(ratings, figures) -> leaderboard (writers).  ``grader tournament`` lives in :mod:`.cli`.
"""
