#!/usr/bin/env python3
"""A Nordic Secure DFU bootloader (nRF5 SDK 15) on a Bumble virtual controller, behaving as
Sources/DFUSimulator/Devices/NordicSecureDFU/SecureDFUBootloader.swift with its defaults
(no signature check, hardware version 52, no SoftDevice check, bank of 0xD0000 bytes).

Service FE59: control point 8EC90001 (write, notify; answers `60 <op> <result> [params]`) and
packet 8EC90002 (write without response). Command object max 512 B, data object max 4096 B,
CRC32 cumulative per object type; CREATE of a data object rolls back to the last executed
boundary; the last EXECUTE checks the SHA-256 from the init packet, answers, then the
bootloader resets (drops the link with reason 0x08) and advertises "DfuTarg" again.

    nordic_secure_dfu_device.py --transport tcp-client:127.0.0.1:PORT [--disconnect-after BYTES]
                                [--state-file PATH] [--resume-policy ram|object|init]
"""
import asyncio
import dataclasses
import hashlib
import logging
import zlib

from bumble.gatt import Characteristic, CharacteristicValue, Service

from peripheral_common import REBOOT_REASON, Peripheral, argument_parser, write_state_file

SERVICE_UUID = 'FE59'
CONTROL_POINT_UUID = '8EC90001-F315-4F60-9FB8-838830DAEA50'
PACKET_UUID = '8EC90002-F315-4F60-9FB8-838830DAEA50'
COMMAND_OBJECT_MAX, DATA_OBJECT_MAX, PAGE_SIZE, CAPACITY = 512, 4096, 4096, 0xD0000
COMMAND, DATA = 1, 2

# Results (protocols.md section 2); an int above 0xFF is an extended error 0x0B <code>.
SUCCESS, NOT_SUPPORTED, INVALID_PARAMETER, INSUFFICIENT_RESOURCES, INVALID_OBJECT = 0x01, 0x02, 0x03, 0x04, 0x05
NOT_PERMITTED, FAILED = 0x08, 0x0A
EXT_INIT_COMMAND_INVALID, EXT_FW_VERSION, EXT_HW_VERSION, EXT_WRONG_HASH_TYPE, EXT_VERIFICATION_FAILED = (
    0x0B04, 0x0B05, 0x0B06, 0x0B09, 0x0B0C)
APPLICATION, SOFTDEVICE, BOOTLOADER, SOFTDEVICE_BOOTLOADER, EXTERNAL_APPLICATION = range(5)
SHA256_HASH_TYPE = 3

log = logging.getLogger('secure-dfu')


# --- The init packet: just enough protobuf (dfu-cc.proto) to find sizes, versions and hash ---

def protobuf_fields(data: bytes) -> dict[int, list]:
    """Field number -> values (ints for varints, bytes for length-delimited). Raises ValueError."""
    def varint(at: int) -> tuple[int, int]:
        value, shift = 0, 0
        while True:
            if at >= len(data) or shift > 63:
                raise ValueError('truncated varint')
            byte = data[at]
            value |= (byte & 0x7F) << shift
            at, shift = at + 1, shift + 7
            if byte < 0x80:
                return value, at
    fields, at = {}, 0
    while at < len(data):
        key, at = varint(at)
        number, wire_type = key >> 3, key & 7
        if wire_type == 0:
            value, at = varint(at)
        elif wire_type == 2:
            length, at = varint(at)
            value, at = data[at:at + length], at + length
            if len(value) != length:
                raise ValueError('truncated field')
        elif wire_type in (1, 5):
            size = 8 if wire_type == 1 else 4
            value, at = data[at:at + size], at + size
        else:
            raise ValueError(f'wire type {wire_type}')
        fields.setdefault(number, []).append(value)
    return fields


def decode_init_command(packet: bytes) -> dict[int, list]:
    """Packet{1 Command | 2 SignedCommand{1 Command}} -> Command{2 InitCommand} fields."""
    def message(fields, number):
        values = fields.get(number)
        if not values or not isinstance(values[-1], bytes):
            raise ValueError(f'field {number} missing')
        return protobuf_fields(values[-1])
    outer = protobuf_fields(packet)
    command = message(outer, 1) if 1 in outer else message(message(outer, 2), 1)
    return message(command, 2)


@dataclasses.dataclass
class AcceptedInit:
    firmware_size: int
    sha256_reversed: bytes
    type: int
    fw_version: int | None


def validate_init(packet: bytes, installed_versions: dict) -> AcceptedInit | int:
    """An accepted init packet, or the result code (INVALID_OBJECT: undecodable)."""
    try:
        init = decode_init_command(packet)
        value = lambda number: init[number][-1] if number in init and isinstance(init[number][-1], int) else None
        hash_fields = protobuf_fields(init[8][-1]) if 8 in init else {}
        if 8 in init and not (1 in hash_fields and isinstance(hash_fields.get(2, [0])[-1], bytes)):
            raise ValueError('Hash without hash_type or hash')
    except (ValueError, TypeError):
        return INVALID_OBJECT
    fw_type, fw_version, hw_version = value(4), value(1), value(2)
    if fw_type not in (APPLICATION, SOFTDEVICE, BOOTLOADER, SOFTDEVICE_BOOTLOADER):
        return EXT_INIT_COMMAND_INVALID
    if hash_fields.get(1, [None])[-1] != SHA256_HASH_TYPE:
        return EXT_WRONG_HASH_TYPE
    if hw_version is None:
        return EXT_INIT_COMMAND_INVALID
    if hw_version != 52:
        return EXT_HW_VERSION
    if fw_version is None and fw_type != SOFTDEVICE:
        return EXT_INIT_COMMAND_INVALID
    if fw_version is not None:
        if fw_type in (APPLICATION, SOFTDEVICE) and fw_version < installed_versions['application']:
            return EXT_FW_VERSION
        if fw_type in (BOOTLOADER, SOFTDEVICE_BOOTLOADER) and fw_version <= installed_versions['bootloader']:
            return EXT_FW_VERSION
    if fw_type == APPLICATION:
        size = value(7) or 0
    else:
        size = (value(5) or 0 if fw_type & 1 else 0) + (value(6) or 0 if fw_type & 2 else 0)
    if size == 0:
        return EXT_INIT_COMMAND_INVALID
    if size > CAPACITY:
        return INSUFFICIENT_RESOURCES
    return AcceptedInit(size, bytes(hash_fields[2][-1]), fw_type, fw_version)


# --- The bootloader ---

@dataclasses.dataclass
class Progress:
    """What the bootloader knows about the transfer (s_dfu_settings.progress + init command)."""
    command: bytes = b''
    command_size: int = 0
    data_object_size: int = 0
    offset: int = 0
    crc: int = 0
    offset_last: int = 0
    crc_last: int = 0
    accepted: AcceptedInit | None = None


def response(opcode: int, result: int, *parameters: int) -> bytes:
    if result > 0xFF:
        return bytes([0x60, opcode, result >> 8, result & 0xFF])
    params = b''.join(p.to_bytes(4, 'little') for p in parameters) if result == SUCCESS else b''
    return bytes([0x60, opcode, result]) + params


class SecureDFUBootloader:
    """Control-point and packet writes in, (notification, reboot) pairs out."""

    def __init__(self, resume_policy: str = 'ram'):
        self.resume_policy = resume_policy
        self.progress = Progress()
        self.flash_settings = Progress()  # what a reset (or, not 'ram', a disconnect) goes back to
        self.bank = bytearray()
        self.current = COMMAND
        self.receipt_target = self.receipt_countdown = 0
        self.installed_versions = {'application': 0, 'bootloader': 0}
        self.installed: bytes | None = None  # the last image installed

    def connection_started(self) -> None:
        self.receipt_countdown = self.receipt_target

    def connection_ended(self) -> None:
        if self.resume_policy != 'ram':
            self.progress = dataclasses.replace(self.flash_settings)

    def reset(self) -> None:
        self.progress = dataclasses.replace(self.flash_settings)
        self.current = COMMAND
        self.receipt_target = self.receipt_countdown = 0

    def control_point(self, value: bytes) -> tuple[bytes, bool] | None:
        if not value:
            return None
        opcode, body = value[0], value[1:]
        if opcode in (0x00, 0x07, 0x09, 0x0A, 0x0B):  # version, MTU, ping: no parameters over BLE
            return response(opcode, SUCCESS), False
        if opcode == 0x0C:  # abort: reset
            return response(opcode, SUCCESS), True
        if opcode == 0x02:  # set PRN
            if len(body) < 2:
                return response(opcode, INVALID_PARAMETER), False
            self.receipt_target = self.receipt_countdown = int.from_bytes(body[:2], 'little')
            return response(opcode, SUCCESS), False
        if opcode == 0x01:  # create
            if len(body) < 5:
                return response(opcode, INVALID_PARAMETER), False
            self.receipt_countdown = self.receipt_target
            self.current = body[0]
            return response(opcode, self.create(int.from_bytes(body[1:5], 'little'))), False
        if opcode == 0x06:  # select
            if not body:
                return response(opcode, INVALID_PARAMETER), False
            self.current = body[0]
            p = self.progress
            if self.current == COMMAND:
                return response(opcode, SUCCESS, COMMAND_OBJECT_MAX, len(p.command), zlib.crc32(p.command)), False
            if self.current == DATA:
                return response(opcode, SUCCESS, DATA_OBJECT_MAX, p.offset, p.crc), False
            self.current = 0
            return response(opcode, INVALID_OBJECT), False
        if opcode == 0x03:  # calculate checksum
            if self.current not in (COMMAND, DATA):
                return response(opcode, INVALID_OBJECT), False
            return response(opcode, SUCCESS, *self.checksum()), False
        if opcode == 0x04:  # execute
            if self.current == COMMAND:
                return response(opcode, self.execute_command()), False
            if self.current == DATA:
                return self.execute_data()
            return response(opcode, INVALID_OBJECT), False
        return response(opcode, NOT_SUPPORTED), False

    def checksum(self) -> tuple[int, int]:
        p = self.progress
        return (len(p.command), zlib.crc32(p.command)) if self.current == COMMAND else (p.offset, p.crc)

    def create(self, size: int) -> int:
        p = self.progress
        if self.current == COMMAND:
            if size == 0:
                return INVALID_PARAMETER
            if size > COMMAND_OBJECT_MAX:
                return INSUFFICIENT_RESOURCES
            self.progress = Progress(command_size=size)
            return SUCCESS
        if self.current == DATA:
            if p.accepted is None:
                return NOT_PERMITTED
            if size == 0 or (size % PAGE_SIZE and p.offset_last + size != p.accepted.firmware_size):
                return INVALID_PARAMETER  # empty, or not page-aligned and not the last object
            if size > DATA_OBJECT_MAX:
                return INSUFFICIENT_RESOURCES
            if p.offset_last + size > p.accepted.firmware_size:
                return NOT_PERMITTED
            p.data_object_size, p.offset, p.crc = size, p.offset_last, p.crc_last
            return SUCCESS
        self.current = 0
        return INVALID_OBJECT

    def execute_command(self) -> int:
        p = self.progress
        if len(p.command) != p.command_size:
            return NOT_PERMITTED
        if p.accepted is None:
            accepted = validate_init(p.command, self.installed_versions)
            if isinstance(accepted, int):
                if accepted != INVALID_OBJECT:
                    self.progress = Progress()  # decoded but refused: the transfer restarts
                return accepted
            p.accepted = accepted
        self.flash_settings = dataclasses.replace(p)
        return SUCCESS

    def execute_data(self) -> tuple[bytes, bool]:
        p = self.progress
        if p.offset - p.offset_last != p.data_object_size:
            return response(0x04, NOT_PERMITTED), False
        p.data_object_size, p.crc_last, p.offset_last = 0, p.crc, p.offset
        if p.accepted is None or p.offset != p.accepted.firmware_size:
            if self.resume_policy != 'init':
                self.flash_settings = dataclasses.replace(p)
            return response(0x04, SUCCESS), False
        # The whole image is in: post-validate, answer, then reset whatever the outcome.
        image = bytes(self.bank[:p.offset])
        result = EXT_VERIFICATION_FAILED
        if hashlib.sha256(image).digest()[::-1] == p.accepted.sha256_reversed:
            result = SUCCESS
            self.installed = image
            kind, version = p.accepted.type, p.accepted.fw_version
            if version is not None and kind == APPLICATION:
                self.installed_versions['application'] = version
            if version is not None and kind & 2:
                self.installed_versions['bootloader'] = version
        self.progress = Progress()
        self.flash_settings = Progress()
        return response(0x04, result), True

    def packet(self, value: bytes) -> bytes | None:
        if not value:
            return None
        p = self.progress
        if self.current == COMMAND:
            if len(p.command) + len(value) > p.command_size:
                result = INVALID_PARAMETER
            else:
                p.command += value
                result = SUCCESS
        elif self.current == DATA:
            if p.accepted is None:
                result = NOT_PERMITTED
            elif p.offset - p.offset_last + len(value) > p.data_object_size:
                result = INVALID_PARAMETER  # overflows the object: dropped
            else:
                del self.bank[p.offset:]
                self.bank += value
                p.offset += len(value)
                p.crc = zlib.crc32(value, p.crc)
                result = SUCCESS
        else:
            result = INVALID_OBJECT
        # Every write counts down the packet receipt interval; at zero, a checksum answer.
        if self.receipt_target == 0:
            return None
        self.receipt_countdown -= 1
        if self.receipt_countdown > 0:
            return None
        self.receipt_countdown = self.receipt_target
        return response(0x03, result, *self.checksum())


class SecureDFUPeripheral(Peripheral):
    def __init__(self, args):
        super().__init__(args, SERVICE_UUID)
        self.bootloader = SecureDFUBootloader(args.resume_policy)
        self.rebooting = False
        properties = Characteristic.Properties
        self.control_point = Characteristic(
            CONTROL_POINT_UUID, properties.WRITE | properties.NOTIFY, Characteristic.Permissions.WRITEABLE,
            CharacteristicValue(write=self.control_point_written))
        self.packet = Characteristic(
            PACKET_UUID, properties.WRITE_WITHOUT_RESPONSE | properties.WRITE, Characteristic.Permissions.WRITEABLE,
            CharacteristicValue(write=self.packet_written))

    async def start(self) -> None:
        """Runs the bootloader until its transport closes."""
        if self.args.verbose:
            log.setLevel(logging.DEBUG)
        await self.run([Service(SERVICE_UUID, [self.control_point, self.packet])])

    def on_connected(self, connection):
        self.bootloader.connection_started()

    def on_disconnected(self, connection, reason):
        self.bootloader.connection_ended()
        if self.rebooting:
            self.rebooting = False
            self.bootloader.reset()

    async def control_point_written(self, connection, value: bytes) -> None:
        if not self.received(connection, value):
            return
        answer = self.bootloader.control_point(bytes(value))
        log.debug('control point %s -> %s', bytes(value).hex(), answer and answer[0].hex())
        if answer and answer[1]:
            self.rebooting = True
            if self.bootloader.installed is not None and answer[0] == response(0x04, SUCCESS):
                log.info('installed %d bytes, resetting', len(self.bootloader.installed))
                write_state_file(self.args.state_file, self.bootloader.installed)
        if await self.drop_if_due(connection):
            return
        if answer:
            self.send(connection, self.control_point, [answer[0]], REBOOT_REASON if answer[1] else None)

    async def packet_written(self, connection, value: bytes) -> None:
        if not self.received(connection, value):
            return
        answer = self.bootloader.packet(bytes(value))
        if await self.drop_if_due(connection):
            return
        if answer:
            self.send(connection, self.control_point, [answer])


def bootloader_arguments(description: str):
    parser = argument_parser(description, 'DfuTarg', 'F0:DF:00:00:02:01')
    parser.add_argument('--resume-policy', choices=['ram', 'object', 'init'], default='ram',
                        help='what survives a disconnect: ram (SDK 15.0-15.2, all progress; default), '
                             'object (SDK 15.3+ progress in flash: up to the last executed object), '
                             'init (SDK 15.3+ default: the init packet only)')
    return parser


async def main() -> None:
    args = bootloader_arguments(__doc__.splitlines()[0]).parse_args()
    await SecureDFUPeripheral(args).start()


if __name__ == '__main__':
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
