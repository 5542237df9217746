#!/usr/bin/env bash
# Builds Examples/PinnedClient (a package depending on Gannet by path, pinning with the
# GannetEmbedCertificates plugin) from scratch-free sources and runs it for real:
#   1. the pins it prints are those OpenSSL computes for the certificate files it embeds;
#   2. against a local TLS server (openssl s_server, a key and certificate generated for the run)
#      whose chain validates (its certificate is given as the CA file) but whose key is not
#      pinned, the request is refused in the handshake for its pins, with exit status 3;
#   3. `swift package gannet-pins --target PinnedClient`, the command plugin run from the
#      dependent package, prints the same pins.
# Exits non-zero on any difference.
set -euo pipefail
cd "$(dirname "$0")/.."
example=Examples/PinnedClient

echo "check-example: swift build --package-path $example"
# One retry: after files were added to Gannet, SwiftPM 6.3 can compile the path dependency once
# with its previous file list ("cannot find type ... in scope"); a real error fails twice.
swift build --package-path "$example" || {
    echo "check-example: the build failed; retrying once"
    swift build --package-path "$example"
}
client="$(swift build --package-path "$example" --show-bin-path)/PinnedClient"

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=localhost \
    -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
openssl s_server -accept "127.0.0.1:$port" -cert "$work/cert.pem" -key "$work/key.pem" -www -quiet \
    > "$work/server.log" 2>&1 < /dev/null &
server_pid=$!
# Wait for the server to listen (a condition, not a fixed time), for 30 s at most.
for _ in $(seq 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    kill -0 "$server_pid" 2>/dev/null || { echo "check-example: openssl s_server exited:" >&2; cat "$work/server.log" >&2; exit 1; }
    sleep 0.1
done

set +e
"$client" "https://localhost:$port/" "$work/cert.pem" > "$work/out.txt" 2>&1
status=$?
set -e
cat "$work/out.txt"

failed=0
for file in "$example"/Sources/PinnedClient/Certificates/*; do
    pin="sha256/$(openssl x509 -in "$file" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)"
    if grep -q "^pinned: $pin " "$work/out.txt"; then
        echo "check-example: $file pinned as $pin"
    else
        echo "check-example: $file: expected 'pinned: $pin' in the output" >&2
        failed=1
    fi
done
server_pin="sha256/$(openssl x509 -in "$work/cert.pem" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)"
# The command plugin from the dependent package: the same pins, through `gannet pins`.
echo "check-example: swift package --package-path $example gannet-pins --target PinnedClient"
swift package --package-path "$example" gannet-pins --target PinnedClient > "$work/pins.txt" 2> "$work/pins.err" || {
    echo "check-example: gannet-pins failed:" >&2; cat "$work/pins.err" >&2; failed=1; }
cat "$work/pins.txt"
for file in "$example"/Sources/PinnedClient/Certificates/*; do
    pin="sha256/$(openssl x509 -in "$file" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64)"
    grep -qF "Sources/PinnedClient/Certificates/$(basename "$file")  $pin  " "$work/pins.txt" \
        || { echo "check-example: gannet-pins did not print $pin for $file" >&2; failed=1; }
done

refusal=$(grep "^refused: " "$work/out.txt" || true)
if [ "$status" != 3 ] || [[ "$refusal" != *"$server_pin"* ]]; then
    echo "check-example: expected the unpinned local server ($server_pin) to be refused for its pins (exit 3), got exit $status" >&2
    failed=1
else
    echo "check-example: the unpinned server on port $port was refused in the handshake"
fi
exit "$failed"
