#!/usr/bin/env python3
"""Bumble virtual controllers on one LocalLink for `make test-kernel`: the first is the guest
kernel's controller (H4 on a unix socket that qemu attaches as the guest's second UART; btattach
makes it hci0), the others carry the Bumble peripherals (Tests/Bumble/*_device.py, tcp-client).
With --kernel-controllers 2 the first two are the kernel's (the guest's second and third UART:
hci0 and hci1, a station with two radios), both hearing every peripheral.

Usage: bumble-bridge.py [--acl-length N] [--acl-count N] [--kernel-controllers N] KERNEL_TRANSPORT...
       TRANSPORT [TRANSPORT ...]
Public addresses F0:F1:F2:F3:F4:00 (the kernel's), :01, ... Prints "ready" once all listen.

Bumble 0.0.236 LocalLink sends LE ACL data with the sending controller's *random* address as
the source, so when the central uses its public address (the Linux kernel does) the peer drops
every ACL packet ("!!! no connection for ..."). Patched below: the source is the connection's own
address. Re-check when the pinned Bumble version changes.

Bumble's controller also answers a legacy scan (LE Set Scan Enable) with LE *Extended* Advertising
Reports whenever it has the LE Extended Advertising feature, which a real controller does not do;
the kernel's controllers (C0, C1...) drop that feature unless --extended-advertising, so its host sees
legacy LE Advertising Reports (and the kernel uses the legacy scan and connect commands).
"""
import argparse
import asyncio
import sys

import bumble.controller as bumble_controller
from bumble import hci
from bumble.controller import Controller
from bumble.core import PhysicalTransport
from bumble.link import LocalLink
from bumble.transport import open_transport

_original_on_acl_pdu = bumble_controller.Connection.on_acl_pdu


def _on_acl_pdu(self, pdu):
    if self.link and self.transport == PhysicalTransport.LE:
        destination = self.link.find_le_controller(self.peer_address)
        if destination is not None:
            source = self.self_address
            asyncio.get_running_loop().call_soon(
                lambda: destination.on_link_acl_data(source, PhysicalTransport.LE, pdu))
        return
    _original_on_acl_pdu(self, pdu)


bumble_controller.Connection.on_acl_pdu = _on_acl_pdu


async def run(arguments):
    link = LocalLink()
    transports = []
    for index, name in enumerate(arguments.transports):
        transport = await open_transport(name)
        transports.append(transport)
        controller = Controller(f'C{index}', host_source=transport.source, host_sink=transport.sink,
                                link=link, public_address=f'F0:F1:F2:F3:F4:{index:02X}')
        controller.le_acl_data_packet_length = arguments.acl_length
        controller.total_num_le_acl_data_packets = arguments.acl_count
        if index < arguments.kernel_controllers and not arguments.extended_advertising:
            controller.le_features &= ~hci.LeFeatureMask.LE_EXTENDED_ADVERTISING
    print('ready', flush=True)
    try:
        await asyncio.get_running_loop().create_future()
    finally:
        for transport in transports:
            await transport.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--acl-length', type=int, default=251, help='LE ACL buffer length (27...251)')
    parser.add_argument('--acl-count', type=int, default=16, help='number of LE ACL buffers')
    parser.add_argument('--extended-advertising', action='store_true',
                        help="keep the LE Extended Advertising feature on the kernel's controllers "
                             '(then they answer even legacy scans with LE Extended Advertising Reports)')
    parser.add_argument('--kernel-controllers', type=int, default=1,
                        help="how many of the first transports are the guest kernel's controllers (default 1)")
    parser.add_argument('transports', nargs='+', help='unix-server:PATH, tcp-server:127.0.0.1:PORT, ...')
    try:
        asyncio.run(run(parser.parse_args()))
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == '__main__':
    main()
