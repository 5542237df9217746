"""multipart/x-mixed-replace streams, as an MJPEG camera sends them.

/mixed-replace/parts?count=N&big=I  N parts (part I is 5 MiB) under boundary "gannetframe",
                                    after a preamble and before an epilogue, written in uneven
                                    pieces so boundaries and headers are split across reads.
                                    The body is delimited by closing the connection.

Part i carries the headers "Content-Type: application/octet-stream" and "X-Part: i"; its body
is part_body(i, big). GannetCoreTests' MixedReplaceTests rebuilds the same bytes.
"""

from __future__ import annotations

import asyncio

BOUNDARY = "gannetframe"


def part_body(index: int, big: int) -> bytes:
    if index == big:
        size = 5 << 20
        return (bytes(range(251)) * (size // 251 + 1))[:size]
    return (f"part-{index};".encode() * ((index * 37) % 200 + 1))


def stream(count: int, big: int) -> bytes:
    out = bytearray(b"This is the preamble; clients ignore it.\r\n")
    for index in range(count):
        out += f"--{BOUNDARY}\r\n".encode()
        out += f"Content-Type: application/octet-stream\r\nX-Part: {index}\r\n\r\n".encode()
        out += part_body(index, big)
        out += b"\r\n"
    out += f"--{BOUNDARY}--\r\nThis is the epilogue.\r\n".encode()
    return bytes(out)


class MixedReplaceRoutes:
    async def handle(self, request, reader, writer) -> bool:
        count = int(request.query.get("count", "50"))
        big = int(request.query.get("big", "-1"))
        head = (
            "HTTP/1.1 200 OK\r\n"
            f"Content-Type: multipart/x-mixed-replace; boundary={BOUNDARY}\r\n"
            "Connection: close\r\n\r\n"
        )
        writer.write(head.encode())
        body = stream(count, big)
        sizes = [1, 7, 13, 100, 3000, 65536]
        offset = 0
        step = 0
        try:
            while offset < len(body):
                size = sizes[step % len(sizes)]
                writer.write(body[offset : offset + size])
                offset += size
                step += 1
                await writer.drain()
                if step % 6 == 0:
                    # Lets the client read what is there, so pieces arrive as separate reads.
                    await asyncio.sleep(0.001)
        except (ConnectionError, OSError):
            pass
        writer.close()
        return False
