"""The package's version and the commit it was built from, as ``cbj --version`` says them.

The version is written in one place, ``pyproject.toml``, and read here from the installed
package's metadata.  The commit is written by the build (``setup.py`` puts it in
``solver/model/_commit.py`` of a wheel or an sdist made from a git checkout); a copy run
from a checkout (an editable install) asks git, so it names the commit checked out now.
Standard library only: ``setup.py`` runs this module by its path, without the package.
"""

from __future__ import annotations

import importlib
import subprocess
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

DISTRIBUTION = "community-blackjack"
#: The module a build writes the commit into; absent from a source checkout.
COMMIT_MODULE = "solver.model._commit"
#: The checkout this module lies in, when run from one.
CHECKOUT = Path(__file__).resolve().parents[2]


def _git(folder: Path, *argv: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), *argv], capture_output=True, text=True, timeout=30, check=True
    )
    return done.stdout.strip()


def checkout_commit(folder: Path) -> str | None:
    """The commit checked out in ``folder`` (12 hex digits, ``-dirty`` when a tracked file
    has changed), or None where ``folder`` is no git checkout or git cannot say.

    >>> checkout_commit(Path("/")) is None
    True
    """
    if not (folder / ".git").exists():
        return None
    try:
        head = _git(folder, "rev-parse", "--short=12", "HEAD")
        changed = _git(folder, "status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{head}-dirty" if changed else head


def built_commit() -> str | None:
    """The commit this copy of the package was built from, or None if no one knows."""
    try:
        written: str = importlib.import_module(COMMIT_MODULE).COMMIT
    except ImportError:
        return checkout_commit(CHECKOUT)
    return written


def package_version() -> str:
    """The installed package's version (``pyproject.toml``'s)."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # run from a folder that was never installed
        return "unknown (not installed)"


def described() -> str:
    """The version, with the commit it was built from where that is known.

    >>> described().startswith(package_version())
    True
    """
    commit = built_commit()
    return package_version() if commit is None else f"{package_version()}, commit {commit}"
