"""A small forward proxy for proxy tests: absolute-form HTTP requests and CONNECT tunnels.

Two ports: one open, one that answers 407 unless `Proxy-Authorization: Basic gannet:proxy` is
sent. Only loopback targets are reached, so a misdirected test can never touch the internet.
Every request head the proxy receives is appended to its log, credentials included: that log
is how a test proves what crossed (or did not cross) to the proxy.
"""

from __future__ import annotations

import asyncio
import base64
import urllib.parse

from loopback_service import LoopbackService

USER, PASSWORD = "gannet", "proxy"
_EXPECTED = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
_LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
# Public names the proxy answers for on 127.0.0.1, so cookie tests can be sites under real
# public suffixes (`.com`, `.co.uk`) without leaving the machine.
_STAND_INS = {"attacker.com", "www.attacker.com", "bank.com", "attacker.co.uk", "bank.co.uk"}
# How long and how much an early answer keeps reading a request body it will not use.
_LINGER_SECONDS = 30
_LINGER_BYTES = 64 * 1024 * 1024


def _answer(status: str, extra: str = "") -> bytes:
    return f"HTTP/1.1 {status}\r\n{extra}Content-Length: 0\r\nConnection: close\r\n\r\n".encode()


async def _answer_early(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, answer: bytes) -> None:
    """Answers before the request body was read, then closes the way nginx's `lingering_close`
    does (RFC 9112, section 9.6): send the answer and a FIN, then read and discard what the
    client is still sending until it closes. Closing with the body unread would make the kernel
    reset the connection, and a client still sending (a 200 KB POST meeting a 407) could see
    the reset before it read the answer: a test would then fail or pass by timing.
    """
    writer.write(answer)
    await writer.drain()
    if writer.can_write_eof():
        writer.write_eof()

    async def discard() -> None:
        received = 0
        while received < _LINGER_BYTES and (data := await reader.read(65536)):
            received += len(data)

    try:
        await asyncio.wait_for(discard(), _LINGER_SECONDS)
    except asyncio.TimeoutError:
        pass


class ProxyServer(LoopbackService):
    """The open and the authenticating proxy, one port each."""

    async def start(self) -> tuple[int, int]:
        """Binds (open port, authenticating port) on 127.0.0.1."""
        open_port = await self.listen(lambda r, w: self._serve(r, w, False))
        auth_port = await self.listen(lambda r, w: self._serve(r, w, True))
        return open_port, auth_port

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, requires_auth: bool) -> None:
        upstream_writer = None
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            text = head.decode("latin-1")
            port = writer.get_extra_info("sockname")[1]
            self._log.write(f"--- port {port}\n{text}")
            lines = text.split("\r\n")
            method, target, version = lines[0].split(" ", 2)
            headers = [line.split(":", 1) for line in lines[1:] if ":" in line]
            authorization = next((v.strip() for k, v in headers if k.strip().lower() == "proxy-authorization"), None)
            if requires_auth and authorization != _EXPECTED:
                await _answer_early(reader, writer, _answer("407 Proxy Authentication Required", 'Proxy-Authenticate: Basic realm="gannet"\r\n'))
                return
            if method == "CONNECT":
                host, _, target_port = target.rpartition(":")
                path_head = None
            else:
                url = urllib.parse.urlsplit(target)
                host, target_port = url.hostname or "", url.port or 80
                origin_form = (url.path or "/") + (f"?{url.query}" if url.query else "")
                kept = [f"{k}:{v}" for k, v in headers
                        if k.strip().lower() not in ("proxy-authorization", "proxy-connection", "connection")]
                path_head = "\r\n".join([f"{method} {origin_form} {version}"] + kept + ["Connection: close", "", ""])
            if host in _STAND_INS:
                host = "127.0.0.1"
            if host not in _LOOPBACK:
                await _answer_early(reader, writer, _answer("403 Forbidden"))
                return
            try:
                upstream_reader, upstream_writer = await asyncio.open_connection(host.strip("[]"), int(target_port))
            except OSError:
                await _answer_early(reader, writer, _answer("502 Bad Gateway"))
                return
            if path_head is None:
                writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
            else:
                upstream_writer.write(path_head.encode("latin-1"))
            await asyncio.gather(_pipe(reader, upstream_writer), _pipe(upstream_reader, writer))
        except (OSError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            if upstream_writer is not None and not upstream_writer.is_closing():
                upstream_writer.close()


async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    try:
        while data := await source.read(65536):
            sink.write(data)
            await sink.drain()
    except OSError:
        pass
    finally:
        if not sink.is_closing():
            try:
                sink.write_eof()
            except OSError:
                sink.close()
