#!/usr/bin/env bash
# The floor of the Codable path (issue 22): instructions a synthesized `init(from:)` and the standard library's
# type-erased keyed container cost per record of the benchmark's city, over a decoder that returns constants
# (Benchmarks/CodableFloor), above making the same record with its memberwise initializer. No decoder can
# cost less than this floor; added to the hand-written loop, it bounds W2's and W5's ratios from below.
#
# Usage: Scripts/codable-floor.sh [ROWS] [HAND_WRITTEN_COUNT] [REPETITIONS]
# ROWS defaults to 10000, the rows W2 and W5 decode in Scripts/instruction-ratios.sh 5000 (a warm-up and a
# timed run of 5,000). Given the hand-written side's count of that run (W2's right-hand column), it also
# prints the lowest ratio a Codable decode can reach on this toolchain. Given REPETITIONS (HAND_WRITTEN_COUNT
# may be -), it also runs each side that many times outside valgrind and prints the floor in CPU time on this
# machine: a client CPU ratio's floor is (the hand-written side's CPU ms + that floor) / its CPU ms, for the
# workload's row count (34006 for the PostgreSQL benchmark's sample). Needs valgrind. Builds into
# /tmp/codable-floor-build (override with CODABLE_FLOOR_SCRATCH).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
command -v valgrind >/dev/null || { echo "valgrind is needed (Debian: apt-get install valgrind)" >&2; exit 2; }
rows="${1:-10000}"
hand_written="${2:-}"
[ "$hand_written" = "-" ] && hand_written=""
repetitions="${3:-}"
scratch="${CODABLE_FLOOR_SCRATCH:-/tmp/codable-floor-build}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

swift build -c release --package-path Benchmarks/CodableFloor --scratch-path "$scratch" >"$work/build.log" 2>&1 ||
    { cat "$work/build.log"; exit 1; }
floor="$(swift build -c release --package-path Benchmarks/CodableFloor --scratch-path "$scratch" --show-bin-path)/CodableFloor"

count() {  # toggle pattern
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" --toggle-collect="$1" \
        "$floor" "$rows" >/dev/null 2>"$work/cg.log"
    grep -oE 'Collected : [0-9]+' "$work/cg.log" | grep -oE '[0-9]+'
}
decoded=$(count '$s12CodableFloor12decodeCities*')
made=$(count '$s12CodableFloor10makeCities*')
awk -v d="$decoded" -v m="$made" -v n="$rows" -v h="$hand_written" 'BEGIN {
    printf "init(from:) over constants %d, memberwise %d instructions for %d cities\n", d, m, n
    printf "floor: %.0f instructions per city\n", (d - m) / n
    if (h != "") printf "lowest Codable ratio over %d hand-written instructions: %.3f\n", h, (h + d - m) / h
}'
if [ -n "$repetitions" ]; then
    "$floor" "$rows" "$repetitions" | tail -n 1
fi
