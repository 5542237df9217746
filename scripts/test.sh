#!/usr/bin/env bash
# Builds Gannet with warnings as errors and runs the whole test suite against real local servers.
#   scripts/test.sh                      # everything
#   scripts/test.sh --filter Redirect    # extra arguments go to `swift test`
# Exits with `swift test`'s status.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "test.sh: installing missing dependencies"
bash scripts/install-deps.sh

echo "test.sh: swift build --build-tests -Xswiftc -warnings-as-errors"
swift build --build-tests -Xswiftc -warnings-as-errors

echo "test.sh: swift test $*"
set +e
swift test -Xswiftc -warnings-as-errors "$@"
status=$?
set -e
echo "test.sh: swift test exited with $status"
exit "$status"
