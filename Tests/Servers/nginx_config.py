"""nginx configuration for one test run: plain HTTP/1.1, cleartext HTTP/2, and one TLS server per variant.

Written for nginx 1.22 (Debian 12): HTTP/2 is `listen ... ssl http2;`, and every path is absolute
because relative `ssl_certificate` paths resolve against the config file's folder, not `-p`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    leaf: str  # key in certificates.generate()["leaves"]
    host: str  # the host a client is told to connect to, so the variant fails or passes for one reason
    directives: str = ""  # extra server directives
    http2: bool = True
    staples: bool = False  # staples the leaf's OCSP response (NAME.ocsp.der, from certificates.py)


# The TLS endpoints by their name in the JSON (and in Swift's TLSVariant).
TLS_VARIANTS: dict[str, Variant] = {
    "good": Variant("good", "localhost"),
    "wrongHost": Variant("wrongHost", "localhost"),
    "expired": Variant("expired", "localhost"),
    "notYetValid": Variant("notYetValid", "localhost"),
    "selfSigned": Variant("selfSigned", "localhost"),
    "untrustedRoot": Variant("untrustedRoot", "localhost"),
    "ipAddress": Variant("ipAddress", "127.0.0.1"),
    "wildcard": Variant("wildcard", "www.gannet.localhost"),
    "leafAsIssuer": Variant("leafAsIssuer", "localhost"),
    "pathLengthExceeded": Variant("pathLengthExceeded", "localhost"),
    "rsa": Variant("rsa", "localhost"),
    "mutualTLS": Variant("good", "localhost", "ssl_verify_client on;\n        ssl_client_certificate {client_ca};"),
    "tls12Only": Variant("good", "localhost", "ssl_protocols TLSv1.2;"),
    "tls13Only": Variant("good", "localhost", "ssl_protocols TLSv1.3;"),
    "http1Only": Variant("good", "localhost", http2=False),
    # OCSP stapling: the leaf's response from certificates.py, sent to clients that ask for it
    # (status_request). `good` above never staples.
    "stapledGood": Variant("good", "localhost", staples=True),
    "stapledRevoked": Variant("revoked", "localhost", staples=True),
    "stapledGoodTLS12Only": Variant("good", "localhost", "ssl_protocols TLSv1.2;", staples=True),
    "stapledRevokedTLS12Only": Variant("revoked", "localhost", "ssl_protocols TLSv1.2;", staples=True),
    "stapledGoodTLS13Only": Variant("good", "localhost", "ssl_protocols TLSv1.3;", staples=True),
    "stapledRevokedTLS13Only": Variant("revoked", "localhost", "ssl_protocols TLSv1.3;", staples=True),
    # A leaf whose subject carries terminal escapes (certificates.py): what `gannet pins` prints.
    "hostileSubject": Variant("hostileSubject", "localhost"),
}

# nginx staples a response read from a file (no responder is asked) whenever the client sends the
# status_request extension; without `ssl_stapling_verify` it does not check the response itself.
_STAPLING = """ssl_stapling on;
        ssl_stapling_file {ocsp};"""

_REDIRECT_STATUSES = (301, 302, 303, 307, 308)

# Debian's libnginx-mod-http-echo: `echo_sleep` holds a request without holding a worker, so
# one nginx keeps 10,000 delayed requests open (the fan-out test and benchmark of issue 15).
ECHO_MODULE = "/usr/lib/nginx/modules/ngx_http_echo_module.so"

# Served by every server, plain and TLS alike.
_LOCATIONS = """
        location = /small {{ return 200 "ok"; }}
        location = /small.json {{ default_type application/json; return 200 '{{"ok":1}}'; }}
        # Answers "ok" after a second.
        location = /delayed {{ echo_sleep 1; echo "ok"; }}
        location = /echo {{ return 200 "$request_method $uri $server_protocol\\n"; }}
        location = /cookie-header {{ return 200 "$http_cookie"; }}
        location = /cookie-secure-x {{ add_header Set-Cookie "sx=1; Secure=x; Path=/"; return 200 "set"; }}
        location /files/ {{ alias {files}/; }}
        # The same files at 4 MiB/s: a download a test can cancel halfway on loopback.
        location /slow-files/ {{ alias {files}/; limit_rate 4m; }}
        # At 128 MiB/s: a gibibyte in eight seconds, long enough to interrupt halfway.
        location /rated-files/ {{ alias {files}/; limit_rate 128m; }}
        # For the response cache: $request_id is new for every request nginx answers, so a body
        # tells whether it came from the server or from the client's cache.
        location = /cacheable/fresh {{ add_header Cache-Control "max-age=300"; return 200 "$request_id"; }}
        location = /cacheable/vary {{
            add_header Cache-Control "max-age=300";
            add_header Vary "X-Variant";
            return 200 "$http_x_variant $request_id";
        }}
        location = /cacheable/vary-star {{
            add_header Cache-Control "max-age=300";
            add_header Vary "*";
            return 200 "$request_id";
        }}
        location = /cacheable/no-store {{ add_header Cache-Control "no-store, max-age=300"; return 200 "$request_id"; }}
        location = /cacheable/no-cache {{
            add_header Cache-Control "no-cache";
            add_header ETag '"fixed"';
            if ($http_if_none_match = '"fixed"') {{ return 304; }}
            return 200 "$request_id";
        }}
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
{redirects}
"""


def locations(files: str) -> str:
    # `return` takes a literal status, hence one location per redirect status.
    redirects = "\n".join(
        f"        location = /redirect/{status} {{ return {status} $arg_to; }}" for status in _REDIRECT_STATUSES
    )
    return _LOCATIONS.format(files=files, redirects=redirects)


def unix_socket_path(directory: str) -> str:
    """Where nginx listens on a Unix domain socket, as Docker's API does (`GET /version`)."""
    return os.path.join(directory, "nginx.sock")


# The socket server answers Docker's `GET /version` shape, and the common locations; its
# access-log lines start with an empty port (`$server_port` is not set for a Unix socket).
_UNIX_SOCKET_VERSION = """
        location = /version {{
            default_type application/json;
            return 200 '{{"Version":"gannet-test","ApiVersion":"1.43","Os":"linux","Host":"$http_host"}}';
        }}"""


def render(directory: str, files: str, certs: dict, plain_port: int, h2c_port: int, tls_ports: dict[str, int]) -> str:
    """Returns nginx.conf for the given ports; `certs` is certificates.generate()'s result."""
    logs = os.path.join(directory, "logs")
    tmp = os.path.join(directory, "nginx-tmp")
    location_blocks = locations(files)
    # As root, nginx hands requests to `nobody` workers, which cannot read the 0700 run folder.
    user = "user root;\n" if os.geteuid() == 0 else ""
    servers = [
        f"""
    server {{
        listen 127.0.0.1:{plain_port};
{location_blocks}
    }}
    server {{
        # Cleartext HTTP/2 with prior knowledge only: HTTP/1.1 requests here fail.
        listen 127.0.0.1:{h2c_port} http2;
{location_blocks}
    }}
    server {{
        listen unix:{unix_socket_path(directory)};
{_UNIX_SOCKET_VERSION.format()}
{location_blocks}
    }}"""
    ]
    for name, port in tls_ports.items():
        variant = TLS_VARIANTS[name]
        leaf = certs["leaves"][variant.leaf]
        directives = variant.directives.format(client_ca=certs["clientCA"]["pem"])
        if variant.staples:
            directives = "\n        ".join(d for d in (directives, _STAPLING.format(ocsp=leaf["ocsp"])) if d)
        servers.append(
            f"""
    server {{
        listen 127.0.0.1:{port} ssl{" http2" if variant.http2 else ""};
        ssl_certificate {leaf['chain']};
        ssl_certificate_key {leaf['key']};
        {directives}
{location_blocks}
    }}"""
        )
    return f"""{user}load_module {ECHO_MODULE};
daemon off;
master_process on;
worker_processes 2;
worker_rlimit_nofile 32768;
pid {directory}/nginx.pid;
error_log {logs}/nginx-error.log info;

events {{
    worker_connections 16384;
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
                      'conn=$connection reqs=$connection_requests tls=$ssl_protocol reused=$ssl_session_reused '
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
