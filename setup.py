"""Build the optional compiled kernels; everything else is in pyproject.toml.

The extensions are plain C against Python's own headers (arrays pass through the buffer
protocol, so numpy is not needed to build).  Each is ``optional``: where no C compiler
works the install still succeeds and the solver and the simulator run on numpy (see
``solver/exact/kernel.py`` and ``solver/sim/kernel.py``).  ``-ffp-contract=off`` forbids
fused multiply-adds, so the float kernels round every product and sum as numpy does.
"""

from setuptools import Extension, setup

FLAGS = ["-O2", "-ffp-contract=off", "-fvect-cost-model=dynamic"]
#: The exact side's extension: the module, then its kernels by what they compute (over the
#: shared helpers of solver/exact/_native.h).
EXACT_SOURCES = ("_native", "_ends", "_fold", "_modular", "_player", "_shoes")

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
