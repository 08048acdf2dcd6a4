#!/usr/bin/env bash
# Installs the Debian packages DFUKit builds against, when any is missing (and the shells and
# groff the completion and man page tests run: zsh, fish, groff-base; python3-jsonschema, which
# checks every --json output against its published schema: scripts/check-json-schema.py).
# Runs as root, or through sudo otherwise.
set -euo pipefail
packages=(libzip-dev libcrypto++-dev libbluetooth-dev libyaml-dev libcbor-dev libsqlite3-dev libpq-dev libmicrohttpd-dev zlib1g-dev pkg-config python3 python3-jsonschema zsh fish groff-base binutils openssl)
missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
echo "installing: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
