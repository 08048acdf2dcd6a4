#!/usr/bin/env bash
# `make bench`: release build, then dfukit-bench. Ledger writes per second are measured on
# SQLite and, on a throwaway PostgreSQL server started here (scripts/start-postgres.sh), on
# PostgreSQL; set DFUKIT_BENCH_NO_POSTGRES=1 to skip the server.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product dfukit-bench
if [ -z "${DFUKIT_BENCH_NO_POSTGRES:-}" ]; then
    server=$(mktemp -d /tmp/dfukit-bench-postgres.XXXXXX)
    trap 'scripts/stop-postgres.sh "$server" >/dev/null 2>&1 || true' EXIT
    if url=$(scripts/start-postgres.sh "$server"); then
        export DFUKIT_BENCH_POSTGRES_URL="$url"
    else
        echo "bench: the PostgreSQL server did not start; measuring SQLite only" >&2
    fi
fi
.build/release/dfukit-bench --output .build/bench/results.json
