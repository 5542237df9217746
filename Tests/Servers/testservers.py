#!/usr/bin/env python3
"""Starts every server Gannet's tests talk to, on loopback, for as long as stdin stays open.

    python3 Tests/Servers/testservers.py

Prints exactly one line of JSON on stdout (every URL, port, certificate and log path; or
{"error": "..."}), then blocks reading stdin. On EOF (the test process exited or crashed),
SIGTERM or SIGINT it stops every child it started, by its own PID, deletes its temporary
folder and exits. README.md beside this file describes the routes and the certificates.
"""

from __future__ import annotations

import asyncio
import ctypes
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

READY_TIMEOUT = 30.0
_PORT_ATTEMPTS = 3


class SetupError(Exception):
    """A server could not start; the message says what is missing and how to fix it."""


def _require_dependencies() -> str:
    """Returns the nginx executable, or raises SetupError naming the first missing program."""
    for module, package in (("cryptography", "cryptography"), ("gunicorn", "gunicorn"), ("httpbin", "httpbin")):
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
    return nginx


def _free_ports(count: int) -> list[int]:
    """Ports the kernel just handed out on 127.0.0.1; a server binding them may still race, hence retries."""
    sockets = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


_LIBC = ctypes.CDLL(None, use_errno=True)  # resolved here: the child must not load libraries after fork
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """Runs in each child before exec: SIGTERM it if this supervisor dies without cleaning up."""
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


class Supervisor:
    def __init__(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="gannet-testservers-")
        self.logs = os.path.join(self.directory, "logs")
        os.makedirs(self.logs)
        self.children: list[subprocess.Popen] = []

    # MARK: children

    def _spawn(self, argv: list[str], log_name: str, cwd: str | None = None) -> subprocess.Popen:
        with open(os.path.join(self.logs, log_name), "ab") as log:
            child = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd=cwd or self.directory,
                preexec_fn=_die_with_parent, close_fds=True,
            )
        self.children.append(child)
        return child

    def _retire(self, child: subprocess.Popen) -> None:
        self._stop_child(child)
        self.children.remove(child)

    @staticmethod
    def _descendants(pid: int) -> list[int]:
        found = []
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as f:
                    for child in f.read().split():
                        found += [int(child)] + Supervisor._descendants(int(child))
        except OSError:
            pass
        return found

    def _stop_child(self, child: subprocess.Popen) -> None:
        """SIGTERM, then SIGKILL for the child and whatever it forked (nginx and gunicorn workers)."""
        if child.poll() is not None:
            return
        descendants = self._descendants(child.pid)
        child.terminate()
        try:
            child.wait(timeout=10)
        except subprocess.TimeoutExpired:
            for pid in [child.pid] + descendants:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            child.wait()

    def stop(self) -> None:
        for child in reversed(self.children):
            self._stop_child(child)
        self.children.clear()
        shutil.rmtree(self.directory, ignore_errors=True)

    # MARK: waiting

    def _tail(self, log_name: str, lines: int = 15) -> str:
        try:
            with open(os.path.join(self.logs, log_name), errors="replace") as f:
                return "".join(f.readlines()[-lines:]).strip()
        except OSError:
            return ""

    def _wait_until(self, probe, child: subprocess.Popen, log_name: str, deadline: float, what: str) -> bool:
        """True once `probe()` succeeds; False if the child exited (e.g. a port was taken)."""
        while time.monotonic() < deadline:
            if child.poll() is not None:
                return False
            if probe():
                return True
            time.sleep(0.05)
        raise SetupError(
            f"{what} did not answer within {READY_TIMEOUT:.0f} s; last lines of {log_name}:\n{self._tail(log_name)}"
        )

    @staticmethod
    def _http_ok(url: str) -> bool:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    @staticmethod
    def _tcp_ok(port: int) -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            return False

    # MARK: servers

    def start_httpbin(self, deadline: float) -> tuple[int, int]:
        for _ in range(_PORT_ATTEMPTS):
            ports = _free_ports(2)
            argv = [sys.executable, "-m", "gunicorn", "--no-control-socket"]
            for port in ports:
                argv += ["-b", f"127.0.0.1:{port}"]
            # Threads, so a test waiting on /delay/N does not hold up every other test.
            argv += ["-w", "2", "--threads", "8", "httpbin:app"]
            child = self._spawn(argv, "httpbin.log")
            ready = self._wait_until(
                lambda: all(self._http_ok(f"http://127.0.0.1:{p}/get") for p in ports),
                child, "httpbin.log", deadline, "httpbin (gunicorn)",
            )
            if ready:
                return ports[0], ports[1]
            self._retire(child)
        raise SetupError(f"httpbin (gunicorn) would not start; last lines of httpbin.log:\n{self._tail('httpbin.log')}")

    def start_nginx(self, nginx: str, certs: dict, deadline: float) -> tuple[int, dict[str, int], str]:
        import nginx_config

        files = os.path.join(self.directory, "files")
        os.makedirs(files)
        for name, size in (("1m.bin", 1024 * 1024), ("10m.bin", 10 * 1024 * 1024)):
            with open(os.path.join(files, name), "wb") as f:
                f.write(os.urandom(size))
        os.makedirs(os.path.join(self.directory, "nginx-tmp"))
        config_path = os.path.join(self.directory, "nginx.conf")
        variants = list(nginx_config.TLS_VARIANTS)
        for _ in range(_PORT_ATTEMPTS):
            plain, *tls = _free_ports(1 + len(variants))
            tls_ports = dict(zip(variants, tls))
            with open(config_path, "w") as f:
                f.write(nginx_config.render(self.directory, files, certs, plain, tls_ports))
            argv = [nginx, "-p", self.directory + "/", "-c", config_path, "-e", os.path.join(self.logs, "nginx-error.log")]
            child = self._spawn(argv, "nginx-stderr.log")
            ready = self._wait_until(
                lambda: self._http_ok(f"http://127.0.0.1:{plain}/small") and all(map(self._tcp_ok, tls)),
                child, "nginx-error.log", deadline, "nginx",
            )
            if ready:
                return plain, tls_ports, files
            self._retire(child)
        raise SetupError(
            "nginx would not start; last lines of its logs:\n"
            f"{self._tail('nginx-stderr.log')}\n{self._tail('nginx-error.log')}"
        )


def _describe(sup: Supervisor, certs: dict, httpbin: tuple[int, int], nginx: tuple, fault: tuple[int, int]) -> dict:
    import nginx_config

    plain, tls_ports, files = nginx
    tls = {
        variant: f"https://{nginx_config.TLS_VARIANTS[variant][1]}:{port}/" for variant, port in tls_ports.items()
    }
    return {
        "httpbin": f"http://127.0.0.1:{httpbin[0]}/",
        "httpbinAlt": f"http://127.0.0.1:{httpbin[1]}/",
        "nginx": f"http://127.0.0.1:{plain}/",
        "nginxTLS": tls["good"],
        "tls": tls,
        "fault": f"http://127.0.0.1:{fault[0]}/",
        "canary": f"http://127.0.0.1:{fault[1]}/",
        "ports": {
            "httpbin": httpbin[0], "httpbinAlt": httpbin[1], "nginx": plain, "fault": fault[0], "canary": fault[1],
            "tls": tls_ports,
        },
        "certificates": certs,
        # The certificate each TLS endpoint serves (mutualTLS serves the good leaf).
        "tlsCertificates": {variant: certs["leaves"][nginx_config.TLS_VARIANTS[variant][0]] for variant in tls_ports},
        "files": {
            "directory": files,
            "1m.bin": os.path.join(files, "1m.bin"),
            "10m.bin": os.path.join(files, "10m.bin"),
        },
        "logs": {
            "nginxAccess": os.path.join(sup.logs, "nginx-access.log"),
            "nginxError": os.path.join(sup.logs, "nginx-error.log"),
            "httpbin": os.path.join(sup.logs, "httpbin.log"),
            "fault": os.path.join(sup.logs, "fault.log"),
        },
        "directory": sup.directory,
        "pid": os.getpid(),
    }


async def _run(sup: Supervisor, nginx_path: str) -> int:
    import certificates
    from fault_server import FaultServer

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        loop.add_signal_handler(sig, stop.set)

    fault = FaultServer(os.path.join(sup.logs, "fault.log"))
    fault_ports = await fault.start()
    try:
        deadline = time.monotonic() + READY_TIMEOUT
        certs = await loop.run_in_executor(None, certificates.generate, os.path.join(sup.directory, "certs"))
        # Both waits block on child start-up; run them side by side so start-up takes the longer, not the sum.
        httpbin = loop.run_in_executor(None, sup.start_httpbin, deadline)
        nginx = loop.run_in_executor(None, sup.start_nginx, nginx_path, certs, deadline)
        description = _describe(sup, certs, await httpbin, await nginx, fault_ports)
        sys.stdout.write(json.dumps(description) + "\n")
        sys.stdout.flush()

        def wait_for_eof() -> None:
            while sys.stdin.buffer.read(65536):
                pass
            loop.call_soon_threadsafe(stop.set)

        threading.Thread(target=wait_for_eof, daemon=True).start()
        await stop.wait()
        return 0
    finally:
        await fault.stop()


def main() -> int:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
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
