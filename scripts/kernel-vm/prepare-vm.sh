#!/usr/bin/env bash
# prepare-vm.sh PACKAGE...: what every run of the kernel VM needs on the host, shared by
# make test-kernel and make bench-peers: the Debian packages named (installed when missing,
# with sudo unless root), Debian's guest kernel (prepare-kernel.sh) and the busybox initramfs,
# rebuilt when its sources are newer. Prints what failed and exits non-zero.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
vm=.build/kernel-vm

missing=()
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
        { echo "apt-get install failed"; exit 1; }
fi

"$here/prepare-kernel.sh" || { echo "no guest kernel"; exit 1; }
if [ ! -f "$vm/initramfs.cpio.gz" ] || [ "$here/initramfs-init" -nt "$vm/initramfs.cpio.gz" ] ||
   [ "$here/build-initramfs.sh" -nt "$vm/initramfs.cpio.gz" ]; then
    "$here/build-initramfs.sh" >/dev/null || { echo "initramfs build failed"; exit 1; }
fi
