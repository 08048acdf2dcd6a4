#!/usr/bin/env python3
"""Writes Renesas/Dialog SUOTA images (firmware-samples/dialog/*.img) from the published format,
as Dialog's `mkimage single` makes them for DA14580/585/586/531 applications (SDK 5 and 6):
a 64-byte little-endian header, then the code. Sources: mkimage.c `create_single_image` and
image.h `struct image_header` (MKIMAGE_VERSION 1.11); the fields, per /work/research/dialog-suota.md:

    0  signature   'p' 'Q' (0x70 0x51)
    2  valid_flag  0xAA
    3  image_id    0xFF
    4  code_size   u32: bytes of code after the header
    8  CRC         u32: CRC-32 (zlib) of the code
   12  version     16 bytes: the version string, NUL-terminated, then 0xFF
   28  timestamp   u32: seconds since 1970 (mktime of SDK_VERSION_DATE)
   32  flags       0x01 when the code is AES-encrypted (IMG_ENCRYPTED); 0 here
   33  reserved    31 bytes of 0xFF

The code is seeded pseudo-random bytes (no vendor binary), so every run writes the same files.

    firmware-samples/make-suota-samples.py            # every sample below
    firmware-samples/make-suota-samples.py --code-size N --version V [--seed S] [--timestamp T] OUT
                                                       # one image (the Bumble tests make big ones)

Samples (the SUOTA client sends the file plus one XOR byte, so a file of N bytes is N + 1
bytes on the wire; the apps' default block is 240 bytes):
  app-v1.img            5,000 bytes of code, version 1.0.0: a valid image
  app-v2.img            12,345 bytes of code, version 1.1.0, a later timestamp: the update
  block-minus-one.img   file 478 bytes: 479 on the wire, one byte short of two 240-byte blocks
  block-exact.img       file 479 bytes: 480 on the wire, exactly two blocks
  block-plus-one.img    file 480 bytes: 481 on the wire, a third block of one byte
  damaged-crc.img       app-v1.img with one code byte flipped after the CRC was computed
  truncated.img         app-v1.img without its last 100 bytes
"""
import argparse
import os
import random
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "dialog")
HEADER_SIZE = 64
# 2024-05-01 12:00:00 UTC and 2024-06-01 12:00:00 UTC
TIMESTAMP_V1 = 1714564800
TIMESTAMP_V2 = 1717243200


def header(code: bytes, version: str, timestamp: int, flags: int = 0) -> bytes:
    """The 64-byte `struct image_header`, filled as `create_single_image` fills it."""
    encoded = version.encode("ascii")
    if len(encoded) > 15:
        raise SystemExit("the version must fit in 15 bytes (snprintf into 16 leaves room for the NUL)")
    version_field = encoded + b"\x00" + b"\xff" * (16 - len(encoded) - 1)
    fields = struct.pack("<2sBBII16sIB", b"pQ", 0xAA, 0xFF, len(code), zlib.crc32(code) & 0xFFFFFFFF,
                         version_field, timestamp, flags)
    return fields + b"\xff" * (HEADER_SIZE - len(fields))


def code(size: int, seed: int) -> bytes:
    generator = random.Random(seed)
    return bytes(generator.getrandbits(8) for _ in range(size))


def image(code_size: int, version: str, seed: int, timestamp: int) -> bytes:
    body = code(code_size, seed)
    return header(body, version, timestamp) + body


def write(name: str, data: bytes) -> None:
    with open(os.path.join(OUT, name), "wb") as handle:
        handle.write(data)


def all_samples() -> None:
    os.makedirs(OUT, exist_ok=True)
    v1 = image(5000, "1.0.0", 5000, TIMESTAMP_V1)
    write("app-v1.img", v1)
    write("app-v2.img", image(12345, "1.1.0", 12345, TIMESTAMP_V2))
    for name, file_size in [("block-minus-one.img", 478), ("block-exact.img", 479), ("block-plus-one.img", 480)]:
        write(name, image(file_size - HEADER_SIZE, "1.0.1", file_size, TIMESTAMP_V1))
    damaged = bytearray(v1)
    damaged[HEADER_SIZE + 1234] ^= 0x01
    write("damaged-crc.img", bytes(damaged))
    write("truncated.img", v1[:-100])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--code-size", type=int, help="bytes of code (one image)")
    parser.add_argument("--version", default="1.0.0", help="version string (at most 15 characters)")
    parser.add_argument("--seed", type=int, help="seed of the code bytes (default: the code size)")
    parser.add_argument("--timestamp", type=int, default=TIMESTAMP_V1, help="seconds since 1970")
    parser.add_argument("output", nargs="?", help="the image file to write (one image)")
    args = parser.parse_args()
    if args.code_size is None:
        all_samples()
        return
    if not args.output:
        parser.error("one image needs an output path")
    seed = args.seed if args.seed is not None else args.code_size
    with open(args.output, "wb") as handle:
        handle.write(image(args.code_size, args.version, seed, args.timestamp))


if __name__ == "__main__":
    main()
