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

# The docs, the reference documentation (docc), the products' linkage and the example package,
# against this build (docs/README.md, scripts/check-*.sh). Each prints its own failures; the
# tests still run after one fails.
checks=0
for check in check-format check-docs check-docc check-linkage check-example check-conformance; do
    echo "test.sh: scripts/$check.sh"
    start=$SECONDS
    if [ "$check" = check-docs ] || [ "$check" = check-docc ]; then
        bash "scripts/$check.sh" --no-build || checks=1
    else
        bash "scripts/$check.sh" || checks=1
    fi
    echo "test.sh: scripts/$check.sh took $((SECONDS - start)) s"
done
# The test servers' own start-up: nginx still starts after losing a race for a port (2 s).
echo "test.sh: python3 Tests/Servers/retry_check.py"
python3 Tests/Servers/retry_check.py || checks=1
# The proxy's early answers close without resetting a client still sending (1 s).
echo "test.sh: python3 Tests/Servers/early_answer_check.py"
python3 Tests/Servers/early_answer_check.py || checks=1

# Three passes. Tests that stream a whole gibibyte or bound peak memory run apart from the
# rest: in parallel they take both cores (starving tests that wait on events), and resident
# memory readings only mean something when nothing else allocates beside them. The core's
# hostile-server suites run apart too: they prove open file descriptors return to their
# baseline, which only holds when no other suite opens pipes or sockets at the same time. The
# reachability namespace test runs with the heavy ones: it creates and changes network
# namespaces with `ip`, a process at a time on a thread of Swift's cooperative pool, which
# stalled the timing-sensitive tests of the first pass when it ran beside them. The stream
# task's 100 MiB test bounds the whole process's resident memory, so it runs here too (beside
# the first pass's 900 other tests it measured them: 35 MiB against a 32 MiB bound). The pass
# runs one test at a time: each memory bound reads the whole process, and beside the 1 GiB
# multipart and XML tests the stream task's test once read 33.3 MiB against its 32 MiB
# (a loaded fresh-clone run); in turn the pass takes about 10 s instead of 6.
heavy='MultipartMemoryTests|XMLHostileInputTests|NamespaceReachabilityTests|aHundredMegabytesAreReadInBoundedMemory|aGibibyteDownload|FanOutTests|ManyManagersTests'
faults='FaultsSerialSuites'
soak='SoakTests'
status=0
# Each pass writes an xUnit report; after a failed pass, scripts/test-failures.py names every
# failed test with its issue (the parallel console output can omit an issue's text).
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
pass() {
    local name=$1
    shift
    swift test --skip-build --xunit-output "$reports/$name.xml" "$@" && return 0
    python3 scripts/test-failures.py "$reports/$name.xml"
    return 1
}
echo "test.sh: swift test --skip ($heavy|$faults|$soak)"
pass parallel --skip "$heavy|$faults|$soak" || status=1
echo "test.sh: swift test --filter $faults"
pass faults --filter "$faults" || status=1
echo "test.sh: swift test --no-parallel --filter $heavy"
pass heavy --no-parallel --filter "$heavy" || status=1
# The soak runs alone: it compares the whole process's threads, descriptors, temporary files and
# memory before and after GANNET_SOAK_TASKS tasks (1,000 here; `make soak` runs 10,000).
echo "test.sh: swift test --filter $soak"
GANNET_SOAK_TASKS="${GANNET_SOAK_TASKS:-1000}" pass soak --filter "$soak" || status=1
# The packages under Integrations/ (docs/integrations.md), each depending on Gannet by path and
# on one ecosystem package, built with warnings as errors and tested in one shared scratch folder.
echo "test.sh: scripts/test-integrations.sh"
start=$SECONDS
bash scripts/test-integrations.sh || status=1
echo "test.sh: scripts/test-integrations.sh took $((SECONDS - start)) s"
echo "test.sh: swift test exited with $status"
[ "$checks" = 0 ] || { echo "test.sh: a format, docs, docc, linkage, example, conformance or test-server check failed"; status=1; }
exit "$status"
