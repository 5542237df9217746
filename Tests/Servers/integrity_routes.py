"""Fault-server routes for connection-pool integrity and message framing (issue 16), for
PoolIntegrityTests. Registered under `/integrity/` by fault_routes.py.

Pool (per `key`, so concurrent tests never share a counter):
  /integrity/ok                 `200 ok`, keep-alive
  /integrity/overlong           `Content-Length: 5`, `hello`, then a whole second response
                                (`200`, `smuggled`) beyond the length; the connection stays open
  /integrity/idle-close         `200 ok` without `Connection: close`, then closes the connection:
                                an idle keep-alive connection the server has dropped
  /integrity/post?key=K         counts the request (body read), `200` with the count
  /integrity/post-drop?key=K    counts the request (body read); the first one for K is dropped
                                with no answer (a server that processed it, then closed), later
                                ones answer `200` with the count
  /integrity/count?key=K        the count for K, `200`

Framing (each closes the connection after answering):
  /integrity/length-and-chunked `Content-Length: 100` and `Transfer-Encoding: chunked`, chunked `hello`
  /integrity/negative-length    `Content-Length: -1`, `hello`
  /integrity/plus-length        `Content-Length: +5`, `hello`
  /integrity/corrupt-gzip       `Content-Encoding: gzip`, a gzip header then bytes no inflater accepts
  /integrity/bare-lf            the head's lines end in LF alone; body `hello`
  /integrity/bare-cr            a header line ends in CR alone, followed by `X-Smuggled: 1`; body `hello`
  /integrity/trailer-flood      chunked `hello`, then 100,000 trailer fields (about 2 MB)
"""

from __future__ import annotations

import asyncio


def _answer(status: str, body: bytes, close: bool = False) -> bytes:
    extra = "Connection: close\r\n" if close else ""
    return f"HTTP/1.1 {status}\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n{extra}\r\n".encode() + body


_FRAMING = {
    "/integrity/length-and-chunked":
        b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    "/integrity/negative-length": b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\nhello",
    "/integrity/plus-length": b"HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nhello",
    "/integrity/corrupt-gzip":
        b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 42\r\n\r\n"
        + b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + b"\xff" * 32,
    "/integrity/bare-lf": b"HTTP/1.1 200 OK\nContent-Type: text/plain\nContent-Length: 5\n\nhello",
    "/integrity/bare-cr": b"HTTP/1.1 200 OK\r\nContent-Length: 5\rX-Smuggled: 1\r\n\r\nhello",
}


class IntegrityRoutes:
    def __init__(self) -> None:
        self._counts: dict[str, int] = {}

    async def handle(self, request, reader, writer: asyncio.StreamWriter) -> bool:
        path, key = request.path, request.query.get("key", "")
        if path in _FRAMING:
            return await _send(writer, _FRAMING[path], keep_alive=False)
        if path == "/integrity/trailer-flood":
            writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n")
            for index in range(100_000):
                writer.write(b"X-Trailer-%d: flood\r\n" % index)
                if index % 1000 == 0:
                    await writer.drain()
            return await _send(writer, b"\r\n", keep_alive=False)
        if path == "/integrity/ok":
            return await _send(writer, _answer("200 OK", b"ok"))
        if path == "/integrity/overlong":
            return await _send(writer, _answer("200 OK", b"hello") + _answer("200 OK", b"smuggled"))
        if path == "/integrity/idle-close":
            return await _send(writer, _answer("200 OK", b"ok"), keep_alive=False)
        if path in ("/integrity/post", "/integrity/post-drop"):
            self._counts[key] = self._counts.get(key, 0) + 1
            if path == "/integrity/post-drop" and self._counts[key] == 1:
                writer.close()
                return False
            return await _send(writer, _answer("200 OK", str(self._counts[key]).encode()))
        if path == "/integrity/count":
            return await _send(writer, _answer("200 OK", str(self._counts.get(key, 0)).encode()))
        return await _send(writer, _answer("404 Not Found", b"no integrity route\n"))


async def _send(writer: asyncio.StreamWriter, data: bytes, keep_alive: bool = True) -> bool:
    writer.write(data)
    await writer.drain()
    if not keep_alive:
        writer.close()
    return keep_alive
