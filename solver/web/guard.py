"""The app's outer layer: requests for another host or from another origin refused, and the
headers that keep a browser from running, framing or guessing anything it should not.

A page of a server on 127.0.0.1 can still be reached by any web page the user opens, by
*DNS rebinding* (a name of the attacker's that resolves to 127.0.0.1): such a request
names the attacker's host in ``Host``, so any ``Host`` but the addresses served is refused
(421).  A request that changes state or starts work (``POST``) must come from the app's own
pages: an ``Origin`` or ``Sec-Fetch-Site`` header naming another site is refused (403); a GET
starts no work at all (see :mod:`solver.web.app`).  An address longer than :data:`MAX_URL`
is refused (414) before anything reads it.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Every response's security headers: no script but the app's own files, no framing, no
#: guessing of content types, no address sent to another site.  Inline styles are allowed: the
#: chart page is the very page ``cbj chart`` writes, whose style sheet is inline.
SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),  # "no-referrer" would make a form's Origin "null"
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: The longest path and query string a request may have (bytes); the forms' longest is
#: about 7 kB (every field at its 200 characters).
MAX_URL = 16 * 1024


def served_hosts(host: str, port: int) -> frozenset[str]:
    """The ``Host`` values a server on ``host:port`` answers (with and without the port).

    >>> sorted(served_hosts("127.0.0.1", 8021))
    ['127.0.0.1', '127.0.0.1:8021', 'localhost', 'localhost:8021']
    """
    names = {host.strip("[]").lower()}
    if _is_loopback(host):
        names |= {"localhost", "127.0.0.1", "[::1]"} if ":" in host else {"localhost", "127.0.0.1"}
    shown = {f"[{n}]" if ":" in n and not n.startswith("[") else n for n in names}
    return frozenset(shown | {f"{n}:{port}" for n in shown})


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def _is_address(host: str) -> bool:
    """A ``Host`` value that is an IP address (with or without a port), never a name."""
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    if name.startswith("[") and "]" in name:
        name = name[1 : name.index("]")]
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Guard:
    """ASGI middleware: the ``Host`` and ``Origin`` checks, and the security headers.

    ``hosts`` are the ``Host`` values allowed; with ``any_address`` (a server on every
    interface, ``0.0.0.0``), any IP address is allowed too, but never a name other than
    those listed (a rebinding attack needs a name).
    """

    def __init__(self, app: App, hosts: Iterable[str], any_address: bool = False) -> None:
        self.app = app
        self.hosts = frozenset(h.lower() for h in hosts)
        self.any_address = any_address

    def allowed_host(self, host: str) -> bool:
        """Whether a request naming ``host`` is for this server."""
        host = host.lower()
        return host in self.hosts or (self.any_address and _is_address(host))

    def same_origin(self, headers: dict[str, str], host: str) -> bool:
        """Whether a state-changing request comes from the app's own pages."""
        origin = headers.get("origin")
        if origin is not None and origin != f"http://{host}":
            return False
        site = headers.get("sec-fetch-site")
        return site is None or site in ("same-origin", "none")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"") > MAX_URL:
            await _refuse(send, 414, f"The address is too long: at most {MAX_URL:,} bytes.")
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if not self.allowed_host(host):
            await _refuse(send, 421, "This server answers only for its own address.")
            return
        if scope["method"] not in SAFE_METHODS and not self.same_origin(headers, host):
            await _refuse(send, 403, "Refused: the request came from another site.")
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _refuse(send: Send, status: int, text: str) -> None:
    body = text.encode()
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()),
        *SECURITY_HEADERS,
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
