"""The command's process and what surrounds it: signals that stop it, an output that fails.

``cbj`` treats SIGTERM and SIGHUP as it treats Ctrl-C: :func:`stop_on_signals` turns each
into :class:`Terminated` (a ``KeyboardInterrupt``), so the same clean-up runs (workers
stopped, temporary files removed) and the exit status is 128 + the signal's number.
:func:`guard_stdout` makes a standard output that cannot be written (a full disk, a
closed descriptor) fail with one :class:`StdoutError` line instead of a traceback or a
silent success; a reader that goes away (``| head``) is :class:`ReaderGone`, which the
CLI ends quietly with status 0 (click would turn a ``BrokenPipeError`` into status 1).
:func:`private_matplotlib_folder` keeps matplotlib's warnings about an unwritable home off
stderr.  :func:`start` does all three for the command.

A job (the workbench's) is stopped through its :class:`StopFlag`: the work runs under it
(:func:`stoppable`), and every long step of the solver calls :func:`check_stop` at a bounded
interval (between simulated chunks, solved shoes, chart cells, report sections, drawn
pages), which raises :class:`Stopped` once the flag is set.  Outside a job it does nothing.
"""

from __future__ import annotations

import errno
import io
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from types import FrameType
from typing import TYPE_CHECKING

from solver.model.errors import OutputError

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer as Buffer

#: The signals that stop a command as Ctrl-C does.
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class Terminated(KeyboardInterrupt):
    """A stop signal (SIGTERM, SIGHUP) raised in the main thread, as Ctrl-C is."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


class ReaderGone(BaseException):
    """The reader of standard output went away (``cbj chart | head``): end quietly.

    Not an ``OSError``, so that nothing on the way (click) mistakes it for a failure.
    """


class StdoutError(OutputError):
    """Standard output cannot be written (closed, full, failing)."""


class Stopped(BaseException):
    """Raised inside a job's work at its next :func:`check_stop` once it has been stopped.

    A ``BaseException``, so that the solver's own ``except Exception`` clauses let it through.
    """


class StopFlag:
    """A job's stop flag: clear until :meth:`set`, then the reason the job was stopped.

    >>> flag = StopFlag()
    >>> flag.reason, flag.set("stopped at your request"), flag.reason
    ('', None, 'stopped at your request')
    """

    __slots__ = ("reason",)

    def __init__(self) -> None:
        self.reason = ""

    def set(self, reason: str) -> None:
        """Stop the work under this flag at its next check, saying ``reason``."""
        self.reason = reason or "stopped"


#: The flag of the job whose work runs in this thread (None outside a job).
_FLAG: ContextVar[StopFlag | None] = ContextVar("cbj_stop_flag", default=None)


def check_stop() -> None:
    """Raise :class:`Stopped` if the job running in this thread has been stopped.

    Cheap (a context variable read): long steps call it between pieces of work of bounded
    length.  Outside :func:`stoppable` it does nothing.

    >>> check_stop()
    """
    flag = _FLAG.get()
    if flag is not None and flag.reason:
        raise Stopped(flag.reason)


@contextmanager
def stoppable(flag: StopFlag) -> Iterator[StopFlag]:
    """Run the block as the work of a job stopped by ``flag`` (:func:`check_stop` reads it).

    >>> flag = StopFlag()
    >>> with stoppable(flag):
    ...     flag.set("enough")
    ...     check_stop()
    Traceback (most recent call last):
    ...
    solver.model.process.Stopped: enough
    """
    token = _FLAG.set(flag)
    try:
        yield flag
    finally:
        _FLAG.reset(token)


#: Set once a stop signal or Ctrl-C has come: the command is being torn down.
STOPPING = threading.Event()


def _stop(signum: int, frame: FrameType | None) -> None:
    STOPPING.set()
    for each in STOP_SIGNALS:  # a second signal must not cut the clean-up short
        signal.signal(each, signal.SIG_IGN)
    raise Terminated(signum)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    """Ctrl-C: Python's own ``KeyboardInterrupt``, the command marked as stopping."""
    STOPPING.set()
    signal.default_int_handler(signum, frame)


def _quiet_when_stopping(args: threading.ExceptHookArgs) -> None:
    """A thread's exception, printed as Python prints it unless the command is stopping:
    a worker pool's own threads may fail as the interruption tears the pool down (loky's
    manager looking up a task already gone), and the command says "interrupted" itself."""
    if not STOPPING.is_set():
        threading.__excepthook__(args)


def stop_on_signals() -> None:
    """SIGTERM and SIGHUP raise :class:`Terminated` in the main thread from now on, and
    Ctrl-C its ``KeyboardInterrupt``; a thread failing after either says nothing.

    A signal its caller chose to ignore (``nohup`` ignores SIGHUP) stays ignored;
    outside the main thread (where no handler can be set) nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    for each in STOP_SIGNALS:
        if signal.getsignal(each) is not signal.SIG_IGN:
            signal.signal(each, _stop)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupt)
    threading.excepthook = _quiet_when_stopping


def ignore_stop_signals() -> None:
    """SIGTERM and SIGHUP do nothing from now on: the command's work is over.

    The interpreter's shutdown puts the default action back for every signal that has a
    Python handler, so a signal arriving then would kill the process (status -15) after
    its work was done; an ignored signal is left ignored.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    for each in STOP_SIGNALS:
        signal.signal(each, signal.SIG_IGN)


def exit_status(interruption: BaseException | None) -> int:
    """The exit status after an interruption: 128 + the signal (130 for Ctrl-C).

    ``interruption`` may be the :class:`Terminated` itself or an exception caused by it
    (click turns a ``KeyboardInterrupt`` into its ``Abort``).

    >>> exit_status(Terminated(15)), exit_status(KeyboardInterrupt())
    (143, 130)
    """
    seen = 0
    while interruption is not None and seen < 10:
        if isinstance(interruption, Terminated):
            return 128 + interruption.signum
        interruption = interruption.__cause__ or interruption.__context__
        seen += 1
    return 128 + signal.SIGINT


class _Guarded(io.RawIOBase):
    """A raw standard output whose failures are one :class:`StdoutError`, reported once.

    ``fd`` None stands for a descriptor that was closed when the command started.  After
    the first failure, what is left is dropped, so the interpreter's last flush is quiet.
    """

    def __init__(self, fd: int | None) -> None:
        super().__init__()
        self.fd = fd
        self.failed = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        if self.fd is None:
            raise OSError(errno.EBADF, "standard output is closed")
        return self.fd

    def isatty(self) -> bool:
        return self.fd is not None and os.isatty(self.fd)

    def write(self, data: Buffer, /) -> int:
        size = memoryview(data).nbytes
        if self.failed:
            return size
        if self.fd is None:
            self.failed = True
            raise StdoutError("cannot write the result: standard output is closed")
        try:
            return os.write(self.fd, data)
        except BrokenPipeError:
            self.failed = True
            raise ReaderGone from None
        except OSError as error:
            self.failed = True
            reason = (error.strerror or type(error).__name__).lower()
            raise StdoutError(f"cannot write the result to standard output: {reason}") from None


def _occupy(fd: int) -> bool:
    """Open the null device on ``fd`` if it is closed (so no file opened later takes its
    number and receives what is meant for the terminal); whether it was closed."""
    try:
        os.fstat(fd)
    except OSError:
        pass
    else:
        return False
    null = os.open(os.devnull, os.O_WRONLY)
    if null != fd:
        os.dup2(null, fd)
        os.close(null)
    return True


def guard_stdout() -> None:
    """Make every failure to write standard output a :class:`StdoutError` (one line).

    Only the process's own standard output is replaced (``sys.stdout is
    sys.__stdout__``, or None when it was closed): a test's captured output is left as
    it is.
    """
    stream = sys.stdout
    if stream is not None and stream is not sys.__stdout__:
        return
    try:
        closed = _occupy(1) or stream is None
        fd = None if closed else 1
        _occupy(2)
    except OSError:
        return
    encoding = getattr(stream, "encoding", None) or "utf-8"
    errors = getattr(stream, "errors", None) or "strict"
    line_buffering = bool(getattr(stream, "line_buffering", False))
    write_through = bool(getattr(stream, "write_through", False))
    if stream is not None:
        try:
            stream.flush()
        except (OSError, ValueError):
            return
    buffer = io.BufferedWriter(_Guarded(fd))
    sys.stdout = io.TextIOWrapper(
        buffer,
        encoding=encoding,
        errors=errors,
        line_buffering=line_buffering,
        write_through=write_through,
    )


def _can_create(path: str) -> bool:
    """Whether the folder ``path`` exists writable, or could be made (its nearest existing
    ancestor is a writable folder)."""
    for _ in range(64):
        if os.path.lexists(path):
            return os.path.isdir(path) and os.access(path, os.W_OK | os.X_OK)
        parent = os.path.dirname(path)
        if parent == path:
            return False
        path = parent
    return False


def private_matplotlib_folder() -> None:
    """Give matplotlib a private folder when its own (under ``HOME``) cannot be written.

    Else matplotlib prints "mkdir -p failed" and "created a temporary cache directory"
    on stderr for every chart; the private folder is removed when the command ends.
    A ``MPLCONFIGDIR`` the user set is kept.
    """
    if os.environ.get("MPLCONFIGDIR"):
        return
    home = os.path.expanduser("~")
    folders = [
        os.path.join(os.environ.get(variable) or os.path.join(home, fallback), "matplotlib")
        for variable, fallback in (("XDG_CONFIG_HOME", ".config"), ("XDG_CACHE_HOME", ".cache"))
    ]
    if home != "~" and all(_can_create(folder) for folder in folders):
        return
    import atexit
    import shutil
    import tempfile

    try:
        private = tempfile.mkdtemp(prefix="cbj-matplotlib-")
    except OSError:
        return  # matplotlib will say why itself
    os.environ["MPLCONFIGDIR"] = private
    atexit.register(shutil.rmtree, private, ignore_errors=True)


def start(own_process: bool) -> None:
    """Set the command's process up: stop signals (if the process is the command's own,
    not a caller's), a guarded standard output, matplotlib's folder."""
    if own_process:
        stop_on_signals()
    guard_stdout()
    private_matplotlib_folder()
