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
# Rows over DFUKit's own HCI host against Bumble (virtual controllers and Python peripherals);
# set DFUKIT_BENCH_NO_BUMBLE=1 to skip them.
hci=()
if [ -z "${DFUKIT_BENCH_NO_BUMBLE:-}" ]; then
    venv=.build/bumble-venv
    if scripts/bumble-venv.sh >/dev/null; then
        bumble_pids=()
        trap 'for pid in "${bumble_pids[@]}"; do kill "$pid" 2>/dev/null; done; scripts/stop-postgres.sh "${server:-/nonexistent}" >/dev/null 2>&1 || true' EXIT
        port=7500
        for device in vendor-ctrlpt:vendor_ctrlpt_device.py nordic-secure-dfu:nordic_secure_dfu_device.py \
                      mcumgr-smp:mcumgr_smp_device.py; do
            profile=${device%%:*}; script=${device#*:}
            "$venv/bin/python" scripts/bumble-controllers.py "tcp-server:127.0.0.1:$port" "tcp-server:127.0.0.1:$((port + 1))" >/dev/null 2>&1 &
            bumble_pids+=($!)
            sleep 1
            "$venv/bin/python" "Tests/Bumble/$script" --transport "tcp-client:127.0.0.1:$port" >/dev/null 2>&1 &
            bumble_pids+=($!)
            hci+=(--hci "$profile=tcp:127.0.0.1:$((port + 1))")
            port=$((port + 2))
        done
        sleep 1
    fi
fi
.build/release/dfukit-bench --output .build/bench/results.json "${hci[@]}"
