"""Tournaments: students' players of a game play real games against each other (and bots).

The engine knows no game.  A spec names its game plug-in (``tournament.game``, beside the
spec like its reference); :mod:`.game` is the interface it implements (rules, referee,
legal moves, scoring, bots, options).  config (the spec's block, the plug-in loaded and its
options checked) -> runner (seatings from the seed, arenas of sandbox slots; :mod:`.workers`
runs them in worker processes for ``--jobs`` > 1) -> match (one game on the engine's table:
calls, clocks, faults) -> results (games kept in the store) -> standings (openskill ratings
with intervals) -> leaderboard (writers).  ``grader tournament`` lives in :mod:`.cli`.
"""
