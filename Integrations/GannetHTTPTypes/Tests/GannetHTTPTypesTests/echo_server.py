#!/usr/bin/env python3
"""A small HTTP/1.1 server on 127.0.0.1 for GannetHTTPTypes' tests (standard library only).

Prints `PORT=<n>` on stdout once it listens, and exits when its stdin closes, so the test
process that started it never leaves it behind.

  /echo          any method: answers JSON {method, path, query, headers: [[name, value], ...],
                 body_length, body_sha256}; reads a Content-Length or chunked body.
  /cookies       200 "Fine" with two Set-Cookie fields and X-Order: 1, X-Order: 2.
  /status/<n>    status <n> with a JSON body {"status": n}.
  /stream/<n>    <n> bytes of b"0123456789" repeated, chunked, in 16 KiB writes.
"""
import hashlib
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def read_body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            body = bytearray()
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return bytes(body)
                body += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length", "0")))

    def send_json(self, status: int, value, reason: str | None = None, extra=()):
        payload = json.dumps(value).encode()
        self.send_response(status, reason)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for name, field in extra:
            self.send_header(name, field)
        self.end_headers()
        self.wfile.write(payload)

    def handle_any(self):
        url = urlsplit(self.path)
        body = self.read_body()
        if url.path == "/echo":
            self.send_json(200, {
                "method": self.command,
                "path": url.path,
                "query": url.query,
                "headers": [[name, value] for name, value in self.headers.items()],
                "body_length": len(body),
                "body_sha256": hashlib.sha256(body).hexdigest(),
            })
        elif url.path == "/cookies":
            self.send_json(200, {}, reason="Fine", extra=[
                ("Set-Cookie", "a=1; Path=/"), ("Set-Cookie", "b=2; Path=/"),
                ("X-Order", "1"), ("X-Order", "2"),
            ])
        elif url.path.startswith("/status/"):
            status = int(url.path.rsplit("/", 1)[1])
            self.send_json(status, {"status": status})
        elif url.path.startswith("/stream/"):
            remaining = int(url.path.rsplit("/", 1)[1])
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            pattern = b"0123456789" * 1639  # 16,390 bytes
            while remaining > 0:
                piece = pattern[:min(remaining, 16 << 10)]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                remaining -= len(piece)
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_json(404, {"error": "no route " + url.path})

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that hangs up mid-stream (the cancellation test) is expected, not news.
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


def main():
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"PORT={server.server_address[1]}", flush=True)
    sys.stdin.read()  # returns when the test process closes the pipe or exits
    os._exit(0)


if __name__ == "__main__":
    main()
