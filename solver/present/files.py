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

import os
import shutil
import tempfile
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from solver.model.errors import OutputError
from solver.model.rules import Rules

if TYPE_CHECKING:
    from solver.exact.strategy import Chart

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
    return repr(str(path))


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
        raise OutputError(f"format {fmt!r} is not available here: use one of {_list(allowed)}")
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


def check_terminal(fmt: str, stream: IO[Any]) -> None:
    """Refuse to write a binary format to a terminal."""
    isatty = getattr(stream, "isatty", None)
    if fmt in BINARY_FORMATS and isatty is not None and isatty():
        raise OutputError(f"{fmt} is a binary format: give -o FILE or redirect the output")


def check_writable(path: Path) -> None:
    """Fail now, in one line, if ``path`` could not be written later.

    The folder must exist and accept a new file (tried for real, so read-only file
    systems and permissions are both caught); an existing ``path`` must be a file.
    """
    if str(path) == "" or path.name in ("", ".", ".."):
        raise OutputError(f"output file {_show(path)} is not a file name")
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise OutputError(f"cannot write {_show(path)}: folder {_show(folder)} {what}")
    if path.is_dir():
        raise OutputError(f"cannot write {_show(path)}: it is a folder")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{path.name}.", suffix=".check"):
            pass
    except OSError as error:
        raise OutputError(f"cannot write {_show(path)}: {_reason(error)}") from None
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputError(f"cannot write {_show(path)}: permission denied")


def _reason(error: OSError) -> str:
    return (error.strerror or type(error).__name__).lower()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path, data: bytes | str) -> Path:
    """Write ``data`` to ``path`` through a temporary file renamed over it; returns ``path``.

    The file gets the usual permissions (``0666`` less the umask), or keeps those of the
    file it replaces.
    """
    payload = data.encode() if isinstance(data, str) else data
    folder = path.parent
    try:
        mode = path.stat().st_mode & 0o7777 if path.is_file() else 0o666 & ~_umask()
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as error:
        raise OutputError(f"cannot write {_show(path)}: {_reason(error)}") from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except OSError as error:
        _remove(Path(temporary))
        raise OutputError(f"cannot write {_show(path)}: {_reason(error)}") from None
    except BaseException:  # Ctrl-C included: no partial file is left behind
        _remove(Path(temporary))
        raise
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
    anything else, the current folder included, would be replaced wholesale.
    """
    if not text.strip():
        raise OutputError("the output folder is empty text: name a folder, e.g. strategy_tables")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise OutputError(f"output folder {_show(path)} is a file")
    if path.is_dir() and any(path.iterdir()) and not is_collection(path):
        raise OutputError(
            f"output folder {_show(path)} holds other files and is not a collection: "
            "name a new or empty folder"
        )
    resolved = path.resolve()
    if resolved == Path.cwd().resolve() or resolved == resolved.parent:
        # Swapping the current folder (or the root) is not possible: write into a new one.
        raise OutputError(f"output folder {_show(path)} is the current folder: name a subfolder")
    check_writable(resolved.parent / f".{resolved.name}.probe")
    return path


@contextmanager
def folder_swap(path: Path) -> Iterator[Path]:
    """A fresh temporary folder beside ``path``; on success it replaces ``path`` whole.

    On any error (Ctrl-C included) the temporary folder is removed and ``path`` is left
    as it was.  Between the two renames there is a moment when ``path`` does not exist.
    """
    parent = path.resolve().parent
    try:
        building = Path(tempfile.mkdtemp(dir=parent, prefix=f".{path.name}.new."))
    except OSError as error:
        raise OutputError(f"cannot write folder {_show(path)}: {_reason(error)}") from None
    try:
        yield building
        building.chmod(0o777 & ~_umask())
        if path.exists():
            old = Path(tempfile.mkdtemp(dir=parent, prefix=f".{path.name}.old."))
            os.replace(path, old / "previous")
            try:
                os.replace(building, path)
            except BaseException:
                os.replace(old / "previous", path)  # put the old collection back
                raise
            finally:
                shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(building, path)
    except OSError as error:
        _remove(building)
        raise OutputError(f"cannot write folder {_show(path)}: {_reason(error)}") from None
    except BaseException:
        _remove(building)
        raise


def wrote(path: Path | str) -> str:
    """The line a command prints on stderr after writing a file."""
    return f"wrote {path}"


@dataclass(frozen=True, slots=True)
class Written:
    """Files a command wrote, and the charts or report behind them."""

    rules: Rules
    paths: tuple[Path, ...]
    charts: tuple[Chart, ...] = ()
