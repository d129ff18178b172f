#!/usr/bin/python3
"""A stand-in for NetBird's relay in the lab: a userspace UDP forwarder between one client and the peer.

NetBird carries a client it cannot reach directly through its relay server: every packet crosses a userspace
process and its UDP buffers. This forwarder does the same for one WireGuard client: datagrams arriving on
LISTEN (from the client) leave from a socket bound to FROM towards the peer's TO, and the peer's answers go back
to the last address the client sent from. Its rate limit is the namespace's own (tc on its interfaces), set by the
scenario. Standard library only; one thread, select over the two sockets.

    udp-relay.py LISTEN_ADDR:PORT FROM_ADDR:PORT TO_ADDR:PORT
"""
import select
import socket
import sys


def addr(text):
    host, port = text.rsplit(":", 1)
    return host, int(port)


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    listen, source, peer = (addr(a) for a in sys.argv[1:])
    client_side = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    client_side.bind(listen)
    peer_side = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    peer_side.bind(source)
    peer_side.connect(peer)
    for s in (client_side, peer_side):
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
    client = None
    print(f"relay: {listen} <-> {source} -> {peer}", flush=True)
    while True:
        ready, _, _ = select.select([client_side, peer_side], [], [])
        for s in ready:
            try:
                if s is client_side:
                    data, client = client_side.recvfrom(65535)
                    peer_side.send(data)
                elif client is not None:
                    client_side.sendto(peer_side.recv(65535), client)
                else:
                    peer_side.recv(65535)  # nothing to hand it to before the client's first datagram
            except OSError:
                pass  # a full buffer or an ICMP error drops the datagram, as a relay's UDP path does


if __name__ == "__main__":
    sys.exit(main())
