"""Results: the frozen types every command returns, their ``to_json``, and the kinds a store keeps.

A layer between :mod:`solver.model` and the solvers: :mod:`solver.exact`, :mod:`solver.sim`
and :mod:`solver.studies` return these types, :mod:`solver.present` and the stores read
them, and nothing here imports a solver, the simulator or numpy (the model and the
standard library only).  A result's derived figures (an expected value, a variance) are
its own properties; what needs a solver to compute stays with the solver.

One module per subject: :mod:`.game` (a solved game, one hand's advice, the dealer's
distributions, the decision graph), :mod:`.bonus` (the Bonus wager), :mod:`.volatility`
(session ranges, the round at other Bonus ratios), :mod:`.charts` (the printable chart and
its costs), :mod:`.paytable` (paytable design and rule variants), :mod:`.protection`
(effects of removal, counts, shoe states, the report's protection study), :mod:`.session`
(a session's distribution and the risk of ruin), :mod:`.simulation` (a simulation's counts
and estimates, a counter's settings, a table's hold), :mod:`.seats` (a table of players),
:mod:`.strategies` (realistic play), :mod:`.report` (the report's figures), the
advantage player's :mod:`.dealt_shoes`, :mod:`.indices`, :mod:`.betting`, :mod:`.attack`
and :mod:`.count_search`, the casino's :mod:`.hold`, and
:mod:`.kinds` (the kinds of result a store keeps, their keys, and the one method of a
store).
"""
