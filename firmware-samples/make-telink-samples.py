#!/usr/bin/env python3
"""Regenerates the Telink OTA samples in telink/ (deterministic, no vendor binaries).

A Telink BLE SDK image, as the SDK's start-up code lays it out and its OTA server checks it
(research/telink-ota.md section 4): the vendor mark KNLT at offset 8, a u32 at 0x0C
(0x00880000 + RAM code size / 16), the file's size as a u32 at 0x18, and, with the SDK's
firmware check, 16n + 4 bytes whose last 4 are the CRC-32/JAMCRC (zlib's CRC-32 without the
final XOR) of the others, little-endian. The rest is seeded pseudo-random bytes standing in for
code, with "FWREV=<version>" at 0x20: the Firmware Revision String DFUKit's simulated Telink
device and Bumble peer report once the image runs (a real firmware has its own).

Valid images (what the device takes):
  app-v1.1.0.bin          16,388 bytes: 1024 packets of image + the CRC-32's packet (1025)
  app-v1.1.0.zip          fwupd's telink-dfu archive of it: manifest.json (format-version 0,
                          bootloader_type ota-v1, board 8208, image_version 1.1.0) + firmware.bin
  app-v1.2.0.bin          16,404 bytes (1026 packets)
  app-v1.3.0-48k.bin      49,156 bytes (3073 packets)
Damaged ones (refused before anything is sent; the device would refuse them too):
  damaged-crc.bin         app-v1.1.0.bin with one byte of code changed: the CRC-32 trailer fails
  no-mark.bin             no KNLT at offset 8 (OTA_FIRMWARE_MARK_ERR)
  wrong-size.bin          the size at 0x18 says 16 bytes more than the file has
"""
import io
import json
import os
import random
import struct
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'telink')
MARK = b'KNLT'


def jamcrc(data: bytes) -> int:
    """CRC-32/JAMCRC: the Telink SDK's crc32_half_cal from 0xFFFFFFFF, no final XOR."""
    return zlib.crc32(data) ^ 0xFFFFFFFF


def image(body_size: int, version: str, seed: int) -> bytes:
    """A valid image: `body_size` bytes (a multiple of 16) then the CRC-32 trailer."""
    assert body_size % 16 == 0 and body_size >= 0x40
    generator = random.Random(seed)
    body = bytearray(generator.getrandbits(8) for _ in range(body_size))
    body[0:8] = bytes([0x80, 0x06, 0, 0, 0, 0, 0, 0])  # tj __reset (placeholder), unused
    body[8:12] = MARK
    body[0x0C:0x10] = struct.pack('<I', 0x00880000 + 0x0C0)
    body[0x10:0x18] = bytes([0x80, 0x06, 0, 0, 0, 0, 0, 0])  # tj __irq (placeholder)
    body[0x18:0x1C] = struct.pack('<I', body_size + 4)
    body[0x1C:0x20] = bytes(4)
    revision = f'FWREV={version}'.encode() + b'\0'
    body[0x20:0x20 + len(revision)] = revision
    return bytes(body) + struct.pack('<I', jamcrc(bytes(body)))


def fwupd_archive(firmware: bytes, version: str) -> bytes:
    """fwupd's telink-dfu archive (plugins/telink-dfu/fu-telink-dfu-archive.c)."""
    manifest = {'format-version': 0, 'files': [{
        'file': 'firmware.bin', 'bootloader_type': 'ota-v1', 'board': '8208',
        'image_version': version, 'load_address': 0}]}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, 'w', zipfile.ZIP_DEFLATED) as archive:
        for name, data in (('manifest.json', json.dumps(manifest, indent=2).encode()), ('firmware.bin', firmware)):
            entry = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return buffer.getvalue()


def write(name: str, data: bytes) -> None:
    with open(os.path.join(OUT, name), 'wb') as handle:
        handle.write(data)


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    app = image(16384, '1.1.0', 20261201)
    write('app-v1.1.0.bin', app)
    write('app-v1.1.0.zip', fwupd_archive(app, '1.1.0'))
    write('app-v1.2.0.bin', image(16400, '1.2.0', 20261202))
    write('app-v1.3.0-48k.bin', image(49152, '1.3.0', 20261203))
    damaged = bytearray(app)
    damaged[0x1000] ^= 0x01
    write('damaged-crc.bin', bytes(damaged))
    no_mark = bytearray(image(16384, '1.1.0', 20261204))
    no_mark[8:12] = b'TLNK'
    no_mark[-4:] = struct.pack('<I', jamcrc(bytes(no_mark[:-4])))
    write('no-mark.bin', bytes(no_mark))
    wrong_size = bytearray(image(16384, '1.1.0', 20261205))
    wrong_size[0x18:0x1C] = struct.pack('<I', len(wrong_size) + 16)
    wrong_size[-4:] = struct.pack('<I', jamcrc(bytes(wrong_size[:-4])))
    write('wrong-size.bin', bytes(wrong_size))


if __name__ == '__main__':
    main()
