#!/usr/bin/env bash
# Instructions of one timed run of each side of the PostgreSQL benchmark's workloads, under callgrind: the
# library's calls against the hand-written libpq loop, on a throwaway server (Scripts/postgres-bench.sh).
# Counts do not move with the machine's load, as client CPU times do. Each side is counted in its workload's
# own function (`--toggle-collect`) in a run of one repetition and in a run of three; half the difference is
# one timed run, without the warm-up and the first call's one-time costs (metadata, conformance lookups, the
# record's shape, the statements' preparation). The last two columns are the run of one repetition: a warm-up
# and one timed run, as the PostgreSQL article's table of counts per workload gives them.
#
#   Scripts/postgres-instruction-ratios.sh [WORKLOADS]      e.g. W2,W4 (the default)
#
# Workloads: W1, W2, W3, W4, W6, W7. Needs valgrind and what Scripts/postgres-bench.sh needs. About a minute a
# workload and side.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is needed (Debian: apt-get install valgrind)" >&2; exit 2; }
workloads="${1:-W2,W4}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The benchmark's function of each workload, the same name on both sides.
function_of() {
    case "$1" in
    W1) echo C6insert ;;
    W2) echo C8fetchAll ;;
    W3) echo C6lookUp ;;
    W4) echo C14fetchByCountry ;;
    W6) echo C12saveChildren ;;
    W7) echo C6upsert ;;
    *) echo "postgres-instruction-ratios: no workload $1 (W1, W2, W3, W4, W6, W7)" >&2; exit 2 ;;
    esac
}

# count WORKLOAD SIDE REPETITIONS: the instructions callgrind collected in SIDE's function of WORKLOAD.
count() {
    local toggle="*Postgres${2}Workloads${3}*"
    BENCH_WRAPPER="valgrind --tool=callgrind --callgrind-out-file=$work/cg.out --toggle-collect=$toggle" \
        bash Scripts/postgres-bench.sh --repetitions "$4" --workloads "$1" >"$work/run.log" 2>&1 ||
        { cat "$work/run.log" >&2; exit 1; }
    grep -oE 'Collected : [0-9]+' "$work/run.log" | grep -oE '[0-9]+'
}

printf '%-8s %12s %12s %7s %22s\n' workload "library (M)" "by hand (M)" ratio "with warm-up (M)"
for workload in ${workloads//,/ }; do
    name=$(function_of "$workload")
    l1=$(count "$workload" Library "$name" 1)
    l3=$(count "$workload" Library "$name" 3)
    h1=$(count "$workload" Baseline "$name" 1)
    h3=$(count "$workload" Baseline "$name" 3)
    awk -v w="$workload" -v l1="$l1" -v l3="$l3" -v h1="$h1" -v h3="$h3" 'BEGIN {
        l = (l3 - l1) / 2; h = (h3 - h1) / 2
        printf "%-8s %12.2f %12.2f %7.3f %10.1f %10.1f\n", w, l / 1e6, h / 1e6, l / h, l1 / 1e6, h1 / 1e6
    }'
done
