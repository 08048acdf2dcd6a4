#!/usr/bin/env python3
"""Regenerates firmware-samples/silabs/*.gbl: Silicon Labs GBL3 files for the silabs-ota profile.

The GBL files are made by Silicon Labs' own tool, Simplicity Commander (`commander gbl create`),
as shipped inside the PyPI package `silabs-pycommander-cli` (its wheel carries the Commander CLI
archive). The script installs that package into .build/commander-venv with pip unless
`--commander PATH` or $COMMANDER names a commander executable already.

The application images it feeds Commander are seeded pseudo-random bytes laid out as a Cortex-M
application that Commander accepts: an initial SP and a reset vector, word 13 of the vector table
pointing at an `ApplicationProperties_t` (gecko_sdk platform/bootloader/api/application_properties.h:
magic, struct version 1.2, no signature, `ApplicationData_t` type / version / capabilities /
product id). Commander copies that `ApplicationData_t` into the GBL's application tag.

Files (application base 0x00006000):
  app-plain.gbl           6000-byte application, version 0x00010002
  app-metadata.gbl        the same with a metadata tag (`--metadata`)
  app-lz4.gbl             the same, program data LZ4-compressed (`--compress lz4`)
  app-signed.gbl          the same, signed with gbl-signing-key-THROWAWAY.pem (`--sign`)
  app-dependency.gbl      the same with a version dependency tag (`--dep-app geq:1`)
  app-version-3.gbl       a 4000-byte application, version 0x00010003
  app-size-2364.gbl       2440 bytes: exactly 10 writes of 244 (MTU 247) and 122 of 20 (MTU 23)
  app-size-2365.gbl       2444 bytes (Commander pads files with 0xFF to a multiple of 4)
  app-size-2360.gbl       2436 bytes: 9 full writes of 244 and a last one of 240
  app-bad-crc.gbl         app-plain.gbl with one program data byte flipped: the end tag CRC fails
  app-truncated.gbl       app-plain.gbl without its last 100 bytes: no end tag
  app-unknown-tag.gbl     app-plain.gbl with a tag no Gecko SDK 4.4 bootloader knows (0x12345678)
                          before the end tag, CRC recomputed: intact to a reader, refused by an
                          AppLoader (ATT error 0x84) after the program data overwrote the application
  not-a-gbl.gbl           a .gbl whose first tag is not the GBL header

Commander's signature is randomized ECDSA: re-running changes app-signed.gbl (still valid).
"""
import argparse
import glob
import os
import random
import shutil
import struct
import subprocess
import sys
import tarfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "silabs")
ROOT = os.path.dirname(HERE)
BASE = 0x00006000
PROPERTIES_OFFSET = 0x100
PROPERTIES_MAGIC = bytes([0x13, 0xB7, 0x79, 0xFA, 0xC9, 0x25, 0xDD, 0xB7,
                          0xAD, 0xF3, 0xCF, 0xE0, 0xF1, 0xB6, 0x14, 0xB8])
APPLICATION_TYPE_BLUETOOTH_APP = 1 << 5
PYCOMMANDER = "silabs-pycommander-cli==1.3.0"


def application(size: int, version: int, seed: int) -> bytes:
    """A pseudo-random application with a vector table and ApplicationProperties_t."""
    generator = random.Random(seed)
    data = bytearray(generator.getrandbits(8) for _ in range(size))
    struct.pack_into("<II", data, 0, 0x20008000, BASE + 0x201)  # initial SP, reset vector (Thumb)
    struct.pack_into("<I", data, 13 * 4, BASE + PROPERTIES_OFFSET)  # word 13: the properties
    properties = (PROPERTIES_MAGIC
                  + struct.pack("<III", 0x0201, 0, BASE + size)  # struct 1.2, no signature, end
                  + struct.pack("<III", APPLICATION_TYPE_BLUETOOTH_APP, version, 0)
                  + bytes(range(0x50, 0x60))  # product id
                  + struct.pack("<II", 0, 0)  # no certificate, no long token section
                  + bytes(16))  # no decryption key
    data[PROPERTIES_OFFSET:PROPERTIES_OFFSET + len(properties)] = properties
    return bytes(data)


def intel_hex(data: bytes, base: int) -> str:
    lines = []

    def record(kind: int, offset: int, payload: bytes) -> None:
        body = bytes([len(payload), (offset >> 8) & 0xFF, offset & 0xFF, kind]) + payload
        lines.append(":" + (body + bytes([(-sum(body)) & 0xFF])).hex().upper())

    upper = None
    for position in range(0, len(data), 16):
        address = base + position
        if address >> 16 != upper:
            upper = address >> 16
            record(0x04, 0, bytes([(upper >> 8) & 0xFF, upper & 0xFF]))
        record(0x00, address & 0xFFFF, data[position:position + 16])
    record(0x01, 0, b"")
    return "\n".join(lines) + "\n"


def find_commander(given: str) -> str:
    if given:
        return given
    venv = os.path.join(ROOT, ".build", "commander-venv")
    extracted = os.path.join(venv, "commander-cli", "commander-cli")
    if os.path.exists(extracted):
        return extracted
    if not os.path.exists(os.path.join(venv, "bin", "pip")):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet", PYCOMMANDER], check=True)
    archives = glob.glob(os.path.join(venv, "lib", "python3*", "site-packages", "pycommander_cli", "_archive",
                                      "Commander-cli_linux_x86_64_*.tar.bz"))
    if not archives:
        sys.exit(f"{PYCOMMANDER} carries no Commander archive for this platform")
    with tarfile.open(archives[0], "r:bz2") as archive:
        archive.extractall(venv)
    return extracted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commander", default=os.environ.get("COMMANDER", ""),
                        help="a Simplicity Commander executable (default: from silabs-pycommander-cli)")
    arguments = parser.parse_args()
    commander = find_commander(arguments.commander)
    os.makedirs(OUT, exist_ok=True)
    work = os.path.join(ROOT, ".build", "gbl-samples")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    def image(name: str, size: int, version: int, seed: int) -> str:
        path = os.path.join(work, name + ".hex")
        with open(path, "w") as handle:
            handle.write(intel_hex(application(size, version, seed), BASE))
        return path

    def create(name: str, app: str, *options: str) -> str:
        out = os.path.join(OUT, name)
        subprocess.run([commander, "gbl", "create", out, "--app", app, *options], check=True,
                       stdout=subprocess.DEVNULL)
        return out

    key = os.path.join(OUT, "gbl-signing-key-THROWAWAY.pem")
    if not os.path.exists(key):
        subprocess.run([commander, "util", "genkey", "--type", "ecc-p256", "--privkey", key,
                        "--pubkey", os.path.join(OUT, "gbl-signing-key-THROWAWAY.pub.pem"),
                        "--tokenfile", os.path.join(work, "tokens.txt")], check=True, stdout=subprocess.DEVNULL)

    plain = image("plain", 6000, 0x00010002, 20261201)
    metadata = os.path.join(work, "metadata.bin")
    with open(metadata, "wb") as handle:
        handle.write(b"dfukit sample metadata\n")
    plain_gbl = create("app-plain.gbl", plain)
    create("app-metadata.gbl", plain, "--metadata", metadata)
    create("app-lz4.gbl", plain, "--compress", "lz4")
    create("app-signed.gbl", plain, "--sign", key)
    create("app-dependency.gbl", plain, "--dep-app", "geq:1")
    create("app-version-3.gbl", image("version-3", 4000, 0x00010003, 20261202))
    for size in (2364, 2365, 2360):
        create(f"app-size-{size}.gbl", image(f"size-{size}", size, 0x00020000 + size, size))

    with open(plain_gbl, "rb") as handle:
        good = bytearray(handle.read())
    damaged = bytearray(good)
    damaged[0x100] ^= 0x01  # inside the program data
    with open(os.path.join(OUT, "app-bad-crc.gbl"), "wb") as handle:
        handle.write(damaged)
    with open(os.path.join(OUT, "app-truncated.gbl"), "wb") as handle:
        handle.write(good[:-100])
    end = len(good) - 12 - (len(good) % 4 and 0)
    while good[end:end + 4] != struct.pack("<I", 0xFC0404FC):
        end -= 1  # the end tag, before any 0xFF padding
    unknown = bytes(good[:end]) + struct.pack("<II", 0x12345678, 4) + b"\xA5\xA5\xA5\xA5" + struct.pack("<II", 0xFC0404FC, 4)
    unknown += struct.pack("<I", zlib.crc32(unknown))
    with open(os.path.join(OUT, "app-unknown-tag.gbl"), "wb") as handle:
        handle.write(unknown)
    with open(os.path.join(OUT, "not-a-gbl.gbl"), "wb") as handle:
        handle.write(struct.pack("<II", 0xE35050E3, 8) + bytes(8))  # GBL_IMAGE_MAGIC_WORD, not a tag


if __name__ == "__main__":
    main()
