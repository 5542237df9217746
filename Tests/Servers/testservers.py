#!/usr/bin/env python3
"""Starts every server Gannet's tests talk to, on loopback, for as long as stdin stays open.

    python3 Tests/Servers/testservers.py

Prints exactly one line of JSON on stdout (every URL, port, certificate and log path; or
{"error": "..."}), then blocks reading stdin. On EOF (the test process exited or crashed),
SIGTERM, SIGINT or SIGHUP it stops every child it started, by its own PID, deletes its temporary
folder and exits. README.md beside this file describes the routes and the certificates.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import shutil
import signal
import sys
import time


def _require_dependencies() -> str:
    """Returns the nginx executable, or raises SetupError naming the first missing program."""
    from supervisor import SetupError

    # pyspnego is the NTLM helper server's (ntlm_server.py), checked here so a missing one is
    # named before any test runs.
    for module, package in (("cryptography", "cryptography"), ("gunicorn", "gunicorn"), ("httpbin", "httpbin"),
                            ("spnego", "pyspnego")):
        if importlib.util.find_spec(module) is None:
            raise SetupError(
                f"Python module {module} not found for {sys.executable}: install it with "
                f"`{sys.executable} -m pip install {package}` (or run scripts/install-deps.sh)"
            )
    nginx = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )
    if nginx is None:
        raise SetupError("nginx not found: install it with `apt-get install nginx` (or run scripts/install-deps.sh)")
    import nginx_config

    if not os.path.exists(nginx_config.ECHO_MODULE):
        raise SetupError(
            f"nginx's echo module not found at {nginx_config.ECHO_MODULE}: install it with "
            "`apt-get install libnginx-mod-http-echo` (or run scripts/install-deps.sh)"
        )
    return nginx


def _describe(sup, certs: dict, httpbin: tuple[int, int], nginx: tuple, fault: tuple[int, int],
              proxy: tuple[int, int]) -> dict:
    import nginx_config
    import proxy_server

    plain, h2c, tls_ports, files = nginx
    tls = {name: f"https://{nginx_config.TLS_VARIANTS[name].host}:{port}/" for name, port in tls_ports.items()}
    return {
        "httpbin": f"http://127.0.0.1:{httpbin[0]}/",
        "httpbinAlt": f"http://127.0.0.1:{httpbin[1]}/",
        "nginx": f"http://127.0.0.1:{plain}/",
        "nginxH2C": f"http://127.0.0.1:{h2c}/",
        # nginx on a Unix domain socket (its path), answering Docker's `GET /version`.
        "nginxUnixSocket": nginx_config.unix_socket_path(sup.directory),
        "nginxTLS": tls["good"],
        "tls": tls,
        "fault": f"http://127.0.0.1:{fault[0]}/",
        "canary": f"http://127.0.0.1:{fault[1]}/",
        "proxy": f"http://127.0.0.1:{proxy[0]}/",
        "authenticatingProxy": f"http://127.0.0.1:{proxy[1]}/",
        "proxyUser": proxy_server.USER,
        "proxyPassword": proxy_server.PASSWORD,
        "ports": {
            "httpbin": httpbin[0], "httpbinAlt": httpbin[1], "nginx": plain, "nginxH2C": h2c, "fault": fault[0],
            "canary": fault[1], "proxy": proxy[0], "authenticatingProxy": proxy[1], "tls": tls_ports,
        },
        "certificates": certs,
        # The certificate each TLS endpoint serves (mutualTLS serves the good leaf).
        "tlsCertificates": {name: certs["leaves"][nginx_config.TLS_VARIANTS[name].leaf] for name in tls_ports},
        "files": {
            "directory": files,
            "1m.bin": os.path.join(files, "1m.bin"),
            "10m.bin": os.path.join(files, "10m.bin"),
        },
        "logs": {
            "nginxAccess": sup.log_path("nginx-access.log"),
            "nginxError": sup.log_path("nginx-error.log"),
            "httpbin": sup.log_path("httpbin.log"),
            "httpbinAccess": sup.log_path("httpbin-access.log"),
            "fault": sup.log_path("fault.log"),
            "proxy": sup.log_path("proxy.log"),
        },
        "directory": sup.directory,
        "pid": os.getpid(),
    }


async def _run(sup, nginx_path: str) -> int:
    import certificates
    from fault_server import FaultServer
    from proxy_server import ProxyServer
    from supervisor import READY_TIMEOUT

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)

    fault = FaultServer(sup.log_path("fault.log"))
    proxy = ProxyServer(sup.log_path("proxy.log"))
    fault_ports = await fault.start()
    proxy_ports = await proxy.start()
    try:
        deadline = time.monotonic() + READY_TIMEOUT
        certs = await loop.run_in_executor(None, certificates.generate, os.path.join(sup.directory, "certs"))
        httpbin, nginx = await asyncio.gather(
            sup.start_httpbin(deadline), sup.start_nginx(nginx_path, certs, deadline)
        )
        sys.stdout.write(json.dumps(_describe(sup, certs, httpbin, nginx, fault_ports, proxy_ports)) + "\n")
        sys.stdout.flush()

        def on_stdin() -> None:
            try:
                data = os.read(0, 65536)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                stop.set()

        try:
            loop.add_reader(0, on_stdin)
        except (OSError, ValueError):
            stop.set()  # stdin is a regular file or /dev/null: it is already at its end
        await stop.wait()
        return 0
    finally:
        await fault.stop()
        await proxy.stop()
        sup.stop()  # now, not after asyncio.run has waited for its worker threads


def main() -> int:
    # Foundation's Process starts us with the spawning thread's signal mask, which blocks SIGTERM;
    # every thread and child started below inherits this mask, so clear it before anything else.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from supervisor import SetupError, Supervisor

    try:
        nginx_path = _require_dependencies()
    except SetupError as error:
        print(json.dumps({"error": str(error)}), flush=True)
        return 1
    sup = Supervisor()
    try:
        return asyncio.run(_run(sup, nginx_path))
    except SetupError as error:
        print(json.dumps({"error": str(error)}), flush=True)
        return 1
    except Exception as error:  # a bug here must still reach the test as one readable line
        print(json.dumps({"error": f"test server supervisor failed: {error!r}"}), flush=True)
        raise
    finally:
        sup.stop()


if __name__ == "__main__":
    sys.exit(main())
