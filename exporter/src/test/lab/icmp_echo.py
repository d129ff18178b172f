#!/usr/bin/env python3
"""One ICMP echo request over a raw socket (root): icmp_echo.py ADDRESS [TIMEOUT_SECONDS].

Exits 0 on a matching echo reply, 1 on timeout. The lab uses it where ping(8) is not installed.
"""
import os
import select
import socket
import struct
import sys
import time


def checksum(data: bytes) -> int:
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def main() -> int:
    dst = sys.argv[1]
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else 2.0
    ident = os.getpid() & 0xFFFF
    payload = b"headroom-lab"
    header = struct.pack("!BBHHH", 8, 0, 0, ident, 1)
    packet = struct.pack("!BBHHH", 8, 0, checksum(header + payload), ident, 1) + payload
    with socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP) as s:
        s.sendto(packet, (dst, 0))
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            if not select.select([s], [], [], left)[0]:
                break
            data, addr = s.recvfrom(2048)
            ihl = (data[0] & 0x0F) * 4
            icmp_type, _, _, rid, _ = struct.unpack("!BBHHH", data[ihl:ihl + 8])
            if icmp_type == 0 and rid == ident and addr[0] == dst:
                return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
