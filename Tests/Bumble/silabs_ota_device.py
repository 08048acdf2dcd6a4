#!/usr/bin/env python3
"""A Silicon Labs EFR32 on a Bumble virtual controller: an application with the in-place OTA DFU
component, and the AppLoader in its Gecko Bootloader (gecko_sdk 4.4.1; AN1086), written from
those sources as Sources/DFUSimulator/Devices/SilabsOTA models them (profiles/silabs-ota.yaml;
/work/research/silabs-ota.md has the quotes).

- Application (advertises --name, default SiLabs-App, and the OTA service UUID, as an
  application that lists it in its advertising does; flags when they fit): the Silicon Labs OTA
  service 1D14D6EE-FD63-4FA1-BFA4-8F47B42119F0 with OTA Control F7BF3564 (write) and the
  Application Version 0D77CC11 (read, u32 LE). A write to OTA Control (any value) is answered,
  then the application closes the link (reason 0x13) --close-delay-ms later (default 1000:
  sl_bt_in_place_ota_dfu.c, SL_BT_IN_PLACE_OTA_DFU_MIN_DELAY_TO_DISCONNECT) and resets into the
  bootloader; a central that drops the link first gets the same reset.
- AppLoader (after --boot-ms, default 500, an assumption: no source gives it): advertises "OTA"
  on the same address (flags, name, AD type 0x1B with the device address:
  btl_apploader_common.c), with its own GATT database (other handles): OTA Control (write),
  OTA Data 984227F3 (write, write without response), AppLoader version (8 bytes), OTA version (1),
  Gecko Bootloader version (4), Application version (4; zero without a valid application).
  0x00 begins (a fresh GBL parser), OTA Data feeds it, 0x03 answers success only for a whole
  file whose end-tag CRC-32 matched, else an ATT error (AN1086 "AppLoader Result Codes": 0x80
  CRC, 0x81 not started, 0x84 not a GBL / unknown tag / out of order, 0x83 too big); errors also
  answer OTA Data writes with response. 0x04 closes the link.
- Every disconnect from the AppLoader resets the device (bootloader_apploader_communication_main
  returns): a verified image boots as the application (the state file then names it); without
  data the old application boots; once program data reached flash the old application is gone
  and the device comes back in the AppLoader (state "apploader").

    silabs_ota_device.py --transport tcp-client:127.0.0.1:PORT [--disconnect-after BYTES]
                         [--close-delay-ms MS] [--boot-ms MS] [--state-file PATH]
"""
import asyncio
import logging
import zlib

from bumble.att import ATT_Error
from bumble.core import AdvertisingData
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.gatt_server import Server

from peripheral_common import Peripheral, advertising_data, argument_parser, write_state_file

SERVICE_UUID = '1D14D6EE-FD63-4FA1-BFA4-8F47B42119F0'
CONTROL_UUID = 'F7BF3564-FB6D-4E53-88A4-5E37E0326063'
DATA_UUID = '984227F3-34FC-4045-A5D0-2C581F81A153'
APPLOADER_VERSION_UUID = '4F4A2368-8CCA-451E-BFFF-CF0E2EE23E9F'
OTA_VERSION_UUID = '4CC07BCF-0868-4B32-9DAD-BA4CC41E5316'
BOOTLOADER_VERSION_UUID = '25F05C0A-E917-46E9-B2A5-AA2BE1245AFE'
APPLICATION_VERSION_UUID = '0D77CC11-4AC1-49F2-BFA9-CD96AC7A92F8'

CRC_ERROR, WRONG_STATE, IMAGE_TOO_BIG, NOT_SUPPORTED = 0x80, 0x81, 0x83, 0x84
APPLICATION_OVERLAPS_APPLOADER = 0x87  # AN1086: the new application would overlap the AppLoader
REMOTE_USER_TERMINATED = 0x13
FACTORY_VERSION = 0x00010001
CAPACITY = 0x70000

# btl_gbl_format.h tag ids and GBL_TAG_ORDER (order, occurs once).
HEADER, APPLICATION, END, ENCRYPTION_INIT = 0x03A617EB, 0xF40A0AF4, 0xFC0404FC, 0xFA0606FA
VERSION_DEPENDENCY, COMPRESSED = 0x76A617EB, {0xFD0505FD, 0xFD0707FD}
BOOTLOADER_VERSION = 0x02040000
PROGRAM = {0xFE0101FE, 0xFD0303FD, 0xFD0505FD, 0xFD0707FD}
ORDERS = {0x03A617EB: (1, True), 0x76A617EB: (2, False), 0xFA0606FA: (4, True), 0xF40A0AF4: (5, True),
          0x5EA617EB: (6, True), 0xF50909F5: (7, True), 0xFE0101FE: (8, False), 0xFD0303FD: (8, False),
          0xFD0505FD: (8, False), 0xFD0707FD: (8, False), 0xF60808F6: (8, False), 0xF90707F9: (9, False),
          0xF30B0BF3: (10, True), 0xF70A0AF7: (11, True), 0xFC0404FC: (12, True)}

log = logging.getLogger('silabs')


def u32(data: bytes, offset: int = 0) -> int:
    return int.from_bytes(data[offset:offset + 4], 'little')


class GBLParser:
    """The Gecko bootloader's parser, bytes in (btl_gbl_parser.c): tag headers, the order rules, a
    CRC-32 over every byte up to the end tag's header compared with the end tag's value, program
    data to flash as it comes, bytes after the end tag ignored. `error` sticks."""

    def __init__(self, refuse_compression: bool = False, application_start: int | None = None,
                 dependency_versions: tuple[int | None, int] | None = None):
        # As strict as a shipped AppLoader (--compression refused, --app-start, --version-dependency
        # checked); each refusal comes before any program data of the file is written.
        self.refuse_compression = refuse_compression
        self.application_start = application_start
        self.dependency_versions = dependency_versions
        self.pending = bytearray()
        self.crc = 0
        self.order = 0
        self.tags = 0
        self.tag = None  # (id, remaining, kept body)
        self.programmed = 0
        self.version = None
        self.done = False
        self.error = None

    def feed(self, data: bytes):
        index = 0
        while index < len(data) and not self.done and self.error is None:
            if self.tag is None:
                take = min(8 - len(self.pending), len(data) - index)
                self.pending += data[index:index + take]
                index += take
                if len(self.pending) == 8:
                    self.begin_tag()
            else:
                tag_id, remaining, kept = self.tag
                chunk = data[index:index + min(remaining, len(data) - index)]
                index += len(chunk)
                self.continue_tag(tag_id, remaining - len(chunk), kept, bytes(chunk))
        return self.error

    def begin_tag(self):
        tag_id, length = u32(self.pending), u32(self.pending, 4)
        self.crc = zlib.crc32(bytes(self.pending), self.crc)
        self.pending = bytearray()
        rule = ORDERS.get(tag_id)
        if (self.tags == 0 and tag_id != HEADER) or rule is None or rule[0] < self.order \
                or tag_id == ENCRYPTION_INIT or (tag_id == END and length != 4) \
                or (tag_id in COMPRESSED and self.refuse_compression):
            # An LZ4/LZMA program tag without the compression components is an unknown tag
            # (parser_parseNewTagHeader: BOOTLOADER_ERROR_PARSER_UNKNOWN_TAG).
            self.error = NOT_SUPPORTED
            return
        self.order = rule[0] + 1 if rule[1] else rule[0]
        self.tags += 1
        self.tag = (tag_id, length, b'')
        if length == 0:
            self.finish_tag(tag_id, b'')

    def continue_tag(self, tag_id: int, remaining: int, kept: bytes, chunk: bytes):
        if tag_id != END:  # the end tag's CRC field is compared, not hashed
            self.crc = zlib.crc32(chunk, self.crc)
        if tag_id in PROGRAM:
            address_bytes = max(0, min(len(chunk), 4 - len(kept)))
            address = (kept + chunk[:address_bytes])[:4]
            if len(kept) < 4 and len(address) == 4 and self.application_start is not None \
                    and u32(address) < self.application_start:
                self.error = APPLICATION_OVERLAPS_APPLOADER  # below the application area: not written
                return
            self.programmed += len(chunk) - address_bytes
            if self.programmed > CAPACITY:
                self.error = IMAGE_TOO_BIG
                return
            kept = (kept + chunk[:address_bytes])[:4]
        else:
            kept += chunk
        self.tag = (tag_id, remaining, kept)
        if remaining == 0:
            self.finish_tag(tag_id, kept)

    def finish_tag(self, tag_id: int, body: bytes):
        self.tag = None
        if tag_id == HEADER and (len(body) != 8 or u32(body) & 0xFF000000 != 0x03000000 or u32(body, 4) & 1):
            self.error = NOT_SUPPORTED  # not GBL 3, or encrypted (no key here)
        elif tag_id == VERSION_DEPENDENCY and self.dependency_versions is not None:
            if not dependencies_met(body, *self.dependency_versions):
                self.error = NOT_SUPPORTED  # BOOTLOADER_ERROR_PARSER_VERSION
        elif tag_id == APPLICATION:
            if len(body) < 28:
                self.error = NOT_SUPPORTED
            else:
                self.version = u32(body, 4)
        elif tag_id == END:
            if u32(body) == self.crc:
                self.done = True
            else:
                self.error = CRC_ERROR


def dependencies_met(body: bytes, application: int | None, bootloader: int) -> bool:
    """btl_gbl_parser.c parser_parseVersionDependency: each 8-byte VersionDependency_t (image type
    1 application / 2 bootloader, statement, reserved, version); operator in bits 0-3 (LT 0, LEQ 2,
    EQ 4, GEQ 6, GT 8; bit 0 negates), connective in bits 4-7 (AND 0, OR 2; bit 4 negates); the
    AppLoader refuses unless every result is true. No valid application: its result is false."""
    if len(body) % 8:
        return False
    results = {1: 1, 2: 1}
    for start in range(0, len(body), 8):
        kind, statement, wanted = body[start], body[start + 1], u32(body, start + 4)
        if kind not in results:
            return False
        if kind == 1 and application is None:
            results[1] = 0
        current = (application or 0) if kind == 1 else bootloader
        compare = {0x00: current < wanted, 0x02: current <= wanted, 0x04: current == wanted,
                   0x06: current >= wanted, 0x08: current > wanted}.get(statement & 0x0E)
        if compare is None:
            return False
        result = int(compare) ^ (statement & 0x01)
        connective = statement >> 4
        if connective & 0x0E == 0x00:
            results[kind] &= result
        elif connective & 0x0E == 0x02:
            results[kind] |= result
        else:
            return False
        results[kind] ^= connective & 0x01
    return all(results.values())


class SilabsDevice(Peripheral):
    def __init__(self, args):
        super().__init__(args, SERVICE_UUID)
        self.mode = 'application'
        self.application = (None, args.app_version)  # (GBL bytes or None for the factory image, version)
        self.boots_to_ota = False
        self.parser: GBLParser | None = None
        self.image_bytes = bytearray()
        self.started = False  # data reached the parser in this AppLoader boot
        self.overwrote = False  # program data reached flash in this AppLoader boot
        self.close_timer: asyncio.Task | None = None
        self.app_server: Server | None = None
        self.loader_server: Server | None = None
        # An application that lists the OTA service in its advertising (profiles/silabs-ota.yaml
        # matches on it); the AppLoader does not advertise it (loader_advertising).
        self.app_advertising = advertising_data(args.name, SERVICE_UUID)
        self.advertising = self.app_advertising

    # GATT databases: the application's, then the AppLoader's (another Server object: other handles).
    def application_services(self):
        return [Service(SERVICE_UUID, [
            Characteristic(CONTROL_UUID, Characteristic.Properties.WRITE, Characteristic.Permissions.WRITEABLE,
                           CharacteristicValue(write=self.application_control)),
            Characteristic(APPLICATION_VERSION_UUID, Characteristic.Properties.READ, Characteristic.Permissions.READABLE,
                           CharacteristicValue(read=lambda connection: self.application[1].to_bytes(4, 'little'))),
        ])]

    def loader_server_with_services(self) -> Server:
        server = Server(self.device)
        server.max_mtu = self.args.max_mtu
        read = Characteristic.Permissions.READABLE
        server.add_service(Service(SERVICE_UUID, [
            Characteristic(CONTROL_UUID, Characteristic.Properties.WRITE, Characteristic.Permissions.WRITEABLE,
                           CharacteristicValue(write=self.loader_control)),
            Characteristic(DATA_UUID, Characteristic.Properties.WRITE | Characteristic.Properties.WRITE_WITHOUT_RESPONSE,
                           Characteristic.Permissions.WRITEABLE, CharacteristicValue(write=self.loader_data)),
            Characteristic(APPLOADER_VERSION_UUID, Characteristic.Properties.READ, read,
                           bytes.fromhex('010000000000170b')),
            Characteristic(OTA_VERSION_UUID, Characteristic.Properties.READ, read, bytes([3])),
            Characteristic(BOOTLOADER_VERSION_UUID, Characteristic.Properties.READ, read,
                           (0x02040000).to_bytes(4, 'little')),
            Characteristic(APPLICATION_VERSION_UUID, Characteristic.Properties.READ, read,
                           CharacteristicValue(read=lambda connection: (self.application or (None, 0))[1].to_bytes(4, 'little'))),
        ]))
        return server

    def loader_advertising(self) -> bytes:
        address = bytes(reversed(bytes.fromhex(self.args.address.replace(':', ''))))
        return bytes(AdvertisingData([(AdvertisingData.FLAGS, bytes([0x06])),
                                      (AdvertisingData.COMPLETE_LOCAL_NAME, b'OTA'),
                                      (0x1B, address + bytes([1]))]))  # LE device address, random

    # The application.
    async def application_control(self, connection, value: bytes) -> None:
        if not self.received_write(connection, value) or self.mode != 'application':
            return
        log.info('OTA Control written in the application: closing the link in %d ms', self.args.close_delay_ms)
        self.boots_to_ota = True
        self.close_timer = asyncio.get_running_loop().create_task(self.close_later(connection))

    async def close_later(self, connection) -> None:
        await asyncio.sleep(self.args.close_delay_ms / 1000)
        try:  # sl_bt_connection_close: the application ends the link itself
            await connection.disconnect(reason=REMOTE_USER_TERMINATED)
        except Exception as error:
            log.info('close: %r (the link is gone)', error)

    # The AppLoader.
    async def loader_control(self, connection, value: bytes) -> None:
        if not self.received_write(connection, value) or self.mode != 'apploader':
            return
        word = value[0] if value else 0xFF
        if word == 0x00:
            args = self.args
            self.parser = GBLParser(
                refuse_compression=args.compression == 'refused', application_start=args.app_start,
                dependency_versions=((self.application or (None, None))[1], BOOTLOADER_VERSION)
                if args.version_dependency == 'checked' else None)
            self.image_bytes = bytearray()
            log.info('begin')
        elif word == 0x03:
            error = WRONG_STATE if self.parser is None else self.parser.error or (None if self.parser.done else CRC_ERROR)
            log.info('end: %s', 'success' if error is None else f'ATT error 0x{error:02X}')
            if self.args.end_answer == 'lost':
                # Processed; the link drops before the answer, every time (the reset at this
                # disconnect boots a verified image).
                log.info('end: the link drops before the answer (--end-answer lost)')
                self.dropping = connection
                try:
                    await connection.disconnect(reason=self.args.disconnect_reason)
                except Exception as drop_error:
                    log.info('disconnect failed: %s', drop_error)
                return
            if error is not None:
                raise ATT_Error(error)
        elif word == 0x04:
            asyncio.get_running_loop().create_task(self.close_later_now(connection))
        if await self.drop_if_due(connection):
            return

    async def close_later_now(self, connection) -> None:
        await asyncio.sleep(0.05)  # after the write response
        try:
            await connection.disconnect(reason=REMOTE_USER_TERMINATED)
        except Exception as error:
            log.info('close: %r', error)

    async def loader_data(self, connection, value: bytes) -> None:
        if not self.received_write(connection, value) or self.mode != 'apploader':
            return
        if self.parser is None:
            raise ATT_Error(WRONG_STATE)
        self.started = True
        self.image_bytes += value
        error = self.parser.feed(bytes(value))
        if self.parser.programmed:
            self.overwrote = True
        if await self.drop_if_due(connection):
            return
        if error is not None:
            raise ATT_Error(error)

    def received_write(self, connection, value: bytes) -> bool:
        return self.received(connection, bytes(value))

    # Resets.
    def on_disconnected(self, connection, reason: int) -> None:
        if self.mode == 'application':
            if self.boots_to_ota:
                self.silent = True  # no advertising again before the reset
                asyncio.get_running_loop().create_task(self.reset('apploader'))
            return
        self.silent = True
        if self.parser is not None and self.parser.done:
            self.application = (bytes(self.image_bytes), self.parser.version or 0)
            log.info('the new application (version 0x%08X) boots', self.application[1])
        elif self.overwrote:
            self.application = None
            log.info('the application was overwritten: the AppLoader comes back')
        asyncio.get_running_loop().create_task(self.reset('application' if self.application else 'apploader'))

    async def reset(self, mode: str) -> None:
        await self.go_silent(0x08)
        self.mode, self.boots_to_ota = mode, False
        self.parser, self.image_bytes, self.started, self.overwrote = None, bytearray(), False, False
        await asyncio.sleep(self.args.boot_ms / 1000)
        if mode == 'apploader':
            self.loader_server = self.loader_server or self.loader_server_with_services()
            self.device.gatt_server = self.loader_server
            data = self.loader_advertising()
            write_state_file(self.args.state_file, b'', running='apploader', version=0)
        else:
            self.device.gatt_server = self.app_server
            data = self.app_advertising
            image, version = self.application
            # The factory application has no image bytes here: its version says which it is.
            write_state_file(self.args.state_file, image or b'', running='application', version=version)
        log.info('booted into the %s', mode)
        await self.wake(data)

    async def advertise(self, data: bytes | None = None, address: str | None = None) -> None:
        if self.app_server is None and self.device is not None:
            self.app_server = self.device.gatt_server  # the application's database, built by run()
        await super().advertise(data, address)

    async def start(self) -> None:
        await self.run(self.application_services())


async def main() -> None:
    parser = argument_parser(__doc__.splitlines()[0], name='SiLabs-App', address='F0:DF:00:00:06:01')
    parser.add_argument('--close-delay-ms', type=int, default=1000,
                        help="the application's delay between the OTA Control write and closing the link (default 1000)")
    parser.add_argument('--boot-ms', type=int, default=500, help='silent time of each reset (default 500)')
    number = lambda text: int(text, 0)  # noqa: E731
    parser.add_argument('--app-version', type=number, default=FACTORY_VERSION,
                        help='the factory application\'s version, read from Application Version (default 0x00010001)')
    parser.add_argument('--end-answer', choices=['sent', 'lost'], default='sent',
                        help='lost: every 0x03 is processed, then the link drops before its answer')
    parser.add_argument('--compression', choices=['accepted', 'refused'], default='accepted',
                        help='refused: LZ4/LZMA program tags are unknown to this bootloader (0x84)')
    parser.add_argument('--app-start', type=number, default=None,
                        help='program data below this address is refused (0x87) before it is written')
    parser.add_argument('--version-dependency', choices=['skipped', 'checked'], default='skipped',
                        help='checked: version dependency tags are evaluated; an unmet one is refused (0x84)')
    args = parser.parse_args()
    await SilabsDevice(args).start()


if __name__ == '__main__':
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
