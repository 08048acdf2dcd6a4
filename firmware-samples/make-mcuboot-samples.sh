#!/usr/bin/env bash
# Regenerates firmware-samples/mcuboot/ with MCUboot's own `imgtool` (PyPI imgtool 2.5.0), so that
# DFUKit's MCUboot tests run against images the real tool made.
#
#   app-unsigned.bin        no key: only the SHA256 TLV
#   app-ecdsa-p256.bin      -k ecdsa-p256: SHA256, KEYHASH, ECDSASIG (DER) TLVs
#   app-ed25519.bin         -k ed25519:    SHA256, KEYHASH, ED25519 TLVs
#   app-protected-tlvs.bin  -k ecdsa-p256 with a protected TLV area: SEC_CNT (--security-counter),
#                           BOOT_RECORD (--boot-record) and a vendor TLV 0x01a0 (--custom-tlv,
#                           the one TLV whose 16-bit type imgtool writes as such); ROM_FIXED flag
#   app-ecdsa-p384.bin      -k ecdsa-p384: SHA384 (imgtool pairs P-384 with SHA-384), KEYHASH
#                           (SHA-384 of the key), ECDSASIG TLVs
#   app-rsa-2048.bin        -k rsa-2048:   SHA256, KEYHASH (of the PKCS#1 key), RSA2048 (PSS) TLVs
#   app-rsa-3072.bin        -k rsa-3072:   SHA256, KEYHASH, RSA3072 (PSS) TLVs
#   app-encrypted-ecdsa-p256.bin  -k ecdsa-p256 -E (an EC P-256 key): ENCRYPTED_AES128 flag, ENCEC256
#                           TLV; hash and signature cover the plaintext
#   app-encrypted-ed25519.bin     -k ed25519 -E (an X25519 key): ENCX25519 TLV; Ed25519 signs the
#                           (plaintext) digest, so the signature is checkable against the TLV
#   app-ecdsa-p256.hex      the ecdsa payload signed again as Intel HEX at 0xC000 (--hex-addr), as
#                           Zephyr's zephyr.signed.hex
#   dfu_application.zip     app-ecdsa-p256.bin as app_update.bin with a manifest.json in the
#                           layout of nRF Connect SDK's scripts/bootloader/generate_zip.py
#   imgtool-dumpinfo.txt    what `imgtool dumpinfo` reads back (the tests' expected values)
#
# Payloads are random bytes from a fixed seed, so sizes and hashes repeat on every run; the keys
# are made anew on each run (throwaway test keys, committed on purpose: never use them on a real
# device). After regenerating, update the pinned values in Tests/DFUPackageTests/MCUbootImageTests.swift.
#
# Usage: firmware-samples/make-mcuboot-samples.sh   (network access to PyPI for the first run)
set -euo pipefail
cd "$(dirname "$0")/mcuboot"

IMGTOOL_VENV=${IMGTOOL_VENV:-/tmp/imgtool-venv}
if [ ! -x "$IMGTOOL_VENV/bin/imgtool" ]; then
    python3 -m venv "$IMGTOOL_VENV"
    "$IMGTOOL_VENV/bin/pip" install -q imgtool==2.5.0
fi
IMGTOOL="$IMGTOOL_VENV/bin/imgtool"
PYTHON="$IMGTOOL_VENV/bin/python"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

"$PYTHON" - "$WORK" <<'PY'
import random, sys
work = sys.argv[1]
rng = random.Random(20250301)
for name, size in [("unsigned", 30 * 1024 + 12), ("ecdsa", 40 * 1024), ("ed25519", 36 * 1024 + 100),
                   ("protected", 33 * 1024 + 4), ("p384", 20 * 1024 + 8), ("rsa2048", 24 * 1024 + 40),
                   ("rsa3072", 22 * 1024), ("encrypted-ecdsa", 12 * 1024 + 16), ("encrypted-ed25519", 10 * 1024)]:
    open(f"{work}/{name}.bin", "wb").write(bytes(rng.getrandbits(8) for _ in range(size)))
PY

rm -f ./*.bin ./*.hex ./*.pem ./*.zip ./*.txt
# Throwaway test keys: never use them for real devices.
for key in ecdsa-p256 wrong-ecdsa-p256; do
    "$IMGTOOL" keygen -k "$key-THROWAWAY.pem" -t ecdsa-p256
    "$IMGTOOL" getpub -k "$key-THROWAWAY.pem" -e pem > "$key-THROWAWAY.pub.pem"
done
for key in ed25519 wrong-ed25519; do
    "$IMGTOOL" keygen -k "$key-THROWAWAY.pem" -t ed25519
    "$IMGTOOL" getpub -k "$key-THROWAWAY.pem" -e pem > "$key-THROWAWAY.pub.pem"
done
for key in ecdsa-p384 rsa-2048 rsa-3072; do
    "$IMGTOOL" keygen -k "$key-THROWAWAY.pem" -t "$key"
    "$IMGTOOL" getpub -k "$key-THROWAWAY.pem" -e pem > "$key-THROWAWAY.pub.pem"
done

COMMON=(--header-size 0x200 --pad-header --align 4 --slot-size 0x40000 --version 1.2.3+4)
"$IMGTOOL" sign "${COMMON[@]}" "$WORK/unsigned.bin" app-unsigned.bin
"$IMGTOOL" sign "${COMMON[@]}" -k ecdsa-p256-THROWAWAY.pem "$WORK/ecdsa.bin" app-ecdsa-p256.bin
"$IMGTOOL" sign "${COMMON[@]}" -k ed25519-THROWAWAY.pem "$WORK/ed25519.bin" app-ed25519.bin
"$IMGTOOL" sign "${COMMON[@]}" -k ecdsa-p384-THROWAWAY.pem "$WORK/p384.bin" app-ecdsa-p384.bin
"$IMGTOOL" sign "${COMMON[@]}" -k rsa-2048-THROWAWAY.pem "$WORK/rsa2048.bin" app-rsa-2048.bin
"$IMGTOOL" sign "${COMMON[@]}" -k rsa-3072-THROWAWAY.pem "$WORK/rsa3072.bin" app-rsa-3072.bin
"$IMGTOOL" sign "${COMMON[@]}" --hex-addr 0xC000 -k ecdsa-p256-THROWAWAY.pem "$WORK/ecdsa.bin" app-ecdsa-p256.hex
# Encryption keys are the device's; these throwaway ones are not kept.
"$IMGTOOL" keygen -k "$WORK/enc-ec256.pem" -t ecdsa-p256
"$IMGTOOL" keygen -k "$WORK/enc-x25519.pem" -t x25519
"$IMGTOOL" sign "${COMMON[@]}" -k ecdsa-p256-THROWAWAY.pem -E "$WORK/enc-ec256.pem" "$WORK/encrypted-ecdsa.bin" \
    app-encrypted-ecdsa-p256.bin
"$IMGTOOL" sign "${COMMON[@]}" -k ed25519-THROWAWAY.pem -E "$WORK/enc-x25519.pem" "$WORK/encrypted-ed25519.bin" \
    app-encrypted-ed25519.bin
"$IMGTOOL" sign --header-size 0x200 --pad-header --align 4 --slot-size 0x40000 --version 2.0.1+77 \
    --rom-fixed 0x10000 --security-counter 7 --boot-record app --custom-tlv 0x1a0 0xcafe0001 \
    -k ecdsa-p256-THROWAWAY.pem "$WORK/protected.bin" app-protected-tlvs.bin

# dfu_application.zip as nRF Connect SDK's sysbuild writes it (generate_zip.py): values given as
# key=value stay strings, 0x-prefixed ones become integers.
cp app-ecdsa-p256.bin "$WORK/app_update.bin"
"$PYTHON" - "$WORK/app_update.bin" dfu_application.zip <<'PY'
import json, os, sys, zipfile
image, output = sys.argv[1], sys.argv[2]
manifest = {
    "format-version": 1,
    "time": 1740787200,
    "name": "dfukit-sample",
    "files": [{
        "type": "application",
        "board": "nrf52840dk/nrf52840",
        "soc": "nrf52840",
        "load_address": 0xC200,
        "image_index": "0",
        "slot_index_primary": "1",
        "slot_index_secondary": "2",
        "version_MCUBOOT": "1.2.3+4",
        "size": os.path.getsize(image),
        "file": "app_update.bin",
        "modtime": 1740787200,
    }],
}
with zipfile.ZipFile(output, "w") as archive:
    archive.writestr("manifest.json", json.dumps(manifest, indent=4))
    archive.write(image, "app_update.bin")
PY

{
    "$IMGTOOL" version
    for image in app-unsigned.bin app-ecdsa-p256.bin app-ed25519.bin app-protected-tlvs.bin app-ecdsa-p384.bin \
                 app-rsa-2048.bin app-rsa-3072.bin app-encrypted-ecdsa-p256.bin app-encrypted-ed25519.bin; do
        echo "== imgtool dumpinfo $image"
        "$IMGTOOL" dumpinfo "$image"
    done
    for pair in "app-ecdsa-p256.bin ecdsa-p256" "app-ed25519.bin ed25519" "app-protected-tlvs.bin ecdsa-p256" \
                "app-ecdsa-p384.bin ecdsa-p384" "app-rsa-2048.bin rsa-2048" "app-rsa-3072.bin rsa-3072"; do
        set -- $pair
        echo "== imgtool verify -k $2-THROWAWAY.pem $1"
        "$IMGTOOL" verify -k "$2-THROWAWAY.pem" "$1"
        echo "== imgtool getpubhash -k $2-THROWAWAY.pem"
        "$IMGTOOL" getpubhash -k "$2-THROWAWAY.pem"
    done
} > imgtool-dumpinfo.txt 2>&1
ls -l
