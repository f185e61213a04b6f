#!/usr/bin/env bash
# Runs the benchmark's PostgreSQL run (PostgresRecord against hand-written libpq, W1-W7 and the batch
# inserts) on a throwaway server: builds the benchmark in release mode with the PostgreSQL trait, initdb's a
# cluster in a temporary folder, starts it on a free port with fsync off, listening only on a Unix socket in
# that folder (as the user nobody when run as root), runs the benchmark over that socket, and stops and
# deletes the server when it exits, however it exits.
#
#   Scripts/postgres-bench.sh [benchmark options]     e.g. --repetitions 7 --json --workloads W1,W1-batch
#
# Needs Debian's postgresql (initdb, pg_ctl; POSTGRES_BIN names another folder of them) and libpq-dev.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
bin=${POSTGRES_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
bin=${bin:-$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")}
if [ ! -x "$bin/initdb" ] || [ ! -x "$bin/pg_ctl" ]; then
    echo "postgres-bench: no initdb and pg_ctl (install Debian's postgresql, or set POSTGRES_BIN)" >&2
    exit 1
fi

swift build -c release --traits PostgreSQL --product sqlite-record-bench
bench="$(swift build -c release --traits PostgreSQL --show-bin-path)/sqlite-record-bench"

folder=$(mktemp -d "${TMPDIR:-/tmp}/postgres-bench.XXXXXX")
as_server_user() { "$@"; }
if [ "$(id -u)" = 0 ]; then
    # The server refuses to run as root.
    chown nobody "$folder"
    as_server_user() { runuser -u nobody -- "$@"; }
fi
stop() {
    if [ -f "$folder/data/postmaster.pid" ]; then
        as_server_user "$bin/pg_ctl" -D "$folder/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$folder"
}
trap stop EXIT
trap 'exit 130' INT TERM

as_server_user "$bin/initdb" -D "$folder/data" -U postgres --auth=trust -E UTF8 --locale=C --no-sync \
    >"$folder/initdb.log" 2>&1 || { cat "$folder/initdb.log" >&2; exit 1; }

# A free port: the socket's name holds the port number, so a port another server uses fails to start and the
# next one is tried.
started=""
for _ in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 40000))
    if as_server_user "$bin/pg_ctl" -D "$folder/data" -w -t 60 -l "$folder/server.log" \
        -o "-F -p $port -k $folder -c listen_addresses=''" start </dev/null >"$folder/pg_ctl.log" 2>&1; then
        started=yes
        break
    fi
done
if [ -z "$started" ]; then
    cat "$folder/pg_ctl.log" "$folder/server.log" >&2 || true
    echo "postgres-bench: the server did not start" >&2
    exit 1
fi

echo "postgres-bench: PostgreSQL $("$bin/pg_ctl" --version | awk '{print $3}') on the socket in $folder, port $port, fsync off"
# BENCH_WRAPPER runs the benchmark under another command (Scripts/postgres-instruction-ratios.sh sets
# valgrind); unquoted on purpose, so that it can hold the command's own options.
${BENCH_WRAPPER:-} "$bench" --postgres "host=$folder port=$port user=postgres dbname=postgres" "$@"
