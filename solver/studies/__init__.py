"""Studies: what runs both twins (the exact solver and the simulator) or many solves.

Each study returns a result that :mod:`solver.present` renders and :mod:`solver.api`
returns: :mod:`.simulation` (a simulation beside its exact figures), :mod:`.seats` (a
table of players), :mod:`.protection` (the report's game-protection study) and
:mod:`.report` (every figure the report shows).
"""
