#!/usr/bin/env bash
# The userspace HCI host (DFUHCI) against Bumble's virtual controllers, at the XCTest level.
# Sets up .build/bumble-venv (scripts/bumble-venv.sh) when missing, starts two fresh virtual
# controllers on one virtual link (scripts/bumble-controllers.py) and the echo peripheral
# (Tests/Bumble/vendor_peripheral.py) on the first, then runs DFUHCITests.BumbleIntegrationTests
# on the second with DFUKIT_BUMBLE_HCI set and a btsnoop trace. Each run has its own directory
# .build/bumble/hci-run.XXXXXX (logs, trace.btsnoop). Extra arguments go to swift build /
# swift test (e.g. --scratch-path DIR).
set -uo pipefail
cd "$(dirname "$0")/.."
venv=.build/bumble-venv
mkdir -p .build/bumble
work=$(mktemp -d .build/bumble/hci-run.XXXXXX)

scripts/bumble-venv.sh >/dev/null || exit 1
python="$venv/bin/python"

# Two free TCP ports on the loopback interface.
read -r port1 port2 < <("$python" - <<'PY'
import socket
sockets = [socket.socket() for _ in range(2)]
for s in sockets:
    s.bind(('127.0.0.1', 0))
print(*(s.getsockname()[1] for s in sockets))
PY
)

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    wait 2>/dev/null
}
trap cleanup EXIT

# wait_for FILE WORD PID: until FILE says WORD (at most 15 s), or PID died.
wait_for() {
    local file=$1 word=$2 pid=$3
    for _ in $(seq 150); do
        grep -q "$word" "$file" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    echo "error: $file never said '$word':" >&2
    cat "$file" >&2
    return 1
}

"$python" scripts/bumble-controllers.py "tcp-server:127.0.0.1:$port1" "tcp-server:127.0.0.1:$port2" \
    >"$work/controllers.log" 2>&1 &
pids+=($!)
wait_for "$work/controllers.log" ready "${pids[0]}" || exit 1

"$python" Tests/Bumble/vendor_peripheral.py "tcp-client:127.0.0.1:$port1" >"$work/peripheral.log" 2>&1 &
pids+=($!)
wait_for "$work/peripheral.log" advertising "${pids[1]}" || exit 1

swift build --build-tests "$@" || exit 1
DFUKIT_BUMBLE_HCI="tcp:127.0.0.1:$port2" DFUKIT_BUMBLE_TRACE="$work/trace.btsnoop" \
    swift test --skip-build --disable-swift-testing --filter DFUHCITests.BumbleIntegrationTests "$@" 2>&1 \
    | tee "$work/test.log"
status=${PIPESTATUS[0]}
if [ -f "$work/trace.btsnoop" ]; then
    echo "btsnoop trace (opens in Wireshark): $work/trace.btsnoop," \
        "$("$python" Tests/Bumble/btsnoop_dump.py "$work/trace.btsnoop" | wc -l) packets"
fi
passed=$(grep -cE "^Test Case '.*' passed" "$work/test.log")
failed=$(grep -cE "^Test Case '.*' failed" "$work/test.log")
if grep -q "skipped" "$work/test.log"; then
    echo "error: the Bumble integration test was skipped" >&2
    failed=$((failed + 1))
fi
echo "${passed} passed, ${failed} failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
