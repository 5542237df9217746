#!/usr/bin/env python3
"""Gannet's benchmarks in one run: Gannet beside URLSession, async-http-client, a bare libcurl
multi loop, the curl command line and wrk, on the same workloads against one nginx on loopback.

    Benchmarks/run.sh [--rounds N] [--quick] [--only WORKLOAD,...] [--callgrind] ...

Builds every client in release, starts nginx (its own config in a temporary folder: plain
HTTP/1.1 and TLS + HTTP/2 with certificates generated for the run), runs each workload for
every client over several rounds (client order reversed every other round), prints one table
of medians, spreads (min-max) and ratios, and writes the figures as JSON under
Benchmarks/results/. `--callgrind` instead counts instructions per request (valgrind) for
Gannet and the bare curl loop and lists where Gannet spends them.
"""

from __future__ import annotations

import argparse
import base64
import datetime
import hashlib
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, os.path.join(ROOT, "Tests", "Servers"))

GIB = 1 << 30
MIB = 1 << 20
# Requests in flight in the fan-out workloads.
FANOUT_SIZES = (100, 1_000, 10_000)
# The curl command line for one transfer; `time_total` is its transfer time without start-up.
CURL_TRANSFER = ["curl", "-sS", "--fail", "-w", "time_total=%{time_total}\n"]


# MARK: - Workloads


@dataclass
class Client:
    """One way of running a workload: a label and the command that runs it."""

    label: str
    argv: list[str]
    kind: str = "contract"  # contract | curl-get | wrk | curl-transfer | parse
    namespace_ca: bool = False  # run in a private mount namespace with the test CA as the system bundle
    note: str = ""


@dataclass
class Workload:
    name: str
    title: str
    unit: str  # "req/s", "MB/s", "s"
    clients: list[Client]
    requests: int = 0
    cleanup: str | None = None  # a file to delete after each run


@dataclass
class Sample:
    ok: bool
    value: float | None = None  # throughput (req/s, MB/s) or seconds for parse
    wall: float = 0.0
    cpu: float = 0.0
    rss_mb: float = 0.0
    errors: int = 0
    message: str = ""
    unsupported: bool = False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# MARK: - nginx


class Nginx:
    """nginx on loopback: plain HTTP/1.1 and TLS + HTTP/2, serving /small, /files/ and /upload."""

    def __init__(self, data_dir: str):
        import certificates  # Tests/Servers/certificates.py: the test PKI, generated per run
        import nginx_config  # Tests/Servers/nginx_config.py: the routes every test nginx serves

        self.dir = tempfile.mkdtemp(prefix="gannet-bench-")
        self.certs = certificates.generate(os.path.join(self.dir, "certs"))
        self.ca = self.certs["caBundle"]
        leaf = self.certs["leaves"]["good"]
        self.plain_port = free_port()
        self.tls_port = free_port()
        # Upload bodies are spooled by nginx to its temporary folder; keep that in memory so
        # the figures measure the client, not the disk.
        spool = "/dev/shm" if os.path.isdir("/dev/shm") else self.dir
        self.spool = tempfile.mkdtemp(prefix="gannet-bench-spool-", dir=spool)
        # The test servers' routes (Tests/Servers/README.md): /small answers "ok", /files/ serves
        # `data_dir`, /upload reads the whole body before answering (a mirror subrequest).
        locations = nginx_config.locations(data_dir)
        user = "user root;\n" if os.geteuid() == 0 else ""
        # /delayed (the fan-out workloads) is the echo module's `echo_sleep`.
        if not os.path.exists(nginx_config.ECHO_MODULE):
            raise SystemExit(f"nginx's echo module is missing ({nginx_config.ECHO_MODULE}): "
                             "apt-get install libnginx-mod-http-echo (or scripts/install-deps.sh)")
        config = f"""{user}load_module {nginx_config.ECHO_MODULE};
daemon off;
master_process on;
worker_processes 2;
worker_rlimit_nofile 32768;
pid {self.dir}/nginx.pid;
error_log {self.dir}/error.log warn;
events {{ worker_connections 16384; }}
http {{
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    keepalive_timeout 75s;
    access_log off;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:GannetBench:10m;
    client_body_temp_path {self.spool};
    proxy_temp_path {self.dir}/proxy;
    fastcgi_temp_path {self.dir}/fastcgi;
    uwsgi_temp_path {self.dir}/uwsgi;
    scgi_temp_path {self.dir}/scgi;
    server {{
        listen 127.0.0.1:{self.plain_port};
{locations}
    }}
    server {{
        listen 127.0.0.1:{self.tls_port} ssl http2;
        ssl_certificate {leaf['chain']};
        ssl_certificate_key {leaf['key']};
{locations}
    }}
}}
"""
        self.config = os.path.join(self.dir, "nginx.conf")
        with open(self.config, "w") as f:
            f.write(config)
        self.process = subprocess.Popen(
            ["nginx", "-p", self.dir + "/", "-c", self.config],
            stdout=subprocess.DEVNULL,
            stderr=open(os.path.join(self.dir, "nginx.stderr"), "w"),
            start_new_session=True,
        )
        self._wait_ready()
        self.pin_sha256 = self._leaf_sha256(leaf["der"])
        self.pin_spki = self._spki_pin(leaf["pem"])

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 10
        for port in (self.plain_port, self.tls_port):
            while True:
                if self.process.poll() is not None:
                    with open(os.path.join(self.dir, "nginx.stderr")) as f:
                        raise SystemExit(f"nginx exited: {f.read()}")
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise SystemExit(f"nginx did not listen on {port}")
                    time.sleep(0.05)

    @staticmethod
    def _leaf_sha256(der_path: str) -> str:
        with open(der_path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()

    @staticmethod
    def _spki_pin(pem_path: str) -> str:
        from cryptography import x509
        from cryptography.hazmat.primitives import serialization

        with open(pem_path, "rb") as f:
            cert = x509.load_pem_x509_certificate(f.read())
        spki = cert.public_key().public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        return "sha256//" + base64.b64encode(hashlib.sha256(spki).digest()).decode()

    def url(self, path: str, tls: bool = False) -> str:
        if tls:
            return f"https://localhost:{self.tls_port}{path}"
        return f"http://127.0.0.1:{self.plain_port}{path}"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.spool, ignore_errors=True)
        shutil.rmtree(self.dir, ignore_errors=True)


# MARK: - Fixtures


def ensure_fixtures(data_dir: str, transfer_bytes: int) -> dict[str, str]:
    """The download/upload file (random bytes, made once and kept), 1 MB of JSON, 10 MB of XML."""
    os.makedirs(data_dir, exist_ok=True)
    big = os.path.join(data_dir, f"random-{transfer_bytes}.bin")
    if not os.path.exists(big) or os.path.getsize(big) != transfer_bytes:
        print(f"bench: writing {transfer_bytes >> 20} MiB of random bytes to {big} (once)", flush=True)
        with open("/dev/urandom", "rb") as source, open(big + ".part", "wb") as target:
            left = transfer_bytes
            while left:
                chunk = source.read(min(left, 16 * MIB))
                target.write(chunk)
                left -= len(chunk)
        os.replace(big + ".part", big)
    rng = random.Random(8)
    json_path = os.path.join(data_dir, "1mb.json")
    if not os.path.exists(json_path):
        records = []
        size = 0
        while size < MIB:
            record = {
                "id": len(records),
                "name": f"user-{rng.randrange(10**6)}",
                "email": f"u{rng.randrange(10**6)}@example.com",
                "score": rng.random() * 1000,
                "active": rng.random() < 0.5,
                "tags": [f"t{rng.randrange(100)}" for _ in range(rng.randrange(1, 5))],
                "address": {"city": f"City {rng.randrange(1000)}", "zip": f"{rng.randrange(10**5):05d}"},
            }
            records.append(record)
            size += len(json.dumps(record)) + 1
        with open(json_path, "w") as f:
            json.dump({"users": records}, f)
    xml_path = os.path.join(data_dir, "10mb.xml")
    if not os.path.exists(xml_path):
        with open(xml_path, "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n<catalog>\n')
            written = 0
            index = 0
            while written < 10 * MIB:
                item = (
                    f'  <item id="{index}" available="{str(rng.random() < 0.5).lower()}">'
                    f"<name>Item {rng.randrange(10**6)}</name><price currency=\"EUR\">{rng.random() * 100:.2f}</price>"
                    f"<description>Lorem ipsum dolor sit amet &amp; more text {rng.randrange(10**9)}</description>"
                    f"</item>\n"
                )
                f.write(item)
                written += len(item)
                index += 1
            f.write("</catalog>\n")
    return {"big": big, "json": json_path, "xml": xml_path}


# MARK: - Running one client


def run_client(client: Client, env: dict[str, str], ca: str, timeout: float, cwd: str) -> Sample:
    timing = tempfile.NamedTemporaryFile(prefix="gannet-bench-time-", delete=False)
    timing.close()
    command = ["/usr/bin/time", "-f", "%e %U %S %M", "-o", timing.name, "--"] + client.argv
    if client.namespace_ca:
        # URLSession on Linux reads only the system CA bundle; in a private mount namespace the
        # test CA becomes that bundle for this one process (ENGINE-NOTES).
        command = [
            "unshare", "-m", "sh", "-c",
            'mount --bind "$0" /etc/ssl/certs/ca-certificates.crt && exec "$@"', ca,
        ] + command
    started = time.monotonic()
    try:
        result = subprocess.run(command, env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=timeout)
    except subprocess.TimeoutExpired:
        os.unlink(timing.name)
        return Sample(ok=False, message=f"timed out after {timeout:.0f} s")
    wall = time.monotonic() - started
    try:
        with open(timing.name) as f:
            last = [line for line in f.read().splitlines() if line.strip()][-1].split()
        cpu = float(last[1]) + float(last[2])
        rss_mb = int(last[3]) / 1024
    except (IndexError, ValueError):
        cpu, rss_mb = 0.0, 0.0
    finally:
        os.unlink(timing.name)
    sample = Sample(ok=result.returncode == 0, wall=wall, cpu=cpu, rss_mb=rss_mb)
    out = result.stdout.strip()
    if result.returncode == 2 and client.kind in ("contract", "parse"):
        return Sample(ok=False, unsupported=True, message=result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "unsupported")
    if client.kind == "contract":
        fields = dict(part.split("=", 1) for part in out.split() if "=" in part) if out else {}
        if "requests_per_s" in fields:
            sample.value = float(fields["requests_per_s"])
            sample.errors = int(fields.get("errors", "0"))
        elif "bytes" in fields:
            seconds = float(fields["seconds"])
            sample.value = int(fields["bytes"]) / MIB / seconds if seconds > 0 else None
    elif client.kind == "parse":
        fields = dict(part.split("=", 1) for part in out.split() if "=" in part) if out else {}
        if "seconds" in fields:
            sample.value = float(fields["seconds"])
    elif client.kind == "wrk":
        for line in out.splitlines():
            if line.startswith("Requests/sec:"):
                sample.value = float(line.split()[1])
            if "Non-2xx" in line or "Socket errors" in line:
                sample.errors += 1
    elif client.kind == "curl-get" and result.returncode == 0:
        sample.value = client_requests(client) / wall
    elif client.kind == "curl-transfer" and result.returncode == 0:
        # curl's own transfer time, like the clients' `seconds=`: process start-up is left out.
        seconds = float(out.rsplit("time_total=", 1)[1].split()[0]) if "time_total=" in out else wall
        sample.value = transfer_size(client) / MIB / seconds
    if not sample.ok:
        sample.message = (result.stderr.strip() or out)[-400:]
    return sample


def run_startup(clients: list[Client], env: dict[str, str], runs: int, timeout: float, cwd: str) -> dict[str, Sample]:
    """`runs` processes of each client's argv, the clients taking turns process by process (so
    a change in the machine's load weighs on all of them alike), each timed from spawn to exit
    (the whole process: loading, start-up, the GET, exit). A client's sample is the median of
    its processes in ms, its CPU their user + system seconds (wait4). Spawned with posix_spawn
    (vfork), so the harness's own fork costs no client anything. A child's peak RSS would start
    at the harness's (the kernel carries it across exec), so it comes from one more run under
    /usr/bin/time, not timed."""
    samples: dict[str, Sample] = {}
    programs: dict[str, str] = {}
    for client in clients:
        program = shutil.which(client.argv[0])
        if program:
            programs[client.label] = program
        else:
            samples[client.label] = Sample(ok=False, unsupported=True,
                                           message=client.note or f"{client.argv[0]} not found")
    walls: dict[str, list[float]] = {label: [] for label in programs}
    cpu: dict[str, float] = {label: 0.0 for label in programs}
    spent: dict[str, float] = {label: 0.0 for label in programs}
    errors_path = os.path.join(cwd, "startup.stderr")
    actions = [(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, errors_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)]
    previous = os.getcwd()
    os.chdir(cwd)
    try:
        for _ in range(runs):
            for client in clients:
                if client.label not in programs or client.label in samples:
                    continue
                begin = time.monotonic()
                pid = os.posix_spawn(programs[client.label], client.argv, env, file_actions=actions)
                watchdog = threading.Timer(timeout, os.kill, (pid, signal.SIGKILL))
                watchdog.start()
                _, status, usage = os.wait4(pid, 0)
                end = time.monotonic()
                watchdog.cancel()
                code = os.waitstatus_to_exitcode(status)
                if code != 0:
                    with open(errors_path, errors="replace") as f:
                        samples[client.label] = Sample(ok=False, message=f"exit {code}: {f.read().strip()[-400:]}")
                    continue
                walls[client.label].append(end - begin)
                spent[client.label] += end - begin
                cpu[client.label] += usage.ru_utime + usage.ru_stime
    finally:
        os.chdir(previous)
    for client in clients:
        if client.label in samples:
            continue
        rss = run_client(Client(client.label, client.argv, kind="rss"), env, "", timeout, cwd).rss_mb
        samples[client.label] = Sample(ok=True, value=statistics.median(walls[client.label]) * 1000,
                                       wall=spent[client.label], cpu=cpu[client.label], rss_mb=rss)
    return samples


def find_httpie() -> str | None:
    """httpie's `http`: beside the Python running the harness (a pyenv or virtualenv install,
    not its shim, whose own start-up would be counted), else on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "http")
    if os.access(beside, os.X_OK):
        return beside
    return shutil.which("http")


def client_requests(client: Client) -> int:
    return int(client.note.split("=")[1])


def transfer_size(client: Client) -> int:
    return int(client.note.split("=")[1])


# MARK: - The plan


def build_workloads(args, bin_dir: str, gannet_cli: str, nginx: Nginx, fixtures: dict[str, str],
                    work: str) -> list[Workload]:
    gannet = os.path.join(bin_dir, "gannet-bench-client")
    urlsession = os.path.join(bin_dir, "urlsession-bench-client")
    ahc = os.path.join(bin_dir, "ahc-bench-client")
    loop = os.path.join(bin_dir, "curl-multi-bench-client")
    parse = os.path.join(bin_dir, "parse-bench-client")
    small, small_tls = nginx.url("/small"), nginx.url("/small", tls=True)
    httpie = find_httpie()

    def curl_config(name: str, url: str, count: int) -> str:
        path = os.path.join(work, name)
        with open(path, "w") as f:
            f.write(f'url = "{url}"\noutput = "/dev/null"\n' * count)
        return path

    def get_clients(url: str, n: int, c: int, tls: bool) -> list[Client]:
        json_url = nginx.url("/small.json", tls=tls)
        contract = ["get", url, "--requests", str(n), "--concurrency", str(c)]
        config = curl_config(f"curl-{'tls' if tls else 'h1'}-{c}.cfg", url, n)
        curl = ["curl", "-sS", "--fail", "-K", config]
        if tls:
            curl += ["--cacert", nginx.ca, "--http2"]
        if c > 1:
            curl += ["--parallel", "--parallel-max", str(c)]
            if not tls:
                curl.append("--parallel-immediate")
        clients = [
            Client("gannet", [gannet] + contract),
            Client("gannet-async", [gannet] + contract + ["--async"]),
            Client("gannet-httpsessionmanager", [gannet, "get", json_url, "--requests", str(n), "--concurrency",
                                                 str(c), "--session-manager"],
                   note="/small.json through HTTPSessionManager: JSON serializer, notifications on"),
            Client("urlsession", [urlsession] + contract, namespace_ca=tls),
            Client("async-http-client", [ahc] + contract),
            Client("async-http-client-json", [ahc, "get", json_url, "--requests", str(n), "--concurrency", str(c),
                                              "--json"],
                   note="/small.json decoded with Foundation's JSONSerialization: the peer of "
                        "gannet-httpsessionmanager"),
            Client("curl-multi-loop", [loop] + contract),
            Client("curl-cli", curl, kind="curl-get", note=f"requests={n}"),
        ]
        if not tls:
            clients.append(Client("wrk", ["wrk", "-t1", f"-c{c}", f"-d{args.wrk_seconds}s", url], kind="wrk"))
        return clients

    workloads = [
        Workload("get-h1-seq", f"{args.requests:,} GETs of 2 bytes, sequential, HTTP/1.1", "req/s",
                 get_clients(small, args.requests, 1, False), requests=args.requests),
        Workload("get-h1-c64", f"{args.requests:,} GETs of 2 bytes, 64 in flight, HTTP/1.1", "req/s",
                 get_clients(small, args.requests, 64, False), requests=args.requests),
        Workload("get-h2-tls-c16", f"{args.tls_requests:,} GETs of 2 bytes, 16 in flight, TLS + HTTP/2", "req/s",
                 get_clients(small_tls, args.tls_requests, 16, True), requests=args.tls_requests),
    ]

    handshake = ["get", small_tls, "--requests", str(args.handshakes), "--concurrency", "1", "--new-connections"]
    workloads.append(Workload(
        "tls-new-connections", f"{args.handshakes:,} new TLS connections (HTTP/1.1, Connection: close), sequential",
        "conn/s",
        [
            Client("gannet", [gannet] + handshake),
            Client("gannet-pinned", [gannet] + handshake + ["--pin"],
                   note="GannetSecurity PublicKeysTrustEvaluator: chain against the test CA, host, SPKI pin"),
            Client("async-http-client", [ahc] + handshake),
            Client("curl-multi-loop", [loop] + handshake),
            Client("curl-multi-loop-no-resume", [loop] + handshake + ["--no-session-cache"]),
            Client("curl-multi-loop-pinned", [loop] + handshake + ["--pin"], note="CURLOPT_PINNEDPUBLICKEY"),
        ],
        requests=args.handshakes,
    ))

    size = args.transfer_bytes
    label = f"{size >> 30} GiB" if size >= GIB else f"{size >> 20} MiB"
    big_url = nginx.url("/files/" + os.path.basename(fixtures["big"]))
    out_file = os.path.join(work, "download.out")
    for into_file in (False, True):
        extra = ["--output", out_file] if into_file else []
        workloads.append(Workload(
            "download-file" if into_file else "download-discard",
            f"{label} download, {'written to a file' if into_file else 'streamed and discarded'}, HTTP/1.1", "MB/s",
            [
                Client("gannet", [gannet, "download", big_url] + extra),
                Client("urlsession", [urlsession, "download", big_url] + extra),
                Client("async-http-client", [ahc, "download", big_url] + extra),
                Client("curl-multi-loop", [loop, "download", big_url] + extra),
                Client("curl-cli", CURL_TRANSFER + ["-o", out_file if into_file else "/dev/null", big_url],
                       kind="curl-transfer", note=f"bytes={size}"),
            ],
            cleanup=out_file if into_file else None,
        ))
    upload_url = nginx.url("/upload")
    big = fixtures["big"]
    workloads.append(Workload(
        "upload", f"{label} file upload (POST, streamed from disk), HTTP/1.1", "MB/s",
        [
            Client("gannet", [gannet, "upload", upload_url, big]),
            Client("urlsession", [urlsession, "upload", upload_url, big]),
            Client("async-http-client", [ahc, "upload", upload_url, big]),
            Client("curl-multi-loop", [loop, "upload", upload_url, big]),
            Client("curl-cli", CURL_TRANSFER + ["-o", "/dev/null", "-X", "POST", "-T", big, "-H", "Expect:",
                                "-H", "Content-Type: application/octet-stream", upload_url],
                   kind="curl-transfer", note=f"bytes={size}"),
        ],
    ))
    workloads.append(Workload(
        "upload-multipart", f"{label} multipart upload (one file part, streamed), HTTP/1.1", "MB/s",
        [
            Client("gannet", [gannet, "upload", upload_url, big, "--multipart"]),
            Client("curl-cli", CURL_TRANSFER + ["-o", "/dev/null", "-H", "Expect:",
                                "-F", f"file=@{big};type=application/octet-stream", upload_url],
                   kind="curl-transfer", note=f"bytes={size}"),
        ],
    ))
    workloads.append(Workload(
        "json-1mb", "JSON response serialization, 1 MB (median of 5 parses per run)", "s",
        [
            Client("foundation-JSONSerialization", [parse, "json", fixtures["json"], "--parser", "foundation"], kind="parse"),
            Client("gannet-JSONResponseSerializer", [parse, "json", fixtures["json"], "--parser", "gannet"], kind="parse"),
        ],
    ))
    workloads.append(Workload(
        "xml-10mb", "XML response serialization, 10 MB (median of 5 parses per run)", "s",
        [
            Client("foundation-XMLParser", [parse, "xml", fixtures["xml"], "--parser", "foundation"], kind="parse",
                   note="XMLParser(stream:), delegate keeps element names and text"),
            Client("gannet-XMLStreamParser", [parse, "xml", fixtures["xml"], "--parser", "gannet"], kind="parse",
                   note="the same handler as the XMLParser delegate"),
            Client("gannet-xmlDocument", [parse, "xml", fixtures["xml"], "--parser", "gannet-document"], kind="parse",
                   note="XMLDocumentResponseSerializer: the whole tree"),
        ],
    ))
    # Fan-out: N requests all in flight to an endpoint that answers after a second. The clients
    # inherit the descriptor limit main() raised; the library raises nothing.
    delayed = nginx.url("/delayed")
    for n in FANOUT_SIZES:
        contract = ["get", delayed, "--requests", str(n), "--concurrency", str(n)]
        workloads.append(Workload(
            f"fanout-{n}", f"fan-out: {n:,} GETs all in flight, each answered after 1 s, HTTP/1.1", "req/s",
            [
                Client("gannet", [gannet] + contract),
                Client("gannet-async", [gannet] + contract + ["--async"]),
                Client("async-http-client", [ahc] + contract),
                Client("curl-multi-loop", [loop] + contract),
            ],
            requests=n,
        ))
    # The OpenAPI row (issue 27): one client generated from Sources/openapi-bench-client/openapi.yaml
    # (the operation is nginx's /small.json), over Gannet's transport and the two peers'.
    openapi = os.path.join(bin_dir, "openapi-bench-client")
    openapi_contract = ["get", nginx.url("/small.json"), "--requests", str(args.requests), "--concurrency", "64"]
    workloads.append(Workload(
        "openapi-get-h1-c64", f"{args.requests:,} generated-client operations (GET /small.json, JSON decoded), "
                              f"64 in flight, HTTP/1.1", "req/s",
        [
            Client("openapi-gannet", [openapi] + openapi_contract, note="GannetOpenAPITransport"),
            Client("openapi-async-http-client", [openapi] + openapi_contract + ["--async-http-client"],
                   note="swift-openapi-async-http-client 1.5"),
            Client("openapi-urlsession", [openapi] + openapi_contract + ["--urlsession"],
                   note="swift-openapi-urlsession 1.4"),
        ],
        requests=args.requests,
    ))
    # Start-up: one small GET per process, the whole process timed (issue 28): the `gannet`
    # command as the .deb ships it (Swift runtime and Foundation linked in), curl's command line
    # and httpie's, each printing the body to /dev/null.
    workloads.append(Workload(
        "startup", f"start-up: `CLIENT URL`, one GET of 2 bytes per process, HTTP/1.1 "
                   f"(median of {args.startup_runs} processes per run)", "ms",
        [
            Client("gannet", [gannet_cli, small], kind="startup",
                   note="the release `gannet` built as `make deb` builds it (--static-swift-stdlib)"),
            Client("curl-cli", ["curl", "-sS", small], kind="startup"),
            # /dev/null on stdin would be read as a body (then a POST) without --ignore-stdin.
            Client("httpie", [httpie or "http", "--ignore-stdin", small], kind="startup",
                   note="" if httpie else "httpie is not installed (python3 -m pip install httpie)"),
        ],
    ))
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {w.name for w in workloads}
        if unknown:
            raise SystemExit(f"unknown workload(s): {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(w.name for w in workloads)}")
        workloads = [w for w in workloads if w.name in wanted]
    return workloads


# MARK: - Summaries


def summarize(samples: list[Sample]) -> dict:
    good = [s for s in samples if s.ok and s.value is not None]
    if not good:
        reasons = sorted({s.message for s in samples if s.message}) or ["no successful run"]
        return {"ok": False, "unsupported": all(s.unsupported for s in samples), "reason": reasons[0],
                "runs": len(samples)}

    def stats(values: list[float]) -> dict:
        return {"median": statistics.median(values), "min": min(values), "max": max(values)}

    return {
        "ok": True,
        "runs": len(samples),
        "failed_runs": len(samples) - len(good),
        "errors": sum(s.errors for s in good),
        "value": stats([s.value for s in good]),
        "wall_s": stats([s.wall for s in good]),
        "cpu_s": stats([s.cpu for s in good]),
        "peak_rss_mb": stats([s.rss_mb for s in good]),
    }


def fmt(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def spread(stats: dict) -> str:
    return f"{fmt(stats['median'])} ({fmt(stats['min'])}–{fmt(stats['max'])})"


def ratio_rows(results: dict, workloads: list[Workload], transfer_bytes: int) -> list[dict]:
    """The issue's targets, each a ratio measured in this run."""
    rows = []

    def value(workload: str, client: str, key: str = "value") -> float | None:
        summary = results.get(workload, {}).get(client)
        return summary[key]["median"] if summary and summary.get("ok") else None

    def add(target: str, workload: str, numerator: float | None, denominator: float | None, goal: float,
            higher_is_better: bool = True, what: str = ""):
        if numerator is None or denominator is None or denominator == 0:
            rows.append({"target": target, "workload": workload, "ratio": None, "goal": goal, "met": None, "what": what})
            return
        ratio = numerator / denominator
        met = ratio >= goal if higher_is_better else ratio <= goal
        rows.append({"target": target, "workload": workload, "ratio": ratio, "goal": goal, "met": met, "what": what})

    names = {w.name for w in workloads}
    for workload in ("get-h1-seq", "get-h1-c64", "get-h2-tls-c16"):
        if workload not in names:
            continue
        add("async/await ≥ 0.9× completion handlers", workload, value(workload, "gannet-async"),
            value(workload, "gannet"), 0.9)
        add("HTTPSessionManager (JSON, notifications) ≥ 0.7× plain Gannet", workload,
            value(workload, "gannet-httpsessionmanager"), value(workload, "gannet"), 0.7)
        # Issue 26: the headline API against its like-for-like peer, async-http-client decoding
        # the same JSON body with Foundation.
        add("HTTPSessionManager (JSON) ≥ 1.5× async-http-client decoding the same JSON", workload,
            value(workload, "gannet-httpsessionmanager"), value(workload, "async-http-client-json"), 1.5)
        for gannet in ("gannet", "gannet-async"):
            g = value(workload, gannet)
            add(f"{gannet} ≥ 5× URLSession", workload, g, value(workload, "urlsession"), 5.0)
            add(f"{gannet} ≥ 2.0× async-http-client", workload, g, value(workload, "async-http-client"), 2.0)
            add(f"{gannet} ≥ 0.75× bare curl loop", workload, g, value(workload, "curl-multi-loop"), 0.75)
    if "tls-new-connections" in names:
        # Issue 15's target: sessions resumed within the pinning scope (docs/engine.md, "TLS
        # session resumption") make a pinned client as fast as an unpinned one.
        add("pinned / unpinned Gannet", "tls-new-connections",
            value("tls-new-connections", "gannet-pinned"), value("tls-new-connections", "gannet"), 0.95)
        add("pinned Gannet / curl loop without resumption (information: full handshakes)", "tls-new-connections",
            value("tls-new-connections", "gannet-pinned"), value("tls-new-connections", "curl-multi-loop-no-resume"), 0.0)
        add("Gannet / bare curl loop, new TLS connections (information)", "tls-new-connections",
            value("tls-new-connections", "gannet"), value("tls-new-connections", "curl-multi-loop"), 0.0)
    for workload in ("download-discard", "download-file", "upload", "upload-multipart"):
        if workload not in names:
            continue
        # Transfer times (each client's own clock, curl's time_total), so process start-up,
        # which differs between a Swift binary and curl, does not count.
        # Issue 26: at least the curl command line's speed (the spread of the rounds is in the
        # table beside the median).
        add("Gannet transfer time ≤ 1.0× curl CLI", workload, value(workload, "curl-cli"), value(workload, "gannet"),
            1.0, higher_is_better=False)
        rss = value(workload, "gannet", "peak_rss_mb")
        if rss is not None:
            rows.append({"target": "Gannet peak RSS < 64 MB", "workload": workload, "ratio": rss, "goal": 64.0,
                         "met": rss < 64.0, "what": "MB"})
    fanout = [f"fanout-{n}" for n in FANOUT_SIZES]
    if all(name in names for name in fanout):
        small, large = fanout[0], fanout[-1]
        for client in ("gannet", "gannet-async", "async-http-client", "curl-multi-loop"):
            def per_request(workload: str, n: int) -> float | None:
                cpu = value(workload, client, "cpu_s")
                return cpu / n if cpu is not None else None
            add(f"{client}: CPU per request at {FANOUT_SIZES[-1]:,} / at {FANOUT_SIZES[0]:,} ≤ 1.2×", "fan-out",
                per_request(large, FANOUT_SIZES[-1]), per_request(small, FANOUT_SIZES[0]), 1.2,
                higher_is_better=False)
            if client != "curl-multi-loop":
                add(f"{client}: wall time at {FANOUT_SIZES[-1]:,} ≤ 1.2× the bare curl loop's (process included)",
                    large, value(large, client, "wall_s"), value(large, "curl-multi-loop", "wall_s"), 1.2,
                    higher_is_better=False)
            rss_large, rss_small = value(large, client, "peak_rss_mb"), value(small, client, "peak_rss_mb")
            if rss_large is not None and rss_small is not None:
                per = (rss_large - rss_small) * 1024 / (FANOUT_SIZES[-1] - FANOUT_SIZES[0])
                rows.append({"target": f"{client}: peak RSS per request in flight (information)", "workload": large,
                             "ratio": per, "goal": 0, "met": None, "what": "KB"})
    if "openapi-get-h1-c64" in names:
        add("OpenAPI client: Gannet transport / async-http-client transport (information)", "openapi-get-h1-c64",
            value("openapi-get-h1-c64", "openapi-gannet"), value("openapi-get-h1-c64", "openapi-async-http-client"), 0.0)
        add("OpenAPI client: Gannet transport / URLSession transport (information)", "openapi-get-h1-c64",
            value("openapi-get-h1-c64", "openapi-gannet"), value("openapi-get-h1-c64", "openapi-urlsession"), 0.0)
    if "startup" in names:
        # Whole processes, start-up included: the one target here where it counts (issue 28).
        add("gannet URL wall time ≤ 1.5× curl URL (whole process)", "startup", value("startup", "gannet"),
            value("startup", "curl-cli"), 1.5, higher_is_better=False)
        add("httpie / gannet, whole process (information)", "startup", value("startup", "httpie"),
            value("startup", "gannet"), 0.0)
    if "json-1mb" in names:
        # Times: Foundation's over Gannet's is the speed-up.
        add("Gannet JSON serializer vs JSONSerialization (information)", "json-1mb",
            value("json-1mb", "foundation-JSONSerialization"), value("json-1mb", "gannet-JSONResponseSerializer"), 0.0)
    if "xml-10mb" in names:
        add("Gannet XML (XMLStreamParser) ≥ 1.5× Foundation XMLParser", "xml-10mb",
            value("xml-10mb", "foundation-XMLParser"), value("xml-10mb", "gannet-XMLStreamParser"), 1.5)
        add("Gannet XML (xmlDocument tree) ≥ 1.5× Foundation XMLParser", "xml-10mb",
            value("xml-10mb", "foundation-XMLParser"), value("xml-10mb", "gannet-xmlDocument"), 1.5)
    return rows


def render_table(workloads: list[Workload], results: dict, ratios: list[dict]) -> str:
    lines = []
    lines.append("| workload | client | throughput, median (min–max) | wall s | client CPU s | peak RSS MB | errors |")
    lines.append("|---|---|---|---|---|---|---|")
    for workload in workloads:
        first = True
        for client in workload.clients:
            summary = results[workload.name][client.label]
            name = f"{workload.title}" if first else ""
            first = False
            if summary.get("ok"):
                unit = workload.unit if workload.unit != "s" else "s per parse"
                errors = summary["errors"] + summary["failed_runs"]
                lines.append(
                    f"| {name} | {client.label} | {spread(summary['value'])} {unit} | {fmt(summary['wall_s']['median'])} "
                    f"| {fmt(summary['cpu_s']['median'])} | {fmt(summary['peak_rss_mb']['median'])} | {errors} |"
                )
            else:
                reason = summary.get("reason", "").replace("|", "/").replace("\n", " ")[:160]
                status = "n/a" if summary.get("unsupported") else "FAILED"
                lines.append(f"| {name} | {client.label} | {status}: {reason} | | | | |")
    lines.append("")
    lines.append("| target | workload | measured | goal | met |")
    lines.append("|---|---|---|---|---|")
    for row in ratios:
        units = {"MB": " MB", "s": " s", "KB": " KB"}
        unit = units.get(row["what"])
        measured = "—" if row["ratio"] is None else (
            f"{row['ratio']:.1f}{unit}" if unit else f"{row['ratio']:.2f}×")
        if row["goal"] == 0:
            goal = "—"
        elif row["what"] == "MB":
            goal = f"< {row['goal']:.0f} MB"
        elif unit:
            goal = f"≤ {row['goal']:.1f}{unit}"
        else:
            goal = f"{row['goal']:.2f}×"
        met = {True: "yes", False: "**no**", None: "n/a"}[row["met"]] if row["goal"] else "—"
        if row["ratio"] is None and row["what"]:
            measured = row["what"]
        lines.append(f"| {row['target']} | {row['workload']} | {measured} | {goal} | {met} |")
    return "\n".join(lines)


# MARK: - Machine


def machine_info() -> dict:
    model = ""
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
            if line.startswith("Model name"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "model": model,
        "kernel": platform.release(),
        "swift": subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.strip().splitlines()[0]
        if shutil.which("swift") else "",
        "curl": subprocess.run(["curl", "--version"], capture_output=True, text=True).stdout.splitlines()[0],
        "nginx": subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip(),
    }


def loadavg() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


# MARK: - Build


def build(skip: bool) -> str:
    base = ["swift", "build", "-c", "release", "--package-path", BENCH]
    if not skip:
        print("bench: building the clients in release (swift build -c release)", flush=True)
        subprocess.run(base, check=True)
    return subprocess.run(base + ["--show-bin-path"], capture_output=True, text=True, check=True).stdout.strip()


def build_gannet_cli(skip: bool) -> str:
    """The `gannet` command as `make deb` builds it (scripts/build-deb.sh: release, the Swift
    runtime and Foundation linked in), in `.build-deb` so the package's own `.build` is left alone."""
    base = ["swift", "build", "-c", "release", "--package-path", ROOT, "--scratch-path",
            os.path.join(ROOT, ".build-deb"), "--product", "gannet", "--static-swift-stdlib"]
    # The compiler flags scripts/build-deb.sh builds it with (scripts/gannet-swiftc-flags).
    with open(os.path.join(ROOT, "scripts", "gannet-swiftc-flags")) as f:
        flags = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    if not skip:
        print("bench: building gannet as the .deb ships it (swift build -c release --static-swift-stdlib, "
              "scripts/gannet-swiftc-flags)", flush=True)
        subprocess.run(base + [arg for flag in flags for arg in ("-Xswiftc", flag)], check=True)
    bin_dir = subprocess.run(base + ["--show-bin-path"], capture_output=True, text=True, check=True).stdout.strip()
    # As scripts/build-deb.sh installs it: without the NEEDED entries for libxml2, which gannet
    # opens with dlopen only when it parses XML, and for libstdc++.so.6 (it links libstdc++.a).
    packaged = os.path.join(bin_dir, "gannet-deb")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "drop-needed.py"), os.path.join(bin_dir, "gannet"),
                    packaged, "libxml2.so.2", "libstdc++.so.6"], check=True)
    return packaged


# MARK: - callgrind


def callgrind(args, bin_dir: str, nginx: Nginx, out_dir: str) -> dict:
    """Instructions per request, from the difference of two run lengths so that start-up
    (dynamic linking, engine thread, first connection) cancels out; the same difference per
    function (inclusive) and per shared object (exclusive) says where the instructions go."""
    small = nginx.url("/small")
    gannet = os.path.join(bin_dir, "gannet-bench-client")
    # Not `--async`: valgrind 3.19 dies of an internal SIGSEGV as soon as the async main starts.
    # Each client: its URL, then its arguments. HTTPSessionManager's JSON serializer asks for
    # JSON, so it gets /small.json (`{"ok":1}`) instead of /small's "ok".
    clients = {
        "gannet": [small, gannet],
        "gannet-no-notifications": [small, gannet, "--no-notifications"],
        "gannet-httpsessionmanager": [nginx.url("/small.json"), gannet, "--session-manager"],
        "curl-multi-loop": [small, os.path.join(bin_dir, "curl-multi-bench-client")],
    }
    low, high = args.callgrind_requests // 5, args.callgrind_requests
    report = {"requests": [low, high], "concurrency": args.callgrind_concurrency, "clients": {}}
    for name, (url, *binary) in clients.items():
        profiles = {}
        for n in (low, high):
            out = os.path.join(out_dir, f"callgrind.{name}.{n}.out")
            argv = [binary[0], "get", url, "--requests", str(n), "--concurrency", str(args.callgrind_concurrency)]
            argv += binary[1:]
            print(f"bench: valgrind --tool=callgrind {os.path.basename(binary[0])} {' '.join(argv[1:])}", flush=True)
            # One hash seed for every run: Swift seeds its hashing at random per process, and
            # with random seeds HTTPSessionManager's count moved by up to 5,100 instructions a
            # request between runs of one binary; with the seed fixed, by under 800
            # (docs/performance.md).
            subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + argv,
                           capture_output=True, text=True, check=True,
                           env=dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1"))
            profiles[n] = out
        per = high - low
        total = (callgrind_total(profiles[high]) - callgrind_total(profiles[low])) / per
        inclusive = difference(annotate(profiles[low], True), annotate(profiles[high], True), per)
        exclusive = difference(annotate(profiles[low], False), annotate(profiles[high], False), per)
        by_object: dict[str, float] = {}
        for (_, obj), ir in exclusive.items():
            by_object[obj] = by_object.get(obj, 0) + ir
        report["clients"][name] = {
            "ir_per_request": total,
            "by_object": sorted(([o, ir] for o, ir in by_object.items() if ir > total * 0.005),
                                key=lambda x: -x[1]),
            "functions_inclusive": top(inclusive, args.callgrind_top, total),
            "functions_exclusive": top(exclusive, args.callgrind_top, total),
            "profiles": profiles,
        }
    loop = report["clients"]["curl-multi-loop"]["ir_per_request"]
    for entry in report["clients"].values():
        entry["vs_curl_loop"] = entry["ir_per_request"] / loop
    return report


def callgrind_total(path: str) -> int:
    with open(path) as f:
        for line in f:
            if line.startswith("totals:") or line.startswith("summary:"):
                return int(line.split()[1])
    raise SystemExit(f"no totals in {path}")


def annotate(path: str, inclusive: bool) -> dict[tuple[str, str], int]:
    """callgrind_annotate's per-function counts: (function, shared object) -> Ir."""
    text = subprocess.run(["callgrind_annotate", "--auto=no", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100", path],
                          capture_output=True, text=True, check=True).stdout
    rows: dict[tuple[str, str], int] = {}
    for line in text.splitlines():
        parts = line.strip().split(None, 1)
        if len(parts) != 2 or not parts[0].replace(",", "").isdigit():
            continue
        rest = parts[1]
        if rest.startswith("("):
            rest = rest.split(")", 1)[1].strip()
        obj = ""
        if rest.endswith("]") and " [" in rest:
            rest, obj = rest.rsplit(" [", 1)
            obj = os.path.basename(obj[:-1])
        symbol = rest.split(":", 1)[1] if ":" in rest else rest
        if symbol == "PROGRAM TOTALS":
            continue
        ir = int(parts[0].replace(",", ""))
        # One function appears once per source file it was inlined from (and without its
        # object there); self costs add up, inclusive costs overlap, so keep the largest.
        key = (symbol, obj)
        if inclusive:
            known = next((k for k in rows if k[0] == symbol), None)
            if known is not None:
                if ir > rows[known]:
                    del rows[known]
                    rows[(symbol, obj or known[1])] = ir
                continue
            rows[key] = ir
        else:
            rows[key] = rows.get(key, 0) + ir
    return rows


def difference(low: dict, high: dict, requests: int) -> dict:
    return {key: (high.get(key, 0) - low.get(key, 0)) / requests for key in high}


# Frames that only carry others (threads, queues, closure thunks) say nothing about cost.
_CARRIERS = ("start_thread", "_dispatch_", "NSThreadStart", "Thread.main", "thunk for", "partial apply",
             "clone3", "0x0000", "closure #1 in CurlEngine.init", "GetWorkload", "main")


def top(rows: dict, count: int, total: float) -> list[dict]:
    symbols = list({symbol for symbol, _ in rows})
    demangled = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(symbols),
                               capture_output=True, text=True).stdout.splitlines()
    names = dict(zip(symbols, demangled)) if len(demangled) == len(symbols) else {s: s for s in symbols}
    out = []
    for (symbol, obj), ir in sorted(rows.items(), key=lambda item: -item[1]):
        name = names[symbol].strip()
        if any(name.startswith(c) or c in name[:40] for c in _CARRIERS) or ir <= 0:
            continue
        out.append({"ir_per_request": round(ir), "share": round(ir / total, 3), "function": name[:160], "object": obj})
        if len(out) >= count:
            break
    return out


# MARK: - main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="rounds per workload (default 3)")
    parser.add_argument("--requests", type=int, default=20_000, help="GETs per HTTP/1.1 run (default 20000)")
    parser.add_argument("--tls-requests", type=int, default=5_000, help="GETs per TLS + HTTP/2 run (default 5000)")
    parser.add_argument("--handshakes", type=int, default=1_000, help="new TLS connections per run (default 1000)")
    parser.add_argument("--transfer-mib", type=int, default=1024, help="download/upload size in MiB (default 1024)")
    parser.add_argument("--wrk-seconds", type=int, default=3, help="wrk duration per run (default 3)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 1 round, 2000 GETs, 500 TLS GETs, 100 handshakes, 64 MiB transfers")
    parser.add_argument("--only", help="comma-separated workload names")
    parser.add_argument("--no-build", action="store_true", help="use the existing release build")
    parser.add_argument("--data-dir", default=os.environ.get("BENCH_DATA_DIR", "/tmp/gannet-bench-data"),
                        help="where the random transfer file and parse fixtures are kept between runs")
    parser.add_argument("--json", help="where to write the figures (default Benchmarks/results/bench-DATE.json)")
    parser.add_argument("--markdown", help="also write the table as Markdown to this file")
    parser.add_argument("--timeout", type=float, default=300, help="seconds before one client run is abandoned")
    parser.add_argument("--startup-runs", type=int, default=40,
                        help="processes per start-up run, of which the median is taken (default 40)")
    parser.add_argument("--gannet-cli", help="the `gannet` to time for start-up (default: built as `make deb` builds "
                                             "it; e.g. /usr/bin/gannet for the installed .deb)")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions per request (valgrind) for Gannet and the bare curl loop instead")
    parser.add_argument("--callgrind-requests", type=int, default=2_500)
    parser.add_argument("--callgrind-concurrency", type=int, default=1)
    parser.add_argument("--callgrind-top", type=int, default=40)
    args = parser.parse_args()
    if args.quick:
        args.rounds, args.requests, args.tls_requests, args.handshakes = 1, 2_000, 500, 100
        args.transfer_mib, args.wrk_seconds, args.startup_runs = 64, 1, 10
    args.transfer_bytes = args.transfer_mib * MIB

    # 10,000 requests in flight need 10,000 sockets in the client: the harness raises its soft
    # descriptor limit to the hard one, and the clients inherit it.
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < FANOUT_SIZES[-1] + 1024:
        print(f"bench: warning: the descriptor hard limit {hard} is too low for fan-out-{FANOUT_SIZES[-1]}")
    command = "Benchmarks/run.sh " + " ".join(sys.argv[1:])
    started_at = datetime.datetime.now().astimezone()
    load_before = loadavg()
    # The start-up row alone needs none of the package's clients: neither built nor resolved.
    only = set(args.only.split(",")) if args.only else None
    bin_dir = build(args.no_build) if only != {"startup"} else os.path.join(BENCH, ".build", "release")
    # Nor the 1 GiB transfer file and the parse fixtures.
    fixtures = (ensure_fixtures(args.data_dir, args.transfer_bytes) if only != {"startup"}
                else {"big": "", "json": "", "xml": ""})
    nginx = Nginx(args.data_dir)
    work = tempfile.mkdtemp(prefix="gannet-bench-work-")
    results_dir = os.path.join(BENCH, "results")
    os.makedirs(results_dir, exist_ok=True)
    stamp = started_at.strftime("%Y%m%d-%H%M%S")
    try:
        if args.callgrind:
            report = callgrind(args, bin_dir, nginx, results_dir)
            report.update({"date": started_at.isoformat(timespec="seconds"), "machine": machine_info(),
                           "command": command})
            path = args.json or os.path.join(results_dir, f"callgrind-{stamp}.json")
            with open(path, "w") as f:
                json.dump(report, f, indent=2)
            print_callgrind(report)
            print(f"\nbench: figures written to {path}")
            return
        env = dict(os.environ)
        env.update({"BENCH_CA_FILE": nginx.ca, "BENCH_PIN_SHA256": nginx.pin_sha256, "BENCH_PIN_SPKI": nginx.pin_spki})
        times_startup = only is None or "startup" in only
        gannet_cli = args.gannet_cli or (build_gannet_cli(args.no_build) if times_startup else "gannet")
        workloads = build_workloads(args, bin_dir, gannet_cli, nginx, fixtures, work)
        raw: dict[str, dict[str, list[Sample]]] = {w.name: {c.label: [] for c in w.clients} for w in workloads}
        for round_index in range(args.rounds):
            for workload in workloads:
                order = workload.clients if round_index % 2 == 0 else list(reversed(workload.clients))
                startup = [c for c in order if c.kind == "startup"]
                timed = run_startup(startup, env, args.startup_runs, args.timeout, work) if startup else {}
                for client in order:
                    if client.kind == "startup":
                        sample = timed[client.label]
                    else:
                        sample = run_client(client, env, nginx.ca, args.timeout, work)
                    raw[workload.name][client.label].append(sample)
                    if workload.cleanup and os.path.exists(workload.cleanup):
                        os.unlink(workload.cleanup)
                    shown = "n/a" if sample.unsupported else (fmt(sample.value) if sample.value is not None else "FAILED")
                    print(f"bench: round {round_index + 1}/{args.rounds} {workload.name:<20} {client.label:<28} "
                          f"{shown:>10} {workload.unit:<6} wall {sample.wall:6.2f} s  cpu {sample.cpu:6.2f} s  "
                          f"rss {sample.rss_mb:7.1f} MB" + (f"  ({sample.message[:120]})" if not sample.ok and
                                                           not sample.unsupported else ""), flush=True)
        results = {w.name: {label: summarize(samples) for label, samples in raw[w.name].items()} for w in workloads}
        ratios = ratio_rows(results, workloads, args.transfer_bytes)
        finished_at = datetime.datetime.now().astimezone()
        machine = machine_info()
        header = (f"date {started_at.isoformat(timespec='seconds')}; machine: {machine['nproc']} cores, "
                  f"{machine['model']}; load average before {load_before}, after {loadavg()}; "
                  f"{args.rounds} round(s); command: {command}")
        table = render_table(workloads, results, ratios)
        print()
        print(header)
        print()
        print(table)
        document = {
            "date": started_at.isoformat(timespec="seconds"),
            "duration_s": round((finished_at - started_at).total_seconds(), 1),
            "machine": machine,
            "load_average": {"before": load_before, "after": loadavg()},
            "command": command,
            "rounds": args.rounds,
            "settings": {"requests": args.requests, "tls_requests": args.tls_requests, "handshakes": args.handshakes,
                         "transfer_bytes": args.transfer_bytes, "wrk_seconds": args.wrk_seconds},
            "workloads": [{"name": w.name, "title": w.title, "unit": w.unit,
                           "clients": {c.label: {"argv": [os.path.basename(a) if a.startswith(bin_dir) else a
                                                          for a in c.argv], "note": c.note,
                                                 "summary": results[w.name][c.label],
                                                 "samples": [s.__dict__ for s in raw[w.name][c.label]]}
                                       for c in w.clients}} for w in workloads],
            "targets": ratios,
        }
        path = args.json or os.path.join(results_dir, f"bench-{stamp}.json")
        with open(path, "w") as f:
            json.dump(document, f, indent=2)
        if args.markdown:
            with open(args.markdown, "w") as f:
                f.write(header + "\n\n" + table + "\n")
        print(f"\nbench: figures written to {path} ({document['duration_s']} s)")
    finally:
        nginx.stop()
        shutil.rmtree(work, ignore_errors=True)


def print_callgrind(report: dict) -> None:
    low, high = report["requests"]
    print(f"\nInstructions per request (callgrind; ({high} − {low}) GETs at concurrency {report['concurrency']}):")
    for name, entry in report["clients"].items():
        print(f"  {name:<26} {entry['ir_per_request']:>10,.0f} Ir/request  ({entry['vs_curl_loop']:.2f}× the curl loop)")
    for name, entry in report["clients"].items():
        print(f"\n{name}: exclusive Ir per request by shared object")
        for obj, ir in entry["by_object"]:
            print(f"  {ir:>10,.0f}  {obj}")
        for key, title in (("functions_inclusive", "inclusive"), ("functions_exclusive", "self")):
            print(f"{name}: {title} Ir per request by function (carriers such as threads and thunks left out)")
            for row in entry[key]:
                print(f"  {row['ir_per_request']:>10,.0f} {row['share']:>6.1%}  {row['function']}  [{row['object']}]")


if __name__ == "__main__":
    main()
