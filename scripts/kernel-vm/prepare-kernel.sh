#!/usr/bin/env bash
# Guest kernel + modules for `make test-kernel`, WITHOUT installing a kernel on the host (no
# update-initramfs, no bootloader hooks): apt-get download Debian's linux-image-amd64 target and
# dpkg -x it into .build/kernel-vm/kroot (about 10 s). Does nothing when kroot is already there.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.build/kernel-vm
if [ -n "$(ls "$out"/kroot/boot/vmlinuz-* 2>/dev/null)" ]; then exit 0; fi
mkdir -p "$out"
package=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
[ -n "$package" ] || { echo "prepare-kernel: no linux-image-amd64 in the apt lists (apt-get update?)" >&2; exit 1; }
rm -rf "$out/kroot" "$out/kdeb" && mkdir -p "$out/kdeb"
(cd "$out/kdeb" && apt-get download "$package" >/dev/null 2>&1) || { echo "prepare-kernel: apt-get download $package failed" >&2; exit 1; }
dpkg -x "$out"/kdeb/*.deb "$out/kroot"
rm -rf "$out/kdeb"
version=$(ls "$out/kroot/lib/modules" | sort -V | tail -1)
depmod -b "$out/kroot" "$version"
echo "prepare-kernel: $package ($version) in $out/kroot"
