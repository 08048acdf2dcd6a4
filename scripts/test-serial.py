#!/usr/bin/env python3
"""dfukit and the DFU clients we did not write, side by side, against the same simulated serial and
UDP devices (`make test-serial`; `make bench-serial` is --bench).

What one case does
  1. `dfukit sim serve DEVICE --pty .build/test-serial/CASE/dev` (a fresh pseudo-terminal) or
     `--udp 127.a.b.c:1337` (a free address on the loopback: smpmgr can only send to port 1337), with
     `--image IMAGE --report .build/test-serial/CASE/report.json`; waits (20 s at most) for its first
     line, `serving ...`.
  2. Runs ONE client against it, bounded by a timeout: `dfukit flash --json ...` or
     `scripts/serial-peer.py PEER ACTION ...` (the peer's pinned PyPI release from
     scripts/serial-peers-venv.sh, which this script runs once first; serial-peers.md says what each
     peer does).
  3. Once the client has exited, watches the report until the device reaches the stage the client is
     expected to leave it in, for at most 5 s (a reset the client asked for, a boot and a swap take
     their time), then stops the server with SIGTERM (it writes a final report and must exit 0) and
     reads the report.
  4. Passes when: the client exited 0 (dfukit: status verified or completed); the device's stage (what the simulator holds of the image, not
     what the client says) is one the case accepts; for dfukit, its --json report names that stage in
     device_holds (a report that disagrees with the device fails); the server started, served and
     stopped cleanly. A device kind that `dfukit sim serve` does not offer fails the case (the server's
     own message is the reason): nothing is skipped.

The cases (DEVICE is `sim:` syntax; serial lines are UARTs at 1,000,000 baud, 10 bits a byte both ways,
on the wall clock; UDP has the model's 1 ms each way; IMAGE: firmware-samples/nordic/app-signed.zip for
Nordic, firmware-samples/mcuboot/app-ecdsa-p256.bin (41,623 bytes) otherwise). The last column is the
stage the device must be in (its report) and, for dfukit, what its device_holds must name.
  nordic-serial   nordic-secure-dfu?link=uart&baud=1000000
    dfukit          flash --profile nordic-secure-dfu --device serial:PTY ZIP --json    installed
    nrfutil         nrfutil 6.1.7 dfu serial -pkg ZIP -p PTY -cd 0 -t 1                  installed
  smp-serial      mcumgr-smp?link=uart&baud=1000000 (Zephyr's SMP console transport, MCUboot behind)
    dfukit          flash --profile mcumgr-smp --mode test-and-confirm --device serial:PTY IMAGE
                    --json: upload, test, reset, confirm from the new image               installed
    smpmgr          smpmgr 0.19.1 upgrade --confirm: upload, state write confirm, reset   installed
    mcumgr-toolkit  mcumgr-toolkit 0.20.0 firmware_update with bootloader_type MCUboot (the device has
                    no OS bootloader info): state read, upload, state read, state write test, reset
                                                                     unconfirmed (pending accepted)
  smp-udp         mcumgr-smp?link=udp served on 127.a.b.c:1337
    dfukit          flash --profile mcumgr-smp --mode test-and-confirm --device udp:127.a.b.c:1337
                    IMAGE --json                                                          installed
    smpmgr          smpmgr --ip 127.a.b.c: image upload, image state-write HASH (test), os reset
                    (serial-peer.py --mark-test: three smpmgr runs)  unconfirmed (pending accepted)
    mcumgr-toolkit  firmware_update force_confirm, bootloader_type MCUboot: upload, state write
                    confirm, reset                                                        installed
  mcuboot-serial  mcuboot-recovery?link=uart&baud=1000000 (MCUboot serial recovery: slot 0 in place)
    dfukit          flash --profile mcuboot-recovery --device serial:PTY IMAGE --json: upload, image
                    list, reset                                          installed (pending accepted)
    smpmgr          smpmgr upgrade: upload to slot 0, reset              installed (pending accepted)
    mcumgr-toolkit  firmware_update, bootloader_type MCUboot: state read, upload, state read (the list
                    shows the new image in slot 0, so no state write), reset
                                                                         installed (pending accepted)
"accepted" stages pass; the watch in step 3 waits for the first one listed.

Every subprocess is bounded (server start 20 s, a client 120 s, the server's stop 10 s, the whole run
330 s: cases left when that is spent fail as not run); servers and clients run in their own process
groups, which are killed on a timeout, at exit and on SIGINT/SIGTERM. A server or client a killed
earlier run left behind (its pid file under .build/test-serial/, its environment naming that
directory) is killed first. Output: a table (case, client, exit, stage, seconds, result), one FAIL line
with the reasons per failed case, .build/test-serial/results.json, and each failed case's server log,
client output, report and dfukit JSON kept in .build/test-serial/CASE/ (passed cases' directories are
removed unless --keep). Exit 0 when every case passed, 1 otherwise (2: usage).

--bench (`make bench-serial`, not in CI): for UART 115200 baud, UART 1 Mbaud and UDP, every client of
each device kind (Nordic and MCUboot recovery: serial only) uploads the same image --runs times (3),
alternating, each run checked as above. Each client talks to the server through a relay of this script
(a pseudo-terminal or UDP socket of its own in front of the server's) that times the upload on the wire:
from the first byte of the first upload request (SMP image upload, group 1 id 1; Nordic: the first
Create, init packet included) to the last byte of the answer to the last one (SMP upload answer; Nordic:
the last Execute's), the same measure for every client whatever its start-up. Reported per client: the
median upload seconds, image bytes per second, the bytes on the wire per image byte (the device's
bytes_received / the image's size: framing, base64, requests around the upload), the line's limit for
that client (baud / 10 bytes per second over those bytes per image byte: the rate if the line never
idled) and the ratio to it, dfukit's own transfer_seconds, and dfukit against the fastest peer (the
peer's median / dfukit's: above 1 is ahead). UDP has no byte rate in the model (1 ms each way per
datagram), so it has no limit and only the comparison with the peers. The goal line says whether
dfukit is at or above 0.95 of its line's limit and ahead of the fastest peer; a line under each table
gives the least framing seen and what the line carries with it. Writes
.build/bench-serial/results.json (every run and the summary).

Usage: scripts/test-serial.py [--bench] [--runs N] [--only SUBSTRING ...] [--list] [--keep] [--dfukit PATH]
  --only: run only the cases whose "CASE/CLIENT" name contains one of the substrings (the others are
  listed as not selected, never reported as passed).
"""
import argparse
import atexit
import base64
import json
import os
import random
import select
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import tty
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, '.build')
NORDIC_PACKAGE = os.path.join(ROOT, 'firmware-samples', 'nordic', 'app-signed.zip')
MCUBOOT_IMAGE = os.path.join(ROOT, 'firmware-samples', 'mcuboot', 'app-ecdsa-p256.bin')
PEER_SCRIPT = os.path.join(ROOT, 'scripts', 'serial-peer.py')
VENV_SCRIPT = os.path.join(ROOT, 'scripts', 'serial-peers-venv.sh')

SERVER_START_TIMEOUT = 20.0
SERVER_STOP_TIMEOUT = 10.0
CLIENT_TIMEOUT = 120.0
SETTLE_TIMEOUT = 5.0
SUITE_BUDGET = 330.0
BENCH_BUDGET = 600.0
SMPMGR_UDP_PORT = 1337

PEERS = ('smpmgr', 'mcumgr-toolkit', 'nrfutil')


# ---------------------------------------------------------------------------------------------------
# Lines, device kinds, clients

class Line:
    """A line a device is reached over: its sim: link keys and its bytes per second (None: UDP)."""

    def __init__(self, name, link, bytes_per_second):
        self.name, self.link, self.bytes_per_second = name, link, bytes_per_second

    @property
    def udp(self):
        return self.bytes_per_second is None


UART_1M = Line('uart 1000000', 'link=uart&baud=1000000', 100_000)
UART_115200 = Line('uart 115200', 'link=uart&baud=115200', 11_520)
UDP = Line('udp', 'link=udp', None)

# Device kind -> (sim: name, image file, the profile dfukit flashes it with).
KINDS = {
    'nordic': ('nordic-secure-dfu', NORDIC_PACKAGE, 'nordic-secure-dfu'),
    'smp': ('mcumgr-smp', MCUBOOT_IMAGE, 'mcumgr-smp'),
    'mcuboot': ('mcuboot-recovery', MCUBOOT_IMAGE, 'mcuboot-recovery'),
}
KIND_CLIENTS = {
    'nordic': ('dfukit', 'nrfutil'),
    'smp': ('dfukit', 'smpmgr', 'mcumgr-toolkit'),
    'mcuboot': ('dfukit', 'smpmgr', 'mcumgr-toolkit'),
}


class Flow:
    """What a client runs against a device kind, and the stages the device may be left in: the
    first of `accept` is the one step 3 waits for."""

    def __init__(self, describe, accept, args=()):
        self.describe, self.accept, self.args = describe, tuple(accept), list(args)


def flow(kind, client, line):
    """The flow `client` runs against `kind` over `line` (the table in the docstring)."""
    if client == 'dfukit':
        if kind == 'mcuboot':
            return Flow('flash --profile mcuboot-recovery', ['installed', 'pending'])
        if kind == 'smp':
            return Flow('flash --profile mcumgr-smp --mode test-and-confirm', ['installed'],
                        ['--mode', 'test-and-confirm'])
        return Flow('flash --profile nordic-secure-dfu', ['installed'])
    if client == 'nrfutil':
        return Flow('dfu serial -cd 0 -t 1', ['installed'], ['dfu'])
    if kind == 'mcuboot':
        if client == 'smpmgr':
            return Flow('upgrade (upload, reset)', ['installed', 'pending'], ['dfu'])
        return Flow('firmware_update --bootloader MCUboot', ['installed', 'pending'],
                    ['dfu', '--bootloader', 'MCUboot'])
    # smp: each client's "test" flow on one transport and its "confirm" flow on the other.
    if client == 'smpmgr':
        if line.udp:
            return Flow('--mark-test: image upload, state-write HASH, os reset', ['unconfirmed', 'pending'],
                        ['dfu', '--mark-test'])
        return Flow('upgrade --confirm', ['installed'], ['dfu', '--confirm'])
    if line.udp:
        return Flow('firmware_update --confirm --bootloader MCUboot', ['installed'],
                    ['dfu', '--confirm', '--bootloader', 'MCUboot'])
    return Flow('firmware_update --bootloader MCUboot', ['unconfirmed', 'pending'],
                ['dfu', '--bootloader', 'MCUboot'])


class Case:
    def __init__(self, kind, line, client, run=None):
        self.kind, self.line, self.client, self.run = kind, line, client, run
        self.group = {'nordic': 'nordic', 'smp': 'smp', 'mcuboot': 'mcuboot'}[kind] + \
            ('-udp' if line.udp else '-serial')
        self.flow = flow(kind, client, line)
        self.sim_name, self.image, self.profile = KINDS[kind]
        self.device = f'{self.sim_name}?{line.link}'

    @property
    def name(self):
        return f'{self.group}/{self.client}'

    @property
    def directory_name(self):
        text = f'{self.group}-{self.client}'
        if self.line is not UART_1M and not self.line.udp:
            text += '-' + self.line.name.replace(' ', '')
        if self.run is not None:
            text += f'-run{self.run}'
        return text


TEST_CASES = [Case(kind, line, client)
              for kind, line in (('nordic', UART_1M), ('smp', UART_1M), ('smp', UDP), ('mcuboot', UART_1M))
              for client in KIND_CLIENTS[kind]]
BENCH_LINES = (UART_115200, UART_1M, UDP)


def image_size(path):
    """The bytes of the package's first image: the .bin of a Nordic zip, the whole MCUboot image."""
    if path.endswith('.zip'):
        with zipfile.ZipFile(path) as archive:
            manifest = json.loads(archive.read('manifest.json'))['manifest']
            for part in manifest.values():
                if isinstance(part, dict) and 'bin_file' in part:
                    return archive.getinfo(part['bin_file']).file_size
    return os.path.getsize(path)


# ---------------------------------------------------------------------------------------------------
# Processes: every one in its own group, all killed on the way out

LIVE = {}  # pid -> (Popen, pid file or None)


def kill_group(process, sig=signal.SIGKILL):
    try:
        os.killpg(process.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def cleanup():
    for pid, (process, pid_file) in list(LIVE.items()):
        kill_group(process, signal.SIGTERM)
    deadline = time.monotonic() + 3
    for pid, (process, pid_file) in list(LIVE.items()):
        try:
            process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        kill_group(process)
        if pid_file and os.path.exists(pid_file):
            os.unlink(pid_file)
        LIVE.pop(pid, None)


def on_signal(number, _frame):
    cleanup()
    print(f'\ntest-serial: stopped by signal {number}', file=sys.stderr, flush=True)
    os._exit(128 + number)


# Every process this script starts carries MARKER=<its output directory> in its environment: a later
# run finds what a killed run left by its pid files and kills only processes that carry the marker.
MARKER = 'DFUKIT_TEST_SERIAL_OUT'
OUT = None


def spawn(command, stdout, stderr, pid_file=None):
    environment = dict(os.environ, **{MARKER: OUT})
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                               cwd=ROOT, start_new_session=True, env=environment)
    LIVE[process.pid] = (process, pid_file)
    if pid_file:
        with open(pid_file, 'w') as file:
            file.write(f'{process.pid}\n')
    return process


def forget(process):
    entry = LIVE.pop(process.pid, None)
    kill_group(process)  # whatever the process left in its group
    if entry and entry[1] and os.path.exists(entry[1]):
        os.unlink(entry[1])


def stop_strays(out):
    """Servers and clients an earlier run was killed before it could stop (their pid files under
    `out`, their environment naming `out`): each one's process group is killed."""
    global OUT
    OUT = out
    if not os.path.isdir(out):
        return
    for directory, _, files in os.walk(out):
        for name in files:
            if name not in ('server.pid', 'client.pid'):
                continue
            path = os.path.join(directory, name)
            try:
                pid = int(open(path).read().strip())
                environment = open(f'/proc/{pid}/environ', 'rb').read().split(b'\0')
            except (OSError, ValueError):
                environment = []
            if f'{MARKER}={out}'.encode() in environment:
                print(f'test-serial: stopping a {name[:-4]} an earlier run left (pid {pid})', flush=True)
                try:
                    os.killpg(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            os.unlink(path)


def tail(path, lines=15):
    try:
        with open(path, 'rb') as file:
            text = file.read().decode('utf-8', 'replace')
    except OSError:
        return ''
    return '\n'.join(text.rstrip().splitlines()[-lines:])


# ---------------------------------------------------------------------------------------------------
# The server

class CaseFailure(Exception):
    pass


class Server:
    def __init__(self, dfukit, case, directory):
        self.directory = directory
        self.log_path = os.path.join(directory, 'server.log')
        self.report_path = os.path.join(directory, 'report.json')
        self.log = open(self.log_path, 'wb')
        self.serving = None
        # A loopback address found free can be taken before the server binds it (exit 69): another.
        for attempt in range(3 if case.line.udp else 1):
            command = [dfukit, 'sim', 'serve', case.device]
            if case.line.udp:
                self.host, self.port = free_udp_address(SMPMGR_UDP_PORT)
                command += ['--udp', f'{self.host}:{self.port}']
                self.pty = None
            else:
                self.pty = os.path.join(directory, 'dev')
                command += ['--pty', self.pty]
            command += ['--image', case.image, '--report', self.report_path]
            self.log.write(('$ ' + ' '.join(command) + '\n').encode())
            self.log.flush()
            self.process = spawn(command, self.log, subprocess.STDOUT, os.path.join(directory, 'server.pid'))
            deadline = time.monotonic() + SERVER_START_TIMEOUT
            while True:
                for line in open(self.log_path, 'rb').read().decode('utf-8', 'replace').splitlines():
                    if line.startswith('serving '):
                        self.serving = line
                if self.serving:
                    return
                if self.process.poll() is not None:
                    forget(self.process)
                    if case.line.udp and self.process.returncode == 69 and attempt < 2:
                        break
                    self.log.close()
                    raise CaseFailure(f'the server exited {self.process.returncode} before serving: '
                                      + ' | '.join(line for line in tail(self.log_path, 3).splitlines()
                                                   if not line.startswith('$ ')))
                if time.monotonic() > deadline:
                    self.stop()
                    raise CaseFailure(f'the server printed no "serving" line in {SERVER_START_TIMEOUT:.0f} s')
                time.sleep(0.05)

    def report(self):
        try:
            with open(self.report_path) as file:
                return json.load(file)
        except (OSError, ValueError):
            return None

    def wait_for(self, stages, seconds):
        """Polls the report until its stage is stages[0] or `seconds` pass; the last stage seen."""
        deadline = time.monotonic() + seconds
        while True:
            report = self.report()
            if report and report.get('stage') == stages[0]:
                return report.get('stage')
            if time.monotonic() > deadline or self.process.poll() is not None:
                return report.get('stage') if report else None
            time.sleep(0.1)

    def stop(self):
        """SIGTERM; the server's exit code (None when it had to be killed)."""
        code = self.process.poll()
        if code is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                code = self.process.wait(SERVER_STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                code = None
        forget(self.process)
        self.log.close()
        return code


def free_udp_address(port):
    """A 127.x.y.z address whose UDP `port` is free (smpmgr only sends to port 1337)."""
    rng = random.Random()
    for _ in range(200):
        host = f'127.{rng.randint(1, 254)}.{rng.randint(0, 254)}.{rng.randint(1, 254)}'
        probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            probe.bind((host, port))
            return host, port
        except OSError:
            continue
        finally:
            probe.close()
    raise CaseFailure(f'no free UDP port {port} on 127.0.0.0/8')


def free_udp_port(host='127.0.0.1'):
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    probe.bind((host, 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


# ---------------------------------------------------------------------------------------------------
# The bench's relay: times the upload on the wire

class Framer:
    """Cuts one direction of a stream into messages: SMP console frames (lines `06 09` / `04 14` +
    base64 + `0a`), SLIP frames (ended by C0), or datagrams. Calls `on_message(payload, first, last)`
    with the times of the chunks that carried its first and last bytes."""

    def __init__(self, protocol, on_message):
        self.protocol, self.on_message = protocol, on_message
        self.line = bytearray()
        self.line_started = None
        self.base64 = bytearray()
        self.frame_started = None

    def feed(self, data, at):
        if self.protocol == 'datagram':
            self.on_message(bytes(data), at, at)
            return
        end = b'\xc0' if self.protocol == 'slip' else b'\n'
        start = 0
        while start < len(data):
            cut = data.find(end, start)
            piece = data[start:] if cut < 0 else data[start:cut]
            if piece and not self.line:
                self.line_started = at
            self.line += piece
            if cut < 0:
                break
            self.finish_line(at)
            start = cut + 1

    def finish_line(self, at):
        line, started = bytes(self.line), self.line_started
        self.line.clear()
        self.line_started = None
        if not line:
            return
        if self.protocol == 'slip':
            self.on_message(line.replace(b'\xdb\xdc', b'\xc0').replace(b'\xdb\xdd', b'\xdb'), started, at)
            return
        if line.startswith(b'\x06\x09'):
            self.base64 = bytearray(line[2:])
            self.frame_started = started
        elif line.startswith(b'\x04\x14') and self.frame_started is not None:
            self.base64 += line[2:]
        else:
            return  # console output between frames
        if len(self.base64) % 4:
            return
        try:
            frame = base64.b64decode(bytes(self.base64), validate=True)
        except ValueError:
            self.frame_started = None
            return
        if len(frame) >= 2 and len(frame) >= 2 + int.from_bytes(frame[:2], 'big'):
            length = int.from_bytes(frame[:2], 'big')
            self.on_message(frame[2:2 + length - 2], self.frame_started, at)
            self.frame_started = None


class UploadClock:
    """The upload's window on the wire: the first upload request's first byte to the last byte of the
    answer to the last one."""

    def __init__(self, kind):
        self.kind = kind
        self.start = None
        self.end = None
        self.requests = 0

    def request(self, message, first, _last):
        if self.is_upload(message, request=True):
            self.requests += 1
            if self.start is None:
                self.start = first

    def answer(self, message, _first, last):
        if self.is_upload(message, request=False):
            self.end = last

    def is_upload(self, message, request):
        if self.kind == 'nordic':
            if request:
                return message[:1] == b'\x01'  # Create (command object, then data objects)
            return message[:2] == b'\x60\x04'  # Execute's answer
        if len(message) < 8:
            return False
        operation, group, command = message[0] & 0x07, int.from_bytes(message[4:6], 'big'), message[7]
        return group == 1 and command == 1 and operation == (2 if request else 3)

    @property
    def seconds(self):
        if self.start is None or self.end is None or self.end < self.start:
            return None
        return self.end - self.start


class Relay(threading.Thread):
    """A pseudo-terminal or UDP socket of its own in front of the server's, forwarding both ways at
    once (non-blocking, buffered per direction) and timing the upload (UploadClock)."""

    def __init__(self, case, server):
        super().__init__(daemon=True)
        self.clock = UploadClock(case.kind)
        protocol = 'datagram' if case.line.udp else 'slip' if case.kind == 'nordic' else 'console'
        self.up = Framer(protocol, self.clock.request)
        self.down = Framer(protocol, self.clock.answer)
        self.bytes_up = self.bytes_down = 0
        self.stopping = False
        self.wake_read, self.wake_write = os.pipe()
        self.error = None
        if case.line.udp:
            self.front = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            self.host, self.port = free_udp_address(SMPMGR_UDP_PORT)
            self.front.bind((self.host, self.port))
            self.back = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            self.back.connect((server.host, server.port))
            self.front.setblocking(False)
            self.back.setblocking(False)
            self.client_address = None
            self.pty = None
        else:
            self.device = os.open(server.pty, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
            tty.setraw(self.device)
            self.master, self.subordinate = os.openpty()
            tty.setraw(self.subordinate)  # no echo before the client sets its own modes
            os.set_blocking(self.master, False)
            self.pty = os.ttyname(self.subordinate)
        self.start()

    def run(self):
        try:
            self.loop_udp() if self.pty is None else self.loop_pty()
        except Exception as error:  # noqa: BLE001 - reported by the bench
            self.error = f'relay: {type(error).__name__}: {error}'

    def loop_pty(self):
        to_device, to_client = bytearray(), bytearray()
        while not self.stopping:
            writers = ([self.device] if to_device else []) + ([self.master] if to_client else [])
            readable, writable, _ = select.select([self.master, self.device, self.wake_read], writers, [], 0.5)
            now = time.monotonic()
            if self.master in readable:
                data = read_some(self.master)
                if data:
                    to_device += data
                    self.bytes_up += len(data)
            if self.device in readable:
                data = read_some(self.device)
                if data:
                    to_client += data
                    self.bytes_down += len(data)
            if to_device and (self.device in writable or self.master in readable):
                written = write_some(self.device, to_device)
                self.up.feed(bytes(to_device[:written]), now)
                del to_device[:written]
            if to_client and (self.master in writable or self.device in readable):
                written = write_some(self.master, to_client)
                self.down.feed(bytes(to_client[:written]), now)
                del to_client[:written]

    def loop_udp(self):
        while not self.stopping:
            readable, _, _ = select.select([self.front, self.back, self.wake_read], [], [], 0.5)
            now = time.monotonic()
            if self.front in readable:
                try:
                    data, self.client_address = self.front.recvfrom(65536)
                    self.back.send(data)
                    self.bytes_up += len(data)
                    self.up.feed(data, now)
                except OSError:
                    pass
            if self.back in readable:
                try:
                    data = self.back.recv(65536)
                    if self.client_address:
                        self.front.sendto(data, self.client_address)
                    self.bytes_down += len(data)
                    self.down.feed(data, now)
                except OSError:
                    pass  # ICMP unreachable from a client that went away

    def close(self):
        self.stopping = True
        os.write(self.wake_write, b'x')
        self.join(5)
        for fd in (self.wake_read, self.wake_write):
            os.close(fd)
        if self.pty is None:
            self.front.close()
            self.back.close()
        else:
            for fd in (self.device, self.master, self.subordinate):
                os.close(fd)


def read_some(fd):
    try:
        return os.read(fd, 65536)
    except (BlockingIOError, InterruptedError):
        return b''
    except OSError:  # EIO: the other side is not open
        time.sleep(0.01)
        return b''


def write_some(fd, data):
    try:
        return os.write(fd, bytes(data))
    except (BlockingIOError, InterruptedError):
        return 0


# ---------------------------------------------------------------------------------------------------
# One case

def client_command(case, dfukit, where):
    """`where`: ('pty', PATH) or ('udp', HOST, PORT)."""
    if case.client == 'dfukit':
        device = f'serial:{where[1]}' if where[0] == 'pty' else f'udp:{where[1]}:{where[2]}'
        return [dfukit, 'flash', '--profile', case.profile, '--device', device, case.image, '--json',
                '--timeout', f'{int(CLIENT_TIMEOUT - 10)}s'] + case.flow.args
    command = [sys.executable, PEER_SCRIPT, case.client, *case.flow.args[:1]]
    command += ['--port', where[1]] if where[0] == 'pty' else ['--udp', f'{where[1]}:{where[2]}']
    command += ['--package' if case.client == 'nrfutil' else '--image', case.image]
    command += case.flow.args[1:] + ['--no-setup']
    return command


def last_json(path, key):
    try:
        lines = open(path, 'rb').read().decode('utf-8', 'replace').splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        line = line.strip()
        if line.startswith('{'):
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if key in value:
                return value
    return None


def run_case(case, dfukit, out, peers_ready, relay=False):
    directory = os.path.join(out, case.directory_name)
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    result = {'case': case.name, 'group': case.group, 'client': case.client, 'device': case.device,
              'line': case.line.name, 'flow': case.flow.describe, 'accept': list(case.flow.accept),
              'exit': None, 'stage': None, 'summary': None, 'seconds': None, 'transfer_seconds': None,
              'wire_seconds': None, 'bytes_received': None, 'bytes_sent': None, 'image_bytes': image_size(case.image),
              'device_holds': None, 'status': None, 'reasons': [], 'directory': directory}
    if case.run is not None:
        result['run'] = case.run
    reasons = result['reasons']
    if case.client in PEERS and peers_ready is not True:
        reasons.append(f'{case.client} is not installed: {peers_ready}')
        return result
    server = None
    active_relay = None
    try:
        server = Server(dfukit, case, directory)
        if relay:
            active_relay = Relay(case, server)
            where = ('pty', active_relay.pty) if active_relay.pty else ('udp', active_relay.host, active_relay.port)
        else:
            where = ('pty', server.pty) if server.pty else ('udp', server.host, server.port)
        command = client_command(case, dfukit, where)
        # dfukit: the --json object alone on stdout (client.out), its progress on stderr (client.log);
        # a peer: everything in client.log, serial-peer.py's result line last.
        client_log = os.path.join(directory, 'client.log')
        client_out = os.path.join(directory, 'client.out') if case.client == 'dfukit' else client_log
        with open(client_log, 'wb') as log, open(client_out if case.client == 'dfukit' else os.devnull, 'wb') as json_out:
            log.write(('$ ' + ' '.join(command) + '\n').encode())
            log.flush()
            started = time.monotonic()
            if case.client == 'dfukit':
                process = spawn(command, json_out, log, os.path.join(directory, 'client.pid'))
            else:
                process = spawn(command, log, subprocess.STDOUT, os.path.join(directory, 'client.pid'))
            try:
                result['exit'] = process.wait(CLIENT_TIMEOUT)
            except subprocess.TimeoutExpired:
                kill_group(process, signal.SIGTERM)
                try:
                    process.wait(3)
                except subprocess.TimeoutExpired:
                    pass
                reasons.append(f'the client did not finish in {CLIENT_TIMEOUT:.0f} s (killed)')
            result['seconds'] = round(time.monotonic() - started, 3)
            forget(process)
        stage = server.wait_for(case.flow.accept, SETTLE_TIMEOUT)
        if active_relay:
            active_relay.close()
            result['wire_seconds'] = active_relay.clock.seconds
            result['relay_bytes'] = [active_relay.bytes_up, active_relay.bytes_down]
            if active_relay.error:
                reasons.append(active_relay.error)
            active_relay = None
        code = server.stop()
        report = server.report()
        server = None
        if code != 0:
            reasons.append('the server did not stop on SIGTERM (killed)' if code is None
                           else f'the server exited {code} when stopped: {tail(os.path.join(directory, "server.log"), 3)}')
        if report is None:
            reasons.append('the server wrote no report')
        else:
            stage = report.get('stage')
            for key in ('stage', 'summary', 'bytes_received', 'bytes_sent'):
                result[key] = report.get(key)
        if result['exit'] not in (0, None):
            reasons.append(f'{case.client} exited {result["exit"]}: ' + ' | '.join(
                line for line in tail(client_log, 4).splitlines() if not line.startswith('{')))
        if report is not None and stage not in case.flow.accept:
            reasons.append(f'the device is {stage} ({report.get("summary")}), '
                           f'expected {" or ".join(case.flow.accept)}')
        if case.client == 'dfukit':
            flash = last_json(client_out, 'status')
            if flash is None:
                reasons.append('dfukit printed no --json report')
            else:
                result['status'] = flash.get('status')
                result['device_holds'] = flash.get('device_holds')
                result['transfer_seconds'] = flash.get('transfer_seconds')
                holds = flash.get('device_holds') or []
                if report is not None and stage not in holds:
                    reasons.append(f'dfukit reports device_holds {holds} but the device is {stage}')
                if result['exit'] == 0 and flash.get('status') not in ('verified', 'completed'):
                    reasons.append(f'dfukit exited 0 with status {flash.get("status")}')
        else:
            peer = last_json(client_log, 'peer')
            if peer is None and result['exit'] is not None:
                reasons.append('serial-peer.py printed no result line')
    except CaseFailure as failure:
        reasons.append(str(failure))
    except OSError as error:
        reasons.append(f'{type(error).__name__}: {error}')
    finally:
        if active_relay:
            active_relay.close()
        if server:
            server.stop()
    return result


def passed(result):
    return not result['reasons'] and result['exit'] == 0


# ---------------------------------------------------------------------------------------------------
# Tables

def print_table(headers, rows):
    widths = [max(len(str(header)), *(len(str(row[i])) for row in rows)) if rows else len(str(header))
              for i, header in enumerate(headers)]
    print('  '.join(str(header).ljust(width) for header, width in zip(headers, widths)).rstrip())
    print('  '.join('-' * width for width in widths))
    for row in rows:
        print('  '.join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())


def number(value, digits=2):
    return '-' if value is None else f'{value:.{digits}f}'


def setup_peers(needed):
    """Runs scripts/serial-peers-venv.sh once; True, or why the peers cannot run."""
    if not needed:
        return True
    try:
        ensure_venv_module()
        completed = subprocess.run([VENV_SCRIPT, 'all'], cwd=ROOT, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=900)
    except subprocess.TimeoutExpired:
        return 'scripts/serial-peers-venv.sh did not finish in 900 s'
    except OSError as error:
        return f'scripts/serial-peers-venv.sh: {error}'
    sys.stderr.write(completed.stderr.decode('utf-8', 'replace'))
    if completed.returncode != 0:
        lines = [line for line in completed.stderr.decode('utf-8', 'replace').splitlines() if 'error' in line]
        return 'scripts/serial-peers-venv.sh failed: ' + (' | '.join(lines) or f'exit {completed.returncode}')
    return True


def ensure_venv_module():
    """Debian's python3 makes venvs only with python3-venv: installs it when missing (as `make deps`
    installs the other packages), so a clean machine runs the suite."""
    probe = subprocess.run([sys.executable, '-c', 'import ensurepip, venv'], capture_output=True)
    if probe.returncode == 0 or not shutil.which('apt-get'):
        return
    print('test-serial: installing python3-venv (the peers\' venvs need it)', flush=True)
    sudo = [] if os.geteuid() == 0 else ['sudo']
    environment = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    subprocess.run(sudo + ['apt-get', 'update', '-qq'], env=environment, timeout=600, stdin=subprocess.DEVNULL)
    subprocess.run(sudo + ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'python3-venv'],
                   env=environment, timeout=600, stdin=subprocess.DEVNULL)


def select_cases(cases, only):
    if not only:
        return cases, []
    chosen = [case for case in cases if any(text in case.name for text in only)]
    return chosen, [case for case in cases if case not in chosen]


# ---------------------------------------------------------------------------------------------------
# test-serial

def run_tests(args):
    out = os.path.join(BUILD, 'test-serial')
    stop_strays(out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    cases, unselected = select_cases(TEST_CASES, args.only)
    if unselected:
        print(f'test-serial: --only {" ".join(args.only)}: {len(unselected)} of {len(TEST_CASES)} cases not '
              f'selected: {", ".join(case.name for case in unselected)}', flush=True)
    peers_ready = setup_peers(any(case.client in PEERS for case in cases))
    began = time.monotonic()
    results = []
    for case in cases:
        if time.monotonic() - began > SUITE_BUDGET:
            results.append({'case': case.name, 'client': case.client, 'exit': None, 'stage': None, 'seconds': None,
                            'reasons': [f'not run: the suite\'s {SUITE_BUDGET:.0f} s were spent'],
                            'directory': None})
            continue
        print(f'--- {case.name}: {case.device} <- {case.client} {case.flow.describe}', flush=True)
        result = run_case(case, args.dfukit, out, peers_ready)
        results.append(result)
        verdict = 'ok' if passed(result) else 'FAIL: ' + '; '.join(result['reasons'])
        print(f'    exit {result["exit"]}, device {result["stage"]}, {number(result["seconds"])} s: {verdict}',
              flush=True)
        if passed(result) and not args.keep:
            shutil.rmtree(result['directory'], ignore_errors=True)
    elapsed = time.monotonic() - began
    print()
    rows = [(r['case'].split('/')[0], r['client'], '-' if r['exit'] is None else r['exit'], r['stage'] or '-',
             number(r['seconds']), 'ok' if passed(r) else 'FAIL') for r in results]
    print_table(('case', 'client', 'exit', 'stage', 'seconds', 'result'), rows)
    failures = [r for r in results if not passed(r)]
    with open(os.path.join(out, 'results.json'), 'w') as file:
        json.dump({'cases': results, 'not_selected': [case.name for case in unselected],
                   'seconds': round(elapsed, 1)}, file, indent=2)
    print()
    for r in failures:
        kept = f' (kept: {os.path.relpath(r["directory"], ROOT)}/)' if r.get('directory') else ''
        print(f'FAIL {r["case"]}: {"; ".join(r["reasons"]) or "exit " + str(r["exit"])}{kept}')
    print(f'{len(results) - len(failures)} passed, {len(failures)} failed'
          + (f', {len(unselected)} not selected' if unselected else '') + f' in {elapsed:.0f} s')
    return 1 if failures else 0


# ---------------------------------------------------------------------------------------------------
# bench-serial

def run_bench(args):
    out = os.path.join(BUILD, 'bench-serial')
    stop_strays(out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    groups = []  # (line, kind, [clients])
    for line in BENCH_LINES:
        for kind in ('smp', 'nordic', 'mcuboot'):
            if line.udp and kind != 'smp':
                continue
            groups.append((line, kind, KIND_CLIENTS[kind]))
    planned = [Case(kind, line, client, run) for line, kind, clients in groups
               for run in range(1, args.runs + 1) for client in clients]
    cases, unselected = select_cases(planned, args.only)
    peers_ready = setup_peers(any(case.client in PEERS for case in cases))
    began = time.monotonic()
    load_before = os.getloadavg()
    runs = []
    for case in cases:
        if time.monotonic() - began > BENCH_BUDGET:
            print(f'--- {case.name} ({case.line.name}) run {case.run}: not run, the bench\'s '
                  f'{BENCH_BUDGET:.0f} s were spent', flush=True)
            continue
        result = run_case(case, args.dfukit, out, peers_ready, relay=True)
        runs.append(result)
        ok = passed(result) and result['wire_seconds']
        if passed(result) and not result['wire_seconds']:
            result['reasons'].append('the relay saw no whole upload')
        print(f'--- {case.name} ({case.line.name}) run {case.run}: exit {result["exit"]}, device {result["stage"]}, '
              f'upload {number(result["wire_seconds"], 3)} s on the wire'
              + (f' (its own transfer_seconds {number(result["transfer_seconds"], 3)})' if case.client == 'dfukit' else '')
              + ('' if ok else ': FAIL ' + '; '.join(result['reasons'])), flush=True)
        if ok and not args.keep:
            shutil.rmtree(result['directory'], ignore_errors=True)
    summary = []
    for line, kind, clients in groups:
        group_runs = [r for r in runs if r['line'] == line.name and r['group'].split('-')[0] == kind]
        if not group_runs:
            continue
        size = group_runs[0]['image_bytes']
        entries = {}
        for client in clients:
            good = [r for r in group_runs if r['client'] == client and passed(r) and r['wire_seconds']]
            entry = {'client': client, 'runs': len([r for r in group_runs if r['client'] == client]),
                     'good_runs': len(good), 'seconds': None, 'image_bytes_per_second': None,
                     'wire_bytes_per_image_byte': None, 'limit_bytes_per_second': None, 'ratio_to_limit': None,
                     'own_transfer_seconds': None}
            if good:
                seconds = statistics.median(r['wire_seconds'] for r in good)
                per_byte = statistics.median(r['bytes_received'] / size for r in good)
                entry.update(seconds=seconds, image_bytes_per_second=size / seconds, wire_bytes_per_image_byte=per_byte)
                if line.bytes_per_second:
                    entry['limit_bytes_per_second'] = line.bytes_per_second / per_byte
                    entry['ratio_to_limit'] = entry['image_bytes_per_second'] / entry['limit_bytes_per_second']
                if client == 'dfukit':
                    own = [r['transfer_seconds'] for r in good if r['transfer_seconds']]
                    entry['own_transfer_seconds'] = statistics.median(own) if own else None
            entries[client] = entry
        peers = [entries[c] for c in clients if c != 'dfukit' and entries[c]['seconds']]
        fastest = min(peers, key=lambda e: e['seconds']) if peers else None
        mine = entries.get('dfukit')
        versus = fastest['seconds'] / mine['seconds'] if fastest and mine and mine['seconds'] else None
        goal = None
        if mine and mine['seconds']:
            at_limit = mine['ratio_to_limit'] is None or mine['ratio_to_limit'] >= 0.95
            goal = bool(at_limit and (versus is None or versus > 1))
        summary.append({'line': line.name, 'line_bytes_per_second': line.bytes_per_second, 'device': KINDS[kind][0],
                        'image_bytes': size, 'clients': list(entries.values()),
                        'fastest_peer': fastest['client'] if fastest else None,
                        'dfukit_vs_fastest_peer': versus, 'goal_met': goal})
    elapsed = time.monotonic() - began
    print()
    for group in summary:
        rate = f'{group["line_bytes_per_second"]} B/s' if group['line_bytes_per_second'] else 'no byte rate (1 ms each way)'
        print(f'{group["device"]} over {group["line"]} ({rate}), image {group["image_bytes"]} bytes, '
              f'median of {args.runs} runs:')
        rows = [(e['client'], f'{e["good_runs"]}/{e["runs"]}', number(e['seconds'], 3),
                 number(e['image_bytes_per_second'] and e['image_bytes_per_second'] / 1000, 1),
                 number(e['wire_bytes_per_image_byte'], 3),
                 number(e['limit_bytes_per_second'] and e['limit_bytes_per_second'] / 1000, 1),
                 number(e['ratio_to_limit'], 3), number(e['own_transfer_seconds'], 3)) for e in group['clients']]
        print_table(('client', 'ok', 'upload s', 'kB/s', 'wire B/image B', 'limit kB/s', 'of limit', 'own s'), rows)
        least = min((e for e in group['clients'] if e['wire_bytes_per_image_byte']),
                    key=lambda e: e['wire_bytes_per_image_byte'], default=None)
        if least and group['line_bytes_per_second']:
            print(f'least framing seen: {least["client"]}, {least["wire_bytes_per_image_byte"]:.3f} wire B/image B: '
                  f'the line carries at most {group["line_bytes_per_second"] / least["wire_bytes_per_image_byte"] / 1000:.1f} '
                  f'kB/s of image with it')
        versus = group['dfukit_vs_fastest_peer']
        verdict = {True: 'met', False: 'NOT met', None: 'unknown (runs failed)'}[group['goal_met']]
        goal = ('ahead of the fastest peer (UDP has no line limit)' if not group['line_bytes_per_second']
                else '>= 0.95 of the line, ahead of the fastest peer')
        print(f'dfukit vs fastest peer ({group["fastest_peer"] or "-"}): {number(versus)}x; goal ({goal}): {verdict}\n')
    failures = [r for r in runs if not (passed(r) and r['wire_seconds'])]
    with open(os.path.join(out, 'results.json'), 'w') as file:
        json.dump({'runs_per_client': args.runs, 'seconds': round(elapsed, 1), 'cpus': os.cpu_count(),
                   'load_average_before': load_before, 'load_average_after': os.getloadavg(),
                   'summary': summary, 'runs': runs,
                   'not_selected': [f'{c.name} ({c.line.name}) run {c.run}' for c in unselected]}, file, indent=2)
    for r in failures:
        print(f'FAIL {r["case"]} ({r["line"]}) run {r.get("run")}: {"; ".join(r["reasons"])} '
              f'(kept: {os.path.relpath(r["directory"], ROOT)}/)')
    print(f'{len(runs) - len(failures)} runs ok, {len(failures)} failed in {elapsed:.0f} s; '
          f'{os.path.relpath(os.path.join(out, "results.json"), ROOT)}')
    return 1 if failures else 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--bench', action='store_true', help='compare upload times (make bench-serial)')
    parser.add_argument('--runs', type=int, default=3, help='--bench: runs per client (default 3)')
    parser.add_argument('--only', nargs='+', default=[], metavar='SUBSTRING',
                        help='only the cases whose CASE/CLIENT name contains one of these')
    parser.add_argument('--list', action='store_true', help='list the cases and exit')
    parser.add_argument('--keep', action='store_true', help='keep every case\'s directory, not only failed ones')
    parser.add_argument('--dfukit', default=os.path.join(BUILD, 'debug', 'dfukit'), help='the dfukit binary')
    args = parser.parse_args(argv)
    if args.list:
        for case in TEST_CASES:
            print(f'{case.name:32} {case.device:42} {case.flow.describe}; device: {" or ".join(case.flow.accept)}')
        return 0
    if not os.access(args.dfukit, os.X_OK):
        print(f'test-serial: no dfukit at {args.dfukit} (swift build --product dfukit)', file=sys.stderr)
        return 2
    args.dfukit = os.path.abspath(args.dfukit)
    atexit.register(cleanup)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    return run_bench(args) if args.bench else run_tests(args)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
