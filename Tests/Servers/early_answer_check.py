"""Checks that the proxy's early answers do not reset a client still sending (run by check.sh).

A client posts a large body to the authenticating proxy without credentials. The proxy answers
407 after reading only the head. Then the client, having seen the answer, sends more of its body:
the proxy must still be reading (a lingering close), not have reset the connection, and the
client must read the whole 407. Before the lingering close, the unread body made the kernel reset
the connection, and libcurl, still sending a 200 KB POST, sometimes saw the reset before the
answer (`NewBodyStreamTests`, under load).
"""

import asyncio
import os
import select
import socket
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from proxy_server import ProxyServer  # noqa: E402

CHUNK = b"a" * (1024 * 1024)


def client(port: int) -> str:
    with socket.create_connection(("127.0.0.1", port)) as s:
        head = (
            "POST http://127.0.0.1:9/post HTTP/1.1\r\nHost: 127.0.0.1:9\r\n"
            f"Content-Length: {8 * len(CHUNK)}\r\n\r\n"
        )
        s.sendall(head.encode() + CHUNK)
        readable, _, _ = select.select([s], [], [], 60)
        if not readable:
            return "no answer within 60 s"
        try:
            s.sendall(CHUNK)
        except OSError as error:
            return f"the connection was reset while the client was still sending: {error!r}"
        s.shutdown(socket.SHUT_WR)
        answer = b""
        while data := s.recv(65536):
            answer += data
        status = answer.split(b"\r\n", 1)[0].decode()
        return "ok" if status.startswith("HTTP/1.1 407") else f"unexpected answer: {status!r}"


async def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        proxy = ProxyServer(os.path.join(scratch, "proxy.log"))
        _, auth_port = await proxy.start()
        outcome = await asyncio.to_thread(client, auth_port)
        await proxy.stop()
    if outcome != "ok":
        print(f"FAIL early answer: {outcome}")
        return 1
    print("ok the proxy's 407 reaches a client still sending its body")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
