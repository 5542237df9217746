#!/usr/bin/env bash
# Runs the test suites under the sanitizers (docs/reliability.md):
#   ThreadSanitizer:  the core's lifecycle, cancellation, hostile-server and fault suites
#                     (FaultsSerialSuites), async/await and the interceptors: the code where
#                     the engine thread, Dispatch queues and Swift tasks share state.
#   AddressSanitizer: every other suite.
#   scripts/sanitize.sh            # both
#   scripts/sanitize.sh thread     # or: address
# Separate scratch paths (.build-tsan, .build-asan) keep the normal .build intact. Any report
# fails the run: the sanitizers make the test process exit non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."

passes=("$@")
[ "${#passes[@]}" -gt 0 ] || passes=(thread address)

# The suites ThreadSanitizer runs; AddressSanitizer runs the rest.
thread_suites='GannetCoreTests\.(FaultsSerialSuites|AsyncTests|InterceptorTests|AuthenticationInterceptorTests|AuthenticationRefreshThroughTheManagerTests)|GannetTests\.(AsyncTests|StreamingTests|HTTPSessionManagerInterceptorTests)'
# The fault suites count the whole process's descriptors and threads, so, as in scripts/test.sh,
# they run with no other suite beside them (a parallel suite's engine was once counted as theirs).
faults='GannetCoreTests\.FaultsSerialSuites'
other_thread_suites='GannetCoreTests\.(AsyncTests|InterceptorTests|AuthenticationInterceptorTests|AuthenticationRefreshThroughTheManagerTests)|GannetTests\.(AsyncTests|StreamingTests|HTTPSessionManagerInterceptorTests)'
# As in scripts/test.sh, the heavy tests run apart. The tests that bound resident memory do not
# run under AddressSanitizer at all: its quarantine keeps freed memory resident (256 MB by
# default), so they would measure the sanitizer, not Gannet; scripts/test.sh runs them.
heavy='XMLHostileInputTests|NamespaceReachabilityTests|aGibibyteDownload|FanOutTests'
# ManyManagersTests bounds resident memory too, and counts the process's engine threads, which
# only a pass with no other suite beside it can do (scripts/test.sh runs it one at a time).
memory_bound='MultipartMemoryTests|twoGiBFileGoesUpInConstantMemory|aHundredMegabytesAreReadInBoundedMemory|ManyManagersTests'

# Swift's crash handler re-reads the stack under AddressSanitizer, which reports its reads on
# top of the real failure; the sanitizer's report is enough.
export SWIFT_BACKTRACE=enable=no

status=0
# Each test pass writes an xUnit report; after a failed one, scripts/test-failures.py names every
# failed test with its issue (the parallel console output can omit an issue's text).
reports=$(mktemp -d)
trap 'rm -rf "$reports"' EXIT
named_failures() { python3 scripts/test-failures.py "$reports/$1.xml"; }
for pass in "${passes[@]}"; do
    case "$pass" in
    thread)
        start=$SECONDS
        echo "sanitize.sh: swift build --build-tests --sanitize=thread --scratch-path .build-tsan"
        swift build --build-tests --sanitize=thread --scratch-path .build-tsan
        # Synchronization.Mutex's contended path, made visible to ThreadSanitizer rather than
        # its reports suppressed: see scripts/sanitizers/tsan-mutex.c (clang: Swift's calling
        # convention).
        clang -shared -fPIC -O1 -o .build-tsan/libtsan-mutex.so scripts/sanitizers/tsan-mutex.c -ldl
        report=0
        for suites in "$faults" "$other_thread_suites"; do
            report=$((report + 1))
            echo "sanitize.sh: swift test --sanitize=thread --filter '$suites'"
            LD_PRELOAD="$PWD/.build-tsan/libtsan-mutex.so" TSAN_OPTIONS="${TSAN_OPTIONS:-second_deadlock_stack=1}" \
                swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter "$suites" \
                --xunit-output "$reports/thread-$report.xml" || { status=1; named_failures "thread-$report"; }
        done
        echo "sanitize.sh: ThreadSanitizer pass took $((SECONDS - start)) s"
        ;;
    address)
        start=$SECONDS
        echo "sanitize.sh: swift build --build-tests --sanitize=address --scratch-path .build-asan"
        swift build --build-tests --sanitize=address --scratch-path .build-asan
        # LeakSanitizer off: it cannot see a reference that Swift keeps in an enum payload
        # with tag bits (Foundation's Data among them), so it reports reachable objects, such
        # as an array of Data held by a global, as direct leaks (docs/reliability.md has the
        # five-line reproduction). Leaks are bounded instead by the fault suites' descriptor
        # and memory baselines.
        # One suppression, for an overread inside Foundation's Process (scripts/sanitizers/asan.supp).
        export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:suppressions=$PWD/scripts/sanitizers/asan.supp}"
        echo "sanitize.sh: swift test --sanitize=address --skip '$thread_suites|$heavy|$memory_bound'"
        swift test --skip-build --sanitize=address --scratch-path .build-asan \
            --skip "$thread_suites|$heavy|$memory_bound" --xunit-output "$reports/address.xml" ||
            { status=1; named_failures address; }
        echo "sanitize.sh: swift test --sanitize=address --no-parallel --filter '$heavy'"
        swift test --skip-build --sanitize=address --scratch-path .build-asan --no-parallel --filter "$heavy" \
            --xunit-output "$reports/address-heavy.xml" || { status=1; named_failures address-heavy; }
        echo "sanitize.sh: AddressSanitizer pass took $((SECONDS - start)) s"
        ;;
    *)
        echo "sanitize.sh: unknown pass '$pass' (thread or address)" >&2
        exit 2
        ;;
    esac
done
echo "sanitize.sh: exited with $status"
exit "$status"
