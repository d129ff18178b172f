#!/usr/bin/env bash
# Everything that proves the alerting rules: the mixin renders the checked-in files and honours its _config,
# promtool check + unit tests, amtool config and routes, runbook anchors, and the 1,000-peer fleet test on a
# real Prometheus (alerts/fleet/fleet-test.sh).
#
# Usage: bash alerts/test.sh          (from anywhere; needs promtool, prometheus, amtool, python3, jsonnet)
# Last line: `alerts: N passed, M failed`. Exit status 1 when anything failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
passed=0
failed=0
log=$(mktemp "${TMPDIR:-/tmp}/headroom-alerts-test.XXXXXX")
render=$(mktemp -d "${TMPDIR:-/tmp}/headroom-alerts-render.XXXXXX")
trap 'rm -f "$log"; rm -rf "$render"' EXIT

pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; [ -s "$log" ] && sed 's/^/    /' "$log" | tail -40; }
finish() { echo "alerts: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }

# Tools first: without them nothing below means anything.
missing=""
for pair in promtool:prometheus prometheus:prometheus amtool:prometheus-alertmanager python3:python3 jsonnet:jsonnet; do
  tool=${pair%%:*} pkg=${pair#*:}
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "FAIL - $tool not found: install the Debian package '$pkg' (apt-get install --no-install-recommends $pkg)"
    missing=1
  fi
done
if [ -n "$missing" ]; then failed=$((failed + 1)); finish; fi

cd "$here"

# The mixin (alerts/mixin) renders exactly the checked-in rules and dashboards.
if bash mixin/render.sh --out "$render/default" >"$log" 2>&1; then
  : >"$log"
  for f in headroom-rules.yml:headroom-rules.yml headroom-rules-netbird.yml:headroom-rules-netbird.yml \
           headroom-peer.json:../dashboards/headroom-peer.json \
           headroom-fleet.json:../dashboards/headroom-fleet.json; do
    diff -u "${f#*:}" "$render/default/${f%%:*}" >>"$log"
  done
  if [ ! -s "$log" ]; then
    pass "alerts/mixin renders headroom-rules.yml, headroom-rules-netbird.yml and dashboards/*.json as checked in"
  else
    echo "the checked-in files differ from alerts/mixin: run bash alerts/mixin/render.sh" >>"$log"
    fail "alerts/mixin renders headroom-rules.yml, headroom-rules-netbird.yml and dashboards/*.json as checked in (run bash alerts/mixin/render.sh)"
  fi
  # The NetBird switch adds to the rules and changes only what it must: the default render with the switch
  # written out as off is the same file, and the NetBird render keeps every default rule by name.
  echo '{ _config+:: { netbirdInventory: false } }' >"$render/off.libsonnet"
  if bash mixin/render.sh --out "$render/off" --config "$render/off.libsonnet" >"$log" 2>&1 \
     && cmp -s headroom-rules.yml "$render/off/headroom-rules.yml"; then
    pass "netbirdInventory: false renders headroom-rules.yml unchanged"
  else
    fail "netbirdInventory: false renders headroom-rules.yml unchanged"
  fi
  names() { sed -n 's/^ *- \(record\|alert\): *//p' "$1" | sort -u; }
  missing_names=$(comm -23 <(names headroom-rules.yml) <(names headroom-rules-netbird.yml))
  if [ -z "$missing_names" ]; then
    pass "headroom-rules-netbird.yml keeps every rule of headroom-rules.yml and adds $(comm -13 <(names headroom-rules.yml) <(names headroom-rules-netbird.yml) | wc -l)"
  else
    echo "$missing_names" >"$log"; fail "headroom-rules-netbird.yml lacks rules of headroom-rules.yml"
  fi
else
  fail "alerts/mixin/render.sh"
fi

# A non-default _config (mixin/tests/vpn-peers.libsonnet: job="vpn-peers", labels vpn_network / vpn_site,
# near-ceiling at 0.85 for 20m, runbooks on a wiki) reaches every rule and panel, and the rules still load.
custom=$render/vpn-peers
if bash mixin/render.sh --out "$custom" --config mixin/tests/vpn-peers.libsonnet >"$log" 2>&1; then
  if python3 mixin/tests/check_render.py "$custom" >"$log" 2>&1; then
    pass "non-default _config: $(tail -1 "$log")"
  else
    fail "non-default _config: defaults left in the render"
  fi
  if promtool check rules "$custom/headroom-rules.yml" >"$log" 2>&1; then
    pass "promtool check rules on the non-default render ($(grep -o '[0-9]* rules found' "$log"))"
  else
    fail "promtool check rules on the non-default render"
  fi
  cp mixin/tests/vpn_peers_test.yml "$custom/"
  if (cd "$custom" && promtool test rules vpn_peers_test.yml) >"$log" 2>&1; then
    pass "promtool test rules mixin/tests/vpn_peers_test.yml on the non-default render"
  else
    fail "promtool test rules mixin/tests/vpn_peers_test.yml on the non-default render"
  fi
else
  fail "alerts/mixin/render.sh --config mixin/tests/vpn-peers.libsonnet"
fi

for r in headroom-rules.yml headroom-rules-netbird.yml; do
  if promtool check rules "$r" >"$log" 2>&1; then
    pass "promtool check rules $r ($(grep -o '[0-9]* rules found' "$log"))"
  else
    fail "promtool check rules $r"
  fi
done

for t in tests/*_test.yml; do
  if promtool test rules "$t" >"$log" 2>&1; then pass "promtool test rules $t"; else fail "promtool test rules $t"; fi
done

if amtool check-config alertmanager.yml >"$log" 2>&1; then
  pass "amtool check-config alertmanager.yml"
else
  fail "amtool check-config alertmanager.yml"
fi
for route in critical:pager warning:ticket info:chat; do
  sev=${route%%:*} want=${route#*:}
  got=$(amtool config routes test --config.file=alertmanager.yml severity="$sev" alertname=HeadroomPeerAtCeiling 2>"$log")
  if [ "$got" = "$want" ]; then pass "severity=$sev routes to $want"; else echo "routed to '$got'" >>"$log"; fail "severity=$sev routes to $want"; fi
done

# Every runbook_url anchor is a heading in docs/runbooks.md (GitHub anchors: lower case, no punctuation).
: >"$log"
anchors=$(grep -ho 'runbooks\.md#[a-z0-9-]*' headroom-rules.yml headroom-rules-netbird.yml | sed 's/.*#//' | sort -u)
headings=$(grep '^#' "$root/docs/runbooks.md" 2>/dev/null | sed 's/^#* *//' | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-\n')
for a in $anchors; do
  grep -qx "$a" <<<"$headings" || echo "no heading for #$a in docs/runbooks.md" >>"$log"
done
if [ ! -s "$log" ] && [ -n "$anchors" ]; then
  pass "all $(wc -w <<<"$anchors") runbook_url anchors exist in docs/runbooks.md"
else
  fail "runbook_url anchors in docs/runbooks.md"
fi

# Fleet: its own checks count one each.
echo "fleet test (1,000 peers, 50 Networks, real Prometheus on 127.0.0.1) ..."
bash fleet/fleet-test.sh >"$log" 2>&1
rc=$?
grep -v '^fleet-checks:' "$log" | sed 's/^/  /'
line=$(grep '^fleet-checks:' "$log" | tail -1)
if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
  passed=$((passed + BASH_REMATCH[1]))
  failed=$((failed + BASH_REMATCH[2]))
  if [ "$rc" -ne 0 ] && [ "${BASH_REMATCH[2]}" -eq 0 ]; then failed=$((failed + 1)); echo "FAIL - fleet test exited $rc"; fi
else
  failed=$((failed + 1))
  echo "FAIL - fleet test ended (exit $rc) before reporting its checks"
fi

finish
