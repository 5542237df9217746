"""A TLS listener that reads the first 256 KiB of each connection, then resets it (SO_LINGER 0):
a peer that dies in the middle of a client's upload, for the SIGPIPE test of issue 16.

    python3 tls_reset_server.py CERT_CHAIN_PEM KEY_PEM

Prints its port on the first line of stdout, then serves until its stdin reaches EOF (the test
process holds the write end, so the listener never outlives it).
"""

from __future__ import annotations

import socket
import ssl
import struct
import sys
import threading
import os


def main() -> None:
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    listener = socket.create_server(("127.0.0.1", 0))
    print(listener.getsockname()[1], flush=True)
    while True:
        connection, _ = listener.accept()
        try:
            tls = context.wrap_socket(connection, server_side=True)
            received = 0
            while received < 256 * 1024:
                data = tls.recv(65536)
                if not data:
                    break
                received += len(data)
            tls.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            tls.close()
        except (OSError, ssl.SSLError):
            connection.close()


if __name__ == "__main__":
    main()
