#!/usr/bin/env python3
"""Variants of headroom's JVM flags side by side over a long run: CPU and RSS minute by minute.

compare.sh measures one window some minutes after start. What a flag changes in how fast the per-second code
gets compiled, and what that compiled code then costs in memory, shows only over tens of minutes, and two
services started together see the same machine meanwhile. Each variant runs `serve --tunnel.interface lo`
with the packaged launcher's JVM flags, its class-data archive, and the variant's extra flags; all are
scraped over kept-alive connections every --every seconds. Every minute it prints, per variant, CPU seconds
per hour over that minute (utime+stime of the whole process) and VmRSS. Asserts no targets; counts its own
checks and ends with "bench: N passed, M failed".

Usage: exporter/src/bench/side_by_side.py [--minutes 15] [--every 1] [--jar PATH] [--smoke]
           --variant NAME=[FLAGS] [--variant NAME=FLAGS ...]
e.g.   --variant launcher= --variant cts25=-XX:CompileThresholdScaling=0.25 (docs/benchmarks.md, "Tried and not taken")
       --smoke: two variants for one minute (CI runs it so this script cannot rot).
"""
import argparse
import os
import shlex
import socket
import subprocess
import sys
import time

import measure as m

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))


def launcher_opts(jar):
    """The packaged launcher's JAVA_OPTS plus the class-data archive flags, as compare.sh builds them."""
    script = (f'. "{HERE}/lib.sh"; '
              'o="$(sed -n \'s/^: "${JAVA_OPTS:=\\(.*\\)}"$/\\1/p\' "$1/exporter/src/deb/bin/headroom")"; '
              '[ -n "$o" ] || exit 1; echo "$o $(cds_opts "$2" "$o")"')
    out = subprocess.run(["bash", "-c", script, "-", ROOT, jar], capture_output=True, text=True, check=False)
    if out.returncode != 0 or not out.stdout.strip():
        sys.exit("side_by_side.py: cannot read JAVA_OPTS from exporter/src/deb/bin/headroom")
    return out.stdout.split()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--minutes", type=int, default=15)
    p.add_argument("--every", type=int, default=1, help="seconds between scrapes of each variant")
    p.add_argument("--jar", default=os.path.join(ROOT, "exporter", "target", "headroom.jar"))
    p.add_argument("--variant", action="append", default=[], help="NAME=extra JVM flags (may be empty)")
    p.add_argument("--smoke", action="store_true")
    a = p.parse_args()
    if a.smoke:
        a.minutes, a.variant = 1, a.variant or ["launcher=", "cts25=-XX:CompileThresholdScaling=0.25"]
    if not a.variant or any("=" not in v for v in a.variant):
        sys.exit("side_by_side.py: give each variant as --variant NAME=FLAGS (FLAGS may be empty)")
    if a.minutes < 1 or a.every < 1:
        sys.exit("side_by_side.py: --minutes and --every must be at least 1")
    if not os.path.isfile(a.jar):
        sys.exit(f"side_by_side.py: no {a.jar}: build it first with 'mvn -q -B -o package -Dmaven.test.skip=true'")
    base = launcher_opts(a.jar)
    checks, procs, logs = [], {}, {}
    try:
        for spec in a.variant:
            name, extra = spec.split("=", 1)
            port = free_port()
            logs[name] = open(f"/tmp/headroom-side-by-side-{name}.log", "w")
            cmd = ["java"] + base + shlex.split(extra) + ["-jar", a.jar, "serve",
                                                         f"--web.listen-address=127.0.0.1:{port}", "--tunnel.interface=lo"]
            procs[name] = (subprocess.Popen(cmd, stdout=logs[name], stderr=subprocess.STDOUT), port)
        print(f"# {len(procs)} variants side by side, {os.cpu_count()} cores; launcher flags: {' '.join(base)}")
        for spec in a.variant:
            print(f"#   {spec.split('=', 1)[0]}: extra flags '{spec.split('=', 1)[1]}'")
        deadline = time.monotonic() + 30
        ready = set()
        while time.monotonic() < deadline and len(ready) < len(procs):
            for name, (proc, port) in procs.items():
                if name not in ready and proc.poll() is None:
                    try:
                        if m.get(port, "/-/ready", timeout=1.0)[0] == 200:
                            ready.add(name)
                    except OSError:
                        pass
            time.sleep(0.1)
        checks.append(("every variant answered ready within 30 s", len(ready) == len(procs), sorted(set(procs) - ready)))
        if len(ready) < len(procs):
            return m.print_checks(checks)
        scrapers = {n: m.Scraper(port, "/metrics") for n, (_, port) in procs.items()}
        failed = {n: 0 for n in procs}
        t0 = time.monotonic()
        last_t, last = t0, {n: m.cpu_ticks(pr.pid) for n, (pr, _) in procs.items()}
        print("| minute | " + " | ".join(f"{n} CPU s/h | {n} RSS MiB" for n in procs) + " |")
        print("|---|" + "---|---|" * len(procs))
        for i in range(1, a.minutes * 60 + 1):
            if (i - 1) % a.every == 0:
                for n, sc in scrapers.items():
                    try:
                        if sc.get()[0] != 200:
                            failed[n] += 1
                    except OSError:
                        failed[n] += 1
            time.sleep(max(0.0, t0 + i - time.monotonic()))
            if i % 60 == 0:
                now, cells = time.monotonic(), []
                for n, (pr, _) in procs.items():
                    if pr.poll() is not None:
                        cells += ["exited", "-"]
                        continue
                    c = m.cpu_ticks(pr.pid)
                    cells += [f"{(c - last[n]) / m.CLK_TCK / (now - last_t) * 3600:.1f}",
                              f"{m.status_kib(pr.pid, 'VmRSS') / 1024:.1f}"]
                    last[n] = c
                last_t = now
                print(f"| {i // 60} | " + " | ".join(cells) + " |", flush=True)
        for n, (pr, _) in procs.items():
            checks.append((f"{n} ran the whole run and answered every scrape", pr.poll() is None and failed[n] == 0,
                           f"exit {pr.poll()}, {failed[n]} failed scrapes"))
        return m.print_checks(checks)
    finally:
        for pr, _ in procs.values():
            pr.terminate()
        for pr, _ in procs.values():
            try:
                pr.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pr.kill()


if __name__ == "__main__":
    sys.exit(main())
