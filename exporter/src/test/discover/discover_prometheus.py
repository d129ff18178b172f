#!/usr/bin/env python3
"""The body of exporter/src/test/discover/test.sh: discover + stand-in API + a real Prometheus + a real exporter.

Usage: discover_prometheus.py JAR WORKDIR"""
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

JAR, WORK = sys.argv[1], sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "../../../.."))
FIXTURES = os.path.join(REPO, "exporter/src/test/resources/fixtures/netbird-api")
PEER_FIXTURE = os.path.join(REPO, "exporter/src/test/resources/fixtures/kernel")
TOKEN = "nbp_discoverTestTokenNotForServing0001"
NETWORKS = {"dc-east": 2, "dc-west": 1, "lab": 2, "office-lan": 1}  # NetBird's names: routing peers listed

passed = failed = 0
procs = []


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok - {name}")
    else:
        failed += 1
        print(f"FAIL - {name}" + (f": {detail}" if detail else ""))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(name, args):
    log = open(os.path.join(WORK, name + ".log"), "w")
    p = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
    procs.append(p)
    return p


def get(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.status, r.read().decode()


def wait_http(url, proc, seconds=90):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return False
        try:
            get(url, timeout=2)
            return True
        except Exception:
            time.sleep(0.3)
    return False


def query(prom, q):
    status, body = get(f"http://127.0.0.1:{prom}/api/v1/query?" + urllib.parse.urlencode({"query": q}))
    return json.loads(body)["data"]["result"]


def until(pred, seconds=60):
    deadline = time.monotonic() + seconds
    while True:
        v = pred()
        if v or time.monotonic() > deadline:
            return v
        time.sleep(1)


def main():
    token = os.path.join(WORK, "netbird-token")
    with open(token, "w") as f:
        f.write(TOKEN + "\n")
    api_port, exp_port, disc_port, prom_port = free_port(), free_port(), free_port(), free_port()
    api = start("standin", ["python3", os.path.join(HERE, "netbird_standin.py"), "--fixtures", FIXTURES,
                            "--token-file", token, "--peer-ip", "127.0.0.1", "--port", str(api_port)])
    exporter = start("exporter", ["java", "-jar", JAR, "serve", f"--web.listen-address=127.0.0.1:{exp_port}",
                                  f"--path.sysfs={PEER_FIXTURE}/sys", f"--path.procfs={PEER_FIXTURE}/proc",
                                  "--netbird.interval=0s", "--census.interval=0s", "--labels.network=typed-by-hand"])
    time.sleep(1)
    once = subprocess.run(["java", "-jar", JAR, "discover", "--once", f"--netbird.token-file={token}",
                           f"--netbird.api-url=http://127.0.0.1:{api_port}", f"--discover.target-port={exp_port}"],
                          capture_output=True, text=True, timeout=60)
    check("discover --once prints every Network and exits 0",
          once.returncode == 0 and all(f"Network {n} " in once.stdout for n in NETWORKS),
          f"exit {once.returncode}: {once.stdout}{once.stderr}")
    discover = start("discover", ["java", "-jar", JAR, "discover", f"--netbird.token-file={token}",
                                  f"--netbird.api-url=http://127.0.0.1:{api_port}",
                                  f"--discover.target-port={exp_port}", "--netbird.refresh-interval=5s",
                                  f"--web.listen-address=127.0.0.1:{disc_port}"])
    check("discover serves /sd", wait_http(f"http://127.0.0.1:{disc_port}/sd", discover))
    check("the exporter serves /metrics", wait_http(f"http://127.0.0.1:{exp_port}/metrics", exporter))

    with open(os.path.join(WORK, "prometheus.yml"), "w") as f:
        f.write(f"""global:
  scrape_interval: 2s
scrape_configs:
  - job_name: headroom
    http_sd_configs:
      - url: http://127.0.0.1:{disc_port}/sd
        refresh_interval: 5s
    relabel_configs:
      - source_labels: [__meta_netbird_network_name]
        target_label: network
      - source_labels: [__meta_netbird_peer_name]
        target_label: netbird_peer
      - source_labels: [__meta_netbird_router_metric]
        target_label: netbird_router_metric
  - job_name: headroom_discover
    static_configs:
      - targets: ['127.0.0.1:{disc_port}']
""")
    prom = start("prometheus", ["prometheus", f"--config.file={WORK}/prometheus.yml",
                                f"--storage.tsdb.path={WORK}/data", f"--web.listen-address=127.0.0.1:{prom_port}",
                                "--log.level=warn"])
    check("prometheus is ready", wait_http(f"http://127.0.0.1:{prom_port}/-/ready", prom))

    for network in NETWORKS:
        got = until(lambda: [r for r in query(prom_port, f'up{{job="headroom",network="{network}"}}')
                             if r["value"][1] == "1"])
        check(f'up{{job="headroom",network="{network}"}} == 1: discovered and scraped under NetBird\'s name',
              bool(got), str(query(prom_port, f'up{{job="headroom",network="{network}"}}')))
    # Each target's first scrape lands within a scrape interval of the others: wait for all six, not the first.
    def six():
        r = query(prom_port, 'count(up{job="headroom"} == 1)')
        return r if r and r[0]["value"][1] == "6" else None
    targets = until(six) or query(prom_port, 'count(up{job="headroom"} == 1)')
    check("one target per routing peer and Network: 6",
          bool(targets) and targets[0]["value"][1] == "6", str(targets))
    info = until(lambda: query(prom_port, 'headroom_peer_info{job="headroom",network="dc-east"}'))
    check("headroom_peer_info carries network from NetBird, the exporter's own as exported_network",
          bool(info) and all(r["metric"].get("exported_network") == "typed-by-hand" for r in info), str(info))
    east1 = until(lambda: query(prom_port, 'up{job="headroom",network="dc-east",netbird_peer="router-east-1"}'))
    check("netbird_peer and netbird_router_metric come from NetBird's router",
          len(east1) == 1 and east1[0]["metric"].get("netbird_router_metric") == "100", str(east1))
    routers = until(lambda: query(prom_port, 'headroom_netbird_network_routers{job="headroom_discover"}'))
    got = {r["metric"]["network"]: int(float(r["value"][1])) for r in routers}
    check("headroom_netbird_network_routers counts the enabled routers NetBird lists",
          got == {"dc-east": 2, "dc-west": 1, "lab": 1, "office-lan": 1}, str(got))
    # The rules' join: every enabled router NetBird lists has an up series at its instance_target and network.
    unscraped = query(prom_port, 'label_replace(headroom_netbird_router_enabled{job="headroom_discover"} == 1,'
                                 ' "instance", "$1", "instance_target", "(.*)")'
                                 ' unless on(instance, network, netbird_peer) up{job="headroom"} == 1')
    listed = query(prom_port, 'headroom_netbird_router_enabled{job="headroom_discover"} == 1')
    check("every enabled router joins its scraped target on instance_target, network and netbird_peer",
          len(listed) == 5 and unscraped == [], f"listed {len(listed)}, unscraped {unscraped}")
    status, body = get(f"http://127.0.0.1:{prom_port}/api/v1/targets")
    groups = {t["discoveredLabels"].get("__meta_netbird_peer_groups") for t in json.loads(body)["data"]["activeTargets"]
              if t["labels"].get("job") == "headroom"}
    check("Prometheus received the peers' groups comma-wrapped", ",All,east-routers," in groups, str(groups))
    status, sd = get(f"http://127.0.0.1:{disc_port}/sd")
    status2, metrics = get(f"http://127.0.0.1:{disc_port}/metrics")
    logs = "".join(open(os.path.join(WORK, n + ".log"), errors="replace").read() for n in ("discover", "prometheus"))
    check("the token is in no response and no log", TOKEN not in sd + metrics + logs + once.stdout + once.stderr)


def self_signed(name):
    """A certificate for 127.0.0.1, its own CA, and its key."""
    cert, key = os.path.join(WORK, name + ".crt"), os.path.join(WORK, name + ".key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    return cert, key


def tls_client():
    """A self-hosted management server with its own CA: verified with --netbird.ca-file, refused without."""
    cert, key = self_signed("management")
    token = os.path.join(WORK, "netbird-token")
    port = free_port()
    api = start("standin-tls", ["python3", os.path.join(HERE, "netbird_standin.py"), "--fixtures", FIXTURES,
                                "--token-file", token, "--port", str(port), "--tls-cert", cert, "--tls-key", key])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    base = ["java", "-jar", JAR, "discover", "--once", f"--netbird.token-file={token}",
            f"--netbird.api-url=https://127.0.0.1:{port}"]
    trusted = subprocess.run(base + [f"--netbird.ca-file={cert}"], capture_output=True, text=True, timeout=60)
    check("a self-hosted server's own CA is trusted with --netbird.ca-file",
          trusted.returncode == 0 and "Network dc-east" in trusted.stdout, trusted.stdout + trusted.stderr)
    untrusted = subprocess.run(base, capture_output=True, text=True, timeout=60)
    check("without --netbird.ca-file the unknown CA is refused, naming the setting",
          untrusted.returncode == 1 and "TLS failed" in untrusted.stderr and "--netbird.ca-file" in untrusted.stderr,
          untrusted.stderr)
    api.send_signal(signal.SIGTERM)


try:
    main()
    tls_client()
finally:
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(20)
        except subprocess.TimeoutExpired:
            p.kill()
print(f"discover: {passed} passed, {failed} failed")
sys.exit(0 if failed == 0 else 1)
