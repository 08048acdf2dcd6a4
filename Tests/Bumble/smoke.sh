#!/usr/bin/env bash
# Smoke test of the Bumble peripherals with Bumble's own host as the central (no Swift).
# Each case gets fresh virtual controllers (scripts/bumble-controllers.py, two ports): the
# peripheral on the first, Tests/Bumble/central_smoke.py on the second.
#
#   Tests/Bumble/smoke.sh          # from the repository root; PYTHON overrides the interpreter
set -u
cd "$(dirname "$0")/../.."
PYTHON=${PYTHON:-.build/bumble-venv/bin/python}
if [ "$PYTHON" = .build/bumble-venv/bin/python ]; then scripts/bumble-venv.sh >/dev/null || exit 1; fi
LOGS=$(mktemp -d)
PASSED=0 FAILED=0

free_port() {
    "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# run_case NAME "DEVICE ARGS" "CENTRAL ARGS" [IMAGE-FOR-STATE-CHECK]
run_case() {
    local name=$1 device_args=$2 central_args=$3 image=${4:-}
    local p1 p2 controllers device status=0
    p1=$(free_port) p2=$(free_port)
    "$PYTHON" scripts/bumble-controllers.py "tcp-server:127.0.0.1:$p1" "tcp-server:127.0.0.1:$p2" >"$LOGS/$name.controllers.log" 2>&1 &
    controllers=$!
    for _ in $(seq 50); do grep -qs "ready" "$LOGS/$name.controllers.log" && break; sleep 0.1; done
    # shellcheck disable=SC2086
    "$PYTHON" $device_args --transport "tcp-client:127.0.0.1:$p1" --state-file "$LOGS/$name.state.json" \
        >"$LOGS/$name.device.log" 2>&1 &
    device=$!
    # shellcheck disable=SC2086
    timeout 120 "$PYTHON" Tests/Bumble/central_smoke.py --transport "tcp-client:127.0.0.1:$p2" $central_args \
        >"$LOGS/$name.central.log" 2>&1 || status=1
    if [ -n "$image" ] && [ $status = 0 ]; then
        sleep 0.2
        grep -q "\"sha256\": \"$(sha256sum "$image" | cut -d' ' -f1)\"" "$LOGS/$name.state.json" 2>/dev/null || status=1
    fi
    case $device_args in  # an injected disconnect must have been resumed from
        *--disconnect-after*) grep -q "resuming at" "$LOGS/$name.central.log" || status=1 ;;
    esac
    kill "$device" "$controllers" 2>/dev/null
    wait "$device" "$controllers" 2>/dev/null
    if [ $status = 0 ]; then
        PASSED=$((PASSED + 1)); echo "ok   $name"
    else
        FAILED=$((FAILED + 1)); echo "FAIL $name (logs in $LOGS)"; tail -n 5 "$LOGS/$name".*.log
    fi
}

IMAGE=$LOGS/image.bin
head -c 30000 /dev/urandom >"$IMAGE"
PACKAGE=firmware-samples/nordic/app-signed.zip
APP_BIN=$LOGS/app.bin
"$PYTHON" -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("app.bin"))' \
    "$PACKAGE" "$APP_BIN"

run_case vendor-status "Tests/Bumble/vendor_ctrlpt_device.py" "vendor"
run_case nordic-select "Tests/Bumble/nordic_secure_dfu_device.py" "nordic"
run_case vendor-update-resume "Tests/Bumble/vendor_ctrlpt_device.py --disconnect-after 10000" \
    "vendor --image $IMAGE" "$IMAGE"
run_case nordic-update-resume "Tests/Bumble/nordic_secure_dfu_device.py --disconnect-after 6000" \
    "nordic --package $PACKAGE" "$APP_BIN"

echo "$PASSED passed, $FAILED failed"
[ $FAILED = 0 ] && rm -rf "$LOGS"
[ $FAILED = 0 ]
