"""The stored payload: a document of plain JSON values as zlib-compressed sections.

The first section (the head) holds the document less its :data:`DEFERRED` parts, each of
which follows in a section of its own, so that reading an entry decodes its head alone and
each deferred part when first used (:class:`Section`).  The head lists the deferred parts
and their SHA-256 digests.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Callable
from functools import partial
from typing import Any

from solver.store.digest import sha256

Json = Any

#: Top-level parts of a document stored apart, so that reading an entry leaves them packed.
DEFERRED = ("solutions",)
#: The most bytes one section may inflate to.  The largest the solver writes is an exact
#: eight-deck game's solutions when the dealer stands on 21 (7.8 MB of JSON, measured; the
#: default game's are 5 MB); four times that leaves room and still bounds a damaged or
#: planted entry (a "zlib bomb") to a few tens of megabytes of memory.
MAX_SECTION_BYTES = 32 * 1024 * 1024


class Section:
    """A part of a stored document kept compressed until :meth:`load` is called.

    ``compressed`` is the part's bytes, or a function that reads them (from the database,
    when the part is first used).
    """

    def __init__(self, compressed: bytes | Callable[[], bytes], digest: str) -> None:
        self.compressed = compressed
        self.digest = digest

    def load(self) -> Json:
        """The part's JSON value; ``ValueError`` if it is not the part the head names."""
        compressed = self.compressed if isinstance(self.compressed, bytes) else self.compressed()
        if sha256(compressed) != self.digest:
            raise ValueError("checksum mismatch")
        return json_of(compressed)


def pack(doc: dict[str, Json]) -> bytes:
    """A document as compressed bytes: the head, then each :data:`DEFERRED` part it has.

    Each section is a 4-byte big-endian length and zlib-compressed JSON; the head lists
    the deferred parts that follow it under ``"deferred"``, and their SHA-256 digests
    under ``"digests"``.

    >>> unpack(pack({"rules": [1, 2]}))
    {'rules': [1, 2]}
    """
    deferred = [name for name in DEFERRED if name in doc]
    parts = [compressed(doc[name]) for name in deferred]
    digests = [sha256(part) for part in parts]
    head = {k: v for k, v in doc.items() if k not in deferred}
    sections = [compressed(head | {"deferred": deferred, "digests": digests}), *parts]
    return b"".join(len(z).to_bytes(4, "big") + z for z in sections)


def head_of(payload: bytes) -> bytes:
    """The first section of a packed document, length included (all of it if malformed)."""
    size = int.from_bytes(payload[:4], "big")
    return payload[: 4 + size] if 4 + size <= len(payload) else payload


def unpack(payload: bytes, whole: Callable[[], bytes] | None = None) -> dict[str, Json]:
    """Inverse of :func:`pack`, deferred parts left as :class:`Section`s.

    With ``whole``, ``payload`` is the head alone (:func:`head_of`) and ``whole()`` returns
    the entire payload, called when a deferred part is first used.  Raises ``ValueError``
    on anything but a packed document.
    """
    sections = _sections(payload)
    doc = json_of(sections[0])
    if not isinstance(doc, dict):
        raise ValueError("not a cache document")
    deferred = doc.pop("deferred", None)
    digests = doc.pop("digests", None)
    parts = len(sections) - 1 if whole is None else None
    if not (isinstance(deferred, list) and isinstance(digests, list)) or not (
        len(deferred) == len(digests) == (len(deferred) if parts is None else parts)
    ):
        raise ValueError("not a cache document: its sections do not match its head")
    for at, (name, digest) in enumerate(zip(deferred, digests, strict=True), 1):
        part = sections[at] if whole is None else partial(_section, whole, at, len(deferred))
        doc[name] = Section(part, digest)
    return doc


def _sections(payload: bytes) -> list[bytes]:
    """The sections of a packed document; ``ValueError`` if it is not one."""
    sections: list[bytes] = []
    at = 0
    while at < len(payload):
        size = int.from_bytes(payload[at : at + 4], "big")
        if at + 4 + size > len(payload):
            raise ValueError("not a cache document: a section runs past the end")
        sections.append(payload[at + 4 : at + 4 + size])
        at += 4 + size
    if not sections:
        raise ValueError("not a cache document: empty")
    return sections


def _section(whole: Callable[[], bytes], at: int, parts: int) -> bytes:
    """Section ``at`` of the payload ``whole()`` returns, which has ``parts`` after its head."""
    sections = _sections(whole())
    if len(sections) != parts + 1:
        raise ValueError("not a cache document: its sections do not match its head")
    return sections[at]


def compressed(value: Json) -> bytes:
    """``value`` as compact JSON, deflated with run-length matches only (``Z_RLE``).

    Most of an entry is Base64 text or long decimal numerators, where zlib's usual search
    for repeated strings finds little: run-length matches and Huffman codes alone give
    float entries within 4% of the fastest level's size (exact ones smaller) in less than
    half the time.  Any zlib stream reads back the same way.
    """
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, allow_nan=False)
    packer = zlib.compressobj(1, zlib.DEFLATED, zlib.MAX_WBITS, 8, zlib.Z_RLE)
    return packer.compress(text.encode()) + packer.flush()


def json_of(compressed: bytes, limit: int = MAX_SECTION_BYTES) -> Json:
    """The JSON value of one compressed section; ``ValueError`` if it is not one, if it
    inflates to more than ``limit`` bytes, or if it holds a number that is not finite
    (``Infinity``, ``NaN`` or one too large for a float: nothing the store writes).

    >>> json_of(compressed({"a": [1, 0.5]}))
    {'a': [1, 0.5]}
    >>> json_of(zlib.compress(b"[Infinity]"))
    Traceback (most recent call last):
    ...
    ValueError: not a cache document: a number that is not finite (Infinity)
    >>> json_of(zlib.compress(b" " * 100), limit=99)
    Traceback (most recent call last):
    ...
    ValueError: not a cache document: it inflates to more than 99 bytes
    """
    inflater = zlib.decompressobj()
    try:
        text = inflater.decompress(compressed, limit)
        if inflater.unconsumed_tail:
            raise ValueError(f"it inflates to more than {limit} bytes")
        if not inflater.eof:
            raise ValueError("the compressed stream is cut short")
        return json.loads(text, parse_constant=_not_finite, parse_float=_finite)
    except (zlib.error, UnicodeDecodeError, RecursionError, ValueError) as error:
        raise ValueError(f"not a cache document: {error}") from None


def _not_finite(text: str) -> float:
    raise ValueError(f"a number that is not finite ({text})")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"a number that is not finite ({text[:20]})")
    return value
