"""Starting, probing and stopping the child servers (gunicorn for httpbin, nginx).

Children are spawned from the main thread only: PR_SET_PDEATHSIG fires when the *thread* that
forked a child exits, so a child spawned from a worker thread would be killed with that thread.
"""

from __future__ import annotations

import asyncio
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

READY_TIMEOUT = 30.0
_PORT_ATTEMPTS = 3

_LIBC = ctypes.CDLL(None, use_errno=True)  # resolved here: the child must not load libraries after fork
_PR_SET_PDEATHSIG = 1


class SetupError(Exception):
    """A server could not start; the message says what is missing and how to fix it."""


def _die_with_parent() -> None:
    """Runs in each child before exec: SIGTERM it if the supervisor dies without cleaning up."""
    _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def free_ports(count: int) -> list[int]:
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


def http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


def tcp_ok(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


class Supervisor:
    """Owns the run's temporary folder and every child process; `stop()` undoes everything."""

    def __init__(self) -> None:
        self.directory = tempfile.mkdtemp(prefix="gannet-testservers-")
        self.logs = os.path.join(self.directory, "logs")
        os.makedirs(self.logs)
        self._children: list[tuple[subprocess.Popen, int]] = []

    def log_path(self, name: str) -> str:
        return os.path.join(self.logs, name)

    def tail(self, log_name: str, lines: int = 15) -> str:
        try:
            with open(self.log_path(log_name), errors="replace") as f:
                return "".join(f.readlines()[-lines:]).strip()
        except OSError:
            return ""

    async def start(self, what: str, log_name: str, launch, probe, deadline: float):
        """Runs `launch()` → (argv, stop signal, result) until `probe(result)` succeeds, then returns result.

        A child that exits before answering most likely lost a race for its port: try again with
        new ports, up to three times.
        """
        loop = asyncio.get_running_loop()
        for _ in range(_PORT_ATTEMPTS):
            argv, stop_signal, result = launch()
            child = self._spawn(argv, log_name, stop_signal)
            while child.poll() is None:
                if await loop.run_in_executor(None, probe, result):
                    return result
                if time.monotonic() > deadline:
                    raise SetupError(
                        f"{what} did not answer within {READY_TIMEOUT:.0f} s; "
                        f"last lines of {log_name}:\n{self.tail(log_name)}"
                    )
                await asyncio.sleep(0.05)
            self._stop_child(child, stop_signal)
            self._children.remove((child, stop_signal))
        raise SetupError(f"{what} would not start; last lines of {log_name}:\n{self.tail(log_name)}")

    def _spawn(self, argv: list[str], log_name: str, stop_signal: int) -> subprocess.Popen:
        with open(self.log_path(log_name), "ab") as log:
            child = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd=self.directory,
                preexec_fn=_die_with_parent, close_fds=True,
            )
        self._children.append((child, stop_signal))
        return child

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

    def _stop_child(self, child: subprocess.Popen, stop_signal: int) -> None:
        """The child's quick-shutdown signal, then SIGKILL for it and whatever it forked (its workers)."""
        if child.poll() is not None:
            return
        descendants = self._descendants(child.pid)
        child.send_signal(stop_signal)
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
        for child, stop_signal in reversed(self._children):
            self._stop_child(child, stop_signal)
        self._children.clear()
        shutil.rmtree(self.directory, ignore_errors=True)

    # MARK: the servers

    async def start_httpbin(self, deadline: float) -> tuple[int, int]:
        def launch():
            ports = free_ports(2)
            argv = [sys.executable, "-m", "gunicorn", "--no-control-socket"]
            for port in ports:
                argv += ["-b", f"127.0.0.1:{port}"]
            # Threads, so a test waiting on /delay/N does not hold up every other test.
            argv += ["-w", "2", "--threads", "8", "httpbin:app"]
            # One line per request with its status: tests prove what reached httpbin (a cached
            # response that was not asked for, a revalidation answered 304).
            argv += ["--access-logfile", self.log_path("httpbin-access.log")]
            # SIGINT is gunicorn's quick shutdown; SIGTERM would wait for workers to finish politely.
            return argv, signal.SIGINT, (ports[0], ports[1])

        def probe(ports):
            return all(http_ok(f"http://127.0.0.1:{p}/get") for p in ports)

        return await self.start("httpbin (gunicorn)", "httpbin.log", launch, probe, deadline)

    async def start_nginx(self, nginx: str, certs: dict, deadline: float) -> tuple[int, int, dict[str, int], str]:
        import nginx_config

        files = os.path.join(self.directory, "files")
        os.makedirs(files)
        for name, size in (("1m.bin", 1024 * 1024), ("10m.bin", 10 * 1024 * 1024)):
            with open(os.path.join(files, name), "wb") as f:
                f.write(os.urandom(size))
        os.makedirs(os.path.join(self.directory, "nginx-tmp"))
        config_path = os.path.join(self.directory, "nginx.conf")
        variants = list(nginx_config.TLS_VARIANTS)

        def launch():
            # nginx binds its Unix socket before its ports and leaves the file behind when a port
            # was taken (it exits without unlinking), so a retry would fail on the stale socket.
            try:
                os.unlink(nginx_config.unix_socket_path(self.directory))
            except FileNotFoundError:
                pass
            plain, h2c, *tls = free_ports(2 + len(variants))
            tls_ports = dict(zip(variants, tls))
            with open(config_path, "w") as f:
                f.write(nginx_config.render(self.directory, files, certs, plain, h2c, tls_ports))
            argv = [nginx, "-p", self.directory + "/", "-c", config_path, "-e", self.log_path("nginx-error.log")]
            return argv, signal.SIGTERM, (plain, h2c, tls_ports, files)  # SIGTERM: nginx's fast shutdown

        def probe(result):
            plain, h2c, tls_ports, _ = result
            return http_ok(f"http://127.0.0.1:{plain}/small") and all(map(tcp_ok, [h2c, *tls_ports.values()]))

        try:
            return await self.start("nginx", "nginx-stderr.log", launch, probe, deadline)
        except SetupError as error:
            raise SetupError(f"{error}\nnginx-error.log:\n{self.tail('nginx-error.log')}") from None
