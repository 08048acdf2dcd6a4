#!/bin/bash
# Guest side of `make test-kernel` (run by guest-init.sh as PID 1's child). The Bumble controllers
# for the kernel live on the HOST (bumble-bridge.py), reached through ttyS1 and ttyS2 (qemu chardevs
# on the host's unix sockets); btattach makes them hci0 and hci1. Then, per line of
# /mnt/work/results/cases.txt
#   NAME KIND PEER [ARGS...]      KIND: att-mtu (the libbluetooth stand-in), flash, refused (a flash
#                                 that must fail), record (a flash that also records the session
#                                 with --record), scan, batch, radios (a batch over hci0 and hci1)
#                                 or adapter-errors (dfukit)
# it runs the case with btmon capturing to results/NAME/btmon.snoop, its output in
# results/NAME/out.txt and exit status in results/NAME/rc (a record case's recording in
# results/NAME/session.dfurec). The host judges the results (and replays the recordings).
R=/mnt/work/results
. $R/guest-env.sh          # REPO, DFUKIT, ATT_CLIENT, CASE_TIMEOUT
cd "$REPO"                 # the repository, read-only from the host (writes stay in the guest)
up() { cut -d' ' -f1 /proc/uptime; }
t0=$(up)
modprobe hci_uart || { echo "[guest] modprobe hci_uart failed"; exit 10; }
# One after the other, so that ttyS1 is hci0 and ttyS2 hci1.
for n in 0 1; do
    btattach -B /dev/ttyS$((n + 1)) -P h4 -S 115200 > $R/btattach-hci$n.log 2>&1 &
    for i in $(seq 1 60); do [ -e /sys/class/bluetooth/hci$n ] && break; sleep 0.5; done
    [ -e /sys/class/bluetooth/hci$n ] || { echo "[guest] no hci$n"; exit 11; }
done
btmon -w $R/btmon-setup.snoop > /dev/null 2>&1 & bm=$!
for n in 0 1; do
    timeout 20 btmgmt -i hci$n le on >> $R/btmgmt.log 2>&1
    timeout 20 btmgmt -i hci$n power on >> $R/btmgmt.log 2>&1
    hciconfig hci$n >> $R/btmgmt.log 2>&1
done
kill $bm; wait $bm 2>/dev/null
echo "[guest] hci0 and hci1 up after $(echo "$(up) - $t0" | bc)s"
while read -r name kind peer args; do
    [ -z "$name" ] || [ "${name#\#}" != "$name" ] && continue
    d=$R/$name; mkdir -p $d
    btmon -w $d/btmon.snoop > /dev/null 2>&1 & bm=$!
    sleep 0.2
    s=$(up)
    case $kind in
        att-mtu) timeout $CASE_TIMEOUT $ATT_CLIENT $peer random 517 > $d/out.txt 2>&1; rc=$? ;;
        flash|refused) timeout $CASE_TIMEOUT $DFUKIT flash --device bluez:hci0/$peer $args --json > $d/out.txt 2>&1; rc=$? ;;
        record)  # into the shared results directory: writes elsewhere stay in the guest's overlay
                 timeout $CASE_TIMEOUT $DFUKIT flash --device bluez:hci0/$peer $args --record $d/session.dfurec \
                     --json > $d/out.txt 2>&1; rc=$? ;;
        scan)    timeout $CASE_TIMEOUT $DFUKIT scan --device bluez:hci0 $args --json > $d/out.txt 2>&1; rc=$? ;;
        adapter-errors)   # the errors of issue 6 from the real kernel: no such adapter, no
                          # CAP_NET_ADMIN (user nobody), adapter powered off (then on again)
                 { echo "## missing"; timeout 20 $DFUKIT scan --device bluez:hci7 --seconds 1; echo "rc=$?"
                   echo "## unprivileged"
                   timeout 20 setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
                       $DFUKIT scan --device bluez:hci0 --seconds 1; echo "rc=$?"
                   echo "## down"; timeout 20 btmgmt -i hci0 power off > /dev/null
                   timeout 20 $DFUKIT scan --device bluez:hci0 --seconds 1; echo "rc=$?"
                   timeout 20 btmgmt -i hci0 power on > /dev/null; } > $d/out.txt 2>&1; rc=0 ;;
        batch)   echo "devices: [$peer]" > /tmp/$name-line.yaml   # PEER: the line's addresses, comma-separated
                 timeout $CASE_TIMEOUT $DFUKIT batch run /tmp/$name-line.yaml --device bluez:hci0 $args \
                     --ledger sqlite:/tmp/$name.sqlite --json > $d/out.txt 2>&1; rc=$? ;;
        radios)  # a station with two radios: every PEER heard by both adapters, each flashed by one
                 echo "devices: [$peer]" > /tmp/$name-line.yaml
                 timeout $((CASE_TIMEOUT * 2)) $DFUKIT batch run /tmp/$name-line.yaml --device bluez:hci0,hci1 $args \
                     --ledger sqlite:/tmp/$name.sqlite --json > $d/out.txt 2>&1; rc=$? ;;
        *)       echo "unknown kind $kind" > $d/out.txt; rc=2 ;;
    esac
    echo $rc > $d/rc
    echo "$(echo "$(up) - $s" | bc)" > $d/seconds
    sleep 0.3; kill $bm; wait $bm 2>/dev/null
    echo "[guest] $name rc=$rc in $(cat $d/seconds)s"
done < $R/cases.txt
sync
