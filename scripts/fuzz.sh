#!/usr/bin/env bash
# Builds the libFuzzer harness (Fuzz/GannetFuzz, with AddressSanitizer) and runs fuzz targets,
# each for a set time, starting from its committed seeds (Fuzz/Corpus/<target>/). See
# docs/reliability.md.
#   scripts/fuzz.sh                          # every target, FUZZ_SECONDS (600) each, FUZZ_JOBS (1) at a time
#   scripts/fuzz.sh media-type xml-tree      # these targets only
#   FUZZ_SECONDS=20 FUZZ_JOBS=2 scripts/fuzz.sh
# The corpus grown by a run stays in .build-fuzz/corpus/<target>/ (the committed seeds are not
# touched); a crashing input is written to .build-fuzz/artifacts/. One line per target goes to
# .build-fuzz/fuzz-summary.tsv: target, seconds, executions, exec/s, corpus entries, result.
# Exits non-zero if any target crashed, broke an invariant, leaked or timed out.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-600}
jobs=${FUZZ_JOBS:-1}
scratch=.build-fuzz
all_targets=(response-head media-type charset query-string header-validation url-validation multipart
    json-nulls json-parse xml-events xml-tree certificate pkcs12 www-authenticate
    event-stream set-cookie)
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=("${all_targets[@]}")

echo "fuzz.sh: building the harness (GANNET_FUZZ=1, scratch path $scratch)"
GANNET_FUZZ=1 swift build --scratch-path "$scratch" --product gannet-fuzz
binary="$scratch/debug/gannet-fuzz"
mkdir -p "$scratch/artifacts" "$scratch/logs"
summary="$scratch/fuzz-summary.tsv"
: >"$summary"

# Swift's own crash handler re-reads the stack under AddressSanitizer, which reports its reads
# as a stack-buffer-underflow on top of the real failure; libFuzzer's report is enough.
export SWIFT_BACKTRACE=enable=no

run_target() {
    local target=$1 log="$scratch/logs/$1.log" corpus="$scratch/corpus/$1"
    mkdir -p "$corpus"
    local status=0
    # -timeout: one input taking 10 s is a hang. The committed seeds come second: libFuzzer
    # writes new inputs into the first directory only.
    GANNET_FUZZ_TARGET=$target "$binary" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
        -artifact_prefix="$scratch/artifacts/$target-" "$corpus" "Fuzz/Corpus/$target" >"$log" 2>&1 || status=$?
    local execs rate entries result
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    entries=$(find "$corpus" -type f | wc -l)
    if [ "$status" = 0 ]; then result=ok; else result="FAILED (exit $status, see $log)"; fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$target" "$seconds" "${execs:-?}" "${rate:-?}" "$entries" "$result" | tee -a "$summary"
    return "$status"
}

status=0
pids=()
for target in "${targets[@]}"; do
    run_target "$target" &
    pids+=($!)
    if [ "${#pids[@]}" -ge "$jobs" ]; then
        wait "${pids[0]}" || status=1
        pids=("${pids[@]:1}")
    fi
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
echo "fuzz.sh: target, seconds, executions, exec/s, corpus entries, result"
cat "$summary"
exit "$status"
