#!/usr/bin/env python3
"""An nRF5 SDK 11 legacy DFU bootloader (dual bank, application updates) on a Bumble virtual
controller, as research/firmware-timing.md section C describes it. Sources, all in
kaidokert/nRF5_SDK @ e0b0061f (nRF5_SDK_11.0.0_89a8197):
  components/libraries/bootloader_dfu/dfu_transport_ble.c   (the BLE side: app_data_process,
      dfu_cb_handler, on_dfu_evt, on_ble_evt, dfu_transport_update_start, dfu_transport_close)
  components/libraries/bootloader_dfu/dfu_dual_bank.c       (the state machine: dfu_start_pkt_handle,
      dfu_data_pkt_handle, dfu_init_pkt_handle, dfu_init_pkt_complete, dfu_image_validate,
      dfu_image_activate, dfu_activate_app, dfu_timer_restart)
  components/libraries/bootloader_dfu/dfu_init_template.c   (dfu_init_prevalidate, dfu_init_postvalidate)
  components/libraries/bootloader_dfu/bootloader.c, examples/dfu/bootloader/main.c (what runs after)
  components/ble/ble_services/ble_dfu/ble_dfu.c             (the service, on_ctrl_pt_write, formats)
and adafruit/Adafruit_nRF52_Bootloader lib/sdk11/.../ble_dfu.c, the SDK 11 bootloader that
adafruit-nrfutil packages are for, whose packet characteristic takes MTU - 3 bytes (stock
SDK 11: 20).

Service 00001530-1212-EFDE-1523-785FEABCD123: packet 1532 (write without response), control
point 1531 (write, notify; writes refused with ATT error 0xFD until notifications are on),
revision 1534 (read: 08 00, DFU_REVISION 0.8). Advertises "DfuTarg" every 50 ms (flags 06,
name, 128-bit service UUID as "more available", as advertising_init does).

  01 <type>         Start: then the sizes (sd, bl, app: u32 each, 12 bytes exactly) on the packet
                    characteristic; the swap bank is erased, then `10 01 01`. Only an
                    application is modelled (anything else: `10 01 03`); a Start outside the idle
                    state (an earlier transfer still open) gets `10 01 02`.
  02 00 / 02 01     init packet on the packet characteristic (padded to words, at most 128 bytes),
                    then `10 02 <status>` (device type/revision/SoftDevice checked).
  08 <u16 N>        packet receipts every N data packets (0: off).
  03                the image follows: whole words only (else `10 03 03`); `11 <u32 bytes>` after
                    every N packets EXCEPT the final one (app_data_process counts only when more
                    data is expected); after the final packet's flash write, `10 03 01`.
  04                validate: CRC16 of the image against the init packet: `10 04 01`, 05, or 02.
  05                activate: only the write response, then the bootloader drops the link
                    (0x13), copies the image into bank 0 (erase + write, silent) and starts the
                    application, which advertises as --app-name from --app-address; the state file
                    names the image.
  06                reset: the link drops (0x13); without a valid application the bootloader
                    starts again (NVIC_SystemReset) and advertises "DfuTarg" afresh after --boot-ms.
  07                `10 07 01 <u32 bytes received>`.

A link lost mid-transfer (not torn down by 05/06) leaves the state as it was: the bootloader
advertises again at once, keeps what it received and refuses a new Start with `10 01 02`. No
activity (start, init, data, validate) for --inactivity-timeout-s (120 s, DFU_TIMEOUT_INTERVAL
in dfu_bank_internal.h) tears the transfer down as 06 does.

Flash timing (protocols.md section 7, nRF52: 85 ms per 4 KiB page erase, 43 us per word
written): Start erases the whole swap bank (--bank-size, default 0x2F000 = DFU_IMAGE_MAX_SIZE_BANKED
for nRF52 + S132 2.0: (0x7A000 - 0x1C000) / 2), 47 pages, about 4 s. Data packets are written in
order (pstorage queue); `10 03 01` leaves when the last write is done.

    nordic_legacy_dfu_device.py --transport tcp-client:127.0.0.1:PORT [--state-file PATH]
                                [--disconnect-after BYTES] [--max-packet-length N] ...
"""
import asyncio
import binascii
import dataclasses
import enum
import logging
import time

from bumble.att import ATT_Error
from bumble.core import UUID, AdvertisingData
from bumble.gatt import Characteristic, CharacteristicValue, Service

from peripheral_common import Peripheral, argument_parser, write_state_file

SERVICE_UUID = '00001530-1212-EFDE-1523-785FEABCD123'
CONTROL_POINT_UUID = '00001531-1212-EFDE-1523-785FEABCD123'
PACKET_UUID = '00001532-1212-EFDE-1523-785FEABCD123'
REVISION_UUID = '00001534-1212-EFDE-1523-785FEABCD123'
DFU_REVISION = bytes([0x08, 0x00])  # dfu_transport_ble.c DFU_REV_MAJOR 0x00, DFU_REV_MINOR 0x08, u16 LE

# ble_dfu.c op codes and ble_dfu.h response values
START, INIT, RECEIVE, VALIDATE, ACTIVATE, RESET, SIZE_REQUEST, PRN_REQUEST = 1, 2, 3, 4, 5, 6, 7, 8
RESPONSE, RECEIPT = 0x10, 0x11
SUCCESS, INVALID_STATE, NOT_SUPPORTED, DATA_SIZE, CRC_ERROR, OPERATION_FAILED = 1, 2, 3, 4, 5, 6
CCCD_IMPROPERLY_CONFIGURED = 0xFD  # BLE_GATT_STATUS_ATTERR_CPS_CCCD_CONFIG_ERROR
READ_NOT_PERMITTED, WRITE_NOT_PERMITTED = 0x02, 0x03
REMOTE_USER_TERMINATED = 0x13  # dfu_transport_close: sd_ble_gap_disconnect(..., BLE_HCI_REMOTE_USER_TERMINATED_CONNECTION)

UPDATE_APPLICATION = 0x04  # dfu_types.h DFU_UPDATE_APP
INIT_PACKET_MAX = 128  # dfu_dual_bank.c m_init_packet[128]
INIT_PACKET_FIXED = 12  # sizeof(dfu_init_packet_t): type, rev, app version, sd count, one sd
DEVICE_TYPE_EMPTY, DEVICE_REVISION_EMPTY, SOFTDEVICE_ANY = 0xFFFF, 0xFFFF, 0xFFFE
PAGE_SIZE = 4096

log = logging.getLogger('legacy-dfu')


def crc16(data: bytes) -> int:
    """crc16_compute (components/libraries/crc16): CRC-16-CCITT, initial 0xFFFF."""
    return binascii.crc_hqx(data, 0xFFFF)


class State(enum.Enum):
    """dfu_bank_internal.h dfu_state_t (the ones an application update passes through)."""
    IDLE = 'idle'
    PREPARING = 'preparing'  # erasing the swap bank
    READY = 'ready'
    RX_INIT_PACKET = 'receiving init packet'
    RX_DATA_PACKET = 'receiving data'
    VALIDATE = 'validate'
    WAIT_FOR_ACTIVATE = 'waiting for activate'


class PacketType(enum.Enum):
    """dfu_transport_ble.c pkt_type_t: what a write to the packet characteristic is."""
    INVALID = 0
    START = 1
    INIT = 2
    FIRMWARE_DATA = 3


@dataclasses.dataclass
class Bootloader:
    """The RAM of one bootloader run (dfu_init .. reset): what survives a lost link and what a
    reset forgets. Transport fields (dfu_transport_ble.c) and bank fields (dfu_dual_bank.c)."""
    state: State = State.IDLE
    packet_type: PacketType = PacketType.INVALID
    update_mode: int = 0  # m_update_mode, from 01 <type>
    image_size: int = 0  # m_image_size
    expected_crc: int | None = None  # the init packet's CRC16 (m_extended_packet)
    init_packet: bytearray = dataclasses.field(default_factory=bytearray)
    bank: bytearray = dataclasses.field(default_factory=bytearray)  # bank 1, as written
    data_received: int = 0  # m_data_received (0xFFFFFFFF once poisoned by an overflow)
    bytes_received: int = 0  # m_num_of_firmware_bytes_rcvd (what receipts report)
    receipts_enabled: bool = False
    receipt_target: int = 0
    receipt_countdown: int = 0
    timed_out: bool = False


class Flash:
    """The nRF52 flash behind pstorage: one queue, operations done in order."""

    def __init__(self, erase_ms_per_page: float, write_us_per_word: float):
        self.erase_s = erase_ms_per_page / 1000
        self.write_s_per_byte = write_us_per_word / 4 / 1e6
        self.free_at = 0.0  # monotonic time the queue empties

    def queue(self, seconds: float) -> float:
        """Queue an operation taking `seconds`; the time it will be done."""
        self.free_at = max(self.free_at, time.monotonic()) + seconds
        return self.free_at

    def erase(self, size: int) -> float:
        return self.queue(-(-size // PAGE_SIZE) * self.erase_s)

    def write(self, size: int) -> float:
        return self.queue(size * self.write_s_per_byte)

    def reset(self) -> None:
        self.free_at = 0.0


def response(opcode: int, status: int) -> bytes:
    """ble_dfu_response_send: 10 <op> <status>."""
    return bytes([RESPONSE, opcode, status])


class LegacyDFUPeripheral(Peripheral):
    def __init__(self, args):
        super().__init__(args, SERVICE_UUID)
        self.advertising = self.bootloader_advertising(args.name)
        self.flash = Flash(args.page_erase_ms, args.write_us_per_word)
        self.dfu = Bootloader()
        self.application: bytes | None = None  # bank 0: no valid application at first
        self.running = 'bootloader'
        self.timer: asyncio.TimerHandle | None = None
        self.run_number = 0  # bumps at every reset: delayed answers of an older run are dropped
        self.answers: list[tuple[bytes, float | None]] = []
        self.leaving = False  # dfu_transport_close was called: the link is going, nothing more is done
        properties = Characteristic.Properties
        self.packet = Characteristic(
            PACKET_UUID, properties.WRITE_WITHOUT_RESPONSE, Characteristic.Permissions.WRITEABLE,
            CharacteristicValue(write=self.packet_written))
        self.control_point = Characteristic(
            CONTROL_POINT_UUID, properties.WRITE | properties.NOTIFY, Characteristic.Permissions.WRITEABLE,
            CharacteristicValue(write=self.control_point_written))
        self.revision = Characteristic(
            REVISION_UUID, properties.READ, Characteristic.Permissions.READABLE, CharacteristicValue(read=self.read_revision))

    # --- identity ---

    @staticmethod
    def bootloader_advertising(name: str) -> bytes:
        """advertising_init: flags (LE general discoverable, BR/EDR not supported), the full name,
        the DFU service in a 'more 128-bit UUIDs available' list."""
        return bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LOCAL_NAME, name.encode()),
            (AdvertisingData.INCOMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, bytes(UUID(SERVICE_UUID)))]))

    def application_advertising(self) -> bytes:
        return bytes(AdvertisingData([
            (AdvertisingData.FLAGS, bytes([0x06])),
            (AdvertisingData.COMPLETE_LOCAL_NAME, self.args.app_name.encode())]))

    def read_revision(self, connection) -> bytes:
        if self.running != 'bootloader':
            raise ATT_Error(READ_NOT_PERMITTED)
        return DFU_REVISION

    # --- the inactivity timer (dfu_dual_bank.c dfu_timer_restart, dfu_timeout_handler) ---

    def restart_timer(self) -> bool:
        """False once the timer expired (dfu_timer_restart answers NRF_ERROR_INVALID_STATE)."""
        if self.dfu.timed_out:
            return False
        if self.timer:
            self.timer.cancel()
        self.timer = asyncio.get_running_loop().call_later(self.args.inactivity_timeout_s, self.timed_out)
        return True

    def timed_out(self) -> None:
        log.info('no DFU activity for %g s: DFU_TIMEOUT', self.args.inactivity_timeout_s)
        self.dfu.timed_out = True
        asyncio.get_running_loop().create_task(self.leave_dfu('timeout'))

    # --- notifications ---

    def notify(self, connection, value: bytes, at: float | None = None) -> None:
        """An answer on the control point, sent after the write response of the write being
        handled (unless an injected disconnect swallows it); at a monotonic time if given (when
        a flash operation completes)."""
        self.answers.append((value, at))

    def flush(self, connection) -> None:
        answers, self.answers = self.answers, []
        run = self.run_number
        for value, at in answers:
            if at is None or at <= time.monotonic():
                self.send(connection, self.control_point, [value])
                continue

            def later(value=value):
                if run == self.run_number and connection in self.connections:
                    self.send(connection, self.control_point, [value])
            asyncio.get_running_loop().call_later(at - time.monotonic(), later)

    async def answer(self, connection) -> None:
        """After a write: the injected disconnect (processed, not answered), or the answers."""
        if await self.drop_if_due(connection):
            self.answers.clear()
        else:
            self.flush(connection)

    def notifications_enabled(self, connection) -> bool:
        return bool(self.device.gatt_server.read_cccd(connection, self.control_point)[0] & 0x01)

    # --- control point (ble_dfu.c on_ctrl_pt_write -> dfu_transport_ble.c on_dfu_evt) ---

    async def control_point_written(self, connection, value: bytes) -> None:
        value = bytes(value)
        if self.running != 'bootloader':
            raise ATT_Error(WRITE_NOT_PERMITTED)
        if not self.notifications_enabled(connection):
            raise ATT_Error(CCCD_IMPROPERLY_CONFIGURED)  # the authorized write is refused
        if not self.received(connection, value) or not value or self.leaving:
            return
        opcode = value[0]
        dfu = self.dfu
        log.debug('control point %s (%s)', value.hex(), dfu.state.value)
        if opcode == START:
            if len(value) < 2:
                self.notify(connection, response(START, OPERATION_FAILED))
            else:
                dfu.packet_type = PacketType.START
                dfu.update_mode = value[1]
        elif opcode == INIT:
            if len(value) < 2:
                self.notify(connection, response(INIT, OPERATION_FAILED))
            else:
                dfu.packet_type = PacketType.INIT
                if value[1] == 0x01:
                    self.notify(connection, response(INIT, self.init_complete()))
        elif opcode == RECEIVE:
            dfu.packet_type = PacketType.FIRMWARE_DATA
        elif opcode == VALIDATE:
            self.notify(connection, response(VALIDATE, self.validate()))
        elif opcode in (ACTIVATE, RESET):
            # dfu_transport_close: a teardown (no advertising afterwards), the link dropped
            # with 0x13 right after the write response; no notification.
            asyncio.get_running_loop().create_task(self.leave_dfu('activate' if opcode == ACTIVATE else 'reset'))
        elif opcode == SIZE_REQUEST:
            self.notify(connection, response(SIZE_REQUEST, SUCCESS) + dfu.bytes_received.to_bytes(4, 'little'))
        elif opcode == PRN_REQUEST:
            if len(value) < 3:
                self.notify(connection, response(PRN_REQUEST, NOT_SUPPORTED))
            else:
                target = int.from_bytes(value[1:3], 'little')
                dfu.receipts_enabled, dfu.receipt_target, dfu.receipt_countdown = target > 0, target, target
        else:
            self.notify(connection, response(opcode, NOT_SUPPORTED))
        await self.answer(connection)

    # --- packet characteristic (on_dfu_pkt_write) ---

    async def packet_written(self, connection, value: bytes) -> None:
        value = bytes(value)
        if self.running != 'bootloader':
            return  # a write command cannot be refused
        if len(value) > self.args.max_packet_length:
            log.info('a %d-byte write to the packet characteristic (max_len %d) is dropped by the stack',
                     len(value), self.args.max_packet_length)
            return
        if not self.received(connection, value) or self.leaving:
            return
        kind = self.dfu.packet_type
        if kind == PacketType.START:
            self.start_packet(connection, value)
        elif kind == PacketType.INIT:
            self.init_packet(connection, value)
        elif kind == PacketType.FIRMWARE_DATA:
            self.data_packet(connection, value)
        # PKT_TYPE_INVALID: "not possible to find out what packet it is. Ignore."
        await self.answer(connection)

    def start_packet(self, connection, value: bytes) -> None:
        """start_data_process + dfu_start_pkt_handle."""
        if len(value) != 12:
            self.notify(connection, response(START, NOT_SUPPORTED))
            return
        sd_size, bl_size, app_size = (int.from_bytes(value[i:i + 4], 'little') for i in (0, 4, 8))
        dfu = self.dfu
        if dfu.update_mode != UPDATE_APPLICATION or sd_size or bl_size:
            status = NOT_SUPPORTED  # SoftDevice and bootloader updates are not modelled here
        elif app_size % 4:
            status = NOT_SUPPORTED  # "Image_sizes are not a multiple of 4 (word size)"
        else:
            dfu.image_size = app_size  # m_image_size is set before the state is looked at
            if app_size > self.args.bank_size:
                status = DATA_SIZE
            elif dfu.state != State.IDLE:
                status = INVALID_STATE  # only DFU_STATE_IDLE accepts a start
            elif not self.restart_timer():
                status = INVALID_STATE
            else:
                status = SUCCESS
        if status != SUCCESS:
            log.info('start refused: 10 01 %02X (state %s)', status, dfu.state.value)
            self.notify(connection, response(START, status))
            return
        dfu.state = State.PREPARING
        done = self.flash.erase(self.args.bank_size)  # dfu_prepare_func_swap_erase: the whole bank
        log.info('start: %d-byte application; erasing the swap bank (%d bytes, %.0f ms)', app_size,
                 self.args.bank_size, (done - time.monotonic()) * 1000)
        run = self.run_number

        def erased():
            if run == self.run_number:
                dfu.state = State.READY  # pstorage_callback_handler: PSTORAGE_CLEAR_OP_CODE
        asyncio.get_running_loop().call_later(done - time.monotonic(), erased)
        self.notify(connection, response(START, SUCCESS), at=done)

    def init_packet(self, connection, value: bytes) -> None:
        """init_data_process (pads to whole words) + dfu_init_pkt_handle."""
        value += bytes(-len(value) % 4)
        dfu = self.dfu
        if dfu.state == State.READY:
            dfu.state = State.RX_INIT_PACKET
        if dfu.state != State.RX_INIT_PACKET or dfu.data_received > 0:
            self.notify(connection, response(INIT, INVALID_STATE))
            return
        if not self.restart_timer():
            self.notify(connection, response(INIT, INVALID_STATE))
            return
        if len(dfu.init_packet) + len(value) > INIT_PACKET_MAX:
            self.notify(connection, response(INIT, OPERATION_FAILED))  # NRF_ERROR_INVALID_LENGTH
            return
        dfu.init_packet += value

    def init_complete(self) -> int:
        """dfu_init_pkt_complete + dfu_init_prevalidate (dfu_init_template.c)."""
        dfu = self.dfu
        if dfu.data_received > 0 or dfu.state != State.RX_INIT_PACKET:
            return INVALID_STATE
        packet = bytes(dfu.init_packet)
        status = SUCCESS
        if len(packet) < INIT_PACKET_FIXED:
            status = OPERATION_FAILED  # NRF_ERROR_INVALID_LENGTH
        else:
            device_type, device_revision = int.from_bytes(packet[0:2], 'little'), int.from_bytes(packet[2:4], 'little')
            count = int.from_bytes(packet[8:10], 'little')
            end = 10 + 2 * count
            softdevices = [int.from_bytes(packet[i:i + 2], 'little') for i in range(10, min(end, len(packet) - 1), 2)]
            if len(packet) - end < 2:
                status = OPERATION_FAILED  # the extended part (the CRC16) is missing
            elif self.args.device_type != DEVICE_TYPE_EMPTY and device_type != self.args.device_type:
                status = OPERATION_FAILED  # NRF_ERROR_INVALID_DATA outside validation
            elif self.args.device_revision != DEVICE_REVISION_EMPTY and device_revision != self.args.device_revision:
                status = OPERATION_FAILED
            elif not any(sd in (SOFTDEVICE_ANY, self.args.softdevice_id) for sd in softdevices):
                status = OPERATION_FAILED
            else:
                dfu.expected_crc = int.from_bytes(packet[end:end + 2], 'little')
        if status == SUCCESS:
            dfu.state = State.RX_DATA_PACKET
        else:
            dfu.init_packet.clear()
        log.info('init packet %s: 10 02 %02X', packet.hex(), status)
        return status

    def data_packet(self, connection, value: bytes) -> None:
        """app_data_process + dfu_data_pkt_handle."""
        dfu = self.dfu
        if len(value) % 4:
            self.notify(connection, response(RECEIVE, NOT_SUPPORTED))  # "not a multiple of 4 (word size)"
            return
        if dfu.state != State.RX_DATA_PACKET:
            self.notify(connection, response(RECEIVE, INVALID_STATE))
            return
        if dfu.data_received + len(value) > dfu.image_size:
            dfu.data_received = 0xFFFFFFFF  # "a serious error condition and an unrecoverable one"
            self.notify(connection, response(RECEIVE, DATA_SIZE))
            return
        if not self.restart_timer():
            self.notify(connection, response(RECEIVE, INVALID_STATE))
            return
        done = self.flash.write(len(value))  # pstorage_store, queued
        dfu.bank += value
        dfu.data_received += len(value)
        dfu.bytes_received += len(value)
        if dfu.data_received == dfu.image_size:
            # The final packet: no receipt, whatever the count; "Response will be sent when
            # flash operation for final packet is completed" (dfu_cb_handler, mp_final_packet).
            log.info('final packet: %d bytes received; 10 03 01 after the flash write (%.1f ms)',
                     dfu.bytes_received, max(0.0, done - time.monotonic()) * 1000)
            self.notify(connection, response(RECEIVE, SUCCESS), at=done)
            return
        if dfu.receipts_enabled:
            dfu.receipt_countdown -= 1
            if dfu.receipt_countdown == 0:
                self.notify(connection, bytes([RECEIPT]) + dfu.bytes_received.to_bytes(4, 'little'))
                dfu.receipt_countdown = dfu.receipt_target

    def validate(self) -> int:
        """dfu_image_validate + dfu_init_postvalidate (CRC16 of bank 1 against the init packet)."""
        dfu = self.dfu
        if dfu.state != State.RX_DATA_PACKET or dfu.data_received != dfu.image_size:
            return INVALID_STATE
        dfu.state = State.VALIDATE
        if not self.restart_timer():
            return INVALID_STATE
        crc = crc16(bytes(dfu.bank[:dfu.image_size]))
        if crc != dfu.expected_crc:
            log.info('validate: CRC16 %04X, the init packet says %04X', crc, dfu.expected_crc)
            return CRC_ERROR  # NRF_ERROR_INVALID_DATA in validation; the state stays VALIDATE
        dfu.state = State.WAIT_FOR_ACTIVATE
        log.info('validate: CRC16 %04X matches', crc)
        return SUCCESS

    # --- leaving DFU: activate, reset, timeout ---

    async def leave_dfu(self, why: str) -> None:
        """dfu_transport_close, then what bootloader.c and main.c do: activate copies bank 1 into
        bank 0 and starts the application without a reset (bootloader_app_start); a reset or a
        timeout starts a valid application, and otherwise resets into the bootloader again."""
        if self.leaving:
            return  # already tearing down (a second 05/06, or the timer meanwhile)
        self.leaving = True
        await asyncio.sleep(0.01)  # the write response of 05/06 goes out first
        if self.timer:
            self.timer.cancel()
        dfu = self.dfu
        await self.go_silent(REMOTE_USER_TERMINATED)
        self.run_number += 1
        silent = 0.0
        if why == 'activate' and dfu.state == State.WAIT_FOR_ACTIVATE:
            image = bytes(dfu.bank[:dfu.image_size])
            # dfu_activate_app: pstorage_clear(bank 0, size) + pstorage_store(bank 0 <- bank 1),
            # then the settings page (bootloader_settings_save: clear + store).
            self.flash.reset()
            done = self.flash.erase(len(image))
            done = self.flash.write(len(image))
            done = self.flash.erase(PAGE_SIZE)
            done = self.flash.write(32)
            silent = done - time.monotonic() + self.args.app_start_ms / 1000
            log.info('activate: bank 0 erased and written, settings saved; the application starts in %.0f ms', silent * 1000)
            self.application = image
        elif why == 'activate':
            log.info('activate in state %s: dfu_image_activate fails, dfu_reset', dfu.state.value)
        self.dfu = Bootloader()
        self.flash.reset()
        if self.application is not None:
            await asyncio.sleep(silent or self.args.app_start_ms / 1000)
            self.running = 'application'
            write_state_file(self.args.state_file, self.application, running='application')
            log.info('the application (%d bytes) runs, advertising as %s from %s', len(self.application),
                     self.args.app_name, self.args.app_address)
            await self.wake(self.application_advertising(), self.args.app_address)
            self.leaving = False
            return
        log.info('%s: no valid application, NVIC_SystemReset; the bootloader starts again', why)
        await asyncio.sleep(self.args.boot_ms / 1000)
        self.running = 'bootloader'
        self.restart_timer()  # dfu_init starts the timer
        self.leaving = False
        await self.wake()

    async def start(self) -> None:
        await self.run([Service(SERVICE_UUID, [self.packet, self.control_point, self.revision])])

    async def run(self, services) -> None:
        loop = asyncio.get_running_loop()
        loop.call_soon(self.restart_timer)  # dfu_init: the timer runs from the start
        await super().run(services)


def address_minus_one(address: str) -> str:
    """The application's address: the bootloader advertises from the device address with its
    least significant byte plus one (dfu_transport_update_start: addr.addr[0] += 1)."""
    parts = address.split(':')
    parts[-1] = f'{(int(parts[-1], 16) - 1) & 0xFF:02X}'
    return ':'.join(parts)


async def main() -> None:
    parser = argument_parser(__doc__.splitlines()[0], 'DfuTarg', 'F0:DF:00:00:04:01')
    parser.add_argument('--max-packet-length', type=int, default=244,
                        help='largest write the packet characteristic takes (max_len; default 244, '
                             'Adafruit_nRF52_Bootloader BLEGATT_ATT_MTU_MAX - 3; stock SDK 11: 20)')
    parser.add_argument('--bank-size', type=lambda text: int(text, 0), default=0x2F000,
                        help='the swap bank Start erases and the largest image (default 0x2F000, '
                             'DFU_IMAGE_MAX_SIZE_BANKED on nRF52 with S132 2.0)')
    parser.add_argument('--page-erase-ms', type=float, default=85, help='per 4 KiB page (default 85, nRF52)')
    parser.add_argument('--write-us-per-word', type=float, default=43, help='flash write (default 43, nRF52)')
    parser.add_argument('--inactivity-timeout-s', type=float, default=120,
                        help='DFU_TIMEOUT_INTERVAL (default 120)')
    parser.add_argument('--boot-ms', type=float, default=300,
                        help='silence from a reset to "DfuTarg" advertising again (default 300: assumed, '
                             'the SDK does not say; no application CRC runs without a valid application)')
    parser.add_argument('--app-start-ms', type=float, default=500,
                        help='after the copy into bank 0, until the application advertises (default 500: '
                             'assumed; its CRC16 check and start-up)')
    parser.add_argument('--app-name', default='Nordic_App', help='the application\'s advertised name')
    parser.add_argument('--app-address',
                        help='the application\'s address (default: the bootloader\'s with its last byte minus one)')
    parser.add_argument('--device-type', type=lambda text: int(text, 0), default=DEVICE_TYPE_EMPTY,
                        help='UICR device type the init packet must name (default 0xFFFF: any)')
    parser.add_argument('--device-revision', type=lambda text: int(text, 0), default=DEVICE_REVISION_EMPTY,
                        help='UICR device revision the init packet must name (default 0xFFFF: any)')
    parser.add_argument('--softdevice-id', type=lambda text: int(text, 0), default=0x0081,
                        help='the installed SoftDevice\'s firmware ID (default 0x0081, S132 2.0.0); an init '
                             'packet must list it or 0xFFFE')
    args = parser.parse_args()
    args.app_address = args.app_address or address_minus_one(args.address)
    peripheral = LegacyDFUPeripheral(args)
    if args.verbose:
        log.setLevel(logging.DEBUG)
    await peripheral.start()


if __name__ == '__main__':
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
