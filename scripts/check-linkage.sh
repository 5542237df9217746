#!/usr/bin/env bash
# Proves the product promises of Package.swift on real builds (those of Examples/PinnedClient):
#   - JSONClient (product Gannet only) and CoreClient (GannetCore only) link no libxml2 (ldd)
#     and hold no GannetSecurity or GannetXML symbol (nm); CoreClient none of the other modules;
#   - XMLClient (GannetXML) links libxml2 and PinnedClient (GannetSecurity) holds GannetSecurity
#     symbols, which shows the checks can see what they look for;
#   - SerializersClient (GannetResponseSerialization) holds no GannetCore symbol and needs no
#     libcurl, libssl, libcrypto, libpsl or libxml2 itself (CoreClient, which does, is the control).
# Exits non-zero on any broken promise.
set -euo pipefail
cd "$(dirname "$0")/.."
example=Examples/PinnedClient

echo "check-linkage: swift build --package-path $example"
# One retry: after files were added to Gannet, SwiftPM 6.3 can compile the path dependency once
# with its previous file list ("cannot find type ... in scope"); a real error fails twice.
swift build --package-path "$example" || {
    echo "check-linkage: the build failed; retrying once"
    swift build --package-path "$example"
}
bin="$(swift build --package-path "$example" --show-bin-path)"

failed=0
# Swift mangles a module name as its length and the name: GannetSecurity -> 14GannetSecurity.
symbols() { nm "$bin/$1" | grep -c "$2" || true; }
# ldd's whole output first: `ldd | grep -q` under pipefail fails whenever grep's early exit
# kills ldd with SIGPIPE, which made the positive control fail at random on a loaded machine.
links_libxml2() {
    local libraries
    libraries=$(ldd "$bin/$1")
    [[ "$libraries" == *libxml2* ]]
}
expect() {
    local what="$1"; shift
    if "$@"; then echo "check-linkage: ok: $what"; else echo "check-linkage: FAILED: $what" >&2; failed=1; fi
}

for app in JSONClient CoreClient; do
    expect "$app links no libxml2" eval '! links_libxml2 '"$app"
    expect "$app holds no GannetSecurity symbol ($(symbols "$app" 14GannetSecurity) found)" \
        test "$(symbols "$app" 14GannetSecurity)" = 0
    expect "$app holds no GannetXML symbol ($(symbols "$app" 9GannetXML) found)" \
        test "$(symbols "$app" 9GannetXML)" = 0
done
expect "CoreClient holds no Gannet request-serialization symbol" test "$(symbols CoreClient 26GannetRequestSerialization)" = 0
# (Gannet itself depends on GannetReachability, as AFHTTPSessionManager had a reachability manager.)
expect "CoreClient holds no GannetReachability symbol" test "$(symbols CoreClient 18GannetReachability)" = 0
expect "XMLClient links libxml2 (the ldd check sees it)" links_libxml2 XMLClient
expect "PinnedClient holds GannetSecurity symbols (the nm check sees them: $(symbols PinnedClient 14GannetSecurity))" \
    test "$(symbols PinnedClient 14GannetSecurity)" -gt 0
expect "PinnedClient links no libxml2" eval '! links_libxml2 PinnedClient'

# SerializersClient: GannetResponseSerialization on GannetVocabulary, without the engine. Its own
# dynamic section (readelf's NEEDED) names no C library of Gannet's; `ldd`, which lists the
# dependencies of dependencies, still shows libcurl and OpenSSL, because swift-corelibs-foundation's
# libFoundationNetworking.so (URLRequest, HTTPURLResponse on Linux) needs them.
needs() {
    local section
    section=$(readelf -d "$bin/$1")
    [[ "$section" == *"[$2"* ]]
}
expect "SerializersClient holds no GannetCore symbol ($(symbols SerializersClient 10GannetCore) found)" \
    test "$(symbols SerializersClient 10GannetCore)" = 0
for library in libcurl libssl libcrypto libpsl libxml2; do
    expect "SerializersClient needs no $library itself" eval '! needs SerializersClient '"$library"
done
expect "CoreClient needs libcurl itself (the NEEDED check sees it)" needs CoreClient libcurl
expect "CoreClient holds GannetCore symbols (the nm check sees them: $(symbols CoreClient 10GannetCore))" \
    test "$(symbols CoreClient 10GannetCore)" -gt 0
serializers_ldd=$(ldd "$bin/SerializersClient")
if [[ "$serializers_ldd" == *libcurl* ]]; then
    networking=$(awk '/libFoundationNetworking/ {print $3}' <<<"$serializers_ldd")
    networking_ldd=$(ldd "$networking")
    expect "SerializersClient's libcurl comes from libFoundationNetworking.so ($networking)" \
        test -n "$networking" -a "${networking_ldd#*libcurl}" != "$networking_ldd"
fi
exit "$failed"
