#!/usr/bin/env bash
# Type-checks every ```swift block of README.md and docs/*.md against Gannet's built modules
# (scripts/check-docs.py; the markers are described in docs/README.md, "Snippets compile").
#   scripts/check-docs.sh                       # build Gannet (as scripts/test.sh does), check the docs
#   scripts/check-docs.sh --no-build            # reuse the modules of the last build
#   scripts/check-docs.sh docs/new-page.md      # check only these files (or directories)
# First proves the checker fails: a fixture with a deliberately broken snippet must be refused,
# at the line of the broken call, and one that compiles only in a synchronous function must be
# refused in an asynchronous one. Exits non-zero if that proof or any snippet fails.
set -euo pipefail
cd "$(dirname "$0")/.."

build=1
if [ "${1:-}" = "--no-build" ]; then
    build=0
    shift
fi
if [ "$build" = 1 ]; then
    echo "check-docs: swift build --build-tests -Xswiftc -warnings-as-errors"
    swift build --build-tests -Xswiftc -warnings-as-errors
fi
modules="$(swift build --show-bin-path)/Modules"
if [ ! -f "$modules/Gannet.swiftmodule" ]; then
    echo "check-docs: no Gannet.swiftmodule in $modules: build first (or drop --no-build)" >&2
    exit 2
fi
scratch=.build/check-docs
rm -rf "$scratch"
mkdir -p "$scratch"

fixture=scripts/fixtures/check-docs/broken.md
set +e
python3 scripts/check-docs.py --modules "$modules" --scratch "$scratch/fixture" "$fixture" > "$scratch/fixture.log" 2>&1
status=$?
set -e
expected="$fixture:31:"
if [ "$status" != 1 ] || ! grep -q "^$expected.*error: .*fetchEverything" "$scratch/fixture.log" \
    || ! grep -q "2 of 3 snippet(s) compile, 1 skipped" "$scratch/fixture.log"; then
    echo "check-docs: the checker did not refuse $fixture as it should (status $status, expected 1 and an error at $expected):" >&2
    cat "$scratch/fixture.log" >&2
    exit 1
fi
echo "check-docs: the checker refuses the broken fixture: $(grep -m1 "^$expected" "$scratch/fixture.log")"

# And a snippet that compiles only in a synchronous function: checked in an async one too.
fixture=scripts/fixtures/check-docs/sync-only.md
set +e
python3 scripts/check-docs.py --modules "$modules" --scratch "$scratch/sync-only" "$fixture" > "$scratch/sync-only.log" 2>&1
status=$?
set -e
expected="$fixture:9:"
if [ "$status" != 1 ] || ! grep -q "^$expected.*error: .*(in an async context)$" "$scratch/sync-only.log" \
    || ! grep -q "1 of 2 snippet(s) compile" "$scratch/sync-only.log"; then
    echo "check-docs: the checker did not refuse $fixture in an async context (status $status, expected 1 and an error at $expected):" >&2
    cat "$scratch/sync-only.log" >&2
    exit 1
fi
echo "check-docs: the checker refuses the sync-only fixture in an async context: $(grep -m1 "^$expected" "$scratch/sync-only.log")"

python3 scripts/check-docs.py --modules "$modules" --scratch "$scratch/docs" "$@"
