#!/usr/bin/env bash
# Records the replay fixtures of Tests/DFUKitTests/Fixtures/Recordings (issue 24): one flash of
# every shipped profile, each with `dfukit flash --record`, against the project's Bumble peers
# over hci:tcp (Tests/Bumble: fresh virtual controllers per profile) and, for mcuboot-recovery
# (serial only, no Bluetooth), against `dfukit sim serve mcuboot-recovery --pty`. For
# vendor-ctrlpt and mcumgr-smp the peer also writes Bumble's own btsnoop of the session
# (BUMBLE_SNOOPER), a capture made by a tool we did not write. Every flash must end verified.
# Writes NAME.dfurec.gz (+ NAME.bumble.btsnoop.gz: both compressed, which every reader takes) and manifest.tsv (name, profile, package, --set
# options, status); `make test` replays them (RecordedSessionReplayTests). Run it again when a
# deliberate change alters the bytes on the wire, and review the diff of the fixtures.
set -uo pipefail
cd "$(dirname "$0")/.."
out=Tests/DFUKitTests/Fixtures/Recordings
venv=.build/bumble-venv
scripts/bumble-venv.sh >/dev/null || { echo "error: bumble did not install" >&2; exit 1; }
swift build --product dfukit "$@" || exit 1
bin=$(swift build --product dfukit --show-bin-path "$@")/dfukit
PY="$venv/bin/python"
work=$(mktemp -d /tmp/dfukit-fixtures.XXXXXX)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done; wait 2>/dev/null; }
trap 'cleanup; rm -rf "$work"' EXIT
port=7600
failed=0

mkdir -p "$out"
rm -f "$out"/*.dfurec* "$out"/*.btsnoop* "$out"/manifest.tsv
printf 'name\tprofile\tpackage\tsettings\tstatus\n' > "$out/manifest.tsv"

# A small deterministic vendor package (8 KiB), kept with the fixtures.
"$PY" -c 'import sys; sys.stdout.buffer.write(bytes((i * 31 + 7) & 0xFF for i in range(8192)))' > "$work/vendor-app.bin"
"$bin" package create --profile vendor-ctrlpt --version 1.0.0 --output "$out/vendor-app-8k.zip" "$work/vendor-app.bin" >/dev/null || exit 1

# peer SCRIPT SNOOP: fresh controllers on port, port+1; the peripheral on the first.
peer() {
    cleanup; pids=()
    port=$((port + 2))
    "$PY" scripts/bumble-controllers.py "tcp-server:127.0.0.1:$port" "tcp-server:127.0.0.1:$((port + 1))" > "$work/controllers.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 300); do grep -q ready "$work/controllers.log" && break; sleep 0.1; done
    local snoop=()
    [ -n "$2" ] && snoop=(env "BUMBLE_SNOOPER=btsnoop:file:$2")
    "${snoop[@]}" "$PY" "Tests/Bumble/$1" --transport "tcp-client:127.0.0.1:$port" --state-file "$work/state.json" \
        > "$work/peripheral.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 300); do grep -q 'advertising as' "$work/peripheral.log" 2>/dev/null && break; sleep 0.1; done
}

# status: how the flash ended, from the last line of its --json output.
status() { python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])["status"])' "$1" 2>/dev/null || echo failed; }

# record NAME PROFILE PACKAGE PEER SNOOP [--set ...]
record() {
    local name=$1 profile=$2 package=$3 script=$4 snoop=$5; shift 5
    peer "$script" "$([ "$snoop" = yes ] && echo "$out/$name.bumble.btsnoop")"
    timeout 300 "$bin" flash --profile "$profile" --device "hci:tcp:127.0.0.1:$((port + 1))" "$package" "$@" \
        --record "$out/$name.dfurec.gz" --json > "$work/out.txt" 2>&1
    rm -f "$out/$name.dfurec.gz.btsnoop"   # dfukit's own btsnoop: the recording says it all
    # SIGTERM cancels the peer's run: it closes its transport, and Bumble's snooper its btsnoop.
    kill "${pids[1]}" 2>/dev/null
    for _ in $(seq 50); do kill -0 "${pids[1]}" 2>/dev/null || break; sleep 0.1; done
    cleanup; pids=()
    [ -f "$out/$name.bumble.btsnoop" ] && gzip -9 -n "$out/$name.bumble.btsnoop"
    local status
    status=$(status "$work/out.txt")
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$profile" "$package" "$*" "$status" >> "$out/manifest.tsv"
    if [ "$status" = verified ]; then echo "ok: $name ($(du -k "$out/$name.dfurec.gz" | cut -f1) KiB)"
    else echo "FAILED: $name"; tail -5 "$work/out.txt"; tail -5 "$work/peripheral.log"; failed=$((failed + 1)); fi
}

record vendor-ctrlpt vendor-ctrlpt "$out/vendor-app-8k.zip" vendor_ctrlpt_device.py yes
record mcumgr-smp mcumgr-smp firmware-samples/mcuboot/app-ecdsa-p256.bin mcumgr_smp_device.py yes
record nordic-secure-dfu nordic-secure-dfu firmware-samples/nordic/app-signed.zip nordic_secure_dfu_device.py no --set prn=8
record nordic-legacy-dfu nordic-legacy-dfu firmware-samples/nordic/legacy-app.zip nordic_legacy_dfu_device.py no --set prn=10
record ti-oad ti-oad firmware-samples/ti/oad-app-9604.bin ti_oad_device.py no
record telink-ota telink-ota firmware-samples/telink/app-v1.1.0.zip telink_ota_device.py no
record dialog-suota dialog-suota firmware-samples/dialog/app-v2.img dialog_suota_device.py no
record silabs-ota silabs-ota firmware-samples/silabs/app-plain.gbl silabs_ota_device.py no

# MCUboot serial recovery: no Bluetooth; DFUKit's simulator of boot_serial.c on a pseudo-terminal.
cleanup; pids=()
"$bin" sim serve mcuboot-recovery --pty "$work/recovery-pty" > "$work/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 200); do [ -e "$work/recovery-pty" ] && break; sleep 0.1; done
timeout 300 "$bin" flash --profile mcuboot-recovery --device "serial:$work/recovery-pty" \
    firmware-samples/mcuboot/app-ecdsa-p256.bin --record "$out/mcuboot-recovery.dfurec.gz" --json > "$work/out.txt" 2>&1
status=$(status "$work/out.txt")
printf '%s\t%s\t%s\t%s\t%s\n' mcuboot-recovery mcuboot-recovery firmware-samples/mcuboot/app-ecdsa-p256.bin "" "$status" >> "$out/manifest.tsv"
case $status in verified|completed) echo "ok: mcuboot-recovery ($status)";; *) echo "FAILED: mcuboot-recovery"; tail -5 "$work/out.txt"; failed=$((failed + 1));; esac

du -ch "$out"/* | tail -1
[ "$failed" -eq 0 ]
