package dev.headroom.serve;

import dev.headroom.read.wg.Connection;
import dev.headroom.read.wg.NetbirdStatus;
import dev.headroom.sample.Direction;
import dev.headroom.sample.Sample;
import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.sample.census.CensusTotals;
import dev.headroom.sample.census.RateHistogram;
import java.util.Arrays;
import java.util.stream.DoubleStream;

/**
 * The tunnels behind the peer, without a series per tunnel: counts by state, the per-tunnel rate histogram,
 * the hottest tunnel and the mean active user; and NetBird's own peer counts when its status is read.
 *
 * <p>Usage: {@code CensusMetrics.write(families, published);}
 */
final class CensusMetrics {
  static final Family TUNNELS = Family.gauge("headroom_tunnels",
      "Tunnels (one per client device): all, with a handshake in the last 180 s, and active (moving data).");
  static final Family RATE = Family.histogram("headroom_tunnel_rate_bytes_per_second",
      "Per-tunnel rates of the active tunnels, observed at every census (no per-tunnel series).");
  static final Family HOTTEST = Family.gauge("headroom_tunnel_hottest_bytes_per_second",
      "Rate of the fastest tunnel (one tunnel is about one core).");
  static final Family HOTTEST_SHARE = Family.gauge("headroom_tunnel_hottest_share_ratio",
      "The fastest tunnel's share of the direction's tunnel traffic.");
  static final Family ACTIVE_MEAN = Family.gauge("headroom_active_user_mean_bytes_per_second",
      "Mean rate per active tunnel: the observed per-user rate for sizing.");
  static final Family ACTIVE_BY_CONNECTION = Family.gauge("headroom_tunnels_active",
      "Active tunnels by how they are carried: p2p, relayed (through NetBird's relay) or unknown.");
  static final Family TRAFFIC_BY_CONNECTION = Family.gauge("headroom_tunnel_traffic_bytes_per_second",
      "The tunnels' traffic by how each is carried (p2p, relayed, unknown), from the census.");
  static final Family NETBIRD_PEERS = Family.gauge("headroom_netbird_peers",
      "Connected NetBird peers by connection type, from 'netbird status --json'.");
  static final Family NETBIRD_LISTED = Family.gauge("headroom_netbird_peers_listed", "Peers NetBird lists, connected or not.");
  static final Family NETBIRD_LATENCY_MEAN = Family.gauge("headroom_netbird_peer_latency_mean_seconds",
      "Mean latency NetBird reports for its connected peers.");
  static final Family NETBIRD_LATENCY_MAX = Family.gauge("headroom_netbird_peer_latency_max_seconds",
      "Highest latency NetBird reports for its connected peers.");

  private static final double[] RATE_BOUNDS =
      DoubleStream.concat(Arrays.stream(RateHistogram.upperBounds()), DoubleStream.of(Double.POSITIVE_INFINITY))
          .toArray();

  private CensusMetrics() {}

  static void write(Families f, Published p) {
    census(f, p.sample());
    netbird(f, p.netbird());
  }

  private static void census(Families f, Sample s) {
    CensusSnapshot c = s.census();
    if (c == null) {
      return;
    }
    f.gauge(TUNNELS, c.tunnels(), "state", "total");
    f.gauge(TUNNELS, c.handshakeRecent(), "state", "handshake_recent");
    f.gauge(TUNNELS, c.active(), "state", "active");
    for (Connection k : Connection.values()) {
      f.gauge(ACTIVE_BY_CONNECTION, c.active(k), "connection", k.label());
    }
    CensusTotals totals = s.censusTotals();
    if (totals != null) {
      for (Direction d : Direction.values()) {
        f.histogram(RATE, RATE_BOUNDS, totals.perBucket(d), totals.sum(d), "direction", d.label());
      }
    }
    if (!c.hasRates()) {
      return;
    }
    for (Direction d : Direction.values()) {
      f.gauge(HOTTEST, c.direction(d).hottestBytesPerSecond(), "direction", d.label());
      f.gauge(HOTTEST_SHARE, c.direction(d).hottestShare(), "direction", d.label());
      f.gauge(ACTIVE_MEAN, c.direction(d).activeMeanBytesPerSecond(), "direction", d.label());
      for (Connection k : Connection.values()) {
        f.gauge(TRAFFIC_BY_CONNECTION, c.direction(d).bytesPerSecond(k), "direction", d.label(), "connection", k.label());
      }
    }
  }

  private static void netbird(Families f, NetbirdStatus n) {
    if (n == null) {
      return;
    }
    f.gauge(NETBIRD_PEERS, n.p2p(), "connection", "p2p");
    f.gauge(NETBIRD_PEERS, n.relayed(), "connection", "relayed");
    f.gauge(NETBIRD_PEERS, n.connectedUnknownType(), "connection", "unknown");
    f.gauge(NETBIRD_LISTED, n.peersTotal());
    n.latencyMeanSeconds().ifPresent(v -> f.gauge(NETBIRD_LATENCY_MEAN, v));
    n.latencyMaxSeconds().ifPresent(v -> f.gauge(NETBIRD_LATENCY_MAX, v));
  }
}
