"""Run the command line as ``python -m solver``."""

from solver.cli import main

main()
