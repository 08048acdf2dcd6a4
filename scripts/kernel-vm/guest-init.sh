#!/bin/bash
# PID 1 in the guest after switch_root: runs gscript= from the kernel command line, writes its exit
# status to /mnt/work/results/guest-rc, powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
# /tmp stays the overlay's (writable, and showing the host's /tmp): the repository under test may
# live there, as CI's clones do.
mount -t tmpfs tmpfs /run; mkdir -p /dev/pts; mount -t devpts devpts /dev/pts
hostname kernel-vm
# the modules of the unpacked kernel (prepare-kernel.sh), not the host's
if [ -d /mnt/work/kroot/lib/modules/$(uname -r) ]; then
  mkdir -p /lib/modules && mount --bind /mnt/work/kroot/lib/modules /lib/modules
fi
echo "[guest] up at $(cut -d' ' -f1 /proc/uptime)s, kernel $(uname -r)"
GS=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^gscript=//p')
rc=0
if [ -n "$GS" ]; then bash "$GS"; rc=$?; fi
echo "[guest] script rc=$rc at $(cut -d' ' -f1 /proc/uptime)s"
mkdir -p /mnt/work/results; echo $rc > /mnt/work/results/guest-rc
sync
echo o > /proc/sysrq-trigger
sleep 10
