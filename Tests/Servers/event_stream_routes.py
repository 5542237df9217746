"""text/event-stream and NDJSON streams, written the way hostile or flaky servers write them.

/sse/story/KEY          a reconnection story, one step per request for KEY:
                        1st: 200 text/event-stream, a BOM, "retry: 50", events id 1..3 written
                             byte by byte, then half an event ("data: lost") and a clean close;
                        2nd: events 4 and 5 (multi-line data, CRLF and CR line ends, one field
                             split over two writes), chunked, then half an event and a TCP reset;
                        3rd and later: 204 No Content (the server's "stop").
/sse/log/KEY            JSON {"last_event_ids": [...], "disconnects": N}: the Last-Event-ID header
                        of each /sse/story/KEY or /sse/forever?key=KEY request ("" when absent),
                        and how many /sse/forever streams for KEY saw the client go away.
/sse/wrong-type         200 text/plain with an event-stream-looking body.
/sse/never-ends         200 text/event-stream, "data: " and then "a" bytes for ever (no line end).
/sse/forever?key=KEY    an event every 20 ms, until the client goes away (counted in the log).
/sse/ndjson?count=N     application/x-ndjson: N objects {"n": i, "text": ...}, written in uneven
                        pieces so lines are split across writes, CRLF after every third, a blank
                        line after the second; the body ends with the connection.
"""

from __future__ import annotations

import asyncio
import json
import socket
import struct


def _header(request, name: str) -> str:
    for line in request.head.decode("latin-1").split("\r\n")[1:]:
        key, _, value = line.partition(":")
        if key.strip().lower() == name:
            return value.strip()
    return ""


def _head(status: str, content_type: str, extra: str = "") -> bytes:
    return (f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nCache-Control: no-cache\r\n{extra}\r\n").encode()


async def _dribble(writer, data: bytes, size: int) -> None:
    """Writes `data` `size` bytes at a time, letting each piece leave as a read of its own."""
    for offset in range(0, len(data), size):
        writer.write(data[offset : offset + size])
        await writer.drain()
        await asyncio.sleep(0.001)


def _chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


def _reset(writer) -> None:
    sock = writer.get_extra_info("socket")
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


class EventStreamRoutes:
    def __init__(self) -> None:
        self._ids: dict[str, list[str]] = {}
        self._disconnects: dict[str, int] = {}

    async def handle(self, request, reader, writer) -> bool:
        path = request.path
        try:
            if path.startswith("/sse/story/"):
                await self._story(request, path.removeprefix("/sse/story/"), writer)
            elif path.startswith("/sse/log/"):
                key = path.removeprefix("/sse/log/")
                body = json.dumps(
                    {"last_event_ids": self._ids.get(key, []), "disconnects": self._disconnects.get(key, 0)}
                ).encode()
                writer.write(f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
                await writer.drain()
                return True
            elif path == "/sse/wrong-type":
                body = b"data: not an event stream\n\n"
                writer.write(_head("200 OK", "text/plain", f"Content-Length: {len(body)}\r\n") + body)
                await writer.drain()
            elif path == "/sse/never-ends":
                writer.write(_head("200 OK", "text/event-stream", "Connection: close\r\n") + b"data: ")
                while True:
                    writer.write(b"a" * 4096)
                    await writer.drain()
            elif path == "/sse/forever":
                await self._forever(request, writer)
            elif path == "/sse/ndjson":
                await self._ndjson(int(request.query.get("count", "20")), writer)
            else:
                writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
                await writer.drain()
                return True
        except (ConnectionError, OSError):
            pass
        writer.close()
        return False

    async def _story(self, request, key: str, writer) -> None:
        ids = self._ids.setdefault(key, [])
        ids.append(_header(request, "last-event-id"))
        step = len(ids)
        if step == 1:
            writer.write(_head("200 OK", "text/event-stream", "Connection: close\r\n"))
            events = b"\xef\xbb\xbfretry: 50\n\n" + b"".join(
                f": event {i}\nid: {i}\nevent: tick\ndata: event {i}\n\n".encode() for i in range(1, 4)
            )
            await _dribble(writer, events + b"id: 99\ndata: lost", 1)
            writer.close()
        elif step == 2:
            writer.write(_head("200 OK", "text/event-stream; charset=utf-8", "Transfer-Encoding: chunked\r\n"))
            pieces = [b"id: 4\r\ndata: four\r\ndata: lines\r\n\r\n", b"id: 5\rdata: fi", b"ve\r\r", b"data: half"]
            for piece in pieces:
                writer.write(_chunk(piece))
                await writer.drain()
                await asyncio.sleep(0.005)
            _reset(writer)
        else:
            writer.write(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")
            await writer.drain()

    async def _forever(self, request, writer) -> None:
        key = request.query.get("key", "")
        self._ids.setdefault(key, []).append(_header(request, "last-event-id"))
        writer.write(_head("200 OK", "text/event-stream", "Connection: close\r\n"))
        number = 0
        try:
            while True:
                number += 1
                writer.write(f"id: {number}\ndata: {{\"n\": {number}}}\n\n".encode())
                await writer.drain()
                await asyncio.sleep(0.02)
        except (ConnectionError, OSError):
            self._disconnects[key] = self._disconnects.get(key, 0) + 1
            raise

    async def _ndjson(self, count: int, writer) -> None:
        writer.write(_head("200 OK", "application/x-ndjson", "Connection: close\r\n"))
        body = bytearray()
        for index in range(count):
            body += json.dumps({"n": index, "text": f"line {index} \u00e9"}).encode()
            body += b"\r\n" if index % 3 == 2 else b"\n"
            if index == 1:
                body += b"\n"
        await _dribble(writer, bytes(body), 7)
