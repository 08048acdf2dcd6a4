#!/usr/bin/env bash
# `make bench-peers`: dfukit (bluez:hci0) side by side with smpmgr (PyPI; bleak over BlueZ's
# D-Bus API), both in ONE boot of the `make test-kernel` qemu VM, against the same Bumble MCUmgr
# SMP peer (Tests/Bumble/mcumgr_smp_device.py with an nRF52840's flash erase and write times),
# RUNS runs each (default 3), alternating, one fresh peer per run. Uploads the signed MCUboot
# image firmware-samples/mcuboot/app-ecdsa-p256.bin, reads the image list after each run, and
# prints a table (client, run, upload seconds, confirmed), the medians and the ratio
# smpmgr/dfukit. The VM is emulated (TCG): only ratios within one boot mean anything.
# Upload seconds are measured by the peer (first chunk in to last answer out, flash included).
# Results: .build/bench-peers/results.json; logs: .build/kernel-vm/results/.
# Exit status 0 when every run uploaded and was confirmed (the ratio is reported, not judged).
# Installs what it needs (as run-kernel-tests.sh, plus dbus and smpmgr into .build/peers-venv);
# DFUKIT=PATH uses a prebuilt dfukit; RUNS=N; extra arguments go to swift build.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
vm=$PWD/.build/kernel-vm; results=$vm/results; out=$PWD/.build/bench-peers
runs=${RUNS:-3}
smpmgr_version=0.19.1
start=$(date +%s)
die() { echo "bench-peers: $*"; exit 1; }

# 1-2. Debian packages (dbus and bluez give the guest its system bus and bluetoothd), the guest
# kernel and initramfs (shared with make test-kernel).
packages=(qemu-system-x86 busybox-static bluez bluez-test-tools cpio kmod bc dbus python3-venv)
"$here/prepare-vm.sh" "${packages[@]}" || die "the VM could not be prepared (above: what failed)"

# 3. Bumble, smpmgr (pinned), dfukit.
PY=$(scripts/bumble-venv.sh) || die "bumble did not install"
peers_venv=$PWD/.build/peers-venv
installed=$("$peers_venv/bin/python" -c 'import importlib.metadata as m; print(m.version("smpmgr"))' 2>/dev/null)
if [ "$installed" != "$smpmgr_version" ]; then
    echo "setting up $peers_venv (pip install smpmgr==$smpmgr_version)"
    { [ -x "$peers_venv/bin/python" ] || python3 -m venv "$peers_venv"; } &&
        "$peers_venv/bin/pip" install --quiet "smpmgr==$smpmgr_version" || die "could not install smpmgr==$smpmgr_version"
fi
if [ -n "${DFUKIT:-}" ]; then
    dfukit=$(realpath "$DFUKIT")
else
    swift build --product dfukit "$@" 2>&1 | tail -3
    [ "${PIPESTATUS[0]}" -eq 0 ] || die "swift build failed"
    dfukit=$(swift build --product dfukit --show-bin-path "$@")/dfukit
fi

# 4. The runs: alternating, one fresh peer (controller, tcp port, address) per run.
image=$PWD/firmware-samples/mcuboot/app-ecdsa-p256.bin
rm -rf "$results" "$out"; mkdir -p "$results" "$out"
: > "$results/runs.txt"
for run in $(seq "$runs"); do
    for client in smpmgr dfukit; do
        index=$(wc -l < "$results/runs.txt")
        printf '%s %s F0:DF:00:00:0B:%02X\n' "$client" "$run" "$((index + 1))" >> "$results/runs.txt"
    done
done
cat > "$results/guest-env.sh" <<ENV
REPO=$PWD
DFUKIT=$dfukit
SMPMGR=$peers_venv/bin/smpmgr
IMAGE=$image
RUN_TIMEOUT=${RUN_TIMEOUT:-240}
SMPMGR_TIMEOUT=${SMPMGR_TIMEOUT:-10}
ENV

pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
sock=$vm/hci.sock; rm -f "$sock"
port=$((7900 + RANDOM % 300))
transports=("unix-server:$sock")
count=$(wc -l < "$results/runs.txt")
for i in $(seq 0 $((count - 1))); do transports+=("tcp-server:127.0.0.1:$((port + i))"); done
"$PY" "$here/bumble-bridge.py" "${transports[@]}" > "$results/bridge.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q ready "$results/bridge.log" && break; sleep 0.1; done
grep -q ready "$results/bridge.log" || die "bumble-bridge.py did not start: $(tail -3 "$results/bridge.log")"
# nRF52840 Product Specification v1.7, NVMC electrical specification: t_ERASEPAGE 85 ms per
# 4 kB page and t_WRITE 41 us per 32-bit word (maximum figures); the rest of the peer's timing
# (reset delay, boot, MCUboot swap) is its default, as in make test-kernel. peers-report.py
# (FLASH) states the same figures.
flash=(--flash-erase-ms-per-page 85 --flash-write-us-per-word 41)
i=0
while read -r client run address; do
    "$PY" Tests/Bumble/mcumgr_smp_device.py "${flash[@]}" --transport "tcp-client:127.0.0.1:$((port + i))" \
        --address "$address" --state-file "$results/state-$client-$run.json" \
        > "$results/peripheral-$client-$run.log" 2>&1 &
    pids+=($!); i=$((i + 1))
done < "$results/runs.txt"
sleep 1

# 5. One VM boot for every run.
echo "bench-peers: booting the VM for $count runs (set-up took $(( $(date +%s) - start ))s)"
vm_start=$(date +%s)
QEMU_EXTRA="-chardev socket,id=bt,path=$sock -serial chardev:bt" \
    "$here/run-vm.sh" "$here/guest-peers.sh" "${VM_TIMEOUT:-900}" > "$results/console.log" 2>&1
vm_rc=$?
grep -a '^\[guest\]' "$results/console.log"
echo "bench-peers: VM exited (rc $vm_rc, guest script rc $(cat "$results/guest-rc" 2>/dev/null || echo none)) after $(( $(date +%s) - vm_start ))s"
cleanup; pids=()

# 6. The table, the medians, the ratio, results.json.
"$PY" "$here/peers-report.py" --results "$results" --image "$image" --smpmgr-version "$smpmgr_version" \
    --json "$out/results.json"
rc=$?
echo "bench-peers: $(( $(date +%s) - start ))s in all; results: $out/results.json, logs: $results"
exit $rc
