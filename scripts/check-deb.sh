#!/usr/bin/env bash
# Builds the .deb (scripts/build-deb.sh), installs it with apt-get as a user would, runs
# `gannet --version` and a request from the installed copy against a local server, checks the
# manual and completions are where Debian's tools look, then removes the package and checks it
# left nothing behind. Needs root (apt-get). CI runs it after the tests (.ci/run); it is not
# part of scripts/test.sh, whose release build would cost every developer minutes.
#
#   bash scripts/check-deb.sh                 # build, then check
#   bash scripts/check-deb.sh path/to.deb     # check a built package
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
deb=${1:-}
if [[ -z "$deb" ]]; then deb=$(bash scripts/build-deb.sh | tail -1); fi
built=$(date +%s)
[[ -f "$deb" ]] || { echo "check-deb: no package at $deb" >&2; exit 1; }
dpkg-deb --info "$deb"
if dpkg -s gannet >/dev/null 2>&1; then echo "check-deb: gannet is already installed; remove it first" >&2; exit 1; fi

server_dir=$(mktemp -d)
server_pid=""
cleanup() {
    [[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null || true
    rm -rf "$server_dir"
    if dpkg -s gannet >/dev/null 2>&1; then apt-get remove -y gannet >/dev/null || true; fi
}
trap cleanup EXIT

apt-get install -y "./${deb#./}" || apt-get install -y "$deb"
test "$(command -v gannet)" = /usr/bin/gannet
# Linked as docs/performance.md's "Start-up" says: libstdc++ inside (so not in Depends), relative
# relocations packed (DT_RELR), nothing exported.
depends=$(dpkg-deb -f "$deb" Depends)
[[ "$depends" != *libstdc++* ]] || { echo "check-deb: Depends names libstdc++, linked in: $depends" >&2; exit 1; }
libraries=$(ldd /usr/bin/gannet)
[[ "$libraries" != *libstdc++* ]] || { echo "check-deb: the installed gannet loads libstdc++" >&2; exit 1; }
dynamic=$(readelf -d /usr/bin/gannet)
[[ "$dynamic" == *"(RELR)"* ]] || { echo "check-deb: the installed gannet has no DT_RELR" >&2; exit 1; }
exported=$(nm -D --defined-only /usr/bin/gannet | wc -l)
[[ "$exported" == 0 ]] || { echo "check-deb: the installed gannet exports $exported symbols" >&2; exit 1; }
/usr/bin/gannet --version | tee "$server_dir/version"
for name in "gannet " "libcurl " "OpenSSL " "nghttp2 " "libxml2 " "Features: "; do
    grep -q "^$name" "$server_dir/version" || { echo "check-deb: --version names no ${name% }" >&2; exit 1; }
done

# A request from the installed copy to a local server.
printf 'installed gannet works\n' >"$server_dir/hello.txt"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$server_dir" >/dev/null 2>&1 &
server_pid=$!
for _ in $(seq 100); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break; sleep 0.1; done
body=$(GANNET_IGNORE_CONFIG=1 /usr/bin/gannet --check-status "http://127.0.0.1:$port/hello.txt")
[[ "$body" == "installed gannet works" ]] || { echo "check-deb: unexpected body: $body" >&2; exit 1; }
# XML parsed by the installed copy: libxml2, opened with dlopen when needed, comes from the
# package's dependency.
grep -q "^libxml2 [0-9]" "$server_dir/version" || { echo "check-deb: --version found no libxml2" >&2; exit 1; }
printf '<bird><name>gannet</name></bird>' >"$server_dir/bird.xml"
xml=$(GANNET_IGNORE_CONFIG=1 /usr/bin/gannet --as xml --pretty=format "http://127.0.0.1:$port/bird.xml")
[[ "$xml" == *"  <name>gannet</name>"* ]] || { echo "check-deb: XML not parsed: $xml" >&2; exit 1; }

test -f /usr/share/man/man1/gannet.1.gz
man -w gannet >/dev/null
test -f /usr/share/bash-completion/completions/gannet
test -f /usr/share/zsh/vendor-completions/_gannet
test -f /usr/share/fish/vendor_completions.d/gannet.fish

apt-get remove -y gannet
! dpkg -s gannet >/dev/null 2>&1 || { echo "check-deb: still installed" >&2; exit 1; }
test ! -e /usr/bin/gannet
test ! -e /usr/share/man/man1/gannet.1.gz
done_at=$(date +%s)
echo "check-deb: ok ($deb; build $((built - started)) s, install/use/remove $((done_at - built)) s)"
