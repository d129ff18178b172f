#!/usr/bin/env python3
"""Measurement half of compare.sh (stdlib only). compare.sh starts and ends the processes; this reads them.

Usage: measure.py wait-ready --url URL --start-ns NS --pid PID --out FILE
       measure.py run --hr-pid PID --hr-port PORT ... (see compare.sh)
"""
import argparse
import http.client
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")
HEADROOM_SCRAPE_EVERY = 15  # seconds, a usual Prometheus scrape interval; headroom samples itself each second


class Scraper:
    """One target's scrapes over a kept-alive connection, as Prometheus (since 2.0) and vmagent scrape: a
    new connection only after an error or the server's close. `reconnect=True` opens one per scrape instead,
    as a scraper without keep-alive does."""

    def __init__(self, port, path, reconnect=False, timeout=5.0):
        self.port, self.path, self.reconnect, self.timeout = port, path, reconnect, timeout
        self.conn = None
        self.opened = 0  # connections opened, so a run can show its scrapes reused one

    def get(self):
        """One GET; returns (status, body bytes). Raises OSError or HTTPException, after closing."""
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            self.opened += 1
        try:
            self.conn.request("GET", self.path)
            r = self.conn.getresponse()
            body = r.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        if self.reconnect or r.will_close:
            self.close()
        return r.status, body

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def get(port, path, timeout=5.0):
    """One HTTP GET on a connection of its own; returns (status, body bytes)."""
    return Scraper(port, path, reconnect=True, timeout=timeout).get()


def cpu_ticks(pid):
    """utime + stime of the whole process (all threads: JIT, GC, HTTP, sampler), in clock ticks."""
    with open(f"/proc/{pid}/stat") as f:
        rest = f.read().rsplit(")", 1)[1].split()
    return int(rest[11]) + int(rest[12])  # fields 14 and 15 of proc(5); rest[0] is field 3


def thread_ticks(pid):
    """{thread name: utime+stime} over /proc/PID/task; same-named threads (Jetty's qtp...) are summed by prefix."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                raw = f.read()
        except FileNotFoundError:
            continue
        name = raw[raw.index("(") + 1:raw.rindex(")")]
        name = re.sub(r"[-#]?\d+$", "", name) or name  # qtp123-45 -> qtp123, C1 CompilerThre0 -> ...
        rest = raw.rsplit(")", 1)[1].split()
        out[name] = out.get(name, 0) + int(rest[11]) + int(rest[12])
    return out


def status_kib(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise KeyError(f"/proc/{pid}/status has no {key}")


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def wait_ready(a):
    port = int(a.url.split(":")[2].split("/")[0])
    path = "/" + a.url.split("/", 3)[3]
    deadline = time.monotonic() + 60
    result = "fail: not ready within 60 s"
    while time.monotonic() < deadline:
        if not alive(a.pid):
            result = "fail: process exited before it was ready"
            break
        try:
            status, _ = get(port, path, timeout=1.0)
            if status == 200:
                result = "%.3f" % ((time.time_ns() - a.start_ns) / 1e9)
                break
        except OSError:
            pass
        time.sleep(0.01)
    with open(a.out, "w") as f:
        f.write(result)
    return 0 if not result.startswith("fail") else 1


UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3}


def to_ms(s):
    m = re.fullmatch(r"([0-9.]+)(us|ms|s|m)", s)
    if not m:
        raise ValueError(f"unreadable wrk latency '{s}'")
    return float(m.group(1)) * UNITS[m.group(2)]


def parse_wrk(out):
    r = {}
    for q in ("50", "75", "90", "99"):
        m = re.search(rf"^\s+{q}%\s+(\S+)\s*$", out, re.M)
        if m:
            r[f"p{q}_ms"] = to_ms(m.group(1))
    m = re.search(r"(\d+) requests in", out)
    r["requests"] = int(m.group(1)) if m else 0
    m = re.search(r"Requests/sec:\s+([0-9.]+)", out)
    r["rps"] = float(m.group(1)) if m else 0.0
    m = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    r["non_2xx"] = int(m.group(1)) if m else 0
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    r["socket_errors"] = sum(int(x) for x in m.groups()) if m else 0
    return r


def run_wrk(args, port, path, pid, warmup_s, dur_s):
    url = f"http://127.0.0.1:{port}{path}"
    base = ["wrk"] + args.split()
    if warmup_s > 0:
        subprocess.run(base + [f"-d{warmup_s}s", url], capture_output=True, text=True, check=False)
    before = cpu_ticks(pid)
    p = subprocess.run(base + [f"-d{dur_s}s", "--latency", url], capture_output=True, text=True, check=False)
    after = cpu_ticks(pid)
    r = parse_wrk(p.stdout)
    r["rc"] = p.returncode
    r["cpu_ms_per_1000_scrapes"] = (
        (after - before) / CLK_TCK * 1000 / r["requests"] * 1000 if r["requests"] else None)
    return r


def read_ready(path):
    try:
        with open(path) as f:
            v = f.read().strip()
    except FileNotFoundError:
        return None, "fail: never polled"
    try:
        return float(v), v
    except ValueError:
        return None, v


def version_of(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=20, check=False)
        return (p.stdout + p.stderr).strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def window(procs, duration, hr_every, bodies, thread_pid=None, reconnect=False):
    """One measured window: node_exporter scraped every second, headroom every hr_every seconds, each over
    its own kept-alive connection (see Scraper); returns {name: {cpu_s_per_hour, rss_steady_mib, scrapes_ok,
    scrapes_failed, window_s}} for the processes alive at its end (and headroom's CPU by thread when
    thread_pid is given)."""
    scrapers = {n: Scraper(procs[n][1], procs[n][2], reconnect) for n in procs}
    try:
        return _window(procs, scrapers, duration, hr_every, bodies, thread_pid)
    finally:
        for sc in scrapers.values():
            sc.close()


def _window(procs, scrapers, duration, hr_every, bodies, thread_pid):
    t0 = time.monotonic()
    ticks0 = {n: cpu_ticks(procs[n][0]) for n in procs}
    threads0 = thread_ticks(thread_pid) if thread_pid else None
    rss = {n: [] for n in procs}
    scrapes = {n: [0, 0] for n in procs}  # ok, failed
    for i in range(duration):
        due = t0 + i
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        targets = [n for n in procs if n != "headroom" or i % hr_every == 0]
        for n in targets:
            try:
                st, body = scrapers[n].get()
                scrapes[n][0 if st == 200 else 1] += 1
                bodies[n] = body
            except (OSError, http.client.HTTPException):
                scrapes[n][1] += 1
        for n in procs:
            if alive(procs[n][0]):
                rss[n].append(status_kib(procs[n][0], "VmRSS"))
    # The window closes on a whole second after the last scrape, so each process had `duration` seconds.
    end = t0 + duration
    if end > time.monotonic():
        time.sleep(end - time.monotonic())
    t1 = time.monotonic()
    out = {}
    for n in procs:
        pid = procs[n][0]
        if not alive(pid) or not rss[n]:
            continue
        dt = cpu_ticks(pid) - ticks0[n]
        out[n] = {"window_s": t1 - t0, "cpu_s_per_hour": dt / CLK_TCK / (t1 - t0) * 3600,
                  "rss_steady_mib": statistics.median(rss[n]) / 1024,
                  "scrapes_ok": scrapes[n][0], "scrapes_failed": scrapes[n][1], "hr_every_s": hr_every,
                  "connections": scrapers[n].opened}
    if thread_pid and alive(thread_pid) and "headroom" in out:
        threads1 = thread_ticks(thread_pid)
        out["headroom"]["threads_cpu_s_per_hour"] = dict(sorted(
            ((k, (v - threads0.get(k, 0)) / CLK_TCK / (t1 - t0) * 3600) for k, v in threads1.items()),
            key=lambda kv: -kv[1]))
    return out


def scrape_from(address, port, path, stop, counts, lock):
    """One keep-alive connection from a loopback source address, scraping until `stop` is set."""
    import http.client
    ok = non_2xx = errors = 0
    conn = None
    while not stop.is_set():
        try:
            if conn is None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(address, 0))
            conn.request("GET", path)
            r = conn.getresponse()
            r.read()
            if 200 <= r.status < 300:
                ok += 1
            else:
                non_2xx += 1
            if r.getheader("connection", "").lower() == "close":
                conn.close()
                conn = None
        except (OSError, http.client.HTTPException):
            errors += 1
            if conn is not None:
                conn.close()
            conn = None
    if conn is not None:
        conn.close()
    with lock:
        counts["requests"] += ok + non_2xx
        counts["non_2xx"] += non_2xx
        counts["socket_errors"] += errors


def rss_under_connections(pid, port, path, conns, seconds, per_address=4):
    """VmRSS (median and highest, sampled every 100 ms) while `conns` keep-alive connections scrape.

    headroom caps requests in flight per client address (4), so the connections come from
    conns/per_address loopback source addresses (127.0.0.2, .3, ...): 64 connections are 16 clients of 4,
    each within the cap, instead of one client 16 times over it. wrk cannot choose a source address;
    Python's http.client can, and only RSS is measured here, not latency.
    """
    import threading
    stop, lock = threading.Event(), threading.Lock()
    counts = {"requests": 0, "non_2xx": 0, "socket_errors": 0}
    addresses = [f"127.0.0.{2 + i // per_address}" for i in range(conns)]
    threads = [threading.Thread(target=scrape_from, args=(addr, port, path, stop, counts, lock), daemon=True)
               for addr in addresses]
    for t in threads:
        t.start()
    samples = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if alive(pid):
            samples.append(status_kib(pid, "VmRSS"))
        time.sleep(0.1)
    stop.set()
    for t in threads:
        t.join(timeout=15)
    return {"rc": 0, "requests": counts["requests"], "non_2xx": counts["non_2xx"],
            "socket_errors": counts["socket_errors"], "clients": len(set(addresses)),
            "rss_median_mib": statistics.median(samples) / 1024 if samples else None,
            "rss_max_mib": max(samples) / 1024 if samples else None}


def run(a):
    checks = []

    def check(name, ok, detail=""):
        checks.append((name, bool(ok), detail))

    res = {"headroom": {}, "node_exporter": {}}
    procs = {"headroom": (a.hr_pid, a.hr_port, "/metrics"), "node_exporter": (a.ne_pid, a.ne_port, "/metrics")}
    for name, ready_file in (("headroom", a.hr_ready), ("node_exporter", a.ne_ready)):
        secs, raw = read_ready(ready_file)
        res[name]["ready_s"] = secs
        check(f"{name} started and answered ready", secs is not None, raw)
    if not all(res[n]["ready_s"] is not None for n in res):
        return report(a, res, checks)

    # The warm-up scrapes headroom as deployed (every 15 s, as Prometheus does from its start), so a long one
    # also warms the scrape path; its figures are dropped.
    window({"headroom": procs["headroom"]}, a.warmup, HEADROOM_SCRAPE_EVERY, {}, reconnect=a.new_connection_per_scrape)
    # Two windows of the same length, node_exporter scraped every second in both: headroom scraped every 15 s
    # as deployed, then every second like node_exporter. Each ratio compares processes in the same window.
    bodies = {}
    for mode, every in (("deployed", HEADROOM_SCRAPE_EVERY), ("each_second", 1)):
        if mode == "each_second" and a.each_second_warmup:
            # A service scraped each second runs its scrape path every second from its start: C1 compiles it
            # after about 200 scrapes. Without this the window would measure that first compilation instead.
            window({"headroom": procs["headroom"]}, a.each_second_warmup, 1, {}, reconnect=a.new_connection_per_scrape)
        w = window(procs, a.duration, every, bodies, a.hr_pid, a.new_connection_per_scrape)
        for n in procs:
            if n not in w:
                check(f"{n} still running after the {mode} window", False)
                continue
            res[n].setdefault("windows", {})[mode] = w[n]
            check(f"{n} every {mode} window scrape answered 200", w[n]["scrapes_ok"] > 0 and w[n]["scrapes_failed"] == 0,
                  f"{w[n]['scrapes_ok']} ok, {w[n]['scrapes_failed']} failed")
            # Kept alive: one connection for the window (the server closing it would show as more).
            want = w[n]["scrapes_ok"] if a.new_connection_per_scrape else 1
            check(f"{n} {mode} window scrapes used {'a new connection each' if a.new_connection_per_scrape else 'one kept-alive connection'}",
                  w[n]["connections"] == want, f"{w[n]['connections']} connections for {w[n]['scrapes_ok']} scrapes")
        if mode == "deployed" and "threads_cpu_s_per_hour" in w.get("headroom", {}):
            res["headroom"]["threads_cpu_s_per_hour"] = w["headroom"].pop("threads_cpu_s_per_hour")
    for n in procs:
        pid = procs[n][0]
        ok_alive = alive(pid)
        check(f"{n} still running after the measured windows", ok_alive)
        if not ok_alive or "deployed" not in res[n].get("windows", {}):
            continue
        r = res[n]
        d = r["windows"]["deployed"]
        r["window_s"] = d["window_s"]
        r["cpu_s_per_hour"] = d["cpu_s_per_hour"]
        r["rss_steady_mib"] = d["rss_steady_mib"]
        r["rss_anon_mib"] = status_kib(pid, "RssAnon") / 1024
        r["rss_file_mib"] = status_kib(pid, "RssFile") / 1024
        r["body_bytes"] = len(bodies.get(n, b""))
        r["series"] = sum(1 for l in bodies.get(n, b"").decode("utf-8", "replace").splitlines()
                          if l and not l.startswith("#"))
        check(f"{n} CPU and RSS measured", r["cpu_s_per_hour"] >= 0 and r["rss_steady_mib"] > 0)
    hb = bodies.get("headroom", b"")
    nb = bodies.get("node_exporter", b"")
    check("headroom /metrics has headroom_samples_total and per-core CPU",
          b"headroom_samples_total" in hb and b"headroom_cpu_seconds_total{" in hb)
    check("node_exporter /metrics has node_cpu_seconds_total and node_network_receive_bytes_total",
          b"node_cpu_seconds_total{" in nb and b"node_network_receive_bytes_total{" in nb)

    # wrk runs one exporter at a time, in rounds whose order alternates, so a burst of load from elsewhere on
    # a noisy machine lands on both; each figure is the median over rounds.
    runs = {n: [] for n in procs}
    for rnd in range(a.wrk_rounds):
        order = list(procs) if rnd % 2 == 0 else list(reversed(list(procs)))
        for n in order:
            pid, port, path = procs[n]
            if alive(pid):
                runs[n].append(run_wrk(a.wrk_args, port, path, pid, a.wrk_warmup if rnd == 0 else 0, a.wrk_duration))
    for n in procs:
        rs = runs[n]
        ok = bool(rs) and all(w["rc"] == 0 and "p50_ms" in w and "p99_ms" in w and w["requests"] > 0
                              and w["non_2xx"] == 0 and w["socket_errors"] == 0 for w in rs)
        detail = "; ".join(f"rc {w['rc']}, {w['requests']} requests, {w['non_2xx']} non-2xx, "
                           f"{w['socket_errors']} socket errors" for w in rs)
        check(f"{n} scrape latency measured under wrk ({len(rs)} rounds)", ok, detail)
        if ok:
            res[n]["wrk_rounds"] = rs
            res[n]["wrk"] = {k: statistics.median(w[k] for w in rs)
                             for k in ("p50_ms", "p99_ms", "rps", "cpu_ms_per_1000_scrapes")}
    if a.conns > 0 and alive(a.hr_pid):
        c = rss_under_connections(a.hr_pid, a.hr_port, "/metrics", a.conns, a.conns_duration)
        res["headroom"]["conns"] = c
        # Spread over clients of 4 connections each, within the per-client cap: every request is answered,
        # and a 503 (the cap's answer) would mean the spread did not work.
        check(f"headroom answered {a.conns} connections from {c['clients']} addresses scraping",
              c["rc"] == 0 and c["requests"] > 0 and c["non_2xx"] == 0
              and c["socket_errors"] == 0 and c["non_2xx"] < c["requests"] and c["rss_max_mib"] is not None,
              f"rc {c['rc']}, {c['requests']} requests, {c['non_2xx']} non-2xx, {c['socket_errors']} socket errors")
    if a.nmt and alive(a.hr_pid):
        p = subprocess.run(["jcmd", str(a.hr_pid), "VM.native_memory", "summary"],
                           capture_output=True, text=True, timeout=30, check=False)
        res["headroom"]["nmt"] = p.stdout
    for n in procs:
        if alive(procs[n][0]):
            res[n]["rss_peak_mib"] = status_kib(procs[n][0], "VmHWM") / 1024
            res[n]["rss_end_mib"] = status_kib(procs[n][0], "VmRSS") / 1024
    return report(a, res, checks)


def census(a):
    """One row of the census table: headroom with `tunnels` synthetic tunnels, deployed mode, next to
    node_exporter scraped each second in the same window. Writes JSON to --out; exit 1 if a check failed."""
    procs = {"headroom": (a.hr_pid, a.hr_port, "/metrics"), "node_exporter": (a.ne_pid, a.ne_port, "/metrics")}
    time.sleep(a.warmup)
    bodies = {}
    w = window(procs, a.duration, HEADROOM_SCRAPE_EVERY, bodies)
    text = bodies.get("headroom", b"").decode("utf-8", "replace")
    m = re.search(r'^headroom_tunnels\{state="total"\} (\S+)$', text, re.M)
    seen = float(m.group(1)) if m else None
    ok = "headroom" in w and "node_exporter" in w and w["headroom"]["scrapes_failed"] == 0 and seen == a.tunnels
    row = {"tunnels": a.tunnels, "seen": seen, "ok": ok, **{n: w.get(n) for n in procs}}
    with open(a.out, "w") as f:
        json.dump(row, f)
    print(f"census {a.tunnels}: headroom counted {seen} tunnels; " + ("ok" if ok else "FAIL"))
    return 0 if ok else 1


def census_table(a):
    rows = []
    for path in a.files:
        with open(path) as f:
            rows.append(json.load(f))
    base = next((r for r in rows if r["tunnels"] == 0 and r.get("headroom")), None)
    print("| tunnels in the census | headroom CPU s/h | node_exporter CPU s/h (same window) | ratio | "
          "headroom steady RSS (MiB) | RSS added (MiB) |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        h, n = r.get("headroom") or {}, r.get("node_exporter") or {}
        hc, nc, rss = h.get("cpu_s_per_hour"), n.get("cpu_s_per_hour"), h.get("rss_steady_mib")
        ratio = "%.2f" % (hc / nc) if hc is not None and nc else "-"
        added = "%.1f" % (rss - base["headroom"]["rss_steady_mib"]) if base and rss is not None else "-"
        print(f"| {r['tunnels']:,} | {fmt(hc)} | {fmt(nc)} | {ratio} | {fmt(rss)} | {added} |")
    return 0 if all(r["ok"] for r in rows) else 1


def histogram(text, name):
    """{le: cumulative count} of an unlabelled classic histogram in exposition text."""
    out = {}
    for m in re.finditer(r'^%s_bucket\{le="([^"]+)"\} (\S+)$' % re.escape(name), text, re.M):
        out[float(m.group(1))] = float(m.group(2))
    return out


def series(text, name):
    m = re.search(r"^%s (\S+)$" % re.escape(name), text, re.M)
    return float(m.group(1)) if m else None


def cpu_busy():
    """(busy, total) jiffies of all cores from /proc/stat (iowait counts as idle)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]
    return sum(v[:8]) - idle, sum(v[:8])


def lateness(a):
    """Lateness of headroom's sampler over a window in which `--stress` holds every core."""
    checks = []
    st, before = get(a.port, "/metrics")
    b0 = cpu_busy()
    t0 = time.monotonic()
    stress = subprocess.run(a.stress.split(), capture_output=True, text=True, check=False)
    t1 = time.monotonic()
    b1 = cpu_busy()
    time.sleep(1.5)  # the sample due at the end of the window is published
    st2, after = get(a.port, "/metrics")
    checks.append(("stress-ng ran for the window", stress.returncode == 0 and t1 - t0 >= a.duration * 0.9,
                   f"rc {stress.returncode}, {t1 - t0:.1f} s: {stress.stderr.strip()[-200:]}"))
    tb, ta = before.decode(), after.decode()
    h0 = histogram(tb, "headroom_sample_lateness_seconds")
    h1 = histogram(ta, "headroom_sample_lateness_seconds")
    ok = st == 200 and st2 == 200 and h0 and set(h0) == set(h1)
    checks.append(("headroom served its lateness histogram before and after", ok))
    res = {}
    if ok:
        d = {le: h1[le] - h0[le] for le in sorted(h1)}
        n = d[float("inf")]
        p99 = next((le for le, c in d.items() if n and c >= 0.99 * n), None)
        res = {
            "window_s": t1 - t0,
            "cores_busy_ratio": (b1[0] - b0[0]) / max(1, b1[1] - b0[1]),
            "samples": n,
            "samples_total_delta": series(ta, "headroom_samples_total") - series(tb, "headroom_samples_total"),
            "skipped": series(ta, "headroom_samples_skipped_total") - series(tb, "headroom_samples_skipped_total"),
            "p99_bucket_s": p99,
            "share_within_100ms": d[0.1] / n if n else None,
            "mean_lateness_ms": ((series(ta, "headroom_sample_lateness_seconds_sum")
                                  - series(tb, "headroom_sample_lateness_seconds_sum")) / n * 1000) if n else None,
            "buckets": {("+Inf" if le == float("inf") else le): c for le, c in d.items()},
        }
        checks.append(("samples were taken under stress", n >= a.duration * 0.5, f"{n} samples"))
    print(f"# headroom sampler lateness with every core held by '{a.stress}' ({os.cpu_count()} cores, "
          f"{platform.release()}), headroom at nice {a.nice}; load average {open('/proc/loadavg').read().split()[0:3]}")
    print()
    print("| measure | value |")
    print("|---|---|")
    for label, key in (("stressed window (s)", "window_s"), ("cores busy over the window (ratio)", "cores_busy_ratio"),
                       ("samples taken in the window", "samples"), ("samples skipped (counted)", "skipped"),
                       ("p99 lateness at most (s, histogram bucket)", "p99_bucket_s"),
                       ("share of samples no later than 100 ms", "share_within_100ms"),
                       ("mean lateness (ms)", "mean_lateness_ms")):
        print(f"| {label} | {fmt(res.get(key))} |")
    print()
    if res:
        print("# lateness per bucket over the window (cumulative): " + ", ".join(
            f"le={k}: {int(v)}" for k, v in res["buckets"].items()))
    return print_checks(checks)


def fmt(v, unit=""):
    if v is None:
        return "-"
    if isinstance(v, float):
        s = "%.3f" % v if abs(v) < 10 else "%.1f" % v
    else:
        s = str(v)
    return s + unit


def report(a, res, checks):
    h, n = res["headroom"], res["node_exporter"]
    hw, nw = h.get("wrk", {}), n.get("wrk", {})
    hwin, nwin = h.get("windows", {}), n.get("windows", {})
    hc = h.get("conns", {})
    rows = [
        ("ready after start (s)", h.get("ready_s"), n.get("ready_s"), "headroom <= 0.8 s"),
        (f"CPU s per hour: headroom deployed (sampling 1 s, scraped every {HEADROOM_SCRAPE_EVERY} s), "
         "node_exporter scraped each second", hwin.get("deployed", {}).get("cpu_s_per_hour"),
         nwin.get("deployed", {}).get("cpu_s_per_hour"), "ratio <= 0.5"),
        ("CPU s per hour: both scraped each second", hwin.get("each_second", {}).get("cpu_s_per_hour"),
         nwin.get("each_second", {}).get("cpu_s_per_hour"), "ratio <= 1.0"),
        ("steady RSS (MiB, median VmRSS, deployed window)", h.get("rss_steady_mib"), n.get("rss_steady_mib"), "headroom <= 64"),
        ("  of which anonymous (MiB, RssAnon, end of window)", h.get("rss_anon_mib"), n.get("rss_anon_mib"), ""),
        ("  of which file-backed (MiB, RssFile: libjvm, jar, CDS)", h.get("rss_file_mib"), n.get("rss_file_mib"), ""),
        ("peak RSS (MiB, VmHWM)", h.get("rss_peak_mib"), n.get("rss_peak_mib"), ""),
        (f"RSS while {a.conns} connections scrape, 4 per address (MiB, median / highest)",
         "%s / %s" % (fmt(hc.get("rss_median_mib")), fmt(hc.get("rss_max_mib"))) if hc else None, None,
         f"headroom <= 72"),
        ("scrape p50 under wrk (ms)", hw.get("p50_ms"), nw.get("p50_ms"), ""),
        ("scrape p99 under wrk (ms)", hw.get("p99_ms"), nw.get("p99_ms"), "ratio <= 1"),
        ("scrapes/s under wrk", hw.get("rps"), nw.get("rps"), ""),
        ("CPU ms per 1000 scrapes", hw.get("cpu_ms_per_1000_scrapes"), nw.get("cpu_ms_per_1000_scrapes"), ""),
        ("/metrics bytes", h.get("body_bytes"), n.get("body_bytes"), ""),
        ("/metrics series", h.get("series"), n.get("series"), ""),
    ]
    print(f"# headroom vs node_exporter, {os.cpu_count()} cores, {platform.release()}, "
          f"window {a.duration} s after {a.warmup} s warm-up, "
          f"wrk {a.wrk_args} -d{a.wrk_duration}s --latency x {a.wrk_rounds} alternating rounds (median)")
    print(f"# CPU windows: {a.duration} s deployed (headroom scraped every {HEADROOM_SCRAPE_EVERY} s), then "
          f"{a.each_second_warmup} s of headroom scraped each second unmeasured, then {a.duration} s "
          "with headroom scraped each second; node_exporter scraped each second in both windows; "
          + ("a new connection for each scrape" if a.new_connection_per_scrape
             else "each over one kept-alive connection, as Prometheus and vmagent scrape"))
    print(f"# headroom: java {a.java_opts} -jar {os.path.relpath(a.jar)} serve --tunnel.interface={a.tunnel}")
    print(f"# node_exporter: {version_of([a.node_exporter, '--version'])}; "
          "--collector.disable-defaults --collector.cpu --collector.netdev --collector.netclass")
    print(f"# load average at the end {open('/proc/loadavg').read().split()[0:3]}")
    print()
    print("| measure | headroom | node_exporter | headroom / node_exporter | target |")
    print("|---|---|---|---|---|")
    for label, hv, nv, target in rows:
        ratio = "%.2f" % (hv / nv) if isinstance(hv, (int, float)) and isinstance(nv, (int, float)) and nv else "-"
        print(f"| {label} | {fmt(hv)} | {fmt(nv)} | {ratio} | {target} |")
    print()
    th = h.get("threads_cpu_s_per_hour")
    if th:
        print("# headroom CPU by thread, s per hour over the window: " + ", ".join(
            f"{k} {v:.1f}" for k, v in list(th.items())[:8] if v > 0))
    if h.get("nmt"):
        print("# headroom native memory (jcmd VM.native_memory summary, committed):")
        for line in h["nmt"].splitlines():
            m = re.match(r"^[-\s]*(Total|[A-Z][A-Za-z ]+?):? \(?reserved=\d+KB, committed=(\d+)KB", line)
            if m and int(m.group(2)) >= 512:
                print(f"#   {m.group(1).strip()}: {int(m.group(2)) / 1024:.1f} MiB")
    print()
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"args": vars(a), "results": res}, f, indent=2)
    return print_checks(checks)


def print_checks(checks):
    """Prints `ok`/`FAIL` for each (name, ok[, detail]) and then `bench: N passed, M failed`; returns the exit
    status (1 when one failed)."""
    failed = 0
    for name, ok, *detail in checks:
        print(f"{'ok  ' if ok else 'FAIL'} {name}" + (f" ({detail[0]})" if detail and detail[0] and not ok else ""))
        failed += 0 if ok else 1
    print(f"bench: {len(checks) - failed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("wait-ready")
    w.add_argument("--url", required=True)
    w.add_argument("--start-ns", type=int, required=True)
    w.add_argument("--pid", type=int, required=True)
    w.add_argument("--out", required=True)
    r = sub.add_parser("run")
    for k in ("hr-pid", "hr-port", "ne-pid", "ne-port", "duration", "warmup", "wrk-duration", "wrk-warmup",
              "wrk-rounds"):
        r.add_argument("--" + k, type=int, required=True)
    for k in ("hr-ready", "ne-ready", "wrk-args", "java-opts", "tunnel", "jar", "node-exporter"):
        r.add_argument("--" + k, required=True)
    r.add_argument("--json")
    r.add_argument("--nmt", action="store_true")
    r.add_argument("--conns", type=int, default=64)
    r.add_argument("--conns-duration", type=int, default=10)
    r.add_argument("--new-connection-per-scrape", action="store_true")
    r.add_argument("--each-second-warmup", type=int, default=0)
    c = sub.add_parser("census")
    for k in ("hr-pid", "hr-port", "ne-pid", "ne-port", "duration", "warmup", "tunnels"):
        c.add_argument("--" + k, type=int, required=True)
    c.add_argument("--out", required=True)
    l = sub.add_parser("lateness")
    for k in ("pid", "port", "duration", "nice"):
        l.add_argument("--" + k, type=int, required=True)
    l.add_argument("--stress", required=True)
    t = sub.add_parser("census-table")
    t.add_argument("files", nargs="+")
    a = p.parse_args()
    if a.cmd == "census":
        return census(a)
    if a.cmd == "lateness":
        return lateness(a)
    if a.cmd == "census-table":
        return census_table(a)
    return wait_ready(a) if a.cmd == "wait-ready" else run(a)


if __name__ == "__main__":
    sys.exit(main())
