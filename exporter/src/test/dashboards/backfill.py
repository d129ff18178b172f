#!/usr/bin/env python3
"""Writes two days of a Network's recorded daily peak as OpenMetrics, for `promtool tsdb create-blocks-from
openmetrics`: the forecast panel draws only with a day of history, which a test cannot wait for.

Usage: backfill.py OUT.om NETWORK
The series is the one the rule network:headroom_tunnel_bytes:max_over_time1d_rate5m records, with the same
labels, so the live rule continues it. A point every 5 minutes from 48 h ago to 10 minutes ago, rising
(download 6 to 9 MB/s, upload 2 to 3 MB/s) so that the straight line has a slope.
"""
import sys
import time

out, network = sys.argv[1], sys.argv[2]
now = int(time.time())
start, end, step = now - 48 * 3600, now - 600, 300
name = "network:headroom_tunnel_bytes:max_over_time1d_rate5m"
with open(out, "w") as f:
    f.write(f"# TYPE {name} gauge\n")
    for direction, lo, hi in (("download", 6e6, 9e6), ("upload", 2e6, 3e6)):
        for t in range(start, end + 1, step):
            v = lo + (hi - lo) * (t - start) / (end - start)
            f.write(f'{name}{{direction="{direction}",network="{network}"}} {v:.1f} {t}\n')
    f.write("# EOF\n")
