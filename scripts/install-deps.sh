#!/usr/bin/env bash
# Installs what Gannet's build and tests need, and only what is missing:
#   apt:  libcurl (OpenSSL build), OpenSSL, libxml2 and libpsl headers; nginx, openssl, python3, pip, wrk;
#         iproute2 (`ip netns`, for the reachability namespace test); curl (cURLDescription replay tests)
#   PyPI: httpbin, gunicorn, cryptography, brotli, pyspnego (the test servers; see Tests/Servers/README.md)
# Safe to run again: a second run changes nothing. Uses sudo only when not root.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

say() { printf 'install-deps: %s\n' "$*"; }

if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi

apt_packages=(libcurl4-openssl-dev libssl-dev libxml2-dev libpsl-dev nginx libnginx-mod-http-echo openssl python3 python3-pip wrk iproute2 curl)
missing=()
for package in "${apt_packages[@]}"; do
    if ! dpkg -s "$package" >/dev/null 2>&1; then missing+=("$package"); fi
done
if [ ${#missing[@]} -gt 0 ]; then
    say "apt-get install ${missing[*]}"
    "${sudo[@]}" apt-get update -q
    "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
else
    say "apt packages present: ${apt_packages[*]}"
fi

# The tests run whatever python3 is first on PATH (GANNET_PYTHON overrides it), so install there.
python="${GANNET_PYTHON:-python3}"
py_missing=()
for pair in httpbin:httpbin gunicorn:gunicorn cryptography:cryptography brotli:brotli spnego:pyspnego; do
    module="${pair%%:*}" package="${pair##*:}"
    if ! "$python" -c "import $module" >/dev/null 2>&1; then py_missing+=("$package"); fi
done
if [ ${#py_missing[@]} -gt 0 ]; then
    say "$python -m pip install ${py_missing[*]}"
    pip_flags=(--quiet --disable-pip-version-check)
    # Debian's own python3 refuses system-wide pip installs (PEP 668) unless told otherwise.
    if "$python" -c 'import sys, sysconfig, os; sys.exit(0 if os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")) else 1)'; then
        pip_flags+=(--break-system-packages)
    fi
    if [ "$(id -u)" -ne 0 ] && ! "$python" -c 'import sys; sys.exit(0 if sys.prefix != sys.base_prefix else 1)' \
        && [ ! -w "$("$python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" ]; then
        pip_flags+=(--user)
    fi
    "$python" -m pip install "${pip_flags[@]}" "${py_missing[@]}"
else
    say "Python modules present for $("$python" -c 'import sys; print(sys.executable)'): httpbin gunicorn cryptography brotli pyspnego"
fi

nginx_path="$(command -v nginx || true)"
[ -n "$nginx_path" ] || for candidate in /usr/sbin/nginx /usr/local/sbin/nginx; do
    [ -x "$candidate" ] && nginx_path="$candidate" && break
done
[ -n "$nginx_path" ] || { say "nginx is still missing after installation"; exit 1; }

if ! command -v swift >/dev/null 2>&1; then
    say "swift not found on PATH: install a Swift 6 toolchain from https://www.swift.org/install/linux/"
    exit 1
fi
say "$(swift --version 2>&1 | head -n 1)"
say "$("$nginx_path" -v 2>&1)"
say "done"
