#!/usr/bin/env bash
# Usage: run-vm.sh GUEST_SCRIPT [TIMEOUT_S]
# Boots the kernel in .build/kernel-vm/kroot (prepare-kernel.sh) in qemu with TCG, the host root
# as a read-only 9p overlay (so host binaries run unchanged in the guest) and .build/kernel-vm
# read-write at /mnt/work; runs GUEST_SCRIPT (an absolute host path, the same in the guest) through
# guest-init.sh, which writes /mnt/work/results/guest-rc and powers off. Always under `timeout`.
# QEMU_EXTRA adds qemu options (the bridged controller's UART).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
vm=$(cd "$here/../.." && pwd)/.build/kernel-vm
script=${1:?guest script}; limit=${2:-300}
version=${KVER:-$(ls "$vm/kroot/lib/modules" | sort -V | tail -1)}
kernel=${KERNEL:-$vm/kroot/boot/vmlinuz-$version}
# /dev/kvm on our builders is a paravirtual KVM that cannot boot stock kernels: TCG by default.
accel=${ACCEL:-tcg}
exec timeout --foreground -k 5 "$limit" qemu-system-x86_64 \
  -accel "$accel" -cpu "${CPU:-max}" -smp "${SMP:-2}" -m 1024 -M q35 \
  -nographic -nodefaults -no-reboot -serial stdio \
  -kernel "$kernel" -initrd "$vm/initramfs.cpio.gz" \
  -append "console=ttyS0 ${KAPPEND:-quiet loglevel=4} panic=-1 ginit=$here/guest-init.sh gscript=$script" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
  -virtfs local,path="$vm",mount_tag=work,security_model=none,multidevs=remap ${QEMU_EXTRA:-}
