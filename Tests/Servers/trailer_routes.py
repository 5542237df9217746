"""Chunked responses with trailer fields (RFC 9112 §7.1.2), legitimate and hostile.

/trailers/small                  `200`, chunked body `hello trailers`, then the trailers
                                 `X-Checksum: 5d41402a` and `X-Status: done`; keeps the connection.
/trailers/endless?mib=N&line=L   `200`, chunked body `ok`, then trailer lines of about L bytes
                                 (default 64) as fast as the client reads, until N MiB (default
                                 64) are written or the client closes; then the blank line that
                                 ends the trailer section, so a client without a limit succeeds
                                 (and has held every line). Closes the connection.
"""

from __future__ import annotations

_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n"


async def handle(request, reader, writer) -> bool:
    if request.path == "/trailers/small":
        body = b"hello trailers"
        data = (_HEAD + b"Trailer: X-Checksum, X-Status\r\n\r\n" + b"%x\r\n%s\r\n" % (len(body), body)
                + b"0\r\nX-Checksum: 5d41402a\r\nX-Status: done\r\n\r\n")
        writer.write(data)
        await writer.drain()
        return True
    if request.path == "/trailers/endless":
        return await _endless(request, writer)
    writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
    await writer.drain()
    return True


async def _endless(request, writer) -> bool:
    total = int(request.query.get("mib", 64)) << 20
    width = max(int(request.query.get("line", 64)), 16)
    # About 64 KiB of the same line, written again and again: names may repeat in a trailer
    # section, and one prepared block lets the client, not Python, set the pace.
    line = b"X-Trailer: " + b"t" * (width - 13) + b"\r\n"
    block = line * max(65536 // len(line), 1)
    writer.write(_HEAD + b"\r\n2\r\nok\r\n0\r\n")
    sent = 0
    try:
        while sent < total:
            writer.write(block)
            sent += len(block)
            await writer.drain()  # raises once the client has closed
        writer.write(b"\r\n")
        await writer.drain()
    except OSError:
        pass
    writer.close()
    return False
