#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the ledger tests and prints its URL on standard output.
#
#   scripts/start-postgres.sh [DIR]     # DIR (default: a new temporary directory) holds the cluster
#   scripts/stop-postgres.sh DIR        # stops it and removes DIR
#
# Installs the server (Debian's postgresql) when it is missing, initializes a cluster in DIR/data
# as the postgres user (when run as root), listens on 127.0.0.1 only, on PGPORT (default 5433, or
# the next free port), with its socket in DIR, creates the user dfukit (password dfukit) and the
# database dfukit_test, and prints postgresql://dfukit:dfukit@127.0.0.1:PORT/dfukit_test.
# DIR/url holds the URL too. Progress goes to standard error.
set -euo pipefail

log() { echo "start-postgres: $*" >&2; }

bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

if [ -z "$(bin_dir)" ] || [ ! -x "$(bin_dir)/initdb" ]; then
    log "installing postgresql"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >&2
    $sudo apt-get install -y -qq --no-install-recommends postgresql >&2
fi
bin=$(bin_dir)

dir=${1:-$(mktemp -d /tmp/dfukit-postgres.XXXXXX)}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

# initdb refuses to run as root: run the server as the postgres user then.
if [ "$(id -u)" -eq 0 ]; then
    chown postgres:postgres "$dir"
    as_server() { runuser -u postgres -- "$@"; }
else
    as_server() { "$@"; }
fi

port=${PGPORT:-5433}
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for _ in $(seq 1 20); do
    port_in_use "$port" || break
    log "port $port is in use; trying $((port + 1))"
    port=$((port + 1))
done

log "initializing a cluster in $dir/data ($("$bin/postgres" --version))"
as_server "$bin/initdb" -D "$dir/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }

log "starting on 127.0.0.1:$port"
if ! as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=on" start >&2; then
    cat "$dir/server.log" >&2
    exit 1
fi
echo "$port" >"$dir/port"

as_server "$bin/psql" -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q >&2 <<'SQL'
CREATE USER dfukit PASSWORD 'dfukit';
CREATE DATABASE dfukit_test OWNER dfukit;
SQL

url="postgresql://dfukit:dfukit@127.0.0.1:$port/dfukit_test"
echo "$url" >"$dir/url"
echo "$url"
