"""Writing output files safely: checked before computing, never left half written.

Every writer here follows the same rules: the destination is checked before any work
(so a bad path fails in a moment, not after the whole computation); data goes to a
temporary file in the destination's own folder and is renamed over the destination in
one step (``os.replace``), so a crash or Ctrl-C leaves either the old file or the new
one, never a truncated mix; a folder is built aside and swapped in whole.  The format
follows the file's extension unless ``--format`` is given, and the two may not
disagree.  Problems raise :class:`~solver.model.errors.OutputError` with one line.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

from solver.model.checks import shown
from solver.model.errors import OutputError

#: The format each file extension stands for.
EXTENSION_FORMATS: dict[str, str] = {
    ".txt": "table",
    ".csv": "csv",
    ".json": "json",
    ".md": "md",
    ".markdown": "md",
    ".html": "html",
    ".htm": "html",
    ".svg": "svg",
    ".png": "png",
    ".pdf": "pdf",
}
#: Formats that are bytes, not text: never written to a terminal.
BINARY_FORMATS = frozenset({"png", "pdf"})


def _show(path: Path | str) -> str:
    return shown(str(path), most=160)


def choose_format(
    path: Path | None, fmt: str | None, allowed: Collection[str], default: str
) -> str:
    """The output format: ``fmt`` if given, else the one ``path``'s extension names.

    An explicit ``fmt`` that contradicts a known extension is an error, as is an extension
    naming a format the command cannot produce.

    >>> choose_format(Path("chart.pdf"), None, ("md", "pdf"), "md")
    'pdf'
    >>> choose_format(None, None, ("md", "pdf"), "md")
    'md'
    """
    if fmt is not None and fmt not in allowed:
        raise OutputError(f"format {shown(fmt)} is not available here: use one of {_list(allowed)}")
    if path is None:
        return fmt or default
    implied = EXTENSION_FORMATS.get(path.suffix.lower())
    if fmt is not None:
        if implied is not None and implied != fmt:
            raise OutputError(
                f"--format {fmt} contradicts the extension of {_show(path)} "
                f"(which means {implied}): drop one or make them agree"
            )
        return fmt
    if implied is None or implied not in allowed:
        endings = sorted(e for e, f in EXTENSION_FORMATS.items() if f in allowed)
        raise OutputError(
            f"cannot tell the format of {_show(path)} from its extension: "
            f"end it in {' '.join(endings)} or give --format"
        )
    return implied


def _list(items: Collection[str]) -> str:
    return ", ".join(sorted(items))


#: What ``-o`` is given to mean standard output, as other Unix tools take it.
STDOUT = "-"


def to_stdout(path: Path | None) -> Path | None:
    """``path``, or None (standard output) when it is ``-``.

    >>> to_stdout(Path("-")) is None, to_stdout(Path("x.md"))
    (True, PosixPath('x.md'))
    """
    return None if path is not None and str(path) == STDOUT else path


def check_terminal(fmt: str, stream: IO[Any]) -> None:
    """Refuse to write a binary format to a terminal."""
    isatty = getattr(stream, "isatty", None)
    if fmt in BINARY_FORMATS and isatty is not None and isatty():
        raise OutputError(f"{fmt} is a binary format: give -o FILE or redirect the output")


#: The longest name one folder entry may have, and the longest path (Linux's limits).
NAME_MAX = 255
PATH_MAX = 4096


def check_length(path: Path) -> None:
    """Refuse a path the system could not open: a name over 255 bytes, a path over 4095.

    >>> check_length(Path("x" * 256))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    solver.model.errors.OutputError: cannot write 'xxx...': a name in it is longer than 255 bytes
    """
    shown = _show(str(path)[:20] + "..." if len(str(path)) > 40 else path)
    if "\0" in str(path):
        raise OutputError(f"cannot write {shown}: a file name cannot hold a NUL character")
    try:
        os.fsencode(path)
    except UnicodeEncodeError:  # a lone surrogate: no file system can hold the name
        raise OutputError(f"cannot write {shown}: the name is not valid text") from None
    if len(os.fsencode(path)) >= PATH_MAX:
        raise OutputError(f"cannot write {shown}: the path is longer than {PATH_MAX - 1} bytes")
    if any(len(os.fsencode(part)) > NAME_MAX for part in path.parts):
        raise OutputError(f"cannot write {shown}: a name in it is longer than {NAME_MAX} bytes")


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in words (None for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _existing(path: Path) -> os.stat_result | None:
    """``path``'s status if it is a file the write replaces; None if there is none, or if it
    is a symbolic link (replaced by the new file, never followed: the file it names is not
    written); :class:`OutputError` if it is not a regular file."""
    try:
        status = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):  # the folder's check says why
        return None
    except OSError as error:
        raise OutputError(f"cannot write {_show(path)}: {_reason(error)}") from None
    if stat.S_ISLNK(status.st_mode):
        return None
    kind = _kind(status.st_mode)
    if kind is not None:
        raise OutputError(f"cannot write {_show(path)}: it is {kind}, not a regular file")
    return status


def check_writable(path: Path) -> None:
    """Fail now, in one line, if ``path`` could not be written later.

    The name must fit the system's limits; the folder must exist and accept a new file
    (tried for real, so read-only file systems and permissions are both caught); an
    existing ``path`` must be a regular file (never a device, pipe, socket or folder) or a
    symbolic link, which the write replaces.
    """
    if str(path) == "" or path.name in ("", ".", ".."):
        raise OutputError(f"output file {_show(path)} is not a file name")
    check_length(path)
    target = path
    existing = _existing(target)
    folder = target.parent
    try:
        folder_status = os.stat(folder)
    except FileNotFoundError:
        folder_status = None
    except OSError as error:
        raise OutputError(f"cannot write {_show(path)}: {_reason(error)}") from None
    if folder_status is None or not stat.S_ISDIR(folder_status.st_mode):
        what = (
            "is not a folder" if folder_status is not None or _exists(folder) else "does not exist"
        )
        raise OutputError(f"cannot write {_show(path)}: folder {_show(folder)} {what}")
    try:
        with tempfile.NamedTemporaryFile(
            dir=folder, prefix=_temporary_prefix(target), suffix=".check"
        ):
            pass
    except OSError as error:
        raise OutputError(f"cannot write {_show(path)}: {_reason(error)}") from None
    if existing is not None and not os.access(target, os.W_OK):
        raise OutputError(f"cannot write {_show(path)}: permission denied")


def _exists(path: Path) -> bool:
    try:
        os.lstat(path)
    except OSError:
        return False
    return True


def _reason(error: OSError) -> str:
    return (error.strerror or type(error).__name__).lower()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _temporary_prefix(target: Path) -> str:
    """``.NAME.cbj-PID.``: the temporary files of this process writing ``target``.

    The name is cut short so that the temporary name fits where ``target``'s does; the
    process number lets a later run tell a dead run's leftovers from a live run's work.
    """
    return f".{target.name[:120]}.cbj-{os.getpid()}."


_LEFTOVER = re.compile(
    r"\.(?P<name>.*)\.cbj-(?P<pid>\d+)\.[^.]*\.(?:tmp|check|new|old)\Z", re.DOTALL
)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (on this machine)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def leftovers(target: Path) -> list[Path]:
    """Temporary files and folders beside ``target`` left by earlier runs that were killed.

    Only names this module makes for ``target`` (``.NAME.cbj-PID.*``) whose process no
    longer runs are listed: another run's work in progress is never touched.
    """
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return []
    found = []
    for entry in entries:
        match = _LEFTOVER.match(entry.name)
        if match and match["name"] == target.name[:120] and not _alive(int(match["pid"])):
            found.append(Path(entry.path))
    return sorted(found)


def remove_leftovers(target: Path) -> None:
    """Remove what :func:`leftovers` finds (quietly: a leftover is no one's data)."""
    for path in leftovers(target):
        with suppress(OSError):
            _remove(path)


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the system can sync a folder)."""
    try:
        handle = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def write_atomic(path: Path, data: bytes | str) -> Path:
    """Write ``data`` to ``path`` through a temporary file renamed over it; returns ``path``.

    The temporary file, in the same folder, is synced before the rename and the folder
    after it; it is removed on any failure (Ctrl-C and the signals the CLI turns into
    it included).  The file gets the usual permissions (``0666`` less the umask), or
    keeps those of the file it replaces; a symbolic link at ``path`` is replaced by the
    file, never written through (so that a link cannot send the write to a file
    elsewhere); a path that is not a regular file is refused.  Leftovers of earlier
    killed writes of the same file are removed.
    """
    payload = data.encode() if isinstance(data, str) else data
    check_length(path)
    target = path
    folder = target.parent
    existing = _existing(target)
    remove_leftovers(target)
    try:
        mode = existing.st_mode & 0o7777 if existing is not None else 0o666 & ~_umask()
        handle, name = tempfile.mkstemp(dir=folder, prefix=_temporary_prefix(target), suffix=".tmp")
    except OSError as error:
        raise OutputError(f"cannot write {_show(path)}: {_reason(error)}") from None
    temporary = Path(name)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        _existing(target)  # still not a device or folder: checked again just before
        os.replace(temporary, target)
    except OSError as error:
        _remove(temporary)
        raise OutputError(f"cannot write {_show(path)}: {_reason(error)}") from None
    except BaseException:  # Ctrl-C, SIGTERM, an OutputError: no partial file left behind
        _remove(temporary)
        raise
    _sync_folder(folder)
    return path


def _remove(path: Path) -> None:
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    except FileNotFoundError:
        pass


def check_output_dir(text: str, is_collection: Callable[[Path], bool]) -> Path:
    """The folder to (re)write a collection into, refused where a swap would lose files.

    A folder that exists must be empty or hold a collection already (``is_collection``):
    anything else, the current folder included, would be replaced wholesale.  A
    collection a killed run left aside is put back first (see :func:`folder_swap`).
    """
    if not text.strip():
        raise OutputError("the output folder is empty text: name a folder, e.g. strategy_tables")
    path = Path(text)
    check_length(path)
    try:
        recover_folder(path)
        if path.exists() and not path.is_dir():
            raise OutputError(f"output folder {_show(path)} is a file")
        if path.is_dir() and any(path.iterdir()) and not is_collection(path):
            raise OutputError(
                f"output folder {_show(path)} holds other files and is not a collection: "
                "name a new or empty folder"
            )
        resolved = path.resolve()
    except OSError as error:
        raise OutputError(f"cannot write folder {_show(path)}: {_reason(error)}") from None
    if resolved == Path.cwd().resolve() or resolved == resolved.parent:
        # Swapping the current folder (or the root) is not possible: write into a new one.
        raise OutputError(f"output folder {_show(path)} is the current folder: name a subfolder")
    check_writable(resolved.parent / f".{resolved.name[:120]}.probe")
    check_replaceable(path)
    return path


def check_replaceable(path: Path) -> None:
    """Refuse a folder this user could swap out but not remove afterwards.

    Replacing a collection ends by deleting the old one: every folder in it must be
    writable and enterable by this user, and in a sticky folder (``/tmp``) the user must
    own it.  Checked before any work and again before the swap, so a refusal leaves the
    old collection in place and nothing beside it.
    """
    if not path.is_dir() or path.is_symlink():
        return
    try:
        parent = path.parent.stat()
        if parent.st_mode & stat.S_ISVTX and os.geteuid() not in (0, path.stat().st_uid):
            raise OutputError(
                f"cannot replace folder {_show(path)}: it is another user's, in a shared "
                "folder: name a folder of your own"
            )
        for folder, _, _ in os.walk(path, onerror=_raise):
            if not os.access(folder, os.W_OK | os.X_OK):
                raise OutputError(
                    f"cannot replace folder {_show(path)}: permission denied to remove what "
                    f"{_show(folder)} holds: name a folder of your own"
                )
    except OSError as error:
        raise OutputError(f"cannot replace folder {_show(path)}: {_reason(error)}") from None


def _raise(error: OSError) -> None:
    raise error


def recover_folder(path: Path) -> None:
    """Undo what a killed :func:`folder_swap` left: its collection put back, the rest removed.

    Only a swap without an atomic exchange leaves ``path`` missing for a moment, its
    old contents in ``.NAME.cbj-PID.*.old/previous``; that one is renamed back if
    ``path`` is still missing.  Half-built folders of dead runs are removed.
    """
    target = path.resolve()
    for leftover in leftovers(target):
        previous = leftover / "previous"
        if leftover.name.endswith(".old") and previous.is_dir() and not _exists(target):
            os.replace(previous, target)
        with suppress(OSError):
            _remove(leftover)


def _exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one step (Linux's ``renameat2(RENAME_EXCHANGE)``); False if the
    system or file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_cwd, rename_exchange = -100, 2
    result = renameat2(at_cwd, os.fsencode(first), at_cwd, os.fsencode(second), rename_exchange)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(second))


@contextmanager
def folder_swap(path: Path) -> Iterator[Path]:
    """A fresh temporary folder beside ``path``; on success it replaces ``path`` whole.

    On any error (Ctrl-C and SIGTERM included) the temporary folder is removed and
    ``path`` is left as it was.  Where the system can exchange two folders in one step
    (Linux), ``path`` always holds either the old collection or the new one; elsewhere
    the old one is moved aside, the new one renamed in, and a run killed between the
    two renames is undone by the next (:func:`recover_folder`).
    """
    target = path.resolve()
    parent = target.parent
    try:
        recover_folder(path)
        building = Path(
            tempfile.mkdtemp(dir=parent, prefix=_temporary_prefix(target), suffix=".new")
        )
    except OSError as error:
        raise OutputError(f"cannot write folder {_show(path)}: {_reason(error)}") from None
    try:
        yield building
        check_replaceable(path)  # again: it may have changed while the collection was built
        building.chmod(0o777 & ~_umask())
        _sync_folder(building)
        if target.is_dir() and not target.is_symlink() and _exchange(building, target):
            _sync_folder(parent)
            _remove(building)  # the old collection, swapped out
        elif _exists(target):
            old = Path(
                tempfile.mkdtemp(dir=parent, prefix=_temporary_prefix(target), suffix=".old")
            )
            os.replace(target, old / "previous")
            try:
                os.replace(building, target)
            except BaseException:
                os.replace(old / "previous", target)  # put the old collection back
                raise
            finally:
                _sync_folder(parent)
                shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(building, target)
            _sync_folder(parent)
    except OSError as error:
        with suppress(OSError):  # a folder it cannot remove is left for the next run's recovery
            _remove(building)
        raise OutputError(f"cannot write folder {_show(path)}: {_reason(error)}") from None
    except BaseException:
        with suppress(OSError):
            _remove(building)
        raise


def wrote(path: Path | str) -> str:
    """The line a command prints on stderr after writing a file."""
    return f"wrote {path}"
