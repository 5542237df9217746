"""The fault server's `/cookies/` routes: Set-Cookie lines exactly as a test writes them, and
the Cookie field exactly as the client sent it (RFC 6265bis tests, docs/auth-cookies-cache.md).

- `/cookies/chain/N?size=S&count=C`: C cookies of S bytes (`hopN_i`, `Path=/`) and a 302 to hop
  N-1; hop 0 answers with the Cookie field. The redirect chain that grew one request's Cookie
  field to 880 KB.
- `/cookies/<any path>?lines=L1%0AL2&to=URL`: the request's Cookie field as the body (empty
  without one), one `Set-Cookie` field per line given, byte for byte (commas and all); with
  `to`, a 302 to it. Any path, so a test chooses the request path a default cookie path comes
  from.
"""

from __future__ import annotations

import urllib.parse


def _answer(status: str, body: bytes, set_cookies: list[str], location: str | None = None) -> bytes:
    lines = [f"HTTP/1.1 {status}", "Content-Type: text/plain", f"Content-Length: {len(body)}"]
    lines += [f"Set-Cookie: {line}" for line in set_cookies]
    if location is not None:
        lines.append(f"Location: {location}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def _cookie_field(head: bytes) -> bytes:
    values = []
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"cookie":
            values.append(value.strip())
    return b"; ".join(values)


class CookieRoutes:
    async def handle(self, request, reader, writer) -> bool:
        path = request.path
        if path.startswith("/cookies/chain/"):
            hop = int(path.removeprefix("/cookies/chain/"))
            size, count = int(request.query.get("size", "100")), int(request.query.get("count", "1"))
            if hop > 0:
                lines = [f"hop{hop}_{i}={'x' * size}; Path=/" for i in range(count)]
                query = urllib.parse.urlencode({"size": size, "count": count})
                data = _answer("302 Found", b"", lines, f"/cookies/chain/{hop - 1}?{query}")
            else:
                data = _answer("200 OK", _cookie_field(request.head), [])
        else:
            lines = [line for line in request.query.get("lines", "").split("\n") if line]
            to = request.query.get("to")
            data = _answer("302 Found" if to else "200 OK", _cookie_field(request.head), lines, to)
        writer.write(data)
        await writer.drain()
        return True
