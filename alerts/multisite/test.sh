#!/usr/bin/env bash
# Multi-site fleet test: the topology of docs/alerts.md "Many sites" running on 127.0.0.1.
#
#   site-00: Prometheus replica 1 + replica 2 --\                         /-- vmalert (every group of
#   site-01: Prometheus replica 1 + replica 2 ---remote_write--> VictoriaMetrics     headroom-rules.yml) --> Alertmanager (central)
#            (external_labels site, replica;                     (drops `replica`,                           --> webhook
#             all rules; alerts --> Alertmanager (site))          dedup 15s)
#   one-site reference: one Prometheus scraping every peer with the same rules (the default topology)
#
# Peers: 200 peers of gen_fleet.py's model in 10 Networks over site-00 and site-01 (every Network spans both),
# served live by fleet_exporter.py, plus two real headroom daemons on fixture trees forming Network net-live
# across both sites: live-a (site-00) at 9x its 10 Mbit/s ceiling, live-b (site-01) idle.
# History first: 30 minutes of the same model, backfilled into every Prometheus (promtool) and imported into
# VictoriaMetrics as both replicas of each site would have written it. Every Prometheus scrapes from the
# history's end on, so no rate window straddles a gap. vmalert's replay evaluates the rules over the history and
# writes ALERTS_FOR_STATE; vmalert (remoteRead) restores `for` state from it, and so does each site Prometheus,
# restarted one replica at a time (recording groups first, then every rule) with those series backfilled: the 15-minute `for:` of the
# planted page has truly elapsed in the data, without 15 minutes of wall time.
# first_eval.py proves vmalert kept the restored state at its first evaluation. check_multisite.py then proves:
# replicas deduplicated, central answers equal the one-site Prometheus's (read at one time both ingested), a
# replica killed mid-run changes no Network answer, and the page reaches the webhook with every field.
# Last, a NetBird-discovered centre: a real `headroom discover` over a stand-in NetBird management API, a
# VictoriaMetrics that finds the routers through its /sd (http_sd_configs), vmalert over
# headroom-rules-netbird.yml; check_netbird.py proves the routers counted, the active peer, and the page for a
# router NetBird lists that nobody scrapes.
# Every wait polls a condition with a bound; a live peer's missed scrape is allowed where noted, and said so.
#
# Usage: bash alerts/multisite/test.sh   (needs prometheus, promtool, prometheus-alertmanager, victoria-metrics,
#        java 17, python3, curl; builds the exporter jar if it is missing)
# Ends with "multisite: N passed, M failed"; exits non-zero when anything failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
rules=$root/alerts/headroom-rules.yml
started=$(date +%s)
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1"; }
finish() { echo "# runtime $(( $(date +%s) - started ))s"; echo "multisite: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }
abort() { fail "$1"; [ -n "${2:-}" ] && [ -f "$2" ] && tail -15 "$2" | sed 's/^/    /'; finish; }

for tool in prometheus:prometheus promtool:prometheus prometheus-alertmanager:prometheus-alertmanager \
            victoria-metrics:victoria-metrics vmalert:victoria-metrics java:default-jre-headless \
            python3:python3 curl:curl; do
  cmd=${tool%%:*} pkg=${tool#*:}
  command -v "$cmd" >/dev/null 2>&1 || abort "$cmd not found: apt-get install --no-install-recommends $pkg"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/headroom-multisite.XXXXXX")
pids=()
. "$here/lib.sh"
start() { # start NAME READY-URL command...: runs it in the background, logs to $tmp/NAME.log, waits for READY-URL
  local name=$1 url=$2; shift 2
  "$@" >"$tmp/$name.log" 2>&1 &
  pids+=($!)
  eval "${name//-/_}_pid=$!"
  wait_http "$url" "$!" 60 || abort "$name did not become ready on $url" "$tmp/$name.log"
}

jar=exporter/target/headroom.jar
if [ ! -f "$jar" ]; then
  echo "# building $jar"
  mvn -q -B -ntp package -Dmaven.test.skip=true >"$tmp/mvn.log" 2>&1 || abort "building the exporter failed" "$tmp/mvn.log"
fi

# --- the live Network: two real headroom daemons on fixture trees -------------------------------------------
live_a=$(port) live_b=$(port)
for peer in a:site-00:$live_a b:site-01:$live_b; do
  IFS=: read -r n site p <<<"$peer"
  cp -r exporter/src/test/resources/fixtures/kernel "$tmp/live-$n"
  flags=()
  [ "$n" = a ] && flags=(--ceiling.download=10mbit --ceiling.upload=10mbit)
  start "live-$n" "http://127.0.0.1:$p/-/ready" java -Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$jar" serve \
    --web.listen-address="127.0.0.1:$p" --path.sysfs="$tmp/live-$n/sys" --path.procfs="$tmp/live-$n/proc" \
    --underlay.line-rate=10gbit --labels.network=net-live --labels.site="$site" "${flags[@]}"
done
# live-a: 11.5 MB/s download, 4 MB/s upload against 1.25 MB/s each way; live-b idle.
python3 exporter/src/test/dashboards/advance.py "$tmp/live-a:11500000:4000000" "$tmp/live-b:0:0" >"$tmp/advance.log" 2>&1 &
pids+=($!)
ceiling() { # ceiling PORT DIRECTION: the daemon's own ceiling, bytes/s
  curl -sf "http://127.0.0.1:$1/metrics" | sed -n "s/^headroom_ceiling_bytes_per_second{direction=\"$2\"} //p"
}
live_b_dl=$(ceiling "$live_b" download) live_b_ul=$(ceiling "$live_b" upload)
[ -n "$live_b_dl" ] && [ -n "$live_b_ul" ] || abort "live-b serves no headroom_ceiling_bytes_per_second"

# --- history, targets, the fleet exporter ------------------------------------------------------------------
end=$(date +%s)
end=$(( end - end % 30 ))    # gen_fleet.py's step; the exporter and the history agree on it
fleet_port=$(port)
python3 alerts/multisite/history.py prepare --dir "$tmp/h" --end "$end" --exporter "127.0.0.1:$fleet_port" \
  --live "live-a,net-live,site-00,1250000,1250000,11500000,4000000,127.0.0.1:$live_a" \
  --live "live-b,net-live,site-01,$live_b_dl,$live_b_ul,0,0,127.0.0.1:$live_b" >"$tmp/history.log" 2>&1 \
  || abort "history.py prepare failed" "$tmp/history.log"
start fleet "http://127.0.0.1:$fleet_port/peers/peer-02-00/metrics" \
  python3 alerts/fleet/fleet_exporter.py --listen "127.0.0.1:$fleet_port" --end "$end" --peers 200 --networks 10 --sites 2
backfill() { # backfill OM DIR
  promtool tsdb create-blocks-from openmetrics "$1" "$2" >"$tmp/backfill.log" 2>&1 || abort "backfill of $1 failed" "$tmp/backfill.log"
}

# --- VictoriaMetrics: dedup of the HA pairs ---------------------------------------------------------------------
vm=$(port)
start vm "http://127.0.0.1:$vm/health" victoria-metrics -storageDataPath="$tmp/vm" -httpListenAddr="127.0.0.1:$vm" \
  -retentionPeriod=1 -dedup.minScrapeInterval=15s -relabelConfig="$here/vm-relabel.yml" \
  -search.latencyOffset=2s -search.disableCache -loggerLevel=WARN

# --- receivers: webhook, Alertmanager per sender (alerts/alertmanager.yml, webhook port substituted) --------
hook=$(port)
start webhook "http://127.0.0.1:$hook/" python3 "$here/webhook.py" --listen "127.0.0.1:$hook" --out "$tmp/received.jsonl"
sed "s#http://127.0.0.1:9099/#http://127.0.0.1:$hook/#" alerts/alertmanager.yml >"$tmp/alertmanager.yml"
[ "$(grep -c "127.0.0.1:$hook/" "$tmp/alertmanager.yml")" -eq 3 ] || abort "alerts/alertmanager.yml no longer has the three 127.0.0.1:9099 receivers"
am_central=$(port) am_site=$(port)
for am in central:$am_central site:$am_site; do
  n=${am%%:*} p=${am#*:}
  start "am-$n" "http://127.0.0.1:$p/-/ready" prometheus-alertmanager --config.file="$tmp/alertmanager.yml" \
    --storage.path="$tmp/am-$n" --web.listen-address="127.0.0.1:$p" --web.external-url="http://127.0.0.1:$p/" \
    --cluster.listen-address= --log.level=warn
done

# --- the four site Prometheus servers and the one-site reference, scraping from the history's end on ---------
# A site server starts as scraper and shipper only; it gets its rules once the replay has computed the `for`
# state it restores (below): an alerting rule evaluated before that would write its own, younger state.
prom_config() { # prom_config NAME TARGETS RULES EXTRA-YAML
  cat >"$tmp/$1.yml" <<YAML
global:
  scrape_interval: 15s
  scrape_timeout: 10s
  evaluation_interval: 15s
$4
rule_files: [$3]
scrape_configs:
  - job_name: headroom
    file_sd_configs: [{files: ["$2"]}]
YAML
}
prom_start() { # prom_start NAME DATA PORT
  start "$1" "http://127.0.0.1:$3/-/ready" prometheus --config.file="$tmp/$1.yml" --storage.tsdb.path="$2" \
    --web.listen-address="127.0.0.1:$3" --web.external-url="http://127.0.0.1:$3/" --rules.alert.for-grace-period=0s \
    --storage.remote.flush-deadline=5s --log.level=warn
}
site_yaml() { # site_yaml SITE REPLICA
  cat <<YAML
  external_labels: {site: $1, replica: "$2"}
remote_write:
  - url: http://127.0.0.1:$vm/api/v1/write
    # Raw series only: the central ruler records its own; a site's partial Network records must not mix in.
    write_relabel_configs:
      - {source_labels: [__name__], regex: 'up|headroom_.*', action: keep}
alerting:
  # Both replicas send the same alert; without the replica label Alertmanager sees one.
  alert_relabel_configs:
    - {action: labeldrop, regex: replica}
  alertmanagers:
    - static_configs: [{targets: ['127.0.0.1:$am_site']}]
YAML
}
ref_port=$(port)
prom_config ref "$tmp/h/targets-all.json" "\"$rules\"" ""
prom_start ref "$tmp/ref" "$ref_port"
for site in site-00 site-01; do
  for r in 1 2; do
    p=$(port)
    eval "${site//-/_}_r${r}_port=$p"
    prom_config "$site-r$r" "$tmp/h/targets-$site.json" "" "$(site_yaml "$site" "$r")"
    prom_start "$site-r$r" "$tmp/$site-r$r" "$p"
  done
done

# --- their history: blocks built aside and moved into the running servers (picked up within a minute) ------------
# Starting them first keeps the seam between history and scrapes short: a 5-minute window holding only scrapes
# that began minutes after the history ended would read low in PromQL's rate (it divides by the whole window).
backfill "$tmp/h/reference.om" "$tmp/blocks-ref"
mv "$tmp"/blocks-ref/* "$tmp/ref/"
for site in site-00 site-01; do
  backfill "$tmp/h/$site.om" "$tmp/blocks-$site"
  cp -r "$tmp/blocks-$site"/* "$tmp/$site-r2/"
  mv "$tmp/blocks-$site"/* "$tmp/$site-r1/"
done
rm -f "$tmp"/h/*.om
blocks_loaded() { # blocks_loaded PORT: the server has loaded its backfilled block
  curl -sf "http://127.0.0.1:$1/metrics" | awk '$1 == "prometheus_tsdb_blocks_loaded" && $2 >= 1 {ok = 1} END {exit !ok}'
}
for port_var in ref_port site_00_r1_port site_00_r2_port site_01_r1_port site_01_r2_port; do
  for _ in $(seq 1 90); do blocks_loaded "${!port_var}" && break; sleep 2; done
  blocks_loaded "${!port_var}" || abort "the Prometheus on ${!port_var} did not load its backfilled history in 3 minutes"
done

# --- history into VictoriaMetrics, as both replicas of each site would have written it --------------------------
curl -sf --data-binary "@$tmp/h/vm-import.jsonl" "http://127.0.0.1:$vm/api/v1/import" >"$tmp/import.log" 2>&1 \
  || abort "importing the history into VictoriaMetrics failed" "$tmp/import.log"
curl -sf "http://127.0.0.1:$vm/internal/force_flush" >/dev/null || abort "VictoriaMetrics force_flush failed"
pass "history imported into VictoriaMetrics ($(wc -l <"$tmp/h/vm-import.jsonl") series: each site's peers from both replicas)"
rm -f "$tmp/h/vm-import.jsonl"

# --- vmalert replay over the history: recording rules and ALERTS_FOR_STATE ---------------------------------
iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }
# The replay refuses the `query` template function; annotations play no part in what it writes, so it gets the
# rules without them, one file per dependency level (strip_annotations.py; the rule count is checked): level k
# reads only records of lower levels, written, flushed and searchable before it starts, whatever the machine's
# load. -datasource.queryStep=15s: one point per evaluation interval.
replay_files=$(python3 "$here/strip_annotations.py" "$rules" "$tmp/replay") || abort "strip_annotations.py failed"
n_rules=$(promtool check rules "$rules" | grep -o '[0-9]* rules found')
n_replay=$(for f in $replay_files; do promtool check rules "$f" | grep -o '[0-9]* rules found'; done | awk '{n += $1} END {print n " rules found"}')
if [ -n "$n_rules" ] && [ "$n_rules" = "$n_replay" ] && ! grep -q 'annotations:' $replay_files; then
  pass "replay copy of headroom-rules.yml: no annotations, $n_replay like the original"
else
  fail "replay copy of headroom-rules.yml: '$n_replay' against '$n_rules'"
fi
replay_start=$(date +%s)
for f in $replay_files; do
  vmalert -rule="$f" -datasource.url="http://127.0.0.1:$vm" -remoteWrite.url="http://127.0.0.1:$vm" \
    -replay.timeFrom="$(iso $((end - 25 * 60)))" -replay.timeTo="$(iso "$end")" -evaluationInterval=15s \
    -datasource.queryStep=15s -replay.rulesDelay=0s -remoteWrite.flushInterval=500ms \
    -replay.disableProgressBar -disableAlertgroupLabel -loggerLevel=WARN >>"$tmp/replay.log" 2>&1 \
    || abort "vmalert replay of $(basename "$f") failed" "$tmp/replay.log"
  curl -sf "http://127.0.0.1:$vm/internal/force_flush" >/dev/null
  # The next level reads these records: each must answer at the history's end before it starts.
  for r in $(sed -n 's/^ *- record: *//p' "$f"); do
    poll 30 has_result "http://127.0.0.1:$vm" "last_over_time(${r}[1m])" "$end" \
      || abort "the replay of $(basename "$f") wrote no $r searchable at the history's end within 30 s" "$tmp/replay.log"
  done
done
# The `for` state the site servers and vmalert restore: the planted alerts' must be there.
for planted in 'HeadroomNetworkOverOnePeer",network="net-live",direction="download' \
               'HeadroomPeerAtCeiling",instance="live-a:10170",direction="download'; do
  poll 30 has_result "http://127.0.0.1:$vm" "last_over_time(ALERTS_FOR_STATE{alertname=\"${planted}\"}[1m])" "$end" \
    || abort "the replay wrote no ALERTS_FOR_STATE{alertname=\"$planted\"} at the history's end" "$tmp/replay.log"
done
pass "vmalert replay of headroom-rules.yml over 25 minutes of history ($(( $(date +%s) - replay_start ))s)"
curl -sf "http://127.0.0.1:$vm/api/v1/export" -d 'match[]=ALERTS_FOR_STATE' >"$tmp/for-state.jsonl" \
  || abort "exporting ALERTS_FOR_STATE from VictoriaMetrics failed"
python3 alerts/multisite/history.py for-state --dir "$tmp/h" <"$tmp/for-state.jsonl" >"$tmp/for-state.log" 2>&1 \
  || abort "no ALERTS_FOR_STATE after the replay" "$tmp/for-state.log"

# --- the site servers take their rules: one replica of each site at a time, so each site keeps shipping -------
# Prometheus restores an alert's `for` state after the group's second evaluation, from the alerts active then.
# The Network alerts read Network records, which read per-peer records of another group: on a fresh start,
# whether they exist by then depends on the groups' phases within the interval (a hash of the group's name
# and file), so a replica restarted straight into all rules may restore nothing and wait the whole `for:`.
# A server that has run with the rules for a while has those records; so each replica first runs with the
# recording groups alone until its Network records answer, then restarts with every rule.
rec_rules=$tmp/recording-rules.yml
awk '/^  - name: headroom\.peer\.alerts/ {exit} {print}' "$rules" >"$rec_rules"
if [ "$(grep -c 'record:' "$rec_rules")" = "$(grep -c 'record:' "$rules")" ] && ! grep -q 'alert:' "$rec_rules" \
   && promtool check rules "$rec_rules" >/dev/null 2>&1; then
  pass "recording groups of headroom-rules.yml alone: $(grep -c 'record:' "$rec_rules") records, no alert"
else
  abort "the recording groups no longer come before the alert groups in headroom-rules.yml"
fi
live_records='count(network:headroom_utilization:ratio_rate5m{network="net-live"}) == 2'  # both directions
restart_site() { # restart_site NAME SITE REPLICA RULES
  local pid_var=${2//-/_}_r${3}_pid port_var=${2//-/_}_r${3}_port
  kill "${!pid_var}"; wait "${!pid_var}" 2>/dev/null
  prom_config "$1" "$tmp/h/targets-$2.json" "\"$4\"" "$(site_yaml "$2" "$3")"
  prom_start "$1" "$tmp/$1" "${!port_var}"
}
for r in 1 2; do
  for site in site-00 site-01; do
    backfill "$tmp/h/for-state.om" "$tmp/$site-r$r"
    restart_site "$site-r$r" "$site" "$r" "$rec_rules"
  done
  for site in site-00 site-01; do
    port_var=${site//-/_}_r${r}_port
    poll 60 has_result "http://127.0.0.1:${!port_var}" "$live_records" || abort "$site-r$r: no Network records of net-live 60 s after it took the recording rules" "$tmp/$site-r$r.log"
    restart_site "$site-r$r" "$site" "$r" "$rules"
  done
done
restarted=$(date +%s)

# --- the central ruler --------------------------------------------------------------------------------------
# vmalert restores `for` state after its first evaluation, from the alerts active then: the same race as the site
# servers' above, so it too runs with the recording groups alone until the centre holds fresh Network records.
rec_port=$(port) rec_started=$(date +%s)
start vmalert-rec "http://127.0.0.1:$rec_port/-/healthy" vmalert -rule="$rec_rules" \
  -datasource.url="http://127.0.0.1:$vm" -remoteWrite.url="http://127.0.0.1:$vm" -evaluationInterval=15s \
  -disableAlertgroupLabel -httpListenAddr="127.0.0.1:$rec_port" -remoteWrite.flushInterval=1s -loggerLevel=WARN
# Written since vmalert-rec started: the centre also holds the replay's.
poll 60 has_result "http://127.0.0.1:$vm" \
  "count(timestamp(network:headroom_utilization:ratio_rate5m{network=\"net-live\"}) > $rec_started) == 2" || abort "vmalert with the recording groups wrote no Network records of net-live in 60 s" "$tmp/vmalert-rec.log"
kill "$vmalert_rec_pid"; wait "$vmalert_rec_pid" 2>/dev/null
vmalert_port=$(port)
# vmalert restores `for` state before a group's first evaluation and keeps a restored alert only if that
# evaluation answers it. first_eval.py waits for the first evaluation of the Network alerts and reads what it
# read: when it read net-live without its overload (a live peer's scrape had failed just before: its series
# were stale for that one round), the restore is lost through no fault of its own, and vmalert starts again,
# at most twice, from the replay's ALERTS_FOR_STATE (the dropped alert's new, younger state deleted). A
# first evaluation that read the overload and still restored nothing fails.
for attempt in 1 2 3; do
  vmalert_started=$(date +%s)
  start vmalert "http://127.0.0.1:$vmalert_port/-/healthy" vmalert -rule="$rules" \
    -datasource.url="http://127.0.0.1:$vm" -remoteWrite.url="http://127.0.0.1:$vm" -remoteRead.url="http://127.0.0.1:$vm" \
    -remoteRead.ignoreRestoreErrors=false -notifier.url="http://127.0.0.1:$am_central" -evaluationInterval=15s -disableAlertgroupLabel \
    -httpListenAddr="127.0.0.1:$vmalert_port" -external.url="http://127.0.0.1:$vmalert_port" \
    -remoteWrite.flushInterval=1s -loggerLevel=WARN
  python3 "$here/first_eval.py" --vm "http://127.0.0.1:$vm" --vmalert "http://127.0.0.1:$vmalert_port" \
    --end "$end" --started "$vmalert_started" >"$tmp/first-eval-$attempt.txt" 2>&1
  rc=$?
  verdict=$(tail -1 "$tmp/first-eval-$attempt.txt")
  if [ "$rc" -eq 0 ]; then
    pass "$verdict (start $attempt)"
    break
  elif [ "$rc" -eq 2 ] && [ "$attempt" -lt 3 ]; then
    echo "# $verdict: vmalert starts again (a missed scrape allowed, twice at most)"
    sed 's/^#/#  /' "$tmp/first-eval-$attempt.txt" | grep '^#'
    kill "$vmalert_pid"; wait "$vmalert_pid" 2>/dev/null
    curl -sf "http://127.0.0.1:$vm/api/v1/admin/tsdb/delete_series" --data-urlencode 'match[]=ALERTS_FOR_STATE' >/dev/null \
      && curl -sf --data-binary "@$tmp/for-state.jsonl" "http://127.0.0.1:$vm/api/v1/import" >/dev/null \
      && curl -sf "http://127.0.0.1:$vm/internal/force_flush" >/dev/null \
      || abort "putting the replay's ALERTS_FOR_STATE back into VictoriaMetrics failed"
  else
    fail "$verdict (start $attempt)"
    sed 's/^/    /' "$tmp/first-eval-$attempt.txt" | grep -vF "$verdict"
    break
  fi
done
echo "# vm 127.0.0.1:$vm vmalert :$vmalert_port am central :$am_central site :$am_site webhook :$hook" \
     "ref :$ref_port site-00 :$site_00_r1_port/:$site_00_r2_port site-01 :$site_01_r1_port/:$site_01_r2_port" \
     "(history ended $(( $(date +%s) - end ))s ago)"

# MULTISITE_HOLD=SECONDS keeps everything running that long before the checks, to look at it by hand.
[ -n "${MULTISITE_HOLD:-}" ] && { echo "# holding ${MULTISITE_HOLD}s"; sleep "$MULTISITE_HOLD" & wait $!; }
python3 "$here/check_multisite.py" --expect "$tmp/h/expected.json" --vm "http://127.0.0.1:$vm" \
  --vmalert "http://127.0.0.1:$vmalert_port" --ref "http://127.0.0.1:$ref_port" \
  --site "site-00-r1=http://127.0.0.1:$site_00_r1_port" --site "site-00-r2=http://127.0.0.1:$site_00_r2_port" \
  --site "site-01-r1=http://127.0.0.1:$site_01_r1_port" --site "site-01-r2=http://127.0.0.1:$site_01_r2_port" \
  --kill "site-00-r1=$site_00_r1_pid" --am-central "http://127.0.0.1:$am_central" --am-site "http://127.0.0.1:$am_site" \
  --received "$tmp/received.jsonl" --live-a "http://127.0.0.1:$live_a" --runbooks docs/runbooks.md \
  --restarted "$restarted" --vmalert-started "$vmalert_started" \
  2>&1 | tee "$tmp/check.log" | grep -v '^checks:'
rc=${PIPESTATUS[0]}
line=$(grep '^checks:' "$tmp/check.log" | tail -1)
if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
  passed=$((passed + BASH_REMATCH[1])); failed=$((failed + BASH_REMATCH[2]))
  [ "$rc" -ne 0 ] && [ "${BASH_REMATCH[2]}" -eq 0 ] && fail "check_multisite.py exited $rc"
else
  fail "check_multisite.py ended (exit $rc) before reporting its checks"
fi
# --- the NetBird-discovered centre: headroom discover finds the routing peers, vmalert runs the NetBird rules -----
# A stand-in NetBird management API (answers written by netbird_fleet.py, served by exporter/src/test/discover/
# netbird_standin.py) lists routers of three of the fleet's Networks at overlay IPs; a real `headroom discover`
# reads it and serves them at /sd. A VictoriaMetrics of its own finds them with http_sd_configs (the README's
# relabelling, a `keep` on the peer group `headroom`, and, for this test only, each target's page on
# fleet_exporter.py) and scrapes discover's inventory; vmalert evaluates headroom-rules-netbird.yml over it and
# notifies the central Alertmanager. HeadroomNetBirdRouterUnscraped's `for:` is 30s here, rendered by the mixin
# (checked to be the only difference), so its page arrives within the run. check_netbird.py says what must follow.
nb_started=$(date +%s)
python3 "$here/netbird_fleet.py" --out "$tmp/netbird-api" \
  --peer peer-02-00 100.64.2.0 headroom 1 --peer peer-02-01 100.64.2.1 headroom 1 --peer peer-02-02 100.64.2.2 - 1 \
  --peer peer-04-00 100.64.4.0 headroom 1 --peer peer-04-01 100.64.4.1 headroom 1 --peer peer-06-00 100.64.6.0 headroom 1 \
  --router net-02 peer-02-01 100 1 --router net-02 peer-02-00 200 1 --router net-02 peer-02-02 300 1 \
  --router net-04 peer-04-01 50 1 --router net-04 peer-04-00 100 1 --router net-06 peer-06-00 100 1 >"$tmp/netbird-fleet.log" 2>&1 \
  || abort "netbird_fleet.py failed" "$tmp/netbird-fleet.log"
head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$tmp/netbird-token"
nb_api=$(port) discover=$(port) vm_nb=$(port) vmalert_nb=$(port)
python3 exporter/src/test/discover/netbird_standin.py --fixtures "$tmp/netbird-api" --token-file "$tmp/netbird-token" \
  --port "$nb_api" >"$tmp/netbird-api.log" 2>&1 &
pids+=($!)
start discover "http://127.0.0.1:$discover/-/ready" java -Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$jar" \
  discover --netbird.api-url="http://127.0.0.1:$nb_api" --netbird.token-file="$tmp/netbird-token" \
  --web.listen-address="127.0.0.1:$discover" --netbird.refresh-interval=5s
cat >"$tmp/netbird-scrape.yml" <<YAML
global:
  scrape_interval: 5s
scrape_configs:
  - job_name: headroom
    http_sd_configs:
      - url: http://127.0.0.1:$discover/sd
    relabel_configs:
      # Only peers in the NetBird group "headroom" run the exporter: peer-02-02 is not, so it is dropped.
      - {source_labels: [__meta_netbird_peer_groups], regex: '.*,headroom,.*', action: keep}
      - {source_labels: [__meta_netbird_network_name], target_label: network}
      - {source_labels: [__meta_netbird_peer_name], target_label: netbird_peer}
      - {source_labels: [__meta_netbird_router_metric], target_label: netbird_router_metric}
      # This test only: every routing peer is a page of fleet_exporter.py, under its NetBird target as instance.
      - {source_labels: [__address__], target_label: instance}
      - {source_labels: [__meta_netbird_peer_name], target_label: __metrics_path__, replacement: '/peers/\$1/metrics'}
      - {target_label: __address__, replacement: '127.0.0.1:$fleet_port'}
  - job_name: headroom_discover
    static_configs: [{targets: ['127.0.0.1:$discover']}]
YAML
start vm-netbird "http://127.0.0.1:$vm_nb/health" victoria-metrics -storageDataPath="$tmp/vm-netbird" \
  -httpListenAddr="127.0.0.1:$vm_nb" -retentionPeriod=1 -promscrape.config="$tmp/netbird-scrape.yml" \
  -promscrape.httpSDCheckInterval=5s -search.latencyOffset=2s -search.disableCache -loggerLevel=WARN
# The NetBird rules as the mixin renders them, with the unscraped router's `for:` at 30s and nothing else changed.
echo "{ _config+:: { netbirdRouterUnscrapedFor: '30s' } }" >"$tmp/netbird-short.libsonnet"
bash alerts/mixin/render.sh --out "$tmp/netbird-render" --config "$tmp/netbird-short.libsonnet" >"$tmp/netbird-render.log" 2>&1 \
  || abort "rendering the NetBird rules with a 30s for: failed" "$tmp/netbird-render.log"
nb_rules=$tmp/netbird-render/headroom-rules-netbird.yml
if python3 - "$root/alerts/headroom-rules-netbird.yml" "$nb_rules" <<'PY'
import sys, yaml
def rules(path):
    out = {}
    for g in yaml.safe_load(open(path))["groups"]:
        for r in g["rules"]:
            r = dict(r)
            if r.get("alert") == "HeadroomNetBirdRouterUnscraped":
                r.pop("for"); r["annotations"] = {k: v for k, v in r["annotations"].items() if k != "description"}
            out[(g["name"], r.get("record") or r["alert"], str(r.get("labels")))] = r
    return out
sys.exit(rules(sys.argv[1]) != rules(sys.argv[2]))
PY
then
  pass "NetBird rules for this run: headroom-rules-netbird.yml with only HeadroomNetBirdRouterUnscraped's for: (30s) changed"
else
  fail "NetBird rules for this run differ from headroom-rules-netbird.yml beyond HeadroomNetBirdRouterUnscraped's for:"
fi
start vmalert-netbird "http://127.0.0.1:$vmalert_nb/-/healthy" vmalert -rule="$nb_rules" \
  -datasource.url="http://127.0.0.1:$vm_nb" -remoteWrite.url="http://127.0.0.1:$vm_nb" \
  -notifier.url="http://127.0.0.1:$am_central" -evaluationInterval=5s -disableAlertgroupLabel \
  -httpListenAddr="127.0.0.1:$vmalert_nb" -external.url="http://127.0.0.1:$vmalert_nb" \
  -remoteWrite.flushInterval=1s -loggerLevel=WARN
echo "# netbird: api :$nb_api discover :$discover vm :$vm_nb vmalert :$vmalert_nb"
python3 "$here/check_netbird.py" --vm "http://127.0.0.1:$vm_nb" --vmalert "http://127.0.0.1:$vmalert_nb" \
  --received "$tmp/received.jsonl" --targets 5 --rules "$(promtool check rules "$nb_rules" | grep -o '[0-9]* rules found' | grep -o '[0-9]*')" \
  --timeout 240 2>&1 | tee "$tmp/check-netbird.log" | grep -v '^netbird-checks:'
rc=${PIPESTATUS[0]}
line=$(grep '^netbird-checks:' "$tmp/check-netbird.log" | tail -1)
if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
  passed=$((passed + BASH_REMATCH[1])); failed=$((failed + BASH_REMATCH[2]))
  [ "$rc" -ne 0 ] && [ "${BASH_REMATCH[2]}" -eq 0 ] && fail "check_netbird.py exited $rc"
else
  fail "check_netbird.py ended (exit $rc) before reporting its checks"
fi
echo "# NetBird-discovered centre: $(( $(date +%s) - nb_started ))s"
if grep -q '^FAIL' "$tmp/check-netbird.log"; then
  for log in discover netbird-api vm-netbird vmalert-netbird; do
    [ -s "$tmp/$log.log" ] && { echo "# $log log (last lines):"; tail -5 "$tmp/$log.log" | cut -c1-300 | sed 's/^/#   /'; }
  done
fi

if [ "$failed" -ne 0 ]; then
  # Each site replica's view of its scrape targets: a live peer it holds no series of shows why here.
  for r in "site-00-r1:$site_00_r1_port" "site-00-r2:$site_00_r2_port" "site-01-r1:$site_01_r1_port" \
           "site-01-r2:$site_01_r2_port"; do
    echo "# ${r%%:*} targets:"
    curl -s -m 5 "http://127.0.0.1:${r#*:}/api/v1/targets" | python3 -c '
import collections, json, sys
health = collections.Counter()
for t in json.load(sys.stdin)["data"]["activeTargets"]:
    health[t["health"]] += 1
    planted = "503" in (t.get("lastError") or "")  # the fleet scenario stops some exporters on purpose
    if t["labels"].get("instance", "").startswith("live-") or (t["health"] != "up" and not planted):
        print("#   %s %s %s lastError=%r" % (t["labels"].get("instance"), t["health"], t.get("lastScrape"), t.get("lastError")))
print("#   targets by health: %s (the fleet scenario stops some with 503)" % dict(health))
' 2>/dev/null || echo "#   (not answering)"
  done
  # Each site replica's alerts on the live Network (state, since when), and what the site Alertmanager holds.
  for r in "site-00-r2:$site_00_r2_port" "site-01-r2:$site_01_r2_port"; do
    echo "# ${r%%:*} net-live alerts:"
    curl -s -m 5 "http://127.0.0.1:${r#*:}/api/v1/alerts" | python3 -c '
import json, sys
for a in json.load(sys.stdin)["data"]["alerts"]:
    if a["labels"].get("network") == "net-live":
        print("#   %s %s %s since %s" % (a["labels"]["alertname"], a["labels"].get("direction"), a["state"], a.get("activeAt")))
' 2>/dev/null || echo "#   (not answering)"
  done
  # vmalert's first evaluation (what its queries answered), and each store's missed scrapes of the live peers.
  for f in "$tmp"/first-eval-*.txt; do [ -f "$f" ] && { echo "# $(basename "$f"):"; sed 's/^/#   /' "$f"; }; done
  for r in "vm:$vm" "ref:$ref_port" "site-00-r2:$site_00_r2_port" "site-01-r1:$site_01_r1_port" "site-01-r2:$site_01_r2_port"; do
    echo "# ${r%%:*} missed scrapes of the live peers since the history: $(python3 -c '
import sys, time
sys.path.insert(0, sys.argv[1])
from check_multisite import missed_scrapes, times
print(times(missed_scrapes(sys.argv[2], "live-.:10170", int(sys.argv[3]), time.time())) or "none")
' "$here" "http://127.0.0.1:${r#*:}" "$end" 2>&1 | tail -1)"
  done
  echo "# site Alertmanager: $(curl -s -m 5 "http://127.0.0.1:$am_site/api/v2/alerts" | python3 -c '
import json, sys; print(sorted({a["labels"]["alertname"] for a in json.load(sys.stdin)}))' 2>/dev/null)"
  for log in vm vmalert am-central am-site site-00-r1 site-00-r2 ref replay live-a live-b; do
    [ -s "$tmp/$log.log" ] && { echo "# $log log (last lines):"; tail -5 "$tmp/$log.log" | cut -c1-300 | sed 's/^/#   /'; }
  done
  # A live daemon's stack traces by their head (the lines before the first "at"), not their tail.
  for log in live-a live-b; do
    grep -B1 -A2 -E '^[A-Za-z.$]+(Exception|Error)|^(WARN|ERROR) ' "$tmp/$log.log" 2>/dev/null | grep -v '^\s*at ' \
      | head -20 | cut -c1-300 | sed "s/^/#   $log: /"
  done
fi
finish
