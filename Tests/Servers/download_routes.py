"""Routes for the download tests (docs/core.md, "Downloads").

/download/page?status=S&bytes=N&type=T  answers status S (default 200) with N bytes of body
                                        (default 1000; byte i is i % 251, so any prefix can be
                                        checked) and Content-Type T (default text/html).
"""

from __future__ import annotations


async def handle(request, reader, writer) -> bool:
    status = int(request.query.get("status", 200))
    length = int(request.query.get("bytes", 1000))
    content_type = request.query.get("type", "text/html")
    body = bytes(i % 251 for i in range(length)) if request.method != "HEAD" else b""
    headers = [("Content-Type", content_type), ("Content-Length", str(length))]
    lines = [f"HTTP/1.1 {status} Download Page"] + [f"{k}: {v}" for k, v in headers]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
    await writer.drain()
    return True
