#!/usr/bin/env bash
# Sanitizer runs for SQLiteRecord (issue 8), one after the other so that a 2-core machine stays usable:
#   1. Thread Sanitizer on the concurrency suites (ConcurrencyTests, PoolConcurrencyTests: 8 readers and a
#      writer on a DatabasePool) and the pool's own suites (DatabasePoolTests, DatabasePoolAsyncTests),
#   2. Address Sanitizer on the whole XCTest suite (detect_leaks=0: XCTest itself leaks on Linux), but for
#      the test that asserts resident memory stays flat: ASan's quarantine holds freed memory by design,
#      so that test measures ASan, not the library.
#   3. valgrind memcheck, for leaks of our own code, on the sample and on the crash writer (queue and pool).
#   pg-asan (asked for by name): the Address Sanitizer on the PostgreSQL and contract suites (needs the
#      PostgreSQL trait's packages; about 14 min of build and 11 of tests on a loaded 2-core machine).
# Each step prints PASS or FAIL; the script exits non-zero when any step failed.
# Usage: Scripts/sanitizers.sh [tsan] [asan] [pg-asan] [memcheck]   (no argument: tsan, asan, memcheck)
# Build folders: /tmp/tsan-build, /tmp/asan-build, /tmp/rel-build (override with SANITIZER_SCRATCH_ROOT).
set -uo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
root="${SANITIZER_SCRATCH_ROOT:-/tmp}"
steps=("$@")
if [ ${#steps[@]} -eq 0 ]; then steps=(tsan asan memcheck); fi
logs=$(mktemp -d)
status=0

report() {  # name, exit status, log
    if [ "$2" -eq 0 ]; then echo "$1: PASS"; else echo "$1: FAIL (log: $3)"; status=1; fi
}

for step in "${steps[@]}"; do
    case "$step" in
    tsan)
        log="$logs/tsan.log"
        tsan_suites='ConcurrencyTests|DatabasePoolTests|DatabasePoolAsyncTests|ValueObservationTests|PoolObservationTests'  # a regex: PoolConcurrencyTests too
        # TSan sees NSLock and dispatch queues; the library uses nothing else (Mutex would be invisible to it).
        swift build --build-tests --sanitize=thread --scratch-path "$root/tsan-build" >"$log" 2>&1 &&
            TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1" swift test --skip-build --sanitize=thread \
                --scratch-path "$root/tsan-build" --filter "$tsan_suites" >>"$log" 2>&1
        result=$?
        if grep -q "ThreadSanitizer" "$log"; then result=1; fi
        grep -E "ConcurrencyTests:|Executed|ThreadSanitizer|SUMMARY" "$log" | sort -u
        report "TSan (ConcurrencyTests, PoolConcurrencyTests, DatabasePoolTests, DatabasePoolAsyncTests, ValueObservationTests, PoolObservationTests)" \
            "$result" "$log"
        ;;
    asan)
        log="$logs/asan.log"
        swift build --build-tests --sanitize=address --scratch-path "$root/asan-build" >"$log" 2>&1 &&
            ASAN_OPTIONS="detect_leaks=0" swift test --skip-build --sanitize=address \
                --scratch-path "$root/asan-build" --skip testACursorKeepsMemoryFlatOver235000Rows >>"$log" 2>&1
        result=$?
        if grep -q "AddressSanitizer" "$log"; then result=1; fi
        grep -E "Executed [0-9]+ tests|AddressSanitizer|SUMMARY" "$log" | tail -5
        report "ASan (whole suite)" "$result" "$log"
        ;;
    pg-asan)
        # The PostgreSQL suite and the contract suite on both engines under the Address Sanitizer (the
        # decoder's kept containers, the observer's buffers, COPY's rows): a server of their own, as in CI.
        # detect_leaks=0: the partition tests abandon calls cut off by design, and Foundation's file reads in
        # the test support leak on Linux.
        log="$logs/pg-asan.log"
        swift build --build-tests --sanitize=address --traits PostgreSQL --scratch-path "$root/pg-asan-build" \
            >"$log" 2>&1 &&
            ASAN_OPTIONS="detect_leaks=0" POSTGRESRECORD_REQUIRE_SERVER=1 swift test --skip-build \
                --sanitize=address --traits PostgreSQL --scratch-path "$root/pg-asan-build" \
                --filter 'PostgresRecordTests|RecordContractTests' >>"$log" 2>&1
        result=$?
        if grep -q "AddressSanitizer" "$log"; then result=1; fi
        grep -E "Executed [0-9]+ tests|AddressSanitizer|SUMMARY" "$log" | tail -5
        report "ASan (PostgreSQL and contract suites)" "$result" "$log"
        ;;
    memcheck)
        log="$logs/memcheck.log"
        db_folder=$(mktemp -d)
        swift build --scratch-path "$root/rel-build" --product countries-cities >"$log" 2>&1 &&
            swift build --scratch-path "$root/rel-build" --product SQLiteRecordCrashWriter >>"$log" 2>&1
        result=$?
        bin=$(swift build --scratch-path "$root/rel-build" --show-bin-path)
        # The sample builds its database on the first run (an import of 34,006 cities) and answers from it on
        # the second; the crash writer writes 20 batches into a WAL file and exits, through a queue, then
        # through a DatabasePool (reading each batch back on a reader).
        for run in "countries-cities --db $db_folder/x.sqlite JP" "countries-cities --db $db_folder/x.sqlite JP" \
            "SQLiteRecordCrashWriter $db_folder/crash.sqlite --batch-size 10 --batches 20" \
            "SQLiteRecordCrashWriter $db_folder/pool.sqlite --batch-size 10 --batches 20 --pool"; do
            [ "$result" -eq 0 ] || break
            # shellcheck disable=SC2086
            valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect \
                --errors-for-leak-kinds=definite,indirect --error-exitcode=99 "$bin"/$run >>"$log" 2>&1
            code=$?
            summary=$(grep -E "ERROR SUMMARY|definitely lost|indirectly lost|possibly lost" "$log" | tail -4 | tr -s ' ')
            echo "memcheck $run:"
            echo "$summary" | sed 's/^/    /'
            if [ "$code" -ne 0 ]; then result=$code; fi
        done
        rm -rf "$db_folder"
        report "valgrind memcheck (sample, crash writer on a queue and on a pool)" "$result" "$log"
        ;;
    *)
        echo "unknown step $step (tsan, asan, pg-asan, memcheck)" >&2
        exit 2
        ;;
    esac
done
echo "logs: $logs"
exit $status
