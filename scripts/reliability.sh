#!/usr/bin/env bash
# CI's second step, after scripts/test.sh (docs/reliability.md): the test suites under
# ThreadSanitizer and AddressSanitizer (scripts/sanitize.sh), then every libFuzzer target for 20 s
# from its committed seeds (scripts/fuzz.sh), to catch a harness that no longer builds or a
# regression its seeds reach; the 10-minute fuzz runs are `make fuzz`. Each step prints its time.
# Measured on the project's 2-core machine while other builds loaded it: ThreadSanitizer's build
# about 9 minutes and its suites 1 to 2, AddressSanitizer's build 6 and its suites 1.5, the fuzz
# harness's build 4 and the targets 2: with scripts/test.sh (about 10) well inside CI's hour.
# Runs after scripts/test.sh has installed the dependencies. Exits non-zero if any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."

status=0
for pass in thread address; do
    start=$SECONDS
    bash scripts/sanitize.sh "$pass" || status=1
    echo "reliability.sh: scripts/sanitize.sh $pass took $((SECONDS - start)) s"
done
start=$SECONDS
FUZZ_SECONDS=20 FUZZ_JOBS=2 bash scripts/fuzz.sh || status=1
echo "reliability.sh: scripts/fuzz.sh (20 s a target) took $((SECONDS - start)) s"
echo "reliability.sh: sanitizers and fuzzing exited with $status"
exit "$status"
