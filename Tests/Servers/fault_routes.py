"""The fault server's routes: each answers one request, most of them wrongly on purpose.

A handler gets the parsed request and the connection's streams and returns whether the
connection may carry another request. README.md lists every route with what curl makes of it.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import math
import socket
import random
import struct
import time
import zlib
from dataclasses import dataclass

from bombs import Bombs
from cookie_routes import CookieRoutes
from concurrency_routes import ConcurrencyRoutes
from integrity_routes import IntegrityRoutes
import download_routes
from mixed_replace_routes import MixedReplaceRoutes
from auth_routes import AuthRecordRoutes
from event_stream_routes import EventStreamRoutes
import trailer_routes
from held_routes import HeldRoutes


@dataclass
class Request:
    method: str
    target: str
    path: str
    query: dict[str, str]
    head: bytes  # the request line and headers exactly as received
    body_length: int
    body_sha256: str
    closes: bool  # the client asked to close after this request


def head(status: str, headers: list[tuple[str, str]] | None = None) -> bytes:
    lines = [f"HTTP/1.1 {status}"] + [f"{k}: {v}" for k, v in (headers or [])]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def simple(status: str, body: bytes, extra: list[tuple[str, str]] | None = None, close: bool = False) -> bytes:
    headers = [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))] + (extra or [])
    if close:
        headers.append(("Connection", "close"))
    return head(status, headers) + body


async def _finish(writer: asyncio.StreamWriter, data: bytes, keep_alive: bool = True) -> bool:
    writer.write(data)
    await writer.drain()
    if not keep_alive:
        writer.close()
    return keep_alive


def _int(request: Request, name: str, default: int) -> int:
    return int(request.query.get(name, default))


class _InterceptorRoutes:
    """Routes for retry and authentication tests (docs/interceptors.md), with state per key so
    that concurrent tests never share a counter. Mixed into Routes."""

    def _init_interceptor_routes(self) -> None:
        self._attempts: dict[str, list[float]] = {}
        self._retry_after_dates: dict[str, list[float]] = {}
        self._bearer: dict[str, dict[str, int]] = {}
        self.prefixed.update({"/flaky/": self.flaky, "/bearer/": self.bearer, "/bearer-counts/": self.bearer_counts})

    async def flaky(self, request, reader, writer) -> bool:
        """`/flaky/KEY?fail=N`: the first N requests for KEY fail, later ones answer 200 with JSON
        `{"attempts", "times", "retry_after_dates"}` (arrival times in Unix seconds). A failure is
        `status` (default 503), or a TCP reset with `mode=reset`; `retry_after=S` adds
        `Retry-After: S`, `retry_after_date=S` adds `Retry-After` as the HTTP-date S seconds after
        the next whole second."""
        key = request.path.removeprefix("/flaky/")
        times = self._attempts.setdefault(key, [])
        times.append(time.time())
        if len(times) > _int(request, "fail", 1):
            body = json.dumps({"attempts": len(times), "times": times,
                               "retry_after_dates": self._retry_after_dates.get(key, [])}).encode()
            return await _finish(writer, simple("200 OK", body, [("Content-Type", "application/json")]))
        if request.query.get("mode") == "reset":
            _abort_with_reset(writer)
            return False
        extra = []
        if "retry_after" in request.query:
            extra.append(("Retry-After", request.query["retry_after"]))
        if "retry_after_date" in request.query:
            target = math.ceil(time.time()) + _int(request, "retry_after_date", 1)
            self._retry_after_dates.setdefault(key, []).append(float(target))
            extra.append(("Retry-After", email.utils.formatdate(target, usegmt=True)))
        status = _int(request, "status", 503)
        return await _finish(writer, simple(f"{status} Flaky", f"failure {len(times)}\n".encode(), extra))

    async def bearer(self, request, reader, writer) -> bool:
        """`/bearer/KEY`: 200 for `Authorization: Bearer fresh-…`, else 401; counted per KEY."""
        key = request.path.removeprefix("/bearer/")
        counts = self._bearer.setdefault(key, {"accepted": 0, "refused": 0})
        authorization = ""
        for line in request.head.decode("latin-1").split("\r\n")[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "authorization":
                authorization = value.strip()
        if authorization.startswith("Bearer fresh-"):
            counts["accepted"] += 1
            return await _finish(writer, simple("200 OK", authorization.encode()))
        counts["refused"] += 1
        return await _finish(writer, simple("401 Unauthorized", b"refused\n", [("WWW-Authenticate", "Bearer")]))

    async def bearer_counts(self, request, reader, writer) -> bool:
        """`/bearer-counts/KEY`: JSON `{"accepted", "refused"}` for `/bearer/KEY`."""
        counts = self._bearer.get(request.path.removeprefix("/bearer-counts/"), {"accepted": 0, "refused": 0})
        return await _finish(writer, simple("200 OK", json.dumps(counts).encode(), [("Content-Type", "application/json")]))


class Routes(_InterceptorRoutes):
    """Route table of one fault server; `canary_count` is read from the server that owns it."""

    def __init__(self, canary_count) -> None:
        self._canary_count = canary_count
        self._bombs: asyncio.Future | None = None
        self.exact = {
            "/ok": self.ok,
            "/echo": self.echo,
            "/upload-digest": self.upload_digest,
            "/canary/count": self.canary,
            "/redirect": self.redirect,
            "/loop-a": self.loop,
            "/loop-b": self.loop,
            "/truncated": self.truncated,
            "/double-length": self.double_length,
            "/bad-chunk": self.bad_chunk,
            "/overflow-chunk": self.overflow_chunk,
            "/chunk-close": self.chunk_close,
            "/reset": self.reset,
            "/reset-immediately": self.reset_immediately,
            "/empty-reply": self.empty_reply,
            "/stall": self.stall,
            "/stall-body": self.stall_body,
            "/slowloris": self.slowloris,
            "/slow-body": self.slow_body,
            "/never-ends": self.never_ends,
            "/huge-header": self.huge_header,
            "/many-headers": self.many_headers,
            "/bad-status": self.bad_status,
            "/nul-header": self.nul_header,
            "/1xx-flood": self.informational_flood,
            "/gzip-bomb": self.bomb,
            "/deflate-bomb": self.bomb,
            "/brotli-bomb": self.bomb,
            "/stacked-encoding": self.bomb,
            "/gzip-compressible": self.gzip_compressible,
            "/raw-head": self.raw_head,
            "/hostile-text": self.hostile_text,
        }
        self.prefixed = {"/chain/": self.chain, "/delay-ms/": self.delay, "/status/": self.status}
        self.prefixed["/concurrency/"] = ConcurrencyRoutes().handle
        self.prefixed["/download/"] = download_routes.handle
        self.prefixed["/integrity/"] = IntegrityRoutes().handle  # integrity_routes.py
        self.prefixed["/mixed-replace/"] = MixedReplaceRoutes().handle
        self.prefixed["/auth-record/"] = AuthRecordRoutes().handle  # auth_routes.py
        self.prefixed["/sse/"] = EventStreamRoutes().handle  # event_stream_routes.py
        self.prefixed["/trailers/"] = trailer_routes.handle  # trailer_routes.py
        self.prefixed["/held/"] = HeldRoutes().handle  # held_routes.py: bodies held until a test releases them
        self.prefixed["/cookies/"] = CookieRoutes().handle  # cookie_routes.py
        self._init_interceptor_routes()

    def start_building_bombs(self) -> None:
        self._bombs = asyncio.get_running_loop().run_in_executor(None, Bombs)

    def handler(self, path: str):
        if path in self.exact:
            return self.exact[path]
        for prefix, handler in self.prefixed.items():
            if path.startswith(prefix):
                return handler
        return self.not_found

    # MARK: well-formed

    async def ok(self, request, reader, writer) -> bool:
        return await _finish(writer, simple("200 OK", b"ok"))

    async def not_found(self, request, reader, writer) -> bool:
        return await _finish(writer, simple("404 Not Found", f"no fault route {request.path}\n".encode()))

    async def echo(self, request, reader, writer) -> bool:
        """The request head byte for byte, then the body's length and SHA-256."""
        body = request.head + f"body-length: {request.body_length}\nbody-sha256: {request.body_sha256}\n".encode()
        return await _finish(writer, simple("200 OK", body, [("Content-Type", "application/octet-stream")]))

    async def upload_digest(self, request, reader, writer) -> bool:
        return await _finish(writer, simple("200 OK", f"{request.body_length} {request.body_sha256}".encode()))

    async def canary(self, request, reader, writer) -> bool:
        return await _finish(writer, simple("200 OK", str(self._canary_count()).encode()))

    async def status(self, request, reader, writer) -> bool:
        code = int(request.path.removeprefix("/status/"))
        body = b"" if code in (204, 304) or request.method == "HEAD" else f"status {code}\n".encode()
        return await _finish(writer, head(f"{code} Status", [("Content-Length", str(len(body)))]) + body)

    async def delay(self, request, reader, writer) -> bool:
        await asyncio.sleep(int(request.path.removeprefix("/delay-ms/")) / 1000)
        return await _finish(writer, simple("200 OK", b"ok"))

    async def redirect(self, request, reader, writer) -> bool:
        status = _int(request, "status", 302)
        location = request.query.get("to", "/ok")
        return await _finish(writer, simple(f"{status} Redirect", b"", [("Location", location)]))

    async def loop(self, request, reader, writer) -> bool:
        other = "/loop-b" if request.path == "/loop-a" else "/loop-a"
        return await _finish(writer, simple("302 Found", b"", [("Location", other)]))

    async def chain(self, request, reader, writer) -> bool:
        remaining = int(request.path.removeprefix("/chain/"))
        if remaining > 0:
            return await _finish(writer, simple("302 Found", b"", [("Location", f"/chain/{remaining - 1}")]))
        return await _finish(writer, simple("200 OK", b"done"))

    # MARK: broken framing

    async def truncated(self, request, reader, writer) -> bool:
        return await _finish(writer, head("200 OK", [("Content-Length", "1000")]) + b"x" * 500, keep_alive=False)

    async def double_length(self, request, reader, writer) -> bool:
        data = head("200 OK", [("Content-Length", "5"), ("Content-Length", "10")]) + b"hello"
        return await _finish(writer, data, keep_alive=False)

    async def bad_chunk(self, request, reader, writer) -> bool:
        data = head("200 OK", [("Transfer-Encoding", "chunked")]) + b"zz\r\nhello\r\n0\r\n\r\n"
        return await _finish(writer, data, keep_alive=False)

    async def overflow_chunk(self, request, reader, writer) -> bool:
        data = head("200 OK", [("Transfer-Encoding", "chunked")]) + b"ffffffffffffffffff\r\nhello\r\n"
        return await _finish(writer, data, keep_alive=False)

    async def chunk_close(self, request, reader, writer) -> bool:
        data = head("200 OK", [("Transfer-Encoding", "chunked")]) + b"5\r\nhello\r\n"
        return await _finish(writer, data, keep_alive=False)

    # MARK: dropped and stalled connections

    async def reset(self, request, reader, writer) -> bool:
        """The head and 256 KiB of a 1 MiB body, then an RST (SO_LINGER 0) instead of a FIN."""
        writer.transport.set_write_buffer_limits(0)
        writer.write(head("200 OK", [("Content-Length", str(1024 * 1024))]) + b"r" * (256 * 1024))
        await writer.drain()
        await asyncio.sleep(0.2)  # let the partial body reach the client before the reset
        _abort_with_reset(writer)
        return False

    async def reset_immediately(self, request, reader, writer) -> bool:
        _abort_with_reset(writer)
        return False

    async def empty_reply(self, request, reader, writer) -> bool:
        writer.close()
        return False

    async def stall(self, request, reader, writer) -> bool:
        await reader.read()  # hold the connection until the client gives up
        return False

    async def stall_body(self, request, reader, writer) -> bool:
        """Headers and 10 of 1000 body bytes, then nothing until the client gives up."""
        writer.write(head("200 OK", [("Content-Length", "1000")]) + b"s" * 10)
        await writer.drain()
        await reader.read()
        return False

    async def slowloris(self, request, reader, writer) -> bool:
        writer.write(head("200 OK", [("Content-Length", "1000000")]))
        while True:
            await writer.drain()
            await asyncio.sleep(2)
            writer.write(b"x")

    async def slow_body(self, request, reader, writer) -> bool:
        """`bytes` (default 100) body bytes, one every `interval_ms` (default 100), then done."""
        total, interval = _int(request, "bytes", 100), _int(request, "interval_ms", 100) / 1000
        writer.write(head("200 OK", [("Content-Length", str(total))]))
        for _ in range(total):
            await writer.drain()
            await asyncio.sleep(interval)
            writer.write(b"d")
        await writer.drain()
        return True

    async def never_ends(self, request, reader, writer) -> bool:
        writer.write(head("200 OK", [("Transfer-Encoding", "chunked")]))
        chunk = b"%x\r\n%s\r\n" % (65536, b"n" * 65536)
        while True:
            writer.write(chunk)
            await writer.drain()

    # MARK: oversized and malformed heads

    async def huge_header(self, request, reader, writer) -> bool:
        data = simple("200 OK", b"ok", [("X-Huge", "h" * (1024 * 1024))], close=True)
        return await _finish(writer, data, keep_alive=False)

    async def many_headers(self, request, reader, writer) -> bool:
        data = simple("200 OK", b"ok", [(f"X-Header-{i}", "v") for i in range(10_000)], close=True)
        return await _finish(writer, data, keep_alive=False)

    async def bad_status(self, request, reader, writer) -> bool:
        return await _finish(writer, b"HTTP/1.1 OK 200 Garbage\r\nContent-Length: 2\r\n\r\nok", keep_alive=False)

    async def nul_header(self, request, reader, writer) -> bool:
        data = head("200 OK", [("Content-Length", "2"), ("X-Nul", "a\x00b")]) + b"ok"
        return await _finish(writer, data, keep_alive=False)

    async def informational_flood(self, request, reader, writer) -> bool:
        data = b"HTTP/1.1 100 Continue\r\n\r\n" * _int(request, "count", 1000)
        return await _finish(writer, data + simple("200 OK", b"ok", close=True), keep_alive=False)

    # MARK: a head to print as sent (gannet CLI)

    async def raw_head(self, request, reader, writer) -> bool:
        """An own reason phrase, fields out of alphabetical order with a repeated name, and
        terminal escape sequences in a value and in a Content-Disposition file name: raw UTF-8
        bytes, so a C1 control (U+009B) and a bidi override (U+202E) arrive as characters."""
        lines = [
            b"HTTP/1.1 200 Fine By Me",
            b"Zeta: first",
            b"X-Dup: one",
            b"Alpha: second",
            b"X-Dup: two",
            b"X-Escape: \x1b[31mred\x1b[0m\x07bell\x7fdel \xc2\x9bc1 \xe2\x80\xaertl",
            b'Content-Disposition: attachment; filename="evil\x1b]0;pwned\x07.txt"',
            b"Content-Type: text/plain",
            b"Content-Length: 2",
        ]
        return await _finish(writer, b"\r\n".join(lines) + b"\r\n\r\nok")

    # OSC 0 (retitle) ended by BEL, CSI 2J (clear the screen), a C1 CSI (U+009B) and a bidi
    # override (U+202E), as raw UTF-8 bytes.
    HOSTILE = b"\x1b]0;pwned\x07\x1b[2J\xc2\x9b31m\xe2\x80\xae"

    async def hostile_text(self, request, reader, writer) -> bool:
        """Terminal escapes (HOSTILE) in every place a server's text can reach gannet's output:
        the reason phrase, a header value, a Content-Disposition file name; `?status=N` sets
        the status, `?location=1` makes it a 302 whose Location carries them, `?name=1` puts
        them in a header name (which is not a token: a protocol violation)."""
        hostile = self.HOSTILE
        status = request.query.get("status", "302" if "location" in request.query else "200").encode()
        lines = [
            b"HTTP/1.1 " + status + b" Reason" + hostile,
            b"X-Hostile: value" + hostile,
            b'Content-Disposition: attachment; filename="name' + hostile + b'.txt"',
            b"Content-Type: text/plain",
            b"Content-Length: 2",
        ]
        if "location" in request.query:
            lines.append(b"Location: /ok?" + hostile)
        if "name" in request.query:
            lines.append(b"X-Name" + hostile + b": value")
        return await _finish(writer, b"\r\n".join(lines) + b"\r\n\r\nok")

    # MARK: compression bombs

    async def bomb(self, request, reader, writer) -> bool:
        bombs: Bombs = await asyncio.shield(self._bombs)
        body, encoding = {
            "/gzip-bomb": (bombs.gzip, "gzip"),
            "/deflate-bomb": (bombs.deflate, "deflate"),
            "/brotli-bomb": (bombs.brotli, "br"),
            "/stacked-encoding": (bombs.stacked_gzip, "gzip, gzip"),
        }[request.path]
        if body is None:
            return await _finish(writer, simple("501 Not Implemented", b"install the brotli module\n"))
        return await _finish(
            writer, simple("200 OK", body, [("Content-Type", "application/octet-stream"), ("Content-Encoding", encoding)])
        )

    # MARK: legitimate but highly compressible (issue 16): a body a bomb limit must not stop

    async def gzip_compressible(self, request, reader, writer) -> bool:
        """`mib` MiB (default 64) of sparse bytes, gzip at about 150:1; `X-Decoded-Length` says how many."""
        mib = _int(request, "mib", 64)
        body = _sparse_gzip(mib)
        extra = [("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip"),
                 ("X-Decoded-Length", str(mib << 20))]
        return await _finish(writer, simple("200 OK", body, extra))


def _sparse_gzip(mib: int) -> bytes:
    """One MiB with 3 random bytes in every 2 KiB, deflated once with a full flush (so no
    match reaches back into the previous copy) and repeated `mib` times inside one gzip member."""
    rnd = random.Random(16)
    block = bytearray(1 << 20)
    for start in range(0, len(block), 2048):
        for _ in range(3):
            block[start + rnd.randrange(2048)] = rnd.randrange(1, 256)
    block = bytes(block)
    deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
    flushed = deflater.compress(block) + deflater.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(mib):
        crc = zlib.crc32(block, crc)
    final = zlib.compressobj(6, zlib.DEFLATED, -15).flush(zlib.Z_FINISH)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    return header + flushed * mib + final + struct.pack("<II", crc, (mib << 20) & 0xFFFFFFFF)


def _abort_with_reset(writer: asyncio.StreamWriter) -> None:
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()
