#!/usr/bin/env bash
# Stops a server started by scripts/start-postgres.sh DIR and removes DIR.
set -euo pipefail
dir=${1:?usage: scripts/stop-postgres.sh DIR}
[ -d "$dir/data" ] || { echo "stop-postgres: no cluster in $dir" >&2; exit 1; }
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
else
    "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
fi
rm -rf "$dir"
