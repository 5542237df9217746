"""Servers that fail while the client is still sending its request body (issue 16), for
UploadFaultTests. Unlike the fault server, they do not read the body before misbehaving.

    python3 upload_fault_server.py CHAIN_PEM KEY_PEM

Prints `{"plain": PORT, "tls": PORT}` on stdout, then one JSON line per request,
`{"path": P, "received": BODY_BYTES_READ}`, and serves until its stdin reaches EOF. Both ports
serve the same routes, one request per connection:

- `/close-mid-upload`: reads 64 KiB of the body, sends a TCP FIN (no response, no close_notify),
  then reads and discards whatever else comes until the client closes;
- `/reset-mid-upload`: reads 64 KiB of the body, then resets the connection (SO_LINGER 0);
- `/early-413`: reads the head only, answers `413` with `Connection: close`, sends a FIN and
  discards the rest until the client closes (as nginx's lingering close does);
- anything else: reads the whole `Content-Length` body and answers `200` with its length.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import ssl
import struct
import sys
import threading

_lock = threading.Lock()
_PARTIAL = 64 * 1024


def say(value) -> None:
    with _lock:
        print(json.dumps(value), flush=True)


def serve(connection: socket.socket, context: ssl.SSLContext | None) -> None:
    stream = connection
    path, received = "?", 0
    try:
        connection.settimeout(60)
        if context is not None:
            stream = context.wrap_socket(connection, server_side=True)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = stream.recv(65536)
            if not chunk:
                return
            data += chunk
        head, _, data = data.partition(b"\r\n\r\n")
        path = head.split(b" ", 2)[1].split(b"?")[0].decode("latin-1")
        length = next(
            (int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")[1:] if line.lower().startswith(b"content-length:")),
            0,
        )
        if path == "/early-413":
            stream.sendall(b"HTTP/1.1 413 Payload Too Large\r\nContent-Length: 9\r\nConnection: close\r\n\r\ntoo large")
            linger(stream)
            return
        wanted = _PARTIAL if path in ("/close-mid-upload", "/reset-mid-upload") else length
        received = len(data)
        while received < wanted:
            chunk = stream.recv(65536)
            if not chunk:
                break
            received += len(chunk)
        if path == "/close-mid-upload":
            linger(stream)
        elif path == "/reset-mid-upload":
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        else:
            body = str(received).encode()
            stream.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
    except (OSError, ssl.SSLError, ValueError, IndexError):
        pass
    finally:
        say({"path": path, "received": received})
        connection.close()


def linger(stream: socket.socket) -> None:
    """A FIN, then discards the client's bytes until it closes (no RST for unread data)."""
    stream.shutdown(socket.SHUT_WR)  # on an SSLSocket this also drops to the raw socket
    while stream.recv(65536):
        pass


def accept_forever(listener: socket.socket, context: ssl.SSLContext | None) -> None:
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection, context), daemon=True).start()


def main() -> None:
    # Foundation's Process starts us with its thread's signal mask, which blocks SIGTERM.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    context.set_alpn_protocols(["http/1.1"])
    plain, tls = (socket.create_server(("127.0.0.1", 0), backlog=64) for _ in range(2))
    threading.Thread(target=accept_forever, args=(plain, None), daemon=True).start()
    threading.Thread(target=accept_forever, args=(tls, context), daemon=True).start()
    say({"plain": plain.getsockname()[1], "tls": tls.getsockname()[1]})
    threading.Event().wait()


if __name__ == "__main__":
    main()
