#!/usr/bin/env python3
"""Runs N Bumble virtual controllers on one virtual radio link, each exposed as H4 over a
transport (e.g. tcp-server:127.0.0.1:9001), with distinct public addresses.

Usage: bumble-controllers.py [--acl-length N] [--acl-count N] TRANSPORT [TRANSPORT ...]

Unlike `python -m bumble.apps.controllers`, which takes exactly two transports and gives both
controllers the address 00:00:00:00:00:00, this takes any number, numbers the addresses
F0:F1:F2:F3:F4:00, :01, ... and sets the LE ACL buffer the controllers report. Prints
"ready" once every transport listens; stop it by its PID.
"""
import argparse
import asyncio
import sys

from bumble.controller import Controller
from bumble.link import LocalLink
from bumble.transport import open_transport


async def run(arguments):
    link = LocalLink()
    transports = []
    controllers = []
    for index, name in enumerate(arguments.transports):
        transport = await open_transport(name)
        transports.append(transport)
        controller = Controller(
            f'C{index}',
            host_source=transport.source,
            host_sink=transport.sink,
            link=link,
            public_address=f'F0:F1:F2:F3:F4:{index:02X}',
        )
        controller.le_acl_data_packet_length = arguments.acl_length
        controller.total_num_le_acl_data_packets = arguments.acl_count
        controllers.append(controller)
    print('ready', flush=True)
    try:
        await asyncio.get_running_loop().create_future()
    finally:
        for transport in transports:
            await transport.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--acl-length', type=int, default=27, help='LE ACL buffer length (27...251)')
    parser.add_argument('--acl-count', type=int, default=64, help='number of LE ACL buffers')
    parser.add_argument('transports', nargs='+', help='e.g. tcp-server:127.0.0.1:9001')
    arguments = parser.parse_args()
    try:
        asyncio.run(run(arguments))
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == '__main__':
    main()
