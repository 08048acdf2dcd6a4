#!/usr/bin/env python3
"""A CC26x2 running an off-chip OAD application of TI's BLE5-Stack (SimpleLink CC13xx/CC26xx
SDK simple_peripheral_oad_offchip) on a Bumble virtual controller, as its sources behave
(research/ti-oad.md). Sources, in TexasInstruments/simplelink-lowpower-f2-sdk:
  source/ti/ble5stack/profiles/oad/cc26xx/oad.c and oad.h   (the OAD profile: OAD_processQueue,
      oadImgIdentifyWrite, oadCheckImageID, oadImgBlockWrite, oadCheckDL, oadProcessExtControlCmd,
      oadGetNextBlockReq, oadSendNotification, OAD_setBlockSize, oadResetState, oadInactivityTimeout)
  source/ti/common/cc26xx/oad/oad_image_header.h            (imgFixedHdr_t, BIM_VER 3, META_VER 1)
  source/ti/common/cc26xx/crc/crc32.c                       (CRC32_calc: bytes 12 to len)
  examples/.../simple_peripheral_oad_offchip.c, project_zero.c (MTU -> OAD_setBlockSize, OAD_cancel
      on GAP_LINK_TERMINATED_EVENT, the link ended after OAD_IMG_ID_TIMEOUT, SysCtrlSystemReset
      once the enable answer is out)
  the off-chip BIM bim_offchip_main.c                       (checkImagesExtFlash: copy, CRC, jump)
It behaves as Sources/DFUSimulator/Devices/TIOAD/TIOADTarget.swift.

Service F000FFC0-0451-4000-B000-000000000000 (advertised, which the SDK's examples do not do):
Image Identify FFC1 and Image Block FFC2 (write, write without response, notify), Extended
Control FFC5 (write without response, notify). Nothing is notified before the central wrote
the CCCD (Bumble's notify_subscriber, as oadSendNotification's OAD_CCCD_NOT_ENABLED).

  FFC1 <22 bytes>     identify: imgID must be --image-id (10 INVALID_FILE), BIM/metadata versions
                      3/1 (11 INCOMPATIBLE_FILE), types 0, 5, 6, >= 64 refused (9); the answer is
                      one status byte on FFC1; the third refusal is 16 (IMG_ID_TIMEOUT) and the
                      link is ended. Accepted: blocks = ceil(len / (block size - 4)), the 10 s
                      inactivity clock starts (--inactivity-ms).
  FFC5 01             -> 01 <u16 block size>: (MTU - 3) & ~3 within 20...244
  FFC5 03             no answer: the first block request 12 00 00000000 (03 05 before identify)
  FFC2 <u32 n><data>  only the block asked for, of exactly the block size (the last: the rest):
                      else 12 03 00000000 (BUFFER_OFL) and the OAD is reset. When the header's
                      blocks are in, the image's 4 KiB pages are erased (--page-erase-ms each)
                      before the next request. After the last block: the CRC-32 of bytes 12 to
                      len against the header's crc32 (crcStat 0xFC refused too): 12 0E 00000000
                      (DL_COMPLETE), or 12 01 <blocks> (CRC_ERR) and the OAD reset.
  FFC5 04             enable: 04 06 unless the download is complete; else 04 00, and
                      --reset-delay-ms later the chip resets without ending the link (the
                      central sees 0x08, a supervision timeout), silent while the BIM copies the
                      image (--boot-ms plus the copy), then the new image advertises and answers
                      07 with its softVer; the state file names it.
  FFC5 07 / 08 / 09 / 10 / 05 / 06 / 11 / 13: software version, last status, profile version 01,
                      device type, cancel, disable block requests, image info, erase bonds; FF for
                      any other opcode.
A lost link cancels the OAD (no resume); 10 s without a block forgets it silently.
--corrupt-block N stores block N with one bit wrong (a flash fault), so the CRC check fails.

    ti_oad_device.py --transport tcp-client:127.0.0.1:PORT [--state-file PATH] [--image-id CC26x2R1] ...
"""
import asyncio
import logging
import struct
import time
import zlib

from bumble.gatt import Characteristic, CharacteristicValue, Service

from peripheral_common import REBOOT_REASON, Peripheral, argument_parser, write_state_file

SERVICE_UUID = 'F000FFC0-0451-4000-B000-000000000000'
IDENTIFY_UUID = 'F000FFC1-0451-4000-B000-000000000000'
BLOCK_UUID = 'F000FFC2-0451-4000-B000-000000000000'
CONTROL_UUID = 'F000FFC5-0451-4000-B000-000000000000'

# oad.h OAD_STATUS_CODES
SUCCESS, CRC_ERR, FLASH_ERR, BUFFER_OFL, ALREADY_STARTED, NOT_STARTED, DL_NOT_COMPLETE = 0, 1, 2, 3, 4, 5, 6
INCOMPATIBLE_IMAGE, INVALID_FILE, INCOMPATIBLE_FILE, DL_COMPLETE, IMG_ID_TIMEOUT = 9, 10, 11, 14, 16
CMD_NOT_SUPPORTED = 0xFF
BLOCK_REQUEST = 0x12
BIM_VER, META_VER = 3, 1
CRC_INVALID = 0xFC
CANDIDATE_HEADER_SIZE = 56       # sizeof(imgHdr_t): core header + contiguous segment (stack library build)
INTERNAL_PAGE = 8192             # HAL_FLASH_PAGE_SIZE on CC26x2
EXTERNAL_PAGE = 4096             # EFL_PAGE_SIZE
BIM_START = 0x56000
IMAGE_TYPE_MERGED, IMAGE_TYPE_APPSTACKLIB = 3, 7

log = logging.getLogger('ti-oad')


def block_size_for(mtu: int) -> int:
    """OAD_setBlockSize: the notify/write payload, 4-byte aligned, 20...244."""
    return min(max((mtu - 3) & ~3, 20), 244)


def crc_matches(image: bytes) -> bool:
    """oadCheckDL: crcStat not CRC_INVALID and CRC32_calc(bytes 12 .. len) == crc32 (erased flash,
    0xFF, past what was written)."""
    if len(image) < 44:
        return False
    crc32, crc_stat, length = struct.unpack_from('<I', image, 8)[0], image[17], struct.unpack_from('<I', image, 24)[0]
    if crc_stat == CRC_INVALID:
        return False
    padded = image + bytes([0xFF]) * max(0, length - len(image))
    return zlib.crc32(padded[12:length]) & 0xFFFFFFFF == crc32


class Download:
    def __init__(self, length: int, block_count: int):
        self.length, self.block_count = length, block_count
        self.next_block = 0
        self.stored = bytearray()


class TIOADPeripheral(Peripheral):
    def __init__(self, args):
        super().__init__(args, SERVICE_UUID)
        self.image_id = args.image_id.encode().ljust(8, b' ')[:8]
        # The running image's header (oad_image_header_app.c): imgID, crc32, BIM 3, metadata 1,
        # BLE, FF FF, type 7, number 1, imgVld, len, prgEntry, softVer, end, hdrLen 44, rfu.
        self.running = struct.pack('<8sIBBHBBBBIII4sIHH', self.image_id, 0xFFFFFFFF, BIM_VER, META_VER, 0xFFFE,
                                   0xFF, 0xFF, IMAGE_TYPE_APPSTACKLIB, 1, 0xFFFFFFFF, 0xFFFFFFFF, 0,
                                   args.sw_version.encode()[:4].ljust(4, b'0'), 0, 44, 0xFFFF)
        # OAD_open backs the running image up to external flash as the factory image
        # (oadCreateFactoryImageBackup): what the BIM reverts to (--bim-crc fails).
        self.factory = self.running
        self.state = 'idle'            # idle, configured, downloading, complete (oadState_e)
        self.download: Download | None = None
        self.retries = 3                # OAD_IMG_ID_RETRIES
        self.block_requests_on = True
        self.global_status = SUCCESS
        self.timer: asyncio.TimerHandle | None = None
        self.flash_idle_at = 0.0
        self.resetting = False
        props = Characteristic.Properties
        self.identify = Characteristic(IDENTIFY_UUID, props.WRITE | props.WRITE_WITHOUT_RESPONSE | props.NOTIFY,
                                       Characteristic.Permissions.WRITEABLE, CharacteristicValue(write=self.identify_written))
        self.block = Characteristic(BLOCK_UUID, props.WRITE | props.WRITE_WITHOUT_RESPONSE | props.NOTIFY,
                                    Characteristic.Permissions.WRITEABLE, CharacteristicValue(write=self.block_written))
        self.control = Characteristic(CONTROL_UUID, props.WRITE_WITHOUT_RESPONSE | props.NOTIFY,
                                      Characteristic.Permissions.WRITEABLE, CharacteristicValue(write=self.control_written))

    # --- state (oadResetState, the inactivity clock) ---

    def reset(self) -> None:
        self.state, self.download, self.retries = 'idle', None, 3
        if self.timer:
            self.timer.cancel()
            self.timer = None

    def restart_clock(self) -> None:
        if self.timer:
            self.timer.cancel()
        self.timer = asyncio.get_running_loop().call_later(self.args.inactivity_ms / 1000, self.inactivity_expired)

    def inactivity_expired(self) -> None:
        log.info('inactivity timeout (%d ms) in state %s: the OAD is reset, nothing is notified',
                 self.args.inactivity_ms, self.state)
        self.timer = None
        self.reset()

    def on_disconnected(self, connection, reason: int) -> None:
        if self.state != 'idle':
            log.info('link lost in state %s: OAD_cancel', self.state)
        self.reset()

    # --- notifications ---

    def notify_at(self, connection, characteristic, value: bytes, ready: float | None = None) -> None:
        """Queue a notification once the device's flash work is done (`ready`, monotonic)."""
        delay = max(0.0, (ready or 0.0) - time.monotonic())
        if delay <= 0:
            self.send(connection, characteristic, [value])
        else:
            asyncio.get_running_loop().call_later(delay, self.send, connection, characteristic, [value])

    def block_request(self, connection, status: int, block: int, ready: float | None = None) -> None:
        if self.block_requests_on:
            self.notify_at(connection, self.control, bytes([BLOCK_REQUEST, status]) + struct.pack('<I', block), ready)

    def busy_until(self, seconds: float) -> float:
        self.flash_idle_at = max(time.monotonic(), self.flash_idle_at) + seconds
        return self.flash_idle_at

    # --- Image Identify ---

    async def identify_written(self, connection, value) -> None:
        value = bytes(value)
        if not self.received(connection, value) or self.resetting:
            return
        self.handle_identify(connection, value)
        await self.drop_if_due(connection)

    def handle_identify(self, connection, value: bytes) -> None:
        if self.state == 'configured':
            self.block_request(connection, NOT_STARTED, 0)
            self.reset()
            return
        if self.state != 'idle':
            self.reset()
            return
        payload = value.ljust(22, b'\0')
        status = SUCCESS
        if payload[0:8] != self.image_id:
            status = INVALID_FILE
        if payload[8] != BIM_VER or payload[9] != META_VER:
            status = INCOMPATIBLE_FILE
        image_type, length = payload[12], struct.unpack_from('<I', payload, 14)[0]
        if image_type == IMAGE_TYPE_MERGED:
            if (length - 1) & 0xFFFFFFFF > BIM_START - 1:
                status = 8  # IMAGE_TOO_BIG
        elif image_type in (0, 5, 6) or image_type >= 64:
            status = INCOMPATIBLE_IMAGE
        ready = None
        if status == SUCCESS:
            per_block = block_size_for(connection.att_mtu) - 4
            self.download = Download(length, (length + per_block - 1) // per_block)
            self.state = 'configured'
            self.restart_clock()
            ready = self.busy_until(self.args.page_erase_ms / 1000)  # the metadata page
            log.info('identify accepted: %d bytes, %d blocks of %d', length, self.download.block_count, per_block)
        else:
            self.retries -= 1
            if self.retries == 0:
                status = IMG_ID_TIMEOUT
            log.info('identify refused: %d (imgID %r)', status, payload[0:8])
        self.global_status = status
        self.notify_at(connection, self.identify, bytes([status]), ready)
        if status == IMG_ID_TIMEOUT:
            # "Display the error and terminate the link" (oad.h, project_zero.c).
            asyncio.get_running_loop().call_later(0.05, lambda: asyncio.ensure_future(self.end_link(connection)))

    async def end_link(self, connection) -> None:
        try:
            await connection.disconnect(reason=0x13)
        except Exception as error:  # already gone
            log.info('disconnect failed: %s', error)

    # --- Image Block ---

    async def block_written(self, connection, value) -> None:
        value = bytes(value)
        if not self.received(connection, value) or self.resetting:
            return
        self.handle_block(connection, value)
        await self.drop_if_due(connection)

    def handle_block(self, connection, value: bytes) -> None:
        download = self.download
        if self.state == 'complete':
            self.reset()
            return
        if self.state != 'downloading' or download is None:
            self.block_request(connection, NOT_STARTED, 0)
            self.reset()
            return
        self.restart_clock()
        block_size = block_size_for(connection.att_mtu)
        per_block = block_size - 4
        number = struct.unpack_from('<I', value, 0)[0] if len(value) >= 4 else -1
        last = download.block_count - 1
        expected = download.length % per_block + 4 if number == last and download.length % per_block else block_size
        if number != download.next_block or len(value) != expected:
            log.info('block %d (%d bytes) while block %d (%d bytes) was asked for: BUFFER_OFL', number, len(value),
                     download.next_block, expected)
            self.global_status = BUFFER_OFL
            self.block_request(connection, BUFFER_OFL, 0)
            self.reset()
            return
        data = bytearray(value[4:])
        if number == self.args.corrupt_block and data:
            data[-1] ^= 0x01
        download.stored += data
        header_blocks = (CANDIDATE_HEADER_SIZE + per_block - 1) // per_block
        ready = None
        if number == header_blocks - 1 or (number == last and number < header_blocks - 1):
            start = struct.unpack_from('<I', download.stored, 52)[0] if len(download.stored) >= 56 else 0
            if start % INTERNAL_PAGE:
                self.block_request(connection, INCOMPATIBLE_IMAGE, number + 1)
                self.reset()
                return
            pages = (download.length + EXTERNAL_PAGE - 1) // EXTERNAL_PAGE
            ready = self.busy_until(pages * self.args.page_erase_ms / 1000)
            log.info('header in: %d pages erased', pages)
        download.next_block = number + 1
        if download.next_block < download.block_count:
            self.global_status = SUCCESS
            self.block_request(connection, SUCCESS, download.next_block, ready)
            return
        image = bytes(download.stored)
        if not crc_matches(image):
            log.info('last block: CRC_ERR')
            self.global_status = CRC_ERR
            self.block_request(connection, CRC_ERR, download.block_count, ready)
            self.reset()
            return
        log.info('last block: the CRC matches, DL_COMPLETE')
        self.state, self.global_status = 'complete', DL_COMPLETE
        download.next_block = 0
        self.block_request(connection, DL_COMPLETE, 0, ready)

    # --- Extended Control ---

    async def control_written(self, connection, value) -> None:
        value = bytes(value)
        if not value or not self.received(connection, value) or self.resetting:
            return
        self.handle_control(connection, value)
        await self.drop_if_due(connection)

    def handle_control(self, connection, value: bytes) -> None:
        opcode = value[0]
        header = self.running
        if opcode == 0x01:
            answer = bytes([opcode]) + struct.pack('<H', block_size_for(connection.att_mtu))
        elif opcode == 0x02:
            answer = bytes([opcode, SUCCESS if self.state == 'configured' else NOT_STARTED])
        elif opcode == 0x03:
            if self.state == 'configured':
                self.state = 'downloading'
                self.block_request(connection, SUCCESS, 0, self.flash_idle_at)  # "a RSP is not sent"
                return
            answer = bytes([opcode, NOT_STARTED])
        elif opcode == 0x04:
            answer = self.enable(connection, value)
            if answer is None:
                return
        elif opcode == 0x05:
            answer = bytes([opcode, NOT_STARTED if self.state == 'idle' else SUCCESS])
            self.reset()
        elif opcode == 0x06:
            self.block_requests_on = False
            answer = bytes([opcode, SUCCESS])
        elif opcode == 0x07:
            answer = bytes([opcode]) + header[32:36]
        elif opcode == 0x08:
            answer = bytes([opcode, self.global_status])
        elif opcode == 0x09:
            answer = bytes([opcode, 0x01])
        elif opcode == 0x10:
            answer = bytes([opcode, 0x0B, 0x06, 0x21, 0xFF])  # ChipInfo of a CC2652R (assumed values)
        elif opcode == 0x11:
            answer = bytes([opcode, 0x01, header[16], header[17], header[18], header[19]])
        elif opcode == 0x13:
            answer = bytes([opcode, SUCCESS])
        else:
            answer = bytes([CMD_NOT_SUPPORTED])
        self.notify_at(connection, self.control, answer)

    def enable(self, connection, value: bytes) -> bytes | None:
        if len(value) == 5:
            return bytes([0x04, CMD_NOT_SUPPORTED])  # the extended enable is not modelled
        if len(value) != 1:
            return bytes([0x04, SUCCESS])  # oad.c answers what it started with, and does nothing
        if self.state != 'complete' or self.download is None:
            return bytes([0x04, DL_NOT_COMPLETE])
        image = bytes(self.download.stored)
        if not (0 < image[18] <= 3 or image[18] == IMAGE_TYPE_APPSTACKLIB):
            return bytes([0x04, INCOMPATIBLE_IMAGE])
        ready = self.busy_until(self.args.page_erase_ms / 1000)  # the metadata page: NEED_COPY
        self.resetting = True
        if self.args.enable_answer == 'lost':
            # oad.c calls the application's OAD_DL_COMPLETE_EVT before it sends 04 00; the
            # application's SysCtrlSystemReset wins: the answer never goes out.
            log.info('enable: resetting before the answer goes out (--enable-answer lost)')
            delay = max(0.0, ready - time.monotonic())
            asyncio.get_running_loop().call_later(delay, lambda: asyncio.ensure_future(self.reset_into(image)))
            return None
        self.notify_at(connection, self.control, bytes([0x04, SUCCESS]), ready)
        delay = max(0.0, ready - time.monotonic()) + self.args.reset_delay_ms / 1000
        asyncio.get_running_loop().call_later(delay, lambda: asyncio.ensure_future(self.reset_into(image)))
        return None

    async def reset_into(self, image: bytes) -> None:
        """SysCtrlSystemReset (no LL terminate), then the off-chip BIM: copy out of external flash,
        CRC-32 of the copy, jump to the image."""
        log.info('reset: the BIM copies %d bytes and checks their CRC', len(image))
        await self.go_silent(REBOOT_REASON)
        self.reset()
        pages = (len(image) + INTERNAL_PAGE - 1) // INTERNAL_PAGE
        await asyncio.sleep((self.args.boot_ms + pages * self.args.page_erase_ms) / 1000)
        if crc_matches(image) and self.args.bim_crc == 'fails':
            # bim_offchip_main.c checkImagesExtFlash: the CRC of the copy fails, CRC_INVALID, no
            # jump; checkImagesIntFlash refuses the copy; Bim_revertFactoryImage copies the factory
            # image back and runs it.
            await asyncio.sleep(pages * self.args.page_erase_ms / 1000)
            self.running = self.factory
            write_state_file(self.args.state_file, self.factory, version=self.factory[32:36].decode('ascii', 'replace'),
                             running='factory image (the BIM rejected the new one)')
            log.info('the BIM rejected the new image (--bim-crc fails): the factory image runs')
        elif crc_matches(image):
            self.running = image
            write_state_file(self.args.state_file, image, version=image[32:36].decode('ascii', 'replace'),
                             running='new image')
            log.info('the new image runs (software version %r)', image[32:36])
        self.resetting = False
        await self.wake()


async def main() -> None:
    parser = argument_parser(__doc__.splitlines()[0], 'OAD-BUMBLE', 'F0:DF:00:00:08:01')
    parser.add_argument('--image-id', default='CC26x2R1', help="the device's OAD_IMG_ID_VAL (default CC26x2R1)")
    parser.add_argument('--sw-version', default='0001', help="the running image's softVer (default 0001)")
    parser.add_argument('--inactivity-ms', type=int, default=10000,
                        help='OAD_open timeout (default 10000, OAD_DEFAULT_INACTIVITY_TIME)')
    parser.add_argument('--corrupt-block', type=int, default=-1,
                        help='store this block with one bit wrong (a flash fault): the CRC check fails')
    parser.add_argument('--page-erase-ms', type=float, default=85, help='per flash page (default 85, as the simulator)')
    parser.add_argument('--reset-delay-ms', type=float, default=100,
                        help='from the enable answer to the reset (default 100: the connection events the '
                             'application waits for its queued answer)')
    parser.add_argument('--boot-ms', type=float, default=1000,
                        help='silence after the reset besides the copy (default 1000, assumed)')
    parser.add_argument('--bim-crc', choices=['passes', 'fails'], default='passes',
                        help="fails: the off-chip BIM's CRC-32 of the copied image fails; it reverts to the factory "
                             "image (the one the device started with), after DL_COMPLETE and 04 00")
    parser.add_argument('--enable-answer', choices=['sent', 'lost'], default='sent',
                        help='lost: the reset comes before the 04 00 answer goes out (the new image then runs)')
    args = parser.parse_args()
    peripheral = TIOADPeripheral(args)
    if args.verbose:
        log.setLevel(logging.DEBUG)
    await peripheral.run([Service(SERVICE_UUID, [peripheral.identify, peripheral.block, peripheral.control])])


if __name__ == '__main__':
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
