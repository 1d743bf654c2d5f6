"""The stores of results: a disk store and a memory store, one generic fetch-or-compute.

Both implement :class:`~solver.results.kinds.Store`: :meth:`fetch` of a
:class:`~solver.results.kinds.Kind` of result by its :class:`~solver.results.kinds.Key`,
found kept or computed and kept, whatever the kind.
:class:`~solver.store.disk.DiskCache` keeps results between runs in a private SQLite file
(what ``cbj`` uses), :class:`~solver.store.memory.MemoryCache` for the life of the object.
Their parts: :mod:`~solver.store.fingerprint` (the computing code's hash, part of every
key), :mod:`~solver.store.codecs` (results as plain JSON values: the registry of compact
codecs), :mod:`~solver.store.fields` (any other result, field by field),
:mod:`~solver.store.payload` (the sectioned zlib format) and :mod:`~solver.store.digest`.

This package imports none of them: ``cbj`` loads the disk store only when a command uses
it, and ``solver`` names the public ones (``solver.DiskCache``, ``solver.MemoryCache``).
"""
