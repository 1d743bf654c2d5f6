"""The stores of solved results: one protocol, a disk store and a memory store.

:class:`~solver.store.protocol.Store` is what both stores implement: games, best charts
and effects of removal, each looked up by its inputs or computed and kept.
:class:`~solver.store.disk.DiskCache` keeps them between runs in a private SQLite file
(what ``cbj`` uses), :class:`~solver.store.memory.MemoryCache` for the life of the object.
Their parts: :mod:`~solver.store.fingerprint` (the computing code's hash, part of every
key), :mod:`~solver.store.codecs` (results as plain JSON values),
:mod:`~solver.store.payload` (the sectioned zlib format) and :mod:`~solver.store.digest`.

This package imports none of them: ``cbj`` loads the disk store only when a command uses
it, and ``solver`` names the public ones (``solver.DiskCache``, ``solver.MemoryCache``).
"""
