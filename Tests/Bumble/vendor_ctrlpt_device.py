#!/usr/bin/env python3
"""The device side of DFUKit's vendor control-point protocol (profiles/vendor-ctrlpt.yaml) on a
Bumble virtual controller, behaving as Sources/DFUSimulator/Devices/VendorControlPointDevice.swift.

One characteristic (write with response, notify). Commands arrive as frames
[u16 LE payload length][payload] cut into writes; each answer leaves as one frame cut into
(ATT_MTU - 3)-byte notifications, after the write response of the frame's last segment.
The upload session survives a disconnect (a half-received frame does not); activate answers,
then the device "reboots" (drops the link with reason 0x08) and advertises again.

    vendor_ctrlpt_device.py --transport tcp-client:127.0.0.1:PORT [--disconnect-after BYTES]
                            [--state-file PATH]
"""
import asyncio
import hashlib
import logging
import zlib

from bumble.gatt import Characteristic, CharacteristicValue, Service

from peripheral_common import REBOOT_REASON, Peripheral, argument_parser, write_state_file

SERVICE_UUID = 'D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F'
CONTROL_POINT_UUID = 'D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F'
MAX_PAYLOAD = 8192
MAX_CHUNK = 4096

OK, BAD_LENGTH, BAD_STATE, TOO_LARGE, BAD_OFFSET, CRC_MISMATCH, SHA_MISMATCH = range(7)
UNKNOWN_OPCODE = 0x09
ZERO_SHA = bytes(32)

log = logging.getLogger('vendor')


def u32(value: int) -> bytes:
    return value.to_bytes(4, 'little')


class Session:
    def __init__(self, size: int, crc32: int, sha256: bytes):
        self.size, self.crc32, self.sha256 = size, crc32, sha256
        self.received = bytearray()
        self.verified = False


class VendorControlPoint:
    """The protocol as a state machine: written bytes in, (answer payload, reboot) out."""

    def __init__(self, slot_size: int = 1 << 20):
        self.slot_size = slot_size
        self.buffer = bytearray()
        self.session: Session | None = None
        self.installed: bytes | None = None

    def reset_framing(self) -> None:
        self.buffer.clear()

    def receive(self, value: bytes) -> list[tuple[bytes, bool]]:
        self.buffer += value
        answers = []
        while len(self.buffer) >= 2:
            length = int.from_bytes(self.buffer[:2], 'little')
            if length > MAX_PAYLOAD:
                self.buffer.clear()  # an impossible length: drop everything and wait
                return []
            if len(self.buffer) < 2 + length:
                break
            payload = bytes(self.buffer[2:2 + length])
            del self.buffer[:2 + length]
            answers.append(self.process(payload))
        return answers

    def process(self, payload: bytes) -> tuple[bytes, bool]:
        if not payload:
            return bytes([0x80, BAD_LENGTH]), False
        opcode, body = payload[0], payload[1:]
        handler = {0x01: self.start, 0x02: self.data, 0x03: self.verify, 0x04: self.activate,
                   0x05: self.status, 0x06: self.info}.get(opcode)
        if handler is None:
            return bytes([opcode | 0x80, UNKNOWN_OPCODE]), False
        answer = handler(body)
        log.debug('command 0x%02X (%d bytes) -> %s', opcode, len(payload), answer[:8].hex())
        return answer, opcode == 0x04 and answer[1] == OK

    def status(self, _body: bytes) -> bytes:
        # The session, received bytes and all, until activate ends it (also after verify).
        session = self.session
        if session:
            return (bytes([0x85, OK]) + u32(len(session.received)) + u32(zlib.crc32(session.received))
                    + session.sha256)
        return bytes([0x85, OK]) + u32(0) + u32(0) + ZERO_SHA

    def info(self, _body: bytes) -> bytes:
        if self.installed is None:
            return bytes([0x86, OK]) + u32(0) + ZERO_SHA
        return bytes([0x86, OK]) + u32(len(self.installed)) + hashlib.sha256(self.installed).digest()

    def start(self, body: bytes) -> bytes:
        if len(body) != 40:
            return bytes([0x81, BAD_LENGTH, 0, 0])
        size, crc32 = int.from_bytes(body[0:4], 'little'), int.from_bytes(body[4:8], 'little')
        if size > self.slot_size:
            return bytes([0x81, TOO_LARGE, 0, 0])
        self.session = Session(size, crc32, body[8:40])
        return bytes([0x81, OK]) + MAX_CHUNK.to_bytes(2, 'little')

    def data(self, body: bytes) -> bytes:
        session = self.session
        if session is None or session.verified:
            return bytes([0x82, BAD_STATE]) + u32(0)
        have = len(session.received)
        if len(body) < 4:
            return bytes([0x82, BAD_LENGTH]) + u32(have)
        offset, chunk = int.from_bytes(body[:4], 'little'), body[4:]
        if not chunk or len(chunk) > MAX_CHUNK or offset + len(chunk) > session.size:
            return bytes([0x82, BAD_LENGTH]) + u32(have)
        if offset < have and offset + len(chunk) <= have:
            # A chunk sent again after a lost answer: already stored, acknowledge it.
            return bytes([0x82, OK]) + u32(offset + len(chunk))
        if offset != have:
            return bytes([0x82, BAD_OFFSET]) + u32(have)
        session.received += chunk
        return bytes([0x82, OK]) + u32(len(session.received))

    def verify(self, _body: bytes) -> bytes:
        session = self.session
        if session is None or len(session.received) != session.size:
            return bytes([0x83, BAD_STATE]) + u32(0) + ZERO_SHA
        crc32, sha256 = zlib.crc32(session.received), hashlib.sha256(session.received).digest()
        status = CRC_MISMATCH if crc32 != session.crc32 else SHA_MISMATCH if sha256 != session.sha256 else OK
        session.verified = status == OK
        return bytes([0x83, status]) + u32(crc32) + sha256

    def activate(self, _body: bytes) -> bytes:
        session = self.session
        if session is None or not session.verified:
            return bytes([0x84, BAD_STATE])
        self.installed = bytes(session.received)
        self.session = None
        return bytes([0x84, OK])


class VendorPeripheral(Peripheral):
    def __init__(self, args):
        super().__init__(args, SERVICE_UUID)
        self.protocol = VendorControlPoint()
        self.control_point = Characteristic(
            CONTROL_POINT_UUID, Characteristic.Properties.WRITE | Characteristic.Properties.NOTIFY,
            Characteristic.Permissions.WRITE_REQUIRES_ENCRYPTION if args.require_encryption
            else Characteristic.Permissions.WRITEABLE, CharacteristicValue(write=self.written))

    def on_disconnected(self, connection, reason):
        self.protocol.reset_framing()  # a half-received frame is lost; the session survives

    async def written(self, connection, value: bytes) -> None:
        if not self.received(connection, value):
            return
        answers = self.protocol.receive(bytes(value))
        for answer, reboot in answers:
            if reboot:
                log.info('activated %d bytes, rebooting', len(self.protocol.installed))
                write_state_file(self.args.state_file, self.protocol.installed)
        if await self.drop_if_due(connection):
            return  # processed, but neither the write response nor the answer leaves
        segment = connection.att_mtu - 3
        for answer, reboot in answers:
            frame = len(answer).to_bytes(2, 'little') + answer
            self.send(connection, self.control_point, [frame[i:i + segment] for i in range(0, len(frame), segment)],
                      then_disconnect=REBOOT_REASON if reboot else None)


async def main() -> None:
    parser = argument_parser(__doc__.splitlines()[0], 'DFU-BUMBLE', 'F0:DF:00:00:01:01')
    parser.add_argument('--require-encryption', action='store_true',
                        help='the control point answers writes on an encrypted link only (ATT error 0x0F '
                             'Insufficient Encryption otherwise); Just Works pairing is accepted')
    args = parser.parse_args()
    peripheral = VendorPeripheral(args)
    if args.verbose:
        log.setLevel(logging.DEBUG)
    await peripheral.run([Service(SERVICE_UUID, [peripheral.control_point])])


if __name__ == '__main__':
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
