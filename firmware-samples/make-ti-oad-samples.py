#!/usr/bin/env python3
"""Writes firmware-samples/ti/*.bin: TI OAD images for the BLE5-Stack (SimpleLink CC13xx/CC26xx
SDK), laid out as TI's oad_image_tool 2.1.2 leaves them. TI publishes no package of the tool
(nothing on PyPI), so this follows its published source (tools/common/oad/oad_image_tool.py,
imgBinUtil.py, computeCRC32.py) and the header definitions (source/ti/common/cc26xx/oad/
oad_image_header.h, source/ti/ble5stack/profiles/oad/cc26xx/oad_image_header_app.c):

- the 44-byte core header of an application (oad_image_header_app.c): imgID, crc32, bimVer 3,
  metaVer 1, techType 0xFFFE (BLE), imgCpStat and crcStat 0xFF, imgType, imgNo 1, imgVld
  0xFFFFFFFF, len, prgEntry, softVer, imgEndAddr, hdrLen 44, rfu 0xFFFF;
- segments (each: type u8, wirelessTech u16, rfu u8, len u32 counting the whole segment): a
  boundary segment (24 bytes) for a split application, then the contiguous image payload
  segment (startAddr u32, then the code) whose len runs to the end of the image;
- the image end padded to a whole word ("Pad end if it is not word aligned"), then
  imgBinUtil.updateImgLen: imgEndAddr, len = end - start + 1, the payload segment's len =
  len - the other segments and the core header;
- computeCRC32.computeCRC32: zlib's CRC-32 of the file from byte 12 (CRC_DATA_START_ADDR) to
  its end, written at byte 8, last.

The code is deterministic pseudo-random bytes. Run from the repository root:

    python3 firmware-samples/make-ti-oad-samples.py

Files (lengths chosen around the blocks a device asks for: a block carries MTU - 3 rounded
down to 4 bytes, at most 244, less the 4-byte block number; 240 data bytes at MTU 247, 176 at
185, 56 at 64, 16 at 23):
  oad-app-9604.bin         CC26x2R1, app + stack library (7), version 0002: 40 blocks of 240 + 4
  oad-app-9596.bin         the same type, version 0003: 39 blocks of 240 + 236
  oad-split-app-4800.bin   a split application (1) with a boundary segment: 20 blocks of 240
  oad-app-cc13x2r1.bin     imgID CC13x2R1: a CC26x2 device refuses it at Image Identify
  oad-app-damaged-crc.bin  oad-app-9604.bin with one code byte changed after the CRC was written
  oad-app-truncated.bin    the first 5000 bytes of oad-app-9604.bin (its len says 9604)
"""
import os
import random
import struct
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'ti')

IMG_TYPE_APP = 1
IMG_TYPE_APPSTACKLIB = 7
SEG_BOUNDARY, SEG_CONTIGUOUS = 0, 1
TECH_BLE = 0xFFFE
FIXED_HDR_LEN = 44
CRC_DATA_START_ADDR = 12
FIXED_CRC_ADDR = 8


def core_header(image_id: bytes, image_type: int, soft_ver: bytes, length: int, prg_entry: int,
                end_addr: int) -> bytes:
    """imgFixedHdr_t, packed little-endian; crc32 0xFFFFFFFF until the CRC is computed."""
    assert len(image_id) == 8 and len(soft_ver) == 4
    return struct.pack('<8sIBBHBBBBIII4sIHH', image_id, 0xFFFFFFFF, 3, 1, TECH_BLE, 0xFF, 0xFF, image_type, 1,
                       0xFFFFFFFF, length, prg_entry, soft_ver, end_addr, FIXED_HDR_LEN, 0xFFFF)


def boundary_segment(stack_start: int, stack_entry: int, ram_start: int, ram_end: int) -> bytes:
    """boundarySeg_t: BOUNDARY_SEG_LEN 0x18."""
    return struct.pack('<BHBIIIII', SEG_BOUNDARY, TECH_BLE, 0xFF, 0x18, stack_start, stack_entry, ram_start, ram_end)


def make_image(image_id: bytes, image_type: int, soft_ver: bytes, length: int, seed: int,
               split: bool = False, start_addr: int = 0x00000000) -> bytes:
    """An image of `length` bytes (a whole number of words, as the tool pads it)."""
    assert length % 4 == 0
    other_segments = boundary_segment(0x00038000, 0x00038041, 0x20000000, 0x20003FFF) if split else b''
    payload_segment_start = FIXED_HDR_LEN + len(other_segments)
    code_len = length - payload_segment_start - 12
    assert code_len >= 0
    rng = random.Random(seed)
    code = bytes(rng.getrandbits(8) for _ in range(code_len))
    end_addr = start_addr + length - 1
    header = core_header(image_id, image_type, soft_ver, length, start_addr + 0x91, end_addr)
    # imgBinUtil.updateImgLen: the payload segment's len = len - overhead (core header and the
    # segments before it), so it ends the image.
    payload = struct.pack('<BHBII', SEG_CONTIGUOUS, TECH_BLE, 0xFF, length - payload_segment_start, start_addr)
    image = bytearray(header + other_segments + payload + code)
    assert len(image) == length
    crc = zlib.crc32(bytes(image[CRC_DATA_START_ADDR:])) & 0xFFFFFFFF
    image[FIXED_CRC_ADDR:FIXED_CRC_ADDR + 4] = struct.pack('<I', crc)
    return bytes(image)


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    app = make_image(b'CC26x2R1', IMG_TYPE_APPSTACKLIB, b'0002', 9604, seed=1)
    files = {
        'oad-app-9604.bin': app,
        'oad-app-9596.bin': make_image(b'CC26x2R1', IMG_TYPE_APPSTACKLIB, b'0003', 9596, seed=2),
        'oad-split-app-4800.bin': make_image(b'CC26x2R1', IMG_TYPE_APP, b'0102', 4800, seed=3, split=True),
        'oad-app-cc13x2r1.bin': make_image(b'CC13x2R1', IMG_TYPE_APPSTACKLIB, b'0002', 2048, seed=4),
    }
    damaged = bytearray(app)
    damaged[5000] ^= 0x01
    files['oad-app-damaged-crc.bin'] = bytes(damaged)
    files['oad-app-truncated.bin'] = app[:5000]
    for name, data in files.items():
        with open(os.path.join(OUT, name), 'wb') as file:
            file.write(data)
        print(f'{name}: {len(data)} bytes, crc32 field {data[8:12][::-1].hex()}')


if __name__ == '__main__':
    main()
