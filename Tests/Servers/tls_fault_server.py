"""TLS servers that misbehave in one documented way each (issue 16), for TLSFaultTests.

    python3 tls_fault_server.py CHAIN_PEM KEY_PEM OTHER_CHAIN_PEM OTHER_KEY_PEM

Prints one JSON line of ports on stdout, then serves until its stdin reaches EOF (the test
process holds the write end, so the servers never outlive it):

- `stall`: accepts TCP connections and never says a word: a TLS handshake that never ends.
  It reads and discards what the client sends and closes its end when the client closes.
- `faults`: TLS with CHAIN_PEM, one request per connection, by path:
  `/http10-close-notify`  HTTP/1.0, no Content-Length, 1000 bytes, close_notify, close (complete);
  `/http10-no-close-notify` the same body, then a TCP close without close_notify (truncated);
  `/alert-mid-body`  `Content-Length: 1000`, 500 bytes, then a fatal TLS alert;
  `/echo`  `200`, the request head exactly as received (to see what reached the origin);
  anything else `200 ok`.
- `rotating`: TLS, `200 ok` and `Connection: close`; odd connections (1st, 3rd, ...) present
  CHAIN_PEM, even ones OTHER_CHAIN_PEM (another key). Prints one JSON line per handshake:
  `{"connection": N, "leaf": "first"|"other", "resumed": BOOL}`.
"""

from __future__ import annotations

import json
import os
import resource
import selectors
import signal
import socket
import ssl
import sys
import threading

BODY = b"x" * 1000
_lock = threading.Lock()


def say(value) -> None:
    with _lock:
        print(json.dumps(value), flush=True)


class MemoryTLS:
    """A server-side TLS connection through memory BIOs, so the server can also feed its own
    OpenSSL a record it cannot decrypt: OpenSSL then sends the client a real fatal alert."""

    def __init__(self, connection: socket.socket, context: ssl.SSLContext):
        self.connection = connection
        self.incoming, self.outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        self.tls = context.wrap_bio(self.incoming, self.outgoing, server_side=True)

    def _flush(self) -> None:
        data = self.outgoing.read()
        if data:
            self.connection.sendall(data)

    def _call(self, operation, *arguments):
        while True:
            try:
                result = operation(*arguments)
                self._flush()
                return result
            except ssl.SSLWantReadError:
                self._flush()
                data = self.connection.recv(65536)
                if not data:
                    raise EOFError
                self.incoming.write(data)

    def handshake(self) -> None:
        self._call(self.tls.do_handshake)

    def read_head(self) -> bytes:
        data = b""
        while b"\r\n\r\n" not in data:
            data += self._call(self.tls.read, 65536)
        return data

    def send(self, data: bytes) -> None:
        self._call(self.tls.write, data)

    def close_notify(self) -> None:
        try:
            self.tls.unwrap()
        except (ssl.SSLError, ssl.SSLWantReadError):
            pass
        self._flush()

    def fatal_alert(self) -> None:
        # An application-data record of random bytes: decrypting it fails, and OpenSSL answers
        # with a fatal bad_record_mac alert (encrypted under the current keys), as it would to
        # a record corrupted in transit.
        self.incoming.write(bytes([23, 3, 3, 0, 48]) + os.urandom(48))
        try:
            self.tls.read(1)
        except ssl.SSLError:
            pass
        self._flush()


def serve_fault(connection: socket.socket, context: ssl.SSLContext) -> None:
    tls = MemoryTLS(connection, context)
    try:
        tls.handshake()
        request = tls.read_head()
        path = request.split(b" ", 2)[1].split(b"?")[0]
        if path in (b"/http10-close-notify", b"/http10-no-close-notify"):
            tls.send(b"HTTP/1.0 200 OK\r\nContent-Type: application/octet-stream\r\n\r\n" + BODY)
            if path == b"/http10-close-notify":
                tls.close_notify()
        elif path == b"/alert-mid-body":
            tls.send(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + BODY[:500])
            tls.fatal_alert()
        elif path == b"/echo":
            head = request.partition(b"\r\n\r\n")[0] + b"\r\n\r\n"
            tls.send(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(head), head))
            tls.close_notify()
        else:
            tls.send(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
            tls.close_notify()
    except (OSError, EOFError, ssl.SSLError, IndexError):
        pass
    finally:
        connection.close()


def serve_rotating(connection: socket.socket, number: int, contexts: list[ssl.SSLContext]) -> None:
    context = contexts[(number - 1) % 2]
    line = {"connection": number, "leaf": "first" if number % 2 else "other"}
    try:
        with context.wrap_socket(connection, server_side=True) as tls:
            line["resumed"] = tls.session_reused
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = tls.recv(65536)
                if not chunk:
                    return
                data += chunk
            tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
    except (OSError, ssl.SSLError):
        line["failed"] = True
    finally:
        say(line)  # exactly one line per connection
        connection.close()


def stall_forever(listener: socket.socket) -> None:
    """Never answers; closes a connection once the client has closed it (thousands may wait)."""
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    while True:
        for key, _ in selector.select():
            if key.fileobj is listener:
                connection, _ = listener.accept()
                selector.register(connection, selectors.EVENT_READ)
                continue
            try:
                data = key.fileobj.recv(65536)
            except OSError:
                data = b""
            if not data:
                selector.unregister(key.fileobj)
                key.fileobj.close()


def accept_forever(listener: socket.socket, handle) -> None:
    number = 0
    while True:
        connection, _ = listener.accept()
        number += 1
        threading.Thread(target=handle, args=(connection, number), daemon=True).start()


def main() -> None:
    # Foundation's Process starts us with its thread's signal mask, which blocks SIGTERM.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    chain, key, other_chain, other_key = sys.argv[1:5]
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the soak holds hundreds at once

    def context(chain_path: str, key_path: str) -> ssl.SSLContext:
        result = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        result.load_cert_chain(chain_path, key_path)
        result.set_alpn_protocols(["http/1.1"])
        return result

    first, other = context(chain, key), context(other_chain, other_key)
    stall, faults, rotating = (socket.create_server(("127.0.0.1", 0), backlog=1024) for _ in range(3))
    threading.Thread(target=stall_forever, args=(stall,), daemon=True).start()
    threading.Thread(
        target=accept_forever, args=(faults, lambda c, _: serve_fault(c, first)), daemon=True
    ).start()
    threading.Thread(
        target=accept_forever, args=(rotating, lambda c, n: serve_rotating(c, n, [first, other])), daemon=True
    ).start()
    say({"stall": stall.getsockname()[1], "faults": faults.getsockname()[1], "rotating": rotating.getsockname()[1]})
    threading.Event().wait()


if __name__ == "__main__":
    main()
