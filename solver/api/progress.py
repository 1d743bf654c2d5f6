"""``progress=True``: a progress bar for anything a person waits on, made by tqdm.

A command's ``progress`` is a callback (``progress(done, total)``: for the simulator, rounds
dealt of rounds asked), ``True`` for a bar, or ``None`` / ``False`` for nothing; the API's
door (:func:`solver.api.call.run_of`) turns ``True`` into a bar labelled as the CLI's.  The bar is
``tqdm.auto``'s: the notebook's widget under Jupyter (with ipywidgets: ``pip install
ipywidgets``, or ``pip install '.[notebook]'`` from the project folder), else a text bar on
stderr, so that results on stdout still pipe.  (The CLI draws its own bar on a terminal
only, with click, as it always has.)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

#: A callback told how many steps of how many are done.
StepCallback = Callable[[int, int], None]


def _open(total: int, label: str) -> Any:
    """A tqdm bar of ``total`` steps: the notebook's under Jupyter, else one on stderr.

    (Under Jupyter without ipywidgets, tqdm says so once and draws the text bar.)
    """
    # Only a caller who asks for a bar loads tqdm (every command imports this module).
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=label, file=sys.stderr)


class StepBar:
    """A tqdm bar as a ``progress(done, total)`` callback, opened at the first call and
    closed when ``done`` reaches ``total``."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = _open(total, self.label)
        self.bar.update(done - self.bar.n)
        if done >= total:
            self.bar.close()


def step_progress(progress: StepCallback | bool | None, label: str) -> StepCallback | None:
    """The callback a command's ``progress`` asks for: a bar for ``True``, none for
    ``False``, the caller's own otherwise.

    >>> step_progress(None, "x") is None and step_progress(False, "x") is None
    True
    >>> isinstance(step_progress(True, "solving Bonus cards"), StepBar)
    True
    """
    if progress is True:
        return StepBar(label)
    return None if progress is False else progress
