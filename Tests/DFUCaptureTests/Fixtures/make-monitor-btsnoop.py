#!/usr/bin/env python3
"""Writes bumble-session-monitor.btsnoop: the packets of bumble-session.btsnoop (Bumble's
BtSnooper, datalink 1002) as `btmon -w` stores them, btsnoop datalink 2001 (Linux monitor).

`btmon -r bumble-session.btsnoop -w OUT` would be the better witness, but BlueZ 5.66's btmon
crashes (SIGSEGV) reading this file and does not write OUT when reading; so the conversion follows
BlueZ's published format instead:
  src/shared/btsnoop.h: BTSNOOP_FORMAT_MONITOR 2001; record flags = (index << 16) | opcode;
    BTSNOOP_OPCODE_NEW_INDEX 0, COMMAND_PKT 2, EVENT_PKT 3, ACL_TX_PKT 4, ACL_RX_PKT 5;
    struct btsnoop_opcode_new_index { uint8_t type; uint8_t bus; uint8_t bdaddr[6]; char name[8]; }
  src/shared/btsnoop.c (btsnoop_write_hci): the packet is stored without the H4 indicator.
Controller index 1 is used, so that the index bits are exercised. Wireshark reads the result
(its btsnoop reader knows datalink 2001): BumbleCaptureTests compares tshark's ATT with ours.

Run from this folder: python3 make-monitor-btsnoop.py
"""
import struct

INDEX = 1
source = open('bumble-session.btsnoop', 'rb').read()
assert source[:8] == b'btsnoop\0' and struct.unpack('>II', source[8:16]) == (1, 1002)
out = bytearray(b'btsnoop\0' + struct.pack('>II', 1, 2001))
offset, first_time = 16, None


def record(opcode, payload, timestamp):
    out.extend(struct.pack('>IIIIQ', len(payload), len(payload), INDEX << 16 | opcode, 0, timestamp) + payload)


while offset + 24 <= len(source):
    _, length, flags, _, timestamp = struct.unpack('>IIIIQ', source[offset:offset + 24])
    packet = source[offset + 24:offset + 24 + length]
    offset += 24 + length
    if first_time is None:
        first_time = timestamp
        # type 0 primary controller, bus 0 virtual, address F0:F1:F2:F3:F4:C0 (little-endian), name
        record(0, bytes([0, 0]) + bytes.fromhex('C0F4F3F2F1F0') + b'hci1\0\0\0\0', timestamp)
    received = flags & 1
    # H4 indicator -> monitor opcode: command 2, event 3, ACL 4 (TX) or 5 (RX).
    opcode = {1: 2, 4: 3}.get(packet[0], (5 if received else 4) if packet[0] == 2 else None)
    if opcode is None:
        continue
    record(opcode, packet[1:], timestamp)

open('bumble-session-monitor.btsnoop', 'wb').write(out)
