#!/usr/bin/env bash
# `make test-chaos`: three `dfukit batch run` stations on one throwaway PostgreSQL ledger flash a
# real-time simulated fleet of 200 devices while stations are SIGKILLed and restarted, PostgreSQL
# restarts once and one station is stalled past its lease; then the ledger and the devices'
# journal are checked (scripts/chaos-test.py). The checker's self-test (planted double write,
# lost record, ...) runs first. Environment: CHAOS_DEVICES (200), CHAOS_SPEED (the fleet's
# realtime= factor, 2), CHAOS_LEASE (6s), CHAOS_SECONDS (how long the chaos lasts, 60),
# CHAOS_SEED (random by default; printed, so a failing run can be repeated), CHAOS_KEEP=1 (keep
# the work directory even when every check passes), CHAOS_TAKEOVER=sweeper|same-name (run only
# that scenario; by default both run, one after the other: "sweeper", a fourth station taking the
# stalled one's devices past its lease, and "same-name", the stalled station's own name started
# again 1 s into a 2.5 s stall: see the README). Extra arguments go to swift build.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v psql >/dev/null || ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends postgresql postgresql-client >&2
fi
python3 scripts/chaos-test.py self-test
swift build "$@"
for takeover in ${CHAOS_TAKEOVER:-sweeper same-name}; do
    echo "== chaos scenario: $takeover"
    python3 scripts/chaos-test.py run --dfukit .build/debug/dfukit \
        --devices "${CHAOS_DEVICES:-200}" --speed "${CHAOS_SPEED:-2}" --lease "${CHAOS_LEASE:-6s}" \
        --chaos-seconds "${CHAOS_SECONDS:-60}" ${CHAOS_SEED:+--seed "$CHAOS_SEED"} ${CHAOS_KEEP:+--keep} \
        --takeover "$takeover"
done
