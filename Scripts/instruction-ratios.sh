#!/usr/bin/env bash
# Instruction counts of the benchmark's workloads under callgrind, library against hand-written loop
# (issue 6). Timings on a shared 2-core VM move by about 10% from run to run; instruction counts repeat to
# the last digit for the same binary and input, so they are what a change to Core or Coding is judged by.
#
# Usage: Scripts/instruction-ratios.sh [ROWS] [WORKLOADS]   (default 5000 rows: the first ROWS cities of
# cities15000; WORKLOADS a comma-separated subset such as W1,W7, default all that are counted)
# INSTRUCTION_RATIOS_DATA names another GeoNames CSV to take the rows from (cities500.csv in
# /work/shared/data/geonames has all 234,908 cities that W1 and W7 are stated for).
# Needs valgrind. Builds the benchmark in release into /tmp/instruction-ratios-build (override with
# INSTRUCTION_RATIOS_SCRATCH). Each count covers one warm-up and one timed run, so 2 x ROWS rows for
# W1, W2 and W5 and 2 x 20,000 lookups for W3 (drawn with the benchmark's fixed seed). W4 and W4-request
# read the same country codes (the most frequent of the ROWS cities), so their counts compare the request
# API with the where: dictionary form, and both with the hand-written loop. The -row lines are the same
# workloads through a row initializer (FetchableRecord); their hand-written side is the same loop. Each
# side's count covers the workload's own code, inside the read transaction that both sides open around it.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
command -v valgrind >/dev/null || { echo "valgrind is needed (Debian: apt-get install valgrind)" >&2; exit 2; }
rows="${1:-5000}"
only="${2:-}"
scratch="${INSTRUCTION_RATIOS_SCRATCH:-/tmp/instruction-ratios-build}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --scratch-path "$scratch" --product sqlite-record-bench >"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; exit 1; }
bench="$(swift build -c release --scratch-path "$scratch" --show-bin-path)/sqlite-record-bench"
data="${INSTRUCTION_RATIOS_DATA:-Examples/CountriesCities/Resources/cities15000.csv}"
head -n $((rows + 1)) "$data" >"$work/cities.csv"

# The function each side's workload runs in (mangled names; the closures are what `read`/`write` run).
count() {  # workload, toggle pattern
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" --toggle-collect="$2" \
        "$bench" --data "$work/cities.csv" --workloads "$1" --repetitions 1 >/dev/null 2>"$work/cg.log"
    grep -oE 'Collected : [0-9]+' "$work/cg.log" | grep -oE '[0-9]+'
}

printf '%-9s %16s %16s %7s\n' workload "library instr" "hand-written" ratio
report() {  # workload, library pattern, baseline pattern
    if [ -n "$only" ] && [[ ",$only," != *",$1,"* ]]; then return; fi
    library=$(count "$1" "$2")
    baseline=$(count "$1" "$3")
    awk -v w="$1" -v l="$library" -v b="$baseline" 'BEGIN { printf "%-9s %16.0f %16.0f %7.3f\n", w, l, b, l / b }'
}
report W1 '*LibraryWorkloadsO6insert*KXEfU_' '*BaselineWorkloadsO6insert*'
report W2 '*SQLiteRecord0B0PAAE8fetchAll*' '*BaselineWorkloadsO8fetchAll*'
report W2-row '*SQLiteRecord0B0PAAE8fetchAll*' '*BaselineWorkloadsO8fetchAll*'
report W3 '*LibraryWorkloadsO6lookUp*KXEfU_' '*BaselineWorkloadsO6lookUp*'
report W3-row '*LibraryWorkloadsO10lookUpRows*KXEfU_' '*BaselineWorkloadsO6lookUp*'
# W3-uuid runs the same lookups by a UUID key stored as lowercase text: `lookUp` with a [UUID] argument on
# both sides (the pattern matches either overload; each run calls one).
report W3-uuid '*LibraryWorkloadsO6lookUp*KXEfU_' '*BaselineWorkloadsO6lookUp*'
# W5's hand-written side is W2's: the loop reads every row of the same statement either way.
report W5 '*LibraryWorkloadsO9decodeAll*KXEfU_' '*BaselineWorkloadsO8fetchAll*'
report W4 '*LibraryWorkloadsO14fetchByCountry_*KXEfU_' '*BaselineWorkloadsO14fetchByCountry_*'
report W4-request '*LibraryWorkloadsO21fetchByCountryRequest_*KXEfU_' '*BaselineWorkloadsO14fetchByCountry_*'
report W5-row '*LibraryWorkloadsO13decodeAllRows*KXEfU_' '*BaselineWorkloadsO8fetchAll*'
# W7 and W7-full run the same functions on an empty and on a full table; W7-partial and W7-changes are
# measured against the same hand-written UPDATE loop (20,000 updates drawn as W3 draws its lookups).
# W6: every country with all its cities in one eager load, against the hand-written two-query loop (the
# baseline's pattern is anchored so that a thunk named after it does not toggle collection off inside it).
report W6 '*LibraryWorkloadsO9eagerLoad*KXEfU_' '$s17SQLiteRecordBench17BaselineWorkloadsO9eagerLoad2in*'
report W7 '*LibraryWorkloadsO6upsert*KXEfU_' '*BaselineWorkloadsO6upsert*'
report W7-full '*LibraryWorkloadsO6upsert*KXEfU_' '*BaselineWorkloadsO6upsert*'
report W7-partial '*LibraryWorkloadsO16updatePopulation*KXEfU_' '*BaselineWorkloadsO16updatePopulation*'
report W7-changes '*LibraryWorkloadsO13updateChanges*KXEfU_' '*BaselineWorkloadsO16updatePopulation*'
