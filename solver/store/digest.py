"""SHA-256 in hex for the store: small inputs by CPython's own code, large ones by OpenSSL."""

from __future__ import annotations

try:  # CPython's own SHA-256 (absent from some builds; named _sha2 from Python 3.12 on)
    from _sha256 import sha256 as _small_sha256  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the build
    try:
        from _sha2 import sha256 as _small_sha256  # type: ignore[import-not-found]
    except ImportError:
        _small_sha256 = None

#: Above this many bytes :func:`sha256` hashes with OpenSSL.
SMALL_HASH_BYTES = 64 * 1024


def sha256(data: bytes) -> str:
    """SHA-256 of ``data`` in hex: a few kilobytes by CPython's own code, more by OpenSSL.

    OpenSSL (``hashlib``) hashes about 7 times faster here, but loading it costs a cache
    hit, which hashes only its key and the entry's head, about 10 million instructions.

    >>> sha256(b"")[:16]
    'e3b0c44298fc1c14'
    """
    if len(data) > SMALL_HASH_BYTES or _small_sha256 is None:
        import hashlib  # loaded only for large inputs: see above

        return hashlib.sha256(data).hexdigest()
    return str(_small_sha256(data).hexdigest())
