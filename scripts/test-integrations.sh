#!/usr/bin/env bash
# Builds with warnings as errors and tests every package under Integrations/ (each a package of
# its own, depending on Gannet by path; docs/integrations.md), one after another:
#   scripts/test-integrations.sh                     # every Integrations/*/Package.swift
#   scripts/test-integrations.sh GannetLogging ...   # only these
# Exits non-zero if any package failed to build or any of its tests failed; the others still run.
#
# All the packages share one scratch folder (GANNET_INTEGRATIONS_SCRATCH, .build-integrations by
# default): SwiftPM keys what it compiled by target and output path, not by root package, so
# Gannet's own modules and a dependency two packages share (swift-log, swift-http-types) are
# compiled once, by the first package, and only relinked for the next. Two packages must
# therefore never name a target alike. The packages go largest dependency graph first only by
# name order; reordering them changes nothing measurable, since each graph's own part is
# compiled once either way. `-Xswiftc -warnings-as-errors` reaches each package's own targets,
# not its dependencies (SwiftPM passes -Xswiftc flags to root packages only): Gannet itself is
# held to it by scripts/test.sh's build. The root's .build cannot serve as the scratch folder:
# Gannet compiled there as the root package carries that flag, so as a dependency it would be
# compiled again anyway.
set -uo pipefail
cd "$(dirname "$0")/.."
scratch="${GANNET_INTEGRATIONS_SCRATCH:-.build-integrations}"

packages=()
if [ "$#" -gt 0 ]; then
    for name in "$@"; do packages+=("Integrations/$name"); done
else
    while IFS= read -r manifest; do packages+=("$(dirname "$manifest")"); done \
        < <(find Integrations -mindepth 2 -maxdepth 2 -name Package.swift | sort)
fi
if [ "${#packages[@]}" = 0 ]; then
    echo "test-integrations: no package under Integrations/"
    exit 0
fi

status=0
failed=()
total=$SECONDS
for package in "${packages[@]}"; do
    start=$SECONDS
    echo "test-integrations: swift build --package-path $package --scratch-path $scratch --build-tests"
    # One retry, as in check-example.sh: after files were added to Gannet, SwiftPM 6.3 can
    # compile the path dependency once with its previous file list; a real error fails twice.
    if ! swift build --package-path "$package" --scratch-path "$scratch" --build-tests -Xswiftc -warnings-as-errors; then
        echo "test-integrations: the build of $package failed; retrying once"
        if ! swift build --package-path "$package" --scratch-path "$scratch" --build-tests \
            -Xswiftc -warnings-as-errors; then
            echo "test-integrations: $package: build failed"
            status=1
            failed+=("$package (build)")
            continue
        fi
    fi
    echo "test-integrations: swift test --package-path $package"
    if ! swift test --package-path "$package" --scratch-path "$scratch" --skip-build; then
        status=1
        failed+=("$package (tests)")
    fi
    echo "test-integrations: $package took $((SECONDS - start)) s"
done
# The snippets of docs/integrations.md, which import these packages' modules: against what the
# builds above left in the shared scratch folder (scripts/check-docs.py; docs/README.md,
# "Snippets compile"). Only on a run of every package, when all of them are there.
if [ "$#" = 0 ] && [ -f docs/integrations.md ]; then
    echo "test-integrations: scripts/check-docs.py docs/integrations.md"
    modules="$(swift build --package-path "${packages[0]}" --scratch-path "$scratch" --show-bin-path)/Modules"
    rm -rf "$scratch/check-docs"
    if ! python3 scripts/check-docs.py --modules "$modules" --scratch "$scratch/check-docs" docs/integrations.md; then
        status=1
        failed+=("docs/integrations.md (snippets)")
    fi
fi
echo "test-integrations: ${#packages[@]} packages took $((SECONDS - total)) s"
if [ "$status" != 0 ]; then
    echo "test-integrations: check failed: ${failed[*]}"
fi
exit "$status"
