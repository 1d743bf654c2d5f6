"""Card counts as data: rank labels, tag vectors, the published systems and their parsing.

Pure data shared by the exact analysis of counts (:mod:`solver.exact.protection`) and the
simulated counter (:mod:`solver.sim.counter`), which must not import each other.
"""

from __future__ import annotations

import math
import re

from solver.model.cards import RANKS, Rank
from solver.model.checks import is_whole, shown
from solver.model.errors import CountError


def rank_label(rank: Rank) -> str:
    """A rank as a JSON key and table label: ``A``, ``2``..``9``, ``T``, ``J``, ``Q``, ``K``.

    >>> rank_label(Rank.TEN), rank_label(Rank.ACE)
    ('T', 'A')
    """
    return "T" if rank is Rank.TEN else rank.value


LABELS = tuple(rank_label(r) for r in RANKS)


Tags = dict[str, int]

#: Published counts, tags by rank.  Sources: Hi-Lo, Harvey Dubner (1963) as given in
#: Stanford Wong, *Professional Blackjack* (1994); KO, Vancura and Fuchs, *Knock-Out
#: Blackjack* (1998); Hi-Opt I, Lance Humble, *The World's Greatest Blackjack Book* (1980);
#: Omega II, Bryce Carlson, *Blackjack for Blood* (2001).
SYSTEMS: dict[str, Tags] = {
    "hi-lo": {"A": -1, **dict.fromkeys("23456", 1), **dict.fromkeys("789", 0)},
    "ko": {"A": -1, **dict.fromkeys("234567", 1), **dict.fromkeys("89", 0)},
    "hi-opt-i": {"A": 0, "2": 0, **dict.fromkeys("3456", 1), **dict.fromkeys("789", 0)},
    "omega-ii": {"A": 0, "2": 1, "3": 1, "4": 2, "5": 2, "6": 2, "7": 1, "8": 0, "9": -1},
}
for _tags, _ten in zip(SYSTEMS.values(), (-1, -1, -1, -2), strict=True):
    _tags.update(dict.fromkeys("TJQK", _ten))

_TAG_PATTERN = re.compile(r"^(10|[2-9]|[atjqk])\s*=\s*([+-]?\d{1,2})$", re.IGNORECASE | re.ASCII)


def parse_tags(text: str) -> Tags:
    """Tags given as ``A=-1,2=1,...``: every rank once; ``T`` alone covers T, J, Q and K.

    >>> parse_tags("A=-1,2=1,3=1,4=1,5=1,6=1,7=0,8=0,9=0,T=-1")["K"]
    -1
    """
    tags: Tags = {}
    for item in text.split(","):
        match = _TAG_PATTERN.match(item.strip())
        if match is None:
            raise CountError(
                f"tag {shown(item.strip())} is not RANK=WHOLE NUMBER (ranks A 2-9 T J Q K, "
                "tags -99..99), e.g. 'A=-1,2=1,...,T=-1'"
            )
        rank, tag = match.group(1).upper(), int(match.group(2))
        rank = "T" if rank == "10" else rank
        if rank in tags:
            raise CountError(f"rank {rank} is tagged twice in {shown(text)}")
        tags[rank] = tag
    if "T" in tags and not any(r in tags for r in "JQK"):
        tags.update(dict.fromkeys("JQK", tags["T"]))
    missing = [r for r in LABELS if r not in tags]
    if missing:
        raise CountError(
            f"tags {shown(text)} leave out rank(s) {', '.join(missing)}: tag every rank "
            "(T alone covers J, Q and K)"
        )
    if len(set(tags.values())) == 1:
        raise CountError(f"tags {shown(text)} give every rank the same tag: that count never moves")
    return {r: tags[r] for r in LABELS}


def system_tags(name: str) -> Tags:
    """The tags of a published system by name (see :data:`SYSTEMS`)."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key not in SYSTEMS:
        raise CountError(f"unknown count system {shown(name)}: use one of {', '.join(SYSTEMS)}")
    return dict(SYSTEMS[key])


def count_tags(text: str) -> tuple[str, Tags]:
    """A count given as a published system's name or as tags: its name and its tags.

    Text with ``=`` in it is a tag vector (named ``tags``), anything else a system name.

    >>> count_tags("Hi-Lo")[0], count_tags("A=-1,2=0,3=0,4=0,5=0,6=0,7=0,8=0,9=0,T=0")[0]
    ('hi-lo', 'tags')
    """
    if "=" in text:
        return "tags", parse_tags(text)
    tags = system_tags(text)
    return next(name for name, known in SYSTEMS.items() if known == tags), tags


#: The largest bet a counter's spread or ramp may name, in units.
MAX_UNITS = 1000
#: Largest true count, in size, a ramp step or a wong-out point may name.
MAX_TRUE_COUNT = 100

_SPREAD = re.compile(r"^\s*(\d{1,6})\s*-\s*(\d{1,6})\s*$", re.ASCII)
_NUMBER = r"[+-]?(?:\d{1,6}(?:\.\d{0,6})?|\.\d{1,6})"
_STEP = re.compile(rf"^\s*({_NUMBER})\s*:\s*(\d{{1,6}})\s*$", re.ASCII)


def parse_spread(text: str) -> tuple[int, int]:
    """A bet spread ``MIN-MAX`` in whole units, ``1 <= MIN <= MAX <= 1000``.

    >>> parse_spread("1-8")
    (1, 8)
    """
    match = _SPREAD.match(text)
    if match is None:
        raise CountError(f"spread {text[:40]!r} is not MIN-MAX in whole units, e.g. 1-8")
    low, high = int(match.group(1)), int(match.group(2))
    if low < 1:
        raise CountError(f"spread {text.strip()}: the smallest bet must be at least 1 unit")
    if high < low:
        raise CountError(f"spread {text.strip()}: give the smallest bet first, e.g. {high}-{low}")
    if high > MAX_UNITS:
        raise CountError(f"spread {text.strip()}: the largest bet may be at most {MAX_UNITS}")
    return low, high


def spread_pair(value: object) -> tuple[int, int]:
    """A bet spread given as values, ``(MIN, MAX)``, checked as :func:`parse_spread` checks it.

    >>> spread_pair((1, 8))
    (1, 8)
    """
    if not isinstance(value, list | tuple):
        raise TypeError(f"spread must be str or a sequence of int, not {type(value).__name__}")
    if len(value) != 2 or not all(is_whole(v) and abs(v) <= 10**6 for v in value):
        raise CountError(f"spread {shown(value)} is not (MIN, MAX) in whole units, e.g. (1, 8)")
    return parse_spread(f"{value[0]}-{value[1]}")


def parse_true_count(text: str | float, what: str) -> float:
    """A true count given as text or a number, at most 100 in size."""
    if isinstance(text, str):
        if re.fullmatch(rf"\s*{_NUMBER}\s*", text, re.ASCII) is None:
            raise CountError(f"{what} {text[:40]!r} is not a true count, e.g. -1 or 2.5")
        value = float(text)
    elif not (is_whole(text) or isinstance(text, float)):
        raise CountError(f"{what} {text!r} is not a true count, e.g. -1 or 2.5")
    else:
        value = float(text)
    if not (math.isfinite(value) and abs(value) <= MAX_TRUE_COUNT):
        raise CountError(f"{what} {text!r} is out of range: use a true count from -100 to 100")
    return value


def parse_ramp(text: str) -> tuple[tuple[float, int], ...]:
    """A bet ramp ``TC:UNITS,...``: bet UNITS from true count TC up, until the next step.

    >>> parse_ramp("3:4, 2:2")
    ((2.0, 2), (3.0, 4))
    """
    steps: dict[float, int] = {}
    for item in text.split(","):
        match = _STEP.match(item)
        if match is None:
            raise CountError(
                f"ramp step {item.strip()[:40]!r} is not TRUE COUNT:UNITS, e.g. '2:2,3:4,4:8'"
            )
        threshold = parse_true_count(match.group(1), "ramp true count")
        units = int(match.group(2))
        if not 1 <= units <= MAX_UNITS:
            raise CountError(f"ramp step {item.strip()!r}: bet from 1 to {MAX_UNITS} units")
        if threshold in steps:
            raise CountError(f"ramp {text.strip()[:40]!r} gives true count {threshold:g} twice")
        steps[threshold] = units
    return tuple(sorted(steps.items()))
