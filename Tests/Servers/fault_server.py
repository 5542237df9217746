"""A deliberately broken HTTP/1.1 server on raw asyncio sockets, plus its canary port.

Each route (fault_routes.py) misbehaves in one documented way so that a client's handling of that
one fault can be tested. Well-formed answers keep the connection alive unless the client asked
to close; every faulty route closes or resets it.
"""

from __future__ import annotations

import asyncio
import hashlib
import urllib.parse

from fault_routes import Request, Routes, simple
from loopback_service import LoopbackService

_MAX_REQUEST_HEAD = 64 * 1024


class FaultServer(LoopbackService):
    """Serves the fault routes on one port and counts connections to a second, canary port."""

    def __init__(self, log_path: str):
        super().__init__(log_path)
        self.canary_connections = 0
        self._routes = Routes(lambda: self.canary_connections)

    async def start(self) -> tuple[int, int]:
        """Binds both ports on 127.0.0.1 and returns (main port, canary port)."""
        main = await self.listen(self._serve, backlog=4096, limit=_MAX_REQUEST_HEAD)
        canary = await self.listen(self._canary, backlog=128)
        self._routes.start_building_bombs()
        return main, canary

    async def _canary(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.canary_connections += 1
        self._log.write(f"canary connection #{self.canary_connections}\n")
        try:
            await asyncio.wait_for(reader.read(4096), timeout=2)
            writer.write(simple("200 OK", b"canary\n", close=True))
            await writer.drain()
        except (OSError, asyncio.TimeoutError):
            pass

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                request = await _read_request(reader, writer)
                if request is None:
                    break
                self._log.write(f"{request.method} {request.target}\n")
                keep_alive = await self._routes.handler(request.path)(request, reader, writer)
                if request.closes or not keep_alive:
                    break
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            pass


async def _read_request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> Request | None:
    """Reads one request and its body (hashed, not kept); None at a clean end of the connection."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError:
        return None
    lines = head.decode("latin-1").split("\r\n")
    method, target, version = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    if headers.get("expect", "").lower() == "100-continue":
        writer.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    digest = hashlib.sha256()
    length = 0
    if headers.get("transfer-encoding", "").lower() == "chunked":
        async for chunk in _chunks(reader):
            digest.update(chunk)
            length += len(chunk)
    elif "content-length" in headers:
        remaining = int(headers["content-length"])
        while remaining:
            chunk = await reader.read(min(remaining, 1 << 20))
            if not chunk:
                raise asyncio.IncompleteReadError(b"", remaining)
            digest.update(chunk)
            length += len(chunk)
            remaining -= len(chunk)
    url = urllib.parse.urlsplit(target)
    connection = headers.get("connection", "").lower()
    return Request(
        method=method,
        target=target,
        path=url.path,
        query={k: v[0] for k, v in urllib.parse.parse_qs(url.query).items()},
        head=head,
        body_length=length,
        body_sha256=digest.hexdigest(),
        closes=connection == "close" or (version == "HTTP/1.0" and connection != "keep-alive"),
    )


async def _chunks(reader: asyncio.StreamReader):
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
        if size == 0:
            while (await reader.readuntil(b"\r\n")) != b"\r\n":
                pass  # trailers
            return
        yield (await reader.readexactly(size + 2))[:-2]
