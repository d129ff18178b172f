# Sourced by alerts/multisite/test.sh and scale.sh: a temp dir, background processes stopped on exit (newest
# first: Prometheus before the VictoriaMetrics it writes to), free ports, waiting for HTTP readiness.
# Usage: tmp=$(mktemp -d ...); pids=(); . alerts/multisite/lib.sh

cleanup() {
  local i pid
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Ports below the kernel's ephemeral range (32768+), so that nobody's port-0 listener takes one between our
# choice and our bind; each is checked free and handed out once (remembered in a file: port runs in $(...)).
port() {
  local p
  while :; do
    p=$(( 21000 + RANDOM % 8000 ))
    grep -qx "$p" "$tmp/ports" 2>/dev/null && continue
    python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', $p))" 2>/dev/null || continue
    echo "$p" >>"$tmp/ports"; echo "$p"; return
  done
}

wait_http() { # wait_http URL PID SECONDS
  local i
  for i in $(seq 1 $(( $3 * 2 ))); do
    kill -0 "$2" 2>/dev/null || return 1
    curl -sf -o /dev/null --max-time 2 "$1" && return 0
    sleep 0.5
  done
  return 1
}

poll() { # poll SECONDS COMMAND...: runs COMMAND every 2 s until it succeeds; fails when SECONDS pass without
  local i
  for i in $(seq 1 $(( $1 / 2 ))); do "${@:2}" && return 0; sleep 2; done
  "${@:2}"
}

has_result() { # has_result BASE-URL QUERY [TIME]: the Prometheus-compatible API at BASE-URL answers QUERY with a
  # series (at now, or at epoch TIME)
  curl -sf "$1/api/v1/query" --data-urlencode "query=$2" ${3:+--data-urlencode "time=$3"} | grep -q '"result":\[{'
}
