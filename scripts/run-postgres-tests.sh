#!/usr/bin/env bash
# `make test-postgres`: starts a throwaway PostgreSQL server (scripts/start-postgres.sh), runs the
# PostgreSQL ledger tests against it with DFUKIT_TEST_POSTGRES_URL set, stops the server, and
# prints one closing line "N passed, N failed". Extra arguments go to swift (e.g. --scratch-path DIR).
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
server=$(mktemp -d /tmp/dfukit-postgres.XXXXXX)
cleanup() {
    scripts/stop-postgres.sh "$server" || true
    rm -f "$log"
}
trap cleanup EXIT
url=$(scripts/start-postgres.sh "$server") || { echo "0 passed, 1 failed (the PostgreSQL server did not start)"; exit 1; }
export DFUKIT_TEST_POSTGRES_URL="$url"
echo "PostgreSQL ledger tests against $(echo "$url" | sed -E 's#://([^:]*):[^@]*@#://\1:***@#')"
swift build --build-tests "$@" || exit 1
swift test --skip-build --disable-swift-testing --filter 'DFULedgerTests.PostgresLedgerTests|DFULedgerTests.PostgresSchemaTests|DFUCommandLineTests.BatchPostgresTests' "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
passed=$(grep -cE "^Test Case '.*' passed" "$log")
failed=$(grep -cE "^Test Case '.*' failed" "$log")
skipped=$(grep -cE "^Test Case '.*' skipped" "$log")
echo "${passed} passed, ${failed} failed"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ] || [ "$skipped" -ne 0 ]; then
    exit 1
fi
