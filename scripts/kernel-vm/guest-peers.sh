#!/bin/bash
# Guest side of `make bench-peers` (run by guest-init.sh). Brings the bridged controller up as
# hci0 (btattach, as guest-cases.sh does), starts the system D-Bus and bluetoothd from the host
# root (smpmgr's bleak talks to BlueZ over D-Bus; dfukit's bluez: transport uses the kernel's
# sockets and the management interface, beside the same bluetoothd), then per line of
# /mnt/work/results/runs.txt
#   CLIENT RUN ADDRESS       CLIENT: smpmgr or dfukit; one fresh Bumble SMP peer per run
# uploads the image as that client's users do and reads the image list afterwards:
#   smpmgr --ble ADDRESS upgrade --confirm IMAGE, then smpmgr --ble ADDRESS image state-read
#   dfukit flash --device bluez:hci0/ADDRESS --profile mcumgr-smp IMAGE --json (upload, test,
#   reset, confirm), then dfukit smp image list
# Each run's output goes to results/CLIENT-RUN/ (out.txt, dfukit's out.json, list.txt, rc,
# seconds);
# the host judges the confirmations; the upload times come from the peers (their state files).
R=/mnt/work/results
. $R/guest-env.sh          # REPO, DFUKIT, SMPMGR, IMAGE, RUN_TIMEOUT, SMPMGR_TIMEOUT
cd "$REPO"
up() { cut -d' ' -f1 /proc/uptime; }
t0=$(up)
modprobe hci_uart || { echo "[guest] modprobe hci_uart failed"; exit 10; }
btattach -B /dev/ttyS1 -P h4 -S 115200 > $R/btattach.log 2>&1 &
for i in $(seq 1 60); do [ -e /sys/class/bluetooth/hci0 ] && break; sleep 0.5; done
[ -e /sys/class/bluetooth/hci0 ] || { echo "[guest] no hci0"; exit 11; }
timeout 20 btmgmt -i hci0 le on > $R/btmgmt.log 2>&1
# The system bus and bluetoothd of the host's Debian, with the guest's own /run (tmpfs) and
# /var/lib/bluetooth (the overlay's writable upper layer).
mkdir -p /run/dbus /var/lib/bluetooth && chmod 700 /var/lib/bluetooth
dbus-daemon --system --fork --nopidfile || { echo "[guest] dbus-daemon did not start"; exit 12; }
/usr/libexec/bluetooth/bluetoothd -n > $R/bluetoothd.log 2>&1 &
on_bus() {
    dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.bluez 2>/dev/null | grep -q 'boolean true'
}
for i in $(seq 1 60); do on_bus && break; sleep 0.5; done
on_bus || { echo "[guest] bluetoothd is not on the bus"; exit 13; }
timeout 20 btmgmt -i hci0 power on >> $R/btmgmt.log 2>&1
sleep 1
echo "[guest] hci0, D-Bus and bluetoothd up after $(echo "$(up) - $t0" | bc)s ($(bluetoothd --version 2>/dev/null || echo '?'))"
while read -r client run address; do
    [ -z "$client" ] && continue
    d=$R/$client-$run; mkdir -p $d
    # Every run starts from a freshly powered adapter: bluetoothd 5.66 can be left believing
    # the kernel still discovers after a scan's stop lands in a race (bluez/bluez issue 1554,
    # bleak issue 2021: "discovery state ... is stuck", then StartDiscovery and connects fail
    # with InProgress until the adapter is power cycled or bluetoothd restarted).
    timeout 20 btmgmt -i hci0 power off >> $R/btmgmt.log 2>&1
    timeout 20 btmgmt -i hci0 power on >> $R/btmgmt.log 2>&1
    sleep 1
    s=$(up)
    case $client in
        smpmgr) timeout $RUN_TIMEOUT $SMPMGR --ble $address --timeout $SMPMGR_TIMEOUT upgrade --confirm \
                    $IMAGE > $d/out.txt 2>&1; rc=$?
                echo $rc > $d/rc; echo "$(echo "$(up) - $s" | bc)" > $d/seconds
                # the device reboots and MCUboot swaps (about 5 s): smpmgr's scan waits for it
                timeout $RUN_TIMEOUT $SMPMGR --ble $address --timeout 20 image state-read > $d/list.txt 2>&1 ;;
        dfukit) timeout $RUN_TIMEOUT $DFUKIT flash --device bluez:hci0/$address --profile mcumgr-smp \
                    $IMAGE --json > $d/out.json 2> $d/out.txt; rc=$?
                echo $rc > $d/rc; echo "$(echo "$(up) - $s" | bc)" > $d/seconds
                timeout $RUN_TIMEOUT $DFUKIT smp image list --device bluez:hci0/$address --json > $d/list.txt 2> $d/list.err ;;
        *)      echo "unknown client $client" > $d/out.txt; echo 2 > $d/rc; echo 0 > $d/seconds ;;
    esac
    echo "[guest] $client run $run rc=$(cat $d/rc) in $(cat $d/seconds)s (with the image list: $(echo "$(up) - $s" | bc)s)"
done < $R/runs.txt
sync
