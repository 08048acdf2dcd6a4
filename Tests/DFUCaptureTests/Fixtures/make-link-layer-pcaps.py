#!/usr/bin/env python3
"""Writes ll-session-251.pcap, ll-session-256.pcap and ll-session-272.pcap: one LE connection as a
sniffer records it, the packets built here from the Bluetooth Core spec (Vol 6, Part B: 2.1
packet format, 2.3 advertising PDUs, 2.4 data PDUs; CRC per 3.1.1) and written to pcap by
Wireshark's text2pcap (-l 251 / 256 / 272), a tool we did not write. Each pcap's hex input is
kept next to it (.txt) for review.

Run from this folder (needs text2pcap): python3 make-link-layer-pcaps.py

The connection (LinkLayerCaptureTests asserts it):
  ADV_IND from C0:FF:EE:00:00:01 (random): flags, name "DFUKit-Sniffed", 16-bit UUID FE59
  CONNECT_IND from 11:22:33:44:55:66 to it, access address 0x50654A3B, CRCInit 0x123456
  the sides take turns (empty PDUs where one has nothing to send):
  C: Exchange MTU Request 247        P: Exchange MTU Response 185
  C: Write Request 0x000E = 01 02 03; P answers with a NACK; C sends it again (same SN)
  [256 only: a copy with another value whose pseudo-header says CRC checked and bad: dropped]
  P: Write Response
  P: Handle Value Notification 0x0010, 30 bytes B0..CD, split over an LLID 2 and an LLID 1 PDU
  C: Write Command 0x0010 = AA
  LL_TERMINATE_IND, error 0x13: sent by the central (256, 251: the capture cannot say who)
  or by the peripheral (272, whose header has the direction).
"""
import struct
import subprocess

ADV_AA = 0x8E89BED6
AA = 0x50654A3B
CRC_INIT = 0x123456
ADV_A = bytes.fromhex('010000EEFFC0')   # C0:FF:EE:00:00:01, least significant byte first
INIT_A = bytes.fromhex('665544332211')  # 11:22:33:44:55:66


def reverse_bits24(value):
    return int(f'{value:024b}'[::-1], 2)


def crc24(init, pdu):
    """Vol 6, Part B, 3.1.1: LFSR with polynomial x^24+x^10+x^9+x^6+x^4+x^3+x+1, bits in air
    order (least significant first); returned as the 3 octets sent."""
    state = reverse_bits24(init)
    for byte in pdu:
        for bit in range(8):
            feedback = (state ^ (byte >> bit)) & 1
            state >>= 1
            if feedback:
                state |= 1 << 23
                state ^= 0x5A6000
    return bytes([state & 0xFF, (state >> 8) & 0xFF, (state >> 16) & 0xFF])


def ll_packet(aa, header0, payload, crc_init):
    pdu = bytes([header0, len(payload)]) + payload
    return struct.pack('<I', aa) + pdu + crc24(crc_init, pdu)


def att(pdu):
    return struct.pack('<HH', len(pdu), 0x0004) + pdu


adv_data = bytes([2, 0x01, 0x06]) + bytes([15, 0x09]) + b'DFUKit-Sniffed' + bytes([3, 0x03, 0x59, 0xFE])
connect_ind = INIT_A + ADV_A + struct.pack('<I', AA) + CRC_INIT.to_bytes(3, 'little') + \
    bytes([2]) + struct.pack('<HHHH', 0, 24, 0, 72) + bytes.fromhex('FFFFFFFF1F') + bytes([0x05])
notification = att(bytes([0x1B, 0x10, 0x00]) + bytes(range(0xB0, 0xCE)))

C, P = 'central', 'peripheral'


def packets(terminate_by):
    """(sender or None for advertising, aa, header0, payload, crc_bad)."""
    # SN/NESN as Vol 6, Part B, 4.5.9 has them: the sides take turns; each PDU's NESN
    # acknowledges the other side's last one (SN + 1), or not (a NACK: the same SN is expected
    # again), and a side moves its SN on only once its last PDU was acknowledged.
    sn, acknowledged, sent = {C: 0, P: 0}, {C: False, P: False}, set()

    def data(sender, llid, payload, nack=False):
        other = P if sender == C else C
        if acknowledged[sender]:
            sn[sender] ^= 1
        acknowledged[sender] = False
        nesn = (sn[other] if nack else sn[other] ^ 1) if other in sent else 0
        acknowledged[other] = other in sent and not nack
        sent.add(sender)
        return (sender, AA, llid | (nesn << 2) | (sn[sender] << 3), payload, False)
    write_request = att(bytes([0x12, 0x0E, 0x00, 0x01, 0x02, 0x03]))
    out = [
        (None, ADV_AA, 0x40 | 0x0, ADV_A + adv_data, False),
        (None, ADV_AA, 0x80 | 0x5, connect_ind, False),
        data(C, 2, att(bytes([0x02, 0xF7, 0x00]))),
        data(P, 2, att(bytes([0x03, 0xB9, 0x00]))),
        data(C, 2, write_request),
        data(P, 1, b'', nack=True),
        data(C, 2, write_request),
        ('crc-bad', AA, 0x02, att(bytes([0x12, 0x0E, 0x00, 0xEE])), True),
        data(P, 2, att(bytes([0x13]))),
        data(C, 1, b''),
        data(P, 2, notification[:27]),
        data(C, 1, b''),
        data(P, 1, notification[27:]),
        data(C, 2, att(bytes([0x52, 0x10, 0x00, 0xAA]))),
        data(P, 1, b''),
    ]
    if terminate_by == P:
        out.append(data(C, 1, b''))
    out.append(data(terminate_by, 3, bytes([0x02, 0x13])))
    return out


def write(link_type, name, terminate_by, frame):
    lines = []
    for number, (sender, aa, header0, payload, crc_bad) in enumerate(packets(terminate_by)):
        framed = frame(sender, aa, header0, payload, crc_bad, number)
        if framed is None:
            continue
        lines.append(' '.join(f'{b:02x}' for b in framed))
    text = ''.join(f'0000 {line}\n\n' for line in lines)
    open(name + '.txt', 'w').write(text)
    subprocess.run(['text2pcap', '-q', '-F', 'pcap', '-l', str(link_type), name + '.txt', name + '.pcap'], check=True)


def frame_251(sender, aa, header0, payload, crc_bad, number):
    if crc_bad:
        return None
    return ll_packet(aa, header0, payload, 0x555555 if aa == ADV_AA else CRC_INIT)


def frame_256(sender, aa, header0, payload, crc_bad, number):
    # LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR: channel, signal dBm, noise, AA offenses, reference AA,
    # flags: 0x0001 dewhitened, 0x0002 signal valid, 0x0400 CRC checked, 0x0800 CRC valid;
    # PDU type (bits 7-9) 0: direction not given.
    flags = 0x0001 | 0x0002 | 0x0400 | (0 if crc_bad else 0x0800)
    channel = 37 if aa == ADV_AA else 12
    header = struct.pack('<BbbBIH', channel, -50, -90, 0, aa, flags)
    return header + ll_packet(aa, header0, payload, 0x555555 if aa == ADV_AA else CRC_INIT)


def frame_272(sender, aa, header0, payload, crc_bad, number):
    if crc_bad:
        return None
    packet = ll_packet(aa, header0, payload, 0x555555 if aa == ADV_AA else CRC_INIT)
    # Nordic BLE sniffer, protocol version 2: board ID; payload length (2), protocol version,
    # packet counter (2), packet ID (0x06 EVENT_PACKET); then header length 10, flags (bit 0
    # CRC OK, bit 1 central to peripheral), channel, RSSI (negated), event counter, delta time.
    flags = 0x01 | (0x02 if sender == C else 0)
    channel = 37 if aa == ADV_AA else 12
    packet_header = struct.pack('<BBBBHI', 10, flags, channel, 50, number, 150)
    body = packet_header + packet
    return bytes([0]) + struct.pack('<HBHB', len(body), 2, number, 0x06) + body


write(251, 'll-session-251', C, frame_251)
write(256, 'll-session-256', C, frame_256)
write(272, 'll-session-272', P, frame_272)
