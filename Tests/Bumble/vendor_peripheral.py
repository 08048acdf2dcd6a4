#!/usr/bin/env python3
"""A Bumble peripheral for integration tests: advertises "DFU-BUMBLE" (every 50 ms) with the
vendor control-point service D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F and its characteristic
D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F (write, write without response, notify).

For now it echoes every write back as a notification (the DFU device logic comes later).

Usage: vendor_peripheral.py TRANSPORT   (e.g. tcp-client:127.0.0.1:9001)
Prints "advertising" once it is on the air.
"""
import asyncio
import sys

from bumble.core import AdvertisingData, UUID
from bumble.device import Device
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.hci import Address
from bumble.transport import open_transport

SERVICE_UUID = 'D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F'
CONTROL_POINT_UUID = 'D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F'
NAME = 'DFU-BUMBLE'


async def run(transport_name):
    transport = await open_transport(transport_name)
    device = Device.with_hci(NAME, Address('D0:F1:00:00:00:01'), transport.source, transport.sink)

    def on_write(connection, value):
        # Echo: notify the same bytes to every subscriber (asynchronously, outside the write).
        asyncio.get_running_loop().create_task(device.notify_subscribers(control_point, bytes(value)))

    control_point = Characteristic(
        CONTROL_POINT_UUID,
        Characteristic.Properties.WRITE | Characteristic.Properties.WRITE_WITHOUT_RESPONSE
        | Characteristic.Properties.NOTIFY,
        Characteristic.WRITEABLE,
        CharacteristicValue(write=on_write),
    )
    device.add_service(Service(SERVICE_UUID, [control_point]))

    # Bumble's virtual controller (0.0.236) never sends the real scan response: it follows each
    # advertising report with a "scan response" report that repeats the advertising data. So
    # the name and the service UUID both go in the advertising data: 12 + 18 = 30 of 31 bytes,
    # no room for Flags (which Bumble does not need).
    advertising_data = bytes(AdvertisingData([
        (AdvertisingData.COMPLETE_LOCAL_NAME, NAME.encode()),
        (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, bytes(UUID(SERVICE_UUID))),
    ]))
    scan_response_data = advertising_data
    await device.power_on()
    await device.start_advertising(
        advertising_data=advertising_data,
        scan_response_data=scan_response_data,
        auto_restart=True,
        advertising_interval_min=50,
        advertising_interval_max=50,
    )
    print('advertising', flush=True)
    await asyncio.get_running_loop().create_future()


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(64)
    try:
        asyncio.run(run(sys.argv[1]))
    except KeyboardInterrupt:
        pass
