#!/usr/bin/env bash
# Proves the product promises of Package.swift on real builds (those of Examples/PinnedClient):
#   - JSONClient (product Gannet only) and CoreClient (GannetCore only) link no libxml2 (ldd)
#     and hold no GannetSecurity or GannetXML symbol (nm); CoreClient none of the other modules;
#   - XMLClient (GannetXML) links libxml2 and PinnedClient (GannetSecurity) holds GannetSecurity
#     symbols, which shows the checks can see what they look for.
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
exit "$failed"
