#!/usr/bin/env bash
# A guided tour of Gannet through its command-line tool, `gannet`, against local servers:
#   bash scripts/demo.sh
# On a fresh Debian machine it installs what is missing (scripts/install-deps.sh), builds
# `gannet` in release mode, starts httpbin and nginx with TLS on loopback
# (Tests/Servers/testservers.py, certificates generated for this run), and runs each step with
# a line saying what it shows. Nothing leaves the machine. It needs no input; the servers
# stop when it ends, however it ends.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bold=$'\e[1m' dim=$'\e[2m' reset=$'\e[0m'
if [ ! -t 1 ]; then bold='' dim='' reset=''; fi
say()  { printf '\n%s==> %s%s\n' "$bold" "$*" "$reset"; }
note() { printf '%s    %s%s\n' "$dim" "$*" "$reset"; }
# Shows a command, then runs it.
run()  { printf '%s$ %s%s\n' "$bold" "$(printf '%q ' "$@" | sed "s|$gannet|gannet|")" "$reset"; "$@"; }

say "Installing what is missing (scripts/install-deps.sh)"
bash scripts/install-deps.sh

say "Building gannet (swift build -c release --product gannet)"
swift build -c release --product gannet
gannet="$(swift build -c release --show-bin-path)/gannet"
note "built $gannet"

say "Starting the local test servers (python3 Tests/Servers/testservers.py)"
work="$(mktemp -d "${TMPDIR:-/tmp}/gannet-demo.XXXXXX")"
# The supervisor runs until its stdin closes: a coprocess keeps that pipe open, and closing it
# at exit (normal end, error or Ctrl-C) stops every server and removes its temporary folder.
coproc SERVERS { exec python3 Tests/Servers/testservers.py; }
servers_pid=$SERVERS_PID servers_in=${SERVERS[1]} servers_out=${SERVERS[0]}
stop_servers() {
    local status=$?
    exec {servers_in}>&- {servers_out}<&-
    wait "$servers_pid" 2>/dev/null || true
    rm -rf "$work"
    exit "$status"
}
trap stop_servers EXIT
trap 'exit 130' INT TERM
IFS= read -r -t 60 manifest <&"$servers_out" || { echo "demo: the test servers did not start" >&2; exit 1; }
field() { python3 -c 'import json, sys; value = json.loads(sys.argv[1]); [value := value[key] for key in sys.argv[2:]]; print(value)' "$manifest" "$@"; }
if [ -n "$(field error 2>/dev/null || true)" ]; then echo "demo: $(field error)" >&2; exit 1; fi
httpbin="$(field httpbin)"; httpbin="${httpbin%/}"
nginx="$(field nginx)"; nginx="${nginx%/}"
tls="$(field nginxTLS)"; tls="${tls%/}"
ca="$(field certificates caBundle)"
note "httpbin $httpbin, nginx $nginx, nginx over TLS $tls (test CA: $ca)"

say "1. A query string: name==value items go into the URL"
note "GET is the default; -p hb prints the response headers and body (headers are shown on a terminal anyway)."
run "$gannet" -p hb "$httpbin/get" q==gannet page==2 'tag==sea birds'

say "2. A form: name=value items with --form become application/x-www-form-urlencoded"
note "With data items the method defaults to POST; -v prints the request that was sent, too."
run "$gannet" -v --form "$httpbin/post" name=Gannet colony='Bass Rock'

say "3. JSON: name=value is a string, name:=json a raw JSON value"
run "$gannet" POST "$httpbin/anything" name=Gannet wingspan:=1.8 diving:=true tags:='["seabird","plunge diver"]'

say "4. Multipart with progress: name@file uploads a file, streamed from disk"
head -c $((64 * 1024 * 1024)) /dev/urandom > "$work/colony.bin"
printf 'Northern gannets nest on Bass Rock.\n' > "$work/notes.txt"
note "64 MB to nginx /upload (a progress bar shows on stderr when it is a terminal; the file is never loaded into memory)."
run "$gannet" -p h --form POST "$nginx/upload" survey@"$work/colony.bin" notes@"$work/notes.txt" year=2024
note "The same form to httpbin, which echoes the parts it received:"
run "$gannet" --form POST "$httpbin/post" notes@"$work/notes.txt" year=2024

say "5. Downloads: --download streams the body to a file, never into memory"
run "$gannet" --download --output "$work/10m.bin" "$nginx/files/10m.bin"
if cmp -s "$work/10m.bin" "$(field files 10m.bin)"; then note "the downloaded file is byte-identical to the served one"; else echo "demo: the download differs" >&2; exit 1; fi

say "6. XML: httpbin /xml, read by GannetXML's serializer (--as xml) and re-indented"
run "$gannet" --as xml --pretty=format "$httpbin/xml"

say "7. TLS: nginx with HTTP/2, its certificate from the test CA (--cacert)"
run "$gannet" -p hb --cacert "$ca" "$tls/echo"

say "8. Pinning: the SPKI pins of the chain the server presents"
run "$gannet" pins "$tls"
pin="$("$gannet" pins "$tls" | awk 'NR==1 {print $1}')"
note "the leaf's pin is $pin"

say "9. A pinned request that passes: the pin is in the verified chain"
run "$gannet" -p hb --cacert "$ca" --pin "$pin" "$tls/small"

say "10. A pinned request that is refused: a pin the server does not have"
note "The handshake is aborted before a byte of the request is sent; the error lists the pins the server presented."
wrong="sha256/$(printf 'not the right key' | openssl dgst -sha256 -binary | base64)"
set +e
run "$gannet" --cacert "$ca" --pin "$wrong" "$tls/small"
status=$?
set -e
if [ "$status" -eq 0 ]; then echo "demo: the wrong pin was accepted" >&2; exit 1; fi
note "gannet exited with $status, as expected"

say "11. Exit codes for scripts: --check-status turns 4xx into 4 and 5xx into 5"
set +e
"$gannet" --check-status "$httpbin/status/404" >/dev/null 2>&1; echo "    404 -> exit $?"
"$gannet" --check-status "$httpbin/status/503" >/dev/null 2>&1; echo "    503 -> exit $?"
"$gannet" --timeout 0.5 "$httpbin/delay/3" >/dev/null 2>&1; echo "    timeout -> exit $?"
set -e

say "Done. Run the test suite with: bash scripts/test.sh"
