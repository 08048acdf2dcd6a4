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
    for _ in $(seq 300); do grep -q ready "$work/controllers.log" && break; sleep 0.1; done
}

# advertising LOG...: waits (at most 30 s each) until every peripheral log says it advertises.
# A fixed sleep was not enough on a loaded machine: Python and Bumble can take seconds to start.
advertising() {
    local log
    for log in "$@"; do
        for _ in $(seq 300); do grep -q 'advertising as' "$log" 2>/dev/null && break; sleep 0.1; done
    done
}

# start PERIPHERAL [peripheral options...]: fresh controllers and the peripheral.
start() {
    controllers 1
    local script=$1; shift
    rm -f "$work/state.json"
    "$PY" "Tests/Bumble/$script" --transport "tcp-client:127.0.0.1:$port" --state-file "$work/state.json" "$@" > "$work/peripheral.log" 2>&1 &
    pids+=($!)
    advertising "$work/peripheral.log"
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
# What the controller granted (issue 14): DFUKit asked for 2M PHY, data length 251, MTU 247 and
# a 7.5-15 ms interval. Bumble's controller grants the shortest interval asked (7.5 ms), the
# peer's MTU (247); it knows no LE Set Data Length (27-byte LL payloads stay) and never answers
# LE Set PHY (1M stays), which the notes say.
echo "  granted: $(grep -m1 '^link: ' "$work/out.txt")"
check "the flash reports the link Bumble granted (interval, MTU, data length, PHY, what was asked, why not)" \
    "$PY" -c 'import json,sys
r = json.loads([l for l in open(sys.argv[1]) if l.startswith("{")][-1])["link"]
assert (r["source"], r["interval_ms"], r["latency"], r["supervision_timeout_ms"]) == ("controller", 7.5, 0, 2000), r
assert (r["mtu"], r["tx_octets"], r["rx_octets"], r["tx_phy"], r["rx_phy"]) == (247, 27, 27, "1M", "1M"), r
q = r["requested"]
assert (q["phy"], q["data_length"], q["mtu"], q["interval_min_ms"], q["interval_max_ms"]) == ("2M", 251, 247, 7.5, 15), q
assert any("LE Set Data Length" in n for n in r["notes"]) and any("LE Set PHY" in n for n in r["notes"]), r["notes"]' "$work/out.txt"
check "the btsnoop trace opens and holds ATT writes" bash -c "\"$PY\" Tests/Bumble/btsnoop_dump.py \"$work/trace.btsnoop\" | grep -c \" sent data \" | grep -qv \"^0\$\""

# Record and replay on a real stack: a flash recorded with --record over hci:tcp (on hci: DFUKit's
# host also writes its btsnoop beside the recording), that btsnoop read back by the profile, both
# files replayed as the device (sim:replay holds DFUKit to the same bytes in the same writes, so
# a change on the wire since the recording would fail here) and the profile verified against the
# recording. The unit tests replay fixtures recorded once; these record the flash they replay.
start vendor_ctrlpt_device.py
timeout 300 "$bin" flash --profile vendor-ctrlpt --device "hci:tcp:127.0.0.1:$((port + 1))" "$work/app.zip" --json \
    --record "$work/s.dfurec" > "$work/out.txt" 2>&1
check "vendor flash over hci:tcp with --record ends verified; the recording and DFUKit's btsnoop beside it are written" bash -c \
    "grep -q '\"status\":\"verified\"' '$work/out.txt' && grep -q '$app_sha' '$work/state.json' \
     && [ -s '$work/s.dfurec' ] && [ -s '$work/s.dfurec.btsnoop' ]"
timeout 300 "$bin" capture inspect "$work/s.dfurec.btsnoop" --profile vendor-ctrlpt > "$work/out.txt" 2>&1
status=$?
check "capture inspect of that btsnoop: the profile explains all messages" bash -c \
    "[ $status -eq 0 ] && tail -1 '$work/out.txt' | grep -q '^the profile explains all [1-9][0-9]* messages\$'"
for capture in s.dfurec s.dfurec.btsnoop; do
    timeout 300 "$bin" flash --profile vendor-ctrlpt --device "sim:replay?capture=$work/$capture" "$work/app.zip" --json \
        > "$work/out.txt" 2>&1
    check "the flash replayed from $capture (the captured device, the same bytes) ends verified" \
        grep -q '"status":"verified"' "$work/out.txt"
done
timeout 300 "$bin" profile verify vendor-ctrlpt --against "$work/s.dfurec" --package "$work/app.zip" > "$work/out.txt" 2>&1
status=$?
check "profile verify vendor-ctrlpt against the recording: reproduced (exit 0)" [ "$status" -eq 0 ]
# One wrong constant: the start command's opcode 0x09 instead of 0x01 (the only 0x01 request
# byte in the profile). Verify must fail and name the message and the field.
sed 's/- { type: u8, value: 0x01 }/- { type: u8, value: 0x09 }/' profiles/vendor-ctrlpt.yaml > "$work/vendor-wrong-start.yaml"
timeout 300 "$bin" profile verify "$work/vendor-wrong-start.yaml" --against "$work/s.dfurec" --package "$work/app.zip" \
    > "$work/out.txt" 2>&1
status=$?
check "profile verify with start's opcode 0x09: exit 1, naming message 'start' field 1" bash -c \
    "[ $status -eq 1 ] && ! cmp -s profiles/vendor-ctrlpt.yaml '$work/vendor-wrong-start.yaml' \
     && grep -q \"message 'start' field 1\" '$work/out.txt'"

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

# TI OAD against a CC26x2 off-chip OAD application peer (Tests/Bumble/ti_oad_device.py, as oad.c
# and the BIM behave): the device asks for every block, checks the CRC-32 after the last one,
# resets into the BIM on enable (the link drops with 0x08) and the new image answers its version.
ti_image=firmware-samples/ti/oad-app-9604.bin
ti_sha=$(sha256sum "$ti_image" | cut -d' ' -f1)
start ti_oad_device.py
timeout 300 "$bin" flash --profile ti-oad --device "hci:tcp:127.0.0.1:$((port + 1))" "$ti_image" --json > "$work/out.txt" 2>&1
check "TI OAD over hci:tcp: every block the device asks for, its CRC check, enable, the BIM: verified, the new image runs" \
    holds "$ti_sha" '"running": "new image"' 5
start ti_oad_device.py
timeout 300 "$bin" flash --profile ti-oad --device "hci:tcp:127.0.0.1:$((port + 1))" firmware-samples/ti/oad-app-damaged-crc.bin \
    > "$work/out.txt" 2>&1
check "TI OAD: a damaged image (its crc32 no longer matches) is refused before anything is sent" bash -c \
    "grep -q 'fails its file format' '$work/out.txt' && ! grep -q 'identify' '$work/peripheral.log' && [ ! -f '$work/state.json' ]"
start ti_oad_device.py
timeout 300 "$bin" flash --profile ti-oad --device "hci:tcp:127.0.0.1:$((port + 1))" firmware-samples/ti/oad-app-cc13x2r1.bin \
    --json > "$work/out.txt" 2>&1
check "TI OAD: an image for another chip (CC13x2R1) is refused at identify: failed, invalid-file, the device unchanged" bash -c \
    "grep -q '\"status\":\"failed\"' '$work/out.txt' && grep -q 'invalid-file' '$work/out.txt' && grep -q '\"device_holds\":\\[\"unchanged\"\\]' '$work/out.txt' && [ ! -f '$work/state.json' ]"
start ti_oad_device.py --corrupt-block 10
timeout 300 "$bin" flash --profile ti-oad --device "hci:tcp:127.0.0.1:$((port + 1))" "$ti_image" --json > "$work/out.txt" 2>&1
check "TI OAD: the device's CRC check fails after the last block (a flash fault): failed with status 1, the device unchanged" bash -c \
    "grep -q 'block_status.status = 1' '$work/out.txt' && grep -q '\"device_holds\":\\[\"unchanged\"\\]' '$work/out.txt' && grep -q 'CRC_ERR' '$work/peripheral.log' && [ ! -f '$work/state.json' ]"
start ti_oad_device.py --disconnect-after 5000
timeout 300 "$bin" flash --profile ti-oad --device "hci:tcp:127.0.0.1:$((port + 1))" "$ti_image" --json > "$work/out.txt" 2>&1
check "TI OAD: a lost link cancels the OAD; the update starts over from identify and ends verified" bash -c \
    "grep -q '\"resumes\":1' '$work/out.txt' && [ \$(grep -c 'identify accepted' '$work/peripheral.log') -eq 2 ] && grep -q '$ti_sha' '$work/state.json'"
# A BIM whose CRC check of the copy fails keeps the factory image, which reports the new image's
# software version (0002): nothing can tell them apart, and the report says so.
start ti_oad_device.py --bim-crc fails --sw-version 0002
timeout 300 "$bin" flash --profile ti-oad --device "hci:tcp:127.0.0.1:$((port + 1))" "$ti_image" --json > "$work/out.txt" 2>&1
check "TI OAD: the BIM keeps the old image of the same version: not claimed installed (unchanged or installed, and why)" \
    bash -c "for _ in \$(seq 50); do grep -q 'BIM rejected' '$work/state.json' 2>/dev/null && break; sleep 0.1; done
        grep -q '\"device_holds\":\[\"unchanged\",\"installed\"\]' '$work/out.txt' && grep -q 'cannot tell' '$work/out.txt' \
        && grep -q 'BIM rejected' '$work/state.json'"
# The device resets before its answer to enable goes out: the update resumes, asks the software
# version first, finds the new image running and sends nothing again.
start ti_oad_device.py --enable-answer lost
timeout 300 "$bin" flash --profile ti-oad --device "hci:tcp:127.0.0.1:$((port + 1))" "$ti_image" --json > "$work/out.txt" 2>&1
check "TI OAD: the answer to enable lost in the reset: resumed by asking the device, installed, the image sent once" \
    bash -c "grep -q '\"device_holds\":\[\"installed\"\]' '$work/out.txt' && [ \$(grep -c 'identify accepted' '$work/peripheral.log') -eq 1 ] \
        && grep -q '$ti_sha' '$work/state.json'"
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
# A --set version that differs from what the image reports: the device reports another revision
# than before, which is what the report rests on: verified, installed, the difference said.
start telink_ota_device.py
timeout 300 "$bin" flash --profile telink-ota --device "hci:tcp:127.0.0.1:$((port + 1))" "$telink/app-v1.1.0.zip" \
    --set version=9.9.9 --json > "$work/out.txt" 2>&1
check "Telink OTA with a --set version the image does not report: installed, the changed revision is the evidence" bash -c \
    "grep -q '\"status\":\"verified\"' '$work/out.txt' && grep -q '\"device_holds\":\[\"installed\"\]' '$work/out.txt' \
        && grep -q \"changed from '1.0.0' to '1.1.0'\" '$work/out.txt' && grep -q '$telink_sha' '$work/state.json'"
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
    "grep -q '\"status\":\"failed\"' '$work/out.txt' && grep -q '\"device_holds\":\[\"unchanged\"\]' '$work/out.txt' && grep -q \"still reports '1.0.0'\" '$work/out.txt' && grep -q 'OTA_FW_CHECK_ERR' '$work/peripheral.log' && grep -q '\"running\": \"factory\"' '$work/state.json'"
# A newer server notifies its result before it drops the link: an image smaller than the device
# takes (--min-size above it) is refused with OTA_FW_SIZE_ERR, which a retry cannot change: the
# update ends at once naming it, one OTA on the device, no resume. Its OTA_SUCCESS is no failure.
start telink_ota_device.py --result-feedback --min-size 32768
timeout 300 "$bin" flash --profile telink-ota --device "hci:tcp:127.0.0.1:$((port + 1))" "$telink/app-v1.1.0.zip" --json > "$work/out.txt" 2>&1
check "Telink OTA with result feedback: a size refusal ends the update at once, named (OTA_FW_SIZE_ERR), not resumed" bash -c \
    "grep -q '\"status\":\"failed\"' '$work/out.txt' && grep -q 'OTA_FW_SIZE_ERR' '$work/out.txt' && grep -q 'not retried' '$work/out.txt' \
     && grep -q '\"resumes\":0' '$work/out.txt' && [ \$(grep -c 'OTA ended' '$work/peripheral.log') -eq 1 ]"
start telink_ota_device.py --result-feedback
timeout 300 "$bin" flash --profile telink-ota --device "hci:tcp:127.0.0.1:$((port + 1))" "$telink/app-v1.1.0.zip" --json > "$work/out.txt" 2>&1
check "Telink OTA with result feedback: OTA_SUCCESS heard, verified by the version read back" \
    holds "$telink_sha" '"version": "1.1.0"' 5
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
advertising "$work/peripheral.log"
timeout 300 "$bin" flash --profile nordic-secure-dfu --device "hci:tcp:127.0.0.1:$((port + 2))/F0:DF:00:00:02:01" "$nordic_pkg" \
    --json > "$work/out.txt" 2>&1
check "Nordic buttonless entry over hci:tcp: the bootloader on address + 1 ends verified" bash -c \
    "grep -q '\"address\":\"F0:DF:00:00:02:02\"' '$work/out.txt' && grep -q '$nordic_sha' '$work/state.json'"

# Renesas/Dialog SUOTA against a DA14585 SDK 6 receiver peer (Tests/Bumble/README.md): the .img
# file plus its XOR byte in 240-byte blocks, CMP_OK per block, the end command's XOR check, then
# the reboot: the device answers, ends the link (0x13) and its bootloader runs the new image (the
# state file names it about 1 s later).
suota_image=firmware-samples/dialog/app-v2.img
suota_sha=$(sha256sum "$suota_image" | cut -d' ' -f1)
factory_sha=$("$PY" -c 'import sys; sys.path.insert(0, "Tests/Bumble"); import hashlib, dialog_suota_device as d; print(hashlib.sha256(d.factory_image()).hexdigest())')
start dialog_suota_device.py
timeout 300 "$bin" flash --profile dialog-suota --device "hci:tcp:127.0.0.1:$((port + 1))" "$suota_image" --json > "$work/out.txt" 2>&1
check "Dialog SUOTA over hci:tcp: verified by the device's XOR check; after the reboot it runs the new image from bank 2" \
    holds "$suota_sha" '"bank": *2' 5
start dialog_suota_device.py --disconnect-after 6000
timeout 300 "$bin" flash --profile dialog-suota --device "hci:tcp:127.0.0.1:$((port + 1))" "$suota_image" --set block_size=512 \
    --json > "$work/out.txt" 2>&1
check "Dialog SUOTA after a lost link (512-byte blocks): the upload starts over with MEM_DEV, verified, the new image runs" \
    bash -c "grep -q '\"resumes\":1' '$work/out.txt' && [ \$(grep -c 'image transfer started' '$work/peripheral.log') -eq 2 ] \
        && for _ in \$(seq 50); do grep -q '$suota_sha' '$work/state.json' && exit 0; sleep 0.1; done; exit 1"
# A damaged image (one code byte flipped after mkimage computed its CRC) is refused before any
# byte is sent: the device never sees a SUOTA write.
start dialog_suota_device.py
timeout 300 "$bin" flash --profile dialog-suota --device "hci:tcp:127.0.0.1:$((port + 1))" \
    firmware-samples/dialog/damaged-crc.img > "$work/out.txt" 2>&1
check "Dialog SUOTA: a damaged .img is refused before upload (its header's CRC-32), nothing reaches the device" bash -c \
    "grep -q 'crc32: the header says 0x7c830d4c' '$work/out.txt' && grep -q 'nothing was sent' '$work/out.txt' \
        && ! grep -q 'image transfer started' '$work/peripheral.log' && grep -q '$factory_sha' '$work/state.json'"
# A valid image the device cannot take: 45,000 bytes of code do not fit its 45,056-byte bank.
# It answers INVAL_IMG_SIZE to the first block (twice: the upload starts over once); the report
# says failed and that the device still runs its old image, which it does.
"$PY" firmware-samples/make-suota-samples.py --code-size 45000 --version 2.0.0 "$work/too-large.img"
start dialog_suota_device.py
timeout 300 "$bin" flash --profile dialog-suota --device "hci:tcp:127.0.0.1:$((port + 1))" "$work/too-large.img" --json \
    > "$work/out.txt" 2>&1
check "Dialog SUOTA: an image too large for the bank is refused by the device (inval-img-size): failed, the device unchanged and running its image" \
    bash -c "grep -q '\"status\":\"failed\"' '$work/out.txt' && grep -q 'inval-img-size' '$work/out.txt' \
        && grep -q '\"device_holds\":\[\"unchanged\"\]' '$work/out.txt' && grep -q '$factory_sha' '$work/state.json'"
# The same image already in the bank asked for (image_bank=2): SAME_IMG_ERR, the device unchanged.
start dialog_suota_device.py --bank2 "$suota_image"
timeout 300 "$bin" flash --profile dialog-suota --device "hci:tcp:127.0.0.1:$((port + 1))" "$suota_image" --set image_bank=2 \
    --json > "$work/out.txt" 2>&1
check "Dialog SUOTA: the same image already in the bank asked for is refused (same-img-err): failed, the device unchanged" \
    bash -c "grep -q '\"status\":\"failed\"' '$work/out.txt' && grep -q 'same-img-err' '$work/out.txt' \
        && grep -q '\"device_holds\":\[\"unchanged\"\]' '$work/out.txt' && grep -q '$factory_sha' '$work/state.json'"
# Evidence after the reboot (issue 21). A byte stored wrong that the XOR cannot see: CMP_OK, then
# the bootloader's CRC-32 rejects the bank and the factory image runs; an application that tags
# its build in DIS 2A28 shows it: failed, the device unchanged (never `installed`).
start dialog_suota_device.py --corrupt-stored 1000 --dis image
timeout 300 "$bin" flash --profile dialog-suota --device "hci:tcp:127.0.0.1:$((port + 1))" "$suota_image" \
    --set software_revision=image --json > "$work/out.txt" 2>&1
check "Dialog SUOTA: damage the XOR cannot see, rejected by the bootloader's CRC-32: failed, the old revision read back, the device unchanged" \
    bash -c "grep -q '\"status\":\"failed\"' '$work/out.txt' && grep -q 'still reports' '$work/out.txt' \
        && grep -q '\"device_holds\":\[\"unchanged\"' '$work/out.txt' && grep -q '$factory_sha' '$work/state.json'"
# The same with an SDK 6 application (DIS reports the SDK's version for every image): nothing can
# tell which image runs, and the report says so instead of claiming `installed`.
start dialog_suota_device.py --corrupt-stored 1000
timeout 300 "$bin" flash --profile dialog-suota --device "hci:tcp:127.0.0.1:$((port + 1))" "$suota_image" --json > "$work/out.txt" 2>&1
check "Dialog SUOTA: the same damage on an SDK 6 application: not claimed installed (unchanged, pending or installed, and why)" \
    bash -c "grep -q '\"device_holds\":\[\"unchanged\",\"pending\",\"installed\"\]' '$work/out.txt' \
        && grep -q 'gives no way to tell' '$work/out.txt' && grep -q '$factory_sha' '$work/state.json'"
# An application that answers the reboot command and keeps the link: it did not reset; the new
# image waits valid in its bank: failed, pending.
start dialog_suota_device.py --on-reboot ignore
timeout 300 "$bin" flash --profile dialog-suota --device "hci:tcp:127.0.0.1:$((port + 1))" "$suota_image" --json > "$work/out.txt" 2>&1
check "Dialog SUOTA: an application that keeps the link after the reboot command: failed, pending, the old image still runs" \
    bash -c "grep -q '\"status\":\"failed\"' '$work/out.txt' && grep -q 'kept the link' '$work/out.txt' \
        && grep -q '\"device_holds\":\[\"pending\"\]' '$work/out.txt' && grep -q '$factory_sha' '$work/state.json'"
# Silicon Labs OTA (Tests/Bumble/silabs_ota_device.py): the application answers the OTA Control
# write, closes the link 1 s later and resets into the AppLoader ("OTA", same address, its own
# GATT); the AppLoader takes the GBL file, checks its end-tag CRC at 0x03 and resets into the new
# application when the link closes.
silabs_gbl=firmware-samples/silabs/app-plain.gbl
silabs_sha=$(sha256sum "$silabs_gbl" | cut -d' ' -f1)
start silabs_ota_device.py
timeout 300 "$bin" flash --profile silabs-ota --device "hci:tcp:127.0.0.1:$((port + 1))" "$silabs_gbl" --json > "$work/out.txt" 2>&1
check "Silicon Labs OTA over hci:tcp (application -> AppLoader -> new application): verified, the new application runs" \
    holds "$silabs_sha" '"running": "application"' 5
start silabs_ota_device.py
timeout 300 "$bin" flash --profile silabs-ota --device "hci:tcp:127.0.0.1:$((port + 1))" "$silabs_gbl" --set data_with_response=1 \
    --json > "$work/out.txt" 2>&1
check "Silicon Labs OTA with OTA Data written with response: verified" holds "$silabs_sha" '"running": "application"' 5
# A lost link resets the AppLoader, which comes back (the application is overwritten): the upload
# starts over from byte 0.
start silabs_ota_device.py --disconnect-after 3000
timeout 300 "$bin" flash --profile silabs-ota --device "hci:tcp:127.0.0.1:$((port + 1))" "$silabs_gbl" --json > "$work/out.txt" 2>&1
check "Silicon Labs OTA after a lost link mid-transfer: the upload starts over and ends verified" bash -c \
    "grep -q '\"resumes\":[1-9]' '$work/out.txt' && grep -q '$silabs_sha' '$work/state.json'"
# A damaged file (end-tag CRC) is refused before anything is sent: the device never sees a link.
start silabs_ota_device.py
timeout 300 "$bin" flash --profile silabs-ota --device "hci:tcp:127.0.0.1:$((port + 1))" firmware-samples/silabs/app-bad-crc.gbl \
    > "$work/out.txt" 2>&1
status=$?
check "a GBL file with a bad end-tag CRC is refused before upload" bash -c \
    "[ $status -eq 65 ] && grep -q 'GBL end tag says CRC-32' '$work/out.txt' && grep -q 'nothing was sent' '$work/out.txt' \
     && ! grep -q 'connected to' '$work/peripheral.log' && [ ! -f '$work/state.json' ]"
# A file intact to the reader but with a tag the AppLoader does not take: dfukit refuses it
# before the radio unless forced; forced, the AppLoader refuses it at 0x03 with ATT error 0x84;
# the report and the device agree that the application is overwritten and the device waits in
# the AppLoader.
start silabs_ota_device.py
timeout 300 "$bin" flash --profile silabs-ota --device "hci:tcp:127.0.0.1:$((port + 1))" firmware-samples/silabs/app-unknown-tag.gbl \
    --force --json > "$work/out.txt" 2>&1
sleep 1
check "Silicon Labs OTA refused by the AppLoader (0x84): failed, the device holds an overwritten application and waits in the AppLoader" bash -c \
    "grep -q '\"status\":\"failed\"' '$work/out.txt' && grep -q 'not-supported' '$work/out.txt' \
     && grep -q '\"device_holds\":\\[\"overwritten\"\\]' '$work/out.txt' && grep -q '\"running\": \"apploader\"' '$work/state.json'"
# The answer to 0x03 lost every time (the link drops first): the verified image boots; the
# resumed update reads the application's version, finds the GBL's and sends nothing again.
start silabs_ota_device.py --end-answer lost
timeout 300 "$bin" flash --profile silabs-ota --device "hci:tcp:127.0.0.1:$((port + 1))" "$silabs_gbl" --json > "$work/out.txt" 2>&1
check "Silicon Labs OTA: the answer to 0x03 lost: resumed by asking the application's version, installed, uploaded once" \
    bash -c "grep -q '\"device_holds\":\[\"installed\"\]' '$work/out.txt' && ! grep -q '\"status\":\"failed\"' '$work/out.txt' \
        && grep -q '$silabs_sha' '$work/state.json'"
# An LZ4-compressed GBL on a bootloader without the decompressor (forced past the preflight): the
# AppLoader refuses it before any program data; the device comes back as its old application.
start silabs_ota_device.py --compression refused
timeout 300 "$bin" flash --profile silabs-ota --device "hci:tcp:127.0.0.1:$((port + 1))" firmware-samples/silabs/app-lz4.gbl \
    --force --json > "$work/out.txt" 2>&1
sleep 1
check "Silicon Labs OTA: an LZ4 GBL refused before any program data: failed, unchanged, the old application runs" \
    bash -c "grep -q '\"status\":\"failed\"' '$work/out.txt' && grep -q 'before writing any program data' '$work/out.txt' \
        && grep -q '\"device_holds\":\[\"unchanged\"\]' '$work/out.txt' && grep -q '\"running\": \"application\", \"version\": 65537' '$work/state.json'"

# A provisioning line over one controller: two peripherals, two links at once.
controllers 2
for index in 1 2; do
    "$PY" Tests/Bumble/vendor_ctrlpt_device.py --transport "tcp-client:127.0.0.1:$((port + index - 1))" \
        --address "F0:DF:00:00:01:0$index" --state-file "$work/line-$index.json" > "$work/peripheral-$index.log" 2>&1 &
    pids+=($!)
done
advertising "$work/peripheral-1.log" "$work/peripheral-2.log"
timeout 300 "$bin" batch run --profile vendor-ctrlpt --package "$work/app.zip" --device "hci:tcp:127.0.0.1:$((port + 2))" \
    --concurrency 2 --ledger "sqlite:$work/line.sqlite" --station bumble --json > "$work/out.txt" 2>&1
check "a batch over hci:tcp flashes two devices at once" bash -c \
    "grep -q '\"succeeded\":2' '$work/out.txt' && grep -q '$app_sha' '$work/line-1.json' && grep -q '$app_sha' '$work/line-2.json'"

# A station with two radios: two controllers for dfukit's HCI host on one virtual link with four
# peripherals, every peripheral heard by both; -j 2 on each radio flashes all four at once. Each
# peripheral's state file must name the image, dfukit's --json must show both radios flashing,
# and the peripherals' own logs must agree: each connected to from one central address only, the
# same for the peripherals dfukit started on one radio, another for the other radio's.
controllers 5
for index in 1 2 3 4; do
    "$PY" Tests/Bumble/vendor_ctrlpt_device.py --transport "tcp-client:127.0.0.1:$((port + index - 1))" \
        --address "F0:DF:00:00:01:1$index" --state-file "$work/radios-$index.json" > "$work/radios-peripheral-$index.log" 2>&1 &
    pids+=($!)
done
advertising "$work"/radios-peripheral-{1,2,3,4}.log
timeout 300 "$bin" batch run --profile vendor-ctrlpt --package "$work/app.zip" --device "hci:tcp:127.0.0.1:$((port + 4))" \
    --device "hci:tcp:127.0.0.1:$((port + 5))" -j 2 --ledger "sqlite:$work/radios.sqlite" --station bumble --json \
    > "$work/out.txt" 2>&1
python3 - "$work" >> "$work/out.txt" 2>&1 <<'PY'
import json, re, sys
work = sys.argv[1]
out = open(work + "/out.txt").read().splitlines()
summary = json.loads([l for l in out if l.startswith("{")][-1])
radios = summary["radios"]
assert summary["succeeded"] == 4 and summary["devices"] == 4, summary
assert [r["name"] for r in radios] == ["radio-1", "radio-2"] and all(r["succeeded"] >= 1 for r in radios), radios
started = {}
for line in out:
    m = re.match(r"([0-9A-F:]{17}): attempt 1 started on (radio-\d)$", line)
    if m: started[m.group(1)] = m.group(2)
centrals = {}
for index in range(1, 5):
    address = "F0:DF:00:00:01:1%d" % index
    seen = set(re.findall(r"connected to ([0-9A-F:]{17})", open("%s/radios-peripheral-%d.log" % (work, index)).read()))
    assert len(seen) == 1, (address, seen)
    centrals.setdefault(started[address], set()).update(seen)
assert sorted(centrals) == ["radio-1", "radio-2"] and all(len(c) == 1 for c in centrals.values()), centrals
assert centrals["radio-1"] != centrals["radio-2"], centrals
print("radios agree:", {radio: sorted(c)[0] for radio, c in centrals.items()})
PY
check "a station with two radios over hci:tcp flashes four devices, each from one radio, both radios used" bash -c \
    "grep -q '$app_sha' '$work/radios-1.json' && grep -q '$app_sha' '$work/radios-2.json' \
     && grep -q '$app_sha' '$work/radios-3.json' && grep -q '$app_sha' '$work/radios-4.json' \
     && grep -q '^radios agree:' '$work/out.txt'"

echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
