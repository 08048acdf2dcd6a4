#!/usr/bin/env bash
# Smoke test of the Bumble peripherals with Bumble's own host as the central (no Swift).
# Each case gets fresh virtual controllers (scripts/bumble-controllers.py, two ports): the
# peripheral on the first, the central (Tests/Bumble/central_smoke.py, or central_sequences.py
# for the rebooting SMP and legacy peers) on the second.
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

# run_case NAME "DEVICE ARGS" "CENTRAL SCRIPT ARGS" [IMAGE-FOR-STATE-CHECK [STATE-PATTERN]]
run_case() {
    local name=$1 device_args=$2 central=${3%% *} central_args=${3#* } image=${4:-} pattern=${5:-}
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
    timeout 120 "$PYTHON" "$central" --transport "tcp-client:127.0.0.1:$p2" $central_args \
        >"$LOGS/$name.central.log" 2>&1 || status=1
    if [ -n "$image" ] && [ $status = 0 ]; then
        sleep 0.2
        grep -q "\"sha256\": \"$(sha256sum "$image" | cut -d' ' -f1)\"" "$LOGS/$name.state.json" 2>/dev/null || status=1
        [ -z "$pattern" ] || grep -q "$pattern" "$LOGS/$name.state.json" || status=1
    fi
    case $central:$device_args in  # an injected disconnect must have been resumed from
        *central_smoke.py:*--disconnect-after*) grep -q "resuming at" "$LOGS/$name.central.log" || status=1 ;;
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

SMOKE=Tests/Bumble/central_smoke.py SEQUENCES=Tests/Bumble/central_sequences.py
run_case vendor-status "Tests/Bumble/vendor_ctrlpt_device.py" "$SMOKE vendor"
run_case nordic-select "Tests/Bumble/nordic_secure_dfu_device.py" "$SMOKE nordic"
run_case vendor-update-resume "Tests/Bumble/vendor_ctrlpt_device.py --disconnect-after 10000" \
    "$SMOKE vendor --image $IMAGE" "$IMAGE"
run_case nordic-update-resume "Tests/Bumble/nordic_secure_dfu_device.py --disconnect-after 6000" \
    "$SMOKE nordic --package $PACKAGE" "$APP_BIN"

# The rebooting peers against the sequences correct clients use (research/firmware-timing.md).
# SMP with its defaults: reset delay 250 ms, boot 1000 ms, swap 97 ms per KiB of a 41,623-byte
# image (3943 ms): silent for about 4943 ms.
SMP_IMAGE=firmware-samples/mcuboot/app-ecdsa-p256.bin
run_case smp-test-reset-confirm "Tests/Bumble/mcumgr_smp_device.py" \
    "$SEQUENCES smp --image $SMP_IMAGE --expect-silent-ms 4943" "$SMP_IMAGE" '"confirmed": true'
# A client reconnecting during a long reset delay still talks to the old image (issue 10).
run_case smp-reconnect-during-reset-delay \
    "Tests/Bumble/mcumgr_smp_device.py --reset-delay-ms 1500 --boot-ms 500 --swap-ms-per-kib 50" \
    "$SEQUENCES smp --image $SMP_IMAGE --reset-delay-ms 1500 --expect-silent-ms 2532 --reconnect-during-delay" \
    "$SMP_IMAGE" '"confirmed": true'
# Legacy with its defaults at MTU 247: 420 packets, the last on a PRN 10 and a PRN 12 boundary;
# erase 47 pages x 85 ms; activation: 25 pages erased, 102,400 bytes written at 43 us per word,
# the settings page, the application's start (500 ms): about 3811 ms.
LEGACY_PACKAGE=firmware-samples/nordic/legacy-app-102400.zip
LEGACY_BIN=$LOGS/legacy-app-102400.bin
"$PYTHON" -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("legacy-app-102400.bin"))' \
    "$LEGACY_PACKAGE" "$LEGACY_BIN"
run_case legacy-prn10 "Tests/Bumble/nordic_legacy_dfu_device.py" \
    "$SEQUENCES legacy --package $LEGACY_PACKAGE --prn 10 --expect-silent-ms 3811" "$LEGACY_BIN" '"running": "application"'
run_case legacy-prn12 "Tests/Bumble/nordic_legacy_dfu_device.py" \
    "$SEQUENCES legacy --package $LEGACY_PACKAGE --prn 12 --expect-silent-ms 3811" "$LEGACY_BIN" '"running": "application"'
run_case legacy-lost-link-reset-restart "Tests/Bumble/nordic_legacy_dfu_device.py --disconnect-after 50000" \
    "$SEQUENCES legacy --package $LEGACY_PACKAGE --prn 10 --expect-silent-ms 3811 --resume-by-reset" \
    "$LEGACY_BIN" '"running": "application"'
run_case legacy-inactivity-timeout "Tests/Bumble/nordic_legacy_dfu_device.py --inactivity-timeout-s 6" \
    "$SEQUENCES legacy --package $LEGACY_PACKAGE --expect-silent-ms 0 --expect-timeout-s 6"

echo "$PASSED passed, $FAILED failed"
[ $FAILED = 0 ] && rm -rf "$LOGS"
[ $FAILED = 0 ]
