"""Card counts as data: rank labels, tag vectors, the published systems and their parsing.

Pure data shared by the exact analysis of counts (:mod:`solver.exact.protection`) and the
simulated counter (:mod:`solver.sim.counter`), which must not import each other.
"""

from __future__ import annotations

import re

from solver.model.cards import RANKS, Rank
from solver.model.checks import shown
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
