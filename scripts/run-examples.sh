#!/usr/bin/env bash
# Builds Examples/ (a package that uses DFUKit's library products by path, as another project
# would) with its own scratch path, .build/examples, and runs each example: its exit status and
# one line of its output must be the expected ones. Needs dfukit built (it makes the package the
# examples flash). Then README.md's library section as a new package (scripts/check-readme-library.sh).
# Arguments are passed to `swift build` of the main package to find its bin path.
# Ends with "examples: N passed, N failed (built in S s, ran in S s)".
set -uo pipefail
cd "$(dirname "$0")/.."
scratch=.build/examples
work=$scratch/run
started=$(date +%s)
swift build --package-path Examples --scratch-path "$scratch" || { echo "examples: the build failed"; exit 1; }
built=$(date +%s)
bin=$(swift build --package-path Examples --scratch-path "$scratch" --show-bin-path)
dfukit="$(swift build "$@" --show-bin-path)/dfukit"
[ -x "$dfukit" ] || { echo "examples: $dfukit is not built"; exit 1; }

rm -rf "$work"
mkdir -p "$work/packages" "$work/broken"
"$dfukit" package create --profile vendor-ctrlpt --version 1.0.0 --output "$work/packages/demo-app.zip" \
    firmware-samples/demo-app.hex >/dev/null || exit 1
cp firmware-samples/mcuboot/app-ecdsa-p256.bin firmware-samples/mcuboot/dfu_application.zip "$work/packages/"
cp "$work/packages/demo-app.zip" "$work/broken/"
# A package whose image no longer matches its manifest: one byte of the stored image flipped.
python3 - "$work/broken/demo-app.zip" <<'PY'
import sys, zipfile
path = sys.argv[1]
with zipfile.ZipFile(path) as z:
    entries = {name: z.read(name) for name in z.namelist()}
image = next(name for name in entries if name != "manifest.json")
data = bytearray(entries[image]); data[100] ^= 0xFF; entries[image] = bytes(data)
with zipfile.ZipFile(path, "w") as z:
    for name, data in entries.items(): z.writestr(name, data)
PY

passed=0
failed=0
# check NAME STATUS LINE -- COMMAND...: COMMAND exits with STATUS and prints LINE (a whole line).
check() {
    local name=$1 status=$2 line=$3
    shift 4
    local output
    output=$("$@" 2>&1)
    local got=$?
    if [ "$got" -eq "$status" ] && grep -qxF -- "$line" <<<"$output"; then
        passed=$((passed + 1))
        echo "example $name: ok (exit $got, printed '$line')"
    else
        failed=$((failed + 1))
        echo "example $name: FAILED: expected exit $status and the line '$line'; got exit $got and:"
        sed 's/^/    /' <<<"$output"
    fi
}

check flash-simulated 0 "verified: 49152 bytes, 0 resume(s)" -- "$bin/flash-simulated" "$work/packages/demo-app.zip"
check flash-simulated-resume 0 "verified: 49152 bytes, 1 resume(s)" -- \
    "$bin/flash-simulated" "$work/packages/demo-app.zip" "sim:vendor-ctrlpt?fault=disconnect-after:16000"
check verify-packages 0 "3 of 3 packages intact" -- "$bin/verify-packages" "$work/packages"
check verify-packages-broken 1 "0 of 1 packages intact" -- "$bin/verify-packages" "$work/broken"
check batch-two 0 "2 device(s): 2 flashed, 0 failed, 0 skipped" -- "$bin/batch-two" "$work/packages/demo-app.zip"
check readme-example 0 'verified: the device holds ["installed"]' -- \
    "$bin/readme-example" "$work/packages/demo-app.zip"
# README.md's "Use DFUKit from Swift" as a new package: its Package.swift and main.swift blocks,
# loaded as written, then built with this scratch path (last: it builds another root package here).
check readme-library 0 'verified: the device holds ["installed"]' -- \
    scripts/check-readme-library.sh "$work/packages/demo-app.zip"

finished=$(date +%s)
echo "examples: $passed passed, $failed failed (built in $((built - started)) s, ran in $((finished - built)) s)"
[ "$failed" -eq 0 ]
