package dev.headroom.sample.census;

import dev.headroom.sample.Direction;
import java.util.Objects;

/**
 * The tunnel census of one direction over the last sample interval.
 *
 * <p>Usage: {@code snapshot.download().hottestShare() > 0.5 ? "one tunnel dominates" : "spread"}
 *
 * @param direction download (peer to users, WireGuard tx) or upload (users to peer, WireGuard rx)
 * @param totalBytesPerSecond sum of all tunnels' rates (WireGuard per-peer bytes: includes its framing,
 *     so a few percent above the interface's inner-IP throughput)
 * @param hottestBytesPerSecond the fastest single tunnel
 * @param hottestShare the fastest tunnel's share of the total, 0..1 (0 when nothing moves)
 * @param activeMeanBytesPerSecond mean rate of the active tunnels (0 when none is active): the observed
 *     per-active-user rate for sizing
 * @param histogram rates of the active tunnels
 */
public record DirectionCensus(
    Direction direction,
    double totalBytesPerSecond,
    double hottestBytesPerSecond,
    double hottestShare,
    double activeMeanBytesPerSecond,
    RateHistogram histogram) {

  public DirectionCensus {
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(histogram, "histogram");
  }

  static DirectionCensus empty(Direction d) {
    return new DirectionCensus(d, 0, 0, 0, 0, RateHistogram.empty());
  }
}
