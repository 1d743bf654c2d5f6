"""The command's process: a thread failing while the command is torn down says nothing.

Each case runs in a fresh interpreter, so that the handlers and the thread hook it sets are
never pytest's own.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

#: A command's set-up, then a thread that fails, before or after a stop signal came.
SCRIPT = """
import signal, sys, threading
from solver.model import process
process.stop_on_signals()
if sys.argv[1] == "stopping":
    try:
        signal.raise_signal(signal.SIGTERM)
    except process.Terminated:
        pass
def fail():
    raise KeyError(50)  # as loky's manager thread, looking up a task already gone
thread = threading.Thread(target=fail, name="ExecutorManagerThread")
thread.start()
thread.join()
"""


@pytest.mark.parametrize(("when", "printed"), [("stopping", False), ("working", True)])
def test_a_failing_thread_is_quiet_only_once_the_command_is_stopping(
    when: str, printed: bool
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, when], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert ("Traceback" in done.stderr) is printed, done.stderr
    assert ("KeyError: 50" in done.stderr) is printed


def test_ctrl_c_marks_the_command_as_stopping() -> None:
    # Ctrl-C live, as at a terminal: a command started in the background by a shell
    # without job control inherits SIGINT ignored, and an ignored signal stays ignored.
    script = """
import signal
signal.signal(signal.SIGINT, signal.default_int_handler)
from solver.model import process
process.stop_on_signals()
try:
    signal.raise_signal(signal.SIGINT)
except KeyboardInterrupt:
    print("interrupted", process.STOPPING.is_set())
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.stdout.strip() == "interrupted True", done.stderr
