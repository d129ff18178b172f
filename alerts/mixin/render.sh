#!/usr/bin/env bash
# Renders the headroom mixin (alerts/mixin/*.libsonnet) into the files operators load:
#   alerts/headroom-rules.yml             recording rules and alerts, one file
#   alerts/headroom-rules-netbird.yml     the same with NetBird's inventory joined in (_config.netbirdInventory)
#   dashboards/headroom-peer.json         Grafana dashboards
#   dashboards/headroom-fleet.json
#
# Usage: bash alerts/mixin/render.sh [--out DIR] [--config FILE.libsonnet]
#   --out DIR       write the four files into DIR (created) instead of alerts/ and dashboards/
#   --config FILE   a jsonnet object merged over the mixin, e.g. { _config+:: { headroomSelector: 'job="vpn-peers"' } }
# Needs jsonnet (Debian package jsonnet, 0.18 or later). Prints the files written.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=""
config=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --config) config=${2:?--config needs a file}; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "render.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

if ! command -v jsonnet >/dev/null 2>&1; then
  echo "render.sh: jsonnet not found: install the Debian package 'jsonnet' (apt-get install --no-install-recommends jsonnet)" >&2
  exit 1
fi

config_code='{}'
if [ -n "$config" ]; then
  [ -f "$config" ] || { echo "render.sh: no config file $config" >&2; exit 1; }
  config=$(cd "$(dirname "$config")" && pwd)/$(basename "$config")
  case "$config" in *\'*|*\\*) echo "render.sh: the config path must not contain ' or \\" >&2; exit 1 ;; esac
  config_code="import '$config'"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/headroom-render.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# -S: each field is the file's text; -m: one file per field of the top-level object.
jsonnet -S -m "$tmp" -J "$here" --ext-code "config=$config_code" "$here/render.jsonnet" >/dev/null

if [ -n "$out" ]; then
  mkdir -p "$out"
  dest_rules=$out dest_dash=$out
else
  dest_rules=$root/alerts dest_dash=$root/dashboards
fi
for f in headroom-rules.yml headroom-rules-netbird.yml; do
  mv "$tmp/$f" "$dest_rules/$f"; echo "$dest_rules/$f"
done
for f in headroom-peer.json headroom-fleet.json; do
  mv "$tmp/$f" "$dest_dash/$f"; echo "$dest_dash/$f"
done
