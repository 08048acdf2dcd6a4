#!/usr/bin/env python3
"""Prints the golden vectors of SLIPCodecTests and SMPConsoleFramingTests.

The bytes come from the tools themselves, not from a transcription:
  - SLIP: nrfutil 5.2.0 from PyPI (`pip download nrfutil==5.2.0 --no-deps`, the sdist; its
    dependencies no longer install). The class `Slip` of nordicsemi/dfu/dfu_transport_serial.py
    is what `nrfutil dfu serial` sends with; it is taken out of the file with `ast` and run as it
    is, so that pyserial and pc_ble_driver_py need not be installed. The older
    nordicsemi/bluetooth/hci/slip.py of the same package is run too (it sends a leading END).
  - SMP console framing: `smp.packet.encode` of smp 4.2.0 (the package smpclient 7.3.0 sends
    with), and `smp.os_management.EchoWriteRequest` for a real SMP message.
  - Raw SMP: messages of smp 4.2.0, which smpclient 7.3.0's SMPSerialRawTransport writes unframed.

Usage: python3 -m venv /tmp/venv && /tmp/venv/bin/pip install smp==4.2.0 smpclient==7.3.0
       /tmp/venv/bin/pip download nrfutil==5.2.0 --no-deps -d /tmp/nrfutil && tar xzf ... -C /tmp/nrfutil
       /tmp/venv/bin/python serial-codec-vectors.py /tmp/nrfutil/nrfutil-5.2.0
"""
import ast
import hashlib
import sys


def pseudo_random_bytes(count, seed=0x9E3779B97F4A7C15):
    """TestSupport.swift's xorshift64 generator."""
    mask = (1 << 64) - 1
    state = seed
    out = bytearray()
    for _ in range(count):
        state ^= (state << 13) & mask
        state ^= state >> 7
        state ^= (state << 17) & mask
        out.append((state >> 32) & 0xFF)
    return bytes(out)


def load_class(path, name):
    tree = ast.parse(open(path).read())
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)
    namespace = {}
    exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), namespace)
    return namespace[name]


def slip_vectors(nrfutil):
    dfu_slip = load_class(f"{nrfutil}/nordicsemi/dfu/dfu_transport_serial.py", "Slip")
    hci_namespace = {}
    exec(open(f"{nrfutil}/nordicsemi/bluetooth/hci/slip.py").read(), hci_namespace)
    hci_slip = hci_namespace["Slip"]()
    packets = {
        "ping": bytes([0x09, 0x01]),
        "set PRN 0": bytes([0x02, 0x00, 0x00]),
        "every special byte": bytes([0xC0, 0xDB, 0xDC, 0xDD, 0x00, 0xDB, 0xDC, 0xC0, 0xDD, 0xC0]),
        "empty": b"",
        "write 32 pseudo-random bytes": bytes([0x08]) + pseudo_random_bytes(32, seed=0xC0DB),
    }
    print("# SLIP, nrfutil 5.2.0 dfu_transport_serial.Slip.encode")
    for label, packet in packets.items():
        print(f"{label}: {packet.hex()} -> {bytes(dfu_slip.encode(packet)).hex()}")
    print("# SLIP, nrfutil 5.2.0 bluetooth/hci/slip.Slip.encode (leading END)")
    for label in ("ping", "every special byte"):
        encoded = hci_slip.encode(packets[label].decode("latin-1")).encode("latin-1")
        print(f"{label}: {packets[label].hex()} -> {encoded.hex()}")
    print("# SLIP, nrfutil 5.2.0 dfu_transport_serial.Slip.decode_add_byte, byte by byte")
    for label, stream in {
        "two frames": bytes.fromhex("0901c0 02dbdc00c0"),
        "bad escape then a frame": bytes.fromhex("01db0102c0 0901c0"),
        "escape before END": bytes.fromhex("01dbc0 0901c0 0a0bc0"),
    }.items():
        frames, state, data = [], dfu_slip.SLIP_STATE_DECODING, []
        for byte in stream:
            finished, state, data = dfu_slip.decode_add_byte(byte, data, state)
            if finished:
                frames.append(bytes(data).hex())
                data = []
        print(f"{label}: {stream.hex()} -> {frames}")


def smp_vectors():
    from smp import packet
    from smp.os_management import EchoWriteRequest

    def show(label, message, line_length):
        print(f"{label} ({len(message)} bytes), line_length={line_length}:")
        frames = list(packet.encode(message, line_length=line_length))
        if line_length > 200:  # too long to paste: the frames' lengths and the SHA-256 of the wire
            wire = b"".join(frames)
            print(f"  frame lengths {[len(f) for f in frames]}, SHA-256 {hashlib.sha256(wire).hexdigest()}")
            return
        for frame in frames:
            marker = {packet.START_DELIMITER: "start", packet.CONTINUE_DELIMITER: "continuation"}[frame[:2]]
            assert frame.endswith(b"\n")
            print(f"  {marker} {frame[2:-1].decode()}")

    print("# SMP console framing, smp 4.2.0 smp.packet.encode")
    echo = EchoWriteRequest(d="hello", sequence=0x42).BYTES
    print(f"echo request: {echo.hex()}")
    show("echo request", echo, 128)
    show("empty packet", b"", 128)
    show("doc example", b"Hello, world!", 8)
    for count in (89, 90, 182, 600):
        show(f"pseudo-random seed 0x5EED", pseudo_random_bytes(count, seed=0x5EED), 128)
    show("pseudo-random seed 0x5EED", pseudo_random_bytes(600, seed=0x5EED), 127)
    for count in (600, 3065, 3066, 7000):
        show("pseudo-random seed 0x5EED", pseudo_random_bytes(count, seed=0x5EED), 4096)


def raw_vectors():
    """smpclient 7.3.0's SMPSerialRawTransport writes a message's bytes as they are."""
    from smp.image_management import ImageUploadWriteRequest
    from smp.os_management import EchoWriteRequest, EchoWriteResponse

    print("# raw SMP (smpclient 7.3.0 SMPSerialRawTransport sends these bytes unframed), smp 4.2.0 messages")
    data = pseudo_random_bytes(300, seed=0x5EED)
    messages = {
        "echo request": EchoWriteRequest(d="hello", sequence=0x42).BYTES,
        "echo response": EchoWriteResponse(r="hello", sequence=0x42).BYTES,
        "image upload, first 300 bytes": ImageUploadWriteRequest(
            off=0, data=data, image=0, len=4096, sha=bytes(range(32)), sequence=7).BYTES,
    }
    for label, message in messages.items():
        print(f"{label} ({len(message)} bytes): {message.hex()}")


if __name__ == "__main__":
    slip_vectors(sys.argv[1])
    smp_vectors()
    raw_vectors()
