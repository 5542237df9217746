"""A deliberately broken HTTP/1.1 server on raw asyncio sockets.

Each route misbehaves in one documented way (README.md, "Fault server") so that a client's handling
of that one fault can be tested. Well-formed routes (redirects, the canary count) keep the
connection alive; every faulty route closes or resets it.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import urllib.parse
import zlib

_MAX_REQUEST_HEAD = 64 * 1024
_BOMB_SIZE = 200 * 1024 * 1024


def _gzip(data_chunks, level: int = 9) -> bytes:
    compressor = zlib.compressobj(level, zlib.DEFLATED, 31)
    out = [compressor.compress(chunk) for chunk in data_chunks]
    out.append(compressor.flush())
    return b"".join(out)


def _head(status: str, headers: list[tuple[str, str]] | None = None) -> bytes:
    lines = [f"HTTP/1.1 {status}"] + [f"{k}: {v}" for k, v in (headers or [])]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _simple(status: str, body: bytes, extra: list[tuple[str, str]] | None = None, close: bool = False) -> bytes:
    headers = [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))] + (extra or [])
    if close:
        headers.append(("Connection", "close"))
    return _head(status, headers) + body


class FaultServer:
    """Serves the fault routes on one port and counts connections to a second, canary port."""

    def __init__(self, log_path: str):
        self.canary_connections = 0
        self._log = open(log_path, "a", buffering=1)
        self._bomb: bytes | None = None
        self._stacked: bytes | None = None
        self._servers: list[asyncio.base_events.Server] = []
        self._handlers: set[asyncio.Task] = set()

    async def start(self) -> tuple[int, int]:
        """Binds both ports on 127.0.0.1 and returns (main port, canary port)."""
        main = await asyncio.start_server(self._serve, "127.0.0.1", 0, backlog=1024)
        canary = await asyncio.start_server(self._canary, "127.0.0.1", 0, backlog=128)
        self._servers = [main, canary]
        # The bomb takes a moment to build; build it now, off the loop, rather than on first use.
        loop = asyncio.get_running_loop()
        self._bomb_ready = loop.run_in_executor(None, self._build_bombs)
        return main.sockets[0].getsockname()[1], canary.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        for server in self._servers:
            server.close()
        for task in list(self._handlers):
            task.cancel()
        for server in self._servers:
            await server.wait_closed()
        self._log.close()

    def _build_bombs(self) -> None:
        zeros = bytes(1024 * 1024)
        self._bomb = _gzip(zeros for _ in range(_BOMB_SIZE // len(zeros)))
        self._stacked = _gzip([self._bomb])

    # MARK: connections

    async def _canary(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.canary_connections += 1
        self._log.write(f"canary connection #{self.canary_connections}\n")
        try:
            await asyncio.wait_for(reader.read(4096), timeout=2)
            writer.write(_simple("200 OK", b"canary\n", close=True))
            await writer.drain()
        except (OSError, asyncio.TimeoutError):
            pass
        finally:
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        self._handlers.add(task)
        try:
            while True:
                request = await self._read_request(reader)
                if request is None:
                    break
                method, target, closes = request
                self._log.write(f"{method} {target}\n")
                keep_alive = await self._route(method, target, reader, writer)
                if closes or not keep_alive:
                    break
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            pass
        except asyncio.CancelledError:
            pass
        finally:
            self._handlers.discard(task)
            if not writer.is_closing():
                writer.close()

    async def _read_request(self, reader: asyncio.StreamReader) -> tuple[str, str, bool] | None:
        """Reads one request head and discards its body; returns (method, target, client wants to close),
        or None at a clean end of the connection."""
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError:
            return None
        if len(head) > _MAX_REQUEST_HEAD:
            return None
        lines = head.decode("latin-1").split("\r\n")
        method, target, version = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            await self._discard_chunked(reader)
        connection = headers.get("connection", "").lower()
        closes = connection == "close" or (version == "HTTP/1.0" and connection != "keep-alive")
        return method, target, closes

    @staticmethod
    async def _discard_chunked(reader: asyncio.StreamReader) -> None:
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
            if size == 0:
                while (await reader.readuntil(b"\r\n")) != b"\r\n":
                    pass
                return
            await reader.readexactly(size + 2)

    # MARK: routes

    async def _route(self, method: str, target: str, reader, writer: asyncio.StreamWriter) -> bool:
        """Answers one request; returns whether the connection stays open for another."""
        url = urllib.parse.urlsplit(target)
        path, query = url.path, urllib.parse.parse_qs(url.query)
        send = writer.write

        if path == "/canary/count":
            send(_simple("200 OK", f"{self.canary_connections}".encode()))
        elif path == "/ok":
            send(_simple("200 OK", b"ok"))
        elif path == "/redirect":
            status = query.get("status", ["302"])[0]
            location = query.get("to", ["/ok"])[0]
            send(_simple(f"{int(status)} Redirect", b"", [("Location", location)]))
        elif path in ("/loop-a", "/loop-b"):
            other = "/loop-b" if path == "/loop-a" else "/loop-a"
            send(_simple("302 Found", b"", [("Location", other)]))
        elif path.startswith("/chain/"):
            remaining = int(path.removeprefix("/chain/"))
            if remaining > 0:
                send(_simple("302 Found", b"", [("Location", f"/chain/{remaining - 1}")]))
            else:
                send(_simple("200 OK", b"done"))
        elif path == "/truncated":
            send(_head("200 OK", [("Content-Length", "1000")]) + b"x" * 500)
            return await self._close(writer)
        elif path == "/double-length":
            send(_head("200 OK", [("Content-Length", "5"), ("Content-Length", "10")]) + b"hello")
            return await self._close(writer)
        elif path == "/bad-chunk":
            send(_head("200 OK", [("Transfer-Encoding", "chunked")]) + b"zz\r\nhello\r\n0\r\n\r\n")
            return await self._close(writer)
        elif path == "/overflow-chunk":
            send(_head("200 OK", [("Transfer-Encoding", "chunked")]) + b"ffffffffffffffffff\r\nhello\r\n")
            return await self._close(writer)
        elif path == "/chunk-close":
            send(_head("200 OK", [("Transfer-Encoding", "chunked")]) + b"5\r\nhello\r\n")
            return await self._close(writer)
        elif path == "/reset":
            await self._reset(writer)
            return False
        elif path == "/stall":
            await reader.read()  # until the client gives up
            return False
        elif path == "/slowloris":
            send(_head("200 OK", [("Content-Length", "1000000")]))
            while True:
                await writer.drain()
                await asyncio.sleep(2)
                send(b"x")
        elif path == "/never-ends":
            send(_head("200 OK", [("Transfer-Encoding", "chunked")]))
            chunk = b"%x\r\n%s\r\n" % (65536, b"n" * 65536)
            while True:
                send(chunk)
                await writer.drain()
        elif path == "/huge-header":
            send(_simple("200 OK", b"ok", [("X-Huge", "h" * (1024 * 1024))], close=True))
            return await self._close(writer)
        elif path == "/many-headers":
            headers = [(f"X-Header-{i}", "v") for i in range(10_000)]
            send(_simple("200 OK", b"ok", headers, close=True))
            return await self._close(writer)
        elif path == "/bad-status":
            send(b"HTTP/1.1 OK 200 Garbage\r\nContent-Length: 2\r\n\r\nok")
            return await self._close(writer)
        elif path == "/nul-header":
            send(_head("200 OK", [("Content-Length", "2"), ("X-Nul", "a\x00b")]) + b"ok")
            return await self._close(writer)
        elif path == "/1xx-flood":
            count = int(query.get("count", ["1000"])[0])
            send(b"HTTP/1.1 100 Continue\r\n\r\n" * count + _simple("200 OK", b"ok", close=True))
            return await self._close(writer)
        elif path in ("/gzip-bomb", "/stacked-encoding"):
            await asyncio.shield(self._bomb_ready)
            body, encoding = (self._bomb, "gzip") if path == "/gzip-bomb" else (self._stacked, "gzip, gzip")
            send(_simple("200 OK", body, [("Content-Encoding", encoding)]))
        else:
            send(_simple("404 Not Found", f"no fault route {path}\n".encode()))
        await writer.drain()
        return True

    @staticmethod
    async def _close(writer: asyncio.StreamWriter) -> bool:
        await writer.drain()
        writer.close()
        return False

    @staticmethod
    async def _reset(writer: asyncio.StreamWriter) -> None:
        """Sends the head and part of a 1 MB body, then an RST (SO_LINGER 0) instead of a FIN."""
        writer.transport.set_write_buffer_limits(0)
        writer.write(_head("200 OK", [("Content-Length", str(1024 * 1024))]) + b"r" * (256 * 1024))
        await writer.drain()
        await asyncio.sleep(0.2)  # let the partial body reach the client before the reset
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()
