#!/usr/bin/env python3
"""Runs one third-party DFU client ("peer") against a serial (pty) or UDP device, the way
`make test-serial` compares them with dfukit. The peers and their venvs come from
scripts/serial-peers-venv.sh; scripts/serial-peers.md says how each one behaves.

  serial-peer.py PEER ACTION (--port /dev/pts/N [--baud B] | --udp HOST:PORT) [options]

  PEER    smpmgr          smpmgr 0.19.1 (smpclient 7.3.0): SMP over console framing or UDP
          mcumgr-toolkit  mcumgr-toolkit 0.20.0 (Rust crate, Python API; driven by this script)
          nrfutil         nrfutil 6.1.7 `dfu serial`: Nordic Secure DFU over SLIP
  ACTION  upload          SMP: upload the image only. nrfutil: the whole DFU (it has nothing less)
          list            SMP: image state read
          reset           SMP: os reset
          dfu             SMP: upload, mark, reset (smpmgr `upgrade`, mcumgr-toolkit
                          firmware_update). nrfutil: `dfu serial`

Options (each says which peer it reaches; given to a peer without it, exit 2):
  --image FILE          MCUboot image (SMP peers)         --package ZIP   DFU zip (nrfutil)
  --baud B              all serial peers (a pty ignores it)
  --line-length L       smpmgr --line-length (bytes per console line, marker and newline included)
  --line-buffers N      smpmgr --line-buffers (its frame budget is L x N encoded bytes)
  --mtu M               smpmgr --mtu (UDP: datagrams of M-28 bytes; serial: deprecated, = line
                        length M with 1 buffer); mcumgr-toolkit set_frame_size(M) (SMP packet
                        bytes, header included)
  --auto-frame          mcumgr-toolkit use_auto_frame_size() (reads MCUmgr params, group 0 id 6)
  --bootloader MCUboot  mcumgr-toolkit dfu: skip its bootloader detection (os bootloader info,
                        group 0 id 8, which a device without it answers ENOTSUP: the dfu fails)
  --timeout S           smpmgr --timeout S (default 2); mcumgr-toolkit timeout S (default 1);
                        nrfutil -t ceil(S) (this script's default 1, see below)
  --confirm             dfu: confirm at once (smpmgr upgrade --confirm, mcumgr-toolkit force_confirm)
  --mark-test           smpmgr dfu only: `image upload`, `image state-write HASH`, `os reset` as
                        three runs (smpmgr `upgrade` to slot 0 without --confirm marks nothing)
  --slot N              smpmgr --slot N; mcumgr-toolkit image N
  --format any          smpmgr --format any (no local MCUboot check)
  --prn N               nrfutil -prn N (default 0: no receipts)
  --connect-delay S     nrfutil -cd S (nrfutil's default 3; this script's default 0)
  --flow-control 0|1    nrfutil -fc (nrfutil's default 1: RTS/CTS)
  --no-setup            do not run scripts/serial-peers-venv.sh first
  --dry-run             print the command lines, run nothing
  -- ARGS...            appended to the peer's own command line (smpmgr, nrfutil)

nrfutil defaults here: `-cd 0 -t 1`. nrfutil's own (-cd 3, -t 30) sleep 3 s and then poll its USB
device lister for the port for the whole -t (a pty is never listed): 33 s before the first byte.

Streams the peer's output, exits with its exit code (2: a usage error of this script) and prints
one final JSON line: {"peer", "action", "transport", "exit", "seconds" (wall clock of the peer's
run, its start-up included), "bytes" (the image, or the package's .bin + .dat), "commands"}.
"""
import argparse
import json
import math
import os
import shlex
import struct
import subprocess
import sys
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMP_VENV = os.path.join(ROOT, '.build', 'serial-venv')
NRF_VENV = os.path.join(ROOT, '.build', 'serial-venv-nrfutil')
PEERS = ('smpmgr', 'mcumgr-toolkit', 'nrfutil')
ACTIONS = ('upload', 'list', 'reset', 'dfu')


class UsageError(Exception):
    pass


def mcuboot_hash(path):
    """The image's hash TLV (SHA256 0x10, SHA384 0x11 or SHA512 0x12): what image state-write takes."""
    data = open(path, 'rb').read()
    magic, _, hdr_size, protected, img_size = struct.unpack_from('<IIHHI', data, 0)
    if magic != 0x96F3B83D:
        raise UsageError(f'{path} is not an MCUboot image (magic {magic:#010x})')
    offset = hdr_size + img_size + protected
    info_magic, total = struct.unpack_from('<HH', data, offset)
    if info_magic != 0x6907:
        raise UsageError(f'{path}: no TLV area at {offset:#x}')
    position = offset + 4
    while position < offset + total:
        kind, _, length = struct.unpack_from('<BBH', data, position)
        if kind in (0x10, 0x11, 0x12):
            return data[position + 4:position + 4 + length].hex()
        position += 4 + length
    raise UsageError(f'{path}: no hash TLV')


def package_bytes(path):
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read('manifest.json'))['manifest']
        return sum(archive.getinfo(part[key]).file_size
                   for part in manifest.values() if isinstance(part, dict)
                   for key in ('bin_file', 'dat_file') if key in part)


def refuse(args, peer, option):
    raise UsageError(f'{option} has no meaning for {peer}')


def smpmgr_commands(a):
    exe = os.path.join(SMP_VENV, 'bin', 'smpmgr')
    base = [exe]
    if a.port:
        base += ['--port', a.port]
        if a.baud:
            base += ['--baudrate', str(a.baud)]
    else:
        host, port = a.udp
        if port != 1337:
            raise UsageError('smpmgr --ip has no port option: smpclient 7.3.0 always sends to UDP port 1337 '
                             '(give each device its own 127.0.0.x address instead)')
        base += ['--ip', host]
    for option, value in (('--line-length', a.line_length), ('--line-buffers', a.line_buffers), ('--mtu', a.mtu)):
        if value is not None:
            if a.udp and option != '--mtu':
                raise UsageError(f'{option} is for smpmgr over serial')
            base += [option, str(value)]
    if a.timeout is not None:
        base += ['--timeout', str(a.timeout)]
    for option in ('auto_frame', 'bootloader', 'prn', 'connect_delay', 'flow_control'):
        if getattr(a, option) not in (None, False):
            refuse(a, 'smpmgr', '--' + option.replace('_', '-'))
    slot = ['--slot', str(a.slot)] if a.slot is not None else []
    fmt = ['--format', a.format] if a.format else []
    if a.action in ('upload', 'dfu') and not a.image:
        raise UsageError(f'{a.action} needs --image')
    if a.mark_test and (a.action != 'dfu' or a.confirm):
        raise UsageError('--mark-test is for smpmgr dfu without --confirm')
    if a.confirm and a.action != 'dfu':
        raise UsageError('--confirm is for dfu')
    if a.action == 'list':
        return [base + ['image', 'state-read'] + a.extra]
    if a.action == 'reset':
        return [base + ['os', 'reset'] + a.extra]
    if a.action == 'upload':
        return [base + ['image', 'upload'] + slot + fmt + a.extra + [a.image]]
    if a.mark_test:
        return [base + ['image', 'upload'] + slot + fmt + a.extra + [a.image],
                base + ['image', 'state-write', mcuboot_hash(a.image)],
                base + ['os', 'reset']]
    return [base + ['upgrade'] + (['--confirm'] if a.confirm else []) + slot + fmt + a.extra + [a.image]]


def mcumgr_toolkit_commands(a):
    for option in ('line_length', 'line_buffers', 'prn', 'connect_delay', 'flow_control', 'format'):
        if getattr(a, option) not in (None, False):
            refuse(a, 'mcumgr-toolkit', '--' + option.replace('_', '-'))
    if a.mark_test:
        refuse(a, 'mcumgr-toolkit', '--mark-test')
    if a.extra:
        raise UsageError('mcumgr-toolkit has no command line to append to')
    if a.action in ('upload', 'dfu') and not a.image:
        raise UsageError(f'{a.action} needs --image')
    if a.confirm and a.action != 'dfu':
        raise UsageError('--confirm is for dfu')
    spec = {'action': a.action, 'port': a.port, 'baud': a.baud, 'udp': a.udp, 'mtu': a.mtu,
            'auto_frame': a.auto_frame, 'timeout': a.timeout, 'image': a.image, 'slot': a.slot,
            'confirm': a.confirm, 'bootloader': a.bootloader}
    return [[os.path.join(SMP_VENV, 'bin', 'python'), os.path.abspath(__file__), '_mcumgr-toolkit', json.dumps(spec)]]


def nrfutil_commands(a):
    if a.udp:
        raise UsageError('nrfutil has no UDP transport')
    if a.action in ('list', 'reset'):
        raise UsageError(f'nrfutil dfu serial has no {a.action}: it only runs a whole DFU')
    if not a.package:
        raise UsageError('nrfutil needs --package')
    for option in ('line_length', 'line_buffers', 'mtu', 'auto_frame', 'bootloader', 'confirm', 'mark_test', 'slot', 'format', 'image'):
        if getattr(a, option) not in (None, False):
            refuse(a, 'nrfutil', '--' + option.replace('_', '-'))
    command = [os.path.join(NRF_VENV, 'bin', 'nrfutil'), 'dfu', 'serial', '-pkg', a.package, '-p', a.port,
               '-cd', str(a.connect_delay if a.connect_delay is not None else 0),
               '-t', str(math.ceil(a.timeout) if a.timeout is not None else 1)]
    if a.baud:
        command += ['-b', str(a.baud)]
    if a.prn is not None:
        command += ['-prn', str(a.prn)]
    if a.flow_control is not None:
        command += ['-fc', str(a.flow_control)]
    return [command + a.extra]


def mcumgr_toolkit_inner(spec):
    """Runs inside .build/serial-venv: drives mcumgr_toolkit.MCUmgrClient. Exit 0 or 1."""
    from mcumgr_toolkit import MCUmgrClient
    timeout_ms = int((spec['timeout'] if spec['timeout'] is not None else 1.0) * 1000)
    if spec['udp']:
        client = MCUmgrClient.udp(spec['udp'][0], spec['udp'][1], timeout_ms=timeout_ms)
    else:
        client = MCUmgrClient.serial(spec['port'], baud_rate=spec['baud'] or 115200, timeout_ms=timeout_ms)
    shown = {'step': None, 'decile': -1}

    def progress(step, position):
        if step != shown['step']:
            shown['step'], shown['decile'] = step, -1
            print(step, flush=True)
        if position:
            done, total = position
            decile = done * 10 // total if total else 10
            if decile != shown['decile']:
                shown['decile'] = decile
                print(f'  {done}/{total}', flush=True)

    def show_images(images):
        for image in images:
            print(f'image={image.image} slot={image.slot} version={image.version} '
                  f'hash={image.hash.hex() if image.hash else None} bootable={image.bootable} '
                  f'pending={image.pending} confirmed={image.confirmed} active={image.active} '
                  f'permanent={image.permanent}', flush=True)

    try:
        with client:
            if spec['mtu']:
                client.set_frame_size(spec['mtu'])
            if spec['auto_frame']:
                client.use_auto_frame_size()
            action = spec['action']
            if action == 'list':
                show_images(client.image_get_state())
            elif action == 'reset':
                client.os_system_reset()
                print('reset sent', flush=True)
            elif action == 'upload':
                data = open(spec['image'], 'rb').read()
                client.image_upload(data, image=spec['slot'],
                                    progress=lambda done, total: progress('Uploading', (done, total)))
                print('upload complete', flush=True)
            else:
                data = open(spec['image'], 'rb').read()
                client.firmware_update(data, bootloader_type=spec['bootloader'], force_confirm=spec['confirm'],
                                       progress=progress)
                print('firmware update complete', flush=True)
    except Exception as error:  # the bindings raise plain exceptions carrying the Rust error chain
        print(f'error: {type(error).__name__}: {error}', file=sys.stderr, flush=True)
        return 1
    return 0


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__, usage=__doc__.split('\n\n')[1].strip(),
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('peer', choices=PEERS)
    p.add_argument('action', choices=ACTIONS)
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument('--port')
    where.add_argument('--udp')
    p.add_argument('--baud', type=int)
    p.add_argument('--line-length', type=int)
    p.add_argument('--line-buffers', type=int)
    p.add_argument('--mtu', type=int)
    p.add_argument('--auto-frame', action='store_true')
    p.add_argument('--bootloader', choices=['MCUboot'])
    p.add_argument('--timeout', type=float)
    p.add_argument('--image')
    p.add_argument('--package')
    p.add_argument('--confirm', action='store_true')
    p.add_argument('--mark-test', action='store_true')
    p.add_argument('--slot', type=int)
    p.add_argument('--format', choices=['mcuboot', 'any'])
    p.add_argument('--prn', type=int)
    p.add_argument('--connect-delay', type=int)
    p.add_argument('--flow-control', type=int, choices=[0, 1])
    p.add_argument('--no-setup', action='store_true')
    p.add_argument('--dry-run', action='store_true')
    if '--' in argv:
        cut = argv.index('--')
        argv, extra = argv[:cut], argv[cut + 1:]
    else:
        extra = []
    a = p.parse_args(argv)
    a.extra = extra
    if a.udp:
        host, _, port = a.udp.rpartition(':')
        if not host or not port.isdigit():
            p.error('--udp takes HOST:PORT')
        a.udp = (host.strip('[]'), int(port))
    return a


def main(argv):
    if argv[:1] == ['_mcumgr-toolkit']:
        return mcumgr_toolkit_inner(json.loads(argv[1]))
    a = parse(argv)
    record = {'peer': a.peer, 'action': a.action, 'transport': 'udp' if a.udp else 'serial',
              'exit': 2, 'seconds': 0.0, 'bytes': 0, 'commands': []}

    def finish(code):
        record['exit'] = code
        sys.stdout.flush()
        print(json.dumps(record), flush=True)
        return code

    try:
        if a.udp and a.baud:
            raise UsageError('--baud is for a serial port')
        if a.peer == 'mcumgr-toolkit' and a.action == 'dfu' and a.slot is not None:
            raise UsageError('mcumgr-toolkit firmware_update always targets image 0: --slot is for upload')
        for path in (a.image, a.package):
            if path and not os.path.isfile(path):
                raise UsageError(f'no such file: {path}')
        commands = {'smpmgr': smpmgr_commands, 'mcumgr-toolkit': mcumgr_toolkit_commands,
                    'nrfutil': nrfutil_commands}[a.peer](a)
        if a.action in ('upload', 'dfu'):
            record['bytes'] = package_bytes(a.package) if a.peer == 'nrfutil' else os.path.getsize(a.image)
    except (UsageError, zipfile.BadZipFile, KeyError, struct.error) as error:
        print(f'serial-peer: {error}', file=sys.stderr)
        return finish(2)
    record['commands'] = [' '.join(shlex.quote(part) for part in command) for command in commands]
    if a.dry_run:
        for line in record['commands']:
            print(line)
        return finish(0)
    if not a.no_setup:
        part = 'nrfutil' if a.peer == 'nrfutil' else 'smp'
        setup = subprocess.run([os.path.join(ROOT, 'scripts', 'serial-peers-venv.sh'), part],
                               stdout=subprocess.DEVNULL)
        if setup.returncode != 0:
            print(f'serial-peer: scripts/serial-peers-venv.sh {part} failed (above)', file=sys.stderr)
            return finish(2)
    code = 0
    started = time.monotonic()
    for command in commands:
        sys.stdout.flush()
        try:
            code = subprocess.run(command).returncode
        except OSError as error:
            print(f'serial-peer: cannot run {command[0]}: {error}', file=sys.stderr)
            code = 127
        if code != 0:
            break
    record['seconds'] = round(time.monotonic() - started, 3)
    return finish(code)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
