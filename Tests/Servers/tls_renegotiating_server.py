"""A TLS 1.2 server that asks the client to renegotiate on a reused connection (issue 16):
Python's ssl module cannot start a renegotiation, so this drives libssl through ctypes.

    python3 tls_renegotiating_server.py CERT_CHAIN_PEM KEY_PEM

Prints its port on the first line of stdout. On each connection it answers the first request
with `200 ok`; before answering the second it sends a HelloRequest and waits up to 2 s, then
prints `renegotiated` (the client went through a new handshake) and answers, or `refused` and
closes. Serves until its stdin reaches EOF.
"""

from __future__ import annotations

import ctypes
import os
import socket
import struct
import sys
import threading

libssl = ctypes.CDLL("libssl.so.3")
P, I = ctypes.c_void_p, ctypes.c_int
for name, restype, argtypes in [
    ("TLS_server_method", P, []),
    ("SSL_CTX_new", P, [P]),
    ("SSL_CTX_use_certificate_chain_file", I, [P, ctypes.c_char_p]),
    ("SSL_CTX_use_PrivateKey_file", I, [P, ctypes.c_char_p, I]),
    ("SSL_CTX_ctrl", ctypes.c_long, [P, I, ctypes.c_long, P]),
    ("SSL_new", P, [P]),
    ("SSL_free", None, [P]),
    ("SSL_set_fd", I, [P, I]),
    ("SSL_accept", I, [P]),
    ("SSL_read", I, [P, ctypes.c_char_p, I]),
    ("SSL_write", I, [P, ctypes.c_char_p, I]),
    ("SSL_renegotiate", I, [P]),
    ("SSL_do_handshake", I, [P]),
    ("SSL_renegotiate_pending", I, [P]),
]:
    function = getattr(libssl, name)
    function.restype, function.argtypes = restype, argtypes

SSL_CTRL_SET_MAX_PROTO_VERSION, TLS1_2_VERSION, SSL_FILETYPE_PEM = 124, 0x0303, 1
RESPONSE = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"


def read_request(ssl) -> bool:
    data, buffer = b"", ctypes.create_string_buffer(16384)
    while b"\r\n\r\n" not in data:
        count = libssl.SSL_read(ssl, buffer, len(buffer))
        if count <= 0:
            return False
        data += buffer.raw[:count]
    return True


def serve(ctx, connection: socket.socket) -> None:
    ssl = libssl.SSL_new(ctx)
    try:
        libssl.SSL_set_fd(ssl, connection.fileno())
        if libssl.SSL_accept(ssl) != 1 or not read_request(ssl):
            return
        libssl.SSL_write(ssl, RESPONSE, len(RESPONSE))
        if not read_request(ssl):
            return
        libssl.SSL_renegotiate(ssl)
        libssl.SSL_do_handshake(ssl)  # sends the HelloRequest
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, struct.pack("ll", 2, 0))
        buffer = ctypes.create_string_buffer(1024)
        failed_hard = False
        while libssl.SSL_renegotiate_pending(ssl):
            if libssl.SSL_read(ssl, buffer, len(buffer)) <= 0:
                failed_hard = libssl.SSL_renegotiate_pending(ssl) == 1
                break
        if failed_hard:
            print("refused", flush=True)
            return
        print("renegotiated", flush=True)
        libssl.SSL_write(ssl, RESPONSE, len(RESPONSE))
        read_request(ssl)  # until the client closes
    finally:
        libssl.SSL_free(ssl)
        connection.close()


def main() -> None:
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    ctx = libssl.SSL_CTX_new(libssl.TLS_server_method())
    libssl.SSL_CTX_ctrl(ctx, SSL_CTRL_SET_MAX_PROTO_VERSION, TLS1_2_VERSION, None)
    if libssl.SSL_CTX_use_certificate_chain_file(ctx, sys.argv[1].encode()) != 1 or \
            libssl.SSL_CTX_use_PrivateKey_file(ctx, sys.argv[2].encode(), SSL_FILETYPE_PEM) != 1:
        sys.exit("cannot load the certificate")
    listener = socket.create_server(("127.0.0.1", 0))
    print(listener.getsockname()[1], flush=True)
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(ctx, connection), daemon=True).start()


if __name__ == "__main__":
    main()
