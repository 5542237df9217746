#!/usr/bin/env bash
# Builds Gannet with warnings as errors and runs the whole test suite against real local servers.
#   scripts/test.sh                      # everything
#   scripts/test.sh --filter Redirect    # extra arguments go to `swift test` (one pass)
# Exits non-zero if any test failed.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "test.sh: installing missing dependencies"
bash scripts/install-deps.sh

echo "test.sh: swift build --build-tests -Xswiftc -warnings-as-errors"
swift build --build-tests -Xswiftc -warnings-as-errors

if [ "$#" -gt 0 ]; then
    echo "test.sh: swift test $*"
    swift test --skip-build "$@"
    exit $?
fi

# Tests that stream a whole gibibyte, or bound peak memory, run in a second pass of their own:
# in parallel with the rest they take both cores (starving tests that wait on events), and
# their resident-memory readings are only meaningful when nothing else allocates beside them.
heavy='MultipartMemoryTests|XMLHostileInputTests'
status=0
echo "test.sh: swift test --skip $heavy"
swift test --skip-build --skip "$heavy" || status=$?
echo "test.sh: swift test --filter $heavy"
swift test --skip-build --filter "$heavy" || status=$?
echo "test.sh: swift test exited with $status"
exit "$status"
