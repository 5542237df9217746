"""An HTTP server that asks for NTLM (Microsoft's challenge-response over HTTP), for issue 12:
libcurl computes the client's side, pyspnego's acceptor checks it against one account.

    python3 ntlm_server.py DOMAIN USER PASSWORD

Prints {"plain": PORT} on the first line of stdout, then one line per request
(`METHOD PATH STATUS AUTH`, AUTH being the NTLM message type the request carried or `-`), and
serves until its stdin reaches EOF. Every path answers the same way:

- no `Authorization: NTLM` (a first request): 401 with `WWW-Authenticate: NTLM`;
- a negotiate message (type 1): 401 with the challenge (type 2), on the same connection, which
  NTLM needs;
- an authenticate message (type 3) that the account's password produced: 200 with
  `{"authenticated": true, "user": "DOMAIN\\USER"}`; any other: 401 with `WWW-Authenticate: NTLM`
  and the connection closed.
"""

from __future__ import annotations

import base64
import json
import os
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

try:
    import spnego
except ImportError:  # the supervisor's check names the package to install
    print(json.dumps({"error": "Python module spnego not found: pip install pyspnego (or run scripts/install-deps.sh)"}),
          flush=True)
    sys.exit(1)

_print_lock = threading.Lock()


def _event(text: str) -> None:
    with _print_lock:
        print(text, flush=True)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self) -> None:
        super().setup()
        self.context = None  # one NTLM exchange per connection

    def log_message(self, *args) -> None:  # the events on stdout are the log
        pass

    def _answer(self, status: int, headers: dict[str, str], body: bytes = b"", close: bool = False) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(body)

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        authorization = self.headers.get("Authorization", "")
        if not authorization.startswith("NTLM "):
            _event(f"{self.command} {self.path} 401 -")
            self._answer(401, {"WWW-Authenticate": "NTLM"})
            return
        token = base64.b64decode(authorization[5:].strip())
        kind = token[8] if len(token) > 8 else 0
        try:
            if kind == 1 or self.context is None:
                self.context = spnego.server(protocol="ntlm")
            answer = self.context.step(token)
        except Exception:  # a refused authenticate message, or garbage
            self.context = None
            _event(f"{self.command} {self.path} 401 type{kind}")
            self._answer(401, {"WWW-Authenticate": "NTLM"}, close=True)
            return
        if answer:
            _event(f"{self.command} {self.path} 401 type{kind}")
            self._answer(401, {"WWW-Authenticate": "NTLM " + base64.b64encode(answer).decode()})
            return
        body = json.dumps({"authenticated": True, "user": self.context.client_principal}).encode()
        self.context = None
        _event(f"{self.command} {self.path} 200 type{kind}")
        self._answer(200, {"Content-Type": "application/json"}, body)

    do_GET = _handle
    do_POST = _handle


def main() -> None:
    domain, user, password = sys.argv[1:4]
    accounts = tempfile.NamedTemporaryFile("w", suffix=".ntlm", delete=False)
    accounts.write(f"{domain}:{user}:{password}\n")
    accounts.close()
    os.environ["NTLM_USER_FILE"] = accounts.name
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True

    def stop_on_eof() -> None:
        sys.stdin.read()
        os.unlink(accounts.name)
        os._exit(0)

    threading.Thread(target=stop_on_eof, daemon=True).start()
    _event(json.dumps({"plain": server.server_address[1]}))
    server.serve_forever()


if __name__ == "__main__":
    main()
