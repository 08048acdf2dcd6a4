"""Plumbing shared by the Bumble peripherals: options, advertising, ordered notifications,
injected disconnects, reboots (silent periods) and the state file. The protocol logic lives in
each device script."""
import argparse
import asyncio
import hashlib
import json
import logging
import os
import signal

from bumble.core import UUID, AdvertisingData
from bumble.device import Device
from bumble.hci import Address
from bumble.transport import open_transport

log = logging.getLogger('peripheral')

ADVERTISING_INTERVAL_MS = 50
REBOOT_REASON = 0x08  # what a central sees when a device resets: connection timeout


def argument_parser(description: str, name: str, address: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument('--transport', required=True,
                        help='HCI transport of the virtual controller, e.g. tcp-client:127.0.0.1:PORT')
    parser.add_argument('--name', default=name, help=f'advertised complete local name (default {name})')
    parser.add_argument('--address', default=address,
                        help=f'random static address to advertise from (default {address})')
    parser.add_argument('--max-mtu', type=int, default=247, help='largest ATT MTU accepted (default 247)')
    parser.add_argument('--disconnect-after', type=int, action='append', default=[], metavar='BYTES',
                        help='drop the connection once when the written value bytes (all characteristics, '
                             'counted across connections) reach BYTES: the write is processed but not '
                             'answered. Repeat for several drops.')
    parser.add_argument('--disconnect-reason', type=lambda text: int(text, 0), default=0x08,
                        help='HCI reason for --disconnect-after: 0x08 connection timeout (default) '
                             'or 0x13 remote user terminated')
    parser.add_argument('--state-file', help='JSON file written when an image is installed')
    parser.add_argument('-v', '--verbose', action='store_true', help='log every command')
    return parser


def advertising_data(name: str, service_uuid: str) -> bytes:
    """Flags, complete local name and complete service UUID list; the flags are left out when
    the three do not fit in 31 bytes (a 10-character name with a 128-bit UUID does not)."""
    uuid = UUID(service_uuid)
    uuid_type = (AdvertisingData.COMPLETE_LIST_OF_16_BIT_SERVICE_CLASS_UUIDS if len(bytes(uuid)) == 2
                 else AdvertisingData.COMPLETE_LIST_OF_128_BIT_SERVICE_CLASS_UUIDS)
    fields = [(AdvertisingData.COMPLETE_LOCAL_NAME, name.encode()), (uuid_type, bytes(uuid))]
    with_flags = bytes(AdvertisingData([(AdvertisingData.FLAGS, bytes([0x06]))] + fields))
    data = with_flags if len(with_flags) <= 31 else bytes(AdvertisingData(fields))
    if len(data) > 31:
        raise SystemExit(f'advertising data of {len(data)} bytes does not fit in 31: shorten --name')
    return data


def write_state_file(path: str | None, image: bytes, **extra) -> None:
    if not path:
        return
    state = {'sha256': hashlib.sha256(image).hexdigest(), 'size': len(image), **extra}
    temporary = f'{path}.tmp'
    with open(temporary, 'w') as file:
        json.dump(state, file)
    os.replace(temporary, path)  # a reader never sees half a file


class Peripheral:
    """A Bumble device advertising every 50 ms (again after each disconnection), with a queue
    that sends notifications in order, each batch after the write response that caused it.

    A device script models a reboot with `go_silent(reason)` (stop advertising, drop every link,
    ignore late writes) and `wake()` (advertise again, possibly as another identity: `advertise`
    takes new advertising data and a new address)."""

    def __init__(self, args: argparse.Namespace, service_uuid: str):
        self.args = args
        self.service_uuid = service_uuid
        self.device: Device | None = None
        self.outbox: asyncio.Queue = asyncio.Queue()
        self.bytes_received = 0
        self.pending_drops = sorted(set(args.disconnect_after))
        self.dropping = None  # the connection being dropped by --disconnect-after
        self.connections = set()  # the live ones
        self.silent = False  # rebooting: no advertising, no links, late writes ignored
        self.advertising = advertising_data(args.name, service_uuid)
        self.advertising_lock = asyncio.Lock()
        logging.basicConfig(level=logging.INFO, format='%(asctime)s %(name)s: %(message)s')
        logging.getLogger('bumble').setLevel(logging.WARNING)

    # Hooks for the device scripts.
    def on_connected(self, connection) -> None: ...
    def on_disconnected(self, connection, reason: int) -> None: ...

    def send(self, connection, characteristic, values: list[bytes], then_disconnect: int | None = None) -> None:
        """Queue notifications; optionally drop the link (a reboot) once they are out."""
        self.outbox.put_nowait((connection, characteristic, values, then_disconnect))

    def received(self, connection, value: bytes) -> bool:
        """Count written bytes. False: ignore this write (the link is being dropped, or it is a
        late write of a link that already dropped, which a device never sees)."""
        if self.silent or self.dropping is connection or connection not in self.connections:
            return False
        self.bytes_received += len(value)
        return True

    async def drop_if_due(self, connection) -> bool:
        """After processing a write: drop the link instead of answering when a threshold is reached."""
        due = [limit for limit in self.pending_drops if self.bytes_received >= limit]
        if not due:
            return False
        self.pending_drops = [limit for limit in self.pending_drops if limit not in due]
        self.dropping = connection
        log.info('injected disconnect after %d bytes (reason 0x%02X)', self.bytes_received,
                 self.args.disconnect_reason)
        try:
            await connection.disconnect(reason=self.args.disconnect_reason)
        except Exception as error:  # already gone
            log.info('disconnect failed: %s', error)
        return True

    async def run(self, services) -> None:
        # SIGTERM ends the run by cancelling it, so that the transport closes (and, under
        # BUMBLE_SNOOPER, Bumble's btsnoop is flushed and closed) instead of the process dying.
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, asyncio.current_task().cancel)
        try:
            await self._run(services)
        except asyncio.CancelledError:
            log.info('stopped')

    async def _run(self, services) -> None:
        async with await open_transport(self.args.transport) as hci:
            self.device = Device.with_hci(self.args.name, Address(self.args.address), hci.source, hci.sink)
            self.device.gatt_server.max_mtu = self.args.max_mtu
            for service in services:
                self.device.add_service(service)
            self.device.on('connection', self._connected)
            await self.device.power_on()
            await self.advertise()
            log.info('%s advertising as %s', self.args.name, self.args.address)
            sender = asyncio.create_task(self._send_loop())
            # Under BUMBLE_SNOOPER (a btsnoop of the session) Bumble wraps the source; the wrapped
            # one is the one that knows when the transport ends.
            await getattr(hci.source, 'source', hci.source).wait_for_termination()
            sender.cancel()

    async def advertise(self, data: bytes | None = None, address: str | None = None) -> None:
        """(Re)start connectable advertising every 50 ms, with new data or from a new random
        static address if given; a silent (rebooting) device stays off the air."""
        async with self.advertising_lock:
            if data is not None:
                self.advertising = data
            if address is not None:
                self.device.random_address = Address(address)
            if self.silent:
                return
            await self.device.start_advertising(
                advertising_data=self.advertising,
                advertising_interval_min=ADVERTISING_INTERVAL_MS,
                advertising_interval_max=ADVERTISING_INTERVAL_MS)

    async def go_silent(self, reason: int) -> None:
        """The device reboots: it stops advertising and every link drops with `reason` (0x08, a
        supervision timeout, is what a central sees when a device resets without terminating
        the link: Bumble's virtual controller has no supervision timeout of its own)."""
        async with self.advertising_lock:
            self.silent = True
            await self.device.stop_advertising()
        for connection in list(self.connections):
            try:
                await connection.disconnect(reason=reason)
            except Exception as error:  # already gone
                log.info('disconnect failed: %s', error)

    async def wake(self, data: bytes | None = None, address: str | None = None) -> None:
        """The device is up again: it advertises (as `data` from `address`, if given)."""
        self.silent = False
        await self.advertise(data, address)

    async def _advertise_again(self) -> None:
        try:
            await self.advertise()
        except Exception as error:
            log.info('advertising did not restart: %r', error)

    def _connected(self, connection) -> None:
        log.info('connected to %s', connection.peer_address)
        self.connections.add(connection)
        connection.on('disconnection', lambda reason: self._disconnected(connection, reason))
        self.on_connected(connection)

    def _disconnected(self, connection, reason: int) -> None:
        log.info('disconnected (reason 0x%02X)', reason)
        self.connections.discard(connection)
        if self.dropping is connection:
            self.dropping = None
        self.on_disconnected(connection, reason)
        if not self.silent:  # advertise again at once, as the devices modelled here do
            asyncio.get_running_loop().create_task(self._advertise_again())

    async def _send_loop(self) -> None:
        while True:
            connection, characteristic, values, then_disconnect = await self.outbox.get()
            try:
                for value in values:
                    await self.device.notify_subscriber(connection, characteristic, value)
                if then_disconnect is not None:
                    await connection.disconnect(reason=then_disconnect)
            except Exception as error:  # the link went away meanwhile
                log.info('send failed: %s', error)
