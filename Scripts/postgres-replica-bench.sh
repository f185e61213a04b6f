#!/usr/bin/env bash
# Runs the benchmark's replica run (what PostgresReplicaPool adds to a call: R1 lookups on a hot standby
# plain, through the replica pool and after the last write's LSN; R2 updates on the primary) on a throwaway
# primary and a hot standby of it: builds the benchmark in release mode with the PostgreSQL trait, initdb's
# a primary in a temporary folder, clones it with pg_basebackup -R into a second folder, starts both on free
# ports with fsync off, listening only on Unix sockets in their folders (as the user nobody when run as
# root), runs the benchmark over those sockets, and stops and deletes both servers when it exits.
#
#   Scripts/postgres-replica-bench.sh [benchmark options]     e.g. --repetitions 7
#
# Needs Debian's postgresql (initdb, pg_ctl, pg_basebackup; POSTGRES_BIN names another folder of them) and
# libpq-dev.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
bin=${POSTGRES_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
bin=${bin:-$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")}
if [ ! -x "$bin/initdb" ] || [ ! -x "$bin/pg_ctl" ] || [ ! -x "$bin/pg_basebackup" ]; then
    echo "postgres-replica-bench: no initdb, pg_ctl and pg_basebackup (install Debian's postgresql, or set POSTGRES_BIN)" >&2
    exit 1
fi

swift build -c release --traits PostgreSQL --product sqlite-record-bench
bench="$(swift build -c release --traits PostgreSQL --show-bin-path)/sqlite-record-bench"

folder=$(mktemp -d "${TMPDIR:-/tmp}/postgres-replica-bench.XXXXXX")
mkdir "$folder/primary" "$folder/standby"
as_server_user() { "$@"; }
if [ "$(id -u)" = 0 ]; then
    # The server refuses to run as root.
    chown -R nobody "$folder"
    as_server_user() { runuser -u nobody -- "$@"; }
fi
stop() {
    for side in standby primary; do
        if [ -f "$folder/$side/data/postmaster.pid" ]; then
            as_server_user "$bin/pg_ctl" -D "$folder/$side/data" -m immediate -w stop >/dev/null 2>&1 || true
        fi
    done
    rm -rf "$folder"
}
trap stop EXIT
trap 'exit 130' INT TERM

# Starts the cluster in $folder/$1 on a free port (the socket's name holds the port number, so a port another
# server uses fails to start and the next one is tried) and sets $port.
start() {
    local side=$1
    for _ in 1 2 3 4 5; do
        port=$((20000 + RANDOM % 40000))
        if as_server_user "$bin/pg_ctl" -D "$folder/$side/data" -w -t 60 -l "$folder/$side/server.log" \
            -o "-F -p $port -k $folder/$side -c listen_addresses=''" start </dev/null >"$folder/$side/pg_ctl.log" 2>&1; then
            return 0
        fi
    done
    cat "$folder/$side/pg_ctl.log" "$folder/$side/server.log" >&2 || true
    echo "postgres-replica-bench: the $side did not start" >&2
    exit 1
}

as_server_user "$bin/initdb" -D "$folder/primary/data" -U postgres --auth=trust -E UTF8 --locale=C --no-sync \
    >"$folder/initdb.log" 2>&1 || { cat "$folder/initdb.log" >&2; exit 1; }
start primary
primary_port=$port
# -R writes standby.signal and primary_conninfo: the clone starts as a hot standby streaming from the primary.
as_server_user "$bin/pg_basebackup" -D "$folder/standby/data" -h "$folder/primary" -p "$primary_port" -U postgres \
    -R -X stream --no-sync -c fast >"$folder/basebackup.log" 2>&1 || { cat "$folder/basebackup.log" >&2; exit 1; }
start standby
standby_port=$port

echo "postgres-replica-bench: PostgreSQL $("$bin/pg_ctl" --version | awk '{print $3}'), primary port $primary_port, hot standby port $standby_port, on sockets in $folder, fsync off"
"$bench" --postgres "host=$folder/primary port=$primary_port user=postgres dbname=postgres" \
    --postgres-standby "host=$folder/standby port=$standby_port user=postgres dbname=postgres" "$@"
