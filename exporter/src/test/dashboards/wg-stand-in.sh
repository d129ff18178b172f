#!/bin/sh
# A stand-in `wg` for the dashboard test: `wg show IFACE dump` of a kernel peer with two tunnels whose counters
# grow with the clock, so the census (and the panels that read it) has rates: one tunnel relayed (its endpoint is
# NetBird's loopback relay proxy), one P2P. Shape as wireguard-tools prints it (census/wg-dump-routing-peer.txt).
[ "$1 $3" = "show dump" ] || { echo "wg stand-in: only 'wg show IFACE dump'" >&2; exit 1; }
now=$(date +%s)
printf 'qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqo=\tjiYWlkQPNtlUZ2sowvpjMPGQ67Enujj9ClilK5AXIHQ=\t51820\toff\n'
printf 'bWna2echOV/U1o+fk5i4CoMBD8uw/tTbuqJ7lNpGzjU=\t(none)\t127.0.0.1:40001\t10.99.0.2/32\t%s\t%s\t%s\t25\n' \
  "$now" $((now * 20000)) $((now * 4000000))
printf 'nuaOEMeOXZnJwSkNb983/klv8A76Ew2nXfPOq/DE43E=\t(none)\t203.0.113.9:51820\t10.99.0.3/32\t%s\t%s\t%s\t25\n' \
  "$now" $((now * 10000)) $((now * 1000000))
