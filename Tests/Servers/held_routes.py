"""Routes for interruption tests: a body held after a prefix until the test releases it.

A test that interrupts a transfer (Ctrl-C, cancel, suspend) must act while the transfer is
still going; a rate-limited body only makes that likely, and a loaded machine finishes it
first. These routes make it certain: the body stops after a prefix and waits for the test.

/held/file?key=K&path=P&prefix=N  200 with the file P (an absolute path whose name starts with
                                  "gannet-held-"), ETag and Last-Modified from its size and
                                  mtime, Accept-Ranges: bytes; sends the first N bytes, then
                                  waits until /held/release?key=K (or the client closes). With
                                  `Range: bytes=A-` (and an If-Range that matches, or none)
                                  it answers 206 with the rest at once, held only if N > A.
/held/release?key=K               releases every request held for K, now and later.
/held/stats?key=K                 JSON {"held": requests waiting now, "requests": [{"status",
                                  "range_start", "sent", "completed", "aborted"}, ...]}.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import os


def simple(status: str, body: bytes, content_type: str = "text/plain") -> bytes:
    head = f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode("latin-1") + body


def _headers(head: bytes) -> dict[str, str]:
    """The request's header fields by lowercased name (the fault server keeps the head raw)."""
    fields = {}
    for line in head.decode("latin-1").split("\r\n")[1:]:
        name, colon, value = line.partition(":")
        if colon:
            fields[name.strip().lower()] = value.strip()
    return fields


class _Key:
    def __init__(self) -> None:
        self.released = asyncio.Event()
        self.held = 0
        self.requests: list[dict] = []


class HeldRoutes:
    def __init__(self) -> None:
        self._keys: dict[str, _Key] = {}

    def _key(self, request) -> _Key:
        return self._keys.setdefault(request.query.get("key", ""), _Key())

    async def handle(self, request, reader, writer) -> bool:
        key = self._key(request)
        if request.path == "/held/release":
            key.released.set()
            writer.write(simple("200 OK", b"released"))
            await writer.drain()
            return True
        if request.path == "/held/stats":
            body = json.dumps({"held": key.held, "requests": key.requests}).encode()
            writer.write(simple("200 OK", body, "application/json"))
            await writer.drain()
            return True
        if request.path != "/held/file":
            writer.write(simple("404 Not Found", b"no such held route\n"))
            await writer.drain()
            return True
        return await self._file(request, reader, writer, key)

    async def _file(self, request, reader, writer, key: _Key) -> bool:
        path = request.query.get("path", "")
        if not os.path.isabs(path) or not os.path.basename(path).startswith("gannet-held-"):
            writer.write(simple("400 Bad Request", b"path must be absolute and named gannet-held-*\n"))
            await writer.drain()
            return True
        status_of_file = os.stat(path)
        length, mtime = status_of_file.st_size, status_of_file.st_mtime
        etag = f'"{length:x}-{int(mtime):x}"'
        modified = email.utils.formatdate(mtime, usegmt=True)
        start = 0
        status = "200 OK"
        headers = [("Content-Type", "application/octet-stream"), ("ETag", etag), ("Last-Modified", modified),
                   ("Accept-Ranges", "bytes")]
        fields = _headers(request.head)
        ranges = fields.get("range", "")
        if_range = fields.get("if-range")
        if ranges.startswith("bytes=") and ranges.endswith("-") and if_range in (None, etag, modified):
            start = int(ranges[len("bytes="):-1])
            status = "206 Partial Content"
            headers.append(("Content-Range", f"bytes {start}-{length - 1}/{length}"))
        headers.append(("Content-Length", str(length - start)))
        record = {"status": int(status[:3]), "range_start": start, "sent": 0, "completed": False, "aborted": False}
        key.requests.append(record)
        lines = [f"HTTP/1.1 {status}"] + [f"{k}: {v}" for k, v in headers]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        prefix = max(start, min(int(request.query.get("prefix", "0")), length))
        # Streamed from the file: the gibibyte test's file is not read into memory.
        with open(path, "rb") as file:
            file.seek(start)
            try:
                await writer.drain()
                await self._send(writer, file, prefix - start, record)
                # Held only where the prefix ends inside what this request asked for: a range
                # request for the rest (a continued download) is sent at once.
                if start < prefix < length and not key.released.is_set():
                    if not await self._hold(reader, key):
                        record["aborted"] = True
                        writer.close()
                        return False
                await self._send(writer, file, length - prefix, record)
            except (ConnectionError, OSError):
                record["aborted"] = True
                writer.close()
                return False
        record["completed"] = True
        return True

    @staticmethod
    async def _send(writer, file, count: int, record: dict) -> None:
        while count > 0:
            chunk = file.read(min(count, 256 * 1024))
            if not chunk:
                raise OSError("the held file is shorter than it was")
            writer.write(chunk)
            await writer.drain()
            record["sent"] += len(chunk)
            count -= len(chunk)

    @staticmethod
    async def _hold(reader, key: _Key) -> bool:
        """Waits for the release; `False` if the client closed the connection first."""
        key.held += 1
        released = asyncio.ensure_future(key.released.wait())
        # A read tells a client that gave up (EOF) from one that still waits; the client sends
        # nothing else on this connection meanwhile (as in concurrency_routes.py).
        closed = asyncio.ensure_future(reader.read(1))
        try:
            await asyncio.wait({released, closed}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            key.held -= 1
            released.cancel()
            aborted = closed.done()
            if not aborted:
                closed.cancel()
                await asyncio.gather(closed, return_exceptions=True)
        return not aborted
