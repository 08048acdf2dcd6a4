#!/usr/bin/env python3
"""A Bumble central (Bumble's own host) that checks a peripheral of this folder end to end.

    central_smoke.py --transport tcp-client:127.0.0.1:PORT vendor   # status frame -> 0x85 answer
    central_smoke.py --transport tcp-client:127.0.0.1:PORT nordic   # select command -> 60 06 01 ...
    central_smoke.py ... vendor --image FILE.bin     # a whole update, resuming after disconnects
    central_smoke.py ... nordic --package FILE.zip   # the same with a Secure DFU package

It scans for the peripheral's name, connects (random own address), asks for MTU 247 (--mtu),
subscribes to the control point, and runs the exchange. A full update reconnects and resumes
after every disconnect and ends when the device reboots after activation; exits 0 on success.
"""
import argparse
import asyncio
import hashlib
import json
import sys
import zipfile
import zlib

from bumble.core import UUID, AdvertisingData
from bumble.device import Device, Peer
from bumble.hci import Address
from bumble.transport import open_transport

VENDOR = ('DFU-BUMBLE', 'D0F10000-7E3C-4B8A-9C52-1A2B3C4D5E6F', 'D0F10001-7E3C-4B8A-9C52-1A2B3C4D5E6F', None)
NORDIC = ('DfuTarg', 'FE59', '8EC90001-F315-4F60-9FB8-838830DAEA50', '8EC90002-F315-4F60-9FB8-838830DAEA50')
TIMEOUT = 5.0


class Disconnected(Exception):
    pass


class Link:
    """One connection: the control point's notifications arrive in a queue; a disconnection
    wakes any waiter with `Disconnected`."""

    def __init__(self, device: Device, target: tuple, mtu: int = 247):
        self.device, (self.name, self.service, self.control_uuid, self.packet_uuid) = device, target
        self.notifications: asyncio.Queue = asyncio.Queue()
        self.disconnect_reason: int | None = None
        self.mtu = mtu

    async def connect(self, subscribe: bool = True) -> 'Link':
        found = asyncio.get_running_loop().create_future()

        def on_advertisement(advertisement):
            if advertisement.data.get(AdvertisingData.COMPLETE_LOCAL_NAME) == self.name \
                    and not found.done():
                found.set_result(advertisement.address)
        self.device.on('advertisement', on_advertisement)
        await self.device.start_scanning(filter_duplicates=False)
        address = await asyncio.wait_for(found, TIMEOUT)
        self.device.remove_listener('advertisement', on_advertisement)
        await self.device.stop_scanning()
        self.connection = await self.device.connect(address, timeout=TIMEOUT)
        self.connection.on('disconnection', self._on_disconnection)
        peer = Peer(self.connection)
        if self.mtu > 23:
            self.mtu = await peer.request_mtu(self.mtu)
        await peer.discover_services([UUID(self.service)])
        await peer.discover_characteristics()
        self.control = peer.get_characteristics_by_uuid(UUID(self.control_uuid))[0]
        self.packet = peer.get_characteristics_by_uuid(UUID(self.packet_uuid))[0] if self.packet_uuid else None
        self.peer, self.address = peer, address
        if subscribe:
            await self.subscribe()
        print(f'connected to {address} ({self.name}), MTU {self.mtu}', flush=True)
        return self

    async def subscribe(self) -> None:
        await self.peer.subscribe(self.control, lambda value: self.notifications.put_nowait(bytes(value)))

    def _on_disconnection(self, reason):
        self.disconnect_reason = reason
        self.notifications.put_nowait(None)

    async def write(self, characteristic, value: bytes, with_response: bool = True) -> None:
        if self.disconnect_reason is not None:
            raise Disconnected()
        try:
            await asyncio.wait_for(characteristic.write_value(value, with_response=with_response), TIMEOUT)
        except (Exception, asyncio.CancelledError) as error:  # Bumble cancels requests on a disconnection
            raise Disconnected() from error

    async def notification(self) -> bytes:
        value = await asyncio.wait_for(self.notifications.get(), TIMEOUT)
        if value is None:
            raise Disconnected()
        return value

    async def wait_disconnected(self) -> int:
        while self.disconnect_reason is None:
            await asyncio.wait_for(self.notifications.get(), TIMEOUT)
        return self.disconnect_reason


# --- Vendor control point ---

async def vendor_command(link: Link, payload: bytes) -> bytes:
    frame, segment = len(payload).to_bytes(2, 'little') + payload, link.mtu - 3
    for start in range(0, len(frame), segment):
        await link.write(link.control, frame[start:start + segment])
    answer = await link.notification()
    while len(answer) < 2 + int.from_bytes(answer[:2], 'little'):
        answer += await link.notification()
    return answer[2:]


async def vendor_update(link: Link, image: bytes) -> None:
    sha, crc = hashlib.sha256(image).digest(), zlib.crc32(image)
    status = await vendor_command(link, b'\x05')
    offset = int.from_bytes(status[2:6], 'little')
    if status[10:42] == sha and offset <= len(image) and int.from_bytes(status[6:10], 'little') == zlib.crc32(image[:offset]):
        print(f'resuming at {offset}', flush=True)
    else:
        answer = await vendor_command(link, b'\x01' + len(image).to_bytes(4, 'little') + crc.to_bytes(4, 'little') + sha)
        assert answer[:2] == b'\x81\x00', answer.hex()
        offset = 0
    while offset < len(image):
        chunk = image[offset:offset + 4096]
        answer = await vendor_command(link, b'\x02' + offset.to_bytes(4, 'little') + chunk)
        assert answer[:2] == b'\x82\x00' and int.from_bytes(answer[2:6], 'little') == offset + len(chunk), answer.hex()
        offset += len(chunk)
    answer = await vendor_command(link, b'\x03')
    assert answer[:2] == b'\x83\x00' and answer[6:38] == sha, answer.hex()
    assert await vendor_command(link, b'\x04') == b'\x84\x00'


# --- Nordic Secure DFU ---

async def nordic_request(link: Link, request: bytes) -> bytes:
    await link.write(link.control, request)
    answer = await link.notification()
    assert answer[:3] == bytes([0x60, request[0], 0x01]), f'{request.hex()} -> {answer.hex()}'
    return answer[3:]


async def nordic_object(link: Link, kind: int, stream: bytes, start: int, end: int, created: bool) -> None:
    """Create (unless continuing) and send stream[start:end], check the CRC, execute."""
    if not created:
        await nordic_request(link, bytes([0x01, kind]) + (end - start).to_bytes(4, 'little'))
    for at in range(start, end, link.mtu - 3):
        await link.write(link.packet, stream[at:min(at + link.mtu - 3, end)], with_response=False)
    checksum = await nordic_request(link, b'\x03')
    assert checksum == end.to_bytes(4, 'little') + zlib.crc32(stream[:end]).to_bytes(4, 'little'), checksum.hex()
    await nordic_request(link, b'\x04')


async def nordic_update(link: Link, init_packet: bytes, image: bytes) -> None:
    await nordic_request(link, b'\x02\x00\x00')  # no packet receipt notifications
    select = await nordic_request(link, b'\x06\x01')
    offset, crc = int.from_bytes(select[4:8], 'little'), int.from_bytes(select[8:12], 'little')
    if offset == len(init_packet) and crc == zlib.crc32(init_packet):
        await nordic_request(link, b'\x04')  # the device holds our init packet already
    else:
        await nordic_object(link, 0x01, init_packet, 0, len(init_packet), created=False)
    select = await nordic_request(link, b'\x06\x02')
    object_size, offset = int.from_bytes(select[0:4], 'little'), int.from_bytes(select[4:8], 'little')
    crc = int.from_bytes(select[8:12], 'little')
    if offset and crc == zlib.crc32(image[:offset]):
        boundary = (offset - 1) // object_size * object_size
        end = min(boundary + object_size, len(image))
        print(f'resuming at {offset} in the object {boundary}..{end}', flush=True)
        await nordic_object(link, 0x02, image, offset, end, created=True)
        offset = end
    else:
        offset = offset // object_size * object_size  # CREATE rolls back to the last executed object
    for start in range(offset, len(image), object_size):
        await nordic_object(link, 0x02, image, start, min(start + object_size, len(image)), created=False)


def read_package(path: str) -> tuple[bytes, bytes]:
    with zipfile.ZipFile(path) as package:
        manifest = json.loads(package.read('manifest.json'))['manifest']
        entry = next(iter(manifest.values()))
        return package.read(entry['dat_file']), package.read(entry['bin_file'])


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--transport', required=True, help='tcp-client:127.0.0.1:PORT of a second controller')
    parser.add_argument('target', choices=['vendor', 'nordic'])
    parser.add_argument('--image', help='vendor: run a whole update with this image')
    parser.add_argument('--package', help='nordic: run a whole update with the first image of this .zip')
    parser.add_argument('--mtu', type=int, default=247, help='ATT MTU to ask for (23: no MTU exchange)')
    parser.add_argument('--attempts', type=int, default=5, help='connections a whole update may take')
    args = parser.parse_args()
    target = VENDOR if args.target == 'vendor' else NORDIC

    async with await open_transport(args.transport) as hci:
        device = Device.with_hci('central', Address('C0:DF:00:00:00:01'), hci.source, hci.sink)
        await device.power_on()
        if not (args.image or args.package):
            link = await Link(device, target, args.mtu).connect()
            if args.target == 'vendor':
                answer = await vendor_command(link, b'\x05')
                assert answer[:2] == b'\x85\x00' and len(answer) == 42, answer.hex()
            else:
                answer = b'\x60\x06\x01' + await nordic_request(link, b'\x06\x01')
                assert answer[:7] == bytes.fromhex('60060100020000'), answer.hex()
            print(f'answer {answer.hex()}\nsmoke test passed', flush=True)
            return 0

        if args.target == 'vendor':
            image = open(args.image, 'rb').read()
            update = lambda link: vendor_update(link, image)
        else:
            init_packet, image = read_package(args.package)
            update = lambda link: nordic_update(link, init_packet, image)
        for attempt in range(args.attempts):
            link = await Link(device, target, args.mtu).connect()
            try:
                await update(link)
            except Disconnected:
                print(f'disconnected (reason 0x{link.disconnect_reason or 0:02X}), reconnecting', flush=True)
                await link.wait_disconnected()
                continue
            reason = await link.wait_disconnected()
            print(f'device rebooted (reason 0x{reason:02X}); sent {len(image)} bytes, '
                  f'sha256 {hashlib.sha256(image).hexdigest()}\nupdate passed', flush=True)
            return 0
    print('update failed: out of attempts', file=sys.stderr)
    return 1


if __name__ == '__main__':
    sys.exit(asyncio.run(main()))
