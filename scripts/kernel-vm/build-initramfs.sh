#!/usr/bin/env bash
# Builds .build/kernel-vm/initramfs.cpio.gz: busybox + the virtio/9p/overlay modules of the kernel
# in .build/kernel-vm/kroot (prepare-kernel.sh) + initramfs-init. About 1.5 MB, a second.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.."
modroot=$PWD/.build/kernel-vm/kroot
version=$(ls "$modroot/lib/modules" | sort -V | tail -1)
out=$PWD/.build/kernel-vm/initramfs.cpio.gz
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir -p "$w"/{bin,dev,proc,sys,newroot,lower,upper,mods}
cp /bin/busybox "$w/bin/busybox"
for a in sh mount umount mkdir insmod switch_root echo cat sleep poweroff ls; do ln -s busybox "$w/bin/$a"; done
for m in virtio_pci 9pnet_virtio 9p overlay; do
    modprobe -d "$modroot" -S "$version" --show-depends $m | awk '/^insmod/{print $2}'
done | awk '!seen[$0]++' > "$w/modlist"
: > "$w/mods/order"
while read -r p; do
    b=$(basename "$p"); cp "$p" "$w/mods/$b"
    case $b in *.xz) xz -d "$w/mods/$b"; b=${b%.xz};; *.zst) zstd -qd --rm "$w/mods/$b"; b=${b%.zst};; esac
    echo "$b" >> "$w/mods/order"
done < "$w/modlist"
cp "$here/initramfs-init" "$w/init"; chmod +x "$w/init"
(cd "$w" && find . | cpio -o -H newc --quiet | gzip -1 > "$out")
echo "build-initramfs: $out ($(du -h "$out" | cut -f1)), modules: $(tr '\n' ' ' < "$w/mods/order")"
