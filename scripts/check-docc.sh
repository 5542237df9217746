#!/usr/bin/env bash
# Builds the reference documentation of every library product with the toolchain's `docc`, from
# the catalogs Modules/<Product>/<Product>.docc and the products' symbol graphs, and fails on
# any warning (an unresolved ``link``, an undocumented or misnamed parameter, a malformed doc
# comment). See docs/README.md, "Reference documentation".
#   scripts/check-docc.sh               # build Gannet (as scripts/test.sh does), then the docs
#   scripts/check-docc.sh --no-build    # reuse the modules of the last build
# The symbol graphs come from `swift symbolgraph-extract` on the built modules, so nothing is
# recompiled; the archives land in .build/docc/<Product>.doccarchive (`docc preview` serves
# one). First proves the check fails: a fixture catalog with a broken symbol link must be
# refused. Exits non-zero if that proof or any product's documentation has a warning.
set -euo pipefail
cd "$(dirname "$0")/.."

products="GannetCore GannetRequestSerialization GannetResponseSerialization GannetXML GannetSecurity GannetReachability Gannet GannetVocabulary"

build=1
if [ "${1:-}" = "--no-build" ]; then
    build=0
    shift
fi
if [ "$build" = 1 ]; then
    echo "check-docc: swift build --build-tests -Xswiftc -warnings-as-errors"
    swift build --build-tests -Xswiftc -warnings-as-errors
fi
modules="$(swift build --show-bin-path)/Modules"
if [ ! -f "$modules/Gannet.swiftmodule" ]; then
    echo "check-docc: no Gannet.swiftmodule in $modules: build first (or drop --no-build)" >&2
    exit 2
fi
# The toolchain's own docc, beside swift (the one the Swift Package Index would use with it).
docc="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
[ -x "$docc" ] || docc="$(command -v docc || true)"
if [ -z "$docc" ]; then
    echo "check-docc: no docc beside $(command -v swift) nor on PATH" >&2
    exit 2
fi
triple="$(swift -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"
out=.build/docc
rm -rf "$out"
mkdir -p "$out"

# The C modules' maps and libxml2's include directory, as SwiftPM passes them to the compiler.
clang_args=()
for map in Modules/C*/module.modulemap; do
    clang_args+=(-Xcc "-fmodule-map-file=$map")
done
for flag in $(pkg-config --cflags-only-I libxml-2.0 libcurl openssl); do
    clang_args+=(-Xcc "$flag")
done

# Public symbols only, with the members added to other modules' types as extension pages
# (what swift-docc-plugin and the Swift Package Index emit).
extract() {
    mkdir -p "$out/symbol-graphs/$1"
    swift symbolgraph-extract -module-name "$1" -target "$triple" -I "$modules" "${clang_args[@]}" \
        -minimum-access-level public -skip-inherited-docs -emit-extension-block-symbols \
        -output-dir "$out/symbol-graphs/$1"
}

# docc --warnings-as-errors exits non-zero on a warning; the log is searched as well, so a
# diagnostic docc printed but did not count still fails the check. --ide-console-output prints
# each as `file:line:column: error: message`.
diagnostic='(^|: )(warning|error): '
convert() { # catalog, product, log
    local status=0
    "$docc" convert "$1" --additional-symbol-graph-dir "$out/symbol-graphs/$2" \
        --output-path "$out/$2-$(basename "$1" .docc).doccarchive" \
        --fallback-bundle-identifier "org.gannet.$2" --warnings-as-errors --ide-console-output \
        > "$3" 2>&1 || status=$?
    if [ "$status" = 0 ] && grep -qE "$diagnostic" "$3"; then status=1; fi
    return "$status"
}

extract GannetReachability
fixture=scripts/fixtures/check-docc/Broken.docc
if convert "$fixture" GannetReachability "$out/fixture.log" \
    || ! grep -q "startMonitoringEverything()' doesn't exist" "$out/fixture.log"; then
    echo "check-docc: docc did not refuse $fixture as it should:" >&2
    cat "$out/fixture.log" >&2
    exit 1
fi
echo "check-docc: docc refuses the broken fixture: $(grep -m1 "startMonitoringEverything()' doesn't exist" "$out/fixture.log")"

# docc checks the documentation a symbol has, not that it has some: the house rule that every
# public declaration carries `///` docs is checked here, on the same graphs. A member that
# implements a protocol requirement (docc names the requirement: "Inherited from ...") or that the
# compiler synthesized needs none.
undocumented() {
    python3 - "$out/symbol-graphs/$1" <<'PY'
import glob, json, sys
missing = 0
for path in sorted(glob.glob(sys.argv[1] + "/*.symbols.json")):
    graph = json.load(open(path))
    implementations = {r["source"] for r in graph["relationships"] if r.get("sourceOrigin")}
    for symbol in graph["symbols"]:
        precise = symbol["identifier"]["precise"]
        if symbol.get("accessLevel") not in ("public", "open") or "docComment" in symbol \
                or symbol["kind"]["identifier"] == "swift.extension" \
                or precise in implementations or "::SYNTHESIZED::" in precise:
            continue
        location = symbol.get("location", {})
        where = location.get("uri", "?").removeprefix("file://")
        line = location.get("position", {}).get("line", -1) + 1
        print(f"{where}:{line}: error: public {'.'.join(symbol['pathComponents'])} has no /// documentation")
        missing += 1
sys.exit(1 if missing else 0)
PY
}

failed=0
for product in $products; do
    start=$SECONDS
    [ "$product" = GannetReachability ] || extract "$product"
    ok=1
    undocumented "$product" >&2 || { echo "check-docc: FAILED: $product has undocumented public symbols" >&2; ok=0; }
    if convert "Modules/$product/$product.docc" "$product" "$out/$product.log"; then
        mv "$out/$product-$product.doccarchive" "$out/$product.doccarchive"
    else
        echo "check-docc: FAILED: $product, $(grep -cE "$diagnostic" "$out/$product.log") docc diagnostic(s):" >&2
        cat "$out/$product.log" >&2
        ok=0
    fi
    if [ "$ok" = 1 ]; then echo "check-docc: ok: $product ($((SECONDS - start)) s)"; else failed=1; fi
done
exit "$failed"
