#!/usr/bin/env bash
# Regenerates firmware-samples/nordic/ with Nordic's and Adafruit's own tools, so that DFUKit's
# Nordic package tests run against packages the real tools made.
#
#   nrfutil 6.1.7 (needs Python < 3.11; pyenv's 3.10) -> secure DFU packages (.zip with .bin + protobuf .dat)
#   adafruit-nrfutil                                  -> a legacy (SDK <= 11) package, dfu_version 0.5
#
# The firmware is random bytes from a fixed seed (no real SoftDevice or bootloader): the
# payloads, and so every size and hash, come out the same on every run. The signing keys are
# made anew each run (throwaway test keys, committed on purpose); after regenerating, update the
# expected signatures in Tests/DFUPackageTests/NordicSampleTests.swift if any test pins them.
#
# legacy-app-102400.zip is a legacy package whose image is exactly 102,400 bytes (its own seed):
# at ATT MTU 247 (244-byte packets) that is 420 packets, so with PRN 10 or 12 the last packet is
# also a receipt boundary, where an nRF5 SDK 11 bootloader sends no receipt (issue 10).
#
# Usage: firmware-samples/make-nordic-samples.sh [SAMPLE.zip ...]   (network access to PyPI
#        for the first run). Without arguments it makes every sample (new keys, so new
#        signatures); with names only those, e.g. `make-nordic-samples.sh legacy-app-102400.zip`
#        adds that one and leaves the others' bytes alone.
set -euo pipefail
cd "$(dirname "$0")/nordic"

PYTHON310=${PYTHON310:-/root/.pyenv/versions/3.10.13/bin/python}
NRFUTIL_VENV=${NRFUTIL_VENV:-/tmp/nrfutil-venv}
ADAFRUIT_VENV=${ADAFRUIT_VENV:-/tmp/adafruit-venv}

# A legacy package whose application is 102,400 bytes of random data from a fixed seed,
# packaged as the legacy-app.zip below is (application version and dev-rev left at 0xFFFF...,
# dev-type 0x0052, sd-req 0xFFFE: any SoftDevice).
make_legacy_102400() {
    local work
    work=$(mktemp -d)
    "$PYTHON310" - "$work/legacy-app-102400.bin" <<'PY'
import random, sys
rng = random.Random(102400)
open(sys.argv[1], "wb").write(bytes(rng.getrandbits(8) for _ in range(102400)))
PY
    rm -f legacy-app-102400.zip
    "$ADAFRUIT" dfu genpkg --application "$work/legacy-app-102400.bin" --dev-type 0x0052 --sd-req 0xFFFE \
        legacy-app-102400.zip
    rm -rf "$work"
}

ADAFRUIT="$ADAFRUIT_VENV/bin/adafruit-nrfutil"
if [ ! -x "$ADAFRUIT" ]; then
    "$PYTHON310" -m venv "$ADAFRUIT_VENV"
    "$ADAFRUIT_VENV/bin/pip" install -q adafruit-nrfutil
fi
if [ $# -gt 0 ]; then
    for sample in "$@"; do
        case $sample in
            legacy-app-102400.zip) make_legacy_102400 ;;
            *) echo "make-nordic-samples.sh: cannot make $sample alone (only legacy-app-102400.zip)" >&2; exit 64 ;;
        esac
    done
    ls -l "$@"
    exit 0
fi

if [ ! -x "$NRFUTIL_VENV/bin/nrfutil" ]; then
    "$PYTHON310" -m venv "$NRFUTIL_VENV"
    "$NRFUTIL_VENV/bin/pip" install -q nrfutil==6.1.7
fi
NRFUTIL="$NRFUTIL_VENV/bin/nrfutil"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

# Payloads: an application as Intel HEX at 0x26000 (where an app follows an S132 SoftDevice),
# a small fake "softdevice" and "bootloader" as .bin. intelhex comes with nrfutil.
"$NRFUTIL_VENV/bin/python" - "$WORK" <<'PY'
import random, sys
from intelhex import IntelHex
work = sys.argv[1]
rng = random.Random(20240611)
app = bytes(rng.getrandbits(8) for _ in range(24 * 1024 + 100))
ih = IntelHex()
ih.frombytes(app, offset=0x26000)
ih.write_hex_file(f"{work}/app.hex")
open(f"{work}/app.bin", "wb").write(app)
open(f"{work}/softdevice.bin", "wb").write(bytes(rng.getrandbits(8) for _ in range(12 * 1024)))
open(f"{work}/bootloader.bin", "wb").write(bytes(rng.getrandbits(8) for _ in range(6 * 1024 + 8)))
legacy = bytes(rng.getrandbits(8) for _ in range(20 * 1024 + 44))
ih = IntelHex()
ih.frombytes(legacy, offset=0x23000)
ih.write_hex_file(f"{work}/legacy-app.hex")
PY

rm -f ./*.zip ./*.pem   # legacy-app-102400.zip too: remade below
# Throwaway test keys: never use them for real devices.
"$NRFUTIL" keys generate test-signing-key-THROWAWAY.pem
"$NRFUTIL" keys display --key pk --format pem test-signing-key-THROWAWAY.pem > test-signing-key-THROWAWAY.pub.pem
"$NRFUTIL" keys generate wrong-key-THROWAWAY.pem
"$NRFUTIL" keys display --key pk --format pem wrong-key-THROWAWAY.pem > wrong-key-THROWAWAY.pub.pem

# 1. Unsigned application package.
"$NRFUTIL" pkg generate --hw-version 52 --application-version 3 --sd-req 0xB7 \
    --application "$WORK/app.hex" app-unsigned.zip
# 2. Signed application package.
"$NRFUTIL" pkg generate --hw-version 52 --application-version 0x010203 --sd-req 0xB7,0xCB \
    --application "$WORK/app.hex" --key-file test-signing-key-THROWAWAY.pem app-signed.zip
# 3. Signed SoftDevice + bootloader + application (nrfutil splits it into SD+BL and app images).
"$NRFUTIL" pkg generate --hw-version 52 --sd-req 0xFFFE --sd-id 0xB7 \
    --softdevice "$WORK/softdevice.bin" --bootloader "$WORK/bootloader.bin" --bootloader-version 2 \
    --application "$WORK/app.bin" --application-version 5 \
    --key-file test-signing-key-THROWAWAY.pem sd-bl-app-signed.zip
# 4. Signed bootloader alone.
"$NRFUTIL" pkg generate --hw-version 52 --sd-req 0xB7 --bootloader "$WORK/bootloader.bin" --bootloader-version 7 \
    --key-file test-signing-key-THROWAWAY.pem bootloader-signed.zip
# 5. Legacy (SDK <= 11) application package.
"$ADAFRUIT" dfu genpkg --application "$WORK/legacy-app.hex" --dev-type 0x0052 --sd-req 0xFFFE \
    legacy-app.zip
# 6. Legacy application package of exactly 102,400 bytes.
make_legacy_102400

# What nrfutil itself reads back: the expected values in Tests/DFUPackageTests/NordicSampleTests.swift.
for package in app-unsigned.zip app-signed.zip sd-bl-app-signed.zip bootloader-signed.zip; do
    "$NRFUTIL" pkg display "$package"
done > nrfutil-pkg-display.txt
ls -l
