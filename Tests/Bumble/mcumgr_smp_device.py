#!/usr/bin/env python3
"""A Zephyr application with an MCUmgr SMP server (the smp_svr sample) booted by MCUboot in swap
mode, on a Bumble virtual controller, rebooting as Zephyr and MCUboot do.

Service 8D53DC1D with one characteristic, DA2E7828 (write without response, write, notify).
A request is an 8-byte header (big-endian body length at byte 2) and a CBOR map; it may span
several writes (SMP reassembly, up to --buf-size bytes) and several may arrive back to back.
Each answer leaves as one frame cut into (ATT_MTU - 3)-byte notifications, in the request's SMP
version with its sequence number. Headers and messages are encoded and decoded with PyPI `smp`
(4.2.0) and cbor2. Groups: os (0 echo, 5 reset, 6 mcumgr params) and image (0 state read/write,
1 upload into slot 1, 5 erase). The upload survives disconnects and resumes by its `sha`.

Flash time (off unless asked, `make bench-peers` asks for an nRF52840's): with
--flash-erase-ms-per-page and --flash-write-us-per-word the device spends, before answering, the
time its flash takes: a new upload erases the pages the image will use (Zephyr img_mgmt.c
img_mgmt_upload calls img_mgmt_erase_image_data(0, len) on the first chunk unless
CONFIG_IMG_ERASE_PROGRESSIVELY), every chunk is written word by word, an image erase erases the
slot. One request at a time, as Zephyr's SMP work queue handles them: later writes wait.
The state file also gives `upload_seconds`, the last complete upload as the device saw it: from
its first chunk's arrival to the last chunk's answer (the same measure whichever client sent it).

Reset, as research/firmware-timing.md sections A and B describe it:
1. `reset` is answered at once; the device keeps running the old image and answering for
   --reset-delay-ms (default 250: Zephyr subsys/mgmt/mcumgr/grp/os_mgmt/Kconfig
   MCUMGR_GRP_OS_RESET_MS; os_mgmt.c os_mgmt_reset schedules os_mgmt_reset_work, whose handler
   calls sys_reboot). A central that disconnects meanwhile finds it advertising again at once.
2. Then it reboots: sys_reboot tears nothing down, so the link just drops (the central sees a
   supervision timeout, reason 0x08; --reset-reason 0x13 for a device that terminates first).
3. It stays silent (no advertising) for --boot-ms (MCUboot, image validation, the stack's
   start-up) plus, when MCUboot swaps (a slot marked for test or for good, or a revert),
   --swap-ms-per-kib for every KiB of the larger image (mcu-tools/mcuboot docs/design.md
   "Image swapping": only the sectors an image uses are copied; swap_move.c / swap_scratch.c
   swap_run erase and write every sector three times). The application does not run while
   MCUboot swaps (loader.c context_boot_go swaps before it chain-loads the image).
4. It advertises again running the new image: after a test swap unconfirmed (reverted at the
   next reset unless confirmed), and the state file names the image that runs.
The upload in progress (RAM in Zephyr) is lost at every reset; the slots are not.

    mcumgr_smp_device.py --transport tcp-client:127.0.0.1:PORT [--disconnect-after BYTES]
                         [--state-file PATH] [--buf-size N] [--buf-count N]
                         [--reset-delay-ms MS] [--boot-ms MS] [--swap-ms-per-kib MS]
"""
import asyncio
import dataclasses
import hashlib
import logging
import struct
import time

import cbor2
import pydantic
from bumble.gatt import Characteristic, CharacteristicValue, Service
from smp import header as smpheader
from smp import image_management, os_management

from peripheral_common import REBOOT_REASON, Peripheral, argument_parser, write_state_file

SERVICE_UUID = '8D53DC1D-1DB7-4CD3-868B-8A527460AA84'
CHARACTERISTIC_UUID = 'DA2E7828-FBCE-4E01-AE9E-261174997C48'
HEADER_SIZE = smpheader.Header.SIZE
SLOT_SIZE = 1 << 20
OS_GROUP, IMAGE_GROUP = 0, 1

# MGMT_ERR_* (sent as {rc} in both versions) and IMG_MGMT_ERR_* (v2 {err: {group: 1, rc}}).
EINVAL, EMSGSIZE, ENOTSUP, UNSUPPORTED_TOO_NEW = 3, 7, 8, 13
IMG = image_management.IMG_MGMT_ERR
# What a v1 request gets instead of an image error (rc 1, MGMT_ERR_EUNKNOWN, for the others):
# Zephyr subsys/mgmt/mcumgr/grp/img_mgmt/src/img_mgmt.c img_mgmt_translate_error_code.
LEGACY_CODES = {IMG.NO_IMAGE: 5, IMG.NO_TLVS: 5,
                IMG.NO_FREE_SLOT: 6, IMG.CURRENT_VERSION_IS_NEWER: 6, IMG.IMAGE_ALREADY_PENDING: 6,
                IMG.NO_FREE_MEMORY: 2,
                IMG.INVALID_SLOT: 3, IMG.INVALID_PAGE_OFFSET: 3, IMG.INVALID_OFFSET: 3, IMG.INVALID_LENGTH: 3,
                IMG.INVALID_IMAGE_HEADER: 3, IMG.INVALID_HASH: 3, IMG.INVALID_FLASH_ADDRESS: 3}

# MCUboot (bootutil/image.h)
IMAGE_MAGIC, TLV_INFO_MAGIC, TLV_PROTECTED_INFO_MAGIC, TLV_SHA256 = 0x96F3B83D, 0x6907, 0x6908, 0x10
IMAGE_F_ENCRYPTED, IMAGE_F_NON_BOOTABLE = 0x04 | 0x08, 0x10

log = logging.getLogger('smp')


class ImageError(Exception):
    """An IMG_MGMT_ERR answer (Zephyr forgets an upload on any of them)."""

    def __init__(self, code: IMG):
        super().__init__(code.name)
        self.code = code


# --- MCUboot images in the slots ---

@dataclasses.dataclass(frozen=True)
class SlotImage:
    data: bytes
    version: tuple[int, int, int, int]
    hash: bytes  # the SHA256 TLV: what SMP lists and takes for test / confirm
    bootable: bool
    intact: bool  # the SHA256 TLV matches (MCUboot does not boot it otherwise)

    @property
    def version_string(self) -> str:
        """img_mgmt_ver_str: major.minor.revision, then .build when it is not 0."""
        major, minor, revision, build = self.version
        return f'{major}.{minor}.{revision}' + (f'.{build}' if build else '')

    @staticmethod
    def parse(data: bytes) -> 'SlotImage | None':
        """An MCUboot image with a SHA256 TLV, as img_mgmt_read_info lists it; None otherwise."""
        if len(data) < 32:
            return None
        magic, _load, header_size, protected_size, image_size, flags = struct.unpack_from('<IIHHII', data)
        if magic != IMAGE_MAGIC:
            return None
        at = header_size + image_size
        hashed_end = at + protected_size  # header, image and protected TLVs
        if protected_size:
            if at + 4 > len(data) or struct.unpack_from('<HH', data, at) != (TLV_PROTECTED_INFO_MAGIC, protected_size):
                return None
            at = hashed_end
        if at + 4 > len(data):
            return None
        info_magic, total = struct.unpack_from('<HH', data, at)
        if info_magic != TLV_INFO_MAGIC:
            return None
        end, at, sha256 = min(at + total, len(data)), at + 4, None
        while at + 4 <= end:
            kind, length = data[at], int.from_bytes(data[at + 2:at + 4], 'little')
            if kind == TLV_SHA256 and length == 32:
                sha256 = data[at + 4:at + 36]
            at += 4 + length
        if sha256 is None or len(sha256) != 32:
            return None
        intact = bool(flags & IMAGE_F_ENCRYPTED) or hashlib.sha256(data[:hashed_end]).digest() == sha256
        return SlotImage(bytes(data), struct.unpack_from('<BBHI', data, 20), sha256,
                         not flags & IMAGE_F_NON_BOOTABLE, intact)

    @staticmethod
    def make(payload: bytes, version: tuple[int, int, int, int]) -> 'SlotImage':
        """A minimal `imgtool sign`: 32-byte header, payload, TLV area with the SHA256 TLV."""
        header = struct.pack('<IIHHII', IMAGE_MAGIC, 0, 32, 0, len(payload), 0) + struct.pack('<BBHII', *version, 0)
        hashed = header + payload
        tlvs = struct.pack('<HHBBH', TLV_INFO_MAGIC, 4 + 4 + 32, TLV_SHA256, 0, 32) + hashlib.sha256(hashed).digest()
        return SlotImage.parse(hashed + tlvs)


# The image running when the device leaves the factory: version 0.0.0.
FACTORY_IMAGE = SlotImage.make(bytes((i * 31 + 7) & 0xFF for i in range(1024)), (0, 0, 0, 0))


class MCUbootSlots:
    """Slot 0 runs, slot 1 takes uploads. The image trailers are modelled by two facts: slot 1
    marked for the next boot ('test' or 'permanent') and whether slot 0's image is confirmed
    (image_ok; false after a test swap). `boot()` is MCUboot at reset (mcu-tools/mcuboot
    docs/design.md "Boot swap types"; boot/bootutil/src/loader.c boot_validate_slot)."""

    ACTIVE = 0

    def __init__(self, primary: SlotImage):
        self.primary, self.secondary = primary, None
        self.pending_swap = None  # 'test' | 'permanent': slot 1 is marked for the next boot
        self.primary_confirmed = True  # image_ok of slot 0: false after a test swap

    @property
    def swap_type(self) -> str:
        """MCUboot's swap type for the next boot: none, test, permanent or revert."""
        return self.pending_swap or ('none' if self.primary_confirmed else 'revert')

    def next_boot(self) -> tuple[int, str]:
        """img_mgmt_get_next_boot_slot (Zephyr img_mgmt_state.c): the slot the next boot runs
        and its type, 'normal', 'test' or 'revert' (a permanent swap is 'normal' to slot 1)."""
        return {'none': (0, 'normal'), 'test': (1, 'test'), 'permanent': (1, 'normal'),
                'revert': (1, 'revert')}[self.swap_type]

    def in_use(self) -> bool:
        """img_mgmt_slot_in_use(1): slot 1 holds what the next boot needs (pending, permanent or
        the revert copy): uploads (IMG_MGMT_ERR_NO_FREE_SLOT) and erases must not touch it."""
        return self.swap_type != 'none'

    def clear_secondary(self, image: SlotImage | None = None) -> None:
        self.secondary, self.pending_swap = image, None

    def image_list(self) -> list:
        """img_mgmt_state_read: the active slot is confirmed unless the next boot reverts; the
        other is pending (test), pending + permanent, or confirmed (the revert copy)."""
        next_slot, kind = self.next_boot()
        entries = [image_management.ImageState(
            slot=0, version=self.primary.version_string, hash=self.primary.hash, bootable=self.primary.bootable,
            pending=False, confirmed=kind != 'revert', active=True, permanent=False)]
        if self.secondary:
            other = next_slot != self.ACTIVE
            entries.append(image_management.ImageState(
                slot=1, version=self.secondary.version_string, hash=self.secondary.hash,
                bootable=self.secondary.bootable, pending=other and kind in ('normal', 'test'),
                confirmed=other and kind == 'revert', active=False, permanent=other and kind == 'normal'))
        return entries

    def set_next_boot_slot(self, slot: int, confirm: bool) -> None:
        """img_mgmt_set_next_boot_slot (Zephyr img_mgmt_state.c, swap modes), then
        boot_set_next: raises ImageError with the code Zephyr answers."""
        next_slot, kind = self.next_boot()
        if not confirm and slot == self.ACTIVE:
            raise ImageError(IMG.IMAGE_SETTING_TEST_TO_ACTIVE_DENIED)  # 33
        if kind == 'test':
            if not confirm and slot == next_slot:
                return  # testing the slot already set for test: nothing to do
            raise ImageError(IMG.IMAGE_ALREADY_PENDING)  # 28: no other change while a test is pending
        if kind == 'normal':
            if confirm and slot == next_slot:
                return  # confirming what boots next anyway
            if (slot == self.ACTIVE and self.ACTIVE != next_slot) or \
                    (not confirm and slot != self.ACTIVE and slot == next_slot):
                raise ImageError(IMG.IMAGE_ALREADY_PENDING)  # another slot was made permanent
        if kind == 'revert':
            if confirm and slot == next_slot:
                return  # the revert copy is confirmed already
            if not confirm:
                raise ImageError(IMG.IMAGE_ALREADY_PENDING)
        if slot == self.ACTIVE:
            self.primary_confirmed = True  # boot_set_next(active): image_ok on slot 0
        else:
            self.pending_swap = 'permanent' if confirm else 'test'

    def boot(self) -> tuple[str, int]:
        """MCUboot at reset: swaps as the trailers ask. Returns what it did ('none', 'test',
        'permanent', 'revert', or 'erased' for a slot 1 image it would not boot) and the bytes
        of the larger image it swapped (0 without a swap)."""
        swap = self.swap_type
        if swap in ('test', 'permanent'):
            candidate = self.secondary
            if candidate is None or not candidate.intact or not candidate.bootable:
                self.clear_secondary()  # boot_validate_slot: boot_scramble_slot, the old image boots
                return 'erased', 0
            size = max(len(candidate.data), len(self.primary.data))
            self.primary, self.secondary = candidate, self.primary
            self.pending_swap, self.primary_confirmed = None, swap == 'permanent'
            return swap, size
        if swap == 'revert':
            self.primary_confirmed = True  # a revert leaves image_ok set
            if self.secondary is None:
                return 'none', 0
            size = max(len(self.secondary.data), len(self.primary.data))
            self.primary, self.secondary = self.secondary, self.primary
            return 'revert', size
        return 'none', 0


@dataclasses.dataclass
class Upload:
    """g_img_mgmt_state: survives disconnects; a first chunk with the same `sha` resumes it."""
    size: int
    sha: bytes
    received: bytearray = dataclasses.field(default_factory=bytearray)


# --- The SMP server ---

def load(message_class, request: smpheader.Header, body: dict):
    """A request message from its header and CBOR map, in the header's SMP version."""
    return message_class.load(request, {**body, 'version': request.version})


def raw_header(frame: bytes) -> tuple:
    """op, version, flags, length, group, sequence, command of a header smp cannot load."""
    first, flags, length, group, sequence, command = struct.unpack_from('!BBHHBB', frame)
    return first & 7, (first >> 3) & 3, flags, length, group, sequence, command


@dataclasses.dataclass(frozen=True)
class FlashTiming:
    """How long the device's flash takes (zero: instant). nRF52840 Product Specification v1.7,
    NVMC electrical specification: t_ERASEPAGE 85 ms (max) per 4 kB page, t_WRITE 41 us (max)
    per 32-bit word; `make bench-peers` uses those figures."""
    erase_ms_per_page: float = 0
    write_us_per_word: float = 0
    page_size: int = 4096

    def erase_seconds(self, size: int) -> float:
        return -(-size // self.page_size) * self.erase_ms_per_page / 1000

    def write_seconds(self, size: int) -> float:
        return -(-size // 4) * self.write_us_per_word / 1_000_000


class SMPServer:
    """Complete request frames in, (response frame, reboot) out. `busy_seconds` adds up the
    flash time of what was handled (the peripheral waits it out before answering)."""

    def __init__(self, buf_size: int, buf_count: int, flash: FlashTiming = FlashTiming()):
        self.buf_size, self.buf_count, self.flash = buf_size, buf_count, flash
        self.slots = MCUbootSlots(FACTORY_IMAGE)
        self.upload: Upload | None = None
        self.busy_seconds = 0.0
        self.upload_started: float | None = None  # the first chunk of the current upload arrived
        self.upload_completed = False  # the last chunk was just written (its answer is due)

    def handle(self, frame: bytes) -> tuple[bytes, bool] | None:
        try:
            request = smpheader.Header.loads(frame[:HEADER_SIZE])
        except ValueError:  # an SMP version or command smp does not know: answered by hand
            op, version, _, _, group, sequence, command = raw_header(frame)
            if op not in (smpheader.OP.READ, smpheader.OP.WRITE):
                return None
            body = cbor2.dumps({'rc': UNSUPPORTED_TOO_NEW if version > 1 else ENOTSUP})
            answer = struct.pack('!BBHHBB', min(version, 1) << 3 | op | 1, 0, len(body), group, sequence, command)
            return answer + body, False
        if request.op not in (smpheader.OP.READ, smpheader.OP.WRITE):
            return None  # Zephyr drops responses
        reboot = False
        if len(frame) > self.buf_size:
            body = {'rc': EMSGSIZE}
        else:
            try:
                decoded = cbor2.loads(frame[HEADER_SIZE:])
                if not isinstance(decoded, dict):
                    raise ValueError('not a map')
                answer, reboot = self.dispatch(request, decoded)
            except (ValueError, cbor2.CBORDecodeError, pydantic.ValidationError) as error:
                log.debug('invalid request: %s', str(error).splitlines()[0])
                body = {'rc': EINVAL}
            except ImageError as error:
                self.upload = None
                body = ({'rc': LEGACY_CODES.get(error.code, 1)} if request.version == smpheader.Version.V1
                        else {'err': {'group': IMAGE_GROUP, 'rc': int(error.code)}})
            else:
                if isinstance(answer, bytes):
                    return answer, reboot  # built by an smp message class
                body = answer
        return self.frame(request, body), reboot

    @staticmethod
    def frame(request: smpheader.Header, body: dict) -> bytes:
        """An answer smp has no class for (errors, the state write): smp's Header + cbor2."""
        data = cbor2.dumps(body)
        header = smpheader.Header(op=smpheader.OP(request.op | 1), version=request.version, flags=smpheader.Flag(0),
                                  length=len(data), group_id=request.group_id, sequence=request.sequence,
                                  command_id=request.command_id)
        return header.BYTES + data

    def dispatch(self, request: smpheader.Header, body: dict) -> tuple[bytes | dict, bool]:
        reply = {'version': request.version, 'sequence': request.sequence}
        write = request.op == smpheader.OP.WRITE
        key = (request.group_id, request.command_id, write)
        if key[:2] == (OS_GROUP, 0):
            echo = load(os_management.EchoWriteRequest, request, body)
            return os_management.EchoWriteResponse(**reply, r=echo.d).BYTES, False
        if key == (OS_GROUP, 5, True):
            return os_management.ResetWriteResponse(**reply).BYTES, True
        if key == (OS_GROUP, 6, False):
            return os_management.MCUMgrParametersReadResponse(
                **reply, buf_size=self.buf_size, buf_count=self.buf_count).BYTES, False
        if key == (IMAGE_GROUP, 0, False):
            return self.state(reply), False
        if key == (IMAGE_GROUP, 0, True):
            self.write_state(load(image_management.ImageStatesWriteRequest, request, body))
            # ImageStatesWriteResponse derives from the read response (op 1): build op 3 ourselves.
            return self.frame(request, cbor2.loads(self.state(reply)[HEADER_SIZE:])), False
        if key == (IMAGE_GROUP, 1, True):
            if 'off' not in body:
                raise ImageError(IMG.INVALID_OFFSET)
            offset, match = self.upload_chunk(load(image_management.ImageUploadWriteRequest, request, body))
            return image_management.ImageUploadWriteResponse(**reply, rc=0, off=offset, match=match).BYTES, False
        if key == (IMAGE_GROUP, 5, True):
            if self.slots.in_use():
                raise ImageError(IMG.NO_FREE_SLOT)
            self.upload = None
            self.slots.clear_secondary()
            self.busy_seconds += self.flash.erase_seconds(SLOT_SIZE)  # img_mgmt_erase: the whole slot
            return self.frame(request, {'rc': 0}), False
        return {'rc': ENOTSUP}, False

    def state(self, reply: dict) -> bytes:
        return image_management.ImageStatesReadResponse(**reply, images=self.slots.image_list(), splitStatus=0).BYTES

    def write_state(self, request) -> None:
        """img_mgmt_state_write: {hash, confirm: false} tests that image, {hash, confirm: true}
        makes it permanent (or confirms it when it runs), {confirm: true} confirms the running
        image; what is allowed when is img_mgmt_set_next_boot_slot's (MCUbootSlots)."""
        if request.hash:
            if len(request.hash) != 32:
                raise ImageError(IMG.INVALID_HASH)  # 24: the exact-length lookup would fail
            slots = self.slots
            slot = 0 if request.hash == slots.primary.hash else 1 if slots.secondary and \
                request.hash == slots.secondary.hash else None
            if slot is None:
                raise ImageError(IMG.HASH_NOT_FOUND)  # 8
        elif request.confirm:
            slot = MCUbootSlots.ACTIVE
        else:
            raise ImageError(IMG.INVALID_HASH)  # 24: a test needs a hash
        self.slots.set_next_boot_slot(slot, bool(request.confirm))

    def upload_chunk(self, request) -> tuple[int, bool | None]:
        """img_mgmt_upload_inspect: the offset to answer (where the device wants the next
        chunk) and, after the last byte with a `sha`, whether the file's SHA-256 matches it."""
        if request.off == 0:
            return self.first_chunk(request)
        current = self.upload
        if current is None or request.off != len(current.received):
            return (len(current.received) if current else 0), None  # drop it, say where to go on
        if request.off + len(request.data) > current.size:
            raise ImageError(IMG.INVALID_IMAGE_DATA_OVERRUN)
        return self.write(request.data)

    def first_chunk(self, request) -> tuple[int, bool | None]:
        if (request.image or 0) != 0:
            raise ImageError(IMG.NO_FREE_SLOT)
        if len(request.data) < 32:
            raise ImageError(IMG.INVALID_IMAGE_HEADER)
        if request.len is None or request.len < 0:
            raise ImageError(IMG.INVALID_LENGTH)
        if int.from_bytes(request.data[:4], 'little') != IMAGE_MAGIC:
            raise ImageError(IMG.INVALID_IMAGE_HEADER_MAGIC)
        sha = request.sha or b''
        if len(sha) > 32:
            raise ImageError(IMG.INVALID_HASH)
        if sha and self.upload and self.upload.sha == sha:
            log.info('resuming the upload at %d', len(self.upload.received))
            return len(self.upload.received), None
        if self.slots.in_use():
            raise ImageError(IMG.NO_FREE_SLOT)
        if request.len > SLOT_SIZE:
            raise ImageError(IMG.INVALID_IMAGE_TOO_LARGE)
        if request.upgrade and struct.unpack_from('<BBH', request.data, 20) <= self.slots.primary.version[:3]:
            raise ImageError(IMG.CURRENT_VERSION_IS_NEWER)
        if len(request.data) > request.len:
            raise ImageError(IMG.INVALID_IMAGE_DATA_OVERRUN)
        self.upload = Upload(request.len, sha)
        self.upload_started = time.monotonic()
        self.slots.clear_secondary()
        self.busy_seconds += self.flash.erase_seconds(request.len)  # the pages the image will use
        log.info('upload of %d bytes started', request.len)
        return self.write(request.data)

    def write(self, data: bytes) -> tuple[int, bool | None]:
        current = self.upload
        current.received += data
        self.busy_seconds += self.flash.write_seconds(len(data))
        offset = len(current.received)
        if offset < current.size:
            return offset, None
        image = bytes(current.received)
        self.upload = None
        self.upload_completed = True
        match = hashlib.sha256(image).digest() == current.sha if current.sha else None
        self.slots.clear_secondary(SlotImage.parse(image))
        log.info('upload complete: %d bytes, sha %s, slot 1 %s', offset,
                 'not sent' if match is None else 'matches' if match else 'MISMATCH',
                 'holds an MCUboot image' if self.slots.secondary else 'holds no MCUboot image')
        return offset, match

    def boot(self) -> tuple[str, int]:
        """A reset: the upload state lives in RAM (g_img_mgmt_state) and is lost; MCUboot runs."""
        self.upload = None
        return self.slots.boot()


class SMPPeripheral(Peripheral):
    def __init__(self, args):
        super().__init__(args, SERVICE_UUID)
        self.server = SMPServer(args.buf_size, args.buf_count,
                                FlashTiming(args.flash_erase_ms_per_page, args.flash_write_us_per_word))
        # One request at a time (Zephyr's SMP work queue): Bumble runs each write in a task of
        # its own, so with flash time a later write would otherwise be handled meanwhile.
        self.serial = asyncio.Lock()
        # SMP reassembly, per connection as in Zephyr's smp_bt: a write of a connection that has
        # just dropped (delivered after its disconnection) must not spill into the next one.
        self.buffers: dict[int, bytearray] = {}
        self.reboot_task: asyncio.Task | None = None
        self.upload_seconds: float | None = None  # the last complete upload, as the device saw it
        properties = Characteristic.Properties
        self.characteristic = Characteristic(
            CHARACTERISTIC_UUID, properties.WRITE_WITHOUT_RESPONSE | properties.WRITE | properties.NOTIFY,
            Characteristic.Permissions.WRITEABLE, CharacteristicValue(write=self.written))

    def on_disconnected(self, connection, reason):
        self.buffers.pop(id(connection), None)  # a half-received request is lost; the slots and the upload are not

    def installed(self) -> None:
        primary = self.server.slots.primary
        extra = {} if self.upload_seconds is None else {'upload_seconds': round(self.upload_seconds, 3)}
        write_state_file(self.args.state_file, primary.data, version=primary.version_string,
                         confirmed=self.server.slots.primary_confirmed, **extra)

    def schedule_reboot(self) -> None:
        """os_mgmt_reset: the reboot is scheduled, the answer goes out, the device runs on.
        A second reset meanwhile changes nothing (k_work_schedule leaves scheduled work alone)."""
        if self.reboot_task is None or self.reboot_task.done():
            self.reboot_task = asyncio.create_task(self.reboot())

    async def reboot(self) -> None:
        args = self.args
        await asyncio.sleep(args.reset_delay_ms / 1000)
        log.info('sys_reboot: the link drops (reason 0x%02X), the device is silent', args.reset_reason)
        await self.go_silent(args.reset_reason)
        self.buffers.clear()
        swap, size = self.server.boot()
        swap_ms = size / 1024 * args.swap_ms_per_kib
        silent_ms = args.boot_ms + swap_ms
        log.info('MCUboot: %s%s; silent for %.0f ms', swap if swap != 'none' else 'no swap',
                 f' of {size} bytes ({swap_ms:.0f} ms)' if size else '', silent_ms)
        await asyncio.sleep(silent_ms / 1000)
        self.installed()
        log.info('booted %s (%s), advertising', self.server.slots.primary.version_string,
                 'confirmed' if self.server.slots.primary_confirmed else 'under test')
        await self.wake()

    def frames(self, connection, value: bytes) -> list[bytes]:
        buffer = self.buffers.setdefault(id(connection), bytearray())
        buffer += value
        frames = []
        while len(buffer) >= HEADER_SIZE:
            end = HEADER_SIZE + int.from_bytes(buffer[2:4], 'big')
            if len(buffer) < end:
                break
            frames.append(bytes(buffer[:end]))
            del buffer[:end]
        return frames

    async def written(self, connection, value: bytes) -> None:
        async with self.serial:  # FIFO: writes are handled in the order they arrived
            await self.handle_written(connection, value)

    async def handle_written(self, connection, value: bytes) -> None:
        if not self.received(connection, value):
            return
        answers = []
        for frame in self.frames(connection, bytes(value)):
            was_confirmed = self.server.slots.primary_confirmed
            outcome = self.server.handle(frame)
            log.debug('request %s (%d bytes) -> %s', frame[:HEADER_SIZE].hex(), len(frame),
                      outcome and cbor2.loads(outcome[0][HEADER_SIZE:]))
            if outcome is None:
                continue
            if self.server.slots.primary_confirmed and not was_confirmed:
                self.installed()  # the image under test was confirmed
                log.info('the running image %s is confirmed', self.server.slots.primary.version_string)
            answers.append(outcome[0])
            if outcome[1]:
                log.info('reset requested: rebooting in %d ms', self.args.reset_delay_ms)
                self.schedule_reboot()
        busy, self.server.busy_seconds = self.server.busy_seconds, 0.0
        if busy:
            await asyncio.sleep(busy)  # the flash erases and writes before the answer leaves
        if self.server.upload_completed and self.server.upload_started is not None:
            self.upload_seconds = time.monotonic() - self.server.upload_started
            self.server.upload_completed = False
            log.info('upload took %.3f s from its first chunk to the last answer', self.upload_seconds)
        if await self.drop_if_due(connection):
            return  # processed, but no answer leaves
        segment = connection.att_mtu - 3
        for answer in answers:
            self.send(connection, self.characteristic, [answer[i:i + segment] for i in range(0, len(answer), segment)])


async def main() -> None:
    parser = argument_parser(__doc__.splitlines()[0], 'SMP-BUMBLE', 'F0:DF:00:00:03:01')
    parser.add_argument('--buf-size', type=int, default=2475,
                        help='largest request, header included (mcumgr params buf_size; default 2475, '
                             'NCS with SMP reassembly)')
    parser.add_argument('--buf-count', type=int, default=4, help='mcumgr params buf_count (default 4)')
    parser.add_argument('--reset-delay-ms', type=float, default=250,
                        help='the device runs on (and answers) this long after answering reset '
                             '(default 250: Zephyr CONFIG_MCUMGR_GRP_OS_RESET_MS)')
    parser.add_argument('--reset-reason', type=lambda text: int(text, 0), default=REBOOT_REASON,
                        help='how the central sees the link drop at the reboot: 0x08 supervision timeout '
                             '(default: sys_reboot terminates nothing) or 0x13')
    parser.add_argument('--boot-ms', type=float, default=1000,
                        help='silence from the reboot to advertising without a swap: MCUboot, image '
                             'validation, the application and its stack starting (default 1000, about '
                             'what nRF52832 + MCUboot + BLE were measured to take)')
    parser.add_argument('--swap-ms-per-kib', type=float, default=97,
                        help='extra silence per KiB of the larger image when MCUboot swaps (test, '
                             'permanent, revert; default 97: three 85 ms page erases and three 4 KiB '
                             'page writes at 43 us per word for every 4 KiB sector, about 4 s for '
                             'a 40 KB image, 30 s for 300 KB)')
    parser.add_argument('--flash-erase-ms-per-page', type=float, default=0,
                        help='flash page (4 kB) erase time (default 0; an nRF52840 takes up to 85)')
    parser.add_argument('--flash-write-us-per-word', type=float, default=0,
                        help='flash write time per 32-bit word (default 0; an nRF52840 takes up to 41)')
    args = parser.parse_args()
    peripheral = SMPPeripheral(args)
    if args.verbose:
        log.setLevel(logging.DEBUG)
    await peripheral.run([Service(SERVICE_UUID, [peripheral.characteristic])])


if __name__ == '__main__':
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
