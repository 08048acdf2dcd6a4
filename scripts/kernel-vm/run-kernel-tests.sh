#!/usr/bin/env bash
# `make test-kernel`: dfukit over the Linux kernel's Bluetooth stack (bluez:hci0) in ONE qemu VM
# (Debian's kernel, TCG) against Bumble bootloader peripherals running on the host.
#   host: bumble-bridge.py = controllers C0 and C1 for the kernel (unix sockets -> the guest's
#         ttyS1 and ttyS2: hci0 and hci1, a station with two radios; the cases but `radios` use
#         hci0 alone) + one controller per peripheral (Tests/Bumble/*_device.py, fresh state file each)
#   guest: guest-cases.sh = btattach, btmgmt le on/power on, then per case btmon + the client
# Installs what it needs (apt-get, the kernel into .build/kernel-vm/kroot, Bumble into
# .build/bumble-venv), builds dfukit on the host (the guest runs host binaries over 9p).
# Results, btmon captures and logs: .build/kernel-vm/results/ (passing cases' captures are
# deleted unless KEEP_CAPTURES=1). Last line: "N passed, N failed".
# Extra arguments go to swift build; DFUKIT=PATH uses a prebuilt dfukit instead.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
vm=$PWD/.build/kernel-vm; results=$vm/results
start=$(date +%s)
die() { echo "test-kernel: $*"; echo "0 passed, 1 failed"; exit 1; }

# 1-2. Debian packages, the guest kernel and initramfs.
packages=(qemu-system-x86 busybox-static bluez bluez-test-tools cpio kmod bc libbluetooth-dev gcc python3-venv)
"$here/prepare-vm.sh" "${packages[@]}" || die "the VM could not be prepared (above: what failed)"

# 3. Bumble, dfukit, the libbluetooth stand-in client.
venv=.build/bumble-venv; PY=$venv/bin/python
scripts/bumble-venv.sh >/dev/null || die "bumble did not install"
if [ -n "${DFUKIT:-}" ]; then   # a prebuilt binary instead of building (must be on the host root)
    dfukit=$(realpath "$DFUKIT")
else
    swift build --product dfukit "$@" 2>&1 | tail -3
    [ "${PIPESTATUS[0]}" -eq 0 ] || die "swift build failed"
    dfukit=$(swift build --product dfukit --show-bin-path "$@")/dfukit
fi
att_client=$vm/att_mtu_client
if [ ! -x "$att_client" ] || [ "$here/att_mtu_client.c" -nt "$att_client" ]; then
    gcc -O2 -Wall -o "$att_client" "$here/att_mtu_client.c" -lbluetooth || die "att_mtu_client did not compile"
fi

# 4. Packages and cases.
rm -rf "$results"; mkdir -p "$results"
work=$vm/work; rm -rf "$work"; mkdir -p "$work"
head -c "${VENDOR_IMAGE_BYTES:-60000}" /dev/urandom > "$work/app.bin"
"$dfukit" package create --profile vendor-ctrlpt --version 1.0.0 --output "$work/app.zip" "$work/app.bin" >/dev/null ||
    die "dfukit package create failed"
vendor_sha=$(sha256sum "$work/app.bin" | cut -d' ' -f1)
# The vendor profile asking for an encrypted link (BT_SECURITY medium: the kernel pairs, Just Works).
sed 's/^version: 1$/version: 1\nsecurity: medium/' profiles/vendor-ctrlpt.yaml > "$work/vendor-encrypted.yaml"
grep -q '^security: medium' "$work/vendor-encrypted.yaml" || die "could not make the encrypted vendor profile"
smp_image=$PWD/firmware-samples/mcuboot/app-ecdsa-p256.bin
smp_sha=$(sha256sum "$smp_image" | cut -d' ' -f1)
nordic_pkg=$PWD/firmware-samples/nordic/app-signed.zip
package_sha() {  # the SHA-256 of a Nordic package's application image
    python3 -c 'import zipfile,hashlib,json,sys; z=zipfile.ZipFile(sys.argv[1]); m=json.loads(z.read("manifest.json")); print(hashlib.sha256(z.read(m["manifest"]["application"]["bin_file"])).hexdigest())' "$1"
}
nordic_sha=$(package_sha "$nordic_pkg")
# adafruit-nrfutil's 102,400-byte legacy package: 420 packets at MTU 247, the last one on a
# receipt boundary at PRN 10 and 12.
legacy_pkg=$PWD/firmware-samples/nordic/legacy-app-102400.zip
legacy_sha=$(package_sha "$legacy_pkg")

# NAME KIND PEER PERIPHERAL-SCRIPT[:OPTION...] EXPECTED-SHA [KEY=VALUE] | client arguments (flash: after --device)
# (the *-resume cases also check dfukit reported a resume; a scan case expects its own peer and
# the other Nordic peers in the list, and no vendor peer: the profile filters them out; a batch
# case flashes exactly its PEERs, comma-separated, two links at once; a radios case is a batch over
# both adapters (bluez:hci0,hci1) that must flash every PEER, with both radios used; a refused case is a flash
# that must fail, with the reason in its error, and leave the device without the image; a record
# case is a flash that also records the session with --record, whose recording comes back in the
# results directory, is replayed on the host as the device (sim:replay) to a verified flash and
# reproduces the profile (profile verify), its client arguments being --profile P PACKAGE [...];
# KEY=VALUE: the peer's state file must also say "KEY": VALUE, e.g. that the image runs confirmed)
# The SMP peer reboots as Zephyr + MCUboot do: 250 ms after answering reset, then silent for
# 1 s + 97 ms per KiB swapped (about 4.9 s here; smp-long-swap: 220 ms per KiB, 9.9 s). The
# legacy peer is an nRF5 SDK 11 bootloader: 4 s bank erase at Start; its application starts
# (and writes the state file) 3.8 s after activate; its 120 s inactivity timeout is raised to
# 900 s here because every peer starts with the VM and waits minutes for its case (a timeout
# resets the bootloader, which would drop a link opened at that moment). Tests/Bumble/README.md
# has the details.
cases=(
  "scan-nordic scan F0:DF:00:00:02:03 nordic_secure_dfu_device.py - | --profile nordic-secure-dfu --seconds 3"
  "att-mtu-vendor att-mtu F0:DF:00:00:01:01 vendor_ctrlpt_device.py - |"
  "vendor-flash flash F0:DF:00:00:01:02 vendor_ctrlpt_device.py $vendor_sha | --profile vendor-ctrlpt $work/app.zip"
  "vendor-record record F0:DF:00:00:01:08 vendor_ctrlpt_device.py $vendor_sha | --profile vendor-ctrlpt $work/app.zip"
  "nordic-flash flash F0:DF:00:00:02:01 nordic_secure_dfu_device.py $nordic_sha | --profile nordic-secure-dfu $nordic_pkg --set prn=8"
  "vendor-resume flash F0:DF:00:00:01:03 vendor_ctrlpt_device.py:--disconnect-after=8000 $vendor_sha | --profile vendor-ctrlpt $work/app.zip"
  "nordic-resume flash F0:DF:00:00:02:02 nordic_secure_dfu_device.py:--disconnect-after=9000 $nordic_sha | --profile nordic-secure-dfu $nordic_pkg"
  "smp-flash flash F0:DF:00:00:03:01 mcumgr_smp_device.py $smp_sha confirmed=true | --profile mcumgr-smp $smp_image"
  "smp-long-swap flash F0:DF:00:00:03:03 mcumgr_smp_device.py:--swap-ms-per-kib=220 $smp_sha confirmed=true | --profile mcumgr-smp $smp_image"
  "smp-resume flash F0:DF:00:00:03:02 mcumgr_smp_device.py:--disconnect-after=20000 $smp_sha | --profile mcumgr-smp $smp_image"
  "legacy-prn10 flash F0:DF:00:00:04:01 nordic_legacy_dfu_device.py:--inactivity-timeout-s=900 $legacy_sha running=application | --profile nordic-legacy-dfu $legacy_pkg --set prn=10"
  "legacy-prn12 flash F0:DF:00:00:04:11 nordic_legacy_dfu_device.py:--inactivity-timeout-s=900 $legacy_sha running=application | --profile nordic-legacy-dfu $legacy_pkg --set prn=12"
  "legacy-restart flash F0:DF:00:00:04:21 nordic_legacy_dfu_device.py:--disconnect-after=50000:--inactivity-timeout-s=900 $legacy_sha running=application | --profile nordic-legacy-dfu $legacy_pkg --set prn=10"
  "nordic-buttonless flash F0:DF:00:00:02:10 nordic_buttonless_device.py $nordic_sha | --profile nordic-secure-dfu $nordic_pkg"
  "vendor-encrypted flash F0:DF:00:00:01:06 vendor_ctrlpt_device.py:--require-encryption $vendor_sha | --profile $work/vendor-encrypted.yaml $work/app.zip"
  "vendor-unencrypted refused F0:DF:00:00:01:07 vendor_ctrlpt_device.py:--require-encryption - | --profile vendor-ctrlpt $work/app.zip"
  "batch-vendor batch F0:DF:00:00:01:04,F0:DF:00:00:01:05 vendor_ctrlpt_device.py $vendor_sha | --profile vendor-ctrlpt --package $work/app.zip --concurrency 2"
  "radios-smp radios F0:DF:00:00:03:11,F0:DF:00:00:03:12,F0:DF:00:00:03:13,F0:DF:00:00:03:14 mcumgr_smp_device.py $smp_sha confirmed=true | --profile mcumgr-smp --package $smp_image -j 2"
  "adapter-errors adapter-errors - - - |"
)
if [ -n "${KERNEL_CASES:-}" ]; then   # e.g. KERNEL_CASES="att-mtu-vendor nordic-flash"
    selected=(); for c in "${cases[@]}"; do [[ " $KERNEL_CASES " == *" ${c%% *} "* ]] && selected+=("$c"); done
    cases=("${selected[@]}")
fi
cat > "$results/guest-env.sh" <<ENV
REPO=$PWD
DFUKIT=$dfukit
ATT_CLIENT=$att_client
CASE_TIMEOUT=${CASE_TIMEOUT:-60}
ENV
: > "$results/cases.txt"

# 5. The bridge and one fresh peripheral per case.
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done; wait 2>/dev/null; }
trap cleanup EXIT
sock=$vm/hci.sock; sock1=$vm/hci1.sock; rm -f "$sock" "$sock1"
port=$((7600 + RANDOM % 300))
transports=("unix-server:$sock" "unix-server:$sock1")   # the guest's hci0 and hci1
# One controller (and tcp port) per peripheral, two for a buttonless application (its
# bootloader advertises from a second one); a case's PEER may list several peripherals.
controllers() { [[ $1 == *buttonless* ]] && echo 2 || echo 1; }
peripherals=0
for c in "${cases[@]}"; do
    read -r _ _ peer script _ <<< "${c%%|*}"
    addresses=(); [ "$peer" = - ] || IFS=, read -r -a addresses <<< "$peer"   # -: no peripheral
    for _ in "${addresses[@]}"; do
        for _ in $(seq "$(controllers "$script")"); do
            transports+=("tcp-server:127.0.0.1:$((port + peripherals))"); peripherals=$((peripherals + 1))
        done
    done
done
"$PY" "$here/bumble-bridge.py" --kernel-controllers 2 "${transports[@]}" > "$results/bridge.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q ready "$results/bridge.log" && break; sleep 0.1; done
grep -q ready "$results/bridge.log" || die "bumble-bridge.py did not start: $(tail -3 "$results/bridge.log")"
next=0
for c in "${cases[@]}"; do
    read -r name kind peer script sha _ <<< "${c%%|*}"
    mkdir -p "$results/$name"
    IFS=: read -r -a options <<< "$script"; script=${options[0]}; options=("${options[@]:1}")
    addresses=(); [ "$peer" = - ] || IFS=, read -r -a addresses <<< "$peer"
    for address in "${addresses[@]}"; do
        extra=()
        [ "$(controllers "$script")" = 2 ] && extra=(--bootloader-transport "tcp-client:127.0.0.1:$((port + next + 1))")
        "$PY" "Tests/Bumble/$script" "${options[@]}" "${extra[@]}" --transport "tcp-client:127.0.0.1:$((port + next))" \
            --address "$address" --state-file "$results/$name/state-$address.json" \
            > "$results/$name/peripheral-$address.log" 2>&1 &
        pids+=($!); next=$((next + $(controllers "$script")))
    done
    echo "$name $kind $peer ${c#*|}" >> "$results/cases.txt"
done
sleep 1

# 6. One VM for all cases. The 17 cases took 175-190 s of VM on a 2-core builder (the SMP and
# legacy ones wait for the peers' reboots), 18 with vendor-record 182 s, 19 with radios-smp 201 s; the limit (VM_TIMEOUT, default 480 s, was 360 s
# before those cases) leaves room for slower machines.
echo "test-kernel: booting the VM for ${#cases[@]} cases (set-up took $(( $(date +%s) - start ))s)"
vm_start=$(date +%s)
QEMU_EXTRA="-chardev socket,id=bt,path=$sock -serial chardev:bt -chardev socket,id=bt1,path=$sock1 -serial chardev:bt1" \
    "$here/run-vm.sh" "$here/guest-cases.sh" "${VM_TIMEOUT:-480}" > "$results/console.log" 2>&1
vm_rc=$?
grep -a '^\[guest\]' "$results/console.log"
echo "test-kernel: VM exited (rc $vm_rc, guest script rc $(cat "$results/guest-rc" 2>/dev/null || echo none)) after $(( $(date +%s) - vm_start ))s"
cleanup; pids=()

# 7. Verdicts.
all_have() {   # SHA DIR PEERS: every peer's state file holds the sha256
    local address; IFS=, read -r -a list <<< "$3"
    for address in "${list[@]}"; do grep -q "$1" "$2/state-$address.json" 2>/dev/null || return 1; done
}
# The link the kernel granted (issue 14): DFUKit loaded a 7.5-15 ms interval through the
# management interface before connecting (the kernel's default is 30-50 ms) and read the
# controller's events on a raw HCI socket; Bumble's controller grants the shortest interval
# asked and keeps 27-byte LL payloads; the ATT MTU is the peer's 247.
link_granted() {
    python3 -c 'import json,sys
r = json.loads([l for l in open(sys.argv[1]) if l.startswith("{")][-1])["link"]
assert (r["source"], r["interval_ms"], r["latency"], r["mtu"], r["tx_octets"]) == ("kernel", 7.5, 0, 247, 27), r
assert (r["requested"]["interval_min_ms"], r["requested"]["interval_max_ms"], r["requested"]["mtu"]) == (7.5, 15, 517), r' "$1"
}
# replayed DIR --profile P PACKAGE [OPTION...]: a record case's recording, taken over the real
# kernel stack, replayed on the host as the device (sim:replay: DFUKit held to the same bytes in
# the same writes, on a virtual clock) must end verified, and profile verify against it must
# reproduce the session (exit 0). Prints why not and fails; outputs in replay.txt, verify.txt.
replayed() {
    local d=$1; shift
    local profile=$2 package=$3
    timeout 120 "$dfukit" flash --device "sim:replay?capture=$d/session.dfurec" "$@" --json > "$d/replay.txt" 2>&1
    local rc=$?
    grep -q '"status" *: *"verified"' "$d/replay.txt" ||
        { echo "the replay of its recording did not end verified (rc $rc, see replay.txt)"; return 1; }
    timeout 120 "$dfukit" profile verify "$profile" --against "$d/session.dfurec" --package "$package" "${@:4}" \
        > "$d/verify.txt" 2>&1 || { echo "profile verify against its recording exited $? (see verify.txt)"; return 1; }
    # btmon's own capture of the same session (btsnoop datalink 2001, written by BlueZ, a tool we
    # did not write): read by the profile, replayed and verified as the recording is.
    [ -s "$d/btmon.snoop" ] || { echo "btmon wrote no capture of the session"; return 1; }
    timeout 120 "$dfukit" capture inspect "$d/btmon.snoop" --profile "$profile" > "$d/inspect-btmon.txt" 2>&1 &&
        tail -1 "$d/inspect-btmon.txt" | grep -q '^the profile explains all [1-9]' ||
        { echo "capture inspect of btmon's capture: $(tail -1 "$d/inspect-btmon.txt")"; return 1; }
    timeout 120 "$dfukit" flash --device "sim:replay?capture=$d/btmon.snoop" "$@" --json > "$d/replay-btmon.txt" 2>&1
    grep -q '"status" *: *"verified"' "$d/replay-btmon.txt" ||
        { echo "the replay of btmon's capture did not end verified (see replay-btmon.txt)"; return 1; }
    timeout 120 "$dfukit" profile verify "$profile" --against "$d/btmon.snoop" --package "$package" "${@:4}" \
        > "$d/verify-btmon.txt" 2>&1 || { echo "profile verify against btmon's capture exited $? (see verify-btmon.txt)"; return 1; }
}
# radios_used DIR PEERS: a radios case flashed every peer, by hci0 and hci1 together, each radio
# flashing at least one and neither failing (dfukit's --json), and each peer's own log agrees:
# every connection it took came from the kernel controller of the radio dfukit started it on
# (C0, F0:F1:F2:F3:F4:00, is hci0; C1, :01, is hci1): no device on two radios. Prints what is
# wrong and fails.
radios_used() {
    python3 -c 'import json,re,sys
d, peers = sys.argv[1], sys.argv[2].split(",")
out = open(d + "/out.txt").read().splitlines()
s = json.loads([l for l in out if l.startswith("{")][-1])
r = s["radios"]
problems = []
if (s["devices"], s["succeeded"]) != (len(peers), len(peers)):
    problems.append("%d of %d devices flashed" % (s["succeeded"], len(peers)))
if [x["name"] for x in r] != ["hci0", "hci1"]: problems.append("radios %s, not hci0 and hci1" % [x["name"] for x in r])
problems += ["%s flashed none" % x["name"] for x in r if x["succeeded"] < 1]
problems += ["%s failed: %s" % (x["name"], x["failure"]) for x in r if x["failure"]]
started = {}
for line in out:
    m = re.match(r"([0-9A-F:]{17}): attempt \d+ started on (hci\d)$", line)
    if m: started.setdefault(m.group(1), set()).add(m.group(2))
for peer in peers:
    centrals = set(re.findall(r"connected to F0:F1:F2:F3:F4:0(\d)", open("%s/peripheral-%s.log" % (d, peer)).read()))
    said = started.get(peer, set())
    if len(said) != 1 or centrals != {n[-1] for n in said}:
        problems.append("%s: dfukit started it on %s, its log has connections from C%s" % (peer, sorted(said), sorted(centrals)))
print("; ".join(problems) or "ok: " + ", ".join("%s %d" % (x["name"], x["succeeded"]) for x in r)
      + " (each peer connected only from its radio'"'"'s controller)")
sys.exit(1 if problems else 0)' "$1" "$2" 2>&1
}
passed=0; failed=0
for c in "${cases[@]}"; do
    read -r name kind peer script sha state _ <<< "${c%%|*}"
    d=$results/$name; ok=0; why=""
    if [ ! -f "$d/rc" ]; then why="did not run (see console.log)"
    elif [ "$kind" = att-mtu ]; then
        grep -q 'Exchange MTU OK' "$d/out.txt" && [ "$(cat "$d/rc")" = 0 ] && ok=1 || why="no ATT Exchange MTU answer"
    elif [ "$kind" = scan ]; then
        listed=$(python3 -c 'import json,sys; print(" ".join(sorted(d["address"] for d in json.load(open(sys.argv[1]))["devices"])))' \
                 "$d/out.txt" 2>/dev/null)
        expected=$(for c2 in "${cases[@]}"; do read -r _ _ p2 s2 _ <<< "${c2%%|*}"
                   [[ $s2 == nordic_secure_* || $s2 == nordic_buttonless_* ]] && echo "$p2"; done |
                   sort | tr '\n' ' ' | sed 's/ $//')   # the legacy peers (service 1530) do not match
        [ "$(cat "$d/rc")" = 0 ] && [ "$listed" = "$expected" ] && ok=1 ||
            why="scan listed '${listed:-nothing}', expected '$expected' (rc $(cat "$d/rc"))"
    elif [ "$kind" = adapter-errors ]; then
        # each section: the message and exit status 69 (transport unavailable)
        section() { sed -n "/^## $1\$/,/^rc=/p" "$d/out.txt"; }
        section missing | grep -q 'bluez:hci7: HCIGETDEVINFO: no adapter hci7 (ENODEV)' && section missing | grep -q '^rc=69$' &&
        section unprivileged | grep -q 'mgmt Start Discovery: Permission Denied (0x14): not permitted: needs CAP_NET_ADMIN' &&
        section unprivileged | grep -q '^rc=69$' &&
        section down | grep -q 'adapter hci0 is down; run `btmgmt -i hci0 power on` (ENETDOWN)' && section down | grep -q '^rc=69$' &&
            ok=1 || why="an adapter error was not the one expected (see out.txt)"
    elif [ "$kind" = refused ]; then
        [ "$(cat "$d/rc")" != 0 ] && grep -q 'Insufficient Encryption' "$d/out.txt" && grep -q 'hint: .*security: medium' "$d/out.txt" && ! grep -q '"status" *: *"verified"' "$d/out.txt" &&
            [ ! -f "$d/state-$peer.json" ] && ok=1 || why="the flash was not refused for want of encryption (rc $(cat "$d/rc"))"
    elif [ "$kind" = batch ] && ! grep -q '"succeeded" *: *2' "$d/out.txt"; then why="the batch did not report 2 devices succeeded (rc $(cat "$d/rc"))"
    elif [ "$kind" = batch ] && ! grep -q '"devices" *: *2' "$d/out.txt"; then why="the batch did not flash exactly its 2 devices"
    elif [ "$kind" = radios ] && ! why=$(radios_used "$d" "$peer"); then why="over two radios: $why (rc $(cat "$d/rc"))"
    elif [[ $kind == flash || $kind == record ]] && ! grep -q '"status" *: *"verified"' "$d/out.txt"; then
        why="dfukit did not end verified (rc $(cat "$d/rc"))"
    elif ! all_have "$sha" "$d" "$peer"; then why="a peripheral's state file lacks the image's sha256"
    elif [ "$kind" = record ] && [ ! -s "$d/session.dfurec" ]; then why="no recording came back from the guest"
    elif [ "$kind" = record ] && ! why=$(replayed "$d" ${c#*|}); then :   # why: what did not replay
    elif [ -n "$state" ] && ! all_have "\"${state%%=*}\": *\"\?${state#*=}\"\?[,}]" "$d" "$peer"; then
        why="the peripheral's state file does not say ${state%%=*} = ${state#*=}: $(cat "$d/state-$peer.json")"
    elif [[ $name == *-resume ]] && ! grep -q '"resumes" *: *[1-9]' "$d/out.txt"; then why="no resume reported"
    elif [ "$name" = vendor-flash ] && ! link_granted "$d/out.txt"; then
        why="the link is not the one asked for and granted: $(grep -m1 '^link: ' "$d/out.txt")"
    else ok=1; fi
    if [ $ok = 1 ]; then
        passed=$((passed + 1)); echo "ok: $name ($(cat "$d/seconds")s in the guest)"
        [[ $kind == flash || $kind == record ]] && echo "    granted: $(grep -m1 '^link: ' "$d/out.txt")"
        [ "$kind" = radios ] && echo "    radios: $(radios_used "$d" "$peer")"
        [ "$kind" = record ] && echo "    replayed on the host: $(tail -1 "$d/verify.txt")" &&
            echo "    btmon's capture: $(tail -1 "$d/inspect-btmon.txt"); $(tail -1 "$d/verify-btmon.txt")"
        [ "${KEEP_CAPTURES:-0}" = 1 ] || rm -f "$d/btmon.snoop" "$d/session.dfurec"
    else
        failed=$((failed + 1)); echo "FAILED: $name: $why"
        tail -5 "$d/out.txt" 2>/dev/null | sed 's/^/    /'
        # btmon 5.66 -r sometimes crashes on Bumble's LE Connection Complete; the .snoop stays
        [ -f "$d/btmon.snoop" ] && bash -c 'btmon -r "$1" > "$2" 2>&1' _ "$d/btmon.snoop" "$d/btmon.txt" 2>/dev/null
        echo "    logs and btmon capture: $d"
    fi
done
echo "test-kernel: $(( $(date +%s) - start ))s in all"
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
