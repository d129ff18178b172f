package dev.headroom.read.wg;

import java.util.List;
import java.util.OptionalDouble;

/**
 * What NetBird says about its peers ({@code netbird status --json}): how many there are, how many are
 * connected, and how the connected ones are carried, straight (P2P) or through a relay. Relayed peers
 * put their traffic through a relay server instead of this peer's own path; a rise is worth an alert.
 *
 * <p>Usage: {@code status.relayed() > 0 ? "some peers relayed" : "all direct"}
 *
 * @param peersTotal peers NetBird lists
 * @param peersConnected peers whose status is Connected
 * @param p2p connected peers with connection type P2P
 * @param relayed connected peers with connection type Relayed
 * @param latencySeconds measured latency of each connected peer that reported one (older clients: none)
 * @param usesKernelInterface NetBird reports the kernel WireGuard datapath (false when it does not say)
 * @param daemonConnected NetBird says it is up: {@code daemonStatus} is {@code Connected}, or (older clients,
 *     which have no {@code daemonStatus}) management is connected
 * @param transfers every listed peer with a public key and its byte counters, in NetBird's order
 */
public record NetbirdStatus(
    int peersTotal,
    int peersConnected,
    int p2p,
    int relayed,
    List<Double> latencySeconds,
    boolean usesKernelInterface,
    boolean daemonConnected,
    List<PeerTransfer> transfers) {

  public NetbirdStatus {
    latencySeconds = List.copyOf(latencySeconds);
    transfers = List.copyOf(transfers);
  }

  /**
   * NetBird is up with no kernel interface of its own: the netstack datapath when, besides, no interface of the
   * tunnel's name exists (the caller checks that; a userspace wireguard-go on a TUN also says false here).
   */
  public boolean connectedWithoutKernelInterface() {
    return daemonConnected && !usesKernelInterface;
  }

  /**
   * NetBird's view from its local metrics endpoint: the same counts and latencies, no per-peer bytes or names, and
   * no say on the datapath (it does not tell kernel from netstack), so it never makes the datapath netstack.
   */
  public static NetbirdStatus of(NetbirdMetrics m) {
    return new NetbirdStatus(m.peersTotal(), m.peersConnected(), m.p2p(), m.relayed(), m.latencySeconds(), false,
        false, List.of());
  }

  /** The listed peers by their key in UAPI's hex ({@link PeerTransfer#hexKey}), as the census keys its tunnels. */
  public java.util.Map<String, PeerTransfer> byKey() {
    java.util.Map<String, PeerTransfer> m = new java.util.HashMap<>(transfers.size() * 2);
    for (PeerTransfer t : transfers) {
      m.putIfAbsent(t.hexKey(), t);
    }
    return m;
  }

  /** Connected peers whose connection type NetBird did not state. */
  public int connectedUnknownType() {
    return Math.max(0, peersConnected - p2p - relayed);
  }

  /** Mean of the reported latencies; empty when none was reported. */
  public OptionalDouble latencyMeanSeconds() {
    return latencySeconds.stream().mapToDouble(Double::doubleValue).average();
  }

  /** Highest reported latency; empty when none was reported. */
  public OptionalDouble latencyMaxSeconds() {
    return latencySeconds.stream().mapToDouble(Double::doubleValue).max();
  }
}
