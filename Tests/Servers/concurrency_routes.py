"""Routes that count, per key, how many requests the server holds at once.

/concurrency/hold?key=K&ms=N  holds the request N ms, then answers 200 "held"; if the client
                              closes the connection first, the request counts as aborted.
/concurrency/max?key=K        JSON {"max", "in_flight", "started", "finished", "aborted"} for K.

A client's concurrency limit is then checked where it matters, at the server: with
maxConcurrentOperationCount = 2, "max" never exceeds 2.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict, dataclass


@dataclass
class Counts:
    max: int = 0
    in_flight: int = 0
    started: int = 0
    finished: int = 0
    aborted: int = 0


def simple(status: str, body: bytes, extra: list[tuple[str, str]] | None = None) -> bytes:
    headers = [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))] + (extra or [])
    lines = [f"HTTP/1.1 {status}"] + [f"{k}: {v}" for k, v in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class ConcurrencyRoutes:
    def __init__(self) -> None:
        self._counts: dict[str, Counts] = {}

    async def handle(self, request, reader, writer) -> bool:
        counts = self._counts.setdefault(request.query.get("key", ""), Counts())
        if request.path == "/concurrency/max":
            body = json.dumps(asdict(counts)).encode()
            writer.write(simple("200 OK", body))
            await writer.drain()
            return True
        if request.path != "/concurrency/hold":
            writer.write(simple("404 Not Found", b"no such concurrency route\n"))
            await writer.drain()
            return True

        counts.started += 1
        counts.in_flight += 1
        counts.max = max(counts.max, counts.in_flight)
        # Waiting for a read as well as the timer tells a client that gave up (EOF) from one
        # that still waits; the client sends nothing else on this connection meanwhile.
        timer = asyncio.ensure_future(asyncio.sleep(int(request.query.get("ms", "1000")) / 1000))
        closed = asyncio.ensure_future(reader.read(1))
        try:
            await asyncio.wait({timer, closed}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            counts.in_flight -= 1
            timer.cancel()
            aborted = closed.done()
            if not aborted:
                closed.cancel()
                # The next request on this connection is read only once this read is gone.
                await asyncio.gather(closed, return_exceptions=True)
        if aborted:
            counts.aborted += 1
            writer.close()
            return False
        counts.finished += 1
        writer.write(simple("200 OK", b"held"))
        await writer.drain()
        return True
