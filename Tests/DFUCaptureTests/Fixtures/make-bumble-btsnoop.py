#!/usr/bin/env python3
"""Writes bumble-session.btsnoop (btsnoop datalink 1002, Bumble's BtSnooper) and
bumble-session.pcap (pcap link type 201, Bumble's PcapSnooper): the central's HCI traffic of one
Bumble central connected to one Bumble peripheral, two Bumble virtual controllers on Bumble's
in-process LocalLink. Nothing of DFUKit takes part.

Run from the worktree root (the venv pins bumble==0.0.236):
    python=$(scripts/bumble-venv.sh) && (cd Tests/DFUCaptureTests/Fixtures && $python make-bumble-btsnoop.py)

What the central does, in order (BumbleCaptureTests asserts exactly this):
  scan (hears the peripheral's ADV_IND: name "DFUKit-Fixture", service D0F10000-...),
  connect, Exchange MTU (asks 64; Bumble's server answers 517 -> MTU 64),
  discover all services, characteristics and descriptors,
  subscribe to notifications of the control point (CCCD 0x0001),
  write with response 01 02 to the control point, write command 03 to it,
  the peripheral notifies A1 then A2 A3,
  write with response of 100 bytes (0..99) to the data characteristic: MTU 64 makes it a
  Prepare Write (59 bytes) + Prepare Write (41 bytes) + Execute Write,
  read the data characteristic back (63 bytes, then a Read Blob for the other 37),
  disconnect (the central's host sends HCI Disconnect, reason 0x13).
"""
import asyncio

from bumble.controller import Controller
from bumble.core import UUID, AdvertisingData
from bumble.device import Device, Peer
from bumble.gatt import Characteristic, CharacteristicValue, Service
from bumble.host import Host
from bumble.link import LocalLink
from bumble.snoop import BtSnooper, PcapSnooper
from bumble.transport.common import AsyncPipeSink

SERVICE = 'D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F'
CONTROL = 'D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F'
DATA = 'D0F10002-7E3C-4B8A-9C52-1A2B3C4D5E6F'
NAME = 'DFUKit-Fixture'


class TeeSnooper:
    """Hands every packet to several snoopers."""

    def __init__(self, *snoopers):
        self.snoopers = snoopers

    def snoop(self, packet, direction):
        for snooper in self.snoopers:
            snooper.snoop(packet, direction)


def make_device(link, name, address):
    controller = Controller(name, link=link)
    host = Host(controller, AsyncPipeSink(controller))
    return Device(name=name, address=address, host=host)


async def main():
    link = LocalLink()
    peripheral = make_device(link, NAME, 'F0:F1:F2:F3:F4:F5')
    central = make_device(link, 'central', 'F0:F1:F2:F3:F4:C0')

    data_store = bytearray()

    def write_data(connection, value):
        data_store[:] = value

    control = Characteristic(CONTROL,
                             Characteristic.Properties.WRITE | Characteristic.Properties.WRITE_WITHOUT_RESPONSE
                             | Characteristic.Properties.NOTIFY,
                             Characteristic.Permissions.WRITEABLE, b'')
    data = Characteristic(DATA, Characteristic.Properties.READ | Characteristic.Properties.WRITE,
                          Characteristic.Permissions.READABLE | Characteristic.Permissions.WRITEABLE,
                          CharacteristicValue(read=lambda connection: bytes(data_store), write=write_data))
    peripheral.add_service(Service(SERVICE, [control, data]))
    peripheral.advertising_data = bytes(AdvertisingData([
        (AdvertisingData.FLAGS, bytes([0x06])),
        (AdvertisingData.COMPLETE_LOCAL_NAME, NAME.encode()),
        (AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS, bytes(UUID(SERVICE))),
    ]))

    with open('bumble-session.btsnoop', 'wb') as btsnoop, open('bumble-session.pcap', 'wb') as pcap:
        central.host.snooper = TeeSnooper(BtSnooper(btsnoop), PcapSnooper(pcap))
        await peripheral.power_on()
        await central.power_on()
        await peripheral.start_advertising(auto_restart=False)

        found = asyncio.get_running_loop().create_future()

        def on_advertisement(advertisement):
            if not found.done():
                found.set_result(advertisement.address)
        central.on('advertisement', on_advertisement)
        await central.start_scanning(filter_duplicates=True)
        address = await asyncio.wait_for(found, 5)
        await central.stop_scanning()

        connection = await central.connect(address, timeout=5)
        peer = Peer(connection)
        mtu = await peer.request_mtu(64)
        assert mtu == 64, mtu
        await peer.discover_services()
        await peer.discover_characteristics()
        await peer.discover_descriptors()
        control_proxy = peer.get_characteristics_by_uuid(UUID(CONTROL))[0]
        data_proxy = peer.get_characteristics_by_uuid(UUID(DATA))[0]

        received = asyncio.Queue()
        await peer.subscribe(control_proxy, lambda value: received.put_nowait(bytes(value)))
        await control_proxy.write_value(bytes([0x01, 0x02]), with_response=True)
        await control_proxy.write_value(bytes([0x03]), with_response=False)
        await asyncio.sleep(0.05)
        peripheral_connection = next(iter(peripheral.connections.values()))
        await peripheral.notify_subscriber(peripheral_connection, control, bytes([0xA1]))
        await peripheral.notify_subscriber(peripheral_connection, control, bytes([0xA2, 0xA3]))
        assert await asyncio.wait_for(received.get(), 5) == bytes([0xA1])
        assert await asyncio.wait_for(received.get(), 5) == bytes([0xA2, 0xA3])
        long_value = bytes(range(100))
        await data_proxy.write_value(long_value, with_response=True)
        assert bytes(data_store) == long_value
        assert await data_proxy.read_value() == long_value
        await connection.disconnect()
        await asyncio.sleep(0.1)


if __name__ == '__main__':
    asyncio.run(main())
