"""What ``cbj serve`` needs of its HTTP server beyond uvicorn's defaults.

- :func:`listening`: the socket, bound before the server starts, so that a port in use is
  one line (:class:`ServeError`), not uvicorn's log and exit status 3.
- :class:`Protocol`: uvicorn's HTTP/1.1 protocol (h11), but a request line or headers
  too long to read are answered 414 or 431 instead of 400, and the rest of what the
  client sends is read and dropped for a moment before the connection closes, so that the
  client reads the answer instead of a reset.
"""

from __future__ import annotations

import errno
import socket
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from solver.model.errors import CbjError

#: The most bytes of a request's line and headers read (uvicorn's h11 buffer).
MAX_HEAD = 64 * 1024
#: How long a refused request's remaining bytes are read and dropped (seconds).
DRAIN_SECONDS = 2.0


class ServeError(CbjError):
    """A host or port ``cbj serve`` cannot listen on."""


def listening(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port``, or one :class:`ServeError` line saying why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        where = f"{host}:{port}"
        if error.errno == errno.EADDRINUSE:
            raise ServeError(
                f"cannot listen on {where}: the port is in use (another cbj serve?); "
                "give another with --port"
            ) from None
        if error.errno == errno.EACCES:
            raise ServeError(
                f"cannot listen on {where}: permission denied (ports below 1024 need root); "
                "give another with --port"
            ) from None
        reason = (error.strerror or str(error)).lower()
        raise ServeError(f"cannot listen on {where}: {reason}") from None
    sock.set_inheritable(True)
    return sock


class Protocol(H11Protocol):
    """uvicorn's h11 protocol: too long a request line is 414, too long headers 431."""

    _draining = False

    def send_400_response(self, msg: str) -> None:
        """Answer a request h11 could not read: 414 or 431 when it was too long, then drain."""
        pending, _ = self.conn.trailing_data
        if len(pending) <= MAX_HEAD:
            super().send_400_response(msg)
            return
        first_line_ends = b"\n" in pending[:MAX_HEAD]
        status, reason, text = (
            (431, b"Request Header Fields Too Large", b"The request's headers are too long.\n")
            if first_line_ends
            else (414, b"URI Too Long", b"The address is too long.\n")
        )
        self.transport.write(
            b"HTTP/1.1 %d %s\r\ncontent-type: text/plain; charset=utf-8\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (status, reason, len(text), text)
        )
        self._draining = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(DRAIN_SECONDS, self.transport.close)

    def data_received(self, data: bytes) -> None:
        """Drop what a refused client still sends; read the rest as uvicorn does."""
        if self._draining:
            return
        super().data_received(data)

    def eof_received(self) -> Any:
        """The client has sent all it will: close at once when draining."""
        if self._draining:
            self.transport.close()
            return None
        return super().eof_received()
