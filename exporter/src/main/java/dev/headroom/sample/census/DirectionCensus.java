package dev.headroom.sample.census;

import dev.headroom.read.wg.Connection;
import java.util.Map;

/**
 * The tunnel census of one direction over the last sample interval.
 *
 * <p>Usage: {@code snapshot.download().hottestShare() > 0.5 ? "one tunnel dominates" : "spread"}
 *
 * @param totalBytesPerSecond sum of all tunnels' rates (WireGuard per-peer bytes: includes its framing,
 *     so a few percent above the interface's inner-IP throughput)
 * @param hottestBytesPerSecond the fastest single tunnel
 * @param hottestShare the fastest tunnel's share of the total, 0..1 (0 when nothing moves)
 * @param activeMeanBytesPerSecond mean rate of the active tunnels (0 when none is active): the observed
 *     per-active-user rate for sizing
 * @param histogram rates of the active tunnels
 * @param byConnection the total split by how each tunnel is carried (every {@link Connection}, 0 when none)
 * @param hottestConnection how the fastest tunnel is carried
 */
public record DirectionCensus(
    double totalBytesPerSecond,
    double hottestBytesPerSecond,
    double hottestShare,
    double activeMeanBytesPerSecond,
    RateHistogram histogram,
    Map<Connection, Double> byConnection,
    Connection hottestConnection) {

  public DirectionCensus {
    byConnection = Map.copyOf(byConnection);
  }

  /** The rate of the tunnels carried this way. */
  public double bytesPerSecond(Connection c) {
    return byConnection.getOrDefault(c, 0.0);
  }
}
