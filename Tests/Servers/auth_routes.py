"""Routes that record what a client sent as credentials (issue 24: a credential goes only to the
scheme and origin it was given for).

/auth-record/KEY?challenge=V  answers 401 with `WWW-Authenticate: V` (default `Basic realm="fault"`),
                              every time, and records the request's Authorization header ("" when
                              there is none) under KEY.
/auth-record/KEY/log          JSON list of the Authorization headers KEY received, in order.

A test then proves what reached the server, not what the client says it sent.
"""

from __future__ import annotations

import json


def _simple(status: str, body: bytes, extra: list[tuple[str, str]] | None = None) -> bytes:
    headers = [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))] + (extra or [])
    lines = [f"HTTP/1.1 {status}"] + [f"{k}: {v}" for k, v in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class AuthRecordRoutes:
    def __init__(self) -> None:
        self._seen: dict[str, list[str]] = {}

    async def handle(self, request, reader, writer) -> bool:
        rest = request.path.removeprefix("/auth-record/")
        if rest.endswith("/log"):
            body = json.dumps(self._seen.get(rest.removesuffix("/log"), [])).encode()
            data = _simple("200 OK", body, [("Content-Type", "application/json")])
        else:
            authorization = ""
            for line in request.head.decode("latin-1").split("\r\n")[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "authorization":
                    authorization = value.strip()
            self._seen.setdefault(rest, []).append(authorization)
            challenge = request.query.get("challenge", 'Basic realm="fault"')
            data = _simple("401 Unauthorized", b"refused\n", [("WWW-Authenticate", challenge)])
        writer.write(data)
        await writer.drain()
        return True
