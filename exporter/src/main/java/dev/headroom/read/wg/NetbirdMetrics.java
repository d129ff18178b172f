package dev.headroom.read.wg;

import java.util.List;

/**
 * What NetBird's opt-in local metrics endpoint ({@code netbird up --enable-local-metrics}, by default
 * {@code http://127.0.0.1:9191/metrics}) says about its peers: the same facts {@link NetbirdStatus} reads from
 * {@code netbird status --json}, minus bytes, which the endpoint does not report.
 *
 * <p>Two differences from {@code netbird status --json}, both NetBird's (collector in
 * {@code client/internal/localmetrics/localmetrics.go}): latency is only reported for P2P peers (a relayed
 * peer gets no series), and every connected peer is either P2P or relayed (NetBird decides by its
 * {@code Relayed} flag alone), so {@link NetbirdStatus#connectedUnknownType()} is 0 unless a later NetBird adds a
 * {@code connection_type} value headroom does not know.
 *
 * <p>Usage: {@code metrics.relayed() > 0 ? "some peers relayed" : "all direct"}
 *
 * @param peersTotal peers NetBird knows, connected or not ({@code netbird_peers})
 * @param peersConnected connected peers of every connection type (the sum of {@code netbird_peers_connected})
 * @param p2p connected peers with {@code connection_type="p2p"}
 * @param relayed connected peers with {@code connection_type="relay"}
 * @param latencies the measured latency of each P2P peer that has one ({@code netbird_peer_latency_seconds}),
 *     in the endpoint's order (by peer name)
 */
public record NetbirdMetrics(
    int peersTotal,
    int peersConnected,
    int p2p,
    int relayed,
    List<PeerLatency> latencies) {

  /**
   * One P2P peer's round-trip latency.
   *
   * @param peer the peer's FQDN as NetBird labels it ({@code peer}); empty when NetBird has none
   * @param seconds the latency, above zero
   */
  public record PeerLatency(String peer, double seconds) {}

  public NetbirdMetrics {
    latencies = List.copyOf(latencies);
  }

  /** The reported latencies alone, as {@link NetbirdStatus#latencySeconds()} has them. */
  public List<Double> latencySeconds() {
    return latencies.stream().map(PeerLatency::seconds).toList();
  }
}
