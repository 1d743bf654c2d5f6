"""Build the optional compiled kernels; everything else is in pyproject.toml.

The extensions are plain C against Python's own headers (arrays pass through the buffer
protocol, so numpy is not needed to build).  Each is ``optional``: where no C compiler
works the install still succeeds and the solver and the simulator run on numpy (see
``solver/exact/kernel.py`` and ``solver/sim/kernel.py``).  ``-ffp-contract=off`` forbids
fused multiply-adds, so the float kernels round every product and sum as numpy does.

A wheel or an sdist built from a git checkout carries the commit it was built from, in
``solver/model/_commit.py`` (``cbj --version`` names it); the version itself is
``pyproject.toml``'s.  Git is asked locally, nothing is fetched.
"""

import runpy
from pathlib import Path
from typing import Any

import setuptools
from setuptools import Extension
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

FLAGS = ["-O2", "-ffp-contract=off", "-fvect-cost-model=dynamic"]
#: The exact side's extension: the module, then its kernels by what they compute (over the
#: shared helpers of solver/exact/_native.h).
EXACT_SOURCES = ("_native", "_ends", "_fold", "_modular", "_player", "_shoes")

HERE = Path(__file__).resolve().parent
#: The checkout's commit, or None when built from an sdist (which carries its own).
COMMIT = runpy.run_path(str(HERE / "solver" / "model" / "version.py"))["checkout_commit"](HERE)


def write_commit(root: str) -> None:
    """Write the commit into the package under ``root`` (a build or release folder)."""
    if COMMIT is not None:
        path = Path(root) / "solver" / "model" / "_commit.py"
        path.write_text(f'"""Written by setup.py."""\n\nCOMMIT = "{COMMIT}"\n', encoding="utf-8")


class BuildPy(build_py):
    """Build the modules, and the commit beside them (not for an editable install: that
    asks git as it runs)."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False):
            write_commit(self.build_lib)


class Sdist(sdist):
    """Make the sdist's folder, with the commit in it."""

    def make_release_tree(self, base_dir: str, files: Any) -> None:
        super().make_release_tree(base_dir, files)
        write_commit(base_dir)


def setup(**attributes: Any) -> None:
    """setuptools' ``setup``, with the two commands above."""
    setuptools.setup(cmdclass={"build_py": BuildPy, "sdist": Sdist}, **attributes)


setup(
    ext_modules=[
        Extension(
            "solver.exact._native",
            sources=[f"solver/exact/{name}.c" for name in EXACT_SOURCES],
            depends=["solver/exact/_native.h"],
            extra_compile_args=FLAGS,
            optional=True,
        ),
        Extension(
            "solver.sim._deal",
            sources=["solver/sim/_deal.c"],
            extra_compile_args=FLAGS,
            optional=True,
        ),
    ]
)
