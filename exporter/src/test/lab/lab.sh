#!/usr/bin/env bash
# A routing peer on one machine: four network namespaces and two wireguard-go tunnels.
#
#   hr-client  ul0 10.199.1.1/24 ---- ul0 10.199.1.2/24  hr-peer  lan0 10.199.3.1/24 ---- lan0 10.199.3.2/24  hr-lan
#              wtc0 10.199.2.2/24 ==== wt0 10.199.2.1/24 (WireGuard over the ul0 veth pair, MTU 1280)
#   hr-client2 ul0 10.199.4.1/24 ---- ul1 10.199.4.2/24  hr-peer
#              wtc1 10.199.2.3/24 ==== wt0 (a second WireGuard peer of the same wt0, over the ul1 veth pair)
#
# The clients reach the LAN subnet through their tunnels; the peer forwards between wt0 and lan0, like a
# NetBird routing peer. The LAN host runs iperf3 servers on ports 5201..5206. Download (LAN -> client)
# leaves the peer through wt0 (tunnel TX) and then through the peer's ul0 (underlay transmit). The second
# client exists for the tunnel census (two tunnels on wt0) and stays idle unless a scenario drives it; its
# underlay is the peer's ul1, so its traffic never shows in the peer's ul0 counters.
#
# Usage (root): lab.sh up | down | status | restart-peer-tunnel [NAME]
# Env: HR_LAB_STATE (state dir, default /run/headroom-lab), HR_LAB_TUN (peer tunnel, default wt0),
#      HR_LAB_CLIENT_TUN (client tunnel, default wtc0), HR_LAB_CLIENT2_TUN (second client, default wtc1),
#      HR_LAB_IPERF_PORTS (default "5201 ... 5206"), HR_LAB_NS (namespace name prefix, default hr),
#      HR_LAB_WG (userspace: wireguard-go, the default; kernel: the kernel module's tunnels, as the VM lab uses).
#
# wireguard-go keeps its UAPI socket at /var/run/wireguard/<iface>.sock, which is not per namespace, so the three
# tunnels must have different names. Every process the lab starts runs in one of its namespaces and its PID is
# recorded in the state dir; `down` ends those PIDs and any other PID still inside the lab's namespaces, then
# deletes the namespaces (which takes the veths and their tc qdiscs along) and the stale UAPI sockets.
set -euo pipefail

NS_PREFIX=${HR_LAB_NS:-hr}
NS_CLIENT=$NS_PREFIX-client
NS_CLIENT2=$NS_PREFIX-client2
NS_PEER=$NS_PREFIX-peer
NS_LAN=$NS_PREFIX-lan
NAMESPACES="$NS_CLIENT $NS_CLIENT2 $NS_PEER $NS_LAN"
# Scenario 19 makes and removes a relay namespace of its own; `down` removes one a crashed run left behind.
NS_RELAY=$NS_PREFIX-relay
STATE=${HR_LAB_STATE:-/run/headroom-lab}
TUN=${HR_LAB_TUN:-wt0}
CTUN=${HR_LAB_CLIENT_TUN:-wtc0}
CTUN2=${HR_LAB_CLIENT2_TUN:-wtc1}
# Six servers: the profile scenario steps up to six clients, one port each, as `headroom profile` prints them.
IPERF_PORTS=${HR_LAB_IPERF_PORTS:-"5201 5202 5203 5204 5205 5206"}
WG_KIND=${HR_LAB_WG:-userspace}
MTU=1280
WG_PORT=51820
# Both sides know each other's endpoint (as NetBird peers do), so a recreated peer tunnel handshakes at once
# instead of waiting for the client's rekey timeout.
CLIENT_WG_PORT=51821
CLIENT2_WG_PORT=51822

CLIENT_UL=10.199.1.1
PEER_UL=10.199.1.2
PEER_TUN=10.199.2.1
CLIENT_TUN=10.199.2.2
CLIENT2_TUN=10.199.2.3
CLIENT2_UL=10.199.4.1
PEER_UL2=10.199.4.2
PEER_LAN=10.199.3.1
LAN_HOST=10.199.3.2
LAN_NET=10.199.3.0/24
TUN_NET=10.199.2.0/24

WG_SOCK_DIR=/var/run/wireguard
# One lab per machine: the namespace names and UAPI sockets are global. A runner holds this lock for its whole
# run (and sets HR_LAB_LOCK_HELD=1 for the lab.sh it calls); lab.sh alone holds it while it changes things.
LOCK=${HR_LAB_LOCK:-/run/headroom-lab.lock}
LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

log() { printf 'lab: %s\n' "$*" >&2; }
die() { printf 'lab: ERROR: %s\n' "$*" >&2; exit 1; }
nsx() { local ns=$1; shift; ip netns exec "$ns" "$@"; }
have_ns() { ip netns list 2>/dev/null | awk '{print $1}' | grep -qx "$1"; }
# A zombie (exited, parent has not reaped it yet) counts as gone.
alive() {
  [[ ${1:-} =~ ^[0-9]+$ ]] && kill -0 "$1" 2>/dev/null || return 1
  local st
  st=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [[ $st != Z ]]
}
# A recorded PID is still the lab's own process only if it runs outside the host's network namespace under a
# name the lab starts; after a reboot or a long pause the number may belong to something else.
ours() {
  alive "$1" || return 1
  [[ $(readlink "/proc/$1/ns/net" 2>/dev/null) != "$(readlink /proc/self/ns/net)" ]] || return 1
  case $(cat "/proc/$1/comm" 2>/dev/null) in
    wireguard-go|iperf3|java|prometheus|stress-ng*|curl|python3) return 0 ;;
    *) return 1 ;;
  esac
}

need_root() {
  [[ $(id -u) -eq 0 ]] || die "must run as root (namespaces, veth, /dev/net/tun)"
  for t in ip tc wg iperf3 python3; do
    command -v "$t" >/dev/null || die "missing tool: $t"
  done
  [[ $WG_KIND == kernel ]] && return 0
  command -v wireguard-go >/dev/null || die "missing tool: wireguard-go"
  [[ -c /dev/net/tun ]] || die "/dev/net/tun is missing (wireguard-go needs it)"
}

# Waits up to $1 seconds for the command to succeed.
wait_for() {
  local secs=$1; shift
  local deadline=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || return 1
    sleep 0.1
  done
}

take_lock() {
  [[ $(id -u) -eq 0 ]] || die "must run as root (network namespaces, veth, /dev/net/tun)"
  [[ ${HR_LAB_LOCK_HELD:-} == 1 ]] && return 0
  exec 9>"$LOCK"
  flock -w "${HR_LAB_LOCK_WAIT:-10}" 9 || die "another lab run holds $LOCK (wait for it, or HR_LAB_LOCK_WAIT=seconds)"
}

# Starts a long-running process inside a namespace, keeps its real PID (ip netns exec execs the command).
# The lock's descriptor is closed for it, so a daemon does not keep the lab locked after lab.sh exits.
start_bg() {
  local name=$1 ns=$2; shift 2
  nohup ip netns exec "$ns" "$@" >"$STATE/$name.log" 2>&1 </dev/null 9>&- &
  echo $! >"$STATE/$name.pid"
}

listening() { [[ -n $(ip netns exec "$1" ss -Hltn "sport = :$2" 2>/dev/null) ]]; }
not_alive() { ! alive "$1"; }

# Ends one PID: TERM, up to 3 s, then KILL, up to 2 s more.
stop_pid() {
  local pid=$1
  alive "$pid" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  wait_for 3 not_alive "$pid" && return 0
  kill -KILL "$pid" 2>/dev/null || true
  wait_for 2 not_alive "$pid" || log "warning: pid $pid did not exit"
}

start_wg() {
  local which=$1 ns=$2 ifc=$3
  if [[ $WG_KIND == kernel ]]; then
    nsx "$ns" ip link add "$ifc" type wireguard || die "ip link add $ifc type wireguard failed (module loaded?)"
    return 0
  fi
  [[ -S $WG_SOCK_DIR/$ifc.sock ]] && die "$WG_SOCK_DIR/$ifc.sock already in use (another $ifc tunnel on this machine?)"
  # -f keeps wireguard-go in the foreground so the recorded PID is the daemon's own.
  WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD=1 start_bg "wg-$which" "$ns" wireguard-go -f "$ifc"
  wait_for 10 test -S "$WG_SOCK_DIR/$ifc.sock" || die "wireguard-go for $ifc did not open its UAPI socket (see $STATE/wg-$which.log)"
  wait_for 5 nsx "$ns" ip link show "$ifc" || die "wireguard-go did not create $ifc in $ns"
}

# The peer's tunnel as it is named now: restart-peer-tunnel NAME renames it (the netstack scenario hides wt0).
peer_tun() { cat "$STATE/peer-tun" 2>/dev/null || echo "$TUN"; }

configure_peer_tun() {
  local tun=$1
  nsx $NS_PEER wg set "$tun" listen-port $WG_PORT private-key "$STATE/peer.key" \
    peer "$(cat "$STATE/client.pub")" allowed-ips "$CLIENT_TUN/32" \
    endpoint "$CLIENT_UL:$CLIENT_WG_PORT" persistent-keepalive 5 \
    peer "$(cat "$STATE/client2.pub")" allowed-ips "$CLIENT2_TUN/32" \
    endpoint "$CLIENT2_UL:$CLIENT2_WG_PORT" persistent-keepalive 5
  nsx $NS_PEER ip link set "$tun" mtu $MTU
  nsx $NS_PEER ip addr replace "$PEER_TUN/24" dev "$tun"
  nsx $NS_PEER ip link set "$tun" up
}

configure_client_tun() {
  nsx $NS_CLIENT wg set "$CTUN" listen-port $CLIENT_WG_PORT private-key "$STATE/client.key" \
    peer "$(cat "$STATE/peer.pub")" allowed-ips "$PEER_TUN/32,$LAN_NET" \
    endpoint "$PEER_UL:$WG_PORT" persistent-keepalive 5
  nsx $NS_CLIENT ip link set "$CTUN" mtu $MTU
  nsx $NS_CLIENT ip addr replace "$CLIENT_TUN/24" dev "$CTUN"
  nsx $NS_CLIENT ip link set "$CTUN" up
  nsx $NS_CLIENT ip route replace "$LAN_NET" dev "$CTUN"
}

configure_client2_tun() {
  nsx $NS_CLIENT2 wg set "$CTUN2" listen-port $CLIENT2_WG_PORT private-key "$STATE/client2.key" \
    peer "$(cat "$STATE/peer.pub")" allowed-ips "$PEER_TUN/32,$LAN_NET" \
    endpoint "$PEER_UL2:$WG_PORT" persistent-keepalive 5
  nsx $NS_CLIENT2 ip link set "$CTUN2" mtu $MTU
  nsx $NS_CLIENT2 ip addr replace "$CLIENT2_TUN/24" dev "$CTUN2"
  nsx $NS_CLIENT2 ip link set "$CTUN2" up
  nsx $NS_CLIENT2 ip route replace "$LAN_NET" dev "$CTUN2"
}

# One ICMP echo from namespace $1 to $2 within $3 seconds. Uses ping(8) when installed (iputils-ping is not
# always there), else the same echo over a raw socket from python3.
ping1() {
  local ns=$1 dst=$2 secs=${3:-2}
  if command -v ping >/dev/null; then
    nsx "$ns" ping -c 1 -W "$secs" "$dst" >/dev/null 2>&1
  else
    nsx "$ns" python3 "$LAB_DIR/icmp_echo.py" "$dst" "$secs" >/dev/null 2>&1
  fi
}

# Checks the data path end to end: the underlay, the tunnel and the routed LAN behind the peer, both ways.
ping_check() {
  ping1 $NS_CLIENT "$PEER_UL" 1 || return 1
  ping1 $NS_CLIENT "$PEER_TUN" 2 || return 1
  ping1 $NS_CLIENT "$LAN_HOST" 2 || return 1
  ping1 $NS_LAN "$CLIENT_TUN" 2 || return 1
  ping1 $NS_CLIENT2 "$PEER_UL2" 1 || return 1
  ping1 $NS_CLIENT2 "$LAN_HOST" 2 || return 1
  ping1 $NS_LAN "$CLIENT2_TUN" 2 || return 1
}

healthy() {
  local ns
  for ns in $NAMESPACES; do have_ns $ns || return 1; done
  if [[ $WG_KIND != kernel ]]; then
    alive "$(cat "$STATE/wg-peer.pid" 2>/dev/null)" || return 1
    alive "$(cat "$STATE/wg-client.pid" 2>/dev/null)" || return 1
    alive "$(cat "$STATE/wg-client2.pid" 2>/dev/null)" || return 1
  fi
  local p
  for p in $IPERF_PORTS; do alive "$(cat "$STATE/iperf3-$p.pid" 2>/dev/null)" || return 1; done
  ping_check
}

cmd_up() {
  need_root
  if healthy 2>/dev/null; then
    log "already up"
    return 0
  fi
  # Whatever is left of an earlier, failed or killed run goes first.
  cmd_down
  mkdir -p "$STATE" "$WG_SOCK_DIR"
  chmod 700 "$STATE"

  log "namespaces"
  for ns in $NAMESPACES; do
    ip netns add $ns
    nsx $ns ip link set lo up
  done

  log "veth pairs (created directly inside the namespaces: nothing appears in the host namespace)"
  ip link add ul0 netns $NS_CLIENT type veth peer name ul0 netns $NS_PEER
  ip link add lan0 netns $NS_PEER type veth peer name lan0 netns $NS_LAN
  ip link add ul0 netns $NS_CLIENT2 type veth peer name ul1 netns $NS_PEER
  nsx $NS_CLIENT2 ip addr add "$CLIENT2_UL/24" dev ul0
  nsx $NS_PEER ip addr add "$PEER_UL2/24" dev ul1
  nsx $NS_CLIENT2 ip link set ul0 up
  nsx $NS_PEER ip link set ul1 up
  nsx $NS_CLIENT ip addr add "$CLIENT_UL/24" dev ul0
  nsx $NS_PEER ip addr add "$PEER_UL/24" dev ul0
  nsx $NS_PEER ip addr add "$PEER_LAN/24" dev lan0
  nsx $NS_LAN ip addr add "$LAN_HOST/24" dev lan0
  nsx $NS_CLIENT ip link set ul0 up
  nsx $NS_PEER ip link set ul0 up
  nsx $NS_PEER ip link set lan0 up
  nsx $NS_LAN ip link set lan0 up
  nsx $NS_LAN ip route add "$TUN_NET" via "$PEER_LAN"
  nsx $NS_PEER sysctl -qw net.ipv4.ip_forward=1

  log "keys"
  (umask 077
    wg genkey >"$STATE/peer.key"
    wg genkey >"$STATE/client.key"
    wg genkey >"$STATE/client2.key")
  wg pubkey <"$STATE/peer.key" >"$STATE/peer.pub"
  wg pubkey <"$STATE/client.key" >"$STATE/client.pub"
  wg pubkey <"$STATE/client2.key" >"$STATE/client2.pub"

  log "$WG_KIND WireGuard: $TUN in $NS_PEER, $CTUN in $NS_CLIENT, $CTUN2 in $NS_CLIENT2 (MTU $MTU)"
  start_wg peer $NS_PEER "$TUN"
  configure_peer_tun "$TUN"
  start_wg client $NS_CLIENT "$CTUN"
  configure_client_tun
  start_wg client2 $NS_CLIENT2 "$CTUN2"
  configure_client2_tun

  log "iperf3 servers on $LAN_HOST ports $IPERF_PORTS"
  for p in $IPERF_PORTS; do
    start_bg "iperf3-$p" $NS_LAN iperf3 -s -B "$LAN_HOST" -p "$p"
  done
  for p in $IPERF_PORTS; do
    wait_for 5 listening $NS_LAN "$p" || die "iperf3 server on port $p did not start"
  done

  log "ping through the tunnel"
  wait_for 10 ping_check || die "no ping through the tunnels (clients -> $PEER_TUN / $LAN_HOST)"
  log "up: clients $CLIENT_TUN and $CLIENT2_TUN -> LAN $LAN_HOST through $TUN; state in $STATE"
}

# Recreates the peer's tunnel as a NetBird restart would: a new wireguard-go, a new interface (new ifindex,
# counters from 0), same keys and addresses, named NAME if given (else as it was). The clients keep their tunnels
# and reconnect on their own.
cmd_restart_peer_tun() {
  need_root
  have_ns $NS_PEER || die "lab is not up"
  local old new
  old=$(peer_tun)
  new=${1:-$old}
  [[ $new =~ ^[a-zA-Z0-9_.-]{1,15}$ ]] || die "bad tunnel name: $new"
  if [[ $WG_KIND == kernel ]]; then
    nsx $NS_PEER ip link del "$old" || die "ip link del $old failed"
  fi
  stop_pid "$(cat "$STATE/wg-peer.pid" 2>/dev/null)"
  wait_for 5 bash -c "! ip netns exec $NS_PEER ip link show $old" || die "$old did not go away"
  rm -f "$WG_SOCK_DIR/$old.sock"
  start_wg peer $NS_PEER "$new"
  echo "$new" >"$STATE/peer-tun"
  configure_peer_tun "$new"
  wait_for 15 ping1 $NS_CLIENT "$LAN_HOST" 1 || die "no ping after restarting $new"
  wait_for 15 ping1 $NS_CLIENT2 "$LAN_HOST" 1 || die "no ping from the second client after restarting $new"
}

cmd_down() {
  [[ $(id -u) -eq 0 ]] || die "must run as root"
  local f pid ns tun
  tun=$(peer_tun)
  # Recorded PIDs first (the lab's own processes), then anything else still inside the lab's namespaces
  # (scenario helpers, a crashed run's leftovers): a namespace with live processes outlives `ip netns del`.
  if [[ -d $STATE ]]; then
    for f in "$STATE"/*.pid; do
      [[ -e $f ]] || continue
      pid=$(cat "$f" 2>/dev/null || true)
      if ours "$pid"; then stop_pid "$pid"; fi
      rm -f "$f"
    done
  fi
  for ns in $NAMESPACES $NS_RELAY; do
    have_ns $ns || continue
    for pid in $(ip netns pids $ns 2>/dev/null); do stop_pid "$pid"; done
    # Explicit, though deleting the namespace removes the veths and their qdiscs anyway.
    ip netns exec $ns tc qdisc del dev ul0 root 2>/dev/null || true
    ip netns exec $ns tc qdisc del dev lan0 root 2>/dev/null || true
    ip netns exec $ns tc qdisc del dev ul1 root 2>/dev/null || true
    ip netns del $ns 2>/dev/null || log "warning: could not delete namespace $ns"
  done
  # A killed wireguard-go leaves its socket behind; a live one elsewhere would still answer wg.
  for f in "$WG_SOCK_DIR/$TUN.sock" "$WG_SOCK_DIR/$tun.sock" "$WG_SOCK_DIR/$CTUN.sock" "$WG_SOCK_DIR/$CTUN2.sock"; do
    [[ -e $f ]] || continue
    if wg show "$(basename "$f" .sock)" >/dev/null 2>&1; then
      log "warning: $f belongs to a live tunnel outside the lab; left alone"
    else
      rm -f "$f"
    fi
  done
  rm -rf "$STATE"
}

cmd_status() {
  local rc=0 ns f
  for ns in $NAMESPACES; do
    if have_ns $ns; then echo "namespace $ns: present"; else echo "namespace $ns: absent"; rc=1; fi
  done
  if [[ -d $STATE ]]; then
    for f in "$STATE"/*.pid; do
      [[ -e $f ]] || continue
      if alive "$(cat "$f")"; then echo "$(basename "$f" .pid): pid $(cat "$f") running"
      else echo "$(basename "$f" .pid): pid $(cat "$f") DEAD"; rc=1; fi
    done
  else
    echo "state dir $STATE: absent"; rc=1
  fi
  if have_ns $NS_PEER; then
    nsx $NS_PEER ip -br addr 2>/dev/null | sed 's/^/peer: /'
    nsx $NS_PEER tc qdisc show dev ul0 2>/dev/null | sed 's/^/peer ul0 qdisc: /'
    nsx $NS_PEER wg show "$(peer_tun)" 2>/dev/null | sed 's/^/peer wg: /' || true
  fi
  if have_ns $NS_CLIENT && have_ns $NS_CLIENT2 && have_ns $NS_LAN; then
    if ping_check; then echo "ping clients <-> LAN through $TUN: ok"
    else echo "ping clients <-> LAN through $TUN: FAILED"; rc=1; fi
  fi
  return $rc
}

case ${1:-} in
  up) take_lock; cmd_up ;;
  down) take_lock; cmd_down; log "down" ;;
  status) cmd_status ;;
  restart-peer-tunnel) take_lock; cmd_restart_peer_tun "${2:-}" ;;
  *) echo "usage: $0 up|down|status|restart-peer-tunnel [NAME]" >&2; exit 2 ;;
esac
