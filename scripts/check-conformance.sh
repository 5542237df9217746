#!/usr/bin/env bash
# Checks docs/conformance.md, AFNetworking's test methods beside the Gannet tests that prove the
# same behaviour (scripts/check-conformance.py; docs/conformance.md, "How the table is checked").
#   scripts/check-conformance.sh             # every in-scope method has a row; every referenced test exists
# First proves the checker fails: a fixture table with a renamed test and a "missing" row must
# be refused. Exits non-zero if that proof or the check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

fixture=scripts/fixtures/check-conformance/broken.md
set +e
output="$(python3 scripts/check-conformance.py --table "$fixture" 2>&1)"
status=$?
set -e
if [ "$status" != 1 ] \
    || [[ "$output" != *"references GannetTests/HTTPSessionManagerTests/aTestThatWasRenamed: no @Test func"* ]] \
    || [[ "$output" != *"testHEAD says missing"* ]] \
    || [[ "$output" != *"no row for AFSecurityPolicyTests.m testThatPolicyCanBeCopied"* ]]; then
    echo "check-conformance: the checker did not refuse $fixture as it should (status $status):" >&2
    echo "$output" >&2
    exit 1
fi

python3 scripts/check-conformance.py "$@"
