#!/usr/bin/env bash
# `make test-bumble`: `dfukit` over its own userspace HCI host (hci:tcp:) against Bumble's
# virtual controllers and Python peripherals (Tests/Bumble), fresh controllers per case.
# Installs Bumble from PyPI into .build/bumble-venv. Prints one closing line "N passed, N failed".
# Every dfukit run is bounded (timeout 300): a hang fails its case instead of stalling CI.
# Extra arguments go to swift build (e.g. --scratch-path DIR).
set -uo pipefail
cd "$(dirname "$0")/.."
venv=.build/bumble-venv
scripts/bumble-venv.sh >/dev/null || { echo "0 passed, 1 failed (bumble did not install)"; exit 1; }
swift build --product dfukit "$@" || { echo "0 passed, 1 failed (build)"; exit 1; }
bin=$(swift build --product dfukit --show-bin-path "$@")/dfukit
PY="$venv/bin/python"
work=$(mktemp -d /tmp/dfukit-bumble.XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done; wait 2>/dev/null; }
trap 'cleanup; rm -rf "$work"' EXIT
passed=0; failed=0; port=7300

# A 60 KB vendor package.
head -c 60000 /dev/urandom > "$work/app.bin"
timeout 300 "$bin" package create --profile vendor-ctrlpt --version 1.0.0 --output "$work/app.zip" "$work/app.bin" >/dev/null
app_sha=$(sha256sum "$work/app.bin" | cut -d' ' -f1)
# The vendor profile asking for an encrypted link (DFUKit's host pairs: LE legacy, Just Works).
sed 's/^version: 1$/version: 1\nsecurity: medium/' profiles/vendor-ctrlpt.yaml > "$work/vendor-encrypted.yaml"
nordic_pkg=firmware-samples/nordic/app-signed.zip
nordic_sha=$(python3 -c 'import zipfile,hashlib,json,sys; z=zipfile.ZipFile(sys.argv[1]); m=json.loads(z.read("manifest.json")); print(hashlib.sha256(z.read(m["manifest"]["application"]["bin_file"])).hexdigest())' "$nordic_pkg")

# controllers N: fresh virtual controllers on ports port..port+N, the last one dfukit's.
controllers() {
    cleanup; pids=()
    port=$((port + ${last_count:-1} + 1)); last_count=$1
    local list=(); for i in $(seq 0 "$1"); do list+=("tcp-server:127.0.0.1:$((port + i))"); done
    "$PY" scripts/bumble-controllers.py "${list[@]}" > "$work/controllers.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 50); do grep -q ready "$work/controllers.log" && break; sleep 0.1; done
}

# start PERIPHERAL [peripheral options...]: fresh controllers and the peripheral.
start() {
    controllers 1
    local script=$1; shift
    rm -f "$work/state.json"
    "$PY" "Tests/Bumble/$script" --transport "tcp-client:127.0.0.1:$port" --state-file "$work/state.json" "$@" > "$work/peripheral.log" 2>&1 &
    pids+=($!)
    sleep 1
}

check() {  # check NAME CONDITION-COMMAND...
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); echo "ok: $name"; else failed=$((failed + 1)); echo "FAILED: $name"; cat "$work/out.txt" 2>/dev/null | tail -20; fi
}

flashed() {  # flashed SHA: the device's state file names the image and dfukit said verified
    grep -q '"status":"verified"' "$work/out.txt" && grep -q "$1" "$work/state.json" 2>/dev/null
}

# holds SHA PATTERN SECONDS: dfukit said verified and, within SECONDS (a device that is still
# copying or booting the image writes its state file when it runs it), the state file names the
# image and matches PATTERN.
holds() {
    grep -q '"status":"verified"' "$work/out.txt" || return 1
    for _ in $(seq $(( $3 * 10 ))); do
        grep -q "$1" "$work/state.json" 2>/dev/null && grep -q "$2" "$work/state.json" && return 0
        sleep 0.1
    done
    return 1
}

start vendor_ctrlpt_device.py
timeout 300 "$bin" scan --device "hci:tcp:127.0.0.1:$((port + 1))" --seconds 2 > "$work/out.txt" 2>&1
check "scan lists the vendor device with its profile" grep -q "DFU-BUMBLE.*vendor-ctrlpt" "$work/out.txt"
timeout 300 "$bin" inspect "hci:tcp:127.0.0.1:$((port + 1))/F0:DF:00:00:01:01" > "$work/out.txt" 2>&1
check "inspect dumps the control point" grep -q "D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F" "$work/out.txt"

start vendor_ctrlpt_device.py
timeout 300 "$bin" flash --profile vendor-ctrlpt --device "hci:tcp:127.0.0.1:$((port + 1))" "$work/app.zip" --json \
    --trace "$work/trace.btsnoop" > "$work/out.txt" 2>&1
check "vendor flash over hci:tcp ends verified" flashed "$app_sha"
check "the btsnoop trace opens and holds ATT writes" bash -c "\"$PY\" Tests/Bumble/btsnoop_dump.py \"$work/trace.btsnoop\" | grep -c \" sent data \" | grep -qv \"^0\$\""

start vendor_ctrlpt_device.py --disconnect-after 20000
timeout 300 "$bin" flash --profile vendor-ctrlpt --device "hci:tcp:127.0.0.1:$((port + 1))" "$work/app.zip" --json > "$work/out.txt" 2>&1
check "vendor flash resumes after a disconnect" bash -c "grep -q '\"resumes\":[1-9]' '$work/out.txt' && grep -q '$app_sha' '$work/state.json'"

start nordic_secure_dfu_device.py
timeout 300 "$bin" flash --profile nordic-secure-dfu --device "hci:tcp:127.0.0.1:$((port + 1))" "$nordic_pkg" --set prn=8 --json > "$work/out.txt" 2>&1
check "Nordic Secure DFU over hci:tcp ends verified" flashed "$nordic_sha"

start nordic_secure_dfu_device.py --disconnect-after 9000
timeout 300 "$bin" flash --profile nordic-secure-dfu --device "hci:tcp:127.0.0.1:$((port + 1))" "$nordic_pkg" --json > "$work/out.txt" 2>&1
check "Nordic Secure DFU resumes after a disconnect" bash -c "grep -q '\"resumes\":[1-9]' '$work/out.txt' && grep -q '$nordic_sha' '$work/state.json'"

# Encrypted links: a device that answers writes only on an encrypted link pairs with DFUKit's
# host (Bumble's Security Manager on the other side) when the profile says security: medium,
# and refuses the flash with a hint when it does not.
start vendor_ctrlpt_device.py --require-encryption
timeout 300 "$bin" flash --profile "$work/vendor-encrypted.yaml" --device "hci:tcp:127.0.0.1:$((port + 1))" "$work/app.zip" --json \
    > "$work/out.txt" 2>&1
check "pairing (Just Works) and an encrypted link over hci:tcp end verified" flashed "$app_sha"
start vendor_ctrlpt_device.py --require-encryption
timeout 300 "$bin" flash --profile vendor-ctrlpt --device "hci:tcp:127.0.0.1:$((port + 1))" "$work/app.zip" > "$work/out.txt" 2>&1
check "without security: the refusal names Insufficient Encryption and the fix" bash -c \
    "grep -q 'Insufficient Encryption' '$work/out.txt' && grep -q 'hint: .*security: medium' '$work/out.txt' && [ ! -f '$work/state.json' ]"

# MCUmgr SMP against a Zephyr smp_svr + MCUboot peer (messages encoded by PyPI smp) that reboots
# as Zephyr and MCUboot do (Tests/Bumble/README.md): after answering reset it runs the old image
# for 250 ms, then drops the link (0x08) and is silent while MCUboot swaps (1 s boot + 97 ms per
# KiB: about 4.9 s for this 41,623-byte image), then runs the new image unconfirmed.
smp_image=firmware-samples/mcuboot/app-ecdsa-p256.bin
smp_sha=$(sha256sum "$smp_image" | cut -d' ' -f1)
start mcumgr_smp_device.py
timeout 300 "$bin" flash --profile mcumgr-smp --device "hci:tcp:127.0.0.1:$((port + 1))" "$smp_image" --json > "$work/out.txt" 2>&1
check "MCUmgr SMP test-and-confirm over hci:tcp (reset delay 250 ms, swap about 4 s): verified, the new image runs confirmed" \
    holds "$smp_sha" '"confirmed": *true' 1
# The same with a long silent swap (220 ms per KiB: 8.9 s, 9.9 s without advertising).
start mcumgr_smp_device.py --swap-ms-per-kib 220
timeout 300 "$bin" flash --profile mcumgr-smp --device "hci:tcp:127.0.0.1:$((port + 1))" "$smp_image" --json > "$work/out.txt" 2>&1
check "MCUmgr SMP test-and-confirm over hci:tcp with a 9 s silent swap: verified, the new image runs confirmed" \
    holds "$smp_sha" '"confirmed": *true' 1

start mcumgr_smp_device.py --disconnect-after 20000
timeout 300 "$bin" flash --profile mcumgr-smp --device "hci:tcp:127.0.0.1:$((port + 1))" "$smp_image" --json > "$work/out.txt" 2>&1
check "MCUmgr SMP resumes the upload after a disconnect" bash -c \
    "grep -q '\"resumes\":[1-9]' '$work/out.txt' && grep -q '$smp_sha' '$work/state.json'"

# Nordic legacy DFU against an nRF5 SDK 11 bootloader peer (Tests/Bumble/README.md): a package
# made by adafruit-nrfutil whose 102,400-byte image is 420 packets at MTU 247, so the final
# packet is a receipt boundary at PRN 10 and 12 (the bootloader sends no receipt there, only
# 10 03 01 after its flash write). The application starts (and writes the state file) about
# 3.8 s after activate.
legacy_pkg=firmware-samples/nordic/legacy-app-102400.zip
legacy_sha=$(python3 -c 'import zipfile,hashlib,json,sys; z=zipfile.ZipFile(sys.argv[1]); m=json.loads(z.read("manifest.json")); print(hashlib.sha256(z.read(m["manifest"]["application"]["bin_file"])).hexdigest())' "$legacy_pkg")
for prn in 10 12; do
    start nordic_legacy_dfu_device.py
    timeout 300 "$bin" flash --profile nordic-legacy-dfu --device "hci:tcp:127.0.0.1:$((port + 1))" "$legacy_pkg" \
        --set prn=$prn --json > "$work/out.txt" 2>&1
    check "Nordic legacy DFU over hci:tcp, 102,400 bytes at MTU 247, PRN $prn (final packet on a receipt boundary): verified, the application runs it" \
        holds "$legacy_sha" '"running": "application"' 10
done
# A lost link mid-transfer: the bootloader keeps its state and refuses a new Start (10 01 02);
# the tool must reset it (06) and start again.
start nordic_legacy_dfu_device.py --disconnect-after 50000
timeout 300 "$bin" flash --profile nordic-legacy-dfu --device "hci:tcp:127.0.0.1:$((port + 1))" "$legacy_pkg" \
    --set prn=10 --json > "$work/out.txt" 2>&1
check "Nordic legacy DFU over hci:tcp after a lost link (start refused 10 01 02, reset, start again): verified, the application runs it" \
    holds "$legacy_sha" '"running": "application"' 10

# Telink OTA (profiles/telink-ota.yaml) against a Telink BLE SDK OTA server peer
# (Tests/Bumble/README.md): fwupd's archive, 1025 packets of 20 bytes written without response
# 5 ms apart and never answered; after the end command the device drops the link (0x13), checks
# the image's CRC-32 and reboots into it (its first boot erases the old image), and the update is
# judged by the Firmware Revision (2A26) read back.
telink=firmware-samples/telink
telink_sha=$(sha256sum "$telink/app-v1.1.0.bin" | cut -d' ' -f1)
start telink_ota_device.py
timeout 300 "$bin" flash --profile telink-ota --device "hci:tcp:127.0.0.1:$((port + 1))" "$telink/app-v1.1.0.zip" --json > "$work/out.txt" 2>&1
check "Telink OTA over hci:tcp, 1025 unacknowledged packets: verified by the version read back, the new image runs" \
    holds "$telink_sha" '"version": "1.1.0"' 5
# A damaged image (its CRC-32 trailer) is refused before anything is sent.
start telink_ota_device.py
timeout 300 "$bin" flash --profile telink-ota --device "hci:tcp:127.0.0.1:$((port + 1))" "$telink/damaged-crc.bin" \
    --set version=1.1.0 --json > "$work/out.txt" 2>&1
check "Telink OTA: a damaged image is refused before upload, the device untouched" bash -c \
    "for _ in \$(seq 50); do grep -q 'advertising as' '$work/peripheral.log' && break; sleep 0.1; done
     grep -q 'advertising as' '$work/peripheral.log' && grep -q '\"status\":\"failed\"' '$work/out.txt' && grep -q 'CRC-32' '$work/out.txt' \
         && ! grep -q 'OTA start' '$work/peripheral.log' && grep -q '\"running\": \"factory\"' '$work/state.json'"
# The last packet lost on its way: no later packet shows a gap, the device finds it missing at
# the end (its CRC-32 check fails), reboots into its old image; the version read back says so.
start telink_ota_device.py --drop-packet 1024
timeout 300 "$bin" flash --profile telink-ota --device "hci:tcp:127.0.0.1:$((port + 1))" "$telink/app-v1.1.0.zip" --json > "$work/out.txt" 2>&1
check "Telink OTA: a device whose image check fails is reported failed, holding its old image (1.0.0 read back)" bash -c \
    "grep -q '\"status\":\"failed\"' '$work/out.txt' && grep -q '\"device_holds\":\[\"unchanged\"\]' '$work/out.txt' && grep -q \"after.text = '1.0.0'\" '$work/out.txt' && grep -q 'OTA_FW_CHECK_ERR' '$work/peripheral.log' && grep -q '\"running\": \"factory\"' '$work/state.json'"
# A lost link: the peer's OTA runs on (its disconnect callback waits for a result), so the first
# new start is refused (OTA_FLOW_ERR: link dropped, erase, reboot); the next OTA starts from packet 0.
start telink_ota_device.py --disconnect-after 8000
timeout 300 "$bin" flash --profile telink-ota --device "hci:tcp:127.0.0.1:$((port + 1))" "$telink/app-v1.1.0.zip" --json > "$work/out.txt" 2>&1
check "Telink OTA after a lost link (no resume in Telink OTA: started over): verified, the new image runs" bash -c \
    "grep -q '\"resumes\":[1-9]' '$work/out.txt' && grep -q '\"status\":\"verified\"' '$work/out.txt' && grep -q '$telink_sha' '$work/state.json' && grep -q 'OTA_FLOW_ERR' '$work/peripheral.log'"

# Buttonless entry: an application on F0:DF:00:00:02:01 reboots into its bootloader, which
# advertises on address + 1 from its own controller.
controllers 2
rm -f "$work/state.json"
"$PY" Tests/Bumble/nordic_buttonless_device.py --transport "tcp-client:127.0.0.1:$port" \
    --bootloader-transport "tcp-client:127.0.0.1:$((port + 1))" --address F0:DF:00:00:02:01 \
    --state-file "$work/state.json" > "$work/peripheral.log" 2>&1 &
pids+=($!)
sleep 1
timeout 300 "$bin" flash --profile nordic-secure-dfu --device "hci:tcp:127.0.0.1:$((port + 2))/F0:DF:00:00:02:01" "$nordic_pkg" \
    --json > "$work/out.txt" 2>&1
check "Nordic buttonless entry over hci:tcp: the bootloader on address + 1 ends verified" bash -c \
    "grep -q '\"address\":\"F0:DF:00:00:02:02\"' '$work/out.txt' && grep -q '$nordic_sha' '$work/state.json'"

# A provisioning line over one controller: two peripherals, two links at once.
controllers 2
for index in 1 2; do
    "$PY" Tests/Bumble/vendor_ctrlpt_device.py --transport "tcp-client:127.0.0.1:$((port + index - 1))" \
        --address "F0:DF:00:00:01:0$index" --state-file "$work/line-$index.json" > "$work/peripheral-$index.log" 2>&1 &
    pids+=($!)
done
sleep 1
timeout 300 "$bin" batch run --profile vendor-ctrlpt --package "$work/app.zip" --device "hci:tcp:127.0.0.1:$((port + 2))" \
    --concurrency 2 --ledger "sqlite:$work/line.sqlite" --station bumble --json > "$work/out.txt" 2>&1
check "a batch over hci:tcp flashes two devices at once" bash -c \
    "grep -q '\"succeeded\":2' '$work/out.txt' && grep -q '$app_sha' '$work/line-1.json' && grep -q '$app_sha' '$work/line-2.json'"

echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
