"""nginx configuration for one test run: a plain HTTP server and one TLS+HTTP/2 server per certificate.

Written for nginx 1.22 (Debian 12): HTTP/2 is `listen ... ssl http2;`, and every path is absolute
because relative `ssl_certificate` paths resolve against the config file's folder, not `-p`.
"""

from __future__ import annotations

import os

# The TLS endpoints: variant name (as the JSON reports it) → (leaf in certificates.generate(), host in the URL).
# The host is what a client is told to connect to, so each variant fails or passes for one reason.
TLS_VARIANTS: dict[str, tuple[str, str]] = {
    "good": ("good", "localhost"),
    "wrongHost": ("wrongHost", "localhost"),
    "expired": ("expired", "localhost"),
    "notYetValid": ("notYetValid", "localhost"),
    "selfSigned": ("selfSigned", "localhost"),
    "untrustedRoot": ("untrustedRoot", "localhost"),
    "ipAddress": ("ipAddress", "127.0.0.1"),
    "wildcard": ("wildcard", "www.gannet.localhost"),
    "leafAsIssuer": ("leafAsIssuer", "localhost"),
    "pathLengthExceeded": ("pathLengthExceeded", "localhost"),
    "mutualTLS": ("good", "localhost"),
}

# Served by every server, plain and TLS alike.
_LOCATIONS = """
        location = /small {{ return 200 "ok"; }}
        location = /echo {{ return 200 "$request_method $uri $server_protocol\\n"; }}
        location /files/ {{ alias {files}/; }}
        # nginx answers `return` as soon as the headers arrive and drops the body; mirroring the
        # body into a no-op subrequest makes it read the whole body first. The static handler then
        # finds no file, and its 404 becomes the 200 answer.
        location = /upload {{
            client_max_body_size 0;
            client_body_buffer_size 1m;
            mirror /_discard;
            mirror_request_body on;
            error_page 404 =200 @uploaded;
        }}
        location = /_discard {{ internal; return 204; }}
        location @uploaded {{ return 200 "ok"; }}
"""


def render(directory: str, files: str, certs: dict, plain_port: int, tls_ports: dict[str, int]) -> str:
    """Returns nginx.conf for the given ports; `certs` is certificates.generate()'s result."""
    logs = os.path.join(directory, "logs")
    tmp = os.path.join(directory, "nginx-tmp")
    locations = _LOCATIONS.format(files=files)
    # As root, nginx hands requests to `nobody` workers, which cannot read the 0700 run folder.
    user = "user root;\n" if os.geteuid() == 0 else ""
    servers = [
        f"""
    server {{
        listen 127.0.0.1:{plain_port};
        server_name localhost;
{locations}
    }}"""
    ]
    for variant, port in tls_ports.items():
        cert_name, _ = TLS_VARIANTS[variant]
        leaf = certs["leaves"][cert_name]
        client = ""
        if variant == "mutualTLS":
            client = (
                f"        ssl_client_certificate {certs['clientCA']['pem']};\n"
                "        ssl_verify_client on;\n"
            )
        servers.append(
            f"""
    server {{
        listen 127.0.0.1:{port} ssl http2;
        server_name _;
        ssl_certificate {leaf['chain']};
        ssl_certificate_key {leaf['key']};
{client}{locations}
    }}"""
        )
    return f"""{user}daemon off;
master_process on;
worker_processes 2;
worker_rlimit_nofile 16384;
pid {directory}/nginx.pid;
error_log {logs}/nginx-error.log info;

events {{
    worker_connections 8192;
}}

http {{
    default_type text/plain;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    keepalive_timeout 75s;
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache shared:GannetTLS:1m;
    log_format gannet '$server_port "$request" $status $request_length $bytes_sent '
                      'conn=$connection reqs=$connection_requests tls=$ssl_protocol '
                      'client_cert="$ssl_client_s_dn" ua="$http_user_agent"';
    access_log {logs}/nginx-access.log gannet;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
{"".join(servers)}
}}
"""
