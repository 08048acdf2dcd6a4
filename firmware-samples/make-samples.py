#!/usr/bin/env python3
"""Regenerates the sample firmware in this folder (deterministic, no vendor binaries).

demo-app.bin  48 KiB of seeded pseudo-random bytes standing in for an application image
demo-app.hex  the same bytes as Intel HEX at 0x00027000 (extended linear address records)
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
BASE = 0x00027000


def intel_hex(data: bytes, base: int) -> str:
    lines = []

    def record(kind: int, offset: int, payload: bytes) -> None:
        body = bytes([len(payload), (offset >> 8) & 0xFF, offset & 0xFF, kind]) + payload
        checksum = (-sum(body)) & 0xFF
        lines.append(":" + (body + bytes([checksum])).hex().upper())

    upper = None
    for position in range(0, len(data), 16):
        address = base + position
        if address >> 16 != upper:
            upper = address >> 16
            record(0x04, 0, bytes([(upper >> 8) & 0xFF, upper & 0xFF]))
        record(0x00, address & 0xFFFF, data[position:position + 16])
    record(0x01, 0, b"")
    return "\n".join(lines) + "\n"


def main() -> None:
    generator = random.Random(20261129)
    data = bytes(generator.getrandbits(8) for _ in range(48 * 1024))
    with open(os.path.join(HERE, "demo-app.bin"), "wb") as handle:
        handle.write(data)
    with open(os.path.join(HERE, "demo-app.hex"), "w") as handle:
        handle.write(intel_hex(data, BASE))


if __name__ == "__main__":
    main()
