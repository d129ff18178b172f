#!/usr/bin/env bash
# Checks systemd/headroom.service without a running systemd: `systemd-analyze verify` must be clean and
# `systemd-analyze security --offline=true` must score <= 2.0 (lower is safer), for the unit alone and
# with the optional tunnel-census drop-in. Prints the scores; exits non-zero on any failure.
# Usage: exporter/src/test/packaging/test-unit.sh   (from anywhere; needs the systemd package)
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../../.." && pwd)"
unit="$repo/systemd/headroom.service"
dropin="$repo/systemd/tunnel-census.conf"
max="2.0"
passed=0
failed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
bad() { echo "FAIL $*"; failed=$((failed + 1)); }

if ! command -v systemd-analyze >/dev/null; then
  echo "FAIL systemd-analyze not found: apt-get install --no-install-recommends systemd"
  echo "unit: 0 passed, 1 failed"
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# verify checks that ExecStart's program exists. Before the package is installed, point it at a stub
# in a scratch copy; the ExecStart line itself is checked separately below.
stage() { # $1: name of the staged unit, $2...: extra fragments appended (drop-in semantics)
  local name="$1"; shift
  mkdir -p "$work/$name"
  if [ -x /usr/bin/headroom ]; then
    cat "$unit" "$@" > "$work/$name/headroom.service"
  else
    printf '#!/bin/sh\n' > "$work/headroom-stub"; chmod +x "$work/headroom-stub"
    sed "s|/usr/bin/headroom |$work/headroom-stub |" "$unit" | cat - "$@" > "$work/$name/headroom.service"
  fi
  echo "$work/$name/headroom.service"
}

grep -qx 'ExecStart=/usr/bin/headroom serve --config.file=/etc/headroom/headroom.yml $ARGS' "$unit" \
  && ok "ExecStart runs /usr/bin/headroom serve with the config file and \$ARGS" \
  || bad "ExecStart line changed"
grep -q '^MemoryDenyWriteExecute=yes' "$unit" \
  && bad "MemoryDenyWriteExecute=yes breaks the JVM's JIT" \
  || ok "no MemoryDenyWriteExecute (the JIT needs W+X memory)"
grep -q '^EnvironmentFile=-/etc/default/headroom$' "$unit" \
  && ok "optional EnvironmentFile /etc/default/headroom" || bad "EnvironmentFile missing or not optional"

for variant in base census; do
  if [ "$variant" = base ]; then f="$(stage base)"; else f="$(stage census "$dropin")"; fi
  out="$(cd "$(dirname "$f")" && systemd-analyze verify "$f" 2>&1)"
  if [ $? -eq 0 ] && [ -z "$out" ]; then ok "$variant: systemd-analyze verify clean"; else bad "$variant: verify: $out"; fi

  sec="$(cd "$(dirname "$f")" && systemd-analyze security --offline=true "$f" 2>&1)"
  score="$(printf '%s\n' "$sec" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')"
  if [ -z "$score" ]; then
    bad "$variant: no exposure score in: $sec"
    continue
  fi
  echo "     $variant: exposure $score (limit $max)"
  printf '%s\n' "$sec" | grep '✗' | sed 's/^/       /'
  if awk -v s="$score" -v m="$max" 'BEGIN { exit !(s <= m) }'; then
    ok "$variant: exposure $score <= $max"
  else
    bad "$variant: exposure $score > $max"
  fi
done

# headroom-discover.service: the fleet's discovery, next to Prometheus; the token only through LoadCredential=.
dunit="$repo/systemd/headroom-discover.service"
grep -qx 'ExecStart=/usr/bin/headroom discover --netbird.token-file=%d/netbird-token $ARGS' "$dunit" \
  && ok "discover: ExecStart reads the token from the credentials directory" || bad "discover: ExecStart line changed"
grep -qx 'LoadCredential=netbird-token:/etc/headroom/netbird-token' "$dunit" \
  && ok "discover: LoadCredential=netbird-token:/etc/headroom/netbird-token" || bad "discover: LoadCredential missing"
mkdir -p "$work/discover"
if [ -x /usr/bin/headroom ]; then
  cp "$dunit" "$work/discover/headroom-discover.service"
else
  printf '#!/bin/sh\n' > "$work/headroom-stub"; chmod +x "$work/headroom-stub"
  sed "s|/usr/bin/headroom |$work/headroom-stub |" "$dunit" > "$work/discover/headroom-discover.service"
fi
f="$work/discover/headroom-discover.service"
out="$(cd "$work/discover" && systemd-analyze verify "$f" 2>&1)"
if [ $? -eq 0 ] && [ -z "$out" ]; then ok "discover: systemd-analyze verify clean"; else bad "discover: verify: $out"; fi
sec="$(cd "$work/discover" && systemd-analyze security --offline=true "$f" 2>&1)"
score="$(printf '%s\n' "$sec" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')"
echo "     discover: exposure ${score:-?} (limit $max)"
if [ -n "$score" ] && awk -v s="$score" -v m="$max" 'BEGIN { exit !(s <= m) }'; then
  ok "discover: exposure $score <= $max"
else
  bad "discover: exposure ${score:-none} > $max"
fi

echo "unit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
