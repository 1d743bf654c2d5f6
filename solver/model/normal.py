"""The normal quantiles that intervals are drawn with (two-sided 90% and 95%), and the levels
at which a distribution is cut.

They are ``statistics.NormalDist().inv_cdf`` of 0.95 and 0.975 written out, so that
importing them costs nothing (a test checks them bit for bit).

>>> round(Z90, 4), round(Z95, 4)
(1.6449, 1.96)
"""

from __future__ import annotations

from fractions import Fraction

#: z of a two-sided 90% normal interval (the volatility index's z).
Z90 = 1.6448536269514715
#: z of a two-sided 95% normal interval.
Z95 = 1.9599639845400536
#: The quantile levels a session's distribution is reported at (``cbj session``).
QUANTILE_LEVELS: tuple[Fraction, ...] = tuple(Fraction(p, 100) for p in (1, 5, 25, 50, 75, 95, 99))
