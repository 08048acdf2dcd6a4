#!/usr/bin/env python3
"""Prints a btsnoop file one record per line, independently of DFUKit's writer:
"<index> <sent|received> <cmd/evt|data> <microseconds since 1970> <hex bytes>".
Exits 65 if the file header is not btsnoop version 1, datalink 1002 (H4)."""
import struct
import sys

EPOCH_OFFSET = 0x00DCDDB30F2F8000


def main(path):
    with open(path, 'rb') as file:
        data = file.read()
    magic, version, datalink = struct.unpack('>8sII', data[:16])
    if magic != b'btsnoop\0' or version != 1 or datalink != 1002:
        print(f'not a btsnoop v1 H4 file: {magic!r} {version} {datalink}')
        sys.exit(65)
    offset = 16
    index = 0
    while offset < len(data):
        original, included, flags, drops, timestamp = struct.unpack('>IIIIq', data[offset:offset + 24])
        packet = data[offset + 24:offset + 24 + included]
        if len(packet) != included or original != included:
            print(f'truncated record {index}')
            sys.exit(65)
        direction = 'received' if flags & 1 else 'sent'
        kind = 'cmd/evt' if flags & 2 else 'data'
        print(index, direction, kind, timestamp - EPOCH_OFFSET, packet.hex())
        offset += 24 + included
        index += 1


if __name__ == '__main__':
    main(sys.argv[1])
