#!/usr/bin/env python3
"""An nRF5 SDK application with the unbonded buttonless DFU service (ble_dfu_unbonded.c) that
"reboots" into the Secure DFU bootloader of nordic_secure_dfu_device.py, which advertises on
the application's address + 1 (no bond sharing), as nRF5 SDK bootloaders do.

Service FE59 with one characteristic, 8EC90003 (write, indicate). Enter Bootloader (0x01)
with indications enabled is answered `20 01 01` by indication; then the application drops the
link (reason 0x13: the SDK disconnects before resetting), stops advertising for good, and the
bootloader starts on its own virtual controller (--bootloader-transport) at address + 1.
Without indications enabled the write fails with ATT error 0xFD (CCCD improperly configured);
other opcodes are answered `20 <op> 02` (not supported).

    nordic_buttonless_device.py --transport tcp-client:127.0.0.1:PORT
                                --bootloader-transport tcp-client:127.0.0.1:PORT2
                                [--address ADDRESS] [--state-file PATH] [bootloader options]
"""
import asyncio
import copy
import logging

from bumble.att import ATT_Error
from bumble.device import Device
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.hci import Address
from bumble.transport import open_transport

from nordic_secure_dfu_device import SERVICE_UUID, SecureDFUPeripheral, bootloader_arguments
from peripheral_common import ADVERTISING_INTERVAL_MS, advertising_data

BUTTONLESS_UUID = '8EC90003-F315-4F60-9FB8-838830DAEA50'
CCCD_IMPROPERLY_CONFIGURED = 0xFD
REMOTE_USER_TERMINATED = 0x13
log = logging.getLogger('buttonless')


def next_address(address: str) -> str:
    value = int(address.replace(':', ''), 16) + 1
    return ':'.join(f'{(value >> shift) & 0xFF:02X}' for shift in range(40, -8, -8))


class ButtonlessApplication:
    def __init__(self, args):
        self.args = args
        self.device: Device | None = None
        self.bootloader_task: asyncio.Task | None = None
        self.characteristic = Characteristic(
            BUTTONLESS_UUID, Characteristic.Properties.WRITE | Characteristic.Properties.INDICATE,
            Characteristic.Permissions.WRITEABLE, CharacteristicValue(write=self.written))

    async def run(self) -> None:
        async with await open_transport(self.args.transport) as hci:
            self.device = Device.with_hci(self.args.app_name, Address(self.args.address), hci.source, hci.sink)
            self.device.add_service(Service(SERVICE_UUID, [self.characteristic]))
            await self.device.power_on()
            await self.device.start_advertising(
                auto_restart=True, advertising_data=advertising_data(self.args.app_name, SERVICE_UUID),
                advertising_interval_min=ADVERTISING_INTERVAL_MS, advertising_interval_max=ADVERTISING_INTERVAL_MS)
            log.info('application %s advertising as %s', self.args.app_name, self.args.address)
            await hci.source.wait_for_termination()

    def indications_enabled(self, connection) -> bool:
        return bool(self.device.gatt_server.read_cccd(connection, self.characteristic)[0] & 0x02)

    async def written(self, connection, value: bytes) -> None:
        value = bytes(value)
        opcode = value[0] if value else 0
        if opcode != 0x01:
            asyncio.create_task(self.answer(connection, bytes([0x20, opcode, 0x02]), enter=False))
            return
        if not self.indications_enabled(connection):
            raise ATT_Error(CCCD_IMPROPERLY_CONFIGURED)
        asyncio.create_task(self.answer(connection, bytes([0x20, 0x01, 0x01]), enter=True))

    async def answer(self, connection, value: bytes, enter: bool) -> None:
        await asyncio.sleep(0.02)  # after the write response, as the SDK's indication follows it
        await self.device.indicate_subscriber(connection, self.characteristic, value)
        if not enter:
            return
        log.info('entering the bootloader on %s', next_address(self.args.address))
        await self.device.stop_advertising()  # for good: no restart after the disconnection
        try:  # the central may be disconnecting too (as DFU libraries do after the indication)
            await asyncio.wait_for(connection.disconnect(reason=REMOTE_USER_TERMINATED), 1)
        except Exception as error:
            log.info('disconnect: %r (the link is gone)', error)
        bootloader_args = copy.copy(self.args)
        bootloader_args.address = next_address(self.args.address)
        bootloader_args.transport = self.args.bootloader_transport
        bootloader = SecureDFUPeripheral(bootloader_args)
        self.bootloader_task = asyncio.create_task(bootloader.start())
        self.bootloader_task.add_done_callback(
            lambda task: task.cancelled() or task.exception() is None
            or log.error('the bootloader stopped: %r', task.exception()))


async def main() -> None:
    parser = bootloader_arguments(__doc__.splitlines()[0])
    parser.add_argument('--bootloader-transport', required=True,
                        help="the bootloader's virtual controller (it advertises on --address + 1)")
    parser.add_argument('--app-name', default='Nordic_Buttonless', help='the application\'s advertised name')
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format='%(asctime)s %(name)s: %(message)s')
    logging.getLogger('bumble').setLevel(logging.WARNING)
    await ButtonlessApplication(args).run()


if __name__ == '__main__':
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
