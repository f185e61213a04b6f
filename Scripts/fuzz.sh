#!/usr/bin/env bash
# libFuzzer runs over what reads input others wrote (issue 43): the row decoder over arbitrary stored values
# and declared types, full-text search text, the schema diff over arbitrary table SQL, the generator over
# arbitrary schemas and names, and PostgreSQL value decoding from arbitrary binary cells. Each target is
# Tests/Fuzz/<Target>/<Target>.swift, with its seed corpus in Tests/Fuzz/<Target>/corpus; Tests/Fuzz/Support
# holds what they share.
#
# SwiftPM cannot build one target with -sanitize=fuzzer (it would link libFuzzer's main into every executable
# and test bundle), so this script compiles the modules' sources with swiftc: SQLiteRecord and SQLiteRecordGen
# as static libraries instrumented for coverage (-sanitize=fuzzer,address), then each target against them.
# PostgresValueFuzz needs PostgresRecord too, compiled with its trait (-D PostgreSQL) over libpq (pkg-config
# libpq), which holds the fuzzed cells as a server's result would: no server runs.
#
# Usage: Scripts/fuzz.sh [--build-only] [--seconds N] [--jobs N] [Target ...]   (no target: all five)
#   --seconds N   how long each target runs (libFuzzer's -max_total_time); default 60
#   --jobs N      swiftc's parallel frontend jobs; default 2
# The targets' new inputs go to $FUZZ_SCRATCH/<Target>/corpus (the repository's corpus is read, not written);
# a crash, a sanitizer report, a leak or an input that runs over 10 s stops that target and fails the script,
# with libFuzzer's crash-*/timeout-* file in $FUZZ_SCRATCH/<Target>. Build folder: $FUZZ_SCRATCH
# (default /tmp/sqliterecord-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swiftc >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swiftc ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
seconds=60
jobs=2
build_only=0
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --build-only) build_only=1; shift ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
    esac
done
if [ ${#targets[@]} -eq 0 ]; then
    targets=(RowDecoderFuzz FullTextSearchFuzz SchemaDiffFuzz GeneratorFuzz PostgresValueFuzz)
fi
scratch="${FUZZ_SCRATCH:-/tmp/sqliterecord-fuzz}"
mkdir -p "$scratch/modules"

# Optimized (a fuzzer's executions per second), instrumented, and in the package's language mode; the one
# package name gives SQLiteRecordGen the `package` declarations of SQLiteRecord, as SwiftPM does.
common=(-swift-version 6 -package-name sqliterecord -O -g -sanitize=fuzzer,address -j "$jobs"
    -I Sources/CSQLiteRecord -I "$scratch/modules")
# libpq's headers, for PostgresRecord's CPostgresRecord module.
postgres=(-I Sources/CPostgresRecord $(pkg-config --cflags-only-I libpq 2>/dev/null | sed 's/-I/-Xcc -I/g'))
library() {  # module name, source folder, extra flags; kept while neither a source nor libSQLiteRecord.a is newer
    local built="$scratch/modules/lib$1.a" name="$1" folder="$2"
    shift 2
    if [ -f "$built" ] && [ -z "$(find "$folder" -name '*.swift' -newer "$built")" ] \
        && ! [ "$scratch/modules/libSQLiteRecord.a" -nt "$built" ]; then
        return
    fi
    swiftc "${common[@]}" "$@" -parse-as-library -enable-testing -emit-library -static -module-name "$name" \
        -emit-module -emit-module-path "$scratch/modules/$name.swiftmodule" -o "$scratch/modules/lib$name.a" \
        $(find "$folder" -name '*.swift' | sort)
}
start=$(date +%s)
library SQLiteRecord Sources/SQLiteRecord
library SQLiteRecordGen Sources/SQLiteRecordGen
if [[ " ${targets[*]} " == *" PostgresValueFuzz "* ]]; then
    library PostgresRecord Sources/PostgresRecord -D PostgreSQL "${postgres[@]}"
fi
for target in "${targets[@]}"; do
    mkdir -p "$scratch/$target"
    extra=()
    if [ "$target" = PostgresValueFuzz ]; then extra=("${postgres[@]}" "$scratch/modules/libPostgresRecord.a" -lpq); fi
    swiftc "${common[@]}" -parse-as-library -module-name "$target" "Tests/Fuzz/$target/$target.swift" \
        Tests/Fuzz/Support/*.swift ${extra[@]+"${extra[@]}"} "$scratch/modules/libSQLiteRecordGen.a" \
        "$scratch/modules/libSQLiteRecord.a" -lsqlite3 -use-ld=lld -o "$scratch/$target/$target"
done
echo "fuzz: built in $(( $(date +%s) - start )) s"
[ "$build_only" -eq 1 ] && exit 0

status=0
for target in "${targets[@]}"; do
    dir="$scratch/$target"
    mkdir -p "$dir/corpus"
    log="$dir/run.log"
    # detect_leaks: a leak is a fault too. -timeout: an input that runs 10 s is a hang.
    # SWIFT_BACKTRACE: the runtime's own crash handler would read memory ASan then reports; libFuzzer's
    # report and the input are what count.
    if (cd "$dir" && ASAN_OPTIONS="detect_leaks=1" SWIFT_BACKTRACE="enable=no" "./$target" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=4096 -print_final_stats=1 corpus "$OLDPWD/Tests/Fuzz/$target/corpus" >"$log" 2>&1); then
        result=PASS
    else
        result=FAIL
        status=1
    fi
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 | sed -E 's/^#([0-9]+)[[:space:]]+[A-Z]+[[:space:]]+//' || true)
    echo "$target: $result, ${runs:-?} executions in $seconds s; $last"
    if [ "$result" = FAIL ]; then
        grep -E 'ERROR|SUMMARY|Test unit written|panic|Fatal error' "$log" | head -20 || true
        echo "log: $log"
    fi
done
exit $status
