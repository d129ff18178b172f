#!/usr/bin/env python3
"""A wireguard-go UAPI socket serving N synthetic tunnels, for compare.sh's census rows (stdlib only).

Listens on <rundir>/wireguard/<iface>.sock and answers each get=1 as wireguard-go does (key=value lines, then
errno=0 and an empty line). Each tunnel has a recent handshake and counters that grow with wall time, a tenth
of them fast, so headroom's census sees active tunnels and rates, as on a routing peer with N users.

Usage: fake_uapi.py --rundir DIR --iface lo --tunnels 3000
"""
import argparse
import os
import socket
import threading
import time


def reply(n, now):
    out = ["private_key=" + "a" * 64, "listen_port=51820"]
    t = int(now)
    for i in range(n):
        rate = 1_000_000 if i % 10 == 0 else 2_000  # bytes/s: one tunnel in ten moves real traffic
        out += [
            "public_key=%064x" % (i + 1),
            "preshared_key=" + "0" * 64,
            "protocol_version=1",
            "endpoint=198.51.100.%d:%d" % (i % 250 + 1, 1024 + i % 60000),
            "last_handshake_time_sec=%d" % (t - i % 100),
            "last_handshake_time_nsec=0",
            "tx_bytes=%d" % int(now * rate),
            "rx_bytes=%d" % int(now * rate / 2),
            "persistent_keepalive_interval=25",
            "allowed_ip=100.%d.%d.%d/32" % (64 + (i >> 16) % 64, (i >> 8) & 255, i & 255),
        ]
    out += ["errno=0", "", ""]
    return "\n".join(out).encode("ascii")


class Replies:
    """The reply, rebuilt every second on a thread of its own, so a get=1 is answered at once however many
    tunnels there are (headroom gives a reply 2 s; building 10,000 tunnels' text can take longer than that
    on a loaded host). Counters are therefore up to a second old, like any snapshot."""

    def __init__(self, n):
        self.n = n
        self.current = reply(n, time.time())
        threading.Thread(target=self.refresh, daemon=True).start()

    def refresh(self):
        while True:
            time.sleep(1)
            self.current = reply(self.n, time.time())


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rundir", required=True)
    p.add_argument("--iface", required=True)
    p.add_argument("--tunnels", type=int, required=True)
    a = p.parse_args()
    d = os.path.join(a.rundir, "wireguard")
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, a.iface + ".sock")
    if os.path.exists(path):
        os.unlink(path)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    s.listen(4)
    replies = Replies(a.tunnels)
    while True:
        c, _ = s.accept()
        with c:
            req = b""
            while not req.endswith(b"\n\n"):
                chunk = c.recv(64)
                if not chunk:
                    break
                req += chunk
            if req.startswith(b"get=1"):
                c.sendall(replies.current)


if __name__ == "__main__":
    main()
