#!/usr/bin/env python3
"""A Telink BLE application with the Telink BLE SDK's OTA server on a Bumble virtual controller,
as research/telink-ota.md describes it. Sources:
  Telink BLE SDK ota_server.c ("BLE GROUP", 2020.06; B85/B87)   otaWrite, ota_save_data,
      blt_ota_procTimeout, blt_ota_procOtaResultFeedback, blt_ota_server_terminate,
      blt_ota_procOtaFinish, blc_ota_initOtaServer_module, bls_ota_clearNewFwDataArea
  telink-semi/telink_b85m_ble_single_connection_sdk b85_ble_sdk/stack/ble/service/ota/ota.h
      (commands, result codes, ota_end_t, ota_result_t), boot/8278/cstartup_8278.S (KNLT at 8,
      the size at 0x18)
  Telink BLE SDK Developer Handbook AN-19112700-E1, chapter 6 "OTA" (packet format, end command,
      reboot after every OTA, erase on failure)
  fwupd plugins/telink-dfu/fu-telink-dfu-ble-device.c (what the client sends; 2A26 read back)

GATT: service 00010203-0405-0607-0809-0A0B0C0D1912, characteristic ...2B12 (read, write without
response, notify, as newer SDK samples' app_att.c declare it; a read gives 00), and Device
Information 180A with the Firmware Revision String 2A26 (what runs). Advertises its name and the
OTA service every 50 ms.

The server (one write = one message, little-endian, nothing acknowledged):
  ff00 version       nothing (the application's callback)
  ff01 start         an OTA begins; a second one while it runs ends it with OTA_FLOW_ERR (6)
  data               u16 index | 16 bytes | u16 CRC-16 (reflected 0xA001, init 0xFFFF) of the 18,
                     20 bytes exactly, checked in the server's order: index within the image
                     (OTA_PACKET_INVALID 2), started (6), the size seen before index 2
                     (OTA_FW_SIZE_ERR 11), 20 bytes (OTA_PDU_LEN_ERR 9), the next index
                     (OTA_DATA_PACKET_SEQ_ERR 1), the CRC (OTA_DATA_CRC_ERR 3); the size at 0x18
                     (at least --min-size, at most 252 KiB, 16n + 4 with the firmware check: 11);
                     the CRC-32 (nibble-wise, poly 0xEDB88320, from 0xFFFFFFFF, no final XOR)
                     against the u32 the last packet starts with (OTA_FW_CHECK_ERR 7); KNLT at
                     offset 8 (OTA_FIRMWARE_MARK_ERR 10)
  ff02 end           u16 last index | u16 its complement: a vouched-for index that is not the
                     last one received -> OTA_DATA_UNCOMPLETE (5); the firmware check not
                     matched -> 7; else success
  other ffxx         OTA_PACKET_INVALID (2)
The first error (or the end) ends the OTA: later writes are ignored; with --result-feedback (a
newer server: ota_server.c blt_ota_procOtaResultFeedback, B85m/B91 SDKs from 2020.06) the result
is notified (06 ff <result> 00) to a subscribed client, OTA_SUCCESS included, then the device drops
the link (0x13); without it (an older server, which keeps no result to notify) it only drops it. With the link
gone: success -> the boot mark, a reboot into the new image, whose first boot erases the old
image's sectors before it advertises; failure -> the sectors written are erased, a reboot into
the old image (nothing written: no reboot). Silent meanwhile: the erases (--erase-ms per 4 KiB
sector) and --boot-ms.
Timeouts: the whole OTA (--ota-timeout-s, 30, from the start), between data packets
(--packet-timeout-s, 5). A lost link does not end an OTA (the server's disconnect callback acts
only once a result is set): it ends by a timeout, then, with no link to end, after the 4 s
feedback timeout. No resume: every OTA starts from packet 0.

--drop-packet INDEX (repeatable): the first data packet with that index never reaches the server,
as a write without response a sender's stack lost (no later packet shows a gap when it is the
last one: the end command finds it missing).

The state file (sha256, size, version, running: "new" or "factory") is written at every boot.

    telink_ota_device.py --transport tcp-client:127.0.0.1:PORT [--state-file PATH] ...
"""
import asyncio
import dataclasses
import logging
import time

from bumble.gatt import Characteristic, CharacteristicValue, Service

from peripheral_common import Peripheral, argument_parser, write_state_file

SERVICE_UUID = '00010203-0405-0607-0809-0A0B0C0D1912'
OTA_UUID = '00010203-0405-0607-0809-0A0B0C0D2B12'
DEVICE_INFORMATION_UUID = '180A'
FIRMWARE_REVISION_UUID = '2A26'

CMD_VERSION, CMD_START, CMD_END, CMD_START_EXT, CMD_VERSION_REQ, CMD_RESULT = 0xFF00, 0xFF01, 0xFF02, 0xFF03, 0xFF04, 0xFF06
SUCCESS, SEQ_ERR, PACKET_INVALID, CRC_ERR, FLASH_ERR, UNCOMPLETE, FLOW_ERR, FW_CHECK_ERR = 0, 1, 2, 3, 4, 5, 6, 7
PDU_LEN_ERR, MARK_ERR, SIZE_ERR, PACKET_TIMEOUT, TIMEOUT = 9, 10, 11, 12, 13
NAMES = {0: 'OTA_SUCCESS', 1: 'OTA_DATA_PACKET_SEQ_ERR', 2: 'OTA_PACKET_INVALID', 3: 'OTA_DATA_CRC_ERR',
         5: 'OTA_DATA_UNCOMPLETE', 6: 'OTA_FLOW_ERR', 7: 'OTA_FW_CHECK_ERR', 9: 'OTA_PDU_LEN_ERR',
         10: 'OTA_FIRMWARE_MARK_ERR', 11: 'OTA_FW_SIZE_ERR', 12: 'OTA_DATA_PACKET_TIMEOUT', 13: 'OTA_TIMEOUT'}
TERMINATE = 0x13  # HCI_ERR_REMOTE_USER_TERM_CONN
MAX_SIZE = 252 * 1024  # ota_firmware_max_size with boot address 0x40000
FEEDBACK_TIMEOUT_S = 4.0  # blt_ota_procOtaResultFeedback
SECTOR = 4096
MARK = b'KNLT'

log = logging.getLogger('telink-ota')


def crc16(data: bytes) -> int:
    """The SDK's crc16(): bitwise, poly[2] = {0, 0xa001}, from 0xFFFF."""
    crc = 0xFFFF
    for byte in data:
        for _ in range(8):
            crc = (crc >> 1) ^ (0xA001 if (crc ^ byte) & 1 else 0)
            byte >>= 1
    return crc


HALF_TABLE = []
for _nibble in range(16):
    _value = _nibble
    for _ in range(4):
        _value = (_value >> 1) ^ 0xEDB88320 if _value & 1 else _value >> 1
    HALF_TABLE.append(_value)


def crc32_half(crc: int, data: bytes) -> int:
    """crc32_half_cal over the nibbles of `data` (low, then high), without a final XOR."""
    for byte in data:
        for nibble in (byte & 0x0F, byte >> 4):
            crc = (crc >> 4) ^ HALF_TABLE[(crc ^ nibble) & 0x0F]
    return crc


@dataclasses.dataclass
class Transfer:
    """An OTA under way (flow_mask OTA_FLOW_START)."""
    started: float
    last_index: int = MAX_SIZE // 16
    last_packet: float | None = None
    current: int = -1
    size: int | None = None
    received: bytearray = dataclasses.field(default_factory=bytearray)
    crc: int = 0xFFFFFFFF
    matched: bool = False
    flash_mark: int = 0


class OTAServer:
    """otaWrite as a state machine: a write in, the OTA's result out when it ends."""

    def __init__(self, args):
        self.args = args
        self.transfer: Transfer | None = None
        self.result: int | None = None  # set: OTA_STEP_FEEDBACK
        self.ended_at = 0.0
        self.written = 0  # flash_addr_mark of the ended OTA
        self.image: bytes | None = None  # the new image of a successful one

    def end(self, result: int) -> int:
        self.result, self.ended_at = result, time.monotonic()
        if self.transfer:
            self.written = self.transfer.flash_mark
            if result == SUCCESS:
                size = self.transfer.size or len(self.transfer.received)
                self.image = bytes(self.transfer.received[:size])
        return result

    def write(self, value: bytes) -> int | None:
        if self.result is not None or len(value) < 2:
            return None  # "OTA error has happened, do not process anymore"
        code = value[0] | value[1] << 8
        if code >= 0xFF00:
            if code in (CMD_VERSION, CMD_VERSION_REQ):
                return None
            if code in (CMD_START, CMD_START_EXT):
                if self.transfer:
                    return self.end(FLOW_ERR)
                if code == CMD_START_EXT and (len(value) < 3 or value[2] != 16):
                    return self.end(PDU_LEN_ERR)  # only 16-byte PDUs are modelled
                self.transfer = Transfer(started=time.monotonic())
                log.info('OTA start')
                return None
            if code == CMD_END:
                if not self.transfer:
                    return self.end(FLOW_ERR)
                result = SUCCESS
                if len(value) >= 6:
                    index, complement = value[2] | value[3] << 8, value[4] | value[5] << 8
                    if index ^ complement == 0xFFFF and index != self.transfer.current:
                        result = UNCOMPLETE
                if self.args.firmware_check and not self.transfer.matched:
                    result = FW_CHECK_ERR
                return self.end(result)
            return self.end(PACKET_INVALID)
        return self.data(code, value)

    def data(self, index: int, value: bytes) -> int | None:
        transfer = self.transfer
        if index > (transfer.last_index if transfer else MAX_SIZE // 16):
            return self.end(PACKET_INVALID)
        if not transfer:
            return self.end(FLOW_ERR)
        if index == 2 and transfer.size is None:
            return self.end(SIZE_ERR)
        if len(value) != 20:
            return self.end(PDU_LEN_ERR)
        if index != transfer.current + 1:
            return self.end(SEQ_ERR)
        if crc16(value[:18]) != value[18] | value[19] << 8:
            return self.end(CRC_ERR)
        payload, offset = value[2:18], index * 16
        if offset <= 0x18 < offset + 16:
            at = 0x18 - offset
            size = int.from_bytes(payload[at:at + 4], 'little')
            if size < self.args.min_size or size > MAX_SIZE or (self.args.firmware_check and size & 0x0F != 4):
                log.info('size %d refused', size)
                return self.end(SIZE_ERR)
            transfer.size, transfer.last_index = size, (size - 1) // 16
        if self.args.firmware_check:
            if index == 0:
                transfer.crc = 0xFFFFFFFF
            if index == transfer.last_index:
                if int.from_bytes(payload[0:4], 'little') != transfer.crc:
                    return self.end(FW_CHECK_ERR)
                transfer.matched = True
            else:
                transfer.crc = crc32_half(transfer.crc, payload)
        transfer.flash_mark = offset + 16
        if offset <= 8 < offset + 16 and payload[8 - offset:12 - offset] != MARK:
            return self.end(MARK_ERR)
        transfer.received += payload
        transfer.current = index
        transfer.last_packet = time.monotonic()
        return None

    def timed_out(self) -> int | None:
        """blt_ota_procTimeout."""
        transfer = self.transfer
        if self.result is not None or not transfer:
            return None
        now = time.monotonic()
        if now - transfer.started >= self.args.ota_timeout_s:
            return self.end(TIMEOUT)
        if transfer.last_packet is not None and now - transfer.last_packet >= self.args.packet_timeout_s:
            return self.end(PACKET_TIMEOUT)
        return None


class TelinkOTAPeripheral(Peripheral):
    def __init__(self, args):
        super().__init__(args, SERVICE_UUID)
        self.server = OTAServer(args)
        self.revision = args.firmware_revision
        self.running: bytes | None = None  # the factory image
        self.connected = None
        self.packets_to_lose = set(args.drop_packet)
        properties = Characteristic.Properties
        self.ota = Characteristic(
            OTA_UUID, properties.READ | properties.WRITE_WITHOUT_RESPONSE | properties.NOTIFY,
            Characteristic.Permissions.READABLE | Characteristic.Permissions.WRITEABLE,
            CharacteristicValue(read=lambda connection: bytes([0x00]), write=self.written))
        self.firmware_revision = Characteristic(
            FIRMWARE_REVISION_UUID, properties.READ, Characteristic.Permissions.READABLE,
            CharacteristicValue(read=lambda connection: self.revision.encode()))

    def write_state(self) -> None:
        write_state_file(self.args.state_file, self.running or b'', version=self.revision,
                         running='new' if self.running else 'factory')

    def on_connected(self, connection) -> None:
        self.connected = connection

    def on_disconnected(self, connection, reason: int) -> None:
        if self.connected is connection:
            self.connected = None
        if self.server.result is not None:  # blt_ota_server_terminate: OTA_STEP_FEEDBACK -> FINISH
            asyncio.get_running_loop().create_task(self.finish())

    async def written(self, connection, value: bytes) -> None:
        value = bytes(value)
        if not self.received(connection, value):
            return
        if len(value) == 20 and value[1] != 0xFF:
            index = value[0] | value[1] << 8
            if index in self.packets_to_lose:
                self.packets_to_lose.discard(index)
                log.info('packet %d lost on its way (--drop-packet)', index)
                return
        if await self.drop_if_due(connection):
            return
        result = self.server.write(value)
        if result is not None:
            await self.ended(result)

    async def ended(self, result: int) -> None:
        """blt_ota_procOtaResultFeedback: the result to a subscribed client (--result-feedback;
        pushed with blc_gatt_pushHandleValueNotify, and only once it is queued is the terminate
        asked for, DATA_PENDING_TERMINATE_CMD), then LL terminate."""
        log.info('OTA ended: %s (%d)', NAMES.get(result, 'result'), result)
        connection = self.connected
        if connection is None:
            return  # the feedback timeout finishes it
        feedback = [bytes([0x06, 0xFF, result, 0x00])] if self.args.result_feedback else []
        self.send(connection, self.ota, feedback, then_disconnect=TERMINATE)

    async def finish(self) -> None:
        """blt_ota_procOtaFinish."""
        server = self.server
        result, written, image = server.result, server.written, server.image
        self.server = OTAServer(self.args)
        if result == SUCCESS and image is not None:
            old = len(self.running) if self.running else len(image)
            await self.reboot(erase_bytes=old, then_run=image)
        elif written > 0:
            await self.reboot(erase_bytes=written, then_run=None)
        else:
            log.info('nothing written: no reboot')

    async def reboot(self, erase_bytes: int, then_run: bytes | None) -> None:
        silence = -(-erase_bytes // SECTOR) * self.args.erase_ms / 1000 + self.args.boot_ms / 1000
        await self.go_silent(TERMINATE)
        log.info('reboot: silent %.0f ms (erasing %d bytes, booting)', silence * 1000, erase_bytes)
        await asyncio.sleep(silence)
        if then_run is not None:
            self.running = then_run
            self.revision = revision_of(then_run)
        self.write_state()
        log.info('running %s (%s)', 'the new image' if self.running else 'the factory image', self.revision)
        await self.wake()

    async def watch_timeouts(self) -> None:
        while True:
            await asyncio.sleep(0.05)
            if self.silent:
                continue
            result = self.server.timed_out()
            if result is not None:
                await self.ended(result)
            if (self.server.result is not None and self.connected is None
                    and time.monotonic() - self.server.ended_at >= FEEDBACK_TIMEOUT_S):
                await self.finish()

    async def start(self) -> None:
        self.write_state()
        asyncio.get_running_loop().create_task(self.watch_timeouts())
        await self.run([Service(SERVICE_UUID, [self.ota]),
                        Service(DEVICE_INFORMATION_UUID, [self.firmware_revision])])


def revision_of(image: bytes) -> str:
    """DFUKit's simulated firmware convention: the text after FWREV= (see TelinkSimulatedFirmware)."""
    at = image.find(b'FWREV=')
    if at < 0:
        return 'unknown'
    text = bytearray()
    for byte in image[at + 6:]:
        if not 0x20 <= byte < 0x7F:
            break
        text.append(byte)
    return text.decode()


async def main() -> None:
    parser = argument_parser(__doc__.splitlines()[0], 'Telink-OTA', 'F0:DF:00:00:07:01')
    parser.add_argument('--firmware-revision', default='1.0.0', help='what 2A26 reports before an update (default 1.0.0)')
    parser.add_argument('--firmware-check', type=int, choices=(0, 1), default=1,
                        help='fw_check_en: check the CRC-32 the image ends with (default 1, the SDK default)')
    parser.add_argument('--min-size', type=int, default=0x4000, help='FW_MIN_SIZE (default 16384)')
    parser.add_argument('--ota-timeout-s', type=float, default=30, help='the whole OTA (default 30)')
    parser.add_argument('--packet-timeout-s', type=float, default=5, help='between data packets (default 5)')
    parser.add_argument('--erase-ms', type=float, default=85, help='per 4 KiB sector erased (default 85)')
    parser.add_argument('--boot-ms', type=float, default=300, help='reboot to advertising (default 300: assumed)')
    parser.add_argument('--result-feedback', action='store_true',
                        help='notify the result (06 ff <result> 00) before dropping the link, as newer servers do')
    parser.add_argument('--drop-packet', type=int, action='append', default=[], metavar='INDEX',
                        help='lose the first data packet with this index before the server sees it')
    args = parser.parse_args()
    peripheral = TelinkOTAPeripheral(args)
    if args.verbose:
        log.setLevel(logging.DEBUG)
    await peripheral.start()


if __name__ == '__main__':
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
