#!/usr/bin/env python3
"""A central on Bumble's own host that drives the rebooting peers through the sequence a
correct client uses, and checks their answers and timing against research/firmware-timing.md
(sections A, B, C). It shares no code with DFUKit: it proves the peers, not the tool.

    central_sequences.py --transport tcp-client:127.0.0.1:PORT smp --image FILE.bin
        [--expect-silent-ms MS] [--reset-delay-ms MS] [--reconnect-during-delay]
    central_sequences.py --transport tcp-client:127.0.0.1:PORT legacy --package FILE.zip
        [--prn N] [--expect-erase-ms MS] [--expect-silent-ms MS] [--resume-by-reset]

smp (sections A, B; smpclient examples/ble/upgrade.py does the same): mcumgr params, image list,
upload (one request at a time, SMP reassembly), test by hash, the img_mgmt answers a client
meets (33 testing the running image, 24 without a hash, 8 for an unknown hash, 28 confirming
while a test is pending, 9 / v1 rc 6 uploading into the pending slot), reset; then the device
must still answer for the reset delay, drop the link with reason 0x08 about --reset-delay-ms
after the answer, stay silent (no advertising) for about --expect-silent-ms, and come back
running the new image unconfirmed (the old one confirmed in slot 1); confirm by hash; the list
must show it active and confirmed. --reconnect-during-delay also disconnects right after the
reset answer and reconnects while the old image still runs (the trap of issue 10): the list
still shows the old image active, a confirm is refused with 28, and the link then drops.

legacy (section C; Android's LegacyDfuImpl, pc-nrfutil 0.5): version 08 00, control point refused
(ATT 0xFD) before notifications are on, start + sizes -> 10 01 01 after about --expect-erase-ms,
init packet -> 10 02 01, PRN, a 3-byte data write -> 10 03 03, the image in MTU-3 packets waiting
for each receipt (11 <bytes>) but not after the final packet, which must get no receipt and
then 10 03 01; validate -> 10 04 01; activate -> no notification, the link drops with 0x13, and
the application advertises after about --expect-silent-ms. --resume-by-reset expects the peer to
drop the link mid-transfer (its --disconnect-after): the reconnected bootloader reports the bytes
it holds (07), refuses a new start with 10 01 02, takes a reset (06: link dropped with 0x13,
"DfuTarg" back), and the whole transfer runs again. --expect-timeout-s S starts a transfer and
then waits: the bootloader must drop the link S seconds after the start and come back idle.

Exits 0 when every check passed; prints one line per check.
"""
import argparse
import asyncio
import hashlib
import json
import sys
import time
import zipfile

import cbor2
from bumble.core import UUID, AdvertisingData
from bumble.device import Device
from bumble.hci import Address
from bumble.transport import open_transport
from smp import header as smpheader
from smp import image_management, os_management

from central_smoke import Disconnected, Link

SMP = ('SMP-BUMBLE', '8D53DC1D-1DB7-4CD3-868B-8A527460AA84', 'DA2E7828-FBCE-4E01-AE9E-261174997C48', None)
LEGACY = ('DfuTarg', '00001530-1212-EFDE-1523-785FEABCD123', '00001531-1212-EFDE-1523-785FEABCD123',
          '00001532-1212-EFDE-1523-785FEABCD123')
LEGACY_REVISION = '00001534-1212-EFDE-1523-785FEABCD123'
SUPERVISION_TIMEOUT, REMOTE_USER_TERMINATED = 0x08, 0x13


class CheckFailed(Exception):
    pass


def check(condition: bool, what: str) -> None:
    print(f'{"ok  " if condition else "FAIL"} {what}', flush=True)
    if not condition:
        raise CheckFailed(what)


def now() -> float:
    return time.monotonic()


async def wait_advertising(device: Device, name: str, timeout: float) -> tuple[Address, float]:
    """Scan until `name` advertises; its address and the time it was first heard."""
    found = asyncio.get_running_loop().create_future()

    def on_advertisement(advertisement):
        if advertisement.data.get(AdvertisingData.COMPLETE_LOCAL_NAME) == name and not found.done():
            found.set_result((advertisement.address, now()))
    device.on('advertisement', on_advertisement)
    await device.start_scanning(filter_duplicates=False)
    try:
        return await asyncio.wait_for(found, timeout)
    finally:
        device.remove_listener('advertisement', on_advertisement)
        await device.stop_scanning()


async def wait_disconnected(link: Link, timeout: float) -> tuple[int, float]:
    """The reason and time of the link's end (no notification may arrive before it)."""
    deadline = now() + timeout
    while link.disconnect_reason is None:
        value = await asyncio.wait_for(link.notifications.get(), max(0.01, deadline - now()))
        if value is not None:
            raise CheckFailed(f'a notification {value.hex()} arrived before the link dropped')
    return link.disconnect_reason, now()


# --- MCUmgr SMP ---

class SMPClient:
    """One request at a time; a request frame is cut into MTU-3 writes without response, the
    answer reassembled from notifications by its header's length."""

    def __init__(self, link: Link):
        self.link = link

    async def request(self, message) -> tuple[smpheader.Header, dict]:
        frame, segment = message.BYTES, self.link.mtu - 3
        for start in range(0, len(frame), segment):
            await self.link.write(self.link.control, frame[start:start + segment], with_response=False)
        answer = b''
        while len(answer) < 8 or len(answer) < 8 + int.from_bytes(answer[2:4], 'big'):
            answer += await self.link.notification()
        header = smpheader.Header.loads(answer[:8])
        if header.sequence != message.header.sequence:
            raise CheckFailed(f'answer sequence {header.sequence}, request {message.header.sequence}')
        return header, cbor2.loads(answer[8:])

    async def images(self) -> list[dict]:
        return (await self.request(image_management.ImageStatesReadRequest()))[1]['images']


def image_error(body: dict) -> int | None:
    return body.get('err', {}).get('rc') if 'err' in body else body.get('rc')


async def smp_upload(client: SMPClient, image: bytes, buf_size: int) -> None:
    sha, offset = hashlib.sha256(image).digest(), 0
    while offset < len(image):
        room = buf_size - 8 - (96 if offset == 0 else 32)
        chunk = image[offset:offset + room]
        message = (image_management.ImageUploadWriteRequest(off=0, data=chunk, image=0, len=len(image), sha=sha)
                   if offset == 0 else image_management.ImageUploadWriteRequest(off=offset, data=chunk))
        _, body = await client.request(message)
        if image_error(body):
            raise CheckFailed(f'upload at {offset}: {body}')
        offset = body['off']
    check(body.get('match', True), f'upload of {len(image)} bytes acknowledged, sha matches')


async def smp(device: Device, args) -> None:
    image = open(args.image, 'rb').read()
    link = await Link(device, SMP).connect()
    client = SMPClient(link)
    _, params = await client.request(os_management.MCUMgrParametersReadRequest())
    buf_size = params.get('buf_size', 384)
    before = await client.images()
    old_hash = before[0]['hash']
    check(len(before) >= 1 and before[0]['active'] and before[0]['confirmed'], f'the factory image runs confirmed ({before[0]["version"]})')
    await smp_upload(client, image, buf_size)
    listed = await client.images()
    check(len(listed) == 2, 'the image list shows the upload in slot 1')
    new_hash = listed[1]['hash']

    async def state_write(hash_: bytes | None, confirm: bool, version=smpheader.Version.V2) -> dict:
        request = (image_management.ImageStatesWriteRequest(hash=hash_, confirm=confirm, version=version) if hash_
                   else image_management.ImageStatesWriteRequest(confirm=confirm, version=version))
        return (await client.request(request))[1]

    body = await state_write(old_hash, False)
    check(body.get('err') == {'group': 1, 'rc': 33}, f'testing the running image: err rc 33 ({body})')
    body = await state_write(None, False)
    check(body.get('err') == {'group': 1, 'rc': 24}, f'a test without hash: err rc 24 ({body})')
    body = await state_write(bytes(32), False)
    check(body.get('err') == {'group': 1, 'rc': 8}, f'an unknown hash: err rc 8 ({body})')
    body = await state_write(new_hash, False)
    check(image_error(body) is None and body['images'][1]['pending'] and not body['images'][1]['permanent'],
          'test by hash: slot 1 pending')
    body = await state_write(new_hash, False)
    check(image_error(body) is None, 'testing it again: no error (idempotent)')
    body = await state_write(None, True)
    check(body.get('err') == {'group': 1, 'rc': 28}, f'confirming while a test is pending: err rc 28 ({body})')
    first = image_management.ImageUploadWriteRequest(off=0, data=image[:256], image=0, len=len(image),
                                                     sha=hashlib.sha256(image + b'x').digest())
    _, body = await client.request(first)
    check(body.get('err') == {'group': 1, 'rc': 9}, f'uploading into the pending slot: err rc 9 ({body})')
    first = image_management.ImageUploadWriteRequest(off=0, data=image[:256], image=0, len=len(image),
                                                     sha=hashlib.sha256(image + b'x').digest(), version=smpheader.Version.V1)
    _, body = await client.request(first)
    check(body == {'rc': 6}, f'the same over SMP v1: rc 6 ({body})')

    _, body = await client.request(os_management.ResetWriteRequest())
    answered = now()
    check(image_error(body) is None, 'reset answered')
    if args.reconnect_during_delay:
        await link.connection.disconnect()
        await link.wait_disconnected()
        link = await Link(device, SMP).connect()
        client = SMPClient(link)
        listed = await client.images()
        check(now() - answered < args.reset_delay_ms / 1000 and listed[0]['hash'] == old_hash and listed[1]['pending'],
              f'reconnected {1000 * (now() - answered):.0f} ms after the answer: the old image still runs, the new one pending')
        body = await state_write(None, True)
        check(body.get('err') == {'group': 1, 'rc': 28}, f'a confirm now is refused: err rc 28 ({body})')
    else:
        _, body = await client.request(os_management.EchoWriteRequest(d='still here'))
        check(body.get('r') == 'still here' and now() - answered < args.reset_delay_ms / 1000,
              f'answers {1000 * (now() - answered):.0f} ms after the reset answer')
    reason, dropped = await wait_disconnected(link, args.reset_delay_ms / 1000 + 5)
    delay = dropped - answered
    check(reason == SUPERVISION_TIMEOUT and 0.6 * args.reset_delay_ms / 1000 <= delay <= args.reset_delay_ms / 1000 + 0.3,
          f'the link dropped {1000 * delay:.0f} ms after the reset answer (reset delay {args.reset_delay_ms:g} ms), reason 0x{reason:02X}')
    _, heard = await wait_advertising(device, SMP[0], args.expect_silent_ms / 1000 + 15)
    silent = heard - dropped
    check(0.9 * args.expect_silent_ms / 1000 <= silent <= args.expect_silent_ms / 1000 + 1.5,
          f'silent (no advertising) for {1000 * silent:.0f} ms, expected about {args.expect_silent_ms:g} ms')
    link = await Link(device, SMP).connect()
    client = SMPClient(link)
    listed = await client.images()
    check(listed[0]['hash'] == new_hash and listed[0]['active'] and not listed[0]['confirmed']
          and listed[1]['hash'] == old_hash and listed[1]['confirmed'],
          'after the swap the new image runs unconfirmed, the old one waits confirmed in slot 1')
    body = await state_write(new_hash, True)
    check(image_error(body) is None and body['images'][0]['active'] and body['images'][0]['confirmed'],
          'confirmed by hash: the new image runs and is confirmed')
    body = await state_write(new_hash, True)
    check(image_error(body) is None, 'confirming it again: no error')
    await link.connection.disconnect()


# --- Nordic legacy DFU (nRF5 SDK 11) ---

def read_package(path: str) -> tuple[bytes, bytes]:
    with zipfile.ZipFile(path) as package:
        entry = json.loads(package.read('manifest.json'))['manifest']['application']
        return package.read(entry['dat_file']), package.read(entry['bin_file'])


async def legacy_answer(link: Link, opcode: int, timeout: float = 5) -> bytes:
    value = await asyncio.wait_for(link.notifications.get(), timeout)
    if value is None:
        raise Disconnected()
    if value[:2] != bytes([0x10, opcode]):
        raise CheckFailed(f'expected an answer to {opcode:02X}, got {value.hex()}')
    return value


async def legacy_transfer(link: Link, args, init_packet: bytes, image: bytes, expect_drop: bool) -> None:
    """Start .. 10 03 01. Raises Disconnected when the link drops."""
    await link.write(link.control, bytes([0x01, 0x04]))
    await link.write(link.packet, bytes(8) + len(image).to_bytes(4, 'little'), with_response=False)
    started = now()
    answer = await legacy_answer(link, 0x01, timeout=args.expect_erase_ms / 1000 + 10)
    erase = now() - started
    check(answer == bytes([0x10, 0x01, 0x01]) and 0.9 * args.expect_erase_ms / 1000 <= erase <= args.expect_erase_ms / 1000 + 1,
          f'start: 10 01 01 after the bank erase, {1000 * erase:.0f} ms (expected about {args.expect_erase_ms:g})')
    await link.write(link.control, bytes([0x02, 0x00]))
    await link.write(link.packet, init_packet, with_response=False)
    await link.write(link.control, bytes([0x02, 0x01]))
    answer = await legacy_answer(link, 0x02)
    check(answer == bytes([0x10, 0x02, 0x01]), f'init packet {init_packet.hex()}: 10 02 01')
    await link.write(link.control, bytes([0x08]) + args.prn.to_bytes(2, 'little'))
    await link.write(link.control, bytes([0x03]))
    await link.write(link.packet, b'\x01\x02\x03', with_response=False)
    answer = await legacy_answer(link, 0x03)
    check(answer == bytes([0x10, 0x03, 0x03]), 'a 3-byte data write (not whole words): 10 03 03, not counted')
    size = link.mtu - 3
    packets = -(-len(image) // size)
    receipts = 0
    for index in range(packets):
        chunk = image[index * size:(index + 1) * size]
        await link.write(link.packet, chunk, with_response=False)
        sent = min((index + 1) * size, len(image))
        if index + 1 < packets and args.prn and (index + 1) % args.prn == 0:
            value = await asyncio.wait_for(link.notifications.get(), 5)
            if value is None:
                raise Disconnected()
            if value != bytes([0x11]) + sent.to_bytes(4, 'little'):
                raise CheckFailed(f'receipt after {sent} bytes: {value.hex()}')
            receipts += 1
    final_boundary = args.prn and packets % args.prn == 0
    check(not expect_drop, f'{packets} packets of {size} bytes sent, {receipts} receipts each with the right count'
          + (f'; the final packet is a receipt boundary (PRN {args.prn})' if final_boundary else ''))
    value = await asyncio.wait_for(link.notifications.get(), 5)
    if value is None:
        raise Disconnected()
    check(value == bytes([0x10, 0x03, 0x01]), f'after the final packet no receipt, then 10 03 01 ({value.hex()})')


async def legacy(device: Device, args) -> None:
    init_packet, image = read_package(args.package)
    link = await Link(device, LEGACY).connect(subscribe=False)
    revision = await link.peer.get_characteristics_by_uuid(UUID(LEGACY_REVISION))[0].read_value()
    check(bytes(revision) == bytes([0x08, 0x00]), f'revision characteristic: {bytes(revision).hex()}')
    try:
        await link.control.write_value(bytes([0x01, 0x04]), with_response=True)
        refused = None
    except Exception as error:
        refused = getattr(error, 'error_code', error)
    check(refused == 0xFD, f'the control point refuses writes before notifications are on (ATT error {refused})')
    await link.subscribe()
    bootloader_address = link.address
    if args.expect_timeout_s:
        await legacy_timeout(device, link, args, image)
        return
    try:
        await legacy_transfer(link, args, init_packet, image, expect_drop=args.resume_by_reset)
    except (Disconnected, asyncio.TimeoutError):
        check(args.resume_by_reset, f'the link dropped mid-transfer (reason 0x{link.disconnect_reason or 0:02X})')
        await link.wait_disconnected()
        link = await Link(device, LEGACY).connect()
        await link.write(link.control, bytes([0x07]))
        answer = await legacy_answer(link, 0x07)
        held = int.from_bytes(answer[3:7], 'little')
        check(answer[:3] == bytes([0x10, 0x07, 0x01]) and 0 < held < len(image),
              f'reconnected: the bootloader kept {held} bytes (10 07 01)')
        await link.write(link.control, bytes([0x01, 0x04]))
        await link.write(link.packet, bytes(8) + len(image).to_bytes(4, 'little'), with_response=False)
        answer = await legacy_answer(link, 0x01)
        check(answer == bytes([0x10, 0x01, 0x02]), f'a new start is refused: {answer.hex()} (invalid state)')
        await link.write(link.control, bytes([0x06]))
        reason, dropped = await wait_disconnected(link, 5)
        check(reason == REMOTE_USER_TERMINATED, f'reset (06): no answer, the link dropped (0x{reason:02X})')
        _, heard = await wait_advertising(device, LEGACY[0], 10)
        check(True, f'"DfuTarg" advertises again {1000 * (heard - dropped):.0f} ms later')
        link = await Link(device, LEGACY).connect()
        await legacy_transfer(link, args, init_packet, image, expect_drop=False)
    await link.write(link.control, bytes([0x04]))
    answer = await legacy_answer(link, 0x04)
    check(answer == bytes([0x10, 0x04, 0x01]), f'validate (CRC16): {answer.hex()}')
    await link.write(link.control, bytes([0x05]))
    reason, dropped = await wait_disconnected(link, 5)
    check(reason == REMOTE_USER_TERMINATED, f'activate: write response only, then the link dropped (0x{reason:02X})')
    address, heard = await wait_advertising(device, args.app_name, args.expect_silent_ms / 1000 + 10)
    silent = heard - dropped
    check(0.9 * args.expect_silent_ms / 1000 <= silent <= args.expect_silent_ms / 1000 + 1.5,
          f'the application advertises {1000 * silent:.0f} ms later (expected about {args.expect_silent_ms:g}) '
          f'from {address} (bootloader {bootloader_address})')


async def legacy_timeout(device: Device, link: Link, args, image: bytes) -> None:
    """Start, then nothing: the DFU timer (restarted by the start) ends the transfer; the
    bootloader comes back idle and takes a new start."""
    await link.write(link.control, bytes([0x01, 0x04]))
    await link.write(link.packet, bytes(8) + len(image).to_bytes(4, 'little'), with_response=False)
    started = now()
    answer = await legacy_answer(link, 0x01, timeout=args.expect_erase_ms / 1000 + 10)
    check(answer == bytes([0x10, 0x01, 0x01]), 'start: 10 01 01')
    reason, dropped = await wait_disconnected(link, args.expect_timeout_s + 5)
    idle = dropped - started
    check(reason == REMOTE_USER_TERMINATED and abs(idle - args.expect_timeout_s) < 0.5,
          f'no activity: the bootloader dropped the link (0x{reason:02X}) {idle:.2f} s after the start '
          f'(timeout {args.expect_timeout_s:g} s)')
    await wait_advertising(device, LEGACY[0], 10)
    link = await Link(device, LEGACY).connect()
    await link.write(link.control, bytes([0x01, 0x04]))
    await link.write(link.packet, bytes(8) + len(image).to_bytes(4, 'little'), with_response=False)
    answer = await legacy_answer(link, 0x01, timeout=args.expect_erase_ms / 1000 + 10)
    check(answer == bytes([0x10, 0x01, 0x01]), 'back as DfuTarg, idle: a new start is accepted (10 01 01)')
    await link.connection.disconnect()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--transport', required=True, help='tcp-client:127.0.0.1:PORT of a second controller')
    sub = parser.add_subparsers(dest='target', required=True)
    smp_parser = sub.add_parser('smp')
    smp_parser.add_argument('--image', required=True, help='an MCUboot image to upload')
    smp_parser.add_argument('--reset-delay-ms', type=float, default=250, help="the peer's --reset-delay-ms")
    smp_parser.add_argument('--expect-silent-ms', type=float, required=True,
                            help='boot + swap time the peer should be silent for')
    smp_parser.add_argument('--reconnect-during-delay', action='store_true')
    legacy_parser = sub.add_parser('legacy')
    legacy_parser.add_argument('--package', required=True, help='a legacy package (adafruit-nrfutil dfu genpkg)')
    legacy_parser.add_argument('--prn', type=int, default=10)
    legacy_parser.add_argument('--expect-erase-ms', type=float, default=47 * 85)
    legacy_parser.add_argument('--expect-silent-ms', type=float, required=True, help='activation to app advertising')
    legacy_parser.add_argument('--app-name', default='Nordic_App')
    legacy_parser.add_argument('--resume-by-reset', action='store_true')
    legacy_parser.add_argument('--expect-timeout-s', type=float,
                               help="only start, then wait for the peer's inactivity timeout (its --inactivity-timeout-s)")
    args = parser.parse_args()
    async with await open_transport(args.transport) as hci:
        device = Device.with_hci('central', Address('C0:DF:00:00:00:01'), hci.source, hci.sink)
        await device.power_on()
        try:
            await (smp(device, args) if args.target == 'smp' else legacy(device, args))
        except (CheckFailed, Disconnected, asyncio.TimeoutError) as error:
            print(f'FAIL {type(error).__name__}: {error}', flush=True)
            return 1
    print('all checks passed', flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(asyncio.run(main()))
