#!/usr/bin/python3
"""A stand-in `netbird` CLI for the lab's netstack scenario: `status --json` in NetBird's shape, with the real
tunnel's per-peer counters.

NetBird in netstack mode has no tunnel interface headroom could read; its `netbird status --json` lists every
peer with the WireGuard device's own byte counters. This stand-in answers that call for a plain wireguard-go
tunnel: it runs `wg show IFACE dump` and prints the document NetBird's `TestParsingToJSON`
(client/status/status_test.go) prints, with `usesKernelInterface: false`, `daemonStatus: Connected`, and one
peer entry per WireGuard peer: `transferReceived` = the peer's rx bytes, `transferSent` = its tx bytes (as
NetBird fills them), `Connected`/`P2P` while the peer has a handshake, else `Idle` with 0 counters (NetBird
prints 0 for a peer it is not connected to). When the tunnel cannot be read (it is being recreated) it fails
as NetBird's CLI does: a message on stderr, exit status 1.

    HR_NETBIRD_INTERFACE=wt1 netbird-stand-in.py status --json

Env: HR_NETBIRD_INTERFACE (the tunnel, required), HR_NETBIRD_CALLS (optional: a file to which each call appends
its time, so the scenario can count the calls), HR_NETBIRD_RELAYED (optional: comma-separated public keys NetBird
would list as `Relayed`, with a relay address and no ICE endpoint), HR_NETBIRD_NAMES (optional: `key=fqdn,...`;
a peer not named there is `peer-N.lab.internal`, N its place in the dump). Standard library only.
"""
import datetime
import json
import os
import subprocess
import sys
import time

ZERO_TIME = "0001-01-01T00:00:00Z"


def rfc3339(epoch):
    if epoch <= 0:
        return ZERO_TIME
    return datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def env_list(name):
    return [x.strip() for x in os.environ.get(name, "").split(",") if x.strip()]


def peer_entry(n, fields):
    key, _psk, endpoint, allowed, handshake, rx, tx, _keepalive = fields[:8]
    connected = int(handshake) > 0
    relayed = connected and key in env_list("HR_NETBIRD_RELAYED")
    # A base64 key ends in "=": the name is after the last one.
    names = dict(x.rsplit("=", 1) for x in env_list("HR_NETBIRD_NAMES") if "=" in x)
    networks = [] if allowed == "(none)" else allowed.split(",")
    return {
        "fqdn": names.get(key, f"peer-{n}.lab.internal"),
        "netbirdIp": networks[0].split("/")[0] if networks else "",
        "publicKey": key,
        "status": "Connected" if connected else "Idle",
        "lastStatusUpdate": rfc3339(int(time.time())),
        "connectionType": ("Relayed" if relayed else "P2P") if connected else "-",
        "iceCandidateType": {"local": "host" if connected and not relayed else "",
                             "remote": "host" if connected and not relayed else ""},
        "iceCandidateEndpoint": {"local": "", "remote": endpoint if connected and not relayed
                                 and endpoint != "(none)" else ""},
        "relayAddress": "rels://relay.lab.internal:443" if relayed else "",
        "lastWireguardHandshake": rfc3339(int(handshake)),
        "transferReceived": int(rx) if connected else 0,
        "transferSent": int(tx) if connected else 0,
        "latency": 0,
        "quantumResistance": False,
        "networks": networks[1:] or None,
    }


def address(iface):
    r = subprocess.run(["ip", "-o", "-4", "addr", "show", "dev", iface], capture_output=True, text=True, timeout=5)
    parts = r.stdout.split()
    return parts[parts.index("inet") + 1] if "inet" in parts else ""


def status(iface):
    r = subprocess.run(["wg", "show", iface, "dump"], capture_output=True, text=True, timeout=5)
    if r.returncode != 0:
        print(f"Error: status failed: cannot read {iface}: {r.stderr.strip()}", file=sys.stderr)
        return 1
    lines = [line.split("\t") for line in r.stdout.splitlines() if line]
    own, peers = lines[0], [peer_entry(n, f) for n, f in enumerate(lines[1:], 1)]
    doc = {
        "peers": {"total": len(peers), "connected": sum(p["status"] == "Connected" for p in peers),
                  "details": peers or None},
        "cliVersion": "lab-stand-in",
        "daemonVersion": "lab-stand-in",
        "daemonStatus": "Connected",
        "management": {"url": "https://management.lab.internal:443", "connected": True, "error": ""},
        "signal": {"url": "https://signal.lab.internal:443", "connected": True, "error": ""},
        "relays": {"total": 0, "available": 0, "details": []},
        "netbirdIp": address(iface),
        "publicKey": own[1],
        "usesKernelInterface": False,
        "wireguardPort": int(own[2]),
        "fqdn": "router.lab.internal",
        "quantumResistance": False,
        "quantumResistancePermissive": False,
        "networks": ["10.199.3.0/24"],
        "forwardingRules": 0,
        "dnsServers": [],
        "events": [],
        "lazyConnectionEnabled": False,
        "profileName": "default",
        "sshServer": {"enabled": False, "sessions": []},
    }
    print(json.dumps(doc, indent=2))
    return 0


def main():
    if sys.argv[1:] != ["status", "--json"]:
        print("usage: netbird status --json (this lab stand-in answers nothing else)", file=sys.stderr)
        return 2
    iface = os.environ.get("HR_NETBIRD_INTERFACE")
    if not iface:
        print("Error: HR_NETBIRD_INTERFACE is not set (the tunnel whose counters to report)", file=sys.stderr)
        return 2
    calls = os.environ.get("HR_NETBIRD_CALLS")
    if calls:
        with open(calls, "a") as f:
            f.write(f"{time.monotonic():.3f}\n")
    return status(iface)


if __name__ == "__main__":
    sys.exit(main())
