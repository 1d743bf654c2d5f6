"""The normal quantiles that intervals are drawn with: two-sided 90% and 95%.

They are ``statistics.NormalDist().inv_cdf`` of 0.95 and 0.975 written out, so that
importing them costs nothing (a test checks them bit for bit).

>>> round(Z90, 4), round(Z95, 4)
(1.6449, 1.96)
"""

from __future__ import annotations

#: z of a two-sided 90% normal interval (the volatility index's z).
Z90 = 1.6448536269514715
#: z of a two-sided 95% normal interval.
Z95 = 1.9599639845400536
