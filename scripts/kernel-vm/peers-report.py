#!/usr/bin/env python3
"""The report of `make bench-peers` (run-peers-bench.sh): reads the guest's results directory
(runs.txt, CLIENT-RUN/, state-CLIENT-RUN.json), prints one row per run (client, run, upload
seconds, whole command seconds, confirmed), the median upload per client and the ratio
smpmgr/dfukit, and writes results.json. Exit status 1 when a run did not upload or was not
confirmed.

Upload seconds: measured by the peer, the same way for both clients (`upload_seconds` in its
state file: from the first chunk's arrival to the answer to the last chunk, flash time included;
the peer runs on the host, outside the emulated VM, with the host's clock). dfukit's own figure
(`transfer_seconds` of `dfukit flash --json`) is kept beside it as a cross-check; smpmgr prints
none (its --logfile would add a DEBUG line per write, so it runs without one, as its users do).

Confirmed: the client ended without error, the peer's state file says it runs this image's
SHA-256 and it is confirmed, and the image list read by the same client after the reboot shows
slot 0 active and confirmed with the image's hash (the SHA256 TLV MCUboot lists).
"""
import argparse
import hashlib
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'Tests', 'Bumble'))
from mcumgr_smp_device import FlashTiming, SlotImage  # noqa: E402  (the peer's own classes)

# The flash times run-peers-bench.sh gives the peers (nRF52840 Product Specification v1.7,
# NVMC electrical specification: t_ERASEPAGE, t_WRITE).
FLASH = FlashTiming(erase_ms_per_page=85, write_us_per_word=41)

def read(path: str) -> str:
    try:
        return open(path, errors='replace').read()
    except OSError:
        return ''


def smpmgr_list_confirmed(text: str, image_hash: bytes) -> bool:
    """smpmgr image state-read prints each image as a multi-line ImageState(...) (rich's
    pretty repr, the hash as HashBytes('UPPERCASE HEX'))."""
    for block in text.split('ImageState(')[1:]:
        flat = re.sub(r'\s+', '', block)
        if re.search(r'(^|,)slot=0,', flat) and 'active=True' in flat and 'confirmed=True' in flat and \
                image_hash.hex().upper() in flat.upper():
            return True
    return False


def dfukit_list_confirmed(text: str, image_hash: bytes) -> bool:
    try:
        images = json.loads(text)['body']['images']
    except (ValueError, KeyError, TypeError):
        return False
    return any(entry.get('slot') == 0 and entry.get('active') and entry.get('confirmed') and
               entry.get('hash') == image_hash.hex() for entry in images)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--results', required=True)
    parser.add_argument('--image', required=True)
    parser.add_argument('--smpmgr-version', required=True)
    parser.add_argument('--json', required=True)
    args = parser.parse_args()
    data = open(args.image, 'rb').read()
    image_sha = hashlib.sha256(data).hexdigest()
    image_hash = SlotImage.parse(data).hash
    rows = []
    for line in read(os.path.join(args.results, 'runs.txt')).splitlines():
        client, run, address = line.split()
        d = os.path.join(args.results, f'{client}-{run}')
        rc = read(os.path.join(d, 'rc')).strip()
        seconds = read(os.path.join(d, 'seconds')).strip()
        try:
            state = json.loads(read(os.path.join(args.results, f'state-{client}-{run}.json')))
        except ValueError:
            state = {}
        device_ok = state.get('sha256') == image_sha and state.get('confirmed') is True
        upload = state.get('upload_seconds')
        listing = read(os.path.join(d, 'list.txt'))
        client_upload = None
        if client == 'dfukit':
            try:
                report = json.loads(read(os.path.join(d, 'out.json')))
            except ValueError:
                report = {}
            client_upload = report.get('transfer_seconds')
            client_ok = rc == '0' and report.get('status') == 'verified'
            list_ok = dfukit_list_confirmed(listing, image_hash)
        else:
            client_ok = rc == '0'
            list_ok = smpmgr_list_confirmed(listing, image_hash)
        rows.append({'client': client, 'run': int(run), 'address': address,
                     'upload_seconds': upload, 'client_upload_seconds': client_upload,
                     'command_seconds': float(seconds) if seconds else None,
                     'exit_status': int(rc) if rc.lstrip('-').isdigit() else None,
                     'device_confirmed': device_ok, 'list_confirmed': list_ok,
                     'confirmed': client_ok and device_ok and list_ok})

    print(f'{"client":<8} {"run":>3} {"upload s":>9} {"own s":>6} {"command s":>10}  confirmed')
    for row in rows:
        upload = f'{row["upload_seconds"]:.2f}' if row['upload_seconds'] is not None else '-'
        own = f'{row["client_upload_seconds"]:.2f}' if row['client_upload_seconds'] is not None else '-'
        command = f'{row["command_seconds"]:.1f}' if row['command_seconds'] is not None else '-'
        why = '' if row['confirmed'] else \
            f' (exit {row["exit_status"]}, device {"yes" if row["device_confirmed"] else "no"}, ' \
            f'image list {"yes" if row["list_confirmed"] else "no"})'
        print(f'{row["client"]:<8} {row["run"]:>3} {upload:>9} {own:>6} {command:>10}  {"yes" if row["confirmed"] else "no"}{why}')
    medians = {}
    for client in ('smpmgr', 'dfukit'):
        values = [row['upload_seconds'] for row in rows if row['client'] == client and row['confirmed']
                  and row['upload_seconds'] is not None]
        medians[client] = statistics.median(values) if values else None
        shown = f'{medians[client]:.2f} s' if medians[client] is not None else 'none'
        print(f'median upload, {client}: {shown} ({len(values)} confirmed runs)')
    ratio = medians['smpmgr'] / medians['dfukit'] if medians['smpmgr'] and medians['dfukit'] else None
    flash_floor = FLASH.erase_seconds(len(data)) + FLASH.write_seconds(len(data))
    print(f'the device\'s flash alone takes {flash_floor:.2f} s for this image (no upload can be faster)')
    print(f'ratio smpmgr/dfukit: {ratio:.2f}x' if ratio else 'ratio smpmgr/dfukit: none (a client has no confirmed run)')
    # The device writes flash between answers whoever the client is, so the whole upload's ratio
    # can never pass smpmgr's time over the flash time; what a client adds on top of the flash
    # (its link, its requests in flight, its CPU) is where clients differ.
    above = {client: (median - flash_floor if median is not None else None) for client, median in medians.items()}
    bound = medians['smpmgr'] / flash_floor if medians['smpmgr'] else None
    link_ratio = above['smpmgr'] / above['dfukit'] if above['smpmgr'] and above['dfukit'] and above['dfukit'] > 0 else None
    if bound:
        print(f'the flash bounds the ratio at {bound:.2f}x (smpmgr\'s median over the flash time)')
    if link_ratio:
        print(f'above the flash: smpmgr {above["smpmgr"]:.2f} s, dfukit {above["dfukit"]:.2f} s, ratio {link_ratio:.1f}x')
    all_confirmed = bool(rows) and all(row['confirmed'] for row in rows)
    print(f'every run confirmed: {"yes" if all_confirmed else "no"}')
    result = {'image': os.path.basename(args.image), 'image_bytes': len(data), 'image_sha256': image_sha,
              'smpmgr_version': args.smpmgr_version, 'vm': 'qemu TCG (emulated): compare within one boot only',
              'peer': {'flash_erase_ms_per_page': FLASH.erase_ms_per_page,
                       'flash_write_us_per_word': FLASH.write_us_per_word, 'page_bytes': FLASH.page_size,
                       'flash_seconds': round(flash_floor, 3),
                       'source': 'nRF52840 Product Specification v1.7, NVMC electrical specification'},
              'runs': rows, 'median_upload_seconds': medians, 'ratio_smpmgr_over_dfukit': ratio,
              'ratio_bound_by_flash': bound, 'seconds_above_flash': above, 'ratio_above_flash': link_ratio,
              'all_confirmed': all_confirmed}
    with open(args.json, 'w') as file:
        json.dump(result, file, indent=2)
    return 0 if all_confirmed else 1


if __name__ == '__main__':
    sys.exit(main())
