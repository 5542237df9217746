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

# Three passes. Tests that stream a whole gibibyte or bound peak memory run apart from the
# rest: in parallel they take both cores (starving tests that wait on events), and resident
# memory readings only mean something when nothing else allocates beside them. The core's
# hostile-server suites run apart too: they prove open file descriptors return to their
# baseline, which only holds when no other suite opens pipes or sockets at the same time.
heavy='MultipartMemoryTests|XMLHostileInputTests'
faults='FaultsSerialSuites'
status=0
echo "test.sh: swift test --skip ($heavy|$faults)"
swift test --skip-build --skip "$heavy|$faults" || status=$?
echo "test.sh: swift test --filter $faults"
swift test --skip-build --filter "$faults" || status=$?
echo "test.sh: swift test --filter $heavy"
swift test --skip-build --filter "$heavy" || status=$?
echo "test.sh: swift test exited with $status"
exit "$status"
