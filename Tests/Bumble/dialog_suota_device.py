#!/usr/bin/env python3
"""A DA14585 application with Dialog's SDK 6 SUOTA receiver (and the secondary bootloader that
runs after its reboot) on a Bumble virtual controller, as /work/research/dialog-suota.md describes
it. Written from the SDK sources, not from DFUKit's simulator:
  sdk/ble_stack/profiles/suota/suotar/src/suotar.c       (the service: suotar_init, suotar_cleanup)
  sdk/ble_stack/profiles/suota/suotar/src/suotar_task.c  (writes, reads, status notifications)
  sdk/app_modules/src/app_suotar/app_suotar.c            (app_suotar_read_mem, app_suotar_img_hdlr,
      app_read_image_headers, app_set_image_valid_flag, app_find_old_img, app_get_image_id)
  sdk/app_modules/src/app_suotar/app_suotar_task.c       (PATCH_LEN, PATCH_DATA, GPIO_MAP handlers)
  the examples' user_app_on_disconnect                    (platform_reset once a reboot was asked)
  secondary bootloader bootloader.c                       (loadActiveImage, findlatest)
as copied in byteman/da14585 @ cd9bee3 and HugYJrxe02/da14531_at @ 7eea124.

Service 0xFEF5: MEM_DEV (read, write), GPIO_MAP (read, write), MEM_INFO (read), PATCH_LEN (read,
write), PATCH_DATA (read, write, write without response; 244 bytes at most), SERV_STATUS (read,
notify), VERSION (13), PATCH_DATA_CHAR_SIZE (244), MTU. Every status is one notified byte, sent
only while the client has notifications on (a new connection starts with them off).

  MEM_DEV 0x13|0x12 << 24 | bank  IMG_STARTED (0x10); bank > 2: INVAL_IMG_BANK; the indexes and
                                   the XOR are reset. 0x10/0x11 and unknown types: INVAL_MEM_TYPE.
  GPIO_MAP                         stored, not answered.
  PATCH_LEN u16                    0: PATCH_LEN_ERR; > 512: INT_MEM_ERR; else the block size.
  PATCH_DATA                       into the 512-byte buffer; a whole block is XORed into the
                                   checksum and written: the first one's 64-byte header is checked
                                   (signature 'pQ', code size against the banks, same version and
                                   timestamp as the chosen bank's valid image), a bank chosen (0:
                                   the invalid one, else the older), erased and written with its
                                   valid flag 0xFF; later blocks up to the image's end. MEM_INFO =
                                   image bytes written; status CMP_OK (0x02) or the error.
  MEM_DEV 0xFE000000 (end)         XOR not 0: CRC_ERR; else valid flag 0xAA: CMP_OK.
  MEM_DEV 0xFD000000 (reboot)      the write response, then the device ends the link (0x13) and
                                   resets: the bootloader runs the newest valid bank whose CRC-32
                                   matches; the application advertises after --boot-ms.
  MEM_DEV 0xFF000000               SRV_EXIT.
A lost link keeps the session (retention memory); only a reset loses it. The device starts with
a factory image (version 0.9.0, 8,000 bytes) valid in bank 1, bank 2 erased; banks of 0xB000 bytes
(the DA14580 layout of Dialog's SUOTA scripts: images at 0x8000 and 0x13000) unless --bank-size.

The state file names the image that runs: {"sha256", "size" (of the .img file as mkimage wrote
it), "version", "bank"}, written at every boot.

    dialog_suota_device.py --transport tcp-client:127.0.0.1:PORT [--state-file PATH]
                           [--disconnect-after BYTES] [--bank2 FILE.img] ...
"""
import asyncio
import dataclasses
import logging
import random
import struct
import time
import zlib

from bumble.att import ATT_Error
from bumble.gatt import Characteristic, CharacteristicValue, Service

from peripheral_common import Peripheral, argument_parser, write_state_file

SERVICE_UUID = 'FEF5'
MEM_DEV_UUID = '8082CAA8-41A6-4021-91C6-56F9B954CC34'
GPIO_MAP_UUID = '724249F0-5EC3-4B5F-8804-42345AF08651'
MEM_INFO_UUID = '6C53DB25-47A1-45FE-A022-7C92FB334FD4'
PATCH_LEN_UUID = '9D84B9A3-000C-49D8-9183-855B673FDA31'
PATCH_DATA_UUID = '457871E8-D516-4CA1-9116-57D0B17B9CB2'
STATUS_UUID = '5F78DF94-798C-46F5-990A-B3EB6A065C88'
VERSION_UUID = '64B4E8B5-0DE5-401B-A21D-ACC8DB3B913A'
PATCH_DATA_SIZE_UUID = '42C3DFDD-77BE-4D9C-8454-8F875267FB3B'
MTU_UUID = 'B7DE1EEA-823D-43BB-A3AF-C4903DFCE23C'

SUOTA_VERSION = 13  # SUOTA_VERSION_1_3
PD_CHAR_SIZE = 244  # SUOTA_PD_CHAR_SIZE for 1.3
OVERALL_PD_SIZE = 0x200  # SUOTA_OVERALL_PD_SIZE: the block buffer
HEADER_SIZE = 64  # CODE_OFFSET
SECTOR = 4096
INVALID_LENGTH = 0x0D  # ATT: invalid attribute value length
REMOTE_USER_TERMINATED = 0x13  # app_easy_gap_disconnect

# suotar.h status values
CMP_OK, SRV_EXIT, CRC_ERR, PATCH_LEN_ERR, EXT_MEM_WRITE_ERR, INT_MEM_ERR, INVAL_MEM_TYPE = 2, 3, 4, 5, 6, 7, 8
IMG_STARTED, INVAL_IMG_BANK, INVAL_IMG_HDR, INVAL_IMG_SIZE, INVAL_PRODUCT_HDR, SAME_IMG_ERR = 0x10, 0x11, 0x12, 0x13, 0x14, 0x15
# app_suotar.h memory types and commands
IMG_I2C_EEPROM, IMG_SPI_FLASH, MEM_INVAL_DEV = 0x12, 0x13, 0x14
REBOOT, IMG_END, SERVICE_EXIT = 0xFD, 0xFE, 0xFF
# SDK_VERSION (sdk_version.h) of Dialog's SDK 6.0.18: what the examples' DIS reports in 2A26 and 2A28.
SDK_VERSION = 'v_6.0.18.1182.1'
VALID = 0xAA  # STATUS_VALID_IMAGE

log = logging.getLogger('dialog-suota')


@dataclasses.dataclass
class Header:
    """mkimage's struct image_header (64 bytes, little-endian)."""
    signature: bytes
    valid: int
    image_id: int
    code_size: int
    crc: int
    version: bytes
    timestamp: int
    encryption: int

    FORMAT = '<2sBBII16sIB'

    @classmethod
    def parse(cls, data: bytes) -> 'Header':
        return cls(*struct.unpack_from(cls.FORMAT, data))

    def pack(self) -> bytes:
        fields = struct.pack(self.FORMAT, self.signature, self.valid, self.image_id, self.code_size, self.crc,
                             self.version, self.timestamp, self.encryption)
        return fields + b'\xff' * (HEADER_SIZE - len(fields))

    def text_version(self) -> str:
        return self.version.split(b'\x00')[0].split(b'\xff')[0].decode('ascii', 'replace')


@dataclasses.dataclass
class Bank:
    header: Header | None = None  # None: erased
    code: bytearray = dataclasses.field(default_factory=bytearray)

    def valid(self) -> bool:
        return self.header is not None and self.header.valid == VALID and self.header.signature == b'pQ'

    def crc_ok(self) -> bool:
        h = self.header
        return h is not None and len(self.code) >= h.code_size and zlib.crc32(bytes(self.code[:h.code_size])) == h.crc

    def file(self) -> bytes:
        """The .img file this bank holds, with the header as mkimage wrote it (valid 0xAA, id 0xFF)."""
        h = dataclasses.replace(self.header, valid=VALID, image_id=0xFF)
        return h.pack() + bytes(self.code[:h.code_size])


def factory_image() -> bytes:
    code = random.Random(0x5107A).randbytes(8000)
    header = Header(b'pQ', VALID, 0xFF, len(code), zlib.crc32(code), b'0.9.0\x00' + b'\xff' * 10, 1_700_000_000, 0)
    return header.pack() + code


@dataclasses.dataclass
class Session:
    """suota_state: retention memory, kept across links, lost at a reset (app_suotar_init)."""
    mem_dev: int = MEM_INVAL_DEV
    image_bank: int = 0
    gpio_map: int = 0
    patch_len: int = 0
    block: bytearray = dataclasses.field(default_factory=bytearray)
    img_idx: int = 0
    image_len: int = 0
    xor: int = 0
    target: int | None = None  # mem_base_add: the bank chosen by the first block
    mem_info: int = 0
    reboot_requested: bool = False


class SUOTAPeripheral(Peripheral):
    def __init__(self, args):
        super().__init__(args, SERVICE_UUID)
        self.banks = [Bank(), Bank()]
        self.program(0, factory_image(), 0)
        if args.bank2:
            with open(args.bank2, 'rb') as handle:
                self.program(1, handle.read(), 0)
        self.session = Session()
        self.running_version = ''  # the header version of the image that runs (set at every boot)
        self.flash_free_at = 0.0
        self.written = {}  # MEM_DEV, GPIO_MAP, PATCH_LEN read back as written
        self.run_number = 0  # bumps at every reset: answers of an older run are dropped
        properties = Characteristic.Properties
        rw = Characteristic.Permissions.READABLE | Characteristic.Permissions.WRITEABLE
        readable = Characteristic.Permissions.READABLE
        self.mem_dev = Characteristic(MEM_DEV_UUID, properties.READ | properties.WRITE, rw,
                                      CharacteristicValue(read=self.read_back(MEM_DEV_UUID, 4), write=self.mem_dev_written))
        self.gpio_map = Characteristic(GPIO_MAP_UUID, properties.READ | properties.WRITE, rw,
                                       CharacteristicValue(read=self.read_back(GPIO_MAP_UUID, 4), write=self.gpio_map_written))
        self.mem_info = Characteristic(MEM_INFO_UUID, properties.READ, readable,
                                       CharacteristicValue(read=lambda _: self.session.mem_info.to_bytes(4, 'little')))
        self.patch_len = Characteristic(PATCH_LEN_UUID, properties.READ | properties.WRITE, rw,
                                        CharacteristicValue(read=self.read_back(PATCH_LEN_UUID, 2), write=self.patch_len_written))
        self.patch_data = Characteristic(PATCH_DATA_UUID, properties.READ | properties.WRITE | properties.WRITE_WITHOUT_RESPONSE,
                                         rw, CharacteristicValue(read=lambda _: b'', write=self.patch_data_written))
        self.status = Characteristic(STATUS_UUID, properties.READ | properties.NOTIFY, readable, bytes([0]))
        self.version = Characteristic(VERSION_UUID, properties.READ, readable, bytes([SUOTA_VERSION]))
        self.pd_size = Characteristic(PATCH_DATA_SIZE_UUID, properties.READ, readable, PD_CHAR_SIZE.to_bytes(2, 'little'))
        self.mtu = Characteristic(MTU_UUID, properties.READ, readable,
                                  CharacteristicValue(read=lambda connection: connection.att_mtu.to_bytes(2, 'little')))
        # Device Information as the SDK 6 examples register it (user_profiles_config.h:
        # APP_DIS_FIRM_REV_STR and APP_DIS_SW_REV_STR are SDK_VERSION); --dis image: 2A28 is the
        # running image's header version; --dis none: no service. Both follow the image that runs.
        self.firmware_revision = Characteristic('2A26', properties.READ, readable,
                                                CharacteristicValue(read=lambda _: SDK_VERSION.encode()))
        self.software_revision = Characteristic('2A28', properties.READ, readable, CharacteristicValue(
            read=lambda _: (self.running_version if args.dis == 'image' else SDK_VERSION).encode()))

    # --- flash and boot ---

    def program(self, index: int, image: bytes, image_id: int) -> None:
        header = Header.parse(image)
        header.valid, header.image_id = VALID, image_id
        self.banks[index] = Bank(header, bytearray(image[HEADER_SIZE:]))

    @property
    def max_code_size(self) -> int:
        return self.args.bank_size - HEADER_SIZE  # offset2 - offset1 - 64

    def boot_bank(self) -> int | None:
        """loadActiveImage: the newer valid bank (findlatest), the other when its CRC fails."""
        valid = [index for index in (0, 1) if self.banks[index].valid()]
        if len(valid) == 2:
            id1, id2 = self.banks[0].header.image_id, self.banks[1].header.image_id
            first = False if (id1 == 0xFF and id2 == 0) else True if (id2 == 0xFF and id1 == 0) else id1 >= id2
            valid = [0, 1] if first else [1, 0]
        return next((index for index in valid if self.banks[index].crc_ok()), None)

    def boot(self) -> None:
        bank = self.boot_bank()
        if bank is None:
            log.info('nothing to boot')
            return
        image = self.banks[bank].file()
        self.running_version = self.banks[bank].header.text_version()
        log.info('boot: bank %d, version %s', bank + 1, self.banks[bank].header.text_version())
        write_state_file(self.args.state_file, image, version=self.banks[bank].header.text_version(), bank=bank + 1)

    def flash_done(self, seconds: float) -> float:
        """The flash works in order (the BLE task waits for it); when this operation is done."""
        self.flash_free_at = max(self.flash_free_at, time.monotonic()) + seconds
        return self.flash_free_at

    # --- status notifications ---

    def notify(self, connection, status: int, at: float | None = None) -> None:
        self.status.value = bytes([status])
        run = self.run_number

        def send():
            if run != self.run_number or connection not in self.connections:
                return
            if self.device.gatt_server.read_cccd(connection, self.status)[0] & 0x03:
                self.send(connection, self.status, [bytes([status])])
        delay = 0.0 if at is None else max(0.0, at - time.monotonic())
        asyncio.get_running_loop().call_later(delay, send)

    def read_back(self, uuid: str, size: int):
        return lambda _connection: self.written.get(uuid, bytes(size))

    def on_disconnected(self, connection, reason: int) -> None:
        self.status.value = bytes([0])  # suotar_cleanup
        if self.session.reboot_requested and self.args.on_reboot == 'reset':
            self.silent = True  # no advertising until the reset is over
            asyncio.get_running_loop().create_task(self.reset('reboot requested (user_app_on_disconnect)'))

    async def reset(self, why: str) -> None:
        """platform_reset: RAM (the session) is lost; the bootloader picks the image to run."""
        log.info('reset: %s', why)
        self.run_number += 1
        await self.go_silent(REMOTE_USER_TERMINATED)
        self.session = Session()
        self.written.clear()
        self.flash_free_at = 0.0
        self.boot()
        await asyncio.sleep(self.args.boot_ms / 1000)
        await self.wake()

    # --- writes ---

    async def after_write(self, connection, statuses: list[tuple[int, float | None]]) -> None:
        """The injected disconnect (processed, not answered), or the statuses."""
        if await self.drop_if_due(connection):
            return
        for status, at in statuses:
            self.notify(connection, status, at)

    async def mem_dev_written(self, connection, value: bytes) -> None:
        value = bytes(value)
        if not self.received(connection, value):
            return
        self.written[MEM_DEV_UUID] = value[:4]
        word = int.from_bytes((value + bytes(4))[:4], 'little')
        command, base = word >> 24, word & 0xFFFF
        s = self.session
        s.mem_info = 0  # suotar_patch_mem_dev_ind_handler: mem_info = 0, then the update
        statuses = []
        log.debug('MEM_DEV %08X', word)
        if command < MEM_INVAL_DEV:
            s.mem_dev = command
            if command in (IMG_I2C_EEPROM, IMG_SPI_FLASH):
                if base > 2:
                    await self.after_write(connection, [(INVAL_IMG_BANK, None)])
                    return
                s.image_bank = base
        if command in (IMG_I2C_EEPROM, IMG_SPI_FLASH):  # app_suotar_start
            s.block, s.img_idx, s.patch_len, s.xor = bytearray(), 0, 0, 0
            statuses.append((IMG_STARTED, None))
            log.info('memory device %08X: image transfer started (bank %d)', word, s.image_bank)
        elif command == SERVICE_EXIT:
            s.mem_dev, s.block, s.patch_len = MEM_INVAL_DEV, bytearray(), 0
            statuses.append((SRV_EXIT, None))
        elif command == IMG_END:
            statuses.append(self.end())
            s.mem_dev, s.block, s.patch_len = MEM_INVAL_DEV, bytearray(), 0
        elif command == REBOOT:
            # reboot_requested = 1; app_easy_gap_disconnect: the write response goes first.
            s.reboot_requested = True
            if await self.drop_if_due(connection):
                return
            if self.args.on_reboot == 'ignore':
                # An application whose receiver does not act on 0xFD: answered, nothing else.
                log.info('reboot requested: ignored (--on-reboot ignore), the old image runs on')
                return
            log.info('reboot requested: ending the link')

            async def end_link():
                await asyncio.sleep(0.01)
                try:
                    await connection.disconnect(reason=REMOTE_USER_TERMINATED)
                except Exception as error:  # already gone: on_disconnected resets anyway
                    log.info('disconnect failed: %s', error)
            asyncio.get_running_loop().create_task(end_link())
            return
        else:  # 0x10, 0x11, 0x00-0x03 and anything unknown
            s.mem_dev = MEM_INVAL_DEV
            statuses.append((INVAL_MEM_TYPE, None))
        await self.after_write(connection, statuses)

    def end(self) -> tuple[int, float | None]:
        """IMG_END: the XOR check, then app_set_image_valid_flag."""
        s = self.session
        if s.xor != 0:
            log.info('end: XOR 0x%02X, not 0: CRC_ERR', s.xor)
            return CRC_ERR, None
        if s.mem_dev not in (IMG_SPI_FLASH, IMG_I2C_EEPROM):
            return EXT_MEM_WRITE_ERR, None
        if s.target is not None and self.banks[s.target].header is not None:
            self.banks[s.target].header.valid = VALID
            log.info('end: bank %d marked valid', s.target + 1)
        return CMP_OK, self.flash_done(self.args.write_us_per_byte / 1e6)

    async def gpio_map_written(self, connection, value: bytes) -> None:
        value = bytes(value)
        if not self.received(connection, value):
            return
        self.written[GPIO_MAP_UUID] = value[:4]
        self.session.gpio_map = int.from_bytes((value + bytes(4))[:4], 'little')
        await self.after_write(connection, [])

    async def patch_len_written(self, connection, value: bytes) -> None:
        value = bytes(value)
        if not self.received(connection, value):
            return
        self.written[PATCH_LEN_UUID] = value[:2]
        length = int.from_bytes((value + bytes(2))[:2], 'little')
        s = self.session
        statuses = []
        if length == 0:
            statuses.append((PATCH_LEN_ERR, None))
        elif s.mem_dev < MEM_INVAL_DEV:
            if not s.mem_dev & 0x10:
                statuses.append((INVAL_MEM_TYPE, None))
            elif length > OVERALL_PD_SIZE:
                statuses.append((INT_MEM_ERR, None))
            else:
                s.patch_len = length
        await self.after_write(connection, statuses)

    async def patch_data_written(self, connection, value: bytes) -> None:
        value = bytes(value)
        if len(value) > PD_CHAR_SIZE:
            raise ATT_Error(INVALID_LENGTH)  # max_len SUOTA_PD_CHAR_SIZE
        if not self.received(connection, value):
            return
        s = self.session
        statuses = []
        if s.mem_dev >= MEM_INVAL_DEV:
            statuses.append((INVAL_MEM_TYPE, None))
        elif s.patch_len == 0:
            statuses.append((PATCH_LEN_ERR, None))
        elif not s.mem_dev & 0x10:
            statuses.append((INVAL_MEM_TYPE, None))
        elif len(s.block) + len(value) > OVERALL_PD_SIZE:
            statuses.append((INT_MEM_ERR, None))
        else:
            s.block += value
            if len(s.block) == s.patch_len:
                statuses.append(self.handle_block())
            if len(s.block) > s.patch_len:
                statuses.append((PATCH_LEN_ERR, None))
        await self.after_write(connection, statuses)

    def handle_block(self) -> tuple[int, float | None]:
        """app_suotar_img_hdlr."""
        s = self.session
        for byte in s.block:
            s.xor ^= byte
        status, done = CMP_OK, None
        if s.mem_dev not in (IMG_SPI_FLASH, IMG_I2C_EEPROM):
            return INVAL_MEM_TYPE, None
        if s.img_idx == 0:
            status, done = self.first_block()
            if status == CMP_OK:
                s.img_idx += len(s.block)
        elif s.image_len + 1 >= s.img_idx + len(s.block) and s.target is not None:
            count = min(len(s.block), s.image_len - s.img_idx)
            self.banks[s.target].code += self.stored(s.block[:count], s.img_idx)
            done = self.flash_done(count * self.args.write_us_per_byte / 1e6)
            s.img_idx += count
        else:
            status = EXT_MEM_WRITE_ERR
        s.block = bytearray()
        s.mem_info = s.img_idx
        return status, done

    def first_block(self) -> tuple[int, float | None]:
        """app_read_image_headers: the header, the bank, the erase, the header (valid flag 0xFF)."""
        s = self.session
        data = bytes(s.block)
        if len(data) < HEADER_SIZE:
            return INVAL_IMG_HDR, None
        new = Header.parse(data)
        if new.signature != b'pQ':
            return INVAL_IMG_HDR, None
        s.image_len = new.code_size + HEADER_SIZE
        if self.args.no_product_header:
            return INVAL_PRODUCT_HDR, None
        if new.code_size == 0 or new.code_size > self.max_code_size:
            log.info('first block: code size %d does not fit a %d-byte bank', new.code_size, self.args.bank_size)
            return INVAL_IMG_SIZE, None
        states = []
        for bank in self.banks:
            if not bank.valid():
                states.append(('invalid', 0))
            elif bank.header.version == new.version and bank.header.timestamp == new.timestamp:
                states.append(('same', bank.header.image_id))
            else:
                states.append(('ok', bank.header.image_id))
        if s.image_bank == 0 or s.image_bank > 2:
            if states[0][0] == 'invalid':
                chosen = 0
            elif states[1][0] == 'invalid':
                chosen = 1
            else:  # app_find_old_img
                id1, id2 = states[0][1], states[1][1]
                older = 1 if (id1 == 0xFF and id2 == 0xFF) or (id1 == 0xFF and id2 == 0) else \
                    2 if (id2 == 0xFF and id1 == 0) else 2 if id1 > id2 else 1
                chosen = older - 1
        else:
            chosen = s.image_bank - 1
        if states[chosen][0] == 'same':
            log.info('first block: bank %d holds the same version and timestamp: SAME_IMG_ERR', chosen + 1)
            return SAME_IMG_ERR, None
        other = states[1 - chosen]
        image_id = (0 if other[1] == 0xFF else other[1] + 1) if other[0] != 'invalid' else 1
        header = dataclasses.replace(new, valid=0xFF, image_id=image_id)
        self.banks[chosen] = Bank(header, self.stored(data[HEADER_SIZE:], HEADER_SIZE))
        s.target = chosen
        sectors = max(1, -(-(new.code_size + HEADER_SIZE) // SECTOR))
        done = self.flash_done(sectors * self.args.sector_erase_ms / 1000 + len(data) * self.args.write_us_per_byte / 1e6)
        log.info('first block: %d bytes of code, version %s, into bank %d (id %d), %d sectors erased', new.code_size,
                 new.text_version(), chosen + 1, image_id, sectors)
        return CMP_OK, done

    def stored(self, data, offset: int) -> bytearray:
        """The bytes flash holds once `data`, at image file offset `offset`, is written: with
        --corrupt-stored, that file offset's byte has bit 0 inverted. The XOR was taken over the
        bytes received (app_suotar_img_hdlr), so the end command still answers CMP_OK and marks
        the bank valid; the bootloader's crc32 of the bank (loadActiveImage) then fails."""
        data = bytearray(data)
        corrupt = self.args.corrupt_stored
        if corrupt is not None and offset <= corrupt < offset + len(data):
            data[corrupt - offset] ^= 0x01
            log.info('stored byte %d with bit 0 inverted (--corrupt-stored)', corrupt)
        return data

    async def start(self) -> None:
        self.boot()
        services = [Service(SERVICE_UUID, [self.mem_dev, self.gpio_map, self.mem_info, self.patch_len,
                                           self.patch_data, self.status, self.version, self.pd_size, self.mtu])]
        if self.args.dis != 'none':
            services.append(Service('180A', [self.firmware_revision, self.software_revision]))
        await self.run(services)


async def main() -> None:
    parser = argument_parser(__doc__.splitlines()[0], 'DLG-SUOTA', 'F0:DF:00:00:05:01')
    parser.add_argument('--bank-size', type=lambda text: int(text, 0), default=0xB000,
                        help='bytes between the two image banks (default 0xB000: images at 0x8000 and 0x13000); '
                             'code up to this minus 64 fits')
    parser.add_argument('--bank2', help='a .img file valid in bank 2 at start (image id 0: not newer than the factory image)')
    parser.add_argument('--no-product-header', action='store_true',
                        help='the flash has no valid product header (the first block gets INVAL_PRODUCT_HDR)')
    parser.add_argument('--sector-erase-ms', type=float, default=85, help='per 4 KiB sector (default 85)')
    parser.add_argument('--write-us-per-byte', type=float, default=10.75, help='flash write (default 10.75)')
    parser.add_argument('--boot-ms', type=float, default=1000,
                        help='silence from the reset to advertising again (default 1000: assumed, the SDK gives no number)')
    parser.add_argument('--corrupt-stored', type=int, metavar='OFFSET',
                        help='the image byte at this file offset (64 or more) is stored with bit 0 inverted: the XOR '
                             'still passes (CMP_OK, bank valid), the bootloader\'s CRC-32 rejects the bank at the reset')
    parser.add_argument('--on-reboot', choices=['reset', 'disconnect', 'ignore'], default='reset',
                        help='MEM_DEV 0xFD: reset (default: user_app_on_disconnect resets), disconnect (the link is '
                             'ended, no reset: the old image advertises again), ignore (answered, the link stays up)')
    parser.add_argument('--dis', choices=['sdk', 'image', 'none'], default='sdk',
                        help='Device Information 2A26/2A28: sdk (default, both SDK_VERSION as the SDK 6 examples), '
                             'image (2A28 the running image\'s header version), none (no service)')
    args = parser.parse_args()
    if args.corrupt_stored is not None and args.corrupt_stored < HEADER_SIZE:
        parser.error('--corrupt-stored is a file offset in the code: 64 or more')
    peripheral = SUOTAPeripheral(args)
    if args.verbose:
        log.setLevel(logging.DEBUG)
    await peripheral.start()


if __name__ == '__main__':
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
